/*
 * Algorithm tables, all generated from algos.def, and the restriction
 * check.  The public listing functions (papcoll_algo_*) are here too.
 */
#include <string.h>

#include "algo.h"


/* The operations' names, default policies, environment variables and INI
 * keys: the one table of them (papcoll_ops.def), read through the
 * papcoll_op_* accessors by the library and the interposer. */
typedef struct {
    const char *name, *dflt, *env, *ini;
} op_entry_t;

static const op_entry_t ops[] = {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) {#name, dflt, env, ini},
#include "papcoll_ops.def"
#undef PAPCOLL_OP
};

#define PAPCOLL__BG_NONE(op, name) NULL
#define PAPCOLL__BG_BG(op, name) papcoll__##op##_##name##_bg
static const papcoll__algo_t algos[] = {
#define PAPCOLL_ALGO(op, name, flags, fallback, planner, bg, cost, sorted, bsorted, summary)                    \
    {(papcoll_op_t)PAPCOLL__OPID_##op, #name, (flags), PAPCOLL__A_##op##_##fallback, papcoll__plan_##planner, \
     PAPCOLL__BG_##bg(op, name),                                                                             \
     summary, papcoll_##op##_##name},
#include "algos.def"
#undef PAPCOLL_ALGO
};

/* Where each op's lines start in algos[] (every op's first line is its "mpi"). */
static const int first[PAPCOLL_OP_COUNT + 1] = {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) PAPCOLL__AG_##name##_mpi,
#include "papcoll_ops.def"
#undef PAPCOLL_OP
    PAPCOLL__AG_COUNT};

const papcoll__algo_t *papcoll__algo(papcoll_op_t op, int i)
{
    if (op < 0 || op >= PAPCOLL_OP_COUNT || i < 0 || i >= first[op + 1] - first[op])
        return NULL;
    return &algos[first[op] + i];
}

const char *papcoll_op_name(papcoll_op_t op)
{
    return (op >= 0 && op < PAPCOLL_OP_COUNT) ? ops[op].name : "?";
}

const char *papcoll_op_default(papcoll_op_t op)
{
    return (op >= 0 && op < PAPCOLL_OP_COUNT) ? ops[op].dflt : NULL;
}

const char *papcoll_op_env(papcoll_op_t op)
{
    return (op >= 0 && op < PAPCOLL_OP_COUNT) ? ops[op].env : NULL;
}

const char *papcoll_op_ini_key(papcoll_op_t op)
{
    return (op >= 0 && op < PAPCOLL_OP_COUNT) ? ops[op].ini : NULL;
}

int papcoll_op_find(const char *name)
{
    int op;

    for (op = 0; name != NULL && op < PAPCOLL_OP_COUNT; op++)
        if (strcmp(ops[op].name, name) == 0)
            return op;
    return PAPCOLL_ERR_INVAL;
}

int papcoll_algo_count(papcoll_op_t op)
{
    return op >= 0 && op < PAPCOLL_OP_COUNT ? first[op + 1] - first[op] : 0;
}

const char *papcoll_algo_name(papcoll_op_t op, int i)
{
    const papcoll__algo_t *e = papcoll__algo(op, i);
    return e ? e->name : NULL;
}

const char *papcoll_algo_summary(papcoll_op_t op, int i)
{
    const papcoll__algo_t *e = papcoll__algo(op, i);
    return e ? e->summary : NULL;
}

unsigned papcoll_algo_flags(papcoll_op_t op, int i)
{
    const papcoll__algo_t *e = papcoll__algo(op, i);
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

papcoll__why_t papcoll__algo_check(papcoll_op_t op, int i, const papcoll__sig_t *sig, int P,
                                   int has_monitor)
{
    unsigned f = papcoll_algo_flags(op, i);

    if ((f & PAPCOLL_F_BACKGROUND) && !has_monitor)
        return PAPCOLL__WHY_NO_MONITOR;
    if ((f & PAPCOLL_F_POW2) && (P & (P - 1)) != 0)
        return PAPCOLL__WHY_NOT_POW2;
    if (sig == NULL)
        return PAPCOLL__WHY_OK; /* not known yet: checked again at the call */
    if ((f & PAPCOLL_F_COMMUTATIVE_ONLY) && !sig->commutative)
        return PAPCOLL__WHY_NONCOMMUTATIVE;
    if ((f & PAPCOLL_F_BUILTIN_OP_ONLY) && !sig->builtin)
        return PAPCOLL__WHY_USER_OP;
    return PAPCOLL__WHY_OK;
}

const char *papcoll__why_text(papcoll__why_t why)
{
    switch (why) {
    case PAPCOLL__WHY_NO_MONITOR: return "needs the monitor thread (MPI_THREAD_MULTIPLE)";
    case PAPCOLL__WHY_NONCOMMUTATIVE: return "needs a commutative operation";
    case PAPCOLL__WHY_USER_OP: return "needs a predefined operation";
    case PAPCOLL__WHY_NOT_POW2: return "needs a power-of-two process count";
    default: return "serves the call";
    }
}
