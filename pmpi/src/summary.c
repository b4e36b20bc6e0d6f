/*
 * Counters of this process and the summary world rank 0 prints at
 * MPI_Finalize (docs/pmpi.md, "The summary"): every rank counts its own calls,
 * the summary sums them (a collective on P ranks counts P rank-calls), and
 * each communicator's rank 0 contributes the lines of its call sites and
 * trace file.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi.h"

static long long counters[IP_NCOUNTERS];
static long long agree_ns[2]; /* [0] waits for checks, [1] blocking agreements */
static pthread_mutex_t notes_lock = PTHREAD_MUTEX_INITIALIZER;
static char *notes;           /* this process's lines for the summary */
static size_t notes_len, notes_dropped;
#define NOTES_MAX (64 * 1024)

static const char *const labels[] = {
#define IP_REASON_LABEL(name, label, text) label,
    IP_REASONS(IP_REASON_LABEL)
#undef IP_REASON_LABEL
};
static const char *const texts[] = {
#define IP_REASON_TEXT(name, label, text) text,
    IP_REASONS(IP_REASON_TEXT)
#undef IP_REASON_TEXT
};
static const char *const keys[] = {
#define IP_REASON_KEY(name, label, text) #name,
    IP_REASONS(IP_REASON_KEY)
#undef IP_REASON_KEY
};

void ip_count(int counter, long long n)
{
    __atomic_fetch_add(&counters[counter], n, __ATOMIC_RELAXED);
}

void ip_time_agree(double seconds, int blocking)
{
    __atomic_fetch_add(&agree_ns[blocking != 0], (long long)(seconds * 1e9), __ATOMIC_RELAXED);
}

const char *ip_pass_label(ip_pass_t r)
{
    return r < IP_PASS_COUNT ? labels[r] : "?";
}

/* A line for the summary (a communicator's rank 0 adds its sites). */
void ip_summary_note(const char *line)
{
    size_t n = strlen(line);
    char *grown;

    pthread_mutex_lock(&notes_lock);
    if (notes_len + n + 1 > NOTES_MAX || (grown = realloc(notes, notes_len + n + 1)) == NULL) {
        notes_dropped++;
    } else {
        notes = grown;
        memcpy(notes + notes_len, line, n + 1);
        notes_len += n;
    }
    pthread_mutex_unlock(&notes_lock);
}

/* Every process's notes, concatenated on rank 0 (NULL elsewhere). */
static char *gather_notes(int rank, int size)
{
    int mine = (int)notes_len, *lens = NULL, *displs = NULL, i, total = 0;
    char *all = NULL;

    if (rank == 0 && ((lens = calloc((size_t)size, sizeof *lens)) == NULL ||
                      (displs = calloc((size_t)size, sizeof *displs)) == NULL))
        mine = -1; /* rank 0 could not take them: the summary says so */
    PMPI_Gather(&mine, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0 && lens != NULL && displs != NULL) {
        for (i = 0; i < size; i++) {
            displs[i] = total;
            total += lens[i] > 0 ? lens[i] : 0;
        }
        all = calloc((size_t)total + 1, 1);
    }
    PMPI_Gatherv(notes ? notes : "", mine > 0 ? mine : 0, MPI_CHAR, all, lens, displs, MPI_CHAR, 0,
                 MPI_COMM_WORLD);
    free(lens);
    free(displs);
    return all;
}

static void print_reasons(FILE *o, const long long *c)
{
    long long passed = 0;
    int i;

    for (i = 0; i < IP_PASS_COUNT; i++)
        passed += c[i];
    fprintf(o, "papcoll_pmpi:   passed to PMPI untouched %12lld  (", passed);
    for (i = 0; i < PAPCOLL_OP_COUNT; i++)
        fprintf(o, "%s%s %lld", i ? ", " : "", papcoll_op_name((papcoll_op_t)i), c[IP_CNT_PASSED_OP0 + i]);
    fprintf(o, ")\n");
    for (i = 0; i < IP_PASS_COUNT; i++) {
        fprintf(o, "papcoll_pmpi:     %-20s %12lld  %s", labels[i], c[i], texts[i]);
        if (i == IP_PASS_SMALL)
            fprintf(o, " (%d)", ip_g.cfg.min_ranks);
        fputc('\n', o);
    }
}

