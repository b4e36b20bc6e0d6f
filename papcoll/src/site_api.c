/*
 * Call sites: creation and release (every buffer of the monitor path is
 * allocated here), policy, bound receive buffers, and the PAT monitor API
 * (processing start / edge / end).  The collective entry points are in
 * call.c.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "clock.h"
#include "monitor.h"

static int alloc_ws(papcoll__ws_t *w, int P)
{
    w->reqs = calloc((size_t)P, sizeof(MPI_Request));
    w->sts = calloc((size_t)P, sizeof(MPI_Status));
    w->ints = calloc((size_t)P, sizeof(int));
    return (w->reqs && w->sts && w->ints) ? PAPCOLL_OK : PAPCOLL_ERR_NOMEM;
}

static void free_ws(papcoll__ws_t *w)
{
    free(w->reqs);
    free(w->sts);
    free(w->ints);
}

static int site_alloc(papcoll_site_t *site, int P)
{
    int rc;

    if ((rc = papcoll__plan_alloc(&site->plan, P)) != PAPCOLL_OK ||
        (rc = papcoll__pred_init(&site->xs.predictor, &site->ctx->pred, P)) != PAPCOLL_OK ||
        (rc = alloc_ws(&site->x.fg, P)) != PAPCOLL_OK || (rc = alloc_ws(&site->x.bg, P)) != PAPCOLL_OK)
        return rc;
    site->xs.xchg = calloc((size_t)P * PAPCOLL__XCHG, sizeof(double));
    site->xs.pred = calloc((size_t)P, sizeof(double));
    site->xs.col = calloc((size_t)P, sizeof(double));
    site->xs.pat = calloc((size_t)P, sizeof(double));
    site->xs.snap[0].pred = calloc((size_t)P, sizeof(double));
    site->xs.snap[1].pred = calloc((size_t)P, sizeof(double));
    site->x.stage = calloc((size_t)P, sizeof(papcoll__stage_t));
    return (site->xs.xchg && site->xs.pred && site->xs.col && site->xs.pat && site->xs.snap[0].pred &&
            site->xs.snap[1].pred && site->x.stage)
               ? PAPCOLL_OK
               : PAPCOLL_ERR_NOMEM;
}

/* Unlinks the site from its context's list (when it is in it). */
static void site_unlink(papcoll_site_t *site)
{
    papcoll_site_t **p = &site->ctx->sites;

    while (*p != NULL && *p != site)
        p = &(*p)->next;
    if (*p != NULL)
        *p = site->next;
}

static void free_comm(MPI_Comm *c)
{
    if (*c != MPI_COMM_NULL)
        PMPI_Comm_free(c);
}

static void site_release(papcoll_site_t *site)
{
    int i;

    site_unlink(site);
    papcoll__monitor_stop(site);
    papcoll__record_release(site);
    free_comm(&site->x.comm);
    free_comm(&site->mcomm);
    free_comm(&site->ccomm);
    papcoll__plan_free(&site->plan);
    papcoll__pred_free(&site->xs.predictor);
    for (i = 0; site->x.stage && i < site->ctx->size; i++)
        free(site->x.stage[i].buf);
    for (i = 0; i < PAPCOLL__SCRATCH_SLOTS; i++)
        papcoll__scratch_free(&site->x.scratch[i]);
    free(site->x.stage);
    free(site->xs.xchg);
    free(site->xs.pred);
    free(site->xs.snap[0].pred);
    free(site->xs.snap[1].pred);
    free(site->xs.col);
    free(site->xs.pat);
    free(site->x.identity);
    free_ws(&site->x.fg);
    free_ws(&site->x.bg);
    free(site);
}

static int dup_comm(MPI_Comm parent, MPI_Comm *out)
{
    int rc = PMPI_Comm_dup(parent, out);

    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_set_errhandler(*out, MPI_ERRORS_RETURN);
    return PAPCOLL__ERR(rc);
}

