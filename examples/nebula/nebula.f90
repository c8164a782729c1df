! nebula.f90 — a clumpy wind meets a dense clump (examples/nebula/README.md).
!
! Isothermal hydrodynamics in 3D on nx x ny x nz cells of size h = 1:
! periodic across x and y, a wind of density rho_w and speed v_w blowing in
! through the bottom face (z = 0), free outflow at the top. The wind is
! clumpy: its ghost cells get rho_w exp(sigma delta - sigma^2/2) of a
! frozen power-law field delta (k^-3.9) carried by the wind, sampled each
! stage at x - v_w t by tbrf's inflow sampler (tbrf_inflow_fill_grid).
! A clump of density chi rho_w sits in its way.
!
! Scheme: finite volumes, piecewise-linear (minmod) reconstruction,
! Rusanov fluxes, two-stage SSP Runge-Kutta, CFL 0.4. Mass is conserved to
! rounding: the program adds up what crosses the bottom and top faces
! with the weights of the Runge-Kutta stages, and writes it beside the
! total mass (nebula_stats.csv).
!
! Output (current folder), through the installed streaming writer
! (libtbrf_writer):
!   snap_NNN.h5 + .xmf   density at 5 times (ParaView opens the .xmf)
!   lnrho_final.h5       ln(rho / rho_w) at the end (for the PNG)
!   inflow.h5 + .xmf     the inflow layer's density, one plane every
!                        h / v_w of time: the wind as it entered, stacked
!   nebula_stats.csv     step, t, mass, inflow, outflow
!   nebula_params.txt    the parameters (read by check.py)
!
! Usage: nebula [NX NY NZ [CROSSINGS]]   (default 48 48 96 1)
program nebula
    use tbrf
    use iso_fortran_env, only: output_unit
    implicit none

    interface
        integer(c_int) function c_writer_create(path, flags, w) bind(C, name="tbrf_writer_create")
            import :: c_int, c_char, c_ptr
            character(kind=c_char), intent(in) :: path(*)
            integer(c_int), value :: flags
            type(c_ptr) :: w
        end function c_writer_create
        integer(c_int) function c_writer_grid_begin(w, dim, origin, spacing, n, precision) &
            bind(C, name="tbrf_writer_grid_begin")
            import :: c_int, c_ptr, c_double, c_int64_t
            type(c_ptr), value :: w
            integer(c_int), value :: dim
            real(c_double), intent(in) :: origin(3), spacing(3)
            integer(c_int64_t), intent(in) :: n(3)
            integer(c_int), value :: precision
        end function c_writer_grid_begin
        integer(c_int) function c_writer_push(w, first, count, values) bind(C, name="tbrf_writer_push")
            import :: c_int, c_ptr, c_int64_t, c_double
            type(c_ptr), value :: w
            integer(c_int64_t), value :: first, count
            real(c_double), intent(in) :: values(*)
        end function c_writer_push
        integer(c_int) function c_writer_commit(w) bind(C, name="tbrf_writer_commit")
            import :: c_int, c_ptr
            type(c_ptr), value :: w
        end function c_writer_commit
        type(c_ptr) function c_writer_message(w) bind(C, name="tbrf_writer_message")
            import :: c_ptr
            type(c_ptr), value :: w
        end function c_writer_message
        subroutine c_writer_close(w) bind(C, name="tbrf_writer_close")
            import :: c_ptr
            type(c_ptr), value :: w
        end subroutine c_writer_close
    end interface

    ! --- parameters (README.md explains each)
    integer :: nx = 48, ny = 48, nz = 96
    real(c_double) :: crossings = 1
    real(c_double), parameter :: h = 1, cs = 1              ! cell size, isothermal sound speed
    real(c_double), parameter :: rho_w = 1, v_w = 4         ! wind density and speed (Mach 4)
    real(c_double), parameter :: sigma = 1               ! rms of ln(rho) in the wind
    real(c_double), parameter :: index = -3.9_c_double     ! the wind's power law
    real(c_double), parameter :: chi = 50                   ! clump / wind density
    real(c_double), parameter :: cfl = 0.4_c_double
    integer(c_int64_t), parameter :: seed = 2026
    integer, parameter :: nsnap = 4

    real(c_double), allocatable :: u(:, :, :, :), u1(:, :, :, :), du(:, :, :, :), ghost(:, :, :), plane(:, :, :)
    type(tbrf_model) :: model, density_model
    real(c_double) :: clipped
    type(tbrf_inflow) :: wind
    type(tbrf_opts) :: opts
    real(c_double) :: kmin, kmax, t, t_end, dt, lo(3), hi(3), mass0, inflow, outflow, fin, fout, t_plane
    real(c_double) :: radius, cz, r2
    integer :: i, j, k, step, snap, nplanes, iplane, unit, nargs
    character(len=64) :: arg
    type(c_ptr) :: pw

    nargs = command_argument_count()
    if (nargs >= 3) then
        call get_command_argument(1, arg); read(arg, *) nx
        call get_command_argument(2, arg); read(arg, *) ny
        call get_command_argument(3, arg); read(arg, *) nz
    end if
    if (nargs >= 4) then
        call get_command_argument(4, arg); read(arg, *) crossings
    end if
    if (nx < 8 .or. ny < 8 .or. nz < 8 .or. .not. (crossings > 0)) error stop "nebula: sizes >= 8, crossings > 0"
    t_end = crossings * nz * h / v_w

    ! --- the wind: its density contrast rho/rho_w - 1 has the spectrum
    ! k^-3.9 between the cross-section's fundamental and the grid's Nyquist
    ! and the variance exp(sigma^2) - 1 of a lognormal with rms(ln rho) =
    ! sigma (doc/lognormal.md): the Gaussian field behind it has the
    ! spectrum tbrf_model_lognormal derives (to 2 pi sqrt(3)/h, its
    ! correlation exact to 2 min(nx, ny) h), rescaled to unit variance for
    ! the sampler's rho_w exp(sigma delta - sigma^2/2); a tube long enough
    ! for the whole run
    kmin = 2 * acos(-1._c_double) / (min(nx, ny) * h)
    kmax = acos(-1._c_double) / h
    call tbrf_model_powerlaw(density_model, index, kmin, kmax)
    call tbrf_model_set_variance(density_model, exp(sigma**2) - 1)
    call tbrf_model_lognormal(model, density_model, 3, kmin / 2, 2 * sqrt(3._c_double) * kmax, &
                              4 * min(nx, ny) * h, 0.05_c_double, clipped)
    call tbrf_model_set_variance(model, 1._c_double)
    call tbrf_default_opts(opts)
    call tbrf_inflow_tube(3, [0.5_c_double * h, 0.5_c_double * h, -1.5_c_double * h], &
                          [(nx - 0.5_c_double) * h, (ny - 0.5_c_double) * h, -0.5_c_double * h], &
                          [0._c_double, 0._c_double, v_w], t_end, lo, hi)
    call tbrf_inflow_create(wind, model, 3, lo, hi, h, seed, 0_c_int64_t, [0._c_double, 0._c_double, v_w], &
                            opts=opts)
    call tbrf_inflow_set_density(wind, TBRF_DENSITY_LOGNORMAL, rho_w, sigma)
    write(*, '(a, i0, a, i0, a, i0, a, f0.2, a, f0.1, a)') 'nebula: ', nx, ' x ', ny, ' x ', nz, &
        ' cells, t_end = ', t_end, ', wind lines ', tbrf_inflow_line_bytes(wind) / 1048576._c_double, ' MiB'
    write(*, '(a, f0.2, a)') 'nebula: the wind''s Gaussian spectrum, derived for the density''s, clips ', &
        100 * clipped, '% of its variance (below k_min)'
    flush(output_unit)

    ! --- state u(var, i, j, k), var = rho, mx, my, mz; two ghost layers
    allocate(u(4, -1:nx + 2, -1:ny + 2, -1:nz + 2))
    allocate(u1(4, -1:nx + 2, -1:ny + 2, -1:nz + 2), du(4, -1:nx + 2, -1:ny + 2, -1:nz + 2))
    allocate(ghost(nx, ny, 2), plane(nx, ny, 1))
    radius = min(nx, ny) * h / 6
    cz = nz * h / 3
    do k = 1, nz
        do j = 1, ny
            do i = 1, nx
                r2 = ((i - 0.5_c_double) * h - nx * h / 2)**2 + ((j - 0.5_c_double) * h - ny * h / 2)**2 + &
                     ((k - 0.5_c_double) * h - cz)**2
                if (r2 < radius**2) then
                    u(:, i, j, k) = [chi * rho_w, 0._c_double, 0._c_double, 0._c_double]
                else
                    u(:, i, j, k) = [rho_w, 0._c_double, 0._c_double, rho_w * v_w]
                end if
            end do
        end do
    end do

    open(newunit=unit, file='nebula_params.txt', status='replace')
    write(unit, '(a, 3(1x, i0))') 'cells', nx, ny, nz
    write(unit, '(a, es24.16)') 'h', h, 'rho_w', rho_w, 'v_w', v_w, 'sigma', sigma, 'index', index, &
        'kmin', kmin, 'kmax', kmax, 'chi', chi, 't_end', t_end
    close(unit)

    ! the inflow layer, one plane per h / v_w: the wind as it entered
    nplanes = int(t_end * v_w / h) + 1
    pw = open_grid('inflow.h5', [0.5_c_double * h, 0.5_c_double * h, 0._c_double], &
                   [int(nx, c_int64_t), int(ny, c_int64_t), int(nplanes, c_int64_t)])
    iplane = 0
    t_plane = 0

    mass0 = total_mass(u)
    inflow = 0
    outflow = 0
    open(newunit=unit, file='nebula_stats.csv', status='replace')
    write(unit, '(a)') 'step,t,mass,inflow,outflow'
    write(unit, '(i0, 4(",", es24.16))') 0, 0._c_double, mass0, inflow, outflow
    t = 0
    step = 0
    snap = 0
    call write_snapshot(u, snap)
    do while (t < t_end)
        do while (iplane < nplanes .and. t_plane <= t + 1e-12_c_double * t_end)
            call tbrf_inflow_fill_grid(wind, t_plane, [0.5_c_double * h, 0.5_c_double * h, -0.5_c_double * h], &
                                       [h, h, h], plane)
            call check_writer(c_writer_push(pw, int(iplane, c_int64_t) * nx * ny, int(nx, c_int64_t) * ny, &
                                            plane), pw)
            iplane = iplane + 1
            t_plane = iplane * h / v_w
        end do
        dt = min(cfl * h / max_speed(u), t_end - t)
        if (snap < nsnap .and. t + dt > (snap + 1) * t_end / nsnap) dt = (snap + 1) * t_end / nsnap - t
        ! stage 1: u1 = u + dt L(u)
        call boundaries(u, t)
        call rhs(u, du, fin, fout)
        u1(:, 1:nx, 1:ny, 1:nz) = u(:, 1:nx, 1:ny, 1:nz) + dt * du(:, 1:nx, 1:ny, 1:nz)
        inflow = inflow + 0.5_c_double * dt * fin
        outflow = outflow + 0.5_c_double * dt * fout
        ! stage 2: u = (u + u1 + dt L(u1)) / 2
        call boundaries(u1, t + dt)
        call rhs(u1, du, fin, fout)
        u(:, 1:nx, 1:ny, 1:nz) = 0.5_c_double * (u(:, 1:nx, 1:ny, 1:nz) + u1(:, 1:nx, 1:ny, 1:nz) + &
                                                 dt * du(:, 1:nx, 1:ny, 1:nz))
        inflow = inflow + 0.5_c_double * dt * fin
        outflow = outflow + 0.5_c_double * dt * fout
        t = t + dt
        step = step + 1
        write(unit, '(i0, 4(",", es24.16))') step, t, total_mass(u), inflow, outflow
        if (snap < nsnap .and. t >= (snap + 1) * t_end / nsnap * (1 - 1e-12_c_double)) then
            snap = snap + 1
            call write_snapshot(u, snap)
            ! a line per snapshot, so a run of a minute or two says how far it is
            write(*, '(a, i0, a, i0, a, f0.3, a, f0.3, a, i0, a)') 'nebula: snapshot ', snap, ' of ', &
                nsnap, ' at t = ', t, ' of ', t_end, ' (', step, ' steps)'
            flush(output_unit)
        end if
    end do
    close(unit)
    do while (iplane < nplanes) ! the last plane, at t_end
        call tbrf_inflow_fill_grid(wind, min(t_plane, t_end), [0.5_c_double * h, 0.5_c_double * h, -0.5_c_double * h], &
                                   [h, h, h], plane)
        call check_writer(c_writer_push(pw, int(iplane, c_int64_t) * nx * ny, int(nx, c_int64_t) * ny, plane), pw)
        iplane = iplane + 1
        t_plane = iplane * h / v_w
    end do
    call check_writer(c_writer_commit(pw), pw)
    call c_writer_close(pw)
    ! ln(rho / rho_w) at the end, for the picture
    pw = open_grid('lnrho_final.h5', [0.5_c_double * h, 0.5_c_double * h, 0.5_c_double * h], &
                   [int(nx, c_int64_t), int(ny, c_int64_t), int(nz, c_int64_t)])
    call check_writer(c_writer_push(pw, 0_c_int64_t, int(nx, c_int64_t) * ny * nz, &
                                    log(u(1, 1:nx, 1:ny, 1:nz) / rho_w)), pw)
    call check_writer(c_writer_commit(pw), pw)
    call c_writer_close(pw)
    write(*, '(a, i0, a, es10.3, a, i0, a)') 'nebula: ', step, ' steps, mass balance error ', &
        abs(total_mass(u) - mass0 - inflow + outflow) / mass0, ' (relative), ', nplanes, ' inflow planes'
    call tbrf_inflow_destroy(wind)
    call tbrf_model_destroy(model)
    call tbrf_model_destroy(density_model)

