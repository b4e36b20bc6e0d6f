/*
 * Command line and INI file of the PIC proxy (see config.h, docs/pic.md).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "icet.h"
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
    [O_CONFIG] = {"config", "FILE", "INI file: [pic] keys named like these options, [papcoll] for the library"},
    [O_PROBLEM] = {"problem", "NAME", "two-stream | landau | beam (default two-stream)"},
    [O_STEPS] = {"steps", "S", "time steps (default: the problem's)"},
    [O_PARTICLES] = {"particles", "N", "macro-particles, K/M suffix (default: the problem's)"},
    [O_GRID] = {"grid", "NXxNY", "grid nodes, NX a multiple of P (default: the problem's)"},
    [O_DT] = {"dt", "DT", "time step in 1/omega_p (default: the problem's)"},
    [O_THREADS] = {"threads", "T", "OpenMP threads per rank for the push (default 1)"},
    [O_COMPOSITE] = {"composite", "OP", "zbuffer | over: the compositing operation (default zbuffer)"},
    [O_COMPOSITE_ALGO] = {"composite-algo", "NAME",
                          "compositing: a papcoll reduce algorithm or icet:S, see below (default: library's)"},
    [O_FRAME_EVERY] = {"frame-every", "K", "render and composite every K steps, 0: never (default: problem's)"},
    [O_FRAMES] = {"frames", "on|off", "write the composited frames as PNG to OUT/frames/ (default on)"},
    [O_IMAGE] = {"image", "WxH", "image size in pixels (default 512x512)"},
    [O_SNAPSHOT_EVERY] = {"snapshot-every", "M", "openPMD snapshot to OUT/openpmd/ every M steps (default 0: none)"},
    [O_GATHER_ALGO] = {"gather-algo", "NAME", "papcoll gather algorithm of the charge (default: library's)"},
    [O_SCATTER_ALGO] = {"scatter-algo", "NAME", "papcoll scatter algorithm of the field (default: library's)"},
    [O_OUT] = {"out", "DIR", "write summary.json, steps.csv, frames and snapshots under DIR (mkdir -p)"},
    [O_TRACE] = {"trace", "FILE", "write every papcoll call's per-rank records to FILE (HDF5, libpaptrace)"},
    [O_QUIET] = {"quiet", NULL, "no progress lines on stderr"},
    [O_HELP] = {"help", NULL, "this text"},
};

static const char *const not_in_file[] = {"config", "help", NULL};
static const char *const other_sections[] = {"papcoll", NULL};

static int fail(const pic_config_t *cfg, const cli_option_t *o, int i, const char *expected, char *err,
                size_t errlen)
{
    if (cli_ini_from_file(&cfg->ini, i))
        snprintf(err, errlen, "'%s': %s: expected %s, got '%s'", cfg->config_file, o[i].name, expected,
                 o[i].value);
    else
        snprintf(err, errlen, "--%s: expected %s, got '%s'", o[i].name, expected, o[i].value);
    return PIC_CONFIG_ERROR;
}

static int opt_long(const pic_config_t *cfg, const cli_option_t *o, int i, long min, long max,
                    const char *expected, long *out, char *err, size_t errlen)
{
    if (o[i].value != NULL && cli_parse_long(o[i].value, min, max, out) != 0)
        return fail(cfg, o, i, expected, err, errlen);
    return PIC_CONFIG_OK;
}

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
static int parse_problem(pic_config_t *cfg, const cli_option_t *o, char *err, size_t errlen)
{
    const pic_problem_info_t *in;
    int k = o[O_PROBLEM].value != NULL ? pic_problem_find(o[O_PROBLEM].value) : PIC_TWO_STREAM;
    long long n;

    if (k < 0)
        return fail(cfg, o, O_PROBLEM, "two-stream, landau or beam", err, errlen);
    cfg->problem = (pic_problem_kind_t)k;
    in = &pic_problems[k];
    cfg->steps = in->steps;
    cfg->particles = in->particles;
    cfg->nx = in->nx;
    cfg->ny = in->ny;
    cfg->dt = in->dt;
    cfg->frame_every = in->frame_every;
    if (opt_long(cfg, o, O_STEPS, 1, 100000000, "a number of steps in 1..10^8", &cfg->steps, err, errlen))
        return PIC_CONFIG_ERROR;
    if (o[O_PARTICLES].value != NULL) {
        if (cli_parse_count(o[O_PARTICLES].value, &n) != 0 || n < 2 || n > (1LL << 40))
            return fail(cfg, o, O_PARTICLES, "a particle count of at least 2 (K/M suffixes)", err, errlen);
        cfg->particles = n;
    }
    if (o[O_GRID].value != NULL && parse_pair(o[O_GRID].value, 2, 1 << 14, &cfg->nx, &cfg->ny) != 0)
        return fail(cfg, o, O_GRID, "NXxNY with both in 2..16384", err, errlen);
    if (cfg->nx % cfg->nprocs != 0) {
        snprintf(err, errlen, "grid %dx%d on %d processes: NX must be a multiple of P (slabs of whole columns)",
                 cfg->nx, cfg->ny, cfg->nprocs);
        return PIC_CONFIG_ERROR;
    }
    if (o[O_DT].value != NULL && (cli_parse_double(o[O_DT].value, &cfg->dt) != 0 || !(cfg->dt > 0.0) ||
                                  cfg->dt > 2.0))
        return fail(cfg, o, O_DT, "a time step in (0, 2] (leapfrog is stable for omega_p dt < 2)", err, errlen);
    return PIC_CONFIG_OK;
}

/*
 * icet:NAME, a papcoll reduce algorithm, or (left to papcoll_site_create,
 * which knows them) a policy of the library such as "fixed:NAME".
 */
