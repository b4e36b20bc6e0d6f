/*
 * Serial unit test of the emulated computation's sleeps (apps/common/timer.c):
 * a deadline in the past, NaN and a non-positive or NaN duration return at
 * once; a deadline 20 ms ahead is not left before it; successive deadlines
 * do not accumulate the time spent between them.
 */
#include <math.h>

#include "timer.h"
#include "unit.h"

static void test_at_once(void)
{
    double t0 = timer_now();

    timer_sleep_until(t0 - 1.0);
    timer_sleep_until(NAN);
    timer_sleep_until(-INFINITY);
    timer_sleep(0.0);
    timer_sleep(-5.0);
    timer_sleep(NAN);
    check(timer_now() - t0 < 0.05, "past, NaN and non-positive sleeps took %.3f s", timer_now() - t0);
}

static void test_deadlines(void)
{
    double t0 = timer_now(), t;
    int i;

    timer_sleep_until(t0 + 0.02);
    t = timer_now();
    check(t >= t0 + 0.02, "left %.6f s before the deadline", t0 + 0.02 - t);
    /* Ten 10 ms steps to absolute deadlines end at t0 + 0.12, not later by the
     * cost of the calls in between (a loose bound: this machine is loaded). */
    for (i = 1; i <= 10; i++)
        timer_sleep_until(t0 + 0.02 + 0.01 * i);
    t = timer_now() - t0;
    check(t >= 0.12 && t < 0.30, "ten steps to absolute deadlines: %.3f s, expected 0.12", t);
}

int main(void)
{
    unit_name = "test_timer";
    test_at_once();
    test_deadlines();
    return unit_summary();
}
