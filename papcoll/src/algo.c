/*
 * Algorithm tables, all generated from algos.def.
 */
#include <string.h>

#include "papcoll_internal.h"

typedef struct {
    papcoll_op_t op;
    const char *name;
    unsigned flags;
    const char *fallback;
    papcoll__bg_fn bg;
    const char *summary;
    papcoll__algo_fn fn;
} algo_entry_t;

#define PAPCOLL_OP_gather PAPCOLL_OP_GATHER
#define PAPCOLL_OP_scatter PAPCOLL_OP_SCATTER

static const algo_entry_t algos[] = {
#define PAPCOLL_ALGO(op, name, flags, fallback, bg, summary) \
    {PAPCOLL_OP_##op, #name, (flags), #fallback, bg, summary, papcoll_##op##_##name},
#include "algos.def"
#undef PAPCOLL_ALGO
};

#define NALGOS ((int)(sizeof(algos) / sizeof(algos[0])))

/* Entry i of op (the i-th of that op in algos.def), or NULL. */
static const algo_entry_t *entry(papcoll_op_t op, int i)
{
    int k, seen = 0;

    for (k = 0; k < NALGOS; k++)
        if (algos[k].op == op && seen++ == i)
            return &algos[k];
    return NULL;
}

const char *papcoll_op_name(papcoll_op_t op)
{
    switch (op) {
    case PAPCOLL_OP_GATHER: return "gather";
    case PAPCOLL_OP_SCATTER: return "scatter";
    default: return "?";
    }
}

int papcoll_algo_count(papcoll_op_t op)
{
    int k, n = 0;

    for (k = 0; k < NALGOS; k++)
        n += algos[k].op == op;
    return n;
}

const char *papcoll_algo_name(papcoll_op_t op, int i)
{
    const algo_entry_t *e = entry(op, i);
    return e ? e->name : NULL;
}

const char *papcoll_algo_summary(papcoll_op_t op, int i)
{
    const algo_entry_t *e = entry(op, i);
    return e ? e->summary : NULL;
}

unsigned papcoll_algo_flags(papcoll_op_t op, int i)
{
    const algo_entry_t *e = entry(op, i);
    return e ? e->flags : 0;
}

int papcoll_algo_find(papcoll_op_t op, const char *name)
{
    int i, n = papcoll_algo_count(op);

    for (i = 0; name != NULL && i < n; i++)
        if (strcmp(papcoll_algo_name(op, i), name) == 0)
            return i;
    return PAPCOLL_ERR_ALGO;
}

const char *papcoll_algo_list(papcoll_op_t op, char *buf, size_t len)
{
    int i, n = papcoll_algo_count(op);
    size_t used = 0;

    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (i = 0; i < n && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? " " : "", papcoll_algo_name(op, i));
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}

papcoll__algo_fn papcoll__algo_fn_of(papcoll_op_t op, int i)
{
    const algo_entry_t *e = entry(op, i);
    return e ? e->fn : NULL;
}

papcoll__bg_fn papcoll__algo_bg_of(papcoll_op_t op, int i)
{
    const algo_entry_t *e = entry(op, i);
    return e ? e->bg : NULL;
}

int papcoll__algo_foreground_of(papcoll_op_t op, int i)
{
    const algo_entry_t *e = entry(op, i);
    return e ? papcoll_algo_find(op, e->fallback) : PAPCOLL_ERR_ALGO;
}
