/*
 * papcoll-sched pieces: printing a schedule, the generator benchmark.
 */
#ifndef APPS_SCHED_APP_H
#define APPS_SCHED_APP_H

#include <stdio.h>

#include "config.h"
#include "sched/clairvoyant.h"

/* Exit statuses. */
enum { STATUS_OK = 0, STATUS_FAIL = 1, STATUS_USAGE = 2, STATUS_INVALID = 3 };

/* Shortest decimal text that reads back as exactly v (%.15g .. %.17g). */
void format_double(char *buf, size_t len, double v);

/* The schedule in the documented format (header line, then transfers);
 * 0, or -1 on a write error. */
int print_schedule(FILE *f, const papcoll__cv_sched_t *s, const char *impl);

/* --bench: Proficz 2020 Table 1 and the P = 128, N = 16 point; a STATUS_*. */
int run_bench(const sched_config_t *cfg);

#endif /* APPS_SCHED_APP_H */
