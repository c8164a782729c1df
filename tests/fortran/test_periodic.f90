! test_periodic.f90 — periodic and vector plans from Fortran: a solenoidal
! periodic field on the box lattice (FFT method, values(3, nx*ny*nz)) and at
! the same cells as points (NUFFT, values(3, n)) agree within the requested
! accuracy (5 eps of the rms, as test_periodic); the method is reported; a
! position outside the box wraps (x + L gives the value at x); a values
! array sized for a scalar field is refused with TBRF_ERR_SIZE.
program test_periodic
    use tbrf
    use test_support
    implicit none
    type(tbrf_model) :: model
    type(tbrf_plan) :: grid_plan, point_plan
    type(tbrf_opts) :: opts
    integer, parameter :: n = 12, ncell = n * n * n
    real(c_double), allocatable :: g(:), v(:, :), scalar(:)
    real(c_double), allocatable, target :: xyz(:, :)
    real(c_double) :: h, rms, err, w(3, 2)
    real(c_double), target :: two(3, 2)
    integer :: i, j, k, c, st

    call tbrf_model_gaussian(model, 0.2_c_double)
    call tbrf_default_opts(opts)
    opts%vector = TBRF_VECTOR_SOLENOIDAL
    opts%accuracy = 1e-10_c_double
    call tbrf_make_periodic_plan(grid_plan, model, 3, [0.5_c_double, 0._c_double, 0._c_double], &
                                 [1._c_double, 1._c_double, 1._c_double], [n, n, n], 5, opts)
    call tbrf_make_periodic_plan(point_plan, model, 3, [0.5_c_double, 0._c_double, 0._c_double], &
                                 [1._c_double, 1._c_double, 1._c_double], [n, n, n], 5, opts)
    h = 1._c_double / n
    call tbrf_set_grid(grid_plan, [0.5_c_double, 0._c_double, 0._c_double], [h, h, h], [n, n, n])
    call check(tbrf_plan_method(grid_plan) == TBRF_METHOD_FFT, "the box lattice runs the FFT method")
    allocate(g(3 * ncell), v(3, ncell), xyz(3, ncell), scalar(ncell))
    call tbrf_execute(grid_plan, 2, g)
    do k = 0, n - 1
        do j = 0, n - 1
            do i = 0, n - 1
                c = 1 + i + n * (j + n * k)
                xyz(:, c) = [0.5_c_double + i * h, j * h, k * h]
            end do
        end do
    end do
    call tbrf_set_points(point_plan, xyz)
    call check(tbrf_plan_method(point_plan) == TBRF_METHOD_NUFFT, "points run the NUFFT")
    call tbrf_execute(point_plan, 2, v)
    rms = sqrt(sum(g**2) / size(g))
    err = maxval(abs(reshape(v, [3 * ncell]) - g))
    call check(err <= 5e-10_c_double * rms, "NUFFT vector values equal the FFT method's")
    call check(rms > 0.5_c_double .and. rms < 2._c_double, "components have variance about 1")
    ! wrapping: a point one period further along x has the same value
    two(:, 1) = xyz(:, 7)
    two(:, 2) = xyz(:, 7) + [1._c_double, 0._c_double, 0._c_double]
    call tbrf_set_points(point_plan, two)
    call tbrf_execute(point_plan, 2, w)
    call check(maxval(abs(w(:, 1) - w(:, 2))) <= 1e-12_c_double, "x + L wraps to x")
    call check(maxval(abs(w(:, 1) - g(19:21))) <= 5e-10_c_double * rms, "point 7 equals cell 7")
    ! a scalar-sized array is too small for a vector plan
    call tbrf_set_points(point_plan, xyz)
    call tbrf_execute(point_plan, 2, scalar, stat=st)
    call check(st == TBRF_ERR_SIZE, "a scalar-sized values array is refused")
    call tbrf_destroy(grid_plan)
    call tbrf_destroy(point_plan)
    call tbrf_model_destroy(model)
    deallocate(g, v, xyz, scalar)  ! main-program arrays are never freed otherwise (LeakSanitizer)
    call finish("fortran_periodic")
end program test_periodic
