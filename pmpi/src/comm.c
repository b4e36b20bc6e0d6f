/*
 * Per communicator: the interposer's state hangs on the program's
 * communicator as an attribute of our own keyval, whose delete callback
 * releases everything when the program frees the communicator (and
 * MPI_Finalize deletes the attribute of every communicator still alive).
 *
 * A communicator's state is created at its first handled collective, which
 * every rank of it reaches at the same point of its sequence of collectives:
 * we duplicate it (our communicator for agreements, the papcoll context and
 * the trace; papcoll duplicates it again for its call sites), create the
 * papcoll context on the duplicate and open its trace file.  The program's
 * communicator itself carries nothing else and no traffic of ours.
 *
 * Every outcome that ranks must share (context created or not, trace open or
 * not, site created or not) is agreed; allocations that a site needs are made
 * with the communicator, so no rank can drop out of a collective step for
 * want of memory while the others enter it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi.h"

static int keyval = MPI_KEYVAL_INVALID;
static int inter_keyval = MPI_KEYVAL_INVALID; /* intercommunicators: ip_inter_t */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static ip_comm_t *live;     /* newest first: MPI_Finalize releases in reverse creation order */
static int world_file_used; /* PAPCOLL_TRACE holds a communicator of every rank already */
static int files_named;     /* trace files named by this process for other communicators */
/* The attribute of a communicator whose context could not be created: its
 * calls pass through without another attempt (no allocation needed). */
static ip_comm_t failed;
static ip_inter_t inter_failed; /* the same for an intercommunicator */

static void release(ip_comm_t *pc);

static int delete_cb(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm;
    (void)key;
    (void)extra;
    if (val != &failed) {
        ip_inside++;
        release(val);
        ip_inside--;
    }
    return MPI_SUCCESS;
}

/* Collective over both groups, as MPI_Comm_free of the intercommunicator
 * is: freeing the local communicator releases its state (delete_cb). */
static void inter_free(ip_inter_t *in)
{
    if (in->local != MPI_COMM_NULL)
        PMPI_Comm_free(&in->local);
    if (in->p2p != MPI_COMM_NULL)
        PMPI_Comm_free(&in->p2p);
    free(in);
}

static int inter_delete_cb(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm;
    (void)key;
    (void)extra;
    if (val != &inter_failed) {
        ip_inside++;
        inter_free(val);
        ip_inside--;
    }
    return MPI_SUCCESS;
}

int ip_comm_keyval(void)
{
    int rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_cb, &keyval, NULL);

    return rc != MPI_SUCCESS ? rc : PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, inter_delete_cb, &inter_keyval, NULL);
}

/* "MPI_COMM_WORLD (4 ranks)" or "split (2 of 4 ranks: 1 3)". */
static void make_label(ip_comm_t *pc, int world_like)
{
    char name[MPI_MAX_OBJECT_NAME] = "";
    int len = 0, i, n, r, wr;
    MPI_Group g, wg;
    size_t k;

    PMPI_Comm_get_name(pc->user, name, &len);
    if (world_like) {
        snprintf(pc->label, sizeof pc->label, "%s (%d ranks)", len ? name : "world-sized", pc->size);
        return;
    }
    k = (size_t)snprintf(pc->label, sizeof pc->label, "%s (%d of %d ranks:", len ? name : "communicator",
                         pc->size, ip_g.world_size);
    n = pc->size < 6 ? pc->size : 6;
    PMPI_Comm_group(pc->user, &g);
    PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    for (i = 0; i < n && k < sizeof pc->label; i++) {
        r = i;
        PMPI_Group_translate_ranks(g, 1, &r, wg, &wr);
        k += (size_t)snprintf(pc->label + k, sizeof pc->label - k, " %d", wr);
    }
    if (k < sizeof pc->label)
        snprintf(pc->label + k, sizeof pc->label - k, "%s)", n < pc->size ? " ..." : "");
    PMPI_Group_free(&g);
    PMPI_Group_free(&wg);
}

