! grid_mpi.f90 — the Fortran twin of grid_mpi.c: a power-law field on a
! 64^3 grid, each MPI rank evaluating only its own slab of z planes with
! tbrf_set_subgrid (zero-based start, count). The checksum (XOR of every
! value's bits) is the same for any number of ranks, and the same as the
! C example's.
!
!   mpirun -n 4 ./grid_mpi_f
program grid_mpi
    use, intrinsic :: iso_c_binding
    use mpi
    use tbrf
    implicit none
    integer(c_int64_t), parameter :: n(3) = [64_c_int64_t, 64_c_int64_t, 64_c_int64_t]
    real(c_double), parameter :: origin(3) = 0, h(3) = 1, lo(3) = 0, hi(3) = 63
    type(tbrf_model) :: model
    type(tbrf_plan) :: plan
    real(c_double), allocatable :: v(:, :, :)
    integer(c_int64_t) :: start(3), count(3), q, extra, bits, all_bits
    integer :: ierr, rank, size, st, i, j, k
    real(c_double) :: s(2), all(2)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)

    ! every rank makes the same plan
    call tbrf_model_powerlaw(model, -11.0_c_double / 3, 0.05_c_double, 3.0_c_double, stat=st)
    if (st == TBRF_OK) call tbrf_make_plan(plan, model, 3, lo, hi, 1.0_c_double, 2026_c_int64_t, stat=st)

    ! this rank's z planes: the split of tbrf_mpi_split_grid
    q = n(3) / size
    extra = mod(n(3), int(size, c_int64_t))
    start = 0
    count = n
    start(3) = rank * q + min(int(rank, c_int64_t), extra)
    count(3) = q + merge(1, 0, rank < extra)
    allocate(v(n(1), n(2), max(count(3), 1_c_int64_t)))
    if (st == TBRF_OK .and. count(3) > 0) call tbrf_set_subgrid(plan, origin, h, n, start, count, stat=st)
    if (st == TBRF_OK .and. count(3) > 0) call tbrf_execute(plan, 0_c_int64_t, v, stat=st)
    if (st /= TBRF_OK) print '(a, i0, a, a)', 'rank ', rank, ': ', tbrf_plan_message(plan)
    call MPI_Allreduce(MPI_IN_PLACE, st, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)

    bits = 0
    s = 0
    if (st == TBRF_OK) then
        do k = 1, int(count(3))
            do j = 1, int(n(2))
                do i = 1, int(n(1))
                    bits = ieor(bits, transfer(v(i, j, k), bits))
                    s = s + [v(i, j, k), v(i, j, k)**2]
                end do
            end do
        end do
    end if
    call MPI_Reduce(bits, all_bits, 1, MPI_INTEGER8, MPI_BXOR, 0, MPI_COMM_WORLD, ierr)
    call MPI_Reduce(s, all, 2, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0 .and. st == TBRF_OK) then
        print '(a, z16.16)', 'checksum ', all_bits
        print '(a, f0.3, a, f0.3, a)', 'grid mean ', all(1) / product(n), ', grid variance ', &
            all(2) / product(n) - (all(1) / product(n))**2, ' (one realization; the model has 1)'
    end if
    call tbrf_destroy(plan)
    call tbrf_model_destroy(model)
    call MPI_Finalize(ierr)
    if (st /= TBRF_OK) stop 1
end program grid_mpi
