/*
 * bcast "arrival": served in actual arrival order, no prediction (after
 * Patarasuk and Yuan, "Efficient MPI Bcast across different process
 * arrival patterns", IPDPS 2008: ranks announce their arrival and the data
 * goes to the arrived ranks first).  Every rank that has the vector is a
 * holder and helps, so the fan-out doubles like a binomial tree when all
 * ranks are there, but the tree is built at run time from the arrivals:
 *
 *   non-root r: posts the data receive (any source), announces itself to
 *               the root (empty message), waits for the vector, reports
 *               idle; then obeys orders: "send to t" (then idle again) or
 *               "done".
 *   root:       keeps the announced ranks in a FIFO and the idle holders
 *               (itself first) in another; while both are non-empty it
 *               pairs the longest-waiting rank with the longest-idle holder
 *               (itself: a nonblocking send, other holders: an order).  Once
 *               all P-1 have announced and none waits, each holder that
 *               turns idle is released.  It returns when all P-1 holders are
 *               released (every rank reported the data) and its own send
 *               finished.
 *
 *   all arrive together (P = 8):        one late rank x (arrives last):
 *   t0: root -> r1                      the other six are served as above;
 *   t1: root -> r2, r1 -> r3            x announces, the first idle holder
 *   t2: root, r1, r2, r3 -> r4..r7      sends to it at once: one message
 *                                       after its arrival, nobody waited
 *
 * Messages (tags on the site's data communicator, site.h): ARRIVE (empty,
 * to the root), ORDER (one int, root to holder), IDLE (empty, to the root),
 * ADATA (the vector).  The vector has a tag of its own because it is
 * received from any source: an order released early may let a holder start
 * its next call while another rank still waits for this call's vector.
 *
 * Cost, flat PAP: binomial's ceil(log2 P)(alpha + n beta) plus the
 * announcement (one alpha before the first send), per doubling round after
 * the first an idle report and an order (2 alpha), and the last receivers'
 * idle reports and release (2 alpha): (2 ceil(log2 P) + 1) alpha more than
 * binomial (measured: docs/bcast-allreduce.md).  The root handles 2(P-1)
 * small messages.  Imbalanced PAP: a rank is served one transfer
 * after max(its arrival, the first holder free), so no arrived rank waits
 * for a late one.  Memory: the root keeps two int arrays of P.  Restrictions:
 * none.
 */
#include <stdlib.h>

#include "bcast/engine.h"

/* The root's bookkeeping. */
typedef struct {
    int *wait, nw, hw;  /* FIFO of announced ranks not yet assigned: wait[hw .. nw) */
    int *idle, ni, hi;  /* FIFO of idle holders: idle[hi .. ni) (each rank enters at most P times) */
    int announced;      /* announcements received */
    int released;       /* holders sent "done" */
    int idles_due;      /* idle reports still expected */
    MPI_Request req[3]; /* announcement, idle report, the root's own data send */
} root_t;

enum { R_ARRIVE, R_IDLE, R_SEND };

static int order(const papcoll__args_t *a, int holder, int target)
{
    return PAPCOLL__ERR(PMPI_Send(&target, 1, MPI_INT, holder, PAPCOLL__TAG_ORDER, a->comm));
}

/* Pairs waiting ranks with idle holders; releases idle holders once every
 * rank has announced and none waits. */
static int dispatch(const papcoll__args_t *a, root_t *s)
{
    int h, t, rc = PAPCOLL_OK;

    while (rc == PAPCOLL_OK && s->hw < s->nw && s->hi < s->ni) {
        h = s->idle[s->hi++];
        t = s->wait[s->hw++];
        if (h == a->rank) {
            rc = papcoll__isend_bytes(a->rbuf, a->bytes, t, PAPCOLL__TAG_ADATA, a->comm, &s->req[R_SEND]);
        } else {
            rc = order(a, h, t);
            s->idles_due++; /* the holder reports when its send is done */
        }
    }
    while (rc == PAPCOLL_OK && s->announced == a->size - 1 && s->hw == s->nw && s->hi < s->ni) {
        h = s->idle[s->hi++];
        if (h != a->rank) {
            rc = order(a, h, -1);
            s->released++;
        }
    }
    return rc;
}

/* Keeps one announcement and one idle receive posted while more are due
 * (dispatch may make an idle report due after the last one was taken). */
