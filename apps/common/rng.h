/*
 * A small reproducible random number generator and the samplers the
 * programs need (pure, no MPI, no global state).
 *
 * xoshiro256** (Blackman & Vigna) seeded through splitmix64.  A generator is
 * identified by (seed, stream): every rank that initialises one with the same
 * pair draws the same sequence, which is how the benchmark makes all ranks
 * agree on a delay vector without communicating.
 */
#ifndef APPS_RNG_H
#define APPS_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t s[4];
} rng_t;

/* splitmix64 finaliser: a bijective 64-bit mix, also a cheap hash. */
uint64_t rng_mix64(uint64_t x);

/* 64-bit FNV-1a digest of n bytes, continuing from h (0 to start): compares
 * texts and tables between ranks, not a cryptographic hash. */
uint64_t rng_hash(const void *p, size_t n, uint64_t h);

/* Initialises r for the given seed and stream (e.g. the iteration number). */
void rng_init(rng_t *r, uint64_t seed, uint64_t stream);

/* Next 64 random bits. */
uint64_t rng_next(rng_t *r);

/* Uniform double in [0, 1). */
double rng_uniform(rng_t *r);

/* Normal(mu, sigma) by the Box-Muller transform (one value per call). */
double rng_normal(rng_t *r, double mu, double sigma);

/* Gamma(shape k > 0, scale theta > 0) by Marsaglia & Tsang (2000). */
double rng_gamma(rng_t *r, double k, double theta);

/* 1 with probability p, else 0. */
int rng_bernoulli(rng_t *r, double p);

#endif /* APPS_RNG_H */
