/**
 * @file papcoll.h
 * @brief papcoll: process-arrival-pattern (PAP) aware MPI collectives.
 *
 * The one public header of libpapcoll.  Typical use (Proficz 2020, Fig. 4):
 *
 * @code
 *   papcoll_ctx_t *ctx;  papcoll_site_t *site;
 *   papcoll_init(MPI_COMM_WORLD, NULL, &ctx);
 *   papcoll_site_create(ctx, "result", PAPCOLL_OP_GATHER, NULL, &site);
 *   for (it = 0; it < iters; it++) {
 *       papcoll_processing_start(site);
 *       compute_first_half();
 *       papcoll_edge(site, 0.5);
 *       compute_second_half();
 *       papcoll_processing_end(site);
 *       papcoll_gather(site, sbuf, n, MPI_FLOAT, rbuf, n, MPI_FLOAT, 0);
 *   }
 *   papcoll_site_free(&site);
 *   papcoll_finalize(&ctx);
 * @endcode
 *
 * Every function returns 0 (PAPCOLL_OK) or a negative PAPCOLL_ERR_* code;
 * papcoll_strerror() names it.  The library never aborts or exits.
 */
#ifndef PAPCOLL_H
#define PAPCOLL_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PAPCOLL_VERSION_MAJOR 0
#define PAPCOLL_VERSION_MINOR 2
#define PAPCOLL_VERSION_PATCH 0

/**
 * Error codes: XX(name, value, message).  One list generates the enum and
 * papcoll_strerror().
 */
#define PAPCOLL_ERRNO_MAP(XX)                                                       \
    XX(OK, 0, "success")                                                            \
    XX(INVAL, -1, "invalid argument")                                               \
    XX(NOMEM, -2, "out of memory")                                                  \
    XX(MPI, -3, "an MPI call failed")                                               \
    XX(ALGO, -4, "unknown algorithm name")                                          \
    XX(PREDICTOR, -5, "unknown or malformed predictor specification")               \
    XX(CONFIG, -6, "configuration file could not be read or parsed")               \
    XX(THREAD, -7, "the monitor thread could not be started")                       \
    XX(DATATYPE, -8, "datatype cannot be used (null, or not committed)")           \
    XX(TRUNCATE, -9, "message larger than the receive buffer")                      \
    XX(OP, -10, "call does not match the operation of the call site")              \
    XX(STATE, -11, "call out of order (e.g. edge without processing start)")       \
    XX(RESTRICT, -12, "the algorithm cannot serve this call and PAPCOLL_FALLBACK=error") \
    XX(AGREE, -13, "ranks hold different plans (PAPCOLL_CHECK=1 agreement check)") \
    XX(POLICY, -14, "unknown or malformed algorithm policy")

/** Error codes, see PAPCOLL_ERRNO_MAP. */
typedef enum {
#define PAPCOLL__ERR_ENUM(name, value, msg) PAPCOLL_ERR_##name = (value),
    PAPCOLL_ERRNO_MAP(PAPCOLL__ERR_ENUM)
#undef PAPCOLL__ERR_ENUM
} papcoll_err_t;

/** Success; the same value as PAPCOLL_ERR_OK. */
#define PAPCOLL_OK 0

/** Human-readable message for an error code (never NULL). */
const char *papcoll_strerror(int err);

/** Name of an error code, e.g. "PAPCOLL_ERR_ALGO" (never NULL). */
const char *papcoll_err_name(int err);

/** Collective operations a call site can perform (papcoll_ops.def). */
typedef enum {
#define PAPCOLL_OP(NAME, name, dflt, env, ini, kind) PAPCOLL_OP_##NAME,
#include "papcoll_ops.def"
#undef PAPCOLL_OP
    PAPCOLL_OP_COUNT
} papcoll_op_t;

/** Name of an operation ("gather", "reduce", ...), or "?" when out of range. */
const char *papcoll_op_name(papcoll_op_t op);

/** The operation called name, or PAPCOLL_ERR_INVAL. */
int papcoll_op_find(const char *name);

