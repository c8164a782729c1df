! test_ic.f90 — the initial-condition wrappers reach C with their arguments
! in place: a 8^3 Zel'dovich IC (lpt = 1) whose chunks (pushed to a Fortran
! callback) carry velocities vfac * Psi bitwise and positions q + Psi in
! the box; a paired 2LPT one with velocities vfac Psi1 + vfac2 Psi2 and
! D2, f2 of tbrf_cosmo_growth2; the glass tile count; a glass made and measured; placement in pieces equal to the whole;
! the lognormal transform's formula; Voronoi volumes of a lattice (or
! TBRF_ERR_NOT_BUILT with its message); stat and message on bad input;
! two fluids from a CAMB-layout file written here (v_CDM = 0.9 CDM): the
! dark matter moves with sqrt(a) H 0.9 times its own displacement, a
! 9-column file has no velocity (TBRF_ERR_UNSUPPORTED).
module test_ic_push
    use tbrf
    implicit none
    real(c_double), allocatable :: got_vel(:, :), got_pos(:, :)
    integer(c_int64_t) :: rows = 0
contains
    !> Copies each chunk's positions and velocities into got_*.
    integer(c_int) function push(user, chunk) bind(C)
        type(c_ptr), value :: user, chunk
        type(tbrf_ic_chunk), pointer :: ch
        real(c_double), pointer :: pos(:, :), vel(:, :)
        call c_f_pointer(chunk, ch)
        push = 0
        if (ch%first /= rows .or. c_associated(user)) push = 1
        if (ch%count > 0) then
            call c_f_pointer(ch%pos, pos, [3_c_int64_t, ch%count])
            call c_f_pointer(ch%vel, vel, [3_c_int64_t, ch%count])
            got_pos(:, ch%first + 1:ch%first + ch%count) = pos
            got_vel(:, ch%first + 1:ch%first + ch%count) = vel
        end if
        rows = rows + ch%count
    end function push
end module test_ic_push

