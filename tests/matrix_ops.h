/*
 * The operation adapters of the MPI matrix (mpi_matrix.c, the only
 * includer).  An adapter knows one collective operation: the combinations
 * of arguments it is tested with, how to lay out and fill every rank's
 * buffers for a case from the shared seed, how to call the library and the
 * MPI library's own collective (the reference) with the same inputs on the
 * same communicator, and what else to verify.  The generic driver in
 * mpi_matrix.c runs a case through any adapter and compares the results
 * byte for byte, guard bytes and the gaps of derived datatypes included.
 *
 * The adapter table is generated from papcoll_ops.def: an operation added
 * there does not compile until it has an adapter here (prepare_, call_,
 * reference_, verify_ and combos_ functions named after it).
 */
#ifndef PAPCOLL_TESTS_MATRIX_OPS_H
#define PAPCOLL_TESTS_MATRIX_OPS_H

#include <math.h>
#include <stdlib.h>

#include "matrix_data.h"
#include "papcoll.h"

#define GUARD 64
#define LARGE_SPAN (65536 + 3) * 4 /* bytes of one rank's large block, at most */
#define MAX_COMBOS 256
#define MAX_LARGE 16

/* ------------------------------------------------------------ the world */

/* The communicator cases run on (MPI_COMM_WORLD, or a half of it in the
 * subcomm phase): references, barriers and verdicts use it. */
static struct {
    MPI_Comm comm;
    int rank, size;
    uint64_t seed;
} g_w;

/* Work buffers (raw, with room for the guards), sized once for the largest case. */
static struct {
    size_t cap;
    char *a, *b;  /* library receive, reference receive */
    char *s, *sr; /* library send, reference send */
    char *keep;   /* pristine copy of the send data */
    char *bind;   /* a bound receive buffer other than recvbuf */
} g_buf;

/* ------------------------------------------------------------ cases */

/* One combination of arguments. */
typedef struct {
    int count;      /* elements of the leaf layout (reductions: of the layout, everywhere) */
    int leaf, root; /* layouts of the non-root ranks and of the root (reductions: the same) */
    int rop;        /* R_* (reductions), -1 */
    int inplace;
} combo_t;

typedef struct {
    const char *phase;
    papcoll_site_t *site;
    papcoll_op_t op;
    int algo;
    int root; /* -1 for an operation without root */
    combo_t k;
    int pat, policy;
    uint64_t id;
    int no_bind; /* 1: never bind a receive buffer */
    int monitor; /* the site's context has monitor threads */
    int expect;  /* the return code every rank must see (0, or PAPCOLL_ERR_RESTRICT) */
} case_t;

/* The arguments of one call (library or reference). */
typedef struct {
    const void *sb;
    void *rb;
    int sc, rc;
    MPI_Datatype st, rt;
    MPI_Op mop;
    int root;
} call_t;

/* A buffer: the pointer handed to MPI, and its data bytes [p + lo, p + lo + len). */
typedef struct {
    char *p;
    MPI_Aint lo, len;
} region_t;

/* What happens to a rank's receive buffer. */
enum { R_NONE, R_COMPARE, R_UNTOUCHED };

/* One case on one rank: buffers and both calls. */
typedef struct {
    region_t s, r;   /* the library's send and receive buffers */
    region_t sr, rr; /* the reference's */
    call_t lib, ref;
    int r_mode;  /* R_COMPARE: equal to the reference's; R_UNTOUCHED: insignificant, unchanged */
    int s_check; /* the send data must come back unchanged */
    int bind;    /* this rank's receive buffer may be bound (papcoll_site_bind_recv) */
} xfer_t;

/* Lays out n elements of layout l in raw with guards; data bytes set to fill. */
static region_t region_at(char *raw, int l, int n, int fill)
{
    const layout_t *L = &g_layouts[l];
    region_t g = {NULL, 0, 0};

    if (n > 0) {
        g.lo = L->lo;
        g.len = (MPI_Aint)(n - 1) * L->extent + L->hi - L->lo;
    }
    g.p = raw + GUARD - g.lo;
    memset(raw, 0x5A, GUARD);
    memset(raw + GUARD, fill, (size_t)g.len);
    memset(raw + GUARD + g.len, 0x5A, GUARD);
    return g;
}

