/*
 * The scaffold of the papcoll programs (papbench, fft, pic): what each of
 * them does around its own work, in the one order that works.
 *
 *   app_start       MPI_Init_thread(MPI_THREAD_MULTIPLE): the monitor thread
 *                   of background algorithms calls MPI concurrently
 *   app_configure   every rank parses the same argv (and reads the same
 *                   files); when ranks disagree (a file readable on one node
 *                   only) the lowest failing rank says why; then the
 *                   effective configuration text must be the same on every
 *                   rank (its digest is compared), else one line refuses it
 *   app_papcoll     papcoll_init on MPI_COMM_WORLD; the global clock
 *   app_site        papcoll_site_create, the site registered for app_close
 *   app_trace_open  after the sites: paptrace_open needs the context and
 *                   installs papcoll's record sink
 *   app_close       frees the sites (their last records reach the sink),
 *                   closes the trace, papcoll_finalize
 *   app_finish      MPI_Finalize; the exit status
 *
 * A program's main then reads prolog / loop / epilog:
 *
 *   app_start(&app, "fft", &argc, &argv);
 *   status = app_configure(&app, &fft_config_ops, &cfg);
 *   if (status == APP_OK) status = fft_setup(&f, &app, &cfg);  (app_papcoll, app_site, app_trace_open)
 *   ...
 *   status = app_worst(status, app_close(&app));
 *   return app_finish(&app, status);
 *
 * Functions marked collective are called by every rank in the same order;
 * a status they return is the same on every rank.
 */
#ifndef APPS_APP_H
#define APPS_APP_H

#include <stddef.h>

#include "cli_ini.h"
#include "papcoll.h"
#include "paptrace.h"

/* Exit statuses of the programs; APP_HELP: --help was answered (exit 0). */
enum { APP_OK = 0, APP_FAILED = 1, APP_USAGE = 2, APP_HELP = -1 };

/* Largest effective configuration text. */
#define APP_CONFIG_TEXT_MAX 4096

/* Most call sites a program registers (papbench: one per algorithm). */
#define APP_MAX_SITES 64

/* A program's configuration, parsed once into its struct (cfg). */
typedef struct {
    /* Parses argv for nprocs ranks: CLI_OK, CLI_HELP or CLI_ERROR with one
     * line in err.  Pure; released with release in every case. */
    int (*parse)(int argc, char **argv, int nprocs, void *cfg, char *err, size_t errlen);
    /* Prints the usage text to stdout (rank 0, after --help). */
    void (*usage)(void);
    /* The effective configuration as INI text: every value parsed and a
     * digest of every data file read.  Compared across ranks, stored in the
     * trace. */
    void (*text)(const void *cfg, char *buf, size_t len);
    void (*release)(void *cfg);
} app_config_ops_t;

/*
 * Defines `const app_config_ops_t NAME` from a program's functions on its
 * own configuration type:
 *   int PARSE(int argc, char **argv, int nprocs, TYPE *cfg, char *err, size_t errlen);
 *   void USAGE(void);  void TEXT(const TYPE *cfg, char *buf, size_t len);  void FREE(TYPE *cfg);
 */
