/*
 * libpapcoll_pmpi: the PMPI interposer (docs/pmpi.md).  Internal header,
 * not installed.
 *
 *   entry_c.c, entry_f.c  the MPI_* and Fortran mpi_* entry points
 *   init.c                MPI_Init / MPI_Finalize: configuration, thread level,
 *                         Fortran sentinels, release of every communicator
 *   config.c              environment -> ip_config_t, agreed across ranks
 *   call.c                one intercepted collective: pass-through decisions,
 *                         the papcoll call, the op adapters (papcoll_ops.def)
 *   site_id.c             call-site IDs: return addresses as module + offset
 *   comm.c                per communicator: attribute, papcoll context, trace
 *   agree.c               the agreement of ranks on the call site of each call
 *   inter.c               intercommunicator collectives: leaders + local groups
 *   summary.c             counters and the summary printed at MPI_Finalize
 *
 * The interposer calls MPI only through PMPI_*.  Code it runs inside
 * (libpaptrace's collectives, MPI_* calls from an attribute callback) sees a
 * thread-local guard and goes straight to PMPI.
 */
#ifndef PAPCOLL_PMPI_H
#define PAPCOLL_PMPI_H

#include <mpi.h>
#include <stdint.h>

#include "papcoll.h"
#include "paptrace.h"

/* PAPCOLL_MODE */
typedef enum { IP_MODE_TRACE, IP_MODE_REPLACE, IP_MODE_OFF } ip_mode_t;

/* Checks of trusted calls are gathered over this many calls (agree.c). */
#define IP_CHECK_WINDOW 4
/* Frames of a call-site ID at most (PAPCOLL_SITE_DEPTH). */
#define IP_MAX_DEPTH 16

/* The configuration, read at MPI_Init from the environment and agreed. */
typedef struct {
    ip_mode_t mode;
    char trace[1024]; /* PAPCOLL_TRACE: trace file, "" = none */
    int flush;        /* PAPCOLL_TRACE_FLUSH: calls of a site between writes to the file */
    int depth;        /* PAPCOLL_SITE_DEPTH; 0: sites by op, root and size only */
    int by_function;  /* PAPCOLL_SITE_ID=function: frames stand for their functions */
    int min_ranks;    /* PAPCOLL_MIN_RANKS */
    int max_sites;    /* PAPCOLL_MAX_SITES per communicator */
    int stable;       /* PAPCOLL_AGREE: 0 = every call, N = trust after N confirmations */
    char policy[PAPCOLL_OP_COUNT][288]; /* replace mode: PAPCOLL_<OP>_ALGORITHM as given, "" = unset */
} ip_config_t;

/*
 * Why a call went to PMPI untouched, or what happened to it:
 * XX(NAME, label, explanation).  One list gives the counters and the
 * summary's lines.
 */
#define IP_REASONS(XX)                                                                              \
    XX(DIFFER, "calls differ", "ranks passed different ops, roots or byte counts (agreement)")       \
    XX(INTERCOMM, "intercommunicator", "its local groups could not be set up (intercommunicator)")     \
    XX(SMALL, "small communicator", "fewer ranks than PAPCOLL_MIN_RANKS")                            \
    XX(NOCONTEXT, "no context", "the papcoll context of the communicator could not be created")       \
    XX(NOSITE, "no site", "papcoll_site_create failed for the call site")                              \
    XX(OFF, "mode off", "PAPCOLL_MODE=off, or the configuration was refused at MPI_Init")

typedef enum {
#define IP_REASON_ENUM(name, label, text) IP_PASS_##name,
    IP_REASONS(IP_REASON_ENUM)
#undef IP_REASON_ENUM
        IP_PASS_COUNT
} ip_pass_t;

/* A call's keys.  path: this rank's stack ID mixed with the signature;
 * sig: the signature alone (op, root, bytes of one rank's block), which
 * every rank of a correct program computes alike. */
typedef struct {
    uint64_t path, sig;
} ip_key_t;

/* How a site was identified (docs/pmpi.md, "Call sites"):
 *   PATH       every rank called from the same place;
 *   SIGNATURE  by the signature alone: the ranks called from different places
 *              with one signature, or PAPCOLL_SITE_DEPTH=0;
 *   OVERFLOW   the op's shared site once PAPCOLL_MAX_SITES sites exist. */
