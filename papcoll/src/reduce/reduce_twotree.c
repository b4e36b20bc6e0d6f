/*
 * reduce "twotree": the two-tree reduction of Sanders, Speck and Träff
 * (2009; Sanders 13.2): the schedule of bcast "twotree" run backwards
 * (sched/twotree.h).  Segment i of the vector goes up tree i mod 2; bcast
 * step s becomes reduce step S - 1 - s with every edge reversed, so a rank
 * still sends at most one segment and receives at most one per step, and it
 * has combined both children's parts of a segment before it passes it up.
 * An interior node combines left child (op) own (op) right child, both trees
 * being numbered in order; the root (position 0, outside both trees)
 * combines own (op) the tree's result.
 *
 *   P = 8, positions = ranks:  tree 0:    4          tree 1:     7
 *   (root 0 or a commutative             /   \                 /
 *   op: position 0 is the root)         2     6               3
 *                                      / \   / \            /   \
 *                                     1   3 5   7          1     5
 *                                                           \   / \
 *                                                            2 4   6
 *
 * Placement: a commutative operation puts position p on rank root + p mod
 * P.  A non-commutative one needs positions in rank order behind the root:
 * position p on rank p, so rank 0 computes the result and, unless it is the
 * root, sends each finished segment on to the root (one hop more; the root
 * then receives up to twice the vector).
 * Cost, k segments (at most): (k + 2H + 1)(alpha + (n/k)(beta + gamma)), H
 * <= floor(log2 P); the best k gives (beta + gamma) n + O(alpha log P +
 * sqrt(alpha beta n log P)), against 3 n (beta + gamma) for the pipelined
 * binary tree (Lemma 13.4).  Memory: the vector and one segment per rank.
 * Restrictions: none (ORDERED).
 */
#include <stdlib.h>

#include "p2p.h"
#include "reduce/engine.h"
#include "sched/twotree.h"

int papcoll__plan_red_twotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    return papcoll__plan_twotree(plan, in);
}

typedef struct {
    const papcoll__args_t *a;
    const papcoll__twotree_t *t;
    int base, v;      /* the rank of position 0, own position */
    int seg;          /* elements per full segment */
    long k, S;        /* segments, steps */
    char *acc;        /* own vector, combined in place */
    char *tmp;        /* one received segment */
    MPI_Request *res; /* [k] rank 0's forwards of the result, or the root's receives of them; NULL */
} red_t;

static int seg_n(const red_t *r, long i)
{
    long rest = r->a->sig.count - i * r->seg;

    return rest < r->seg ? (int)rest : r->seg;
}

static char *seg_at(const red_t *r, char *buf, long i)
{
    return buf + (size_t)i * (size_t)r->seg * r->a->sig.esize;
}

static int rank_of(const red_t *r, int p)
{
    return (r->base + p) % r->t->P;
}

/* Bcast step s backwards: the receive from a child (the bcast's send) and
 * the send to the parent (the bcast's receive), then the combine. */
static int step(red_t *r, long s)
{
    const papcoll__args_t *a = r->a;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Status st[2];
    long in = -1, out;
    int tree, kid = 0, up, n = 0, got = 0, rc = PAPCOLL_OK;

    if (papcoll__twotree_send(r->t, r->v, s, r->k, &tree, &kid, &in)) {
        n = seg_n(r, in);
        rc = papcoll__irecv_bytes(r->tmp, (size_t)n * a->sig.esize, rank_of(r, kid), PAPCOLL__TAG_DATA,
                                  a->comm, &req[0]);
    }
    if (rc == PAPCOLL_OK && papcoll__twotree_recv(r->t, r->v, s, r->k, &tree, &up, &out))
        rc = papcoll__isend_bytes(seg_at(r, r->acc, out), (size_t)seg_n(r, out) * a->sig.esize,
                                  rank_of(r, up), PAPCOLL__TAG_DATA, a->comm, &req[1]);
    if (rc != PAPCOLL_OK) { /* a failed send left the receive posted */
        if (req[0] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&req[0]);
            PMPI_Wait(&req[0], MPI_STATUS_IGNORE);
        }
        return rc;
    }
    if ((rc = papcoll__fg_waitall(2, req, st, a->nap)) != PAPCOLL_OK || in < 0)
        return rc;
    PMPI_Get_count(&st[0], MPI_BYTE, &got);
    if ((size_t)got != (size_t)n * a->sig.esize)
        return PAPCOLL_ERR_TRUNCATE;
    if ((rc = papcoll__red_combine(a, r->tmp, seg_at(r, r->acc, in), n, kid < r->v)) != PAPCOLL_OK)
        return rc;
    if (r->res != NULL && r->v == 0) /* rank 0 off the root: pass the finished segment on */
        rc = papcoll__isend_bytes(seg_at(r, r->acc, in), (size_t)n * a->sig.esize, a->root,
                                  PAPCOLL__TAG_RED_RESULT, a->comm, &r->res[in]);
    return rc;
}

/* Placement, buffers and, when rank 0 forwards the result, the requests
 * (the root's receives posted here). */
static int setup(red_t *r, const papcoll__args_t *a)
{
    const papcoll__twotree_t *t = a->plan->xdata;
    int P = t->P, fwd, rc = PAPCOLL_OK;
    long i;

    r->a = a;
    r->t = t;
    r->base = a->sig.commutative || a->root == 0 ? a->root : 0;
    r->v = (a->rank - r->base + P) % P;
    r->seg = papcoll__red_seg_elems(a) < a->sig.count ? papcoll__red_seg_elems(a) : a->sig.count;
    r->k = (a->sig.count - 1) / r->seg + 1;
    r->S = papcoll__twotree_steps(t, r->k);
    fwd = r->base != a->root && (r->v == 0 || a->rank == a->root);
    r->acc = r->v == 0 && a->rank == a->root ? a->rbuf : papcoll__scratch(a, PAPCOLL__SCR_ACC, a->bytes);
    r->tmp = papcoll__scratch(a, PAPCOLL__SCR_TMP, (size_t)r->seg * a->sig.esize);
    r->res = fwd ? malloc(sizeof(MPI_Request) * (size_t)r->k) : NULL;
    if (r->acc == NULL || r->tmp == NULL || (fwd && r->res == NULL))
        return PAPCOLL_ERR_NOMEM;
    papcoll__copy(r->acc, a->sbuf, a->bytes);
    for (i = 0; fwd && i < r->k; i++)
        r->res[i] = MPI_REQUEST_NULL;
    /* Position 0 receives segment i at reverse step S - 1 - i (the bcast's
     * root sends segment i at step i), so rank 0 passes them on last first,
     * and same-tag messages match in the order they were sent. */
    for (i = r->k - 1; fwd && a->rank == a->root && i >= 0 && rc == PAPCOLL_OK; i--)
        rc = papcoll__irecv_bytes(seg_at(r, a->rbuf, i), (size_t)seg_n(r, i) * a->sig.esize, 0,
                                  PAPCOLL__TAG_RED_RESULT, a->comm, &r->res[i]);
    return rc;
}

int papcoll_reduce_twotree(const papcoll__args_t *a)
{
    red_t r = {0};
    long s;
    int rc;

    if (a->bytes == 0)
        return PAPCOLL_OK; /* count 0: every rank knows, nothing moves */
    rc = setup(&r, a);
    for (s = r.S - 1; s >= 0 && rc == PAPCOLL_OK; s--)
        rc = step(&r, s);
    if (rc == PAPCOLL_OK && r.res != NULL)
        rc = papcoll__waitall((int)r.k, r.res, MPI_STATUSES_IGNORE);
    free(r.res);
    return rc;
}
