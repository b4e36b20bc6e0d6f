/*
 * Data of the MPI matrix (mpi_matrix.c, the only includer): the datatypes
 * it moves and reduces, the values it fills them with, its two
 * user-defined reduction operations and the exact results it expects from
 * them.  docs/testing.md describes the coverage.
 *
 * Layouts.  Every datatype the matrix uses is a layout: an MPI datatype
 * built with its real constructor (contiguous, vector, indexed, struct,
 * resized, hindexed) together with the test's own description of one
 * element's type map (basic type and displacement of each field, in type
 * map order, and the extent).  The test fills buffers and its user
 * operations read elements through the description; layouts_init() checks
 * the description against MPI's (size, extent, true extent and the bytes a
 * send to self moves into a dense copy), so the two cannot drift apart.
 *
 * Values differ per case, block (whose data they are) and position in the
 * type signature.  For reductions they make every association exact, so a
 * byte comparison with MPI is valid for floating types too:
 *   SUM   integers in [-2^20, 2^20) (long long: [-2^55, 2^55)), unsigned
 *         char in [0, 3] (no sum overflows below P = 86: Open MPI 4.1's
 *         op/avx saturates an overflowing 8-bit sum inside its SIMD blocks
 *         and wraps in the scalar tail, so an overflowing sum would depend
 *         on how an algorithm cuts the vector, docs/reduce.md); floating
 *         multiples of 1/4 of magnitude below 2^10 (float) or 2^38
 *         (double): with up to 4096 ranks every partial sum keeps at most
 *         24 (float) or 53 (double) significant bits, so nothing rounds
 *   PROD  integers in {-2, -1, 1, 2}, floating {±1/2, ±1, ±2}: every
 *         partial product is a power of two (exact up to P = 30 for int,
 *         126 for float)
 *   MAX, MIN, BAND, BOR and the data of the moving operations: any value
 *         (floating values finite and never -0.0, so MAX and MIN have no
 *         ties between different bit patterns)
 * Unsigned char PROD, BAND and BOR wrap or cannot overflow: order-free.
 *
 * One reduction is not exact on purpose: "MPI_SUM(rounding)" is MPI_SUM on
 * float and double with positive values of full mantissas and exponents
 * spread over 2^4 (float) or 2^5 (double) binades, so the result's last
 * bits depend on the order of the additions.  Its result is compared with
 * MPI's within 2 P ulp-sized relative error (positive terms: any order of
 * P - 1 additions stays within (P - 1) eps), and allreduce must still give
 * the same bytes on every rank (verify_allreduce).
 *
 * User operations.  "ucomm" is commutative: per field, integers combine as
 * x + y + 2xy modulo 2^n (that is (1+2x)(1+2y) = 1+2(x∘y): multiplication
 * of odd numbers, a commutative group), floating fields add (exact with
 * SUM data), char fields xor.  "unoncomm" is the 2x2 integer matrix product
 * modulo 2^32 on any layout of 4 ints, MPI's rule inout = in ∘ inout; with
 * random matrices a wrong operand order changes the result (each case
 * checks that its data would show a reversed or swapped order).  Both
 * operations flag a call with a datatype they do not know (g_uop_misuse):
 * the library must hand them the user's datatype.
 */
#ifndef PAPCOLL_TESTS_MATRIX_DATA_H
#define PAPCOLL_TESTS_MATRIX_DATA_H

#include <math.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ hashing */

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Where values come from: the data of one block of one case. */
typedef struct {
    uint64_t seed, id;
    int block; /* the rank whose data it is (scatter: the destination) */
    int kind;  /* V_* */
} stream_t;

enum { V_ANY, V_SUM, V_PROD, V_ROUND };

/* The hash of signature position j of a stream. */
static uint64_t stream_at(const stream_t *s, uint64_t j)
{
    return mix64(s->seed ^ (s->id * 0x100000001B3ull) ^ ((uint64_t)s->block << 40) ^ j);
}

/* ------------------------------------------------------------ basic types */

enum { B_BYTE, B_CHAR, B_UCHAR, B_INT, B_LLONG, B_FLOAT, B_DOUBLE, NBASIC };

