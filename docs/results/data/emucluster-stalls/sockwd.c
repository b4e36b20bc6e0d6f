#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
/*
 * A socket watchdog to preload into every rank (docs/results/emucluster-stalls.md).
 * Not part of the build.  With SOCKWD=1 a thread checks every 2 ms the TCP
 * sockets of the process whose peer is on 10.77.0.0/16 (the emulated nodes):
 * a receive queue (SIOCINQ) or a send queue (SIOCOUTQ) that is not empty and
 * has not changed since the last check is "held"; a hold of 10 ms is
 * written to /tmp/s43/wd/PID.txt, a send queue's with its unsent bytes
 * (SIOCOUTQNSD) and the connection's TCP_INFO.
 *
 *   gcc -O2 -shared -fPIC -o sockwd.so sockwd.c -lpthread; mkdir -p /tmp/s43/wd
 *   jobs/emucluster run -x SOCKWD=1 -x LD_PRELOAD=$PWD/sockwd.so -- PROGRAM
 */
#define NFD 256
static double mono(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static void *wd(void *arg)
{
    static int prev[NFD];
    static double since[NFD];
    static int logged[NFD], oprev[NFD], ologged[NFD];
    static double osince[NFD];
    char path[64];
    FILE *f;
    (void)arg;
    snprintf(path, sizeof path, "/tmp/s43/wd/%d.txt", (int)getpid());
    f = fopen(path, "w");
    if (!f) return NULL;
    setvbuf(f, NULL, _IOLBF, 0);
    for (;;) {
        struct timespec ts = {0, 2000000};
        int fd;
        double now;
        nanosleep(&ts, NULL);
        now = mono();
        for (fd = 3; fd < NFD; fd++) {
            struct stat st; int in = 0;
            struct sockaddr_in pa; socklen_t pl = sizeof pa;
            if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode) || ioctl(fd, SIOCINQ, &in) != 0) { prev[fd] = 0; continue; }
            if (getpeername(fd, (struct sockaddr *)&pa, &pl) != 0 || pa.sin_family != AF_INET || (ntohl(pa.sin_addr.s_addr) >> 16) != ((10u << 8) | 77u)) { prev[fd] = 0; continue; }
            if (in > 0 && in == prev[fd]) {
                if (!logged[fd] && now - since[fd] > 0.010) {
                    fprintf(f, "%.6f held fd %d peer %s inq %d for %.1f ms\n", now, fd, inet_ntoa(pa.sin_addr), in, (now - since[fd]) * 1e3);
                    logged[fd] = 1;
                }
            } else {
                if (logged[fd])
                    fprintf(f, "%.6f released fd %d after %.1f ms (inq now %d)\n", now, fd, (now - since[fd]) * 1e3, in);
                logged[fd] = 0;
                since[fd] = now;
            }
            prev[fd] = in;
            {
                int out = 0, uns = 0;
                ioctl(fd, SIOCOUTQ, &out);
                ioctl(fd, SIOCOUTQNSD, &uns);
                if (out > 0 && out == oprev[fd]) {
                    if (!ologged[fd] && now - osince[fd] > 0.010) {
                        struct tcp_info ti; socklen_t tl = sizeof ti;
                        memset(&ti, 0, sizeof ti);
                        getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &tl);
                        fprintf(f, "%.6f outq-held fd %d peer %s outq %d unsent %d for %.1f ms ca %u retr %u probes %u backoff %u rto %u us cwnd %u unacked %u snd_wnd %u lost %u\n", now, fd, inet_ntoa(pa.sin_addr), out, uns, (now - osince[fd]) * 1e3,
                                ti.tcpi_ca_state, ti.tcpi_retransmits, ti.tcpi_probes, ti.tcpi_backoff, ti.tcpi_rto, ti.tcpi_snd_cwnd, ti.tcpi_unacked, ti.tcpi_snd_wnd, ti.tcpi_lost);
                        ologged[fd] = 1;
                    }
                } else {
                    if (ologged[fd])
                        fprintf(f, "%.6f outq-released fd %d after %.1f ms (outq now %d)\n", now, fd, (now - osince[fd]) * 1e3, out);
                    ologged[fd] = 0;
                    osince[fd] = now;
                }
                oprev[fd] = out;
            }
        }
    }
    return NULL;
}
__attribute__((constructor)) static void start(void)
{
    pthread_t t;
    const char *e = getenv("SOCKWD");
    if (e && *e == '1') { pthread_create(&t, NULL, wd, NULL); pthread_detach(t); }
}
