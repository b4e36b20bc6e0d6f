/*
 * check_c: an ordinary MPI program -- it knows nothing of papcoll -- that
 * checks the results of its own collectives.  tests/pmpi.sh runs it under
 * libpapcoll_pmpi.so in trace mode and with every algorithm forced.
 *
 * Sections: every op at several roots and sizes (count 0 included);
 * MPI_IN_PLACE; derived datatypes with different layouts on the root and on
 * the leaves, MPI_BOTTOM with absolute addresses, MPI_DOUBLE_INT/MAXLOC;
 * user operations, commutative and not; sub-communicators of MPI_Comm_split
 * (created and freed twice); non-blocking point-to-point, wildcard receives
 * included, mixed with collectives; several call sites in a loop; one call
 * site reached from different code paths on different ranks; a path that
 * diverges late in a loop; an intercommunicator; MPI_COMM_SELF.
 *
 * Prints one "FAIL check_c: ..." line per wrong result and a last line
 * "check_c: P=N: K checks, F failed"; exits 1 when anything failed.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_rank, g_size, g_iters = 24;
static long g_checks, g_failed;
static volatile int g_odd_calls; /* keeps path_odd's code distinct from path_even's */

static void check(int ok, const char *section, const char *what, int line)
{
    g_checks++;
    if (ok)
        return;
    g_failed++;
    if (g_failed <= 20)
        printf("FAIL check_c: rank %d: %s: %s (line %d)\n", g_rank, section, what, line);
}
#define CHECK(ok, section, what) check((ok), (section), (what), __LINE__)

/* The value rank r contributes at index i. */
static int val(int r, int i)
{
    return r * 1000003 + i;
}

