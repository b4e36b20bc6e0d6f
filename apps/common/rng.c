/*
 * xoshiro256** with splitmix64 seeding, and samplers (see rng.h).
 */
#include "rng.h"

#include <math.h>

#define GOLDEN 0x9E3779B97F4A7C15ULL
/* M_PI is not part of strict C11 / POSIX. */
#define TWO_PI 6.283185307179586476925286766559

uint64_t rng_mix64(uint64_t x)
{
    x += GOLDEN;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

uint64_t rng_hash(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    size_t i;

    h = h ? h : 0xCBF29CE484222325ULL; /* the FNV offset basis */
    for (i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ULL;
    return h;
}

void rng_init(rng_t *r, uint64_t seed, uint64_t stream)
{
    /* Different streams of one seed must not overlap in their seeding walk. */
    uint64_t x = rng_mix64(seed) ^ rng_mix64(stream ^ 0xD1B54A32D192ED03ULL);
    int i;

    for (i = 0; i < 4; i++) {
        x += GOLDEN;
        r->s[i] = rng_mix64(x);
    }
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_uniform(rng_t *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

double rng_normal(rng_t *r, double mu, double sigma)
{
    double u1 = 1.0 - rng_uniform(r); /* (0, 1]: log(u1) is finite */
    double u2 = rng_uniform(r);

    return mu + sigma * sqrt(-2.0 * log(u1)) * cos(TWO_PI * u2);
}

double rng_gamma(rng_t *r, double k, double theta)
{
    double d, c, x, v, u;

    /* Shape < 1: boost to k + 1 and scale by U^(1/k) (Marsaglia & Tsang, Sect. 6). */
    if (k < 1.0) {
        u = 1.0 - rng_uniform(r);
        return rng_gamma(r, k + 1.0, theta) * pow(u, 1.0 / k);
    }
    d = k - 1.0 / 3.0;
    c = 1.0 / sqrt(9.0 * d);
    for (;;) {
        do {
            x = rng_normal(r, 0.0, 1.0);
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        u = rng_uniform(r);
        if (u < 1.0 - 0.0331 * x * x * x * x)
            return d * v * theta;
        if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
            return d * v * theta;
    }
}

int rng_bernoulli(rng_t *r, double p)
{
    return rng_uniform(r) < p;
}
