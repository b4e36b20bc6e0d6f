/*
 * The ground floor (base.c): error translation, the monotonic clock and
 * hashing.  It includes nothing of papcoll above papcoll.h; every other
 * module may include it.  Not installed.
 */
#ifndef PAPCOLL_BASE_H
#define PAPCOLL_BASE_H

#include <stddef.h>
#include <stdint.h>

#include "papcoll.h"

/* Turns an MPI return code into 0 or a PAPCOLL_ERR_*, naming file:line in
 * debug output ($PAPCOLL_DEBUG).  rc is evaluated once: it is usually the
 * MPI call itself. */
#define PAPCOLL__ERR(rc) papcoll__mpi_rc((rc), __FILE__, __LINE__)
int papcoll__mpi_error(int mpirc, const char *file, int line);

static inline int papcoll__mpi_rc(int mpirc, const char *file, int line)
{
    return mpirc == MPI_SUCCESS ? PAPCOLL_OK : papcoll__mpi_error(mpirc, file, line);
}

/* CLOCK_MONOTONIC in seconds: this rank's local time (clock.c puts it on
 * the global time base). */
double papcoll__mono(void);

/* FNV-1a over n bytes, continuing from h (start: 0xCBF29CE484222325): the
 * hashes of what all ranks must share (plans, rules files, identities). */
uint64_t papcoll__fnv(uint64_t h, const void *p, size_t n);

#endif