static int *ints(size_t n)
{
    int *p = malloc((n ? n : 1) * sizeof *p);

    if (p == NULL) {
        fprintf(stderr, "check_c: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

static void fill(int *b, int r, int n)
{
    int i;

    for (i = 0; i < n; i++)
        b[i] = val(r, i);
}

/* gather and scatter of n ints at root, on comm (rank, size of comm). */
static void blocks(MPI_Comm comm, int rank, int size, int root, int n)
{
    int *mine = ints((size_t)n), *all = ints((size_t)n * (size_t)size), ok = 1, r, i;

    fill(mine, rank, n);
    memset(all, 0xff, (size_t)n * (size_t)size * sizeof(int));
    MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, root, comm);
    for (r = 0; rank == root && r < size; r++)
        for (i = 0; i < n; i++)
            ok &= all[r * n + i] == val(r, i);
    CHECK(ok, "basic", "gather");
    for (r = 0; rank == root && r < size; r++)
        fill(all + (size_t)r * n, r, n);
    memset(mine, 0, (size_t)n * sizeof(int));
    MPI_Scatter(all, n, MPI_INT, mine, n, MPI_INT, root, comm);
    for (i = 0, ok = 1; i < n; i++)
        ok &= mine[i] == val(rank, i);
    CHECK(ok, "basic", "scatter");
    free(mine);
    free(all);
}

/* bcast, reduce and allreduce of n ints at root, on comm. */
static void vectors(MPI_Comm comm, int rank, int size, int root, int n)
{
    int *a = ints((size_t)n), *b = ints((size_t)n), ok = 1, i, r;
    long long want;

    fill(a, rank == root ? 7 : rank, n);
    MPI_Bcast(a, n, MPI_INT, root, comm);
    for (i = 0; i < n; i++)
        ok &= a[i] == val(7, i);
    CHECK(ok, "basic", "bcast");
    fill(a, rank, n);
    memset(b, 0, (size_t)n * sizeof(int));
    MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, root, comm);
    for (i = 0, ok = 1; rank == root && i < n; i++) {
        for (r = 0, want = 0; r < size; r++)
            want += val(r, i);
        ok &= b[i] == (int)want;
    }
    CHECK(ok, "basic", "reduce sum");
    MPI_Allreduce(a, b, n, MPI_INT, MPI_MAX, comm);
    for (i = 0, ok = 1; i < n; i++)
        ok &= b[i] == val(size - 1, i);
    CHECK(ok, "basic", "allreduce max");
    free(a);
    free(b);
}

static void basic(MPI_Comm comm)
{
    static const int counts[] = {0, 1, 5000};
    int rank, size, c, k, roots[2];

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    roots[0] = 0;
    roots[1] = size - 1;
    for (k = 0; k < 2; k++)
        for (c = 0; c < 3; c++) {
            blocks(comm, rank, size, roots[k], counts[c]);
            vectors(comm, rank, size, roots[k], counts[c]);
        }
}

static void in_place(void)
{
    int n = 300, root = g_size / 2, *all = ints((size_t)n * (size_t)g_size), *b = ints((size_t)n), ok = 1, r, i;

    if (g_rank == root)
        fill(all + (size_t)root * n, root, n);
    fill(b, g_rank, n);
    MPI_Gather(g_rank == root ? MPI_IN_PLACE : b, n, MPI_INT, all, n, MPI_INT, root, MPI_COMM_WORLD);
    for (r = 0; g_rank == root && r < g_size; r++)
        for (i = 0; i < n; i++)
            ok &= all[r * n + i] == val(r, i);
    CHECK(ok, "in-place", "gather");
    memset(b, 0, (size_t)n * sizeof(int));
    MPI_Scatter(all, n, MPI_INT, g_rank == root ? MPI_IN_PLACE : b, n, MPI_INT, root, MPI_COMM_WORLD);
    for (i = 0, ok = 1; g_rank != root && i < n; i++)
        ok &= b[i] == val(g_rank, i);
    for (i = 0; g_rank == root && i < n; i++)
        ok &= all[root * n + i] == val(root, i);
    CHECK(ok, "in-place", "scatter");
    fill(b, g_rank, n);
    MPI_Reduce(g_rank == root ? MPI_IN_PLACE : b, g_rank == root ? b : NULL, n, MPI_INT, MPI_MIN, root,
               MPI_COMM_WORLD);
    for (i = 0, ok = 1; g_rank == root && i < n; i++)
        ok &= b[i] == val(0, i);
    CHECK(ok, "in-place", "reduce");
    fill(b, g_rank, n);
    MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    for (i = 0, ok = 1; i < n; i++) {
        int want = 0;

        for (r = 0; r < g_size; r++)
            want |= val(r, i);
        ok &= b[i] == want;
    }
    CHECK(ok, "in-place", "allreduce");
    free(all);
    free(b);
}

/* Root: block r lands at indices r, r + P, r + 2P, ... (a transposed
 * layout); leaves: every other int of a 2n buffer. */
static void layouts_gather_scatter(int root, int n)
{
    MPI_Datatype strided, column, tcol;
    int *src = ints(2 * (size_t)n), *mat = ints((size_t)n * (size_t)g_size), ok = 1, r, i;

    MPI_Type_vector(n, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    MPI_Type_vector(n, 1, g_size, MPI_INT, &column);
    MPI_Type_create_resized(column, 0, sizeof(int), &tcol);
    MPI_Type_commit(&tcol);
    for (i = 0; i < n; i++)
        src[2 * i] = val(g_rank, i), src[2 * i + 1] = -1;
    MPI_Gather(src, 1, strided, mat, 1, tcol, root, MPI_COMM_WORLD);
    for (r = 0; g_rank == root && r < g_size; r++)
        for (i = 0; i < n; i++)
            ok &= mat[i * g_size + r] == val(r, i);
    CHECK(ok, "datatypes", "gather: strided leaves, transposed root");
    memset(src, 0, 2 * (size_t)n * sizeof(int));
    MPI_Scatter(mat, 1, tcol, src, 1, strided, root, MPI_COMM_WORLD);
    for (i = 0, ok = 1; i < n; i++)
        ok &= src[2 * i] == val(g_rank, i) && src[2 * i + 1] == 0;
    CHECK(ok, "datatypes", "scatter: transposed root, strided leaves");
    MPI_Type_free(&strided);
    MPI_Type_free(&column);
    MPI_Type_free(&tcol);
    free(src);
    free(mat);
}

/* bcast: the root sends every other int, the leaves receive contiguous
 * ints; then MPI_BOTTOM with a struct of absolute addresses. */
static void layouts_bcast(int root, int n)
{
    MPI_Datatype strided, abs_type;
    int *b = ints(2 * (size_t)n), ok = 1, i, x = 0;
    double d = 0;
    MPI_Aint addr[2];
    int lens[2] = {1, 1};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};

    MPI_Type_vector(n, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    for (i = 0; i < 2 * n; i++)
        b[i] = g_rank == root ? (i % 2 ? -5 : val(3, i / 2)) : 0;
    /* One call site for all ranks: with two (if/else), the ranks would
     * reach it from different sites and the call would go to PMPI. */
    MPI_Bcast(b, g_rank == root ? 1 : n, g_rank == root ? strided : MPI_INT, root, MPI_COMM_WORLD);
    for (i = 0; g_rank != root && i < n; i++)
        ok &= b[i] == val(3, i);
    CHECK(ok, "datatypes", "bcast: strided root, contiguous leaves");
    if (g_rank == root)
        x = 42, d = 2.5;
    MPI_Get_address(&x, &addr[0]);
    MPI_Get_address(&d, &addr[1]);
    MPI_Type_create_struct(2, lens, addr, types, &abs_type);
    MPI_Type_commit(&abs_type);
    MPI_Bcast(MPI_BOTTOM, 1, abs_type, root, MPI_COMM_WORLD);
    CHECK(x == 42 && d == 2.5, "datatypes", "bcast of MPI_BOTTOM with absolute addresses");
    MPI_Type_free(&strided);
    MPI_Type_free(&abs_type);
    free(b);
}

/* User operations on derived types (predefined operations take predefined
 * types only): a sum over the ints of a strided type, which leaves its gaps
 * alone, and a sum over blocks of 4 ints. */
static int g_strided_n;
static void strided_sum_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    MPI_Aint lb, extent;
    int k, j;

    MPI_Type_get_extent(*type, &lb, &extent);
    for (k = 0; k < *len; k++) {
        int *a = (int *)((char *)in + k * extent), *b = (int *)((char *)inout + k * extent);

        for (j = 0; j < g_strided_n; j++)
            b[2 * j] += a[2 * j];
    }
}

static void quad_sum_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int *a = in, *b = inout, i;

    (void)type;
    for (i = 0; i < 4 * *len; i++)
        b[i] += a[i];
}

