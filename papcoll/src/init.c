/*
 * papcoll_init and papcoll_finalize: the context (context.h) with its
 * communicators, options and clock; warnings.
 */
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "algo_ids.h"
#include "clock.h"
#include "context.h"

const char *papcoll_strerror(int err)
{
    switch (err) {
#define PAPCOLL__ERR_MSG(name, value, msg) \
    case (value): return msg;
        PAPCOLL_ERRNO_MAP(PAPCOLL__ERR_MSG)
#undef PAPCOLL__ERR_MSG
    default: return "unknown error";
    }
}

const char *papcoll_err_name(int err)
{
    switch (err) {
#define PAPCOLL__ERR_NAME(name, value, msg) \
    case (value): return "PAPCOLL_ERR_" #name;
        PAPCOLL_ERRNO_MAP(PAPCOLL__ERR_NAME)
#undef PAPCOLL__ERR_NAME
    default: return "PAPCOLL_ERR_?";
    }
}

/* Rank 0's line "papcoll: <prefix><message>" on stderr, unless quiet. */
static void say(const papcoll_ctx_t *ctx, const char *prefix, const char *fmt, va_list ap)
{
    if (ctx->quiet || ctx->rank != 0)
        return;
    fprintf(stderr, "papcoll: %s", prefix);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void papcoll__warn(papcoll_ctx_t *ctx, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    say(ctx, "warning: ", fmt, ap);
    va_end(ap);
}

void papcoll__note(const papcoll_ctx_t *ctx, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    say(ctx, "", fmt, ap);
    va_end(ap);
}

/* The [papcoll] section of the INI file. */
typedef struct {
    char policy[PAPCOLL_OP_COUNT][64];
    char predictor[32], resync[32], fallback[32], check[32], segment[32];
    char radix[256], model[PAPCOLL__M_N][32], cvseg[32];
    char ar_reduce[32], ar_bcast[32], model_cache[256];
} config_t;

/* INI keys and environment variables of the model (model.h). */
static const char *const model_keys[PAPCOLL__M_N] = {"model_alpha", "model_beta", "model_gamma",
                                                     "model_xbeta", "model_round_alpha"};
static const char *const model_envs[PAPCOLL__M_N] = {"PAPCOLL_MODEL_ALPHA", "PAPCOLL_MODEL_BETA",
                                                     "PAPCOLL_MODEL_GAMMA", "PAPCOLL_MODEL_XBETA",
                                                     "PAPCOLL_MODEL_ROUND_ALPHA"};

static int on_ini(void *user, const char *section, const char *key, const char *value)
{
    config_t *c = user;
    char *dst = NULL;
    size_t len = 32;
    int op;

    if (strcmp(section, "papcoll") != 0)
        return 1;
    for (op = 0; op < PAPCOLL_OP_COUNT && dst == NULL; op++)
        if (strcmp(key, papcoll_op_ini_key((papcoll_op_t)op)) == 0)
            dst = c->policy[op], len = sizeof(c->policy[op]);
    if (strcmp(key, "predictor") == 0)
        dst = c->predictor;
    else if (strcmp(key, "clock_resync") == 0)
        dst = c->resync;
    else if (strcmp(key, "fallback") == 0)
        dst = c->fallback;
    else if (strcmp(key, "check") == 0)
        dst = c->check;
    else if (strcmp(key, "segment_bytes") == 0)
        dst = c->segment;
    else if (strcmp(key, "radix_k") == 0)
        dst = c->radix, len = sizeof(c->radix);
    else if (strcmp(key, "clairvoyant_segments") == 0)
        dst = c->cvseg;
    else if (strcmp(key, "allreduce_reduce") == 0)
        dst = c->ar_reduce;
    else if (strcmp(key, "allreduce_bcast") == 0)
        dst = c->ar_bcast;
    else if (strcmp(key, "model_cache") == 0)
        dst = c->model_cache, len = sizeof(c->model_cache);
    for (op = 0; op < PAPCOLL__M_N && dst == NULL; op++)
        if (strcmp(key, model_keys[op]) == 0)
            dst = c->model[op];
    if (dst == NULL)
        return 0; /* unknown key: an error, not silently dropped */
    snprintf(dst, len, "%s", value);
    return 1;
}

static const char *first_of(const char *a, const char *b, const char *c, const char *d)
{
    if (a != NULL && *a)
        return a;
    if (b != NULL && *b)
        return b;
    return (c != NULL && *c) ? c : d;
}

/* clock_resync: option > environment > config file > 1000 calls. */
static int read_resync(papcoll_ctx_t *ctx, const papcoll_options_t *o, const char *cfg)
{
    const char *text = first_of(getenv("PAPCOLL_CLOCK_RESYNC"), cfg, "1000", NULL);
    char *end;
    long v;

    if (o->clock_resync != 0) {
        ctx->clock_every = o->clock_resync > 0 ? o->clock_resync : 0;
        return PAPCOLL_OK;
    }
    v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v > 1000000000L) {
        if (ctx->rank == 0 && !o->quiet)
            fprintf(stderr, "papcoll: clock_resync '%s' is not a number of calls\n", text);
        return PAPCOLL_ERR_CONFIG;
    }
    ctx->clock_every = v > 0 ? (int)v : 0;
    return PAPCOLL_OK;
}

