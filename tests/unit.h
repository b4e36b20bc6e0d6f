/*
 * Shared by the serial unit tests: a check that counts and prints failures
 * with their parameters, a deterministic generator (splitmix64, so a failure
 * reproduces) and the summary line.  Each test sets unit_name and may reseed
 * unit_rng.
 */
#ifndef PAPCOLL_TESTS_UNIT_H
#define PAPCOLL_TESTS_UNIT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#define UNIT_MAX_PRINTED 200

/* ThreadSanitizer cannot see libgomp's barriers (libgomp is not
 * instrumented) and reports every parallel loop as a race: under TSan the
 * tests that need several OpenMP threads run with one (UNDER_TSAN is 1). */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

static const char *unit_name = "test";
static long unit_checks, unit_failed;
static uint64_t unit_rng = 0x243F6A8885A308D3ull;

/* Records one check; prints the formatted parameters when it failed. */
static inline int vcheck(int ok, const char *fmt, va_list ap)
{
    unit_checks++;
    if (ok)
        return 1;
    if (++unit_failed <= UNIT_MAX_PRINTED) {
        printf("FAIL %s: ", unit_name);
        vprintf(fmt, ap);
        printf("\n");
    }
    return 0;
}

static inline int check(int ok, const char *fmt, ...)
{
    va_list ap;
    int r;

    va_start(ap, fmt);
    r = vcheck(ok, fmt, ap);
    va_end(ap);
    return r;
}

static inline uint64_t rnd(void)
{
    uint64_t z = (unit_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double rnd_unit(void)
{
    return (double)(rnd() >> 11) * 0x1p-53;
}

/* Prints the summary; the exit status of the test. */
static inline int unit_summary(void)
{
    if (unit_failed > UNIT_MAX_PRINTED)
        printf("FAIL %s: ... %ld more failed checks not printed\n", unit_name,
               unit_failed - UNIT_MAX_PRINTED);
    printf("%s: %ld checks, %ld failed\n", unit_name, unit_checks, unit_failed);
    return unit_failed ? 1 : 0;
}

#endif
