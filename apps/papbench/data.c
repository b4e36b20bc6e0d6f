/*
 * Self-checking buffer contents (see data.h).
 */
#include "data.h"

#include <string.h>

#include "rng.h"

static const struct {
    const char *name;
    size_t size;
} types[ELEM_NTYPES] = {
    [ELEM_FLOAT] = {"float", 4},
    [ELEM_DOUBLE] = {"double", 8},
    [ELEM_INT] = {"int", 4},
    [ELEM_BYTE] = {"byte", 1},
};

int elem_find(const char *name)
{
    int t;

    for (t = 0; t < ELEM_NTYPES; t++)
        if (strcmp(types[t].name, name) == 0)
            return t;
    return -1;
}

const char *elem_name(elem_type_t t)
{
    return types[t].name;
}

size_t elem_size(elem_type_t t)
{
    return types[t].size;
}

/* Seed of the hashes of one block. */
static uint64_t block_key(uint64_t tag, int owner)
{
    return rng_mix64(rng_mix64(tag) ^ (uint64_t)(uint32_t)owner);
}

/* The bytes of the element whose hash is h. */
static void element(elem_type_t t, uint64_t h, unsigned char *out)
{
    uint32_t u32;
    uint64_t u64;

    switch (t) {
    case ELEM_FLOAT:
        u32 = 0x3F800000u | (uint32_t)(h & 0x7FFFFFu); /* exponent of 1.0, random mantissa */
        memcpy(out, &u32, sizeof u32);
        break;
    case ELEM_DOUBLE:
        u64 = 0x3FF0000000000000ull | (h & 0xFFFFFFFFFFFFFull);
        memcpy(out, &u64, sizeof u64);
        break;
    case ELEM_INT:
        u32 = (uint32_t)h;
        memcpy(out, &u32, sizeof u32);
        break;
    default:
        out[0] = (unsigned char)h;
        break;
    }
}

void data_fill(void *buf, elem_type_t t, size_t count, uint64_t tag, int owner)
{
    unsigned char *p = buf;
    uint64_t key = block_key(tag, owner);
    size_t i, sz = elem_size(t);

    for (i = 0; i < count; i++)
        element(t, rng_mix64(key + i), p + i * sz);
}

long long data_check(const void *buf, elem_type_t t, size_t count, uint64_t tag, int owner)
{
    const unsigned char *p = buf;
    unsigned char want[8];
    uint64_t key = block_key(tag, owner);
    size_t i, sz = elem_size(t);

    for (i = 0; i < count; i++) {
        element(t, rng_mix64(key + i), want);
        if (memcmp(p + i * sz, want, sz) != 0)
            return (long long)i;
    }
    return -1;
}

void data_poison(void *buf, size_t bytes)
{
    /* 0xA5A5A5A5 as a float is negative, far outside the [1, 2) of real data. */
    memset(buf, 0xA5, bytes);
}

/* ---------------------------------------------------------- reductions -- */

static const char *const red_names[RED_NOPS] = {"sum", "max", "min", "prod", "band", "bor"};

int red_find(const char *name)
{
    int op;

    for (op = 0; op < RED_NOPS; op++)
        if (strcmp(red_names[op], name) == 0)
            return op;
    return -1;
}

const char *red_name(red_op_t op)
{
    return red_names[op];
}

int red_valid(red_op_t op, elem_type_t t)
{
    int bitwise = op == RED_BAND || op == RED_BOR;

    return t == ELEM_INT || (t == ELEM_BYTE ? bitwise : !bitwise);
}

/* Keeps the rank-indexed hashes apart from the element-indexed ones. */
#define SALT_ELEM 0x656C656D656E74ULL
#define SALT_RANK 0x72616E6B73ULL

/* What a call's values are made of (data.h). */
typedef struct {
    uint64_t kelem, krank;
    unsigned bits; /* W: the type's bits (band, bor) */
    int nprocs;
    long long sum_b; /* sum over ranks of B_r */
    int count_c;     /* ranks with c_r = 1 */
} red_key_t;

static red_key_t red_key(elem_type_t t, uint64_t tag, int nprocs)
{
    red_key_t k;
    int r;

    k.kelem = rng_mix64(tag ^ SALT_ELEM);
    k.krank = rng_mix64(tag ^ SALT_RANK);
    k.bits = t == ELEM_BYTE ? 8u : 32u;
    k.nprocs = nprocs;
    k.sum_b = 0;
    k.count_c = 0;
    for (r = 0; r < nprocs; r++) {
        uint64_t h = rng_mix64(k.krank + (uint64_t)r);

        k.sum_b += (long long)(h & 1023);
        k.count_c += (int)((h >> 10) & 1);
    }
    return k;
}

