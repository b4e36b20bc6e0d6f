/*
 * Arrival-driven pairing as pure data (Benoit, Canon, Marchal 2013, Sect.
 * 3.2: Tree-dyn and Non-Commut-Tree-dyn): the coordinator's rules behind
 * reduce treedyn and noncommut_treedyn.  No MPI here; reduce/engine_dyn.c
 * carries the reports and orders this state machine produces, and
 * tests/test_dyn.c drives it serially for every P of an event simulation.
 *
 * Every rank starts busy, holding its own value.  A rank reports when it
 * is idle (it arrived, or finished a combine); the rules answer with a
 * pairing, snd gives its value to rcv, which combines it and reports again,
 * or with nothing (the rank waits).  The root never sends: a pairing that
 * involves the root's value makes the root receive, so the last of the
 * P - 1 pairings, between the root's value and the one other left, ends at
 * the root.
 *
 *   ANY (Tree-dyn): one slot.  A report finds the slot empty: the rank
 *     waits there; else the slot's rank and the newcomer are paired, the
 *     newcomer sends (unless it is the root).  Commutative operations only.
 *   NEIGHBOUR (Non-Commut-Tree-dyn): every value is the product of a range
 *     of ranks [lo, hi); an idle holder is paired with the idle holder of
 *     the range just below (preferred) or just above, else waits.  The
 *     lower range is the left operand and the range holding the root
 *     receives (else the upper one), so ranges stay contiguous and the
 *     result is m_0 (op) ... (op) m_P-1.
 *   LAST (both): once the root has reported and only its value and that of
 *     one rank L that has not reported are left (P - 2 pairings), the rules
 *     can only end with L -> root: papcoll__dyn_last decides it then, so the
 *     coordinator orders L before it comes; L's report is then only counted.
 *   Streamed ANY (papcoll__dyn_streams): every non-root reports once; the
 *     slot's rank streams its value to the newcomer, which takes the slot,
 *     and the last non-root streams to the root.  So the non-roots chain in
 *     report order: each is told FROM (whose stream it takes, -1 for the
 *     first) and TO (where its own goes), the root only FROM.  Once one
 *     non-root L is left to report, its place is known (last), and the
 *     report before L's gives every order that involves L.
 *
 *   ANY, P = 4, root 0, reports 2, 0, 3, 0 (combined 2), 1:
 *     2: slot = 2        0: 2 -> 0         3: slot = 3
 *     0: 3 -> 0, and papcoll__dyn_last gives 1 -> 0 (final) before 1 comes
 *     1: only counted
 *   NEIGHBOUR, P = 4, root 0, reports 2, 3, 0, 3, 1, 0:
 *     2: waits  3: 2 -> 3 ([2,4) at 3)  0: waits  3: waits
 *     1: 1 -> 0 ([0,2) at 0)  0: 3 -> 0 (final)
 *
 * Cost: O(1) per report, but O(P) once per reduction for the report that
 * finds L (papcoll__dyn_last, streamed).  Memory: 6 P ints.
 */
#ifndef PAPCOLL_SCHED_DYN_H
#define PAPCOLL_SCHED_DYN_H

#include <stddef.h>

typedef enum { PAPCOLL__DYN_ANY, PAPCOLL__DYN_NEIGHBOUR } papcoll__dyn_policy_t;

/* Ints of a state's arrays for P ranks. */
#define PAPCOLL__DYN_INTS(P) (6 * (size_t)(P))

typedef struct {
    int P, root, slot, pairs;
    int nseen; /* ranks that reported at least once (streamed: non-roots) */
    int pre;   /* the rank ordered before it reported (whole values: to send to the root;
                * streamed: its FROM and TO), or -1 */
    papcoll__dyn_policy_t policy;
    int *hi;     /* [lo]: end of the live range starting at lo, -1: none */
    int *lo_of;  /* [e]: start of the live range ending at e (hi = e + 1) */
    int *holder; /* [lo]: rank holding the range's value */
    int *idle;   /* [lo]: its holder waits for an order */
    int *range;  /* [rank]: start of the range the rank holds */
    int *seen;   /* [rank]: it reported at least once */
} papcoll__dyn_t;

/* One pairing: snd gives its value to rcv, which combines it on the left
 * (left: snd's value is the lower operand) or the right; final: the last. */
typedef struct {
    int snd, rcv, left, final;
} papcoll__dyn_pair_t;

/* A streamed pairing's instruction to dst: FROM (your input stream comes
 * from peer, -1: none) or TO (send your stream to peer); late (the root's
 * FROM only): peer was ordered ahead, and its report is the root's to take. */
enum { PAPCOLL__DYN_FROM = 3, PAPCOLL__DYN_TO = 4 };
typedef struct {
    int dst, kind, peer, late;
} papcoll__dyn_order_t;
#define PAPCOLL__DYN_MAXORD 6

/* Sets c up for P ranks with its arrays in ints[PAPCOLL__DYN_INTS(P)]. */
void papcoll__dyn_init(papcoll__dyn_t *c, int P, int *ints);
/* A new reduction at root: every rank busy, holding its own value. */
void papcoll__dyn_reset(papcoll__dyn_t *c, papcoll__dyn_policy_t policy, int root);
/* Whole values: rank q reports; 1 with *out when that makes a pairing,
 * else 0.  Once the last pairing is decided (papcoll__dyn_last), the root's
 * report returns it and the last rank's is only counted. */
int papcoll__dyn_ready(papcoll__dyn_t *c, int q, papcoll__dyn_pair_t *out);
/* Whole values, LAST: 1 with the final pairing L -> root in *out, once,
 * when the root has reported, P - 2 pairings are made and one rank L has
 * not reported; else 0. */
int papcoll__dyn_last(papcoll__dyn_t *c, papcoll__dyn_pair_t *out);
/* Whether reports of this reduction are still to come. */
int papcoll__dyn_expects(const papcoll__dyn_t *c);
/*
 * Whether treedyn streams a value of S segments among P ranks: when the
 * chain's balanced pipeline of about S + P - 1 segment hops is shorter than
 * Tree-dyn's ceil(log2 P) whole transfers of S segments each, i.e.
 * S (ceil(log2 P) - 1) > P - 1 (P = 8: S >= 4; never for P <= 2).
 */
int papcoll__dyn_streams(int P, int S);
/* Streamed: non-root q reports; fills out with the orders to send, in
 * that order, and returns how many (0-6; 0 for the rank ordered ahead). */
int papcoll__dyn_stream_ready(papcoll__dyn_t *c, int q, papcoll__dyn_order_t out[PAPCOLL__DYN_MAXORD]);

#endif
