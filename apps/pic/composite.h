/*
 * Compositing the ranks' images into one frame at the root.
 *
 * The pixel records travel as MPI datatypes with user-defined MPI
 * operations (MPI_Op_create): `zbuffer` is commutative, `over` is not (the
 * lower rank is in front), so only reduce algorithms that keep rank order
 * may serve it.  Backends:
 *
 *   reduce   MPI_Reduce of the pixel records (the MPI library's algorithm);
 *   icet:S   IceT's icetCompositeImage with single-image strategy S
 *            (radixk, bswap, tree, automatic) on separate colour and depth
 *            buffers; only when the program was built with IceT (jobs/icet-fetch).
 */
#ifndef PIC_COMPOSITE_H
#define PIC_COMPOSITE_H

#include <mpi.h>

#include "render.h"

typedef struct {
    MPI_Datatype ztype, otype; /* pixel records */
    MPI_Op zop, oop;           /* nearest depth; front-to-back over */
} pic_pixel_ops_t;

/* Creates and commits the datatypes and operations (0 or -1). */
int pic_pixel_ops_create(pic_pixel_ops_t *ops);
void pic_pixel_ops_free(pic_pixel_ops_t *ops);

#endif /* PIC_COMPOSITE_H */