#define APP_CONFIG_OPS(NAME, TYPE, PARSE, USAGE, TEXT, FREE)                                                 \
    static int NAME##_parse(int argc, char **argv, int nprocs, void *cfg, char *err, size_t errlen)          \
    {                                                                                                        \
        return PARSE(argc, argv, nprocs, (TYPE *)cfg, err, errlen);                                          \
    }                                                                                                        \
    static void NAME##_text(const void *cfg, char *buf, size_t len)                                          \
    {                                                                                                        \
        TEXT((const TYPE *)cfg, buf, len);                                                                   \
    }                                                                                                        \
    static void NAME##_release(void *cfg)                                                                    \
    {                                                                                                        \
        FREE((TYPE *)cfg);                                                                                   \
    }                                                                                                        \
    const app_config_ops_t NAME = {NAME##_parse, USAGE, NAME##_text, NAME##_release}

typedef struct {
    const char *name; /* the program: prefix of its error lines, the trace's program */
    int argc;         /* the command line as main received it, for the trace */
    char **argv;
    int rank, nprocs;
    int thread_level;                      /* provided by MPI_Init_thread */
    char config_text[APP_CONFIG_TEXT_MAX]; /* the agreed effective configuration */
    papcoll_ctx_t *ctx;
    papcoll_clock_t clock;                 /* papcoll's global clock, after app_papcoll */
    papcoll_site_t **sites[APP_MAX_SITES]; /* the program's pointers to its sites, in creation order */
    int nsites;
    paptrace_t *trace;
    const char *trace_path;
    double t_loop, last_progress; /* timer_now() at app_loop_start and at the last progress line */
} app_t;

/* MPI with MPI_THREAD_MULTIPLE requested; rank and size of MPI_COMM_WORLD. */
void app_start(app_t *a, const char *name, int *argc, char ***argv);

/* Collective: parses into cfg and agrees (see above).  APP_OK, APP_HELP
 * (rank 0 printed the usage) or APP_USAGE (one line printed).  cfg must be
 * released with ops->release in every case (app_finish does not). */
int app_configure(app_t *a, const app_config_ops_t *ops, void *cfg);

/* Collective: papcoll_init on MPI_COMM_WORLD; fills a->clock.  Returns
 * papcoll's code: the program names the option at fault. */
int app_papcoll(app_t *a, const papcoll_options_t *opts);

/* The exit status for a papcoll code from the prolog: APP_USAGE for what
 * the user gave (an unknown algorithm or policy, a bad configuration file
 * or predictor), else APP_FAILED; APP_OK for PAPCOLL_OK. */
int app_papcoll_status(int rc);

/* Option i of a program's configuration, when given, as an algorithm of
 * op: CLI_OK, or CLI_ERROR "<origin>: expected a <op> algorithm (mpi ...)". */
int app_config_algo(const cli_opts_t *o, int i, papcoll_op_t op, char *err, size_t errlen);

/* Collective: papcoll_site_create into *site, which app_close frees and
 * sets to NULL.  Returns papcoll's code (PAPCOLL_ERR_NOMEM beyond
 * APP_MAX_SITES sites). */
int app_site(app_t *a, const char *name, papcoll_op_t op, const char *policy, papcoll_site_t **site);

/* Collective, after the sites exist: opens the HDF5 trace at path (NULL:
 * none) with the configuration text and extra (measured values; NULL:
 * none).  APP_OK, or APP_USAGE after rank 0's line "NAME: --trace: ...". */
int app_trace_open(app_t *a, const char *path, const char *extra);

/* Collective: frees the sites in reverse creation order, closes the trace,
 * finalizes papcoll (whatever exists; safe after a failed setup).
 * APP_FAILED when the trace could not be completed, else APP_OK. */
int app_close(app_t *a);

/* MPI_Finalize; returns the exit status for status (APP_HELP: 0). */
int app_finish(app_t *a, int status);

/* Collective: the worst of every rank's status (MPI_MAX). */
int app_agree(int status);

/* Collective: rank 0's status on every rank. */
int app_share(int status);

/* The worse of two statuses. */
int app_worst(int s1, int s2);

/* Rank 0 creates dir (mkdir -p) now, so that a bad --out fails before the
 * run: APP_OK, or APP_USAGE after "NAME: --out: ...".  Local; agree on it. */
int app_mkdir(const app_t *a, const char *dir);

/* Rank 0 after writing its two result files dir/first and dir/second
 * (failed: either could not be written, err saying why): prints
 * "NAME: --out: ERR" on stderr and returns APP_FAILED, or prints
 * "results: dir/first, dir/second" and returns APP_OK. */
int app_results(const app_t *a, const char *dir, int failed, const char *err, const char *first,
                const char *second);

/* A papcoll error inside the loop leaves the other ranks in a collective:
 * prints "NAME: rank R: WHAT (WHERE): <papcoll_strerror>" and aborts the job. */
void app_die(const app_t *a, const char *what, const char *where, int rc);

/* Starts the loop's wall clock (timer_now); returns it. */
double app_loop_start(app_t *a);

/* Seconds since app_loop_start when rank 0 is due a progress line (one
 * every 2 s unless quiet), else a negative number. */
double app_progress_due(app_t *a, int quiet);

#endif /* APPS_APP_H */