/* Reductions on derived types, and MPI_DOUBLE_INT with MPI_MAXLOC. */
static void layouts_reduce(int root, int n)
{
    MPI_Datatype strided, quad;
    MPI_Op ssum, qsum;
    struct {
        double v;
        int i;
    } in, out;
    int *a = ints(2 * (size_t)n), *b = ints(2 * (size_t)n), ok = 1, i, want;

    MPI_Type_vector(n, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    MPI_Type_contiguous(4, MPI_INT, &quad);
    MPI_Type_commit(&quad);
    MPI_Op_create(strided_sum_op, 1, &ssum);
    MPI_Op_create(quad_sum_op, 1, &qsum);
    g_strided_n = n;
    for (i = 0; i < 2 * n; i++)
        a[i] = i % 2 ? 99 : g_rank + i, b[i] = -7;
    MPI_Reduce(a, b, 1, strided, ssum, root, MPI_COMM_WORLD);
    for (i = 0; g_rank == root && i < n; i++) {
        want = g_size * (2 * i) + g_size * (g_size - 1) / 2;
        ok &= b[2 * i] == want && b[2 * i + 1] == -7;
    }
    CHECK(ok, "datatypes", "reduce of a strided type (gaps untouched)");
    MPI_Allreduce(a, b, n / 4, quad, qsum, MPI_COMM_WORLD);
    for (i = 0, ok = 1; i < 4 * (n / 4); i++)
        ok &= b[i] == g_size * (i % 2 ? 99 : i) + (i % 2 ? 0 : g_size * (g_size - 1) / 2);
    CHECK(ok, "datatypes", "allreduce of contiguous blocks of 4 ints");
    in.v = (double)((g_rank * 7) % g_size);
    in.i = g_rank;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    for (i = 0, want = 0; i < g_size; i++)
        if ((i * 7) % g_size > (want * 7) % g_size)
            want = i;
    CHECK(out.v == (double)((want * 7) % g_size) && out.i == want, "datatypes", "allreduce MAXLOC of DOUBLE_INT");
    MPI_Op_free(&ssum);
    MPI_Op_free(&qsum);
    MPI_Type_free(&strided);
    MPI_Type_free(&quad);
    free(a);
    free(b);
}

/* Affine maps x -> a x + b mod M, composed in rank order: not commutative. */
#define AFF_M 1000003LL
static void affine_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    long long *f = in, *g = inout;
    int i;

    (void)type;
    for (i = 0; i < *len; i++, f += 2, g += 2) {
        long long a = f[0] * g[0] % AFF_M, b = (g[0] * f[1] + g[1]) % AFF_M;

        g[0] = a;
        g[1] = b;
    }
}

/* Commutative: elementwise maximum of |x|. */
static void absmax_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int *a = in, *b = inout, i;

    (void)type;
    for (i = 0; i < *len; i++)
        b[i] = abs(a[i]) > abs(b[i]) ? abs(a[i]) : abs(b[i]);
}

