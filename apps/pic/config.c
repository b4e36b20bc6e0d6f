/*
 * Command line and INI file of the PIC proxy (see config.h, docs/pic.md).
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "field.h"
#include "icet.h"
#include "output.h"
#include "papcoll.h"

enum {
    O_CONFIG,
    O_PROBLEM,
    O_STEPS,
    O_PARTICLES,
    O_GRID,
    O_DT,
    O_THREADS,
    O_COMPOSITE,
    O_COMPOSITE_ALGO,
    O_FRAME_EVERY,
    O_FRAMES,
    O_SPARSE,
    O_IMAGE,
    O_SNAPSHOT_EVERY,
    O_GATHER_ALGO,
    O_SCATTER_ALGO,
    O_OUT,
    O_TRACE,
    O_QUIET,
    O_HELP,
    O_COUNT
};

static const cli_option_t option_table[O_COUNT] = {
    [O_CONFIG] = {"config", "FILE",
                  "INI file: [pic] keys named like these options, [papcoll] for the library"},
    [O_PROBLEM] = {"problem", "NAME", "two-stream | landau | beam (default two-stream)"},
    [O_STEPS] = {"steps", "S", "time steps (default: the problem's)"},
    [O_PARTICLES] = {"particles", "N", "macro-particles, K/M suffix (default: the problem's)"},
    [O_GRID] = {"grid", "NXxNY", "grid nodes, NX a multiple of P (default: the problem's)"},
    [O_DT] = {"dt", "DT", "time step in 1/omega_p (default: the problem's)"},
    [O_THREADS] = {"threads", "T", "OpenMP threads per rank for the push (default 1)"},
    [O_COMPOSITE] = {"composite", "OP", "zbuffer | over: the compositing operation (default zbuffer)"},
    [O_COMPOSITE_ALGO] =
        {"composite-algo", "NAME",
         "compositing: a papcoll reduce algorithm or policy, or icet:S, see below (default: measured best)"},
    [O_FRAME_EVERY] = {"frame-every", "K",
                       "render and composite every K steps, 0: never (default: problem's)"},
    [O_FRAMES] = {"frames", "on|off", "write the composited frames as PNG to OUT/frames/ (default on)"},
    [O_SPARSE] = {"sparse", "on|off",
                  "background pixels are the compositing's identity: SPARSE algorithms move only the others "
                  "(default on)"},
    [O_IMAGE] = {"image", "WxH", "image size in pixels (default 512x512)"},
    [O_SNAPSHOT_EVERY] = {"snapshot-every", "M",
                          "openPMD snapshot to OUT/openpmd/ every M steps (default 0: none)"},
    [O_GATHER_ALGO] = {"gather-algo", "NAME", "papcoll gather algorithm of the charge (default: library's)"},
    [O_SCATTER_ALGO] = {"scatter-algo", "NAME",
                        "papcoll scatter algorithm of the field (default: library's)"},
    [O_OUT] = {"out", "DIR", "write summary.json, steps.csv, frames and snapshots under DIR (mkdir -p)"},
    [O_TRACE] = {"trace", "FILE", "write every papcoll call's per-rank records to FILE (HDF5, libpaptrace)"},
    [O_QUIET] = {"quiet", NULL, "no progress lines on stderr"},
    [O_HELP] = {"help", NULL, "this text"},
};

static const char *const other_sections[] = {"papcoll", NULL};
static const cli_spec_t spec = {"pic", option_table, O_COUNT, O_CONFIG, O_HELP, "pic", other_sections};

/* "AxB" with both in [lo, hi]. */
static int parse_pair(const char *text, long lo, long hi, int *a, int *b)
{
    char first[32];
    const char *x = strchr(text, 'x');
    long va, vb;

    if (x == NULL || (size_t)(x - text) >= sizeof first)
        return -1;
    memcpy(first, text, (size_t)(x - text));
    first[x - text] = '\0';
    if (cli_parse_long(first, lo, hi, &va) != 0 || cli_parse_long(x + 1, lo, hi, &vb) != 0)
        return -1;
    *a = (int)va;
    *b = (int)vb;
    return 0;
}

