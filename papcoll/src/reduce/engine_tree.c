/*
 * The generic tree reduction behind binomial, pipelined, inorder and
 * fibonacci (Open MPI's reduce_generic in spirit: the wrappers only choose
 * the tree and the segment size).  The tree is the plan's (a shape of
 * sched/tree.h, cached per context) and the placement the plan's v2r/r2v.
 *
 * Per segment s (segments of seg elements; one segment = the whole vector):
 *
 *   acc := own segment s
 *   for each child c in ascending position order:
 *       wait for c's segment s, acc := c (op) acc  if c is below the node
 *                               acc := acc (op) c  if c is above it
 *   send acc to the parent (the tree's root: to the call's root, unless it
 *   is the call's root, whose acc is its receive buffer)
 *
 * Every subtree is a contiguous range of positions, so with the identity
 * placement every partial result is the product of a contiguous range of
 * ranks in rank order: non-commutative operations are safe.
 *
 * Overlap: receives are posted ahead in the order they are consumed
 * (segment-major, children ascending), W buffers deep: two per child when
 * segmented, two in all otherwise; sends are nonblocking, two in flight, so
 * a node receives segment s+1 while it combines segment s and its parent
 * receives segment s-1.  Leaves send straight from the vector.
 * Memory: (W + 2) segments per interior node; the call's root receives the
 * result segments into its buffer directly.
 * Deadlock freedom: a node waits only for a child's segment whose receive
 * it has posted; a child blocks only on its own send two segments back,
 * whose receive its parent posted before anything later.
 */
#include <limits.h>
#include <stdlib.h>

#include "reduce/engine.h"
#include "sparse.h"

int papcoll__red_combine(const papcoll__args_t *a, char *x, char *acc, int n, int x_left)
{
    int rc;

    if (x_left || a->sig.commutative)
        return papcoll__reduce_local(a, x, acc, n);
    if ((rc = papcoll__reduce_local(a, acc, x, n)) == PAPCOLL_OK)
        papcoll__copy(acc, x, (size_t)n * a->sig.esize);
    return rc;
}

const void *papcoll__red_identity(const papcoll__args_t *a)
{
    const papcoll__exec_t *s = a->x;

    return s->identity != NULL && s->identity_bytes == a->sig.esize && a->sig.count > 0 ? s->identity : NULL;
}

typedef struct {
    const papcoll__args_t *a;
    char *acc;
    int left;
} run_arg_t;

static int combine_run(void *arg, size_t off, size_t len, char *data)
{
    run_arg_t *r = arg;

    return papcoll__red_combine(r->a, data, r->acc + off * r->a->sig.esize, (int)len, r->left);
}

int papcoll__red_combine_sparse(const papcoll__args_t *a, char *x, size_t bytes, char *acc, int n, int x_left)
{
    run_arg_t r = {a, acc, x_left};
    int rc = papcoll__sparse_runs(x, bytes, (size_t)n, a->sig.esize, combine_run, &r);

    return rc < 0 ? PAPCOLL_ERR_TRUNCATE : rc;
}

int papcoll__red_seg_elems(const papcoll__args_t *a)
{
    size_t n = a->sig.esize > 0 ? a->x->ctx->segment_bytes / a->sig.esize : 1;

    return n < 1 ? 1 : n > INT_MAX ? INT_MAX : (int)n;
}

typedef struct {
    const papcoll__args_t *a;
    const papcoll__tree_t *t;
    const int *v2r;
    int v, nc;     /* own position, its number of children */
    int S, seg;    /* segments, elements per (full) segment */
    size_t sbytes; /* bytes of a full segment */
    int W, nacc;   /* receive buffers, accumulators */
    char *rbufs, *accs;
    MPI_Request *rreq; /* [W] */
    MPI_Request *res;  /* [S] at a call root off the tree's root, else NULL */
    MPI_Request sreq[2];
} run_t;

static int seg_n(const run_t *r, int s)
{
    int rest = r->a->sig.count - s * r->seg;

    return rest < r->seg ? rest : r->seg;
}

static size_t seg_off(const run_t *r, int s)
{
    return (size_t)s * (size_t)r->seg * r->a->sig.esize;
}

/* Posts pair p (child p % nc's segment p / nc) into buffer p % W. */
static int post(run_t *r, int p)
{
    int s = p / r->nc, c = papcoll__tree_kid_asc(r->t, r->v, p % r->nc);

    return papcoll__irecv_bytes(r->rbufs + (size_t)(p % r->W) * r->sbytes,
                                (size_t)seg_n(r, s) * r->a->sig.esize, r->v2r[c], PAPCOLL__TAG_DATA,
                                r->a->comm, &r->rreq[p % r->W]);
}

