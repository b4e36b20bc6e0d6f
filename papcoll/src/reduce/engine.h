/*
 * Shared reduce engines; the algorithm files are thin wrappers that choose
 * a tree (planner) and a segment size, or a radix vector, or a coordinator
 * policy.  Not installed.
 *
 *   engine_tree.c    any tree of sched/tree.h with the plan's placement,
 *                    segmented or not (binomial, pipelined, inorder,
 *                    fibonacci): Open MPI's reduce_generic, in rank order
 *   engine_radix.c   reduce-scatter by exchanges within groups of k, then
 *                    the reverse gather to the root (rabenseifner, radixk)
 *   engine_dyn.c     arrival-driven pairing through a coordinator in the
 *                    root's monitor thread (treedyn, noncommut_treedyn)
 *
 * Buffers are the argument record's (args.h): sbuf own vector, rbuf the
 * root's result; reductions are flagged CONTIG_ONLY, so both are packed
 * bytes and papcoll__reduce_local combines them.
 */
#ifndef PAPCOLL_REDUCE_ENGINE_H
#define PAPCOLL_REDUCE_ENGINE_H

#include <stdatomic.h>

#include "algo.h"

/*
 * Combines x into acc, n elements: acc := x (op) acc when x holds the
 * lower ranks' operand (x_left), acc := acc (op) x otherwise.  x may be
 * overwritten.  A commutative op combines the same way both sides (an
 * exchange of operands is exact for every MPI operation declared
 * commutative); a non-commutative one pays a copy for the right side.
 */
int papcoll__red_combine(const papcoll__args_t *a, char *x, char *acc, int n, int x_left);

/* The site's identity element (papcoll_site_set_identity, sparse.h) when
 * this call can use it (same element size, count > 0), else NULL. */
const void *papcoll__red_identity(const papcoll__args_t *a);

/* Like papcoll__red_combine, with x the sparse encoding (sparse.h, bytes
 * long) of n elements: combines its runs into acc, where the elements left
 * out are the identity.  PAPCOLL_ERR_TRUNCATE for a message that is not a
 * valid encoding.  x may be overwritten. */
int papcoll__red_combine_sparse(const papcoll__args_t *a, char *x, size_t bytes, char *acc, int n,
                                int x_left);

/* Elements per segment: ctx->segment_bytes rounded down to whole elements
 * (at least one). */
int papcoll__red_seg_elems(const papcoll__args_t *a);

/*
 * Tree reduction over a->plan->tree with the placement a->plan->v2r/r2v:
 * each position starts from its own vector, combines its children in
 * ascending position order (so with positions = ranks the result keeps
 * rank order) and sends the result to its parent, segment by segment
 * (seg_elems elements per segment; >= count: one message).  Receives are
 * posted ahead (two per child and segment window), so a transfer overlaps
 * the combine before it.  The tree's root forwards each finished segment to
 * the call's root when they differ.
 */
int papcoll__red_tree_engine(const papcoll__args_t *a, int seg_elems);

/*
 * Radix-k reduction (Peterka et al. 2009, Kendall et al. 2010, as in
 * Marendic 2016 Sect. 5.5.4) over k[0] * ... * k[r-1] virtual ranks
 * (r <= PAPCOLL__RADIX_MAX, context.h).
 * Round i splits the current window into k[i] pieces among the k[i]
 * members of a group (members stride k[0]...k[i-1] apart) and each member
 * combines the others' copies of its piece, in member order (so the result
 * keeps rank order when vranks are in rank order); the gather reverses the
 * rounds towards vroot.  work: this rank's vector (combined in place; all
 * count elements), at vroot the result on return.  v2r: vrank -> rank.
 */
/*
 * The radix vector of radixk for P ranks into k (ascending; returns its
 * length): vec[len] when len > 0 (its product is P, checked at init), else
 * the fewest factors of at most target that P allows (reduce_radixk.c).
 */
int papcoll__radix_vector(int P, int target, const int *vec, int len, int *k);

int papcoll__red_radix_engine(const papcoll__args_t *a, char *work, int me, const int *v2r, int vroot,
                              const int *k, int r);

/*
 * Arrival-driven pairing (Benoit et al. 2013, Tree-dyn and
 * Non-Commut-Tree-dyn).  Participants (every rank's foreground, the root's
 * too) report each time they are idle; the coordinator, the background part
 * in the root's monitor thread, pairs idle ranks as they report and tells
 * one to send its value, the other to receive and combine.
 */
typedef enum { PAPCOLL__DYN_ANY, PAPCOLL__DYN_NEIGHBOUR } papcoll__dyn_policy_t;

/* The coordinator's state: plan data (6 P ints), the pairing rules pure
 * (tests/test_reduce.c drives them without MPI). */