static int parse_composite_algo(pic_config_t *cfg, const cli_option_t *o, char *err, size_t errlen)
{
    const char *a = o[O_COMPOSITE_ALGO].value;
    char valid[256], expected[400];

    cfg->composite_algo = a;
    cfg->icet = -1;
    if (a == NULL || papcoll_algo_find(PAPCOLL_OP_REDUCE, a) >= 0)
        return PIC_CONFIG_OK;
    if (strncmp(a, "icet:", 5) == 0 && pic_icet_find(a + 5) >= 0) {
        if (!pic_icet_available()) {
            snprintf(err, errlen, "--composite-algo %s: this pic was built without IceT (fetch it with "
                     "jobs/icet-fetch, then make)", a);
            return PIC_CONFIG_ERROR;
        }
        cfg->icet = pic_icet_find(a + 5);
        return PIC_CONFIG_OK;
    }
    if (strchr(a, ':') != NULL && strncmp(a, "icet:", 5) != 0)
        return PIC_CONFIG_OK; /* a policy: papcoll_site_create decides */
    snprintf(expected, sizeof expected, "a reduce algorithm (%s) or icet:radixk|bswap|tree|automatic",
             papcoll_algo_list(PAPCOLL_OP_REDUCE, valid, sizeof valid));
    return fail(cfg, o, O_COMPOSITE_ALGO, expected, err, errlen);
}

/* Rendering and compositing. */
static int parse_render(pic_config_t *cfg, const cli_option_t *o, char *err, size_t errlen)
{
    const char *c = o[O_COMPOSITE].value, *fr = o[O_FRAMES].value;

    cfg->composite = PIC_COMPOSITE_ZBUFFER;
    if (c != NULL && strcmp(c, "over") == 0)
        cfg->composite = PIC_COMPOSITE_OVER;
    else if (c != NULL && strcmp(c, "zbuffer") != 0)
        return fail(cfg, o, O_COMPOSITE, "zbuffer or over", err, errlen);
    if (parse_composite_algo(cfg, o, err, errlen) != PIC_CONFIG_OK)
        return PIC_CONFIG_ERROR;
    if (opt_long(cfg, o, O_FRAME_EVERY, 0, 100000000, "a number of steps (0: never)", &cfg->frame_every, err,
                 errlen))
        return PIC_CONFIG_ERROR;
    cfg->frames = 1;
    if (fr != NULL && (strcmp(fr, "off") == 0 || strcmp(fr, "no") == 0))
        cfg->frames = 0;
    else if (fr != NULL && strcmp(fr, "on") != 0 && strcmp(fr, "yes") != 0)
        return fail(cfg, o, O_FRAMES, "on or off", err, errlen);
    cfg->width = cfg->height = 512;
    if (o[O_IMAGE].value != NULL && parse_pair(o[O_IMAGE].value, 8, PIC_MAX_IMAGE, &cfg->width, &cfg->height))
        return fail(cfg, o, O_IMAGE, "WxH with both in 8..4096", err, errlen);
    return PIC_CONFIG_OK;
}