/* Problem, then the numerics that default to the problem's. */
static int parse_problem(pic_config_t *cfg, char *err, size_t errlen)
{
    const cli_option_t *o = cfg->opts.opt;
    const pic_problem_info_t *in;
    int k = o[O_PROBLEM].value != NULL ? pic_problem_find(o[O_PROBLEM].value) : PIC_TWO_STREAM;
    long long n;
    double block;

    if (k < 0)
        return cli_opts_fail(&cfg->opts, O_PROBLEM, "two-stream, landau or beam", err, errlen);
    cfg->problem = (pic_problem_kind_t)k;
    in = &pic_problems[k];
    cfg->steps = in->steps;
    cfg->particles = in->particles;
    cfg->nx = in->nx;
    cfg->ny = in->ny;
    cfg->dt = in->dt;
    cfg->frame_every = in->frame_every;
    if (cli_opts_long(&cfg->opts, O_STEPS, 1, 100000000, "a number of steps in 1..10^8", &cfg->steps, err,
                      errlen))
        return CLI_ERROR;
    if (o[O_PARTICLES].value != NULL) {
        if (cli_parse_count(o[O_PARTICLES].value, &n) != 0 || n < 2 || n > (1LL << 40))
            return cli_opts_fail(&cfg->opts, O_PARTICLES, "a particle count of at least 2 (K/M suffixes)",
                                 err, errlen);
        cfg->particles = n;
    }
    if (o[O_GRID].value != NULL && parse_pair(o[O_GRID].value, 2, 1 << 14, &cfg->nx, &cfg->ny) != 0)
        return cli_opts_fail(&cfg->opts, O_GRID, "NXxNY with both in 2..16384", err, errlen);
    if (cfg->nx % cfg->nprocs != 0) {
        snprintf(err, errlen, "grid %dx%d on %d processes: NX must be a multiple of P (slabs of whole columns)",
                 cfg->nx, cfg->ny, cfg->nprocs);
        return CLI_ERROR;
    }
    /* Between processes a rank's field block (two components per node), and
     * a binomial scatter's first message, half of them, must fit an MPI
     * message (papcoll's are at most 2^31 - 1 bytes). */
    block = (2.0 * (cfg->nx / cfg->nprocs + 1) * cfg->ny + SX_FIELDS) * sizeof(double);
    if (cfg->nprocs > 1 && block * ((cfg->nprocs + 1) / 2) > INT_MAX) {
        snprintf(err, errlen,
                 "grid %dx%d on %d processes: a field message of %.0f bytes exceeds the 2^31 - 1 bytes "
                 "of an MPI message; use a smaller grid or more processes",
                 cfg->nx, cfg->ny, cfg->nprocs, block * ((cfg->nprocs + 1) / 2));
        return CLI_ERROR;
    }
    if (o[O_DT].value != NULL && (cli_parse_double(o[O_DT].value, &cfg->dt) != 0 || !(cfg->dt > 0.0) ||
                                  cfg->dt > 2.0))
        return cli_opts_fail(&cfg->opts, O_DT,
                             "a time step in (0, 2] (leapfrog is stable for omega_p dt < 2)", err, errlen);
    return CLI_OK;
}

/*
 * icet:NAME, a papcoll reduce algorithm, or (left to papcoll_site_create,
 * which knows them) a policy of the library such as "fixed:NAME".
 */
static int parse_composite_algo(pic_config_t *cfg, char *err, size_t errlen)
{
    const cli_option_t *o = cfg->opts.opt;
    const char *a = o[O_COMPOSITE_ALGO].value;
    char valid[256], expected[400];

    cfg->composite_algo = a;
    cfg->icet = -1;
    if (a == NULL || papcoll_algo_find(PAPCOLL_OP_REDUCE, a) >= 0)
        return CLI_OK;
    if (strncmp(a, "icet:", 5) == 0 && pic_icet_find(a + 5) >= 0) {
        if (!pic_icet_available()) {
            snprintf(err, errlen, "--composite-algo %s: this pic was built without IceT (fetch it with "
                     "jobs/icet-fetch, then make)", a);
            return CLI_ERROR;
        }
        cfg->icet = pic_icet_find(a + 5);
        return CLI_OK;
    }
    if ((strchr(a, ':') != NULL && strncmp(a, "icet:", 5) != 0) || strcmp(a, "auto") == 0)
        return CLI_OK; /* a policy: papcoll_site_create decides */
    snprintf(expected, sizeof expected,
             "a reduce algorithm (%s), a policy (auto, rules:FILE, fixed:NAME) or "
             "icet:radixk|bswap|tree|automatic",
             papcoll_algo_list(PAPCOLL_OP_REDUCE, valid, sizeof valid));
    return cli_opts_fail(&cfg->opts, O_COMPOSITE_ALGO, expected, err, errlen);
}