/** The default policy of op ("bsls", "mpi", ...), or NULL when out of range. */
const char *papcoll_op_default(papcoll_op_t op);

/** The environment variable of op's policy (PAPCOLL_<OP>_ALGORITHM), or NULL. */
const char *papcoll_op_env(papcoll_op_t op);

/** The key of op's policy in an INI file's [papcoll] section, or NULL. */
const char *papcoll_op_ini_key(papcoll_op_t op);

/**
 * Algorithm flags (algos.def).  Capabilities say how an algorithm works;
 * restrictions say which calls it cannot serve.  A call that an algorithm
 * cannot serve runs the algorithm's declared fallback instead (see
 * PAPCOLL_FALLBACK in papcoll_init); every rank decides that from what all
 * ranks share (operation, byte counts, commutativity, P), never from one
 * rank's buffers or datatype layout.
 */
enum {
    PAPCOLL_F_NEEDS_PAT = 1u << 0,  /**< orders ranks by predicted arrival */
    PAPCOLL_F_AGREE = 1u << 1,      /**< all ranks must share the plan (tree shape, schedule) */
    PAPCOLL_F_BACKGROUND = 1u << 2, /**< runs partly in the monitor thread (needs MPI_THREAD_MULTIPLE) */
    PAPCOLL_F_BASELINE = 1u << 3,   /**< the MPI library's own collective */
    PAPCOLL_F_SEGMENTED = 1u << 4,  /**< splits the vector into segments (pipelining) */
    PAPCOLL_F_MODEL = 1u << 5,      /**< plans with the alpha-beta-gamma model, measured when a site first uses it */
    PAPCOLL_F_SPARSE = 1u << 6,     /**< reduction: sends only non-identity elements */
    /* Restrictions and ordering. */
    PAPCOLL_F_COMMUTATIVE_ONLY = 1u << 8, /**< reduction: combines operands out of rank order */
    PAPCOLL_F_ORDERED = 1u << 9,          /**< reduction: keeps rank order (non-commutative ops) */
    PAPCOLL_F_CONTIG_ONLY = 1u << 10,     /**< moves bytes: non-contiguous buffers are packed locally */
    PAPCOLL_F_BUILTIN_OP_ONLY = 1u << 11, /**< reduction: predefined MPI_Op only */
    PAPCOLL_F_POW2 = 1u << 12             /**< power-of-two process counts only */
};

/** Number of algorithms of an operation. */
int papcoll_algo_count(papcoll_op_t op);

/** Name of algorithm i (0 <= i < papcoll_algo_count(op)), or NULL. */
const char *papcoll_algo_name(papcoll_op_t op, int i);

/** One-line summary of algorithm i, or NULL. */
const char *papcoll_algo_summary(papcoll_op_t op, int i);

/** PAPCOLL_F_* flags of algorithm i, or 0. */
unsigned papcoll_algo_flags(papcoll_op_t op, int i);

/** Index of the algorithm called name, or PAPCOLL_ERR_ALGO. */
int papcoll_algo_find(papcoll_op_t op, const char *name);

/**
 * Writes "name1 name2 ..." (the valid names of op) into buf; returns buf.
 * Used by programs to print a helpful error for an unknown name.
 */
const char *papcoll_algo_list(papcoll_op_t op, char *buf, size_t len);

/**
 * Checks a policy text for op as papcoll_site_create parses it, without a
 * context (local; a rules file is read): PAPCOLL_OK, PAPCOLL_ERR_ALGO for an
 * unknown algorithm, PAPCOLL_ERR_POLICY for the rest, with why in err.
 * *algo gets the algorithm a fixed policy names, -1 for a policy that
 * chooses per call (rules, auto).  For interposers and launchers that
 * check settings before any collective.
 */
int papcoll_policy_check(papcoll_op_t op, const char *policy, int *algo, char *err, size_t errlen);

