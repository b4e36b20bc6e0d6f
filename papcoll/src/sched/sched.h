/*
 * Schedules as pure data: arrival orders and binomial trees.  No MPI here;
 * everything is unit-tested serially (tests/test_sched.c).  The tree type
 * with all shapes (binomial, k-nomial, k-ary, in-order, chain) is tree.h;
 * its binomial builder reproduces the functions below exactly.
 *
 * Binomial trees are built over virtual ranks (vranks) 0..P-1 with the root
 * at vrank 0.  The tree is the "lowest set bit" binomial tree: the parent of
 * v > 0 is v - lowbit(v) and v's subtree is the contiguous vrank range
 * [v, v + span(v)), span(v) = min(lowbit(v), P - v) (span(0) = P).  Because
 * subtrees are contiguous, a node's collected blocks are one contiguous
 * buffer in vrank order, and only the root has to permute them.
 *
 *   P = 8:            0            P = 6:        0
 *                  /  |   \                   /  |  \
 *                 4   2    1                 4   2   1
 *                / \  |                      |   |
 *               6   5 3                      5   3
 *               |
 *               7
 *
 * In a gather v sends to its parent in round ctz(v); in a scatter v receives
 * in round L - 1 - ctz(v), L = ceil(log2 P).  The PAP-aware variants place
 * ranks on vranks so that early arrivals take the vranks active earliest.
 */
#ifndef PAPCOLL_SCHED_H
#define PAPCOLL_SCHED_H

/* Workspace of papcoll__sort_by_key: P entries, allocated by the caller
 * (plans allocate it with the site, so sorting never fails). */
typedef struct {
    double key;
    int rank;
} papcoll__keyed_t;

/* Ranks sorted by key ascending, ties by rank; NaN keys sort last.
 * key == NULL gives rank order. */
void papcoll__sort_by_key(int P, const double *key, int *order, papcoll__keyed_t *work);

/* Bit-reversal of v within nbits bits. */
unsigned papcoll__bitrev(unsigned v, int nbits);

/* ceil(log2 P) for P >= 1. */
int papcoll__ceil_log2(int P);

/* Parent vrank of v (-1 for the root). */
int papcoll__bn_parent(int v);

/* Number of vranks in v's subtree. */
int papcoll__bn_span(int v, int P);

/* Children of v, largest subtree first (the order a scatter serves them);
 * returns their number (at most 31). */
int papcoll__bn_children(int v, int P, int *children);

/*
 * vrank -> rank maps (v2r[P]).  order == NULL: v2r[v] = (v + root) % P, the
 * classical binomial tree.  Otherwise order[] lists all ranks by predicted
 * arrival (earliest first); the root is pinned to vrank 0 and the others fill
 * vranks in the order those vranks become active: for a gather by send round
 * ascending (early arrivals are the first-round leaves, the latest arrival
 * sends last), for a scatter by receive round ascending (early arrivals are
 * served first).  Ties within a round by vrank.
 */
void papcoll__bn_map_gather(int P, int root, const int *order, int *v2r);
void papcoll__bn_map_scatter(int P, int root, const int *order, int *v2r);

/* Inverse of a permutation: r2v[v2r[v]] = v. */
void papcoll__perm_invert(int P, const int *v2r, int *r2v);

#endif
