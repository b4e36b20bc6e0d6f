/*
 * Throwaway: every sched_yield a nanosleep of YS_NS ns (default 1000) with
 * a 1 us timer slack, to preload into every rank
 * (docs/results/emucluster-stalls.md, section 1).  Not part of the build.
 *
 *   gcc -O2 -shared -fPIC -o ysleep.so ysleep.c
 *   jobs/emucluster run -x LD_PRELOAD=$PWD/ysleep.so -x YS_NS=50000 -- PROGRAM
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
static long ns = -1;
int sched_yield(void)
{
    struct timespec ts;
    if (ns < 0) {
        const char *e = getenv("YS_NS");
        ns = e ? atol(e) : 1000;
        prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    }
    ts.tv_sec = 0;
    ts.tv_nsec = ns;
    return nanosleep(&ts, NULL);
}