static const struct {
    MPI_Datatype type;
    size_t size;
    int integer; /* 1: integer (BAND, BOR allowed); 0: floating or byte */
    int floating;
} g_basic[NBASIC] = {
    {MPI_BYTE, 1, 0, 0},      {MPI_CHAR, 1, 0, 0},  {MPI_UNSIGNED_CHAR, 1, 1, 0}, {MPI_INT, 4, 1, 0},
    {MPI_LONG_LONG, 8, 1, 0}, {MPI_FLOAT, 4, 0, 1}, {MPI_DOUBLE, 8, 0, 1},
};

/* Writes the value of hash h for a field of basic type b (see the header). */
static void put_value(char *dst, int b, int kind, uint64_t h)
{
    static const int32_t unit[4] = {-2, -1, 1, 2};
    static const double punit[6] = {-2.0, -1.0, -0.5, 0.5, 1.0, 2.0};
    unsigned char u8 = (unsigned char)(h ^ (h >> 8));
    int32_t i32 = (int32_t)(uint32_t)h;
    int64_t i64 = (int64_t)h;
    float f = (float)((int32_t)(h >> 40) - (1 << 23)) / 16.0f;
    double d = (double)(int64_t)(h >> 11) / 1024.0;

    if (kind == V_SUM) {
        u8 = (unsigned char)(h % 4);
        i32 = (int32_t)(h % (1u << 21)) - (1 << 20);
        i64 = (int64_t)(h >> 8) - ((int64_t)1 << 55);
        f = (float)((int32_t)(h % (1u << 13)) - (1 << 12)) / 4.0f;
        d = (double)((int64_t)(h >> 23) - ((int64_t)1 << 40)) / 4.0;
    } else if (kind == V_ROUND) {
        f = ldexpf(1.0f + (float)(h >> 40) * 0x1p-24f, (int)((h >> 8) % 16) - 4);
        d = ldexp(1.0 + (double)(h >> 12) * 0x1p-52, (int)((h >> 4) % 32) - 8);
    } else if (kind == V_PROD) {
        i32 = unit[h % 4];
        i64 = unit[(h >> 8) % 4];
        f = (float)punit[h % 6];
        d = punit[(h >> 8) % 6];
    }
    switch (b) {
    case B_INT:
        memcpy(dst, &i32, 4);
        break;
    case B_LLONG:
        memcpy(dst, &i64, 8);
        break;
    case B_FLOAT:
        memcpy(dst, &f, 4);
        break;
    case B_DOUBLE:
        memcpy(dst, &d, 8);
        break;
    default:
        memcpy(dst, &u8, 1);
        break;
    }
}

/* ------------------------------------------------------------ layouts */

#define MAXF 6

typedef struct {
    const char *name;
    int nf;                  /* fields (basic elements) per element */
    signed char basic[MAXF]; /* B_* of each field, in type map order */
    MPI_Aint disp[MAXF];     /* displacement of each field */
    MPI_Aint extent;         /* distance between elements */
    MPI_Datatype type;       /* built by layouts_init */
    size_t size;             /* data bytes of one element */
    MPI_Aint lo, hi;         /* one element's data lies in [lo, hi) */
    int one_basic;           /* B_* when every field has it, else -1 */
} layout_t;

enum {
    /* predefined */
    L_BYTE,
    L_UCHAR,
    L_INT,
    L_LLONG,
    L_FLOAT,
    L_DOUBLE,
    L_CONTIG3, /* contiguous(3, INT) */
    L_VEC3D,   /* vector(3, 1, 2, DOUBLE): 3 doubles, one-double gaps */
    L_IDX6,    /* indexed({2,1,3}, {0,3,5}, INT) */
    L_VEC6,    /* vector(3, 2, 3, INT): the same 6 ints, other gaps */
    L_STRUCT,  /* struct {int @0; double @8; char @16} resized to 24 */
    L_STRUCT2, /* struct {int @16; double @0; char @8}: type map not in memory order */
    L_RESIZED, /* resized(INT, 0, 12): an int every 12 bytes */
    L_RESNEG,  /* hindexed_block(INT @-4) resized to (-8, 8): negative true lower bound */
    L_VECINT,  /* vector(2, 2, 3, INT) resized to 24: 4 ints with gaps */
    L_IDXD,    /* indexed({1,2}, {0,2}, DOUBLE) resized to 40 */
    L_MAT2,    /* contiguous(4, INT): a 2x2 matrix */
    NLAYOUTS
};

