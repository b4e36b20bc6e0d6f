/*
 * reduce "twotree": the two-tree reduction of Sanders, Speck and Träff
 * (2009; Sanders 13.2): the schedule of bcast "twotree" run backwards
 * (sched/twotree.h).  Segment i of the vector goes up tree i mod 2, and a
 * rank passes a segment up once it has combined its children's parts of
 * it.  An interior node combines left child (op) own (op) right child, both
 * trees being numbered in order; the root (position 0, outside both trees)
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
 * Execution by data flow: every receive from the children is posted at
 * the start, and a segment goes up as soon as the children's parts of it
 * are in and combined, the two trees interleaved segment by segment; the
 * bcast schedule's colouring survives as the order of the segments on each
 * link.  A lock step (the bcast schedule backwards, each step's receive and
 * send awaited) took 1.3x as long at 32 MiB on 8 emulated nodes under load
 * (docs/results/bcast-allreduce.md, "Two trees").
 * Cost, k segments (at most): (k + 2H + 1)(alpha + (n/k)(beta + gamma)), H
 * <= floor(log2 P); the best k gives (beta + gamma) n + O(alpha log P +
 * sqrt(alpha beta n log P)), against 3 n (beta + gamma) for the pipelined
 * binary tree (Lemma 13.4).  At most WINDOW segments in flight on a link.
 * Memory: the vector, one segment buffer per child and segment of its tree
 * (the vector again at most), k + 6 requests per call (2k + 6 where rank 0
 * forwards).  Restrictions: none (ORDERED).
 */
#include <stdlib.h>

#include "p2p.h"
#include "reduce/engine.h"
#include "sched/twotree.h"

int papcoll__plan_red_twotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    return papcoll__plan_twotree(plan, in, 1);
}

enum { WINDOW = PAPCOLL__TWOTREE_WINDOW }; /* segments in flight on a link (sched/twotree.h) */

/* Children are numbered in slots: the (tree, kid) pairs of the position,
 * tree 0 first, left before right; at most two (a position has children in
 * one tree, or position 0 one in each). */
typedef struct {
    const papcoll__args_t *a;
    const papcoll__twotree_t *t;
    const int *v2r;   /* stwotree's placement, or NULL: rank base + p mod P on position p */
    int base, v, seg; /* the rank of position 0; own position; elements per full segment */
    int nslot, nreq;  /* slots; requests the loop waits for */
    int slot_tree[2], slot_kid[2];
    long k, half, next[2];          /* segments; buffers per slot; per tree, the next to send */
    long fwd;                       /* rank 0 off the root: the next finished segment to pass on */
    char *acc, *tmp;                /* own vector, combined in place; [2][half] segments from the slots */
    MPI_Request *recv, *send, *res; /* [2 half]: slot s's part of segment i at s half + i / 2;
                                     * [2][WINDOW] per tree to the parent; [k] the result's forwards
                                     * or the root's receives of them, or NULL */
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
    return r->v2r != NULL ? r->v2r[p] : (r->base + p) % r->t->P;
}

/* Segment next[tree], once all its slots' parts are in: combined, and sent
 * to the parent (none for position 0).  1 when it went, 0 when it waits. */
static int pass(red_t *r, int tree, int *rc)
{
    const papcoll__args_t *a = r->a;
    long i = r->next[tree];
    int s, n = seg_n(r, i);
    MPI_Request *q;

    if (i >= r->k)
        return 0;
    for (s = 0; s < r->nslot; s++)
        if (r->slot_tree[s] == tree && r->recv[s * r->half + i / 2] != MPI_REQUEST_NULL)
            return 0;
    for (s = 0; r->v > 0 && s < WINDOW && r->send[tree * WINDOW + s] != MPI_REQUEST_NULL; s++)
        ;
    if (s == WINDOW)
        return 0; /* the link is full: a send's completion wakes the loop */
    q = &r->send[tree * WINDOW + s];
    for (s = 0; s < r->nslot && *rc == PAPCOLL_OK; s++)
        if (r->slot_tree[s] == tree)
            *rc = papcoll__red_combine(a, seg_at(r, r->tmp, s * r->half + i / 2), seg_at(r, r->acc, i), n,
                                       r->slot_kid[s] < r->v);
    if (*rc == PAPCOLL_OK && r->v > 0)
        *rc = papcoll__isend_bytes(seg_at(r, r->acc, i), (size_t)n * a->sig.esize,
                                   rank_of(r, r->t->parent[tree * r->t->P + r->v]),
                                   tree ? PAPCOLL__TAG_TREE1 : PAPCOLL__TAG_DATA, a->comm, q);
    r->next[tree] += 2;
    return 1;
}

