/**
 * @file paptrace.h
 * @brief libpaptrace: papcoll's per-call records in one HDF5 file, and their reader.
 *
 * Writing (an MPI program):
 *
 * @code
 *   papcoll_init(MPI_COMM_WORLD, NULL, &ctx);
 *   papcoll_site_create(ctx, "result", PAPCOLL_OP_GATHER, NULL, &site);
 *   paptrace_meta_t meta = {"fft", argc, argv, config_text, 0};
 *   paptrace_open(ctx, MPI_COMM_WORLD, "run.h5", &meta, &trace);
 *   ... iterations ...
 *   papcoll_site_free(&site);
 *   paptrace_close(&trace);
 *   papcoll_finalize(&ctx);
 * @endcode
 *
 * Rank 0 writes the file; records reach it through papcoll's record sink
 * (papcoll_set_sink).  The layout is trace/SCHEMA.md; the file is written
 * in SWMR mode, so a reader can follow a running job and a killed job
 * leaves every flushed iteration readable.
 *
 * Every change of a site's algorithm is stored with its reason (the
 * record's reason: the site's decisions).
 *
 * Reading: paptrace_read() loads a whole trace into memory (bin/paptrace,
 * tests), schema 1 and 2.  Only libpaptrace includes hdf5.h; these types
 * are plain C.  The metrics over the records are papmetrics.h's, part of
 * libpaptrace too.
 *
 * Every function returns 0 or a negative PAPTRACE_ERR_* code;
 * paptrace_strerror() names it.
 */
#ifndef PAPTRACE_H
#define PAPTRACE_H

#include <stddef.h>

#include "papcoll.h"
#include "papmetrics.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Version of the file layout (trace/SCHEMA.md), stored as attribute schema_version. */
#define PAPTRACE_SCHEMA_VERSION 2

/** The oldest schema version paptrace_read() reads (1: no decisions recorded). */
#define PAPTRACE_SCHEMA_OLDEST 1

/** Iterations between flushes when paptrace_meta_t.flush_every is 0. */
#define PAPTRACE_FLUSH_DEFAULT 16

/** Error codes: XX(name, value, message); one list gives the enum and paptrace_strerror(). */
#define PAPTRACE_ERRNO_MAP(XX)                                                         \
    XX(OK, 0, "success")                                                               \
    XX(INVAL, -1, "invalid argument")                                                  \
    XX(NOMEM, -2, "out of memory")                                                     \
    XX(MPI, -3, "an MPI call failed")                                                  \
    XX(HDF5, -4, "an HDF5 call failed while writing the trace")                        \
    XX(SINK, -5, "papcoll_set_sink failed")                                            \
    XX(NOFILE, -6, "file not found or not readable")                                   \
    XX(NOTHDF5, -7, "not an HDF5 file (or truncated before its superblock)")           \
    XX(OPEN, -8, "HDF5 cannot open the file (truncated, corrupted, or still marked "   \
                 "open by a writer outside SWMR mode: h5clear -s FILE)")               \
    XX(FORMAT, -9, "not a paptrace file (no format = \"paptrace\" attribute)")         \
    XX(SCHEMA, -10, "unsupported schema version")                                      \
    XX(CORRUPT, -11, "truncated or corrupted trace")                                   \
    XX(NOSITE, -12, "no such call site")                                               \
    XX(RECORD, -13, "record does not match the trace (rank count or site)")             \
    XX(CREATE, -14, "cannot create the trace file (missing directory or no permission?)") \
    XX(OP, -15, "the trace names an operation this reader does not know")

/** Error codes, see PAPTRACE_ERRNO_MAP. */
typedef enum {
#define PAPTRACE__ERR_ENUM(name, value, msg) PAPTRACE_ERR_##name = (value),
    PAPTRACE_ERRNO_MAP(PAPTRACE__ERR_ENUM)
#undef PAPTRACE__ERR_ENUM
} paptrace_err_t;

/** Success; the same value as PAPTRACE_ERR_OK. */
#define PAPTRACE_OK 0

/** Message of an error code (never NULL). */
const char *paptrace_strerror(int err);

/*
 * Writing
 */

typedef struct paptrace paptrace_t;

