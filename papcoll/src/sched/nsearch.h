/*
 * Online choice of Clairvoyant's segment count (nsearch.c; option
 * clairvoyant_segments = search).  Pure data, no MPI.
 *
 * Marendic 2016 (Table 8) found the measured optimum N below the linear
 * model's on every machine.  On 8 emulated nodes sharing 2 cores every
 * segment also costs its sender and receiver CPU time on shared cores,
 * which the model's alpha (a ping-pong) does not see: at 128 KiB the
 * model's 9 segments took 1.0-1.18x rabenseifner's time and 3 segments
 * 0.75-0.81x (docs/results/reduce-8node.md, "Clairvoyant's N found by
 * search").  The search measures instead of modelling.
 *
 * Candidates: the model's N, then N * 2/3 (rounded down) repeatedly, never
 * below the smallest count whose segments fit segment_bytes (`least`):
 *   model 9, least 3: 9 6 4 3;   model 34, least 33: 34 33;
 *   model 7, least 1: 7 4 2 1.
 * Exploration: PAPCOLL__NS_EXPLORE calls of each, round robin; then the
 * candidate with the smallest median tail over its last PAPCOLL__NS_WIN
 * calls runs, and the windows keep moving with what runs.  After
 * PAPCOLL__NS_PERIOD such calls it explores again.  A call's tail is its
 * last exit minus its last arrival: the part of the run time N can change
 * (the arrivals' spread before it is the application's).
 *
 * A site keeps two searches (reduce_clairvoyant.c): one for balanced calls
 * (the predicted arrivals one group to the planner) and one for calls with
 * the arrivals apart; each call takes its N from, and gives its tail to,
 * the search of its kind.  On 8 emulated nodes at 128 KiB the tails of
 * calls with a late rank were 0.3-0.6 ms for every N, and a single search
 * that re-explored among them picked N = 8, whose balanced tails had been
 * 1.44x the best count's (docs/reduce.md, "N by search").
 *
 * Every rank feeds it the same exchanged tails in the same call order, so
 * every rank chooses the same N (the plan's hash covers the schedule).
 */
#ifndef PAPCOLL_SCHED_NSEARCH_H
#define PAPCOLL_SCHED_NSEARCH_H

#define PAPCOLL__NS_MAXC 6     /* candidates */
#define PAPCOLL__NS_WIN 5      /* tails kept per candidate */
#define PAPCOLL__NS_EXPLORE 3  /* calls per candidate in an exploration */
#define PAPCOLL__NS_PERIOD 200 /* calls between explorations */

typedef struct {
    int model, least; /* the key: a change restarts the search */
    int nc, cand[PAPCOLL__NS_MAXC];
    double t[PAPCOLL__NS_MAXC][PAPCOLL__NS_WIN]; /* tails (seconds), a ring per candidate */
    int nt[PAPCOLL__NS_MAXC], pos[PAPCOLL__NS_MAXC];
    int step; /* calls chosen since the exploration began */
    int explorations;
} papcoll__nsearch_t;

/* Starts a search for this key, or keeps the running one if the key is its own. */
void papcoll__ns_key(papcoll__nsearch_t *s, int model, int least);
/* The N of the next call; *exploring: whether it is an exploration call (may be NULL). */
int papcoll__ns_next(papcoll__nsearch_t *s, int *exploring);
/* The tail of a call that ran with N (a count that is no candidate, or a
 * tail that is not finite and >= 0, is ignored). */
void papcoll__ns_observe(papcoll__nsearch_t *s, int N, double tail);
/* A candidate's median tail (NaN: no tail yet). */
double papcoll__ns_median(const papcoll__nsearch_t *s, int k);

#endif
