/*
 * mpi_sparse: reductions with an identity element (papcoll_site_set_identity,
 * papcoll/src/sparse.h) against the MPI library's, for every reduce
 * algorithm (SPARSE or not: the others must ignore the identity) and the
 * allreduce algorithms that reduce through treedyn.
 *   operations  MPI_SUM on MPI_UNSIGNED (identity 0); a non-commutative user
 *               operation, the product of 2x2 unsigned matrices (identity
 *               the unit matrix), which fails on any change of operand order
 *   counts      0, 1, 7, 1000 and 70001 (more segments than treedyn streams:
 *               a sparse value must still move whole)
 *   densities   every element the identity, none, and 90 % in runs
 *   roots       0, P / 2, P - 1; random arrival delays of 0-2 ms
 * and the API's checks: an identity that differs between ranks fails with
 * PAPCOLL_ERR_AGREE on every rank and leaves none set; a gather site or a
 * zero size is PAPCOLL_ERR_INVAL.  Prints one summary line; exit 1 on any
 * mismatch.  --sparse-only: only the reduce algorithms that send sparse
 * values or run in the background (PAPCOLL_F_SPARSE, PAPCOLL_F_BACKGROUND)
 * and the two allreduces (tests/sparse.sh under TSan).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "papcoll.h"

static int g_rank, g_size, g_failed, g_cases;

static void matmul_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    unsigned *a = in, *b = inout, r[4];
    int i;

    (void)type;
    for (i = 0; i < *len; i++, a += 4, b += 4) { /* inout := in x inout */
        r[0] = a[0] * b[0] + a[1] * b[2];
        r[1] = a[0] * b[1] + a[1] * b[3];
        r[2] = a[2] * b[0] + a[3] * b[2];
        r[3] = a[2] * b[1] + a[3] * b[3];
        memcpy(b, r, sizeof(r));
    }
}

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* Rank r's vector of count elements of k unsigned each; density in 1/10. */
static void make(unsigned *v, int count, int k, int density, const unsigned *id, uint64_t seed)
{
    uint64_t s = seed * 7919 + (uint64_t)g_rank;
    int i = 0, j, len, ident;

    while (i < count) {
        ident = (int)(next(&s) % 10) < density;
        len = 1 + (int)(next(&s) % 40);
        for (; len > 0 && i < count; len--, i++)
            for (j = 0; j < k; j++)
                v[i * k + j] = ident ? id[j] : (unsigned)next(&s) % 7;
    }
}

static void nap(uint64_t *s)
{
    struct timespec t = {0, (long)(next(s) % 2000) * 1000};

    nanosleep(&t, NULL);
}

static void run_case(papcoll_site_t *site, const char *algo, int allreduce, int matrix, int count,
                     int density, int root, MPI_Datatype type, MPI_Op op, uint64_t *s)
{
    static const unsigned one[4] = {1, 0, 0, 1}, zero[4] = {0};
    int k = matrix ? 4 : 1, n = count * k, rc, bad, call;
    unsigned *v = malloc(sizeof(unsigned) * (size_t)n + 1), *got = malloc(sizeof(unsigned) * (size_t)n + 1),
             *want = malloc(sizeof(unsigned) * (size_t)n + 1);

    for (call = 0; call < 2; call++) { /* two calls: both READY tag parities */
        make(v, count, k, density, matrix ? one : zero, (uint64_t)(count * 31 + density * 7 + root + call));
        memset(got, 0xA5, sizeof(unsigned) * (size_t)n);
        memset(want, 0x5A, sizeof(unsigned) * (size_t)n);
        nap(s);
        rc = allreduce ? papcoll_allreduce(site, v, got, count, type, op)
                       : papcoll_reduce(site, v, got, count, type, op, root);
        if (allreduce)
            MPI_Allreduce(v, want, count, type, op, MPI_COMM_WORLD);
        else
            MPI_Reduce(v, want, count, type, op, root, MPI_COMM_WORLD);
        bad = rc != 0 ||
              ((allreduce || g_rank == root) && memcmp(got, want, sizeof(unsigned) * (size_t)n) != 0);
        MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        g_cases++;
        if (bad) {
            g_failed++;
            if (g_rank == 0 && g_failed <= 20)
                printf("FAIL mpi_sparse: P=%d %s %s %s count %d density %d/10 root %d call %d (rc %d)\n",
                       g_size, allreduce ? "allreduce" : "reduce", algo, matrix ? "matrix product" : "sum",
                       count, density, root, call, rc);
        }
    }
    free(v);
    free(got);
    free(want);
}