/* The reference's copies of the library's buffers, and the pristine send data. */
static void mirror(xfer_t *x)
{
    x->sr = x->s, x->rr = x->r;
    x->sr.p = g_buf.sr + (x->s.p - g_buf.s);
    x->rr.p = g_buf.b + (x->r.p - g_buf.a);
    memcpy(g_buf.sr, g_buf.s, (size_t)x->s.len + 2 * GUARD);
    memcpy(g_buf.b, g_buf.a, (size_t)x->r.len + 2 * GUARD);
    memcpy(g_buf.keep, g_buf.s, (size_t)x->s.len + 2 * GUARD);
}

/* Elements of the root's layout that carry count elements of the leaves'. */
static int root_count(const combo_t *k)
{
    return k->count * g_layouts[k->leaf].nf / g_layouts[k->root].nf;
}

static MPI_Datatype T(int l)
{
    return g_layouts[l].type;
}

/* ------------------------------------------------------------ combinations */

/* Leaf and root layouts of the moving operations: the same signature, a
 * different type map on the root (gather2.c of MPICH: the root receives
 * MPI_DOUBLE while the leaves send a vector) or the same. */
static const int g_pairs[][2] = {
    {L_BYTE, L_BYTE},    {L_INT, L_INT},   {L_FLOAT, L_FLOAT},    {L_DOUBLE, L_DOUBLE},  {L_CONTIG3, L_INT},
    {L_VEC3D, L_DOUBLE}, {L_IDX6, L_VEC6}, {L_STRUCT, L_STRUCT2}, {L_RESIZED, L_RESNEG},
};
#define NPAIRS ((int)(sizeof(g_pairs) / sizeof(g_pairs[0])))

/* Layouts of the reductions (one per call, the same on every rank). */
static const int g_red_layouts[] = {L_INT,    L_UCHAR, L_LLONG,  L_FLOAT, L_DOUBLE,
                                    L_VECINT, L_IDXD,  L_STRUCT, L_MAT2};
#define NRED ((int)(sizeof(g_red_layouts) / sizeof(g_red_layouts[0])))

static const int g_small_counts[] = {0, 1, 7};

/* The large count of a combination: the largest odd count whose buffers
 * (either side's layout) span at most LARGE_SPAN bytes. */
static int large_count(int leaf, int root)
{
    double ratio = (double)g_layouts[leaf].nf / g_layouts[root].nf;
    MPI_Aint per = g_layouts[leaf].extent, rper = (MPI_Aint)(ratio * (double)g_layouts[root].extent);
    int n = (int)(LARGE_SPAN / (per > rper ? per : rper));

    return n % 2 ? n : n - 1;
}

/* Moving operations: count {0, 1, 7} x layout pair x in place (if any);
 * large: a few pairs, in place alternating. */
static int combos_moving(combo_t *out, int large, int inplace_too)
{
    static const int big[][2] = {{2, 0}, {5, 1}, {7, 0}, {1, 1}, {6, 0}, {8, 1}}; /* pair, in place */
    int n = 0, c, p, i;

    if (large) {
        for (p = 0; p < (int)(sizeof(big) / sizeof(big[0])); p++) {
            const int *pr = g_pairs[big[p][0]];
            out[n++] = (combo_t){large_count(pr[0], pr[1]), pr[0], pr[1], -1, inplace_too && big[p][1]};
        }
        return n;
    }
    for (c = 0; c < 3; c++)
        for (p = 0; p < NPAIRS; p++)
            for (i = 0; i <= inplace_too; i++)
                out[n++] = (combo_t){g_small_counts[c], g_pairs[p][0], g_pairs[p][1], -1, i};
    return n;
}

/* Reductions: counts {1, 7} x every (operation, layout) that fits x in
 * place; count 0 once per operation and in-place mode; large: one per
 * operation on a rotating layout. */
static int combos_reduction(combo_t *out, int large)
{
    static const int big[][3] = {{R_SUM, L_FLOAT, 0},  {R_SUM, L_INT, 1},    {R_PROD, L_DOUBLE, 0},
                                 {R_MAX, L_LLONG, 1},  {R_BOR, L_VECINT, 0}, {R_UCOMM, L_STRUCT, 1},
                                 {R_UNONC, L_MAT2, 0}, {R_MIN, L_IDXD, 1},   {R_BAND, L_UCHAR, 0},
                                 {R_RSUM, L_FLOAT, 1}};
    int n = 0, c, r, t, i, first;

    if (large) {
        for (r = 0; r < (int)(sizeof(big) / sizeof(big[0])); r++)
            out[n++] =
                (combo_t){large_count(big[r][1], big[r][1]), big[r][1], big[r][1], big[r][0], big[r][2]};
        return n;
    }
    for (r = 0; r < NROPS; r++) {
        for (t = 0, first = -1; t < NRED && first < 0; t++)
            first = rop_fits(r, g_red_layouts[t]) ? g_red_layouts[t] : -1;
        for (i = 0; i < 2; i++)
            out[n++] = (combo_t){0, first, first, r, i};
    }
    for (c = 1; c < 3; c++)
        for (r = 0; r < NROPS; r++)
            for (t = 0; t < NRED; t++)
                for (i = 0; rop_fits(r, g_red_layouts[t]) && i < 2; i++)
                    out[n++] = (combo_t){g_small_counts[c], g_red_layouts[t], g_red_layouts[t], r, i};
    return n;
}

