/*
 * Element types and self-checking buffer contents for papbench (pure, no MPI).
 *
 * Every element's value is a hash of (tag, owner, index): tag is unique per
 * collective call, owner is the rank whose block it is.  A block that lands
 * at the wrong place, a stale block from an earlier call, a missing or
 * truncated block all fail the byte-for-byte comparison in data_check().
 * Floating-point values are kept normal numbers in [1, 2) so that no NaN or
 * denormal pattern can be altered if anything on the way touches them as
 * floats.
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

#endif /* PAPBENCH_DATA_H */
