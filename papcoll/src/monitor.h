/*
 * The monitor thread of a site (monitor.c) and the requests the call path
 * makes of it.  Not installed.
 *
 * A plan job runs, in the monitor thread: the PAT exchange (or takes an
 * explicit PAT), the predictor, the selection, the plan; then the
 * background part when the selected algorithm has one.  Without a monitor
 * thread the same steps run inline in the call (papcoll__plan_inline).
 */
#ifndef PAPCOLL_MONITOR_H
#define PAPCOLL_MONITOR_H

#include "site.h"

int papcoll__monitor_start(papcoll_site_t *site);
void papcoll__monitor_stop(papcoll_site_t *site);

/* What a plan job does. */
typedef struct {
    double est;                /* edge estimate (NaN: none) */
    int exchange;              /* 1: exchange est; 0: plan from pat */
    const double *pat;         /* !exchange: explicit PAT (NULL: no prediction) */
    const papcoll__sig_t *sig; /* the signature to plan for (NULL: not known yet) */
    int plan;                  /* select and plan (else: exchange only) */
    int bg;                    /* with plan: run the selected algorithm's background part */
    const papcoll__selection_t *sel; /* with plan: this selection (NULL: the policy's own) */
} papcoll__planreq_t;

/* Queues the plan job of the pending call (an exchange counts as requested). */
void papcoll__request_plan(papcoll_site_t *site, const papcoll__planreq_t *req);
/* Queues the background part of the algorithm and plan the call published
 * in site->sel and site->plan. */
void papcoll__request_bg(papcoll_site_t *site);
/* Queues the shipment of the site's full record batch (copied). */
void papcoll__request_ship(papcoll_site_t *site);
/* Queues a clock re-estimation (the context's first site only). */
void papcoll__request_clock(papcoll_site_t *site);
/* The plan job's steps in the calling thread: exchange (collective) unless
 * from pat, select, plan. */
int papcoll__plan_inline(papcoll_site_t *site, const papcoll__planreq_t *req);
/* The choice a data-dependent policy would make now for sig, from the
 * previous call's exchange, on a copy of the policy: the edge's plan job
 * plans it (call.c).  PAPCOLL_OK with the choice in *sel; 1 when that
 * exchange is not complete yet (nothing waited for: the call decides);
 * or the exchange's error. */
int papcoll__preview(papcoll_site_t *site, const papcoll__sig_t *sig, papcoll__selection_t *sel);
/* Re-estimates the clock and, while tracing, hands the estimate to the
 * sink (collective over ctx->clock_comm; warns on failure). */
void papcoll__resync(papcoll_ctx_t *ctx);
/* Waits until the pending call's plan exists; returns the job's rc. */
int papcoll__wait_plan(papcoll_site_t *site);
/* Waits until the job of call iter (an exchange) is done; its status, or
 * OK when a later job is done already. */
int papcoll__wait_exchange(papcoll_site_t *site, int iter);
/* Whether the job of call iter (an exchange) is done, without waiting
 * (1 also without a monitor thread). */
int papcoll__exchange_done(papcoll_site_t *site, int iter);
/* Waits until the pending call's background part finished; returns its rc. */
int papcoll__wait_bg(papcoll_site_t *site);
/* Max - min of the finite values x[i * stride] (NaN: fewer than two);
 * *lo: the min (inf: none). */
double papcoll__spread(const double *x, int n, int stride, double *lo);
/* Waits until the monitor has no job of this site. */
void papcoll__wait_idle(papcoll_site_t *site);

#endif
