/*
 * bcast "twotree": the two-tree broadcast of Sanders, Speck and Träff
 * (2009; Sanders 13.1.4).  The vector travels in segments of
 * PAPCOLL_SEGMENT_BYTES (packed bytes, like every segmented bcast); the
 * root sends even segments down tree 0 and odd ones down tree 1, two
 * in-order binary trees over the other ranks in which every interior node
 * of one is a leaf of the other (sched/twotree.h).  The schedule's edge
 * colouring has every rank send at most one segment and receive at most one
 * in each step, so an interior node, which must pass each of its tree's
 * segments to two children, is as busy as a leaf: nobody's port carries
 * more than the vector out and the vector in.
 *
 *   P = 8, root 0, ranks as positions:      steps 0 1 2 3 ...: the root sends
 *        tree 0:    4       tree 1:    7    segment s at step s, to 4 (even
 *                 /   \               /     s) or to 7 (odd s); a rank sends
 *                2     6             3      in a step only along its edge of
 *               / \   / \          /   \    that step's colour (parity)
 *              1   3 5   7        1     5
 *                                  \   / \
 *                                   2 4   6
 *
 * Cost, k segments, full duplex: (k + 2H + 1)(alpha + beta n/k) at most, H
 * <= floor(log2 P) the larger tree height; the best k gives beta n +
 * O(alpha log P + sqrt(alpha beta n log P)), against 3 beta n for the
 * pipelined binary tree (Thm 13.3) and beta n + P alpha for the chain.
 * Each step waits for its send and receive (a lock step per rank, no
 * global barrier).  Memory: the trees, 14P ints per site.  Restrictions:
 * none (any P, any root; ranks placed cyclically from the root).
 */
#include "bcast/engine.h"
#include "p2p.h"
#include "sched/twotree.h"

int papcoll__plan_bcast_twotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_twotree(plan, in);

    if (rc == PAPCOLL_OK) {
        papcoll__twotree_place(in->P, in->root < 0 ? 0 : in->root, plan->v2r, plan->r2v);
        plan->has_tree = 1;
    }
    return rc;
}

/* Bytes of segment i of n cut into segments of seg. */
static size_t seg_len(size_t n, size_t seg, long i)
{
    size_t off = (size_t)i * seg;

    return n - off < seg ? n - off : seg;
}

/* Step s of k segments for position v: its receive and its send (either
 * may be absent), posted together and both awaited. */
static int step(const papcoll__args_t *a, const papcoll__twotree_t *t, int v, long s, long k, size_t seg)
{
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st[2];
    size_t len = 0;
    long pk;
    int tree, peer, got = 0, rc = PAPCOLL_OK;

    if (papcoll__twotree_recv(t, v, s, k, &tree, &peer, &pk)) {
        len = seg_len(a->bytes, seg, pk);
        rc = papcoll__irecv_bytes(a->rbuf + (size_t)pk * seg, len, a->plan->v2r[peer], PAPCOLL__TAG_DATA,
                                  a->comm, &req[0]);
    }
    if (rc == PAPCOLL_OK && papcoll__twotree_send(t, v, s, k, &tree, &peer, &pk))
        rc = papcoll__isend_bytes(a->rbuf + (size_t)pk * seg, seg_len(a->bytes, seg, pk), a->plan->v2r[peer],
                                  PAPCOLL__TAG_DATA, a->comm, &req[1]);
    if (rc != PAPCOLL_OK) { /* a failed send left the receive posted */
        if (req[0] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&req[0]);
            PMPI_Wait(&req[0], MPI_STATUS_IGNORE);
        }
        return rc;
    }
    if ((rc = papcoll__fg_waitall(2, req, st, a->nap)) != PAPCOLL_OK || len == 0)
        return rc;
    PMPI_Get_count(&st[0], MPI_BYTE, &got);
    return (size_t)got == len ? PAPCOLL_OK : PAPCOLL_ERR_TRUNCATE;
}

int papcoll_bcast_twotree(const papcoll__args_t *a)
{
    const papcoll__twotree_t *t = a->plan->xdata;
    size_t seg = papcoll__segment_bytes(a);
    long k, S, s;
    int v = a->plan->r2v[a->rank], rc = PAPCOLL_OK;

    if (a->bytes == 0 || t->P < 2)
        return PAPCOLL_OK;
    if (seg == 0 || seg > a->bytes)
        seg = a->bytes;
    k = (long)((a->bytes + seg - 1) / seg);
    S = papcoll__twotree_steps(t, k);
    for (s = 0; s < S && rc == PAPCOLL_OK; s++)
        rc = step(a, t, v, s, k, seg);
    return rc;
}
