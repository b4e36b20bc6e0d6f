/*
 * reduce "stwotree": the two trees of reduce "twotree" (Sanders, Speck,
 * Träff 2009; sched/twotree.h) with the ranks placed by predicted arrival,
 * and run by data flow instead of twotree's lock step.  Commutative
 * operations only: the placement gives up the in-order numbering.
 *
 * Placement (papcoll__twotree_place_sorted along t->rseq): a late rank
 * holds up its ancestors in both trees, so the ranks predicted latest take
 * the positions with the fewest: the shallowest in the deeper of their two
 * trees, then the fewest ancestors over both, the two tree roots last.
 * Equal predictions (within the predictor's noise) keep twotree's
 * placement (position p on rank root + p mod P; the root is position 0).
 *
 *   P = 8, predicted order after the root a b c d e f g:
 *       tree 0:     c            tree 1:     g       g and f: at most 3 hops in
 *                 /   \                    /         either tree (4 and 5 in all),
 *                a     b                  f          then e and d (3 in both);
 *               / \   / \               /   \        a, b and c are 4 hops deep
 *              d   f e   g             d     e       in tree 1
 *                                       \   / \
 *                                        a c   b
 *
 * Execution: every receive from the children is posted at the start, and
 * a segment goes up to the parent as soon as the children's parts of it
 * are in and combined (left child, own, right child, so the result is the
 * same run to run), the two trees interleaved segment by segment.  A late
 * rank delays only its ancestors' parts that depend on it; the other tree,
 * and the subtrees beside it, stream on.
 *
 * Cost: balanced arrivals as twotree, (k + 2H + 1)(alpha + (n/k)(beta +
 * gamma)), the colouring's steps kept only by the order of the segments on
 * each link.  Under a PAT, the latest rank j: max(twotree's time, a_j -
 * a_root + n beta + (n/2) gamma + h_j (alpha + (n/k)(beta + gamma))), h_j
 * the larger of its hop counts.  Memory: the vector, one segment buffer per
 * child and segment of its tree (the vector again at most), 2k + 2 requests
 * per call.  Restrictions: COMMUTATIVE_ONLY (fallback twotree); a
 * prediction (else twotree's placement).
 */
#include <stdlib.h>

#include "p2p.h"
#include "reduce/engine.h"
#include "sched/twotree.h"

int papcoll__plan_red_stwotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    return papcoll__plan_stwotree(plan, in, 1);
}

/* Children are numbered in slots: the (tree, kid) pairs of the position,
 * tree 0 first, left before right; at most two (a position has children in
 * one tree, or position 0 one in each). */
