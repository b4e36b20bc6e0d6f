/*
 * Selection (select.c): the algorithm of each call, from the site's policy,
 * the call's signature and the shared inputs.  Not installed.
 *
 * A policy is evaluated identically on every rank: its inputs are the
 * signature (shared by MPI's rules), P, whether the context has monitor
 * threads (papcoll_init agrees on it) and, for the data policies, values of
 * the PAT exchange.  The chosen algorithm then passes its restrictions
 * (algos.def); one it cannot pass hands over to its declared fallback, with
 * the reason kept for the record.
 *
 * Policies (docs/policies.md): "fixed:NAME" (or just "NAME"), and the data
 * policies "rules:FILE" and "auto[:RATIO]", which choose from exchanged
 * values (policy.h) and make every call wait for them.
 */
#ifndef PAPCOLL_SELECT_H
#define PAPCOLL_SELECT_H

#include "args.h"
#include "policy.h"

typedef enum { PAPCOLL__POLICY_FIXED, PAPCOLL__POLICY_RULES, PAPCOLL__POLICY_AUTO } papcoll__policy_kind_t;

#define PAPCOLL__DETAIL_MAX 240

typedef struct {
    papcoll__policy_kind_t kind;
    int algo;                 /* FIXED: the algorithm asked for; data policies: before any exchanged data */
    char text[288];           /* canonical text, e.g. "fixed:bsls", "rules:configs/papcoll/rules-emu8.conf" */
    char err[320];            /* why parsing failed ("FILE:LINE: ...") */
    papcoll__rules_t rules;   /* RULES */
    papcoll__auto_cfg_t acfg; /* AUTO */
} papcoll__policy_t;

/* The outcome of one decision. */
typedef struct {
    int algo;                         /* the algorithm the call runs */
    int fell_back;                    /* algo is a fallback of the policy's choice */
    char reason[160];                 /* why algo: the policy, and each fallback step */
    char detail[PAPCOLL__DETAIL_MAX]; /* the policy's inputs, "key=value ..." ("" for fixed) */
} papcoll__selection_t;

/* Parses a policy of op; PAPCOLL_ERR_ALGO for an unknown algorithm,
 * PAPCOLL_ERR_POLICY for an unknown policy or a bad rules file (why in
 * out->err). */
int papcoll__policy_parse(papcoll_op_t op, const char *text, papcoll__policy_t *out);

/* Whether the policy chooses from exchanged data (every call then waits
 * for its exchange). */
int papcoll__policy_uses_data(const papcoll__policy_t *policy);

/* The algorithm of a call with signature sig (NULL: not known yet) from the
 * shared inputs in: fixed uses only in->P and in->has_monitor; rules and
 * auto run the op's baseline while in->data is 0.  Pure: no MPI, no clock,
 * the policy is not changed. */
void papcoll__decide(const papcoll__policy_t *policy, papcoll_op_t op, const papcoll__sig_t *sig,
                     const papcoll__pin_t *in, papcoll__selection_t *out);

#endif
