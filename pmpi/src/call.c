/*
 * One intercepted collective: the pass-through decisions, each from what
 * every rank of the communicator sees alike (interposer off, size, context,
 * the agreement on the call site), then the call through papcoll on the
 * agreed site.  An intercommunicator call becomes collectives on its local
 * groups (inter.c), which come back here.
 *
 * Pass-through means the program's own arguments handed to PMPI_<Op> on the
 * program's communicator.  A call through papcoll runs on the site's
 * duplicate of it: the same group and ranks, so the same semantics (in
 * trace mode, the same PMPI_<Op> call of the MPI library, papcoll's "mpi"
 * algorithm); only messages of other communicators can no longer match it,
 * which no correct program relies on.
 *
 * The op adapters are generated from papcoll_ops.def: an op added there
 * without its three functions here does not compile.
 */
#include <stdio.h>

#include "pmpi.h"

/* Bytes of `count` elements of `type`; -1 for an invalid type (the
 * agreement then differs, and PMPI reports the error). */
static long long type_bytes(int count, MPI_Datatype type)
{
    MPI_Count size = 0;

    if (type == MPI_DATATYPE_NULL || PMPI_Type_size_x(type, &size) != MPI_SUCCESS)
        return -1;
    return (long long)count * (long long)size;
}

static int ip_run_gather(papcoll_site_t *s, const ip_call_t *c)
{
    return papcoll_gather(s, c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->root);
}
static int ip_pmpi_gather(const ip_call_t *c)
{
    return PMPI_Gather(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm);
}
static MPI_Datatype ip_block_gather(const ip_call_t *c, int rank, int *count)
{
    *count = rank == c->root ? c->rcount : c->scount;
    return rank == c->root ? c->rtype : c->stype;
}

static int ip_run_scatter(papcoll_site_t *s, const ip_call_t *c)
{
    return papcoll_scatter(s, c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->root);
}
static int ip_pmpi_scatter(const ip_call_t *c)
{
    return PMPI_Scatter(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm);
}
static MPI_Datatype ip_block_scatter(const ip_call_t *c, int rank, int *count)
{
    *count = rank == c->root ? c->scount : c->rcount;
    return rank == c->root ? c->stype : c->rtype;
}

/* bcast: the buffer travels as rbuf, rcount, rtype. */
static int ip_run_bcast(papcoll_site_t *s, const ip_call_t *c)
{
    return papcoll_bcast(s, c->rbuf, c->rcount, c->rtype, c->root);
}
static int ip_pmpi_bcast(const ip_call_t *c)
{
    return PMPI_Bcast(c->rbuf, c->rcount, c->rtype, c->root, c->comm);
}
static MPI_Datatype ip_block_bcast(const ip_call_t *c, int rank, int *count)
{
    (void)rank;
    *count = c->rcount;
    return c->rtype;
}

/* reductions: count and datatype travel as rcount, rtype. */
static int ip_run_reduce(papcoll_site_t *s, const ip_call_t *c)
{
    return papcoll_reduce(s, c->sbuf, c->rbuf, c->rcount, c->rtype, c->mop, c->root);
}
static int ip_pmpi_reduce(const ip_call_t *c)
{
    return PMPI_Reduce(c->sbuf, c->rbuf, c->rcount, c->rtype, c->mop, c->root, c->comm);
}
static MPI_Datatype ip_block_reduce(const ip_call_t *c, int rank, int *count)
{
    (void)rank;
    *count = c->rcount;
    return c->rtype;
}

static int ip_run_allreduce(papcoll_site_t *s, const ip_call_t *c)
{
    return papcoll_allreduce(s, c->sbuf, c->rbuf, c->rcount, c->rtype, c->mop);
}
static int ip_pmpi_allreduce(const ip_call_t *c)
{
    return PMPI_Allreduce(c->sbuf, c->rbuf, c->rcount, c->rtype, c->mop, c->comm);
}
static MPI_Datatype ip_block_allreduce(const ip_call_t *c, int rank, int *count)
{
    (void)rank;
    *count = c->rcount;
    return c->rtype;
}

typedef struct {
    int (*run)(papcoll_site_t *site, const ip_call_t *c);
    int (*pmpi)(const ip_call_t *c);
    MPI_Datatype (*block)(const ip_call_t *c, int rank, int *count); /* this rank's block */
} adapter_t;

