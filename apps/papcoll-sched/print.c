/*
 * The schedule as text (format in papcoll-sched --help, docs/clairvoyant.md).
 */
#include <stdlib.h>

#include "sched_app.h"

void format_double(char *buf, size_t len, double v)
{
    int prec;

    for (prec = 15; prec < 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, len, "%.17g", v);
}

int print_schedule(FILE *f, const papcoll__cv_sched_t *s, const char *impl)
{
    char d[32];
    int t;

    format_double(d, sizeof d, s->d);
    fprintf(f, "# clairvoyant P=%d N=%d d=%s root=%d rounds=%d impl=%s\n", s->P, s->N, d, s->root, s->rounds,
            impl);
    for (t = 0; t < s->n; t++)
        fprintf(f, "%d %d %d %d\n", s->x[t].round, s->x[t].sender, s->x[t].receiver, s->x[t].segment);
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
