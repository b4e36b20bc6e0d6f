/*
 * Shared scatter engines: one per tree shape, the algorithm files are thin
 * wrappers that pick plan and placement (engine_linear.c, engine_binomial.c).
 */
#ifndef PAPCOLL_SCATTER_ENGINE_H
#define PAPCOLL_SCATTER_ENGINE_H

#include "algo.h"

/* Linear: the root serves the leaves in order (NULL: ranks). */
int papcoll__scatter_lin_root(const papcoll__args_t *a, const int *order);
int papcoll__scatter_lin_engine(const papcoll__args_t *a, const int *order);
/* Binomial tree with the plan's placement: the root's part, and all of it. */
int papcoll__scatter_bn_root(const papcoll__args_t *a, const int *v2r);
int papcoll__scatter_bn_engine(const papcoll__args_t *a);

#endif
