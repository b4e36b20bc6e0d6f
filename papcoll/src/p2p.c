/*
 * Point-to-point helpers shared by the algorithms.
 *
 * Background waits poll with a growing sleep instead of blocking in MPI:
 * a blocking MPI call spins in the progress engine, and the monitor thread
 * shares the cores with the computation it is overlapping (Proficz 2020,
 * Sect. 6 counts that as overhead).  The sleep starts at 2 us and doubles up
 * to 200 us, so a message that is already there costs no sleep at all.
 * Once the rank's own call is there and its waits do not nap (no ranks
 * computing on shared cores: papcoll__fg_naps, published in
 * site->bg_yields), the background part's waits yield instead: nobody
 * needs the core, and each nap would add up to 200 us per message to the
 * part's critical path (a chain of P - 1 relays pays it once per hop).
 * Where the call naps the background part naps to its end: yielding from
 * the predicted last arrival on, as the foreground does, showed no gain in
 * the PIC (docs/bcast-allreduce.md, "bchain").
 * Clairvoyant's executor waits this way in the foreground too: its schedule
 * makes ranks wait for predicted late ones, and a spinning waiter takes a
 * core from the ranks still computing (docs/reduce.md, "Clairvoyant"); it
 * yields instead where nobody computes (papcoll__fg_naps).
 * The fg_ waits of the arrival-driven pairing spin first, yielding between
 * polls, for up to 1 ms, then nap the same way: its waits are short when
 * arrivals are balanced, and every nap costs at least the timer slack.
 * They nap only when the call's ranks share cores with computing ones
 * (papcoll__fg_naps); else they yield until done.  The naps of a
 * foreground wait end at the call's nap_until (call.c: the latest rank's
 * predicted arrival), after which it yields: the ranks it waits for then
 * communicate and combine rather than compute, and a nap would only add
 * its latency to theirs.
 */
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "p2p.h"

#define BACKOFF_MIN_NS 2000L
#define BACKOFF_MAX_NS 200000L
#define FG_SPIN 1e-3

/* The background part's flag (papcoll__bg_yield_when), NULL in every
 * other thread. */
static _Thread_local const atomic_int *bg_yields;

void papcoll__bg_yield_when(const atomic_int *flag)
{
    bg_yields = flag;
}

int papcoll__pace_naps(double now, double spin_end, double nap_end)
{
    return now >= spin_end && now < nap_end;
}

/* The pace of a polling wait: sched_yield between polls until spin_end (a
 * foreground wait that is likely short: a nap costs at least the kernel's
 * timer slack, about 50 us), then naps from 2 us doubling to 200 us until
 * nap_end, then sched_yield again (papcoll__pace_naps).  A wait that naps
 * from its start to its end (the background, unless its flag says yield)
 * never reads the clock; one that yields throughout never does either. */
typedef struct {
    long ns;
    int phase;       /* 0: napping to the end, 1: reading the clock, 2: yielding to the end */
    double spin_end; /* CLOCK_MONOTONIC (papcoll__mono) */
    double nap_end;
} pace_t;

static void pace_init(pace_t *p, double spin, double nap_until)
{
    p->ns = BACKOFF_MIN_NS;
    p->nap_end = nap_until;
    p->spin_end = spin > 0 ? papcoll__mono() + spin : -INFINITY;
    p->phase = nap_until == -INFINITY ? 2 : spin <= 0 && nap_until == INFINITY ? 0 : 1;
}

static void pace(pace_t *p)
{
    struct timespec ts = {0, p->ns};
    double now;

    if (p->phase == 1) {
        now = papcoll__mono();
        if (now >= p->nap_end)
            p->phase = 2;
        else if (now >= p->spin_end && p->nap_end == INFINITY)
            p->phase = 0; /* naps to the end: no more clock reads */
        else if (!papcoll__pace_naps(now, p->spin_end, p->nap_end)) {
            sched_yield();
            return;
        }
    }
    if (p->phase == 2 ||
        (p->phase == 0 && bg_yields != NULL && atomic_load_explicit(bg_yields, memory_order_relaxed))) {
        sched_yield();
        return;
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

static int waitall(int n, MPI_Request *reqs, MPI_Status *sts, double spin, double nap_until)
{
    pace_t p;
    int done = 0, rc;

    pace_init(&p, spin, nap_until);
    while ((rc = PMPI_Testall(n, reqs, &done, sts)) == MPI_SUCCESS && !done)
        pace(&p);
    return PAPCOLL__ERR(rc);
}

int papcoll__bg_waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    return waitall(n, reqs, sts, 0, INFINITY);
}

static int waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts, double spin, double nap_until)
{
    pace_t p;
    int rc;

    pace_init(&p, spin, nap_until);
    while ((rc = PMPI_Testsome(n, reqs, done, idx, sts)) == MPI_SUCCESS && *done == 0)
        pace(&p);
    return PAPCOLL__ERR(rc);
}

int papcoll__bg_waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts)
{
    return waitsome(n, reqs, done, idx, sts, 0, INFINITY);
}

int papcoll__cv_waitall(int n, MPI_Request *reqs, MPI_Status *sts, double nap_until)
{
    return waitall(n, reqs, sts, 0, nap_until);
}

int papcoll__cv_waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts, double nap_until)
{
    return waitsome(n, reqs, done, idx, sts, 0, nap_until);
}

int papcoll__bg_wait(MPI_Request *req)
{
    return waitall(1, req, MPI_STATUSES_IGNORE, 0, INFINITY);
}

int papcoll__fg_naps(int oversubscribed, double cpu, double wall)
{
    if (!oversubscribed)
        return 0;
    return !(isfinite(cpu) && isfinite(wall) && wall > 0) || cpu >= 0.1 * wall;
}

int papcoll__fg_waitall(int n, MPI_Request *reqs, double nap_until)
{
    return waitall(n, reqs, MPI_STATUSES_IGNORE, FG_SPIN, nap_until);
}

int papcoll__fg_waitany(int n, MPI_Request *reqs, int *idx, MPI_Status *st, double nap_until)
{
    pace_t p;
    int done = 0, rc;

    pace_init(&p, FG_SPIN, nap_until);
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

static int probe(int src, int tag, MPI_Comm comm, MPI_Message *msg, size_t *bytes, double spin, double nap_until)
{
    MPI_Status status;
    pace_t p;
    int flag = 0, n = 0, rc;

    pace_init(&p, spin, nap_until);
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
    return probe(src, tag, comm, msg, bytes, 0, INFINITY);
}

int papcoll__fg_probe(int src, int tag, MPI_Comm comm, MPI_Message *msg, size_t *bytes, double nap_until)
{
    return probe(src, tag, comm, msg, bytes, FG_SPIN, nap_until);
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
