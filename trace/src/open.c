/*
 * paptrace_open / paptrace_close: the collective wrapper around the writer.
 * Every rank sends its host name and pid to rank 0, which creates the file
 * (paptrace_create) and becomes the record sink; outcomes are agreed, so
 * every rank returns the same status.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_internal.h"

/* How papcoll put every rank on one time base (papcoll_clock_info). */
static void clock_method(papcoll_ctx_t *ctx, char *buf, size_t len)
{
    papcoll_clock_t k;

    if (papcoll_clock_info(ctx, &k) != PAPCOLL_OK)
        snprintf(buf, len, "unknown");
    else if (k.global)
        snprintf(buf, len, "MPI_WTIME_IS_GLOBAL: nothing measured");
    else
        snprintf(buf, len,
                 "CLOCK_MONOTONIC per node, node offsets to rank 0 by ping-pong with minimum round trip "
                 "(%d node%s, max |offset| %.3g s, max error %.3g s)",
                 k.nodes, k.nodes == 1 ? "" : "s", k.max_abs, k.max_err);
}

/* Rank 0: creates the file with the gathered hosts (P x MPI_MAX_PROCESSOR_NAME) and pids. */
static int create_on_root(papcoll_ctx_t *ctx, int P, const char *path, const paptrace_meta_t *meta,
                          const char *names, const long long *pids, paptrace_t **out)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "unknown", method[256];
    const char **hosts = malloc((size_t)P * sizeof *hosts);
    paptrace_run_t run;
    int i, len = 0, rc;

    if (hosts == NULL)
        return PAPTRACE_ERR_NOMEM;
    for (i = 0; i < P; i++)
        hosts[i] = names + (size_t)i * MPI_MAX_PROCESSOR_NAME;
    MPI_Get_library_version(lib, &len);
    clock_method(ctx, method, sizeof method);
    run = (paptrace_run_t){P, hosts, pids, lib, method};
    rc = paptrace_create(path, meta, &run, out);
    free(hosts);
    return rc;
}

/* Gathers host names and pids to rank 0 and creates the file there; agreed status. */
static int create_agreed(papcoll_ctx_t *ctx, MPI_Comm comm, int rank, int P, const char *path,
                         const paptrace_meta_t *meta, paptrace_t **out)
{
    char name[MPI_MAX_PROCESSOR_NAME] = "", *names = NULL;
    long long pid = (long long)getpid(), *pids = NULL;
    int len = 0, rc = PAPTRACE_OK, ok;

    MPI_Get_processor_name(name, &len);
    if (rank == 0) {
        names = calloc((size_t)P, MPI_MAX_PROCESSOR_NAME);
        pids = calloc((size_t)P, sizeof *pids);
    }
    ok = MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
                    comm) == MPI_SUCCESS &&
         MPI_Gather(&pid, 1, MPI_LONG_LONG, pids, 1, MPI_LONG_LONG, 0, comm) == MPI_SUCCESS;
    if (rank == 0)
        rc = !ok ? PAPTRACE_ERR_MPI
             : names == NULL || pids == NULL ? PAPTRACE_ERR_NOMEM
                                              : create_on_root(ctx, P, path, meta, names, pids, out);
    else
        rc = pt_handle_new(out);
    free(pids);
    free(names);
    if (MPI_Bcast(&rc, 1, MPI_INT, 0, comm) != MPI_SUCCESS)
        rc = PAPTRACE_ERR_MPI;
    if (rc != PAPTRACE_OK && *out != NULL) {
        pt_finish_file(*out);
        pt_handle_free(*out);
        *out = NULL;
    }
    return rc;
}

int paptrace_open(papcoll_ctx_t *ctx, MPI_Comm comm, const char *path, const paptrace_meta_t *meta,
                  paptrace_t **out)
{
    papcoll_sink_t sink;
    paptrace_t *t = NULL;
    int rank, P, rc, all;

    if (out == NULL)
        return PAPTRACE_ERR_INVAL;
    *out = NULL;
    if (ctx == NULL || path == NULL || meta == NULL)
        return PAPTRACE_ERR_INVAL;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &P) != MPI_SUCCESS)
        return PAPTRACE_ERR_MPI;
    if ((rc = create_agreed(ctx, comm, rank, P, path, meta, &t)) != PAPTRACE_OK)
        return rc;
    t->ctx = ctx;
    t->comm = comm;
    t->rank = rank;
    sink = paptrace_sink(t);
    rc = papcoll_set_sink(ctx, rank == 0 ? &sink : NULL) == PAPCOLL_OK ? PAPTRACE_OK : PAPTRACE_ERR_SINK;
    if (MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        all = PAPTRACE_ERR_MPI;
    if (all != PAPTRACE_OK) {
        papcoll_set_sink(ctx, NULL);
        pt_finish_file(t);
        pt_handle_free(t);
        return all;
    }
    *out = t;
    return PAPTRACE_OK;
}

int paptrace_close(paptrace_t **tp)
{
    paptrace_t *t;
    int rc, all;

    if (tp == NULL || *tp == NULL)
        return PAPTRACE_ERR_INVAL;
    t = *tp;
    *tp = NULL;
    rc = papcoll_set_sink(t->ctx, NULL) == PAPCOLL_OK ? PAPTRACE_OK : PAPTRACE_ERR_SINK;
    if (t->rank == 0) {
        int frc = pt_finish_file(t);

        rc = rc != PAPTRACE_OK ? rc : frc;
    }
    if (MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, t->comm) != MPI_SUCCESS)
        all = PAPTRACE_ERR_MPI;
    pt_handle_free(t);
    return all;
}