static layout_t g_layouts[NLAYOUTS] = {
    [L_BYTE] = {"MPI_BYTE", 1, {B_BYTE}, {0}, 1},
    [L_UCHAR] = {"MPI_UNSIGNED_CHAR", 1, {B_UCHAR}, {0}, 1},
    [L_INT] = {"MPI_INT", 1, {B_INT}, {0}, 4},
    [L_LLONG] = {"MPI_LONG_LONG", 1, {B_LLONG}, {0}, 8},
    [L_FLOAT] = {"MPI_FLOAT", 1, {B_FLOAT}, {0}, 4},
    [L_DOUBLE] = {"MPI_DOUBLE", 1, {B_DOUBLE}, {0}, 8},
    [L_CONTIG3] = {"contiguous(3,int)", 3, {B_INT, B_INT, B_INT}, {0, 4, 8}, 12},
    [L_VEC3D] = {"vector(3,1,2,double)", 3, {B_DOUBLE, B_DOUBLE, B_DOUBLE}, {0, 16, 32}, 40},
    [L_IDX6] = {"indexed({2,1,3},{0,3,5},int)",
                6,
                {B_INT, B_INT, B_INT, B_INT, B_INT, B_INT},
                {0, 4, 12, 20, 24, 28},
                32},
    [L_VEC6] =
        {"vector(3,2,3,int)", 6, {B_INT, B_INT, B_INT, B_INT, B_INT, B_INT}, {0, 4, 12, 16, 24, 28}, 32},
    [L_STRUCT] = {"struct{int@0,double@8,char@16}/24", 3, {B_INT, B_DOUBLE, B_CHAR}, {0, 8, 16}, 24},
    [L_STRUCT2] = {"struct{int@16,double@0,char@8}/24", 3, {B_INT, B_DOUBLE, B_CHAR}, {16, 0, 8}, 24},
    [L_RESIZED] = {"resized(int,0,12)", 1, {B_INT}, {0}, 12},
    [L_RESNEG] = {"resized(int@-4,-8,8)", 1, {B_INT}, {-4}, 8},
    [L_VECINT] = {"vector(2,2,3,int)/24", 4, {B_INT, B_INT, B_INT, B_INT}, {0, 4, 12, 16}, 24},
    [L_IDXD] = {"indexed({1,2},{0,2},double)/40", 3, {B_DOUBLE, B_DOUBLE, B_DOUBLE}, {0, 16, 24}, 40},
    [L_MAT2] = {"contiguous(4,int)", 4, {B_INT, B_INT, B_INT, B_INT}, {0, 4, 8, 12}, 16},
};

/* Resizes *t to (lb, extent), replacing it. */
static int resize(MPI_Datatype *t, MPI_Aint lb, MPI_Aint extent)
{
    MPI_Datatype r;
    int rc = MPI_Type_create_resized(*t, lb, extent, &r);

    MPI_Type_free(t);
    *t = r;
    return rc;
}

/* The MPI datatype of layout l, with its own constructor. */
static int build_type(int l, MPI_Datatype *t)
{
    static const int b213[3] = {2, 1, 3}, d035[3] = {0, 3, 5}, one[3] = {1, 1, 1}, b12[2] = {1, 2},
                     d02[2] = {0, 2};
    static const MPI_Aint sd1[3] = {0, 8, 16}, sd2[3] = {16, 0, 8}, neg[1] = {-4};
    MPI_Datatype st[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};

    switch (l) {
    case L_CONTIG3:
        return MPI_Type_contiguous(3, MPI_INT, t);
    case L_VEC3D:
        return MPI_Type_vector(3, 1, 2, MPI_DOUBLE, t);
    case L_IDX6:
        return MPI_Type_indexed(3, b213, d035, MPI_INT, t);
    case L_VEC6:
        return MPI_Type_vector(3, 2, 3, MPI_INT, t);
    case L_STRUCT:
        return MPI_Type_create_struct(3, one, sd1, st, t) || resize(t, 0, 24);
    case L_STRUCT2:
        return MPI_Type_create_struct(3, one, sd2, st, t) || resize(t, 0, 24);
    case L_RESIZED:
        return MPI_Type_create_resized(MPI_INT, 0, 12, t);
    case L_RESNEG:
        return MPI_Type_create_hindexed_block(1, 1, neg, MPI_INT, t) || resize(t, -8, 8);
    case L_VECINT:
        return MPI_Type_vector(2, 2, 3, MPI_INT, t) || resize(t, 0, 24);
    case L_IDXD:
        return MPI_Type_indexed(2, b12, d02, MPI_DOUBLE, t) || resize(t, 0, 40);
    case L_MAT2:
        return MPI_Type_contiguous(4, MPI_INT, t);
    default:
        *t = g_basic[(int)g_layouts[l].basic[0]].type;
        return MPI_SUCCESS;
    }
}

