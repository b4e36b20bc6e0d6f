/*
 * check_inter: intercommunicator collectives of an unmodified program.
 * MPI_COMM_WORLD is split into two unequal groups (A: the first (P - 1) / 2
 * ranks; B: the rest), joined by MPI_Intercomm_create; then
 * bcast, gather, scatter, reduce and allreduce run in both directions, with
 * every rank of the root's group as the root in turn and counts 0, 1 and
 * 37, and are checked against values computed locally:
 *
 *   bcast    a strided vector type (the gaps must stay untouched);
 *   gather   the root receives each block as one contiguous type of n ints;
 *   reduce, allreduce  a non-commutative user operation on a derived type
 *            (affine maps x -> a x + b composed in rank order), and MPI_SUM.
 *
 * MPI_PROC_NULL ranks' buffers must stay untouched.  The intercommunicator
 * is freed and made again (a second round), so that the interposer's state
 * of the first is released.
 *
 * Prints "FAIL check_inter: ..." per wrong result and a last line
 * "check_inter: P=N: K checks, F failed"; exits 1 when anything failed.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 37
#define POISON (-7)

static int g_rank, g_size;
static long g_checks, g_failed;

static void check(int ok, const char *what, int root, int n)
{
    g_checks++;
    if (ok)
        return;
    g_failed++;
    if (g_failed <= 20)
        printf("FAIL check_inter: world rank %d: %s (root %d, n %d)\n", g_rank, what, root, n);
}

static int val(int group, int rank, int i)
{
    return 1000 * group + 100 * rank + i;
}

/* An affine map x -> a x + b; (f o g)(x) = f(g(x)): a = fa ga, b = fa gb + fb. */
typedef struct {
    unsigned a, b;
} affine_t;

static affine_t compose(affine_t f, affine_t g)
{
    affine_t r = {f.a * g.a, f.a * g.b + f.b};
    return r;
}

/* inout = in o inout: in comes from the lower ranks. */
static void affine_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    affine_t *x = in, *y = inout;
    int i;

    (void)type;
    for (i = 0; i < *len; i++)
        y[i] = compose(x[i], y[i]);
}

static affine_t aff(int group, int rank, int i)
{
    affine_t r = {(unsigned)(2 * rank + 3 + group), (unsigned)(7 * rank + i + 1)};
    return r;
}

typedef struct {
    MPI_Comm inter;
    int group, rank, size, rsize; /* group: 0 for A, 1 for B */
    MPI_Datatype affine, stride2;
    MPI_Op op;
} ctx_t;

/* The root argument of a rank whose group holds the root (rank r of it), or the other group's. */
static int root_arg(const ctx_t *x, int rgroup, int r)
{
    if (x->group != rgroup)
        return r;
    return x->rank == r ? MPI_ROOT : MPI_PROC_NULL;
}

static void t_bcast(const ctx_t *x, int rgroup, int r, int n)
{
    int buf[2 * MAXN], i, ok = 1, root = root_arg(x, rgroup, r);

    for (i = 0; i < 2 * MAXN; i++)
        buf[i] = root == MPI_ROOT && i % 2 == 0 ? val(rgroup, r, i / 2) : POISON;
    MPI_Bcast(buf, n, x->stride2, root, x->inter);
    for (i = 0; i < 2 * MAXN; i++) {
        int want = x->group != rgroup && i % 2 == 0 && i / 2 < n ? val(rgroup, r, i / 2) : POISON;
        if (root == MPI_ROOT && i % 2 == 0)
            want = val(rgroup, r, i / 2);
        ok &= buf[i] == want;
    }
    check(ok, "bcast", r, n);
}

static void t_gather(const ctx_t *x, int rgroup, int r, int n)
{
    int sbuf[MAXN], *rbuf = malloc(sizeof(int) * (size_t)(MAXN * g_size + 1)), i, k, ok = 1;
    int root = root_arg(x, rgroup, r);
    MPI_Datatype block;

    for (i = 0; i < MAXN * g_size + 1; i++)
        rbuf[i] = POISON;
    for (i = 0; i < n; i++)
        sbuf[i] = val(x->group, x->rank, i);
    if (n > 0) {
        MPI_Type_contiguous(n, MPI_INT, &block);
        MPI_Type_commit(&block);
    } else {
        block = MPI_INT;
    }
    MPI_Gather(sbuf, n, MPI_INT, rbuf, n > 0 ? 1 : 0, block, root, x->inter);
    for (k = 0; k < x->rsize; k++)
        for (i = 0; i < n; i++)
            ok &= rbuf[k * n + i] == (root == MPI_ROOT ? val(1 - rgroup, k, i) : POISON);
    ok &= rbuf[x->rsize * n] == POISON;
    check(ok, "gather", r, n);
    if (n > 0)
        MPI_Type_free(&block);
    free(rbuf);
}

