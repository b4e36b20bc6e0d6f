/*
 * The programs' scaffold (see app.h).
 */
#include "app.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "rng.h"
#include "timer.h"

#define PROGRESS_PERIOD 2.0 /* seconds between progress lines */

void app_start(app_t *a, const char *name, int *argc, char ***argv)
{
    memset(a, 0, sizeof *a);
    a->name = name;
    a->argc = *argc;
    a->argv = *argv;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &a->thread_level);
    MPI_Comm_rank(MPI_COMM_WORLD, &a->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &a->nprocs);
}

/* The parse results of all ranks: the lowest failing rank tells why; --help
 * on any rank is --help everywhere. */
static int agree_parse(const app_t *a, int rc, const char *err)
{
    int mine[2] = {rc == CLI_ERROR ? a->rank : a->nprocs, rc == CLI_HELP}, all[2];

    MPI_Allreduce(&mine[0], &all[0], 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine[1], &all[1], 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (all[0] < a->nprocs) {
        if (a->rank == all[0])
            fprintf(stderr, "%s: %s\n", a->name, err);
        return APP_USAGE;
    }
    return all[1] ? APP_HELP : APP_OK;
}

/*
 * Every rank compares the digest of its configuration text with rank 0's;
 * the lowest rank that differs is named.  The same argv everywhere is not
 * enough: a --config or data file may differ between nodes.
 */
static int agree_text(const app_t *a)
{
    uint64_t mine = rng_hash(a->config_text, strlen(a->config_text), 0), root = mine;
    int differs, first;

    MPI_Bcast(&root, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    differs = mine != root ? a->rank : a->nprocs;
    MPI_Allreduce(&differs, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == a->nprocs)
        return APP_OK;
    if (a->rank == 0)
        fprintf(stderr,
                "%s: the configuration differs between ranks: rank %d's is not rank 0's "
                "(command line, --config or data files not the same on every node)\n",
                a->name, first);
    return APP_USAGE;
}

int app_configure(app_t *a, const app_config_ops_t *ops, void *cfg)
{
    char err[1024] = "";
    int status = agree_parse(a, ops->parse(a->argc, a->argv, a->nprocs, cfg, err, sizeof err), err);

    if (status == APP_HELP && a->rank == 0)
        ops->usage();
    if (status != APP_OK)
        return status;
    ops->text(cfg, a->config_text, sizeof a->config_text);
    return agree_text(a);
}

int app_config_algo(const cli_opts_t *o, int i, papcoll_op_t op, char *err, size_t errlen)
{
    char valid[512], expected[600];

    const char *v = o->opt[i].value;

    if (v == NULL || papcoll_algo_find(op, strncmp(v, "fixed:", 6) == 0 ? v + 6 : v) >= 0)
        return CLI_OK;
    /* Data-dependent policies (docs/policies.md): papcoll checks their
     * parameters and rules file when the site is created. */
    if (strcmp(v, "auto") == 0 || strncmp(v, "auto:", 5) == 0 || (strncmp(v, "rules:", 6) == 0 && v[6] != '\0'))
        return CLI_OK;
    snprintf(expected, sizeof expected, "a %s algorithm (%s) or policy (auto, rules:FILE)",
             papcoll_op_name(op), papcoll_algo_list(op, valid, sizeof valid));
    return cli_opts_fail(o, i, expected, err, errlen);
}

int app_papcoll(app_t *a, const papcoll_options_t *opts)
{
    int rc = papcoll_init(MPI_COMM_WORLD, opts, &a->ctx);

    if (rc == PAPCOLL_OK)
        papcoll_clock_info(a->ctx, &a->clock);
    return rc;
}

int app_papcoll_status(int rc)
{
    if (rc == PAPCOLL_OK)
        return APP_OK;
    return rc == PAPCOLL_ERR_ALGO || rc == PAPCOLL_ERR_POLICY || rc == PAPCOLL_ERR_CONFIG ||
                   rc == PAPCOLL_ERR_PREDICTOR
               ? APP_USAGE
               : APP_FAILED;
}

int app_site(app_t *a, const char *name, papcoll_op_t op, const char *policy, papcoll_site_t **site)
{
    int rc;

    if (a->nsites == APP_MAX_SITES)
        return PAPCOLL_ERR_NOMEM; /* the same on every rank: they create the same sites */
    rc = papcoll_site_create(a->ctx, name, op, policy, site);
    if (rc == PAPCOLL_OK)
        a->sites[a->nsites++] = site;
    return rc;
}

int app_trace_open(app_t *a, const char *path, const char *extra)
{
    char *text = malloc(2 * APP_CONFIG_TEXT_MAX);
    paptrace_meta_t meta = {a->name, a->argc, a->argv, NULL, 0};
    int rc;

    if (path == NULL) {
        free(text);
        return APP_OK;
    }
    a->trace_path = path;
    if (text != NULL) {
        snprintf(text, 2 * APP_CONFIG_TEXT_MAX, "%s%s", a->config_text, extra != NULL ? extra : "");
        meta.config_text = text;
    }
    /* paptrace_open returns the same code on every rank. */
    rc = paptrace_open(a->ctx, MPI_COMM_WORLD, path, &meta, &a->trace);
    free(text);
    if (rc != PAPTRACE_OK) {
        if (a->rank == 0)
            fprintf(stderr, "%s: --trace: '%s': %s\n", a->name, path, paptrace_strerror(rc));
        return APP_USAGE;
    }
    return APP_OK;
}

int app_close(app_t *a)
{
    int status = APP_OK, rc, i;

    /* The sites' last records reach the trace's sink in papcoll_site_free. */
    for (i = a->nsites - 1; i >= 0; i--)
        if (*a->sites[i] != NULL)
            papcoll_site_free(a->sites[i]);
    a->nsites = 0;
    if (a->trace != NULL && (rc = paptrace_close(&a->trace)) != PAPTRACE_OK) {
        if (a->rank == 0)
            fprintf(stderr, "%s: --trace: closing '%s': %s\n", a->name, a->trace_path, paptrace_strerror(rc));
        status = APP_FAILED;
    }
    if (a->ctx != NULL)
        papcoll_finalize(&a->ctx);
    return status;
}

int app_finish(app_t *a, int status)
{
    (void)a;
    MPI_Finalize();
    return status == APP_HELP ? 0 : status;
}

int app_agree(int status)
{
    int all = status;

    MPI_Allreduce(&status, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

int app_share(int status)
{
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return status;
}

int app_worst(int s1, int s2)
{
    return s1 > s2 ? s1 : s2;
}

int app_mkdir(const app_t *a, const char *dir)
{
    char err[512];

    if (a->rank != 0 || dir == NULL)
        return APP_OK;
    if (output_mkdir_p(dir, err, sizeof err) != 0) {
        fprintf(stderr, "%s: --out: %s\n", a->name, err);
        return APP_USAGE;
    }
    return APP_OK;
}

int app_results(const app_t *a, const char *dir, int failed, const char *err, const char *first,
                const char *second)
{
    if (failed) {
        fprintf(stderr, "%s: --out: %s\n", a->name, err);
        return APP_FAILED;
    }
    printf("results: %s/%s, %s/%s\n", dir, first, dir, second);
    return APP_OK;
}

void app_die(const app_t *a, const char *what, const char *where, int rc)
{
    fprintf(stderr, "%s: rank %d: %s (%s): %s\n", a->name, a->rank, what, where, papcoll_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, APP_FAILED);
}

double app_loop_start(app_t *a)
{
    a->t_loop = a->last_progress = timer_now();
    return a->t_loop;
}

double app_progress_due(app_t *a, int quiet)
{
    double now = timer_now();

    if (a->rank != 0 || quiet || now - a->last_progress < PROGRESS_PERIOD)
        return -1.0;
    a->last_progress = now;
    return now - a->t_loop;
}
