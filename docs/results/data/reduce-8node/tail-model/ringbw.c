/*
 * How much TCP the emulated cluster moves at once (docs/results/reduce-8node.md,
 * "The streamed chain against its port model").  Not part of the build.
 *
 * LINKS of the P ranks stream at the same time: rank i < LINKS sends
 * REPS messages of SEG bytes to rank (i + 1) % P, which receives them
 * (a ring when LINKS = P, one pair when LINKS = 1), two sends and two
 * receives in flight, as papcoll's tree engine keeps them.  Prints the
 * median over TRIALS of the slowest link's rate and the aggregate.
 * With RELAY 1 the LINKS links form one chain 0 -> 1 -> ... -> LINKS that
 * relays: rank i > 0 forwards each message once it has received it (the
 * streamed treedyn's chain without the combine), and the time is the
 * chain's end to end.  RELAY 2 is the same chain run as papcoll's
 * streamed treedyn runs it (engine_dyn.c, stream_participant): every
 * receive posted at once into a full-size buffer, then each message
 * waited for in turn and sent on at once, no bound on the sends in flight.
 *
 * THREAD 1 initialises MPI_THREAD_MULTIPLE (as papcoll does); THREAD 2
 * also keeps a second thread waiting in MPI_Recv on a duplicate
 * communicator for the whole run (as a monitor thread that waits in MPI);
 * THREAD 3 does so on rank 0 only; THREAD 4 on rank 0 only between the
 * trials (waiting from the end of one until just before the next starts,
 * as treedyn's coordinator on the root waits from the edge until the
 * root's arrival).
 *
 * Environment: RINGBW_SLEEP_MS=M sleeps M ms before each trial (the
 * connections idle, as between papbench's calls); RINGBW_SHUFFLE=1 gives
 * the relay chain another order of the ranks in every trial (rank 0's
 * random permutation), as treedyn's report order changes from call to call;
 * RINGBW_COMBINE=1 (RELAY 2) combines each message into an accumulator with
 * MPI_Reduce_local (MPI_INT, MPI_SUM) and sends the accumulator's part on.
 *
 *   mpicc -O2 -o ringbw ringbw.c -lpthread
 *   jobs/emucluster run -- ./ringbw LINKS [REPS [SEG [TRIALS [RELAY [THREAD]]]]]
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static MPI_Comm side;

static void *waiter(void *arg)
{
    int x;

    (void)arg;
    MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 9, side, MPI_STATUS_IGNORE);
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int P, me, links, reps, seg, trials, relay, thread, prov, t, k, shuffle, *perm, pos, i, combine;
    char *acc;
    double sleep_ms;
    pthread_t th;
    char *sb, *rb, *big;
    double *times;

    thread = argc > 6 ? atoi(argv[6]) : 0;
    if (thread)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &prov);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    links = argc > 1 ? atoi(argv[1]) : P;
    reps = argc > 2 ? atoi(argv[2]) : 128;
    seg = argc > 3 ? atoi(argv[3]) : 65472;
    trials = argc > 4 ? atoi(argv[4]) : 7;
    relay = argc > 5 ? atoi(argv[5]) : 0;
    if (links < 1 || links > P - (relay != 0) || reps < 2 || seg < 1 || trials < 1 || P < 2 || relay < 0 || relay > 2 || thread < 0 || thread > 4) {
        if (me == 0)
            fprintf(stderr, "usage: ringbw LINKS(1..P, 1..P-1 with RELAY) [REPS>=2 [SEG>=1 [TRIALS>=1 [RELAY 0|1|2]]]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    sb = calloc(2, (size_t)seg);
    rb = calloc(2, (size_t)seg);
    big = calloc((size_t)reps, (size_t)seg);
    times = calloc((size_t)trials, sizeof *times);
    if (thread >= 2) {
        MPI_Comm_dup(MPI_COMM_WORLD, &side);
        if (thread == 2 || (thread == 3 && me == 0))
            pthread_create(&th, NULL, waiter, NULL);
    }
    sleep_ms = getenv("RINGBW_SLEEP_MS") ? atof(getenv("RINGBW_SLEEP_MS")) : 0;
    shuffle = getenv("RINGBW_SHUFFLE") ? atoi(getenv("RINGBW_SHUFFLE")) : 0;
    combine = getenv("RINGBW_COMBINE") ? atoi(getenv("RINGBW_COMBINE")) : 0;
    acc = calloc((size_t)reps, (size_t)seg);
    perm = malloc((size_t)P * sizeof *perm);
    srand(12345);
    for (t = 0; t < trials; t++) {
        int sends, recvs, prev, next;

        for (i = 0; i < P; i++)
            perm[i] = i;
        for (i = P - 1; shuffle && i > 0; i--) {
            int j = rand() % (i + 1), x = perm[i];

            perm[i] = perm[j];
            perm[j] = x;
        }
        for (pos = 0; perm[pos] != me; pos++)
            ;
        prev = perm[(pos + P - 1) % P];
        next = perm[(pos + 1) % P];
        sends = pos < links;
        recvs = (pos + P - 1) % P < links;
        if (thread == 4 && me == 0) {
            struct timespec ts = {0, 20000000L};
            int x = 0;

            pthread_create(&th, NULL, waiter, NULL);
            nanosleep(&ts, NULL);
            MPI_Send(&x, 1, MPI_INT, me, 9, side);
            pthread_join(th, NULL);
        }
        if (sleep_ms > 0) {
            struct timespec ts = {(time_t)(sleep_ms / 1000), (long)(sleep_ms * 1e6) % 1000000000L};

            nanosleep(&ts, NULL);
        }
        MPI_Request sq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL}, rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        double t0, dt;

        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        if (relay) {
            sends = pos < links;
            recvs = pos > 0 && pos <= links;
        }
        if (relay == 2) {
            MPI_Request *q = malloc(2 * (size_t)reps * sizeof *q);

            for (k = 0; k < 2 * reps; k++)
                q[k] = MPI_REQUEST_NULL;
            for (k = 0; recvs && k < reps; k++)
                MPI_Irecv(big + (size_t)k * seg, seg, MPI_BYTE, prev, 7, MPI_COMM_WORLD, &q[k]);
            for (k = 0; k < reps; k++) {
                char *out = big + (size_t)k * seg;

                if (recvs)
                    MPI_Wait(&q[k], MPI_STATUS_IGNORE);
                if (recvs && combine) {
                    MPI_Reduce_local(out, acc + (size_t)k * seg, seg / 4, MPI_INT, MPI_SUM);
                    out = acc + (size_t)k * seg;
                }
                if (sends)
                    MPI_Isend(out, seg, MPI_BYTE, next, 7, MPI_COMM_WORLD, &q[reps + k]);
            }
            MPI_Waitall(2 * reps, q, MPI_STATUSES_IGNORE);
            free(q);
        }
        for (k = relay == 2 ? reps : 0; k < reps; k++) {
            char *buf = (relay && recvs ? rb : sb) + (size_t)(k % 2) * seg;

            if (relay && recvs) {
                MPI_Wait(&sq[k % 2], MPI_STATUS_IGNORE);
                MPI_Recv(buf, seg, MPI_BYTE, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (recvs) {
                MPI_Wait(&rq[k % 2], MPI_STATUS_IGNORE);
                MPI_Irecv(rb + (size_t)(k % 2) * seg, seg, MPI_BYTE, prev, 7, MPI_COMM_WORLD, &rq[k % 2]);
            }
            if (sends) {
                if (!relay || !recvs)
                    MPI_Wait(&sq[k % 2], MPI_STATUS_IGNORE);
                MPI_Isend(buf, seg, MPI_BYTE, next, 7, MPI_COMM_WORLD, &sq[k % 2]);
            }
        }
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        MPI_Waitall(2, sq, MPI_STATUSES_IGNORE);
        dt = MPI_Wtime() - t0;
        MPI_Reduce(&dt, &times[t], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    }
    if (thread >= 2) {
        int x = 0;

        if (thread == 2 || (thread == 3 && me == 0)) {
            MPI_Send(&x, 1, MPI_INT, me, 9, side);
            pthread_join(th, NULL);
        }
        MPI_Comm_free(&side);
    }
    if (me == 0) {
        double per;

        qsort(times, (size_t)trials, sizeof *times, cmp);
        per = (double)reps * seg / times[trials / 2] / 1e6;
        printf("P=%d links=%d%s%s reps=%d seg=%d: median %.2f ms, %.1f MB/s per link, %.1f MB/s in all\n", P, links,
               relay == 2 ? " (relay chain, all receives posted)" : relay ? " (relay chain)" : "",
               thread == 4   ? ", MULTIPLE + a thread waiting in MPI on rank 0 between trials"
               : thread == 3 ? ", MULTIPLE + a thread waiting in MPI on rank 0" : thread == 2 ? ", MULTIPLE + a thread waiting in MPI" : thread ? ", MPI_THREAD_MULTIPLE" : "", reps, seg, times[trials / 2] * 1e3, per, per * links);
    }
    free(sb);
    free(rb);
    free(big);
    free(times);
    free(perm);
    free(acc);
    MPI_Finalize();
    return 0;
}