static int combos_gather(combo_t *out, int large)
{
    return combos_moving(out, large, 1);
}

static int combos_scatter(combo_t *out, int large)
{
    return combos_moving(out, large, 1);
}

static int combos_bcast(combo_t *out, int large)
{
    return combos_moving(out, large, 0);
}

static int combos_reduce(combo_t *out, int large)
{
    return combos_reduction(out, large);
}

static int combos_allreduce(combo_t *out, int large)
{
    return combos_reduction(out, large);
}

/* ------------------------------------------------------------ gather */

static void prepare_gather(const case_t *c, int sloppy, xfer_t *x)
{
    const combo_t *k = &c->k;
    int me = g_w.rank, root = c->root, at_root = me == root, pn = root_count(k);
    stream_t s = {g_w.seed, c->id, me, V_ANY};

    x->s = region_at(g_buf.s, k->leaf, at_root && k->inplace ? 0 : k->count, 0);
    fill_layout(x->s.p, k->leaf, at_root && k->inplace ? 0 : k->count, &s);
    x->s_check = 1;
    if (at_root) {
        x->r = region_at(g_buf.a, k->root, g_w.size * pn, 0xEE);
        if (k->inplace) /* the root's own block is in place already */
            fill_layout(x->r.p + (MPI_Aint)root * pn * g_layouts[k->root].extent, k->root, pn, &s);
        x->r_mode = R_COMPARE, x->bind = 1;
    } else {
        x->r = region_at(g_buf.a, k->root, 0, 0);
    }
    mirror(x);
    x->lib =
        (call_t){x->s.p, at_root ? x->r.p : NULL, k->count, pn, T(k->leaf), T(k->root), MPI_OP_NULL, root};
    x->ref =
        (call_t){x->sr.p, at_root ? x->rr.p : NULL, k->count, pn, T(k->leaf), T(k->root), MPI_OP_NULL, root};
    if (at_root && k->inplace)
        x->lib.sb = x->ref.sb = MPI_IN_PLACE;
    /* zero counts of MPI_BYTE where MPI declares the arguments insignificant */
    if (sloppy && !at_root)
        x->lib.rc = 0, x->lib.rt = MPI_BYTE;
    if (sloppy && at_root && k->inplace)
        x->lib.sc = 0, x->lib.st = MPI_BYTE;
}

static int call_gather(papcoll_site_t *s, int use_pat, const double *pat, const call_t *a)
{
    if (use_pat)
        return papcoll_gather_pat(s, pat, a->sb, a->sc, a->st, a->rb, a->rc, a->rt, a->root);
    return papcoll_gather(s, a->sb, a->sc, a->st, a->rb, a->rc, a->rt, a->root);
}

static int reference_gather(const call_t *a)
{
    return MPI_Gather(a->sb, a->sc, a->st, a->rb, a->rc, a->rt, a->root, g_w.comm);
}

/* ------------------------------------------------------------ scatter */

static void prepare_scatter(const case_t *c, int sloppy, xfer_t *x)
{
    const combo_t *k = &c->k;
    int me = g_w.rank, root = c->root, at_root = me == root, pn = root_count(k), b;
    stream_t s = {g_w.seed, c->id, 0, V_ANY};
    MPI_Aint blk = (MPI_Aint)pn * g_layouts[k->root].extent;

    x->s = region_at(g_buf.s, k->root, at_root ? g_w.size * pn : 0, 0);
    for (b = 0; at_root && b < g_w.size; b++) {
        s.block = b; /* block b goes to rank b */
        fill_layout(x->s.p + b * blk, k->root, pn, &s);
    }
    x->s_check = 1;
    x->r = region_at(g_buf.a, k->leaf, at_root && k->inplace ? 0 : k->count, 0xEE);
    x->r_mode = at_root && k->inplace ? R_NONE : R_COMPARE;
    x->bind = !at_root;
    mirror(x);
    x->lib =
        (call_t){at_root ? x->s.p : NULL, x->r.p, pn, k->count, T(k->root), T(k->leaf), MPI_OP_NULL, root};
    x->ref =
        (call_t){at_root ? x->sr.p : NULL, x->rr.p, pn, k->count, T(k->root), T(k->leaf), MPI_OP_NULL, root};
    if (at_root && k->inplace)
        x->lib.rb = x->ref.rb = MPI_IN_PLACE;
    if (sloppy && !at_root)
        x->lib.sc = 0, x->lib.st = MPI_BYTE;
    if (sloppy && at_root && k->inplace)
        x->lib.rc = 0, x->lib.rt = MPI_BYTE;
}

