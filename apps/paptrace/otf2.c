/*
 * paptrace otf2: the trace as an OTF2 archive (OUTDIR/traces.otf2 and
 * OUTDIR/traces/), for Vampir, Scalasca, Score-P's tools and Cube.  The
 * layout, Score-P's where it has one, is in docs/trace.md ("OTF2"):
 *
 *   locations    one per rank (id = rank), in a process location group per
 *                rank, under one system-tree node per host
 *   MPI_COMM_WORLD over a group of every rank
 *   regions      per site: the MPI call (MPI_Gather, ... with Score-P's
 *                collective role, paradigm MPI), its compute phase
 *                (processing start to end) and the phase's part after the edge
 *   events       per rank and call: compute Enter/Leave (after-edge nested),
 *                Enter at arrival, MpiCollectiveBegin, MpiCollectiveEnd
 *                (op, comm, root, bytes), Leave at exit
 *   attributes   on the collective's Enter: site, call, algorithm, predicted
 *                arrival offset, plan time, and on a change of algorithm the
 *                decision's reason and detail
 *
 * Streaming: the calls are read in chunks (paptrace_stream_rows), the sites
 * merged in time, and OTF2 flushes each location's buffer after a few
 * chunks; memory does not grow with the number of calls.  Times are global-
 * clock nanoseconds.  A rank's part of a call without arrival or exit (NaN),
 * or one that would go back in time on its location, is left out and
 * counted in the summary.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "paptrace_cli.h"

#ifdef PAPTRACE_HAVE_OTF2
#include <otf2/otf2.h>

#define TICKS_PER_S 1000000000ull
#define EVT_CHUNK (1u << 20) /* bytes of an OTF2 event chunk */
#define DEF_CHUNK (4u << 20)
#define MAX_CHUNKS 2         /* chunks a buffer holds before OTF2 flushes it */

/* An operation of papcoll_ops.def as Score-P records the MPI call. */
typedef struct {
    const char *op;
    const char *region;
    OTF2_CollectiveOp coll;
    OTF2_RegionRole role;
} op_map_t;

