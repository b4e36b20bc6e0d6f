/*
 * Point-to-point helpers shared by the algorithms.
 *
 * One polling wait.  A background part's waits nap between polls, from
 * 2 us doubling to 200 us, instead of blocking in MPI: a blocking MPI call
 * spins in the progress engine, and the monitor thread shares the cores
 * with the computation it overlaps (Proficz 2020, Sect. 6 counts that as
 * overhead); a message that is already there costs no nap at all.  A
 * call's own waits nap the same way only where ranks share cores
 * (a->nap: the context detected oversubscription, init.c), so that a
 * waiting rank leaves its core to the ranks still computing; elsewhere
 * they yield between polls, and no nap adds its latency.
 *
 * Under SMPI (PAPCOLL_SMPI) a call's waits block in MPI: its ranks are
 * cooperative contexts that never share a core, and every MPI_Test* there
 * costs simulated time (smpi/test, 0.1 ms by default), so polling would
 * add it once per poll.  They poll only while a monitor of the rank (a
 * coroutine of it, coop.h) has work, which a blocked rank would not run;
 * a background part's waits always poll.
 */
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "coop.h"
#include "p2p.h"

#define BACKOFF_MIN_NS 2000L
#define BACKOFF_MAX_NS 200000L

/* Between two polls: a nap of *ns (doubled for the next one), or a yield. */
static void backoff(long *ns, int nap)
{
#ifdef PAPCOLL_SMPI
    papcoll__coop_backoff(ns, BACKOFF_MAX_NS, nap); /* a monitor yields to the rank (coop.h) */
#else
    struct timespec ts = {0, *ns};

    if (!nap) {
        sched_yield();
        return;
    }
    nanosleep(&ts, NULL);
    if (*ns < BACKOFF_MAX_NS)
        *ns *= 2;
#endif
}

static int count_of(size_t bytes, int *count)
{
    if (bytes > (size_t)INT_MAX)
        return PAPCOLL_ERR_INVAL;
    *count = (int)bytes;
    return PAPCOLL_OK;
}

/* The polling waits.  Under SMPI, SimGrid 3.32's MPI_Testall completes
 * the requests one by one and reports those it completed at an earlier
 * call with empty statuses (MPI leaves every request alone while the flag
 * is false): there each request is polled in turn.  Its MPI_Test sets no
 * flag for MPI_REQUEST_NULL under MPI_STATUS_IGNORE (a wait on a request
 * not started, as bchain's first forward, polled forever): it always gets
 * a status. */
static int poll_waitall(int n, MPI_Request *reqs, MPI_Status *sts, int nap)
{
    long ns = BACKOFF_MIN_NS;
    int done = 0, rc = MPI_SUCCESS;

#ifdef PAPCOLL_SMPI
    MPI_Status ignored;
    int i;

    for (i = 0; i < n && rc == MPI_SUCCESS; i++)
        while ((rc = PMPI_Test(&reqs[i], &done, sts == MPI_STATUSES_IGNORE ? &ignored : &sts[i])) ==
                   MPI_SUCCESS &&
               !done)
            backoff(&ns, nap);
#else
    while ((rc = PMPI_Testall(n, reqs, &done, sts)) == MPI_SUCCESS && !done)
        backoff(&ns, nap);
#endif
    return PAPCOLL__ERR(rc);
}

#ifndef PAPCOLL_SMPI
static int poll_waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts, int nap)
{
    long ns = BACKOFF_MIN_NS;
    int rc;

    while ((rc = PMPI_Testsome(n, reqs, done, idx, sts)) == MPI_SUCCESS && *done == 0)
        backoff(&ns, nap);
    return PAPCOLL__ERR(rc);
}
#endif

static int poll_waitany(int n, MPI_Request *reqs, int *idx, MPI_Status *st, int nap)
{
    long ns = BACKOFF_MIN_NS;
    int done = 0, rc;

    while ((rc = PMPI_Testany(n, reqs, idx, &done, st)) == MPI_SUCCESS && !done)
        backoff(&ns, nap);
    return PAPCOLL__ERR(rc);
}

#ifdef PAPCOLL_SMPI
/* Under SMPI a wait blocks in MPI unless a monitor of the rank has work
 * (coop.h): a blocked rank would not run it. */
int papcoll__fg_waitall(int n, MPI_Request *reqs, MPI_Status *sts, int nap)
{
    return papcoll__coop_busy() ? poll_waitall(n, reqs, sts, nap) : papcoll__waitall(n, reqs, sts);
}

int papcoll__fg_waitany(int n, MPI_Request *reqs, int *idx, MPI_Status *st, int nap)
{
    return papcoll__coop_busy() ? poll_waitany(n, reqs, idx, st, nap)
                                : PAPCOLL__ERR(PMPI_Waitany(n, reqs, idx, st));
}

