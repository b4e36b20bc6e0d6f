/*
 * mpi_pic_ops: the PIC proxy's pixel datatypes and MPI operations
 * (apps/pic/composite.c) through the MPI library's MPI_Reduce, on every
 * root, against a serial rank-order fold of the same images: `zbuffer`
 * must be identical, `over` (lower ranks in front) within float rounding;
 * MPI_Reduce_local must put its first operand in front.  Run by tests/pic.sh
 * at several P.  Prints one line and exits 0 when everything matched.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../apps/pic/composite.h"
#include "rng.h"

#define NPIX 4099 /* an odd count: no algorithm may assume a round size */

/* Rank r's images: drawn from (seed, r), so every rank can rebuild any other's. */
static void make_images(int r, pic_zpixel_t *z, pic_opixel_t *o)
{
    rng_t g;
    int i, k;

    rng_init(&g, 2024, (uint64_t)r);
    for (i = 0; i < NPIX; i++) {
        uint32_t c = (uint32_t)rng_next(&g);
        float a = rng_uniform(&g) < 0.2 ? 0.0f : (float)rng_uniform(&g);

        z[i].depth = rng_uniform(&g) < 0.3 ? 1.0f : (float)(rng_next(&g) % 64) / 64.0f; /* ties on purpose */
        memcpy(z[i].rgba, &c, 4);
        for (k = 0; k < 3; k++)
            o[i].rgba[k] = a * (float)rng_uniform(&g);
        o[i].rgba[3] = a;
    }
}

/* Serial reference on the root: fold in rank order, acc = acc (op) image_r. */
static void reference(int P, pic_zpixel_t *zacc, pic_opixel_t *oacc, pic_zpixel_t *z, pic_opixel_t *o)
{
    int r;

    make_images(0, zacc, oacc);
    for (r = 1; r < P; r++) {
        make_images(r, z, o);
        pic_zbuffer_combine(zacc, z, NPIX); /* z = acc op z */
        pic_over_combine(oacc, o, NPIX);    /* o = acc over o: acc is in front */
        memcpy(zacc, z, sizeof(pic_zpixel_t) * NPIX);
        memcpy(oacc, o, sizeof(pic_opixel_t) * NPIX);
    }
}

static int check_local(const pic_pixel_ops_t *ops)
{
    pic_opixel_t front = {{0.5f, 0.0f, 0.0f, 0.5f}}, back = {{0.0f, 0.0f, 1.0f, 1.0f}};

    MPI_Reduce_local(&front, &back, 1, ops->otype, ops->oop);
    return fabsf(back.rgba[0] - 0.5f) < 1e-7f && fabsf(back.rgba[2] - 0.5f) < 1e-7f && back.rgba[3] == 1.0f;
}

int main(int argc, char **argv)
{
    pic_pixel_ops_t ops;
    int rank, P, root, bad = 0, all = 0;
    pic_zpixel_t *z = malloc(sizeof *z * NPIX), *zr = malloc(sizeof *zr * NPIX), *zref = malloc(sizeof *zref * NPIX);
    pic_opixel_t *o = malloc(sizeof *o * NPIX), *orr = malloc(sizeof *orr * NPIX), *oref = malloc(sizeof *oref * NPIX);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (pic_pixel_ops_create(&ops) != 0 || !z || !zr || !zref || !o || !orr || !oref) {
        fprintf(stderr, "FAIL mpi_pic_ops: setup\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (!check_local(&ops)) {
        printf("FAIL mpi_pic_ops: MPI_Reduce_local(front, back) did not put front in front\n");
        bad++;
    }
    for (root = 0; root < P; root++) {
        make_images(rank, z, o);
        MPI_Reduce(z, zr, NPIX, ops.ztype, ops.zop, root, MPI_COMM_WORLD);
        MPI_Reduce(o, orr, NPIX, ops.otype, ops.oop, root, MPI_COMM_WORLD);
        if (rank != root)
            continue;
        reference(P, zref, oref, z, o);
        if (memcmp(zr, zref, sizeof *zr * NPIX) != 0) {
            printf("FAIL mpi_pic_ops: P=%d root=%d: zbuffer differs from the serial fold\n", P, root);
            bad++;
        }
        for (int i = 0; i < NPIX; i++)
            for (int k = 0; k < 4; k++)
                if (fabsf(orr[i].rgba[k] - oref[i].rgba[k]) > 1e-5f) {
                    printf("FAIL mpi_pic_ops: P=%d root=%d: over pixel %d channel %d: %g, rank order gives %g\n",
                           P, root, i, k, orr[i].rgba[k], oref[i].rgba[k]);
                    bad++;
                    i = NPIX;
                    break;
                }
    }
    MPI_Reduce(&bad, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi_pic_ops: P=%d, %d roots, %d failed\n", P, P, all);
    pic_pixel_ops_free(&ops);
    free(z), free(zr), free(zref), free(o), free(orr), free(oref);
    MPI_Finalize();
    return all ? 1 : 0;
}