/* Writes n elements of layout l from stream s at buf (fields only). */
static void fill_layout(char *buf, int l, int n, const stream_t *s)
{
    const layout_t *L = &g_layouts[l];
    int e, f;

    for (e = 0; e < n; e++)
        for (f = 0; f < L->nf; f++)
            put_value(buf + (MPI_Aint)e * L->extent + L->disp[f], L->basic[f], s->kind,
                      stream_at(s, (uint64_t)e * (uint64_t)L->nf + (uint64_t)f));
}

/* Copies the fields of n elements of layout l at buf into dense (packed in
 * type map order). */
static void densify(const char *buf, int l, int n, char *dense)
{
    const layout_t *L = &g_layouts[l];
    int e, f;

    for (e = 0; e < n; e++)
        for (f = 0; f < L->nf; f++) {
            size_t sz = g_basic[(int)L->basic[f]].size;
            memcpy(dense, buf + (MPI_Aint)e * L->extent + L->disp[f], sz);
            dense += sz;
        }
}

/* Checks layout l's description against MPI: size, extent, true extent, and
 * the bytes a send to self of 3 elements moves into a dense struct copy.
 * Returns 0, or prints what differs and returns 1. */
static int layout_verify(int l, MPI_Comm self)
{
    const layout_t *L = &g_layouts[l];
    char buf[3 * 64 + 16], got[3 * 64], want[3 * 64], *base = buf + 8;
    int blen[MAXF], f, size = 0, bad = 0;
    MPI_Aint dd[MAXF], lb, ext, tlb, text, at = 0;
    MPI_Datatype bt[MAXF], dense;

    MPI_Type_size(L->type, &size);
    MPI_Type_get_extent(L->type, &lb, &ext);
    MPI_Type_get_true_extent(L->type, &tlb, &text);
    bad |= (size_t)size != L->size || ext != L->extent || tlb != L->lo || tlb + text != L->hi;
    for (f = 0; f < L->nf; f++) {
        blen[f] = 1, dd[f] = at, bt[f] = g_basic[(int)L->basic[f]].type;
        at += (MPI_Aint)g_basic[(int)L->basic[f]].size;
    }
    MPI_Type_create_struct(L->nf, blen, dd, bt, &dense);
    resize(&dense, 0, at); /* no alignment padding: elements back to back */
    MPI_Type_commit(&dense);
    memset(buf, 0x33, sizeof(buf));
    fill_layout(base - L->lo, l, 3, &(stream_t){77, (uint64_t)l, 1, V_ANY});
    densify(base - L->lo, l, 3, want);
    memset(got, 0, sizeof(got));
    MPI_Sendrecv(base - L->lo, 3, L->type, 0, 9, got, 3, dense, 0, 9, self, MPI_STATUS_IGNORE);
    bad |= memcmp(got, want, 3 * L->size) != 0;
    MPI_Type_free(&dense);
    if (bad)
        printf("FAIL mpi_matrix: the test's description of layout %s does not match MPI's type map "
               "(size %d, extent %ld, true lb %ld, true extent %ld)\n",
               L->name, size, (long)ext, (long)tlb, (long)text);
    return bad;
}

/* Builds and checks every layout; returns the number of bad ones. */
static int layouts_init(void)
{
    int l, f, bad = 0;

    for (l = 0; l < NLAYOUTS; l++) {
        layout_t *L = &g_layouts[l];
        L->size = 0, L->lo = L->disp[0], L->hi = 0, L->one_basic = L->basic[0];
        for (f = 0; f < L->nf; f++) {
            MPI_Aint end = L->disp[f] + (MPI_Aint)g_basic[(int)L->basic[f]].size;
            L->size += g_basic[(int)L->basic[f]].size;
            L->lo = L->disp[f] < L->lo ? L->disp[f] : L->lo;
            L->hi = end > L->hi ? end : L->hi;
            if (L->basic[f] != L->basic[0])
                L->one_basic = -1;
        }
        if (build_type(l, &L->type) != MPI_SUCCESS || MPI_Type_commit(&L->type) != MPI_SUCCESS) {
            printf("FAIL mpi_matrix: cannot build layout %s\n", L->name);
            bad++;
            continue;
        }
        bad += layout_verify(l, MPI_COMM_SELF);
    }
    return bad;
}

