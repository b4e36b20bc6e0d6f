/*
 * Monotonic time and sleeping, for emulated computation (pure, no MPI).
 *
 * Sleeps go to absolute deadlines on CLOCK_MONOTONIC so that interrupted
 * sleeps and the cost of calls made between two sleeps do not accumulate.
 */
#ifndef APPS_TIMER_H
#define APPS_TIMER_H

/* Seconds on CLOCK_MONOTONIC (arbitrary origin, shared by the whole node). */
double timer_now(void);

/* Sleeps until timer_now() >= deadline: returns at once if it has passed
 * or is NaN; a deadline more than 1e9 s ahead is taken as 1e9 s ahead. */
void timer_sleep_until(double deadline);

/* Sleeps for the given number of seconds (<= 0 or NaN: returns at once). */
void timer_sleep(double seconds);

#endif /* APPS_TIMER_H */
