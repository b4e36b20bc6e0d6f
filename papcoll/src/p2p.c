/*
 * Point-to-point helpers shared by the algorithms.
 *
 * Background waits poll with a growing sleep instead of blocking in MPI:
 * a blocking MPI call spins in the progress engine, and the monitor thread
 * shares the cores with the computation it is overlapping (Proficz 2020,
 * Sect. 6 counts that as overhead).  The sleep starts at 2 us and doubles up
 * to 200 us, so a message that is already there costs no sleep at all.
 * Clairvoyant's executor waits this way in the foreground too: its schedule
 * makes ranks wait for predicted late ones, and a spinning waiter takes a
 * core from the ranks still computing (docs/reduce.md, "Clairvoyant"); it
 * yields instead where nobody computes (papcoll__fg_naps).
 * The fg_ waits of the arrival-driven pairing spin first, yielding between
 * polls, for up to 1 ms, then nap the same way: its waits are short when
 * arrivals are balanced, and every nap costs at least the timer slack.
 * They nap only when the call's ranks share cores with computing ones
 * (papcoll__fg_naps); else they yield until done.
 */
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "p2p.h"

#define BACKOFF_MIN_NS 2000L
#define BACKOFF_MAX_NS 200000L
#define FG_SPIN_NS 1000000L

/* The pace of a polling wait: first sched_yield between polls until spin
 * ends (a foreground wait that is likely short: a nap costs at least the
 * kernel's timer slack, about 50 us), then naps from 2 us doubling to
 * 200 us; spin < 0: sched_yield until done.  A wait without a spinning
 * phase, or with one that never ends, never reads the clock. */
typedef struct {
    long ns;
    int spinning; /* 0: napping, 1: until spin, 2: for ever */
    struct timespec spin; /* CLOCK_MONOTONIC end of the spinning phase */
} pace_t;

static void pace_init(pace_t *p, long spin_ns)
{
    p->ns = BACKOFF_MIN_NS;
    if ((p->spinning = spin_ns < 0 ? 2 : spin_ns > 0) != 1)
        return;
    clock_gettime(CLOCK_MONOTONIC, &p->spin);
    p->spin.tv_nsec += spin_ns;
    p->spin.tv_sec += p->spin.tv_nsec / 1000000000L;
    p->spin.tv_nsec %= 1000000000L;
}

static void pace(pace_t *p)
{
    struct timespec now, ts = {0, p->ns};

    if (p->spinning == 2) {
        sched_yield();
        return;
    }
    if (p->spinning) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        p->spinning = now.tv_sec < p->spin.tv_sec || (now.tv_sec == p->spin.tv_sec && now.tv_nsec < p->spin.tv_nsec);
        if (p->spinning) {
            sched_yield();
            return;
        }
    }
    nanosleep(&ts, NULL);
    if (p->ns < BACKOFF_MAX_NS)
        p->ns *= 2;
}

static int count_of(size_t bytes, int *count)
{
    if (bytes > (size_t)INT_MAX)
        return PAPCOLL_ERR_INVAL;
    *count = (int)bytes;
    return PAPCOLL_OK;
}

static int waitall(int n, MPI_Request *reqs, MPI_Status *sts, long spin_ns)
{
    pace_t p;
    int done = 0, rc;

    pace_init(&p, spin_ns);
    while ((rc = PMPI_Testall(n, reqs, &done, sts)) == MPI_SUCCESS && !done)
        pace(&p);
    return PAPCOLL__ERR(rc);
}

int papcoll__bg_waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    return waitall(n, reqs, sts, 0);
}

static int waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts, long spin_ns)
{
    pace_t p;
    int rc;

    pace_init(&p, spin_ns);
    while ((rc = PMPI_Testsome(n, reqs, done, idx, sts)) == MPI_SUCCESS && *done == 0)
        pace(&p);
    return PAPCOLL__ERR(rc);
}

