/*
 * scatter "bsln": Background Sorted LiNear tree (Proficz 2020, Fig. 6).
 * The root sends as slin; every leaf receives its block in the monitor
 * thread from the edge on, so an early root is never blocked by a leaf that
 * is still computing.  One late first receiver: max(a1 - a0, r_LIN)
 * (Eq. 11).  Memory: one staged block per leaf (reused), one memcpy.
 */
#include <string.h>

#include "papcoll_internal.h"

int papcoll__scatter_bsln_bg(papcoll_site_t *site, int root)
{
    papcoll__stage_t *st = &site->bg.stage[0];

    if (site->ctx->rank == root)
        return PAPCOLL_OK;
    st->len = 0;
    return papcoll__bg_recv(st, root, PAPCOLL__TAG_DATA, site->comm, NULL);
}

int papcoll_scatter_bsln(const papcoll__args_t *a)
{
    papcoll__stage_t *st = &a->site->bg.stage[0];
    int rc;

    if (a->rank == a->root)
        return papcoll__scatter_lin_root(a, a->plan->order);
    if ((rc = papcoll__wait_bg(a->site)) != PAPCOLL_OK)
        return rc;
    if (st->len != a->bytes)
        return PAPCOLL_ERR_TRUNCATE;
    papcoll__copy(a->rbuf, st->buf, a->bytes);
    return PAPCOLL_OK;
}