/*
 * PAPCOLL_SEGMENT_BYTES: environment > config file > 64 KiB - 64 B, the
 * largest round size below Open MPI's eager limit of 64 KiB headers included
 * (btl_tcp_eager_limit): a 64 KiB segment waits for a rendezvous round trip.
 * Given, it is every segmented algorithm's size; by default the two trees
 * take a smaller one where the model says so (papcoll__twotree_segment).
 */
static int read_segment(papcoll_ctx_t *ctx, const papcoll_options_t *o, const char *cfg)
{
    const char *given = first_of(getenv("PAPCOLL_SEGMENT_BYTES"), cfg, NULL, NULL);
    const char *text = given != NULL ? given : "65472";
    char *end;
    long v = strtol(text, &end, 10);

    if (end == text || *end != '\0' || v < 1 || v > (1L << 30)) {
        if (ctx->rank == 0 && !o->quiet)
            fprintf(stderr, "papcoll: segment_bytes '%s' is not a number of bytes in [1, 2^30]\n", text);
        return PAPCOLL_ERR_CONFIG;
    }
    ctx->segment_bytes = (size_t)v;
    ctx->segment_given = given != NULL;
    return PAPCOLL_OK;
}

/* One line on stderr from rank 0 when not quiet; PAPCOLL_ERR_CONFIG. */
static int bad_option(const papcoll_ctx_t *ctx, const papcoll_options_t *o, const char *key, const char *text,
                      const char *want)
{
    if (ctx->rank == 0 && !o->quiet)
        fprintf(stderr, "papcoll: %s '%s' is not %s\n", key, text, want);
    return PAPCOLL_ERR_CONFIG;
}

/* radix_k: "K" (factors of at most K, K >= 2) or "k1,k2,..." (each >= 2,
 * at most PAPCOLL__RADIX_MAX; their product must be P, checked once every
 * rank has rank 0's value). */
static int read_radix(papcoll_ctx_t *ctx, const papcoll_options_t *o, const char *cfg)
{
    const char *text = first_of(getenv("PAPCOLL_RADIX_K"), cfg, "8", NULL), *p = text;
    const char *want = "K >= 2 or a list k1,k2,... of factors >= 2";
    char *end;
    long v;
    int n = 0;

    for (;;) {
        v = strtol(p, &end, 10);
        if (end == p || v < 2 || v > (1L << 30) || n == PAPCOLL__RADIX_MAX || (*end != ',' && *end != '\0'))
            return bad_option(ctx, o, "radix_k", text, want);
        ctx->radix_vec[n++] = (int)v;
        if (*end == '\0')
            break;
        p = end + 1;
    }
    ctx->radix_target = n == 1 && strchr(text, ',') == NULL ? ctx->radix_vec[0] : 0;
    ctx->radix_len = ctx->radix_target ? 0 : n;
    return PAPCOLL_OK;
}

