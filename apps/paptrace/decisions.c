/*
 * The decisions of a call site (trace/SCHEMA.md, decisions): every call
 * that ran another algorithm than the site's call before, and why.  info
 * and stats list them, abbreviated when long; dump shows each call's.
 */
#include "paptrace_cli.h"

#define PT_DECISIONS_HEAD 5 /* shown before the gap of an abbreviated list */
#define PT_DECISIONS_TAIL 2 /* shown after it */

/* One decision: "call N  ALGO: reason [detail]". */
static void print_decision(FILE *out, const paptrace_file_t *f, const paptrace_site_t *s,
                           const paptrace_decision_t *d)
{
    fprintf(out, "call %d  %s: %s", d->iter, paptrace_algo_name(f, s->op, d->algo), d->reason);
    if (d->detail[0] != '\0')
        fprintf(out, " [%s]", d->detail);
    fputc('\n', out);
}

void pt_print_decisions(FILE *out, const paptrace_file_t *f, const paptrace_site_t *s, const char *indent)
{
    long k, n = s->ndecisions, head = n, tail = 0;

    if (!f->has_decisions) {
        fprintf(out, "%snot recorded (schema %d file)\n", indent, f->schema_version);
        return;
    }
    if (n > PT_DECISIONS_SHOWN) {
        head = PT_DECISIONS_HEAD;
        tail = PT_DECISIONS_TAIL;
    }
    for (k = 0; k < head; k++) {
        fputs(indent, out);
        print_decision(out, f, s, &s->decisions[k]);
    }
    if (tail > 0)
        fprintf(out, "%s... %ld more (paptrace dump --site '%s' shows every call's) ...\n", indent,
                n - head - tail, s->name);
    for (k = n - tail; k < n; k++) {
        fputs(indent, out);
        print_decision(out, f, s, &s->decisions[k]);
    }
}
