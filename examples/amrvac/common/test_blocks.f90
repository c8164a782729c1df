! test_blocks.f90 — tbrf_blocks on block loops of its own, without AMRVAC
! (ctest fortran_amrvac_blocks). A 16^3 periodic box cut into 2 x 2 x 2
! blocks of 8^3 cells with 2 ghost cells each side, the cell centres laid
! out as AMRVAC lays them (x = block origin + (i - ixMlo + 1/2) dx, the
! components last); per block at two times:
! - tbrf_block_force equals, bit for bit, the one-call grid of the whole
!   box (tbrf_driver_grid_component_last) at the same cells, and
!   tbrf_block_force_points the one-call points of every cell;
! - grid and points agree to rounding (the driver's axis-by-axis sum);
! - the box assembled from the blocks is solenoidal: its discrete Fourier
!   coefficient at each driven mode m equals the driver's own (so each
!   block landed where it belongs), m . F(m) vanishes to rounding, and
!   Parseval gives the box's mean |f|^2;
! - tbrf_block_kick changes the interior's momenta and energy by exactly
!   qdt rho f and qdt f . m, and no ghost cell;
! - in 2D the same for tbrf_block_force, and tbrf_block_inflow fills the
!   inflow boundary's blocks (corner ghost cells included) with the
!   values of one fill of the whole boundary strip, and in 3D the same
!   for the boundary's 2 x 2 blocks (edge and corner ghosts included).
program test_blocks
    use tbrf
    use tbrf_blocks
    use test_support
    implicit none
    real(c_double), parameter :: pi = 3.14159265358979323846d0
    integer, parameter :: nb = 2, bn = 8, ng = 2, n = nb * bn
    integer, parameter :: lo(3) = 1, hi(3) = bn + 2 * ng, olo(3) = ng + 1, ohi(3) = ng + bn
    real(c_double), parameter :: h = 1d0 / n
    type(tbrf_model) :: band
    type(tbrf_driver_params) :: prm
    type(tbrf_driver) :: drv

    call tbrf_model_band(band, 2 * pi, 6 * pi)
    call tbrf_driver_default_params(prm)
    prm%tcorr = 0.5d0
    prm%eval = TBRF_DRIVE_DIRECT
    call tbrf_driver_make(drv, band, 2026, prm)
    call box_3d(0d0)
    call box_3d(0.37d0)
    call kick_3d()
    call tbrf_driver_destroy(drv)
    call blocks_2d()
    call inflow_3d()
    call tbrf_model_destroy(band)
    call finish('test_blocks')