/* One line for scripts: key=value, every counter. */
static void print_counts(FILE *o, const long long *c)
{
    char key[32];
    int i, j;

    fprintf(o, "papcoll_pmpi: counts:");
    for (i = 0; i < PAPCOLL_OP_COUNT; i++)
        fprintf(o, " %s=%lld", papcoll_op_name((papcoll_op_t)i), c[IP_CNT_OP0 + i]);
    for (i = 0; i < PAPCOLL_OP_COUNT; i++)
        fprintf(o, " %s_passed=%lld", papcoll_op_name((papcoll_op_t)i), c[IP_CNT_PASSED_OP0 + i]);
    for (i = 0; i < IP_PASS_COUNT; i++) {
        for (j = 0; keys[i][j] && j < (int)sizeof key - 1; j++)
            key[j] = (char)tolower((unsigned char)keys[i][j]);
        key[j] = '\0';
        fprintf(o, " %s=%lld", key, c[i]);
    }
    fprintf(o, " path_keyed=%lld signature_keyed=%lld overflow=%lld inter_local=%lld parts=%lld parts_passed=%lld",
            c[IP_CNT_KIND0 + IP_SITE_PATH], c[IP_CNT_KIND0 + IP_SITE_SIGNATURE], c[IP_CNT_KIND0 + IP_SITE_OVERFLOW],
            c[IP_CNT_INTER], c[IP_CNT_PARTS], c[IP_CNT_PARTS_PASSED]);
    fprintf(o, " nested=%lld agreed=%lld signature=%lld trusted=%lld mispredicted=%lld checks=%lld"
                    " check_failed=%lld comms=%lld sites=%lld errors=%lld\n",
            c[IP_CNT_NESTED], c[IP_CNT_AGREED], c[IP_CNT_SIGNATURE], c[IP_CNT_TRUSTED], c[IP_CNT_MISPREDICTED],
            c[IP_CNT_CHECKS], c[IP_CNT_CHECK_FAILED], c[IP_CNT_COMMS], c[IP_CNT_SITES], c[IP_CNT_ERRORS]);
}

