/*
 * Serial unit tests of the reduce family's pure parts (papcoll/src/reduce/
 * engine.h); no MPI communication.
 *
 *   radix vectors  papcoll__radix_vector: the examples of reduce_radixk.c,
 *                  then for every P in 1..3000 and K in {2,3,4,5,8,16,64}:
 *                  product P, factors ascending, each >= 2 and <= K unless a
 *                  prime, at least ceil(log_K P) of them; an explicit vector
 *                  comes back as given.
 *   segments       papcoll__model_segments (Clairvoyant's N): the linear
 *                  model's optimum where it gives segments under the cap,
 *                  raised to ceil(count / max) where it does not (2 MiB on
 *                  the emulated cluster's model: 26 -> 33 segments of at most
 *                  65472 bytes), never above count, 1 without pipeline depth.
 *   density        papcoll__model_density (the largest valid value rounded
 *                  up to 1/16, NaN and out-of-range values skipped, 1 when
 *                  none) and papcoll__model_sparse_segments: density 1 is
 *                  the dense count; the cap counts encoded bytes (8 MiB on
 *                  the emulated cluster's model: 129 dense, the model's
 *                  53 at a quarter, the cap's 65 at a half).
 * Exit status 1 when anything failed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "p2p.h"
#include "reduce/engine.h"
#include "unit.h"

/* ------------------------------------------------------------ radix vectors */

static int is_prime(int x)
{
    int d;

    for (d = 2; (long long)d * d <= x; d++)
        if (x % d == 0)
            return 0;
    return x >= 2;
}

/* Prime factors of x, with multiplicity. */
static int prime_factors(int x)
{
    int d, n = 0;

    for (d = 2; (long long)d * d <= x; d++)
        while (x % d == 0)
            x /= d, n++;
    return n + (x > 1);
}

static void radix_example(int P, int K, int n, const int *want)
{
    int k[PAPCOLL__RADIX_MAX], r = papcoll__radix_vector(P, K, NULL, 0, k), i, same = r == n;

    for (i = 0; same && i < n; i++)
        same = k[i] == want[i];
    check(same, "radix_vector(P=%d, K=%d): %d factors, first %d, expected %d factors", P, K, r,
          r > 0 ? k[0] : 0, n);
}

static void test_radix(void)
{
    static const int Ks[] = {2, 3, 4, 5, 8, 16, 64};
    int k[PAPCOLL__RADIX_MAX], vec[3] = {4, 2, 3}, P, i, j, r, bad, nf;
    long long prod, pw;

    radix_example(128, 8, 3, (const int[]){4, 4, 8});
    radix_example(8, 8, 1, (const int[]){8});
    radix_example(12, 8, 2, (const int[]){3, 4});
    radix_example(13, 8, 1, (const int[]){13});
    radix_example(27, 8, 3, (const int[]){3, 3, 3});
    radix_example(1000, 8, 4, (const int[]){5, 5, 5, 8});
    radix_example(16, 2, 4, (const int[]){2, 2, 2, 2});
    radix_example(1, 8, 0, NULL);
    r = papcoll__radix_vector(24, 8, vec, 3, k);
    check(r == 3 && k[0] == 4 && k[1] == 2 && k[2] == 3, "an explicit vector does not come back as given");
    for (i = 0; i < (int)(sizeof(Ks) / sizeof(Ks[0])); i++)
        for (P = 1; P <= 3000; P++) {
            r = papcoll__radix_vector(P, Ks[i], NULL, 0, k);
            for (prod = 1, bad = 0, j = 0; j < r; j++) {
                prod *= k[j];
                bad |= k[j] < 2 || (k[j] > Ks[i] && !is_prime(k[j])) || (j > 0 && k[j] < k[j - 1]);
            }
            for (pw = 1, j = 0; pw < P; j++)
                pw *= Ks[i];
            nf = prime_factors(P);
            check(
                prod == P && !bad && r >= (j < nf ? j : nf) && r <= nf,
                "radix_vector(P=%d, K=%d): %d factors (ceil(log_K P) = %d, %d prime factors), product %lld, "
                "a factor out of order or range: %d",
                P, Ks[i], r, j, nf, prod, bad);
        }
}

/* ------------------------------------------------------------ segments */

static const papcoll__model_t seg_model = {.v = {50e-6, 8.33e-9, 0.025e-9}}; /* the emulated cluster's */

static void seg_is(int P, int bytes, int max, int want)
{
    int N = papcoll__model_segments(&seg_model, P, (size_t)bytes, bytes, max);

    check(N == want, "segments(P=%d, %d bytes, max %d) = %d, expected %d", P, bytes, max, N, want);
}