/* One completion per call, which a wait-some may return: SimGrid 3.32's
 * MPI_Waitsome and MPI_Testsome run MPI_Test on every other pending
 * request, each charged smpi/test (0.1 ms), and clairvoyant's wait over
 * its N receive slots (65 at 4 MiB) took up to 6 ms per call.
 * MPI_Waitany charges nothing, MPI_Testany one smpi/test. */
int papcoll__fg_waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts, int nap)
{
    int rc = papcoll__fg_waitany(n, reqs, idx, sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : sts, nap);

    *done = idx[0] == MPI_UNDEFINED ? MPI_UNDEFINED : 1;
    return rc;
}
#else
int papcoll__fg_waitall(int n, MPI_Request *reqs, MPI_Status *sts, int nap)
{
    return poll_waitall(n, reqs, sts, nap);
}

int papcoll__fg_waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts, int nap)
{
    return poll_waitsome(n, reqs, done, idx, sts, nap);
}

int papcoll__fg_waitany(int n, MPI_Request *reqs, int *idx, MPI_Status *st, int nap)
{
    return poll_waitany(n, reqs, idx, st, nap);
}
#endif

int papcoll__bg_waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    return papcoll__fg_waitall(n, reqs, sts, 1);
}

int papcoll__bg_waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts)
{
    return papcoll__fg_waitsome(n, reqs, done, idx, sts, 1);
}

int papcoll__bg_wait(MPI_Request *req)
{
    return papcoll__fg_waitall(1, req, MPI_STATUSES_IGNORE, 1);
}

int papcoll__stage_reserve(papcoll__stage_t *st, size_t bytes)
{
    char *p;

    if (bytes <= st->cap)
        return PAPCOLL_OK;
    if ((p = realloc(st->buf, bytes)) == NULL)
        return PAPCOLL_ERR_NOMEM;
    st->buf = p;
    st->cap = bytes;
    return PAPCOLL_OK;
}

#ifdef PAPCOLL_SMPI
/* papcoll_sim_shared_scratch's setting: one for all ranks (SMPI's ranks are
 * actors of one process, coop.c), which each sets alike. */
static int shared_scratch;

void papcoll_sim_shared_scratch(int on)
{
    shared_scratch = on != 0;
}
#endif

void *papcoll__scratch(const papcoll__args_t *a, int slot, size_t bytes)
{
    papcoll__stage_t *st = &a->x->scratch[slot];

#ifdef PAPCOLL_SMPI
    /* A shared block grows by a fresh one: realloc knows none. */
    if ((shared_scratch || st->shared) && bytes + 1 > st->cap) {
        papcoll__scratch_free(st);
        if ((st->buf = papcoll__work_alloc(bytes + 1)) == NULL)
            return NULL;
        st->cap = bytes + 1;
        st->shared = shared_scratch;
        return st->buf;
    }
#endif
    return papcoll__stage_reserve(st, bytes + 1) == PAPCOLL_OK ? st->buf : NULL;
}

void papcoll__scratch_free(papcoll__stage_t *st)
{
#ifdef PAPCOLL_SMPI
    if (st->shared && st->buf != NULL)
        SMPI_SHARED_FREE(st->buf);
    else
#endif
        free(st->buf);
    st->buf = NULL;
    st->cap = 0;
}

void *papcoll__work_alloc(size_t bytes)
{
#ifdef PAPCOLL_SMPI
    if (shared_scratch)
        return SMPI_SHARED_MALLOC(bytes);
#endif
    return malloc(bytes);
}

void papcoll__work_free(void *p)
{
#ifdef PAPCOLL_SMPI
    if (shared_scratch) {
        if (p != NULL)
            SMPI_SHARED_FREE(p);
        return;
    }
#endif
    free(p);
}

#ifdef PAPCOLL_SMPI
typedef struct {
    int src, tag;
    MPI_Comm comm;
} probed_t;

int papcoll__improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *msg, MPI_Status *st)
{
    MPI_Status own, *s = st == MPI_STATUS_IGNORE ? &own : st;
    probed_t *p;
    int rc = PMPI_Iprobe(src, tag, comm, flag, s);

    if (rc != MPI_SUCCESS || !*flag)
        return rc;
    if ((p = malloc(sizeof *p)) == NULL)
        return MPI_ERR_NO_MEM;
    *p = (probed_t){s->MPI_SOURCE, s->MPI_TAG, comm};
    *msg = p;
    return MPI_SUCCESS;
}

int papcoll__imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg, MPI_Request *req)
{
    probed_t *p = *msg;
    int rc = PMPI_Irecv(buf, count, type, p->src, p->tag, p->comm, req);

    free(p);
    *msg = MPI_MESSAGE_NULL;
    return rc;
}
#else
int papcoll__improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *msg, MPI_Status *st)
{
    return PMPI_Improbe(src, tag, comm, flag, msg, st);
}

int papcoll__imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg, MPI_Request *req)
{
    return PMPI_Imrecv(buf, count, type, msg, req);
}
#endif