/* model_alpha/_beta/_gamma, model_cache and clairvoyant_segments. */
static int read_model(papcoll_ctx_t *ctx, const papcoll_options_t *o, const config_t *cfg)
{
    const char *text = first_of(getenv("PAPCOLL_CLAIRVOYANT_SEGMENTS"), cfg->cvseg, "0", NULL);
    char *end;
    long v = strtol(text, &end, 10);
    int i, rc;

    for (i = 0; i < PAPCOLL__M_N; i++)
        if ((rc = papcoll__model_parse(model_keys[i], first_of(getenv(model_envs[i]), cfg->model[i], NULL, NULL),
                                       ctx->rank == 0 && !o->quiet, &ctx->model_cfg[i])) != PAPCOLL_OK)
            return rc;
    if (end == text || *end != '\0' || v < 0 || v > (1L << 24))
        return bad_option(ctx, o, "clairvoyant_segments", text,
                          "a segment count in [0, 2^24] (0: the model's)");
    ctx->cv_segments = (int)v;
    text = first_of(getenv("PAPCOLL_MODEL_CACHE"), cfg->model_cache, NULL, "");
    if (strlen(text) >= sizeof(ctx->model_cache))
        return bad_option(ctx, o, "model_cache", text, "a file name of at most 255 characters");
    snprintf(ctx->model_cache, sizeof(ctx->model_cache), "%s", text);
    return PAPCOLL_OK;
}

/* One part of the composite allreduce algorithms (allreduce_reduce,
 * allreduce_bcast): an algorithm of op that moves packed bytes in the
 * foreground (background parts run only for their site's own op, and the
 * MPI baseline would reduce the user's buffers). */
static int read_part(papcoll_ctx_t *ctx, const papcoll_options_t *o, const char *key, papcoll_op_t op,
                     const char *text, int *out)
{
    char list[512], want[600];
    int i = papcoll_algo_find(op, text);
    unsigned f = i >= 0 ? papcoll_algo_flags(op, i) : 0;

    if (i >= 0 && (f & PAPCOLL_F_CONTIG_ONLY) && !(f & (PAPCOLL_F_BACKGROUND | PAPCOLL_F_BASELINE))) {
        *out = i;
        return PAPCOLL_OK;
    }
    snprintf(want, sizeof(want), "a foreground %s algorithm other than mpi (%s)", papcoll_op_name(op),
             papcoll_algo_list(op, list, sizeof(list)));
    return bad_option(ctx, o, key, text, want);
}

/* allreduce_reduce / allreduce_bcast: the parts of allreduce reduce_bcast. */
static int read_composite(papcoll_ctx_t *ctx, const papcoll_options_t *o, const config_t *cfg)
{
    const char *r = first_of(getenv("PAPCOLL_ALLREDUCE_REDUCE"), cfg->ar_reduce,
                             papcoll_algo_name(PAPCOLL_OP_REDUCE, PAPCOLL__A_reduce_rabenseifner), NULL);
    const char *b = first_of(getenv("PAPCOLL_ALLREDUCE_BCAST"), cfg->ar_bcast,
                             papcoll_algo_name(PAPCOLL_OP_BCAST, PAPCOLL__A_bcast_scatter_allgather), NULL);
    int rc = read_part(ctx, o, "allreduce_reduce", PAPCOLL_OP_REDUCE, r, &ctx->ar_reduce);

    return rc ? rc : read_part(ctx, o, "allreduce_bcast", PAPCOLL_OP_BCAST, b, &ctx->ar_bcast);
}

/* PAPCOLL_FALLBACK and PAPCOLL_CHECK: environment > config file > default. */
static int read_switches(papcoll_ctx_t *ctx, const papcoll_options_t *o, const config_t *cfg)
{
    const char *fb = first_of(getenv("PAPCOLL_FALLBACK"), cfg->fallback, "warn", NULL);
    const char *check = first_of(getenv("PAPCOLL_CHECK"), cfg->check, "0", NULL);

    if (strcmp(fb, "warn") == 0)
        ctx->fallback = PAPCOLL__FB_WARN;
    else if (strcmp(fb, "error") == 0)
        ctx->fallback = PAPCOLL__FB_ERROR;
    else if (strcmp(fb, "silent") == 0)
        ctx->fallback = PAPCOLL__FB_SILENT;
    else {
        if (ctx->rank == 0 && !o->quiet)
            fprintf(stderr, "papcoll: fallback '%s' is not one of warn, error, silent\n", fb);
        return PAPCOLL_ERR_CONFIG;
    }
    if (strcmp(check, "0") != 0 && strcmp(check, "1") != 0) {
        if (ctx->rank == 0 && !o->quiet)
            fprintf(stderr, "papcoll: check '%s' is not 0 or 1\n", check);
        return PAPCOLL_ERR_CONFIG;
    }
    ctx->check = strcmp(check, "1") == 0;
    return PAPCOLL_OK;
}