/** Options of papcoll_init; zero-initialise and set what you need. */
typedef struct {
    /** INI file with a [papcoll] section, or NULL (then $PAPCOLL_CONFIG). */
    const char *config_file;
    /** Predictor spec (edge, last, sma:K, ewma:A), or NULL (env, config, "edge"). */
    const char *predictor;
    /** Per op: the default policy of new sites where neither
     *  $PAPCOLL_<OP>_ALGORITHM nor the INI key <op>_algorithm gives one
     *  (an application's best for its own pattern); NULL: papcoll_ops.def's. */
    const char *policy_default[PAPCOLL_OP_COUNT];
    /** 1: never start the monitor thread (B* algorithms run as their foreground versions). */
    int no_monitor;
    /** 1: do not print warnings to stderr. */
    int quiet;
    /** Re-estimate the global clock every this many calls of the first site
     *  created; 0: $PAPCOLL_CLOCK_RESYNC, then config key clock_resync, then
     *  1000; negative: never. */
    int clock_resync;
} papcoll_options_t;

/*
 * Environment variables read by papcoll_init (an INI key of the same role in
 * the [papcoll] section of the configuration file comes after them):
 *   PAPCOLL_<OP>_ALGORITHM / <op>_algorithm   default policy of new sites
 *       (over opts->policy_default[op], then papcoll_ops.def's)
 *   PAPCOLL_PREDICTOR / predictor             see papcoll_options_t
 *   PAPCOLL_CLOCK_RESYNC / clock_resync       see papcoll_options_t
 *   PAPCOLL_FALLBACK / fallback               warn (default), error, silent:
 *       what happens when a call's algorithm cannot serve it (restriction,
 *       no monitor thread): its declared fallback runs with one warning per
 *       site, the call fails with PAPCOLL_ERR_RESTRICT on every rank, or the
 *       fallback runs without a word
 *   PAPCOLL_SEGMENT_BYTES / segment_bytes     segment size of SEGMENTED
 *       (pipelined) algorithms and Clairvoyant's largest segment, default
 *       65472 (under Open MPI's 64 KiB eager limit); the same on every rank.
 *       Not given, the two-tree algorithms take the alpha-beta model's
 *       segment when it is smaller (many ranks, shorter vectors)
 *   PAPCOLL_CHECK / check                     1: every call first verifies that
 *       all ranks chose the same algorithm and plan (one extra allreduce per
 *       call; PAPCOLL_ERR_AGREE otherwise).  For debugging and tests.
 */

/** A papcoll context: one per communicator. */
typedef struct papcoll_ctx papcoll_ctx_t;

/** A call site: one collective in the program's iteration. */
typedef struct papcoll_site papcoll_site_t;

/**
 * Creates a context on comm (collective over comm).  Duplicates comm for
 * library traffic, reads options (argument > environment > config file >
 * default), starts the monitor thread when MPI_THREAD_MULTIPLE is available;
 * without it background algorithms degrade to their foreground versions with
 * one warning.
 */
int papcoll_init(MPI_Comm comm, const papcoll_options_t *opts, papcoll_ctx_t **ctx);

/** Frees the context (collective); sets *ctx to NULL.  Every site must be
 *  freed first (PAPCOLL_ERR_STATE otherwise). */
int papcoll_finalize(papcoll_ctx_t **ctx);

/** 1 when background algorithms really run in the background. */
int papcoll_has_monitor(const papcoll_ctx_t *ctx);

/** The predictor spec in use, e.g. "ewma:0.5". */
const char *papcoll_predictor(const papcoll_ctx_t *ctx);

/**
 * The context created by papcoll_init on comm (found in O(1) through an
 * attribute of comm), or NULL.  For interposers that see only communicators.
 */
papcoll_ctx_t *papcoll_ctx_from_comm(MPI_Comm comm);

