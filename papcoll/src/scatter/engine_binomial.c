/*
 * Binomial scatters: the engine behind bnom and sbn, and the root of bsbn.
 * The tree is the contiguous-subtree binomial tree of sched.h; the root
 * serves its children largest subtree first, and every interior node does
 * the same with the range it received.
 *
 *   P = 6, classic placement (root 0):     round 0: 0->4 (blocks 4,5)
 *        0                                 round 1: 0->2 (2,3)  4->5
 *      / | \                               round 2: 0->1        2->3
 *     4  2  1
 *     |  |
 *     5  3
 *
 * The placement of ranks on vranks is the plan's (plan.c).
 * Cost: ceil(log2 P) alpha + (P-1)(N/P) beta (Proficz 2020, Eq. 7).
 * Memory: span(v) blocks per interior node; P blocks at the root when the
 * placement is not the identity (the paper's shuffle).
 */
#include <stdlib.h>
#include <string.h>

#include "scatter/engine.h"
#include "sched/sched.h"

/* Sends the children's ranges of buf, which holds vranks [v, v + span). */
static int send_children(const papcoll__args_t *a, const int *v2r, int v, const char *buf)
{
    int children[32], nc = papcoll__bn_children(v, a->size, children), i, rc;

    for (i = 0; i < nc; i++) {
        rc = papcoll__send_bytes(buf + (size_t)(children[i] - v) * a->bytes,
                                 (size_t)papcoll__bn_span(children[i], a->size) * a->bytes,
                                 v2r[children[i]], PAPCOLL__TAG_DATA, a->comm);
        if (rc != PAPCOLL_OK)
            return rc;
    }
    return PAPCOLL_OK;
}

/* Root: permute rank order into vrank order (unless identity), keep own. */
int papcoll__scatter_bn_root(const papcoll__args_t *a, const int *v2r)
{
    char *tmp = NULL;
    const char *buf = a->sbuf;
    int w, rc;

    for (w = 0; w < a->size && v2r[w] == w; w++)
        ;
    if (w < a->size) {
        if ((tmp = malloc((size_t)a->size * a->bytes + 1)) == NULL)
            return PAPCOLL_ERR_NOMEM;
        for (w = 0; w < a->size; w++)
            papcoll__copy(tmp + (size_t)w * a->bytes, a->sbuf + (size_t)v2r[w] * a->bytes, a->bytes);
        buf = tmp;
    }
    if (a->rbuf != NULL)
        papcoll__copy(a->rbuf, buf, a->bytes);
    rc = send_children(a, v2r, 0, buf);
    free(tmp);
    return rc;
}

static int run(const papcoll__args_t *a, const int *v2r, const int *r2v)
{
    int v = r2v[a->rank], span = papcoll__bn_span(v, a->size), parent, rc;
    char *tmp;

    if (v == 0)
        return papcoll__scatter_bn_root(a, v2r);
    parent = v2r[papcoll__bn_parent(v)];
    if (span == 1)
        return papcoll__recv_bytes(a->rbuf, a->bytes, parent, PAPCOLL__TAG_DATA, a->comm);
    if ((tmp = malloc((size_t)span * a->bytes + 1)) == NULL)
        return PAPCOLL_ERR_NOMEM;
    rc = papcoll__recv_bytes(tmp, (size_t)span * a->bytes, parent, PAPCOLL__TAG_DATA, a->comm);
    if (rc == PAPCOLL_OK)
        rc = send_children(a, v2r, v, tmp);
    if (rc == PAPCOLL_OK)
        papcoll__copy(a->rbuf, tmp, a->bytes);
    free(tmp);
    return rc;
}

int papcoll__scatter_bn_engine(const papcoll__args_t *a)
{
    return run(a, a->plan->v2r, a->plan->r2v);
}