static void site_init(papcoll_site_t *site, papcoll_ctx_t *ctx, const char *name, papcoll_op_t op)
{
    site->ctx = ctx;
    site->op = op;
    site->mcomm = site->ccomm = MPI_COMM_NULL;
    site->dec.iter = site->dec.bg_done = -1;
    site->last_sig.root = -2;
    site->last_algo = -1;
    site->xs.snap[0].iter = site->xs.snap[1].iter = -1;
    site->xs.pred_iter = -2;
    site->xs.density = 1;
    site->marks = (papcoll__marks_t){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    site->x = (papcoll__exec_t){.ctx = ctx, .comm = MPI_COMM_NULL, .plan = &site->plan, .sent_density = NAN};
    site->id = ctx->nsites++;
    snprintf(site->name, sizeof(site->name), "%s", name ? name : papcoll_op_name(op));
}

/* Parses a policy; a bad one is said once (rank 0, with file:line for rules). */
static int parse_policy(papcoll_ctx_t *ctx, papcoll_op_t op, const char *text, papcoll__policy_t *p)
{
    int rc = papcoll__policy_parse(op, text, p);

    if (rc != PAPCOLL_OK && p->err[0] != '\0')
        papcoll__warn(ctx, "%s", p->err);
    return rc;
}

/*
 * Agrees on the local steps of a collective set-up (parsing the policy,
 * reading a rules file, allocating): a rank that failed alone must not
 * leave the others waiting in the next collective step.  Every rank
 * returns an error when any failed: its own, else PAPCOLL_ERR_AGREE.  A
 * failure rank 0 did not see is said by the lowest failing rank.
 */
static int agree_local(papcoll_ctx_t *ctx, const char *what, int rc, const papcoll__policy_t *p)
{
    int mine = rc == PAPCOLL_OK ? ctx->size : ctx->rank, first = 0;

    if (PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, ctx->data_comm) != MPI_SUCCESS)
        return PAPCOLL_ERR_MPI;
    if (first == ctx->size)
        return PAPCOLL_OK;
    if (first == ctx->rank && first != 0 && !ctx->quiet)
        fprintf(stderr, "papcoll: warning: rank %d: %s: %s\n", ctx->rank, what,
                p != NULL && p->err[0] != '\0' ? p->err : papcoll_strerror(rc));
    return rc != PAPCOLL_OK ? rc : PAPCOLL_ERR_AGREE;
}

/* The collective steps a policy needs once it is set (every rank of the
 * site, like its creation): the model for model-planned algorithms and
 * for every data-dependent policy; for rules, every rank must have read
 * the same table (a file that differs between nodes would split the
 * decisions). */
static int policy_collective(papcoll_site_t *site, const papcoll__policy_t *p)
{
    unsigned long long h[2] = {p->rules.hash, ~p->rules.hash}, m[2];
    int rc;

    if ((papcoll__policy_uses_data(p) || (papcoll_algo_flags(site->op, p->algo) & PAPCOLL_F_MODEL)) &&
        (rc = papcoll__model_ensure(site->ctx, site->x.comm)) != PAPCOLL_OK)
        return rc; /* once per context */
    if (p->kind != PAPCOLL__POLICY_RULES)
        return PAPCOLL_OK;
    if ((rc = PMPI_Allreduce(h, m, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, site->x.comm)) != MPI_SUCCESS)
        return PAPCOLL__ERR(rc);
    if (m[0] == ~m[1])
        return PAPCOLL_OK;
    papcoll__warn(site->ctx, "site '%s': %s: the rules file differs between ranks", site->name, p->text);
    return PAPCOLL_ERR_POLICY;
}

