/*
 * Call arguments (args.h): the resolvers of papcoll_ops.def, local packing
 * of non-contiguous buffers, and the combine step of the reductions.
 *
 * Packing uses PMPI_Pack / PMPI_Unpack with the packed size count * size of
 * the datatype: on a homogeneous system (every MPI library papcoll runs on)
 * that is exactly MPI's packed form, the bytes a contiguous MPI_BYTE
 * transfer of the same type signature carries.
 */
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "context.h"

/* ------------------------------------------------------------ datatypes */

static int type_size(MPI_Datatype type, int count, size_t *bytes, size_t *esize)
{
    int size = 0;

    if (count < 0)
        return PAPCOLL_ERR_INVAL;
    if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
        return PAPCOLL_ERR_DATATYPE;
    *bytes = (size_t)count * (size_t)size;
    if (esize != NULL)
        *esize = (size_t)size;
    return PAPCOLL_OK;
}

/* Whether count elements of type occupy exactly count * size bytes from buf on. */
static int is_contiguous(MPI_Datatype type)
{
    MPI_Aint lb, extent, tlb, textent;
    int size;

    if (PMPI_Type_size(type, &size) != MPI_SUCCESS || PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS)
        return 0;
    return tlb == 0 && extent == size && textent == size;
}

static int is_builtin_op(MPI_Op op)
{
    static const MPI_Op builtin[] = {MPI_MAX,  MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND, MPI_LOR,
                                     MPI_BOR,  MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE,
                                     MPI_NO_OP};
    size_t i;

    for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
        if (op == builtin[i])
            return 1;
    return 0;
}

/*
 * The predefined type whose copies make up type's type map, or
 * MPI_DATATYPE_NULL when it mixes several (or cannot be analysed).
 */
static MPI_Datatype basic_of(MPI_Datatype type, int depth)
{
    int ni, na, nd, comb, i;
    int *ints = NULL;
    MPI_Aint *addrs = NULL;
    MPI_Datatype *types = NULL, basic = MPI_DATATYPE_NULL, b;

    if (depth > 32 || PMPI_Type_get_envelope(type, &ni, &na, &nd, &comb) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    if (comb == MPI_COMBINER_NAMED)
        return type;
    ints = malloc(sizeof(int) * (size_t)(ni + 1));
    addrs = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
    types = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1));
    if (ints && addrs && types && PMPI_Type_get_contents(type, ni, na, nd, ints, addrs, types) == MPI_SUCCESS) {
        for (i = 0; i < nd; i++) {
            b = basic_of(types[i], depth + 1);
            basic = (i == 0 || b == basic) ? b : MPI_DATATYPE_NULL;
            if (basic == MPI_DATATYPE_NULL)
                break;
        }
        for (i = 0; i < nd; i++) { /* get_contents returns new handles of derived types */
            int n2, a2, d2, c2;
            if (PMPI_Type_get_envelope(types[i], &n2, &a2, &d2, &c2) == MPI_SUCCESS && c2 != MPI_COMBINER_NAMED)
                PMPI_Type_free(&types[i]);
        }
    }
    free(ints);
    free(addrs);
    free(types);
    return basic;
}

/* ------------------------------------------------------------ resolvers */

static void sig_plain(papcoll__args_t *a, size_t bytes)
{
    a->sig.bytes = a->bytes = bytes;
    a->sig.mop = MPI_OP_NULL;
    a->sig.commutative = 1;
    a->sig.builtin = 1;
}

int papcoll__resolve_gather(papcoll__args_t *a)
{
    size_t bytes = 0, own = 0;
    int rc;

    a->sig.count = a->rank == a->root ? a->u_rcount : a->u_scount;
    if (a->rank != a->root)
        rc = type_size(a->u_stype, a->u_scount, &bytes, &a->sig.esize);
    else if ((rc = type_size(a->u_rtype, a->u_rcount, &bytes, &a->sig.esize)) == PAPCOLL_OK &&
             a->u_sbuf != MPI_IN_PLACE && (rc = type_size(a->u_stype, a->u_scount, &own, NULL)) == PAPCOLL_OK &&
             own != bytes)
        rc = PAPCOLL_ERR_TRUNCATE;
    sig_plain(a, bytes);
    return rc;
}