/* PAPCOLL_TRACE for the first communicator of every rank; STEM.R.K.h5 for
 * the others (R: this process's world rank, K: its count; only the name on
 * the communicator's rank 0 is used, so names never collide). */
static void trace_path(ip_comm_t *pc, int world_like)
{
    const char *t = ip_g.cfg.trace;
    size_t n = strlen(t);

    if (n > 3 && strcmp(t + n - 3, ".h5") == 0)
        n -= 3;
    pthread_mutex_lock(&live_lock); /* threads may create contexts of different communicators */
    if (world_like && !world_file_used) {
        world_file_used = 1;
        snprintf(pc->path, sizeof pc->path, "%s", t);
    } else {
        snprintf(pc->path, sizeof pc->path, "%.*s.%d.%d.h5", (int)n, t, ip_g.world_rank, ++files_named);
    }
    pthread_mutex_unlock(&live_lock);
}

static void open_trace(ip_comm_t *pc, int world_like)
{
    char config[2048];
    paptrace_meta_t meta = {ip_g.program, ip_g.argc, ip_g.argv, config, ip_g.cfg.flush};
    int rc;

    trace_path(pc, world_like);
    ip_config_text(&ip_g.cfg, pc, config, sizeof config);
    rc = paptrace_open(pc->ctx, pc->dup, pc->path, &meta, &pc->trace); /* agreed status */
    if (rc != PAPTRACE_OK) {
        if (pc->rank == 0)
            fprintf(stderr, "papcoll_pmpi: trace '%s' for %s: %s; its calls are not recorded\n", pc->path,
                    pc->label, paptrace_strerror(rc));
        pc->trace = NULL;
        pc->path[0] = '\0';
    }
}

/* The papcoll context on our duplicate; every rank learns whether all succeeded. */
static int make_context(ip_comm_t *pc)
{
    papcoll_options_t o;
    int rc, ok, all = 0;

    memset(&o, 0, sizeof o);
    /* Trace mode runs the MPI library's algorithm: no monitor thread, no
     * exchanges, and none of the warnings that concern PAP algorithms. */
    o.no_monitor = o.quiet = ip_g.cfg.mode == IP_MODE_TRACE;
    rc = papcoll_init(pc->dup, &o, &pc->ctx);
    ok = rc == PAPCOLL_OK;
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, pc->dup) != MPI_SUCCESS)
        all = 0;
    if (!all && pc->ctx != NULL)
        papcoll_finalize(&pc->ctx);
    if (!all && pc->rank == 0)
        fprintf(stderr, "papcoll_pmpi: %s: no papcoll context (%s); its collectives go to PMPI\n", pc->label,
                rc != PAPCOLL_OK ? papcoll_strerror(rc) : "failed on another rank");
    return all;
}

static ip_comm_t *create(MPI_Comm comm)
{
    ip_comm_t *pc = calloc(1, sizeof *pc);
    int ok, all = 0, cmp = MPI_UNEQUAL;

    if (pc != NULL &&
        (pc->sites = calloc((size_t)ip_g.cfg.max_sites + PAPCOLL_OP_COUNT, sizeof *pc->sites)) == NULL) {
        free(pc);
        pc = NULL;
    }
    ok = pc != NULL;
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS || !all ||
        PMPI_Comm_dup(comm, &pc->dup) != MPI_SUCCESS) {
        if (pc != NULL)
            free(pc->sites);
        free(pc);
        PMPI_Comm_set_attr(comm, keyval, &failed);
        return &failed;
    }
    PMPI_Comm_set_errhandler(pc->dup, MPI_ERRORS_RETURN);
    pc->user = comm;
    pc->prev = -1;
    pc->check = MPI_REQUEST_NULL;
    pc->cap = ip_g.cfg.max_sites;
    PMPI_Comm_rank(comm, &pc->rank);
    PMPI_Comm_size(comm, &pc->size);
    PMPI_Comm_compare(comm, MPI_COMM_WORLD, &cmp);
    make_label(pc, cmp == MPI_IDENT || cmp == MPI_CONGRUENT);
    if (make_context(pc)) {
        ip_count(IP_CNT_COMMS, 1);
        if (ip_g.cfg.trace[0] != '\0')
            open_trace(pc, cmp == MPI_IDENT || cmp == MPI_CONGRUENT);
    }
    PMPI_Comm_set_attr(comm, keyval, pc);
    pthread_mutex_lock(&live_lock);
    pc->next = live;
    live = pc;
    pthread_mutex_unlock(&live_lock);
    return pc;
}

