/*
 * Serial unit tests of the sparse codec (papcoll/src/sparse.h): random
 * vectors of 0..3000 elements of 1, 4, 8, 12 and 16 bytes, with identity
 * densities 0, 0.5, 0.9, 0.99 and 1, short and long runs:
 *   - the encoding fits papcoll__sparse_bound and is never larger than the
 *     dense form; runs are chosen exactly when they are smaller;
 *   - decoding visits ascending, disjoint runs, and writing them over an
 *     identity-filled vector rebuilds the input exactly;
 *   - every element left out equals the identity;
 *   - truncated, padded and corrupted messages (a run past n, overlapping
 *     runs, a zero-length run, a wrong size) are rejected before any run
 *     is visited;
 *   - a callback's non-zero return stops the walk and is returned;
 *   - merging two encodings (papcoll__sparse_merge) with a non-commutative
 *     operation gives, decoded, the element-wise product lo (op) hi, for
 *     every pair of the densities above (dense forms included), in runs
 *     exactly when they are smaller; chains of merges (a rank that
 *     receives several times) too; an invalid operand is rejected before
 *     anything is written, and the operation's error is returned.
 * Exit status 1 when anything failed.
 */
#include <stdlib.h>
#include <string.h>

#include "sparse.h"
#include "unit.h"

typedef struct {
    char *out;
    size_t es, next, calls;
    int bad;
} rebuild_t;

static int put_run(void *arg, size_t off, size_t len, char *data)
{
    rebuild_t *r = arg;

    r->bad |= off < r->next || len == 0;
    memcpy(r->out + off * r->es, data, len * r->es);
    r->next = off + len;
    r->calls++;
    return 0;
}

static int stop_at_two(void *arg, size_t off, size_t len, char *data)
{
    (void)off, (void)len, (void)data;
    return ++*(int *)arg == 2 ? 7 : 0;
}

static void fill(char *v, size_t n, size_t es, const char *id, double density, int runlen)
{
    size_t i = 0, k, j;

    while (i < n) {
        int ident = rnd_unit() < density;
        size_t len = 1 + (size_t)(rnd() % (uint64_t)runlen);

        for (k = 0; k < len && i < n; k++, i++)
            for (j = 0; j < es; j++)
                v[i * es + j] = ident ? id[j] : (char)(rnd() & 0xff);
        /* a non-identity element may still equal the identity by chance: fine */
    }
}

static void one(size_t n, size_t es, double density, int runlen)
{
    char id[16], *v = malloc(n * es + 1), *msg = malloc(papcoll__sparse_bound(n, es) + 64),
                 *back = malloc(n * es + 1);
    rebuild_t r = {back, es, 0, 0, 0};
    size_t i, bytes, j, runs = 0, kept = 0;
    int rc;

    for (j = 0; j < es; j++)
        id[j] = (char)(rnd() & 0xff);
    fill(v, n, es, id, density, runlen);
    for (i = 0; i < n; i++) { /* the runs the encoder should find */
        int in = memcmp(v + i * es, id, es) != 0;
        kept += in;
        runs += in && (i == 0 || memcmp(v + (i - 1) * es, id, es) == 0);
    }
    bytes = papcoll__sparse_encode(v, n, es, id, msg);
    check(bytes <= papcoll__sparse_bound(n, es), "n=%zu es=%zu: %zu bytes over the bound", n, es, bytes);
    check(bytes == (4 + 8 * runs + kept * es < papcoll__sparse_bound(n, es) ? 4 + 8 * runs + kept * es
                                                                            : papcoll__sparse_bound(n, es)),
          "n=%zu es=%zu density %.2f: %zu bytes for %zu runs of %zu elements", n, es, density, bytes, runs,
          kept);
    for (i = 0; i < n; i++)
        memcpy(back + i * es, id, es);
    rc = papcoll__sparse_runs(msg, bytes, n, es, put_run, &r);
    check(rc == 0 && !r.bad && memcmp(back, v, n * es) == 0,
          "n=%zu es=%zu density %.2f: rebuild failed (rc %d)", n, es, density, rc);
    if (bytes > 4 && n > 1) { /* malformed copies */
        r.calls = 0;
        check(papcoll__sparse_runs(msg, bytes - 1, n, es, put_run, &r) == -1 && r.calls == 0,
              "n=%zu es=%zu: a truncated message was accepted", n, es);
        check(papcoll__sparse_runs(msg, bytes + 1, n, es, put_run, &r) == -1 && r.calls == 0,
              "n=%zu es=%zu: a padded message was accepted", n, es);
        check(papcoll__sparse_runs(msg, bytes, n - 1, es, put_run, &r) == -1 ||
                  bytes != papcoll__sparse_bound(n, es),
              "n=%zu es=%zu: a dense message of another length was accepted", n, es);
    }
    free(v);
    free(msg);
    free(back);
}