static const op_map_t op_map[] = {
    {"gather", "MPI_Gather", OTF2_COLLECTIVE_OP_GATHER, OTF2_REGION_ROLE_COLL_ALL2ONE},
    {"scatter", "MPI_Scatter", OTF2_COLLECTIVE_OP_SCATTER, OTF2_REGION_ROLE_COLL_ONE2ALL},
    {"bcast", "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, OTF2_REGION_ROLE_COLL_ONE2ALL},
    {"reduce", "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, OTF2_REGION_ROLE_COLL_ALL2ONE},
    {"allreduce", "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_REGION_ROLE_COLL_ALL2ALL},
};
#define NOPS (int)(sizeof op_map / sizeof op_map[0])

/* Attributes of the collective's Enter. */
enum { A_SITE, A_CALL, A_ALGO, A_PREDICTED, A_PLAN_TIME, A_REASON, A_DETAIL, A_COUNT };
static const struct {
    const char *name, *description;
    OTF2_Type type;
} attr_def[A_COUNT] = {
    [A_SITE] = {"papcoll_site", "papcoll call site", OTF2_TYPE_STRING},
    [A_CALL] = {"papcoll_call", "the site's call index", OTF2_TYPE_UINT64},
    [A_ALGO] = {"papcoll_algorithm", "the algorithm that ran", OTF2_TYPE_STRING},
    [A_PREDICTED] = {"papcoll_predicted_offset", "predicted arrival offset (s after the earliest)",
                     OTF2_TYPE_DOUBLE},
    [A_PLAN_TIME] = {"papcoll_plan_time", "s rank 0 spent predicting and planning", OTF2_TYPE_DOUBLE},
    [A_REASON] = {"papcoll_decision_reason", "why the call changed algorithm", OTF2_TYPE_STRING},
    [A_DETAIL] = {"papcoll_decision_detail", "the policy's inputs, key=value", OTF2_TYPE_STRING},
};

/* Regions of site i: its collective, its compute phase, the phase after the edge. */
#define REGION_COLL(i) (3u * (uint32_t)(i))
#define REGION_COMPUTE(i) (3u * (uint32_t)(i) + 1u)
#define REGION_AFTER_EDGE(i) (3u * (uint32_t)(i) + 2u)

/* A site's read position: a chunk of calls, the next call, the next decision. */
typedef struct {
    const op_map_t *map;
    long first, n, pos;         /* chunk: calls first .. first + n - 1; pos: index in it */
    paptrace_iter_t *iters;
    papcoll_rank_record_t *ranks;
    long dec;                   /* next decision of the site */
    uint32_t site_str, dec_str; /* string refs: the site's name, its first decision's reason */
    uint32_t region_str;        /* the MPI call's name; then description, compute, after-edge names */
} cursor_t;

/* String refs of the definitions. */
enum { S_MACHINE, S_NODE, S_THREAD, S_EMPTY, S_WORLD, S_MPI, S_COMPUTE, S_AFTER_EDGE, S_FIXED };
static const char *const fixed_str[S_FIXED] = {
    "machine", "node", "Master thread", "", "MPI_COMM_WORLD", "MPI", "processing start to end",
    "edge to processing end",
};

typedef struct {
    paptrace_stream_t *st;
    const paptrace_file_t *f;
    long chunk;
    OTF2_Archive *ar;
    OTF2_EvtWriter **w;
    uint64_t *nevents; /* per location, counted when its writer closes */
    OTF2_AttributeList *al;
    const char **strs; /* string table: ref -> text (pointers into f or static) */
    char **owned;      /* the formatted ones, freed at the end */
    uint32_t nstrs, cap, nowned;
    uint32_t algo_str[PAPCOLL_OP_COUNT]; /* ref of algorithm 0 of each op */
    uint32_t attr_str;                   /* name and description of each attribute, in pairs */
    uint32_t rank_str;                   /* "MPI Rank i" of rank i: rank_str + i */
    uint32_t *node;                      /* per rank: its host's system-tree node (1, 2, ...) */
    uint32_t *node_str;                  /* per rank: its host name's ref */
    cursor_t *cur;
    uint64_t *last;   /* per location: the last event's time */
    uint64_t tmin, tmax;
    long calls, missing, backwards; /* rank calls written, without arrival/exit, out of time order */
    char *err;
    size_t errlen;
} ex_t;

/* One line about a failed OTF2 call into err; -1. */
static int otf2_fail(ex_t *x, const char *what, OTF2_ErrorCode rc)
{
    snprintf(x->err, x->errlen, "%s: %s (%s)", what, OTF2_Error_GetName(rc), OTF2_Error_GetDescription(rc));
    return -1;
}

static OTF2_FlushType pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef loc, void *cb, bool final)
{
    (void)u, (void)ft, (void)loc, (void)cb, (void)final;
    return OTF2_FLUSH;
}

/* At most MAX_CHUNKS chunks per buffer: the next allocation fails, OTF2 flushes and frees them. */
typedef struct {
    int n;
    void *chunk[MAX_CHUNKS];
} pool_t;

static void *chunk_alloc(void *u, OTF2_FileType ft, OTF2_LocationRef loc, void **per, uint64_t size)
{
    pool_t *p = *per;

    (void)u, (void)ft, (void)loc;
    if (p == NULL && (p = *per = calloc(1, sizeof *p)) == NULL)
        return NULL;
    if (p->n == MAX_CHUNKS || (p->chunk[p->n] = malloc(size)) == NULL)
        return NULL;
    return p->chunk[p->n++];
}

static void chunk_free_all(void *u, OTF2_FileType ft, OTF2_LocationRef loc, void **per, bool final)
{
    pool_t *p = *per;
    int i;

    (void)u, (void)ft, (void)loc;
    for (i = 0; p != NULL && i < p->n; i++)
        free(p->chunk[i]);
    if (p != NULL)
        p->n = 0;
    if (final) {
        free(p);
        *per = NULL;
    }
}

static const OTF2_FlushCallbacks flush_cb = {pre_flush, NULL};
static const OTF2_MemoryCallbacks memory_cb = {chunk_alloc, chunk_free_all};

/* Adds s to the string table (copied when own); its ref, or UINT32_MAX out of memory. */
static uint32_t add_str(ex_t *x, const char *s, int own)
{
    if (x->nstrs == x->cap) {
        uint32_t cap = x->cap ? 2 * x->cap : 64;
        const char **strs = realloc(x->strs, cap * sizeof *strs);
        char **owned = strs ? realloc(x->owned, cap * sizeof *owned) : NULL;

        if (strs)
            x->strs = strs;
        if (owned == NULL)
            return UINT32_MAX;
        x->owned = owned;
        x->cap = cap;
    }
    if (own) {
        if ((x->owned[x->nowned] = strdup(s)) == NULL)
            return UINT32_MAX;
        s = x->owned[x->nowned++];
    }
    x->strs[x->nstrs] = s;
    return x->nstrs++;
}

static const op_map_t *find_map(papcoll_op_t op)
{
    int i;

    for (i = 0; i < NOPS; i++)
        if (strcmp(op_map[i].op, papcoll_op_name(op)) == 0)
            return &op_map[i];
    return NULL;
}

/* Per rank: "MPI Rank i", its host's node (one per distinct host) and name. */
static int plan_ranks(ex_t *x)
{
    const paptrace_file_t *f = x->f;
    char name[64];
    uint32_t nnodes = 0, bad = 0;
    int i, j;

    x->node = malloc(((size_t)f->nranks + 1) * sizeof *x->node);
    x->node_str = malloc(((size_t)f->nranks + 1) * sizeof *x->node_str);
    if (x->node == NULL || x->node_str == NULL)
        return 1;
    x->rank_str = x->nstrs;
    for (i = 0; i < f->nranks; i++) {
        snprintf(name, sizeof name, "MPI Rank %d", i);
        bad |= add_str(x, name, 1) == UINT32_MAX;
    }
    for (i = 0; i < f->nranks; i++) {
        for (j = 0; j < i && strcmp(f->hosts[j], f->hosts[i]) != 0; j++)
            ;
        x->node[i] = j < i ? x->node[j] : ++nnodes;
        x->node_str[i] = j < i ? x->node_str[j] : add_str(x, f->hosts[i], 0);
        bad |= x->node_str[i] == UINT32_MAX;
    }
    return bad != 0;
}

/* Site i's region names: the MPI call, "papcoll site NAME", "compute (NAME)", "after edge (NAME)". */
static int plan_regions(ex_t *x, int i)
{
    const char *site = x->f->sites[i].name;
    char name[512];
    uint32_t bad;

    x->cur[i].region_str = add_str(x, x->cur[i].map->region, 0);
    bad = x->cur[i].region_str == UINT32_MAX;
    snprintf(name, sizeof name, "papcoll site %s", site);
    bad |= add_str(x, name, 1) == UINT32_MAX;
    snprintf(name, sizeof name, "compute (%s)", site);
    bad |= add_str(x, name, 1) == UINT32_MAX;
    snprintf(name, sizeof name, "after edge (%s)", site);
    bad |= add_str(x, name, 1) == UINT32_MAX;
    return bad != 0;
}

/* The string refs of the definitions and the events; the cursors' buffers. */
static int plan_strings(ex_t *x)
{
    const paptrace_file_t *f = x->f;
    uint32_t bad = 0;
    long k;
    int op, a, i;

    for (i = 0; i < S_FIXED; i++)
        bad |= add_str(x, fixed_str[i], 0) == UINT32_MAX;
    x->attr_str = x->nstrs;
    for (i = 0; i < A_COUNT; i++) {
        bad |= add_str(x, attr_def[i].name, 0) == UINT32_MAX;
        bad |= add_str(x, attr_def[i].description, 0) == UINT32_MAX;
    }
    bad |= plan_ranks(x);
    for (op = 0; op < PAPCOLL_OP_COUNT; op++) {
        x->algo_str[op] = x->nstrs;
        for (a = 0; a < f->nalgos[op]; a++)
            bad |= add_str(x, f->algos[op][a], 0) == UINT32_MAX;
    }
    for (i = 0; i < f->nsites; i++) {
        const paptrace_site_t *s = &f->sites[i];
        cursor_t *c = &x->cur[i];

        if ((c->map = find_map(s->op)) == NULL) {
            snprintf(x->err, x->errlen, "site '%s': operation %s has no MPI collective in OTF2", s->name,
                     papcoll_op_name(s->op));
            return -1;
        }
        c->site_str = add_str(x, s->name, 0);
        bad |= plan_regions(x, i);
        c->dec_str = x->nstrs;
        for (k = 0; k < s->ndecisions; k++) {
            bad |= add_str(x, s->decisions[k].reason, 0) == UINT32_MAX;
            bad |= add_str(x, s->decisions[k].detail, 0) == UINT32_MAX;
        }
        c->iters = malloc((size_t)x->chunk * sizeof *c->iters);
        c->ranks = malloc((size_t)x->chunk * (size_t)f->nranks * sizeof *c->ranks);
        bad |= c->iters == NULL || c->ranks == NULL || c->site_str == UINT32_MAX;
    }
    if (bad) {
        snprintf(x->err, x->errlen, "out of memory");
        return -1;
    }
    return 0;
}

/* The site's current call, reading the next chunk when needed; NULL at its end. */
static const paptrace_iter_t *current(ex_t *x, int i)
{
    cursor_t *c = &x->cur[i];
    long left = x->f->sites[i].niters - (c->first + c->n);
    int rc;

    if (c->pos < c->n)
        return &c->iters[c->pos];
    if (left <= 0)
        return NULL;
    c->first += c->n;
    c->n = left < x->chunk ? left : x->chunk;
    c->pos = 0;
    if ((rc = paptrace_stream_rows(x->st, i, c->first, c->n, c->iters, c->ranks)) != PAPTRACE_OK) {
        snprintf(x->err, x->errlen, "reading calls %ld.. of site '%s': %s", c->first, x->f->sites[i].name,
                 paptrace_strerror(rc));
        c->n = -1;
        return NULL;
    }
    return &c->iters[0];
}

/* The earliest time of a call's records, -inf when it has none. */
static double call_key(const papcoll_rank_record_t *r, int nranks)
{
    double t = INFINITY;
    int i;

    for (i = 0; i < nranks; i++) {
        double v[5] = {r[i].compute_start, r[i].edge, r[i].compute_end, r[i].arrival, r[i].exit};
        int m;

        for (m = 0; m < 5; m++)
            if (!isnan(v[m]) && v[m] < t)
                t = v[m];
    }
    return isinf(t) ? -INFINITY : t;
}

/* Seconds to ticks; 0 for a time OTF2 cannot hold (NaN, negative, too large). */
static int ticks(double t, uint64_t *out)
{
    if (isnan(t) || t < 0 || t * (double)TICKS_PER_S >= 1.8e19)
        return 0;
    *out = (uint64_t)llround(t * (double)TICKS_PER_S);
    return 1;
}

/* Bytes rank i sends and receives in a call, as Score-P counts them for the MPI call. */
static void call_bytes(OTF2_CollectiveOp op, int i, int root, int p, uint64_t b, uint64_t *sent, uint64_t *recv)
{
    int at_root = i == root;

    switch (op) {
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_REDUCE:
        *sent = b, *recv = at_root ? (uint64_t)p * b : 0;
        break;
    case OTF2_COLLECTIVE_OP_SCATTER:
        *sent = at_root ? (uint64_t)p * b : 0, *recv = b;
        break;
    case OTF2_COLLECTIVE_OP_BCAST:
        *sent = at_root ? (uint64_t)p * b : 0, *recv = b;
        break;
    default: /* allreduce */
        *sent = (uint64_t)p * b, *recv = (uint64_t)p * b;
        break;
    }
}

/* The attributes of rank i's Enter of call it (dec: its decision, or NULL). */
static void attributes(ex_t *x, int site, const paptrace_iter_t *it, const papcoll_rank_record_t *r, long dec)
{
    const cursor_t *c = &x->cur[site];
    const paptrace_site_t *s = &x->f->sites[site];
    OTF2_AttributeValue v;

    OTF2_AttributeList_AddStringRef(x->al, A_SITE, c->site_str);
    OTF2_AttributeList_AddUint64(x->al, A_CALL, (uint64_t)it->iter);
    if (it->algo >= 0 && it->algo < x->f->nalgos[s->op])
        OTF2_AttributeList_AddStringRef(x->al, A_ALGO, x->algo_str[s->op] + (uint32_t)it->algo);
    if (!isnan(r->predicted))
        OTF2_AttributeList_AddDouble(x->al, A_PREDICTED, r->predicted);
    if (!isnan(it->plan_time))
        OTF2_AttributeList_AddDouble(x->al, A_PLAN_TIME, it->plan_time);
    if (dec >= 0) {
        v.stringRef = c->dec_str + 2u * (uint32_t)dec;
        OTF2_AttributeList_AddAttribute(x->al, A_REASON, OTF2_TYPE_STRING, v);
        v.stringRef++;
        OTF2_AttributeList_AddAttribute(x->al, A_DETAIL, OTF2_TYPE_STRING, v);
    }
}

/* Rank i's compute phase of a call: Enter at start, the after-edge region nested, Leave at end. */
static void compute_events(ex_t *x, int site, int i, const papcoll_rank_record_t *r)
{
    uint64_t s, e, m;

    if (!ticks(r->compute_start, &s) || !ticks(r->compute_end, &e) || e < s)
        return;
    OTF2_EvtWriter_Enter(x->w[i], NULL, s, REGION_COMPUTE(site));
    if (ticks(r->edge, &m) && m >= s && m <= e) {
        OTF2_EvtWriter_Enter(x->w[i], NULL, m, REGION_AFTER_EDGE(site));
        OTF2_EvtWriter_Leave(x->w[i], NULL, e, REGION_AFTER_EDGE(site));
    }
    OTF2_EvtWriter_Leave(x->w[i], NULL, e, REGION_COMPUTE(site));
}

/* Rank i's part of the site's current call. */
static void rank_events(ex_t *x, int site, const paptrace_iter_t *it, int i, long dec)
{
    const cursor_t *c = &x->cur[site];
    const papcoll_rank_record_t *r = &c->ranks[c->pos * x->f->nranks + i];
    uint64_t a, e, s = 0, sent, recv;
    int comp = ticks(r->compute_start, &s) && !isnan(r->compute_end);
    uint32_t root = c->map->coll == OTF2_COLLECTIVE_OP_ALLREDUCE ? OTF2_COLLECTIVE_ROOT_NONE : (uint32_t)it->root;

    if (!ticks(r->arrival, &a) || !ticks(r->exit, &e) || e < a) {
        x->missing++;
        return;
    }
    if ((comp ? s : a) < x->last[i] || (comp && r->compute_end > r->arrival)) {
        x->backwards++;
        return;
    }
    if (comp)
        compute_events(x, site, i, r);
    attributes(x, site, it, r, dec);
    OTF2_EvtWriter_Enter(x->w[i], x->al, a, REGION_COLL(site));
    OTF2_EvtWriter_MpiCollectiveBegin(x->w[i], NULL, a);
    call_bytes(c->map->coll, i, it->root, x->f->nranks, (uint64_t)(it->bytes > 0 ? it->bytes : 0), &sent, &recv);
    OTF2_EvtWriter_MpiCollectiveEnd(x->w[i], NULL, e, c->map->coll, 0, root, sent, recv);
    OTF2_EvtWriter_Leave(x->w[i], NULL, e, REGION_COLL(site));
    x->last[i] = e;
    x->tmin = (comp ? s : a) < x->tmin ? (comp ? s : a) : x->tmin;
    x->tmax = e > x->tmax ? e : x->tmax;
    x->calls++;
}

/* Every call of every site, the sites merged by each call's earliest time. */
static int write_events(ex_t *x)
{
    const paptrace_file_t *f = x->f;
    int i, best;

    for (;;) {
        double key = INFINITY, k;
        const paptrace_iter_t *it;
        cursor_t *c;
        long dec = -1;

        for (best = -1, i = 0; i < f->nsites; i++) {
            if ((it = current(x, i)) == NULL) {
                if (x->cur[i].n < 0)
                    return -1;
                continue;
            }
            k = call_key(&x->cur[i].ranks[x->cur[i].pos * f->nranks], f->nranks);
            if (best < 0 || k < key)
                best = i, key = k;
        }
        if (best < 0)
            return 0;
        c = &x->cur[best];
        it = &c->iters[c->pos];
        while (c->dec < f->sites[best].ndecisions && f->sites[best].decisions[c->dec].iter < it->iter)
            c->dec++;
        if (c->dec < f->sites[best].ndecisions && f->sites[best].decisions[c->dec].iter == it->iter)
            dec = c->dec;
        for (i = 0; i < f->nranks; i++)
            rank_events(x, best, it, i, dec);
        c->pos++;
    }
}


/* Locations under host nodes under one machine node; MPI_COMM_WORLD. */
static OTF2_ErrorCode write_system(ex_t *x, OTF2_GlobalDefWriter *g)
{
    const paptrace_file_t *f = x->f;
    uint64_t *members = malloc(((size_t)f->nranks + 1) * sizeof *members);
    OTF2_ErrorCode rc = members ? OTF2_SUCCESS : OTF2_ERROR_MEM_ALLOC_FAILED;
    uint32_t done = 0; /* nodes written: they appear in rank order */
    int i;

    rc = rc ? rc : OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, S_MACHINE, S_MACHINE, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (i = 0; rc == OTF2_SUCCESS && i < f->nranks; i++) {
        if (x->node[i] > done)
            rc = OTF2_GlobalDefWriter_WriteSystemTreeNode(g, ++done, x->node_str[i], S_NODE, 0);
        rc = rc ? rc
                : OTF2_GlobalDefWriter_WriteLocationGroup(g, (uint32_t)i, x->rank_str + (uint32_t)i,
                                                          OTF2_LOCATION_GROUP_TYPE_PROCESS, x->node[i],
                                                          OTF2_UNDEFINED_LOCATION_GROUP);
        rc = rc ? rc
                : OTF2_GlobalDefWriter_WriteLocation(g, (uint64_t)i, S_THREAD, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                     x->nevents[i], (uint32_t)i);
        members[i] = (uint64_t)i;
    }
    /* Score-P's pair: rank -> location, then the communicator's group of ranks. */
    rc = rc ? rc
            : OTF2_GlobalDefWriter_WriteGroup(g, 0, S_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                              OTF2_GROUP_FLAG_NONE, (uint32_t)f->nranks, members);
    rc = rc ? rc
            : OTF2_GlobalDefWriter_WriteGroup(g, 1, S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                              OTF2_GROUP_FLAG_NONE, (uint32_t)f->nranks, members);
    rc = rc ? rc : OTF2_GlobalDefWriter_WriteComm(g, 0, S_WORLD, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    free(members);
    return rc;
}

/* Per site its three regions; the attributes. */
static OTF2_ErrorCode write_regions(ex_t *x, OTF2_GlobalDefWriter *g)
{
    const uint32_t none = OTF2_UNDEFINED_STRING;
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    int i;

    for (i = 0; rc == OTF2_SUCCESS && i < x->f->nsites; i++) {
        const cursor_t *c = &x->cur[i];

        rc = OTF2_GlobalDefWriter_WriteRegion(g, REGION_COLL(i), c->region_str, c->region_str, c->region_str + 1,
                                              c->map->role, OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, none, 0, 0);
        rc = rc ? rc
                : OTF2_GlobalDefWriter_WriteRegion(g, REGION_COMPUTE(i), c->region_str + 2, c->region_str + 2,
                                                   S_COMPUTE, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                                   OTF2_REGION_FLAG_NONE, none, 0, 0);
        rc = rc ? rc
                : OTF2_GlobalDefWriter_WriteRegion(g, REGION_AFTER_EDGE(i), c->region_str + 3, c->region_str + 3,
                                                   S_AFTER_EDGE, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                                   OTF2_REGION_FLAG_NONE, none, 0, 0);
    }
    for (i = 0; rc == OTF2_SUCCESS && i < A_COUNT; i++)
        rc = OTF2_GlobalDefWriter_WriteAttribute(g, (uint32_t)i, x->attr_str + 2u * (uint32_t)i,
                                                 x->attr_str + 2u * (uint32_t)i + 1, attr_def[i].type);
    return rc;
}

/* The global definitions: the clock first, the strings, then what refers to them. */
static int write_definitions(ex_t *x)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(x->ar);
    uint64_t t0 = x->calls > 0 ? x->tmin : 0;
    OTF2_ErrorCode rc;
    uint32_t k;

    if (g == NULL)
        return otf2_fail(x, "opening the global definitions", OTF2_ERROR_MEM_ALLOC_FAILED);
    rc = OTF2_GlobalDefWriter_WriteClockProperties(g, TICKS_PER_S, t0, x->calls > 0 ? x->tmax - t0 : 0,
                                                   OTF2_UNDEFINED_TIMESTAMP);
    for (k = 0; rc == OTF2_SUCCESS && k < x->nstrs; k++)
        rc = OTF2_GlobalDefWriter_WriteString(g, k, x->strs[k]);
    rc = rc ? rc : OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, S_MPI, OTF2_PARADIGM_CLASS_PROCESS);
    rc = rc ? rc : write_system(x, g);
    rc = rc ? rc : write_regions(x, g);
    return rc == OTF2_SUCCESS ? 0 : otf2_fail(x, "writing the global definitions", rc);
}

/* The archive and one event writer per rank. */
static int open_archive(ex_t *x, const char *outdir)
{
    OTF2_ErrorCode rc;
    char creator[128];
    int i;

    x->ar = OTF2_Archive_Open(outdir, "traces", OTF2_FILEMODE_WRITE, EVT_CHUNK, DEF_CHUNK, OTF2_SUBSTRATE_POSIX,
                              OTF2_COMPRESSION_NONE);
    if (x->ar == NULL) {
        snprintf(x->err, x->errlen, "cannot create the OTF2 archive in '%s'", outdir);
        return -1;
    }
    snprintf(creator, sizeof creator, "paptrace otf2 (papcoll %s)", x->f->version);
    rc = OTF2_Archive_SetFlushCallbacks(x->ar, &flush_cb, NULL);
    rc = rc ? rc : OTF2_Archive_SetMemoryCallbacks(x->ar, &memory_cb, NULL);
    rc = rc ? rc : OTF2_Archive_SetSerialCollectiveCallbacks(x->ar);
    rc = rc ? rc : OTF2_Archive_SetCreator(x->ar, creator);
    rc = rc ? rc : OTF2_Archive_SetDescription(x->ar, x->f->program);
    rc = rc ? rc : OTF2_Archive_OpenEvtFiles(x->ar);
    if (rc != OTF2_SUCCESS)
        return otf2_fail(x, "opening the OTF2 archive", rc);
    x->w = calloc((size_t)x->f->nranks, sizeof *x->w);
    x->nevents = calloc((size_t)x->f->nranks, sizeof *x->nevents);
    if (x->w == NULL || x->nevents == NULL || (x->al = OTF2_AttributeList_New()) == NULL) {
        snprintf(x->err, x->errlen, "out of memory");
        return -1;
    }
    for (i = 0; i < x->f->nranks; i++)
        if ((x->w[i] = OTF2_Archive_GetEvtWriter(x->ar, (uint64_t)i)) == NULL)
            return otf2_fail(x, "opening an event writer", OTF2_ERROR_MEM_ALLOC_FAILED);
    return 0;
}

/* Closes the event writers (flushing them) and files, writes the definitions, closes the archive. */
static int close_archive(ex_t *x, int ok)
{
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    int i;

    if (x->ar == NULL)
        return ok ? 0 : -1;
    for (i = 0; x->w && i < x->f->nranks; i++) {
        if (x->w[i] == NULL)
            continue;
        rc = rc ? rc : OTF2_EvtWriter_GetNumberOfEvents(x->w[i], &x->nevents[i]);
        rc = rc ? rc : OTF2_Archive_CloseEvtWriter(x->ar, x->w[i]);
    }
    rc = rc ? rc : OTF2_Archive_CloseEvtFiles(x->ar);
    /* Empty local definitions, as OTF2's readers expect one per location. */
    rc = rc ? rc : OTF2_Archive_OpenDefFiles(x->ar);
    for (i = 0; ok && rc == OTF2_SUCCESS && i < x->f->nranks; i++) {
        OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(x->ar, (uint64_t)i);

        rc = d ? OTF2_Archive_CloseDefWriter(x->ar, d) : OTF2_ERROR_MEM_ALLOC_FAILED;
    }
    rc = rc ? rc : OTF2_Archive_CloseDefFiles(x->ar);
    if (ok && rc == OTF2_SUCCESS && write_definitions(x) != 0)
        ok = 0;
    if (OTF2_Archive_Close(x->ar) != OTF2_SUCCESS && rc == OTF2_SUCCESS)
        rc = OTF2_ERROR_FILE_INTERACTION;
    x->ar = NULL;
    if (ok && rc != OTF2_SUCCESS)
        return otf2_fail(x, "closing the OTF2 archive", rc);
    return ok ? 0 : -1;
}

/* OUTDIR: created when missing; refused when it holds an archive already. */
static int check_outdir(const char *outdir, char *err, size_t errlen)
{
    char path[4096];
    struct stat st;

    if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create directory '%s': %s", outdir, strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/traces.otf2", outdir);
    if (stat(path, &st) == 0) {
        snprintf(err, errlen, "'%s' exists: choose an empty OUTDIR", path);
        return -1;
    }
    return 0;
}

