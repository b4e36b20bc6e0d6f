/*
 * Monotonic clock and absolute-deadline sleeps (see timer.h).
 */
#include "timer.h"
#ifdef PAPCOLL_SMPI
#include "papcoll.h"
#endif

#include <errno.h>
#include <math.h>
#include <time.h>

double timer_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Farthest deadline slept to, seconds from now: far enough for any
 * emulated computation (the programs cap theirs at an hour), near enough
 * that tv_sec holds it on every time_t. */
#define TIMER_MAX_AHEAD 1e9

#ifdef PAPCOLL_SMPI
/* Under SimGrid SMPI (make smpi) smpicc maps clock_gettime and nanosleep to
 * the simulated clock, but not clock_nanosleep: an absolute deadline in
 * simulated time would be compared with the real clock and pass at once.
 * The relative sleep advances this rank's simulated time instead, and the
 * library's sleep runs the rank's monitors meanwhile (papcoll_sim_sleep). */
static void sleep_to(double deadline, double now)
{
    papcoll_sim_sleep(deadline - now);
}
#else
static struct timespec to_timespec(double seconds)
{
    struct timespec ts;
    double whole = floor(seconds);

    ts.tv_sec = (time_t)whole;
    ts.tv_nsec = (long)((seconds - whole) * 1e9);
    if (ts.tv_nsec > 999999999L)
        ts.tv_nsec = 999999999L;
    return ts;
}

static void sleep_to(double deadline, double now)
{
    struct timespec ts = to_timespec(deadline);

    (void)now;
    /* EINTR (a signal, e.g. from a profiler) only interrupts: sleep on. */
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}
#endif

void timer_sleep_until(double deadline)
{
    double now = timer_now();

    if (!(deadline > now)) /* passed, or NaN */
        return;
    if (deadline > now + TIMER_MAX_AHEAD)
        deadline = now + TIMER_MAX_AHEAD;
    sleep_to(deadline, now);
}

void timer_sleep(double seconds)
{
    if (seconds > 0.0) /* not NaN either */
        timer_sleep_until(timer_now() + seconds);
}