/** What the program tells about itself. */
typedef struct {
    const char *program;     /**< e.g. "fft" */
    int argc;                /**< the command line, stored verbatim */
    char **argv;
    const char *config_text; /**< the full effective configuration as text, or NULL */
    int flush_every;         /**< iterations between flushes; 0 = PAPTRACE_FLUSH_DEFAULT */
} paptrace_meta_t;

/**
 * Collective over comm (the context's communicator).  Rank 0 creates path
 * (HDF5, SWMR), gathers hostnames and pids, stores the metadata and installs
 * the record sink with papcoll_set_sink.  Every rank returns the same status.
 */
int paptrace_open(papcoll_ctx_t *ctx, MPI_Comm comm, const char *path, const paptrace_meta_t *meta,
                  paptrace_t **out);

/**
 * Collective.  Call after every papcoll site is freed (their last records
 * arrive in papcoll_site_free) and before papcoll_finalize: removes the
 * sink, writes what is pending, closes the file.  *t becomes NULL.
 */
int paptrace_close(paptrace_t **t);

/**
 * Where each rank called site site_id (papcoll_site_id) from, e.g. the
 * interposer's "split_c+0x25e5" per rank: written as the string attribute
 * `places` ([nranks]) of /sites/<site_id> with the site's group.  Local;
 * rank 0's call counts (the others return PAPTRACE_OK).  Before the site's
 * first record reaches the file (PAPTRACE_ERR_INVAL after).
 */
int paptrace_site_places(paptrace_t *t, int site_id, char *const *places);

/** What paptrace_open learns from MPI and papcoll (rank 0's view of the run). */
typedef struct {
    int nranks;
    const char *const *hosts;  /**< nranks host names */
    const long long *pids;     /**< nranks process ids */
    const char *mpi_library;   /**< MPI_Get_library_version text */
    const char *clock_method;  /**< how papcoll synchronised the clocks */
} paptrace_run_t;

/**
 * The serial core of paptrace_open on rank 0, without MPI: creates path and
 * writes the metadata.  Records then go through the callbacks of
 * paptrace_sink(); paptrace_finish() writes what is pending and closes.
 * Tests and tools that produce records themselves use these directly.
 */
int paptrace_create(const char *path, const paptrace_meta_t *meta, const paptrace_run_t *run,
                    paptrace_t **out);

/** The sink whose callbacks append to t (valid until t is finished). */
papcoll_sink_t paptrace_sink(paptrace_t *t);

/** Writes pending records, closes the file, frees t; *t becomes NULL.  Returns the first error. */
int paptrace_finish(paptrace_t **t);

/*
 * Reading
 */

/** One call of a site: the per-iteration dataset row (SCHEMA.md, iters). */
typedef struct {
    int iter;         /**< the site's call index */
    int algo;         /**< algorithm id, see paptrace_algo_name() */
    int root;
    long long bytes;  /**< one rank's block */
    double plan_time; /**< s rank 0 spent predicting and planning (NaN: no plan) */
    double runtime;   /**< r = max exit - min arrival (s) */
    double elapsed;   /**< mean of exit - arrival (s) */
} paptrace_iter_t;

/** Bytes of a decision's reason and detail, NUL included (longer reasons end in "..."). */
#define PAPTRACE_REASON_LEN 256
#define PAPTRACE_DETAIL_LEN 256

/**
 * One change of algorithm: a call that ran another algorithm than the
 * site's previous call (its first call included), and why (SCHEMA.md,
 * decisions).  Stored only for such calls.
 */
typedef struct {
    int iter; /**< the site's call index */
    int algo; /**< the algorithm the call ran, see paptrace_algo_name() */
    char reason[PAPTRACE_REASON_LEN]; /**< papcoll_record_t.reason: the policy, each fallback step */
    char detail[PAPTRACE_DETAIL_LEN]; /**< the policy's inputs as "key=value ..." text; "" when none */
} paptrace_decision_t;

