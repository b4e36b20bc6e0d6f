/*
 * The C entry points.  Each collective captures its return address (the
 * program's call site) and hands its arguments to ip_collective.
 */
#include "pmpi.h"

int MPI_Init(int *argc, char ***argv)
{
    int provided = MPI_THREAD_SINGLE;

    return ip_init(argc, argv, MPI_THREAD_SINGLE, &provided, 0);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    return ip_init(argc, argv, required, provided, 1);
}

int MPI_Finalize(void)
{
    return ip_finalize();
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    ip_call_t c = {PAPCOLL_OP_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL,
                   root, comm, __builtin_return_address(0), 0};

    return ip_collective(&c);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    ip_call_t c = {PAPCOLL_OP_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, MPI_OP_NULL,
                   root, comm, __builtin_return_address(0), 0};

    return ip_collective(&c);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    ip_call_t c = {PAPCOLL_OP_BCAST, buffer, count, datatype, buffer, count, datatype, MPI_OP_NULL,
                   root, comm, __builtin_return_address(0), 0};

    return ip_collective(&c);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm)
{
    ip_call_t c = {PAPCOLL_OP_REDUCE, sendbuf, count, datatype, recvbuf, count, datatype, op,
                   root, comm, __builtin_return_address(0), 0};

    return ip_collective(&c);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    ip_call_t c = {PAPCOLL_OP_ALLREDUCE, sendbuf, count, datatype, recvbuf, count, datatype, op,
                   -1, comm, __builtin_return_address(0), 0};

    return ip_collective(&c);
}
