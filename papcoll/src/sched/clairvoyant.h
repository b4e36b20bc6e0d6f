/*
 * Clairvoyant reduce schedules as pure data (no MPI, no printing).
 *
 * Sources: Marendic et al. 2016, "A novel MPI reduction algorithm resilient to
 * imbalances in process arrival times", Sect. 5.4, Algorithm 1 (the model and
 * the greedy), and Proficz & Ocetkiewicz 2020, "Improving Clairvoyant",
 * Listing 2 (Sect. 4: the fixed pseudocode) and Listings 3-8 (Sect. 5: the
 * fast generator).  cv_reference.c is Listing 2, cv_fast.c is Listing 8; both
 * produce byte-identical schedules (tests/test_clairvoyant.c), cv_check.c
 * validates any schedule.  docs/clairvoyant.md explains all of it with examples.
 *
 * Model.  P processes, process i arrives at a_i; every process holds N
 * segments of the data.  Time runs in rounds of length d: in one round a
 * process sends at most one segment and receives (and combines) at most one.
 * The generator simulates this greedily:
 *   - processes wait in a queue ordered by (time, rank); time starts at a_i;
 *   - a step takes the group G of every queued process whose time is at most
 *     the first one's time + d; if the root is in G it goes first and is the
 *     sink, otherwise the first process is the sink;
 *   - each member of G, in that order, picks the lowest segment s that it may
 *     receive (the sink: any; others: one it still holds) for which some
 *     member z of G holds s, has not sent in this step and did not receive s in
 *     this step; it takes the first such z in G's order: z sends s to it;
 *   - every member that still holds data re-enters the queue at time + d;
 *   - the generator stops when at most one process (the root) is queued.
 * Fixes of Proficz Sect. 4 in both generators: the inner search terminates
 * when no (segment, peer) pair exists and then nothing is scheduled (4.3),
 * transfers carry their round (4.3), a segment received in a step is not sent
 * in that step (the P' state, 4.2), ties are broken by rank (4.4).
 *
 * Times and rounds (exact, so both generators agree bit for bit).  With
 * a_min = min a_i, x_i = a_i - a_min (one rounding) is split exactly into
 * x_i = k_i d + f_i with integer k_i >= 0 and 0 <= f_i < d (f_i = fmod(x_i, d)).
 * A process's time after m steps in G is (k_i + m, f_i); times compare
 * lexicographically, which is exact.  The round of a step is the k of its
 * first process (its time lies in [a_min + r d, a_min + (r+1) d)); rounds
 * strictly increase from step to step, round 0 is the first step.  Process i
 * takes part in the step of round r iff its time is at most that step's first
 * time + d, so it never acts before round
 *     rho_i = k_i - 1  if some process j with k_j < k_i has f_j >= f_i,
 *     rho_i = k_i      otherwise,
 * and cv_check verifies exactly that.  Steps with a single process in G do
 * nothing (idle rounds); the schedule has no transfer in them.
 *
 * Executor semantics.  Transfers are sorted by round, then receiver.  Per
 * round each rank runs at most one send and one receive, concurrently (post
 * both, wait both); no synchronisation across ranks is needed beyond message
 * matching, and within a round a rank never sends and receives the same
 * segment.  A sender sends its current partial result of the segment and from
 * then on holds nothing of it.  A receiver combines the incoming partial into
 * its own if it still holds that segment, and otherwise (only the sink, which
 * receives segments it sent away earlier) stores it.  At the end the root
 * holds every segment with every rank's contribution exactly once.  Operand
 * order is NOT kept: partials are combined in schedule order, so the
 * operation must be commutative and associative (Marendic Sect. 5.4); for a
 * given schedule the bracketing is fixed, so results repeat bit for bit.
 *
 * Cost (R rounds, R_sum = sum over steps of |G|, W = ceil(N / 64) words):
 *   reference: O(R_sum * N * |G|) for the searches plus O(R log P) for the
 *              queue, and it runs every idle round: R >= (max a - min a) / d.
 *   fast:      O(P log P + R_sum * W * min(|G|, log P)) (Proficz Lemma 3
 *              with 64-bit words as the SIMD width; small groups are scanned
 *              instead of searched in the tree); idle rounds are skipped.
 * Memory: reference P*N bytes; fast about 5 bits per (process, segment) cell
 * (state 1 bit, tree leaves 2, inner nodes 2; leaves padded to a power of two).
 * Limits: P <= 2^24, P * N <= 2^29, (max a - min a) / d <= 2^29, so that
 * rounds (at most spread / d + (P - 1) N + 2) and transfers fit an int.
 */
