/*
 * The tree bcast engine: one function for every shape of sched/tree.h with
 * the plan's placement, optionally segmented.  The thin wrappers
 * (bcast_binomial.c, bcast_pipelined.c, bcast_chain.c, bcast_sorted.c) only
 * choose the shape, the placement and the segment size.
 *
 *   binomial, P = 8, one message:       pipelined binary tree (k-ary, k = 2),
 *   round 0: 0->4                       P = 8, segments s1 s2 ...:
 *   round 1: 0->2  4->6                       0          0: s1->1 s1->5 s2->1 ...
 *   round 2: 0->1  2->3  4->5  6->7         /   \        1: s1->2 s1->4 (receives s2 meanwhile)
 *                                          1     5
 *                                         / \   / \
 *                                        2   4 6   7
 *                                        |
 *                                        3
 *
 * Cost (alpha-beta, one port, n bytes, s segments, L = tree height):
 * binomial ceil(log2 P)(alpha + n beta) (Sanders Thm 13.1); k-ary at most
 * (k L + (k+1)(s-1))(alpha + beta n/s) (Lemma 13.2); chain (P - 1 + s - 1)
 * (alpha + beta n/s) with full duplex (Sect. 13.1.4).  Memory: none beyond
 * the receive buffer.
 */
#include "bcast/engine.h"

/* Sends [off, off + len) of rbuf to every child of v, in service order. */
static int send_kids(const papcoll__args_t *a, const papcoll__tree_t *t, int v, size_t off, size_t len)
{
    int i, n = papcoll__tree_nkids(t, v), rc;

    for (i = 0; i < n; i++) {
        rc = papcoll__send_bytes(a->rbuf + off, len, a->plan->v2r[papcoll__tree_kid(t, v, i)],
                                 PAPCOLL__TAG_DATA, a->comm);
        if (rc != PAPCOLL_OK)
            return rc;
    }
    return PAPCOLL_OK;
}

/* Checks that a completed receive brought exactly len bytes. */
static int check_len(const MPI_Status *st, size_t len)
{
    int got = 0;

    PMPI_Get_count(st, MPI_BYTE, &got);
    return (size_t)got == len ? PAPCOLL_OK : PAPCOLL_ERR_TRUNCATE;
}

int papcoll__bcast_tree(const papcoll__args_t *a, size_t seg)
{
    const papcoll__tree_t *t = a->plan->tree;
    int v = a->plan->r2v[a->rank], up = t->parent[v], parent = up < 0 ? -1 : a->plan->v2r[up],
        rc = PAPCOLL_OK;
    size_t nseg, s, off, len;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Status st;

    if (seg == 0 || seg >= a->bytes)
        seg = a->bytes;
    nseg = a->bytes == 0 ? 1 : (a->bytes + seg - 1) / seg;
    if (parent >= 0)
        rc = papcoll__irecv_bytes(a->rbuf, seg, parent, PAPCOLL__TAG_DATA, a->comm, &req);
    for (s = 0; s < nseg && rc == PAPCOLL_OK; s++) {
        off = s * seg;
        len = a->bytes - off < seg ? a->bytes - off : seg;
        if (parent >= 0) {
            if ((rc = PAPCOLL__ERR(PMPI_Wait(&req, &st))) != PAPCOLL_OK ||
                (rc = check_len(&st, len)) != PAPCOLL_OK)
                break;
            if (s + 1 < nseg) {
                size_t next = a->bytes - off - len < seg ? a->bytes - off - len : seg;
                rc =
                    papcoll__irecv_bytes(a->rbuf + off + len, next, parent, PAPCOLL__TAG_DATA, a->comm, &req);
                if (rc != PAPCOLL_OK)
                    break;
            }
        }
        rc = send_kids(a, t, v, off, len);
    }
    if (req != MPI_REQUEST_NULL) { /* a failure left the next receive posted */
        PMPI_Cancel(&req);
        PMPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    return rc;
}

void papcoll__bcast_place_round(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    const papcoll__tree_t *t = plan->tree;
    int *round = plan->r2v, P = in->P, v, i, r, j = 0, n = 0, last = 0;

    if (in->order == NULL) {
        papcoll__place_rotate(plan, in);
        return;
    }
    round[t->root] = -1;
    for (v = 0; v < P; v++) /* pre-order: a parent's round is known before its children's */
        for (i = 0; i < papcoll__tree_nkids(t, v); i++) {
            round[papcoll__tree_kid(t, v, i)] = round[v] + 1 + i;
            last = round[v] + 1 + i > last ? round[v] + 1 + i : last;
        }
    plan->v2r[t->root] = in->root;
    for (r = 0; r <= last && n < P - 1; r++)
        for (v = 0; v < P; v++) {
            if (v == t->root || round[v] != r)
                continue;
            if (in->order[j] == in->root)
                j++;
            plan->v2r[v] = in->order[j++];
            n++;
        }
    papcoll__perm_invert(P, plan->v2r, plan->r2v);
}

int papcoll__bcast_bg_deliver(const papcoll__args_t *a)
{
    const papcoll__exec_t *x = a->x;
    const char *from;
    size_t len;
    int rc;

    if ((rc = papcoll__exec_wait_bg(a->x)) != PAPCOLL_OK)
        return rc;
    len = x->stage[0].len; /* written by the background part, read after it finished */
    if (len != a->bytes)
        return PAPCOLL_ERR_TRUNCATE;
    from = x->bound != NULL && len <= x->bound_bytes ? x->bound : x->stage[0].buf;
    if (from != a->rbuf)
        papcoll__copy(a->rbuf, from, len);
    return PAPCOLL_OK;
}