/* A W-bit mask rotated left by n. */
static uint32_t rot_mask(uint32_t mask, unsigned n, unsigned bits)
{
    uint32_t all = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1;

    n %= bits;
    return n == 0 ? mask & all : ((mask << n) | (mask >> (bits - n))) & all;
}

/*
 * Element i of rank r (r < 0: the expected result) as a number or as W
 * bits.  From the element's hash: A_i (10 bits), a_i (1), the factor m_i
 * in {2, 3, 4} and its rank s_i (prod), the bit offset h_i (band, bor);
 * from the rank's: B_r (10 bits), c_r (1).
 */
static void red_value(const red_key_t *k, red_op_t op, size_t i, int r, double *num, uint32_t *word)
{
    uint64_t he = rng_mix64(k->kelem + i), hr = r >= 0 ? rng_mix64(k->krank + (uint64_t)r) : 0;
    long long A = (long long)(he & 1023), B = (long long)(hr & 1023);
    int P = k->nprocs, a = (int)((he >> 10) & 1), c = (int)((hr >> 10) & 1),
        s = (int)((he >> 16) % (uint64_t)P);
    double m = (double)(2 + (he >> 11) % 3);
    unsigned h = (unsigned)((he >> 24) % k->bits), pos = (h + (r >= 0 ? (unsigned)r % k->bits : 0)) % k->bits;
    uint32_t low = P >= (int)k->bits ? 0xFFFFFFFFu : (1u << P) - 1;

    switch (op) {
    case RED_SUM:
        *num = r >= 0 ? (double)(A + B) : (double)(P * A + k->sum_b);
        break;
    case RED_MAX:
    case RED_MIN:
        *num = r >= 0 ? (double)(A + (long long)((i % (size_t)P + (size_t)r) % (size_t)P))
                      : (double)(op == RED_MAX ? A + P - 1 : A);
        break;
    case RED_PROD:
        if (r >= 0)
            *num = ((a ^ c) ? -1.0 : 1.0) * (r == s ? m : 1.0);
        else /* the ranks with a_i ^ c_r = 1 flip the sign */
            *num = (((a ? P - k->count_c : k->count_c) & 1) ? -m : m);
        break;
    case RED_BAND:
        *word = r >= 0 ? ~(1u << pos) : ~rot_mask(low, pos, k->bits);
        break;
    default: /* RED_BOR */
        *word = r >= 0 ? 1u << pos : rot_mask(low, pos, k->bits);
        break;
    }
}

/* The bytes of element i of rank r (r < 0: of the result). */
static void red_element(const red_key_t *k, elem_type_t t, red_op_t op, size_t i, int r, unsigned char *out)
{
    double num = 0;
    uint32_t word = 0;
    float f;
    int32_t n;

    red_value(k, op, i, r, &num, &word);
    if (op == RED_BAND || op == RED_BOR) {
        if (t == ELEM_BYTE)
            out[0] = (unsigned char)word;
        else
            memcpy(out, &word, sizeof word);
        return;
    }
    switch (t) {
    case ELEM_FLOAT:
        f = (float)num;
        memcpy(out, &f, sizeof f);
        break;
    case ELEM_DOUBLE:
        memcpy(out, &num, sizeof num);
        break;
    default:
        n = (int32_t)num;
        memcpy(out, &n, sizeof n);
        break;
    }
}

void data_fill_reduce(void *buf, elem_type_t t, red_op_t op, size_t count, uint64_t tag, int rank, int nprocs)
{
    red_key_t k = red_key(t, tag, nprocs);
    unsigned char *p = buf;
    size_t i, sz = elem_size(t);

    for (i = 0; i < count; i++)
        red_element(&k, t, op, i, rank, p + i * sz);
}

/* The first element of buf that is not element i of rank r (r < 0: of the result), or -1. */
static long long red_compare(const void *buf, elem_type_t t, red_op_t op, size_t count, uint64_t tag, int r,
                             int nprocs)
{
    red_key_t k = red_key(t, tag, nprocs);
    const unsigned char *p = buf;
    unsigned char want[8];
    size_t i, sz = elem_size(t);

    for (i = 0; i < count; i++) {
        red_element(&k, t, op, i, r, want);
        if (memcmp(p + i * sz, want, sz) != 0)
            return (long long)i;
    }
    return -1;
}

long long data_check_contribution(const void *buf, elem_type_t t, red_op_t op, size_t count, uint64_t tag,
                                  int rank, int nprocs)
{
    return red_compare(buf, t, op, count, tag, rank, nprocs);
}

long long data_check_reduce(const void *buf, elem_type_t t, red_op_t op, size_t count, uint64_t tag,
                            int nprocs)
{
    return red_compare(buf, t, op, count, tag, -1, nprocs);
}
