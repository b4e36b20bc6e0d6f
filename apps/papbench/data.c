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
