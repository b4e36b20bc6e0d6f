/*
 * PAT predictors (see predict.h).  Pure functions of exchanged data.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papcoll.h"
#include "predict.h"

static int parse_tail(const char *s, double *out)
{
    char *end;

    if (*s == '\0')
        return -1;
    *out = strtod(s, &end);
    return (*end != '\0' || !isfinite(*out)) ? -1 : 0;
}

int papcoll__pred_parse(const char *text, papcoll__predspec_t *spec)
{
    double x;

    memset(spec, 0, sizeof(*spec));
    if (text == NULL)
        return PAPCOLL_ERR_PREDICTOR;
    if (strcmp(text, "edge") == 0) {
        spec->kind = PAPCOLL__PRED_EDGE;
        return PAPCOLL_OK;
    }
    if (strcmp(text, "last") == 0) {
        spec->kind = PAPCOLL__PRED_LAST;
        return PAPCOLL_OK;
    }
    if (strncmp(text, "sma:", 4) == 0) {
        if (parse_tail(text + 4, &x) || x < 1 || x > 1024 || x != floor(x))
            return PAPCOLL_ERR_PREDICTOR;
        spec->kind = PAPCOLL__PRED_SMA;
        spec->k = (int)x;
        return PAPCOLL_OK;
    }
    if (strncmp(text, "ewma:", 5) == 0) {
        if (parse_tail(text + 5, &x) || !(x > 0 && x <= 1))
            return PAPCOLL_ERR_PREDICTOR;
        spec->kind = PAPCOLL__PRED_EWMA;
        spec->alpha = x;
        return PAPCOLL_OK;
    }
    return PAPCOLL_ERR_PREDICTOR;
}

void papcoll__pred_format(const papcoll__predspec_t *spec, char *buf, int len)
{
    switch (spec->kind) {
    case PAPCOLL__PRED_EDGE: snprintf(buf, (size_t)len, "edge"); break;
    case PAPCOLL__PRED_LAST: snprintf(buf, (size_t)len, "last"); break;
    case PAPCOLL__PRED_SMA: snprintf(buf, (size_t)len, "sma:%d", spec->k); break;
    case PAPCOLL__PRED_EWMA: snprintf(buf, (size_t)len, "ewma:%.17g", spec->alpha); break;
    }
}

int papcoll__pred_init(papcoll__predictor_t *p, const papcoll__predspec_t *spec, int P)
{
    memset(p, 0, sizeof(*p));
    p->spec = *spec;
    p->P = P;
    p->cap = spec->kind == PAPCOLL__PRED_SMA ? spec->k : 1;
    p->hist = calloc((size_t)p->cap * (size_t)P, sizeof(double));
    p->ewma = calloc((size_t)P, sizeof(double));
    p->tmp = calloc((size_t)P, sizeof(double));
    p->err = calloc((size_t)P, sizeof(double));
    if (p->hist == NULL || p->ewma == NULL || p->tmp == NULL || p->err == NULL) {
        papcoll__pred_free(p);
        return PAPCOLL_ERR_NOMEM;
    }
    return PAPCOLL_OK;
}

void papcoll__pred_free(papcoll__predictor_t *p)
{
    free(p->hist);
    free(p->ewma);
    free(p->tmp);
    free(p->err);
    p->hist = p->ewma = p->tmp = p->err = NULL;
}

/* Offsets x - min(x) over finite entries; returns 0 when none is finite. */
static int to_offsets(int P, const double *x, double *out)
{
    double lo = INFINITY;
    int i, n = 0;

    for (i = 0; i < P; i++)
        if (isfinite(x[i]) && x[i] < lo)
            lo = x[i];
    for (i = 0; i < P; i++) {
        out[i] = isfinite(x[i]) ? x[i] - lo : NAN;
        n += isfinite(x[i]);
    }
    return n;
}

void papcoll__pred_observe(papcoll__predictor_t *p, const double *arrival)
{
    double *row = p->hist + (size_t)p->head * (size_t)p->P;
    int i;

    /* Into scratch first: with one row of history, head is also the newest
     * row, which an incomplete iteration must not overwrite. */
    if (to_offsets(p->P, arrival, p->tmp) != p->P)
        return;
    for (i = 0; i < p->P; i++)
        row[i] = p->tmp[i];
    for (i = 0; i < p->P; i++)
        p->ewma[i] = p->nhist == 0 ? row[i]
                                   : p->spec.alpha * row[i] + (1 - p->spec.alpha) * p->ewma[i];
    p->head = (p->head + 1) % p->cap;
    if (p->nhist < p->cap)
        p->nhist++;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;

    return (a > b) - (a < b);
}

void papcoll__pred_score(papcoll__predictor_t *p, const double *pred, const double *arrival)
{
    double lo = INFINITY, elo = INFINITY, ehi = -INFINITY, e;
    int P = p->P, i;

    if (to_offsets(P, arrival, p->err) != P)
        return;
    for (i = 0; i < P; i++) {
        if (!isfinite(pred[i]))
            return;
        lo = pred[i] < lo ? pred[i] : lo;
    }
    for (i = 0; i < P; i++) {
        e = p->err[i] - (pred[i] - lo);
        elo = e < elo ? e : elo;
        ehi = e > ehi ? e : ehi;
    }
    p->spread[p->hspread] = ehi - elo;
    p->hspread = (p->hspread + 1) % PAPCOLL__PRED_NOISE_K;
    if (p->nspread < PAPCOLL__PRED_NOISE_K)
        p->nspread++;
}

double papcoll__pred_noise(const papcoll__predictor_t *p)
{
    double s[PAPCOLL__PRED_NOISE_K];
    int n = p->nspread;

    if (n == 0)
        return 0;
    memcpy(s, p->spread, (size_t)n * sizeof(double));
    qsort(s, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* History prediction of rank i (the newest row for edge/last). */
static double from_history(const papcoll__predictor_t *p, int i)
{
    int newest = (p->head + p->cap - 1) % p->cap, j;
    double s = 0;

    switch (p->spec.kind) {
    case PAPCOLL__PRED_SMA:
        for (j = 0; j < p->nhist; j++)
            s += p->hist[(size_t)j * (size_t)p->P + (size_t)i];
        return s / p->nhist;
    case PAPCOLL__PRED_EWMA:
        return p->ewma[i];
    default:
        return p->hist[(size_t)newest * (size_t)p->P + (size_t)i];
    }
}

void papcoll__pred_predict(const papcoll__predictor_t *p, const double *est, double *out)
{
    int i, n_est = 0;

    if (est != NULL)
        n_est = to_offsets(p->P, est, out);
    if (p->spec.kind != PAPCOLL__PRED_EDGE && p->nhist > 0)
        n_est = 0; /* history predictors ignore the edge once they have data */
    for (i = 0; i < p->P; i++) {
        if (n_est > 0 && !isnan(out[i]))
            continue;
        out[i] = p->nhist > 0 ? from_history(p, i) : 0.0;
    }
}
