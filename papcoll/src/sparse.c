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

/*
 * One scan of src: each run's (offset, length) goes straight to its place
 * in the header, which is where it would be anyway; the data behind the
 * header is then copied run by run, reading only the kept elements.  A
 * header that would make the message no smaller than the dense form stops
 * the scan.
 */
size_t papcoll__sparse_encode(const char *src, size_t n, size_t es, const void *id, char *out)
{
    size_t k = 0, kept = 0, i, e, j, dense = papcoll__sparse_bound(n, es), pos;

    for (i = run_end(src, 0, n, es, id, 1); i < n; i = run_end(src, e, n, es, id, 1)) {
        e = run_end(src, i, n, es, id, 0);
        k++;
        kept += e - i;
        if (sizeof(uint32_t) * (1 + 2 * k) + kept * es >= dense)
            break; /* no smaller than dense */
        put32(out + sizeof(uint32_t) * (2 * k - 1), i);
        put32(out + sizeof(uint32_t) * (2 * k), e - i);
    }
    if (i < n || sizeof(uint32_t) * (1 + 2 * k) + kept * es >= dense) {
        put32(out, PAPCOLL__SPARSE_DENSE);
        memcpy(out + sizeof(uint32_t), src, n * es);
        return dense;
    }
    put32(out, k);
    pos = sizeof(uint32_t) * (1 + 2 * k);
    for (j = 0; j < k; j++) {
        size_t off = get32(out + sizeof(uint32_t) * (1 + 2 * j)), len = get32(out + sizeof(uint32_t) * (2 + 2 * j));

        memcpy(out + pos, src + off * es, len * es);
        pos += len * es;
    }
    return pos;
}

/* Whether msg (bytes long) is a valid encoding of n elements of es bytes:
 * a dense message of the right size, or ascending, disjoint, non-empty
 * runs inside [0, n) whose elements fill the rest of the message. */
static int valid(const char *msg, size_t bytes, size_t n, size_t es)
{
    size_t k, j, off, len, end = 0, pos;

    if (bytes < sizeof(uint32_t))
        return 0;
    if ((k = get32(msg)) == PAPCOLL__SPARSE_DENSE)
        return bytes == papcoll__sparse_bound(n, es);
    if (k > n || bytes < sizeof(uint32_t) * (1 + 2 * k))
        return 0;
    pos = sizeof(uint32_t) * (1 + 2 * k);
    for (j = 0; j < k; j++) {
        off = get32(msg + sizeof(uint32_t) * (1 + 2 * j));
        len = get32(msg + sizeof(uint32_t) * (2 + 2 * j));
        if (len == 0 || off < end || off > n || len > n - off)
            return 0;
        end = off + len;
        pos += len * es;
    }
    return pos == bytes;
}

