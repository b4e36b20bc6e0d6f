/*
 * Internals shared by the writer and the reader of libpaptrace: the HDF5
 * types of trace/SCHEMA.md and small attribute helpers.  Only trace/src
 * includes this header (and with it hdf5.h).
 */
#ifndef PAPTRACE_INTERNAL_H
#define PAPTRACE_INTERNAL_H

#include <hdf5.h>
#include <pthread.h>

#include "paptrace.h"

#define PT_HOST_LEN 256 /* bytes of a host name in /ranks, NUL included */
#define PT_ALGO_LEN 32  /* bytes of an algorithm name in /algorithms/<op> */

/* Row of /ranks. */
typedef struct {
    int rank;
    long long pid;
    char host[PT_HOST_LEN];
} pt_rankinfo_t;

/* Row of /algorithms/<op>. */
typedef struct {
    int id;
    char name[PT_ALGO_LEN];
} pt_algo_t;

/* In-memory compound types of the datasets (file types are packed copies). */
typedef struct {
    hid_t rec;      /* papcoll_rank_record_t: /sites/<id>/ranks */
    hid_t iter;     /* paptrace_iter_t: /sites/<id>/iters */
    hid_t clock;    /* paptrace_clock_row_t: /clock */
    hid_t rankinfo; /* pt_rankinfo_t: /ranks */
    hid_t algo;     /* pt_algo_t: /algorithms/<op> */
    hid_t decision; /* paptrace_decision_t: /sites/<id>/decisions */
} pt_types_t;

/* Creates the memory types; on failure every handle is H5I_INVALID_HID. */
int pt_types_create(pt_types_t *t);
void pt_types_close(pt_types_t *t);

/* HDF5's automatic error printing, switched off around our calls and restored. */
typedef struct {
    H5E_auto2_t func;
    void *data;
} pt_quiet_t;

void pt_quiet_begin(pt_quiet_t *q);
void pt_quiet_end(const pt_quiet_t *q);

/* Scalar attributes: 0 or a negative error. */
int pt_attr_write_str(hid_t obj, const char *name, const char *value);
int pt_attr_write_int(hid_t obj, const char *name, long long value);
/* A 1-D fixed-length string attribute of n strings (n may be 0). */
int pt_attr_write_strs(hid_t obj, const char *name, char *const *values, int n);

/* Reads a scalar fixed-length string attribute (malloc'ed), NULL on error. */
char *pt_attr_read_str(hid_t obj, const char *name);
int pt_attr_read_int(hid_t obj, const char *name, long long *value);
/* Reads a 1-D string attribute into a malloc'ed array of n malloc'ed strings. */
int pt_attr_read_strs(hid_t obj, const char *name, char ***values, int *n);

/* Closes an HDF5 handle of any kind if it is valid; sets it invalid. */
void pt_close(hid_t *id);

/* A call site as the writer sees it: buffered rows not yet in the file. */
typedef struct {
    int known;          /* a record of this site_id has arrived */
    int created;        /* /sites/<site_id> exists */
    char *name;
    papcoll_op_t op;
    int root;           /* of the first record (group attribute) */
    long long bytes;
    long long count;
    char *datatype;
    char **places;      /* paptrace_site_places: one per rank, or NULL */
    long nbuf, cap;     /* buffered iterations */
    papcoll_rank_record_t *buf; /* cap x nranks */
    paptrace_iter_t *ibuf;      /* cap */
    long ndbuf, dcap;   /* buffered decisions (calls with a reason) */
    paptrace_decision_t *dbuf;  /* dcap */
} pt_wsite_t;

/* An open trace.  Every rank has one; only rank 0's has a file. */
struct paptrace {
    pthread_mutex_t lock; /* the sink's callbacks and paptrace_close */
    papcoll_ctx_t *ctx;   /* NULL for paptrace_create */
    MPI_Comm comm;
    int rank;
    char *path;
    hid_t fapl;           /* libver latest: SWMR needs the 1.10 format */
    hid_t file;
    pt_types_t mt;        /* memory types */
    hid_t ft_iter;        /* packed file type of the iters rows */
    hid_t ft_decision;    /* packed file type of the decisions rows */
    int has_algos[PAPCOLL_OP_COUNT]; /* /algorithms/<op> exists */
    int nranks;
    int flush_every;
    long clock_rows;
    pt_wsite_t *sites;    /* indexed by site_id */
    int nsites;
    int err;              /* first error: the sink refuses what follows */
};

/* A handle without file (ranks other than 0; the start of paptrace_create). */
int pt_handle_new(paptrace_t **out);
/* Writes pending rows, closes the file (rank 0); keeps t.  Returns the first error. */
int pt_finish_file(paptrace_t *t);
/* Frees a handle whose file is closed. */
void pt_handle_free(paptrace_t *t);

#endif /* PAPTRACE_INTERNAL_H */
