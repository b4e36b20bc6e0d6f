/*
 * Pixel datatypes and MPI operations (see composite.h).
 */
#include "composite.h"

#include <stddef.h>

static void zbuffer_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    pic_zbuffer_combine(in, inout, *len);
}

static void over_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    pic_over_combine(in, inout, *len);
}

int pic_pixel_ops_create(pic_pixel_ops_t *ops)
{
    int blocks[2] = {1, 4};
    MPI_Aint disp[2] = {offsetof(pic_zpixel_t, depth), offsetof(pic_zpixel_t, rgba)};
    MPI_Datatype types[2] = {MPI_FLOAT, MPI_UNSIGNED_CHAR}, z = MPI_DATATYPE_NULL;
    int rc;

    ops->ztype = ops->otype = MPI_DATATYPE_NULL;
    ops->zop = ops->oop = MPI_OP_NULL;
    rc = MPI_Type_create_struct(2, blocks, disp, types, &z);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_resized(z, 0, sizeof(pic_zpixel_t), &ops->ztype);
    if (z != MPI_DATATYPE_NULL)
        MPI_Type_free(&z);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&ops->ztype);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_contiguous(4, MPI_FLOAT, &ops->otype);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&ops->otype);
    if (rc == MPI_SUCCESS)
        rc = MPI_Op_create(zbuffer_op, 1, &ops->zop);
    if (rc == MPI_SUCCESS)
        rc = MPI_Op_create(over_op, 0, &ops->oop);
    return rc == MPI_SUCCESS ? 0 : -1;
}

void pic_pixel_ops_free(pic_pixel_ops_t *ops)
{
    if (ops->zop != MPI_OP_NULL)
        MPI_Op_free(&ops->zop);
    if (ops->oop != MPI_OP_NULL)
        MPI_Op_free(&ops->oop);
    if (ops->ztype != MPI_DATATYPE_NULL)
        MPI_Type_free(&ops->ztype);
    if (ops->otype != MPI_DATATYPE_NULL)
        MPI_Type_free(&ops->otype);
}