int papcoll__sparse_runs(char *msg, size_t bytes, size_t n, size_t es,
                         int (*fn)(void *arg, size_t off, size_t len, char *data), void *arg)
{
    size_t k, j, off, len, pos;
    int rc;

    if (!valid(msg, bytes, n, es)) /* everything checked before the first call */
        return -1;
    if ((k = get32(msg)) == PAPCOLL__SPARSE_DENSE)
        return n == 0 ? 0 : fn(arg, 0, n, msg + sizeof(uint32_t));
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

/* ------------------------------------------------------------ merge */

#define NONE ((size_t)-1)

/* A walk over the runs of a valid encoding (a dense one is one run); the
 * current run is [off, end) with its next element at data, NONE when the
 * runs are exhausted. */
typedef struct {
    const char *msg;
    char *data;
    size_t k, j, off, end;
} cursor_t;

static void cursor_load(cursor_t *c)
{
    if (c->j >= c->k) {
        c->off = c->end = NONE;
        return;
    }
    c->off = get32(c->msg + sizeof(uint32_t) * (1 + 2 * c->j));
    c->end = c->off + get32(c->msg + sizeof(uint32_t) * (2 + 2 * c->j));
}

static void cursor_open(cursor_t *c, char *msg, size_t n)
{
    c->msg = msg;
    c->j = 0;
    if ((c->k = get32(msg)) == PAPCOLL__SPARSE_DENSE) {
        c->k = 0;
        c->data = msg + sizeof(uint32_t);
        c->off = n > 0 ? 0 : NONE;
        c->end = n > 0 ? n : NONE;
        return;
    }
    c->data = msg + sizeof(uint32_t) * (1 + 2 * c->k);
    cursor_load(c);
}

static void cursor_skip(cursor_t *c, size_t len, size_t es)
{
    c->off += len;
    c->data += len * es;
    if (c->off == c->end) {
        c->j++;
        cursor_load(c);
    }
}

/* The output of a merge: counting (out == NULL) or writing runs (dense
 * == 0) or the dense form. */
typedef struct {
    char *out;
    size_t es, k, elems, pos;
    size_t start, end; /* the current run's start; where the last piece ended (NONE: none yet) */
    int dense;
    const void *id;
    int (*op)(void *arg, char *lo, char *hi, size_t len);
    void *arg;
} merge_t;

/* Elements [from, to) of the dense result := the identity, in doubling copies. */
static void fill_id(merge_t *m, size_t from, size_t to)
{
    char *dst = m->out + sizeof(uint32_t) + from * m->es;
    size_t done = 1, c;

    if (from >= to)
        return;
    memcpy(dst, m->id, m->es);
    for (; done < to - from; done += c) {
        c = done < to - from - done ? done : to - from - done;
        memcpy(dst + done * m->es, dst, c * m->es);
    }
}

/* Elements [x, x + len) of the result: lo's (lo != NULL), hi's, or both
 * combined. */
static int piece(merge_t *m, size_t x, size_t len, char *lo, char *hi)
{
    char *dst;

    if (m->out == NULL || !m->dense) {
        if (x != m->end) { /* a new run */
            m->k++;
            m->start = x;
            if (m->out != NULL)
                put32(m->out + sizeof(uint32_t) * (2 * m->k - 1), x);
        }
        if (m->out != NULL)
            put32(m->out + sizeof(uint32_t) * (2 * m->k), x + len - m->start);
        m->elems += len;
        m->end = x + len;
        if (m->out == NULL)
            return 0;
        dst = m->out + m->pos;
        m->pos += len * m->es;
    } else {
        fill_id(m, m->end == NONE ? 0 : m->end, x);
        m->end = x + len;
        dst = m->out + sizeof(uint32_t) + x * m->es;
    }
    memcpy(dst, hi != NULL ? hi : lo, len * m->es);
    return lo != NULL && hi != NULL ? m->op(m->arg, lo, dst, len) : 0;
}

/* Walks the pieces of lo's and hi's runs in ascending order. */
static int sweep(merge_t *m, char *lo, char *hi, size_t n)
{
    cursor_t l, h;
    size_t len;
    int rc = 0;

    cursor_open(&l, lo, n);
    cursor_open(&h, hi, n);
    while (rc == 0 && (l.off != NONE || h.off != NONE)) {
        if (l.end <= h.off) { /* lo's run first, alone */
            len = l.end - l.off;
            rc = piece(m, l.off, len, l.data, NULL);
            cursor_skip(&l, len, m->es);
        } else if (h.end <= l.off) {
            len = h.end - h.off;
            rc = piece(m, h.off, len, NULL, h.data);
            cursor_skip(&h, len, m->es);
        } else if (l.off < h.off) { /* overlapping runs: the part before the other starts */
            len = h.off - l.off;
            rc = piece(m, l.off, len, l.data, NULL);
            cursor_skip(&l, len, m->es);
        } else if (h.off < l.off) {
            len = l.off - h.off;
            rc = piece(m, h.off, len, NULL, h.data);
            cursor_skip(&h, len, m->es);
        } else { /* both from the same element on */
            len = (l.end < h.end ? l.end : h.end) - l.off;
            rc = piece(m, l.off, len, l.data, h.data);
            cursor_skip(&l, len, m->es);
            cursor_skip(&h, len, m->es);
        }
    }
    return rc;
}

int papcoll__sparse_merge(char *lo, size_t lo_bytes, char *hi, size_t hi_bytes, size_t n, size_t es,
                          const void *id, int (*op)(void *arg, char *lo, char *hi, size_t len), void *arg,
                          char *out, size_t *bytes)
{
    merge_t m = {NULL, es, 0, 0, 0, 0, NONE, 0, id, op, arg};
    size_t dense = papcoll__sparse_bound(n, es);
    int rc;

    if (!valid(lo, lo_bytes, n, es) || !valid(hi, hi_bytes, n, es))
        return 1;
    sweep(&m, lo, hi, n); /* count the result's runs and elements */
    m.dense = sizeof(uint32_t) * (1 + 2 * m.k) + m.elems * es >= dense;
    m.out = out;
    m.pos = sizeof(uint32_t) * (1 + 2 * m.k);
    put32(out, m.dense ? PAPCOLL__SPARSE_DENSE : m.k);
    m.k = m.elems = 0;
    m.end = NONE;
    if ((rc = sweep(&m, lo, hi, n)) != 0)
        return rc;
    if (m.dense)
        fill_id(&m, m.end == NONE ? 0 : m.end, n);
    *bytes = m.dense ? dense : m.pos;
    return 0;
}