/* Rendering and compositing. */
static int parse_render(pic_config_t *cfg, char *err, size_t errlen)
{
    const cli_option_t *o = cfg->opts.opt;
    const char *c = o[O_COMPOSITE].value, *fr = o[O_FRAMES].value, *sp = o[O_SPARSE].value;

    cfg->composite = PIC_COMPOSITE_ZBUFFER;
    if (c != NULL && strcmp(c, "over") == 0)
        cfg->composite = PIC_COMPOSITE_OVER;
    else if (c != NULL && strcmp(c, "zbuffer") != 0)
        return cli_opts_fail(&cfg->opts, O_COMPOSITE, "zbuffer or over", err, errlen);
    if (parse_composite_algo(cfg, err, errlen) != CLI_OK)
        return CLI_ERROR;
    if (cli_opts_long(&cfg->opts, O_FRAME_EVERY, 0, 100000000, "a number of steps (0: never)",
                      &cfg->frame_every, err, errlen))
        return CLI_ERROR;
    cfg->frames = 1;
    if (fr != NULL && (strcmp(fr, "off") == 0 || strcmp(fr, "no") == 0))
        cfg->frames = 0;
    else if (fr != NULL && strcmp(fr, "on") != 0 && strcmp(fr, "yes") != 0)
        return cli_opts_fail(&cfg->opts, O_FRAMES, "on or off", err, errlen);
    cfg->sparse = 1;
    if (sp != NULL && (strcmp(sp, "off") == 0 || strcmp(sp, "no") == 0))
        cfg->sparse = 0;
    else if (sp != NULL && strcmp(sp, "on") != 0 && strcmp(sp, "yes") != 0)
        return cli_opts_fail(&cfg->opts, O_SPARSE, "on or off", err, errlen);
    cfg->width = cfg->height = 512;
    if (o[O_IMAGE].value != NULL && parse_pair(o[O_IMAGE].value, 8, PIC_MAX_IMAGE, &cfg->width, &cfg->height))
        return cli_opts_fail(&cfg->opts, O_IMAGE, "WxH with both in 8..4096", err, errlen);
    return CLI_OK;
}

static int parse_algos(pic_config_t *cfg, char *err, size_t errlen)
{
    const cli_option_t *o = cfg->opts.opt;

    cfg->gather_algo = o[O_GATHER_ALGO].value;
    cfg->scatter_algo = o[O_SCATTER_ALGO].value;
    if (app_config_algo(&cfg->opts, O_GATHER_ALGO, PAPCOLL_OP_GATHER, err, errlen) != CLI_OK ||
        app_config_algo(&cfg->opts, O_SCATTER_ALGO, PAPCOLL_OP_SCATTER, err, errlen) != CLI_OK)
        return CLI_ERROR;
    return CLI_OK;
}

static int parse_run(pic_config_t *cfg, char *err, size_t errlen)
{
    const cli_option_t *o = cfg->opts.opt;
    long threads = 1;

    if (cli_opts_long(&cfg->opts, O_THREADS, 1, 1024, "a number of threads in 1..1024", &threads, err,
                      errlen))
        return CLI_ERROR;
    cfg->threads = (int)threads;
    if (cli_opts_long(&cfg->opts, O_SNAPSHOT_EVERY, 0, 100000000, "a number of steps (0: never)",
                      &cfg->snapshot_every, err, errlen))
        return CLI_ERROR;
    cfg->out_dir = o[O_OUT].value;
    cfg->trace_file = o[O_TRACE].value;
    cfg->quiet = o[O_QUIET].value != NULL;
    if (cli_opts_nonempty(&cfg->opts, O_OUT, "a directory name", err, errlen) != CLI_OK ||
        cli_opts_nonempty(&cfg->opts, O_TRACE, "a file name", err, errlen) != CLI_OK)
        return CLI_ERROR;
    if (cfg->snapshot_every > 0 && cfg->out_dir == NULL) {
        snprintf(err, errlen, "--snapshot-every %ld needs --out DIR (snapshots go to DIR/openpmd/)",
                 cfg->snapshot_every);
        return CLI_ERROR;
    }
    return CLI_OK;
}

