/*
 * paptrace pat --otf2 ARCHIVE: the arrival pattern of an OTF2 trace written
 * by any tool, Score-P's conventions assumed: an MPI collective is Enter
 * and Leave of a region named after the MPI call, with MpiCollectiveBegin
 * and MpiCollectiveEnd (op, communicator) between them, one location per
 * rank.  A call matches when its region has the --region name, or its op
 * is --op, or (neither given) it is any collective; it counts when it is on
 * the --comm communicator, or on the communicator of the first matching call
 * (a matching call on another one is refused: choose with --comm).
 *
 * The archive's events are read merged in time (OTF2's global reader).
 * Each rank of the communicator queues its calls' arrivals (Enter) and
 * exits (Leave); call k is printed once every rank has queued it, so memory
 * holds only the skew between the ranks (and, for --stats, three numbers
 * per call).  Output: papbench's replay file, as `paptrace pat` writes it,
 * or with --stats the imbalance, run time and elapsed time of `stats`.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "paptrace_cli.h"

#ifdef PAPTRACE_HAVE_OTF2
#include <otf2/otf2.h>

#define MAX_DEPTH 64 /* nested regions a location may have open */

static const char *const op_names[] = {
    [OTF2_COLLECTIVE_OP_BARRIER] = "barrier",
    [OTF2_COLLECTIVE_OP_BCAST] = "bcast",
    [OTF2_COLLECTIVE_OP_GATHER] = "gather",
    [OTF2_COLLECTIVE_OP_GATHERV] = "gatherv",
    [OTF2_COLLECTIVE_OP_SCATTER] = "scatter",
    [OTF2_COLLECTIVE_OP_SCATTERV] = "scatterv",
    [OTF2_COLLECTIVE_OP_ALLGATHER] = "allgather",
    [OTF2_COLLECTIVE_OP_ALLGATHERV] = "allgatherv",
    [OTF2_COLLECTIVE_OP_ALLTOALL] = "alltoall",
    [OTF2_COLLECTIVE_OP_ALLTOALLV] = "alltoallv",
    [OTF2_COLLECTIVE_OP_ALLTOALLW] = "alltoallw",
    [OTF2_COLLECTIVE_OP_ALLREDUCE] = "allreduce",
    [OTF2_COLLECTIVE_OP_REDUCE] = "reduce",
    [OTF2_COLLECTIVE_OP_REDUCE_SCATTER] = "reduce_scatter",
    [OTF2_COLLECTIVE_OP_SCAN] = "scan",
    [OTF2_COLLECTIVE_OP_EXSCAN] = "exscan",
    [OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK] = "reduce_scatter_block",
};
#define NOPNAMES (int)(sizeof op_names / sizeof op_names[0])

/* An open region on a location. */
typedef struct {
    uint32_t region;
    uint64_t enter;
    int coll;      /* a MpiCollectiveEnd came inside it */
    int op;
    uint32_t comm;
} frame_t;

/* A location: its open regions and its matched calls not yet printed. */
typedef struct {
    uint64_t id;
    frame_t stack[MAX_DEPTH];
    int depth;
    uint64_t *q;   /* pairs (arrival, exit), from head */
    long head, len, cap;
    long count;    /* matched calls in all */
} loc_t;

typedef struct {
    uint32_t type, paradigm, n;
    uint64_t *members;
} group_t;

typedef struct {
    const pt_opts_t *o;
    FILE *out;
    char *err;
    size_t errlen;
    int failed;
    /* definitions, indexed by ref */
    char **strs;
    uint32_t nstrs;
    uint32_t *region_name; /* region -> string ref */
    uint32_t nregions;
    group_t *groups;
    uint32_t ngroups;
    uint32_t *comm_group, *comm_name; /* comm -> group, name */
    uint32_t ncomms;
    loc_t *locs;           /* in definition order */
    long nlocs;
    uint64_t resolution;
    /* the pattern */
    int op;                /* --op, -1: any */
    long comm;             /* the communicator, -1: not known yet */
    long *rank_loc;        /* comm rank -> index in locs */
    int nranks;
    long calls;
    double *stats;         /* --stats: imbalance, run time, elapsed per call */
    long stats_cap;
    char otf2_msg[160];    /* libotf2's first error message, instead of its printing */
} im_t;