int papcoll__resolve_scatter(papcoll__args_t *a)
{
    size_t bytes = 0, own = 0;
    int rc;

    a->sig.count = a->rank == a->root ? a->u_scount : a->u_rcount;
    if (a->rank != a->root)
        rc = type_size(a->u_rtype, a->u_rcount, &bytes, &a->sig.esize);
    else if ((rc = type_size(a->u_stype, a->u_scount, &bytes, &a->sig.esize)) == PAPCOLL_OK &&
             a->u_rbuf != MPI_IN_PLACE && (rc = type_size(a->u_rtype, a->u_rcount, &own, NULL)) == PAPCOLL_OK &&
             own != bytes)
        rc = PAPCOLL_ERR_TRUNCATE;
    sig_plain(a, bytes);
    return rc;
}

int papcoll__resolve_bcast(papcoll__args_t *a)
{
    size_t bytes = 0;
    int rc = type_size(a->u_rtype, a->u_rcount, &bytes, &a->sig.esize);

    a->sig.count = a->u_rcount;
    sig_plain(a, bytes);
    return rc;
}

/* Reductions: count, datatype and op are the same on every rank. */
static int resolve_reduction(papcoll__args_t *a)
{
    size_t bytes = 0;
    int rc = type_size(a->u_stype, a->u_scount, &bytes, &a->sig.esize), commute = 0;

    a->sig.count = a->u_scount;
    a->sig.bytes = a->bytes = bytes;
    if (rc != PAPCOLL_OK)
        return rc;
    if (a->sig.mop == MPI_OP_NULL || PMPI_Op_commutative(a->sig.mop, &commute) != MPI_SUCCESS)
        return PAPCOLL_ERR_INVAL;
    a->sig.commutative = commute != 0;
    a->sig.builtin = is_builtin_op(a->sig.mop);
    return PAPCOLL_OK;
}

int papcoll__resolve_reduce(papcoll__args_t *a)
{
    return resolve_reduction(a);
}

int papcoll__resolve_allreduce(papcoll__args_t *a)
{
    return resolve_reduction(a);
}

/* ------------------------------------------------------------ packing */

/* Packs n elements of type at buf into a fresh buffer of bytes bytes. */
static int pack_into(const papcoll__args_t *a, const void *buf, int n, MPI_Datatype type, size_t bytes,
                     char **out)
{
    int pos = 0;

    if ((*out = malloc(bytes + 1)) == NULL)
        return PAPCOLL_ERR_NOMEM;
    if (bytes == 0)
        return PAPCOLL_OK;
    return PAPCOLL__ERR(PMPI_Pack(buf, n, type, *out, (int)bytes, &pos, a->comm));
}

/* The contiguous view of a send buffer: the buffer itself or a packed copy. */
static int send_view(papcoll__args_t *a, const void *buf, int n, MPI_Datatype type, size_t bytes)
{
    int rc;

    if (is_contiguous(type)) {
        a->sbuf = buf;
        return PAPCOLL_OK;
    }
    rc = pack_into(a, buf, n, type, bytes, &a->tmp_s);
    a->sbuf = a->tmp_s;
    return rc;
}

/* The contiguous view of a receive buffer; a temporary unpacked at the end. */
static int recv_view(papcoll__args_t *a, size_t bytes, int n)
{
    if (is_contiguous(a->u_rtype)) {
        a->rbuf = a->u_rbuf;
        return PAPCOLL_OK;
    }
    if ((a->tmp_r = malloc(bytes + 1)) == NULL)
        return PAPCOLL_ERR_NOMEM;
    a->rbuf = a->tmp_r;
    a->unpack_r = 1;
    a->u_rn = n;
    return PAPCOLL_OK;
}