/* The state of a communicator, created at its first handled collective. */
ip_comm_t *ip_comm_get(MPI_Comm comm)
{
    ip_comm_t *pc = NULL;
    int flag = 0;

    if (PMPI_Comm_get_attr(comm, keyval, &pc, &flag) == MPI_SUCCESS && flag)
        return pc;
    return create(comm);
}

/*
 * An intercommunicator's state, made at its first collective, which every
 * rank of both groups reaches at the same point of its sequence of
 * collectives: the two groups merged (ours, only to build the rest), this
 * group's local communicator cut from it with MPI_Comm_create_group (the
 * ranks in the intercommunicator's local order), and a duplicate of the
 * intercommunicator for the leaders' messages.  Every rank of both groups
 * learns whether all of it worked; if not, the intercommunicator's calls
 * pass through (the attribute says so; no second attempt).
 */
static ip_inter_t *inter_create(MPI_Comm comm)
{
    ip_inter_t *in = calloc(1, sizeof *in);
    MPI_Comm merged = MPI_COMM_NULL;
    MPI_Group g = MPI_GROUP_NULL;
    int ok, all = 0;

    if (PMPI_Intercomm_merge(comm, 0, &merged) != MPI_SUCCESS) {
        free(in);
        PMPI_Comm_set_attr(comm, inter_keyval, &inter_failed);
        return NULL;
    }
    if (in != NULL)
        in->local = in->p2p = MPI_COMM_NULL;
    PMPI_Comm_set_errhandler(merged, MPI_ERRORS_RETURN);
    ok = in != NULL && PMPI_Comm_group(comm, &g) == MPI_SUCCESS;
    if (PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, merged) == MPI_SUCCESS && all) {
        ok = PMPI_Comm_create_group(merged, g, 0, &in->local) == MPI_SUCCESS;
        ok &= PMPI_Comm_dup(comm, &in->p2p) == MPI_SUCCESS;
        if (PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, merged) != MPI_SUCCESS)
            ok = 0;
        all = ok;
    }
    if (g != MPI_GROUP_NULL)
        PMPI_Group_free(&g);
    PMPI_Comm_free(&merged);
    if (!all) {
        if (in != NULL)
            inter_free(in);
        PMPI_Comm_set_attr(comm, inter_keyval, &inter_failed);
        return NULL;
    }
    PMPI_Comm_set_errhandler(in->p2p, MPI_ERRORS_RETURN);
    PMPI_Comm_set_name(in->local, "intercomm-local");
    PMPI_Comm_rank(comm, &in->rank);
    PMPI_Comm_size(comm, &in->size);
    PMPI_Comm_remote_size(comm, &in->rsize);
    PMPI_Comm_set_attr(comm, inter_keyval, in);
    return in;
}

/* An intercommunicator's state; NULL: its calls pass through. */
ip_inter_t *ip_inter_get(MPI_Comm inter)
{
    ip_inter_t *in = NULL;
    int flag = 0;

    if (PMPI_Comm_get_attr(inter, inter_keyval, &in, &flag) == MPI_SUCCESS && flag)
        return in != &inter_failed ? in : NULL;
    return inter_create(inter);
}