/* ini_parse on a regular file only (fopen opens a directory, and inih
 * then reads it as an empty file): -1 cannot open, -3 not a regular file. */
static int parse_config(const char *path, config_t *cfg)
{
    struct stat st;
    FILE *f = fopen(path, "r");
    int rc;

    if (f == NULL)
        return -1;
    rc = fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) ? -3 : ini_parse_file(f, on_ini, cfg);
    fclose(f);
    return rc;
}

/* Options: argument > environment > config file > default. */
static int read_options(papcoll_ctx_t *ctx, const papcoll_options_t *o)
{
    config_t cfg;
    const char *file = first_of(o->config_file, getenv("PAPCOLL_CONFIG"), NULL, NULL);
    const char *pred;
    int rc, op;

    memset(&cfg, 0, sizeof(cfg));
    if (file != NULL && (rc = parse_config(file, &cfg)) != 0) {
        if (ctx->rank == 0 && !o->quiet)
            fprintf(stderr, "papcoll: %s: %s\n", file,
                    rc == -1   ? "cannot open"
                    : rc == -3 ? "not a regular file"
                               : "parse error or unknown key in [papcoll]");
        return PAPCOLL_ERR_CONFIG;
    }
    pred = first_of(o->predictor, getenv("PAPCOLL_PREDICTOR"), cfg.predictor, "edge");
    if (papcoll__pred_parse(pred, &ctx->pred) != PAPCOLL_OK)
        return PAPCOLL_ERR_PREDICTOR;
    papcoll__pred_format(&ctx->pred, ctx->pred_text, sizeof(ctx->pred_text));
    if ((rc = read_resync(ctx, o, cfg.resync)) != PAPCOLL_OK ||
        (rc = read_segment(ctx, o, cfg.segment)) != PAPCOLL_OK ||
        (rc = read_switches(ctx, o, &cfg)) != PAPCOLL_OK || (rc = read_radix(ctx, o, cfg.radix)) != PAPCOLL_OK ||
        (rc = read_model(ctx, o, &cfg)) != PAPCOLL_OK || (rc = read_composite(ctx, o, &cfg)) != PAPCOLL_OK)
        return rc;
    for (op = 0; op < PAPCOLL_OP_COUNT; op++)
        snprintf(ctx->policy_default[op], sizeof(ctx->policy_default[op]), "%s",
                 first_of(getenv(papcoll_op_env((papcoll_op_t)op)), cfg.policy[op], o->policy_default[op],
                          papcoll_op_default((papcoll_op_t)op)));
    return PAPCOLL_OK;
}

static int dup_comm(MPI_Comm comm, MPI_Comm *out)
{
    int rc = PMPI_Comm_dup(comm, out);

    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_set_errhandler(*out, MPI_ERRORS_RETURN);
    return PAPCOLL__ERR(rc);
}

/*
 * What selection and plans depend on must be the same on every rank:
 * whether there are monitor threads, the check switch (it adds a
 * communicator per site), the fallback policy and the segment size.  A rank
 * whose options failed fails everyone.
 */
static int agree(papcoll_ctx_t *ctx, int rc)
{
    int mine[6] = {rc != PAPCOLL_OK, !ctx->has_monitor, ctx->check, (int)ctx->fallback,
                   (int)ctx->segment_bytes, ctx->segment_given}, all[6];

    if (PMPI_Allreduce(mine, all, 6, MPI_INT, MPI_MAX, ctx->comm) != MPI_SUCCESS)
        return PAPCOLL_ERR_MPI;
    if (all[0])
        return rc != PAPCOLL_OK ? rc : PAPCOLL_ERR_CONFIG;
    ctx->has_monitor = !all[1];
    ctx->check = all[2];
    ctx->fallback = (papcoll__fallback_t)all[3];
    ctx->segment_bytes = (size_t)all[4];
    ctx->segment_given = all[5];
    return PAPCOLL_OK;
}

/* The reduction options are rank 0's everywhere (a model or radix vector
 * that differed between ranks would split plans); then the radix vector
 * must multiply to P. */