/* Hand-made messages: 10 elements of 4 bytes. */
static void malformed(void)
{
    uint32_t m[16];
    rebuild_t r;
    char back[40];
    int count = 0;

    memset(&r, 0, sizeof(r));
    r.out = back, r.es = 4;
    m[0] = 2, m[1] = 0, m[2] = 1, m[3] = 5, m[4] = 6; /* run 5..11 past n */
    check(papcoll__sparse_runs((char *)m, 4 * (5 + 7), 10, 4, put_run, &r) == -1 && r.calls == 0,
          "a run past n was accepted");
    m[3] = 0, m[4] = 2; /* overlapping */
    check(papcoll__sparse_runs((char *)m, 4 * (5 + 3), 10, 4, put_run, &r) == -1 && r.calls == 0,
          "overlapping runs were accepted");
    m[3] = 4, m[4] = 0; /* zero length */
    check(papcoll__sparse_runs((char *)m, 4 * (5 + 1), 10, 4, put_run, &r) == -1 && r.calls == 0,
          "a zero-length run was accepted");
    m[0] = 11; /* more runs than elements */
    check(papcoll__sparse_runs((char *)m, 4 * 16, 10, 4, put_run, &r) == -1,
          "11 runs of 10 elements accepted");
    check(papcoll__sparse_runs((char *)m, 2, 10, 4, put_run, &r) == -1, "a 2-byte message was accepted");
    m[0] = 3, m[1] = 0, m[2] = 1, m[3] = 2, m[4] = 1, m[5] = 4, m[6] = 1; /* three runs of one */
    check(papcoll__sparse_runs((char *)m, 4 * (7 + 3), 10, 4, stop_at_two, &count) == 7 && count == 2,
          "the callback's return did not stop the walk");
}

/* A non-commutative operation with the identity id (x op id = id op x = x):
 * byte-wise 2 lo + hi + 1 where neither element is the identity.  (The
 * merge calls it on every element of a dense operand, identities too.) */
typedef struct {
    size_t es;
    const char *id;
    int calls, fail_at;
} op_arg_t;

static int op_mix(void *arg, char *lo, char *hi, size_t len)
{
    op_arg_t *o = arg;
    size_t i, j;

    if (++o->calls == o->fail_at)
        return -9;
    for (i = 0; i < len; i++, lo += o->es, hi += o->es)
        if (memcmp(lo, o->id, o->es) != 0 && memcmp(hi, o->id, o->es) == 0)
            memcpy(hi, lo, o->es);
        else if (memcmp(lo, o->id, o->es) != 0)
            for (j = 0; j < o->es; j++)
                hi[j] = (char)(2 * lo[j] + hi[j] + 1);
    return 0;
}

static void expect_mix(const char *lo, const char *hi, char *out, size_t n, size_t es, const char *id)
{
    size_t i, j;

    for (i = 0; i < n; i++) {
        const char *l = lo + i * es, *h = hi + i * es;

        for (j = 0; j < es; j++)
            out[i * es + j] = memcmp(l, id, es) == 0   ? h[j]
                              : memcmp(h, id, es) == 0 ? l[j]
                                                       : (char)(2 * l[j] + h[j] + 1);
    }
}

/* Decodes msg into out (n elements); 0 when msg is a valid encoding. */
static int decode(char *msg, size_t bytes, char *out, size_t n, size_t es, const char *id)
{
    rebuild_t r = {out, es, 0, 0, 0};
    size_t i;

    for (i = 0; i < n; i++)
        memcpy(out + i * es, id, es);
    return papcoll__sparse_runs(msg, bytes, n, es, put_run, &r) || r.bad;
}

/* Merges the encodings of lo and hi, checks the result against the
 * element-wise product and leaves it in lo (so chains multiply). */
