/*
 * Selection: the algorithm of each call (select.h).  Pure: the policy, the
 * signature, P and whether there are monitor threads decide, so every rank
 * selects the same algorithm (DESIGN invariant 1).
 */
#include <stdio.h>
#include <string.h>

#include "algo.h"
#include "select.h"

int papcoll__policy_parse(papcoll_op_t op, const char *text, papcoll__policy_t *out)
{
    const char *name = text;
    int i;

    if (text == NULL)
        return PAPCOLL_ERR_POLICY;
    if (strncmp(text, "fixed:", 6) == 0)
        name = text + 6;
    else if (strchr(text, ':') != NULL)
        return PAPCOLL_ERR_POLICY;
    if ((i = papcoll_algo_find(op, name)) < 0)
        return PAPCOLL_ERR_ALGO;
    memset(out, 0, sizeof(*out));
    out->kind = PAPCOLL__POLICY_FIXED;
    out->algo = i;
    snprintf(out->text, sizeof(out->text), "fixed:%s", papcoll_algo_name(op, i));
    return PAPCOLL_OK;
}

/* Appends "; NAME cannot: WHY, runs FALLBACK" to the reason. */
static void note_fallback(papcoll_op_t op, int from, int to, papcoll__why_t why, papcoll__selection_t *s)
{
    size_t n = strlen(s->reason);

    snprintf(s->reason + n, sizeof(s->reason) - n, "; %s %s: runs %s", papcoll_algo_name(op, from),
             papcoll__why_text(why), papcoll_algo_name(op, to));
}

void papcoll__select(const papcoll__policy_t *policy, papcoll_op_t op, const papcoll__sig_t *sig,
                     int P, int has_monitor, papcoll__selection_t *out)
{
    int algo = policy->algo, steps, next;
    papcoll__why_t why;

    out->fell_back = 0;
    snprintf(out->reason, sizeof(out->reason), "policy %s", policy->text);
    /* Every chain ends at an algorithm that serves every call; the bound
     * only guards against a cycle in algos.def (the matrix checks there is none). */
    for (steps = 0; steps < 16; steps++) {
        why = papcoll__algo_check(op, algo, sig, P, has_monitor);
        if (why == PAPCOLL__WHY_OK)
            break;
        next = papcoll__algo_fallback_of(op, algo);
        note_fallback(op, algo, next, why, out);
        out->fell_back = 1;
        algo = next;
    }
    out->algo = algo;
}
