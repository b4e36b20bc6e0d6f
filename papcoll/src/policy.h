/*
 * The data-dependent selection policies (policy.c): rules tables, the
 * alpha-beta-gamma cost of each algorithm, the PAP-informed auto choice and
 * the online tuner with its change-point detector.  Pure: no MPI, no
 * clock; every input is a number all ranks share (the signature, P, the
 * model, values from the PAT exchange), so every rank computes the same
 * choice (docs/policies.md).  Not installed.
 */
#ifndef PAPCOLL_POLICY_H
#define PAPCOLL_POLICY_H

#include <stddef.h>

#include "papcoll.h"

/* ---- inputs of one decision, all shared by every rank ---------------- */
typedef struct {
    int P;
    double bytes;              /* the signature's packed bytes */
    int commutative;           /* reductions: the op commutes */
    int has_monitor;           /* the context has monitor threads */
    double alpha, beta, gamma; /* the context's model (s, s/B, s/B) */
    double xbeta;              /* per byte each way of an exchange with one peer (NaN or 0: beta) */
    double ralpha;             /* the round alpha: a round in which every rank sends and receives at
                                  once (s; NaN or 0: alpha) */
    double seg;                /* segment bytes of SEGMENTED algorithms */
    int root;                  /* the call's root (-1: none) */
    const double *pred;        /* [P] predicted arrival offsets (s); NULL: none */
    double spread;             /* max - min of pred (s); NaN: none */
    double lag_noise;          /* how far such a prediction misses the next call: the median range over
                                  ranks of (arrival - predicted offset), recent calls (s); NaN: unknown */
    double noise;              /* how far predictions miss the call they were made for (the predictor's
                                  noise, papcoll__pred_noise; s); 0: none */
    double last_runtime;       /* the observed call: max exit - min arrival (s); NaN: none */
    double last_spread;        /* the observed call: max - min arrival (s); NaN: none */
    int last_algo;             /* the observed call's algorithm (-1: none) */
    int lag;                   /* calls from the observed one to this one (1 or 2) */
} papcoll__pin_t;

/* Whether algo serves the call as it is (restrictions, background). */
typedef int (*papcoll__eligible_fn)(papcoll_op_t op, int algo, void *arg);

/* The predicted imbalance the policies act on: the spread less the
 * predictor's noise, at least 0 (NaN: no prediction).  A spread within the
 * noise is what a balanced call looks like to this predictor (Clairvoyant's
 * planner treats such arrivals as one group, papcoll__cv_cluster). */
double papcoll__imbalance(const papcoll__pin_t *in);

/* ---- cost model ------------------------------------------------------- */
/* Modelled time of algo on balanced arrivals (s); NaN: the model has no
 * formula for algo (auto never picks it; rules and tune may). */
double papcoll__cost(papcoll_op_t op, int algo, const papcoll__pin_t *in);
/* The PAP-aware counterpart of a base algorithm on P ranks (-1: none); bg:
 * prefer the variant with a background part. */
int papcoll__sorted_of(papcoll_op_t op, int base, int commutative, int bg, int P);

/* ---- rules ------------------------------------------------------------ */
#define PAPCOLL__RULES_MAX 64
typedef struct {
    int op;          /* papcoll_op_t */
    double plo, phi; /* P range, inclusive */
    double blo, bhi; /* bytes range, inclusive */
    double rlo, rhi; /* imbalance ratio: rlo <= r < rhi */
    int algo;
    int line;
} papcoll__rule_t;
typedef struct {
    papcoll__rule_t r[PAPCOLL__RULES_MAX];
    int n;
    unsigned long long hash; /* FNV-1a of the file's bytes */
} papcoll__rules_t;

/* Parses a rules text (name: for errors); PAPCOLL_ERR_POLICY with
 * "FILE:LINE: why" in err, or PAPCOLL_ERR_ALGO for an unknown algorithm. */
int papcoll__rules_parse(const char *text, const char *name, papcoll__rules_t *out, char *err, size_t errlen);
/* Reads and parses a file. */
int papcoll__rules_load(const char *path, papcoll__rules_t *out, char *err, size_t errlen);
/* Index of the first rule that matches (-1: none); ratio NaN matches only
 * rules whose ratio range is "*". */
int papcoll__rules_match(const papcoll__rules_t *t, papcoll_op_t op, int P, double bytes, double ratio);

/* ---- auto --------------------------------------------------------------- */
typedef struct {
    double ratio; /* spread / modelled base time at which the sorted variant wins (default 0.25) */
} papcoll__auto_cfg_t;
typedef struct {
    int algo;
    int base;      /* cheapest costed algorithm on balanced arrivals */
    double t_base; /* its modelled time (s) */
    double ratio;  /* spread / t_base (NaN: no prediction) */
    double gain;   /* predicted gain of algo over base under the predicted PAT (s) */
    const char *why; /* the reason for algo, a static string */
} papcoll__auto_out_t;
void papcoll__auto_choose(papcoll_op_t op, const papcoll__pin_t *in, const papcoll__auto_cfg_t *cfg,
                          papcoll__eligible_fn ok, void *arg, papcoll__auto_out_t *out);
/* The modelled collective time used by rules' ratio: auto's t_base. */
double papcoll__model_time(papcoll_op_t op, const papcoll__pin_t *in, papcoll__eligible_fn ok, void *arg,
                           int *base);

/* ---- Page-Hinkley change-point detector ----------------------------------- *
 * Two-sided, scale-free and robust to outliers: the first min_n samples,
 * each clipped to 3 scaled median absolute deviations of their median,
 * give the starting mean and the noise's standard deviation s (at least
 * floor); then the cumulative deviations from the running mean, each
 * clipped to +-clip s and less delta s, alarm beyond lambda s.
 * A change of k s is found after about lambda / (min(k, clip) - delta)
 * samples; a lone outlier moves a sum by at most (clip - delta) s, so
 * fewer than lambda / (clip - delta) of them in a row raise no alarm
 * (docs/policies.md, "tune"). */
