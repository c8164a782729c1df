! test_driving_threads.f90 — one driver shared by the threads of an
! `!$omp parallel do` over blocks, as a block-AMR code calls it from its
! source hook (doc/driving.md, "Threads and ranks"; doc/fortran.md,
! "Turbulence driving"): per step, 4 threads fill the step's 64 blocks
! through tbrf_driver_grid (force(3, nx, ny, nz) written in place, and the
! separate fx, fy, fz through the wrapper's temporary) and through
! tbrf_driver_points at the cell centres, and the forces equal bitwise
! those of the same loop run serially on a driver of its own; every call
! returns TBRF_OK through stat. Again with the blocks of two steps mixed
! in one loop (two times at once). Drivers with time interpolation and the
! exact rms, whose coefficients a rebuild in place would scale twice,
! summed directly and by the NUFFT (whose fine grids are rebuilt too).
program test_driving_threads
    use tbrf
    use test_support
    implicit none
    real(c_double), parameter :: pi = 3.14159265358979323846d0
    integer, parameter :: nb = 4, bn = 8, nblk = nb**3, steps = 8
    type(tbrf_model) :: band
    type(tbrf_driver_params) :: prm

    call tbrf_model_band(band, 2 * pi, 6 * pi)
    call tbrf_driver_default_params(prm)
    prm%tcorr = 0.5d0
    prm%dt_update = 0.05d0
    prm%interpolate = 1
    prm%normalization = TBRF_DRIVE_RMS_EXACT
    prm%eval = TBRF_DRIVE_DIRECT
    call shared_driver('direct', prm)
    prm%eval = TBRF_DRIVE_NUFFT
    call shared_driver('nufft', prm)
    call finish('test_driving_threads')

contains

    !> The serial loop on a driver of its own, then 4 threads sharing one
    !> driver: per step (the step's one time), and the steps' blocks mixed
    !> in one loop (two steps' times at once); bitwise equal.
    subroutine shared_driver(what, prm)
        character(len=*), intent(in) :: what
        type(tbrf_driver_params), intent(in) :: prm
        type(tbrf_driver) :: serial, shared
        real(c_double), allocatable :: ref(:, :, :, :, :, :), got(:, :, :, :, :, :)
        real(c_double), allocatable :: cref(:, :, :, :, :, :), cgot(:, :, :, :, :, :)
        real(c_double), allocatable :: pref(:, :, :, :), pgot(:, :, :, :)
        integer :: s, b, sb, bad, pattern
        call tbrf_driver_make(serial, band, 42, prm)
        allocate(ref(3, bn, bn, bn, nblk, steps), got(3, bn, bn, bn, nblk, steps))
        allocate(cref(bn, bn, bn, 3, nblk, steps), cgot(bn, bn, bn, 3, nblk, steps))
        allocate(pref(3, bn**3, nblk, steps), pgot(3, bn**3, nblk, steps))
        bad = 0
        do s = 1, steps
            do b = 1, nblk
                bad = bad + one_block(serial, s, b, ref(:, :, :, :, b, s), cref(:, :, :, :, b, s), &
                                      pref(:, :, b, s))
            end do
        end do
        call check(bad == 0, what // ': the serial loop: every call TBRF_OK')
        call check(maxval(abs(ref)) > 0.1d0, what // ': a force at all')
        do pattern = 1, 2
            call tbrf_driver_make(shared, band, 42, prm)
            got = -1
            cgot = -1
            pgot = -1
            bad = 0
            if (pattern == 1) then
                do s = 1, steps
                    !$omp parallel do num_threads(4) schedule(dynamic, 1) reduction(+:bad)
                    do b = 1, nblk
                        bad = bad + one_block(shared, s, b, got(:, :, :, :, b, s), cgot(:, :, :, :, b, s), &
                                              pgot(:, :, b, s))
                    end do
                    !$omp end parallel do
                end do
            else
                !$omp parallel do num_threads(4) schedule(dynamic, 1) reduction(+:bad) private(s, b)
                do sb = 0, steps * nblk - 1
                    s = (sb / (2 * nblk)) * 2 + mod(sb, 2) + 1
                    b = mod(sb / 2, nblk) + 1
                    bad = bad + one_block(shared, s, b, got(:, :, :, :, b, s), cgot(:, :, :, :, b, s), &
                                          pgot(:, :, b, s))
                end do
                !$omp end parallel do
            end if
            call check(bad == 0, what // ': 4 threads sharing one driver: every call TBRF_OK')
            call check(all(transfer(got, 1_c_int64_t, size(got)) == transfer(ref, 1_c_int64_t, size(ref))), &
                       what // ': grid force(3, nx, ny, nz) from 4 threads: bitwise the serial loop')
            call check(all(transfer(cgot, 1_c_int64_t, size(cgot)) == transfer(cref, 1_c_int64_t, size(cref))), &
                       what // ': grid fx, fy, fz from 4 threads: bitwise the serial loop')
            call check(all(transfer(pgot, 1_c_int64_t, size(pgot)) == transfer(pref, 1_c_int64_t, size(pref))), &
                       what // ': points from 4 threads: bitwise the serial loop')
            call tbrf_driver_destroy(shared)
        end do
        call tbrf_driver_destroy(serial)
    end subroutine shared_driver

    real(c_double) function step_time(s)
        integer, intent(in) :: s
        step_time = 0.013d0 + 0.037d0 * (s - 1)
    end function step_time

    !> Block b of an nb^3 tiling of the unit box at step s, three ways;
    !> the number of calls that failed.
    integer function one_block(drv, s, b, f, fc, fp) result(nbad)
        type(tbrf_driver), intent(inout) :: drv
        integer, intent(in) :: s, b
        real(c_double), intent(out) :: f(3, bn, bn, bn), fc(bn, bn, bn, 3), fp(3, bn**3)
        real(c_double) :: o(3), h(3), xyz(3, bn**3)
        integer :: ib(3), i, j, k, st
        ib = [mod(b - 1, nb), mod((b - 1) / nb, nb), (b - 1) / nb**2]
        h = 1d0 / (nb * bn)
        o = ib * bn * h + 0.5d0 * h
        nbad = 0
        call tbrf_driver_grid(drv, step_time(s), o, h, f, stat=st)
        if (st /= TBRF_OK) nbad = nbad + 1
        call tbrf_driver_grid(drv, step_time(s), o, h, fc(:, :, :, 1), fc(:, :, :, 2), fc(:, :, :, 3), stat=st)
        if (st /= TBRF_OK) nbad = nbad + 1
        do k = 1, bn
            do j = 1, bn
                do i = 1, bn
                    xyz(:, i + bn * (j - 1 + bn * (k - 1))) = o + h * [i - 1, j - 1, k - 1]
                end do
            end do
        end do
        call tbrf_driver_points(drv, step_time(s), xyz, fp, stat=st)
        if (st /= TBRF_OK) nbad = nbad + 1
    end function one_block
end program test_driving_threads