static void summary(const ex_t *x, const char *outdir, FILE *out)
{
    fprintf(out, "paptrace otf2: %s/traces.otf2: %d locations, %d sites, %ld rank calls, %.9f s\n", outdir,
            x->f->nranks, x->f->nsites, x->calls, x->calls ? (double)(x->tmax - x->tmin) / (double)TICKS_PER_S : 0.0);
    if (x->missing > 0)
        fprintf(out, "skipped: %ld rank calls without arrival or exit (NaN: the rank did not call)\n", x->missing);
    if (x->backwards > 0)
        fprintf(out, "skipped: %ld rank calls that start before the rank's previous call ended\n", x->backwards);
}

static void free_ex(ex_t *x)
{
    uint32_t k;
    int i;

    for (i = 0; x->cur && i < x->f->nsites; i++) {
        free(x->cur[i].iters);
        free(x->cur[i].ranks);
    }
    for (k = 0; k < x->nowned; k++)
        free(x->owned[k]);
    if (x->al)
        OTF2_AttributeList_Delete(x->al);
    free(x->owned);
    free(x->strs);
    free(x->cur);
    free(x->last);
    free(x->w);
    free(x->nevents);
    free(x->node);
    free(x->node_str);
}

int pt_cmd_otf2(const char *path, const char *outdir, long chunk, FILE *out, char *err, size_t errlen)
{
    ex_t x = {.chunk = chunk > 0 ? chunk : PT_OTF2_CHUNK, .tmin = UINT64_MAX, .err = err, .errlen = errlen};
    int rc;

    if (paptrace_stream_open(path, &x.st, err, errlen) != PAPTRACE_OK)
        return -1;
    x.f = paptrace_stream_head(x.st);
    x.cur = calloc((size_t)x.f->nsites + 1, sizeof *x.cur);
    x.last = calloc((size_t)x.f->nranks, sizeof *x.last);
    if (x.cur == NULL || x.last == NULL) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    } else {
        rc = plan_strings(&x);
    }
    rc = rc ? rc : check_outdir(outdir, err, errlen);
    rc = rc ? rc : open_archive(&x, outdir);
    rc = rc ? rc : write_events(&x);
    rc = close_archive(&x, rc == 0);
    if (rc == 0)
        summary(&x, outdir, out);
    free_ex(&x);
    paptrace_stream_close(&x.st);
    return rc;
}

#else /* !PAPTRACE_HAVE_OTF2 */

int pt_cmd_otf2(const char *path, const char *outdir, long chunk, FILE *out, char *err, size_t errlen)
{
    (void)path, (void)outdir, (void)chunk, (void)out;
    snprintf(err, errlen, "this paptrace was built without OTF2: install libotf2-trace-dev (jobs/deps --install), "
                          "then make clean all");
    return -1;
}

#endif