static int prepare_gather(papcoll__args_t *a)
{
    size_t all = (size_t)a->size * a->bytes;
    MPI_Aint lb, extent;
    int rc, pos = (int)((size_t)a->root * a->bytes);

    if (a->rank != a->root)
        return send_view(a, a->u_sbuf, a->u_scount, a->u_stype, a->bytes);
    if ((rc = recv_view(a, all, a->size * a->u_rcount)) != PAPCOLL_OK)
        return rc;
    if (a->u_sbuf != MPI_IN_PLACE)
        return send_view(a, a->u_sbuf, a->u_scount, a->u_stype, a->bytes);
    if (!a->unpack_r || a->bytes == 0)
        return PAPCOLL_OK;
    /* In place into a temporary: the root's own block goes there first. */
    PMPI_Type_get_extent(a->u_rtype, &lb, &extent);
    return PAPCOLL__ERR(PMPI_Pack((const char *)a->u_rbuf + (MPI_Aint)a->root * a->u_rcount * extent,
                                  a->u_rcount, a->u_rtype, a->rbuf, (int)all, &pos, a->comm));
}

static int prepare_scatter(papcoll__args_t *a)
{
    int rc;

    if (a->rank != a->root)
        return recv_view(a, a->bytes, a->u_rcount);
    if ((rc = send_view(a, a->u_sbuf, a->size * a->u_scount, a->u_stype, (size_t)a->size * a->bytes)) !=
        PAPCOLL_OK)
        return rc;
    return a->u_rbuf == MPI_IN_PLACE ? PAPCOLL_OK : recv_view(a, a->bytes, a->u_rcount);
}

static int prepare_bcast(papcoll__args_t *a)
{
    int rc = recv_view(a, a->bytes, a->u_rcount), pos = 0;

    if (rc != PAPCOLL_OK || !a->unpack_r || a->rank != a->root)
        return rc;
    a->unpack_r = 0; /* the root's buffer is the input */
    return a->bytes == 0 ? PAPCOLL_OK
                         : PAPCOLL__ERR(PMPI_Pack(a->u_rbuf, a->u_rcount, a->u_rtype, a->rbuf, (int)a->bytes,
                                                  &pos, a->comm));
}

static int derived_builtin(const papcoll__args_t *a)
{
    int ni, na, nd, comb;

    if ((a->op != PAPCOLL_OP_REDUCE && a->op != PAPCOLL_OP_ALLREDUCE) || !a->sig.builtin)
        return 0;
    if (PMPI_Type_get_envelope(a->u_stype, &ni, &na, &nd, &comb) != MPI_SUCCESS || comb == MPI_COMBINER_NAMED)
        return 0;
    return basic_of(a->u_stype, 0) != MPI_DATATYPE_NULL;
}

/* How packed elements are combined (see papcoll__reduce_local). */
int papcoll__args_prepare_combine(papcoll__args_t *a)
{
    papcoll__red_t *r = &a->red;
    MPI_Datatype b = basic_of(a->u_stype, 0);
    MPI_Aint lb, span;
    int bsize = 0;

    r->type = a->u_stype;
    r->contiguous = is_contiguous(r->type);
    r->basic = MPI_DATATYPE_NULL;
    if (a->sig.builtin && b != MPI_DATATYPE_NULL && is_contiguous(b) && PMPI_Type_size(b, &bsize) == MPI_SUCCESS &&
        bsize > 0) {
        r->basic = b;
        r->per = (int)(a->sig.esize / (size_t)bsize);
    }
    if (r->basic != MPI_DATATYPE_NULL || r->contiguous || a->sig.count == 0)
        return PAPCOLL_OK;
    PMPI_Type_get_extent(r->type, &lb, &r->extent);
    PMPI_Type_get_true_extent(r->type, &r->true_lb, &r->true_extent);
    span = (MPI_Aint)(a->sig.count - 1) * r->extent + r->true_extent;
    r->tmp_in = malloc((size_t)span + 1);
    r->tmp_io = malloc((size_t)span + 1);
    return (r->tmp_in && r->tmp_io) ? PAPCOLL_OK : PAPCOLL_ERR_NOMEM;
}

