/*
 * The ground floor: error translation, the monotonic clock, hashing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "base.h"

int papcoll__mpi_error(int mpirc, const char *file, int line)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0, cls = 0;

    if (getenv("PAPCOLL_DEBUG") != NULL) {
        PMPI_Error_string(mpirc, msg, &len);
        fprintf(stderr, "papcoll: %s:%d: MPI error: %s\n", file, line, msg);
    }
    PMPI_Error_class(mpirc, &cls);
    return cls == MPI_ERR_TRUNCATE ? PAPCOLL_ERR_TRUNCATE : PAPCOLL_ERR_MPI;
}

double papcoll__mono(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t papcoll__fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}