#define PAPCOLL__PH_MAXN 16
typedef struct {
    double delta;  /* change tolerated, in units of s */
    double lambda; /* alarm threshold, in units of s */
    double clip;   /* largest deviation counted, in units of s (0: none) */
    double floor;  /* smallest s (units of x) */
    int min_n;     /* samples that estimate s (<= PAPCOLL__PH_MAXN); no alarm before */
    int n;
    double first[PAPCOLL__PH_MAXN];
    double mean, s, up, up_min, dn, dn_max;
} papcoll__ph_t;
void papcoll__ph_reset(papcoll__ph_t *ph);
/* Adds a sample; returns 1 on a change point (and resets). */
int papcoll__ph_add(papcoll__ph_t *ph, double x);

/* ---- tune ---------------------------------------------------------------- */
#define PAPCOLL__TUNE_MAXC 24
#define PAPCOLL__TUNE_WIN 8
typedef enum { PAPCOLL__TUNE_EXPLORE, PAPCOLL__TUNE_EXPLOIT } papcoll__tune_phase_t;
typedef struct {
    int explore_calls; /* runs of each candidate per exploration (default 1) */
    int period;        /* exploit calls before a periodic re-exploration (default 500) */
    int window;        /* samples of the median (<= PAPCOLL__TUNE_WIN, default 5) */
} papcoll__tune_cfg_t;
typedef struct {
    papcoll__tune_cfg_t cfg;
    papcoll__ph_t ph;
    int cand[PAPCOLL__TUNE_MAXC];
    int nc;
    double t[PAPCOLL__TUNE_MAXC][PAPCOLL__TUNE_WIN]; /* recent run times per candidate (ring) */
    int nt[PAPCOLL__TUNE_MAXC];                      /* samples held */
    int pos[PAPCOLL__TUNE_MAXC];                     /* ring position */
    papcoll__tune_phase_t phase;
    int step;         /* exploration: calls made in this exploration */
    int since;        /* exploitation: calls since it started */
    int best;         /* exploited candidate (index into cand): the smallest median */
    int extra;        /* calls the exploration in progress adds to explore_calls nc (papcoll__tune_first) */
    int explorations; /* explorations started (the first included) */
    int why;          /* 0 start, 1 period, 2 change point */
    double ref;       /* run time median of the best when exploitation started */
} papcoll__tune_t;
/* Regimes tune keeps apart: balanced (predicted spread below ratio times
 * the modelled collective time t_model, or no prediction), imbalanced
 * with the root among the early half of the spread (or no root), and
 * imbalanced with the root late. */
#define PAPCOLL__REGIME_RATIO 0.25 /* tune's ratio: auto's default */
enum { PAPCOLL__REGIME_BALANCED, PAPCOLL__REGIME_ROOT_EARLY, PAPCOLL__REGIME_ROOT_LATE, PAPCOLL__REGIMES };
int papcoll__regime(const papcoll__pin_t *in, double t_model, double ratio);
/* 1 when the observed call's own spread (less the noise) puts it in the
 * class of regime r, balanced or imbalanced; 0 when not, e.g. the first
 * calls of a phase, decided on a prediction that still shows the phase
 * before.  Such a call still counts as a sample, but feeds no detector. */
int papcoll__regime_agrees(const papcoll__pin_t *in, double t_model, double ratio, int r);
/* Tune's candidates for a call like in, in algos.def order: the
 * algorithms ok() accepts, but those whose balanced cost (papcoll__cost;
 * for treedyn where it does not stream, and noncommut_treedyn on a
 * commutative operation, the pairing tree of whole values) exceeds 1.5
 * times the cheapest one's; an algorithm without a formula (the MPI
 * library's, streamed treedyn, the background gathers) stays.  Returns
 * their number (at most PAPCOLL__TUNE_MAXC).  Pure. */
int papcoll__tune_candidates(papcoll_op_t op, const papcoll__pin_t *in, papcoll__eligible_fn ok, void *arg,
                             int *cand);
void papcoll__tune_init(papcoll__tune_t *t, const papcoll__tune_cfg_t *cfg, const int *cand, int nc);
/* The site's first exploration, where every candidate is cold (its first
 * call at the site builds its plan, touches its buffers and opens its
 * peers' connections: 20-75 % slower than its next calls on the emulated
 * cluster): it runs each candidate once more, nc calls beyond
 * papcoll__tune_cost's explore_calls nc, so that each has a sample besides
 * its dropped first one (papcoll__tune_warm). */
void papcoll__tune_first(papcoll__tune_t *t);
/* The run time tune takes from an observed call of algo: NaN (no sample)
 * for the first call of each of t's candidates at the site, whose bit in
 * *warm (one per candidate index, shared by the site's regimes) it then
 * sets; runtime otherwise. */
double papcoll__tune_warm(unsigned *warm, const papcoll__tune_t *t, int algo, double runtime);
/* The observation of the previous call (its algorithm, run time, arrival
 * spread; NaN: the change-point detector skips it), from exchanged data. */
void papcoll__tune_observe(papcoll__tune_t *t, int algo, double runtime, double spread);
/* The algorithm of the next call (an index of cand's values). */
int papcoll__tune_next(const papcoll__tune_t *t);
/* Calls the exploration in progress costs: explore_calls * nc, plus nc for
 * the site's first (papcoll__tune_first). */
int papcoll__tune_cost(const papcoll__tune_t *t);
/* Median of the recent run times of candidate k (NaN: none). */
double papcoll__tune_median(const papcoll__tune_t *t, int k);

#endif