#ifndef PAPCOLL_SCHED_CLAIRVOYANT_H
#define PAPCOLL_SCHED_CLAIRVOYANT_H

#include <stddef.h>

/* One transfer: in `round`, `sender` sends its partial of `segment` to
 * `receiver`.  Rounds count from 0, the first round anybody can act in. */
typedef struct {
    int round, sender, receiver, segment;
} papcoll__cv_xfer_t;

/* A schedule: n transfers x[], sorted by round, then receiver.  rounds is the
 * schedule length (last round + 1; 0 when P == 1). */
typedef struct {
    int P, N, root;
    double d;
    int rounds;
    int n;
    papcoll__cv_xfer_t *x;
} papcoll__cv_sched_t;

#define PAPCOLL__CV_IMPL_MAP(XX)                                                                             \
    XX(REFERENCE, "reference", papcoll__cv_reference)                                                        \
    XX(FAST, "fast", papcoll__cv_fast)

typedef enum {
#define PAPCOLL__CV_IMPL_ENUM(id, name, fn) PAPCOLL__CV_##id,
    PAPCOLL__CV_IMPL_MAP(PAPCOLL__CV_IMPL_ENUM)
#undef PAPCOLL__CV_IMPL_ENUM
        PAPCOLL__CV_NIMPL
} papcoll__cv_impl_t;

/* "reference" / "fast"; NULL when impl is out of range. */
const char *papcoll__cv_impl_name(int impl);

/* The implementation called name, or -1. */
int papcoll__cv_impl_find(const char *name);

/*
 * The generators.  pat[P] are the arrival times (NULL: all arrive together);
 * d > 0 is the round time in pat's unit.  On success *out owns its transfers
 * (free with papcoll__cv_free); on error *out is empty.  Returns 0,
 * PAPCOLL_ERR_INVAL (see papcoll__cv_input_check) or PAPCOLL_ERR_NOMEM.
 * Deterministic: the same input gives the same bytes.
 */
int papcoll__cv_reference(int P, int N, double d, int root, const double *pat, papcoll__cv_sched_t *out);
int papcoll__cv_fast(int P, int N, double d, int root, const double *pat, papcoll__cv_sched_t *out);
int papcoll__cv_generate(int impl, int P, int N, double d, int root, const double *pat,
                         papcoll__cv_sched_t *out);

/*
 * Drops the bounces of a generated schedule in place (cv_elide.c): a -> b of
 * segment s where b's next send of s goes back to a, a not sending s in
 * between; a keeps its partial instead.  A return that would then carry
 * nothing is dropped too.  The result passes papcoll__cv_check whenever the
 * input does, has no more rounds and gathers the same contributions, in
 * another (fixed) order.  This is what the reduce executes.  0 or
 * PAPCOLL_ERR_NOMEM (the schedule is then unchanged).
 */
int papcoll__cv_elide(papcoll__cv_sched_t *s);

/* Frees the transfers and empties *s (NULL and empty schedules are fine). */
void papcoll__cv_free(papcoll__cv_sched_t *s);

/*
 * Validates generator input: 1 <= P <= 2^24, N >= 1, P * N <= 2^29, d
 * finite and > 0, 0 <= root < P, every pat value finite and >= 0,
 * spread / d <= 2^29.
 * Returns 0 or PAPCOLL_ERR_INVAL with a one-line reason in why (may be NULL).
 */
int papcoll__cv_input_check(int P, int N, double d, int root, const double *pat, char *why, size_t len);

/*
 * Per-rank action lists in O(n + P): rank r's transfers (sent or received)
 * are idx[start[r] .. start[r+1]-1], indices into s->x in schedule order.
 * start has P + 1 entries, idx 2 * n.  An executor for one rank may instead
 * scan s->x once; both give the same order.
 */