static int parse_algos(pic_config_t *cfg, const cli_option_t *o, char *err, size_t errlen)
{
    char valid[256], expected[300];

    cfg->gather_algo = o[O_GATHER_ALGO].value;
    cfg->scatter_algo = o[O_SCATTER_ALGO].value;
    if (cfg->gather_algo != NULL && papcoll_algo_find(PAPCOLL_OP_GATHER, cfg->gather_algo) < 0) {
        snprintf(expected, sizeof expected, "a gather algorithm (%s)",
                 papcoll_algo_list(PAPCOLL_OP_GATHER, valid, sizeof valid));
        return fail(cfg, o, O_GATHER_ALGO, expected, err, errlen);
    }
    if (cfg->scatter_algo != NULL && papcoll_algo_find(PAPCOLL_OP_SCATTER, cfg->scatter_algo) < 0) {
        snprintf(expected, sizeof expected, "a scatter algorithm (%s)",
                 papcoll_algo_list(PAPCOLL_OP_SCATTER, valid, sizeof valid));
        return fail(cfg, o, O_SCATTER_ALGO, expected, err, errlen);
    }
    return PIC_CONFIG_OK;
}

static int parse_run(pic_config_t *cfg, const cli_option_t *o, char *err, size_t errlen)
{
    long threads = 1;

    if (opt_long(cfg, o, O_THREADS, 1, 1024, "a number of threads in 1..1024", &threads, err, errlen))
        return PIC_CONFIG_ERROR;
    cfg->threads = (int)threads;
    if (opt_long(cfg, o, O_SNAPSHOT_EVERY, 0, 100000000, "a number of steps (0: never)", &cfg->snapshot_every,
                 err, errlen))
        return PIC_CONFIG_ERROR;
    cfg->out_dir = o[O_OUT].value;
    cfg->trace_file = o[O_TRACE].value;
    cfg->quiet = o[O_QUIET].value != NULL;
    if (cfg->out_dir != NULL && cfg->out_dir[0] == '\0')
        return fail(cfg, o, O_OUT, "a directory name", err, errlen);
    if (cfg->trace_file != NULL && cfg->trace_file[0] == '\0')
        return fail(cfg, o, O_TRACE, "a file name", err, errlen);
    if (cfg->snapshot_every > 0 && cfg->out_dir == NULL) {
        snprintf(err, errlen, "--snapshot-every %ld needs --out DIR (snapshots go to DIR/openpmd/)",
                 cfg->snapshot_every);
        return PIC_CONFIG_ERROR;
    }
    return PIC_CONFIG_OK;
}

static int parse_fault(pic_config_t *cfg, char *err, size_t errlen)
{
    const char *v = getenv(PIC_FAULT_ENV);
    long r;

    if (v == NULL || v[0] == '\0')
        return PIC_CONFIG_OK;
    if (strcmp(v, "field") == 0) {
        cfg->fault = PIC_FAULT_FIELD;
        return PIC_CONFIG_OK;
    }
    if (strncmp(v, "drop:", 5) == 0 && cli_parse_long(v + 5, 0, cfg->nprocs - 1, &r) == 0) {
        cfg->fault = PIC_FAULT_DROP;
        cfg->fault_rank = (int)r;
        return PIC_CONFIG_OK;
    }
    snprintf(err, errlen, "%s: expected drop:R (R a rank in 0..%d) or field, got '%s'", PIC_FAULT_ENV,
             cfg->nprocs - 1, v);
    return PIC_CONFIG_ERROR;
}