/* The first failure's line into err; -1. */
__attribute__((format(printf, 2, 3))) static int im_fail(im_t *x, const char *fmt, ...)
{
    va_list ap;

    if (!x->failed) {
        va_start(ap, fmt);
        vsnprintf(x->err, x->errlen, fmt, ap);
        va_end(ap);
    }
    x->failed = 1;
    return -1;
}

static OTF2_ErrorCode keep_error(void *u, const char *file, uint64_t line, const char *fn, OTF2_ErrorCode code,
                                 const char *fmt, va_list va)
{
    im_t *x = u;

    (void)file, (void)line, (void)fn;
    if (x->otf2_msg[0] == '\0')
        vsnprintf(x->otf2_msg, sizeof x->otf2_msg, fmt, va);
    return code;
}

/* A failed OTF2 read: its error, libotf2's first message, what it likely means. */
static int read_fail(im_t *x, const char *what, OTF2_ErrorCode rc)
{
    return im_fail(x, "%s: %s (%s): truncated or corrupt archive", what, OTF2_Error_GetDescription(rc),
                   x->otf2_msg[0] ? x->otf2_msg : OTF2_Error_GetName(rc));
}

/* Grows *p (elements of size sz) to hold index i. */
static int grow(void **p, uint32_t *n, uint32_t i, size_t sz)
{
    uint32_t m = *n;
    void *q;

    if (i < m)
        return 0;
    m = i + 1 > 2 * m ? i + 1 : 2 * m;
    if ((q = realloc(*p, (size_t)m * sz)) == NULL)
        return -1;
    memset((char *)q + (size_t)*n * sz, 0xff, (size_t)(m - *n) * sz);
    *p = q;
    *n = m;
    return 0;
}

static const char *str(const im_t *x, uint32_t ref)
{
    return ref < x->nstrs && x->strs[ref] != NULL ? x->strs[ref] : "";
}

