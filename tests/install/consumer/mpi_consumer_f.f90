! mpi_consumer_f.f90 — module tbrf_mpi from an installed prefix, built
! with mpif90 and pkg-config tbrf-fortran-mpi: one rank's share of ten
! points is all ten, taken with mpi_f08's communicator.
program mpi_consumer_f
    use, intrinsic :: iso_c_binding
    use mpi_f08
    use tbrf_mpi
    implicit none
    integer(c_int64_t) :: first, count
    integer :: st
    call MPI_Init()
    call tbrf_mpi_split_points(MPI_COMM_WORLD, 10_c_int64_t, first, count, stat=st)
    call MPI_Finalize()
    if (st /= 0 .or. first /= 0 .or. count /= 10) error stop 1
end program mpi_consumer_f