/* The round alpha, where the model has one, replaces alpha in N and d. */
static void test_round_alpha(void)
{
    papcoll__model_t r = {.v = {30e-6, 8e-9, 0, 8e-9, 75e-6}}, a = r;
    double d;

    a.v[PAPCOLL__M_RALPHA] = 0;
    check(papcoll__model_segments(&r, 8, 131072, 131072, 0) == 5,
          "segments with a round alpha of 75 us: %d, expected round(sqrt(2 * 2^17 * 8e-9 / 75e-6)) = 5",
          papcoll__model_segments(&r, 8, 131072, 131072, 0));
    check(papcoll__model_segments(&a, 8, 131072, 131072, 0) == 8,
          "segments without a round alpha: %d, expected alpha's round(sqrt(2 * 2^17 * 8e-9 / 30e-6)) = 8",
          papcoll__model_segments(&a, 8, 131072, 131072, 0));
    d = papcoll__model_round(&r, 1000);
    check(fabs(d - 83e-6) < 1e-12, "round time with a round alpha: %g, expected 75e-6 + 1000 * 8e-9", d);
    d = papcoll__model_round(&a, 1000);
    check(fabs(d - 38e-6) < 1e-12, "round time without a round alpha: %g, expected 30e-6 + 1000 * 8e-9", d);
}

static void test_segments(void)
{
    const papcoll__model_t m = seg_model;
    int P, N, cnt, max;

    seg_is(8, 131072, 0, 7);       /* sqrt(2 * 2^17 (beta + gamma) / alpha) */
    seg_is(8, 131072, 65472, 7);   /* 18.7 KB segments: under the cap */
    seg_is(8, 2097152, 0, 26);     /* 80.7 KB segments ... */
    seg_is(8, 2097152, 65472, 33); /* ... raised to 63.6 KB */
    seg_is(8, 4194304, 65472, 65); /* the model's 37 */
    seg_is(2, 4194304, 65472, 1);  /* no pipeline depth */
    check(papcoll__model_segments(&m, 8, 2097152, 20, 65472) == 20, "segments: not at most count 20");
    for (P = 3; P <= 64; P += 7)
        for (cnt = 1; cnt <= 1 << 22; cnt = cnt * 3 + 1)
            for (max = 1; max <= 1 << 20; max *= 5) {
                N = papcoll__model_segments(&m, P, (size_t)cnt * 4, cnt, max);
                check(N >= 1 && N <= cnt && (cnt - 1) / N + 1 <= max, "segments(P=%d, count %d, max %d) = %d",
                      P, cnt, max, N);
            }
}

static void test_density(void)
{
    const double nan = NAN;
    double x[8] = {0.30, nan, 0.12, 0, 1.5, -1, 0.01, nan}, one = 1;
    size_t mb = 1u << 20;
    int P, n;

    check(papcoll__model_density(x, 8, 1) == 5.0 / 16, "density of 0.30 is %g, not 5/16",
          papcoll__model_density(x, 8, 1));
    check(papcoll__model_density(x + 1, 3, 2) == 1, "density without a valid value is %g, not 1",
          papcoll__model_density(x + 1, 3, 2)); /* NaN, 0, -1 */
    check(papcoll__model_density(x + 6, 1, 1) == 1.0 / 16, "density of 0.01 is %g, not 1/16",
          papcoll__model_density(x + 6, 1, 1));
    check(papcoll__model_density(&one, 1, 1) == 1, "density of 1 is %g", papcoll__model_density(&one, 1, 1));
    check(papcoll__model_density(x, 0, 1) == 1, "density of nothing is not 1");
    n = papcoll__model_sparse_segments(&seg_model, 8, 8 * mb, 1, 65472);
    check(n == 129, "8 MiB dense: %d segments, expected 129", n);
    n = papcoll__model_sparse_segments(&seg_model, 8, 8 * mb, 0.25, 65472);
    check(n == papcoll__model_segments(&seg_model, 8, 8 * mb, (int)(8 * mb), 0) && n == 53,
          "8 MiB at density 1/4: %d segments, expected the model's 53 (the cap needs only 33)", n);
    n = papcoll__model_sparse_segments(&seg_model, 8, 8 * mb, 0.5, 65472);
    check(n == 65, "8 MiB at density 1/2: %d segments, expected 65 (the cap above the model's 53)", n);
    for (P = 2; P <= 64; P = P * 2 + 1)
        for (n = 1; n <= 16; n++) {
            size_t bytes = (size_t)n * 777777;

            check(papcoll__model_sparse_segments(&seg_model, P, bytes, 1, 65472) ==
                      papcoll__model_segments(&seg_model, P, bytes, (int)bytes, 65472),
                  "P %d, %zu bytes: density 1 is not the dense count", P, bytes);
            check(papcoll__model_sparse_segments(&seg_model, P, bytes, 1.0 / 16, 65472) <=
                      papcoll__model_sparse_segments(&seg_model, P, bytes, 1, 65472),
                  "P %d, %zu bytes: sparser data, more segments", P, bytes);
        }
}

int main(void)
{
    unit_name = "test_reduce";
    test_radix();
    test_segments();
    test_round_alpha();
    test_density();
    return unit_summary();
}
