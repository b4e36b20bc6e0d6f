/*
 * bcast "stwotree": the two trees of "twotree" (Sanders, Speck, Träff 2009;
 * sched/twotree.h) with the ranks placed by predicted arrival, and run by
 * data flow instead of twotree's lock step.
 *
 * Placement (papcoll__twotree_place_sorted): every rank is interior in one
 * tree and a leaf of the other, and a late rank holds up its descendants in
 * its interior tree, so the ranks predicted latest take the interior
 * positions with the fewest descendants (one or two leaf children each),
 * the deepest of them the latest, and the earliest the two tree roots.
 * Equal predictions (within the predictor's noise) keep twotree's placement.
 *
 *   P = 8, predicted order after the root a b c d e f g:
 *       tree 0:     b            tree 1:     a       d, e, f, g: interior in one
 *                 /   \                    /         tree with one or two leaf
 *                d     e                  c          children; g (one child, d)
 *               / \   / \               /   \        is three hops deep in both
 *              g   c f   a             g     f       trees
 *                                       \   / \
 *                                        d b   e
 *
 * Execution: every receive is posted at the start (each segment lands in
 * its place in the buffer), and a segment is passed on to the rank's
 * children as soon as it and the earlier segments of its tree are in.  In
 * twotree's lock step a rank waiting for one tree's segment stops serving
 * the other tree too, so a late rank stalls the ranks below it in both
 * trees; here the other tree streams on, and a late rank delays only its
 * own subtree: itself and, when it is placed last, one or two leaves.
 *
 * Cost: balanced arrivals as twotree, (k + 2H + 1)(alpha + beta n/k) with
 * the edge colouring's steps kept only by the order of the segments on
 * each link (the network shares a port between a rank's two sends; every
 * port still carries at most the vector in and the vector out).  Under a
 * PAT, the latest rank j placed last: max(twotree's time, a_j - a_root +
 * alpha + beta n + the segment its leaf children wait for): j receives the
 * whole vector after it arrives and streams half of it on, one segment
 * behind.  Memory: the trees (14P ints per site), 2k + 2 requests and k statuses
 * per call.
 * Restrictions: a prediction (else it runs in twotree's placement).
 */
#include <stdlib.h>

#include "bcast/engine.h"
#include "p2p.h"
#include "sched/twotree.h"

int papcoll__plan_bcast_stwotree(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    return papcoll__plan_stwotree(plan, in, 0);
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

int papcoll_bcast_stwotree(const papcoll__args_t *a)
{
    run_t r = {a, a->plan->xdata, papcoll__segment_bytes(a), 0, {0, 1}, 0, 0, NULL, NULL};
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
