/*
 * Element types, reduction operations and self-checking buffer contents for
 * papbench (pure, no MPI).
 *
 * Moved data (gather, scatter, bcast): every element's value is a hash of
 * (tag, owner, index): tag is unique per collective call, owner is the rank
 * whose block it is.  A block that lands at the wrong place, a stale block
 * from an earlier call, a missing or truncated block all fail the
 * byte-for-byte comparison in data_check().  Floating-point values are kept
 * normal numbers in [1, 2) so that no NaN or denormal pattern can be
 * altered if anything on the way touches them as floats.
 *
 * Reduced data (reduce, allreduce): rank r's element i is built from hashes
 * of (tag, i) and (tag, r) so that the result of every operation has a
 * closed form (checked in O(count + P), not by folding P vectors) and is
 * exact in every type and every order of combination: small integers for
 * sum (A_i + B_r: sum P A_i + sum_r B_r), max and min (A_i + (i + r) mod P:
 * A_i + P - 1 and A_i), prod (+-1, and m_i in {2, 3, 4} on one rank s_i:
 * +-m_i), one bit cleared (band) or set (bor) at position (h_i + r) mod W
 * of a W-bit type (A_i, m_i, s_i, h_i hashed from (tag, i)).  A missing,
 * doubled, shifted or stale contribution changes the result (max and min:
 * where the rank holds the extreme; band and bor: while P is below the
 * type's bits, 32 for int, 8 for byte).
 */
#ifndef PAPBENCH_DATA_H
#define PAPBENCH_DATA_H

#include <stddef.h>
#include <stdint.h>

typedef enum { ELEM_FLOAT, ELEM_DOUBLE, ELEM_INT, ELEM_BYTE, ELEM_NTYPES } elem_type_t;

/* Type called name ("float", "double", "int", "byte"), or -1. */
int elem_find(const char *name);
const char *elem_name(elem_type_t t);
size_t elem_size(elem_type_t t);

/* Fills count elements of the block of owner for the call tagged tag. */
void data_fill(void *buf, elem_type_t t, size_t count, uint64_t tag, int owner);

/* Index of the first element that differs from data_fill's content, or -1. */
long long data_check(const void *buf, elem_type_t t, size_t count, uint64_t tag, int owner);

/* Overwrites a receive buffer so that a call that writes nothing is caught. */
void data_poison(void *buf, size_t bytes);

typedef enum { RED_SUM, RED_MAX, RED_MIN, RED_PROD, RED_BAND, RED_BOR, RED_NOPS } red_op_t;

/* Operation called name ("sum", ..., "bor"), or -1. */
int red_find(const char *name);
const char *red_name(red_op_t op);

/* 1 when MPI defines op on t: sum, max, min, prod on float, double, int;
 * band, bor on int and byte (MPI_BYTE takes only the bitwise ones). */
int red_valid(red_op_t op, elem_type_t t);

/* Rank rank's contribution (count elements) of nprocs to the call tagged tag. */
void data_fill_reduce(void *buf, elem_type_t t, red_op_t op, size_t count, uint64_t tag, int rank,
                      int nprocs);

/* Index of the first element of buf that differs from rank's contribution, or -1. */
long long data_check_contribution(const void *buf, elem_type_t t, red_op_t op, size_t count, uint64_t tag,
                                  int rank, int nprocs);

/* Index of the first element of buf that is not the reduction of all nprocs
 * contributions, or -1. */
long long data_check_reduce(const void *buf, elem_type_t t, red_op_t op, size_t count, uint64_t tag,
                            int nprocs);

#endif /* PAPBENCH_DATA_H */