program test_ic
    use tbrf
    use test_support
    use test_ic_push
    implicit none
    type(tbrf_ic_cosmo) :: ic
    type(tbrf_ic_cosmo_params) :: p, held
    type(tbrf_ic_cosmo_info) :: info
    type(tbrf_ic_points_params) :: pp
    type(tbrf_ic_density_params) :: dp
    real(c_double), allocatable :: psi(:, :), psi2(:, :), xyz(:, :), part(:, :), vol(:), g(:), rho(:)
    real(c_double) :: bytes, glass(3, 8), d2, f2, gk(4), gpk(4), gmodes(4)
    real(c_double), allocatable :: gxyz(:, :)
    type(tbrf_ic_glass_params) :: gp
    type(tbrf_ic_glass_info) :: ginfo
    integer(c_int64_t) :: fewest, tile, i
    integer :: st
    character(len=:), allocatable :: msg, msg2
    type(tbrf_model) :: tm, tb, tc, tvc, tvb
    real(c_double) :: k, t, q(3), d(3), worst, big
    integer :: u, j

    call tbrf_ic_default_cosmo(p)
    call check(p%lpt == 2 .and. p%fixed_amplitude == 0 .and. p%paired == 0, "defaults: 2LPT, Gaussian")
    p%particles = 8
    p%lpt = 1
    call tbrf_ic_cosmo_bytes(p, 2_c_int64_t, bytes, fewest)
    call check(bytes > 0 .and. fewest >= 1, "bytes and fewest chunks")
    call tbrf_ic_cosmo_make(ic, p)
    call tbrf_ic_cosmo_get_info(ic, info)
    call check(info%particles == 512, "8^3 particles")
    allocate(psi(3, 512), got_vel(3, 512), got_pos(3, 512))
    call tbrf_ic_cosmo_displacements(ic, psi)
    call tbrf_ic_cosmo_generate(ic, 3_c_int64_t, push)
    call check(rows == 512, "three chunks, every row once")
    call check(all(abs(got_vel - psi * info%velocity_factor) <= 0), "velocities vfac * Psi bitwise")
    call check(all(got_pos >= 0 .and. got_pos < p%box), "positions inside the box")
    call check(abs(got_pos(1, 2) - modulo(p%box / 8 + psi(1, 2), p%box)) < 1e-9_c_double * p%box, &
               "row 2 at q + Psi (x fastest)")
    call tbrf_ic_cosmo_destroy(ic)

    ! 2LPT, paired: u = vfac Psi1 + vfac2 Psi2 with Psi1 -> -Psi1
    p%lpt = 2
    p%paired = 1
    allocate(psi2(3, 512))
    call tbrf_ic_cosmo_make(ic, p)
    call tbrf_ic_cosmo_get_info(ic, info)
    ! omega_lambda left at its default: the IC holds 1 - omega_m
    call tbrf_ic_cosmo_get_params(ic, held)
    call check(same_bits(held%omega_lambda, 1 - p%omega_m), "default omega_lambda 1 - omega_m")
    call tbrf_cosmo_growth2(p%omega_m, held%omega_lambda, p%redshift, d2, f2)
    call check(same_bits(info%growth2, d2) .and. same_bits(info%growth_rate2, f2) .and. d2 < 0, "D2 and f2 in the info")
    call tbrf_ic_cosmo_displacements(ic, psi)
    call tbrf_ic_cosmo_displacements2(ic, psi2)
    rows = 0
    call tbrf_ic_cosmo_generate(ic, 2_c_int64_t, push)
    call check(maxval(abs(psi2)) > 0 .and. all(abs(got_vel - (psi * info%velocity_factor + &
               psi2 * info%velocity_factor2)) <= 1e-12_c_double * maxval(abs(got_vel))), &
               "2LPT velocities vfac Psi1 + vfac2 Psi2")
    call tbrf_ic_cosmo_destroy(ic)
    p%paired = 0

    ! two fluids: a 13-column CAMB layout, the total (1 - f_b) T_c + f_b T_b
    open(newunit=u, file="tf_f.dat", status="replace", action="write")
    do j = 0, 299
        k = 1e-4_c_double * 1e6_c_double**(j / 299.0_c_double)
        t = 1 / (1 + (k / 0.05_c_double)**2)
        write(u, '(13es24.16)') k, t * (1 + 0.1_c_double * sin(log(k))), 0.7_c_double * t, t, t, &
            0.0_c_double, (1 - p%omega_b / p%omega_m) * t * (1 + 0.1_c_double * sin(log(k))) + &
            p%omega_b / p%omega_m * 0.7_c_double * t, t, t, t, &
            0.9_c_double * t * (1 + 0.1_c_double * sin(log(k))), 0.77_c_double * t, t
    end do
    close(u)
    call tbrf_ic_transfer_power(tm, "tf_f.dat", TBRF_IC_TRANSFER_MATTER, p%n_s)
    call tbrf_ic_transfer_power(tb, "tf_f.dat", TBRF_IC_TRANSFER_BARYON, p%n_s)
    call tbrf_ic_transfer_power(tc, "tf_f.dat", TBRF_IC_TRANSFER_CDM, p%n_s)
    call tbrf_ic_transfer_velocity(tvc, "tf_f.dat", TBRF_IC_TRANSFER_CDM, p%n_s, 1.0_c_double)
    call tbrf_ic_transfer_velocity(tvb, "tf_f.dat", TBRF_IC_TRANSFER_BARYON, p%n_s, 1.0_c_double)
    p%lpt = 1
    p%gas = 1
    call tbrf_ic_cosmo_make(ic, p, power=tm, power_gas=tb, power_dm=tc, velocity_dm=tvc, &
                            velocity_gas=tvb, stat=st)
    msg = tbrf_ic_cosmo_message(ic)
    call check(st == TBRF_OK, "two fluids made: " // msg)
    call tbrf_ic_cosmo_get_info(ic, info)
    rows = 0
    call tbrf_ic_cosmo_generate(ic, 2_c_int64_t, push)
    worst = 0
    big = 0
    do i = 1, 512
        q = [real(mod(i - 1, 8_c_int64_t), c_double), real(mod((i - 1) / 8, 8_c_int64_t), c_double), &
             real((i - 1) / 64, c_double)] * (p%box / 8)
        d = got_pos(:, i) - q - info%shift_dm
        d = d - p%box * anint(d / p%box)
        worst = max(worst, maxval(abs(got_vel(:, i) - 0.9_c_double * sqrt(info%scale_factor) * &
                                      info%hubble * d)))
        big = max(big, maxval(abs(got_vel(:, i))))
    end do
    call check(big > 0 .and. worst < 1e-9_c_double * big, &
               "two fluids: the dark matter's u = sqrt(a) H 0.9 Psi_c (v_CDM = 0.9 CDM)")
    call tbrf_ic_cosmo_destroy(ic)
    open(newunit=u, file="tf_f9.dat", status="replace", action="write")
    write(u, '(9es12.4)') 1e-3, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0
    write(u, '(9es12.4)') 1e-2, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0
    close(u)
    call tbrf_ic_transfer_velocity(tvb, "tf_f9.dat", TBRF_IC_TRANSFER_BARYON, p%n_s, &
                                   1.0_c_double, stat=st, message=msg2)
    call check(st == TBRF_ERR_UNSUPPORTED .and. index(msg2, "no baryon velocity") > 0, &
               "a 9-column file has no velocity: " // msg2)
    open(newunit=u, file="tf_f.dat")
    close(u, status="delete")
    open(newunit=u, file="tf_f9.dat")
    close(u, status="delete")
    call tbrf_model_destroy(tm)
    call tbrf_model_destroy(tb)
    call tbrf_model_destroy(tc)
    call tbrf_model_destroy(tvc)
    call tbrf_model_destroy(tvb)
    p%gas = 0

    p%omega_b = 0.5_c_double  ! > omega_m: refused, the message says why
    call tbrf_ic_cosmo_make(ic, p, stat=st)
    msg = tbrf_ic_cosmo_message(ic)
    call check(st == TBRF_ERR_INVALID .and. index(msg, "omega_b") > 0, &
               "bad omega_b refused with a message")
    call tbrf_ic_cosmo_destroy(ic)

    glass = 0.5_c_double
    call tbrf_ic_glass_tile(glass, 1.0_c_double, 4_c_int64_t, tile)
    call check(tile == 2, "8 glass points tile 4^3 twice per axis")
    call tbrf_ic_glass_tile(glass, 1.0_c_double, 3_c_int64_t, tile, stat=st, message=msg2)
    call check(st == TBRF_ERR_INVALID .and. index(msg2, "does not tile") > 0, "27 does not tile 8")

    ! a glass of 8^3 points: inside its box, its low-k power far below a
    ! random load's (1 in units of the shot noise), a wrong shape refused
    call tbrf_ic_default_glass(gp)
    gp%per_axis = 8
    gp%steps = 40
    call tbrf_ic_glass_bytes(gp, bytes)
    call check(bytes > 8**3 * 3 * 8, "a glass run holds at least its positions")
    allocate(gxyz(3, 8**3))
    call tbrf_ic_glass_make(gp, gxyz, ginfo, stat=st, message=msg2)
    call check(st == TBRF_OK .and. all(gxyz >= 0 .and. gxyz < 1), "tbrf_ic_glass_make: " // msg2)
    call check(ginfo%steps >= 1 .and. ginfo%steps <= 40 .and. ginfo%power_low < ginfo%power_start, &
               "the glass run lowered the low-k power")
    call tbrf_ic_glass_power(gxyz, 1.0_c_double, 24_c_int64_t, gk, gpk, gmodes, stat=st)
    call check(st == TBRF_OK .and. gk(1) > 0 .and. gmodes(1) > 0 .and. gpk(1) < 0.1, &
               "the glass's lowest shell far below Poisson")
    call tbrf_ic_glass_make(gp, gxyz(:, 1:10), stat=st, message=msg2)
    call check(st == TBRF_ERR_SIZE .and. index(msg2, "per_axis") > 0, "a glass array of the wrong shape")

    call tbrf_ic_default_points(pp)
    pp%kind = TBRF_IC_JITTERED
    pp%per_axis = 4
    allocate(xyz(3, tbrf_ic_points_count(pp)), part(3, 40))
    call tbrf_ic_points(pp, 0_c_int64_t, xyz)
    call tbrf_ic_points(pp, 10_c_int64_t, part)
    call check(all(abs(part - xyz(:, 11:50)) <= 0), "points 10 .. 49 equal the whole placement's")

    call tbrf_ic_default_density(dp)
    dp%kind = TBRF_DENSITY_LOGNORMAL
    dp%sigma = 0.5_c_double
    g = [(real(i, c_double) / 10, i = -5, 5)]
    allocate(rho(size(g)))
    call tbrf_ic_density(dp, g, rho)
    call check(all(abs(rho - exp(0.5_c_double * g - 0.125_c_double)) <= 1e-15_c_double), &
               "lognormal rho_mean exp(sigma g - sigma^2/2)")
    call tbrf_ic_density_volumes(dp, g, [(1.0_c_double, i = 1, 11)], 11.0_c_double, rho)
    call check(abs(sum(rho) - 11) < 1e-12_c_double, "volume-weighted mean exact")

    pp%kind = TBRF_IC_LATTICE
    call tbrf_ic_points(pp, 0_c_int64_t, xyz)
    allocate(vol(64))
    call tbrf_ic_voronoi_volumes(xyz, pp%box, vol, stat=st, message=msg)
    if (st == TBRF_ERR_NOT_BUILT) then
        call check(index(msg, "Qhull") > 0, "without Qhull the message says so")
    else
        call check(st == TBRF_OK .and. all(abs(vol - 1.0_c_double / 64) < 1e-12_c_double), &
                   "lattice cells of volume L^3 / n")
    end if
    ! finish stops the program: free what is allocated first, so the
    ! sanitizer build's leak check sees nothing left
    deallocate(psi, psi2, got_vel, got_pos, xyz, part, g, rho, vol, gxyz)
    if (allocated(msg)) deallocate(msg)
    if (allocated(msg2)) deallocate(msg2)
    call finish("test_ic")
end program test_ic