static const adapter_t adapters[PAPCOLL_OP_COUNT] = {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) {ip_run_##name, ip_pmpi_##name, ip_block_##name},
#include "papcoll_ops.def"
#undef PAPCOLL_OP
};

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    return x ^ (x >> 32);
}

/* The counters of a call: a local collective of an intercommunicator call
 * (inter.c) counts only as a part of it, passed or not. */
static void count_passed(const ip_call_t *c, ip_pass_t why)
{
    if (c->part) {
        ip_count(IP_CNT_PARTS_PASSED, 1);
        return;
    }
    ip_count(why, 1);
    ip_count(IP_CNT_PASSED_OP0 + (int)c->op, 1);
}
static void count_handled(const ip_call_t *c, ip_kind_t kind)
{
    if (c->part) {
        ip_count(IP_CNT_PARTS, 1);
        return;
    }
    ip_count(IP_CNT_OP0 + (int)c->op, 1);
    ip_count(IP_CNT_KIND0 + (int)kind, 1);
}

static int pass(const ip_call_t *c, ip_pass_t why)
{
    count_passed(c, why);
    return adapters[c->op].pmpi(c);
}

/* A papcoll error as an MPI error, through the program's error handler on
 * its communicator (MPI_ERRORS_ARE_FATAL by default: the job stops). */
static int mpi_error(const ip_call_t *c, const ip_site_t *s, int rc)
{
    int code = rc == PAPCOLL_ERR_TRUNCATE ? MPI_ERR_TRUNCATE
               : rc == PAPCOLL_ERR_DATATYPE ? MPI_ERR_TYPE
               : rc == PAPCOLL_ERR_INVAL    ? MPI_ERR_ARG
                                            : MPI_ERR_INTERN;

    ip_count(IP_CNT_ERRORS, 1);
    fprintf(stderr, "papcoll_pmpi: rank %d: %s at site %s: %s\n", ip_g.world_rank, papcoll_op_name(c->op),
            s->name, papcoll_strerror(rc));
    PMPI_Comm_call_errhandler(c->comm, code);
    return code;
}

/*
 * Trace mode: the program's call goes through PMPI, unchanged, and is
 * recorded later.  Calls wait in a window until IP_TRACE_WINDOW of them
 * are there; then one MPI_Iallreduce of their keys starts the agreement on
 * their sites, and it is completed when the next window is full (or when
 * the communicator goes): the same points on every rank (the communicator's
 * sequence of collectives), so the site creations and record shipments
 * that follow them are too.  By then the agreement's few bytes have long
 * arrived.  Waiting for them at the call's exit, or at the next call, held
 * the non-roots of a 1 MiB reduce loop on the emulated cluster 9 ms a call:
 * an agreement posted with the collective queues behind its data on the
 * links.  Each call is then recorded on its agreed site
 * (papcoll_site_observe: every rank records its part; no data moves), from
 * plain values: the program may have freed the call's datatype or op.
 */
static void record_window(ip_comm_t *pc, ip_window_trace_t *w)
{
    ip_pass_t why;
    int i, idx, rc;

    ip_agree_complete(w);
    for (i = 0; i < w->n; i++) {
        const ip_traced_t *t = &w->call[i];

        why = IP_PASS_DIFFER;
        if ((idx = ip_agree_result(pc, w, i, &why)) < 0) {
            count_passed(&t->c, why);
            continue;
        }
        pc->sites[idx].calls++;
        if ((rc = papcoll_site_observe(pc->sites[idx].site, &t->obs)) != PAPCOLL_OK) {
            ip_count(IP_CNT_ERRORS, 1);
            fprintf(stderr, "papcoll_pmpi: rank %d: %s at site %s not recorded: %s\n", ip_g.world_rank,
                    papcoll_op_name(t->c.op), pc->sites[idx].name, papcoll_strerror(rc));
            continue;
        }
        count_handled(&t->c, pc->sites[idx].kind);
    }
    w->n = 0;
}

/* A full window: the one in flight is recorded, the full one takes off. */
static void window_full(ip_comm_t *pc)
{
    ip_window_trace_t *in_flight = &pc->tw[1 - pc->fill];

    if (in_flight->n > 0)
        record_window(pc, in_flight);
    ip_agree_post(pc, &pc->tw[pc->fill]);
    pc->fill = 1 - pc->fill;
}