int papcoll_site_create(papcoll_ctx_t *ctx, const char *name, papcoll_op_t op, const char *policy,
                        papcoll_site_t **out)
{
    papcoll_site_t *site;
    int rc;

    if (ctx == NULL || out == NULL || op < 0 || op >= PAPCOLL_OP_COUNT)
        return PAPCOLL_ERR_INVAL;
    *out = NULL;
    if ((site = calloc(1, sizeof(*site))) == NULL)
        return PAPCOLL_ERR_NOMEM;
    site_init(site, ctx, name, op);
    if ((rc = parse_policy(ctx, op, policy ? policy : ctx->policy_default[op], &site->policy)) == PAPCOLL_OK &&
        (rc = site_alloc(site, ctx->size)) == PAPCOLL_OK && ctx->tracing)
        rc = papcoll__record_alloc(site);
    if ((rc = agree_local(ctx, site->name, rc, &site->policy)) != PAPCOLL_OK)
        goto fail;
    if ((rc = dup_comm(ctx->data_comm, &site->x.comm)) != PAPCOLL_OK ||
        (rc = dup_comm(ctx->mon_comm, &site->mcomm)) != PAPCOLL_OK ||
        (ctx->check && (rc = dup_comm(ctx->data_comm, &site->ccomm)) != PAPCOLL_OK))
        goto fail;
    site->waits = papcoll__site_waits(site);
    if ((rc = policy_collective(site, &site->policy)) != PAPCOLL_OK)
        goto fail; /* collective like the creation */
    if (ctx->has_monitor && (rc = papcoll__monitor_start(site)) != PAPCOLL_OK)
        goto fail;
    site->next = ctx->sites;
    ctx->sites = site;
    *out = site;
    return PAPCOLL_OK;
fail:
    site_release(site);
    return rc;
}

int papcoll_site_free(papcoll_site_t **psite)
{
    papcoll_site_t *site;
    int rc = PAPCOLL_OK;

    if (psite == NULL || *psite == NULL)
        return PAPCOLL_ERR_INVAL;
    site = *psite;
    papcoll__wait_idle(site);
    if (site->ctx->tracing && site->batch.n > 0)
        rc = papcoll__record_ship(site, &site->batch);
    site_release(site);
    *psite = NULL;
    return rc;
}

/* The algorithm decided for the last call; before the first, the policy's
 * (for a data-dependent policy its baseline) through the restrictions
 * known before any call (the monitor, P). */
static int current_algo(const papcoll_site_t *site)
{
    int algo = site->policy.algo;

    if (site->last_algo >= 0)
        return site->last_algo;
    while (papcoll__algo_check(site->op, algo, NULL, site->ctx->size, site->ctx->has_monitor) != PAPCOLL__WHY_OK)
        algo = papcoll__algo(site->op, algo)->fallback;
    return algo;
}

const char *papcoll_site_algo(const papcoll_site_t *site)
{
    return site ? papcoll_algo_name(site->op, current_algo(site)) : NULL;
}

int papcoll_site_algo_index(const papcoll_site_t *site)
{
    return site ? current_algo(site) : PAPCOLL_ERR_INVAL;
}

const char *papcoll_site_policy(const papcoll_site_t *site)
{
    return site ? site->policy.text : NULL;
}

int papcoll_site_id(const papcoll_site_t *site)
{
    return site ? site->id : -1;
}

int papcoll_policy_check(papcoll_op_t op, const char *policy, int *algo, char *err, size_t errlen)
{
    papcoll__policy_t *p;
    int rc;

    *algo = -1;
    if ((unsigned)op >= PAPCOLL_OP_COUNT)
        return PAPCOLL_ERR_INVAL;
    if ((p = malloc(sizeof *p)) == NULL) /* a rules table is large for the stack */
        return PAPCOLL_ERR_NOMEM;
    rc = papcoll__policy_parse(op, policy, p);
    if (rc == PAPCOLL_OK && p->kind == PAPCOLL__POLICY_FIXED)
        *algo = p->algo;
    if (errlen > 0)
        snprintf(err, errlen, "%s", rc == PAPCOLL_ERR_ALGO ? "no such algorithm" : p->err);
    free(p);
    return rc;
}