/* Non-commutative reduce at root and allreduce on comm, n maps per rank. */
static void user_ops_on(MPI_Comm comm, int root, int n)
{
    MPI_Datatype pair;
    MPI_Op affine;
    long long *x = malloc(2 * (size_t)n * sizeof *x), *y = malloc(2 * (size_t)n * sizeof *y), a, b, ta;
    int rank, size, ok = 1, i, r;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Type_contiguous(2, MPI_LONG_LONG, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(affine_op, 0, &affine);
    for (i = 0; i < n; i++)
        x[2 * i] = 2 + (rank * 31 + i) % 97, x[2 * i + 1] = (rank * 17 + 3 * i) % 101;
    MPI_Reduce(x, y, n, pair, affine, root, comm);
    for (i = 0; rank == root && i < n; i++) {
        for (r = 0, a = 1, b = 0; r < size; r++) {
            ta = 2 + (r * 31 + i) % 97;
            b = (ta * b + (r * 17 + 3 * i) % 101) % AFF_M;
            a = a * ta % AFF_M;
        }
        ok &= y[2 * i] == a && y[2 * i + 1] == b;
    }
    CHECK(ok, "user ops", "reduce with a non-commutative op");
    MPI_Allreduce(x, y, n, pair, affine, comm);
    for (i = 0, ok = 1; i < n; i++) {
        for (r = 0, a = 1, b = 0; r < size; r++) {
            ta = 2 + (r * 31 + i) % 97;
            b = (ta * b + (r * 17 + 3 * i) % 101) % AFF_M;
            a = a * ta % AFF_M;
        }
        ok &= y[2 * i] == a && y[2 * i + 1] == b;
    }
    CHECK(ok, "user ops", "allreduce with a non-commutative op");
    MPI_Op_free(&affine);
    MPI_Type_free(&pair);
    free(x);
    free(y);
}

static void user_ops(void)
{
    MPI_Op absmax;
    int n = 1000, *a = ints((size_t)n), *b = ints((size_t)n), ok = 1, i;

    user_ops_on(MPI_COMM_WORLD, 0, 300);
    user_ops_on(MPI_COMM_WORLD, g_size - 1, 7);
    MPI_Op_create(absmax_op, 1, &absmax);
    for (i = 0; i < n; i++)
        a[i] = (g_rank % 2 ? -1 : 1) * ((g_rank * 13 + i) % 50);
    MPI_Allreduce(a, b, n, MPI_INT, absmax, MPI_COMM_WORLD);
    for (i = 0; i < n; i++) {
        int want = 0, r;

        for (r = 0; r < g_size; r++)
            want = (r * 13 + i) % 50 > want ? (r * 13 + i) % 50 : want;
        ok &= b[i] == want;
    }
    CHECK(ok, "user ops", "allreduce with a commutative op");
    MPI_Op_free(&absmax);
    free(a);
    free(b);
}

/* Two splits, each used and freed (the interposer's state goes with them). */
static void subcomms(void)
{
    MPI_Comm sub;
    int round, rank, size;

    for (round = 0; round < 2; round++) {
        MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, round ? -g_rank : g_rank, &sub);
        MPI_Comm_rank(sub, &rank);
        MPI_Comm_size(sub, &size);
        blocks(sub, rank, size, size - 1, 100);
        vectors(sub, rank, size, 0, 100);
        user_ops_on(sub, size - 1, 5);
        MPI_Comm_free(&sub);
    }
}

/* Non-blocking point-to-point around collectives, a wildcard receive
 * included: no library message may match it. */
static void p2p_mixed(void)
{
    int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
    int got[2] = {-1, -1}, wild[2] = {-1, -1}, out[2] = {g_rank, 11}, note[2] = {g_rank, 22}, sum = 0, one = 1;
    MPI_Request req[3];
    MPI_Status st;

    MPI_Irecv(got, 2, MPI_INT, left, 7, MPI_COMM_WORLD, &req[1]);
    MPI_Irecv(wild, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(out, 2, MPI_INT, right, 7, MPI_COMM_WORLD, &req[2]);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == g_size, "p2p", "allreduce between isend and wait");
    MPI_Bcast(&sum, 1, MPI_INT, g_size - 1, MPI_COMM_WORLD);
    MPI_Waitall(2, req + 1, MPI_STATUSES_IGNORE);
    CHECK(got[0] == left && got[1] == 11, "p2p", "ring message");
    MPI_Send(note, 2, MPI_INT, right, 8, MPI_COMM_WORLD);
    MPI_Wait(&req[0], &st);
    CHECK(wild[0] == left && wild[1] == 22 && st.MPI_TAG == 8, "p2p", "wildcard receive got the program's message");
}

