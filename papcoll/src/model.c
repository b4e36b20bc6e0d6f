/*
 * The alpha-beta-gamma model (model.h): options, measurement, and the two
 * formulas Clairvoyant needs.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "model.h"

#define MODEL_TAG 77 /* on a fresh site communicator, before any call */
#define ALPHA_REPS 20
#define BETA_BLOCK (256 << 10)
#define BETA_BLOCKS 4
#define BETA_REPS 3
#define GAMMA_REPS 5
#define SHIFT_ROUNDS 20
#define SHIFT_REPS 3
#define MAX_SEGMENTS 4096 /* far above any measured optimum (Marendic Table 8: at most 245) */

int papcoll__model_parse(const char *key, const char *text, int loud, double *out)
{
    char *end;
    double v;

    *out = NAN;
    if (text == NULL || *text == '\0')
        return PAPCOLL_OK;
    v = strtod(text, &end);
    if (end != text && *end == '\0' && isfinite(v) && v >= 0) {
        *out = v;
        return PAPCOLL_OK;
    }
    if (loud)
        fprintf(stderr, "papcoll: %s '%s' is not a number >= 0 (seconds%s)\n", key, text,
                strcmp(key, "model_alpha") == 0 || strcmp(key, "model_round_alpha") == 0 ? "" : " per byte");
    return PAPCOLL_ERR_CONFIG;
}

/* Rounds of `blocks` messages of `bytes` from the lower rank of a pair to
 * the upper one and an empty reply; returns the shortest round on the lower
 * rank (0 on the upper one). */
