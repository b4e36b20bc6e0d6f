/*
 * bin/paptrace: the commands over a trace read by paptrace_read().  Each
 * command writes to out and returns 0, or prints one line (without the
 * program name) into err and returns -1.  Pure functions of the file and
 * the options, so tests call them directly.
 */
#ifndef PAPTRACE_CLI_H
#define PAPTRACE_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "papmetrics.h"
#include "paptrace.h"

/* Hockney model of a 1 Gbit/s Ethernet link: the defaults of stats. */
#define PT_DEFAULT_ALPHA 50e-6 /* s per message */
#define PT_DEFAULT_BETA 8e-9   /* s per byte: 1 Gbit/s */
#define PT_LAGS 5              /* autocorrelation lags of stats */
#define PT_DECISIONS_SHOWN 8   /* decisions info and stats list in full; more are abbreviated */

typedef struct {
    const char *site; /* --site NAME, or NULL: every site */
    long skip;        /* --skip N: leave out each site's first N calls (stats, pat) */
    double alpha;     /* --alpha, NaN: from the file's config, else the default */
    double beta;      /* --beta, as alpha */
    double credit;    /* --credit, as alpha (default 0) */
    double balanced;  /* --balanced: t(pi) in s, NaN: the model's */
    const char *pat;  /* policy: --pat FILE, the phase-marked replay file of the run */
    long chunk;       /* otf2: --chunk N, calls of each site read at once (0: PT_OTF2_CHUNK) */
    /* pat --otf2 ARCHIVE */
    const char *otf2;   /* --otf2 ARCHIVE, or NULL: the HDF5 FILE */
    const char *region; /* --region NAME: calls of this region only */
    const char *op;     /* --op OP: calls of this collective only (MPI's name in lower case) */
    long otf2_comm;     /* --comm ID: calls on this communicator only; -1: the first matching call's */
    int stats_only;     /* --stats: the summary instead of the replay file */
    /* synth */
    int ranks;          /* --ranks P */
    const char *phases; /* --phases KIND:N,... */
    double maxdelay_ms; /* --maxdelay MS */
    int late_rank;      /* --late-rank R */
    long drift_every;   /* --drift-every N */
    uint64_t seed;      /* --seed S */
} pt_opts_t;

/* Value of "key = number" in a configuration text (any section), NaN when absent. */
double pt_config_number(const char *text, const char *key);

/* The sites a command works on: the --site one or all; error for an unknown name. */
int pt_select_sites(const paptrace_file_t *f, const pt_opts_t *o, const paptrace_site_t ***list, int *n,
                    char *err, size_t errlen);

int pt_cmd_info(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen);
int pt_cmd_dump(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen);
int pt_cmd_csv(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen);
int pt_cmd_chrome(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen);
int pt_cmd_stats(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen);
int pt_cmd_pat(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen);
int pt_cmd_policy(const paptrace_file_t *f, const pt_opts_t *o, FILE *out, char *err, size_t errlen);

/*
 * The command that streams the trace instead of reading it whole: path as
 * an OTF2 archive OUTDIR/traces.otf2, chunk calls of each site read at once
 * (0: PT_OTF2_CHUNK); a summary, what was skipped included, on out (otf2.c).
 */
#define PT_OTF2_CHUNK 4096
int pt_cmd_otf2(const char *path, const char *outdir, long chunk, FILE *out, char *err, size_t errlen);

/*
 * pat --otf2: the arrival pattern of the matching collective calls of an
 * OTF2 archive (any writer, Score-P's conventions) as papbench's replay file,
 * or with o->stats_only the imbalance, run time and elapsed time (otf2_pat.c).
 */
int pt_cmd_pat_otf2(const char *archive, const pt_opts_t *o, FILE *out, char *err, size_t errlen);

/* The one command without a trace: a phase-alternating replay file from the options (synth.c). */
int pt_cmd_synth(const pt_opts_t *o, FILE *out, char *err, size_t errlen); /* -2: bad command line */

/*
 * The decisions of a site (changes of algorithm and why), one per line
 * after `indent`: all of them up to PT_DECISIONS_SHOWN, else the first and
 * the last few around a line that says how many are left out and where to
 * see them.  Schema 1 files say they recorded none.
 */
void pt_print_decisions(FILE *out, const paptrace_file_t *f, const paptrace_site_t *s, const char *indent);


/* The model stats uses and where its numbers come from. */
typedef struct {
    pm_lb_model_t lb;
    const char *source; /* "command line", "file", "default (1 Gbit/s)" */
    double balanced;    /* NaN: (P-1)(alpha + b beta) - credit per call */
} pt_model_t;

/* alpha, beta, credit: options, else keys alpha/beta/credit of the file's config text, else defaults
 * (credit: 0). */
void pt_model(const paptrace_file_t *f, const pt_opts_t *o, pt_model_t *m);

/* Statistics of the calls of one site that ran algorithm algo (after skip). */
typedef struct {
    int algo;
    long n;              /* calls */
    pm_stats_t imbalance;   /* I (s) */
    pm_stats_t runtime;     /* r (s) */
    pm_stats_t elapsed;     /* e (s) */
    pm_stats_t absorption;  /* A = t(pi) - r + I (s) */
    pm_stats_t absorption_n; /* A / t(pi) */
    pm_stats_t efficiency;  /* LB / r */
    long n_acf;          /* calls with every arrival, the autocorrelation's series length */
    double *acf;         /* nranks x PT_LAGS, lag h of rank i at [i * PT_LAGS + h - 1] */
} pt_group_t;

/* Computes g for (s, algo); free g->acf with pt_group_free.  0, or -1 out of memory. */
int pt_group_stats(const paptrace_site_t *s, int algo, long skip, const pt_model_t *m, pt_group_t *g);
void pt_group_free(pt_group_t *g);

#endif /* PAPTRACE_CLI_H */