static OTF2_CallbackCode def_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t real)
{
    (void)off, (void)len, (void)real;
    ((im_t *)u)->resolution = res;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s)
{
    im_t *x = u;
    uint32_t n = x->nstrs;

    if (grow((void **)&x->strs, &x->nstrs, self, sizeof *x->strs) != 0)
        return OTF2_CALLBACK_ERROR;
    memset(x->strs + n, 0, (size_t)(x->nstrs - n) * sizeof *x->strs);
    free(x->strs[self]);
    return (x->strs[self] = strdup(s)) ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canon,
                                    OTF2_StringRef desc, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t b, uint32_t e)
{
    im_t *x = u;

    (void)canon, (void)desc, (void)role, (void)paradigm, (void)flags, (void)file, (void)b, (void)e;
    if (grow((void **)&x->region_name, &x->nregions, self, sizeof *x->region_name) != 0)
        return OTF2_CALLBACK_ERROR;
    x->region_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                                      uint64_t nevents, OTF2_LocationGroupRef group)
{
    im_t *x = u;
    loc_t *l = realloc(x->locs, ((size_t)x->nlocs + 1) * sizeof *l);

    (void)name, (void)type, (void)nevents, (void)group;
    if (l == NULL)
        return OTF2_CALLBACK_ERROR;
    x->locs = l;
    memset(&l[x->nlocs], 0, sizeof *l);
    l[x->nlocs++].id = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    im_t *x = u;
    uint32_t old = x->ngroups, i;

    (void)name, (void)flags;
    if (grow((void **)&x->groups, &x->ngroups, self, sizeof *x->groups) != 0)
        return OTF2_CALLBACK_ERROR;
    for (i = old; i < x->ngroups; i++)
        x->groups[i].members = NULL, x->groups[i].n = 0;
    free(x->groups[self].members);
    x->groups[self] = (group_t){type, paradigm, n, malloc(((size_t)n + 1) * sizeof *members)};
    if (x->groups[self].members == NULL)
        return OTF2_CALLBACK_ERROR;
    memcpy(x->groups[self].members, members, (size_t)n * sizeof *members);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag flags)
{
    im_t *x = u;
    uint32_t n = x->ncomms;

    (void)parent, (void)flags;
    if (grow((void **)&x->comm_group, &n, self, sizeof *x->comm_group) != 0 ||
        grow((void **)&x->comm_name, &x->ncomms, self, sizeof *x->comm_name) != 0)
        return OTF2_CALLBACK_ERROR;
    x->comm_group[self] = group;
    x->comm_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static int cmp_loc(const void *a, const void *b)
{
    const loc_t *p = a, *q = b;

    return (p->id > q->id) - (p->id < q->id);
}

/* The location of id (locs sorted by id after the definitions). */
static loc_t *find_loc(im_t *x, uint64_t id)
{
    loc_t key;

    key.id = id;
    return bsearch(&key, x->locs, (size_t)x->nlocs, sizeof *x->locs, cmp_loc);
}

/*
 * The communicator's ranks as locations: its group lists ranks (Score-P's
 * COMM_GROUP), which the paradigm's COMM_LOCATIONS group maps to locations;
 * or it lists locations itself (COMM_LOCATIONS).
 */
static int resolve_comm(im_t *x, uint32_t comm)
{
    const group_t *g = comm < x->ncomms && x->comm_group[comm] < x->ngroups ? &x->groups[x->comm_group[comm]] : NULL;
    const group_t *map = NULL;
    uint32_t i;

    if (g == NULL || g->members == NULL)
        return im_fail(x, "communicator %ld has no group of ranks in the definitions", (long)comm);
    for (i = 0; g->type == OTF2_GROUP_TYPE_COMM_GROUP && i < x->ngroups; i++)
        if (x->groups[i].members && x->groups[i].type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
            x->groups[i].paradigm == g->paradigm)
            map = &x->groups[i];
    if (g->type != OTF2_GROUP_TYPE_COMM_LOCATIONS && (g->type != OTF2_GROUP_TYPE_COMM_GROUP || map == NULL))
        return im_fail(x, "communicator %s (%ld): its group maps no ranks to locations", str(x, x->comm_name[comm]),
                       (long)comm);
    if ((x->rank_loc = malloc(((size_t)g->n + 1) * sizeof *x->rank_loc)) == NULL)
        return im_fail(x, "out of memory");
    for (i = 0; i < g->n; i++) {
        uint64_t id = g->members[i];
        loc_t *l;

        if (map != NULL)
            id = id < map->n ? map->members[id] : UINT64_MAX;
        if ((l = find_loc(x, id)) == NULL)
            return im_fail(x, "communicator %s: rank %ld has no location", str(x, x->comm_name[comm]), (long)i);
        x->rank_loc[i] = l - x->locs;
    }
    x->nranks = (int)g->n;
    x->comm = comm;
    return 0;
}

/* One call: every rank's (arrival, exit) in ticks. */
static void emit(im_t *x, const uint64_t *ae)
{
    double lo = INFINITY, hi = -INFINITY, end = -INFINITY, sum = 0, res = (double)x->resolution;
    int i;

    for (i = 0; i < x->nranks; i++) {
        double a = (double)ae[2 * i] / res, f = (double)ae[2 * i + 1] / res;

        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
        end = f > end ? f : end;
        sum += f - a;
    }
    if (x->o->stats_only) {
        if (x->calls * 3 + 3 > x->stats_cap) {
            long cap = x->stats_cap ? 2 * x->stats_cap : 3 * 1024;
            double *p = realloc(x->stats, (size_t)cap * sizeof *p);

            if (p == NULL) {
                im_fail(x, "out of memory");
                return;
            }
            x->stats = p, x->stats_cap = cap;
        }
        x->stats[3 * x->calls] = hi - lo;
        x->stats[3 * x->calls + 1] = end - lo;
        x->stats[3 * x->calls + 2] = sum / x->nranks;
    } else {
        /* Ticks to seconds after the earliest arrival, exact in integers first. */
        uint64_t t0 = UINT64_MAX;

        for (i = 0; i < x->nranks; i++)
            t0 = ae[2 * i] < t0 ? ae[2 * i] : t0;
        for (i = 0; i < x->nranks; i++)
            fprintf(x->out, "%s%.9f", i ? " " : "", (double)(ae[2 * i] - t0) / res);
        fputc('\n', x->out);
    }
    x->calls++;
}

/* Prints every call that all ranks have queued. */
static void drain(im_t *x)
{
    uint64_t *ae;
    int i;

    if (x->comm < 0 || (ae = malloc(2 * (size_t)x->nranks * sizeof *ae)) == NULL)
        return;
    for (;;) {
        for (i = 0; i < x->nranks; i++)
            if (x->locs[x->rank_loc[i]].len == 0) {
                free(ae);
                return;
            }
        for (i = 0; i < x->nranks; i++) {
            loc_t *l = &x->locs[x->rank_loc[i]];

            ae[2 * i] = l->q[2 * l->head];
            ae[2 * i + 1] = l->q[2 * l->head + 1];
            l->head++, l->len--;
            if (l->len == 0)
                l->head = 0;
        }
        emit(x, ae);
    }
}

static int push(im_t *x, loc_t *l, uint64_t a, uint64_t f)
{
    if (l->head + l->len == l->cap) {
        if (l->head > 0) { /* move the queue to the front */
            memmove(l->q, l->q + 2 * l->head, 2 * (size_t)l->len * sizeof *l->q);
            l->head = 0;
        } else {
            long cap = l->cap ? 2 * l->cap : 64;
            uint64_t *q = realloc(l->q, 2 * (size_t)cap * sizeof *q);

            if (q == NULL)
                return im_fail(x, "out of memory");
            l->q = q, l->cap = cap;
        }
    }
    l->q[2 * (l->head + l->len)] = a;
    l->q[2 * (l->head + l->len) + 1] = f;
    l->len++;
    l->count++;
    return 0;
}

/* A call that matched the filter, on communicator comm. */
static int matched(im_t *x, loc_t *l, const frame_t *fr, uint64_t exit)
{
    if (x->o->otf2_comm >= 0 && (long)fr->comm != x->o->otf2_comm)
        return 0;
    if (x->comm < 0 && resolve_comm(x, fr->comm) != 0)
        return -1;
    if ((long)fr->comm != x->comm)
        return im_fail(x, "matching calls on communicators %s (%ld) and %ld: choose one with --comm ID",
                       str(x, x->comm_name[x->comm]), x->comm, (long)fr->comm);
    if (push(x, l, fr->enter, exit) != 0)
        return -1;
    drain(x);
    return x->failed ? -1 : 0;
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                  OTF2_RegionRef region)
{
    im_t *x = u;
    loc_t *l = find_loc(x, loc);

    (void)al;
    if (l == NULL || l->depth == MAX_DEPTH) {
        im_fail(x, "location %ld: undefined, or more than %d nested regions", (long)loc, MAX_DEPTH);
        return OTF2_CALLBACK_INTERRUPT;
    }
    l->stack[l->depth++] = (frame_t){region, t, 0, -1, 0};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                     OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t recvd)
{
    im_t *x = u;
    loc_t *l = find_loc(x, loc);

    (void)t, (void)al, (void)root, (void)sent, (void)recvd;
    if (l != NULL && l->depth > 0) {
        frame_t *fr = &l->stack[l->depth - 1];

        fr->coll = 1, fr->op = op, fr->comm = comm;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp t, void *u, OTF2_AttributeList *al,
                                  OTF2_RegionRef region)
{
    im_t *x = u;
    loc_t *l = find_loc(x, loc);
    frame_t fr;

    (void)al;
    if (l == NULL || l->depth == 0 || l->stack[l->depth - 1].region != region) {
        im_fail(x, "location %ld: Leave without its Enter", (long)loc);
        return OTF2_CALLBACK_INTERRUPT;
    }
    fr = l->stack[--l->depth];
    if (!fr.coll)
        return OTF2_CALLBACK_SUCCESS;
    if (x->o->region != NULL && strcmp(str(x, region < x->nregions ? x->region_name[region] : UINT32_MAX),
                                       x->o->region) != 0)
        return OTF2_CALLBACK_SUCCESS;
    if (x->op >= 0 && fr.op != x->op)
        return OTF2_CALLBACK_SUCCESS;
    return matched(x, l, &fr, t) == 0 ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_INTERRUPT;
}

/* The global definitions; locations sorted for find_loc. */
static int read_defs(im_t *x, OTF2_Reader *r)
{
    OTF2_GlobalDefReader *gr = OTF2_Reader_GetGlobalDefReader(r);
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    uint64_t n = 0;
    OTF2_ErrorCode rc = gr && cb ? OTF2_SUCCESS : OTF2_ERROR_MEM_ALLOC_FAILED;

    rc = rc ? rc : OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    rc = rc ? rc : OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    rc = rc ? rc : OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    rc = rc ? rc : OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    rc = rc ? rc : OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    rc = rc ? rc : OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    rc = rc ? rc : OTF2_Reader_RegisterGlobalDefCallbacks(r, gr, cb, x);
    rc = rc ? rc : OTF2_Reader_ReadAllGlobalDefinitions(r, gr, &n);
    if (cb)
        OTF2_GlobalDefReaderCallbacks_Delete(cb);
    if (gr)
        OTF2_Reader_CloseGlobalDefReader(r, gr);
    if (rc != OTF2_SUCCESS)
        return read_fail(x, "reading the definitions", rc);
    if (x->resolution == 0 || x->nlocs == 0)
        return im_fail(x, "the definitions have no clock properties or no locations");
    qsort(x->locs, (size_t)x->nlocs, sizeof *x->locs, cmp_loc);
    return 0;
}

/* Every location's events, merged in time. */
static int read_events(im_t *x, OTF2_Reader *r)
{
    OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReader *ger = NULL;
    uint64_t n = 0;
    OTF2_ErrorCode rc = cb ? OTF2_SUCCESS : OTF2_ERROR_MEM_ALLOC_FAILED;
    long i;

    for (i = 0; rc == OTF2_SUCCESS && i < x->nlocs; i++)
        rc = OTF2_Reader_SelectLocation(r, x->locs[i].id);
    rc = rc ? rc : OTF2_Reader_OpenEvtFiles(r);
    for (i = 0; rc == OTF2_SUCCESS && i < x->nlocs; i++)
        rc = OTF2_Reader_GetEvtReader(r, x->locs[i].id) ? OTF2_SUCCESS : OTF2_ERROR_INDEX_OUT_OF_BOUNDS;
    rc = rc ? rc : OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    rc = rc ? rc : OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    rc = rc ? rc : OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
    if (rc == OTF2_SUCCESS && (ger = OTF2_Reader_GetGlobalEvtReader(r)) == NULL)
        rc = OTF2_ERROR_MEM_ALLOC_FAILED;
    rc = rc ? rc : OTF2_Reader_RegisterGlobalEvtCallbacks(r, ger, cb, x);
    rc = rc ? rc : OTF2_Reader_ReadAllGlobalEvents(r, ger, &n);
    if (cb)
        OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    if (ger)
        OTF2_Reader_CloseGlobalEvtReader(r, ger);
    if (rc != OTF2_SUCCESS && !x->failed)
        return read_fail(x, "reading the events", rc);
    return x->failed ? -1 : 0;
}

/* After the last event: every rank printed the same calls, some matched at all. */
static int check_counts(im_t *x, const char *archive)
{
    int i;

    if (x->comm < 0)
        return im_fail(x, "%s: no collective call matches (see --region, --op, --comm)", archive);
    for (i = 0; i < x->nranks; i++)
        if (x->locs[x->rank_loc[i]].count != x->locs[x->rank_loc[0]].count)
            return im_fail(x, "ranks with different call counts on communicator %s: rank 0 has %ld, rank %d has %ld",
                           str(x, x->comm_name[x->comm]), x->locs[x->rank_loc[0]].count, i,
                           x->locs[x->rank_loc[i]].count);
    return 0;
}

static void print_stats(im_t *x, const char *archive)
{
    static const char *const names[3] = {"imbalance I", "run time r", "elapsed e"};
    double *v = malloc(((size_t)x->calls + 1) * sizeof *v);
    pm_stats_t st;
    long k;
    int m;

    fprintf(x->out, "%s: communicator %s (%ld), %d ranks, %ld calls\n", archive, str(x, x->comm_name[x->comm]),
            x->comm, x->nranks, x->calls);
    fprintf(x->out, "    %-22s %10s %10s %10s %10s\n", "", "mean", "median", "min", "max");
    for (m = 0; v != NULL && m < 3; m++) {
        for (k = 0; k < x->calls; k++)
            v[k] = x->stats[3 * k + m];
        if (pm_stats(v, (int)x->calls, &st) == 0)
            fprintf(x->out, "    %-22s %10.4g %10.4g %10.4g %10.4g ms\n", names[m], st.mean * 1e3, st.median * 1e3,
                    st.min * 1e3, st.max * 1e3);
    }
    free(v);
}

static void free_im(im_t *x)
{
    uint32_t i;
    long l;

    for (i = 0; i < x->nstrs; i++)
        free(x->strs[i]);
    for (i = 0; i < x->ngroups; i++)
        free(x->groups[i].members);
    for (l = 0; l < x->nlocs; l++)
        free(x->locs[l].q);
    free(x->strs);
    free(x->groups);
    free(x->region_name);
    free(x->comm_group);
    free(x->comm_name);
    free(x->locs);
    free(x->rank_loc);
    free(x->stats);
}

/* --op NAME: its OTF2 op, or -1 with the list in err. */
static int find_op(im_t *x, const char *name)
{
    int i;

    for (i = 0; i < NOPNAMES; i++)
        if (op_names[i] && strcmp(op_names[i], name) == 0)
            return i;
    return im_fail(x, "--op: unknown collective '%s' (barrier, bcast, gather, scatter, allreduce, reduce, "
                      "alltoall, ...: MPI's names in lower case)", name);
}

int pt_cmd_pat_otf2(const char *archive, const pt_opts_t *o, FILE *out, char *err, size_t errlen)
{
    im_t x = {.o = o, .out = out, .err = err, .errlen = errlen, .op = -1, .comm = -1};
    OTF2_Reader *r = NULL;
    OTF2_ErrorCallback old = OTF2_Error_RegisterCallback(keep_error, &x);
    struct stat st;
    int rc;

    rc = o->op != NULL && (x.op = find_op(&x, o->op)) < 0 ? -1 : 0;
    if (rc == 0 && (stat(archive, &st) != 0 || !S_ISREG(st.st_mode)))
        rc = im_fail(&x, "%s: %s", archive, errno ? strerror(errno) : "not a regular file (the .otf2 anchor file)");
    if (rc == 0 && (r = OTF2_Reader_Open(archive)) == NULL)
        rc = im_fail(&x, "%s: not an OTF2 archive (no anchor file, or it cannot be read)", archive);
    if (rc == 0 && OTF2_Reader_SetSerialCollectiveCallbacks(r) != OTF2_SUCCESS)
        rc = im_fail(&x, "%s: OTF2 reader setup failed", archive);
    if (rc == 0 && !o->stats_only)
        fprintf(out, "# paptrace pat --otf2 %s%s%s%s%s: delays in seconds from each call's earliest arrival\n",
                archive, o->region ? ", region " : "", o->region ? o->region : "", o->op ? ", op " : "",
                o->op ? o->op : "");
    rc = rc ? rc : read_defs(&x, r);
    rc = rc ? rc : read_events(&x, r);
    rc = rc ? rc : check_counts(&x, archive);
    if (rc == 0 && o->stats_only)
        print_stats(&x, archive);
    if (r)
        OTF2_Reader_Close(r);
    OTF2_Error_RegisterCallback(old, NULL);
    free_im(&x);
    return rc;
}

#else /* !PAPTRACE_HAVE_OTF2 */

int pt_cmd_pat_otf2(const char *archive, const pt_opts_t *o, FILE *out, char *err, size_t errlen)
{
    (void)archive, (void)o, (void)out;
    snprintf(err, errlen, "this paptrace was built without OTF2: install libotf2-trace-dev (jobs/deps --install), "
                          "then make clean all");
    return -1;
}

#endif
