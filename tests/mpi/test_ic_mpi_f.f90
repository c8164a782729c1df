! test_ic_mpi_f.f90 — module tbrf_mpi from Fortran: an initial condition
! split over the ranks of the code's own communicator (Zel'dovich and 2LPT) (a duplicate of
! MPI_COMM_WORLD, given once as mpi_f08's type(MPI_Comm) and once as its
! integer handle) gives every lattice row once, on the rank
! tbrf_mpi_ic_split says, equal to the serial tbrf_ic_cosmo_generate's
! particle within the distributed transform's rounding (doc/mpi.md);
! a bad set size comes back as a status on every rank, not a stop; and
! the distributed FFT method (tbrf_mpi_fft_stream) on a 2D grid gives
! each rank's own cells, the serial plan's within the transform's bound;
! a zoom over the ranks (tbrf_ic_zoom_make_mpi) is the serial zoom.
module ic_mpi_f_rows
    use, intrinsic :: iso_c_binding
    use tbrf
    implicit none
    real(c_double), allocatable :: rows(:, :)   ! (6, G**3): position, velocity
    integer(c_int64_t), allocatable :: seen(:)
    real(c_double), allocatable :: field(:)      ! a 2D grid's cells, x fastest
contains
    integer(c_int) function put(user, first, count, values) bind(C) result(r)
        type(c_ptr), value :: user, values
        integer(c_int64_t), value :: first, count
        real(c_double), pointer :: v(:)
        r = 0
        if (c_associated(user)) r = 1   ! the test passes no user data
        if (count == 0) return
        call c_f_pointer(values, v, [count])
        field(first + 1:first + count) = v
        seen(first + 1:first + count) = seen(first + 1:first + count) + 1
    end function put

    integer(c_int) function take(user, chunk) bind(C) result(r)
        type(c_ptr), value :: user, chunk
        type(tbrf_ic_chunk), pointer :: c
        real(c_double), pointer :: pos(:, :), vel(:, :)
        integer(c_int64_t) :: i
        call c_f_pointer(chunk, c)
        r = 0
        if (c_associated(user)) r = 1   ! the test passes no user data
        if (c%count == 0) return
        call c_f_pointer(c%pos, pos, [3_c_int64_t, c%count])
        call c_f_pointer(c%vel, vel, [3_c_int64_t, c%count])
        do i = 1, c%count
            rows(1:3, c%first + i) = pos(:, i)
            rows(4:6, c%first + i) = vel(:, i)
            seen(c%first + i) = seen(c%first + i) + 1
        end do
    end function take
end module ic_mpi_f_rows