/* Waits for pair p, combines it into acc, posts pair p + W. */
static int absorb(run_t *r, int p, char *acc)
{
    int s = p / r->nc, c = papcoll__tree_kid_asc(r->t, r->v, p % r->nc), n = seg_n(r, s), got = 0, rc;
    char *x = r->rbufs + (size_t)(p % r->W) * r->sbytes;
    MPI_Status st;

    if ((rc = PAPCOLL__ERR(PMPI_Wait(&r->rreq[p % r->W], &st))) != PAPCOLL_OK)
        return rc;
    PMPI_Get_count(&st, MPI_BYTE, &got);
    if ((size_t)got != (size_t)n * r->a->sig.esize)
        return PAPCOLL_ERR_TRUNCATE;
    if ((rc = papcoll__red_combine(r->a, x, acc, n, c < r->v)) != PAPCOLL_OK)
        return rc;
    return p + r->W < r->S * r->nc ? post(r, p + r->W) : PAPCOLL_OK;
}

/* Segment s of this position: combine and pass it on. */
static int segment(run_t *r, int s)
{
    const papcoll__args_t *a = r->a;
    int at_top = r->v == r->t->root, final = at_top && a->rank == a->root, n = seg_n(r, s), i, rc;
    int dst = at_top ? a->root : r->v2r[r->t->parent[r->v]];
    int tag = at_top ? PAPCOLL__TAG_RED_RESULT : PAPCOLL__TAG_DATA;
    size_t len = (size_t)n * a->sig.esize;
    char *acc;

    if ((rc = PAPCOLL__ERR(PMPI_Wait(&r->sreq[s % 2], MPI_STATUS_IGNORE))) != PAPCOLL_OK)
        return rc; /* the send two segments back used this slot */
    if (r->nc == 0 && !at_top)
        return papcoll__isend_bytes(a->sbuf + seg_off(r, s), len, dst, tag, a->comm, &r->sreq[s % 2]);
    acc = final ? a->rbuf + seg_off(r, s) : r->accs + (size_t)(s % r->nacc) * r->sbytes;
    papcoll__copy(acc, a->sbuf + seg_off(r, s), len);
    for (i = 0; i < r->nc; i++)
        if ((rc = absorb(r, s * r->nc + i, acc)) != PAPCOLL_OK)
            return rc;
    return final ? PAPCOLL_OK : papcoll__isend_bytes(acc, len, dst, tag, a->comm, &r->sreq[s % 2]);
}

static int imin(int x, int y)
{
    return x < y ? x : y;
}

/* Receive buffers: two per child when segmented, two in all otherwise;
 * accumulators: two when segmented (one is sent while the next fills). */
static int setup(run_t *r, const papcoll__args_t *a, int seg_elems, int *nres)
{
    const papcoll__plan_t *pl = a->plan;
    int i;

    r->a = a;
    r->t = pl->tree;
    r->v2r = pl->v2r;
    r->v = pl->r2v[a->rank];
    r->nc = papcoll__tree_nkids(r->t, r->v);
    r->seg = seg_elems < a->sig.count ? seg_elems : a->sig.count;
    r->S = (a->sig.count - 1) / r->seg + 1;
    r->sbytes = (size_t)r->seg * a->sig.esize;
    r->W = r->S == 1 ? imin(r->nc, 2) : 2 * r->nc;
    r->nacc = (r->nc > 0 || r->v == r->t->root) ? imin(r->S, 2) : 0;
    *nres = (a->rank == a->root && r->v != r->t->root) ? r->S : 0;
    r->accs = papcoll__scratch(a, PAPCOLL__SCR_ACC, (size_t)(r->W + r->nacc) * r->sbytes);
    r->rreq = malloc(sizeof(MPI_Request) * (size_t)(r->W + *nres + 1));
    if (r->accs == NULL || r->rreq == NULL)
        return PAPCOLL_ERR_NOMEM;
    r->rbufs = r->accs + (size_t)r->nacc * r->sbytes;
    r->res = *nres > 0 ? r->rreq + r->W : NULL;
    for (i = 0; i < r->W + *nres; i++)
        r->rreq[i] = MPI_REQUEST_NULL;
    r->sreq[0] = r->sreq[1] = MPI_REQUEST_NULL;
    return PAPCOLL_OK;
}

int papcoll__red_tree_engine(const papcoll__args_t *a, int seg_elems)
{
    run_t r = {0};
    int nres = 0, s, p, rc;

    if (a->bytes == 0)
        return PAPCOLL_OK; /* count 0: every rank knows, nothing moves */
    if ((rc = setup(&r, a, seg_elems, &nres)) != PAPCOLL_OK)
        goto fail;
    for (s = 0; s < nres && rc == PAPCOLL_OK; s++)
        rc = papcoll__irecv_bytes(a->rbuf + seg_off(&r, s), (size_t)seg_n(&r, s) * a->sig.esize,
                                  r.v2r[r.t->root], PAPCOLL__TAG_RED_RESULT, a->comm, &r.res[s]);
    for (p = 0; p < r.W && p < r.S * r.nc && rc == PAPCOLL_OK; p++)
        rc = post(&r, p);
    for (s = 0; s < r.S && rc == PAPCOLL_OK; s++)
        rc = segment(&r, s);
    if (rc == PAPCOLL_OK)
        rc = papcoll__waitall(2, r.sreq, MPI_STATUSES_IGNORE);
    if (rc == PAPCOLL_OK && nres > 0)
        rc = papcoll__waitall(nres, r.res, MPI_STATUSES_IGNORE);
fail:
    free(r.rreq);
    return rc;
}
