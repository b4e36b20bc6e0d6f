/* The data policies (policy.c): rules tables, the alpha-beta-gamma cost of each algorithm (algos.def's
 * cost column) and auto's choice.  Pure: every input is a number all ranks share, so every rank chooses
 * the same algorithm (docs/policies.md).  Not installed. */
#ifndef PAPCOLL_POLICY_H
#define PAPCOLL_POLICY_H

#include <stddef.h>

#include "papcoll.h"

/* The inputs of one decision, all shared by every rank. */
typedef struct {
    int P;
    int has_monitor;           /* the context has monitor threads */
    int data;                  /* 0: no exchanged values yet (data policies run the op's baseline) */
    double bytes;              /* the signature's packed bytes */
    int commutative;           /* reductions: the op commutes */
    double alpha, beta, gamma; /* the context's model (s, s/B, s/B) */
    double xbeta;              /* per byte each way of an exchange with one peer (NaN or 0: beta) */
    double ralpha;      /* a round in which every rank sends and receives at once (s; NaN or 0: alpha) */
    double seg;         /* segment bytes of SEGMENTED algorithms */
    int root;           /* the call's root (-1: none) */
    const double *pred; /* [P] predicted arrival offsets (s); NULL: none */
    double spread;      /* max - min of pred (s); NaN: none */
    double lag_noise;   /* how far predictions miss the next call (s, recent median); NaN: unknown */
    double noise;       /* how far predictions miss the call they were made for (s); 0: none */
} papcoll__pin_t;

/* Whether algo serves the call as it is (restrictions, background). */
typedef int (*papcoll__eligible_fn)(papcoll_op_t op, int algo, void *arg);

/* The spread less the predictor's noise, at least 0 (NaN: no prediction). */
double papcoll__imbalance(const papcoll__pin_t *in);
/* Modelled time on balanced arrivals (s); NaN: cost column NONE. */
double papcoll__cost(papcoll_op_t op, int algo, const papcoll__pin_t *in);
/* The cheapest costed foreground algorithm ok() accepts (*base; -1: none) and its time.  One that plans
 * from the prediction (NEEDS_PAT: Clairvoyant) must be cheaper than the best other by more than 5 %, as the
 * model prices neither its wait for the plan nor its rounds against a data-driven tree (docs/policies.md);
 * *planner: one so passed over (-1: none). */
double papcoll__model_time(papcoll_op_t op, const papcoll__pin_t *in, papcoll__eligible_fn ok, void *arg,
                           int *base, int *planner);

#define PAPCOLL__RULES_MAX 64
typedef struct {
    int op;          /* papcoll_op_t */
    double plo, phi; /* P, inclusive */
    double blo, bhi; /* bytes, inclusive */
    double rlo, rhi; /* imbalance ratio: rlo <= r < rhi */
    int algo, line;
} papcoll__rule_t;
typedef struct {
    papcoll__rule_t r[PAPCOLL__RULES_MAX];
    int n;
    unsigned long long hash; /* FNV-1a of the text */
} papcoll__rules_t;

/* PAPCOLL_ERR_POLICY with "NAME:LINE: why" in err, or PAPCOLL_ERR_ALGO for an unknown algorithm. */
int papcoll__rules_parse(const char *text, const char *name, papcoll__rules_t *out, char *err, size_t errlen);
int papcoll__rules_load(const char *path, papcoll__rules_t *out, char *err, size_t errlen);
/* The first matching rule (-1: none); ratio NaN matches only ratio "*". */
int papcoll__rules_match(const papcoll__rules_t *t, papcoll_op_t op, int P, double bytes, double ratio);

typedef struct {
    int algo, base;  /* base: the cheapest costed algorithm on balanced arrivals */
    double t_base;   /* its modelled time (s) */
    double ratio;    /* imbalance / t_base (NaN: no prediction) */
    double gain;     /* predicted gain of algo over base under the predicted PAT (s) */
    const char *why; /* a static string */
} papcoll__auto_out_t;
/* threshold: the imbalance / base time from which the PAP-aware counterpart may win (auto:RATIO). */
void papcoll__auto_choose(papcoll_op_t op, const papcoll__pin_t *in, double threshold,
                          papcoll__eligible_fn ok, void *arg, papcoll__auto_out_t *out);

#endif
