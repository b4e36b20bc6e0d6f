/*
 * allreduce "reduce_bcast": any papcoll reduce to rank 0, then any papcoll
 * bcast from rank 0, the pair chosen by the options allreduce_reduce and
 * allreduce_bcast (init.c: foreground algorithms that move packed bytes,
 * rank 0's choice on every rank; default rabenseifner + scatter_allgather,
 * the bandwidth-optimal pair: about 4 n beta + n gamma for large n).
 *
 * Cost: the reduce's plus the bcast's (docs/bcast-allreduce.md).  The
 * reduce part serves the call's operation through the reduce op's own
 * fallback chain (a COMMUTATIVE_ONLY choice falls back for a
 * non-commutative operation, e.g. clairvoyant to rabenseifner), so the
 * composite keeps rank order whenever the operation needs it: ORDERED.
 * Without predictions (not NEEDS_PAT), a PAP-aware choice plans as for a
 * balanced arrival; clairvoyant_bcast is the PAP-aware composite.
 */
#include "allreduce/engine.h"

int papcoll__plan_ar_reduce_bcast(papcoll__plan_t *plan, const papcoll__plan_in_t *in)
{
    return papcoll__ar_comp_plan(plan, in, 0, in->ctx->ar_reduce, in->ctx->ar_bcast);
}

int papcoll_allreduce_reduce_bcast(const papcoll__args_t *a)
{
    return papcoll__ar_comp_run(a, 1);
}