static void layouts_free(void)
{
    int l;

    for (l = L_CONTIG3; l < NLAYOUTS; l++) /* the derived ones */
        MPI_Type_free(&g_layouts[l].type);
}

/* The layout whose MPI datatype is t, or -1. */
static int layout_of(MPI_Datatype t)
{
    int l;

    for (l = 0; l < NLAYOUTS; l++)
        if (g_layouts[l].type == t)
            return l;
    return -1;
}

/* ------------------------------------------------------------ reduction operations */

enum { R_SUM, R_MAX, R_MIN, R_PROD, R_BAND, R_BOR, R_RSUM, R_UCOMM, R_UNONC, NROPS };

static struct {
    const char *name;
    MPI_Op op;    /* predefined, or created by rops_init */
    int kind;     /* V_* of its data */
    int commutes; /* 0: non-commutative */
    int builtin;  /* predefined MPI_Op */
    int inexact;  /* the result depends on the order of the combines */
} g_rops[NROPS] = {
    [R_SUM] = {"MPI_SUM", MPI_OP_NULL, V_SUM, 1, 1},
    [R_MAX] = {"MPI_MAX", MPI_OP_NULL, V_ANY, 1, 1},
    [R_MIN] = {"MPI_MIN", MPI_OP_NULL, V_ANY, 1, 1},
    [R_PROD] = {"MPI_PROD", MPI_OP_NULL, V_PROD, 1, 1},
    [R_BAND] = {"MPI_BAND", MPI_OP_NULL, V_ANY, 1, 1},
    [R_BOR] = {"MPI_BOR", MPI_OP_NULL, V_ANY, 1, 1},
    [R_RSUM] = {"MPI_SUM(rounding)", MPI_OP_NULL, V_ROUND, 1, 1, 1},
    [R_UCOMM] = {"ucomm", MPI_OP_NULL, V_SUM, 1, 0},
    [R_UNONC] = {"unoncomm(2x2 matrix product)", MPI_OP_NULL, V_ANY, 0, 0},
};

/* Set when a user operation is called with a datatype it does not know
 * (possibly from a monitor thread). */
static atomic_int g_uop_misuse;

/* ucomm on one element: per field x∘y (see the header). */
static void ucomm_elem(const layout_t *L, const char *in, char *io)
{
    int f;

    for (f = 0; f < L->nf; f++) {
        const char *a = in + L->disp[f];
        char *b = io + L->disp[f];
        uint32_t x32, y32;
        uint64_t x64, y64;
        double dx, dy;
        float fx, fy;

        switch (L->basic[f]) {
        case B_INT:
            memcpy(&x32, a, 4), memcpy(&y32, b, 4), y32 = x32 + y32 + 2u * x32 * y32, memcpy(b, &y32, 4);
            break;
        case B_LLONG:
            memcpy(&x64, a, 8), memcpy(&y64, b, 8), y64 = x64 + y64 + 2u * x64 * y64, memcpy(b, &y64, 8);
            break;
        case B_DOUBLE:
            memcpy(&dx, a, 8), memcpy(&dy, b, 8), dy += dx, memcpy(b, &dy, 8);
            break;
        case B_FLOAT:
            memcpy(&fx, a, 4), memcpy(&fy, b, 4), fy += fx, memcpy(b, &fy, 4);
            break;
        default:
            *b = (char)(*b ^ *a);
            break;
        }
    }
}

/* unoncomm on one element of a 4-int layout: io = in x io (2x2, mod 2^32). */
static void unoncomm_elem(const layout_t *L, const char *in, char *io)
{
    uint32_t a[4], b[4], c[4];
    int f;

    for (f = 0; f < 4; f++)
        memcpy(&a[f], in + L->disp[f], 4), memcpy(&b[f], io + L->disp[f], 4);
    c[0] = a[0] * b[0] + a[1] * b[2];
    c[1] = a[0] * b[1] + a[1] * b[3];
    c[2] = a[2] * b[0] + a[3] * b[2];
    c[3] = a[2] * b[1] + a[3] * b[3];
    for (f = 0; f < 4; f++)
        memcpy(io + L->disp[f], &c[f], 4);
}

