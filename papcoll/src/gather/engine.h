/*
 * Shared gather engines: one per tree shape, the algorithm files are thin
 * wrappers that pick plan and placement (engine_linear.c, engine_binomial.c).
 */
#ifndef PAPCOLL_GATHER_ENGINE_H
#define PAPCOLL_GATHER_ENGINE_H

#include "algo.h"

/* Linear synchronized (LS): a leaf's side, the root's pull of one leaf,
 * the size check of the B segments, and the root's loop (order NULL: ranks). */
int papcoll__gather_ls_leaf(const papcoll__args_t *a);
int papcoll__ls_pull(MPI_Comm comm, int r, char *dst, size_t bytes, MPI_Request *req_b, int bg);
int papcoll__ls_check_b(int n, const MPI_Status *sts, size_t bytes);
int papcoll__gather_ls_engine(const papcoll__args_t *a, const int *order);
/* Binomial tree with the plan's placement. */
int papcoll__gather_bn_engine(const papcoll__args_t *a);

#endif
