/*
 * paptrace: reads a papcoll trace (HDF5, trace/SCHEMA.md) and prints it.
 *
 *   paptrace info|dump|csv|chrome|stats|pat|policy FILE [options]
 *   paptrace otf2 FILE OUTDIR [options]
 *   paptrace synth --ranks P [options]
 *
 * Prolog: command, file and options; the file is read whole (paptrace_read),
 * except by otf2, which streams it.  Then one command writes to stdout.  Every error is one line on stderr:
 * exit 2 for a bad command line, 1 for a bad file or a failed command.
 * Usage and examples: paptrace --help, docs/trace.md.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "paptrace_cli.h"

enum {
    O_SITE,
    O_SKIP,
    O_ALPHA,
    O_BETA,
    O_CREDIT,
    O_BALANCED,
    O_PAT,
    O_RANKS,
    O_PHASES,
    O_MAXDELAY,
    O_LATE,
    O_DRIFT,
    O_SEED,
    O_CHUNK,
    O_OTF2,
    O_REGION,
    O_OP,
    O_COMM,
    O_STATS,
    O_HELP,
    O_COUNT
};

#define SYNTH_PHASES "balanced:40,uniform:40,balanced:40,single:40,balanced:40,drift:40"

static const cli_option_t option_table[O_COUNT] = {
    [O_SITE] = {"site", "NAME", "only this call site (dump, csv, chrome, stats; pat: needed with several)"},
    [O_SKIP] = {"skip", "N", "leave out each site's first N calls, e.g. warm-ups (stats, pat)"},
    [O_ALPHA] = {"alpha", "S", "stats: latency of the lower-bound model (default: file's alpha, else 50e-6)"},
    [O_BETA] = {"beta", "S", "stats: seconds per byte (default: file's beta, else 8e-9 = 1 Gbit/s)"},
    [O_CREDIT] = {"credit", "S", "stats: a block's head start after an idle port (default: file's credit, else 0)"},
    [O_BALANCED] = {"balanced", "S", "stats: run time t(pi) under a balanced pattern (default: model)"},
    [O_PAT] = {"pat", "FILE", "policy: the phase-marked replay file the run replayed (paptrace synth)"},
    [O_RANKS] = {"ranks", "P", "synth: ranks (delays per line); required"},
    [O_PHASES] = {"phases", "LIST", "synth: KIND:N,... with KIND balanced|uniform|single|drift|@FILE (default " SYNTH_PHASES ")"},
    [O_MAXDELAY] = {"maxdelay", "MS", "synth: bound of uniform, delay of single and drift, ms (default 50)"},
    [O_LATE] = {"late-rank", "R", "synth: the late rank of single, drift's first (default P-1)"},
    [O_DRIFT] = {"drift-every", "N", "synth: drift moves the late rank to the next every N rows (default 5)"},
    [O_SEED] = {"seed", "S", "synth: seed of uniform's delays (default 1)"},
    [O_CHUNK] = {"chunk", "N", "otf2: calls of each site read at once (default 4096)"},
    [O_OTF2] = {"otf2", "ARCHIVE", "pat: from an OTF2 archive (any writer, e.g. Score-P) instead of FILE"},
    [O_REGION] = {"region", "NAME", "pat --otf2: calls of this region only (e.g. MPI_Gather)"},
    [O_OP] = {"op", "OP", "pat --otf2: calls of this collective only (gather, bcast, allreduce, ...)"},
    [O_COMM] = {"comm", "ID", "pat --otf2: calls on this communicator only (default: the first call's)"},
    [O_STATS] = {"stats", NULL, "pat --otf2: imbalance, run time, elapsed instead of the replay file"},
    [O_HELP] = {"help", NULL, "this text"},
};

typedef int (*command_fn)(const paptrace_file_t *, const pt_opts_t *, FILE *, char *, size_t);

typedef struct {
    const char *name;
    command_fn run;
    unsigned options; /* bit O_x: the command takes option x */
    const char *help;
    int streams;      /* otf2: takes FILE OUTDIR and reads FILE itself, in chunks */
} command_t;

