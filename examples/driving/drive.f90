! drive.f90 — turbulence driving from Fortran (examples/driving/README.md).
!
! A periodic box of side 1 holds n^3 cells (n from the first argument,
! default 32) that move with their own velocity. Every step, of a variable
! length dt, the driver gives the forcing at the cells' current positions
! and the cells are accelerated by it (with a linear drag so the velocity
! stays bounded). The three driver lines of an MHD code's step are marked.
!
! Restart check: halfway, the driver state is saved (as a code would write
! it to its restart file). From there on, two more drivers follow the run —
! one loaded from the saved state, one made afresh with no state at all —
! and each step their forcing must equal the running driver's bit for bit.
program drive
    use tbrf
    implicit none
    integer :: n, ncell, step, nsteps, i, j, k, c, mismatch
    character(len=32) :: arg
    type(tbrf_model) :: band
    type(tbrf_driver_params) :: prm
    type(tbrf_driver) :: drv, loaded, fresh
    integer(c_int8_t), allocatable :: state(:)
    real(c_double), allocatable :: x(:, :), v(:, :), f(:, :), g(:, :)
    real(c_double) :: t, dt, rms
    real(c_double), parameter :: pi = 3.14159265358979323846d0, t_end = 2d0, drag = 1d0

    n = 32
    if (command_argument_count() >= 1) then
        call get_command_argument(1, arg)
        read(arg, *) n
    end if
    ncell = n**3
    allocate(x(3, ncell), v(3, ncell), f(3, ncell), g(3, ncell))
    do k = 0, n - 1
        do j = 0, n - 1
            do i = 0, n - 1
                c = 1 + i + n * (j + n * k)
                x(:, c) = ([i, j, k] + 0.5d0) / n
            end do
        end do
    end do
    v = 0

    ! The driver: modes 1 <= |k| L / 2 pi <= 3, solenoidal, T = 0.5,
    ! target rms 1 exactly at every update, linear in time between updates.
    call tbrf_model_band(band, 2 * pi, 6 * pi)
    call tbrf_driver_default_params(prm)
    prm%zeta = 1
    prm%tcorr = 0.5d0
    prm%rms = 1
    prm%normalization = TBRF_DRIVE_RMS_EXACT
    prm%interpolate = 1
    call tbrf_driver_make(drv, band, 42, prm)                    ! driver line 1 (once)

    t = 0
    step = 0
    nsteps = 0
    mismatch = 0
    do while (t < t_end)
        dt = 0.01d0 * (1 + 0.5d0 * sin(1.3d0 * step))             ! the code's own variable step
        call tbrf_driver_points(drv, t, x, f)                     ! driver line 2 (every step)
        v = v + dt * (f - drag * v)                               ! driver line 3: apply it
        if (allocated(state)) then                                ! the restart check
            call tbrf_driver_points(loaded, t, x, g)
            if (any(g /= f)) mismatch = mismatch + 1
            call tbrf_driver_points(fresh, t, x, g)
            if (any(g /= f)) mismatch = mismatch + 1
            nsteps = nsteps + 1
        else if (t >= t_end / 2) then                             ! halfway: "write a restart"
            call tbrf_driver_save(drv, state)
            call tbrf_driver_make(loaded, band, 42, prm)
            call tbrf_driver_load(loaded, state)
            call tbrf_driver_make(fresh, band, 42, prm)
        end if
        x = modulo(x + dt * v, 1d0)                               ! the cells move
        t = t + dt
        step = step + 1
    end do
    call tbrf_driver_rms(drv, t, rms)
    write(*, '(a, i0, a, i0, a, f6.3, a, f6.3)') 'drive.f90: ', ncell, ' cells, ', step, &
        ' steps to t = ', t, ', forcing rms ', rms
    write(*, '(a, es10.3)') 'drive.f90: velocity rms ', sqrt(sum(v**2) / ncell)
    if (mismatch /= 0 .or. nsteps == 0) then
        write(*, '(a, i0, a)') 'drive.f90: restart check FAILED (', mismatch, ' steps differ)'
        error stop 1
    end if
    write(*, '(a, i0, a)') 'drive.f90: restart check passed: the forcing after the restart is identical ', &
        nsteps, ' steps (loaded state and fresh driver)'
    call tbrf_driver_destroy(drv)
    call tbrf_driver_destroy(loaded)
    call tbrf_driver_destroy(fresh)
    call tbrf_model_destroy(band)
end program drive
