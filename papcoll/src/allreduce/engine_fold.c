/*
 * The fold of a non-power-of-two process count (engine.h), shared by
 * recdoubling and rabenseifner, and the exchange helper.
 * Cost: alpha + n beta + n gamma before the core and alpha + n beta after
 * it, for the first 2 rem ranks only (Thakur, Rabenseifner and Gropp 2005,
 * Sect. 4: the same pre/post step).
 */
#include <limits.h>

#include "allreduce/engine.h"

int papcoll__exchange(const papcoll__args_t *a, const char *sbuf, size_t n, int dst, char *rbuf, size_t n2,
                      int src)
{
    size_t e = a->sig.esize;

    if (n * e > (size_t)INT_MAX || n2 * e > (size_t)INT_MAX)
        return PAPCOLL_ERR_INVAL;
    return PAPCOLL__ERR(PMPI_Sendrecv(sbuf, (int)(n * e), MPI_BYTE, dst, PAPCOLL__TAG_DATA, rbuf,
                                      (int)(n2 * e), MPI_BYTE, src, PAPCOLL__TAG_DATA, a->comm,
                                      MPI_STATUS_IGNORE));
}

int papcoll__fold_in(const papcoll__args_t *a, char *acc, char *tmp, papcoll__fold_t *f)
{
    int rc;

    for (f->pof2 = 1; f->pof2 * 2 <= a->size; f->pof2 *= 2)
        ;
    f->rem = a->size - f->pof2;
    if (a->rank >= 2 * f->rem) {
        f->newrank = a->rank - f->rem;
        return PAPCOLL_OK;
    }
    if (a->rank % 2 == 0) {
        f->newrank = -1;
        return papcoll__send_bytes(acc, a->bytes, a->rank + 1, PAPCOLL__TAG_DATA, a->comm);
    }
    f->newrank = a->rank / 2;
    if ((rc = papcoll__recv_bytes(tmp, a->bytes, a->rank - 1, PAPCOLL__TAG_DATA, a->comm)) != PAPCOLL_OK)
        return rc;
    return papcoll__reduce_local(a, tmp, acc, a->sig.count); /* x_2i (op) x_2i+1 */
}

int papcoll__fold_out(const papcoll__args_t *a, char *acc, const papcoll__fold_t *f)
{
    if (a->rank >= 2 * f->rem)
        return PAPCOLL_OK;
    if (a->rank % 2 == 0)
        return papcoll__recv_bytes(acc, a->bytes, a->rank + 1, PAPCOLL__TAG_DATA, a->comm);
    return papcoll__send_bytes(acc, a->bytes, a->rank - 1, PAPCOLL__TAG_DATA, a->comm);
}