#define BIT(o) (1u << (o))
static const command_t commands[] = {
    {"info", pt_cmd_info, 0,
     "run metadata (program, command line, configuration, ranks, clock), call sites, their decisions", 0},
    {"dump", pt_cmd_dump, BIT(O_SITE),
     "every call as a readable table (ms from the call's earliest arrival), with its decision", 0},
    {"csv", pt_cmd_csv, BIT(O_SITE), "one CSV row per (call, rank) per site, global-clock seconds", 0},
    {"chrome", pt_cmd_chrome, BIT(O_SITE), "Chrome/Perfetto trace-event JSON: compute and collective slices", 0},
    {"stats", pt_cmd_stats,
     BIT(O_SITE) | BIT(O_SKIP) | BIT(O_ALPHA) | BIT(O_BETA) | BIT(O_CREDIT) | BIT(O_BALANCED),
     "per site: decisions; per algorithm: imbalance, run/elapsed time, absorption, efficiency, "
     "autocorrelation", 0},
    {"pat", pt_cmd_pat, BIT(O_SITE) | BIT(O_SKIP) | BIT(O_OTF2) | BIT(O_REGION) | BIT(O_OP) | BIT(O_COMM) | BIT(O_STATS),
     "papbench replay file (--pattern replay:FILE) of one site; pat --otf2 ARCHIVE: of an OTF2 trace", 0},
    {"policy", pt_cmd_policy, BIT(O_PAT),
     "papbench run of a phase-marked replay file: per phase and whole run, policies against fixed algorithms", 0},
    {"otf2", NULL, BIT(O_CHUNK),
     "FILE OUTDIR: OTF2 archive OUTDIR/traces.otf2 (Vampir, Scalasca, Score-P tools), streamed", 1},
    {"synth", NULL, BIT(O_RANKS) | BIT(O_PHASES) | BIT(O_MAXDELAY) | BIT(O_LATE) | BIT(O_DRIFT) | BIT(O_SEED),
     "(no FILE) phase-alternating replay file: balanced, uniform, single late, drifting late, @FILE phases", 0},
};
#define NCOMMANDS (int)(sizeof commands / sizeof commands[0])

static void usage(void)
{
    cli_option_t o[O_COUNT];
    int i;

    memcpy(o, option_table, sizeof o);
    printf("usage: paptrace COMMAND FILE [options]\n       paptrace otf2 FILE OUTDIR [--chunk N]\n"
           "       paptrace pat --otf2 ARCHIVE [--region NAME | --op OP] [--comm ID] [--stats]\n"
           "       paptrace synth --ranks P [options]\n\n"
           "Reads a trace written by a papcoll program run with --trace FILE (HDF5,\n"
           "trace/SCHEMA.md) and writes to stdout.\n\ncommands:\n");
    for (i = 0; i < NCOMMANDS; i++)
        printf("  %-8s %s\n", commands[i].name, commands[i].help);
    printf("\noptions:\n");
    cli_print_options(o, O_COUNT);
    printf("\nexit status: 0 success, 1 unreadable or bad trace file, 2 bad command line.\n"
           "Examples and the metrics: docs/trace.md.\n");
}