int papcoll__bg_waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts)
{
    return waitsome(n, reqs, done, idx, sts, 0);
}

int papcoll__cv_waitall(int n, MPI_Request *reqs, MPI_Status *sts, int nap)
{
    return waitall(n, reqs, sts, nap ? 0 : -1);
}

int papcoll__cv_waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts, int nap)
{
    return waitsome(n, reqs, done, idx, sts, nap ? 0 : -1);
}

int papcoll__bg_wait(MPI_Request *req)
{
    return waitall(1, req, MPI_STATUSES_IGNORE, 0);
}

/* The spinning phase of a foreground wait. */
static long fg_spin(int nap)
{
    return nap ? FG_SPIN_NS : -1;
}

int papcoll__fg_naps(int oversubscribed, double cpu, double wall)
{
    if (!oversubscribed)
        return 0;
    return !(isfinite(cpu) && isfinite(wall) && wall > 0) || cpu >= 0.1 * wall;
}

int papcoll__fg_wait(MPI_Request *req, int nap)
{
    return waitall(1, req, MPI_STATUSES_IGNORE, fg_spin(nap));
}

int papcoll__fg_waitany(int n, MPI_Request *reqs, int *idx, MPI_Status *st, int nap)
{
    pace_t p;
    int done = 0, rc;

    pace_init(&p, fg_spin(nap));
    while ((rc = PMPI_Testany(n, reqs, idx, &done, st)) == MPI_SUCCESS && !done)
        pace(&p);
    return PAPCOLL__ERR(rc);
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

void *papcoll__scratch(const papcoll__args_t *a, int slot, size_t bytes)
{
    papcoll__stage_t *st = &a->site->scratch[slot];

    return papcoll__stage_reserve(st, bytes + 1) == PAPCOLL_OK ? st->buf : NULL;
}

static int probe(int src, int tag, MPI_Comm comm, MPI_Message *msg, size_t *bytes, long spin_ns)
{
    MPI_Status status;
    pace_t p;
    int flag = 0, n = 0, rc;

    pace_init(&p, spin_ns);
    for (;;) {
        if ((rc = PMPI_Improbe(src, tag, comm, &flag, msg, &status)) != MPI_SUCCESS)
            return PAPCOLL__ERR(rc);
        if (flag)
            break;
        pace(&p);
    }
    PMPI_Get_count(&status, MPI_BYTE, &n);
    *bytes = (size_t)n;
    return PAPCOLL_OK;
}

int papcoll__bg_probe(int src, int tag, MPI_Comm comm, MPI_Message *msg, size_t *bytes)
{
    return probe(src, tag, comm, msg, bytes, 0);
}

int papcoll__fg_probe(int src, int tag, MPI_Comm comm, MPI_Message *msg, size_t *bytes, int nap)
{
    return probe(src, tag, comm, msg, bytes, fg_spin(nap));
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
    if ((rc = PMPI_Imrecv(st->buf + st->len, (int)n, MPI_BYTE, &msg, &req)) != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    if ((rc = papcoll__bg_wait(&req)) != PAPCOLL_OK)
        return rc;
    st->len += n;
    if (len != NULL)
        *len = n;
    return PAPCOLL_OK;
}

int papcoll__send_bytes(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm)
{
    int n, rc;

    if ((rc = count_of(bytes, &n)) != PAPCOLL_OK)
        return rc;
    return PAPCOLL__ERR(PMPI_Send(buf, n, MPI_BYTE, dst, tag, comm));
}

int papcoll__recv_bytes(void *buf, size_t bytes, int src, int tag, MPI_Comm comm)
{
    MPI_Status st;
    int n, got = 0, rc;

    if ((rc = count_of(bytes, &n)) != PAPCOLL_OK)
        return rc;
    if ((rc = PMPI_Recv(buf, n, MPI_BYTE, src, tag, comm, &st)) != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
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

int papcoll__waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    return PAPCOLL__ERR(PMPI_Waitall(n, reqs, sts));
}