/** One call site, every iteration in memory. */
typedef struct {
    char *name;
    int site_id;
    papcoll_op_t op;
    char *datatype;   /**< MPI name of rank 0's datatype (first call) */
    long long count;  /**< elements of one rank's block (first call) */
    int nranks;
    long niters;
    paptrace_iter_t *iters;        /**< niters rows */
    papcoll_rank_record_t *ranks;  /**< niters x nranks, row k rank i at [k * nranks + i] */
    long ndecisions;
    paptrace_decision_t *decisions; /**< ndecisions, by call (none in schema 1 files) */
} paptrace_site_t;

/** One clock sample of one rank. */
typedef struct {
    double when, offset, drift, error;
} paptrace_clock_row_t;

/** A whole trace file. */
typedef struct {
    int schema_version;
    char *program;
    int argc;
    char **argv;
    char *config;       /**< "" when the program gave none */
    char *mpi_library;
    char *version;      /**< papcoll's git describe, or "unknown" */
    char *hdf5_version;
    char *start_utc;    /**< ISO 8601, e.g. 2024-05-01T12:00:00Z */
    char *clock_method;
    int flush_every;
    int nranks;
    char **hosts;       /**< nranks */
    long long *pids;    /**< nranks */
    long nclock;        /**< clock samples */
    paptrace_clock_row_t *clock; /**< nclock x nranks */
    int nalgos[PAPCOLL_OP_COUNT];   /**< 0: the file has no table of this operation */
    char **algos[PAPCOLL_OP_COUNT]; /**< id -> name per operation */
    int has_decisions;  /**< 1: the sites' decisions were recorded (schema 2 on) */
    int nsites;
    paptrace_site_t *sites;        /**< ordered by site_id */
} paptrace_file_t;

/**
 * Reads path into *out: schema versions PAPTRACE_SCHEMA_OLDEST up to
 * PAPTRACE_SCHEMA_VERSION, algorithm tables of any set of the operations
 * papcoll_ops.def lists.  On error writes one line (without program name)
 * into err, e.g. "run.h5: schema version 3, this reader knows 1 to 2" or
 * "run.h5: unknown operation 'alltoall' in /algorithms (this reader knows
 * gather, scatter, bcast, reduce, allreduce)".
 * Never prints; HDF5's own error printing is silenced during the call.
 */
int paptrace_read(const char *path, paptrace_file_t **out, char *err, size_t errlen);

/**
 * For programs that only read traces: call before any other libpaptrace
 * function.  HDF5 then skips its library shutdown at exit, which after a
 * damaged file was read may print an internal error ("infinite loop closing
 * library") on stderr although every handle was closed.
 */
void paptrace_reader_only(void);

void paptrace_file_free(paptrace_file_t **f);

/** The site called name, or NULL; a signature site of the interposer also by
 *  its name without the bracketed places ("gather/r0/96B"). */
const paptrace_site_t *paptrace_find_site(const paptrace_file_t *f, const char *name);

/**
 * Reading in pieces, for traces of any length: the head of the file (what
 * paptrace_read() gives, with every site's niters but its iters and ranks
 * NULL; the decisions are read, one row per change of algorithm) stays in
 * memory, the calls are read on demand.  Errors as paptrace_read().
 */
typedef struct paptrace_stream paptrace_stream_t;

int paptrace_stream_open(const char *path, paptrace_stream_t **out, char *err, size_t errlen);

/** The head; valid until the stream is closed. */
const paptrace_file_t *paptrace_stream_head(const paptrace_stream_t *s);

/**
 * Calls first .. first + n - 1 of head->sites[site] into iters[n] and
 * ranks[n * nranks] (row k rank i at [k * nranks + i]).
 */
int paptrace_stream_rows(paptrace_stream_t *s, int site, long first, long n, paptrace_iter_t *iters,
                         papcoll_rank_record_t *ranks);

void paptrace_stream_close(paptrace_stream_t **s);

/** Name of algorithm id of op in the file's table, or "?". */
const char *paptrace_algo_name(const paptrace_file_t *f, papcoll_op_t op, int algo);

/**
 * The arrival and exit times of a call's rank records r[0..nranks-1], as
 * the metrics of papmetrics.h take them (pm_runtime(), pm_elapsed(), ...).
 */
pm_call_t paptrace_call(const papcoll_rank_record_t *r, int nranks);

#ifdef __cplusplus
}
#endif
#endif /* PAPTRACE_H */
