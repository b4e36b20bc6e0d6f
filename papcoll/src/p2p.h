/*
 * Point-to-point helpers shared by the algorithms (p2p.c).  Not installed.
 * Every MPI call of the library uses the profiling names (PMPI_*), so an
 * interposer of the MPI_* names never re-enters papcoll.
 */
#ifndef PAPCOLL_P2P_H
#define PAPCOLL_P2P_H

#include <string.h>

#include "args.h"
#include "exec.h"

/* The polling waits (p2p.c): between polls a call's own waits nap, from
 * 2 us doubling to 200 us, when nap (a->nap: ranks share cores), else
 * yield; a background part's waits always nap. */
int papcoll__fg_waitall(int n, MPI_Request *reqs, MPI_Status *sts, int nap);
int papcoll__fg_waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts, int nap);
int papcoll__fg_waitany(int n, MPI_Request *reqs, int *idx, MPI_Status *st, int nap);
/* PMPI_Improbe and PMPI_Imrecv (MPI return codes).  SimGrid 3.32's SMPI
 * aborts in both: there the probe is PMPI_Iprobe, *msg holds the source and
 * tag it found, and the receive names them.  That receives the probed
 * message because nothing else of the rank can post a receive in between:
 * its monitor is a coroutine that yields only in waits (coop.h), and every
 * caller posts the receive right after the probe. */
int papcoll__improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *msg, MPI_Status *st);
int papcoll__imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *msg, MPI_Request *req);
/* Waits (polling) for one message from src and matches it: *msg for
 * papcoll__imrecv, *bytes its size.  For parts that choose the buffer by size. */
int papcoll__fg_probe(int src, int tag, MPI_Comm comm, MPI_Message *msg, size_t *bytes, int nap);
int papcoll__bg_wait(MPI_Request *req);
int papcoll__bg_waitall(int n, MPI_Request *reqs, MPI_Status *sts);
int papcoll__bg_waitsome(int n, MPI_Request *reqs, int *done, int *idx, MPI_Status *sts);
int papcoll__bg_probe(int src, int tag, MPI_Comm comm, MPI_Message *msg, size_t *bytes);
/* Receives one message of unknown size from src, appended to st->buf at
 * st->len; *len (may be NULL) gets its size. */
int papcoll__bg_recv(papcoll__stage_t *st, int src, int tag, MPI_Comm comm, size_t *len);
int papcoll__stage_reserve(papcoll__stage_t *st, size_t bytes);
/* A work buffer of at least bytes for role slot (PAPCOLL__SCR_*) of the
 * calling thread's part of a call, or NULL (NOMEM).  The site keeps it for
 * its next calls: a vector-sized malloc per call is mapped afresh by the
 * kernel at every call (glibc returns large blocks to it), one page fault
 * per page (docs/reduce.md, "Work buffers").  Not for a background part. */
void *papcoll__scratch(const papcoll__args_t *a, int slot, size_t bytes);
/* Frees a site's work buffer (papcoll__scratch). */
void papcoll__scratch_free(papcoll__stage_t *st);
/* A vector-sized work buffer of one call, freed by papcoll__work_free in
 * the same call: malloc, or in the SMPI build after
 * papcoll_sim_shared_scratch(1) one SMPI_SHARED_MALLOC block, like those of
 * papcoll__scratch. */
void *papcoll__work_alloc(size_t bytes);
void papcoll__work_free(void *p);

/* Byte offset of piece p of n bytes cut into P pieces (the first n % P
 * one byte longer). */
static inline size_t papcoll__piece(size_t n, int P, int p)
{
    size_t q = n / (size_t)P, r = n % (size_t)P;

    return (size_t)p * q + ((size_t)p < r ? (size_t)p : r);
}

/* memcpy that accepts NULL pointers when n == 0 (count-0 collectives). */
static inline void papcoll__copy(void *dst, const void *src, size_t n)
{
    if (n > 0)
        memcpy(dst, src, n);
}

int papcoll__send_bytes(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm);
int papcoll__recv_bytes(void *buf, size_t bytes, int src, int tag, MPI_Comm comm);
int papcoll__irecv_bytes(void *buf, size_t bytes, int src, int tag, MPI_Comm comm, MPI_Request *req);
int papcoll__isend_bytes(const void *buf, size_t bytes, int dst, int tag, MPI_Comm comm, MPI_Request *req);
/* Waits for n requests in the foreground (MPI's own wait). */
int papcoll__waitall(int n, MPI_Request *reqs, MPI_Status *sts);

#endif