static int agree_reduce(papcoll_ctx_t *ctx)
{
    struct {
        int target, len, vec[PAPCOLL__RADIX_MAX], segments, ar_reduce, ar_bcast;
        double model[PAPCOLL__M_N];
    } o;
    long long prod = 1;
    int i;

    memset(&o, 0, sizeof(o));
    o.target = ctx->radix_target, o.len = ctx->radix_len, o.segments = ctx->cv_segments;
    o.ar_reduce = ctx->ar_reduce, o.ar_bcast = ctx->ar_bcast;
    memcpy(o.vec, ctx->radix_vec, sizeof(o.vec));
    memcpy(o.model, ctx->model_cfg, sizeof(o.model));
    if (PMPI_Bcast(&o, (int)sizeof(o), MPI_BYTE, 0, ctx->comm) != MPI_SUCCESS)
        return PAPCOLL_ERR_MPI;
    ctx->radix_target = o.target, ctx->radix_len = o.len, ctx->cv_segments = o.segments;
    ctx->ar_reduce = o.ar_reduce, ctx->ar_bcast = o.ar_bcast;
    memcpy(ctx->radix_vec, o.vec, sizeof(o.vec));
    memcpy(ctx->model_cfg, o.model, sizeof(o.model));
    for (i = 0; i < ctx->radix_len && prod <= ctx->size; i++)
        prod *= ctx->radix_vec[i];
    if (ctx->radix_len == 0 || prod == ctx->size)
        return PAPCOLL_OK;
    if (ctx->rank == 0 && !ctx->quiet)
        fprintf(stderr, "papcoll: radix_k: the product of the factors is not the %d processes\n", ctx->size);
    return PAPCOLL_ERR_CONFIG;
}

/* The attribute through which papcoll_ctx_from_comm finds a context. */
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int key_rc = MPI_SUCCESS;
static int ctx_key = MPI_KEYVAL_INVALID;

static void make_key(void)
{
    key_rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ctx_key, NULL);
}

static int attach(papcoll_ctx_t *ctx)
{
    pthread_once(&key_once, make_key);
    if (key_rc != MPI_SUCCESS)
        return PAPCOLL__ERR(key_rc);
    return PAPCOLL__ERR(PMPI_Comm_set_attr(ctx->comm, ctx_key, ctx));
}

papcoll_ctx_t *papcoll_ctx_from_comm(MPI_Comm comm)
{
    papcoll_ctx_t *ctx = NULL;
    int flag = 0;

    if (comm == MPI_COMM_NULL || ctx_key == MPI_KEYVAL_INVALID ||
        PMPI_Comm_get_attr(comm, ctx_key, &ctx, &flag) != MPI_SUCCESS || !flag)
        return NULL;
    return ctx;
}

/*
 * Whether this rank shares cores with other ranks, from what the launcher
 * tells it (Open MPI's environment): mpi_yield_when_idle set (`mpirun --mca
 * mpi_yield_when_idle 1`, as on the emulated cluster, whose nodes share the
 * machine's cores: docs/emucluster.md), or more ranks on this node than
 * online processors.  Read from the environment, not through the MPI tool
 * interface: Open MPI 4.1's MPI_T_finalize closes components the running
 * library still uses.  0 (the library's own default) when nothing says so.
 */
static int oversubscribed(void)
{
    const char *y = getenv("OMPI_MCA_mpi_yield_when_idle"), *n = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    long cores = sysconf(_SC_NPROCESSORS_ONLN);

    if (y != NULL && (strcmp(y, "1") == 0 || strcmp(y, "true") == 0))
        return 1;
    return n != NULL && cores > 0 && atol(n) > cores;
}

