! check_f: an ordinary Fortran MPI program -- it knows nothing of papcoll --
! that checks the results of its own collectives.  Built twice
! (tests/pmpi/pmpi.mk): check_mpif with include 'mpif.h', check_usempi with
! -DUSE_MPI_MODULE (use mpi).  tests/pmpi.sh runs both under
! libpapcoll_pmpi.so, whose Fortran entry points catch these calls.
!
! Sections: every op at roots 0 and P-1; MPI_IN_PLACE; derived datatypes
! with different layouts on the root and on the leaves; MPI_BOTTOM with an
! absolute address; user operations, commutative and not; a sub-communicator
! of MPI_COMM_SPLIT; non-blocking point-to-point mixed with collectives;
! several call sites in a loop; one call site reached from different code
! paths on different ranks.
!
! Prints one "FAIL check_f: ..." line per wrong result and a last line
! "check_f: P=N: K checks, F failed"; stops with code 1 when anything failed.
module checks
#ifdef USE_MPI_MODULE
  use mpi
#endif
  implicit none
#ifndef USE_MPI_MODULE
  include 'mpif.h'
#endif
  integer :: me, np, nchecks = 0, nfailed = 0
  integer(8), parameter :: affm = 1000003_8
contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    nchecks = nchecks + 1
    if (.not. ok) then
      nfailed = nfailed + 1
      write (*, '(a,i0,2a)') 'FAIL check_f: rank ', me, ': ', what
    end if
  end subroutine check

  integer function val(r, i)
    integer, intent(in) :: r, i
    val = r * 1000003 + i
  end function val

  ! Elementwise maximum of |x|: commutative.
  subroutine absmax(invec, inoutvec, n, datatype)
    integer, intent(in) :: n, datatype
    integer, intent(in) :: invec(n)
    integer, intent(inout) :: inoutvec(n)
    integer :: i
    do i = 1, n
      inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
    end do
  end subroutine absmax

  ! Affine maps x -> a x + b mod M composed in rank order: not commutative.
  subroutine affine(invec, inoutvec, n, datatype)
    integer, intent(in) :: n, datatype
    integer(8), intent(in) :: invec(2, n)
    integer(8), intent(inout) :: inoutvec(2, n)
    integer(8) :: a, b
    integer :: i
    do i = 1, n
      a = mod(invec(1, i) * inoutvec(1, i), affm)
      b = mod(inoutvec(1, i) * invec(2, i) + inoutvec(2, i), affm)
      inoutvec(1, i) = a
      inoutvec(2, i) = b
    end do
  end subroutine affine

  subroutine basic(root, n)
    integer, intent(in) :: root, n
    integer :: mine(max(n, 1)), blk(max(n, 1) * np), r, i, ierr
    logical :: ok
    do i = 1, n
      mine(i) = val(me, i)
    end do
    blk = -1
    call MPI_GATHER(mine, n, MPI_INTEGER, blk, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    ok = .true.
    if (me == root) then
      do r = 0, np - 1
        do i = 1, n
          ok = ok .and. blk(r * n + i) == val(r, i)
        end do
      end do
    end if
    call check(ok, 'gather')
    mine = 0
    call MPI_SCATTER(blk, n, MPI_INTEGER, mine, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    ok = .true.
    do i = 1, n
      ok = ok .and. mine(i) == val(me, i)
    end do
    call check(ok, 'scatter')
    if (me == root) mine(1:n) = 7
    call MPI_BCAST(mine, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check(all(mine(1:n) == 7), 'bcast')
    do i = 1, n
      mine(i) = val(me, i)
    end do
    call MPI_REDUCE(mine, blk, n, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    ok = .true.
    do i = 1, n
      if (me == root) ok = ok .and. blk(i) == np * i + 1000003 * (np * (np - 1) / 2)
    end do
    call check(ok, 'reduce sum')
    call MPI_ALLREDUCE(mine, blk, n, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
    ok = .true.
    do i = 1, n
      ok = ok .and. blk(i) == val(np - 1, i)
    end do
    call check(ok, 'allreduce max')
  end subroutine basic

  subroutine in_place()
    integer, parameter :: n = 50
    integer :: b(n), blk(n * np), i, r, ierr, root
    logical :: ok
    root = np / 2
    do i = 1, n
      b(i) = val(me, i)
    end do
    if (me == root) blk(root * n + 1:root * n + n) = b
    if (me == root) then
      call MPI_GATHER(MPI_IN_PLACE, n, MPI_INTEGER, blk, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    else
      call MPI_GATHER(b, n, MPI_INTEGER, blk, n, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    end if
    ok = .true.
    do r = 0, np - 1
      do i = 1, n
        if (me == root) ok = ok .and. blk(r * n + i) == val(r, i)
      end do
    end do
    call check(ok, 'in-place gather')
    call MPI_ALLREDUCE(MPI_IN_PLACE, b, n, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr)
    ok = .true.
    do i = 1, n
      ok = ok .and. b(i) == val(0, i)
    end do
    call check(ok, 'in-place allreduce')
  end subroutine in_place

  ! Root: block r lands at r+1, r+1+P, ... (transposed); leaves: every
  ! other integer of a 2n buffer.  Then a bcast of MPI_BOTTOM.
  subroutine layouts()
    integer, parameter :: n = 20
    integer :: src(2 * n), mat(n * np), strided, column, tcol, abstype, ierr, r, i
    integer, volatile :: x  ! changed behind the compiler's back, through MPI_BOTTOM
    integer(kind=MPI_ADDRESS_KIND) :: lb, ext, addr(1)
    integer :: lens(1), types(1)
    logical :: ok
    call MPI_TYPE_VECTOR(n, 1, 2, MPI_INTEGER, strided, ierr)
    call MPI_TYPE_COMMIT(strided, ierr)
    call MPI_TYPE_VECTOR(n, 1, np, MPI_INTEGER, column, ierr)
    call MPI_TYPE_GET_EXTENT(MPI_INTEGER, lb, ext, ierr)
    call MPI_TYPE_CREATE_RESIZED(column, 0_MPI_ADDRESS_KIND, ext, tcol, ierr)
    call MPI_TYPE_COMMIT(tcol, ierr)
    do i = 1, n
      src(2 * i - 1) = val(me, i)
      src(2 * i) = -1
    end do
    call MPI_GATHER(src, 1, strided, mat, 1, tcol, np - 1, MPI_COMM_WORLD, ierr)
    ok = .true.
    do r = 0, np - 1
      do i = 1, n
        if (me == np - 1) ok = ok .and. mat((i - 1) * np + r + 1) == val(r, i)
      end do
    end do
    call check(ok, 'gather: strided leaves, transposed root')
    x = 0
    if (me == 0) x = 4242
    call MPI_GET_ADDRESS(x, addr(1), ierr)
    lens(1) = 1
    types(1) = MPI_INTEGER
    call MPI_TYPE_CREATE_STRUCT(1, lens, addr, types, abstype, ierr)
    call MPI_TYPE_COMMIT(abstype, ierr)
    call MPI_BCAST(MPI_BOTTOM, 1, abstype, 0, MPI_COMM_WORLD, ierr)
    call check(x == 4242, 'bcast of MPI_BOTTOM with an absolute address')
    call MPI_TYPE_FREE(abstype, ierr)
    call MPI_TYPE_FREE(strided, ierr)
    call MPI_TYPE_FREE(column, ierr)
    call MPI_TYPE_FREE(tcol, ierr)
  end subroutine layouts

  ! Non-commutative reduce and allreduce on comm (rank rk of sz), n maps each.
  subroutine affine_on(comm, rk, sz, root)
    integer, intent(in) :: comm, rk, sz, root
    integer, parameter :: n = 5
    integer(8) :: x(2, n), y(2, n), a, b, ta
    integer :: pair, op, ierr, i, r
    logical :: ok
    call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER8, pair, ierr)
    call MPI_TYPE_COMMIT(pair, ierr)
    call MPI_OP_CREATE(affine, .false., op, ierr)
    do i = 1, n
      x(1, i) = int(2 + mod(rk * 31 + i, 97), 8)
      x(2, i) = int(mod(rk * 17 + 3 * i, 101), 8)
    end do
    y = 0
    call MPI_REDUCE(x, y, n, pair, op, root, comm, ierr)
    ok = .true.
    do i = 1, n
      a = 1
      b = 0
      do r = 0, sz - 1
        ta = int(2 + mod(r * 31 + i, 97), 8)
        b = mod(ta * b + int(mod(r * 17 + 3 * i, 101), 8), affm)
        a = mod(a * ta, affm)
      end do
      if (rk == root) ok = ok .and. y(1, i) == a .and. y(2, i) == b
    end do
    call check(ok, 'reduce with a non-commutative op')
    call MPI_ALLREDUCE(x, y, n, pair, op, comm, ierr)
    ok = .true.
    do i = 1, n
      a = 1
      b = 0
      do r = 0, sz - 1
        ta = int(2 + mod(r * 31 + i, 97), 8)
        b = mod(ta * b + int(mod(r * 17 + 3 * i, 101), 8), affm)
        a = mod(a * ta, affm)
      end do
      ok = ok .and. y(1, i) == a .and. y(2, i) == b
    end do
    call check(ok, 'allreduce with a non-commutative op')
    call MPI_OP_FREE(op, ierr)
    call MPI_TYPE_FREE(pair, ierr)
  end subroutine affine_on

  subroutine user_ops()
    integer, parameter :: n = 100
    integer :: a(n), b(n), op, ierr, i, r, want
    logical :: ok
    call affine_on(MPI_COMM_WORLD, me, np, np - 1)
    call MPI_OP_CREATE(absmax, .true., op, ierr)
    do i = 1, n
      a(i) = mod(me * 13 + i, 50)
      if (mod(me, 2) == 1) a(i) = -a(i)
    end do
    call MPI_ALLREDUCE(a, b, n, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
    ok = .true.
    do i = 1, n
      want = 0
      do r = 0, np - 1
        want = max(want, mod(r * 13 + i, 50))
      end do
      ok = ok .and. b(i) == want
    end do
    call check(ok, 'allreduce with a commutative op')
    call MPI_OP_FREE(op, ierr)
  end subroutine user_ops

  subroutine subcomm()
    integer :: sub, rk, sz, ierr, s, one
    call MPI_COMM_SPLIT(MPI_COMM_WORLD, mod(me, 2), -me, sub, ierr)
    call MPI_COMM_RANK(sub, rk, ierr)
    call MPI_COMM_SIZE(sub, sz, ierr)
    one = 1
    call MPI_ALLREDUCE(one, s, 1, MPI_INTEGER, MPI_SUM, sub, ierr)
    call check(s == sz, 'allreduce on a split')
    call affine_on(sub, rk, sz, 0)
    call MPI_COMM_FREE(sub, ierr)
  end subroutine subcomm

  subroutine p2p_mixed()
    integer :: right, left, got(2), out(2), one, s, ierr, req(2)
    integer :: sts(MPI_STATUS_SIZE, 2)
    right = mod(me + 1, np)
    left = mod(me + np - 1, np)
    out(1) = me
    out(2) = 11
    got = -1
    call MPI_IRECV(got, 2, MPI_INTEGER, left, 7, MPI_COMM_WORLD, req(1), ierr)
    call MPI_ISEND(out, 2, MPI_INTEGER, right, 7, MPI_COMM_WORLD, req(2), ierr)
    one = 1
    call MPI_ALLREDUCE(one, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(s == np, 'allreduce between isend and wait')
    call MPI_WAITALL(2, req, sts, ierr)
    call check(got(1) == left .and. got(2) == 11, 'ring message')
  end subroutine p2p_mixed

  subroutine loop_sites()
    integer :: it, x, s, blk(np), ierr
    logical :: ok
    ok = .true.
    do it = 1, 20
      x = me + it
      call MPI_ALLREDUCE(x, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
      ok = ok .and. s == np * it + np * (np - 1) / 2
      call MPI_GATHER(x, 1, MPI_INTEGER, blk, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      if (me == 0) ok = ok .and. blk(np) == np - 1 + it
      if (me == 0) x = 500 + it
      call MPI_BCAST(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      ok = ok .and. x == 500 + it
      call MPI_SCATTER(blk, 1, MPI_INTEGER, x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      ok = ok .and. x == me + it
    end do
    call check(ok, 'four call sites per iteration')
  end subroutine loop_sites

  integer function path_even(v)
    integer, intent(in) :: v
    integer :: ierr
    call MPI_ALLREDUCE(v, path_even, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function path_even

  integer function path_odd(v)
    integer, intent(in) :: v
    integer :: ierr, w
    w = v
    call MPI_ALLREDUCE(w, path_odd, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function path_odd

  subroutine divergent()
    integer :: k, s
    logical :: ok
    ok = .true.
    do k = 1, 3
      if (mod(me, 2) == 0) then
        s = path_even(k)
      else
        s = path_odd(k)
      end if
      ok = ok .and. s == k * np
    end do
    call check(ok, 'one collective reached from two code paths')
  end subroutine divergent
end module checks

program check_f
  use checks
  implicit none
  integer :: ierr, fails
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, np, ierr)
  call basic(0, 0)
  call basic(0, 1000)
  call basic(np - 1, 3)
  call in_place()
  call layouts()
  call user_ops()
  call subcomm()
  call p2p_mixed()
  call loop_sites()
  call divergent()
  call MPI_REDUCE(nfailed, fails, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (me == 0) write (*, '(a,i0,a,i0,a,i0,a)') 'check_f: P=', np, ': ', nchecks, ' checks, ', fails, ' failed'
  flush (6)
  call MPI_FINALIZE(ierr)
  if (me == 0 .and. fails > 0) stop 1
end program check_f
