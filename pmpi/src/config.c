/*
 * The interposer's configuration: environment variables read at MPI_Init,
 * checked, and agreed across MPI_COMM_WORLD (every decision that ranks must
 * share starts from it).  papcoll reads its own variables (PAPCOLL_<OP>_
 * ALGORITHM, PAPCOLL_PREDICTOR, PAPCOLL_CONFIG, ...) in papcoll_init.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi.h"

const char *ip_mode_name(ip_mode_t m)
{
    return m == IP_MODE_TRACE ? "trace" : m == IP_MODE_REPLACE ? "replace" : "off";
}

/* An integer variable in [lo, hi], or dflt when unset. */
static int env_int(const char *name, int dflt, int lo, int hi, int *out, char *err, size_t errlen)
{
    const char *v = getenv(name);
    char *end;
    long x;

    *out = dflt;
    if (v == NULL || *v == '\0')
        return 0;
    x = strtol(v, &end, 10);
    if (end == v || *end != '\0' || x < lo || x > hi) {
        snprintf(err, errlen, "%s='%s' is not an integer in [%d, %d]", name, v, lo, hi);
        return -1;
    }
    *out = (int)x;
    return 0;
}

/* PAPCOLL_SITE_ID: "call" (the return address) or "function". */
static int read_site_id(ip_config_t *cfg, char *err, size_t errlen)
{
    const char *v = getenv("PAPCOLL_SITE_ID");

    if (v == NULL || *v == '\0' || strcmp(v, "call") == 0)
        return 0;
    if (strcmp(v, "function") == 0) {
        cfg->by_function = 1;
        return 0;
    }
    snprintf(err, errlen, "PAPCOLL_SITE_ID='%s' is not 'call' or 'function'", v);
    return -1;
}

/* PAPCOLL_AGREE: "every" or "stable:N". */
static int read_agree(ip_config_t *cfg, char *err, size_t errlen)
{
    const char *v = getenv("PAPCOLL_AGREE");
    char *end;
    long n;

    cfg->stable = 0;
    if (v == NULL || *v == '\0')
        return 0;
    if (strcmp(v, "every") == 0) {
        cfg->stable = 0;
        return 0;
    }
    if (strncmp(v, "stable:", 7) == 0) {
        n = strtol(v + 7, &end, 10);
        if (end != v + 7 && *end == '\0' && n >= 1 && n <= 1000000) {
            cfg->stable = (int)n;
            return 0;
        }
    }
    snprintf(err, errlen, "PAPCOLL_AGREE='%s' is not 'every' or 'stable:N' (N >= 1)", v);
    return -1;
}

/* The algorithm a policy text names ("NAME" or "fixed:NAME"), -1 for a
 * policy that chooses per call, -2 for a policy papcoll refuses (why in
 * err): papcoll's own parser, so the interposer accepts what it accepts. */
static int policy_algo(papcoll_op_t op, const char *text, char *err, size_t errlen)
{
    int algo = -1;

    return papcoll_policy_check(op, text, &algo, err, errlen) == PAPCOLL_OK ? algo : -2;
}

static int read_policies(ip_config_t *cfg, char *err, size_t errlen)
{
    char valid[512], why[400];
    const char *v;
    int op;

    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        v = getenv(papcoll_op_env((papcoll_op_t)op));
        snprintf(cfg->policy[op], sizeof cfg->policy[op], "%s", v ? v : "");
        if (cfg->mode != IP_MODE_REPLACE || v == NULL || *v == '\0' ||
            policy_algo((papcoll_op_t)op, v, why, sizeof why) != -2)
            continue;
        snprintf(err, errlen, "%s='%s': %s (valid: %s, rules:FILE, auto[:RATIO])", papcoll_op_env((papcoll_op_t)op),
                 v, why, papcoll_algo_list((papcoll_op_t)op, valid, sizeof valid));
        return -1;
    }
    return 0;
}