/* "reduce@prog+0x1a2b/r0/8B" (PATH; "/h<hash>" added when deeper frames
 * count), "reduce/r0/8B" (SIGNATURE, then where the ranks called from),
 * "reduce@overflow" (OVERFLOW). */
static void site_name(const ip_call_t *c, ip_kind_t kind, uint64_t key, long long bytes, char *buf, size_t len)
{
    char where[48];
    size_t n;

    if (kind == IP_SITE_OVERFLOW) {
        snprintf(buf, len, "%s@overflow", papcoll_op_name(c->op));
        return;
    }
    if (kind == IP_SITE_PATH)
        ip_site_label(c->caller, where, sizeof where);
    n = (size_t)snprintf(buf, len, "%s%s%s", papcoll_op_name(c->op), kind == IP_SITE_PATH ? "@" : "",
                         kind == IP_SITE_PATH ? where : "");
    if (n < len && c->root >= 0)
        n += (size_t)snprintf(buf + n, len - n, "/r%d", c->root);
    if (n < len)
        n += (size_t)snprintf(buf + n, len - n, "/%lldB", bytes);
    if (n < len && kind == IP_SITE_PATH && ip_g.cfg.depth > 1)
        snprintf(buf + n, len - n, "/h%06llx", (unsigned long long)(key >> 40));
}

/*
 * A signature site's name ends with where its ranks called from, e.g.
 * " [root at gather2+0x2585, others at +0x267e]": the root's place (rank 0's
 * for allreduce), then the other ranks' distinct places, each shortened to
 * its offset when in the same module as the first.  Collective over the
 * duplicate: every rank creates the site at the same agreed call.  Returns
 * every rank's place, IP_LABEL bytes each (NULL: the name stays without).
 */
#define IP_LABEL 48
static char *name_places(ip_comm_t *pc, const ip_call_t *c, char *buf, size_t len)
{
    char mine[IP_LABEL] = "", *all = malloc((size_t)pc->size * IP_LABEL);
    const char *first, *l, *plus;
    int r0 = c->root >= 0 ? c->root : 0, i, j, shown = 0;
    size_t n = strlen(buf), mod;

    ip_site_label(c->caller, mine, sizeof mine);
    if (PMPI_Allgather(mine, IP_LABEL, MPI_CHAR, all, all ? IP_LABEL : 0, MPI_CHAR, pc->dup) != MPI_SUCCESS ||
        all == NULL) { /* the name only: the site works without it */
        free(all);
        return NULL;
    }
    first = all + (size_t)r0 * IP_LABEL;
    plus = strchr(first, '+');
    mod = plus ? (size_t)(plus - first) : 0;
    n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " [%s at %s", c->root >= 0 ? "root" : "rank 0", first);
    for (i = 0; i < pc->size && n < len; i++) {
        l = all + (size_t)i * IP_LABEL;
        for (j = 0; j < i && (j == r0 || strcmp(all + (size_t)j * IP_LABEL, l) != 0); j++)
            ;
        if (i == r0 || j < i) /* the root, or a place already shown */
            continue;
        if (mod > 0 && strncmp(l, first, mod) == 0 && l[mod] == '+')
            l += mod;
        n += (size_t)snprintf(buf + n, len - n, "%s%s", shown++ ? ", " : ", others at ", l);
    }
    if (n < len)
        snprintf(buf + n, len - n, "]");
    return all;
}

/* Rank 0 of a traced communicator: the places of a signature site go into
 * its trace group (attribute `places`, one per rank). */
static void trace_places(const ip_comm_t *pc, const ip_site_t *s, char *all)
{
    char **p;
    int i;

    if (all == NULL || pc->trace == NULL || s->site == NULL || pc->rank != 0 ||
        (p = malloc((size_t)pc->size * sizeof *p)) == NULL)
        return;
    for (i = 0; i < pc->size; i++)
        p[i] = all + (size_t)i * IP_LABEL;
    if (paptrace_site_places(pc->trace, papcoll_site_id(s->site), p) != PAPTRACE_OK)
        fprintf(stderr, "papcoll_pmpi: %s, call site %s: its places are not in the trace\n", pc->label, s->name);
    free(p);
}

