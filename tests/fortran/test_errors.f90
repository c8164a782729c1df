! test_errors.f90 — every error path reachable from Fortran returns the
! right status through `stat`, with a message; nothing stops or crashes.
! (TBRF_ERR_NO_MEMORY and TBRF_ERR_FFT cannot be provoked on purpose;
! TBRF_ERR_NO_DEVICE only where a GPU backend is built without a device.)
! Callbacks live in a module: internal procedures would need trampolines
! (an executable stack).
module errors_callbacks
    use, intrinsic :: iso_c_binding
    implicit none
contains
    integer(c_int) function no_pull(user, first, max, xyz, count) bind(C)
        type(c_ptr), value :: user
        integer(c_int64_t), value :: first, max
        real(c_double) :: xyz(*)
        integer(c_int64_t), intent(out) :: count
        count = 0
        xyz(1:0) = 0    ! nothing to hand out
        no_pull = merge(0, 1, first == 0 .and. max > 0 .and. .not. c_associated(user))
    end function no_pull

    integer(c_int) function no_push(user, first, count, values) bind(C)
        type(c_ptr), value :: user, values
        integer(c_int64_t), value :: first, count
        no_push = merge(0, 1, first >= 0 .and. count >= 0 .and. .not. c_associated(user, values))
    end function no_push
end module errors_callbacks