int papcoll_init(MPI_Comm comm, const papcoll_options_t *opts, papcoll_ctx_t **out)
{
    static const papcoll_options_t none;
    papcoll_ctx_t *ctx;
    int provided = 0, rc;

    if (out == NULL || comm == MPI_COMM_NULL)
        return PAPCOLL_ERR_INVAL;
    *out = NULL;
    opts = opts ? opts : &none;
    if ((ctx = calloc(1, sizeof(*ctx))) == NULL)
        return PAPCOLL_ERR_NOMEM;
    ctx->comm = ctx->data_comm = ctx->mon_comm = MPI_COMM_NULL;
    ctx->clock_comm = ctx->node_comm = ctx->leader_comm = MPI_COMM_NULL;
    ctx->quiet = opts->quiet;
    if (pthread_mutex_init(&ctx->sink_lock, NULL) != 0) {
        free(ctx);
        return PAPCOLL_ERR_THREAD;
    }
    if (pthread_mutex_init(&ctx->tree_lock, NULL) != 0) {
        pthread_mutex_destroy(&ctx->sink_lock);
        free(ctx);
        return PAPCOLL_ERR_THREAD;
    }
    PMPI_Comm_rank(comm, &ctx->rank);
    PMPI_Comm_size(comm, &ctx->size);
    ctx->comm = comm;
    PMPI_Query_thread(&provided);
#ifdef PAPCOLL_SMPI
    (void)provided; /* SMPI grants MPI_THREAD_SINGLE; the monitor is a coroutine of the rank (coop.h) */
    ctx->has_monitor = !opts->no_monitor;
#else
    ctx->has_monitor = provided == MPI_THREAD_MULTIPLE && !opts->no_monitor;
#endif
    ctx->oversubscribed = oversubscribed();
    rc = read_options(ctx, opts);
    if ((rc = agree(ctx, rc)) != PAPCOLL_OK || (rc = agree_reduce(ctx)) != PAPCOLL_OK)
        goto fail;
    if ((rc = dup_comm(comm, &ctx->data_comm)) != PAPCOLL_OK ||
        (rc = dup_comm(comm, &ctx->mon_comm)) != PAPCOLL_OK)
        goto fail;
    /* A site measures the model when its algorithm plans with it (site_api.c);
     * reduce_bcast's reduce part may, whatever the site's algorithm. */
    if ((papcoll_algo_flags(PAPCOLL_OP_REDUCE, ctx->ar_reduce) & PAPCOLL_F_MODEL) &&
        (rc = papcoll__model_ensure(ctx, ctx->data_comm)) != PAPCOLL_OK)
        goto fail;
    if ((rc = papcoll__clock_init(ctx)) != PAPCOLL_OK)
        goto fail;
    if (ctx->rank == 0 && (ctx->clock_buf = malloc((size_t)ctx->size * 6 * sizeof(double))) == NULL) {
        rc = PAPCOLL_ERR_NOMEM;
        goto fail;
    }
    if ((rc = attach(ctx)) != PAPCOLL_OK)
        goto fail;
    if (!ctx->has_monitor)
        papcoll__warn(ctx, "%s; background algorithms run as their foreground versions and "
                      "PAT-sorted ones exchange predictions inside the collective",
                      opts->no_monitor ? "monitor thread disabled"
                                       : "MPI_THREAD_MULTIPLE not provided, no monitor thread");
    *out = ctx;
    return PAPCOLL_OK;
fail:
    if (ctx->data_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&ctx->data_comm);
    if (ctx->mon_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&ctx->mon_comm);
    papcoll__clock_free(ctx);
    pthread_mutex_destroy(&ctx->sink_lock);
    pthread_mutex_destroy(&ctx->tree_lock);
    free(ctx);
    return rc;
}

int papcoll_finalize(papcoll_ctx_t **pctx)
{
    papcoll_ctx_t *ctx;
    int i;

    if (pctx == NULL || *pctx == NULL)
        return PAPCOLL_ERR_INVAL;
    ctx = *pctx;
    if (ctx->sites != NULL)
        return PAPCOLL_ERR_STATE; /* free every site first */
    if (papcoll_ctx_from_comm(ctx->comm) == ctx)
        PMPI_Comm_delete_attr(ctx->comm, ctx_key);
    PMPI_Comm_free(&ctx->data_comm);
    PMPI_Comm_free(&ctx->mon_comm);
    papcoll__clock_free(ctx);
    free(ctx->clock_buf);
    for (i = 0; i < ctx->ntrees; i++)
        papcoll__tree_free(&ctx->trees[i].tree);
    ctx->ntrees = 0;
    pthread_mutex_destroy(&ctx->sink_lock);
    pthread_mutex_destroy(&ctx->tree_lock);
    free(ctx);
    *pctx = NULL;
    return PAPCOLL_OK;
}

int papcoll_has_monitor(const papcoll_ctx_t *ctx)
{
    return ctx != NULL && ctx->has_monitor;
}

const char *papcoll_predictor(const papcoll_ctx_t *ctx)
{
    return ctx != NULL ? ctx->pred_text : "?";
}
