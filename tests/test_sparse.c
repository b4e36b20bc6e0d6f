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
 *   - a callback's non-zero return stops the walk and is returned.
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
    return unit_summary();
}
