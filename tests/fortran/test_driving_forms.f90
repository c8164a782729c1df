! test_driving_forms.f90 — the forms of tbrf_driver_grid and
! tbrf_driver_points (doc/fortran.md, "Turbulence driving"), against the direct call into force(3, nx, ny, nz)
! with n of kind c_int64_t (the C library's own layout, no temporary),
! bit for bit:
!  - n of default integer kind and n from the array's shape: bitwise equal;
!  - flat arrays (dim*nx*ny*nz values or more), double and single;
!  - single precision: exactly the doubles rounded to c_float;
!  - separate components fx, fy, fz: bitwise the direct call's;
!  - ghost zones: the interior section of (3, nx+2g, ny+2g, nz+2g) and of
!    separate (nx+2g, ...) arrays, double and single, holds the direct
!    call's values and every ghost cell keeps its value;
!  - a 2D driver: force(2, nx, ny), its shape form and fx, fy;
!  - points into single precision;
!  - a 2D driver of three components (components = 3): force(3, nx, ny)
!    and its shape form, a ghost-zoned single-precision section, and
!    points xyz(2, n) into force(3, n), all the direct call's values; the
!    two-component forms (2, nx, ny) and fx, fy refused (they would drop
!    f_z);
!  - the components last, as block codes keep their arrays:
!    tbrf_driver_grid_component_last into f(nx, ny, nz, 3) (and a 2D
!    driver's f(nx, ny, 2)) and tbrf_driver_points_component_last from
!    x(n, 3) into f(n, 3), bitwise the interleaved forms; wrong shapes
!    refused with a message;
!  - wrong shapes and sizes refused before the C call with TBRF_ERR_SIZE
!    and a message naming the shapes (tbrf_driver_message; the issue's
!    empty message), among them an output smaller than n (which crashed).
! Built twice, with -fcheck=all and without; run once more under a memory
! budget that sends the copies through one plane at a time (argument
! "planes": the same bits).
program test_driving_forms
    use tbrf
    use test_support
    implicit none
    real(c_double), parameter :: pi = 3.14159265358979323846d0, ghost = -999d0
    integer, parameter :: nx = 40, ny = 36, nz = 32, g = 2
    type(tbrf_model) :: band
    type(tbrf_driver_params) :: prm
    type(tbrf_driver) :: drv, drv2
    real(c_double), allocatable :: ref(:, :, :, :), a(:, :, :, :), big(:, :, :, :), fx(:, :, :), fy(:, :, :), &
                                   fz(:, :, :), gx(:, :, :), gy(:, :, :), gz(:, :, :), ref2(:, :, :), b2(:, :, :), &
                                   ux(:, :), uy(:, :), xyz(:, :), fp(:, :), flat(:)
    real(c_float), allocatable :: af(:, :, :, :), bigf(:, :, :, :), sx(:, :, :), sy(:, :, :), sz(:, :, :), &
                                  fpf(:, :), small(:, :, :, :), flatf(:)
    real(c_double) :: o(3), h(3), t
    character(len=16) :: arg
    character(len=:), allocatable :: msg
    integer :: st, i

    call get_command_argument(1, arg)
    call tbrf_model_band(band, 2 * pi, 6 * pi)
    call tbrf_driver_default_params(prm)
    prm%zeta = 0.7d0
    call tbrf_driver_make(drv, band, 11, prm)
    o = [0.1d0, -0.2d0, 0.3d0]
    h = [1d0 / nx, 1d0 / ny, 1d0 / nz]
    t = 0.45d0

    allocate(ref(3, nx, ny, nz), a(3, nx, ny, nz), af(3, nx, ny, nz))
    call tbrf_driver_grid(drv, t, o, h, [int(nx, c_int64_t), int(ny, c_int64_t), int(nz, c_int64_t)], ref)
    call check(maxval(abs(ref)) > 0.1d0, 'the direct call gives a force')

    a = 0
    call tbrf_driver_grid(drv, t, o, h, [nx, ny, nz], a)
    call check(bits8([a], [ref]), 'default-integer n: bitwise the direct call')
    a = 0
    call tbrf_driver_grid(drv, t, o, h, a)
    call check(bits8([a], [ref]), 'n from the shape: bitwise the direct call')
    call tbrf_driver_grid(drv, t, o, h, [nx, ny, nz], af)
    call check(bits4([af], [real(ref, c_float)]), 'single precision: the doubles rounded')

    ! flat arrays of dim*nx*ny*nz values (the old force(*) form), double and single
    allocate(flat(3 * nx * ny * nz + 5), flatf(3 * nx * ny * nz))
    call tbrf_driver_grid(drv, t, o, h, [nx, ny, nz], flat)
    call check(bits8(flat(1:3 * nx * ny * nz), [ref]), 'a flat (longer) array: the direct call')
    call tbrf_driver_grid(drv, t, o, h, [nx, ny, nz], flatf)
    call check(bits4(flatf, [real(ref, c_float)]), 'a flat single-precision array: the doubles rounded')
    call tbrf_driver_grid(drv, t, o, h, [nx, ny, nz], flat(1:3 * nx * ny * nz - 1), stat=st)
    msg = tbrf_driver_message(drv)
    call check(st == TBRF_ERR_SIZE .and. index(msg, 'fewer than nc*nx*ny*nz') > 0, &
               'a flat array one value short refused: ' // msg)

    allocate(fx(nx, ny, nz), fy(nx, ny, nz), fz(nx, ny, nz), sx(nx, ny, nz), sy(nx, ny, nz), sz(nx, ny, nz))
    call tbrf_driver_grid(drv, t, o, h, fx, fy, fz)
    call check(bits8([fx], [ref(1, :, :, :)]) .and. bits8([fy], [ref(2, :, :, :)]) .and. bits8([fz], [ref(3, :, :, :)]), &
               'separate components: bitwise the direct call')
    call tbrf_driver_grid(drv, t, o, h, sx, sy, sz)
    call check(bits4([sx], [real(ref(1, :, :, :), c_float)]) .and. bits4([sz], [real(ref(3, :, :, :), c_float)]), &
               'separate single-precision components')

    ! ghost zones: the interior of arrays with g ghost cells on every side
    allocate(big(3, nx + 2 * g, ny + 2 * g, nz + 2 * g), bigf(3, nx + 2 * g, ny + 2 * g, nz + 2 * g))
    big = ghost
    call tbrf_driver_grid(drv, t, o, h, [nx, ny, nz], big(:, g + 1:g + nx, g + 1:g + ny, g + 1:g + nz))
    call check(bits8([big(:, g + 1:g + nx, g + 1:g + ny, g + 1:g + nz)], [ref]), 'ghost zones: the interior')
    big(:, g + 1:g + nx, g + 1:g + ny, g + 1:g + nz) = ghost
    call check(only8([big], ghost), 'ghost zones: no ghost cell written')
    bigf = real(ghost, c_float)
    call tbrf_driver_grid(drv, t, o, h, bigf(:, g + 1:g + nx, g + 1:g + ny, g + 1:g + nz))
    call check(bits4([bigf(:, g + 1:g + nx, g + 1:g + ny, g + 1:g + nz)], [real(ref, c_float)]), &
               'ghost zones, single precision, shape form: the interior')
    bigf(:, g + 1:g + nx, g + 1:g + ny, g + 1:g + nz) = real(ghost, c_float)
    call check(bits4([bigf], [spread(real(ghost, c_float), 1, size(bigf))]), 'ghost zones, single precision: no ghost cell written')
    allocate(gx(nx + 2 * g, ny + 2 * g, nz + 2 * g), gy(nx + 2 * g, ny + 2 * g, nz + 2 * g), &
             gz(nx + 2 * g, ny + 2 * g, nz + 2 * g))
    gx = ghost
    gy = ghost
    gz = ghost
    call tbrf_driver_grid(drv, t, o, h, gx(g + 1:g + nx, g + 1:g + ny, g + 1:g + nz), &
                          gy(g + 1:g + nx, g + 1:g + ny, g + 1:g + nz), gz(g + 1:g + nx, g + 1:g + ny, g + 1:g + nz))
    call check(bits8([gx(g + 1:g + nx, g + 1:g + ny, g + 1:g + nz)], [ref(1, :, :, :)]) .and. &
               bits8([gz(g + 1:g + nx, g + 1:g + ny, g + 1:g + nz)], [ref(3, :, :, :)]), &
               'ghost-zoned separate components: the interior')
    gy(g + 1:g + nx, g + 1:g + ny, g + 1:g + nz) = ghost
    call check(only8([gy], ghost), 'ghost-zoned separate components: no ghost cell written')

    ! 2D: force(2, nx, ny), its shape form, fx and fy
    prm%dim = 2
    call tbrf_driver_make(drv2, band, 11, prm)
    allocate(ref2(2, nx, ny), b2(2, nx, ny), ux(nx, ny), uy(nx, ny))
    call tbrf_driver_grid(drv2, t, o, h, [int(nx, c_int64_t), int(ny, c_int64_t), 1_c_int64_t], ref2)
    call check(maxval(abs(ref2)) > 0.1d0, '2D: a force')
    call tbrf_driver_grid(drv2, t, o(1:2), h(1:2), b2)
    call check(bits8([b2], [ref2]), '2D shape form: the same bits')
    call tbrf_driver_grid(drv2, t, o(1:2), h(1:2), ux, uy)
    call check(bits8([ux], [ref2(1, :, :)]) .and. bits8([uy], [ref2(2, :, :)]), '2D separate components')

    ! points into single precision: the doubles rounded
    allocate(xyz(3, 50), fp(3, 50), fpf(3, 50))
    do i = 1, 50
        xyz(:, i) = [0.37d0 * i, -0.11d0 * i, 0.05d0 * i * i]
    end do
    call tbrf_driver_points(drv, t, xyz, fp)
    call tbrf_driver_points(drv, t, xyz, fpf)
    call check(bits4([fpf], [real(fp, c_float)]), 'points in single precision: the doubles rounded')

    ! wrong shapes: refused before the C call, with a message
    allocate(small(3, nx, ny, nz - 1))
    call tbrf_driver_grid(drv, t, o, h, [nx, ny, nz], small, stat=st)
    msg = tbrf_driver_message(drv)
    call check(st == TBRF_ERR_SIZE .and. index(msg, 'shape (3, 40, 36, 31)') > 0 .and. &
               index(msg, '(3, 40, 36, 32)') > 0, &
               'an output smaller than n refused: ' // msg)
    call tbrf_driver_grid(drv, t, o, h, [nx, ny], a, stat=st)
    msg = tbrf_driver_message(drv)
    call check(st == TBRF_ERR_SIZE .and. index(msg, 'needs dim each') > 0, &
               'n of 2 values for a 3D grid refused: ' // msg)
    call tbrf_driver_grid(drv, t, o, h, fx, fy(:, :, 1:nz - 1), fz, stat=st)
    msg = tbrf_driver_message(drv)
    call check(st == TBRF_ERR_SIZE .and. index(msg, 'fy has shape') > 0, &
               'components of different shapes refused: ' // msg)
    call tbrf_driver_grid(drv, t, o, h, b2, stat=st)
    msg = tbrf_driver_message(drv)
    call check(st == TBRF_ERR_SIZE .and. index(msg, 'a 3D grid needs') > 0, &
               'a 2D array for a 3D grid refused: ' // msg)
    call tbrf_driver_grid(drv, t, o, h, [nx, ny, 0], a, stat=st)
    msg = tbrf_driver_message(drv)
    call check(st == TBRF_ERR_SIZE .and. index(msg, 'counts must be >= 1') > 0, &
               'a zero count refused: ' // msg)
    call tbrf_driver_points(drv, t, xyz(1:2, :), fp, stat=st)
    msg = tbrf_driver_message(drv)
    call check(st == TBRF_ERR_SIZE .and. index(msg, 'xyz is (2, 50)') > 0, &
               'points of 2 coordinates refused with a message: ' // msg)
    call tbrf_driver_points(drv, t, xyz, fp(:, 1:49), stat=st)
    msg = tbrf_driver_message(drv)
    call check(st == TBRF_ERR_SIZE .and. index(msg, 'force (3, 49)') > 0, &
               'a force shorter than the points refused: ' // msg)
    ! the next call's success clears the message
    call tbrf_driver_grid(drv, t, o, h, a, stat=st)
    msg = tbrf_driver_message(drv)
    call check(st == TBRF_OK .and. len(msg) == 0 .and. bits8([a], [ref]), &
               'a good call after them: no message, the same bits')
    if (trim(arg) == 'planes') write(*, '(a)') 'under TBRF_MEMORY_BUDGET: the copies went plane by plane'

    call three_in_2d()
    call components_last()

    call tbrf_driver_destroy(drv)
    call tbrf_driver_destroy(drv2)
    call tbrf_model_destroy(band)
    ! main-program variables are never freed for us (LeakSanitizer)
    deallocate(ref, a, af, fx, fy, fz, sx, sy, sz, big, bigf, gx, gy, gz, ref2, b2, ux, uy, xyz, fp, fpf, small, msg, &
               flat, flatf)
    call finish('fortran_driving_forms')
contains
    !> components = 3 in a 2D box: the force's first extent is 3, not dim.
    subroutine three_in_2d()
        type(tbrf_driver_params) :: p3
        type(tbrf_driver) :: d3
        real(c_double) :: r3(3, 12, 10), w(3, 12, 10), x2(2, 120), f3(3, 120), f2(2, 12, 10), qx(12, 10), qy(12, 10)
        real(c_float) :: gz3(3, 16, 14)
        integer :: i, j, k3
        call tbrf_driver_default_params(p3)
        p3%dim = 2
        p3%components = 3
        call tbrf_driver_make(d3, band, 5, p3)
        call tbrf_driver_grid(d3, 0.3d0, [0d0, 0d0], [1d0 / 12, 1d0 / 10], [12_c_int64_t, 10_c_int64_t], r3)
        call check(maxval(abs(r3(3, :, :))) > 0.1d0, 'components 3 in 2D: f_z is driven')
        call tbrf_driver_grid(d3, 0.3d0, [0d0, 0d0], [1d0 / 12, 1d0 / 10], w)
        call check(bits8([w], [r3]), 'components 3 in 2D: the shape form, bitwise')
        gz3 = -999.0
        call tbrf_driver_grid(d3, 0.3d0, [0d0, 0d0], [1d0 / 12, 1d0 / 10], [12, 10], gz3(:, 3:14, 3:12))
        call check(bits4([gz3(:, 3:14, 3:12)], [real(r3, c_float)]) .and. all(abs(gz3(:, 1:2, :) + 999.0) < 0.5) &
                   .and. all(abs(gz3(:, :, 13:14) + 999.0) < 0.5), 'components 3 in 2D: a ghost-zoned single section')
        k3 = 0
        do j = 1, 10
            do i = 1, 12
                k3 = k3 + 1
                x2(:, k3) = [(i - 1) / 12d0, (j - 1) / 10d0]
            end do
        end do
        ! (not under the 1 MiB budget of the "planes" run: the C library's
        ! chunk of positions needs more; that run is about the grid copies)
        if (trim(arg) /= 'planes') then
            call tbrf_driver_points(d3, 0.3d0, x2, f3)
            call check(maxval(abs(f3 - reshape(r3, [3, 120]))) < 1d-12 * maxval(abs(r3)), &
                       'components 3 in 2D: points xyz(2, n) into force(3, n)')
        end if
        call tbrf_driver_grid(d3, 0.3d0, [0d0, 0d0], [1d0 / 12, 1d0 / 10], f2, stat=st)
        call check(st == TBRF_ERR_SIZE, 'components 3 in 2D: force(2, nx, ny) refused')
        call tbrf_driver_grid(d3, 0.3d0, [0d0, 0d0], [1d0 / 12, 1d0 / 10], qx, qy, stat=st)
        msg = tbrf_driver_message(d3)
        call check(st == TBRF_ERR_SIZE .and. index(msg, 'three') > 0, &
                   'components 3 in 2D: fx, fy refused')
        call tbrf_driver_destroy(d3)
    end subroutine three_in_2d

    !> The components last: f(nx, ny, nz, 3) and x(n, 3) against the
    !> interleaved forms, bit for bit.
    subroutine components_last()
        real(c_double), allocatable :: fl(:, :, :, :), xl(:, :), pl(:, :), pi3(:, :), l2(:, :, :), r2(:, :, :)
        type(tbrf_driver_params) :: p2
        type(tbrf_driver) :: d2
        integer :: c, n
        allocate(fl(nx, ny, nz, 3))
        fl = 0
        call tbrf_driver_grid_component_last(drv, t, o, h, fl)
        call check(all([(bits8([fl(:, :, :, c)], [ref(c, :, :, :)]), c = 1, 3)]), &
                   'components last: f(nx, ny, nz, 3) is the interleaved grid, bitwise')
        call tbrf_driver_grid_component_last(drv, t, o, h, fl(:, :, :, 1:2), stat=st)
        msg = tbrf_driver_message(drv)
        call check(st == TBRF_ERR_SIZE .and. index(msg, '(40, 36, 32, 2)') > 0, &
                   'components last: f(nx, ny, nz, 2) of a 3D driver refused: ' // msg)
        if (trim(arg) /= 'planes') then
            n = 500
            allocate(xl(n, 3), pl(n, 3), pi3(3, n))
            do c = 1, 3
                xl(:, c) = [(0.001d0 * i * c + 0.1d0 * c, i = 1, n)]
            end do
            call tbrf_driver_points(drv, t, transpose(xl), pi3)
            call tbrf_driver_points_component_last(drv, t, xl, pl)
            call check(bits8([transpose(pl)], [pi3]), 'components last: x(n, 3) into f(n, 3), bitwise the points')
            call tbrf_driver_points_component_last(drv, t, xl(:, 1:2), pl, stat=st)
            msg = tbrf_driver_message(drv)
            call check(st == TBRF_ERR_SIZE .and. index(msg, 'x is (500, 2)') > 0, &
                       'components last: x(n, 2) for a 3D driver refused: ' // msg)
            deallocate(xl, pl, pi3)
        end if
        call tbrf_driver_default_params(p2)
        p2%dim = 2
        call tbrf_driver_make(d2, band, 6, p2)
        allocate(l2(14, 9, 2), r2(2, 14, 9))
        call tbrf_driver_grid(d2, 0.2d0, [0d0, 0.5d0], [1d0 / 14, 1d0 / 9], r2)
        call tbrf_driver_grid_component_last(d2, 0.2d0, [0d0, 0.5d0], [1d0 / 14, 1d0 / 9], l2)
        call check(bits8([l2(:, :, 1)], [r2(1, :, :)]) .and. bits8([l2(:, :, 2)], [r2(2, :, :)]), &
                   'components last: a 2D driver f(nx, ny, 2), bitwise')
        call tbrf_driver_destroy(d2)
        deallocate(fl, l2, r2)
    end subroutine components_last

    !> Whether x and y hold the same bits (any array flattened by [ ]).
    logical function bits8(x, y)
        real(c_double), intent(in) :: x(:), y(:)
        bits8 = size(x) == size(y)
        if (bits8) bits8 = all(transfer(x, 0_c_int64_t, size(x)) == transfer(y, 0_c_int64_t, size(y)))
    end function bits8

    logical function bits4(x, y)
        real(c_float), intent(in) :: x(:), y(:)
        bits4 = size(x) == size(y)
        if (bits4) bits4 = all(transfer(x, 0_c_int32_t, size(x)) == transfer(y, 0_c_int32_t, size(y)))
    end function bits4

    !> Whether every value of x has the bits of v.
    logical function only8(x, v)
        real(c_double), intent(in) :: x(:), v
        only8 = all(transfer(x, 0_c_int64_t, size(x)) == transfer(v, 0_c_int64_t))
    end function only8
end program test_driving_forms