typedef struct {
    const papcoll__args_t *a;
    const papcoll__twotree_t *t;
    int v, seg, nslot, ns; /* own position; elements per full segment; slots; sends posted */
    int slot_tree[2], slot_kid[2];
    long k, half, next[2];    /* segments; buffers per slot; per tree, the next to send */
    char *acc, *tmp;          /* own vector, combined in place; [2][half] segments from the slots */
    MPI_Request *recv, *send; /* [2 half]: slot s's part of segment i at s half + i / 2; [k] */
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

/* Segment next[tree], once all its slots' parts are in: combined, and sent
 * to the parent (none for position 0).  1 when it went, 0 when it waits. */
static int pass(red_t *r, int tree, int *rc)
{
    const papcoll__args_t *a = r->a;
    long i = r->next[tree];
    int s, n = seg_n(r, i);

    if (i >= r->k)
        return 0;
    for (s = 0; s < r->nslot; s++)
        if (r->slot_tree[s] == tree && r->recv[s * r->half + i / 2] != MPI_REQUEST_NULL)
            return 0;
    for (s = 0; s < r->nslot && *rc == PAPCOLL_OK; s++)
        if (r->slot_tree[s] == tree)
            *rc = papcoll__red_combine(a, seg_at(r, r->tmp, s * r->half + i / 2), seg_at(r, r->acc, i), n,
                                       r->slot_kid[s] < r->v);
    if (*rc == PAPCOLL_OK && r->v > 0)
        *rc = papcoll__isend_bytes(seg_at(r, r->acc, i), (size_t)n * a->sig.esize,
                                   a->plan->v2r[r->t->parent[tree * r->t->P + r->v]], PAPCOLL__TAG_DATA,
                                   a->comm, &r->send[r->ns++]);
    r->next[tree] += 2;
    return 1;
}

/* Every segment that can go, one per tree in turn, so that a parent of
 * this position in both trees (P = 2) receives them in segment order. */
static int advance(red_t *r)
{
    int moved = 1, rc = PAPCOLL_OK;

    while (moved && rc == PAPCOLL_OK)
        moved = pass(r, 0, &rc) | pass(r, 1, &rc);
    return rc;
}

/* Slots, buffers and every receive, in segment order (same-tag messages
 * match in the order they were sent, and at P = 2 one child sends both
 * trees' segments). */
static int setup(red_t *r, const papcoll__args_t *a)
{
    const papcoll__twotree_t *t = a->plan->xdata;
    int tree, i, c, rc = PAPCOLL_OK;
    long j;

    r->a = a, r->t = t, r->v = a->plan->r2v[a->rank];
    r->seg = papcoll__red_seg_elems(a) < a->sig.count ? papcoll__red_seg_elems(a) : a->sig.count;
    r->k = (a->sig.count - 1) / r->seg + 1;
    r->half = (r->k + 1) / 2;
    r->next[0] = 0, r->next[1] = 1;
    for (tree = 0; tree < 2; tree++)
        for (i = 0; i < 2; i++)
            if ((c = t->kid[(tree * t->P + r->v) * 2 + i]) >= 0 && r->nslot < 2)
                r->slot_tree[r->nslot] = tree, r->slot_kid[r->nslot++] = c;
    if ((r->recv = malloc(sizeof(MPI_Request) * (size_t)(2 * r->half + r->k))) == NULL)
        return PAPCOLL_ERR_NOMEM;
    r->send = r->recv + 2 * r->half;
    for (j = 0; j < 2 * r->half; j++)
        r->recv[j] = MPI_REQUEST_NULL;
    r->acc = r->v == 0 ? a->rbuf : papcoll__scratch(a, PAPCOLL__SCR_ACC, a->bytes);
    r->tmp = papcoll__scratch(a, PAPCOLL__SCR_TMP, (size_t)(2 * r->half) * (size_t)r->seg * a->sig.esize);
    if (r->acc == NULL || r->tmp == NULL)
        return PAPCOLL_ERR_NOMEM;
    papcoll__copy(r->acc, a->sbuf, a->bytes);
    for (j = 0; j < r->k; j++)
        for (i = 0; i < r->nslot && rc == PAPCOLL_OK; i++)
            if (r->slot_tree[i] == j % 2)
                rc = papcoll__irecv_bytes(seg_at(r, r->tmp, i * r->half + j / 2),
                                          (size_t)seg_n(r, j) * a->sig.esize, a->plan->v2r[r->slot_kid[i]],
                                          PAPCOLL__TAG_DATA, a->comm, &r->recv[i * r->half + j / 2]);
    return rc;
}

/* Receives as they come, passing each finished segment up; the sends last. */
static int run(red_t *r, int *idx, MPI_Status *st)
{
    const papcoll__args_t *a = r->a;
    long pending = 0, j;
    int n, i, len, rc = PAPCOLL_OK;

    for (j = 0; j < 2 * r->half; j++)
        pending += r->recv[j] != MPI_REQUEST_NULL;
    rc = advance(r);
    while (rc == PAPCOLL_OK && pending > 0) {
        if ((rc = papcoll__fg_waitsome((int)(2 * r->half), r->recv, &n, idx, st, a->nap)) != PAPCOLL_OK)
            break;
        for (i = 0; i < n && rc == PAPCOLL_OK; i++) {
            j = idx[i] % r->half * 2 + r->slot_tree[idx[i] / r->half];
            PMPI_Get_count(&st[i], MPI_BYTE, &len);
            rc = (size_t)len == (size_t)seg_n(r, j) * a->sig.esize ? PAPCOLL_OK : PAPCOLL_ERR_TRUNCATE;
        }
        pending -= n;
        if (rc == PAPCOLL_OK)
            rc = advance(r);
    }
    return rc;
}

int papcoll_reduce_stwotree(const papcoll__args_t *a)
{
    red_t r = {0};
    MPI_Status *st = NULL;
    int *idx = NULL, rc, wrc;
    long j;

    if (a->bytes == 0)
        return PAPCOLL_OK; /* count 0: every rank knows, nothing moves */
    rc = setup(&r, a);
    if (rc == PAPCOLL_OK) {
        idx = malloc(sizeof(int) * (size_t)(2 * r.half));
        st = malloc(sizeof(MPI_Status) * (size_t)(2 * r.half));
        rc = idx == NULL || st == NULL ? PAPCOLL_ERR_NOMEM : run(&r, idx, st);
    }
    for (j = 0; r.recv != NULL && rc != PAPCOLL_OK && j < 2 * r.half; j++) /* receives still posted */
        if (r.recv[j] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&r.recv[j]);
            PMPI_Wait(&r.recv[j], MPI_STATUS_IGNORE);
        }
    wrc = r.recv != NULL ? papcoll__fg_waitall(r.ns, r.send, MPI_STATUSES_IGNORE, a->nap) : PAPCOLL_OK;
    free(r.recv), free(idx), free(st);
    return rc != PAPCOLL_OK ? rc : wrc;
}
