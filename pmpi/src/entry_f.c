/*
 * The Fortran entry points (mpif.h and `use mpi`).  Open MPI's own Fortran
 * bindings call PMPI_* directly, so the C entries never see a Fortran
 * program's calls: these replace them, under the four names compilers use
 * for a Fortran `mpi_gather` (mpi_gather_, mpi_gather, mpi_gather__,
 * MPI_GATHER).  Handles are converted with the MPI_*_f2c functions; the
 * Fortran MPI_IN_PLACE and MPI_BOTTOM are variables of the Fortran library
 * whose addresses the helper sentinels.f90 reports at MPI_Init (the way
 * mpiP and Score-P find them), and become the C constants here.
 */
#include "pmpi.h"

/* Defines NAME, NAME__ and UPPER as aliases of NAME_. */
#define IP_FORTRAN_NAMES(name, upper)                                               \
    extern __typeof__(name##_) name __attribute__((alias(#name "_")));             \
    extern __typeof__(name##_) name##__ __attribute__((alias(#name "_")));         \
    extern __typeof__(name##_) upper __attribute__((alias(#name "_")));

void papcoll_pmpi_note_sentinels(int *in_place, int *bottom)
{
    ip_g.in_place_f = in_place;
    ip_g.bottom_f = bottom;
}

static void *buf_f2c(void *p)
{
    if (p != NULL && p == ip_g.in_place_f)
        return MPI_IN_PLACE;
    if (p != NULL && p == ip_g.bottom_f)
        return MPI_BOTTOM;
    return p;
}

static void set_ierr(MPI_Fint *ierr, int rc)
{
    if (ierr != NULL)
        *ierr = (MPI_Fint)rc;
}

void mpi_init_(MPI_Fint *ierr);
void mpi_init_(MPI_Fint *ierr)
{
    int provided = MPI_THREAD_SINGLE;

    set_ierr(ierr, ip_init(NULL, NULL, MPI_THREAD_SINGLE, &provided, 0));
}
IP_FORTRAN_NAMES(mpi_init, MPI_INIT)

void mpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr);
void mpi_init_thread_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    int p = MPI_THREAD_SINGLE;

    set_ierr(ierr, ip_init(NULL, NULL, (int)*required, &p, 1));
    *provided = (MPI_Fint)p;
}
IP_FORTRAN_NAMES(mpi_init_thread, MPI_INIT_THREAD)

void mpi_finalize_(MPI_Fint *ierr);
void mpi_finalize_(MPI_Fint *ierr)
{
    set_ierr(ierr, ip_finalize());
}
IP_FORTRAN_NAMES(mpi_finalize, MPI_FINALIZE)

void mpi_gather_(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,
                 MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr);
void mpi_gather_(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,
                 MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    ip_call_t c = {PAPCOLL_OP_GATHER, buf_f2c(sendbuf), (int)*sendcount, PMPI_Type_f2c(*sendtype),
                   buf_f2c(recvbuf), (int)*recvcount, PMPI_Type_f2c(*recvtype), MPI_OP_NULL, (int)*root,
                   PMPI_Comm_f2c(*comm), __builtin_return_address(0), 0};

    set_ierr(ierr, ip_collective(&c));
}
IP_FORTRAN_NAMES(mpi_gather, MPI_GATHER)

void mpi_scatter_(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,
                  MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr);
void mpi_scatter_(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,
                  MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    ip_call_t c = {PAPCOLL_OP_SCATTER, buf_f2c(sendbuf), (int)*sendcount, PMPI_Type_f2c(*sendtype),
                   buf_f2c(recvbuf), (int)*recvcount, PMPI_Type_f2c(*recvtype), MPI_OP_NULL, (int)*root,
                   PMPI_Comm_f2c(*comm), __builtin_return_address(0), 0};

    set_ierr(ierr, ip_collective(&c));
}
IP_FORTRAN_NAMES(mpi_scatter, MPI_SCATTER)

void mpi_bcast_(void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr);
void mpi_bcast_(void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    MPI_Datatype t = PMPI_Type_f2c(*datatype);
    void *b = buf_f2c(buffer);
    ip_call_t c = {PAPCOLL_OP_BCAST, b, (int)*count, t, b, (int)*count, t, MPI_OP_NULL, (int)*root,
                   PMPI_Comm_f2c(*comm), __builtin_return_address(0), 0};

    set_ierr(ierr, ip_collective(&c));
}
IP_FORTRAN_NAMES(mpi_bcast, MPI_BCAST)

void mpi_reduce_(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *root,
                 MPI_Fint *comm, MPI_Fint *ierr);
void mpi_reduce_(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *root,
                 MPI_Fint *comm, MPI_Fint *ierr)
{
    MPI_Datatype t = PMPI_Type_f2c(*datatype);
    ip_call_t c = {PAPCOLL_OP_REDUCE, buf_f2c(sendbuf), (int)*count, t, buf_f2c(recvbuf), (int)*count, t,
                   PMPI_Op_f2c(*op), (int)*root, PMPI_Comm_f2c(*comm), __builtin_return_address(0), 0};

    set_ierr(ierr, ip_collective(&c));
}
IP_FORTRAN_NAMES(mpi_reduce, MPI_REDUCE)

void mpi_allreduce_(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                    MPI_Fint *comm, MPI_Fint *ierr);
void mpi_allreduce_(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                    MPI_Fint *comm, MPI_Fint *ierr)
{
    MPI_Datatype t = PMPI_Type_f2c(*datatype);
    ip_call_t c = {PAPCOLL_OP_ALLREDUCE, buf_f2c(sendbuf), (int)*count, t, buf_f2c(recvbuf), (int)*count, t,
                   PMPI_Op_f2c(*op), -1, PMPI_Comm_f2c(*comm), __builtin_return_address(0), 0};

    set_ierr(ierr, ip_collective(&c));
}
IP_FORTRAN_NAMES(mpi_allreduce, MPI_ALLREDUCE)