typedef enum { IP_SITE_PATH, IP_SITE_SIGNATURE, IP_SITE_OVERFLOW, IP_SITE_KINDS } ip_kind_t;

/* Counters of this process (summary.c); every rank counts its own calls. */
typedef enum {
    IP_CNT_NESTED = IP_PASS_COUNT, /* MPI calls made from inside the interposer */
    IP_CNT_AGREED,                 /* calls decided by a blocking agreement */
    IP_CNT_SIGNATURE,              /* calls whose site is their signature without agreement (depth 0) */
    IP_CNT_TRUSTED,                /* calls run on a predicted site without one */
    IP_CNT_MISPREDICTED,           /* trusted calls this rank reached from another site */
    IP_CNT_CHECKS,                 /* checks of trusted calls (non-blocking allreduces) */
    IP_CNT_CHECK_FAILED,           /* checks that found a misprediction */
    IP_CNT_COMMS,                  /* communicators with a papcoll context */
    IP_CNT_SITES,                  /* call sites created */
    IP_CNT_ERRORS,                 /* papcoll calls that returned an error */
    IP_CNT_INTER,                  /* intercommunicator calls run via local groups (inter.c) */
    IP_CNT_PARTS,                  /* their local collectives that ran through papcoll */
    IP_CNT_PARTS_PASSED,           /* ... and those passed to PMPI */
    IP_CNT_KIND0,                  /* then one per ip_kind_t: calls run on sites of that kind */
    IP_CNT_OP0 = IP_CNT_KIND0 + IP_SITE_KINDS, /* then one per op: calls run through papcoll */
    IP_CNT_PASSED_OP0 = IP_CNT_OP0 + PAPCOLL_OP_COUNT /* then one per op: calls passed to PMPI */
} ip_counter_t;
#define IP_NCOUNTERS (IP_CNT_PASSED_OP0 + PAPCOLL_OP_COUNT)

/* One intercepted collective call, in C terms (Fortran entries convert). */
typedef struct {
    papcoll_op_t op;
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
    MPI_Op mop;
    int root; /* -1: allreduce */
    MPI_Comm comm;
    void *caller; /* return address of the entry point */
    int part;     /* a local collective of an intercommunicator call: counted with it, not as a call */
} ip_call_t;

/* A call site of a communicator (comm.c, agree.c). */
typedef struct {
    uint64_t key;         /* the agreed key: path, signature, or the op's overflow key */
    uint64_t mine;        /* this rank's path key at the site's last agreed call */
    ip_kind_t kind;
    papcoll_site_t *site; /* NULL: creation failed, its calls pass through */
    papcoll_op_t op;
    int root;
    long long bytes;
    int next;   /* index of the site that followed the last agreed call here, -1 */
    int streak; /* consecutive agreed calls that confirmed next */
    long calls; /* calls run on the site on this rank */
    const char *algo; /* the site's algorithm when it was freed (summary) */
    char name[128];
} ip_site_t;

/* Checks of trusted calls: a window of calls, then one MPI_Iallreduce. */
typedef struct {
    int from[IP_CHECK_WINDOW]; /* the sites whose successor the window trusted */
    int n;                     /* trusted calls in the window */
    int mismatch;              /* this rank reached one of them from elsewhere */
} ip_window_t;

/* Calls that ranks reached from different call sites, by this rank's site
 * (the summary lists those of each communicator's rank 0). */
#define IP_MAX_DIVERGED 8
typedef struct {
    uint64_t key;
    long calls;
    char name[64];
} ip_diverged_t;

/* Trace mode: calls of a communicator wait in windows of IP_TRACE_WINDOW
 * for the agreement on their sites (call.c, "Trace mode"). */
#define IP_TRACE_WINDOW 16
typedef struct {
    ip_call_t c;         /* op, root and caller name the site; no buffer or handle is used */
    ip_key_t key;
    papcoll_observed_t obs;
    char type_name[MPI_MAX_OBJECT_NAME];
} ip_traced_t;
typedef struct {
    ip_traced_t call[IP_TRACE_WINDOW];
    int n;
    unsigned long long in[4 * IP_TRACE_WINDOW], out[4 * IP_TRACE_WINDOW]; /* ip_agree's 4 words per call */
    MPI_Request req;
    int rc;
} ip_window_trace_t;

