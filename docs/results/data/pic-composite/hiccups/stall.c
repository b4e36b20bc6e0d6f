/*
 * Stall reproducer (docs/results/pic-composite.md, "Where the PIC loses
 * 100-300 ms now and then").  Not part of the build.
 *
 * Every step: a random 2-8 ms computation, then two neighbour MPI_Sendrecv
 * of 20000 bytes on MPI_COMM_WORLD in the main thread (the PIC's particle
 * migration), timed; 3 ms more computation; a bcast.  Meanwhile a second
 * thread on every rank runs one 8-double allgather per step on its own
 * duplicate of MPI_COMM_WORLD (papcoll's PAT exchange), started when the
 * main thread begins its Sendrecvs, in one of three ways:
 *   XCHG 0: no second thread;
 *   XCHG 1: blocking MPI_Allgather (as monitor.c does);
 *   XCHG 2: MPI_Iallgather, then MPI_Test with nanosleep 2 us doubling to
 *           CAP ns between tests (CAP 200000: as p2p.c's background waits);
 *   XCHG 3: MPI_Iallgather, then MPI_Test with sched_yield between tests.
 * MAIN (added 2026-11-28; 0 is the original) is how the main thread waits
 * for its two exchanges:
 *   MAIN 0: MPI_Sendrecv;
 *   MAIN 1: MPI_Irecv + MPI_Isend, then MPI_Testall with XCHG 2's sleeps;
 *   MAIN 2: MPI_Irecv + MPI_Isend, then MPI_Waitall;
 *   MAIN 3: MPI_Irecv + MPI_Isend, then MPI_Testall with sched_yield.
 * Prints how many Sendrecv pairs took over 30 ms and the longest.
 *
 *   mpicc -O2 -o stall stall.c -lpthread
 *   jobs/emucluster run -- ./stall STEPS XCHG [CAP [MAIN]]
 */
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static MPI_Comm ex;
static int steps, xchg, mainmode, go = -1, done = -1;
static long cap = 200000;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

/* Tests the n requests until they are done, between tests sleeping 2 us
 * doubling to cap ns (yield 0) or yielding the CPU (yield 1). */
static void poll_wait(int n, MPI_Request *q, int yield)
{
    long ns = 2000;
    int flag = 0;

    for (;;) {
        MPI_Testall(n, q, &flag, MPI_STATUSES_IGNORE);
        if (flag)
            return;
        if (yield) {
            sched_yield();
        } else {
            struct timespec ts = {0, ns};
            nanosleep(&ts, NULL);
            ns = ns < cap ? 2 * ns : cap;
        }
    }
}

static void allgather(double *in, double *out)
{
    MPI_Request q;

    if (xchg == 1) {
        MPI_Allgather(in, 8, MPI_DOUBLE, out, 8, MPI_DOUBLE, ex);
        return;
    }
    MPI_Iallgather(in, 8, MPI_DOUBLE, out, 8, MPI_DOUBLE, ex, &q);
    poll_wait(1, &q, xchg == 3);
}

/* The main thread's exchange: send to dst, receive from src, as MAIN says. */
static void exchange(char *sb, char *rb, int n, int dst, int src, int tag)
{
    MPI_Request q[2];

    if (mainmode == 0) {
        MPI_Sendrecv(sb, n, MPI_BYTE, dst, tag, rb, n, MPI_BYTE, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return;
    }
    MPI_Irecv(rb, n, MPI_BYTE, src, tag, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(sb, n, MPI_BYTE, dst, tag, MPI_COMM_WORLD, &q[1]);
    if (mainmode == 2)
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    else
        poll_wait(2, q, mainmode == 3);
}

static void *exchanger(void *arg)
{
    double in[8] = {0}, *out = arg;
    int s;

    for (s = 0; s < steps; s++) {
        pthread_mutex_lock(&mu);
        while (go < s)
            pthread_cond_wait(&cv, &mu);
        pthread_mutex_unlock(&mu);
        allgather(in, out);
        pthread_mutex_lock(&mu);
        done = s;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

static void compute(double sec)
{
    double t = MPI_Wtime();
    volatile double x = 0;

    while (MPI_Wtime() - t < sec)
        x += 1;
}

int main(int argc, char **argv)
{
    static char sb[20000], rb[20000], blk[2048];
    int prov, P, me, L, R, s, slow = 0, total;
    double t, worst = 0, w, *out;
    pthread_t th;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &prov);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    steps = argc > 1 ? atoi(argv[1]) : 300;
    xchg = argc > 2 ? atoi(argv[2]) : 2;
    cap = argc > 3 ? atol(argv[3]) : 200000;
    mainmode = argc > 4 ? atoi(argv[4]) : 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &ex);
    out = malloc(8 * sizeof(double) * (size_t)P);
    if (xchg)
        pthread_create(&th, NULL, exchanger, out);
    L = (me + P - 1) % P;
    R = (me + 1) % P;
    srand((unsigned)me + 1);
    for (s = 0; s < steps; s++) {
        compute(0.002 + 0.006 * (rand() / (double)RAND_MAX));
        pthread_mutex_lock(&mu);
        go = s;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&mu);
        t = MPI_Wtime();
        exchange(sb, rb, sizeof sb, R, L, 1);
        exchange(sb, rb, sizeof sb, L, R, 2);
        t = MPI_Wtime() - t;
        slow += t > 0.03;
        worst = t > worst ? t : worst;
        compute(0.003);
        pthread_mutex_lock(&mu);
        while (xchg && done < s)
            pthread_cond_wait(&cv, &mu);
        pthread_mutex_unlock(&mu);
        MPI_Bcast(blk, sizeof blk, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    if (xchg)
        pthread_join(th, NULL);
    MPI_Reduce(&slow, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&worst, &w, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("main %d xchg %d: %d of %d Sendrecv pairs over 30 ms, longest %.1f ms\n", mainmode, xchg, total,
               steps * P, w * 1e3);
    free(out);
    MPI_Comm_free(&ex);
    MPI_Finalize();
    return 0;
}