/**
 * Creates a call site (collective over the context's communicator: every
 * rank creates its sites in the same order).  policy chooses the algorithm of
 * every call: "NAME" or "fixed:NAME" (always that algorithm, or its declared
 * fallback when it cannot serve a call); "rules:FILE" or "auto[:RATIO]" (chosen per call from the exchanged arrivals,
 * the same on every rank; every call then waits for its PAT exchange;
 * docs/policies.md); or NULL for the default of the op:
 * $PAPCOLL_<OP>_ALGORITHM, then the config file key <op>_algorithm, then
 * papcoll_options_t.policy_default[op], then the op's default (papcoll_ops.def).  An unknown algorithm returns
 * PAPCOLL_ERR_ALGO, an unknown policy or a bad rules file PAPCOLL_ERR_POLICY
 * (with FILE:LINE on stderr), as does a rules file that differs between
 * ranks.  A failure on some ranks only (a rules file one node cannot read,
 * memory) fails the creation on every rank: those ranks return their own
 * error, the others PAPCOLL_ERR_AGREE.  The context's first site whose algorithm is flagged
 * PAPCOLL_F_MODEL, or whose policy is rules or auto, measures the
 * alpha-beta-gamma model here (unless the options give it; docs/reduce.md).
 */
int papcoll_site_create(papcoll_ctx_t *ctx, const char *name, papcoll_op_t op,
                        const char *policy, papcoll_site_t **site);

/** The site's creation index in its context (the trace's /sites/<id>), or -1. */
int papcoll_site_id(const papcoll_site_t *site);

/**
 * Binds the receive buffer the site's future calls will use (gather: the
 * root's recvbuf; scatter: a non-root rank's recvbuf; bcast: a non-root
 * rank's buffer), like the buffers of an MPI persistent collective.  Background algorithms then receive straight
 * into it from the edge on instead of staging and copying at the call; the
 * application must not read or write it between papcoll_edge() and the
 * return of the collective.  Local (not collective); recvbuf == NULL unbinds.
 * A call with another buffer or count still works: the data is copied from
 * the bound buffer (and a different size returns PAPCOLL_ERR_TRUNCATE).
 * Needs a contiguous datatype (PAPCOLL_ERR_DATATYPE otherwise).
 */
int papcoll_site_bind_recv(papcoll_site_t *site, void *recvbuf, int recvcount,
                           MPI_Datatype recvtype);

/**
 * Declares the identity element of a reduce or allreduce site's operation
 * for its future calls: identity is one element of the calls' datatype,
 * packed (bytes bytes), with x op e = e op x = x for every x.  Algorithms
 * flagged PAPCOLL_F_SPARSE then move only the elements that differ from it,
 * run-length encoded (IceT's active pixels, for any operation); the others
 * ignore it, and so does a call whose element size is not bytes.  The
 * results are the same either way.  Collective: every rank passes the same
 * bytes (PAPCOLL_ERR_AGREE otherwise, and the site keeps none);
 * identity == NULL clears it.  PAPCOLL_ERR_INVAL on other sites.
 */
int papcoll_site_set_identity(papcoll_site_t *site, const void *identity, size_t bytes);

/** Frees a site (collective); sets *site to NULL. */
int papcoll_site_free(papcoll_site_t **site);

/** Name of the algorithm the site's next call runs when its arguments are
 *  like the previous call's (the policy's choice after any fallback); for
 *  rules and auto, which choose per call, the last call's. */
const char *papcoll_site_algo(const papcoll_site_t *site);

/** Index of that algorithm within its operation. */
int papcoll_site_algo_index(const papcoll_site_t *site);

/** The site's policy as text, e.g. "fixed:bsls". */
const char *papcoll_site_policy(const papcoll_site_t *site);

/** Changes the site's policy (collective: the same text on all ranks;
 *  between calls, not between an edge and its call).  The context's first
 *  switch to an algorithm flagged PAPCOLL_F_MODEL measures the model (a few
 *  ms to tens of ms; docs/reduce.md), as papcoll_site_create does.  A
 *  policy some ranks cannot take fails on every rank, as there. */
int papcoll_site_set_algo(papcoll_site_t *site, const char *policy);

