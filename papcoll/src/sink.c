/*
 * Installing and removing the record sink (papcoll_set_sink): flush what the
 * old sink is owed, agree on tracing (rank 0 decides: it has the sink and
 * the memory), allocate rank 0's receive buffers, send the clock estimate.
 */
#include <stdlib.h>

#include "monitor.h"
#include "record.h"

/* Rank 0 decides (it has the sink and the memory); everyone follows. */
static int agree_tracing(papcoll_ctx_t *ctx, const papcoll_sink_t *sink, double **clockbuf)
{
    papcoll_site_t *s;
    int on = 0, rc = PAPCOLL_OK;

    if (ctx->rank == 0 && sink != NULL) {
        if (sink->record == NULL)
            rc = PAPCOLL_ERR_INVAL;
        else if ((*clockbuf = malloc((size_t)ctx->size * 6 * sizeof(double))) == NULL)
            rc = PAPCOLL_ERR_NOMEM;
        for (s = ctx->sites; s != NULL && rc == PAPCOLL_OK; s = s->next)
            rc = papcoll__record_alloc(s);
        on = rc == PAPCOLL_OK;
    }
    if (PMPI_Bcast(&on, 1, MPI_INT, 0, ctx->data_comm) != MPI_SUCCESS && rc == PAPCOLL_OK)
        rc = PAPCOLL_ERR_MPI;
    ctx->tracing = on;
    return rc;
}

int papcoll_set_sink(papcoll_ctx_t *ctx, const papcoll_sink_t *sink)
{
    papcoll_site_t *s;
    double *clockbuf = NULL;
    int rc = PAPCOLL_OK;

    if (ctx == NULL)
        return PAPCOLL_ERR_INVAL;
    for (s = ctx->sites; s != NULL && rc == PAPCOLL_OK; s = s->next) {
        papcoll__wait_idle(s); /* batched records still reach the old sink */
        if (ctx->tracing && s->batch.n > 0)
            rc = papcoll__record_ship(s, &s->batch);
        s->batch.n = 0;
    }
    if (rc == PAPCOLL_OK)
        rc = agree_tracing(ctx, sink, &clockbuf);
    pthread_mutex_lock(&ctx->sink_lock);
    ctx->has_sink = ctx->tracing && ctx->rank == 0;
    if (ctx->has_sink)
        ctx->sink = *sink;
    pthread_mutex_unlock(&ctx->sink_lock);
    if (rc == PAPCOLL_OK && ctx->tracing)
        rc = papcoll__record_clock(ctx, ctx->data_comm, clockbuf);
    if (!ctx->tracing)
        for (s = ctx->sites; s != NULL; s = s->next)
            papcoll__record_release(s);
    free(clockbuf);
    return rc;
}
