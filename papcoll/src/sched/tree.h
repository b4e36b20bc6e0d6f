/*
 * Communication trees as pure data: one type, seven builders.  No MPI here;
 * tests/test_tree.c simulates every position of every shape but golden serially,
 * tests/test_fibtree.c the golden tree.
 *
 * A tree is a rooted spanning tree over positions 0..P-1.  Every builder
 * numbers the positions so that the subtree of each position v is one
 * contiguous range [lo[v], hi[v]) containing v, and the children's ranges
 * together with v tile that range.  Pre-order shapes (binomial, k-nomial,
 * k-ary, chain) have lo[v] == v and their children above v; the in-order
 * binary tree has the left subtree below v and the right subtree above it.
 * Contiguity is what the engines rely on: a subtree's blocks are one
 * contiguous buffer, and a non-commutative reduction stays in position order.
 * Positions are mapped to ranks by a placement (a permutation) that the
 * algorithm chooses; the tree knows nothing about ranks.
 *
 * Two child orders:
 *
 *   service order   kids[first[v] .. first[v+1]), papcoll__tree_kid(): the
 *                   order in which a broadcast or scatter sends, chosen per
 *                   shape for the fewest rounds (large subtrees first).
 *   ascending order papcoll__tree_kid_asc(): children by position, the order
 *                   in which a reduce or gather combines.  Starting from v's
 *                   own value, each child's range is adjacent to what is
 *                   already combined (prepend if c < v, append if c > v), so
 *                   non-commutative operators keep position order.  For the
 *                   binomial and k-nomial trees this is the reverse of the
 *                   service order (Sanders 13.2: a reduction runs the
 *                   broadcast backwards, smallest subtree first); for the
 *                   others it is the service order itself.
 *
 * Cost models: alpha-beta (Hockney), message of n bytes, s segments when
 * pipelined, L = t->height, one-port: a node takes part in one transfer at
 * a time (Sanders' half duplex) unless a line says full duplex (it may then
 * receive one message while it sends another).  Reductions add the
 * combining time (gamma n per combine) along the same schedule.
 *
 * --- binomial (root 0): the lowest-set-bit tree of sched.h.  Parent
 * v - lowbit(v), subtree [v, v + min(lowbit(v), P - v)).  Service order:
 * descending positions = largest nominal (2^ctz) subtree first (Sanders
 * 13.1.1: serving small subtrees first costs Omega(log^2 P) rounds).
 *
 *   P = 8:       0            P = 10:       0             P = 12:         0
 *             /  |  \                   / /   \  \                   / /    \  \
 *            4   2   1                 8 4     2  1                 8  4     2  1
 *           / \  |                     | | \   |                   / \  | \   |
 *          6   5 3                     9 6  5  3                  10  9 6  5  3
 *          |                             |                         |    |
 *          7                             7                        11    7
 *
 *   bcast, reduce   ceil(log2 P) (alpha + n beta)        exactly; optimal for small n
 *   gather, scatter ceil(log2 P) alpha + (P-1)/P n beta  n = all P blocks (Proficz 2020, Eq. 7)
 *   height floor(log2 P) (the most one-bits of a position < P), ceil(log2 P)
 *   children at the root.
 *
 * --- k-nomial (root 0, k >= 2): digits of v in base k.  Parent: v minus its
 * lowest non-zero digit (v - d k^j); subtree [v, v + k^j) cut at P; the
 * children are v + d k^i for i < j, d = 1..k-1.  k = 2 is the binomial tree;
 * k >= P - 1 is the flat tree (every position a child of 0).  Service order:
 * descending positions: higher digit position first, so the ascending
 * (reduce) order is its reverse.  Within one digit position the subtree
 * that the cut at P may shorten goes first; serving digits ascending
 * instead gives the same number of rounds (compared for k = 3..9, P <= 5000).
 *
 *   k = 3, P = 8:      0          P = 10:       0              P = 12:        0
 *                  / /   \ \                / /  |  \ \                   / /  |  \ \
 *                 6 3     2 1              9 6   3   2 1                 9 6   3   2 1
 *                 | | \                     / \ / \                     / \ / \ / \
 *                 7 5  4                   8  7 5  4                  11 10 8 7 5 4
 *
 *   bcast, reduce   at most (k-1) ceil(log_k P) (alpha + n beta) one-port
 *                   (exactly when P is a power of k), ceil(log_k P) (alpha +
 *                   n beta) if a node can drive k-1 ports at once
 *   gather, scatter about (k-1) ceil(log_k P) alpha + (P-1)/P n beta
 *   height: the most non-zero base-k digits of a position < P.
 *
 * --- k-ary (root 0, k >= 1): the complete k-ary tree (levels filled left
 * to right, as in a heap), numbered in pre-order.  k = 2 is the balanced
 * binary tree of Sanders 13.1.2 (pipelined broadcast and reduction); k = 1
 * is the chain; k >= P - 1 the flat tree.  Service order: ascending
 * positions, which in a complete tree is the deepest subtree first.
 *
 *   k = 2, P = 8:     0          P = 10:       0               P = 12:          0
 *                   /   \                    /   \                            /     \
 *                  1     5                  1     7                          1       8
 *                 / \   / \               /   \   / \                     /     \   /  \
 *                2   4 6   7             2     5 8   9                   2       5 9    11
 *                |                      / \    |                         / \     / \ |
 *                3                     3   4   6                        3   4   6  7 10
 *
 *   bcast/reduce, s segments  at most (k L + (k+1)(s-1)) (alpha + beta n/s)
 *        (Sanders Lemma 13.2 for k = 2: 2L + 3(s-1); the first segment needs
 *        k steps per level, an interior node then passes one segment every
 *        k+1 steps).  s = 1: at most k L (alpha + n beta), exactly for a
 *        full tree (P = 1 + k + ... + k^L).  Optimal s for k = 2:
 *        3 beta n + 2 alpha log P + O(sqrt(alpha beta n log P)) (Thm 13.3).
 *   height L = ceil(log_k((k-1) P + 1)) - 1 (k >= 2).
 *
 * --- in-order binary (Sanders 13.1.3, Fig. 13.5): the root of a range
 * [a, b) is its middle a + (b-a)/2, the left subtree is [a, v), the right
 * one [v+1, b).  Root P/2, left subtree never smaller than the right, height
 * ceil(log2(P+1)) - 1 (balanced).  The in-order traversal is 0..P-1, so a
 * reduction combining left, self, right keeps rank order for
 * non-commutative operators when position = rank (Sanders 13.2, prefix sums
 * 13.3).  The result lands on position P/2; a reduction to another root
 * needs one more message.  Service order: left (the larger) first.
 *
 *   P = 8:       4           P = 10:       5             P = 12:         6
 *              /   \                    /     \                      /       \
 *             2     6                  2       8                    3         9
 *            / \   / \                / \     / \                  / \       / \
 *           1   3 5   7              1   4   7   9                1   5     8   11
 *          /                        /   /   /                    / \  /    /   /
 *         0                        0   3   6                    0   2 4   7   10
 *
 *   bcast/reduce as the k-ary tree with k = 2 and this height: at most
 *        (2L + 3(s-1)) (alpha + beta n/s) (Lemmas 13.2, 13.4).
 *
 * --- chain (root 0): 0 -> 1 -> ... -> P-1, the linear pipeline of Sanders
 * 13.1.4.  Height P-1.
 *
 *   P = 8:  0 - 1 - 2 - 3 - 4 - 5 - 6 - 7     (P = 10, 12: the same, longer)
 *
 *   bcast/reduce, s segments  (P - 1 + s - 1) (alpha + beta n/s) when a node
 *        receives segment i while it forwards segment i-1 (full duplex);
 *        optimal s: beta n + P alpha + O(sqrt(alpha beta n P)).
 *        s = 1: (P-1)(alpha + n beta).
 *
 * --- Fibonacci (root 0; Benoit, Canon, Marchal 2013, Sect. 3.2,
 * Fibonacci-stat): the schedule FS_j of order j spans F(j+2) positions
 * (F(1) = F(2) = 1); FS_-1 and FS_0 are one position.  FS_j on [v, v +
 * F(j+2)) is FS_j-1 on [v, v + F(j+1)) and FS_j-2 on [v + F(j+1), v +
 * F(j+2)) side by side, and the root of the second sends to v last.
 * Unrolled: the children of a root v of FS_j are v + F(i+1), i = 1..j,
 * each the root of FS_i-2.  The whole tree is FS_k with the smallest k such
 * that F(k+2) >= P, cut at P (the cut removes suffixes of ranges only).
 * Service order: descending positions (largest subtree first), so the
 * ascending (reduce) order is its reverse: the root receives its children
 * in the order their subtrees complete.  k is ignored (stored as 2).
 *
 *   P = 8 (k = 4):    0          P = 10 (k = 5):   0         P = 12:        0
 *                / /  |  \                  / / |  |  \               / / |  |    \
 *               1 2   3   5                1 2  3  5   8             1 2  3  5     8
 *                     |  / \                    |  / \  |                  |  / \  / | \
 *                     4 6   7                   4 6   7 9                 4 6   7 9 10 11
 *
 *   reduce, one-port, no overlap  k (alpha + n beta + n gamma), k about
 *        1.44 log2 P: worse than binomial when combining is free;
 *   reduce, receiving the next child while combining the last (Benoit's
 *        model, c = n gamma, d = alpha + n beta)  d + (k-1) max(d, c) + c;
 *        optimal when c = d ((k+1) d for P = F(k+2)), where the binomial
 *        tree needs ceil(log2 P) (d + c).
 *   height: at most ceil(k / 2) (a child's order is at most its parent's
 *        minus 2); bcast and reduce rounds (one-port) both exactly k for
 *        P >= 2 (the root has k children).
 *
 * --- golden (Sanders 13.1.4, Fig. 13.4: the golden-ratio tree): an
 * in-order binary tree like "inorder" (left subtree [a, v), right one
 * [v+1, b), service order left first), whose root splits its range by the
 * golden ratio instead of the middle.  Model: a node that holds the message
 * at step t sends to its left child at t+1 and its right child at t+2.
 * Then cap(T) = 1 + cap(T-1) + cap(T-2) = Fib(T+3) - 1 positions (1, 2, 4,
 * 7, 12, 20, ...) is the most that T steps reach, and a subtree can have
 * all its leaves at one step T for any size T+1 .. cap(T).  The whole tree
 * takes the smallest T with cap(T) >= P; a subtree of n positions whose
 * leaves are due at relative step T gets the left size nearest (n-1)/phi
 * among those keeping both sides' leaves at that step (left [T, cap(T-1)],
 * right [T-1, cap(T-2)]), or an empty right subtree when there is none (n <
 * 2T).  So every leaf receives the first segment at the same step T, about
 * 1.44 log2 P: the fewest steps of any binary tree under this model (the
 * binomial tree, not binary, needs ceil(log2 P)).  Positions in order, so a
 * reduction combining left, own, right keeps position order.
 *
 *   P = 8 (T = 4):     4       P = 12 (T = 4):       7
 *                    /   \                        /     \
 *                   3     7                      4       10
 *                  /     /                     /   \    /  \
 *                 2     6                     2     6  9    11
 *                /     /                     / \   /  /
 *               1     5                     1   3 5  8
 *              /                           /
 *             0                           0
 *
 *   bcast/reduce, s segments  at most (T + 3(s-1)) (alpha + beta n/s)
 *        (half duplex; an interior node passes one segment every 3 steps,
 *        as in the pipelined binary tree); s = 1: T (alpha + n beta).
 *   height at most T.
 *
 * Every builder takes an uninitialised or zeroed tree, returns 0 or a
 * negative PAPCOLL_ERR_* (INVAL for P < 1 or a bad k, NOMEM), and leaves
 * *t zeroed when it fails.  A tree is one allocation; papcoll__tree_free()
 * releases it and zeroes *t (a zeroed tree may be freed).  Building costs
 * O(P log P) time at most, no recursion, so P of 2^20 and more is fine.
 */
