/*
 * stall.c (docs/results/data/pic-composite/hiccups/) with a watchdog thread
 * per rank, for docs/results/emucluster-stalls.md.  Not part of the build.
 * When the main thread's exchange has run over 40 ms the watchdog prints
 * every TCP socket of the process with bytes queued (SIOCINQ received and
 * unread, SIOCOUTQ unacknowledged, SIOCOUTQNSD unsent), and, once or twice
 * per rank, with WD_SCHED=1 the run and run-queue wait of every thread over
 * a 20 ms sleep (/proc/self/task/T/schedstat), with WD_STRACE=1 50 ms of
 * the process's syscalls (strace), with WD_GDB=1 the threads' stacks (gdb).
 * The watchdog's own printing slows the run: count stalls with stall.c.
 *
 *   mpicc -O2 -g -o stallw stallw.c -lpthread
 *   jobs/emucluster run -x WD_SCHED=1 -- ./stallw 100 2 200000 0
 */
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <string.h>
#include <stdlib.h>

static volatile double xstart = -1; /* main's exchange start (MPI_Wtime) or -1 */
static volatile int xstep = -1;
static int myrank;
static int dump_socks(int step, double age)
{
    int fd, big = 0;
    for (fd = 0; fd < 1024; fd++) {
        struct stat st;
        int in = 0, out = 0, unsent = 0;
        struct sockaddr_in pa; socklen_t pl = sizeof pa;
        if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
        if (ioctl(fd, SIOCINQ, &in) != 0) continue;
        ioctl(fd, SIOCOUTQ, &out);
        ioctl(fd, SIOCOUTQNSD, &unsent);
        if (getpeername(fd, (struct sockaddr *)&pa, &pl) != 0 || pa.sin_family != AF_INET) continue;
        big += in > 1000;
        if (in || out)
            fprintf(stderr, "WD rank %d step %d age %.1f ms fd %d peer %s:%d inq %d outq %d unsent %d\n", myrank, step, age * 1e3, fd,
                    inet_ntoa(pa.sin_addr), ntohs(pa.sin_port), in, out, unsent);
    }
    return big;
}
#include <dirent.h>
static int taskstats(long long *run, long long *wait, int *tid, int max)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)) != NULL && n < max) {
        char path[128]; FILE *f;
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", e->d_name);
        if ((f = fopen(path, "r")) == NULL) continue;
        if (fscanf(f, "%lld %lld", &run[n], &wait[n]) == 2) tid[n++] = atoi(e->d_name);
        fclose(f);
    }
    if (d) closedir(d);
    return n;
}
static void sched_delta(int step)
{
    long long r0[16], w0[16], r1[16], w1[16];
    int t0[16], t1[16], n0, n1, i;
    struct timespec ts = {0, 20000000};
    n0 = taskstats(r0, w0, t0, 16);
    nanosleep(&ts, NULL);
    n1 = taskstats(r1, w1, t1, 16);
    for (i = 0; i < n0 && i < n1; i++)
        if (t0[i] == t1[i] && (r1[i] - r0[i] > 100000 || w1[i] - w0[i] > 100000))
            fprintf(stderr, "SD rank %d step %d tid %d run %.1f ms wait %.1f ms (of 20)\n", myrank, step, t0[i], (r1[i]-r0[i])/1e6, (w1[i]-w0[i])/1e6);
}
static void *watchdog(void *arg)
{
    int dumped = -1, n = 0, gdbs = 0;
    (void)arg;
    for (;;) {
        struct timespec ts = {0, 5000000};
        double s = xstart;
        int st = xstep;
        nanosleep(&ts, NULL);
        if (s >= 0 && st == xstep && MPI_Wtime() - s > 0.04 && (dumped != st || n < 6)) {
            if (dumped != st) n = 0;
            fprintf(stderr, "WD rank %d step %d stalled %.1f ms\n", myrank, st, (MPI_Wtime() - s) * 1e3);
            if (xstart != s) continue;
            if (dump_socks(st, MPI_Wtime() - s) && gdbs < 3 && getenv("WD_SCHED")) {
                gdbs++;
                sched_delta(st);
                dump_socks(st, MPI_Wtime() - s);
            }
            if (dump_socks(st, MPI_Wtime() - s) && gdbs < 2 && getenv("WD_STRACE")) {
                char cmd[256];
                gdbs++;
                snprintf(cmd, sizeof cmd, "timeout 0.05 strace -f -tt -p %d -e trace=epoll_wait,readv,recvfrom,read,poll,sched_yield,nanosleep,clock_nanosleep > /tmp/s43/st-r%d-s%d.txt 2>&1", (int)getpid(), myrank, st);
                system(cmd);
                dump_socks(st, MPI_Wtime() - s);
            }
            dumped = st; n++;
        }
    }
    return NULL;
}

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
    myrank = me;
    { pthread_t wd; pthread_create(&wd, NULL, watchdog, NULL); }
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
        xstep = s; xstart = t;
        exchange(sb, rb, sizeof sb, R, L, 1);
        exchange(sb, rb, sizeof sb, L, R, 2);
        xstart = -1;
        t = MPI_Wtime() - t;
        if (t > 0.04) fprintf(stderr, "SLOW rank %d step %d %.1f ms\n", me, s, t * 1e3);
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
