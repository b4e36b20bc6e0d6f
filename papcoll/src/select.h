/*
 * Selection (select.c): the algorithm of each call, from the site's policy
 * and the call's signature.  Not installed.
 *
 * A policy is evaluated identically on every rank: its inputs are the
 * signature (shared by MPI's rules), the number of processes, whether the
 * context has monitor threads (the same everywhere: papcoll_init agrees on
 * it) and, for policies that use them, exchanged data.  The chosen
 * algorithm then passes its restrictions (algos.def); one it cannot pass
 * hands over to its declared fallback, with the reason kept for the record.
 *
 * Policies: "fixed:NAME" (or just "NAME").
 */
#ifndef PAPCOLL_SELECT_H
#define PAPCOLL_SELECT_H

#include "args.h"

typedef enum { PAPCOLL__POLICY_FIXED } papcoll__policy_kind_t;

typedef struct {
    papcoll__policy_kind_t kind;
    int algo;           /* FIXED: the algorithm asked for */
    char text[64];      /* canonical text, e.g. "fixed:bsls" */
} papcoll__policy_t;

/* The outcome of one selection. */
typedef struct {
    int algo;           /* the algorithm the call runs */
    int fell_back;      /* algo is a fallback of the policy's choice */
    char reason[160];   /* why algo: the policy, and each fallback step */
} papcoll__selection_t;

/* Parses a policy of op ("NAME", "fixed:NAME"); PAPCOLL_ERR_ALGO for an
 * unknown algorithm, PAPCOLL_ERR_POLICY for an unknown policy. */
int papcoll__policy_parse(papcoll_op_t op, const char *text, papcoll__policy_t *out);

/* The algorithm of a call with signature sig on P ranks. */
void papcoll__select(const papcoll__policy_t *policy, papcoll_op_t op, const papcoll__sig_t *sig,
                     int P, int has_monitor, papcoll__selection_t *out);

#endif