static void print_human(FILE *o, const long long *c, const double *ns, int size)
{
    long long handled = 0;
    char how[64];
    int i;

    for (i = 0; i < PAPCOLL_OP_COUNT; i++)
        handled += c[IP_CNT_OP0 + i];
    fprintf(o, "papcoll_pmpi: summary: mode %s, %d ranks; counts are rank-calls (a collective on P ranks "
                    "counts P), summed over ranks\n",
            ip_mode_name(ip_g.cfg.mode), size);
    fprintf(o, "papcoll_pmpi:   through papcoll          %12lld  (", handled);
    for (i = 0; i < PAPCOLL_OP_COUNT; i++)
        fprintf(o, "%s%s %lld", i ? ", " : "", papcoll_op_name((papcoll_op_t)i), c[IP_CNT_OP0 + i]);
    fprintf(o, ")\n");
    fprintf(o, "papcoll_pmpi:     on path-keyed sites    %12lld  every rank called from the same place\n",
            c[IP_CNT_KIND0 + IP_SITE_PATH]);
    fprintf(o, "papcoll_pmpi:     on signature sites     %12lld  %s\n", c[IP_CNT_KIND0 + IP_SITE_SIGNATURE],
            ip_g.cfg.depth > 0 ? "the ranks called from different places (e.g. root and others)"
                               : "sites by op, root and size (PAPCOLL_SITE_DEPTH=0)");
    fprintf(o, "papcoll_pmpi:     on overflow sites      %12lld  places past PAPCOLL_MAX_SITES (%d), one site per op\n",
            c[IP_CNT_KIND0 + IP_SITE_OVERFLOW], ip_g.cfg.max_sites);
    fprintf(o, "papcoll_pmpi:     intercommunicator,     %12lld  via local groups: their %lld local collectives "
                    "through papcoll, %lld to PMPI\n",
            c[IP_CNT_INTER], c[IP_CNT_PARTS], c[IP_CNT_PARTS_PASSED]);
    print_reasons(o, c);
    if (ip_g.cfg.mode == IP_MODE_TRACE)
        snprintf(how, sizeof how, "in windows of %d calls, overlapped: the wait", IP_TRACE_WINDOW);
    else
        snprintf(how, sizeof how, "blocking allreduce");
    fprintf(o, "papcoll_pmpi:   call sites: %lld rank-calls agreed (%s, mean %.1f us), %lld by "
                    "signature (no agreement), %lld trusted (%lld checks, mean wait %.1f us, %lld found a miss; "
                    "%lld rank-calls came from another site than the trusted one and were recorded under it)\n",
            c[IP_CNT_AGREED], how, c[IP_CNT_AGREED] ? ns[1] / 1e3 / (double)c[IP_CNT_AGREED] : 0.0,
            c[IP_CNT_SIGNATURE],
            c[IP_CNT_TRUSTED], c[IP_CNT_CHECKS], c[IP_CNT_CHECKS] ? ns[0] / 1e3 / (double)c[IP_CNT_CHECKS] : 0.0,
            c[IP_CNT_CHECK_FAILED], c[IP_CNT_MISPREDICTED]);
    fprintf(o, "papcoll_pmpi:   %lld MPI calls of the interposer itself went straight to PMPI; %lld papcoll "
                    "errors\n",
            c[IP_CNT_NESTED], c[IP_CNT_ERRORS]);
}

/* Rank 0: the whole summary, from the summed counters and every process's
 * notes (all: NULL when they could not be collected). */
static void print_summary(FILE *o, const long long *sum, const double *ns, char *all)
{
    char *line, *save = NULL;

    print_human(o, sum, ns, ip_g.world_size);
    fprintf(o, "papcoll_pmpi:   communicators with a papcoll context: %lld, call sites: %lld\n", sum[IP_CNT_COMMS],
            sum[IP_CNT_SITES]);
    if (all == NULL)
        fprintf(o, "papcoll_pmpi:   (the per-site lines could not be collected: out of memory)\n");
    for (line = all ? strtok_r(all, "\n", &save) : NULL; line != NULL; line = strtok_r(NULL, "\n", &save))
        fprintf(o, "papcoll_pmpi:   %s\n", line);
    print_counts(o, sum);
}

/*
 * Collective over MPI_COMM_WORLD, after every communicator was released.
 * The text is written with one call, so that mpirun, which forwards every
 * rank's stdout and stderr, cannot interleave other output with its lines.
 */
void ip_summary_print(void)
{
    long long sum[IP_NCOUNTERS], ns_in[2], ns_out[2];
    double ns[2];
    int rank = ip_g.world_rank;
    char *all, *text = NULL;
    size_t len = 0;
    FILE *o;

    ns_in[0] = agree_ns[0];
    ns_in[1] = agree_ns[1];
    PMPI_Reduce(counters, sum, IP_NCOUNTERS, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    PMPI_Reduce(ns_in, ns_out, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    all = gather_notes(rank, ip_g.world_size);
    if (rank == 0) {
        ns[0] = (double)ns_out[0];
        ns[1] = (double)ns_out[1];
        o = open_memstream(&text, &len);
        print_summary(o ? o : stderr, sum, ns, all);
        if (o != NULL && fclose(o) == 0)
            fwrite(text, 1, len, stderr);
        free(text);
    }
    if (notes_dropped > 0)
        fprintf(stderr, "papcoll_pmpi: rank %d: %zu summary lines dropped (more than %d bytes)\n", rank,
                notes_dropped, NOTES_MAX);
    free(all);
    free(notes);
    notes = NULL;
    notes_len = 0;
}