static void merge_one(char *lo, const char *hi, size_t n, size_t es, const char *id, const char *what)
{
    size_t bound = papcoll__sparse_bound(n, es), lb, hb, mb = 0, runs = 0, kept = 0, i;
    char *le = malloc(bound), *he = malloc(bound), *me = malloc(bound), *want = malloc(n * es + 1),
         *got = malloc(n * es + 1);
    op_arg_t o = {es, id, 0, 0};
    int rc;

    lb = papcoll__sparse_encode(lo, n, es, id, le);
    hb = papcoll__sparse_encode(hi, n, es, id, he);
    expect_mix(lo, hi, want, n, es, id);
    rc = papcoll__sparse_merge(le, lb, he, hb, n, es, id, op_mix, &o, me, &mb);
    check(rc == 0 && mb <= bound, "merge %s n=%zu es=%zu: rc %d, %zu bytes", what, n, es, rc, mb);
    check(rc == 0 && decode(me, mb, got, n, es, id) == 0 && memcmp(got, want, n * es) == 0,
          "merge %s n=%zu es=%zu: wrong product", what, n, es);
    for (i = 0; i < n; i++) { /* the union of both operands' runs */
        int in = memcmp(lo + i * es, id, es) != 0 || memcmp(hi + i * es, id, es) != 0;
        int prev = i > 0 && (memcmp(lo + (i - 1) * es, id, es) != 0 || memcmp(hi + (i - 1) * es, id, es) != 0);

        kept += in;
        runs += in && !prev;
    }
    check(mb == (4 + 8 * runs + kept * es < bound ? 4 + 8 * runs + kept * es : bound),
          "merge %s n=%zu es=%zu: %zu bytes for %zu runs of %zu elements", what, n, es, mb, runs, kept);
    memcpy(lo, want, n * es);
    free(le), free(he), free(me), free(want), free(got);
}

static void merges(size_t n, size_t es, double dl, double dh, int runlen)
{
    char id[16], *lo = malloc(n * es + 1), *hi = malloc(n * es + 1);
    size_t j;
    int step;

    for (j = 0; j < es; j++)
        id[j] = (char)(rnd() & 0xff);
    fill(lo, n, es, id, dl, runlen);
    for (step = 0; step < 3; step++) { /* lo absorbs three values in turn */
        fill(hi, n, es, id, dh, runlen);
        merge_one(lo, hi, n, es, id, step == 0 ? "pair" : "chain");
    }
    free(lo), free(hi);
}

/* An invalid operand writes nothing; the operation's error stops the merge. */
static void merge_errors(void)
{
    uint32_t a[8] = {1, 2, 3, 7, 7, 7}, b[8] = {1, 0, 4, 9, 9, 9, 9}, out[16], both = 9, seven = 7, id = 0;
    op_arg_t o = {4, (const char *)&id, 0, 1};
    size_t mb = 0;

    out[0] = 0xdeadbeef;
    check(papcoll__sparse_merge((char *)a, 4 * 6, (char *)b, 4 * 7 - 1, 10, 4, &id, op_mix, &o, (char *)out, &mb) ==
                  1 &&
              out[0] == 0xdeadbeef && o.calls == 0,
          "a truncated operand was merged");
    a[2] = 12; /* a run past n */
    check(papcoll__sparse_merge((char *)a, 4 * 6, (char *)b, 4 * 7, 10, 4, &id, op_mix, &o, (char *)out, &mb) == 1,
          "a run past n was merged");
    a[2] = 3;
    check(papcoll__sparse_merge((char *)a, 4 * 6, (char *)b, 4 * 7, 10, 4, &id, op_mix, &o, (char *)out, &mb) == -9,
          "the operation's error was not returned");
    o.fail_at = 0;
    op_mix(&o, (char *)&seven, (char *)&both, 1); /* elements 2 and 3: 7 (op) 9 */
    check(papcoll__sparse_merge((char *)a, 4 * 6, (char *)b, 4 * 7, 10, 4, &id, op_mix, &o, (char *)out, &mb) == 0 &&
              mb == 4 * (3 + 5) && out[0] == 1 && out[1] == 0 && out[2] == 5 && out[3] == 9 && out[4] == 9 &&
              out[5] == both && out[6] == both && out[7] == 7,
          "runs [0,4) and [2,5) did not make [0,5)");
}

int main(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 7, 64, 255, 1000, 3000};
    static const size_t esz[] = {1, 4, 8, 12, 16};
    static const double dens[] = {0, 0.5, 0.9, 0.99, 1};
    size_t a, b, c;
    int t;

    unit_name = "test_sparse";
    for (a = 0; a < sizeof(sizes) / sizeof(sizes[0]); a++)
        for (b = 0; b < sizeof(esz) / sizeof(esz[0]); b++)
            for (c = 0; c < sizeof(dens) / sizeof(dens[0]); c++)
                for (t = 0; t < 6; t++)
                    one(sizes[a], esz[b], dens[c], t < 3 ? 3 : 200);
    malformed();
    for (a = 0; a < sizeof(sizes) / sizeof(sizes[0]); a++)
        for (b = 0; b < sizeof(esz) / sizeof(esz[0]); b++)
            for (c = 0; c < sizeof(dens) / sizeof(dens[0]); c++)
                for (t = 0; t < (int)(sizeof(dens) / sizeof(dens[0])); t++)
                    merges(sizes[a], esz[b], dens[c], dens[t], (a + c + t) % 2 ? 3 : 200);
    merge_errors();
    return unit_summary();
}