#ifndef PAPCOLL_SCHED_TREE_H
#define PAPCOLL_SCHED_TREE_H

/* XX(ENUM, name): the shapes, in one list. */
#define PAPCOLL__TREE_SHAPES(XX)                                                                             \
    XX(BINOMIAL, "binomial")                                                                                 \
    XX(KNOMIAL, "knomial")                                                                                   \
    XX(KARY, "kary")                                                                                         \
    XX(INORDER, "inorder")                                                                                   \
    XX(CHAIN, "chain")                                                                                       \
    XX(FIBONACCI, "fibonacci")                                                                               \
    XX(GOLDEN, "golden")

typedef enum {
#define PAPCOLL__TREE_ENUM(e, name) PAPCOLL__TREE_##e,
    PAPCOLL__TREE_SHAPES(PAPCOLL__TREE_ENUM)
#undef PAPCOLL__TREE_ENUM
    /* the number of shapes */
    PAPCOLL__TREE_NSHAPES
} papcoll__tree_shape_t;

typedef struct {
    int P;
    papcoll__tree_shape_t shape;
    int k;        /* the builder's k (2 for binomial and in-order, 1 for chain) */
    int root;     /* position of the root: 0, or P/2 for the in-order tree */
    int *parent;  /* [P] parent position, -1 at the root */
    int *first;   /* [P+1] the children of v are kids[first[v] .. first[v+1]) */
    int *kids;    /* [P-1] children in service order */
    int *lo, *hi; /* [P] subtree range [lo[v], hi[v]) of v */
    int *depth;   /* [P] edges from the root */
    int height;   /* max depth */
    int desc;     /* 1: each node's service order is descending positions, 0: ascending */
} papcoll__tree_t;

