/*
 * reduce "noncommut_treedyn": Non-Commut-Tree-dyn (Benoit, Canon, Marchal
 * 2013, Sect. 3.2).  Arrival-driven like treedyn, but a value (the product
 * of a rank range [lo, hi)) may only be combined with a neighbouring range:
 * an idle holder is paired with an idle holder of the range just below
 * (preferred) or just above, and waits otherwise.  The lower range is the
 * left operand, so the result is m_0 (op) ... (op) m_P-1 for any
 * associative operation.  Coordinator in the root's monitor thread
 * (engine_dyn.c); the range holding the root receives, so the result ends
 * at the root.
 *
 *   P = 4, root 0, arrivals 2, 3, 0, 1:
 *     2 idle: neighbours [1] and [3] busy: waits
 *     3 idle: [2] idle below: 2 -> 3 ([2,4) at 3; the upper range receives)
 *     0 idle: [1] busy: waits
 *     3 idle (done): its lower neighbour [1] is busy: waits
 *     1 idle: [0] idle below: 1 -> 0 ([0,2) at 0, the root's range receives)
 *     0 idle: [2,4) idle above: 3 -> 0, last pairing
 *
 * Cost: as treedyn when neighbours become idle together; a rank can wait
 * although others are idle when none of them is its neighbour (Benoit Fig.
 * 3: up to 4/3 the levels).  Memory: two vectors per rank; the coordinator
 * 6 P ints (plan data).
 * Restrictions: ORDERED; BACKGROUND (falls back to binomial without the
 * monitor thread).  Floating-point bracketing depends on the arrival order.
 */
#include "reduce/engine.h"

int papcoll__reduce_noncommut_treedyn_bg(papcoll__exec_t *x, int root)
{
    return papcoll__red_dyn_coordinator(x, x->plan, root, PAPCOLL__DYN_NEIGHBOUR);
}

int papcoll_reduce_noncommut_treedyn(const papcoll__args_t *a)
{
    return papcoll__red_dyn_participant(a, PAPCOLL__DYN_NEIGHBOUR);
}