program test_errors
    use, intrinsic :: iso_c_binding
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan, ieee_is_nan
    use tbrf
    use test_support
    use errors_callbacks
    implicit none
    integer :: st, i, gpu
    type(tbrf_model) :: m, bad
    type(tbrf_plan) :: p
    type(tbrf_opts) :: o
    type(tbrf_plan_info) :: info
    real(c_double) :: nan, lo(3), hi(3), blo(3), bhi(3), res
    integer(c_int64_t) :: nbad, nmodes(3)
    real(c_double), target :: xyz(3, 4), wide(3, 8)
    real(c_double) :: v(4), big(64), grid(4, 4, 4)
    real(c_float) :: vf(4)
    character(len=:), allocatable :: s, prev

    nan = ieee_value(nan, ieee_quiet_nan)
    lo = 0
    hi = 10

    ! Status names: every code has its own; unknown codes are named so.
    prev = ''
    do i = TBRF_OK, TBRF_ERR_BAD_PLAN
        s = tbrf_strerror(i)
        call check(len(s) > 0 .and. s /= prev .and. s /= 'unknown status', 'strerror of each status')
        prev = s
    end do
    call check(tbrf_strerror(999) == 'unknown status', 'strerror of an unknown code')

    ! Models.
    call tbrf_model_powerlaw(bad, -3d0, 2d0, 1d0, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'powerlaw kmin > kmax', tbrf_model_message(bad))
    call check(tbrf_model_status(bad) == TBRF_ERR_INVALID, 'model_status after a failed constructor')
    call tbrf_model_powerlaw(bad, nan, 0.1d0, 1d0, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'powerlaw NaN index', tbrf_model_message(bad))
    call tbrf_model_gaussian(bad, -1d0, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'gaussian negative length', tbrf_model_message(bad))
    call tbrf_model_exponential(bad, 0d0, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'exponential zero length', tbrf_model_message(bad))
    call tbrf_model_matern(bad, 1d0, 100d0, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'matern nu > 50', tbrf_model_message(bad))
    call tbrf_model_vonkarman(bad, nan, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'vonkarman NaN length', tbrf_model_message(bad))
    call tbrf_model_table(bad, [1d0, 0.5d0, 2d0], [1d0, 1d0, 1d0], stat=st)
    call expect(st, TBRF_ERR_TABLE, 'table k not increasing', tbrf_model_message(bad))
    call tbrf_model_table(bad, [1d0], [1d0], stat=st)
    call expect(st, TBRF_ERR_TABLE, 'table of one row', tbrf_model_message(bad))
    call tbrf_model_table(bad, [1d0, 2d0], [1d0], stat=st)
    call expect(st, TBRF_ERR_TABLE, 'table k and p of different sizes', 'x')
    call tbrf_model_table_file(bad, '/nonexistent/dir/pk.txt', stat=st)
    call expect(st, TBRF_ERR_FILE, 'table file missing', tbrf_model_message(bad))
    call check(index(tbrf_model_message(bad), '/nonexistent/dir/pk.txt') > 0, 'message names the file')
    call tbrf_model_destroy(bad)
    call tbrf_model_set_variance(bad, 1d0, stat=st)
    call expect(st, TBRF_ERR_NULL, 'set_variance on a destroyed model', 'x')
    call check(ieee_is_nan(tbrf_model_variance(bad, 3)), 'variance of no model is NaN')

    call tbrf_model_gaussian(m, 2d0)
    call tbrf_model_set_variance(m, -1d0, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'negative variance', tbrf_model_message(m))
    call tbrf_model_set_amplitude(m, nan, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'NaN amplitude', tbrf_model_message(m))
    call check(ieee_is_nan(tbrf_model_spectrum(m, 4, 1d0)), 'spectrum in 4D is NaN')

    ! Plans.
    call tbrf_make_plan(p, bad, 3, lo, hi, 1d0, 1, stat=st)
    call expect(st, TBRF_ERR_NULL, 'make_plan without a model', tbrf_plan_message(p))
    call tbrf_make_plan(p, m, 4, lo, hi, 1d0, 1, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'make_plan dim 4', tbrf_plan_message(p))
    call tbrf_make_plan(p, m, 3, lo, hi, -1d0, 1, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'make_plan negative resolution', tbrf_plan_message(p))
    call tbrf_make_plan(p, m, 3, hi, lo, 1d0, 1, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'make_plan lo > hi', tbrf_plan_message(p))
    call tbrf_make_plan(p, m, 3, lo(1:2), hi(1:2), 1d0, 1, stat=st)
    call expect(st, TBRF_ERR_SIZE, 'make_plan 3D with 2 bounds', 'x')
    call tbrf_make_plan(p, m, 3, lo, hi * 1d12, 1d-6, 1, stat=st)
    call expect(st, TBRF_ERR_SIZE, 'make_plan lines too long', tbrf_plan_message(p))
    call tbrf_default_opts(o)
    o%precision = 7
    call tbrf_make_plan(p, m, 3, lo, hi, 1d0, 1, o, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'make_plan bad precision', tbrf_plan_message(p))
    call tbrf_default_opts(o)
    o%lines = -1
    call tbrf_make_plan(p, m, 3, lo, hi, 1d0, 1, o, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'make_plan negative lines', tbrf_plan_message(p))
    ! A failed plan: every later call says TBRF_ERR_BAD_PLAN, the message stays.
    call tbrf_set_grid(p, [0d0, 0d0, 0d0], [1d0, 1d0, 1d0], [2, 2, 2], stat=st)
    call expect(st, TBRF_ERR_BAD_PLAN, 'set_grid on a failed plan', tbrf_plan_message(p))
    call check(tbrf_plan_status(p) == TBRF_ERR_BAD_PLAN, 'plan_status of a failed plan')
    call tbrf_plan_get_info(p, info, stat=st)
    call expect(st, TBRF_ERR_BAD_PLAN, 'get_info on a failed plan', tbrf_plan_message(p))
    call tbrf_default_opts(o)
    o%backend = TBRF_BACKEND_CUDA
    gpu = tbrf_backend_available(TBRF_BACKEND_CUDA)
    call tbrf_make_plan(p, m, 3, lo, hi, 1d0, 1, o, stat=st)
    call check(st == gpu, 'make_plan on CUDA gives tbrf_backend_available''s status')
    call tbrf_default_opts(o)
    o%backend = 17
    call tbrf_make_plan(p, m, 3, lo, hi, 1d0, 1, o, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'make_plan unknown backend', tbrf_plan_message(p))
    call check(tbrf_backend_available(17) == TBRF_ERR_INVALID, 'backend_available of an unknown id')
    block
        type(tbrf_model) :: pl
        call tbrf_model_powerlaw(pl, -4d0, 0d0, 1d0)
        call tbrf_make_plan(p, pl, 3, lo, hi, 1d0, 1, stat=st)
        call expect(st, TBRF_ERR_DIVERGENT, 'make_plan divergent power law', tbrf_plan_message(p))
        call tbrf_default_opts(o)
        o%line_method = TBRF_LINES_CIRCULANT
        call tbrf_model_powerlaw(pl, -3d0, 0.1d0, 1d0)
        call tbrf_make_plan(p, pl, 3, lo, hi, 1d0, 1, o, stat=st)
        call expect(st, TBRF_ERR_UNSUPPORTED, 'circulant lines for a power law', tbrf_plan_message(p))
        call tbrf_model_destroy(pl)
    end block

    ! Geometry and execution.
    call tbrf_make_plan(p, m, 3, lo, hi, 1d0, 1)
    call tbrf_execute(p, 0, v, stat=st)
    call expect(st, TBRF_ERR_NO_GEOMETRY, 'execute before any geometry', tbrf_plan_message(p))
    call tbrf_set_grid(p, [0d0, 0d0, 0d0], [1d0, 1d0, 1d0], [20, 2, 2], stat=st)
    call expect(st, TBRF_ERR_OUT_OF_DOMAIN, 'grid leaving the domain', tbrf_plan_message(p))
    call tbrf_set_grid(p, [0d0, 0d0, 0d0], [1d0, 1d0, 1d0], [0, 2, 2], stat=st)
    call expect(st, TBRF_ERR_SIZE, 'grid with zero cells', tbrf_plan_message(p))
    call tbrf_set_grid(p, [0d0, 0d0, 0d0], [-1d0, 1d0, 1d0], [2, 2, 2], stat=st)
    call expect(st, TBRF_ERR_INVALID, 'grid with negative spacing', tbrf_plan_message(p))
    call tbrf_set_grid(p, [0d0, 0d0], [1d0, 1d0], [2, 2], stat=st)
    call expect(st, TBRF_ERR_SIZE, '3D grid with 2 axes', tbrf_plan_message(p))
    call tbrf_set_grid(p, [0d0, 0d0, 0d0], [1d0, 1d0, 1d0], [4, 4, 4])
    call tbrf_execute(p, 0, v, stat=st)
    call expect(st, TBRF_ERR_SIZE, 'values smaller than the grid', tbrf_plan_message(p))
    call tbrf_execute(p, 0, big, stat=st)
    call check(st == TBRF_OK, 'values of the grid''s size')
    call tbrf_execute(p, 0, grid, stat=st)
    call check(st == TBRF_OK, 'rank-3 values')
    call tbrf_execute_stream(p, 0, no_pull, no_push, stat=st)
    call check(st == TBRF_OK, 'empty stream')
    xyz = 1
    call tbrf_set_points(p, xyz)
    call tbrf_execute(p, 0, vf, stat=st)
    call expect(st, TBRF_ERR_INVALID, 'float values for a double plan', tbrf_plan_message(p))
    xyz(2, 3) = 11
    call tbrf_set_points(p, xyz, stat=st)
    call expect(st, TBRF_ERR_OUT_OF_DOMAIN, 'point outside the domain', tbrf_plan_message(p))
    ! numbered as the Fortran caller numbers it: xyz(:, 3) is point 3
    call check(index(tbrf_plan_message(p), 'point 3 (xyz(:, 3))') > 0, &
               'out-of-domain message numbers points from 1: ' // tbrf_plan_message(p))
    xyz(2, 3) = 1
    ! a strided section would be copied into a temporary the plan would keep:
    ! refused; a contiguous section is the caller's own memory: accepted
    wide = 1
    call tbrf_set_points(p, wide(:, 1:8:2), stat=st)
    call expect(st, TBRF_ERR_INVALID, 'strided section of points', tbrf_plan_message(p))
    call check(index(tbrf_plan_message(p), 'contiguous') > 0, 'strided section message names contiguity')
    call tbrf_set_points(p, wide(:, 3:6), stat=st)
    call check(st == TBRF_OK, 'contiguous section of points')
    call check(tbrf_plan_count(p) == 4, 'contiguous section: 4 points')
    call tbrf_set_points(p, wide(1:3:1, 2:2), stat=st)
    call check(st == TBRF_OK, 'one-column section of points')
    call check(tbrf_plan_count(p) == 1, 'one-column section: 1 point')
    call tbrf_set_points(p, xyz)
    xyz(1, 4) = -0.5                        ! the caller moves a cell out afterwards
    call tbrf_execute(p, 0, v, stat=st)
    call expect(st, TBRF_ERR_OUT_OF_DOMAIN, 'moved point checked again at execute', tbrf_plan_message(p))
    xyz(1, 4) = nan
    call tbrf_set_points(p, xyz, stat=st)
    call check(st == TBRF_ERR_OUT_OF_DOMAIN .or. st == TBRF_ERR_INVALID, 'NaN position')
    ! the library's default domain: a NaN point is refused by its number,
    ! the box left as it was
    blo = huge(1d0)
    bhi = -huge(1d0)
    call tbrf_points_bounds(xyz, blo, bhi, stat=st, bad=nbad)
    call check(st == TBRF_ERR_INVALID .and. nbad == 4 .and. all(same_bits(blo, huge(1d0))), &
               'points_bounds refuses the NaN point 4')
    call tbrf_points_bounds(xyz(:, 1:3), blo, bhi, stat=st, bad=nbad)
    call check(st == TBRF_OK .and. nbad == 0 .and. all(same_bits(blo, 1d0)) .and. same_bits(bhi(1), 1d0), &
               'points_bounds of the finite points')
    call tbrf_points_bounds(xyz, blo(1:2), bhi, stat=st)
    call expect(st, TBRF_ERR_SIZE, 'points_bounds with lo too short', 'x')
    blo = huge(1d0)
    bhi = -huge(1d0)
    call tbrf_points_resolution(3, 0_c_int64_t, blo, bhi, res, stat=st)
    call check(st == TBRF_ERR_INVALID .and. same_bits(res, 0d0), 'points_resolution of the empty box')
    call tbrf_points_resolution(3, 8_c_int64_t, [0d0, 0d0, 0d0], [4d0, 2d0, 1d0], res, stat=st)
    call check(st == TBRF_OK .and. abs(res - 1) < 1d-15, 'points_resolution of 8 points in 4x2x1')
    call tbrf_grid_default_domain(3, [0d0, 0d0, 0d0], [1d0, 0d0, 1d0], [4_c_int64_t, 4_c_int64_t, &
                                  4_c_int64_t], blo, bhi, res, stat=st)
    call check(st == TBRF_ERR_INVALID .and. same_bits(res, 0d0), 'grid_default_domain of spacing 0')
    call tbrf_grid_default_domain(2, [1d0, 2d0], [0.5d0, 0.25d0], [5_c_int64_t, 9_c_int64_t], &
                                  blo, bhi, res, stat=st)
    call check(st == TBRF_OK .and. all(same_bits(blo(1:2), [1d0, 2d0])) .and. all(same_bits(bhi(1:2), [3d0, 4d0])) &
               .and. same_bits(res, 0.25d0), 'grid_default_domain of a 2D grid')
    call tbrf_periodic_points_resolution(3, [16d0, 8d0, 4d0], 64_c_int64_t, res, stat=st)
    call check(st == TBRF_OK .and. same_bits(res, 2d0), 'periodic_points_resolution of 64 in 512')
    nmodes = 7
    call tbrf_periodic_default_modes(3, [16d0, 8d0, 4d0], [1d-9, 1d0, 1d0], nmodes, stat=st)
    call check(st == TBRF_ERR_SIZE .and. all(nmodes == 7), 'periodic_default_modes above 2^20')
    call tbrf_periodic_default_modes(2, [2.5d0, 3.5d0], [1d0, 1d0], nmodes(1:2), stat=st)
    call check(st == TBRF_OK .and. nmodes(1) == 3 .and. nmodes(2) == 4, &
               'periodic_default_modes round halves up')
    call tbrf_set_points(p, xyz(1:2, :), stat=st)
    call expect(st, TBRF_ERR_SIZE, 'points of the wrong dimension', tbrf_plan_message(p))
    call tbrf_destroy(p)
    call tbrf_execute(p, 0, v, stat=st)
    call expect(st, TBRF_ERR_NULL, 'execute on a destroyed plan', tbrf_plan_message(p))
    call tbrf_set_points(p, xyz, stat=st)
    call expect(st, TBRF_ERR_NULL, 'set_points on a destroyed plan', 'x')
    call tbrf_plan_get_info(p, info, stat=st)
    call expect(st, TBRF_ERR_NULL, 'get_info on a destroyed plan', 'x')
    call tbrf_execute_grid_stream(p, 0, no_push, stat=st)
    call expect(st, TBRF_ERR_NULL, 'grid stream on a destroyed plan', 'x')
    call check(tbrf_plan_status(p) == TBRF_ERR_NULL, 'plan_status of no plan')
    call tbrf_model_destroy(m)
    deallocate(s, prev)

    call finish('fortran_errors')
contains
    !> The status is the expected one and a message explains it.
    subroutine expect(got, want, what, msg)
        integer, intent(in) :: got, want
        character(len=*), intent(in) :: what, msg
        if (got /= want) then
            write(*, '(a, i0, a, i0, a)') 'FAIL: ' // what // ': status ', got, ' (want ', want, '): ' // msg
            fails = fails + 1
        else if (len_trim(msg) == 0) then
            write(*, '(a)') 'FAIL: ' // what // ': no message'
            fails = fails + 1
        end if
    end subroutine expect

end program test_errors
