! test_stream.f90 — streaming from Fortran: pull/push callbacks written as
! bind(C) Fortran functions with user data through type(c_ptr); the values
! equal set_points + execute (and the C API) bitwise for any chunk size;
! grid streaming equals execute; a callback's non-zero result aborts with
! TBRF_ERR_CALLBACK; a spectrum callback makes a model.
module stream_state
    use, intrinsic :: iso_c_binding
    implicit none
    !> What the callbacks share: the positions to hand out, where to put the
    !> values, and a counter to fail on purpose.
    type :: state_t
        real(c_double), pointer :: xyz(:, :) => null()
        real(c_double), allocatable :: got(:)
        integer(c_int64_t) :: calls = 0, fail_at = -1, max_seen = 0
        integer(c_int64_t) :: pull_extra = 0
    end type state_t
contains
    integer(c_int) function pull(user, first, max, xyz, count) bind(C)
        type(c_ptr), value :: user
        integer(c_int64_t), value :: first, max
        real(c_double) :: xyz(*)
        integer(c_int64_t), intent(out) :: count
        type(state_t), pointer :: s
        integer(c_int64_t) :: i
        call c_f_pointer(user, s)
        s%max_seen = merge(max, s%max_seen, max > s%max_seen)
        count = min(max, size(s%xyz, 2, kind=c_int64_t) - first) + s%pull_extra
        do i = 1, min(count, max)
            xyz(3 * i - 2:3 * i) = s%xyz(:, first + i)
        end do
        pull = 0
    end function pull

    integer(c_int) function push(user, first, count, values) bind(C)
        type(c_ptr), value :: user
        integer(c_int64_t), value :: first, count
        type(c_ptr), value :: values
        type(state_t), pointer :: s
        real(c_double), pointer :: v(:)
        call c_f_pointer(user, s)
        call c_f_pointer(values, v, [count])
        s%calls = s%calls + 1
        s%got(first + 1:first + count) = v
        push = merge(1, 0, s%calls == s%fail_at)
    end function push

    real(c_double) function spectrum(k, dim, user) bind(C)
        real(c_double), value :: k
        integer(c_int), value :: dim
        type(c_ptr), value :: user
        real(c_double), pointer :: slope
        call c_f_pointer(user, slope)
        spectrum = k**slope
        if (dim /= 3) spectrum = 0
    end function spectrum
end module stream_state