static int parse_fault(pic_config_t *cfg, char *err, size_t errlen)
{
    const char *v = getenv(PIC_FAULT_ENV);
    long r;

    if (v == NULL || v[0] == '\0')
        return CLI_OK;
    if (strcmp(v, "field") == 0) {
        cfg->fault = PIC_FAULT_FIELD;
        return CLI_OK;
    }
    if (strncmp(v, "drop:", 5) == 0 && cli_parse_long(v + 5, 0, cfg->nprocs - 1, &r) == 0) {
        cfg->fault = PIC_FAULT_DROP;
        cfg->fault_rank = (int)r;
        return CLI_OK;
    }
    snprintf(err, errlen, "%s: expected drop:R (R a rank in 0..%d) or field, got '%s'", PIC_FAULT_ENV,
             cfg->nprocs - 1, v);
    return CLI_ERROR;
}

int pic_config_parse(int argc, char **argv, int nprocs, pic_config_t *cfg, char *err, size_t errlen)
{
    static int (*const steps[])(pic_config_t *, char *, size_t) = {parse_problem, parse_render, parse_algos,
                                                                   parse_run, parse_fault};
    size_t i;
    int rc;

    memset(cfg, 0, sizeof *cfg);
    cfg->nprocs = nprocs;
    cfg->icet = -1;
    rc = cli_opts_parse(&cfg->opts, &spec, argc, argv, err, errlen);
    cfg->config_file = cfg->opts.file;
    cfg->config_papcoll = (cfg->opts.others & 1u) != 0;
    for (i = 0; rc == CLI_OK && i < sizeof steps / sizeof steps[0]; i++)
        rc = steps[i](cfg, err, errlen);
    return rc;
}

/*
 * The compositing site's default, where neither --composite-algo,
 * $PAPCOLL_REDUCE_ALGORITHM nor [papcoll] reduce_algorithm chooses: the
 * fastest measured for pic's own pattern, the beam's moving imbalance
 * (docs/results/apps.md, "Compositing"): zbuffer Clairvoyant, 0.95x of IceT's
 * tree at 512x512 and 0.87x at 1024x1024, 41-42 ms against mpi's 83-84 per
 * frame; over (non-commutative) noncommut_treedyn, the best ORDERED one,
 * 0.88x and 0.87x of IceT's tree.
 */
static const char *const composite_default[] = {
    [PIC_COMPOSITE_ZBUFFER] = "clairvoyant",
    [PIC_COMPOSITE_OVER] = "noncommut_treedyn",
};

const char *pic_config_composite_default(const pic_config_t *cfg)
{
    return composite_default[cfg->composite];
}

const char *pic_config_composite_algo(const pic_config_t *cfg)
{
    const char *env = getenv("PAPCOLL_REDUCE_ALGORITHM");

    if (cfg->composite_algo != NULL)
        return cfg->composite_algo;
    return env != NULL && *env ? env : "default";
}