/* Every segment that can go, one per tree in turn (each tree has its tag,
 * so a parent in both trees, at P = 2, matches them in order); rank 0 off
 * the root then passes the finished result on, in segment order. */
static int advance(red_t *r)
{
    const papcoll__args_t *a = r->a;
    int moved = 1, rc = PAPCOLL_OK;

    while (moved && rc == PAPCOLL_OK)
        moved = pass(r, 0, &rc) | pass(r, 1, &rc);
    for (; rc == PAPCOLL_OK && r->res != NULL && r->v == 0 && r->fwd < r->next[r->fwd % 2] &&
           (r->fwd < WINDOW || r->res[r->fwd - WINDOW] == MPI_REQUEST_NULL);
         r->fwd++)
        rc = papcoll__isend_bytes(seg_at(r, r->acc, r->fwd), (size_t)seg_n(r, r->fwd) * a->sig.esize, a->root,
                                  PAPCOLL__TAG_RED_RESULT, a->comm, &r->res[r->fwd]);
    return rc;
}

/* Placement, slots, buffers and every receive, in segment order (same-tag
 * messages match in the order they were sent, and at P = 2 one child sends
 * both trees' segments).  twotree places position p on rank base + p mod
 * P: base is the root, or rank 0 for a non-commutative operation, whose
 * result rank 0 then passes on to the root. */
static int setup(red_t *r, const papcoll__args_t *a)
{
    const papcoll__twotree_t *t = a->plan->xdata;
    int tree, i, c, fwd, rc = PAPCOLL_OK;
    long j;

    r->a = a, r->t = t;
    r->v2r = a->plan->has_tree ? a->plan->v2r : NULL;
    r->base = r->v2r != NULL || a->sig.commutative || a->root == 0 ? a->root : 0;
    r->v = r->v2r != NULL ? a->plan->r2v[a->rank] : (a->rank - r->base + t->P) % t->P;
    r->seg = a->plan->seg ? (int)(a->plan->seg / a->sig.esize) : papcoll__red_seg_elems(a);
    r->seg = r->seg < 1 ? 1 : r->seg < a->sig.count ? r->seg : a->sig.count;
    r->k = (a->sig.count - 1) / r->seg + 1;
    r->half = (r->k + 1) / 2;
    r->next[0] = 0, r->next[1] = 1;
    for (tree = 0; tree < 2; tree++)
        for (i = 0; i < 2; i++)
            if ((c = t->kid[(tree * t->P + r->v) * 2 + i]) >= 0 && r->nslot < 2)
                r->slot_tree[r->nslot] = tree, r->slot_kid[r->nslot++] = c;
    fwd = r->base != a->root && (r->v == 0 || a->rank == a->root);
    r->nreq = (int)(2 * r->half + 2 * WINDOW + (fwd && r->v == 0 ? r->k : 0));
    if ((r->recv = malloc(sizeof(MPI_Request) * (size_t)(2 * r->half + 2 * WINDOW + (fwd ? r->k : 0)))) ==
        NULL)
        return PAPCOLL_ERR_NOMEM;
    r->send = r->recv + 2 * r->half;
    r->res = fwd ? r->send + 2 * WINDOW : NULL;
    for (j = 0; j < 2 * r->half + 2 * WINDOW; j++)
        r->recv[j] = MPI_REQUEST_NULL;
    for (j = 0; fwd && j < r->k; j++)
        r->res[j] = MPI_REQUEST_NULL;
    r->acc = r->v == 0 && a->rank == a->root ? a->rbuf : papcoll__scratch(a, PAPCOLL__SCR_ACC, a->bytes);
    r->tmp = papcoll__scratch(a, PAPCOLL__SCR_TMP, (size_t)(2 * r->half) * (size_t)r->seg * a->sig.esize);
    if (r->acc == NULL || r->tmp == NULL)
        return PAPCOLL_ERR_NOMEM;
    papcoll__copy(r->acc, a->sbuf, a->bytes);
    for (j = 0; fwd && a->rank == a->root && j < r->k && rc == PAPCOLL_OK; j++)
        rc = papcoll__irecv_bytes(seg_at(r, a->rbuf, j), (size_t)seg_n(r, j) * a->sig.esize, r->base,
                                  PAPCOLL__TAG_RED_RESULT, a->comm, &r->res[j]);
    for (j = 0; j < r->k; j++)
        for (i = 0; i < r->nslot && rc == PAPCOLL_OK; i++)
            if (r->slot_tree[i] == j % 2)
                rc = papcoll__irecv_bytes(seg_at(r, r->tmp, i * r->half + j / 2),
                                          (size_t)seg_n(r, j) * a->sig.esize, rank_of(r, r->slot_kid[i]),
                                          j % 2 ? PAPCOLL__TAG_TREE1 : PAPCOLL__TAG_DATA, a->comm,
                                          &r->recv[i * r->half + j / 2]);
    return rc;
}

