/*
 * Throwaway: sched_yield as a short sleep, to preload into every rank
 * (docs/results/emucluster-stalls.md, "Not adopted").  Not part of the build.
 * Open MPI's busy waits call sched_yield between polls (mpi_yield_when_idle
 * 1); here a thread's yields in the first IDLE_SPIN_NS (50 us) of a wait
 * stay yields, the later ones sleep 2 us doubling to IDLE_CAP_NS (200 us),
 * with a 1 us timer slack.  A call more than 1 ms after the previous one
 * starts a new wait.
 *
 *   gcc -O2 -shared -fPIC -o idle.so idle.c
 *   jobs/emucluster run -x LD_PRELOAD=$PWD/idle.so -- PROGRAM
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static __thread long ns;
static __thread double last, start;
static long cap_ns = -1, spin_ns;
static double mono(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int sched_yield(void)
{
    double now = mono();
    if (cap_ns < 0) { const char *e = getenv("IDLE_CAP_NS"), *s = getenv("IDLE_SPIN_NS"); spin_ns = s ? atol(s) : 50000; cap_ns = e ? atol(e) : 200000; }
    if (now - last > 1e-3) { ns = 2000; start = now; }
    if (now - start < spin_ns * 1e-9) { last = now; return (int)syscall(SYS_sched_yield); }
    struct timespec ts = {0, ns};
    long old = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    nanosleep(&ts, NULL);
    if (old > 0) prctl(PR_SET_TIMERSLACK, (unsigned long)old, 0, 0, 0);
    ns = ns * 2 > cap_ns ? cap_ns : ns * 2;
    last = mono();
    return 0;
}