static int prepare_reduction(papcoll__args_t *a)
{
    int at_root = a->op != PAPCOLL_OP_REDUCE || a->rank == a->root, rc;

    if (a->u_sbuf == MPI_IN_PLACE) /* own data is in the receive buffer: copy it */
        rc = pack_into(a, a->u_rbuf, a->u_rcount, a->u_rtype, a->bytes, &a->tmp_s), a->sbuf = a->tmp_s;
    else
        rc = send_view(a, a->u_sbuf, a->u_scount, a->u_stype, a->bytes);
    if (rc == PAPCOLL_OK && at_root)
        rc = recv_view(a, a->bytes, a->u_rcount);
    return rc == PAPCOLL_OK ? papcoll__args_prepare_combine(a) : rc;
}

int papcoll__args_prepare(papcoll__args_t *a, unsigned flags)
{
    a->sbuf = NULL;
    a->rbuf = NULL;
    if (!(flags & PAPCOLL_F_CONTIG_ONLY) && !((flags & PAPCOLL_F_BASELINE) && derived_builtin(a)))
        return PAPCOLL_OK;
    switch (a->op) {
    case PAPCOLL_OP_GATHER: return prepare_gather(a);
    case PAPCOLL_OP_SCATTER: return prepare_scatter(a);
    case PAPCOLL_OP_BCAST: return prepare_bcast(a);
    default: return prepare_reduction(a);
    }
}

int papcoll__args_finish(papcoll__args_t *a, int ok)
{
    size_t total = a->op == PAPCOLL_OP_GATHER ? (size_t)a->size * a->bytes : a->bytes;
    int pos = 0, rc = PAPCOLL_OK;

    if (ok && a->unpack_r && total > 0)
        rc = PAPCOLL__ERR(PMPI_Unpack(a->tmp_r, (int)total, &pos, a->u_rbuf, a->u_rn, a->u_rtype, a->comm));
    free(a->tmp_s);
    free(a->tmp_r);
    free(a->red.tmp_in);
    free(a->red.tmp_io);
    a->tmp_s = a->tmp_r = a->red.tmp_in = a->red.tmp_io = NULL;
    a->unpack_r = 0;
    return rc;
}

/* ------------------------------------------------------------ combining */

int papcoll__reduce_local(const papcoll__args_t *a, const void *in, void *inout, int n)
{
    const papcoll__red_t *r = &a->red;
    MPI_Op op = a->sig.mop;
    size_t bytes = (size_t)n * a->sig.esize;
    int pos = 0, rc;

    if (n == 0)
        return PAPCOLL_OK;
    if (r->basic != MPI_DATATYPE_NULL)
        return PAPCOLL__ERR(PMPI_Reduce_local(in, inout, n * r->per, r->basic, op));
    if (r->contiguous)
        return PAPCOLL__ERR(PMPI_Reduce_local(in, inout, n, r->type, op));
    /* A user operation on a type with gaps runs on the unpacked layout. */
    rc = PMPI_Unpack(in, (int)bytes, &pos, r->tmp_in - r->true_lb, n, r->type, a->comm);
    pos = 0;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Unpack(inout, (int)bytes, &pos, r->tmp_io - r->true_lb, n, r->type, a->comm);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Reduce_local(r->tmp_in - r->true_lb, r->tmp_io - r->true_lb, n, r->type, op);
    pos = 0;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Pack(r->tmp_io - r->true_lb, n, r->type, inout, (int)bytes, &pos, a->comm);
    return PAPCOLL__ERR(rc);
}
