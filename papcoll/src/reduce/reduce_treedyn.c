/*
 * reduce "treedyn": Tree-dyn (Benoit, Canon, Marchal 2013, Sect. 3.2):
 * arrival-driven pairing without any prediction.  As soon as two ranks are
 * idle (arrived, or done combining), one sends its value to the other,
 * which combines; the tree is whatever the arrivals make it.  Coordinator:
 * one slot, kept by the background part in the root's monitor thread
 * (engine_dyn.c); the root never sends, so the result ends there.
 *
 *   P = 4, root 0, READYs in this order:
 *     2 (arrived)            slot = 2
 *     0 (arrived)            the root: 2 -> 0, slot empty
 *     3 (arrived)            slot = 3
 *     0 (combined 2)         3 -> 0, slot empty; only 1 has not come, so the
 *                            last pairing can only be 1 -> 0: 1 is told now
 *     1 (arrived)            sends to 0 at once (its READY is only counted);
 *                            0 combines it and holds the result
 *   (had 1 arrived while 0 combined 2, 1 -> 3 would have run meanwhile)
 *   with all arriving at once it pairs like a binomial tree, in READY order.
 *
 * Streamed (S segments with S (ceil(log2 P) - 1) > P - 1, engine_dyn.c:
 * the chain's pipeline beats whole values when balanced): the same slot, but a
 * receiving rank takes it at once and the slot's rank streams to the
 * newcomer, so the non-roots chain in arrival order to the root, each
 * combining and forwarding segment by segment:
 *   P = 4, root 0, arrivals 2, 3, 1:  2 --> 3 --> 1 --> 0
 * After the last arrival only its stream remains (about n beta plus P
 * segment hops); balanced, a linear pipeline.
 *
 * Cost: whole values, balanced, ceil(log2 P) levels of (alpha + n beta +
 * n gamma) plus the coordination per level (READY + ORDER + the coordinator's
 * reaction); imbalanced, a value waits for the next
 * idle rank only, never for a fixed partner, so after the last arrival at
 * most about log2 of the ranks still busy levels remain (Benoit Thm 1: a
 * Delta-approximation).  Memory: two vectors per rank.
 * Restrictions: COMMUTATIVE_ONLY (any two values combine, in arrival
 * order; falls back to noncommut_treedyn); BACKGROUND (needs the monitor
 * thread: its coordinator must run while the root computes).  Floating-point
 * results depend on the arrival order (the bracketing is the pairing's).
 */
#include "reduce/engine.h"

int papcoll__reduce_treedyn_bg(papcoll__exec_t *x, int root)
{
    return papcoll__red_dyn_coordinator(x, x->plan, root, PAPCOLL__DYN_ANY);
}

int papcoll_reduce_treedyn(const papcoll__args_t *a)
{
    return papcoll__red_dyn_participant(a, PAPCOLL__DYN_ANY);
}
