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

/* "auto[:RATIO]": the ratio. */
static int parse_ratio(const char *p, papcoll__policy_t *out)
{
    char *end;

    out->acfg.ratio = 0.25;
    if (*p == '\0')
        return 0;
    out->acfg.ratio = strtod(p, &end);
    return *end == '\0' && out->acfg.ratio >= 0 ? 0 : -1;
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
    out->kind = PAPCOLL__POLICY_AUTO;
    p = text + 4;
    if (*p == ':')
        p++;
    if (parse_ratio(p, out) != 0) {
        snprintf(out->err, sizeof out->err, "policy '%s': bad parameter (auto[:RATIO])", text);
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
    if (strncmp(text, "tune", 4) == 0 && (text[4] == '\0' || text[4] == ':')) {
        snprintf(out->err, sizeof out->err,
                 "policy '%s': no online tuner; generate rules from a trace "
                 "(jobs/rules-table --from-trace TRACE.h5 > rules.conf) and run with rules:rules.conf",
                 text);
        return PAPCOLL_ERR_POLICY;
    }
    if (strncmp(text, "rules:", 6) == 0 || strcmp(text, "auto") == 0 || strncmp(text, "auto:", 5) == 0)
        return parse_data(op, text, out);
    if (strncmp(text, "fixed:", 6) == 0)
        name = text + 6;
    else if (strchr(text, ':') != NULL) {
        snprintf(out->err, sizeof out->err,
                 "unknown policy '%s' (fixed:NAME, NAME, rules:FILE, auto[:RATIO])", text);
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

void papcoll__decide(const papcoll__policy_t *policy, papcoll_op_t op, const papcoll__sig_t *sig,
                     const papcoll__pin_t *in, papcoll__selection_t *out)
{
    elig_t e = {sig, in->P, in->has_monitor};
    int algo = policy->algo;

    out->detail[0] = '\0';
    if (policy->kind == PAPCOLL__POLICY_FIXED)
        snprintf(out->reason, sizeof out->reason, "policy %.96s", policy->text);
    else if (!in->data)
        snprintf(out->reason, sizeof out->reason, "policy %.96s: no exchanged data yet, runs %s",
                 policy->text, papcoll_algo_name(op, policy->algo));
    else if (policy->kind == PAPCOLL__POLICY_RULES)
        algo = choose_rules(policy, op, in, &e, out);
    else
        algo = choose_auto(policy, op, in, &e, out);
    restrict_chain(op, algo, sig, in->P, in->has_monitor, out);
}