static int call_scatter(papcoll_site_t *s, int use_pat, const double *pat, const call_t *a)
{
    if (use_pat)
        return papcoll_scatter_pat(s, pat, a->sb, a->sc, a->st, a->rb, a->rc, a->rt, a->root);
    return papcoll_scatter(s, a->sb, a->sc, a->st, a->rb, a->rc, a->rt, a->root);
}

static int reference_scatter(const call_t *a)
{
    return MPI_Scatter(a->sb, a->sc, a->st, a->rb, a->rc, a->rt, a->root, g_w.comm);
}

/* ------------------------------------------------------------ bcast */

/* The root holds its data in the root layout, the others receive into the
 * leaf layout (the same signature). */
static void prepare_bcast(const case_t *c, int sloppy, xfer_t *x)
{
    const combo_t *k = &c->k;
    int at_root = g_w.rank == c->root, l = at_root ? k->root : k->leaf,
        n = at_root ? root_count(k) : k->count;
    stream_t s = {g_w.seed, c->id, c->root, V_ANY};

    (void)sloppy; /* no argument of MPI_Bcast is insignificant */
    x->s = region_at(g_buf.s, l, 0, 0);
    x->r = region_at(g_buf.a, l, n, 0xEE);
    if (at_root)
        fill_layout(x->r.p, l, n, &s);
    x->r_mode = R_COMPARE; /* at the root: unchanged, as MPI leaves it */
    x->bind = !at_root;
    mirror(x);
    x->lib = (call_t){NULL, x->r.p, 0, n, MPI_BYTE, T(l), MPI_OP_NULL, c->root};
    x->ref = (call_t){NULL, x->rr.p, 0, n, MPI_BYTE, T(l), MPI_OP_NULL, c->root};
}

static int call_bcast(papcoll_site_t *s, int use_pat, const double *pat, const call_t *a)
{
    if (use_pat)
        return papcoll_bcast_pat(s, pat, a->rb, a->rc, a->rt, a->root);
    return papcoll_bcast(s, a->rb, a->rc, a->rt, a->root);
}

static int reference_bcast(const call_t *a)
{
    return MPI_Bcast(a->rb, a->rc, a->rt, a->root, g_w.comm);
}

/* ------------------------------------------------------------ reductions */

/* Reduce (root >= 0) and allreduce (root -1).  The result goes to the root
 * (everyone for allreduce); a non-root's receive buffer is insignificant:
 * NULL in sloppy cases, else a buffer the library must leave alone (the
 * reference gets NULL). */
static void prepare_reduction(const case_t *c, int sloppy, xfer_t *x)
{
    const combo_t *k = &c->k;
    int me = g_w.rank, result = c->root < 0 || me == c->root, own_in_r = result && k->inplace;
    stream_t s = {g_w.seed, c->id, me, g_rops[k->rop].kind};
    MPI_Op op = g_rops[k->rop].op;

    x->s = region_at(g_buf.s, k->leaf, own_in_r ? 0 : k->count, 0);
    fill_layout(x->s.p, k->leaf, own_in_r ? 0 : k->count, &s);
    x->s_check = 1;
    x->r = region_at(g_buf.a, k->leaf, result || !sloppy ? k->count : 0, 0xEE);
    if (own_in_r)
        fill_layout(x->r.p, k->leaf, k->count, &s);
    x->r_mode = result ? R_COMPARE : sloppy ? R_NONE : R_UNTOUCHED;
    x->bind = result;
    mirror(x);
    x->lib = (call_t){
        x->s.p, result || !sloppy ? x->r.p : NULL, k->count, k->count, T(k->leaf), T(k->leaf), op, c->root};
    x->ref =
        (call_t){x->sr.p, result ? x->rr.p : NULL, k->count, k->count, T(k->leaf), T(k->leaf), op, c->root};
    if (own_in_r)
        x->lib.sb = x->ref.sb = MPI_IN_PLACE;
}

