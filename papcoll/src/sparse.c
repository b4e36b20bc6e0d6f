/*
 * Run-length encoding of a vector around an identity element (sparse.h).
 */
#include "sparse.h"

#include <string.h>

size_t papcoll__sparse_bound(size_t n, size_t es)
{
    return sizeof(uint32_t) + n * es;
}

static void put32(char *p, size_t v)
{
    uint32_t x = (uint32_t)v;

    memcpy(p, &x, sizeof(x));
}

static size_t get32(const char *p)
{
    uint32_t x;

    memcpy(&x, p, sizeof(x));
    return x;
}

/* The end of the run of elements equal (want_id) or unequal to id from i. */
static inline size_t scan(const char *src, size_t i, size_t n, size_t es, const void *id, int want_id)
{
    while (i < n && (memcmp(src + i * es, id, es) == 0) == want_id)
        i++;
    return i;
}

/* scan() with the common element sizes as constants, so that the compiler
 * turns each comparison into a load and compare instead of a call to
 * memcmp (an RGBA + depth pixel is 8 bytes). */
static size_t run_end(const char *src, size_t i, size_t n, size_t es, const void *id, int want_id)
{
    switch (es) {
    case 4:
        return scan(src, i, n, 4, id, want_id);
    case 8:
        return scan(src, i, n, 8, id, want_id);
    case 16:
        return scan(src, i, n, 16, id, want_id);
    default:
        return scan(src, i, n, es, id, want_id);
    }
}

size_t papcoll__sparse_encode(const char *src, size_t n, size_t es, const void *id, char *out)
{
    size_t k = 0, kept = 0, i, e, dense = papcoll__sparse_bound(n, es), head, pos;

    for (i = run_end(src, 0, n, es, id, 1); i < n; i = run_end(src, e, n, es, id, 1)) {
        e = run_end(src, i, n, es, id, 0);
        k++;
        kept += e - i;
        if (sizeof(uint32_t) * (1 + 2 * k) + kept * es >= dense)
            break; /* no smaller than dense: stop counting */
    }
    head = sizeof(uint32_t) * (1 + 2 * k);
    if (i < n || head + kept * es >= dense) {
        put32(out, PAPCOLL__SPARSE_DENSE);
        memcpy(out + sizeof(uint32_t), src, n * es);
        return dense;
    }
    put32(out, k);
    pos = head;
    k = 0;
    for (i = run_end(src, 0, n, es, id, 1); i < n; i = run_end(src, e, n, es, id, 1)) {
        e = run_end(src, i, n, es, id, 0);
        put32(out + sizeof(uint32_t) * (1 + 2 * k), i);
        put32(out + sizeof(uint32_t) * (2 + 2 * k), e - i);
        memcpy(out + pos, src + i * es, (e - i) * es);
        pos += (e - i) * es;
        k++;
    }
    return pos;
}

int papcoll__sparse_runs(char *msg, size_t bytes, size_t n, size_t es,
                         int (*fn)(void *arg, size_t off, size_t len, char *data), void *arg)
{
    size_t k, j, off, len, end = 0, pos;
    int rc;

    if (bytes < sizeof(uint32_t))
        return -1;
    if ((k = get32(msg)) == PAPCOLL__SPARSE_DENSE)
        return bytes != papcoll__sparse_bound(n, es) ? -1
               : n == 0                              ? 0
                                                     : fn(arg, 0, n, msg + sizeof(uint32_t));
    if (k > n || bytes < sizeof(uint32_t) * (1 + 2 * k))
        return -1;
    pos = sizeof(uint32_t) * (1 + 2 * k);
    for (j = 0; j < k; j++) { /* validate everything before the first call */
        off = get32(msg + sizeof(uint32_t) * (1 + 2 * j));
        len = get32(msg + sizeof(uint32_t) * (2 + 2 * j));
        if (len == 0 || off < end || off > n || len > n - off)
            return -1;
        end = off + len;
        pos += len * es;
    }
    if (pos != bytes)
        return -1;
    pos = sizeof(uint32_t) * (1 + 2 * k);
    for (j = 0; j < k; j++) {
        off = get32(msg + sizeof(uint32_t) * (1 + 2 * j));
        len = get32(msg + sizeof(uint32_t) * (2 + 2 * j));
        if ((rc = fn(arg, off, len, msg + pos)) != 0)
            return rc;
        pos += len * es;
    }
    return 0;
}
