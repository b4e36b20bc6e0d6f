/*
 * reduce "ring": parallel ring, a.k.a. bucket or cyclic reduction (Chan et
 * al. 2007, Sect. 5; Patarasuk and Yuan 2009; Marendic 2016 Sect. 5.5.2).
 * Positions q = (rank - root) mod P (the plan's rotated placement); the
 * vector is cut into P blocks, block b of position b.
 *
 *   reduce-scatter, P-1 steps: in step j position q sends its partial of
 *     block q-j-1 to q+1 and receives block q-j-2 from q-1, which it
 *     combines with its own part of that block.  A block thus travels once
 *     around the ring from the position after its owner; after the last
 *     step position q holds block q complete.
 *   gather: the blocks go to the root up the binomial tree of the
 *     positions (subtree of v = blocks [v, v + span), one contiguous range).
 *
 *   P = 4, blocks A B C D of positions 0 1 2 3 (a partial of block X
 *   combined over positions i..j is X[i..j]):
 *     step 0: 0->1 D[0]     1->2 A[1]     2->3 B[2]     3->0 C[3]
 *     step 1: 0->1 C[3..0]  1->2 D[0..1]  2->3 A[1..2]  3->0 B[2..3]
 *     step 2: 0->1 B[2..0]  1->2 C[3..1]  2->3 D[0..2]  3->0 A[1..3]
 *     now 0 holds A, 1 B, 2 C, 3 D; gather 1->0 3->2, then 2->0.
 *
 * Blocks are combined in ring order, not rank order, so the operation must
 * be commutative (falls back to rabenseifner otherwise).
 * Cost: (P-1)(alpha + (n/P)(beta + gamma)) + ceil(log2 P) alpha + ((P-1)/P)
 * n beta, i.e. (P - 1 + log P) alpha + ((P-1)/P) n (2 beta + gamma)
 * (Marendic Table 3): bandwidth- and computation-optimal, latency linear in P.
 * Memory: two blocks, plus the subtree's blocks at gather nodes.
 */
#include <stdlib.h>

#include "reduce/engine.h"

int papcoll__plan_red_rotated(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    int rc = papcoll__plan_tree(plan, in, PAPCOLL__TREE_BINOMIAL, 2);

    if (rc == PAPCOLL_OK)
        papcoll__place_rotate(plan, in);
    return rc;
}

/* First element of block b (blocks differ by at most one element). */
static int block_lo(int count, int P, int b)
{
    int base = count / P, extra = count % P;

    return b * base + (b < extra ? b : extra);
}

static int block_n(int count, int P, int b)
{
    return block_lo(count, P, b + 1) - block_lo(count, P, b);
}

/* The reduce-scatter; the complete block q ends in bufs[(P-2) % 2]. */
static int ring(const papcoll__args_t *a, int q, char *bufs, size_t bmax)
{
    const int *v2r = a->plan->v2r;
    int P = a->size, count = a->sig.count, next = v2r[(q + 1) % P], prev = v2r[(q + P - 1) % P], j, sb, rb,
        rc;
    size_t es = a->sig.esize;
    MPI_Request req[2];
    const char *out;
    char *in;

    for (j = 0; j < P - 1; j++) {
        sb = ((q - j - 1) % P + P) % P;
        rb = ((q - j - 2) % P + P) % P;
        out = j == 0 ? a->sbuf + (size_t)block_lo(count, P, sb) * es : bufs + (size_t)((j - 1) % 2) * bmax;
        in = bufs + (size_t)(j % 2) * bmax;
        if ((rc = papcoll__irecv_bytes(in, (size_t)block_n(count, P, rb) * es, prev, PAPCOLL__TAG_DATA,
                                       a->comm, &req[0])) != PAPCOLL_OK ||
            (rc = papcoll__isend_bytes(out, (size_t)block_n(count, P, sb) * es, next, PAPCOLL__TAG_DATA,
                                       a->comm, &req[1])) != PAPCOLL_OK ||
            (rc = papcoll__waitall(2, req, MPI_STATUSES_IGNORE)) != PAPCOLL_OK)
            return rc;
        rc = papcoll__reduce_local(a, a->sbuf + (size_t)block_lo(count, P, rb) * es, in,
                                   block_n(count, P, rb));
        if (rc != PAPCOLL_OK)
            return rc;
    }
    return PAPCOLL_OK;
}

/* Gathers blocks [q, q + span) (q's own first, in mine) into buf and passes
 * them to the parent; the root's buf is rbuf. */
static int gather(const papcoll__args_t *a, int q, const char *mine, char *buf)
{
    const papcoll__tree_t *t = a->plan->tree;
    int P = a->size, count = a->sig.count, nc = papcoll__tree_nkids(t, q), lo = block_lo(count, P, q), i, c,
        rc;
    size_t es = a->sig.esize;
    MPI_Request *req = a->x->fg.reqs;

    papcoll__copy(buf, mine, (size_t)block_n(count, P, q) * es);
    for (i = 0; i < nc; i++) {
        c = papcoll__tree_kid(t, q, i);
        rc = papcoll__irecv_bytes(buf + (size_t)(block_lo(count, P, c) - lo) * es,
                                  (size_t)(block_lo(count, P, t->hi[c]) - block_lo(count, P, c)) * es,
                                  a->plan->v2r[c], PAPCOLL__TAG_DATA, a->comm, &req[i]);
        if (rc != PAPCOLL_OK)
            return rc;
    }
    if ((rc = papcoll__waitall(nc, req, MPI_STATUSES_IGNORE)) != PAPCOLL_OK || q == t->root)
        return rc;
    return papcoll__send_bytes(buf, (size_t)(block_lo(count, P, t->hi[q]) - lo) * es,
                               a->plan->v2r[t->parent[q]], PAPCOLL__TAG_DATA, a->comm);
}

int papcoll_reduce_ring(const papcoll__args_t *a)
{
    int P = a->size, count = a->sig.count, q = a->plan->r2v[a->rank], rc;
    size_t es = a->sig.esize, bmax = (size_t)block_n(count, P, 0) * es, sub;
    char *bufs, *mine, *gbuf;

    if (a->bytes == 0)
        return PAPCOLL_OK;
    sub = q == 0 ? 0 : (size_t)(block_lo(count, P, a->plan->tree->hi[q]) - block_lo(count, P, q)) * es;
    if ((bufs = papcoll__work_alloc(2 * bmax + sub + 1)) == NULL)
        return PAPCOLL_ERR_NOMEM;
    rc = ring(a, q, bufs, bmax);
    mine = P == 1 ? (char *)a->sbuf : bufs + (size_t)((P - 2) % 2) * bmax;
    gbuf = q == 0 ? a->rbuf : bufs + 2 * bmax;
    if (rc == PAPCOLL_OK)
        rc = gather(a, q, mine, gbuf);
    papcoll__work_free(bufs);
    return rc;
}