contains

    !> The ghost cells: periodic across x and y, the sampled wind below
    !> z = 0 (density from tbrf, velocity v_w along z), zero gradient above.
    subroutine boundaries(s, time)
        real(c_double), intent(inout) :: s(:, -1:, -1:, -1:)
        real(c_double), intent(in) :: time
        call tbrf_inflow_fill_grid(wind, time, [0.5_c_double * h, 0.5_c_double * h, -1.5_c_double * h], &
                                   [h, h, h], ghost)
        s(1, 1:nx, 1:ny, -1:0) = ghost
        s(2, 1:nx, 1:ny, -1:0) = 0
        s(3, 1:nx, 1:ny, -1:0) = 0
        s(4, 1:nx, 1:ny, -1:0) = ghost * v_w
        s(:, 1:nx, 1:ny, nz + 1) = s(:, 1:nx, 1:ny, nz)
        s(:, 1:nx, 1:ny, nz + 2) = s(:, 1:nx, 1:ny, nz)
        s(:, -1:0, :, :) = s(:, nx - 1:nx, :, :)
        s(:, nx + 1:nx + 2, :, :) = s(:, 1:2, :, :)
        s(:, :, -1:0, :) = s(:, :, ny - 1:ny, :)
        s(:, :, ny + 1:ny + 2, :) = s(:, :, 1:2, :)
    end subroutine boundaries

    pure real(c_double) function minmod(a, b)
        real(c_double), intent(in) :: a, b
        minmod = 0
        if (a * b > 0) minmod = sign(min(abs(a), abs(b)), a)
    end function minmod

    !> Rusanov flux along axis d between the states l and r (isothermal).
    pure function flux(l, r, d) result(f)
        real(c_double), intent(in) :: l(4), r(4)
        integer, intent(in) :: d
        real(c_double) :: f(4), fl(4), fr(4), a
        fl = l * (l(d + 1) / l(1))
        fr = r * (r(d + 1) / r(1))
        fl(d + 1) = fl(d + 1) + cs**2 * l(1)
        fr(d + 1) = fr(d + 1) + cs**2 * r(1)
        a = max(abs(l(d + 1) / l(1)), abs(r(d + 1) / r(1))) + cs
        f = 0.5_c_double * (fl + fr) - 0.5_c_double * a * (r - l)
    end function flux

    !> du = -div F; fin, fout: the mass per unit time through the bottom
    !> and the top faces. Each face's flux is computed once (f) and taken
    !> from one cell as it is given to the other.
    subroutine rhs(s, ds, fin, fout)
        real(c_double), intent(in) :: s(:, -1:, -1:, -1:)
        real(c_double), intent(out) :: ds(:, -1:, -1:, -1:), fin, fout
        real(c_double), allocatable, save :: f(:, :, :, :)
        real(c_double) :: l(4), r(4)
        integer :: ii, jj, kk, d, o(3)
        if (.not. allocated(f)) allocate(f(4, 0:nx, 0:ny, 0:nz))
        ds = 0
        do d = 1, 3
            o = 0
            o(d) = 1
            ! f(:, i, j, k): the face between cell (i, j, k) and (i, j, k) + o
            !$omp parallel do collapse(2) private(ii, l, r)
            do kk = 1 - o(3), nz
                do jj = 1 - o(2), ny
                    do ii = 1 - o(1), nx
                        call face_states(s, ii + o(1), jj + o(2), kk + o(3), o, l, r)
                        f(:, ii, jj, kk) = flux(l, r, d)
                    end do
                end do
            end do
            !$omp end parallel do
            !$omp parallel do collapse(2)
            do kk = 1, nz
                do jj = 1, ny
                    do ii = 1, nx
                        ds(:, ii, jj, kk) = ds(:, ii, jj, kk) - (f(:, ii, jj, kk) - &
                                            f(:, ii - o(1), jj - o(2), kk - o(3))) / h
                    end do
                end do
            end do
            !$omp end parallel do
        end do
        ! after the loop f holds the z faces: k = 0 the bottom, k = nz the top
        fin = sum(f(1, 1:nx, 1:ny, 0)) * h * h
        fout = sum(f(1, 1:nx, 1:ny, nz)) * h * h
    end subroutine rhs

    !> Left and right states at the face below cell c along o: each side's
    !> cell value plus half its minmod slope.
    pure subroutine face_states(s, ii, jj, kk, o, l, r)
        real(c_double), intent(in) :: s(:, -1:, -1:, -1:)
        integer, intent(in) :: ii, jj, kk, o(3)
        real(c_double), intent(out) :: l(4), r(4)
        integer :: q
        do q = 1, 4
            l(q) = s(q, ii - o(1), jj - o(2), kk - o(3)) + 0.5_c_double * minmod( &
                s(q, ii, jj, kk) - s(q, ii - o(1), jj - o(2), kk - o(3)), &
                s(q, ii - o(1), jj - o(2), kk - o(3)) - s(q, ii - 2 * o(1), jj - 2 * o(2), kk - 2 * o(3)))
            r(q) = s(q, ii, jj, kk) - 0.5_c_double * minmod( &
                s(q, ii + o(1), jj + o(2), kk + o(3)) - s(q, ii, jj, kk), &
                s(q, ii, jj, kk) - s(q, ii - o(1), jj - o(2), kk - o(3)))
        end do
    end subroutine face_states

    real(c_double) function max_speed(s)
        real(c_double), intent(in) :: s(:, -1:, -1:, -1:)
        max_speed = cs + max(maxval(abs(s(2, 1:nx, 1:ny, 1:nz) / s(1, 1:nx, 1:ny, 1:nz))), &
                             maxval(abs(s(3, 1:nx, 1:ny, 1:nz) / s(1, 1:nx, 1:ny, 1:nz))), &
                             maxval(abs(s(4, 1:nx, 1:ny, 1:nz) / s(1, 1:nx, 1:ny, 1:nz))), v_w)
    end function max_speed

    real(c_double) function total_mass(s)
        real(c_double), intent(in) :: s(:, -1:, -1:, -1:)
        total_mass = sum(s(1, 1:nx, 1:ny, 1:nz)) * h**3
    end function total_mass

    type(c_ptr) function open_grid(path, origin, n) result(w)
        character(len=*), intent(in) :: path
        real(c_double), intent(in) :: origin(3)
        integer(c_int64_t), intent(in) :: n(3)
        w = c_null_ptr
        call check_writer(c_writer_create(path // c_null_char, 0_c_int, w), w)
        call check_writer(c_writer_grid_begin(w, 3_c_int, origin, [h, h, h], n, TBRF_DOUBLE), w)
    end function open_grid

    subroutine write_snapshot(s, isnap)
        real(c_double), intent(in) :: s(:, -1:, -1:, -1:)
        integer, intent(in) :: isnap
        character(len=32) :: name
        type(c_ptr) :: w
        write(name, '(a, i3.3, a)') 'snap_', isnap, '.h5'
        w = open_grid(trim(name), [0.5_c_double * h, 0.5_c_double * h, 0.5_c_double * h], &
                      [int(nx, c_int64_t), int(ny, c_int64_t), int(nz, c_int64_t)])
        call check_writer(c_writer_push(w, 0_c_int64_t, int(nx, c_int64_t) * ny * nz, &
                                        s(1, 1:nx, 1:ny, 1:nz)), w)
        call check_writer(c_writer_commit(w), w)
        call c_writer_close(w)
    end subroutine write_snapshot

    subroutine check_writer(st, w)
        integer(c_int), intent(in) :: st
        type(c_ptr), intent(in) :: w
        if (st /= TBRF_OK) then
            write(*, '(a)') 'nebula: writer: ' // tbrf_strerror(st) // ': ' // tbrf_c_string(c_writer_message(w))
            error stop 1
        end if
    end subroutine check_writer
end program nebula