contains

    !> Block (ib, jb, kb)'s cell centres, AMRVAC's way.
    subroutine block_x(ib, jb, kb, x)
        integer, intent(in) :: ib, jb, kb
        real(c_double), intent(out) :: x(lo(1):hi(1), lo(2):hi(2), lo(3):hi(3), 3)
        integer :: i, b(3)
        b = [ib, jb, kb]
        do i = lo(1), hi(1)
            x(i, :, :, 1) = (b(1) - 1) * bn * h + (dble(i - olo(1)) + 0.5d0) * h
            x(:, i, :, 2) = (b(2) - 1) * bn * h + (dble(i - olo(2)) + 0.5d0) * h
            x(:, :, i, 3) = (b(3) - 1) * bn * h + (dble(i - olo(3)) + 0.5d0) * h
        end do
    end subroutine block_x

    subroutine box_3d(t)
        real(c_double), intent(in) :: t
        real(c_double) :: x(lo(1):hi(1), lo(2):hi(2), lo(3):hi(3), 3)
        real(c_double) :: f(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), 3), fp(olo(1):ohi(1), olo(2):ohi(2), &
                          olo(3):ohi(3), 3)
        real(c_double), allocatable :: g(:, :, :, :), gp(:, :, :, :), xa(:, :), gp2(:, :), box(:, :, :, :)
        integer :: ib, jb, kb, i, j, k, s(3), st, bad, badp
        character(len=16) :: when
        write(when, '(a, f4.2)') 't = ', t
        allocate(g(n, n, n, 3), gp(n, n, n, 3), box(n, n, n, 3), xa(n**3, 3), gp2(n**3, 3))
        call tbrf_driver_grid_component_last(drv, t, [h / 2, h / 2, h / 2], [h, h, h], g)
        do k = 1, n
            do j = 1, n
                do i = 1, n
                    xa(i + n * (j - 1 + n * (k - 1)), :) = ([i, j, k] - 0.5d0) * h
                end do
            end do
        end do
        call tbrf_driver_points_component_last(drv, t, xa, gp2)
        gp = reshape(gp2, shape(gp))
        bad = 0
        badp = 0
        box = -1
        do kb = 1, nb
            do jb = 1, nb
                do ib = 1, nb
                    call block_x(ib, jb, kb, x)
                    call tbrf_block_force(drv, t, lo, hi, olo, ohi, x, [h, h, h], f, stat=st)
                    call check(st == TBRF_OK, trim(when) // ': tbrf_block_force TBRF_OK')
                    call tbrf_block_force_points(drv, t, lo, hi, olo, ohi, x, fp, stat=st)
                    call check(st == TBRF_OK, trim(when) // ': tbrf_block_force_points TBRF_OK')
                    s = ([ib, jb, kb] - 1) * bn
                    if (.not. all(same_bits(f, g(s(1) + 1:s(1) + bn, s(2) + 1:s(2) + bn, s(3) + 1:s(3) + bn, :)))) &
                        bad = bad + 1
                    if (.not. all(same_bits(fp, gp(s(1) + 1:s(1) + bn, s(2) + 1:s(2) + bn, s(3) + 1:s(3) + bn, :)))) &
                        badp = badp + 1
                    box(s(1) + 1:s(1) + bn, s(2) + 1:s(2) + bn, s(3) + 1:s(3) + bn, :) = f
                end do
            end do
        end do
        call check(bad == 0, trim(when) // ': every block''s grid force is the one-call grid''s, bitwise')
        call check(badp == 0, trim(when) // ': every block''s points force is the one-call points'', bitwise')
        call check(maxval(abs(g)) > 0.1d0, trim(when) // ': a force at all')
        call check(maxval(abs(g - gp)) < 1d-12 * maxval(abs(g)), trim(when) // ': grid and points agree to rounding')
        call solenoidal(t, box, trim(when))
    end subroutine box_3d

    !> The assembled box against the driver's modes, by a discrete Fourier
    !> sum at each mode (n = 16 > 2 |m| + 1, so no mode aliases another).
    subroutine solenoidal(t, box, when)
        real(c_double), intent(in) :: t, box(n, n, n, 3)
        character(len=*), intent(in) :: when
        integer(c_int32_t), allocatable :: m(:, :)
        real(c_double), allocatable :: coef(:, :)
        complex(c_double) :: fh(3), e, cf(3)
        real(c_double) :: div, coefmiss, power, msq, xc(3)
        integer :: q, i, j, k, c
        call tbrf_driver_modes(drv, t, m, coef)
        call check(size(m, 2) > 20, when // ': the band drives modes')
        div = 0
        coefmiss = 0
        power = 0
        do q = 1, size(m, 2)
            fh = 0
            do k = 1, n
                do j = 1, n
                    do i = 1, n
                        xc = ([i, j, k] - 0.5d0) * h
                        e = exp(cmplx(0d0, -2 * pi * sum(m(:, q) * xc), c_double))
                        fh = fh + box(i, j, k, :) * e
                    end do
                end do
            end do
            fh = fh / n**3
            ! f = sum of 2 Re(coef e^{i k.x}): the Fourier coefficient is coef
            cf = [(cmplx(coef(2 * c - 1, q), coef(2 * c, q), c_double), c = 1, 3)]
            coefmiss = max(coefmiss, maxval(abs(fh - cf)))
            div = max(div, abs(sum(m(:, q) * fh)) / (sqrt(real(sum(m(:, q)**2), c_double)) * &
                                                      max(1d-300, sqrt(sum(abs(fh)**2)))))
            power = power + 2 * sum(abs(fh)**2)
        end do
        msq = sum(box**2) / n**3
        call check(coefmiss < 1d-12 * sqrt(msq), when // ': each block in place: the box''s Fourier ' // &
                   'coefficients are the driver''s modes')
        call check(div < 1d-12, when // ': solenoidal: m . F(m) / (|m| |F(m)|) < 1e-12')
        call check(abs(power - msq) < 1d-10 * msq, when // ': Parseval: the modes hold all of <|f|^2>')
        write(*, '(a, a, es9.2, a, es9.2)') when, ': largest |m.F|/(|m||F|) ', div, &
            ', largest coefficient miss ', coefmiss
    end subroutine solenoidal

    subroutine kick_3d()
        real(c_double) :: x(lo(1):hi(1), lo(2):hi(2), lo(3):hi(3), 3)
        real(c_double) :: f(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), 3)
        real(c_double), allocatable :: w(:, :, :, :), w0(:, :, :, :)
        real(c_double), parameter :: qdt = 0.01d0
        logical :: inner(lo(1):hi(1), lo(2):hi(2), lo(3):hi(3))
        integer :: c, bad
        allocate(w0(lo(1):hi(1), lo(2):hi(2), lo(3):hi(3), 8))
        call block_x(2, 1, 2, x)
        call tbrf_block_force(drv, 0.1d0, lo, hi, olo, ohi, x, [h, h, h], f)
        call random_number(w0)
        w0(:, :, :, 1) = w0(:, :, :, 1) + 0.5d0
        w = w0
        ! AMRVAC's MHD order: rho, m1..m3, e, b1..b3
        call tbrf_block_kick(qdt, lo, hi, olo, ohi, f, w0(:, :, :, 1), w, [2, 3, 4], 5)
        inner = .false.
        inner(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3)) = .true.
        bad = 0
        do c = 1, 8
            if (any(.not. inner .and. .not. same_bits(w(:, :, :, c), w0(:, :, :, c)))) bad = bad + 1
        end do
        call check(bad == 0, 'kick: no ghost cell changed')
        do c = 1, 3
            call check(all(same_bits(w(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), 1 + c), &
                                     w0(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), 1 + c) + &
                                     qdt * w0(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), 1) * f(:, :, :, c))), &
                       'kick: momentum += qdt rho f')
        end do
        call check(maxval(abs(w(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), 5) - &
                              w0(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), 5) - &
                              qdt * sum(f * w0(olo(1):ohi(1), olo(2):ohi(2), olo(3):ohi(3), 2:4), dim=4))) < 1d-15, &
                   'kick: energy += qdt f . m')
        call check(all(same_bits(w(:, :, :, 6:8), w0(:, :, :, 6:8))), 'kick: the magnetic field untouched')
    end subroutine kick_3d

    !> A 2D driver on 2 x 2 blocks, and a 2D inflow sampler on the x = 0
    !> boundary's ghost blocks (2 cells deep, the corner ghosts included).
    subroutine blocks_2d()
        integer, parameter :: l2(2) = 1, h2(2) = bn + 2 * ng, o2(2) = ng + 1, e2(2) = ng + bn
        type(tbrf_driver) :: d2
        type(tbrf_driver_params) :: p2
        type(tbrf_model) :: b2, lognormal
        type(tbrf_inflow) :: wind
        real(c_double) :: x(l2(1):h2(1), l2(2):h2(2), 2), f(o2(1):e2(1), o2(2):e2(2), 2)
        real(c_double) :: g(n, n, 2), strip(ng, n + 2 * ng), rho(1:ng, l2(2):h2(2))
        real(c_double) :: tlo(3), thi(3)
        integer :: ib, jb, i, bad, st
        call tbrf_model_band(b2, 2 * pi, 6 * pi)
        call tbrf_driver_default_params(p2)
        p2%dim = 2
        call tbrf_driver_make(d2, b2, 7, p2)
        call tbrf_driver_grid_component_last(d2, 0.2d0, [h / 2, h / 2], [h, h], g)
        bad = 0
        do jb = 1, nb
            do ib = 1, nb
                do i = l2(1), h2(1)
                    x(i, :, 1) = (ib - 1) * bn * h + (dble(i - o2(1)) + 0.5d0) * h
                    x(:, i, 2) = (jb - 1) * bn * h + (dble(i - o2(2)) + 0.5d0) * h
                end do
                call tbrf_block_force(d2, 0.2d0, l2, h2, o2, e2, x, [h, h], f, stat=st)
                if (st /= TBRF_OK .or. .not. all(same_bits(f, g((ib - 1) * bn + 1:ib * bn, &
                                                                 (jb - 1) * bn + 1:jb * bn, :)))) bad = bad + 1
            end do
        end do
        call check(bad == 0, '2D: every block''s force is the one-call grid''s, bitwise')
        call tbrf_driver_destroy(d2)
        call tbrf_model_destroy(b2)

        ! the wind: Mach-5-like speed 5 along +x, the ghost cells x < 0
        call tbrf_model_powerlaw(lognormal, -11d0 / 3, 2 * pi, 16 * pi)
        call tbrf_model_set_variance(lognormal, 1d0)
        call tbrf_inflow_tube(2, [-ng * h, -ng * h], [0d0, 1 + ng * h], [5d0, 0d0], 1d0, tlo, thi)
        call tbrf_inflow_create(wind, lognormal, 2, tlo, thi, h, 11, 0, [5d0, 0d0])
        call tbrf_inflow_set_density(wind, TBRF_DENSITY_LOGNORMAL, 1d0, 0.5d0)
        call tbrf_inflow_fill_grid(wind, 0.3d0, [-(ng - 0.5d0) * h, -(ng - 0.5d0) * h], [h, h], strip)
        bad = 0
        do jb = 1, nb
            do i = l2(1), h2(1)
                x(i, :, 1) = (dble(i - o2(1)) + 0.5d0) * h
                x(:, i, 2) = (jb - 1) * bn * h + (dble(i - o2(2)) + 0.5d0) * h
            end do
            ! AMRVAC's boundary region: ixO = ixGmin1..ixMlo1-1 across the whole ixG in y
            call tbrf_block_inflow(wind, 0.3d0, l2, h2, [1, l2(2)], [ng, h2(2)], x, [h, h], rho, stat=st)
            if (st /= TBRF_OK .or. .not. all(same_bits(rho, strip(:, (jb - 1) * bn + 1:(jb - 1) * bn + bn + 2 * ng)))) &
                bad = bad + 1
        end do
        call check(bad == 0, '2D inflow: every boundary block (corners included) is the strip''s fill, bitwise')
        call check(minval(strip) > 0 .and. maxval(strip) > minval(strip), '2D inflow: a positive, varying density')
        call tbrf_inflow_destroy(wind)
        call tbrf_model_destroy(lognormal)
    end subroutine blocks_2d
    !> A 3D inflow sampler on the x = 0 boundary's 2 x 2 ghost blocks
    !> (AMRVAC's ixO: 2 planes deep, the whole ixG range in y and z).
    subroutine inflow_3d()
        type(tbrf_model) :: model
        type(tbrf_inflow) :: wind
        real(c_double) :: x(lo(1):hi(1), lo(2):hi(2), lo(3):hi(3), 3), rho(1:ng, lo(2):hi(2), lo(3):hi(3))
        real(c_double) :: strip(ng, n + 2 * ng, n + 2 * ng), tlo(3), thi(3)
        integer :: jb, kb, i, bad, st
        call tbrf_model_powerlaw(model, -11d0 / 3, 4 * pi, 16 * pi)
        call tbrf_model_set_variance(model, 1d0)
        call tbrf_inflow_tube(3, [-ng * h, -ng * h, -ng * h], [0d0, 1 + ng * h, 1 + ng * h], [5d0, 0d0, 0d0], &
                              0.5d0, tlo, thi)
        call tbrf_inflow_create(wind, model, 3, tlo, thi, h, 5, 0, [5d0, 0d0, 0d0])
        call tbrf_inflow_set_density(wind, TBRF_DENSITY_LOGNORMAL, 1d0, 0.5d0)
        call tbrf_inflow_fill_grid(wind, 0.25d0, [-(ng - 0.5d0) * h, -(ng - 0.5d0) * h, -(ng - 0.5d0) * h], &
                                   [h, h, h], strip)
        bad = 0
        do kb = 1, nb
            do jb = 1, nb
                call block_x(1, jb, kb, x)
                call tbrf_block_inflow(wind, 0.25d0, lo, hi, [1, lo(2), lo(3)], [ng, hi(2), hi(3)], x, [h, h, h], &
                                       rho, stat=st)
                i = 0
                if (st /= TBRF_OK) i = 1
                if (.not. all(same_bits(rho, strip(:, (jb - 1) * bn + 1:jb * bn + 2 * ng, &
                                                   (kb - 1) * bn + 1:kb * bn + 2 * ng)))) i = 1
                bad = bad + i
            end do
        end do
        call check(bad == 0, '3D inflow: every boundary block (edges, corners) is the strip''s fill, bitwise')
        call tbrf_inflow_destroy(wind)
        call tbrf_model_destroy(model)
    end subroutine inflow_3d
end program test_blocks