/**
 * PAT monitor API (Proficz 2020, Sect. 3): the computation that precedes
 * the site's next collective starts, reaches the given fraction of its work,
 * and ends.  The edge estimates this rank's arrival as start + elapsed /
 * fraction and queues the call's job: the monitor thread exchanges the
 * estimates with all ranks, predicts the arrival pattern, decides the
 * algorithm, builds the plan and starts the background part of B*
 * algorithms.  The edge never waits (docs/architecture.md, "One call
 * path").  Skipping the edge is allowed: the collective then queues the job
 * itself and history predictors are used.
 */
int papcoll_processing_start(papcoll_site_t *site);
/** See papcoll_processing_start(); fraction in (0, 1]. */
int papcoll_edge(papcoll_site_t *site, double fraction);
/** See papcoll_processing_start(). */
int papcoll_processing_end(papcoll_site_t *site);

/*
 * The collectives.  Each has the arguments and semantics of its MPI
 * counterpart (MPI_IN_PLACE included), runs the algorithm the site's policy
 * chooses for the call, and returns 0 or a negative PAPCOLL_ERR_*.  Any
 * datatype MPI allows works, including derived ones and different type maps
 * of the same type signature on different ranks: algorithms move packed
 * bytes, non-contiguous buffers are packed and unpacked locally.
 *   gather, scatter, bcast: results byte-identical to MPI's.
 *   reduce, allreduce: identical for integer types, and for floating types
 *     reproducible run to run for a given algorithm and plan; a derived type
 *     of one basic type is reduced as that type after packing, other types
 *     (user operations on them, MINLOC pairs) on their unpacked layout.
 *     Non-commutative operations (MPI_Op_create with commute = 0) are served
 *     by ORDERED algorithms only; others fall back.
 */

/** MPI_Gather with the site's algorithm (MPI_IN_PLACE as sendbuf at the root). */
int papcoll_gather(papcoll_site_t *site, const void *sendbuf, int sendcount,
                   MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, int root);

/** MPI_Scatter with the site's algorithm (MPI_IN_PLACE as recvbuf at the root). */
int papcoll_scatter(papcoll_site_t *site, const void *sendbuf, int sendcount,
                    MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root);

/** MPI_Bcast with the site's algorithm. */
int papcoll_bcast(papcoll_site_t *site, void *buffer, int count, MPI_Datatype datatype, int root);

/** MPI_Reduce with the site's algorithm (MPI_IN_PLACE as sendbuf at the root). */
int papcoll_reduce(papcoll_site_t *site, const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, int root);

/** MPI_Allreduce with the site's algorithm (MPI_IN_PLACE as sendbuf everywhere). */
int papcoll_allreduce(papcoll_site_t *site, const void *sendbuf, void *recvbuf, int count,
                      MPI_Datatype datatype, MPI_Op op);

/**
 * Low-level entries with an explicit PAT vector (tests and benchmarks inject
 * exact, stale or adversarial predictions).  pat[i] is the predicted arrival
 * of rank i (any time base; only the order matters) and must hold the same
 * values on every rank for algorithms with PAPCOLL_F_AGREE.  pat == NULL
 * means "no prediction" (rank order).  Background algorithms run their
 * background part in the monitor thread from the moment of this call.
 * They do not use or update the site's predictor.
 */
int papcoll_gather_pat(papcoll_site_t *site, const double *pat, const void *sendbuf,
                       int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root);

/** Scatter counterpart of papcoll_gather_pat(). */
int papcoll_scatter_pat(papcoll_site_t *site, const double *pat, const void *sendbuf,
                        int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root);

/** Bcast counterpart of papcoll_gather_pat(). */
int papcoll_bcast_pat(papcoll_site_t *site, const double *pat, void *buffer, int count,
                      MPI_Datatype datatype, int root);

/** Reduce counterpart of papcoll_gather_pat(). */
int papcoll_reduce_pat(papcoll_site_t *site, const double *pat, const void *sendbuf,
                       void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root);

/** Allreduce counterpart of papcoll_gather_pat(). */
int papcoll_allreduce_pat(papcoll_site_t *site, const double *pat, const void *sendbuf,
                          void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op);

