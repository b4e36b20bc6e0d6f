/*
 * Selection: the algorithm of each call (select.h).  Pure: the policy, the
 * signature, P, whether there are monitor threads and (data-dependent
 * policies) exchanged values decide, so every rank selects the same
 * algorithm (DESIGN invariant 1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "select.h"

/* "auto[:RATIO]", "tune[:EXPLORE[,PERIOD]]": the parameters. */
static int parse_params(const char *p, papcoll__policy_t *out)
{
    char *end;

    if (out->kind == PAPCOLL__POLICY_AUTO) {
        out->acfg.ratio = 0.25;
        if (*p == '\0')
            return 0;
        out->acfg.ratio = strtod(p, &end);
        return *end == '\0' && out->acfg.ratio >= 0 ? 0 : -1;
    }
    out->tcfg = (papcoll__tune_cfg_t){1, 500, 5};
    if (*p == '\0')
        return 0;
    out->tcfg.explore_calls = (int)strtol(p, &end, 10);
    if (*end == ',')
        out->tcfg.period = (int)strtol(end + 1, &end, 10);
    return *end == '\0' && out->tcfg.explore_calls >= 1 && out->tcfg.explore_calls <= PAPCOLL__TUNE_WIN &&
                   out->tcfg.period >= 0
               ? 0
               : -1;
}

static int parse_data(papcoll_op_t op, const char *text, papcoll__policy_t *out)
{
    const char *p;
    int rc;

    out->algo = 0; /* the op's baseline, until exchanged data exists */
    if (strncmp(text, "rules:", 6) == 0) {
        out->kind = PAPCOLL__POLICY_RULES;
        if ((rc = papcoll__rules_load(text + 6, &out->rules, out->err, sizeof out->err)) != PAPCOLL_OK)
            return rc;
        snprintf(out->text, sizeof out->text, "%s", text);
        return (void)op, PAPCOLL_OK;
    }
    out->kind = strncmp(text, "auto", 4) == 0 ? PAPCOLL__POLICY_AUTO : PAPCOLL__POLICY_TUNE;
    p = text + 4;
    if (*p == ':')
        p++;
    else if (*p != '\0' || (p[-1] != ':' && 0))
        return PAPCOLL_ERR_POLICY;
    if (parse_params(p, out) != 0) {
        snprintf(out->err, sizeof out->err,
                 "policy '%s': bad parameters (auto[:RATIO], tune[:EXPLORE[,PERIOD]])", text);
        return PAPCOLL_ERR_POLICY;
    }
    snprintf(out->text, sizeof out->text, "%s", text);
    return PAPCOLL_OK;
}

int papcoll__policy_parse(papcoll_op_t op, const char *text, papcoll__policy_t *out)
{
    const char *name = text;
    int i;

    if (text == NULL)
        return PAPCOLL_ERR_POLICY;
    memset(out, 0, sizeof(*out));
    if (strncmp(text, "rules:", 6) == 0 || strncmp(text, "auto", 4) == 0 || strncmp(text, "tune", 4) == 0) {
        if (papcoll_algo_find(op, text) < 0 &&
            (strchr(text, ':') || !strcmp(text, "auto") || !strcmp(text, "tune")))
            return parse_data(op, text, out);
    }
    if (strncmp(text, "fixed:", 6) == 0)
        name = text + 6;
    else if (strchr(text, ':') != NULL) {
        snprintf(out->err, sizeof out->err, "unknown policy '%s' (fixed:NAME, NAME, rules:FILE, auto, tune)",
                 text);
        return PAPCOLL_ERR_POLICY;
    }
    if ((i = papcoll_algo_find(op, name)) < 0)
        return PAPCOLL_ERR_ALGO;
    out->kind = PAPCOLL__POLICY_FIXED;
    out->algo = i;
    snprintf(out->text, sizeof(out->text), "fixed:%s", papcoll_algo_name(op, i));
    return PAPCOLL_OK;
}

int papcoll__policy_uses_data(const papcoll__policy_t *policy)
{
    return policy->kind != PAPCOLL__POLICY_FIXED;
}