/* Whether the loop still has work: a receive posted, a segment not yet
 * passed up or on, or a send in flight (the result's forwards included). */
static int busy(const red_t *r)
{
    if (r->next[0] < r->k || r->next[1] < r->k || (r->res != NULL && r->v == 0 && r->fwd < r->k))
        return 1;
    for (int j = 0; j < r->nreq; j++)
        if (r->recv[j] != MPI_REQUEST_NULL)
            return 1;
    return 0;
}

/* Receives and sends as they complete, passing each finished segment up. */
static int run(red_t *r, int *idx, MPI_Status *st)
{
    const papcoll__args_t *a = r->a;
    long j;
    int n, i, len, rc = advance(r);

    while (rc == PAPCOLL_OK && busy(r)) {
        if ((rc = papcoll__fg_waitsome(r->nreq, r->recv, &n, idx, st, a->nap)) != PAPCOLL_OK)
            break;
        for (i = 0; i < n && rc == PAPCOLL_OK; i++) {
            if (idx[i] >= 2 * r->half)
                continue; /* a send */
            j = idx[i] % r->half * 2 + r->slot_tree[idx[i] / r->half];
            PMPI_Get_count(&st[i], MPI_BYTE, &len);
            rc = (size_t)len == (size_t)seg_n(r, j) * a->sig.esize ? PAPCOLL_OK : PAPCOLL_ERR_TRUNCATE;
        }
        if (rc == PAPCOLL_OK)
            rc = advance(r);
    }
    return rc;
}

/* Cancels what a failure left posted (receives, and the root's receives of
 * the result), then waits for the sends. */
static int finish(red_t *r, int rc)
{
    long j, n = 2 * r->half + 2 * WINDOW + (r->res != NULL ? r->k : 0);
    int root_res = r->a->rank == r->a->root, wrc = PAPCOLL_OK;

    for (j = 0; j < n; j++) {
        int recv = j < 2 * r->half || (j >= 2 * r->half + 2 * WINDOW && root_res);

        if (r->recv[j] == MPI_REQUEST_NULL || (recv && rc == PAPCOLL_OK && j < 2 * r->half))
            continue;
        if (recv && rc != PAPCOLL_OK)
            PMPI_Cancel(&r->recv[j]);
        if (PMPI_Wait(&r->recv[j], MPI_STATUS_IGNORE) != MPI_SUCCESS && wrc == PAPCOLL_OK)
            wrc = PAPCOLL_ERR_MPI;
    }
    return rc != PAPCOLL_OK ? rc : wrc;
}

int papcoll_reduce_twotree(const papcoll__args_t *a)
{
    red_t r = {0};
    MPI_Status *st = NULL;
    int *idx = NULL, rc;

    if (a->bytes == 0)
        return PAPCOLL_OK; /* count 0: every rank knows, nothing moves */
    rc = setup(&r, a);
    if (rc == PAPCOLL_OK) {
        idx = malloc(sizeof(int) * (size_t)r.nreq);
        st = malloc(sizeof(MPI_Status) * (size_t)r.nreq);
        rc = idx == NULL || st == NULL ? PAPCOLL_ERR_NOMEM : run(&r, idx, st);
    }
    if (r.recv != NULL)
        rc = finish(&r, rc);
    free(r.recv), free(idx), free(st);
    return rc;
}
