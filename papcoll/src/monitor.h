/*
 * The monitor thread of a site and the one decision path (monitor.c).
 * Not installed.
 *
 * Job k of a site: the PAT exchange (or an explicit PAT), the policy's
 * inputs, decide(policy, signature, inputs), plan_get, publish {k,
 * signature, selection, plan}, then the background part when the chosen
 * algorithm has one.  The monitor runs it; without a monitor thread the
 * call runs the same function inline.  The call takes decision k, and
 * decides inline (papcoll__site_decide) only when no decision was published
 * for its signature.
 */
#ifndef PAPCOLL_MONITOR_H
#define PAPCOLL_MONITOR_H

#include "site.h"

int papcoll__monitor_start(papcoll_site_t *site);
void papcoll__monitor_stop(papcoll_site_t *site);

/* Whether the site's calls wait for their decision: the policy reads
 * exchanged data, or its algorithm needs a prediction or has a background
 * part.  A function of the policy alone, so the same on every rank; kept
 * in site->waits whenever the policy is set. */
int papcoll__site_waits(const papcoll_site_t *site);
/* Takes decision k for the call a (pat: an explicit PAT): queues job k when
 * no edge did, waits for its decision when the site waits, and decides
 * inline when none was made for a's signature; a background part started
 * for another algorithm or root is drained.  site->dec is then the call's. */
int papcoll__take_decision(papcoll_site_t *site, const papcoll__args_t *a, const double *pat);

/* Queues job `site->calls` (or, without a monitor thread, runs it now when
 * the call will wait for it): the exchange of est (NaN: none), or the
 * explicit pat; a decision for sig (NULL: exchange only) when the call will
 * wait for one; a background part starts when the chosen algorithm has one. */
int papcoll__job_plan(papcoll_site_t *site, double est, const double *pat, const papcoll__sig_t *sig);
/* Queues the background part of the published decision (site->dec). */
void papcoll__job_bg(papcoll_site_t *site);
/* Queues the shipment of the site's full record batch (copied). */
void papcoll__job_ship(papcoll_site_t *site);
/* Queues a clock re-estimation (the context's first site only). */
void papcoll__job_clock(papcoll_site_t *site);

/* The decision of call iter for sig: the policy's inputs (data: this
 * call's exchange is done and may be read; pat: an explicit PAT), then the
 * policy.  The job's step after the exchange, and the call's own when no
 * decision was published for its signature.  Pure given the site's
 * exchanged state. */
void papcoll__site_decide(papcoll_site_t *site, const papcoll__sig_t *sig, const double *pat, int data,
                          int iter, papcoll__selection_t *sel);
/* The plan of algo (sel's, or its foreground fallback) for sig, kept when
 * its key is unchanged, published with sel and algo in site->dec; t0: when
 * the decision started. */
int papcoll__plan_get(papcoll_site_t *site, const papcoll__sig_t *sig, const double *pat, int data, int iter,
                      const papcoll__selection_t *sel, int algo, double t0);
/* The end of every call (call.c): timing, record, the state the next call
 * starts from. */
void papcoll__call_finish(papcoll_site_t *site, const papcoll__args_t *a, int algo, const char *reason,
                          const char *detail, double arrival, double now);

/* Waits until decision `site->calls` is published; returns its status. */
int papcoll__wait_decision(papcoll_site_t *site);
/* Waits until the pending call's background part finished; returns its rc. */
int papcoll__wait_bg(papcoll_site_t *site);
/* Waits until the monitor has no job of this site. */
void papcoll__wait_idle(papcoll_site_t *site);
/* Re-estimates the clock and, while tracing, hands the estimate to the
 * sink (collective over ctx->clock_comm; warns on failure). */
void papcoll__resync(papcoll_ctx_t *ctx);
/* Max - min of the finite values x[i * stride] (NaN: fewer than two);
 * *lo: the min (inf: none). */
double papcoll__spread(const double *x, int n, int stride, double *lo);

#endif