/* Appends "; NAME cannot: WHY, runs FALLBACK" to the reason. */
static void note_fallback(papcoll_op_t op, int from, int to, papcoll__why_t why, papcoll__selection_t *s)
{
    size_t n = strlen(s->reason);

    snprintf(s->reason + n, sizeof(s->reason) - n, "; %s %s: runs %s", papcoll_algo_name(op, from),
             papcoll__why_text(why), papcoll_algo_name(op, to));
}

/* The fallback chain from algo (the policy's choice) into out->algo. */
static void restrict_chain(papcoll_op_t op, int algo, const papcoll__sig_t *sig, int P, int has_monitor,
                           papcoll__selection_t *out)
{
    int steps, next;
    papcoll__why_t why;

    out->fell_back = 0;
    /* Every chain ends at an algorithm that serves every call; the bound
     * only guards against a cycle in algos.def (the matrix checks there is none). */
    for (steps = 0; steps < 16; steps++) {
        why = papcoll__algo_check(op, algo, sig, P, has_monitor);
        if (why == PAPCOLL__WHY_OK)
            break;
        next = papcoll__algo_fallback_of(op, algo);
        note_fallback(op, algo, next, why, out);
        out->fell_back = 1;
        algo = next;
    }
    out->algo = algo;
}

void papcoll__select(const papcoll__policy_t *policy, papcoll_op_t op, const papcoll__sig_t *sig, int P,
                     int has_monitor, papcoll__selection_t *out)
{
    out->detail[0] = '\0';
    if (policy->kind == PAPCOLL__POLICY_FIXED)
        snprintf(out->reason, sizeof(out->reason), "policy %.96s", policy->text);
    else
        snprintf(out->reason, sizeof(out->reason), "policy %.96s: no exchanged data yet, runs %s",
                 policy->text, papcoll_algo_name(op, policy->algo));
    restrict_chain(op, policy->algo, sig, P, has_monitor, out);
}

typedef struct {
    const papcoll__sig_t *sig;
    int P, has_monitor;
} elig_t;

static int eligible(papcoll_op_t op, int algo, void *arg)
{
    const elig_t *e = arg;

    return papcoll__algo_check(op, algo, e->sig, e->P, e->has_monitor) == PAPCOLL__WHY_OK;
}

static int choose_rules(const papcoll__policy_t *p, papcoll_op_t op, const papcoll__pin_t *in, elig_t *e,
                        papcoll__selection_t *out)
{
    int base, k;
    double t = papcoll__model_time(op, in, eligible, e, &base);
    double imb = papcoll__imbalance(in), ratio = isnan(imb) || isnan(t) ? NAN : (t > 0 ? imb / t : INFINITY);

    k = papcoll__rules_match(&p->rules, op, in->P, in->bytes, ratio);
    snprintf(out->detail, sizeof out->detail,
             "policy=rules P=%d bytes=%.0f spread=%.3g noise=%.3g model=%.3g ratio=%.3g rule=%.60s:%d", in->P,
             in->bytes, in->spread, in->noise, t, ratio, k < 0 ? "none" : p->text + 6,
             k < 0 ? 0 : p->rules.r[k].line);
    if (k < 0) {
        snprintf(out->reason, sizeof out->reason, "policy %.96s: no rule matched, runs %s", p->text,
                 papcoll_algo_name(op, p->algo));
        return p->algo;
    }
    snprintf(out->reason, sizeof out->reason, "policy %.96s: line %d", p->text, p->rules.r[k].line);
    return p->rules.r[k].algo;
}

static int choose_auto(const papcoll__policy_t *p, papcoll_op_t op, const papcoll__pin_t *in, elig_t *e,
                       papcoll__selection_t *out)
{
    papcoll__auto_out_t a;

    papcoll__auto_choose(op, in, &p->acfg, eligible, e, &a);
    snprintf(
        out->detail, sizeof out->detail,
        "policy=auto P=%d bytes=%.0f spread=%.3g noise=%.3g lag_noise=%.3g base=%s model=%.3g ratio=%.3g "
        "threshold=%.3g gain=%.3g",
        in->P, in->bytes, in->spread, in->noise, in->lag_noise,
        a.base >= 0 ? papcoll_algo_name(op, a.base) : "-", a.t_base, a.ratio, p->acfg.ratio, a.gain);
    snprintf(out->reason, sizeof out->reason, "policy %.96s: %s", p->text, a.why);
    return a.algo;
}