program test_ic_mpi_f
    use, intrinsic :: iso_c_binding
    use mpi_f08
    use tbrf
    use tbrf_mpi
    use ic_mpi_f_rows
    implicit none
    integer(c_int64_t), parameter :: g = 16
    type(MPI_Comm) :: comm
    type(tbrf_ic_cosmo_params) :: p
    type(tbrf_ic_cosmo) :: ic, serial
    real(c_double), allocatable :: mine(:, :)
    integer(c_int64_t), allocatable :: bounds(:)
    integer(c_int64_t) :: z0, planes, rows_max, lo, hi, total, i
    integer :: rank, size, files, member0, members, st, f, failures, all_failures, lpt
    integer(c_int64_t) :: m
    real(c_double) :: bytes, err_pos, err_vel, tol_pos, tol_vel, dx, vmax

    call MPI_Init()
    call MPI_Comm_dup(MPI_COMM_WORLD, comm)
    call MPI_Comm_rank(comm, rank)
    call MPI_Comm_size(comm, size)
    failures = 0

    do lpt = 1, 2
    call tbrf_ic_default_cosmo(p)
    p%particles = g
    p%box = 50
    p%lpt = lpt
    p%seed = 7
    files = size
    if (allocated(bounds)) deallocate(bounds, rows, seen)
    allocate(bounds(files + 1))
    call tbrf_mpi_ic_split(comm, g, files, z0, planes, member0, members, bounds, stat=st)
    call check(st == TBRF_OK, "tbrf_mpi_ic_split")
    rows_max = 0
    do f = member0, member0 + members - 1
        rows_max = max(rows_max, bounds(f + 2) - bounds(f + 1))
    end do
    call tbrf_ic_cosmo_slab_bytes(p, max(planes, 1_c_int64_t), rows_max, bytes, stat=st)
    call check(st == TBRF_OK .and. bytes > 0, "tbrf_ic_cosmo_slab_bytes")
    call tbrf_ic_cosmo_make_slab(ic, p, max(planes, 1_c_int64_t), rows_max, stat=st)
    call check(st == TBRF_OK, "tbrf_ic_cosmo_make_slab: " // tbrf_ic_cosmo_message(ic))

    allocate(rows(6, g**3), seen(g**3))
    seen = 0
    call tbrf_ic_cosmo_generate_mpi(comm%MPI_VAL, ic, files, take, stat=st)
    call check(st == TBRF_OK, "tbrf_ic_cosmo_generate_mpi: " // tbrf_ic_cosmo_message(ic))
    ! this rank's rows are those of its members, each once; none else
    lo = bounds(member0 + 1)
    hi = bounds(member0 + members + 1)
    if (members == 0) hi = lo
    call check(all(seen(lo + 1:hi) == 1), "each of the rank's rows pushed once")
    call check(count(seen /= 0) == hi - lo, "no row of another rank pushed")
    call MPI_Allreduce(hi - lo, total, 1, MPI_INTEGER8, MPI_SUM, comm)
    call check(total == g**3, "the ranks' rows make the lattice")
    if (allocated(mine)) deallocate(mine)
    allocate(mine(6, hi - lo))
    mine(:, :) = rows(:, lo + 1:hi)

    ! the serial run of the same parameters
    seen = 0
    call tbrf_ic_cosmo_make(serial, p, stat=st)
    call check(st == TBRF_OK, "tbrf_ic_cosmo_make")
    call tbrf_ic_cosmo_generate(serial, 1_c_int64_t, take, stat=st)
    call check(st == TBRF_OK .and. all(seen == 1), "tbrf_ic_cosmo_generate")
    ! 2 log2(G) 2^-52 max|Psi1| on the displacement (max|Psi1| below the
    ! box), one ulp of the box for q + Psi; on u = vf Psi1 the same bound
    ! times vf, with max|vf Psi1| = max|u|, and one ulp for the product
    dx = 0
    do i = lo + 1, hi
        dx = max(dx, maxval(abs(mine(1:3, i - lo) - rows(1:3, i))))
    end do
    err_pos = dx
    vmax = maxval(abs(rows(4:6, :)))
    tol_pos = (2 * log(real(g, c_double)) / log(2.0_c_double) + 1) * epsilon(1.0_c_double) * p%box
    ! the second order: (4 log2 G + 4 log2 M + 8) 2^-52 max|D2 Psi2| more,
    ! M = floor((3G + 1) / 2) the padded grid, max|D2 Psi2| below the box
    m = shiftr(3 * g + 1, 1)
    if (lpt == 2) tol_pos = tol_pos + (4 * log(real(g, c_double)) / log(2.0_c_double) &
        + 4 * log(real(m, c_double)) / log(2.0_c_double) + 8) * epsilon(1.0_c_double) * p%box
    tol_vel = (2 * log(real(g, c_double)) / log(2.0_c_double) + 1) * epsilon(1.0_c_double) * vmax
    err_vel = 0
    do i = lo + 1, hi
        err_vel = max(err_vel, maxval(abs(mine(4:6, i - lo) - rows(4:6, i))))
    end do
    call check(err_pos <= tol_pos, "positions within the transform's rounding")
    if (lpt == 2) tol_vel = tol_vel * (1 + (4 * log(real(g, c_double)) / log(2.0_c_double) &
        + 4 * log(real(m, c_double)) / log(2.0_c_double) + 8))
    call check(err_vel <= tol_vel, "velocities within the transform's rounding")
    if (rank == 0) print '(a, i0, a, i0, a, es9.2, a, es9.2)', 'lpt ', lpt, ', ranks ', size, &
                         ': position error ', err_pos, ' of ', tol_pos
    call tbrf_ic_cosmo_destroy(ic)
    call tbrf_ic_cosmo_destroy(serial)
    end do

    ! fewer files than ranks with planes: a status on every rank
    if (size > 1) then
        call tbrf_mpi_ic_split(comm, g, 1, z0, planes, member0, members, bounds, stat=st)
        call check(st == TBRF_ERR_INVALID, "one file over several ranks refused")
    end if
    call tbrf_mpi_ic_split(comm, g, 4, z0, planes, member0, members, bounds(1:2), stat=st)
    call check(st == TBRF_ERR_SIZE, "bounds too short refused")
    call check(tbrf_mpi_agree(comm, merge(TBRF_ERR_SIZE, TBRF_OK, rank == size - 1)) == TBRF_ERR_SIZE, &
               "tbrf_mpi_agree gives the worst status")

    call check_fft()
    call check_zoom()
    call MPI_Allreduce(failures, all_failures, 1, MPI_INTEGER, MPI_SUM, comm)
    call MPI_Comm_free(comm)
    call MPI_Finalize()
    if (all_failures /= 0) error stop 1
contains
    !> The FFT method's 2D field of 40 x 31 cells over the ranks against
    !> the serial plan's: 2 log2(N) 2^-52 max|value| (doc/mpi.md).
    subroutine check_fft()
        integer(c_int64_t), parameter :: n(3) = [40_c_int64_t, 31_c_int64_t, 1_c_int64_t]
        type(tbrf_model) :: model
        type(tbrf_plan) :: plan
        type(tbrf_opts) :: opts
        real(c_double) :: ref(40, 31), amax, dmax
        integer(c_int64_t) :: start(3), cnt(3), first, mine, cells
        call tbrf_model_gaussian(model, 3.0_c_double)
        call tbrf_default_opts(opts)
        opts%method = TBRF_METHOD_FFT
        opts%threads = 1
        call tbrf_make_plan(plan, model, 2, [0.0_c_double, 0.0_c_double], [64.0_c_double, 64.0_c_double], &
                            1.0_c_double, 11_c_int64_t, opts)
        call tbrf_set_grid(plan, [0.0_c_double, 0.0_c_double], [1.0_c_double, 1.0_c_double], n(1:2))
        call tbrf_mpi_fft_split_grid(comm, 2, n, start, cnt, first, stat=st)
        call check(st == TBRF_OK .and. first == start(2) * n(1), "tbrf_mpi_fft_split_grid")
        mine = cnt(1) * cnt(2)
        call MPI_Allreduce(mine, cells, 1, MPI_INTEGER8, MPI_SUM, comm)
        call check(cells == n(1) * n(2), "the FFT slabs cover the grid once")
        deallocate(seen)
        allocate(field(n(1) * n(2)), seen(n(1) * n(2)))
        seen = 0
        call tbrf_mpi_fft_stream(comm, plan, n, TBRF_DOUBLE, 0, 5_c_int64_t, 3 * n(1) + 1, put, stat=st)
        call check(st == TBRF_OK, "tbrf_mpi_fft_stream: " // tbrf_plan_message(plan))
        call check(all(seen(first + 1:first + mine) == 1) .and. count(seen /= 0) == mine, &
                   "the rank's own cells pushed once")
        call tbrf_execute(plan, 5_c_int64_t, ref)
        amax = maxval(abs(ref))
        dmax = maxval(abs(reshape(ref, [n(1) * n(2)]) - field), mask=seen /= 0)
        if (mine == 0) dmax = 0
        call check(amax > 0 .and. dmax <= 2 * log(real(n(1) * n(2), c_double)) / log(2.0_c_double) &
                                          * epsilon(1.0_c_double) * amax, "the serial field")
    end subroutine check_fft

    !> A zoom over the ranks (tbrf_ic_zoom_make_mpi, both handle forms)
    !> against the serial tbrf_ic_zoom_make: the same counts on every
    !> rank; on rank 0 the serial rows and, for Zel'dovich, positions
    !> within the transform's rounding (bound as above, at G r); no
    !> particles on the others.
    subroutine check_zoom()
        type(tbrf_ic_cosmo_params) :: zp
        type(tbrf_ic_zoom_params) :: region
        type(tbrf_ic_zoom) :: zs, zm
        type(tbrf_ic_zoom_info) :: is, im
        type(tbrf_ic_zoom_part) :: ps, pm
        real(c_double), pointer :: xs(:, :), xm(:, :)
        integer(c_int64_t), pointer :: rs(:), rm(:)
        integer :: k
        call tbrf_ic_default_cosmo(zp)
        zp%particles = 8
        zp%box = 50
        zp%lpt = 1
        call tbrf_ic_default_zoom(region)
        region%refinement = 2
        region%region = TBRF_IC_ZOOM_SPHERE
        region%centre = [25.0_c_double, 25.0_c_double, 10.0_c_double]
        region%radius = 9
        call tbrf_ic_zoom_make(zs, zp, region, stat=st)
        call check(st == TBRF_OK, "serial zoom: " // tbrf_ic_zoom_message(zs))
        do k = 1, 2
            if (k == 1) call tbrf_ic_zoom_make_mpi(comm, zm, zp, region, stat=st)
            if (k == 2) call tbrf_ic_zoom_make_mpi(comm%MPI_VAL, zm, zp, region, stat=st)
            call check(st == TBRF_OK, "tbrf_ic_zoom_make_mpi: " // tbrf_ic_zoom_message(zm))
            call tbrf_ic_zoom_get_info(zs, is)
            call tbrf_ic_zoom_get_info(zm, im)
            call check(im%fine == is%fine .and. im%coarse == is%coarse .and. im%fine > 0, &
                       "the zoom's counts on every rank")
            call tbrf_ic_zoom_particles(zm, 1, pm)
            if (rank /= 0) then
                call check(pm%n == 0, "no particles but on rank 0")
                cycle
            end if
            call tbrf_ic_zoom_particles(zs, 1, ps)
            call check(pm%n == ps%n, "rank 0 holds every fine particle")
            if (pm%n /= ps%n) cycle
            call c_f_pointer(ps%pos, xs, [3_c_int64_t, ps%n])
            call c_f_pointer(pm%pos, xm, [3_c_int64_t, pm%n])
            call c_f_pointer(ps%row, rs, [ps%n])
            call c_f_pointer(pm%row, rm, [pm%n])
            call check(all(rs == rm), "the serial zoom's rows, in order")
            call check(maxval(abs(xs - xm)) <= (2 * log(16.0_c_double) / log(2.0_c_double) + 1) &
                       * epsilon(1.0_c_double) * zp%box, "positions within the transform's rounding")
        end do
        call tbrf_ic_zoom_destroy(zm)
        call tbrf_ic_zoom_destroy(zs)
    end subroutine check_zoom

    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (.not. ok) then
            print '(a, i0, a, a)', 'rank ', rank, ': FAIL ', what
            failures = failures + 1
        end if
    end subroutine check
end program test_ic_mpi_f
