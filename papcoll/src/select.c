/* Selection (select.h): parsing a policy and the one decision function. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "select.h"

int papcoll__policy_parse(papcoll_op_t op, const char *text, papcoll__policy_t *out)
{
    const char *name = text;
    char *end;
    int i;

    if (text == NULL)
        return PAPCOLL_ERR_POLICY;
    memset(out, 0, sizeof(*out));
    snprintf(out->text, sizeof out->text, "%s", text);
    if (strncmp(text, "tune", 4) == 0 && (text[4] == '\0' || text[4] == ':')) {
        snprintf(out->err, sizeof out->err,
                 "policy '%s': no online tuner; generate rules from a trace "
                 "(jobs/rules-table --from-trace TRACE.h5 > rules.conf) and run with rules:rules.conf",
                 text);
        return PAPCOLL_ERR_POLICY;
    }
    if (strncmp(text, "rules:", 6) == 0) {
        out->kind = PAPCOLL__POLICY_RULES;
        return papcoll__rules_load(text + 6, &out->rules, out->err, sizeof out->err);
    }
    if (strcmp(text, "auto") == 0 || strncmp(text, "auto:", 5) == 0) {
        out->kind = PAPCOLL__POLICY_AUTO;
        name = text[4] ? text + 5 : "";
        out->ratio = *name ? strtod(name, &end) : 0.25;
        if (*name && (*end != '\0' || !(out->ratio >= 0))) {
            snprintf(out->err, sizeof out->err, "policy '%s': bad parameter (auto[:RATIO])", text);
            return PAPCOLL_ERR_POLICY;
        }
        return PAPCOLL_OK;
    }
    if (strncmp(text, "fixed:", 6) == 0)
        name = text + 6;
    else if (strchr(text, ':') != NULL) {
        snprintf(out->err, sizeof out->err,
                 "unknown policy '%s' (fixed:NAME, NAME, rules:FILE, auto[:RATIO])", text);
        return PAPCOLL_ERR_POLICY;
    }
    if ((i = papcoll_algo_find(op, name)) < 0)
        return PAPCOLL_ERR_ALGO;
    out->algo = i;
    snprintf(out->text, sizeof(out->text), "fixed:%s", papcoll_algo_name(op, i));
    return PAPCOLL_OK;
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

void papcoll__decide(const papcoll__policy_t *p, papcoll_op_t op, const papcoll__sig_t *sig,
                     const papcoll__pin_t *in, papcoll__selection_t *out)
{
    const papcoll__algo_t *row = papcoll__algo(op, 0); /* the op's lines of algos.def */
    elig_t e = {sig, in->P, in->has_monitor};
    papcoll__auto_out_t a;
    papcoll__why_t why;
    double t, imb, ratio;
    int algo = p->algo, k, base, planner, steps, next;
    size_t n;

    out->detail[0] = '\0';
    if (p->kind == PAPCOLL__POLICY_FIXED) {
        snprintf(out->reason, sizeof out->reason, "policy %.96s", p->text);
    } else if (!in->data) {
        snprintf(out->reason, sizeof out->reason, "policy %.96s: no exchanged data yet, runs %s", p->text,
                 row[p->algo].name);
    } else if (p->kind == PAPCOLL__POLICY_RULES) {
        t = papcoll__model_time(op, in, eligible, &e, &base, &planner);
        imb = papcoll__imbalance(in);
        ratio = isnan(imb) || isnan(t) ? NAN : t > 0 ? imb / t : INFINITY;
        k = papcoll__rules_match(&p->rules, op, in->P, in->bytes, ratio);
        snprintf(out->detail, sizeof out->detail,
                 "policy=rules P=%d bytes=%.0f spread=%.3g noise=%.3g model=%.3g ratio=%.3g rule=%.60s:%d",
                 in->P, in->bytes, in->spread, in->noise, t, ratio, k < 0 ? "none" : p->text + 6,
                 k < 0 ? 0 : p->rules.r[k].line);
        if (k < 0)
            snprintf(out->reason, sizeof out->reason, "policy %.96s: no rule matched, runs %s", p->text,
                     row[p->algo].name);
        else
            snprintf(out->reason, sizeof out->reason, "policy %.96s: line %d", p->text, p->rules.r[k].line);
        algo = k < 0 ? p->algo : p->rules.r[k].algo;
    } else {
        papcoll__auto_choose(op, in, p->ratio, eligible, &e, &a);
        snprintf(out->detail, sizeof out->detail,
                 "policy=auto P=%d bytes=%.0f spread=%.3g noise=%.3g lag_noise=%.3g base=%s model=%.3g "
                 "ratio=%.3g threshold=%.3g gain=%.3g",
                 in->P, in->bytes, in->spread, in->noise, in->lag_noise, a.base >= 0 ? row[a.base].name : "-",
                 a.t_base, a.ratio, p->ratio, a.gain);
        snprintf(out->reason, sizeof out->reason, "policy %.96s: %s", p->text, a.why);
        algo = a.algo;
    }
    /* Chains end at an algorithm serving every call; 16 bounds a cycle (the matrix checks none). */
    out->fell_back = 0;
    for (steps = 0; steps < 16; steps++) {
        if ((why = papcoll__algo_check(op, algo, sig, in->P, in->has_monitor)) == PAPCOLL__WHY_OK)
            break;
        next = row[algo].fallback;
        n = strlen(out->reason);
        snprintf(out->reason + n, sizeof(out->reason) - n, "; %s %s: runs %s", row[algo].name,
                 papcoll__why_text(why), row[next].name);
        out->fell_back = 1;
        algo = next;
    }
    out->algo = algo;
}
