/*
 * The agreement of ranks on the call site of each call (docs/pmpi.md,
 * "Agreement").  Per communicator, every rank keeps the same state, changed
 * only by what all ranks learned together:
 *
 *   sites      the agreed call sites, each with the site that followed it
 *              the last time (next) and how many agreed calls in a row
 *              confirmed that successor (streak);
 *   prev       the site of the previous call.
 *
 * A call is *trusted* when the successor of prev has been confirmed
 * PAPCOLL_AGREE=stable:N times and has the call's op, root and size (which
 * every rank of a correct program passes alike).  Then every rank runs it on
 * that site without communicating; each rank notes whether its own stack ID
 * matched, and every IP_CHECK_WINDOW trusted calls one MPI_Iallreduce tells
 * all ranks whether any rank missed.  It completes when the next window is
 * posted: then the window's edges lose their streak, and the calls after
 * them are agreed again.  Every other call is *agreed*: a blocking
 * MPI_Allreduce of (path, ~path, sig, ~sig) with MPI_MAX on our duplicate
 * gives the maximum and the minimum of both keys.  Equal path keys mean one
 * call site for everybody: the site of that key.  Else equal signatures
 * (the root called from one line, the others from another) give the site
 * of the signature.  Else the ranks passed different ops, roots or sizes,
 * and the call passes through on every rank for PMPI to judge.
 *
 * In trace mode the program's collective runs through PMPI on its own
 * communicator whatever the site, so the agreement need not come first:
 * the keys of IP_TRACE_WINDOW calls go into one MPI_Iallreduce
 * (ip_agree_post), completed when the next window is full (ip_agree_complete,
 * then ip_agree_result per call; PAPCOLL_AGREE=stable:N concerns replace
 * mode only).
 *
 * Several places with one signature (two root/non-root pairs of gathers of
 * the same size and root, say) share the signature's site.  That is still
 * correct: a site is only a name and a history of calls, and every rank runs
 * the same sequence of calls on it; the pairs' arrival histories are merged,
 * so the predictions of PAP-aware algorithms follow both.
 *
 * No rank can be left waiting: whether a call is trusted, and when a check
 * is posted or completed, is a function of the shared state and of the
 * call's shared arguments only, so every rank issues the same sequence of
 * agreement collectives on our duplicate; and every site is created after an
 * agreement on its key, by every rank at the same call.
 */
#include <limits.h>
#include <string.h>

#include "pmpi.h"

/* The predicted site of this call, or -1 when it must be agreed. */
static int predicted(const ip_comm_t *pc, const ip_call_t *c, long long bytes)
{
    const ip_site_t *p, *s;

    if (ip_g.cfg.stable == 0 || pc->prev < 0)
        return -1;
    p = &pc->sites[pc->prev];
    if (p->next < 0 || p->streak < ip_g.cfg.stable)
        return -1;
    s = &pc->sites[p->next];
    if (s->site == NULL || s->op != c->op || s->root != c->root || s->bytes != bytes)
        return -1;
    return p->next;
}

/* An agreed call: prev -> idx (-1: passed through) confirms or replaces
 * prev's successor. */
static void link_agreed(ip_comm_t *pc, int idx)
{
    ip_site_t *p;

    if (pc->prev >= 0) {
        p = &pc->sites[pc->prev];
        if (idx >= 0 && p->next == idx) {
            if (p->streak < INT_MAX)
                p->streak++;
        } else {
            p->next = idx;
            p->streak = idx >= 0;
        }
    }
    pc->prev = idx;
}

