/*
 * PAT predictors: pure functions over exchanged bytes (no MPI, no clocks),
 * so every rank computes the same prediction (DESIGN invariant 1).
 *
 * All predictions are arrival *offsets*: a rank's arrival minus the earliest
 * arrival of the same iteration.  Only their order feeds the plans.
 *
 *   edge      this iteration's edge estimates; ranks without one use "last"
 *   last      the offsets measured in the previous iteration
 *   sma:K     mean of the last K measured offsets (K >= 1)
 *   ewma:A    exponentially weighted mean, weight A in (0, 1] on the newest
 *
 * History predictors without history fall back to the edge estimates, and
 * with neither every offset is 0 (rank order).
 *
 * Noise: each observed iteration also scores the prediction made for it.
 * Its error spread is the range of (measured - predicted offset) over the
 * ranks: how far apart two ranks' errors can be, so a predicted difference
 * between two ranks smaller than it may be the error alone.  The noise is
 * the median of the last PAPCOLL__PRED_NOISE_K spreads (0 before the
 * first), so one iteration with a stalled rank does not make it large.
 */
#ifndef PAPCOLL_PREDICT_H
#define PAPCOLL_PREDICT_H

typedef enum {
    PAPCOLL__PRED_EDGE,
    PAPCOLL__PRED_LAST,
    PAPCOLL__PRED_SMA,
    PAPCOLL__PRED_EWMA
} papcoll__pred_kind_t;

typedef struct {
    papcoll__pred_kind_t kind;
    int k;        /* sma window */
    double alpha; /* ewma weight */
} papcoll__predspec_t;

#define PAPCOLL__PRED_NOISE_K 5

typedef struct {
    papcoll__predspec_t spec;
    int P;
    int cap;       /* history rows kept (k for sma, 1 otherwise) */
    int nhist;     /* rows filled, <= cap */
    int head;      /* next row to overwrite */
    double *hist;  /* cap x P offsets */
    double *ewma;  /* P smoothed offsets */
    double *tmp;   /* P offsets of the iteration being observed */
    double *err;   /* P errors of the iteration being scored */
    double spread[PAPCOLL__PRED_NOISE_K]; /* the last error spreads, a ring */
    int nspread, hspread;
} papcoll__predictor_t;

/* Parses "edge", "last", "sma:K", "ewma:A"; 0 or PAPCOLL_ERR_PREDICTOR. */
int papcoll__pred_parse(const char *text, papcoll__predspec_t *spec);

/* Canonical text of a spec into buf (at least 32 bytes). */
void papcoll__pred_format(const papcoll__predspec_t *spec, char *buf, int len);

int papcoll__pred_init(papcoll__predictor_t *p, const papcoll__predspec_t *spec, int P);
void papcoll__pred_free(papcoll__predictor_t *p);

/* Feeds one iteration's measured arrivals (absolute, NaN = unknown); an
 * iteration with any unknown arrival is ignored. */
void papcoll__pred_observe(papcoll__predictor_t *p, const double *arrival);

/* Scores the prediction pred[P] (offsets) made for an iteration whose
 * arrivals (absolute, NaN = unknown) are now known; an iteration with any
 * unknown arrival or prediction is ignored. */
void papcoll__pred_score(papcoll__predictor_t *p, const double *pred, const double *arrival);

/* The noise of the recent predictions, seconds (0: none scored yet). */
double papcoll__pred_noise(const papcoll__predictor_t *p);

/* Predicted offsets into out[P]; est[P] are this iteration's edge estimates
 * (absolute, NaN = none) or NULL. */
void papcoll__pred_predict(const papcoll__predictor_t *p, const double *est, double *out);

#endif