/**
 * The global clock: every rank's CLOCK_MONOTONIC moved onto rank 0's time
 * base at papcoll_init (exact within a node; ping-pong with minimum round
 * trip between nodes).  All papcoll timestamps use it.
 */
typedef struct {
    double offset;  /**< this rank's clock minus rank 0's (s) */
    double drift;   /**< d(offset)/dt (s/s); 0 until re-estimated */
    double error;   /**< bound on |error of offset|: half the best round trip (s) */
    double max_abs; /**< max |offset| over all ranks */
    double max_err; /**< max error over all ranks */
    int nodes;      /**< shared-memory nodes found */
    int global;     /**< 1: MPI_WTIME_IS_GLOBAL, nothing measured */
} papcoll_clock_t;

/** Current time on the global time base (seconds). */
double papcoll_wtime(const papcoll_ctx_t *ctx);

/** The clock synchronisation of a context. */
int papcoll_clock_info(const papcoll_ctx_t *ctx, papcoll_clock_t *out);

/** Timing of the last collective on a site, on this rank (papcoll_wtime seconds). */
typedef struct {
    double arrival;    /**< entry into the collective */
    double exit;       /**< return from the collective */
    double predicted;  /**< predicted arrival offset of this rank (NaN: none) */
    int plan_iter;     /**< iteration whose exchange produced the plan */
    double decision;   /**< seconds the call's decision took: the policy's inputs,
                            its choice and the plan, after the exchange */
    int algo;          /**< the algorithm the call ran (papcoll_algo_name) */
} papcoll_timing_t;

/** Timing of the site's last collective on this rank. */
int papcoll_site_last_timing(const papcoll_site_t *site, papcoll_timing_t *t);

/*
 * For a caller that does part of a collective's work outside papcoll (the
 * PMPI interposer, docs/pmpi.md).  Times are papcoll_wtime seconds.
 */

/** The site's next call on this rank entered the collective at `arrival`,
 *  before its papcoll call (e.g. the caller first agreed with the other
 *  ranks on the site): its record, timing and the arrivals the predictor
 *  learns from say `arrival` instead of the papcoll call's entry.  Local;
 *  the next call consumes it, whatever its outcome, and runs as usual. */
int papcoll_site_set_arrival(papcoll_site_t *site, double arrival);

/** A collective the caller ran itself through the MPI library on the
 *  site's group of ranks, as this rank saw it. */
typedef struct {
    double arrival;       /**< entry into the collective */
    double exit;          /**< return from it (>= arrival) */
    int root;             /**< the call's root (-1: allreduce) */
    long long bytes;      /**< packed bytes of this rank's block (gather, scatter) or of the vector */
    int count;            /**< the same in elements of the call's datatype */
    const char *datatype; /**< the datatype's MPI name (NULL or "": "(unnamed)") */
} papcoll_observed_t;

/** Records an observed collective as the site's next call, of the algorithm
 *  `mpi`: timing, records and trace as for a call papcoll ran; no data
 *  moves.  Collective like a call on the site (every rank records its part
 *  of the same call; a record batch ships every PAPCOLL_RECORD_BATCH calls),
 *  but the values need not be the call's handles, so it may come after the
 *  program freed them.  Needs a site without a monitor thread and with a
 *  fixed policy (PAPCOLL_ERR_STATE otherwise); PAPCOLL_ERR_INVAL for times
 *  not finite or out of order, a root out of range, negative sizes. */
int papcoll_site_observe(papcoll_site_t *site, const papcoll_observed_t *obs);

/*
 * Record sink: how per-call records leave the library (DESIGN.md: papcoll
 * never includes hdf5.h; trace/ implements a sink).  Each rank timestamps its
 * own part of every call; every PAPCOLL_RECORD_BATCH calls of a site the
 * site's monitor thread gathers the batch to rank 0 (no synchronisation of
 * the application), the rest arrive at papcoll_site_free or when the sink
 * is removed.  The sink is called on rank 0 only.
 */

/** Calls per record shipment: records reach the sink at most this many calls late. */
#define PAPCOLL_RECORD_BATCH 16

