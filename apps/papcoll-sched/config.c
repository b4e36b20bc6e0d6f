/*
 * papcoll-sched options (see config.h, papcoll-sched --help).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sched/clairvoyant.h"

enum {
    OPT_PAT,
    OPT_PAT_FILE,
    OPT_PROCS,
    OPT_SEGMENTS,
    OPT_ROUND_TIME,
    OPT_ROOT,
    OPT_IMPL,
    OPT_ELIDE,
    OPT_BENCH,
    OPT_INSTANCES,
    OPT_MAX_P,
    OPT_SEED,
    OPT_JSON,
    OPT_HELP,
    OPT_COUNT
};

static cli_option_t options[OPT_COUNT] = {
    [OPT_PAT] = {"pat", "A0,A1,...", "arrival time of each rank (>= 0, any unit)", NULL},
    [OPT_PAT_FILE] = {"pat-file", "FILE",
                      "arrival times from FILE (separated by blanks, commas, newlines; # comments)", NULL},
    [OPT_PROCS] = {"procs", "P", "number of ranks; must match the PAT; alone: everybody arrives at 0", NULL},
    [OPT_SEGMENTS] = {"segments", "N", "segments the data is split into (default 1)", NULL},
    [OPT_ROUND_TIME] = {"round-time", "D", "time of one round, in the PAT's unit (default 1)", NULL},
    [OPT_ROOT] = {"root", "R", "root rank (default 0)", NULL},
    [OPT_IMPL] = {"impl", "NAME", "generator: reference (Listing 2) or fast (Listing 8, default)", NULL},
    [OPT_ELIDE] = {"elide", NULL,
                   "print the schedule the reduce executes: without bounces (a sink lending a partial "
                   "that only comes back to it)",
                   NULL},
    [OPT_BENCH] = {"bench", NULL, "time reference against fast (Proficz 2020, Table 1) instead", NULL},
    [OPT_INSTANCES] = {"instances", "K", "--bench: random instances per cell (default 10; the paper: 250)",
                       NULL},
    [OPT_MAX_P] = {"max-p", "P", "--bench: largest P = N, a power of two in 4..4096 (default 512)", NULL},
    [OPT_SEED] = {"seed", "S", "--bench: seed of the instances (default 1)", NULL},
    [OPT_JSON] = {"json", "FILE", "--bench: also write the results as JSON", NULL},
    [OPT_HELP] = {"help", NULL, "this text", NULL},
};

void config_usage(FILE *f)
{
    fprintf(f,
            "usage: papcoll-sched (--pat A0,A1,... | --pat-file FILE | --procs P) [--segments N]\n"
            "                     [--round-time D] [--root R] [--impl reference|fast] [--elide]\n"
            "       papcoll-sched --bench [--instances K] [--max-p P] [--seed S] [--json FILE]\n\n"
            "Prints the Clairvoyant reduce schedule (Marendic 2016; Proficz 2020) for the given\n"
            "arrival times:\n"
            "  # clairvoyant P=<P> N=<N> d=<d> root=<r> rounds=<R> impl=<reference|fast>\n"
            "  <round> <sender> <receiver> <segment>     (one line per transfer, by round, then receiver)\n"
            "Every schedule is validated before it is printed.  docs/clairvoyant.md explains the\n"
            "model and how to read the output.\n\noptions:\n");
    cli_print_options(options, OPT_COUNT);
}

/* One arrival time; item is its 0-based position (for the message). */
static int parse_time(const char *what, const char *text, int item, double *out, char *err, size_t errlen)
{
    if (cli_parse_double(text, out) != 0) {
        snprintf(err, errlen, "%s: value %d '%s' is not a finite number", what, item + 1, text);
        return -1;
    }
    return 0;
}