/* Completes the check in flight; a miss anywhere resets its window's edges. */
static void check_complete(ip_comm_t *pc)
{
    double t0;
    int i;

    if (pc->check == MPI_REQUEST_NULL)
        return;
    t0 = PMPI_Wtime();
    if (PMPI_Wait(&pc->check, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        pc->check_out = 1; /* unknown: agree again */
    ip_time_agree(PMPI_Wtime() - t0, 0);
    if (pc->check_out == 0)
        return;
    ip_count(IP_CNT_CHECK_FAILED, 1);
    for (i = 0; i < pc->sent.n; i++)
        pc->sites[pc->sent.from[i]].streak = 0;
}

static void check_post(ip_comm_t *pc)
{
    check_complete(pc);
    pc->sent = pc->win;
    pc->check_in = pc->win.mismatch;
    pc->check_out = 0;
    if (PMPI_Iallreduce(&pc->check_in, &pc->check_out, 1, MPI_INT, MPI_MAX, pc->dup, &pc->check) != MPI_SUCCESS)
        pc->check = MPI_REQUEST_NULL;
    ip_count(IP_CNT_CHECKS, 1);
    memset(&pc->win, 0, sizeof pc->win);
}

static int trusted(ip_comm_t *pc, int idx, uint64_t path)
{
    ip_window_t *w = &pc->win;

    if (pc->sites[idx].mine != path) {
        ip_count(IP_CNT_MISPREDICTED, 1);
        w->mismatch = 1;
    }
    w->from[w->n++] = pc->prev;
    pc->prev = idx;
    ip_count(IP_CNT_TRUSTED, 1);
    if (w->n == IP_CHECK_WINDOW)
        check_post(pc);
    return idx;
}

/* PAPCOLL_SITE_DEPTH=0: the site is the signature, which every rank of a
 * correct program passes alike, so no agreement is needed. */
static int by_signature(ip_comm_t *pc, const ip_call_t *c, const ip_key_t *k, long long bytes, ip_pass_t *why)
{
    int idx = -1, r = ip_comm_site(pc, c, IP_SITE_SIGNATURE, k, bytes, &idx);

    ip_count(IP_CNT_SIGNATURE, 1);
    if (r != 0) {
        *why = (ip_pass_t)(r - 1);
        return -1;
    }
    return idx;
}

/* The outcome of an agreement (m: the MPI_MAX of (path, ~path, sig, ~sig),
 * r: its return code): the site index, or -1 with *why. */
static int outcome(ip_comm_t *pc, const ip_call_t *c, const ip_key_t *k, long long bytes, int r,
                   const unsigned long long *m, ip_pass_t *why)
{
    ip_kind_t kind = IP_SITE_PATH;
    int idx = -1;

    ip_count(IP_CNT_AGREED, 1);
    if (r == MPI_SUCCESS && m[0] != ~m[1]) /* max path != min path */
        kind = IP_SITE_SIGNATURE;
    if (r != MPI_SUCCESS || (kind == IP_SITE_SIGNATURE && m[2] != ~m[3])) {
        *why = IP_PASS_DIFFER;
        ip_comm_diverged(pc, c, k->path, bytes);
        link_agreed(pc, -1);
        return -1;
    }
    r = ip_comm_site(pc, c, kind, k, bytes, &idx);
    if (r != 0) {
        *why = (ip_pass_t)(r - 1);
        link_agreed(pc, r - 1 == IP_PASS_NOSITE ? idx : -1);
        return -1;
    }
    link_agreed(pc, idx);
    return idx;
}

/*
 * The site index of this call, or -1 with *why when every rank passes it
 * through.
 */
int ip_agree(ip_comm_t *pc, const ip_call_t *c, const ip_key_t *k, long long bytes, ip_pass_t *why)
{
    unsigned long long v[4] = {k->path, ~k->path, k->sig, ~k->sig}, m[4];
    int idx, r;
    double t0;

    if (ip_g.cfg.depth == 0)
        return by_signature(pc, c, k, bytes, why);
    if ((idx = predicted(pc, c, bytes)) >= 0)
        return trusted(pc, idx, k->path);
    t0 = PMPI_Wtime();
    r = PMPI_Allreduce(v, m, 4, MPI_UNSIGNED_LONG_LONG, MPI_MAX, pc->dup);
    ip_time_agree(PMPI_Wtime() - t0, 1);
    return outcome(pc, c, k, bytes, r, m, why);
}

/* Trace mode: the agreement on the keys of a full window of calls starts,
 * one MPI_Iallreduce for all of them (nothing to agree with
 * PAPCOLL_SITE_DEPTH=0). */
void ip_agree_post(ip_comm_t *pc, ip_window_trace_t *w)
{
    int i;

    for (i = 0; i < w->n; i++) {
        w->in[4 * i] = w->call[i].key.path;
        w->in[4 * i + 1] = ~w->call[i].key.path;
        w->in[4 * i + 2] = w->call[i].key.sig;
        w->in[4 * i + 3] = ~w->call[i].key.sig;
    }
    w->rc = MPI_SUCCESS;
    w->req = MPI_REQUEST_NULL;
    if (ip_g.cfg.depth > 0)
        w->rc = PMPI_Iallreduce(w->in, w->out, 4 * w->n, MPI_UNSIGNED_LONG_LONG, MPI_MAX, pc->dup, &w->req);
}

/* Trace mode: the window's agreement completes. */
void ip_agree_complete(ip_window_trace_t *w)
{
    double t0 = PMPI_Wtime();

    if (w->rc == MPI_SUCCESS && w->req != MPI_REQUEST_NULL)
        w->rc = PMPI_Wait(&w->req, MPI_STATUS_IGNORE);
    ip_time_agree(PMPI_Wtime() - t0, 1);
}

/* Trace mode: ip_agree's answer for call i of a completed window. */
int ip_agree_result(ip_comm_t *pc, ip_window_trace_t *w, int i, ip_pass_t *why)
{
    const ip_traced_t *t = &w->call[i];

    if (ip_g.cfg.depth == 0)
        return by_signature(pc, &t->c, &t->key, t->obs.bytes, why);
    return outcome(pc, &t->c, &t->key, t->obs.bytes, w->rc, &w->out[4 * i], why);
}

/* Before the communicator's state goes: the last window and the check in
 * flight (every rank has the same window, so all post it). */
void ip_agree_drain(ip_comm_t *pc)
{
    if (pc->win.n > 0)
        check_post(pc);
    check_complete(pc);
}