static int load_file(pic_config_t *cfg, cli_option_t *o, char *err, size_t errlen)
{
    char msg[384];

    cfg->config_file = o[O_CONFIG].value;
    if (cfg->config_file == NULL)
        return PIC_CONFIG_OK;
    if (cfg->config_file[0] == '\0')
        return fail(cfg, o, O_CONFIG, "a file name", err, errlen);
    if (cli_ini_load(cfg->config_file, "pic", other_sections, not_in_file, o, O_COUNT, &cfg->ini, msg,
                     sizeof msg) != 0) {
        snprintf(err, errlen, "--config: %s", msg);
        return PIC_CONFIG_ERROR;
    }
    cfg->config_papcoll = (cfg->ini.others & 1u) != 0;
    return PIC_CONFIG_OK;
}

int pic_config_parse(int argc, char **argv, int nprocs, pic_config_t *cfg, char *err, size_t errlen)
{
    cli_option_t o[O_COUNT];
    char msg[256];
    int rc;

    memcpy(o, option_table, sizeof o);
    memset(cfg, 0, sizeof *cfg);
    cfg->nprocs = nprocs;
    cfg->icet = -1;
    if (cli_parse(argc, argv, o, O_COUNT, msg, sizeof msg) != 0) {
        snprintf(err, errlen, "%s (see pic --help)", msg);
        return PIC_CONFIG_ERROR;
    }
    if (o[O_HELP].value != NULL)
        return PIC_CONFIG_HELP;
    rc = load_file(cfg, o, err, errlen);
    if (rc == PIC_CONFIG_OK)
        rc = parse_problem(cfg, o, err, errlen);
    if (rc == PIC_CONFIG_OK)
        rc = parse_render(cfg, o, err, errlen);
    if (rc == PIC_CONFIG_OK)
        rc = parse_algos(cfg, o, err, errlen);
    if (rc == PIC_CONFIG_OK)
        rc = parse_run(cfg, o, err, errlen);
    if (rc == PIC_CONFIG_OK)
        rc = parse_fault(cfg, err, errlen);
    return rc;
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
    int w = snprintf(buf, len,
                     "[pic]\nproblem = %s\nsteps = %ld\nparticles = %lld\ngrid = %dx%d\ndt = %.17g\nthreads = %d\n"
                     "composite = %s\ncomposite-algo = %s\nframe-every = %ld\nframes = %s\nimage = %dx%d\n"
                     "snapshot-every = %ld\n",
                     pic_problems[cfg->problem].name, cfg->steps, cfg->particles, cfg->nx, cfg->ny, cfg->dt,
                     cfg->threads, cfg->composite == PIC_COMPOSITE_OVER ? "over" : "zbuffer",
                     pic_config_composite_algo(cfg), cfg->frame_every, cfg->frames ? "on" : "off", cfg->width,
                     cfg->height, cfg->snapshot_every);

    if (w >= 0 && (size_t)w < len && cfg->gather_algo != NULL)
        w += snprintf(buf + w, len - (size_t)w, "gather-algo = %s\n", cfg->gather_algo);
    if (w >= 0 && (size_t)w < len && cfg->scatter_algo != NULL)
        w += snprintf(buf + w, len - (size_t)w, "scatter-algo = %s\n", cfg->scatter_algo);
    if (w >= 0 && (size_t)w < len && cfg->out_dir != NULL)
        w += snprintf(buf + w, len - (size_t)w, "out = %s\n", cfg->out_dir);
    if (w >= 0 && (size_t)w < len && cfg->trace_file != NULL)
        snprintf(buf + w, len - (size_t)w, "trace = %s\n", cfg->trace_file);
}

static void usage_algorithms(void)
{
    int i, n = pic_icet_count(), nr = papcoll_algo_count(PAPCOLL_OP_REDUCE);

    printf("\ncompositing algorithms (--composite-algo; papcoll reduce site 'pic-image', `over` needs an\n"
           "ORDERED one, others fall back; default: $PAPCOLL_REDUCE_ALGORITHM, then the library's):\n");
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
    cli_option_t o[O_COUNT];
    int i;

    memcpy(o, option_table, sizeof o);
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
    cli_print_options(o, O_COUNT);
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
    cli_ini_free(&cfg->ini);
}