static const command_t *find_command(const char *name)
{
    int i;

    for (i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* A non-negative number option into *out (kept when absent). */
static int opt_number(const cli_option_t *o, double *out)
{
    if (o->value == NULL)
        return 0;
    if (cli_parse_double(o->value, out) != 0 || *out < 0) {
        fprintf(stderr, "paptrace: --%s: expected a non-negative number, got '%s'\n", o->name, o->value);
        return -1;
    }
    return 0;
}

/* synth's options into opts: --ranks required, the others with their defaults. */
static int synth_options(const cli_option_t *o, pt_opts_t *opts)
{
    long ranks = 0, late = -1, drift = 5;

    opts->phases = o[O_PHASES].value ? o[O_PHASES].value : SYNTH_PHASES;
    opts->maxdelay_ms = 50;
    opts->seed = 1;
    if (o[O_RANKS].value == NULL || cli_parse_long(o[O_RANKS].value, 1, 1 << 24, &ranks) != 0) {
        fprintf(stderr, "paptrace: synth: --ranks: expected a number of ranks >= 1, got '%s'\n",
                o[O_RANKS].value ? o[O_RANKS].value : "(none)");
        return -1;
    }
    if (o[O_LATE].value != NULL && cli_parse_long(o[O_LATE].value, 0, ranks - 1, &late) != 0) {
        fprintf(stderr, "paptrace: synth: --late-rank: expected a rank in 0..%ld, got '%s'\n", ranks - 1,
                o[O_LATE].value);
        return -1;
    }
    if (o[O_DRIFT].value != NULL && cli_parse_long(o[O_DRIFT].value, 1, 1L << 40, &drift) != 0) {
        fprintf(stderr, "paptrace: synth: --drift-every: expected a number of rows >= 1, got '%s'\n",
                o[O_DRIFT].value);
        return -1;
    }
    if (o[O_SEED].value != NULL && cli_parse_u64(o[O_SEED].value, &opts->seed) != 0) {
        fprintf(stderr, "paptrace: synth: --seed: expected an unsigned 64-bit number, got '%s'\n", o[O_SEED].value);
        return -1;
    }
    if (opt_number(&o[O_MAXDELAY], &opts->maxdelay_ms))
        return -1;
    opts->ranks = (int)ranks;
    opts->late_rank = late >= 0 ? (int)late : (int)ranks - 1;
    opts->drift_every = drift;
    return 0;
}

/* pat --otf2's options: --region or --op, --comm, --stats; only with --otf2, and --otf2 without --site, --skip. */
static int otf2_options(const cli_option_t *o, pt_opts_t *opts)
{
    long comm = -1;

    opts->otf2 = o[O_OTF2].value;
    opts->region = o[O_REGION].value;
    opts->op = o[O_OP].value;
    opts->stats_only = o[O_STATS].value != NULL;
    opts->otf2_comm = -1;
    if (opts->otf2 == NULL && (opts->region || opts->op || o[O_COMM].value || opts->stats_only)) {
        fprintf(stderr, "paptrace: pat: --region, --op, --comm and --stats go with --otf2 ARCHIVE\n");
        return -1;
    }
    if (opts->otf2 != NULL && (opts->site || o[O_SKIP].value)) {
        fprintf(stderr, "paptrace: pat --otf2 takes no --site or --skip (see --region, --op, --comm)\n");
        return -1;
    }
    if (opts->region && opts->op) {
        fprintf(stderr, "paptrace: pat --otf2: --region or --op, not both\n");
        return -1;
    }
    if (o[O_COMM].value != NULL && cli_parse_long(o[O_COMM].value, 0, 0xfffffffeL, &comm) != 0) {
        fprintf(stderr, "paptrace: --comm: expected a communicator id (OTF2 Comm definition), got '%s'\n",
                o[O_COMM].value);
        return -1;
    }
    opts->otf2_comm = comm;
    return 0;
}

/* Options after FILE; every option must apply to the command. */
static int parse_options(int argc, char **argv, const command_t *cmd, pt_opts_t *opts)
{
    cli_option_t o[O_COUNT];
    char err[256];
    long skip = 0;
    int i;

    memcpy(o, option_table, sizeof o);
    /* argv[0] is FILE here: cli_parse skips it as it would a program name. */
    if (cli_parse(argc, argv, o, O_COUNT, err, sizeof err) != 0) {
        fprintf(stderr, "paptrace: %s (see paptrace --help)\n", err);
        return -1;
    }
    for (i = 0; i < O_HELP; i++)
        if (o[i].value != NULL && !(cmd->options & BIT(i))) {
            fprintf(stderr, "paptrace: %s takes no --%s (see paptrace --help)\n", cmd->name, o[i].name);
            return -1;
        }
    *opts = (pt_opts_t){.site = o[O_SITE].value, .alpha = NAN, .beta = NAN, .credit = NAN, .balanced = NAN};
    if (o[O_SKIP].value != NULL && cli_parse_long(o[O_SKIP].value, 0, 1L << 40, &skip) != 0) {
        fprintf(stderr, "paptrace: --skip: expected a non-negative number of calls, got '%s'\n", o[O_SKIP].value);
        return -1;
    }
    opts->skip = skip;
    if (o[O_CHUNK].value != NULL && cli_parse_long(o[O_CHUNK].value, 1, 1L << 30, &opts->chunk) != 0) {
        fprintf(stderr, "paptrace: --chunk: expected a number of calls >= 1, got '%s'\n", o[O_CHUNK].value);
        return -1;
    }
    opts->pat = o[O_PAT].value;
    if (otf2_options(o, opts) != 0)
        return -1;
    if (cmd->run == pt_cmd_policy && opts->pat == NULL) {
        fprintf(stderr, "paptrace: policy needs --pat FILE, the phase-marked replay file the run replayed\n");
        return -1;
    }
    if (cmd->run == NULL && !cmd->streams && synth_options(o, opts) != 0)
        return -1;
    if (opt_number(&o[O_ALPHA], &opts->alpha) || opt_number(&o[O_BETA], &opts->beta) ||
        opt_number(&o[O_CREDIT], &opts->credit) ||
        opt_number(&o[O_BALANCED], &opts->balanced))
        return -1;
    return 0;
}

static int wants_help(int argc, char **argv)
{
    int i;

    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return argc < 2;
}

/* otf2 FILE OUTDIR [options]: the command reads FILE itself. */
static int run_streaming(int argc, char **argv, const command_t *cmd)
{
    char err[1024];
    pt_opts_t opts;
    int rc;

    if (argc < 4 || argv[2][0] == '-' || argv[3][0] == '-') {
        fprintf(stderr, "paptrace: %s: expected a trace FILE and an OUTDIR after the command\n", cmd->name);
        return 2;
    }
    /* argv[3], OUTDIR, stands where parse_options skips a program name. */
    if (parse_options(argc - 3, argv + 3, cmd, &opts) != 0)
        return 2;
    rc = pt_cmd_otf2(argv[2], argv[3], opts.chunk, stdout, err, sizeof err);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        snprintf(err, sizeof err, "writing the output failed");
        rc = -1;
    }
    if (rc != 0)
        fprintf(stderr, "paptrace: %s %s: %s\n", cmd->name, argv[2], err);
    return rc == 0 ? 0 : 1;
}

/* pat --otf2 ARCHIVE [options]: no HDF5 trace. */
static int run_pat_otf2(int argc, char **argv)
{
    char err[1024];
    pt_opts_t opts;
    int rc;

    /* argv[1], the command, stands where parse_options skips a program name. */
    if (parse_options(argc - 1, argv + 1, find_command("pat"), &opts) != 0)
        return 2;
    if (opts.otf2 == NULL) {
        fprintf(stderr, "paptrace: pat: expected --otf2 ARCHIVE\n");
        return 2;
    }
    rc = pt_cmd_pat_otf2(opts.otf2, &opts, stdout, err, sizeof err);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        snprintf(err, sizeof err, "writing the output failed");
        rc = -1;
    }
    if (rc != 0)
        fprintf(stderr, "paptrace: pat --otf2: %s\n", err);
    return rc == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    char err[1024];
    const command_t *cmd;
    paptrace_file_t *f = NULL;
    pt_opts_t opts;
    int rc, i;

    /* Prolog: command, file, options. */
    paptrace_reader_only();
    if (wants_help(argc, argv)) {
        usage();
        return argc < 2 ? 2 : 0;
    }
    if ((cmd = find_command(argv[1])) == NULL) {
        fprintf(stderr, "paptrace: unknown command '%s' (", argv[1]);
        for (i = 0; i < NCOMMANDS; i++)
            fprintf(stderr, "%s%s", i ? ", " : "", commands[i].name);
        fprintf(stderr, "; see --help)\n");
        return 2;
    }
    if (cmd->streams)
        return run_streaming(argc, argv, cmd);
    if (cmd->run == pt_cmd_pat && argc > 2 && strncmp(argv[2], "--otf2", 6) == 0)
        return run_pat_otf2(argc, argv);
    if (cmd->run == NULL) { /* synth: no trace to read */
        if (parse_options(argc - 1, argv + 1, cmd, &opts) != 0)
            return 2;
        rc = pt_cmd_synth(&opts, stdout, err, sizeof err);
        if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
            snprintf(err, sizeof err, "writing the output failed");
            rc = -1;
        }
        if (rc != 0)
            fprintf(stderr, "paptrace: synth: %s\n", err);
        return rc == 0 ? 0 : rc == -2 ? 2 : 1;
    }
    if (argc < 3 || argv[2][0] == '-') {
        fprintf(stderr, "paptrace: %s: expected a trace FILE after the command\n", cmd->name);
        return 2;
    }
    if (parse_options(argc - 2, argv + 2, cmd, &opts) != 0)
        return 2;
    if (paptrace_read(argv[2], &f, err, sizeof err) != PAPTRACE_OK) {
        fprintf(stderr, "paptrace: %s\n", err);
        return 1;
    }

    /* The command. */
    rc = cmd->run(f, &opts, stdout, err, sizeof err);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        snprintf(err, sizeof err, "writing the output failed");
        rc = -1;
    }
    if (rc != 0)
        fprintf(stderr, "paptrace: %s %s: %s\n", cmd->name, argv[2], err);
    paptrace_file_free(&f);
    return rc == 0 ? 0 : 1;
}
