/*
 * Monotonic clock and absolute-deadline sleeps (see timer.h).
 */
#include "timer.h"

#include <errno.h>
#include <math.h>
#include <time.h>

double timer_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void timer_sleep_until(double deadline)
{
    struct timespec ts;
    double whole = floor(deadline);

    if (deadline <= timer_now())
        return;
    ts.tv_sec = (time_t)whole;
    ts.tv_nsec = (long)((deadline - whole) * 1e9);
    if (ts.tv_nsec > 999999999L)
        ts.tv_nsec = 999999999L;
    /* EINTR (a signal, e.g. from a profiler) only interrupts: sleep on. */
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

void timer_sleep(double seconds)
{
    if (seconds > 0.0)
        timer_sleep_until(timer_now() + seconds);
}