int papcoll_site_set_algo(papcoll_site_t *site, const char *policy)
{
    papcoll__policy_t *p;
    int rc;

    if (site == NULL)
        return PAPCOLL_ERR_INVAL;
    if (site->queued)
        return PAPCOLL_ERR_STATE; /* an exchange (maybe a background part) is pending */
    p = malloc(sizeof *p); /* a rules table is large for the stack */
    rc = p != NULL ? parse_policy(site->ctx, site->op, policy, p) : PAPCOLL_ERR_NOMEM;
    if ((rc = agree_local(site->ctx, site->name, rc, p)) != PAPCOLL_OK)
        goto fail;
    papcoll__wait_idle(site);
    if ((rc = policy_collective(site, p)) != PAPCOLL_OK)
        goto fail; /* collective: the model once per context, the rules' agreement */
    site->policy = *p;
    site->waits = papcoll__site_waits(site);
fail:
    free(p);
    return rc;
}

/* The receive buffer background parts may fill directly: a contiguous one
 * (others are staged and unpacked at the call). */
int papcoll_site_bind_recv(papcoll_site_t *site, void *recvbuf, int recvcount, MPI_Datatype recvtype)
{
    MPI_Aint lb, extent, tlb, textent;
    int size = 0;

    if (site == NULL || recvcount < 0)
        return PAPCOLL_ERR_INVAL;
    if (site->queued)
        return PAPCOLL_ERR_STATE; /* a background part may be using the old binding */
    papcoll__wait_idle(site);
    site->x.bound = NULL;
    site->x.bound_bytes = 0;
    if (recvbuf == NULL)
        return PAPCOLL_OK;
    if (recvtype == MPI_DATATYPE_NULL || PMPI_Type_size(recvtype, &size) != MPI_SUCCESS ||
        PMPI_Type_get_extent(recvtype, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(recvtype, &tlb, &textent) != MPI_SUCCESS)
        return PAPCOLL_ERR_DATATYPE;
    if (tlb != 0 || extent != size || textent != size)
        return PAPCOLL_OK; /* not contiguous: staged */
    site->x.bound = recvbuf;
    site->x.bound_bytes = (size_t)recvcount * (size_t)size;
    return PAPCOLL_OK;
}

int papcoll_site_set_identity(papcoll_site_t *site, const void *identity, size_t bytes)
{
    uint64_t h[2], lo[2], hi[2];
    unsigned char *copy = NULL;
    int rc;

    if (site == NULL || (site->op != PAPCOLL_OP_REDUCE && site->op != PAPCOLL_OP_ALLREDUCE) ||
        (identity != NULL && (bytes == 0 || bytes > INT_MAX)))
        return PAPCOLL_ERR_INVAL;
    if (site->queued)
        return PAPCOLL_ERR_STATE; /* between a call's edge and the call */
    papcoll__wait_idle(site);
    if (identity != NULL && (copy = malloc(bytes)) != NULL)
        memcpy(copy, identity, bytes);
    rc = identity != NULL && copy == NULL ? PAPCOLL_ERR_NOMEM : PAPCOLL_OK;
    h[0] = identity == NULL ? 0 : bytes;
    h[1] = identity == NULL ? 0 : papcoll__fnv(0xCBF29CE484222325ULL, identity, bytes);
    if ((rc = agree_local(site->ctx, "papcoll_site_set_identity", rc, NULL)) == PAPCOLL_OK &&
        (PMPI_Allreduce(h, lo, 2, MPI_UINT64_T, MPI_MIN, site->ctx->data_comm) != MPI_SUCCESS ||
         PMPI_Allreduce(h, hi, 2, MPI_UINT64_T, MPI_MAX, site->ctx->data_comm) != MPI_SUCCESS))
        rc = PAPCOLL_ERR_MPI;
    if (rc == PAPCOLL_OK && (lo[0] != hi[0] || lo[1] != hi[1]))
        rc = PAPCOLL_ERR_AGREE;
    if (rc != PAPCOLL_OK) {
        free(copy);
        return rc;
    }
    free(site->x.identity);
    site->x.identity = copy;
    site->x.identity_bytes = identity == NULL ? 0 : bytes;
    return PAPCOLL_OK;
}

int papcoll_site_last_timing(const papcoll_site_t *site, papcoll_timing_t *t)
{
    if (site == NULL || t == NULL)
        return PAPCOLL_ERR_INVAL;
    *t = site->timing;
    return PAPCOLL_OK;
}

int papcoll_site_set_arrival(papcoll_site_t *site, double arrival)
{
    if (site == NULL || !isfinite(arrival))
        return PAPCOLL_ERR_INVAL;
    site->marks.given_arrival = arrival;
    return PAPCOLL_OK;
}

int papcoll_processing_start(papcoll_site_t *site)
{
    if (site == NULL)
        return PAPCOLL_ERR_INVAL;
    site->marks.t_start = site->marks.cstart = papcoll__now(site->ctx);
    return PAPCOLL_OK;
}

/*
 * The edge only queues job k: its exchange of this rank's estimate and,
 * when the call will wait for it, a decision for the previous call's
 * signature (the call's own is not known yet; a call without an edge
 * queues the same, so every rank's job is the same).  Before the first
 * call no signature is known and the call decides.  Without a monitor
 * thread the call exchanges the estimate, when its decision needs it.
 */
int papcoll_edge(papcoll_site_t *site, double fraction)
{
    double now;

    if (site == NULL || !(fraction > 0 && fraction <= 1))
        return PAPCOLL_ERR_INVAL;
    if (isnan(site->marks.t_start))
        return PAPCOLL_ERR_STATE;
    if (site->queued || !isnan(site->marks.est))
        return PAPCOLL_OK; /* first edge of the iteration only */
    now = papcoll__now(site->ctx);
    site->marks.est = site->marks.t_start + (now - site->marks.t_start) / fraction;
    site->marks.edge = now;
    if (!site->has_thread)
        return PAPCOLL_OK;
    return papcoll__job_plan(site, site->marks.est, NULL, site->last_sig.root != -2 ? &site->last_sig : NULL);
}

int papcoll_site_observe(papcoll_site_t *site, const papcoll_observed_t *o)
{
    papcoll__args_t a = {.x = &site->x};

    if (site == NULL || o == NULL || !isfinite(o->arrival) || !isfinite(o->exit) || o->exit < o->arrival ||
        o->bytes < 0 || o->count < 0 ||
        (site->op == PAPCOLL_OP_ALLREDUCE ? o->root != -1 : (o->root < 0 || o->root >= site->ctx->size)))
        return PAPCOLL_ERR_INVAL;
    if (site->has_thread || papcoll__policy_uses_data(&site->policy))
        return PAPCOLL_ERR_STATE; /* its exchanges and plans would have to happen anyway */
    a.op = site->op;
    a.comm = site->x.comm;
    a.rank = site->ctx->rank;
    a.size = site->ctx->size;
    a.root = a.sig.root = o->root;
    a.bytes = a.sig.bytes = (size_t)o->bytes;
    a.u_scount = a.u_rcount = a.sig.count = o->count;
    a.u_stype = a.u_rtype = MPI_DATATYPE_NULL;
    a.sig.mop = MPI_OP_NULL;
    papcoll__record_name_type(site, o->datatype);
    site->timing.decision = 0;
    site->marks.given_arrival = NAN;
    papcoll__call_finish(site, &a, PAPCOLL__ALGO_BASELINE, "observed: the caller ran the MPI library's collective", "",
                         o->arrival, o->exit);
    return PAPCOLL_OK;
}

int papcoll_processing_end(papcoll_site_t *site)
{
    if (site == NULL)
        return PAPCOLL_ERR_INVAL;
    if (isnan(site->marks.t_start))
        return PAPCOLL_ERR_STATE;
    site->marks.t_start = NAN;
    site->marks.cend = papcoll__now(site->ctx);
    return PAPCOLL_OK;
}