/* What the interposer keeps per handled communicator (comm.c). */
typedef struct ip_comm {
    MPI_Comm user;        /* the program's communicator (not owned) */
    MPI_Comm dup;         /* ours: agreement, papcoll context, trace */
    int rank, size;
    papcoll_ctx_t *ctx;   /* NULL: context creation failed, calls pass through */
    paptrace_t *trace;    /* NULL: not traced */
    char path[1100];      /* the trace file, "" = none */
    char label[96];       /* e.g. "MPI_COMM_WORLD (4 ranks)" */
    ip_site_t *sites;     /* cap + PAPCOLL_OP_COUNT: room for the overflow sites */
    int nsites, cap;
    int prev;             /* site of the previous call (agreed or trusted), -1 */
    ip_window_t win;      /* the window being filled */
    ip_window_t sent;     /* the window whose check is in flight */
    MPI_Request check;    /* MPI_REQUEST_NULL: none in flight */
    int check_in, check_out;
    ip_window_trace_t tw[2]; /* trace mode: the window being filled (tw[fill]) and the one in flight */
    int fill;
    ip_diverged_t diverged[IP_MAX_DIVERGED];
    int ndiverged;
    struct ip_comm *next; /* the live list, newest first */
} ip_comm_t;

/* What the interposer keeps per intercommunicator (comm.c, inter.c). */
typedef struct {
    MPI_Comm local; /* this rank's group, in the intercommunicator's local order */
    MPI_Comm p2p;   /* ours: a duplicate of the intercommunicator, for the leaders' messages */
    int rank, size, rsize;
} ip_inter_t;

/* Process-wide state (init.c). */
typedef struct {
    int ready;            /* MPI_Init went through us and the configuration is agreed */
    int world_rank, world_size;
    ip_config_t cfg;
    void *in_place_f;     /* the Fortran MPI_IN_PLACE and MPI_BOTTOM (sentinels.f90) */
    void *bottom_f;
    char program[64];     /* for the trace files: the command line of the process */
    int argc;
    char **argv;
} ip_state_t;
extern ip_state_t ip_g;

/* The re-entrance guard: > 0 while the interposer itself runs MPI code. */
extern _Thread_local int ip_inside;

/* config.c */
int ip_config_read(ip_config_t *cfg, char *err, size_t errlen);
int ip_config_agree(ip_config_t *cfg, int ok);
int ip_wants_multiple(const ip_config_t *cfg, char *why, size_t len);
void ip_config_text(const ip_config_t *cfg, const ip_comm_t *pc, char *buf, size_t len);
const char *ip_mode_name(ip_mode_t m);

/* init.c */
int ip_init(int *argc, char ***argv, int required, int *provided, int threaded);
int ip_finalize(void);

/* call.c */
int ip_collective(const ip_call_t *c);
void ip_trace_flush(ip_comm_t *pc);

/* site_id.c */
uint64_t ip_site_key(void *caller, int depth);
void ip_site_label(void *caller, char *buf, size_t len);

/* comm.c */
int ip_comm_keyval(void);
ip_comm_t *ip_comm_get(MPI_Comm comm);
void ip_comm_release_all(void);
int ip_comm_site(ip_comm_t *pc, const ip_call_t *c, ip_kind_t kind, const ip_key_t *k, long long bytes, int *idx);
ip_inter_t *ip_inter_get(MPI_Comm inter);
void ip_comm_diverged(ip_comm_t *pc, const ip_call_t *c, uint64_t key, long long bytes);

/* inter.c */
int ip_inter(const ip_call_t *c);

/* agree.c */
int ip_agree(ip_comm_t *pc, const ip_call_t *c, const ip_key_t *k, long long bytes, ip_pass_t *why);
void ip_agree_post(ip_comm_t *pc, ip_window_trace_t *w);
void ip_agree_complete(ip_window_trace_t *w);
int ip_agree_result(ip_comm_t *pc, ip_window_trace_t *w, int i, ip_pass_t *why);
void ip_agree_drain(ip_comm_t *pc);

/* summary.c */
void ip_count(int counter, long long n);
void ip_time_agree(double seconds, int blocking);
void ip_summary_note(const char *line);
void ip_summary_print(void);
const char *ip_pass_label(ip_pass_t r);

/* sentinels.f90: passes the Fortran MPI_IN_PLACE and MPI_BOTTOM to
 * papcoll_pmpi_note_sentinels (entry_f.c). */
void papcoll_pmpi_fsentinels(void);
void papcoll_pmpi_note_sentinels(int *in_place, int *bottom);

#endif
