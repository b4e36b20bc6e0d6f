/*
 * One call of papbench, per operation: the buffers each rank holds, their
 * self-checking contents (data.h), the call through the algorithm's site,
 * the validation of what every rank holds afterwards, and which receive
 * buffer papcoll may bind.
 *
 *   op         send buffer          receive buffer       checked after the call
 *   gather     own block            P blocks (root)      root: every block
 *   scatter    P blocks (root)      own block            every rank: its block
 *   bcast      -                    the vector           every rank: the root's vector
 *   reduce     own vector           the result (root)    root: the reduction
 *   allreduce  own vector           the result           every rank: the reduction
 *
 * Blocks and vectors hold cfg->count elements; every rank also checks that
 * the data it sent is unchanged (the library takes it const).
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "data.h"

MPI_Datatype call_type(const bench_config_t *c)
{
    switch (c->type) {
    case ELEM_FLOAT:
        return MPI_FLOAT;
    case ELEM_DOUBLE:
        return MPI_DOUBLE;
    case ELEM_INT:
        return MPI_INT;
    default:
        return MPI_BYTE;
    }
}

MPI_Op call_op(const bench_config_t *c)
{
    if (!c->reduction)
        return MPI_OP_NULL;
    switch (c->reduce_op) {
    case RED_SUM:
        return MPI_SUM;
    case RED_MAX:
        return MPI_MAX;
    case RED_MIN:
        return MPI_MIN;
    case RED_PROD:
        return MPI_PROD;
    case RED_BAND:
        return MPI_BAND;
    default:
        return MPI_BOR;
    }
}

/* Bytes of one rank's block or vector. */
static size_t part_bytes(const bench_config_t *c)
{
    return (size_t)c->count * elem_size(c->type);
}

/* Parts of cfg->count elements in this rank's send and receive buffers. */
static void shape(const bench_t *b, size_t *send, size_t *recv)
{
    int root = b->rank == b->cfg->root;
    size_t P = (size_t)b->nprocs;

    switch (b->cfg->op) {
    case PAPCOLL_OP_GATHER:
        *send = 1, *recv = root ? P : 0;
        break;
    case PAPCOLL_OP_SCATTER:
        *send = root ? P : 0, *recv = 1;
        break;
    case PAPCOLL_OP_BCAST:
        *send = 0, *recv = 1;
        break;
    case PAPCOLL_OP_REDUCE:
        *send = 1, *recv = root ? 1 : 0;
        break;
    default:
        *send = 1, *recv = 1;
        break;
    }
}

int call_alloc(bench_t *b)
{
    size_t send, recv, part = part_bytes(b->cfg);

    shape(b, &send, &recv);
#ifdef PAPCOLL_SMPI
    /* SMPI's reduce arrival_pattern_aware (SimGrid 3.32) copies every rank's
     * contribution into the receive buffer, also where MPI ignores it: give
     * the non-roots one, never checked (docs/simulation.md). */
    if (b->cfg->op == PAPCOLL_OP_REDUCE)
        recv = 1;
#endif
#ifdef PAPCOLL_SMPI
    /* One block mapped into every rank's buffers: SMPI copies no bytes of it;
     * the library's work buffers too. */
    if (b->cfg->shared_buffers) {
        papcoll_sim_shared_scratch(1);
        b->sendbuf = send ? SMPI_SHARED_MALLOC(send * part + 1) : NULL;
        b->recvbuf = recv ? SMPI_SHARED_MALLOC(recv * part + 1) : NULL;
        return (send == 0 || b->sendbuf != NULL) && (recv == 0 || b->recvbuf != NULL);
    }
#endif
    /* Never NULL, even for empty parts: a NULL buffer means "insignificant" to MPI. */
    b->sendbuf = send ? calloc(send * part + 1, 1) : NULL;
    b->recvbuf = recv ? calloc(recv * part + 1, 1) : NULL;
    return (send == 0 || b->sendbuf != NULL) && (recv == 0 || b->recvbuf != NULL);
}

void call_prepare(const bench_t *b, uint64_t tag)
{
    const bench_config_t *c = b->cfg;
    size_t part = part_bytes(c), n = (size_t)c->count, send, recv;
    int r;

    if (c->shared_buffers)
        return;
    shape(b, &send, &recv);
    if (recv > 0)
        data_poison(b->recvbuf, recv * part);
    switch (c->op) {
    case PAPCOLL_OP_GATHER:
        data_fill(b->sendbuf, c->type, n, tag, b->rank);
        break;
    case PAPCOLL_OP_SCATTER:
        for (r = 0; r < (int)send; r++)
            data_fill((char *)b->sendbuf + (size_t)r * part, c->type, n, tag, r);
        break;
    case PAPCOLL_OP_BCAST:
        if (b->rank == c->root)
            data_fill(b->recvbuf, c->type, n, tag, c->root);
        break;
    default:
        data_fill_reduce(b->sendbuf, c->type, c->reduce_op, n, tag, b->rank, b->nprocs);
        break;
    }
}

