/*
 * The global clock (clock.c): every rank's CLOCK_MONOTONIC moved onto rank
 * 0's time base.  Not installed.  The clock only estimates; whoever
 * re-estimates hands the new estimate to the record sink (papcoll__resync
 * in monitor.c), so the clock depends on nothing above it.
 */
#ifndef PAPCOLL_CLOCK_H
#define PAPCOLL_CLOCK_H

#include "context.h"

/* Now on the global time base (seconds). */
double papcoll__now(const papcoll_ctx_t *ctx);
int papcoll__clock_init(papcoll_ctx_t *ctx);
/* Re-estimates offset and drift (collective over ctx->clock_comm; one
 * thread per rank: the first site's monitor, or the application). */
int papcoll__clock_update(papcoll_ctx_t *ctx);
void papcoll__clock_free(papcoll_ctx_t *ctx);

#endif
