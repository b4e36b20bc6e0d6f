/*
 * MPI_Init / MPI_Init_thread / MPI_Finalize, shared by the C and Fortran
 * entry points: the configuration (read before PMPI_Init, since it decides
 * the thread level; agreed after it), the Fortran sentinels, our keyval; at
 * the end the release of every communicator and the summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi.h"

ip_state_t ip_g;
_Thread_local int ip_inside;

static const char *level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "?";
    }
}

/* The command line from /proc/self/cmdline (Fortran programs pass none to
 * MPI_Init), for the trace files' metadata. */
static void read_cmdline(void)
{
    static char buf[8192];
    static char *args[128];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0, i;
    const char *slash;

    if (f != NULL)
        fclose(f);
    buf[n] = '\0';
    ip_g.argc = 0;
    for (i = 0; i < n && ip_g.argc < 128; i += strlen(buf + i) + 1)
        args[ip_g.argc++] = buf + i;
    ip_g.argv = args;
    slash = ip_g.argc > 0 ? strrchr(args[0], '/') : NULL;
    snprintf(ip_g.program, sizeof ip_g.program, "%s",
             ip_g.argc == 0 ? "unknown" : slash ? slash + 1 : args[0]);
}

/* The configuration, agreed; the lowest rank whose settings were refused
 * says why. */
static void settle_config(int ok, const char *err)
{
    int mine = ok ? ip_g.world_size : ip_g.world_rank, first = 0;

    PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first < ip_g.world_size && ip_g.world_rank == first)
        fprintf(stderr, "papcoll_pmpi: %s; interposer off (every call goes to PMPI)\n", err);
    if (!ip_config_agree(&ip_g.cfg, ok)) {
        if (first == ip_g.world_size && ip_g.world_rank == 0)
            fprintf(stderr, "papcoll_pmpi: ranks have different PAPCOLL_* settings; interposer off (every call "
                            "goes to PMPI)\n");
        ip_g.cfg.mode = IP_MODE_OFF;
    }
}

/* Rank 0: one line (each written with one call, see summary.c). */
static void banner(int required, int raised, const char *why)
{
    char line[1600];
    int got = 0, n;

    if (ip_g.world_rank != 0)
        return;
    PMPI_Query_thread(&got);
    if (raised)
        fprintf(stderr, "papcoll_pmpi: thread level raised from %s to MPI_THREAD_MULTIPLE (provided: %s) for "
                        "background algorithms (%s)\n",
                level_name(required), level_name(got), why);
    if (ip_g.cfg.mode == IP_MODE_OFF)
        return;
    n = snprintf(line, sizeof line, "papcoll_pmpi: mode %s, %s%s, ", ip_mode_name(ip_g.cfg.mode),
                 ip_g.cfg.trace[0] ? "trace " : "no trace", ip_g.cfg.trace);
    if (n > 0 && (size_t)n < sizeof line && ip_g.cfg.depth == 0)
        snprintf(line + n, sizeof line - (size_t)n, "call sites by op, root and size (no agreement needed)");
    else if (n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "call sites of %d %s, agreed %s", ip_g.cfg.depth,
                 ip_g.cfg.by_function ? (ip_g.cfg.depth > 1 ? "functions" : "function")
                                      : (ip_g.cfg.depth > 1 ? "return addresses" : "return address"),
                 ip_g.cfg.stable ? "until stable (PAPCOLL_AGREE=stable:N)" : "at every call");
    fprintf(stderr, "%s; summary at MPI_Finalize\n", line);
}

/*
 * threaded: the program called MPI_Init_thread (else MPI_Init, whose
 * required level is MPI_THREAD_SINGLE).  Replace mode raises the level to
 * MPI_THREAD_MULTIPLE when a policy may run a background algorithm.
 */
int ip_init(int *argc, char ***argv, int required, int *provided, int threaded)
{
    char err[768] = "", why[256] = "";
    int ok = ip_config_read(&ip_g.cfg, err, sizeof err) == 0, raise, rc;

    raise = ok && ip_wants_multiple(&ip_g.cfg, why, sizeof why) && required < MPI_THREAD_MULTIPLE;
    if (threaded || raise)
        rc = PMPI_Init_thread(argc, argv, raise ? MPI_THREAD_MULTIPLE : required, provided);
    else
        rc = PMPI_Init(argc, argv);
    if (rc != MPI_SUCCESS)
        return rc;
    ip_inside++;
    PMPI_Comm_rank(MPI_COMM_WORLD, &ip_g.world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &ip_g.world_size);
    read_cmdline();
    settle_config(ok, err);
    if (ip_comm_keyval() != MPI_SUCCESS) {
        if (ip_g.world_rank == 0)
            fprintf(stderr, "papcoll_pmpi: no attribute keyval; interposer off\n");
        ip_g.cfg.mode = IP_MODE_OFF;
    }
    papcoll_pmpi_fsentinels();
    banner(required, raise, why);
    ip_g.ready = 1;
    ip_inside--;
    return MPI_SUCCESS;
}

int ip_finalize(void)
{
    if (ip_g.ready) {
        ip_inside++;
        ip_comm_release_all();
        ip_summary_print();
        ip_g.ready = 0;
        ip_inside--;
    }
    return PMPI_Finalize();
}