static int pat_from_list(const char *text, sched_config_t *cfg, char *err, size_t errlen)
{
    char **items = NULL;
    int n, i, rc = -1;

    if (cli_split(text, ',', &items, &n) != 0 || n == 0) {
        snprintf(err, errlen, "--pat: expected comma-separated numbers, got '%s'", text);
        goto out;
    }
    cfg->pat = malloc((size_t)n * sizeof(*cfg->pat));
    if (cfg->pat == NULL) {
        snprintf(err, errlen, "--pat: out of memory");
        goto out;
    }
    for (i = 0; i < n; i++)
        if (parse_time("--pat", items[i], i, &cfg->pat[i], err, errlen) != 0)
            goto out;
    cfg->P = n;
    rc = 0;
out:
    cli_list_free(items);
    return rc;
}

/* Appends one token of a PAT file to cfg->pat (capacity *cap). */
static int push_time(const char *tok, sched_config_t *cfg, int *cap, char *err, size_t errlen)
{
    double *grown;

    if (cfg->P == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        grown = realloc(cfg->pat, (size_t)*cap * sizeof(*grown));
        if (grown == NULL) {
            snprintf(err, errlen, "--pat-file: out of memory");
            return -1;
        }
        cfg->pat = grown;
    }
    if (parse_time("--pat-file", tok, cfg->P, &cfg->pat[cfg->P], err, errlen) != 0)
        return -1;
    cfg->P++;
    return 0;
}

static int pat_from_file(const char *path, sched_config_t *cfg, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char line[4096], *tok, *save, *hash;
    int cap = 0, rc = 0;

    if (f == NULL) {
        snprintf(err, errlen, "--pat-file: cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        if (strchr(line, '\n') == NULL && !feof(f)) {
            snprintf(err, errlen, "--pat-file: a line of '%s' is longer than %zu characters", path,
                     sizeof line - 2);
            rc = -1;
            break;
        }
        if ((hash = strchr(line, '#')) != NULL)
            *hash = '\0';
        for (tok = strtok_r(line, " \t\r\n,", &save); rc == 0 && tok != NULL;
             tok = strtok_r(NULL, " \t\r\n,", &save))
            rc = push_time(tok, cfg, &cap, err, errlen);
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "--pat-file: cannot read '%s'", path);
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && cfg->P == 0) {
        snprintf(err, errlen, "--pat-file: no arrival times in '%s'", path);
        rc = -1;
    }
    return rc;
}

