/* Selection (select.c): the algorithm of each call from the site's policy, the call's signature and the
 * shared inputs, the same on every rank.  The policy's choice then passes its restrictions (algos.def);
 * one it cannot pass hands over to its declared fallback, the reason kept for the record.  Policies
 * (docs/policies.md): "fixed:NAME" (or "NAME"), "rules:FILE" and "auto[:RATIO]"; the last two choose
 * from exchanged data (policy.h), so every call waits for it.  Not installed. */
#ifndef PAPCOLL_SELECT_H
#define PAPCOLL_SELECT_H

#include "args.h"
#include "policy.h"

typedef enum { PAPCOLL__POLICY_FIXED, PAPCOLL__POLICY_RULES, PAPCOLL__POLICY_AUTO } papcoll__policy_kind_t;

#define PAPCOLL__DETAIL_MAX 240

typedef struct {
    papcoll__policy_kind_t kind;
    int algo;                 /* FIXED: the algorithm asked for; else the one before any exchanged data */
    char text[288];           /* canonical text: "fixed:bsls", "rules:FILE", "auto:0.5" */
    char err[320];            /* why parsing failed */
    papcoll__rules_t rules;   /* RULES */
    double ratio;             /* AUTO: its threshold RATIO (default 0.25) */
} papcoll__policy_t;

typedef struct {
    int algo;                         /* the algorithm the call runs */
    int fell_back;                    /* algo is a fallback of the policy's choice */
    char reason[160];                 /* the policy, and each fallback step */
    char detail[PAPCOLL__DETAIL_MAX]; /* the policy's inputs, "key=value ..." ("" for fixed) */
} papcoll__selection_t;

/* PAPCOLL_ERR_ALGO for an unknown algorithm, PAPCOLL_ERR_POLICY (why in out->err) for the rest. */
int papcoll__policy_parse(papcoll_op_t op, const char *text, papcoll__policy_t *out);
#define papcoll__policy_uses_data(policy) ((policy)->kind != PAPCOLL__POLICY_FIXED)
/* The decision for signature sig (NULL: not known yet).  Pure. */
void papcoll__decide(const papcoll__policy_t *policy, papcoll_op_t op, const papcoll__sig_t *sig,
                     const papcoll__pin_t *in, papcoll__selection_t *out);

#endif