static int is_mat_layout(int l)
{
    return l >= 0 && g_layouts[l].nf == 4 && g_layouts[l].one_basic == B_INT;
}

static void uop_apply(int rop, int l, const char *in, char *io, int n)
{
    const layout_t *L = &g_layouts[l];
    int e;

    for (e = 0; e < n; e++) {
        if (rop == R_UNONC)
            unoncomm_elem(L, in + (MPI_Aint)e * L->extent, io + (MPI_Aint)e * L->extent);
        else
            ucomm_elem(L, in + (MPI_Aint)e * L->extent, io + (MPI_Aint)e * L->extent);
    }
}

static void ucomm_fn(void *in, void *io, int *len, MPI_Datatype *dt)
{
    int l = layout_of(*dt);

    if (l < 0 || (l != L_INT && l != L_STRUCT)) {
        atomic_store(&g_uop_misuse, 1);
        return;
    }
    uop_apply(R_UCOMM, l, in, io, *len);
}

static void unoncomm_fn(void *in, void *io, int *len, MPI_Datatype *dt)
{
    int l = layout_of(*dt);

    if (!is_mat_layout(l)) {
        atomic_store(&g_uop_misuse, 1);
        return;
    }
    uop_apply(R_UNONC, l, in, io, *len);
}

static void rops_init(void)
{
    g_rops[R_SUM].op = MPI_SUM, g_rops[R_MAX].op = MPI_MAX, g_rops[R_MIN].op = MPI_MIN;
    g_rops[R_PROD].op = MPI_PROD, g_rops[R_BAND].op = MPI_BAND, g_rops[R_BOR].op = MPI_BOR;
    g_rops[R_RSUM].op = MPI_SUM;
    MPI_Op_create(ucomm_fn, 1, &g_rops[R_UCOMM].op);
    MPI_Op_create(unoncomm_fn, 0, &g_rops[R_UNONC].op);
}

static void rops_free(void)
{
    MPI_Op_free(&g_rops[R_UCOMM].op);
    MPI_Op_free(&g_rops[R_UNONC].op);
}

/* Whether reduction rop applies to layout l (MPI's rules, and the user
 * operations' own types). */
static int rop_fits(int rop, int l)
{
    int b = g_layouts[l].one_basic;

    switch (rop) {
    case R_SUM:
    case R_MAX:
    case R_MIN:
    case R_PROD:
        return b >= 0 && (g_basic[b].integer || g_basic[b].floating);
    case R_BAND:
    case R_BOR:
        return b >= 0 && g_basic[b].integer;
    case R_RSUM:
        return l == L_FLOAT || l == L_DOUBLE;
    case R_UCOMM:
        return l == L_INT || l == L_STRUCT;
    default:
        return is_mat_layout(l);
    }
}

/*
 * The result a_0 ∘ a_1 ∘ ... ∘ a_{P-1} of element e of a user operation,
 * folded here from every rank's stream (every rank knows them all), in
 * rank order or in a permuted one: order[i] is the rank taken i-th.
 * acc and tmp hold one element (of layout l, at offset 0).
 */
static void uop_fold(int rop, int l, int P, const int *order, stream_t s, int e, char *acc, char *tmp)
{
    const layout_t *L = &g_layouts[l];
    int i, f;

    for (i = 0; i < P; i++) {
        char *dst = i == 0 ? acc : tmp;
        s.block = order[i];
        for (f = 0; f < L->nf; f++)
            put_value(dst + L->disp[f], L->basic[f], s.kind,
                      stream_at(&s, (uint64_t)e * (uint64_t)L->nf + (uint64_t)f));
        if (i > 0) {
            uop_apply(rop, l, acc, tmp, 1); /* tmp = acc ∘ a_i */
            for (f = 0; f < L->nf; f++)
                memcpy(acc + L->disp[f], tmp + L->disp[f], g_basic[(int)L->basic[f]].size);
        }
    }
}

/* Whether the fields of element x and y (layout l) are equal. */
static int elem_equal(int l, const char *x, const char *y)
{
    const layout_t *L = &g_layouts[l];
    int f;

    for (f = 0; f < L->nf; f++)
        if (memcmp(x + L->disp[f], y + L->disp[f], g_basic[(int)L->basic[f]].size) != 0)
            return 0;
    return 1;
}

#endif /* PAPCOLL_TESTS_MATRIX_DATA_H */