static int find_site(const ip_comm_t *pc, ip_kind_t kind, uint64_t key)
{
    int i;

    for (i = 0; i < pc->nsites; i++)
        if (pc->sites[i].key == key && pc->sites[i].kind == kind)
            return i;
    return -1;
}

/*
 * The site of an agreed call (the same on every rank): PATH sites by the
 * path key, SIGNATURE sites by the signature; found, or created (collective
 * over the context).  Once the communicator has PAPCOLL_MAX_SITES sites, a
 * new one is the op's OVERFLOW site instead, created on its first use: the
 * calls of every later place share it (their roots and sizes vary per call,
 * which papcoll sites handle, and the trace keeps them per call).  Returns 0
 * with *idx, or a ip_pass_t reason + 1.
 */
int ip_comm_site(ip_comm_t *pc, const ip_call_t *c, ip_kind_t kind, const ip_key_t *k, long long bytes, int *idx)
{
    uint64_t key = kind == IP_SITE_PATH ? k->path : k->sig;
    char *places = NULL;
    ip_site_t *s;
    int i, rc;

    if ((i = find_site(pc, kind, key)) < 0 && pc->nsites >= pc->cap) {
        kind = IP_SITE_OVERFLOW;
        key = (uint64_t)c->op;
        i = find_site(pc, kind, key);
    }
    if (i >= 0) {
        *idx = i;
        pc->sites[i].mine = k->path;
        return pc->sites[i].site != NULL ? 0 : IP_PASS_NOSITE + 1;
    }
    s = &pc->sites[pc->nsites];
    memset(s, 0, sizeof *s);
    s->key = key;
    s->mine = k->path;
    s->kind = kind;
    s->op = c->op;
    s->root = c->root;
    s->bytes = bytes;
    s->next = -1;
    site_name(c, kind, key, bytes, s->name, sizeof s->name);
    if (kind == IP_SITE_SIGNATURE && ip_g.cfg.depth > 0)
        places = name_places(pc, c, s->name, sizeof s->name);
    rc = papcoll_site_create(pc->ctx, s->name, c->op, ip_g.cfg.mode == IP_MODE_TRACE ? "fixed:mpi" : NULL,
                             &s->site);
    trace_places(pc, s, places);
    free(places);
    if (rc != PAPCOLL_OK && pc->rank == 0)
        fprintf(stderr, "papcoll_pmpi: %s, call site %s: %s; its calls go to PMPI\n", pc->label, s->name,
                papcoll_strerror(rc));
    if (rc == PAPCOLL_OK)
        ip_count(IP_CNT_SITES, 1);
    *idx = pc->nsites++;
    return rc == PAPCOLL_OK ? 0 : IP_PASS_NOSITE + 1;
}

/* A call whose ranks came from different sites, noted under this rank's. */
void ip_comm_diverged(ip_comm_t *pc, const ip_call_t *c, uint64_t key, long long bytes)
{
    int i;

    for (i = 0; i < pc->ndiverged && pc->diverged[i].key != key; i++)
        ;
    if (i == IP_MAX_DIVERGED)
        return;
    if (i == pc->ndiverged) {
        pc->ndiverged++;
        pc->diverged[i].key = key;
        site_name(c, IP_SITE_PATH, key, bytes, pc->diverged[i].name, sizeof pc->diverged[i].name);
    }
    pc->diverged[i].calls++;
}

/* The summary lists this many sites per communicator, the busiest first
 * (the trace file and paptrace info have them all). */
#define IP_LISTED_SITES 12

