! test_driving.f90 — the turbulence driver from Fortran (doc/fortran.md,
! "Turbulence driving"): statuses and messages through stat; the grid
! force(3, nx, ny, nz) equals the force at the cells as points to 1e-13;
! tbrf_driver_modes allocates m(3, :) and coef(6, :) holding no k = 0
! mode, and its Parseval rms equals tbrf_driver_rms; a saved state loaded
! into a new driver gives bitwise the same force; the driver starts on
! the cpu backend, an unknown backend is refused through stat and leaves
! its bits; band/parabola models; TurbGen's parameter file through
! tbrf_driver_params_from_turbgen (its parameters handed back, an unknown
! key refused through stat with the key in the message).
program test_driving
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
    use tbrf
    use test_support
    implicit none
    real(c_double), parameter :: pi = 3.14159265358979323846d0
    type(tbrf_model) :: band, para
    type(tbrf_driver_params) :: prm
    type(tbrf_driver) :: drv, bad, other
    type(tbrf_driver_info) :: info
    integer(c_int32_t), allocatable :: m(:, :)
    real(c_double), allocatable :: coef(:, :)
    integer(c_int8_t), allocatable :: state(:)
    real(c_double) :: grid(3, 6, 5, 4), xyz(3, 120), f(3, 120), g(3, 120), rms, nan
    integer :: st, i, j, k, c

    call tbrf_model_band(band, 2 * pi, 6 * pi)
    call tbrf_model_parabola(para, 2 * pi, 6 * pi, stat=st)
    call check(st == TBRF_OK, 'parabola model')
    call tbrf_model_set_amplitude(para, 1d0)
    call check(abs(tbrf_model_spectrum(para, 3, 4 * pi) - 1 / (4 * pi)**2) < 1d-15 / (4 * pi)**2 * 1d3, &
               'parabola peak k^2 P = 1')

    call tbrf_driver_default_params(prm)
    nan = ieee_value(nan, ieee_quiet_nan)
    prm%zeta = nan
    call tbrf_driver_make(bad, band, 1, prm, stat=st)
    call check(st == TBRF_ERR_INVALID, 'NaN zeta refused')
    call check(index(tbrf_driver_message(bad), 'zeta') > 0, 'message names zeta: ' // tbrf_driver_message(bad))
    call tbrf_driver_destroy(bad)

    call tbrf_driver_default_params(prm)
    prm%zeta = 0.4d0
    call tbrf_driver_make(drv, band, 5_c_int64_t, prm)
    call tbrf_driver_get_info(drv, info)
    call check(info%modes == 61, 'band 1..3 holds 61 modes')

    ! grid = points at the cells
    call tbrf_driver_grid(drv, 0.25d0, [0d0, 0d0, 0d0], [1d0 / 6, 1d0 / 5, 1d0 / 4], &
                          [6_c_int64_t, 5_c_int64_t, 4_c_int64_t], grid)
    c = 0
    do k = 0, 3
        do j = 0, 4
            do i = 0, 5
                c = c + 1
                xyz(:, c) = [i / 6d0, j / 5d0, k / 4d0]
            end do
        end do
    end do
    call tbrf_driver_points(drv, 0.25d0, xyz, f)
    call check(maxval(abs(reshape(grid, [3, 120]) - f)) <= 1d-13 * maxval(abs(f)), 'grid = points at the cells')

    ! modes and Parseval
    call tbrf_driver_modes(drv, 0.25d0, m, coef)
    call check(size(m, 2) == 61 .and. size(coef, 1) == 6, 'modes allocated (3, 61) and (6, 61)')
    call check(all(sum(abs(m), 1) > 0), 'no k = 0 mode')
    call tbrf_driver_rms(drv, 0.25d0, rms)
    call check(abs(rms - sqrt(2 * sum(coef**2))) <= 1d-14 * rms, 'rms = Parseval over the modes')

    ! a wrong shape is refused with stat
    call tbrf_driver_points(drv, 0.25d0, xyz(1:2, :), f, stat=st)
    call check(st == TBRF_ERR_SIZE, 'points of 2 coordinates in a 3D driver refused')

    ! save at t = 0.7, load into a new driver: the same bits later on
    call tbrf_driver_points(drv, 0.7d0, xyz, f)
    call tbrf_driver_save(drv, state)
    call check(size(state, kind=c_int64_t) == tbrf_driver_state_size(drv), 'state size')
    call tbrf_driver_make(other, band, 5_c_int64_t, prm)
    call tbrf_driver_load(other, state)
    call tbrf_driver_points(drv, 1.33d0, xyz, f)
    call tbrf_driver_points(other, 1.33d0, xyz, g)
    call check(all(transfer(f, 0_c_int64_t, 360) == transfer(g, 0_c_int64_t, 360)), &
               'loaded state: bitwise the same force')
    ! the state's parameters (the gains of amplitude control among them)
    block
        type(tbrf_driver_params) :: sp
        integer(c_int64_t) :: sseed
        call tbrf_driver_state_params(state, sp, sseed)
        call check(sseed == 5 .and. same_bits(sp%zeta, prm%zeta) .and. &
                   all(same_bits(sp%amplitude_factor, prm%amplitude_factor)), &
                   'state_params: the seed, zeta and gains back')
    end block
    state(1) = 0
    call tbrf_driver_load(other, state, stat=st)
    call check(st == TBRF_ERR_INVALID, 'a damaged state refused')
    block
        type(tbrf_driver_params) :: sp
        integer(c_int64_t) :: sseed
        character(len=200) :: why
        call tbrf_driver_state_params(state, sp, sseed, why, stat=st)
        call check(st == TBRF_ERR_INVALID .and. len_trim(why) > 0, 'state_params: a damaged state refused: ' // &
                   trim(why))
    end block

    ! backends (doc/driving.md): made on the cpu; an unknown one refused
    ! with stat, the driver keeping its backend and bits
    call check(tbrf_driver_backend(drv) == TBRF_BACKEND_CPU, 'made on the cpu backend')
    call tbrf_driver_set_backend(drv, 7, stat=st)
    call check(st == TBRF_ERR_INVALID, 'an unknown backend refused')
    call tbrf_driver_set_backend(drv, TBRF_BACKEND_CPU, device=-1)
    call tbrf_driver_points(drv, 1.33d0, xyz, g)
    call check(tbrf_driver_backend(drv) == TBRF_BACKEND_CPU .and. &
               all(transfer(f, 0_c_int64_t, 360) == transfer(g, 0_c_int64_t, 360)), &
               'back on the cpu: the same bits')

    call turbgen_file()

    call tbrf_driver_destroy(drv)
    call tbrf_driver_destroy(other)
    call tbrf_model_destroy(band)
    call tbrf_model_destroy(para)
    deallocate(m, coef, state)  ! main-program variables are never freed for us (LeakSanitizer)
    call finish('fortran_driving')
contains
    ! TurbGen's example file (tests/data/turbgen/TurbGen.par), its values
    ! only: rms is TurbGen's for it (test_driving_turbgen derives it)
    subroutine turbgen_file()
        character(len=*), parameter :: nl = new_line('a')
        character(len=:), allocatable :: text
        character(len=256) :: msg
        type(tbrf_driver_params) :: tp
        type(tbrf_model) :: tm
        type(tbrf_driver) :: td
        integer(c_int64_t) :: seed
        integer :: st
        text = 'ndim = 3' // nl // 'L = 1.0 # box' // nl // 'velocity = 1.0' // nl // &
               'ampl_factor = 1.0' // nl // 'ampl_auto_adjust = 0' // nl // 'k_driv = 2.0' // nl // &
               'k_min = 1.0' // nl // 'k_max = 3.0' // nl // 'sol_weight = 0.5' // nl // &
               'spect_form = 1' // nl // 'power_law_exp = -2.0' // nl // 'angles_exp = 1.0' // nl // &
               'random_seed = 140281' // nl // 'nsteps_per_t_turb = 10' // nl
        call tbrf_driver_params_from_turbgen(text, tp, seed, tm, msg, stat=st)
        call check(st == TBRF_OK, 'turbgen: ' // trim(msg))
        call check(tp%dim == 3 .and. abs(tp%tcorr - 0.5d0) < 1d-16 .and. abs(tp%dt_update - 0.05d0) < 1d-17 .and. &
                   abs(tp%zeta - 0.5d0) < 1d-16 .and. seed == 140281 .and. abs(tp%rms - 2.28474d0) < 1d-5, &
                   'turbgen: the parameters of TurbGen.par')
        call tbrf_driver_make(td, tm, seed, tp)
        call tbrf_driver_destroy(td)
        call tbrf_model_destroy(tm)
        call tbrf_driver_params_from_turbgen(text // 'foo = 1' // nl, tp, seed, tm, msg, stat=st)
        call check(st == TBRF_ERR_UNSUPPORTED .and. index(msg, "'foo'") > 0, &
                   'turbgen: an unknown key refused by name: ' // trim(msg))
        block
            real(c_double) :: g(3), go(3)
            character(len=200) :: why
            g = [1d0, 2d0, 0.5d0]
            ! at the target (each component target / sqrt(3)) the gains stay
            call tbrf_driver_amplitude_adjust(g, [1d0, 1d0, 1d0] / sqrt(3d0), 1d0, 1d0, 0.05d0, 0.5d0, go)
            call check(all(abs(go - g) < 1d-15 * g), 'amplitude_adjust: fixed point at the target')
            call tbrf_driver_amplitude_adjust(g, [1d0, 1d0], 1d0, 1d0, 0.05d0, 0.5d0, go(1:2), stat=st)
            call check(st == TBRF_ERR_SIZE, 'amplitude_adjust: sizes checked')
            ! a run from rest measures 0: the gains are held, no error
            go = -1
            call tbrf_driver_amplitude_adjust(g, [0d0, 0d0, 0d0], 1d0, 1d0, 0.05d0, 0.5d0, go, stat=st)
            call check(st == TBRF_OK .and. all(same_bits(go, g)), 'amplitude_adjust: measured 0 holds the gains')
            ! before 0.1 timescale nothing adjusts
            go = -1
            call tbrf_driver_amplitude_adjust(g, [1d-3, 1d-3, 1d-3], 1d0, 0.04d0, 0.05d0, 0.5d0, go, stat=st)
            call check(st == TBRF_OK .and. all(same_bits(go, g)), 'amplitude_adjust: t <= 0.1 timescale holds the gains')
            ! a failure names the argument, and gain_out is gain (never undefined)
            go = -1
            call tbrf_driver_amplitude_adjust(g, [1d0, -1d0, 1d0], 1d0, 1d0, 0.05d0, 0.5d0, go, why, stat=st)
            call check(st == TBRF_ERR_INVALID .and. index(why, 'measured[1]') > 0, &
                       'amplitude_adjust: the bad argument named: ' // trim(why))
            call check(all(same_bits(go, g)), 'amplitude_adjust: gain_out = gain on failure')
        end block
    end subroutine turbgen_file
end program test_driving