int ip_config_read(ip_config_t *cfg, char *err, size_t errlen)
{
    const char *mode = getenv("PAPCOLL_MODE"), *trace = getenv("PAPCOLL_TRACE");

    memset(cfg, 0, sizeof *cfg);
    cfg->mode = IP_MODE_TRACE;
    if (mode != NULL && *mode != '\0') {
        if (strcmp(mode, "trace") == 0)
            cfg->mode = IP_MODE_TRACE;
        else if (strcmp(mode, "replace") == 0)
            cfg->mode = IP_MODE_REPLACE;
        else if (strcmp(mode, "off") == 0)
            cfg->mode = IP_MODE_OFF;
        else {
            snprintf(err, errlen, "PAPCOLL_MODE='%s' is not trace, replace or off", mode);
            return -1;
        }
    }
    if (trace != NULL && *trace != '\0')
        snprintf(cfg->trace, sizeof cfg->trace, "%s", trace);
    else if (cfg->mode == IP_MODE_TRACE)
        snprintf(cfg->trace, sizeof cfg->trace, "papcoll-trace.h5");
    if (cfg->mode != IP_MODE_OFF && strlen(cfg->trace) + 1 >= sizeof cfg->trace) {
        snprintf(err, errlen, "PAPCOLL_TRACE is longer than %zu characters", sizeof cfg->trace - 2);
        return -1;
    }
    if (env_int("PAPCOLL_SITE_DEPTH", 1, 0, IP_MAX_DEPTH, &cfg->depth, err, errlen) ||
        env_int("PAPCOLL_TRACE_FLUSH", 256, 1, 1 << 20, &cfg->flush, err, errlen) ||
        env_int("PAPCOLL_MIN_RANKS", 2, 1, 1 << 30, &cfg->min_ranks, err, errlen) ||
        env_int("PAPCOLL_MAX_SITES", 64, 1, 4096, &cfg->max_sites, err, errlen) ||
        read_site_id(cfg, err, errlen) || read_agree(cfg, err, errlen) || read_policies(cfg, err, errlen))
        return -1;
    return 0;
}

/* FNV-1a over the configuration's bytes (it was zeroed before filling). */
static uint64_t config_hash(const ip_config_t *cfg)
{
    const unsigned char *p = (const unsigned char *)cfg;
    uint64_t h = 1469598103934665603ull;
    size_t i;

    for (i = 0; i < sizeof *cfg; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/*
 * Collective over MPI_COMM_WORLD: 1 when every rank read a valid and
 * identical configuration, else 0 (then the interposer stays off: ranks
 * with different settings would take different decisions).
 */
int ip_config_agree(ip_config_t *cfg, int ok)
{
    uint64_t h = config_hash(cfg);
    unsigned long long v[3] = {h, ~h, !ok}, m[3];

    if (PMPI_Allreduce(v, m, 3, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
        return 0;
    return m[2] == 0 && m[0] == ~m[1];
}

/*
 * Replace mode: whether some op's policy (its environment variable, else
 * the op's default) may run a background algorithm, which needs
 * MPI_THREAD_MULTIPLE.  A policy of another kind than "fixed" may.  why
 * gets e.g. "gather: bsls, scatter: bsln".
 */
int ip_wants_multiple(const ip_config_t *cfg, char *why, size_t len)
{
    size_t n = 0;
    int op, a, want = 0;

    why[0] = '\0';
    if (cfg->mode != IP_MODE_REPLACE)
        return 0;
    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        const char *p = cfg->policy[op][0] ? cfg->policy[op] : papcoll_op_default((papcoll_op_t)op);

        a = policy_algo((papcoll_op_t)op, p, NULL, 0);
        if (a >= 0 && !(papcoll_algo_flags((papcoll_op_t)op, a) & PAPCOLL_F_BACKGROUND))
            continue;
        want = 1;
        if (n < len)
            n += (size_t)snprintf(why + n, len - n, "%s%s: %s", n ? ", " : "",
                                  papcoll_op_name((papcoll_op_t)op), p);
    }
    return want;
}

/* The configuration as INI text, stored in each trace file. */
void ip_config_text(const ip_config_t *cfg, const ip_comm_t *pc, char *buf, size_t len)
{
    size_t n;
    int op;

    n = (size_t)snprintf(buf, len,
                         "[papcoll_pmpi]\nmode = %s\ncommunicator = %s\nsite_depth = %d\nsite_id = %s\n"
                         "min_ranks = %d\nmax_sites = %d\nagree = ",
                         ip_mode_name(cfg->mode), pc->label, cfg->depth, cfg->by_function ? "function" : "call",
                         cfg->min_ranks, cfg->max_sites);
    if (n < len)
        n += (size_t)(cfg->stable ? snprintf(buf + n, len - n, "stable:%d\n", cfg->stable)
                                  : snprintf(buf + n, len - n, "every\n"));
    for (op = 0; op < PAPCOLL_OP_COUNT && n < len; op++)
        n += (size_t)snprintf(buf + n, len - n, "%s = %s\n", papcoll_op_env((papcoll_op_t)op),
                              cfg->mode == IP_MODE_TRACE ? "fixed:mpi (trace mode)"
                              : cfg->policy[op][0]       ? cfg->policy[op]
                                                         : "(papcoll's default)");
}