static int post(const papcoll__args_t *a, root_t *s)
{
    int rc = PAPCOLL_OK;

    if (s->req[R_ARRIVE] == MPI_REQUEST_NULL && s->announced < a->size - 1)
        rc = PAPCOLL__ERR(
            PMPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, PAPCOLL__TAG_ARRIVE, a->comm, &s->req[R_ARRIVE]));
    if (rc == PAPCOLL_OK && s->req[R_IDLE] == MPI_REQUEST_NULL && s->idles_due > 0)
        rc = PAPCOLL__ERR(
            PMPI_Irecv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, PAPCOLL__TAG_IDLE, a->comm, &s->req[R_IDLE]));
    return rc;
}

static int root_loop(const papcoll__args_t *a, root_t *s)
{
    MPI_Status st;
    int k, rc;

    s->idle[s->ni++] = a->rank;
    s->idles_due = a->size - 1; /* every rank reports once it has the vector */
    if ((rc = post(a, s)) != PAPCOLL_OK)
        return rc;
    while (s->released < a->size - 1 || s->req[R_SEND] != MPI_REQUEST_NULL) {
        if ((rc = PAPCOLL__ERR(PMPI_Waitany(3, s->req, &k, &st))) != PAPCOLL_OK)
            return rc;
        if (k == R_ARRIVE) {
            s->wait[s->nw++] = st.MPI_SOURCE;
            s->announced++;
        } else if (k == R_IDLE) {
            s->idle[s->ni++] = st.MPI_SOURCE;
            s->idles_due--;
        } else {
            s->idle[s->ni++] = a->rank;
        }
        if ((rc = dispatch(a, s)) != PAPCOLL_OK || (rc = post(a, s)) != PAPCOLL_OK)
            return rc;
    }
    return PAPCOLL_OK;
}

static int run_root(const papcoll__args_t *a)
{
    root_t s = {0};
    int k, rc;

    for (k = 0; k < 3; k++)
        s.req[k] = MPI_REQUEST_NULL;
    s.wait = malloc((size_t)a->size * sizeof(int));
    s.idle = malloc(2 * (size_t)a->size * sizeof(int));
    rc = s.wait && s.idle ? root_loop(a, &s) : PAPCOLL_ERR_NOMEM;
    for (k = 0; k < 3; k++) /* only after a failure */
        if (s.req[k] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&s.req[k]);
            PMPI_Wait(&s.req[k], MPI_STATUS_IGNORE);
        }
    free(s.wait);
    free(s.idle);
    return rc;
}

static int run_leaf(const papcoll__args_t *a)
{
    MPI_Request req;
    MPI_Status st;
    int target, got = 0, rc;

    rc = papcoll__irecv_bytes(a->rbuf, a->bytes, MPI_ANY_SOURCE, PAPCOLL__TAG_ADATA, a->comm, &req);
    if (rc != PAPCOLL_OK)
        return rc;
    rc = PAPCOLL__ERR(PMPI_Send(NULL, 0, MPI_BYTE, a->root, PAPCOLL__TAG_ARRIVE, a->comm));
    if ((rc = rc ? rc : PAPCOLL__ERR(PMPI_Wait(&req, &st))) != PAPCOLL_OK)
        return rc;
    PMPI_Get_count(&st, MPI_BYTE, &got);
    if ((size_t)got != a->bytes)
        return PAPCOLL_ERR_TRUNCATE;
    for (;;) {
        rc = PAPCOLL__ERR(PMPI_Send(NULL, 0, MPI_BYTE, a->root, PAPCOLL__TAG_IDLE, a->comm));
        if (rc == PAPCOLL_OK)
            rc = PAPCOLL__ERR(
                PMPI_Recv(&target, 1, MPI_INT, a->root, PAPCOLL__TAG_ORDER, a->comm, MPI_STATUS_IGNORE));
        if (rc != PAPCOLL_OK || target < 0)
            return rc;
        if ((rc = papcoll__send_bytes(a->rbuf, a->bytes, target, PAPCOLL__TAG_ADATA, a->comm)) != PAPCOLL_OK)
            return rc;
    }
}

int papcoll_bcast_arrival(const papcoll__args_t *a)
{
    if (a->size == 1)
        return PAPCOLL_OK;
    return a->rank == a->root ? run_root(a) : run_leaf(a);
}
