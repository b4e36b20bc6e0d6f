! check_split_f: the root/non-root idiom in Fortran (use mpi): the root
! calls MPI_Gather and MPI_Reduce from one line, the others from another,
! and the root's reduce is in place.  tests/pmpi.sh runs it under the
! interposer; its calls must run on signature sites.
! Prints "check_split_f: P=N: K checks, F failed"; exits 1 on a failure.
program check_split_f
    use mpi
    implicit none
    integer, parameter :: n = 16, iters = 10
    integer :: rank, nproc, ierr, it, i, r, failed, checks, total
    integer :: mine(n), res(n), dummy(1)
    integer, allocatable :: all(:)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nproc, ierr)
    allocate (all(n * nproc))
    failed = 0
    checks = 0
    do it = 1, iters
        do i = 1, n
            mine(i) = rank * 1000 + i + it
        end do
        if (rank == 0) then
            call MPI_Gather(mine, n, MPI_INTEGER, all, n, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
            do r = 0, nproc - 1
                do i = 1, n
                    if (all(r * n + i) /= r * 1000 + i + it) failed = failed + 1
                end do
            end do
            checks = checks + 1
        else
            call MPI_Gather(mine, n, MPI_INTEGER, dummy, 0, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
        end if
        if (rank == 0) then
            res = mine
            call MPI_Reduce(MPI_IN_PLACE, res, n, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
            do i = 1, n
                if (res(i) /= 1000 * nproc * (nproc - 1) / 2 + nproc * (i + it)) failed = failed + 1
            end do
            checks = checks + 1
        else
            call MPI_Reduce(mine, dummy, n, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
        end if
    end do
    call MPI_Allreduce(failed, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0) print '(a,i0,a,i0,a,i0,a)', 'check_split_f: P=', nproc, ': ', checks, ' checks, ', total, ' failed'
    call MPI_Finalize(ierr)
    if (total > 0) stop 1
end program check_split_f