/* When the communicator goes: every call still waiting is recorded. */
void ip_trace_flush(ip_comm_t *pc)
{
    if (pc->tw[pc->fill].n > 0)
        window_full(pc);
    if (pc->tw[1 - pc->fill].n > 0)
        record_window(pc, &pc->tw[1 - pc->fill]);
}

static int traced(ip_comm_t *pc, const ip_call_t *c, const ip_key_t *key, long long bytes, double arrival)
{
    const adapter_t *a = &adapters[c->op];
    ip_window_trace_t *w = &pc->tw[pc->fill];
    ip_traced_t *t = &w->call[w->n];
    MPI_Datatype type;
    int rc, len = 0;

    rc = a->pmpi(c);
    t->obs.exit = papcoll_wtime(pc->ctx);
    t->obs.arrival = arrival;
    t->obs.root = c->root;
    t->obs.bytes = bytes;
    type = a->block(c, pc->rank, &t->obs.count);
    t->type_name[0] = '\0';
    if (pc->rank == 0 && type != MPI_DATATYPE_NULL) /* the name the trace shows (rank 0's) */
        PMPI_Type_get_name(type, t->type_name, &len);
    t->obs.datatype = t->type_name;
    t->c = *c;
    t->key = *key;
    if (++w->n == IP_TRACE_WINDOW)
        window_full(pc);
    ip_inside--;
    return rc;
}

/* Through papcoll on the agreed site, or to PMPI with the reason counted.
 * The call's arrival is its entry here, before the agreement. */
static int handled(ip_comm_t *pc, const ip_call_t *c)
{
    const adapter_t *a = &adapters[c->op];
    double arrival = papcoll_wtime(pc->ctx);
    int count = 0;
    MPI_Datatype type = a->block(c, pc->rank, &count);
    long long bytes = type_bytes(count, type);
    ip_key_t key;
    ip_pass_t why = IP_PASS_DIFFER;
    ip_site_t *s;
    int idx, rc;

    key.sig = mix64(((uint64_t)c->op << 56) ^ ((uint64_t)(uint32_t)c->root << 24) ^ (uint64_t)bytes);
    key.path = mix64((ip_g.cfg.depth > 0 ? ip_site_key(c->caller, ip_g.cfg.depth) : 0) ^ key.sig);
    if (ip_g.cfg.mode == IP_MODE_TRACE)
        return traced(pc, c, &key, bytes, arrival);
    idx = ip_agree(pc, c, &key, bytes, &why);
    if (idx < 0) {
        ip_inside--;
        return pass(c, why);
    }
    s = &pc->sites[idx];
    s->calls++;
    rc = papcoll_site_set_arrival(s->site, arrival);
    if (rc == PAPCOLL_OK)
        rc = a->run(s->site, c);
    ip_inside--;
    if (rc == PAPCOLL_OK) {
        count_handled(c, s->kind);
        return MPI_SUCCESS;
    }
    return mpi_error(c, s, rc);
}

int ip_collective(const ip_call_t *c)
{
    int inter = 0, size = 0, rc;
    ip_comm_t *pc;

    if (ip_inside > 0 || !ip_g.ready) {
        if (ip_inside > 0)
            ip_count(IP_CNT_NESTED, 1);
        return adapters[c->op].pmpi(c);
    }
    if (ip_g.cfg.mode == IP_MODE_OFF)
        return pass(c, IP_PASS_OFF);
    if (c->comm == MPI_COMM_NULL || PMPI_Comm_test_inter(c->comm, &inter) != MPI_SUCCESS)
        return adapters[c->op].pmpi(c); /* not a communicator: MPI reports it */
    if (inter && (rc = ip_inter(c)) >= 0) /* via the local groups */
        return rc;
    if (inter)
        return pass(c, IP_PASS_INTERCOMM);
    PMPI_Comm_size(c->comm, &size);
    if (size < ip_g.cfg.min_ranks)
        return pass(c, IP_PASS_SMALL);
    ip_inside++;
    pc = ip_comm_get(c->comm);
    if (pc->ctx == NULL) {
        ip_inside--;
        return pass(c, IP_PASS_NOCONTEXT);
    }
    return handled(pc, c); /* leaves the guard */
}