static int rounds(MPI_Comm comm, int peer, int lower, char *buf, int bytes, int blocks, int reps,
                  double *best)
{
    int r, b, rc = MPI_SUCCESS;
    double t;

    *best = 0;
    for (r = 0; r < reps && rc == MPI_SUCCESS; r++) {
        t = PMPI_Wtime();
        for (b = 0; b < blocks && rc == MPI_SUCCESS; b++)
            rc = lower ? PMPI_Send(buf, bytes, MPI_BYTE, peer, MODEL_TAG, comm)
                       : PMPI_Recv(buf, bytes, MPI_BYTE, peer, MODEL_TAG, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = lower ? PMPI_Recv(buf, 0, MPI_BYTE, peer, MODEL_TAG, comm, MPI_STATUS_IGNORE)
                       : PMPI_Send(buf, 0, MPI_BYTE, peer, MODEL_TAG, comm);
        t = PMPI_Wtime() - t;
        if (lower && (r == 0 || t < *best))
            *best = t;
    }
    return PAPCOLL__ERR(rc);
}

/* Rounds of `blocks` exchanges of `bytes` each way with the peer (one
 * MPI_Sendrecv per block); returns the shortest round. */
static int exchanges(MPI_Comm comm, int peer, char *buf, int bytes, int blocks, int reps, double *best)
{
    int r, b, rc = MPI_SUCCESS;
    double t;

    *best = 0;
    for (r = 0; r < reps && rc == MPI_SUCCESS; r++) {
        t = PMPI_Wtime();
        for (b = 0; b < blocks && rc == MPI_SUCCESS; b++)
            rc = PMPI_Sendrecv(buf, bytes, MPI_BYTE, peer, MODEL_TAG, buf + bytes, bytes, MPI_BYTE, peer,
                               MODEL_TAG, comm, MPI_STATUS_IGNORE);
        t = PMPI_Wtime() - t;
        if (r == 0 || t < *best)
            *best = t;
    }
    return PAPCOLL__ERR(rc);
}

/* Rounds in which every rank sends an empty message to rank + 1 and
 * receives one from rank - 1, SHIFT_ROUNDS back to back; returns the
 * shortest mean round of SHIFT_REPS. */
static int shift_rounds(MPI_Comm comm, int rank, int size, char *buf, double *best)
{
    int r, k, rc = MPI_SUCCESS;
    double t;

    *best = 0;
    for (r = 0; r < SHIFT_REPS && rc == MPI_SUCCESS; r++) {
        t = PMPI_Wtime();
        for (k = 0; k < SHIFT_ROUNDS && rc == MPI_SUCCESS; k++)
            rc = PMPI_Sendrecv(buf, 0, MPI_BYTE, (rank + 1) % size, MODEL_TAG, buf, 0, MPI_BYTE,
                               (rank + size - 1) % size, MODEL_TAG, comm, MPI_STATUS_IGNORE);
        t = (PMPI_Wtime() - t) / SHIFT_ROUNDS;
        if (r == 0 || t < *best)
            *best = t;
    }
    return PAPCOLL__ERR(rc);
}

/* Seconds per byte of MPI_Reduce_local(MPI_INT, MPI_SUM), the shortest of reps. */
static int combine_time(char *buf, double *gamma)
{
    int n = BETA_BLOCK / (int)sizeof(int), r, rc = MPI_SUCCESS;
    double t, best = 0;

    memset(buf, 1, 2 * (size_t)BETA_BLOCK);
    for (r = 0; r < GAMMA_REPS && rc == MPI_SUCCESS; r++) {
        t = PMPI_Wtime();
        rc = PMPI_Reduce_local(buf, buf + BETA_BLOCK, n, MPI_INT, MPI_SUM);
        t = PMPI_Wtime() - t;
        if (r == 0 || t < best)
            best = t;
    }
    *gamma = best / BETA_BLOCK;
    return PAPCOLL__ERR(rc);
}

int papcoll__model_measure(MPI_Comm comm, papcoll__model_t *m)
{
    int rank, size, peer, lower, rc, ok;
    double t0 = PMPI_Wtime(), rt = 0, bt = 0, xt = 0, st = 0, mine[PAPCOLL__M_N + 1];
    char *buf = malloc(2 * (size_t)BETA_BLOCK);

    memset(m, 0, sizeof(*m));
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    peer = rank ^ 1;
    lower = (rank & 1) == 0;
    ok = buf != NULL; /* every rank learns whether all can measure (and starts together) */
    rc = PAPCOLL__ERR(PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm));
    if (rc == PAPCOLL_OK && !ok)
        rc = PAPCOLL_ERR_NOMEM;
    if (rc != PAPCOLL_OK) {
        free(buf);
        return rc;
    }
    if (peer < size)
        rc = rounds(comm, peer, lower, buf, 0, 1, ALPHA_REPS, &rt);
    if (rc == PAPCOLL_OK && peer < size)
        rc = rounds(comm, peer, lower, buf, BETA_BLOCK, BETA_BLOCKS, BETA_REPS, &bt);
    if (rc == PAPCOLL_OK && peer < size)
        rc = exchanges(comm, peer, buf, BETA_BLOCK, BETA_BLOCKS, BETA_REPS, &xt);
    if (rc == PAPCOLL_OK && size > 1)
        rc = shift_rounds(comm, rank, size, buf, &st);
    mine[PAPCOLL__M_ALPHA] = rt / 2;
    mine[PAPCOLL__M_BETA] = bt > rt ? (bt - rt) / ((double)BETA_BLOCK * BETA_BLOCKS) : 0;
    mine[PAPCOLL__M_XBETA] = lower && xt > rt / 2 ? (xt - rt / 2) / ((double)BETA_BLOCK * BETA_BLOCKS) : 0;
    mine[PAPCOLL__M_RALPHA] = st;
    if (rc == PAPCOLL_OK)
        rc = combine_time(buf, &mine[PAPCOLL__M_GAMMA]);
    mine[PAPCOLL__M_N] = rc != PAPCOLL_OK;
    free(buf);
    if (PMPI_Allreduce(MPI_IN_PLACE, mine, PAPCOLL__M_N + 1, MPI_DOUBLE, MPI_MAX, comm) != MPI_SUCCESS)
        return PAPCOLL_ERR_MPI;
    if (mine[PAPCOLL__M_N] != 0)
        return rc != PAPCOLL_OK ? rc : PAPCOLL_ERR_MPI;
    memcpy(m->v, mine, sizeof(m->v));
    m->measured = (1u << PAPCOLL__M_N) - 1;
    m->seconds = PMPI_Wtime() - t0;
    return PAPCOLL_OK;
}

