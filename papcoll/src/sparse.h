/*
 * Sparse vectors (sparse.c): a reduction site with an identity element
 * (papcoll_site_set_identity) lets algorithms flagged SPARSE move only the
 * elements that differ from it, the way IceT moves only active pixels.
 * Pure: no MPI.  Not installed.
 *
 * Encoding of n elements of es bytes (all fields uint32_t, native order:
 * both ends are ranks of one job):
 *   dense   DENSE, then the n elements
 *   runs    k (< DENSE), then k pairs (offset, length) in elements,
 *           ascending and disjoint, then the k runs' elements back to back
 * The encoder writes runs only when they are smaller than the dense form,
 * so a message never exceeds papcoll__sparse_bound(n, es) bytes.  A
 * holder that keeps its value encoded combines another's into it with
 * papcoll__sparse_merge, at a cost in the kept elements, not in n.
 */
#ifndef PAPCOLL_SPARSE_H
#define PAPCOLL_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#define PAPCOLL__SPARSE_DENSE UINT32_MAX

/* The largest encoding of n elements of es bytes: 4 + n es. */
size_t papcoll__sparse_bound(size_t n, size_t es);

/* Encodes src (n elements of es bytes) into out (papcoll__sparse_bound
 * bytes); elements equal to id (es bytes) are left out.  Returns the bytes
 * written.  n must be below 2^32 - 1. */
size_t papcoll__sparse_encode(const char *src, size_t n, size_t es, const void *id, char *out);

/* Calls fn(arg, offset, length, data) for each run of the message msg
 * (bytes long) of n elements of es bytes, in ascending order (a dense
 * message is one run of n elements); data points into msg, which fn may
 * overwrite.  Returns 0, fn's first non-zero return, or -1 for a message
 * that is not a valid encoding of n elements. */
int papcoll__sparse_runs(char *msg, size_t bytes, size_t n, size_t es,
                         int (*fn)(void *arg, size_t off, size_t len, char *data), void *arg);

/*
 * Combines the encodings lo (the lower ranks' operand, lo_bytes long) and
 * hi of n elements into out (papcoll__sparse_bound bytes, apart from both)
 * without expanding them: an element in a run of only one is copied (the
 * other's is the identity id), one in runs of both is hi's, copied, then
 * op(arg, lo's elements, out's, len) must make it lo (op) hi, in place.
 * The result is the dense form when runs would not be smaller, so the
 * work is in the runs' elements, not n, unless the result is dense.
 * Returns 0 with *bytes the result's size, op's first non-zero return (op
 * returns 0 or a negative code), or 1 when lo or hi is not a valid
 * encoding of n elements (before anything is written).
 */
int papcoll__sparse_merge(char *lo, size_t lo_bytes, char *hi, size_t hi_bytes, size_t n, size_t es,
                          const void *id, int (*op)(void *arg, char *lo, char *hi, size_t len), void *arg,
                          char *out, size_t *bytes);

#endif