/* Five call sites, each reached every iteration. */
static void loop_sites(void)
{
    int it, ok = 1, x[4], all[64], i, root;

    for (it = 0; it < g_iters; it++) {
        root = it % g_size;
        x[0] = g_rank + it;
        MPI_Allreduce(x, x + 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        ok &= x[1] == g_size * it + g_size * (g_size - 1) / 2;
        MPI_Gather(x, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (i = 0; g_rank == 0 && i < g_size && i < 64; i++)
            ok &= all[i] == i + it;
        x[2] = g_rank == root ? 1000 + it : -1;
        MPI_Bcast(x + 2, 1, MPI_INT, root, MPI_COMM_WORLD);
        ok &= x[2] == 1000 + it;
        MPI_Reduce(x, x + 3, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
        ok &= g_rank != 0 || x[3] == g_size - 1 + it;
        MPI_Scatter(all, 1, MPI_INT, x, 1, MPI_INT, 0, MPI_COMM_WORLD);
        ok &= x[0] == g_rank + it;
    }
    CHECK(ok, "loop", "five call sites per iteration");
}

/* One collective, reached through path_even on even ranks and through
 * path_odd on odd ones: different call sites, so it passes through. */
__attribute__((noinline)) static int path_even(int v)
{
    int s = 0;

    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return s;
}

__attribute__((noinline)) static int path_odd(int v)
{
    int s = 0;

    g_odd_calls++;
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return s;
}

static void divergent(void)
{
    int k, ok = 1;

    for (k = 0; k < 5; k++)
        ok &= (g_rank % 2 ? path_odd(k) : path_even(k)) == k * g_size;
    CHECK(ok, "paths", "one collective reached from two code paths");
}

/* A loop whose odd ranks take another path once, late: the call is trusted
 * by then (PAPCOLL_AGREE=stable:N) and its result must still be right. */
static void late_divergence(void)
{
    int it, s = 0, ok = 1;

    for (it = 0; it < g_iters + 10; it++) {
        if (it == g_iters + 5 && g_rank % 2)
            s = path_odd(it);
        else
            MPI_Allreduce(&it, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        ok &= s == it * g_size;
    }
    CHECK(ok, "paths", "late divergence in a loop");
}

/* Even and odd ranks as the two groups of an intercommunicator; then
 * MPI_COMM_SELF: both pass through. */
static void passed_through(void)
{
    MPI_Comm half, inter;
    int even = g_rank % 2 == 0, hrank, x, s = -1, one = 1;

    CHECK(MPI_Allreduce(&one, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF) == MPI_SUCCESS && s == 1, "self",
          "allreduce on MPI_COMM_SELF");
    if (g_size < 2)
        return;
    MPI_Comm_split(MPI_COMM_WORLD, even, g_rank, &half);
    MPI_Comm_rank(half, &hrank);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, even ? 1 : 0, 5, &inter);
    x = 77;
    if (even)
        MPI_Bcast(&x, 1, MPI_INT, hrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
    else
        MPI_Bcast(&x, 1, MPI_INT, 0, inter);
    CHECK(x == 77, "intercomm", "bcast from the even group");
    x = even ? 1 : 10;
    MPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, inter);
    CHECK(s == (even ? 10 * (g_size / 2) : (g_size + 1) / 2), "intercomm", "allreduce over the remote group");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    long fails = 0;
    int i;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0) {
            g_iters = atoi(argv[++i]);
        } else {
            if (g_rank == 0)
                printf("usage: check_c [--iters N]  (an MPI program checking its own collectives; "
                       "default N = 24)\n");
            MPI_Finalize();
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    basic(MPI_COMM_WORLD);
    in_place();
    layouts_gather_scatter(g_size - 1, 33);
    layouts_bcast(0, 50);
    layouts_reduce(g_size / 2, 40);
    user_ops();
    subcomms();
    p2p_mixed();
    loop_sites();
    divergent();
    late_divergence();
    passed_through();
    MPI_Reduce(&g_failed, &fails, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (g_rank == 0)
        printf("check_c: P=%d: %ld checks, %ld failed\n", g_size, g_checks, fails);
    fflush(stdout); /* before the interposer's summary, which MPI_Finalize prints */
    MPI_Finalize();
    return fails > 0;
}