int papcoll__fg_probe(int src, int tag, MPI_Comm comm, MPI_Message *msg, size_t *bytes, int nap)
{
    MPI_Status status;
    long ns = BACKOFF_MIN_NS;
    int flag = 0, n = 0, rc;

    while ((rc = papcoll__improbe(src, tag, comm, &flag, msg, &status)) == MPI_SUCCESS && !flag)
        backoff(&ns, nap);
    if (rc != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    PMPI_Get_count(&status, MPI_BYTE, &n);
    *bytes = (size_t)n;
    return PAPCOLL_OK;
}

int papcoll__bg_probe(int src, int tag, MPI_Comm comm, MPI_Message *msg, size_t *bytes)
{
    return papcoll__fg_probe(src, tag, comm, msg, bytes, 1);
}

/* Receives one message of unknown size from src into st->buf at offset
 * st->len (so two segments can be appended); adds its size to *len. */
int papcoll__bg_recv(papcoll__stage_t *st, int src, int tag, MPI_Comm comm, size_t *len)
{
    MPI_Message msg;
    MPI_Request req;
    size_t n = 0;
    int rc;

    if ((rc = papcoll__bg_probe(src, tag, comm, &msg, &n)) != PAPCOLL_OK)
        return rc;
    if ((rc = papcoll__stage_reserve(st, st->len + n)) != PAPCOLL_OK)
        return rc;
    if ((rc = papcoll__imrecv(st->buf + st->len, (int)n, MPI_BYTE, &msg, &req)) != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    if ((rc = papcoll__bg_wait(&req)) != PAPCOLL_OK)
        return rc;
    st->len += n;
    if (len != NULL)
        *len = n;
    return PAPCOLL_OK;
}

#ifdef PAPCOLL_SMPI
/* Under SMPI a blocking send or receive would also block the rank's
 * monitors (coop.h), so it is a nonblocking one and papcoll__waitall. */
int papcoll__send_bytes(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm)
{
    MPI_Request req;
    int n, rc;

    if ((rc = count_of(bytes, &n)) != PAPCOLL_OK)
        return rc;
    if ((rc = PMPI_Isend(buf, n, MPI_BYTE, dst, tag, comm, &req)) != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    return papcoll__waitall(1, &req, MPI_STATUSES_IGNORE);
}

static int recv_status(void *buf, int n, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    MPI_Request req;
    int rc = PMPI_Irecv(buf, n, MPI_BYTE, src, tag, comm, &req);

    return rc != MPI_SUCCESS ? PAPCOLL__ERR(rc) : papcoll__waitall(1, &req, st);
}
#else
int papcoll__send_bytes(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm)
{
    int n, rc;

    if ((rc = count_of(bytes, &n)) != PAPCOLL_OK)
        return rc;
    return PAPCOLL__ERR(PMPI_Send(buf, n, MPI_BYTE, dst, tag, comm));
}

static int recv_status(void *buf, int n, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    return PAPCOLL__ERR(PMPI_Recv(buf, n, MPI_BYTE, src, tag, comm, st));
}
#endif

int papcoll__recv_bytes(void *buf, size_t bytes, int src, int tag, MPI_Comm comm)
{
    MPI_Status st;
    int n, got = 0, rc;

    if ((rc = count_of(bytes, &n)) != PAPCOLL_OK)
        return rc;
    if ((rc = recv_status(buf, n, src, tag, comm, &st)) != PAPCOLL_OK)
        return rc;
    PMPI_Get_count(&st, MPI_BYTE, &got);
    return got == n ? PAPCOLL_OK : PAPCOLL_ERR_TRUNCATE;
}

int papcoll__irecv_bytes(void *buf, size_t bytes, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
    int n, rc;

    if ((rc = count_of(bytes, &n)) != PAPCOLL_OK)
        return rc;
    return PAPCOLL__ERR(PMPI_Irecv(buf, n, MPI_BYTE, src, tag, comm, req));
}

int papcoll__isend_bytes(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm, MPI_Request *req)
{
    int n, rc;

    if ((rc = count_of(bytes, &n)) != PAPCOLL_OK)
        return rc;
    return PAPCOLL__ERR(PMPI_Isend(buf, n, MPI_BYTE, dst, tag, comm, req));
}

#ifdef PAPCOLL_SMPI
/* SMPI 3.32's MPI_Waitall is a loop of MPI_Waitany, O(n) each, and a root
 * waiting for P - 1 receives made 1,024-rank simulations spend most of their
 * time there.  One MPI_Wait per request completes at the same simulated time.
 * It polls instead while a monitor of the rank has work (coop.h): treedyn's
 * coordinator in the root's monitor waits for the root's own READY. */
int papcoll__waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    int i, rc = MPI_SUCCESS;

    if (papcoll__coop_busy())
        return poll_waitall(n, reqs, sts, 1);

    for (i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = PMPI_Wait(&reqs[i], sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i]);
    return PAPCOLL__ERR(rc);
}
#else
int papcoll__waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    return PAPCOLL__ERR(PMPI_Waitall(n, reqs, sts));
}
#endif