/* Tune's candidates (papcoll__tune_candidates), from the site's first call. */
static void tune_start(papcoll__policy_t *p, papcoll_op_t op, const papcoll__pin_t *in, elig_t *e)
{
    int cand[PAPCOLL__TUNE_MAXC], n = papcoll__tune_candidates(op, in, eligible, e, cand), i;

    for (i = 0; i < PAPCOLL__REGIMES; i++)
        papcoll__tune_init(&p->tune[i], &p->tcfg, cand, n);
    p->tune_ready = 1;
    p->tune_warm = 0;
    p->ndec = 0;
}

static int choose_tune(papcoll__policy_t *p, papcoll_op_t op, const papcoll__pin_t *in, elig_t *e,
                       papcoll__selection_t *out)
{
    static const char *const why[] = {"first exploration", "periodic re-exploration",
                                      "change point, re-exploration"};
    papcoll__tune_t *t;
    int algo, k, base, r, seen;
    double t_model;

    if (!p->tune_ready)
        tune_start(p, op, in, e);
    t_model = papcoll__model_time(op, in, eligible, e, &base);
    seen = p->ndec >= in->lag && in->lag > 0 ? p->regime_hist[(p->ndec - in->lag) & 3] : -1;
    if (seen >= 0 && in->last_algo >= 0) /* the observed call ran under this policy, in regime seen */
        papcoll__tune_observe(
            &p->tune[seen], in->last_algo,
            papcoll__tune_warm(&p->tune_warm, &p->tune[seen], in->last_algo, in->last_runtime),
            papcoll__regime_agrees(in, t_model, PAPCOLL__REGIME_RATIO, seen) ? in->last_spread : NAN);
    r = papcoll__regime(in, t_model, PAPCOLL__REGIME_RATIO);
    t = &p->tune[r];
    if (p->ndec == 0)
        papcoll__tune_first(t);
    p->regime_hist[p->ndec++ & 3] = r;
    algo = papcoll__tune_next(t);
    for (k = 0; k < t->nc && t->cand[k] != algo; k++)
        ;
    snprintf(
        out->detail, sizeof out->detail,
        "policy=tune regime=%d phase=%s step=%d cost=%d explorations=%d last=%.3g spread=%.3g median=%.3g "
        "ref=%.3g",
        r, t->phase == PAPCOLL__TUNE_EXPLORE ? "explore" : "exploit", t->step, papcoll__tune_cost(t),
        t->explorations, in->last_runtime, in->last_spread, k < t->nc ? papcoll__tune_median(t, k) : NAN,
        t->ref);
    snprintf(out->reason, sizeof out->reason, "policy %.96s: %s", p->text,
             t->phase == PAPCOLL__TUNE_EXPLORE ? why[t->why] : "best recent median");
    return algo;
}

void papcoll__select_data(papcoll__policy_t *policy, papcoll_op_t op, const papcoll__sig_t *sig,
                          const papcoll__pin_t *in, papcoll__selection_t *out)
{
    elig_t e = {sig, in->P, in->has_monitor};
    int algo;

    out->detail[0] = '\0';
    switch (policy->kind) {
    case PAPCOLL__POLICY_RULES:
        algo = choose_rules(policy, op, in, &e, out);
        break;
    case PAPCOLL__POLICY_AUTO:
        algo = choose_auto(policy, op, in, &e, out);
        break;
    case PAPCOLL__POLICY_TUNE:
        algo = choose_tune(policy, op, in, &e, out);
        break;
    default:
        papcoll__select(policy, op, sig, in->P, in->has_monitor, out);
        return;
    }
    restrict_chain(op, algo, sig, in->P, in->has_monitor, out);
}