static unsigned long long mix64(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The machine's key (collective over comm): P and every rank's processor
 * name in rank order, hashed (FNV-1a per name, mixed with the rank). */
static int cache_key(MPI_Comm comm, char key[17])
{
    char name[MPI_MAX_PROCESSOR_NAME + 1] = {0};
    unsigned long long h, all;
    int rank, size, len = 0;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    PMPI_Get_processor_name(name, &len);
    h = papcoll__fnv(0xCBF29CE484222325ull, name, (size_t)len);
    h = mix64(h ^ mix64((unsigned long long)rank));
    if (PMPI_Allreduce(&h, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_BXOR, comm) != MPI_SUCCESS)
        return PAPCOLL_ERR_MPI;
    snprintf(key, 17, "%016llx", all ^ mix64((unsigned long long)size << 32));
    return PAPCOLL_OK;
}

/* The last line "KEY alpha beta gamma xbeta ralpha" of the cache file
 * with this key (lines of another form, such as the four values before the
 * round alpha, are skipped: the model is measured again and appended). */
static int cache_read(const char *path, const char *key, double v[PAPCOLL__M_N])
{
    FILE *f = fopen(path, "r");
    char line[256], k[32], end;
    double a, b, g, x, r;
    int found = 0;

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (line[0] != '#' && sscanf(line, "%31s %lf %lf %lf %lf %lf %c", k, &a, &b, &g, &x, &r, &end) == 6 &&
            strcmp(k, key) == 0 && a >= 0 && b >= 0 && g >= 0 && x >= 0 && r >= 0) {
            v[PAPCOLL__M_ALPHA] = a, v[PAPCOLL__M_BETA] = b, v[PAPCOLL__M_GAMMA] = g, v[PAPCOLL__M_XBETA] = x;
            v[PAPCOLL__M_RALPHA] = r;
            found = 1;
        }
    fclose(f);
    return found;
}

/*
 * model_cache: rank 0 looks the machine's key up in the file and every
 * rank takes what it found (*found); collective over comm whenever rank 0
 * names a file.  After a measurement papcoll__model_ensure appends it.
 */
static int cache_lookup(papcoll_ctx_t *ctx, MPI_Comm comm, char key[17], papcoll__model_t *m, int *found)
{
    double msg[PAPCOLL__M_N + 2] = {0}; /* on, found, values */
    int rank, rc;

    *found = 0;
    PMPI_Comm_rank(comm, &rank);
    msg[0] = rank == 0 && ctx->model_cache[0] != '\0';
    if (PMPI_Bcast(msg, 1, MPI_DOUBLE, 0, comm) != MPI_SUCCESS)
        return PAPCOLL_ERR_MPI;
    if (msg[0] == 0)
        return PAPCOLL_OK;
    if ((rc = cache_key(comm, key)) != PAPCOLL_OK)
        return rc;
    if (rank == 0)
        msg[1] = cache_read(ctx->model_cache, key, msg + 2);
    if (PMPI_Bcast(msg + 1, PAPCOLL__M_N + 1, MPI_DOUBLE, 0, comm) != MPI_SUCCESS)
        return PAPCOLL_ERR_MPI;
    if ((*found = msg[1] != 0)) {
        memcpy(m->v, msg + 2, sizeof(m->v));
        m->cached = 1;
    }
    return PAPCOLL_OK;
}

static void cache_store(const papcoll_ctx_t *ctx, const char *key, const papcoll__model_t *m)
{
    FILE *f = fopen(ctx->model_cache, "a");
    int ok = f != NULL;

    if (ok) {
        ok = fprintf(f, "%s %.17g %.17g %.17g %.17g %.17g\n", key, m->v[PAPCOLL__M_ALPHA],
                     m->v[PAPCOLL__M_BETA], m->v[PAPCOLL__M_GAMMA], m->v[PAPCOLL__M_XBETA],
                     m->v[PAPCOLL__M_RALPHA]) > 0;
        ok = fclose(f) == 0 && ok;
    }
    if (!ok && !ctx->quiet)
        fprintf(stderr, "papcoll: model_cache '%s': cannot append the measured model\n", ctx->model_cache);
}

int papcoll__model_ensure(papcoll_ctx_t *ctx, MPI_Comm comm)
{
    papcoll__model_t m;
    char key[17] = "";
    int i, all = 1, rc = PAPCOLL_OK, found = 0, rank;

    if (ctx->has_model)
        return PAPCOLL_OK;
    memset(&m, 0, sizeof(m));
    for (i = 0; i < PAPCOLL__M_N; i++)
        all = all && (!isnan(ctx->model_cfg[i]) || i == PAPCOLL__M_XBETA || i == PAPCOLL__M_RALPHA);
    if (!all && (rc = cache_lookup(ctx, comm, key, &m, &found)) != PAPCOLL_OK)
        return rc;
    if (!all && !found) {
        if ((rc = papcoll__model_measure(comm, &m)) != PAPCOLL_OK)
            return rc;
        PMPI_Comm_rank(comm, &rank);
        if (rank == 0 && key[0] != '\0')
            cache_store(ctx, key, &m);
    }
    for (i = 0; i < PAPCOLL__M_N; i++)
        if (!isnan(ctx->model_cfg[i])) {
            m.v[i] = ctx->model_cfg[i];
            m.measured &= ~(1u << i);
        }
    if (all && isnan(ctx->model_cfg[PAPCOLL__M_XBETA])) /* a configured model: full duplex */
        m.v[PAPCOLL__M_XBETA] = m.v[PAPCOLL__M_BETA];
    if (all && isnan(ctx->model_cfg[PAPCOLL__M_RALPHA])) /* and a round costs a message */
        m.v[PAPCOLL__M_RALPHA] = m.v[PAPCOLL__M_ALPHA];
    ctx->model = m;
    ctx->has_model = 1;
    return PAPCOLL_OK;
}

double papcoll__model_ralpha(const papcoll__model_t *m)
{
    return m->v[PAPCOLL__M_RALPHA] > 0 ? m->v[PAPCOLL__M_RALPHA] : m->v[PAPCOLL__M_ALPHA];
}

double papcoll__model_round(const papcoll__model_t *m, double seg_bytes)
{
    return papcoll__model_ralpha(m) + seg_bytes * (m->v[PAPCOLL__M_BETA] + m->v[PAPCOLL__M_GAMMA]);
}

int papcoll__model_segments(const papcoll__model_t *m, int P, size_t bytes, int count, int max_elems)
{
    int n = 0, least;
    double bg = m->v[PAPCOLL__M_BETA] + m->v[PAPCOLL__M_GAMMA], a = papcoll__model_ralpha(m), N;

    while ((1LL << n) < P)
        n++;
    if (count < 1 || n <= 1)
        return 1; /* no pipeline depth: one segment */
    if (a <= 0)
        N = MAX_SEGMENTS; /* free messages: no finite optimum */
    else
        N = floor(sqrt((n - 1) * (double)bytes * bg / a) + 0.5);
    N = N > MAX_SEGMENTS ? MAX_SEGMENTS : N < 1 ? 1 : N;
    least = max_elems > 0 ? (count - 1) / max_elems + 1 : 1; /* then ceil(count / N) <= max_elems */
    N = N < least ? least : N;
    return N > count ? count : (int)N;
}

double papcoll__model_density(const double *x, int n, int stride)
{
    double mx = 0;
    int i;

    for (i = 0; i < n; i++)
        if (x[(size_t)i * stride] > 0 && x[(size_t)i * stride] <= 1) /* NaN fails both */
            mx = fmax(mx, x[(size_t)i * stride]);
    return mx > 0 ? ceil(mx * PAPCOLL__DENSITY_STEPS) / PAPCOLL__DENSITY_STEPS : 1;
}

/* The dense bytes whose encoding fits seg_bytes (0: no limit), at most INT_MAX. */
static int sparse_cap(double density, size_t seg_bytes)
{
    double dens = density > 0 && density <= 1 ? density : 1;
    double cap = seg_bytes > 0 ? floor((double)seg_bytes / dens) : 0;

    return cap > INT_MAX ? INT_MAX : (int)cap;
}

int papcoll__model_sparse_segments(const papcoll__model_t *m, int P, size_t bytes, double density,
                                   size_t seg_bytes)
{
    return papcoll__model_segments(m, P, bytes, bytes > INT_MAX ? INT_MAX : (int)bytes,
                                   sparse_cap(density, seg_bytes));
}