/* Rank 0 of the communicator: its sites and trace file for the summary. */
static void note_summary(const ip_comm_t *pc, int trace_rc)
{
    int order[IP_LISTED_SITES], n = 0, i, j, k;
    char line[1400];

    if (pc->rank != 0 || pc->ctx == NULL)
        return;
    snprintf(line, sizeof line, "%s: %d call site%s%s%s%s\n", pc->label, pc->nsites, pc->nsites == 1 ? "" : "s",
             pc->path[0] ? ", trace " : "", pc->path,
             trace_rc != PAPTRACE_OK ? " (NOT WRITTEN COMPLETELY: see the error above)" : "");
    ip_summary_note(line);
    for (i = 0; i < pc->nsites; i++) { /* insertion into the top list, by calls */
        for (j = n; j > 0 && pc->sites[order[j - 1]].calls < pc->sites[i].calls; j--)
            if (j < IP_LISTED_SITES)
                order[j] = order[j - 1];
        if (j < IP_LISTED_SITES)
            order[j] = i;
        n += n < IP_LISTED_SITES;
    }
    for (k = 0; k < n; k++) {
        const ip_site_t *s = &pc->sites[order[k]];

        snprintf(line, sizeof line, "  site %-3d %-44s %8ld calls  %s\n", order[k], s->name, s->calls,
                 s->algo ? s->algo : "(PMPI: no site)");
        ip_summary_note(line);
    }
    if (pc->nsites > n) {
        snprintf(line, sizeof line, "  ... %d more sites with fewer calls%s\n", pc->nsites - n,
                 pc->path[0] ? " (paptrace info lists them all)" : "");
        ip_summary_note(line);
    }
    for (i = 0; i < pc->ndiverged; i++) {
        snprintf(line, sizeof line, "  calls differ at %-38s %8ld calls  (PMPI; the place on rank 0)\n",
                 pc->diverged[i].name, pc->diverged[i].calls);
        ip_summary_note(line);
    }
}

/* Collective over the communicator (delete callback or MPI_Finalize). */
static void release(ip_comm_t *pc)
{
    ip_comm_t **p;
    int i, trc = PAPTRACE_OK;

    ip_trace_flush(pc);
    ip_agree_drain(pc);
    for (i = 0; i < pc->nsites; i++)
        if (pc->sites[i].site != NULL) {
            pc->sites[i].algo = papcoll_site_algo(pc->sites[i].site);
            papcoll_site_free(&pc->sites[i].site);
        }
    if (pc->trace != NULL && (trc = paptrace_close(&pc->trace)) != PAPTRACE_OK && pc->rank == 0)
        fprintf(stderr, "papcoll_pmpi: trace '%s': %s\n", pc->path, paptrace_strerror(trc));
    note_summary(pc, trc);
    if (pc->ctx != NULL)
        papcoll_finalize(&pc->ctx);
    PMPI_Comm_free(&pc->dup);
    pthread_mutex_lock(&live_lock);
    for (p = &live; *p != NULL && *p != pc; p = &(*p)->next)
        ;
    if (*p != NULL)
        *p = pc->next;
    pthread_mutex_unlock(&live_lock);
    free(pc->sites);
    free(pc);
}

/*
 * MPI_Finalize: every communicator still alive, newest first.  Correct
 * programs create their communicators' states in an order that no two ranks
 * contradict (each state starts at a collective), so the reverse order is
 * also consistent and these collective releases cannot cross.
 */
void ip_comm_release_all(void)
{
    ip_comm_t *pc;

    for (;;) {
        pthread_mutex_lock(&live_lock);
        pc = live;
        pthread_mutex_unlock(&live_lock);
        if (pc == NULL)
            break;
        PMPI_Comm_delete_attr(pc->user, keyval); /* runs delete_cb -> release */
        pthread_mutex_lock(&live_lock);
        if (live == pc) /* the attribute was gone: release it ourselves */
            live = pc->next;
        else
            pc = NULL;
        pthread_mutex_unlock(&live_lock);
        if (pc != NULL)
            release(pc);
    }
}
