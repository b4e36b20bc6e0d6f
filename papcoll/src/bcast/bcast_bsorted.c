/*
 * bcast "bsorted": Background "sorted" (the bcast analogue of Proficz
 * 2020's BSBN scatter, Sect. 4.1, Fig. 8).  The tree and placement of
 * sorted; every non-root receives the vector from its parent and forwards
 * it to its children in its monitor thread, from the moment the plan job
 * (the edge's PAT exchange) has placed it.  A rank that is still computing
 * therefore delays nobody: its subtree gets the data through its monitor
 * thread, and its own call finds the data waiting.  The root sends to its
 * children in its foreground call (its buffer is an argument of the call).
 *
 *   root (call)        a (monitor)          c (monitor)       c's call
 *   send -> a  ------> recv                                    (still computing)
 *   send -> b          send -> c  -------> recv
 *   send -> d          send -> f           send -> g
 *                      a's call: copy      ...                 copy, return
 *
 * Where the data waits: in the buffer bound with papcoll_site_bind_recv()
 * when one is bound and the message fits it (no copy when the call passes
 * that buffer), else in the site's staging buffer (one memcpy at the call).
 * The receive sizes itself by MPI_Improbe, so a call whose size differs
 * from the previous one's still works.
 *
 * Run time with one late non-root rank j: max(a_j - a_root, sorted's run
 * time) plus a copy (Eq. 15 of Proficz 2020 for BSBN); the late root
 * delays everyone, as in every bcast.  Memory: one vector per non-root
 * (staged) or none (bound).  Restrictions: needs the monitor thread
 * (MPI_THREAD_MULTIPLE), else it runs as sorted.
 */
#include "bcast/engine.h"

/* Receives the vector from the parent into the bound buffer (when it fits)
 * or the staging buffer; *buf is where it landed. */
static int receive(papcoll__exec_t *x, int parent, char **buf)
{
    papcoll__stage_t *st = &x->stage[0];
    MPI_Message msg;
    MPI_Request req;
    size_t n = 0;
    int rc;

    if ((rc = papcoll__bg_probe(parent, PAPCOLL__TAG_DATA, x->comm, &msg, &n)) != PAPCOLL_OK)
        return rc;
    if (x->bound != NULL && n <= x->bound_bytes)
        *buf = x->bound;
    else if ((rc = papcoll__stage_reserve(st, n)) == PAPCOLL_OK)
        *buf = st->buf;
    if (rc == PAPCOLL_OK)
        rc = PAPCOLL__ERR(papcoll__imrecv(*buf, (int)n, MPI_BYTE, &msg, &req));
    if (rc == PAPCOLL_OK)
        rc = papcoll__bg_wait(&req);
    st->len = rc == PAPCOLL_OK ? n : 0;
    return rc;
}

int papcoll__bcast_bsorted_bg(papcoll__exec_t *x, int root)
{
    const papcoll__plan_t *plan = x->plan;
    const papcoll__tree_t *t = plan->tree;
    int v = plan->r2v[x->ctx->rank], i, rc;
    char *buf = NULL;
    MPI_Request req;

    (void)root; /* the plan was built for it */
    x->stage[0].len = 0;
    if (t->parent[v] < 0)
        return PAPCOLL_OK; /* the root sends in its call */
    if ((rc = receive(x, plan->v2r[t->parent[v]], &buf)) != PAPCOLL_OK)
        return rc;
    for (i = 0; i < papcoll__tree_nkids(t, v) && rc == PAPCOLL_OK; i++) {
        rc = papcoll__isend_bytes(buf, x->stage[0].len, plan->v2r[papcoll__tree_kid(t, v, i)],
                                  PAPCOLL__TAG_DATA, x->comm, &req);
        if (rc == PAPCOLL_OK)
            rc = papcoll__bg_wait(&req);
    }
    return rc;
}

int papcoll_bcast_bsorted(const papcoll__args_t *a)
{
    if (a->rank == a->root)
        return papcoll__bcast_tree(a, 0);
    return papcoll__bcast_bg_deliver(a);
}