int papcoll__tree_binomial(papcoll__tree_t *t, int P);
int papcoll__tree_knomial(papcoll__tree_t *t, int P, int k);
int papcoll__tree_kary(papcoll__tree_t *t, int P, int k);
int papcoll__tree_inorder(papcoll__tree_t *t, int P);
int papcoll__tree_chain(papcoll__tree_t *t, int P);
int papcoll__tree_fibonacci(papcoll__tree_t *t, int P);
int papcoll__tree_golden(papcoll__tree_t *t, int P);

/* Any shape by its enum (a plan cache's key is (shape, P, k)); k is
 * ignored by the shapes that take none. */
int papcoll__tree_build(papcoll__tree_t *t, papcoll__tree_shape_t shape, int P, int k);

/* "binomial", ...; NULL for an unknown shape. */
const char *papcoll__tree_shape_name(papcoll__tree_shape_t shape);

void papcoll__tree_free(papcoll__tree_t *t);

static inline int papcoll__tree_nkids(const papcoll__tree_t *t, int v)
{
    return t->first[v + 1] - t->first[v];
}

/* Number of positions in v's subtree (v included). */
static inline int papcoll__tree_span(const papcoll__tree_t *t, int v)
{
    return t->hi[v] - t->lo[v];
}

/* The i-th child of v in service order (broadcast, scatter). */
static inline int papcoll__tree_kid(const papcoll__tree_t *t, int v, int i)
{
    return t->kids[t->first[v] + i];
}

/* The i-th child of v by ascending position (reduce, gather). */
static inline int papcoll__tree_kid_asc(const papcoll__tree_t *t, int v, int i)
{
    return t->desc ? t->kids[t->first[v + 1] - 1 - i] : t->kids[t->first[v] + i];
}

#endif