typedef struct {
    int P, root, slot, pairs;
    int nseen; /* ranks that reported at least once (streamed: non-roots; the root's report
                * goes to the coordinator alone) */
    int pre;   /* the rank ordered before it reported (whole values: to send to the root;
                * streamed: its FROM and TO), or -1 */
    /* 1 once the coordinator (monitor thread) handed this state to the
     * root's foreground: the release/acquire pair that orders the two
     * threads' accesses (the HANDOVER message also does, inside MPI) */
    atomic_int handed;
    papcoll__dyn_policy_t policy;
    int *hi;     /* [lo]: end of the live range starting at lo, -1: none */
    int *lo_of;  /* [e]: start of the live range ending at e (hi = e + 1) */
    int *holder; /* [lo]: rank holding the range's value */
    int *idle;   /* [lo]: its holder waits for an order */
    int *range;  /* [rank]: start of the range the rank holds */
    int *seen;   /* [rank]: it reported at least once */
} papcoll__dyn_t;

/* Bytes of a coordinator's state for P ranks, and its arrays laid out
 * after the struct at c (c->P = P). */
size_t papcoll__dyn_bytes(int P);
void papcoll__dyn_layout(papcoll__dyn_t *c, int P);

/* One pairing: snd gives its value to rcv, which combines it on the left
 * (left: snd's value is the lower operand) or the right; final: the last. */
typedef struct {
    int snd, rcv, left, final;
} papcoll__dyn_pair_t;

/* A streamed pairing's instruction to dst: FROM (your input stream comes
 * from peer, -1: none) or TO (send your stream to peer); late (the root's
 * FROM only): peer was ordered ahead, and its READY is the root's to take. */
enum { PAPCOLL__DYN_FROM = 3, PAPCOLL__DYN_TO = 4 };
typedef struct {
    int dst, kind, peer, late;
} papcoll__dyn_order_t;

/* A new reduction at root (every rank busy, holding its own value). */
void papcoll__dyn_reset(papcoll__dyn_t *c, papcoll__dyn_policy_t policy, int root);
/* Rank q is idle; 1 with *out when that makes a pairing, else 0.  Once
 * the last pairing is decided ahead (papcoll__dyn_last), the root's report
 * returns it and the last rank's is only counted. */
int papcoll__dyn_ready(papcoll__dyn_t *c, int q, papcoll__dyn_pair_t *out);
/*
 * Whole values: the last pairing decided before its sender reports.  When
 * the root has reported, every value but the root's and one rank L's has
 * been sent or is on its way to the root (P - 2 pairings), and L has not
 * reported, then Tree-dyn's rules (either policy) can only end with L
 * sending to the root: 1 with that pairing (final) in *out, once, so that
 * the coordinator orders L before it comes and L sends on arrival, without
 * a READY/ORDER round trip.  Else 0.
 */
int papcoll__dyn_last(papcoll__dyn_t *c, papcoll__dyn_pair_t *out);
/* Whether READYs of this call are still to come. */
int papcoll__dyn_expects(const papcoll__dyn_t *c);
/*
 * Whether treedyn streams a value of S segments among P ranks: when the
 * chain's balanced pipeline of about S + P - 1 segment hops is shorter than
 * Tree-dyn's ceil(log2 P) whole transfers of S segments each, i.e.
 * S (ceil(log2 P) - 1) > P - 1 (P = 8: S >= 4; never for P <= 2).
 */
int papcoll__dyn_streams(int P, int S);
/*
 * Streamed (ANY when papcoll__dyn_streams): non-root q reported; fills out
 * with the orders to send, in that order, and returns how many (0-6).
 * When only one non-root L is left to report (P >= 3), its place is known,
 * last in the chain, so the orders include L's FROM and TO, the root's FROM
 * (late) and the TO of L's predecessor: L's input is on its way before it
 * comes, and its own READY then gives no orders.
 */
#define PAPCOLL__DYN_MAXORD 6
int papcoll__dyn_stream_ready(papcoll__dyn_t *c, int q, papcoll__dyn_order_t out[PAPCOLL__DYN_MAXORD]);

int papcoll__red_dyn_participant(const papcoll__args_t *a, papcoll__dyn_policy_t policy);
/* The coordinator of a reduction to root with the state of plan (the
 * site's own plan, or a composite allreduce's reduce part).  The call's
 * parity in the tags is the site plan's iter on both sides. */
int papcoll__red_dyn_coordinator(papcoll_site_t *site, const papcoll__plan_t *plan, int root,
                                 papcoll__dyn_policy_t policy);
/* Their planner (red_dyn in algos.def) allocates the coordinator's state
 * (papcoll__dyn_bytes) as plan data on a site's first plan: the only NOMEM point. */

#endif