/* Integer option in [min, max]; absent: keeps *out. */
static int int_option(int id, long min, long max, int *out, char *err, size_t errlen)
{
    long v;

    if (options[id].value == NULL)
        return 0;
    if (cli_parse_long(options[id].value, min, max, &v) != 0) {
        snprintf(err, errlen, "--%s: expected an integer in [%ld, %ld], got '%s'", options[id].name, min, max,
                 options[id].value);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int parse_bench(sched_config_t *cfg, char *err, size_t errlen)
{
    if (options[OPT_PAT].value || options[OPT_PAT_FILE].value || options[OPT_PROCS].value ||
        options[OPT_SEGMENTS].value || options[OPT_ROUND_TIME].value || options[OPT_ROOT].value ||
        options[OPT_IMPL].value || options[OPT_ELIDE].value) {
        snprintf(err, errlen,
                 "--bench draws its own instances and runs both generators: it takes only "
                 "--instances, --max-p, --seed and --json");
        return -1;
    }
    if (int_option(OPT_INSTANCES, 1, 100000, &cfg->instances, err, errlen) != 0 ||
        int_option(OPT_MAX_P, 4, 4096, &cfg->max_p, err, errlen) != 0)
        return -1;
    if (cfg->max_p & (cfg->max_p - 1)) {
        snprintf(err, errlen, "--max-p: %d is not a power of two", cfg->max_p);
        return -1;
    }
    if (options[OPT_SEED].value && cli_parse_u64(options[OPT_SEED].value, &cfg->seed) != 0) {
        snprintf(err, errlen, "--seed: expected an unsigned integer, got '%s'", options[OPT_SEED].value);
        return -1;
    }
    cfg->json = options[OPT_JSON].value;
    return 0;
}

/* The PAT and its count: --pat / --pat-file / --procs. */
static int parse_pat(sched_config_t *cfg, char *err, size_t errlen)
{
    int procs = 0;

    if (options[OPT_PAT].value && options[OPT_PAT_FILE].value) {
        snprintf(err, errlen, "--pat and --pat-file exclude each other");
        return -1;
    }
    if (int_option(OPT_PROCS, 1, 1 << 24, &procs, err, errlen) != 0)
        return -1;
    if (options[OPT_PAT].value && pat_from_list(options[OPT_PAT].value, cfg, err, errlen) != 0)
        return -1;
    if (options[OPT_PAT_FILE].value && pat_from_file(options[OPT_PAT_FILE].value, cfg, err, errlen) != 0)
        return -1;
    if (cfg->pat == NULL && procs == 0) {
        snprintf(err, errlen, "give the arrival times (--pat or --pat-file) or --procs; see --help");
        return -1;
    }
    if (cfg->pat != NULL && procs != 0 && procs != cfg->P) {
        snprintf(err, errlen, "%s has %d arrival times, but --procs is %d",
                 options[OPT_PAT].value ? "--pat" : "--pat-file", cfg->P, procs);
        return -1;
    }
    if (cfg->pat == NULL)
        cfg->P = procs;
    return 0;
}

static int parse_one(sched_config_t *cfg, char *err, size_t errlen)
{
    const char *impl = options[OPT_IMPL].value;
    char why[256];

    if (options[OPT_INSTANCES].value || options[OPT_MAX_P].value || options[OPT_SEED].value ||
        options[OPT_JSON].value) {
        snprintf(err, errlen, "--instances, --max-p, --seed and --json belong to --bench");
        return -1;
    }
    if (parse_pat(cfg, err, errlen) != 0 || int_option(OPT_SEGMENTS, 1, 1 << 29, &cfg->N, err, errlen) != 0 ||
        int_option(OPT_ROOT, 0, 1 << 24, &cfg->root, err, errlen) != 0)
        return -1;
    if (options[OPT_ROUND_TIME].value && cli_parse_double(options[OPT_ROUND_TIME].value, &cfg->d) != 0) {
        snprintf(err, errlen, "--round-time: expected a number, got '%s'", options[OPT_ROUND_TIME].value);
        return -1;
    }
    cfg->elide = options[OPT_ELIDE].value != NULL;
    if (impl != NULL && (cfg->impl = papcoll__cv_impl_find(impl)) < 0) {
        snprintf(err, errlen, "--impl: unknown generator '%s' (reference, fast)", impl);
        return -1;
    }
    if (papcoll__cv_input_check(cfg->P, cfg->N, cfg->d, cfg->root, cfg->pat, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    return 0;
}

int config_parse(int argc, char **argv, sched_config_t *cfg, char *err, size_t errlen)
{
    int i;

    memset(cfg, 0, sizeof(*cfg));
    cfg->N = 1;
    cfg->d = 1.0;
    cfg->impl = PAPCOLL__CV_FAST;
    cfg->instances = 10;
    cfg->max_p = 512;
    cfg->seed = 1;
    for (i = 0; i < OPT_COUNT; i++)
        options[i].value = NULL;
    if (cli_parse(argc, argv, options, OPT_COUNT, err, errlen) != 0)
        return CONFIG_ERROR;
    if (options[OPT_HELP].value)
        return CONFIG_HELP;
    cfg->bench = options[OPT_BENCH].value != NULL;
    if ((cfg->bench ? parse_bench(cfg, err, errlen) : parse_one(cfg, err, errlen)) != 0) {
        config_free(cfg);
        return CONFIG_ERROR;
    }
    return CONFIG_OK;
}

void config_free(sched_config_t *cfg)
{
    free(cfg->pat);
    cfg->pat = NULL;
}
