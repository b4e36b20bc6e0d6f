/*
 * Shared bcast machinery: the tree engine behind binomial, pipelined,
 * chain, sorted and the root of bsorted (engine_tree.c), the placement of
 * sorted trees, the segment size of SEGMENTED algorithms, and the non-root
 * call of the background variants.
 */
#ifndef PAPCOLL_BCAST_ENGINE_H
#define PAPCOLL_BCAST_ENGINE_H

#include "algo.h"

/*
 * The segment of SEGMENTED algorithms in bytes: ctx->segment_bytes
 * (PAPCOLL_SEGMENT_BYTES, the same on every rank), for reductions rounded
 * down to whole elements (at least one); 0 when the call moves nothing.
 * Reductions share their datatype (MPI requires the same count and type on
 * every rank), so every rank rounds alike.  A bcast's ranks may pass
 * different type maps of the same type signature (MPI_DOUBLE x 3n at the
 * root, a vector of 3 doubles x n elsewhere): their element sizes differ, so
 * a bcast's segments are plain bytes of the packed vector.
 */
static inline size_t papcoll__segment_bytes(const papcoll__args_t *a)
{
    size_t seg = a->x->ctx->segment_bytes, e = a->op == PAPCOLL_OP_BCAST ? 1 : a->sig.esize;

    if (a->bytes == 0 || e == 0)
        return 0;
    seg -= seg % e;
    return seg < e ? e : seg;
}

/*
 * Broadcasts a->rbuf (the root's holds the data) over a->plan's tree and
 * placement.  Each rank receives every segment from its parent and sends
 * it to its children one after another in the tree's service order before
 * it takes the next segment; the receive of segment s + 1 is posted before
 * the sends of segment s, so a chain receives and forwards at once
 * (Sanders 13.1.2 and 13.1.4).  seg = 0 or seg >= bytes: one message.
 */
int papcoll__bcast_tree(const papcoll__args_t *a, size_t seg);

/*
 * Placement of a pre-order tree (lo[v] == v, children above their parent)
 * by receive round: the tree's root on in->root, then the other positions
 * in the order in which an unsegmented papcoll__bcast_tree reaches them
 * (child i of v, in service order, receives in round(v) + 1 + i; ties by
 * position) take in->order, earliest predicted arrival first.  Without an
 * order, place_rotate.  plan->r2v is scratch until the end.
 */
void papcoll__bcast_place_round(papcoll__plan_t *plan, const papcoll__plan_in_t *in);

/*
 * A non-root's call of a background bcast (bsorted, bchain): waits for the
 * monitor thread's part, which left the data in the bound buffer or in
 * stage[0], checks its length against the call's and copies it to a->rbuf
 * (nothing to copy when it was bound there).
 */
int papcoll__bcast_bg_deliver(const papcoll__args_t *a);

#endif