int call_run(const bench_t *b, int a)
{
    const bench_config_t *c = b->cfg;
    papcoll_site_t *site = b->res[a].site;
    MPI_Datatype t = call_type(c);
    int n = (int)c->count;

    switch (c->op) {
    case PAPCOLL_OP_GATHER:
        return papcoll_gather(site, b->sendbuf, n, t, b->recvbuf, n, t, c->root);
    case PAPCOLL_OP_SCATTER:
        return papcoll_scatter(site, b->sendbuf, n, t, b->recvbuf, n, t, c->root);
    case PAPCOLL_OP_BCAST:
        return papcoll_bcast(site, b->recvbuf, n, t, c->root);
    case PAPCOLL_OP_REDUCE:
        return papcoll_reduce(site, b->sendbuf, b->recvbuf, n, t, call_op(c), c->root);
    default:
        return papcoll_allreduce(site, b->sendbuf, b->recvbuf, n, t, call_op(c));
    }
}

const char *call_name(const bench_t *b)
{
    static const char *const names[PAPCOLL_OP_COUNT] = {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) [PAPCOLL_OP_##NAME] = "papcoll_" #name,
#include "papcoll_ops.def"
#undef PAPCOLL_OP
    };

    return names[b->cfg->op];
}

void call_corrupt(const bench_t *b)
{
    size_t send, recv, at = (size_t)b->cfg->count / 3 * elem_size(b->cfg->type);

    shape(b, &send, &recv);
    if (b->cfg->count == 0)
        return;
    if (recv > 0)
        ((unsigned char *)b->recvbuf)[at] ^= 1;
    else
        ((unsigned char *)b->sendbuf)[at] ^= 1;
}

/* Prints a mismatch at element `bad` (>= 0) of the call; returns 1, or 0 when bad < 0.
 * owner >= 0: the block of that rank (gather, scatter), else a vector. */
static int report(const bench_t *b, int a, long g, const char *what, long long bad, int owner)
{
    const bench_config_t *c = b->cfg;
    char round[64], block[96] = "";

    if (bad < 0)
        return 0;
    if (owner >= 0)
        snprintf(block, sizeof block, " (block of rank %d, index %lld)", owner, bad);
    fprintf(stderr, "papbench: validation FAILED: %s %s, %s, rank %d: %s, first bad element %lld%s\n",
            papcoll_op_name(c->op), bench_label(c, a),
            bench_round_label(c, g, round, sizeof round), b->rank, what,
            owner >= 0 ? (long long)owner * c->count + bad : bad, block);
    return 1;
}

/* Blocks [first, first + nblocks) of buf, block r holding rank r's data. */
static int check_blocks(const bench_t *b, int a, long g, uint64_t tag, const void *buf, int first,
                        int nblocks, const char *what)
{
    const bench_config_t *c = b->cfg;
    size_t part = part_bytes(c);
    int r, bad = 0;

    for (r = first; !bad && r < first + nblocks; r++)
        bad = report(
            b, a, g, what,
            data_check((const char *)buf + (size_t)(r - first) * part, c->type, (size_t)c->count, tag, r), r);
    return bad;
}

int call_validate(const bench_t *b, int a, long g, uint64_t tag)
{
    const bench_config_t *c = b->cfg;
    size_t n = (size_t)c->count, send, recv;
    int root = b->rank == c->root, bad;

    if (c->shared_buffers)
        return 0;
    shape(b, &send, &recv);
    switch (c->op) {
    case PAPCOLL_OP_GATHER:
        bad = check_blocks(b, a, g, tag, b->sendbuf, b->rank, 1, "send buffer modified");
        return bad || check_blocks(b, a, g, tag, b->recvbuf, 0, (int)recv, "received data");
    case PAPCOLL_OP_SCATTER:
        bad = check_blocks(b, a, g, tag, b->sendbuf, 0, (int)send, "send buffer modified");
        return bad || check_blocks(b, a, g, tag, b->recvbuf, b->rank, 1, "received data");
    case PAPCOLL_OP_BCAST:
        return report(b, a, g, root ? "the root's buffer modified" : "received data",
                      data_check(b->recvbuf, c->type, n, tag, c->root), -1);
    default:
        bad = report(b, a, g, "send buffer modified",
                     data_check_contribution(b->sendbuf, c->type, c->reduce_op, n, tag, b->rank, b->nprocs),
                     -1);
        return bad || (recv > 0 &&
                       report(b, a, g, "result",
                              data_check_reduce(b->recvbuf, c->type, c->reduce_op, n, tag, b->nprocs), -1));
    }
}

/*
 * The receive buffer a background part can land in: the root's of a
 * gather, a non-root's of a scatter or a bcast (papcoll.h); reductions have
 * none.  A site on which the library refuses the binding stages instead:
 * counted, not fatal.
 */
void call_bind(bench_t *b)
{
    const bench_config_t *c = b->cfg;
    int root = b->rank == c->root, want, rc, a, mine[3] = {0, 0, 0}, all[3];

    want = c->op == PAPCOLL_OP_GATHER                                 ? root
           : c->op == PAPCOLL_OP_SCATTER || c->op == PAPCOLL_OP_BCAST ? !root
                                                                      : 0;
    for (a = 0; want && !c->no_bind && a < c->nalgos; a++) {
        rc = papcoll_site_bind_recv(b->res[a].site, b->recvbuf, (int)c->count, call_type(c));
        if (rc != PAPCOLL_OK) {
            mine[1] = 1;
            mine[2] = rc;
        }
    }
    mine[0] = want && !c->no_bind && !mine[1];
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&mine[2], &all[2], 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    b->bind_ranks = all[0];
    b->bind_refused = all[1];
    b->bind_error = all[2];
}
