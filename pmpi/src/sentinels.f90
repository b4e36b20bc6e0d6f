! The addresses of the Fortran MPI_IN_PLACE and MPI_BOTTOM, reported to the
! interposer at MPI_Init (entry_f.c maps them to the C constants).  Compiled
! against the MPI library's own mpif.h, so the names resolve to whatever
! variables that library uses; the interposer is linked with
! --no-define-common, so it references those variables without defining
! copies of them.
subroutine papcoll_pmpi_fsentinels() bind(C, name="papcoll_pmpi_fsentinels")
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  include 'mpif.h'
  interface
    subroutine note(in_place, bottom) bind(C, name="papcoll_pmpi_note_sentinels")
      import :: c_int
      integer(c_int) :: in_place, bottom
    end subroutine note
  end interface
  call note(MPI_IN_PLACE, MPI_BOTTOM)
end subroutine papcoll_pmpi_fsentinels
