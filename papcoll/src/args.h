/*
 * The arguments of one collective call (args.c): resolved once from the
 * user's MPI-style arguments by the operation's resolver (papcoll_ops.def),
 * so that every algorithm sees contiguous bytes.  Not installed.
 *
 * Two parts:
 *   - the signature, identical on every rank by MPI's rules (root, packed
 *     bytes, element count, the MPI_Op and whether it is commutative or
 *     predefined).  Selection, restrictions, fallbacks and plans depend on
 *     it alone, so every rank takes the same decision (DESIGN invariant 1);
 *   - this rank's buffers, packed into temporaries when the user's layout
 *     is not contiguous and the algorithm moves bytes (CONTIG_ONLY).  That
 *     is a local decision that changes no message.
 *
 * Buffers the algorithms see (all contiguous):
 *   gather    sbuf: own block (NULL: in place, it is rbuf's block root);
 *             rbuf: the root's P blocks
 *   scatter   sbuf: the root's P blocks; rbuf: own block (NULL: in place)
 *   bcast     rbuf: the vector on every rank (the root's is the input)
 *   reduce    sbuf: own vector (never aliases rbuf); rbuf: the root's result
 *   allreduce sbuf: own vector (never aliases rbuf); rbuf: the result
 * Algorithms never write sbuf.
 */
#ifndef PAPCOLL_ARGS_H
#define PAPCOLL_ARGS_H

#include <stddef.h>

#include "papcoll.h"

#include "exec.h"

/* What every rank shares about a call. */
typedef struct {
    int root;           /* -1: no root (allreduce) */
    size_t bytes;       /* packed bytes of one block (gather, scatter) or of the vector */
    int count;          /* elements of the user's datatype in bytes */
    size_t esize;       /* packed bytes of one element (bytes = count * esize) */
    MPI_Op mop;         /* reductions, else MPI_OP_NULL */
    int commutative;    /* reductions: MPI_Op_commutative */
    int builtin;        /* reductions: a predefined MPI_Op */
} papcoll__sig_t;

/* How packed elements are combined (reductions; args.c). */
typedef struct {
    MPI_Datatype basic;  /* predefined type the packed data is an array of, or MPI_DATATYPE_NULL */
    int per;             /* basic elements per user element */
    int contiguous;      /* the user's layout is the packed one */
    MPI_Datatype type;   /* the user's datatype */
    MPI_Aint extent, true_lb, true_extent;
    char *tmp_in, *tmp_io; /* unpacked scratch of count elements (user op on a gappy type) */
} papcoll__red_t;

typedef struct papcoll__args {
    papcoll__exec_t *x;  /* the site's execution view */
    const papcoll__plan_t *plan;
    papcoll_op_t op;
    MPI_Comm comm;      /* the site's data communicator */
    int rank, size;
    int root;           /* = sig.root */
    size_t bytes;       /* = sig.bytes */
    papcoll__sig_t sig;
    const char *sbuf;
    char *rbuf;
    papcoll__red_t red;
    /* The user's arguments, for the "mpi" baseline and for packing. */
    const void *u_sbuf;
    int u_scount;
    MPI_Datatype u_stype;
    void *u_rbuf;
    int u_rcount;
    MPI_Datatype u_rtype;
    /* Packing (args.c): temporaries, and what to unpack when the call ends. */
    char *tmp_s, *tmp_r;
    int unpack_r;       /* rbuf is tmp_r: unpack it into u_rbuf at the end */
    int nap;            /* the call's waits nap between polls: ranks share cores (p2p.c; local) */
    int u_rn;           /* elements of u_rtype to unpack */
} papcoll__args_t;

/* The argument resolvers of papcoll_ops.def: fill the signature and check
 * what this rank can check (counts, types, root, in-place sizes); they
 * allocate nothing. */
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) int papcoll__resolve_##name(papcoll__args_t *a);
#include "papcoll_ops.def"
#undef PAPCOLL_OP

/* Makes this rank's buffers contiguous for an algorithm with flags (its
 * algos.def line) that moves bytes (CONTIG_ONLY; packing what is not), and
 * for the MPI library's own reduction with a predefined MPI_Op on a derived
 * datatype of one basic type: MPI defines predefined operations on
 * predefined types only, so it runs packed, on the basic type.  Reductions
 * also get their combine method.  Local. */
int papcoll__args_prepare(papcoll__args_t *a, unsigned flags);
/* Only the combine method of a reduction (what papcoll__args_prepare adds
 * for one), for a run on scratch buffers; papcoll__args_finish frees it. */
int papcoll__args_prepare_combine(papcoll__args_t *a);
/* Unpacks results and frees the temporaries (also after a failure). */
int papcoll__args_finish(papcoll__args_t *a, int ok);

/* inout = in (op) inout over n elements of the user's datatype, packed:
 * MPI_Reduce_local's order (in holds the lower ranks' operand). */
int papcoll__reduce_local(const papcoll__args_t *a, const void *in, void *inout, int n);

#endif
