! test_api.f90 — the idiomatic module gives bitwise the values of the C API
! for grids (3D double, 2D float, rank-1 and rank-3 arrays, a sub-grid) and
! points, with default and 64-bit seeds (including one above 2^63, i.e.
! negative int64); the lognormal model.
program test_api
    use, intrinsic :: iso_c_binding
    use tbrf
    use test_support
    implicit none
    include 'ref_iface.inc'

    call grid3d_double(7_c_int64_t, 3_c_int64_t)
    call grid3d_double(-5_c_int64_t, 0_c_int64_t)       ! seed 2^64 - 5 in C
    call grid2d_float()
    call points3d()
    call points2d_float()
    call info_and_queries()
    call model_kinds()
    call lognormal()
    call finish('fortran_api')
contains

    !> The table of model kinds from Fortran: names, parameters, a model made
    !> by name equal to its constructor's, a refusal, the tail slope.
    subroutine model_kinds()
        use, intrinsic :: ieee_arithmetic, only: ieee_is_nan
        type(tbrf_model) :: a, b
        integer :: takes, needs, st, i
        real(c_double) :: sc(3), an(3)
        character(len=:), allocatable :: msg
        call check(tbrf_model_kind_name(0) == 'powerlaw', 'kind 0 is powerlaw')
        i = 0
        do while (len(tbrf_model_kind_name(i)) > 0)
            i = i + 1
        end do
        msg = ''
        if (i >= 1) msg = tbrf_model_kind_summary(tbrf_model_kind_name(i - 1))
        call check(i >= 1 .and. len(msg) > 0, 'every kind listed, each with its summary')
        call check(tbrf_model_param_name(6) == 'alpha', 'parameter 6 is alpha')
        call tbrf_model_make(a, 'stable', length=1.0_c_double, alpha=1.5_c_double, stat=st)
        msg = tbrf_model_describe(a)
        call check(st == TBRF_OK .and. msg == 'stable length=1 alpha=1.5 variance=1', 'stable by name: ' // msg)
        call tbrf_model_make_params(b, 'stable', [character(len=6) :: 'alpha', 'length'], &
                                    [1.5_c_double, 1.0_c_double], st)
        msg = tbrf_model_describe(a) // ' | ' // tbrf_model_describe(b)
        call check(st == TBRF_OK .and. msg == 'stable length=1 alpha=1.5 variance=1 | ' // &
                   'stable length=1 alpha=1.5 variance=1', 'make_params = make: ' // msg)
        call tbrf_model_destroy(a)
        call tbrf_model_destroy(b)
        call tbrf_model_kind_params('matern', takes, needs, st)
        call check(st == TBRF_OK .and. needs == ior(TBRF_PARAM_LENGTH, TBRF_PARAM_NU) .and. &
                   iand(takes, TBRF_PARAM_KMIN) /= 0, 'matern takes and needs')
        call tbrf_model_make(a, 'matern', length=2.0_c_double, nu=1.5_c_double)
        call tbrf_model_matern(b, 2.0_c_double, 1.5_c_double)
        call check(tbrf_model_describe(a) == tbrf_model_describe(b), 'make = constructor: ' // &
                   tbrf_model_describe(a))
        call check(same_bits(tbrf_model_spectrum(a, 3, 0.7_c_double), tbrf_model_spectrum(b, 3, 0.7_c_double)), &
                   'make = constructor: spectrum')
        call check(same_bits(tbrf_model_tail_slope(a, 3), -6.0_c_double), 'matern tail slope')
        call tbrf_model_destroy(a)
        call tbrf_model_destroy(b)
        call tbrf_model_make(a, 'gaussian', length=1.0_c_double, nu=0.5_c_double, stat=st)
        msg = tbrf_model_message(a)
        call check(st == TBRF_ERR_INVALID .and. index(msg, 'takes no nu') > 0, 'gaussian refuses nu')
        call check(ieee_is_nan(tbrf_model_tail_slope(a, 3)), 'no slope for a failed model')
        call tbrf_model_destroy(a)
        ! anisotropy: set, read back, described; a zero factor refused by name
        call tbrf_model_gaussian(a, 2.0_c_double)
        call tbrf_model_set_anisotropy(a, [1.0_c_double, 0.5_c_double, 0.25_c_double], &
                                       [0.1_c_double, 0.2_c_double, 0.3_c_double])
        call tbrf_model_anisotropy(a, sc, an)
        call check(all(same_bits(sc, [1.0_c_double, 0.5_c_double, 0.25_c_double])) .and. &
                   all(same_bits(an, [0.1_c_double, 0.2_c_double, 0.3_c_double])), 'anisotropy read back')
        call check(index(tbrf_model_describe(a), 'anis=[1, 0.5, 0.25]') > 0, &
                   'anisotropy described: ' // tbrf_model_describe(a))
        call tbrf_model_set_anisotropy(a, [1.0_c_double, 0.0_c_double, 1.0_c_double], &
                                       [0.0_c_double, 0.0_c_double, 0.0_c_double], stat=st)
        msg = tbrf_model_message(a)
        call check(st == TBRF_ERR_INVALID .and. index(msg, 'scale[1]=0') > 0, &
                   'a zero factor refused: ' // msg)
        call tbrf_model_destroy(a)
    end subroutine model_kinds

    !> tbrf_model_lognormal and tbrf_lognormal_sigma2_mach: the derived
    !> table is the C call's (variance ln(1 + var), its covariance ln(1 + xi)
    !> to 1e-4), a refusal keeps its message under stat=.
    subroutine lognormal()
        type(tbrf_model) :: d, g
        real(c_double) :: lost, xi
        integer :: st, at
        call tbrf_model_matern(d, 0.1_c_double, 1.5_c_double)
        call tbrf_model_set_variance(d, exp(1.0_c_double) - 1)
        call tbrf_model_lognormal(g, d, 3, 0.05_c_double, 400.0_c_double, 4.0_c_double, &
                                  0.05_c_double, lost, stat=st)
        call check(st == TBRF_OK .and. lost <= 0, 'lognormal: ' // tbrf_model_message(g))
        call check(abs(tbrf_model_variance(g, 3) - 1) < 1e-12_c_double, 'lognormal variance ln(e)')
        xi = log(1 + tbrf_model_covariance(d, 3, 0.05_c_double))
        call check(abs(tbrf_model_covariance(g, 3, 0.05_c_double) - xi) < 1e-4_c_double, &
                   'lognormal covariance ln(1 + xi)')
        call tbrf_model_destroy(g)
        call tbrf_model_lognormal(g, d, 3, 0.05_c_double, 400.0_c_double, 1e12_c_double, &
                                  0.05_c_double, lost, stat=st)
        at = index(tbrf_model_message(g), 'samples')
        call check(st == TBRF_ERR_SIZE .and. at > 0, 'lognormal refusal under stat=')
        call tbrf_model_destroy(g)
        call tbrf_model_destroy(d)
        call check(abs(tbrf_lognormal_sigma2_mach(3.0_c_double, 0.5_c_double) - log(3.25_c_double)) &
                   < 1e-15_c_double, 'sigma2 from Mach 3, b 0.5')
    end subroutine lognormal

    subroutine model0(m)
        type(tbrf_model), intent(out) :: m
        call tbrf_model_powerlaw(m, -3.0_c_double, 0.1_c_double, 2.0_c_double)
        call tbrf_model_set_variance(m, 0.5_c_double)
    end subroutine model0

    subroutine grid3d_double(seed, realization)
        integer(c_int64_t), intent(in) :: seed, realization
        integer, parameter :: nx = 13, ny = 9, nz = 6
        real(c_double), parameter :: origin(3) = [1.0_c_double, -2.0_c_double, 0.5_c_double]
        real(c_double), parameter :: spacing(3) = [0.5_c_double, 0.75_c_double, 0.6_c_double]
        integer(c_int64_t), parameter :: n(3) = [nx, ny, nz]
        real(c_double), target :: ref(nx, ny, nz)
        real(c_double) :: v(nx, ny, nz), flat(nx * ny * nz), blk(7, 5, 4)
        type(tbrf_model) :: m
        type(tbrf_plan) :: p
        type(tbrf_opts) :: o
        integer :: st, i, j, k

        call check(tbrf_ftest_grid(0, 3, n, origin, spacing, seed, realization, TBRF_DOUBLE, &
                                   c_loc(ref)) == TBRF_OK, 'C reference grid')
        call model0(m)
        call tbrf_default_opts(o)
        o%lines = 256
        call tbrf_make_plan(p, m, 3, origin, origin + spacing * (n - 1), minval(spacing), seed, o, stat=st)
        call check(st == TBRF_OK, 'make_plan: ' // tbrf_plan_message(p))
        call tbrf_model_destroy(m)   ! the plan keeps its own copy
        call tbrf_set_grid(p, origin, spacing, n, stat=st)      ! n: integer(c_int64_t)
        call check(st == TBRF_OK, 'set_grid')
        call check(tbrf_plan_count(p) == nx * ny * nz, 'plan_count')
        call tbrf_execute(p, realization, v, stat=st)
        call check(st == TBRF_OK, 'execute rank 3')
        call check(same_d(reshape(v, [size(v)]), reshape(ref, [size(ref)])), 'grid 3D double bitwise')
        ! The same memory: Fortran (i,j,k) is C [k][j][i].
        call tbrf_execute(p, realization, flat, stat=st)
        call check(st == TBRF_OK, 'execute rank 1')
        do k = 1, nz
            do j = 1, ny
                do i = 1, nx
                    if (transfer(flat(i + nx * (j - 1 + ny * (k - 1))), 0_c_int64_t) /= &
                        transfer(v(i, j, k), 0_c_int64_t)) then
                        call check(.false., 'rank-1 and rank-3 layouts')
                        return
                    end if
                end do
            end do
        end do
        call check(maxval(abs(v)) > 0, 'field is not all zero')
        ! A block of the grid (zero-based start, count) as one rank would
        ! ask for it: bitwise the whole grid's values there.
        call tbrf_set_subgrid(p, origin, spacing, n, [3_c_int64_t, 2_c_int64_t, 1_c_int64_t], &
                              [7_c_int64_t, 5_c_int64_t, 4_c_int64_t], stat=st)
        call check(st == TBRF_OK, 'set_subgrid: ' // tbrf_plan_message(p))
        call check(tbrf_plan_count(p) == 7 * 5 * 4, 'plan_count of a sub-grid')
        call tbrf_execute(p, realization, blk, stat=st)
        call check(st == TBRF_OK, 'execute sub-grid')
        call check(same_d(reshape(blk, [size(blk)]), reshape(v(4:10, 3:7, 2:5), [size(blk)])), &
                   'sub-grid = the whole grid bitwise')
        call tbrf_set_subgrid(p, [origin], [spacing], [nx, ny, nz], [3, 2, 1], [11, 5, 4], stat=st)
        call check(st == TBRF_ERR_SIZE, 'a box past the grid is refused')
        call tbrf_destroy(p)
    end subroutine grid3d_double

    subroutine grid2d_float()
        integer, parameter :: nx = 40, ny = 17
        real(c_double), parameter :: origin(2) = [0.0_c_double, 3.0_c_double]
        real(c_double), parameter :: spacing(2) = [1.0_c_double, 0.5_c_double]
        real(c_float), target :: ref(nx, ny)
        real(c_float) :: v(nx, ny)
        type(tbrf_model) :: m
        type(tbrf_plan) :: p
        type(tbrf_opts) :: o
        integer :: st

        call check(tbrf_ftest_grid(1, 2, [int(nx, c_int64_t), int(ny, c_int64_t), 1_c_int64_t], &
                                   [origin, 0.0_c_double], [spacing, 1.0_c_double], 99_c_int64_t, &
                                   4_c_int64_t, TBRF_FLOAT, c_loc(ref)) == TBRF_OK, 'C reference 2D grid')
        call tbrf_model_matern(m, 2.0_c_double, 1.5_c_double)
        call tbrf_default_opts(o)
        o%lines = 256
        o%precision = TBRF_FLOAT
        call tbrf_make_plan(p, m, 2, origin, origin + spacing * ([nx, ny] - 1), 0.5_c_double, 99, o)
        call tbrf_set_grid(p, origin, spacing, [nx, ny])
        call tbrf_execute(p, 4, v, stat=st)
        call check(st == TBRF_OK, 'execute 2D float')
        call check(all(transfer(v, [0_c_int32_t]) == transfer(ref, [0_c_int32_t])), 'grid 2D float bitwise')
        call tbrf_destroy(p)
        call tbrf_model_destroy(m)
    end subroutine grid2d_float

    subroutine points3d()
        integer, parameter :: np = 500
        real(c_double), target :: xyz(3, np)
        real(c_double), target :: ref(np)
        real(c_double) :: v(np), lo(3), hi(3)
        type(tbrf_model) :: m
        type(tbrf_plan) :: p
        type(tbrf_opts) :: o
        integer :: i, st

        do i = 1, np
            xyz(:, i) = [mod(i * 37, 101) * 0.3_c_double, mod(i * 53, 97) * 0.2_c_double, &
                         mod(i * 11, 89) * 0.25_c_double]
        end do
        lo = [0.0_c_double, 0.0_c_double, 0.0_c_double]
        hi = [30.0_c_double, 20.0_c_double, 22.0_c_double]
        call check(tbrf_ftest_points(0, 3, int(np, c_int64_t), xyz, lo, hi, 0.4_c_double, 12345_c_int64_t, &
                                     1_c_int64_t, TBRF_DOUBLE, c_loc(ref)) == TBRF_OK, 'C reference points')
        call model0(m)
        call tbrf_default_opts(o)
        o%lines = 256
        call tbrf_make_plan(p, m, 3, lo, hi, 0.4_c_double, 12345, o)
        call tbrf_set_points(p, xyz)
        call tbrf_execute(p, 1, v, stat=st)
        call check(st == TBRF_OK, 'execute points')
        call check(same_d(v, ref), 'points 3D double bitwise')
        call tbrf_destroy(p)
        call tbrf_model_destroy(m)
    end subroutine points3d

    subroutine points2d_float()
        integer, parameter :: np = 300
        real(c_double), target :: xy(2, np)
        real(c_float), target :: ref(np)
        real(c_float) :: v(np)
        type(tbrf_model) :: m
        type(tbrf_plan) :: p
        type(tbrf_opts) :: o
        integer :: i

        do i = 1, np
            xy(:, i) = [mod(i * 29, 83) * 0.1_c_double, mod(i * 7, 61) * 0.15_c_double]
        end do
        call check(tbrf_ftest_points(1, 2, int(np, c_int64_t), xy, [0.0_c_double, 0.0_c_double, 0.0_c_double], &
                                     [8.3_c_double, 9.15_c_double, 0.0_c_double], 0.2_c_double, 5_c_int64_t, &
                                     0_c_int64_t, TBRF_FLOAT, c_loc(ref)) == TBRF_OK, 'C reference 2D points')
        call tbrf_model_matern(m, 2.0_c_double, 1.5_c_double)
        call tbrf_default_opts(o)
        o%lines = 256
        o%precision = TBRF_FLOAT
        call tbrf_make_plan(p, m, 2, [0.0_c_double, 0.0_c_double], [8.3_c_double, 9.15_c_double], &
                            0.2_c_double, 5, o)
        call tbrf_set_points(p, xy)
        call tbrf_execute(p, 0, v)
        call check(all(transfer(v, [0_c_int32_t]) == transfer(ref, [0_c_int32_t])), 'points 2D float bitwise')
        call tbrf_destroy(p)
        call tbrf_model_destroy(m)
    end subroutine points2d_float

    subroutine info_and_queries()
        type(tbrf_model) :: m
        type(tbrf_plan) :: p
        type(tbrf_plan_info) :: info
        integer :: st
        call tbrf_model_gaussian(m, 3.0_c_double)
        call tbrf_model_set_amplitude(m, 2.0_c_double)
        call check(abs(tbrf_model_variance(m, 3) - 2.0_c_double) < 1e-12_c_double, 'gaussian variance = A')
        call check(abs(tbrf_model_covariance(m, 3, 3.0_c_double) - 2.0_c_double * exp(-1.0_c_double)) &
                   < 1e-12_c_double, 'gaussian covariance')
        call check(tbrf_model_spectrum(m, 3, 0.5_c_double) > 0, 'spectrum positive')
        call check(index(tbrf_model_describe(m), 'gaussian') > 0, 'describe: ' // tbrf_model_describe(m))
        call check(tbrf_model_status(m) == TBRF_OK, 'model status')
        call check(tbrf_model_message(m) == '', 'model message')
        ! No opts: the defaults (lines left to the geometry, oversampling 4).
        call tbrf_make_plan(p, m, 3, [0d0, 0d0, 0d0], [10d0, 10d0, 10d0], 0.5d0, 1)
        call tbrf_plan_get_info(p, info, stat=st)
        call check(st == TBRF_OK, 'get_info')
        call check(info%dim == 3 .and. info%lines == 0, 'info dim/lines: none before a geometry')
        call check(abs(info%line_spacing - 0.125d0) < 1d-15, 'info line_spacing = resolution/4')
        call check(abs(info%line_length - info%line_samples * info%line_spacing) < 1d-9, 'info line_length')
        call check(info%backend == TBRF_BACKEND_CPU, 'info backend')
        call check(tbrf_plan_status(p) == TBRF_OK, 'plan status')
        call check(tbrf_plan_message(p) == '', 'plan message')
        call check(tbrf_plan_count(p) == 0, 'count before geometry')
        call tbrf_set_grid(p, [0d0, 0d0, 0d0], [1d0, 1d0, 1d0], [4, 4, 4])
        call check(tbrf_plan_method(p) == TBRF_METHOD_TB, 'plan_method of a default plan')
        call tbrf_plan_get_info(p, info)
        call check(info%lines == TBRF_DEFAULT_LINES_MIN, 'a small grid draws the default minimum')
        call tbrf_destroy(p)
        call check(tbrf_plan_method(p) == -1, 'plan_method of no plan')
        call tbrf_destroy(p)         ! repeated destroy is harmless
        call tbrf_model_destroy(m)
        call check(tbrf_version() == TBRF_VERSION_STRING, 'version')
        call check(tbrf_backend_name(TBRF_BACKEND_CPU) == 'cpu', 'backend name')
        call check(tbrf_backend_name(42) == '', 'unknown backend name')
        call check(tbrf_backend_available(TBRF_BACKEND_CPU) == TBRF_OK, 'cpu available')
    end subroutine info_and_queries

    logical function same_d(a, b)
        real(c_double), intent(in) :: a(:), b(:)
        same_d = size(a) == size(b)
        if (same_d) same_d = all(transfer(a, [0_c_int64_t]) == transfer(b, [0_c_int64_t]))
    end function same_d
end program test_api
