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

#include "algo.h"
#include "sched/dyn.h"

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
 * Non-Commut-Tree-dyn; the rules in sched/dyn.h).  Participants (every
 * rank's foreground, the root's too) report each time they are idle; the
 * coordinator, the background part in the root's monitor thread, pairs idle
 * ranks as they report and tells one to send its value, the other to
 * receive and combine.
 */
int papcoll__red_dyn_participant(const papcoll__args_t *a, papcoll__dyn_policy_t policy);
/* The coordinator of a reduction to root with the state of plan (the
 * site's own plan, or a composite allreduce's reduce part).  The call's
 * parity in the tags is the site plan's iter on both sides. */
int papcoll__red_dyn_coordinator(papcoll__exec_t *x, const papcoll__plan_t *plan, int root,
                                 papcoll__dyn_policy_t policy);
/* Their planner (red_dyn in algos.def) allocates the coordinator's state
 * (sched/dyn.h) as plan data on a site's first plan: the only NOMEM point. */

#endif