static void prepare_reduce(const case_t *c, int sloppy, xfer_t *x)
{
    prepare_reduction(c, sloppy, x);
}

static void prepare_allreduce(const case_t *c, int sloppy, xfer_t *x)
{
    prepare_reduction(c, sloppy, x);
}

static int call_reduce(papcoll_site_t *s, int use_pat, const double *pat, const call_t *a)
{
    if (use_pat)
        return papcoll_reduce_pat(s, pat, a->sb, a->rb, a->sc, a->st, a->mop, a->root);
    return papcoll_reduce(s, a->sb, a->rb, a->sc, a->st, a->mop, a->root);
}

/* Writes the dense basic elements back into n elements of layout l. */
static void undensify(const char *dense, int l, int n, char *buf)
{
    const layout_t *L = &g_layouts[l];
    int e, f;

    for (e = 0; e < n; e++)
        for (f = 0; f < L->nf; f++) {
            size_t sz = g_basic[(int)L->basic[f]].size;
            memcpy(buf + (MPI_Aint)e * L->extent + L->disp[f], dense, sz);
            dense += sz;
        }
}

/*
 * The reference of a reduction.  MPI defines the predefined operations on
 * predefined datatypes only (Open MPI rejects a derived one with
 * MPI_ERR_OP); a derived datatype of one basic type is reduced element by
 * element of that type, so the reference reduces the dense basic elements
 * and writes the result into the layout's fields, leaving its gaps alone.
 * root < 0: allreduce.
 */
static int reference_reduction(const call_t *a)
{
    int l = layout_of(a->st), result = a->root < 0 || g_w.rank == a->root, n = a->sc, rc, nb;
    const void *src = a->sb == MPI_IN_PLACE ? a->rb : a->sb;
    char *ds, *dr;

    if (l < L_CONTIG3 || a->mop == g_rops[R_UCOMM].op || a->mop == g_rops[R_UNONC].op)
        return a->root < 0 ? MPI_Allreduce(a->sb, a->rb, n, a->st, a->mop, g_w.comm)
                           : MPI_Reduce(a->sb, a->rb, n, a->st, a->mop, a->root, g_w.comm);
    nb = n * g_layouts[l].nf;
    ds = malloc(g_layouts[l].size * (size_t)n + 1), dr = malloc(g_layouts[l].size * (size_t)n + 1);
    densify(src, l, n, ds);
    if (a->root < 0)
        rc = MPI_Allreduce(ds, dr, nb, g_basic[g_layouts[l].one_basic].type, a->mop, g_w.comm);
    else
        rc = MPI_Reduce(ds, dr, nb, g_basic[g_layouts[l].one_basic].type, a->mop, a->root, g_w.comm);
    if (result)
        undensify(dr, l, n, a->rb);
    free(ds), free(dr);
    return rc;
}

static int reference_reduce(const call_t *a)
{
    return reference_reduction(a);
}

static int call_allreduce(papcoll_site_t *s, int use_pat, const double *pat, const call_t *a)
{
    if (use_pat)
        return papcoll_allreduce_pat(s, pat, a->sb, a->rb, a->sc, a->st, a->mop);
    return papcoll_allreduce(s, a->sb, a->rb, a->sc, a->st, a->mop);
}

static int reference_allreduce(const call_t *a)
{
    return reference_reduction(a);
}

/*
 * An inexact reduction's result against MPI's: the first element whose
 * relative difference exceeds 2 P eps, or -1 (the reduction fits float and
 * double only, dense layouts).
 */
static long inexact_diff(const case_t *c, const xfer_t *x)
{
    const char *a = x->r.p + x->r.lo, *b = x->rr.p + x->rr.lo;
    int dbl = c->k.leaf == L_DOUBLE, e;
    double tol = 2.0 * g_w.size * (dbl ? 0x1p-53 : 0x1p-24), u, v;
    float fu, fv;

    for (e = 0; e < c->k.count; e++) {
        if (dbl) {
            memcpy(&u, a + 8 * e, 8), memcpy(&v, b + 8 * e, 8);
        } else {
            memcpy(&fu, a + 4 * e, 4), memcpy(&fv, b + 4 * e, 4);
            u = fu, v = fv;
        }
        if (!(fabs(u - v) <= tol * fabs(v)))
            return e;
    }
    return -1;
}

/* ------------------------------------------------------------ verification */