/** One rank's part of one collective call: global clock seconds, NaN = not called. */
typedef struct {
    double compute_start; /**< papcoll_processing_start */
    double edge;          /**< papcoll_edge */
    double compute_end;   /**< papcoll_processing_end */
    double arrival;       /**< entry into the collective */
    double exit;          /**< return from the collective */
    double predicted;     /**< predicted arrival offset the plan used (NaN: none) */
} papcoll_rank_record_t;

/** One collective call of a site, every rank's part. */
typedef struct {
    int site_id;          /**< the site's creation index in its context, from 0 */
    const char *site;     /**< the site's name */
    papcoll_op_t op;
    int iter;             /**< call index of the site, from 0 */
    int algo;             /**< algorithm index: papcoll_algo_name(op, algo) */
    const char *reason;   /**< why the call ran algo, when it is not the algorithm of the
                               site's previous call (first call included); else NULL */
    int root;             /**< root (-1: allreduce) */
    long long bytes;      /**< packed bytes of one rank's block (gather, scatter) or of the vector */
    int count;            /**< the same in elements of datatype, on rank 0's side */
    const char *datatype; /**< MPI name of rank 0's datatype at the site's first traced call */
    double plan_time;     /**< seconds rank 0 spent predicting and planning, plus the choice of a
                               rules or auto policy (NaN: no plan, fixed policy) */
    int nranks;
    const papcoll_rank_record_t *ranks; /**< nranks entries, by rank */
    const char *detail;   /**< with reason: the policy's inputs as "key=value ..." text
                               (rules, auto: predicted spread, model time, gain, ...);
                               "" or NULL for a fixed policy (last, so that positional
                               initialisers of the fields above keep working) */
} papcoll_record_t;

/** The clock state of every rank, at init and after each re-estimation. */
typedef struct {
    double when;          /**< global time of the estimate (s) */
    int nranks;
    const double *offset; /**< per rank: its clock minus rank 0's (s) */
    const double *drift;  /**< per rank: d(offset)/dt (s/s) */
    const double *error;  /**< per rank: bound on the offset's error (s) */
} papcoll_clock_sample_t;

/**
 * Callbacks of a sink.  They run on rank 0 in the application thread or in a
 * monitor thread, never two at a time for one context; the pointers inside
 * are valid only during the call.  A non-zero return is reported once as a
 * warning and the sink is dropped.
 */
typedef struct {
    void *arg;
    int (*record)(void *arg, const papcoll_record_t *rec);
    int (*clock)(void *arg, const papcoll_clock_sample_t *clk);
} papcoll_sink_t;

/**
 * Installs (or with NULL removes) the record sink of a context (collective:
 * every rank calls it, the sink argument matters on rank 0 only).  While a
 * sink is installed every call of every site is recorded; the clock callback
 * runs once at installation with the current estimate.
 */
int papcoll_set_sink(papcoll_ctx_t *ctx, const papcoll_sink_t *sink);

#ifdef PAPCOLL_SMPI
/**
 * SimGrid SMPI build only (make smpi): sleeps `seconds` of this rank's
 * simulated time while its monitors run, so that a background part
 * progresses while the rank sleeps, as the monitor thread would while the
 * rank computes (docs/simulation.md).  A plain sleep when it has none.
 */
void papcoll_sim_sleep(double seconds);

/**
 * SimGrid SMPI build only: with `on`, the vector-sized work buffers that the
 * library allocates from then on (a reduction's accumulator and receive
 * buffers) come from SMPI_SHARED_MALLOC: one block mapped into every rank,
 * as papbench --shared-buffers does with the user's buffers.  SMPI then
 * copies no payload into them and P ranks' buffers take the memory of one,
 * but their contents are garbage, and so are the results: for timing runs
 * only (docs/simulation.md).  Every rank calls it alike, before its first
 * collective.
 */
void papcoll_sim_shared_scratch(int on);
#endif

#ifdef __cplusplus
}
#endif
#endif /* PAPCOLL_H */
