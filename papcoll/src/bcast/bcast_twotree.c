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
 * Execution by data flow: every receive is posted at the start (each
 * segment lands in its place in the buffer), and a segment is passed on to
 * the rank's children as soon as it and the earlier segments of its tree
 * are in.  The colouring's steps are kept only as the order of the
 * segments on each link; a rank waiting for one tree's segment still serves
 * the other tree (a lock step, waiting for each step's send and receive,
 * took 1.36x as long at 32 MiB on 8 emulated nodes, balanced:
 * docs/results/bcast-allreduce.md, "Two trees").
 * Memory: the trees, 14P ints per site; 2k + 2 requests and k statuses per
 * call.  Restrictions: none (any P, any root; ranks placed cyclically from
 * the root).
 */
#include <stdlib.h>

#include "bcast/engine.h"
#include "p2p.h"
#include "sched/twotree.h"

int papcoll__plan_bcast_twotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_twotree(plan, in, 0);

    if (rc == PAPCOLL_OK) {
        papcoll__twotree_place(in->P, in->root < 0 ? 0 : in->root, plan->v2r, plan->r2v);
        plan->has_tree = 1;
    }
    return rc;
}

typedef struct {
    const papcoll__args_t *a;
    const papcoll__twotree_t *t;
    size_t seg;
    long k, next[2];          /* segments; per tree, the next one to pass on */
    int v, ns;                /* own position; sends posted */
    MPI_Request *recv, *send; /* [k], [k + 2] */
} run_t;

static size_t seg_len(const run_t *r, long i)
{
    size_t off = (size_t)i * r->seg;

    return r->a->bytes - off < r->seg ? r->a->bytes - off : r->seg;
}

/* Passes on, tree by tree in segment order, every segment that is in and
 * whose predecessors in its tree went before it. */
static int forward(run_t *r)
{
    int tree, i, c, moved = 1, rc = PAPCOLL_OK;
    long s;

    while (moved && rc == PAPCOLL_OK)
        for (moved = 0, tree = 0; tree < 2 && rc == PAPCOLL_OK; tree++) {
            s = r->next[tree];
            if (s >= r->k || (r->v > 0 && r->recv[s] != MPI_REQUEST_NULL))
                continue;
            for (i = 0; i < 2 && rc == PAPCOLL_OK; i++)
                if ((c = r->t->kid[(tree * r->t->P + r->v) * 2 + i]) >= 0)
                    rc = papcoll__isend_bytes(r->a->rbuf + (size_t)s * r->seg, seg_len(r, s),
                                              r->a->plan->v2r[c], PAPCOLL__TAG_DATA, r->a->comm,
                                              &r->send[r->ns++]);
            r->next[tree] += 2;
            moved = 1;
        }
    return rc;
}

/* Posts every receive: segment i from the parent in tree i mod 2. */
static int post(run_t *r)
{
    const papcoll__twotree_t *t = r->t;
    int rc = PAPCOLL_OK;
    long i;

    for (i = 0; i < r->k; i++)
        r->recv[i] = MPI_REQUEST_NULL;
    for (i = 0; i < r->k && r->v > 0 && rc == PAPCOLL_OK; i++)
        rc = papcoll__irecv_bytes(r->a->rbuf + (size_t)i * r->seg, seg_len(r, i),
                                  r->a->plan->v2r[t->parent[(i % 2) * t->P + r->v]], PAPCOLL__TAG_DATA,
                                  r->a->comm, &r->recv[i]);
    return rc;
}

/* Receives as they come, passing each segment on; the sends last. */
static int run(run_t *r, int *idx, MPI_Status *st)
{
    long got = r->v > 0 ? 0 : r->k;
    int n, j, len, rc = post(r);

    if (rc == PAPCOLL_OK)
        rc = forward(r);
    while (rc == PAPCOLL_OK && got < r->k) {
        if ((rc = papcoll__fg_waitsome((int)r->k, r->recv, &n, idx, st, r->a->nap)) != PAPCOLL_OK)
            break;
        for (j = 0; j < n && rc == PAPCOLL_OK; j++) {
            PMPI_Get_count(&st[j], MPI_BYTE, &len);
            rc = (size_t)len == seg_len(r, idx[j]) ? PAPCOLL_OK : PAPCOLL_ERR_TRUNCATE;
        }
        got += n;
        if (rc == PAPCOLL_OK)
            rc = forward(r);
    }
    if (rc != PAPCOLL_OK) /* receives still posted: cancel them */
        for (j = 0; j < r->k; j++)
            if (r->recv[j] != MPI_REQUEST_NULL) {
                PMPI_Cancel(&r->recv[j]);
                PMPI_Wait(&r->recv[j], MPI_STATUS_IGNORE);
            }
    n = papcoll__fg_waitall(r->ns, r->send, MPI_STATUSES_IGNORE, r->a->nap);
    return rc != PAPCOLL_OK ? rc : n;
}

int papcoll_bcast_twotree(const papcoll__args_t *a)
{
    run_t r = {a, a->plan->xdata, a->plan->seg ? a->plan->seg : papcoll__segment_bytes(a),
               0, {0, 1},         0,
               0, NULL,           NULL};
    MPI_Status *st;
    int *idx, rc;

    if (a->bytes == 0 || r.t->P < 2)
        return PAPCOLL_OK;
    if (r.seg == 0 || r.seg > a->bytes)
        r.seg = a->bytes;
    r.k = (long)((a->bytes + r.seg - 1) / r.seg);
    r.v = a->plan->r2v[a->rank];
    r.recv = malloc(sizeof(MPI_Request) * (size_t)(2 * r.k + 2));
    idx = malloc(sizeof(int) * (size_t)r.k);
    st = malloc(sizeof(MPI_Status) * (size_t)r.k);
    if (r.recv == NULL || idx == NULL || st == NULL)
        rc = PAPCOLL_ERR_NOMEM;
    else {
        r.send = r.recv + r.k;
        rc = run(&r, idx, st);
    }
    free(r.recv), free(idx), free(st);
    return rc;
}