static void api_checks(papcoll_ctx_t *ctx)
{
    papcoll_site_t *s = NULL, *g = NULL;
    unsigned mine = (unsigned)(g_rank == g_size - 1 && g_size > 1), x = 0;
    int rc, bad = 0;

    if (papcoll_site_create(ctx, "agree", PAPCOLL_OP_REDUCE, "treedyn", &s) != 0 ||
        papcoll_site_create(ctx, "gather", PAPCOLL_OP_GATHER, "mpi", &g) != 0) {
        bad = 1;
    } else {
        rc = papcoll_site_set_identity(s, &mine, sizeof(mine));
        bad |= g_size > 1 ? rc != PAPCOLL_ERR_AGREE : rc != 0;
        bad |= papcoll_site_set_identity(g, &x, sizeof(x)) != PAPCOLL_ERR_INVAL;
        bad |= papcoll_site_set_identity(s, &x, 0) != PAPCOLL_ERR_INVAL;
        bad |= papcoll_site_set_identity(s, NULL, 0) != 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    g_cases++;
    if (bad) {
        g_failed++;
        if (g_rank == 0)
            printf("FAIL mpi_sparse: P=%d papcoll_site_set_identity's checks\n", g_size);
    }
    papcoll_site_free(&s);
    papcoll_site_free(&g);
}

int main(int argc, char **argv)
{
    static const int counts[] = {0, 1, 7, 1000, 70001}, dens[] = {10, 0, 9};
    static const char *ar_algos[] = {"treedyn_bcast", "reduce_bcast"};
    static const unsigned one[4] = {1, 0, 0, 1}, zero = 0;
    papcoll_options_t o;
    papcoll_ctx_t *ctx = NULL;
    papcoll_site_t *site;
    MPI_Datatype mat;
    MPI_Op mop;
    uint64_t s = 12345;
    int provided, a, matrix, ci, di, ri, roots[3], nalgo, allreduce, sparse_only;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    sparse_only = argc == 2 && strcmp(argv[1], "--sparse-only") == 0;
    if (argc > 1 && !sparse_only) {
        fprintf(stderr, "usage: mpi_sparse [--sparse-only]\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul_op, 0, &mop);
    memset(&o, 0, sizeof o);
    o.quiet = 1;
    if (papcoll_init(MPI_COMM_WORLD, &o, &ctx) != 0) {
        printf("FAIL mpi_sparse: papcoll_init\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    roots[0] = 0, roots[1] = g_size / 2, roots[2] = g_size - 1;
    api_checks(ctx);
    for (allreduce = 0; allreduce < 2; allreduce++) {
        nalgo = allreduce ? 2 : papcoll_algo_count(PAPCOLL_OP_REDUCE);
        for (a = 0; a < nalgo; a++) {
            const char *name = allreduce ? ar_algos[a] : papcoll_algo_name(PAPCOLL_OP_REDUCE, a);

            if (sparse_only && !allreduce &&
                !(papcoll_algo_flags(PAPCOLL_OP_REDUCE, a) & (PAPCOLL_F_SPARSE | PAPCOLL_F_BACKGROUND)))
                continue;
            for (matrix = 0; matrix < 2; matrix++) {
                site = NULL;
                if (papcoll_site_create(ctx, name, allreduce ? PAPCOLL_OP_ALLREDUCE : PAPCOLL_OP_REDUCE, name,
                                        &site) != 0 ||
                    papcoll_site_set_identity(site, matrix ? (const void *)one : (const void *)&zero,
                                              matrix ? sizeof(one) : sizeof(zero)) != 0) {
                    g_failed++;
                    if (g_rank == 0)
                        printf("FAIL mpi_sparse: P=%d setup of %s\n", g_size, name);
                    papcoll_site_free(&site);
                    continue;
                }
                for (ci = 0; ci < 5; ci++)
                    for (di = 0; di < 3; di++)
                        for (ri = 0; ri < (allreduce ? 1 : 3); ri++)
                            run_case(site, name, allreduce, matrix, counts[ci], dens[di], roots[ri],
                                     matrix ? mat : MPI_UNSIGNED, matrix ? mop : MPI_SUM, &s);
                papcoll_site_free(&site);
            }
        }
    }
    if (g_rank == 0)
        printf("mpi_sparse: P=%d: %d cases run, %d failed\n", g_size, g_cases, g_failed);
    papcoll_finalize(&ctx);
    MPI_Op_free(&mop);
    MPI_Type_free(&mat);
    MPI_Finalize();
    return g_failed != 0;
}