static int verify_gather(const case_t *c, const xfer_t *x, char *why, size_t len)
{
    (void)c, (void)x, (void)why, (void)len;
    return 0;
}

static int verify_scatter(const case_t *c, const xfer_t *x, char *why, size_t len)
{
    return verify_gather(c, x, why, len);
}

static int verify_bcast(const case_t *c, const xfer_t *x, char *why, size_t len)
{
    return verify_gather(c, x, why, len);
}

/*
 * A user operation's result must be the rank-order fold computed here, and
 * for the non-commutative one the data must be able to show an order
 * violation: the reversed order and the order with ranks 0 and 1 swapped
 * must both give another result (checked on element 0).
 */
static int verify_user_op(const case_t *c, const xfer_t *x, char *why, size_t len)
{
    const combo_t *k = &c->k;
    int P = g_w.size, e, i, *order = malloc(sizeof(int) * (size_t)P), bad = 0;
    char acc[64], tmp[64], alt[64];
    stream_t s = {g_w.seed, c->id, 0, g_rops[k->rop].kind};

    for (i = 0; i < P; i++)
        order[i] = i;
    for (e = 0; e < k->count && !bad; e++) {
        uop_fold(k->rop, k->leaf, P, order, s, e, acc, tmp);
        if (!elem_equal(k->leaf, acc, x->r.p + (MPI_Aint)e * g_layouts[k->leaf].extent)) {
            snprintf(why, len, "%s: element %d is not the rank-order result a_0 o a_1 o ... o a_%d",
                     g_rops[k->rop].name, e, P - 1);
            bad = 1;
        }
    }
    if (!bad && k->rop == R_UNONC && P >= 2 && k->count > 0) {
        uop_fold(k->rop, k->leaf, P, order, s, 0, acc, tmp);
        order[0] = 1, order[1] = 0;
        uop_fold(k->rop, k->leaf, P, order, s, 0, alt, tmp);
        bad = elem_equal(k->leaf, acc, alt);
        for (i = 0; i < P; i++)
            order[i] = P - 1 - i;
        uop_fold(k->rop, k->leaf, P, order, s, 0, alt, tmp);
        bad |= elem_equal(k->leaf, acc, alt);
        if (bad)
            snprintf(why, len, "the test's data cannot reveal an operand-order violation of %s",
                     g_rops[k->rop].name);
    }
    free(order);
    return bad;
}

static int verify_reduce(const case_t *c, const xfer_t *x, char *why, size_t len)
{
    if (g_rops[c->k.rop].builtin || x->r_mode != R_COMPARE)
        return 0;
    return verify_user_op(c, x, why, len);
}

/* Every rank's result is the same (hash of the whole receive region,
 * gaps included: every rank uses the same layout).  Collective. */
static int verify_allreduce(const case_t *c, const xfer_t *x, char *why, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned long long v[2], m[2];
    MPI_Aint i;

    for (i = 0; i < x->r.len; i++)
        h = (h ^ (unsigned char)x->r.p[x->r.lo + i]) * 0x100000001B3ull;
    v[0] = h, v[1] = ~h;
    MPI_Allreduce(v, m, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, g_w.comm);
    if (m[0] != ~m[1]) {
        snprintf(why, len, "%s", "the ranks' results differ");
        return 1;
    }
    return verify_reduce(c, x, why, len);
}

/* ------------------------------------------------------------ the table */

typedef struct {
    const char *name;
    int rooted; /* has a root argument (papcoll_ops.def kind ROOTED_*) */
    int (*combos)(combo_t *out, int large);
    void (*prepare)(const case_t *c, int sloppy, xfer_t *x);
    int (*call)(papcoll_site_t *s, int use_pat, const double *pat, const call_t *a);
    int (*reference)(const call_t *a);
    int (*verify)(const case_t *c, const xfer_t *x, char *why, size_t len);
} adapter_t;

#define MX_ROOTED_BLOCKS 1
#define MX_ROOTED_VECTOR 1
#define MX_VECTOR 0
static const adapter_t g_adapters[PAPCOLL_OP_COUNT] = {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind)                                                         \
    {#name, MX_##kind, combos_##name, prepare_##name, call_##name, reference_##name, verify_##name},
#include "papcoll_ops.def"
#undef PAPCOLL_OP
};
#undef MX_ROOTED_BLOCKS
#undef MX_ROOTED_VECTOR
#undef MX_VECTOR

#endif /* PAPCOLL_TESTS_MATRIX_OPS_H */