void papcoll__cv_rank_index(const papcoll__cv_sched_t *s, int *start, int *idx);

/* What cv_check found wrong: XX(name, value, meaning). */
#define PAPCOLL__CV_BAD_MAP(XX)                                                                              \
    XX(HEADER, -1, "P, N, root, d, n or rounds out of range")                                                \
    XX(FIELD, -2, "a transfer field out of range or a self-transfer")                                        \
    XX(ORDER, -3, "transfers not sorted by round, then receiver")                                            \
    XX(RECV_TWICE, -4, "a rank receives twice in one round")                                                 \
    XX(SEND_TWICE, -5, "a rank sends twice in one round")                                                    \
    XX(FORWARD, -6, "a segment is forwarded in the round it arrived")                                        \
    XX(EARLY, -7, "a rank acts before its arrival")                                                          \
    XX(EMPTY, -8, "a rank sends a segment it no longer holds (a contribution would count twice)")            \
    XX(MISSING, -9, "a contribution never reaches the root")                                                 \
    XX(NOMEM, -10, "out of memory")

typedef enum {
#define PAPCOLL__CV_BAD_ENUM(name, value, msg) PAPCOLL__CV_BAD_##name = (value),
    PAPCOLL__CV_BAD_MAP(PAPCOLL__CV_BAD_ENUM)
#undef PAPCOLL__CV_BAD_ENUM
} papcoll__cv_bad_t;

/*
 * Checks a schedule: every rank's contribution to every segment reaches the
 * root exactly once; per round a rank sends at most one segment and receives
 * at most one; nothing is forwarded in the round it arrived; nobody acts
 * before its arrival (round rho_i above; pat NULL: all arrive together).
 * Returns 0 or a negative PAPCOLL__CV_BAD_* and writes a one-line reason.
 */
int papcoll__cv_check(const papcoll__cv_sched_t *s, const double *pat, char *why, size_t len);

/*
 * Arrivals the predictor cannot tell apart made equal: in arrival order
 * (order: the ranks sorted by pat, as papcoll__cv_sort gives), each rank
 * that arrives at most q after the first of the current group joins it and
 * takes that first rank's time; a later one starts a new group.  So no
 * arrival moves by more than q, arrivals spread over at most q become one
 * group (balanced), and q <= 0 changes nothing.  In place on pat[P].
 */
void papcoll__cv_cluster(int P, const int *order, double q, double *pat);

/* ---- shared by cv_*.c only ---- */

/* Splits the arrivals into (k[i], f[i]) as above (pat NULL: all zero) and,
 * if x != NULL, stores x[i] = a_i - a_min, whose order is the (k, f) order.
 * Input must have passed papcoll__cv_input_check. */
void papcoll__cv_split_times(int P, double d, const double *pat, int *k, double *f, double *x);

/* Stable sort of the ranks 0..P-1 by (key, rank) into order; tmp has P
 * entries; keys are numbers (no NaN). */
void papcoll__cv_sort(int P, const double *key, int *order, int *tmp);

/* Makes room for `more` transfers after s->n (capacity *cap, at least
 * doubled when it grows); 0 or PAPCOLL_ERR_NOMEM. */
int papcoll__cv_reserve(papcoll__cv_sched_t *s, int *cap, int more);

/* Appends a transfer; 0 or PAPCOLL_ERR_NOMEM. */
int papcoll__cv_push(papcoll__cv_sched_t *s, int *cap, int round, int sender, int receiver, int segment);

/* Buckets the transfers by segment, each bucket in schedule order: segment
 * j's are by_seg[start[j] .. start[j+1]).  by_seg has n entries, start N +
 * 1, zeroed by the caller. */
void papcoll__cv_by_segment(const papcoll__cv_sched_t *s, int *by_seg, int *start);

/* Empty schedule header for (P, N, d, root). */
void papcoll__cv_init(papcoll__cv_sched_t *s, int P, int N, double d, int root);

#endif /* PAPCOLL_SCHED_CLAIRVOYANT_H */
