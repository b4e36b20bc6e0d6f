/*
 * The call path (call.c).  Not installed.
 */
#ifndef PAPCOLL_CALL_H
#define PAPCOLL_CALL_H

#include "args.h"

/* One collective call on site: a holds the user's arguments (u_*, root,
 * sig.mop); pat: an explicit PAT (NULL: the monitor's prediction). */
int papcoll__call(papcoll_site_t *site, papcoll_op_t op, const double *pat, papcoll__args_t *a);

#endif