program test_stream
    use, intrinsic :: iso_c_binding
    use tbrf
    use test_support
    use stream_state
    implicit none
    include 'ref_iface.inc'
    integer, parameter :: np = 1000, nx = 20, ny = 15, nz = 7
    real(c_double), target :: xyz(3, np), ref(np), grid(nx, ny, nz)
    real(c_double) :: direct(np)
    real(c_double), target :: slope
    type(state_t), target :: s
    type(tbrf_model) :: m, mc, mp
    type(tbrf_plan) :: p
    type(tbrf_opts) :: o
    integer :: i, st, chunk
    integer(c_int64_t), parameter :: chunks(3) = [0_c_int64_t, 1_c_int64_t, 77_c_int64_t]
    real(c_double) :: lo(3), hi(3)

    do i = 1, np
        xyz(:, i) = [mod(i * 31, 103) * 0.2_c_double, mod(i * 17, 71) * 0.3_c_double, &
                     mod(i * 13, 67) * 0.25_c_double]
    end do
    lo = 0
    hi = [20.6_c_double, 21.3_c_double, 16.5_c_double]
    st = tbrf_ftest_points(0, 3, int(np, c_int64_t), xyz, lo, hi, 0.5_c_double, 3_c_int64_t, &
                           2_c_int64_t, TBRF_DOUBLE, c_loc(ref))
    call check(st == TBRF_OK, 'C reference')
    call tbrf_model_powerlaw(m, -3.0_c_double, 0.1_c_double, 2.0_c_double)
    call tbrf_model_set_variance(m, 0.5_c_double)
    s%xyz => xyz
    allocate(s%got(np))
    do chunk = 0, 2
        call tbrf_default_opts(o)
        o%lines = 256
        o%chunk = chunks(chunk + 1)
        call tbrf_make_plan(p, m, 3, lo, hi, 0.5_c_double, 3, o)
        s%got = -999
        s%calls = 0
        s%max_seen = 0
        call tbrf_execute_stream(p, 2, pull, push, c_loc(s), stat=st)
        call check(st == TBRF_OK, 'execute_stream: ' // tbrf_plan_message(p))
        call check(all(transfer(s%got, [0_c_int64_t]) == transfer(ref, [0_c_int64_t])), &
                   'streamed values equal the C API bitwise')
        if (o%chunk > 0) call check(s%max_seen <= o%chunk .and. s%calls >= np / o%chunk, &
                                    'chunks of at most opts%chunk positions')
        call tbrf_set_points(p, xyz)
        call tbrf_execute(p, 2, direct)
        call check(all(transfer(direct, [0_c_int64_t]) == transfer(ref, [0_c_int64_t])), &
                   'set_points + execute equal the C API bitwise')
        call tbrf_destroy(p)
    end do

    ! A push that fails on its third call aborts the run.
    call tbrf_default_opts(o)
    o%chunk = 100
    o%lines = 64
    call tbrf_make_plan(p, m, 3, lo, hi, 0.5_c_double, 3, o)
    s%calls = 0
    s%fail_at = 3
    call tbrf_execute_stream(p, 0, pull, push, c_loc(s), stat=st)
    call check(st == TBRF_ERR_CALLBACK, 'push returning 1 gives TBRF_ERR_CALLBACK')
    call check(s%calls == 3, 'no push after the failing one')
    call check(len(tbrf_plan_message(p)) > 0, 'callback failure has a message')
    s%fail_at = -1
    ! A pull that reports more than max positions.
    s%pull_extra = 1
    call tbrf_execute_stream(p, 0, pull, push, c_loc(s), stat=st)
    call check(st == TBRF_ERR_INVALID, 'pull count > max gives TBRF_ERR_INVALID')
    s%pull_extra = 0
    ! Grid streaming on a points plan: no grid.
    call tbrf_set_points(p, xyz)
    call tbrf_execute_grid_stream(p, 0, push, c_loc(s), stat=st)
    call check(st == TBRF_ERR_NO_GEOMETRY, 'grid stream without a grid')
    call tbrf_destroy(p)

    ! Grid streaming equals execute.
    call tbrf_default_opts(o)
    o%lines = 256
    o%chunk = 50
    call tbrf_make_plan(p, m, 3, [0d0, 0d0, 0d0], [19d0, 14d0, 6d0], 1d0, 11, o)
    call tbrf_set_grid(p, [0d0, 0d0, 0d0], [1d0, 1d0, 1d0], [nx, ny, nz])
    call tbrf_execute(p, 0, grid)
    deallocate(s%got)
    allocate(s%got(nx * ny * nz))
    s%got = -999
    s%calls = 0
    call tbrf_execute_grid_stream(p, 0, push, c_loc(s), stat=st)
    call check(st == TBRF_OK, 'grid stream')
    call check(s%calls > 1, 'grid stream in several chunks')
    call check(all(transfer(s%got, [0_c_int64_t]) == transfer(reshape(grid, [size(grid)]), [0_c_int64_t])), &
               'grid stream equals execute bitwise')
    call tbrf_destroy(p)

    ! A spectrum callback: k^slope on [0.1, 2] behaves as the power-law model.
    slope = -3
    call tbrf_model_callback(mc, spectrum, 0.1_c_double, 2.0_c_double, c_loc(slope))
    call tbrf_model_powerlaw(mp, -3.0_c_double, 0.1_c_double, 2.0_c_double)
    call check(abs(tbrf_model_variance(mc, 3) / tbrf_model_variance(mp, 3) - 1) < 1d-6, &
               'callback model has the power law''s variance')
    call check(abs(tbrf_model_spectrum(mc, 3, 0.5d0) / tbrf_model_spectrum(mp, 3, 0.5d0) - 1) < 1d-9, &
               'callback model has the power law''s spectrum')
    call tbrf_model_destroy(mc)
    call tbrf_model_destroy(mp)
    call tbrf_model_destroy(m)
    call finish('fortran_stream')
end program test_stream
