/*
 * Per-call records and the record sink (record.c; DESIGN "trace record
 * shipping").  Not installed.
 *
 * Each rank appends its record of every call to its site's batch; a full
 * batch is gathered to rank 0 on the site's monitor communicator (by the
 * monitor thread, which the caller asks for it: this module never queues
 * jobs itself, so record <- monitor <- call is the only direction).
 */
#ifndef PAPCOLL_RECORD_H
#define PAPCOLL_RECORD_H

#include "args.h"
#include "select.h"

/* One rank's record of one call, as shipped to rank 0 (all doubles, so a
 * batch is one MPI_DOUBLE array).  The per-call fields (iter .. plan_time)
 * are taken from rank 0's copy. */
typedef struct {
    double cstart, edge, cend, arrival, exit, predicted;
    double iter, algo, root, bytes, count, plan_time;
} papcoll__rec_t;
#define PAPCOLL__REC_DOUBLES ((int)(sizeof(papcoll__rec_t) / sizeof(double)))
#define PAPCOLL__REC_BATCH PAPCOLL_RECORD_BATCH
#define PAPCOLL__REASON_MAX 160

/* Records not yet shipped; rank 0 also keeps why each call ran its
 * algorithm (decisions are the same everywhere, so only rank 0's travel to
 * the sink, without any message). */
typedef struct {
    papcoll__rec_t recs[PAPCOLL__REC_BATCH];
    char reason[PAPCOLL__REC_BATCH][PAPCOLL__REASON_MAX]; /* "" : unchanged algorithm */
    char detail[PAPCOLL__REC_BATCH][PAPCOLL__DETAIL_MAX]; /* the policy's inputs, with reason */
    int n;
} papcoll__batch_t;

/* Rank 0's receiving side of a site while tracing. */
typedef struct {
    papcoll__rec_t *gathered;      /* P batches */
    papcoll_rank_record_t *ranks;  /* one call's P records */
    char type_name[MPI_MAX_OBJECT_NAME]; /* datatype of the first traced call */
} papcoll__recv_t;

/* Appends this call's record (reason: NULL when the algorithm did not
 * change); returns 1 when the batch is full and must be shipped. */
int papcoll__record_call(papcoll_site_t *site, const papcoll__args_t *a, int algo,
                         const char *reason, const char *detail, double arrival, double exit);
/* Collective over site->mcomm: brings a batch of every rank to rank 0's sink. */
int papcoll__record_ship(papcoll_site_t *site, const papcoll__batch_t *b);
/* The datatype name of the site's records, once, on rank 0 while tracing
 * ("(unnamed)" for NULL or ""); papcoll_site_observe gives it by name, since
 * the handle may be gone. */
void papcoll__record_name_type(papcoll_site_t *site, const char *name);
/* Every rank's clock estimate to rank 0's clock callback (collective over
 * comm; buf: rank 0's 6 P doubles). */
int papcoll__record_clock(papcoll_ctx_t *ctx, MPI_Comm comm, double *buf);
/* Rank 0's receive buffers of a site while tracing; freed by record_release. */
int papcoll__record_alloc(papcoll_site_t *site);
void papcoll__record_release(papcoll_site_t *site);

#endif
