/*
 * What limits an emulated cluster at large P (docs/papbench.md, "Limits of
 * the rig"): measured, not assumed.
 *
 *   alpha per rank: half the round trip of an empty message between the
 *       root and every other rank (minimum of `reps` ping-pongs each), so
 *       the spread of the latency over the ranks shows: on one machine
 *       the nodes' TCP stacks, bridges and shapers share its cores, and a
 *       rank that is not scheduled answers late;
 *   CPU per rank: user + system time of the whole process (its application
 *       thread, the papcoll monitor thread, MPI's progress threads; getrusage
 *       RUSAGE_SELF) over the measured loop, its involuntary context
 *       switches, and the sum over ranks divided by the loop's wall time:
 *       the cores the run kept busy (the kernel's TCP and shaping work done
 *       in softirq context is partly charged to whoever was running).
 *
 * Both are collective over the communicator; the results are on the root
 * (rank 0 of the communicator).
 */
#ifndef PAPBENCH_LIMITS_H
#define PAPBENCH_LIMITS_H

#include <mpi.h>

typedef struct {
    double alpha_min, alpha_median, alpha_max; /* over the ranks other than the root (s) */
    int alpha_max_rank;
    double cpu_min, cpu_mean, cpu_max; /* user + sys per rank over the loop (s) */
    int cpu_max_rank;
    double cpu_total;         /* sum over ranks (s) */
    double wall;              /* the loop on the root (s) */
    double nivcsw_max;        /* most involuntary context switches of one rank during the loop */
    int cores;                /* online cores of the root's machine */
    double t0, cpu0, nivcsw0; /* every rank: state at the loop's start */
} bench_limits_t;

/* Root <-> every rank, reps ping-pongs of 0 bytes each; 0 or -1 (no memory, agreed). */
int limits_alpha(MPI_Comm comm, int root, int reps, bench_limits_t *l);

/* At the loop's start (every rank). */
void limits_cpu_start(bench_limits_t *l);

/* At the loop's end: per-rank CPU to the root; 0 or -1 (no memory, agreed). */
int limits_cpu_end(MPI_Comm comm, int root, bench_limits_t *l);

#endif /* PAPBENCH_LIMITS_H */