void pic_config_text(const pic_config_t *cfg, char *buf, size_t len)
{
    text_t t;

    text_init(&t, buf, len);
    text_add(&t,
             "[pic]\nproblem = %s\nsteps = %ld\nparticles = %lld\ngrid = %dx%d\ndt = %.17g\nthreads = %d\n"
             "composite = %s\ncomposite-algo = %s\nframe-every = %ld\nframes = %s\nsparse = %s\n"
             "image = %dx%d\nsnapshot-every = %ld\n",
             pic_problems[cfg->problem].name, cfg->steps, cfg->particles, cfg->nx, cfg->ny, cfg->dt,
             cfg->threads, cfg->composite == PIC_COMPOSITE_OVER ? "over" : "zbuffer",
             pic_config_composite_algo(cfg), cfg->frame_every, cfg->frames ? "on" : "off",
             cfg->sparse ? "on" : "off", cfg->width, cfg->height, cfg->snapshot_every);
    text_key(&t, "gather-algo", cfg->gather_algo);
    text_key(&t, "scatter-algo", cfg->scatter_algo);
    text_key(&t, "out", cfg->out_dir);
    text_key(&t, "trace", cfg->trace_file);
    if (cfg->fault != PIC_FAULT_NONE)
        text_add(&t, "# test only: %s = %s\n", PIC_FAULT_ENV, getenv(PIC_FAULT_ENV));
}

static void usage_algorithms(void)
{
    int i, n = pic_icet_count(), nr = papcoll_algo_count(PAPCOLL_OP_REDUCE);

    printf("\ncompositing algorithms (--composite-algo; papcoll reduce site 'pic-image', `over` needs an\n"
           "ORDERED one, others fall back; default: $PAPCOLL_REDUCE_ALGORITHM, then [papcoll]\n"
           "reduce_algorithm, then the beam's fastest: %s (zbuffer), %s (over)):\n",
           composite_default[PIC_COMPOSITE_ZBUFFER], composite_default[PIC_COMPOSITE_OVER]);
    for (i = 0; i < nr; i++)
        printf("  %-15s %s%s\n", papcoll_algo_name(PAPCOLL_OP_REDUCE, i), papcoll_algo_summary(PAPCOLL_OP_REDUCE, i),
               papcoll_algo_flags(PAPCOLL_OP_REDUCE, i) & PAPCOLL_F_ORDERED ? " (ordered)" : "");
    for (i = 0; i < n; i++)
        printf("  icet:%-10s IceT icetCompositeImage, %s%s\n", pic_icet_name(i), pic_icet_summary(i),
               pic_icet_available() ? "" : " (not built in)");
    if (!pic_icet_available())
        printf("  IceT is an optional peer: jobs/icet-fetch takes it from Debian's paraview packages, then make.\n");
}

void pic_config_usage(void)
{
    int i;

    printf("usage: mpirun -np P pic [options]\n\n"
           "2D electrostatic particle-in-cell proxy with in-situ sort-last rendering.  Slabs along x\n"
           "over P ranks; each step: leapfrog push (OpenMP), particle migration to the neighbours,\n"
           "cloud-in-cell charge deposition, a papcoll gather of the charge to rank 0, a spectral\n"
           "Poisson solve (FFTW) there, a papcoll scatter of the field back.  Every K steps each rank\n"
           "renders its particles (phase space x-vx-y, coloured by vx) into a full-size RGBA + depth\n"
           "image, and the images are composited onto rank 0 (zbuffer or front-to-back over).\n"
           "Every run validates itself: charge and particle count conserved, energy drift bounded,\n"
           "the measured growth or damping rate against linear theory.\n\n"
           "options (each except --config and --help also as a key of the INI file's [pic] section;\n"
           "the command line wins):\n");
    cli_print_options(option_table, O_COUNT);
    printf("\nproblems (--problem):\n");
    for (i = 0; i < PIC_NPROBLEMS; i++)
        printf("  %-11s %s; default %dx%d grid, %lld particles, %ld steps of %g\n", pic_problems[i].name,
               pic_problems[i].summary, pic_problems[i].nx, pic_problems[i].ny, pic_problems[i].particles,
               pic_problems[i].steps, pic_problems[i].dt);
    usage_algorithms();
    printf("\nexit status: 0 success, 1 validation failure or runtime error, 2 bad usage.\n"
           "Details, physics parameters and output files: docs/pic.md.\n");
}

void pic_config_free(pic_config_t *cfg)
{
    cli_opts_free(&cfg->opts);
}

/* The scaffold's view (app.h). */
APP_CONFIG_OPS(pic_config_ops, pic_config_t, pic_config_parse, pic_config_usage, pic_config_text,
               pic_config_free);
