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
 * At most WINDOW segments are in flight on a link.  Memory: the trees, 14P
 * ints per site; k + 8 requests and statuses per call.  Restrictions: none (any P, any root; ranks placed
 * cyclically from the root).
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

enum { WINDOW = PAPCOLL__TWOTREE_WINDOW }; /* segments in flight on a link (sched/twotree.h) */

typedef struct {
    const papcoll__args_t *a;
    const papcoll__twotree_t *t;
    size_t seg;
    long k, got, next[2]; /* segments; received; per tree, the next one to pass on */
    int v;                /* own position */
    MPI_Request *req;     /* [k] receives, then [2][2][WINDOW] sends per tree and child */
} run_t;

static size_t seg_len(const run_t *r, long i)
{
    size_t off = (size_t)i * r->seg;

    return r->a->bytes - off < r->seg ? r->a->bytes - off : r->seg;
}

/* A free send slot towards child i of the tree (NULL: none). */
static MPI_Request *slot(run_t *r, int tree, int i)
{
    MPI_Request *q = r->req + r->k + (tree * 2 + i) * WINDOW;

    for (int w = 0; w < WINDOW; w++)
        if (q[w] == MPI_REQUEST_NULL)
            return &q[w];
    return NULL;
}

/* Passes on, tree by tree in segment order, every segment that is in, whose
 * predecessors in its tree went before it, and for which each child's link
 * has a free slot. */
static int forward(run_t *r)
{
    int tree, i, c, moved = 1, rc = PAPCOLL_OK;
    long s;

    while (moved && rc == PAPCOLL_OK)
        for (moved = 0, tree = 0; tree < 2 && rc == PAPCOLL_OK; tree++) {
            s = r->next[tree];
            if (s >= r->k || (r->v > 0 && r->req[s] != MPI_REQUEST_NULL))
                continue;
            for (i = 0; i < 2; i++)
                if (r->t->kid[(tree * r->t->P + r->v) * 2 + i] >= 0 && slot(r, tree, i) == NULL)
                    break;
            if (i < 2)
                continue; /* a link is full: a send's completion wakes the loop */
            for (i = 0; i < 2 && rc == PAPCOLL_OK; i++)
                if ((c = r->t->kid[(tree * r->t->P + r->v) * 2 + i]) >= 0)
                    rc = papcoll__isend_bytes(
                        r->a->rbuf + (size_t)s * r->seg, seg_len(r, s), r->a->plan->v2r[c],
                        tree ? PAPCOLL__TAG_TREE1 : PAPCOLL__TAG_DATA, r->a->comm, slot(r, tree, i));
            r->next[tree] += 2;
            moved = 1;
        }
    return rc;
}

/* Posts every receive: segment i from the parent in tree i mod 2.  Each
 * tree has its tag, so its segments match in order even where one rank is
 * the parent in both trees (P = 2) and the trees' windows free in any
 * order. */
static int post(run_t *r)
{
    const papcoll__twotree_t *t = r->t;
    int rc = PAPCOLL_OK;
    long i;

    for (i = 0; i < r->k + 4 * WINDOW; i++)
        r->req[i] = MPI_REQUEST_NULL;
    for (i = 0; i < r->k && r->v > 0 && rc == PAPCOLL_OK; i++)
        rc = papcoll__irecv_bytes(r->a->rbuf + (size_t)i * r->seg, seg_len(r, i),
                                  r->a->plan->v2r[t->parent[(i % 2) * t->P + r->v]],
                                  i % 2 ? PAPCOLL__TAG_TREE1 : PAPCOLL__TAG_DATA, r->a->comm, &r->req[i]);
    return rc;
}

/* Whether a send is in flight. */
static int sending(const run_t *r)
{
    for (int w = 0; w < 4 * WINDOW; w++)
        if (r->req[r->k + w] != MPI_REQUEST_NULL)
            return 1;
    return 0;
}

/* Receives and sends as they complete, passing each segment on. */
static int run(run_t *r, int *idx, MPI_Status *st)
{
    int n, j, len, rc = post(r);

    r->got = r->v > 0 ? 0 : r->k;
    if (rc == PAPCOLL_OK)
        rc = forward(r);
    while (rc == PAPCOLL_OK && (r->got < r->k || r->next[0] < r->k || r->next[1] < r->k || sending(r))) {
        if ((rc = papcoll__fg_waitsome((int)r->k + 4 * WINDOW, r->req, &n, idx, st, r->a->nap)) != PAPCOLL_OK)
            break;
        for (j = 0; j < n && rc == PAPCOLL_OK; j++)
            if (idx[j] < r->k) {
                PMPI_Get_count(&st[j], MPI_BYTE, &len);
                rc = (size_t)len == seg_len(r, idx[j]) ? PAPCOLL_OK : PAPCOLL_ERR_TRUNCATE;
                r->got++;
            }
        if (rc == PAPCOLL_OK)
            rc = forward(r);
    }
    if (rc != PAPCOLL_OK) /* receives still posted: cancel them; sends: wait */
        for (j = 0; j < r->k + 4 * WINDOW; j++)
            if (r->req[j] != MPI_REQUEST_NULL) {
                if (j < r->k)
                    PMPI_Cancel(&r->req[j]);
                PMPI_Wait(&r->req[j], MPI_STATUS_IGNORE);
            }
    return rc;
}

int papcoll_bcast_twotree(const papcoll__args_t *a)
{
    run_t r = {a,   a->plan->xdata, a->plan->seg ? a->plan->seg : papcoll__segment_bytes(a), 0, 0, {0, 1}, 0,
               NULL};
    MPI_Status *st;
    int *idx, rc;

    if (a->bytes == 0 || r.t->P < 2)
        return PAPCOLL_OK;
    if (r.seg == 0 || r.seg > a->bytes)
        r.seg = a->bytes;
    r.k = (long)((a->bytes + r.seg - 1) / r.seg);
    r.v = a->plan->r2v[a->rank];
    r.req = malloc(sizeof(MPI_Request) * (size_t)(r.k + 4 * WINDOW));
    idx = malloc(sizeof(int) * (size_t)(r.k + 4 * WINDOW));
    st = malloc(sizeof(MPI_Status) * (size_t)(r.k + 4 * WINDOW));
    rc = r.req == NULL || idx == NULL || st == NULL ? PAPCOLL_ERR_NOMEM : run(&r, idx, st);
    free(r.req), free(idx), free(st);
    return rc;
}