static void t_scatter(const ctx_t *x, int rgroup, int r, int n)
{
    int *sbuf = malloc(sizeof(int) * (size_t)(MAXN * g_size + 1)), rbuf[MAXN + 1], i, ok = 1;
    int root = root_arg(x, rgroup, r);

    for (i = 0; i < MAXN * g_size + 1; i++)
        sbuf[i] = root == MPI_ROOT ? val(rgroup, r, i) : POISON;
    for (i = 0; i <= MAXN; i++)
        rbuf[i] = POISON;
    MPI_Scatter(sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, x->inter);
    for (i = 0; i <= MAXN; i++)
        ok &= rbuf[i] == (x->group != rgroup && i < n ? val(rgroup, r, x->rank * n + i) : POISON);
    check(ok, "scatter", r, n);
    free(sbuf);
}

/* The group's affine maps composed in rank order, and its sum, at element i. */
static affine_t want_affine(int group, int size, int i)
{
    affine_t acc = aff(group, 0, i);
    int k;

    for (k = 1; k < size; k++)
        acc = compose(acc, aff(group, k, i));
    return acc;
}

static void t_reduce(const ctx_t *x, int rgroup, int r, int n, int all)
{
    affine_t s[MAXN], d[MAXN + 1], w;
    int si[MAXN], di[MAXN + 1], i, ok = 1, root = all ? 0 : root_arg(x, rgroup, r), got = 0, wsum;

    for (i = 0; i < n; i++) {
        s[i] = aff(x->group, x->rank, i);
        si[i] = val(x->group, x->rank, i);
    }
    for (i = 0; i <= MAXN; i++) {
        d[i].a = d[i].b = (unsigned)POISON;
        di[i] = POISON;
    }
    if (all) {
        MPI_Allreduce(s, d, n, x->affine, x->op, x->inter);
        MPI_Allreduce(si, di, n, MPI_INT, MPI_SUM, x->inter);
    } else {
        MPI_Reduce(s, d, n, x->affine, x->op, root, x->inter);
        MPI_Reduce(si, di, n, MPI_INT, MPI_SUM, root, x->inter);
    }
    got = all || root == MPI_ROOT; /* the remote group's results are here */
    for (i = 0; i <= MAXN; i++) {
        int k;
        w = want_affine(1 - x->group, x->rsize, i);
        for (wsum = 0, k = 0; k < x->rsize; k++)
            wsum += val(1 - x->group, k, i);
        if (got && i < n)
            ok &= d[i].a == w.a && d[i].b == w.b && di[i] == wsum;
        else if (!all && root == MPI_PROC_NULL)
            ok &= d[i].a == (unsigned)POISON && di[i] == POISON;
        else if (i >= n)
            ok &= d[i].a == (unsigned)POISON && di[i] == POISON;
    }
    check(ok, all ? "allreduce" : "reduce", r, n);
}

static void round_of(ctx_t *x)
{
    static const int counts[] = {0, 1, MAXN};
    int rgroup, r, c, rsizes[2];

    rsizes[x->group] = x->size;
    rsizes[1 - x->group] = x->rsize;
    for (rgroup = 0; rgroup < 2; rgroup++)
        for (r = 0; r < rsizes[rgroup]; r++)
            for (c = 0; c < 3; c++) {
                t_bcast(x, rgroup, r, counts[c]);
                t_gather(x, rgroup, r, counts[c]);
                t_scatter(x, rgroup, r, counts[c]);
                t_reduce(x, rgroup, r, counts[c], 0);
            }
    for (c = 0; c < 3; c++)
        t_reduce(x, 0, 0, counts[c], 1);
}

int main(int argc, char **argv)
{
    MPI_Comm half;
    ctx_t x;
    int na, it;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    if (g_size < 2) {
        printf("check_inter: needs 2 ranks or more\n");
        MPI_Finalize();
        return 1;
    }
    na = (g_size - 1) / 2;
    x.group = g_rank >= na;
    MPI_Type_contiguous(2, MPI_UNSIGNED, &x.affine);
    MPI_Type_commit(&x.affine);
    MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &x.stride2); /* every other int */
    MPI_Type_commit(&x.stride2);
    MPI_Op_create(affine_op, 0, &x.op);
    MPI_Comm_split(MPI_COMM_WORLD, x.group, g_rank, &half);
    for (it = 0; it < 2; it++) {
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, x.group ? 0 : na, 11 + it, &x.inter);
        MPI_Comm_rank(x.inter, &x.rank);
        MPI_Comm_size(x.inter, &x.size);
        MPI_Comm_remote_size(x.inter, &x.rsize);
        round_of(&x);
        MPI_Comm_free(&x.inter);
    }
    MPI_Comm_free(&half);
    MPI_Op_free(&x.op);
    MPI_Type_free(&x.affine);
    MPI_Type_free(&x.stride2);
    {
        long in[2] = {g_checks, g_failed}, out[2];
        MPI_Reduce(in, out, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        g_checks = out[0];
        g_failed = out[1];
    }
    if (g_rank == 0)
        printf("check_inter: P=%d: %ld checks, %ld failed\n", g_size, g_checks, g_failed);
    fflush(stdout);
    MPI_Finalize();
    return g_rank == 0 && g_failed > 0;
}
