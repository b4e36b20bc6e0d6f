/*
 * papcoll's rank records as the metrics of papmetrics.h see them.
 */
#include "paptrace.h"

pm_call_t paptrace_call(const papcoll_rank_record_t *r, int nranks)
{
    pm_call_t c = {NULL, NULL, 0, sizeof *r};

    if (r != NULL && nranks > 0)
        c = (pm_call_t){&r[0].arrival, &r[0].exit, nranks, sizeof *r};
    return c;
}
