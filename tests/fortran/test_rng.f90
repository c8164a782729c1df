! test_rng.f90 — the random-number and Monte Carlo wrappers: a Philox
! known-answer vector, 64-bit seeds/streams/offsets reaching C intact
! (checked against the documented word formula), jump-ahead identities,
! Monte Carlo estimates within their errors (built-in and Fortran
! integrands), and error statuses.
module rng_callbacks
    use, intrinsic :: iso_c_binding
    implicit none
contains
    !> f(x) = x1 x2 x3 for n points; user -> an integer that, when 1, fails.
    integer(c_int) function product3(user, n, dim, x, f) bind(C)
        type(c_ptr), value :: user
        integer(c_int64_t), value :: n
        integer(c_int), value :: dim
        real(c_double), intent(in) :: x(*)
        real(c_double) :: f(*)
        integer, pointer :: fail
        integer(c_int64_t) :: p
        call c_f_pointer(user, fail)
        do p = 0, n - 1
            f(p + 1) = product(x(p * dim + 1:p * dim + dim))
        end do
        product3 = fail
    end function product3
end module rng_callbacks

program test_rng
    use tbrf
    use test_support
    use rng_callbacks
    implicit none
    integer :: st, k
    integer, target :: cbfail
    integer(c_int32_t) :: w(20), w2(10), blk(4), state(2), st2(2), outs(5), v(2)
    integer(c_int64_t) :: y(8), t(8), s
    real(c_double) :: d(8), out(2), out2(2), exact, beta
    real(c_float) :: f(8)
    integer(c_int64_t), parameter :: seed = int(z'123456789ABCDEF', c_int64_t), stream = 5_c_int64_t * 2_c_int64_t**32 + 3

    ! Philox4x32-10 known answer (Random123 kat_vectors): ctr = 0, key = 0.
    call tbrf_rng_philox4x32([0_c_int32_t, 0_c_int32_t, 0_c_int32_t, 0_c_int32_t], [0_c_int32_t, 0_c_int32_t], blk)
    call check(all(blk == [int(z'6627e8d5', c_int32_t), int(z'e169c58d', c_int32_t), &
                           int(z'bc57ac4c', c_int32_t), int(z'9b00dbd8', c_int32_t)]), 'philox KAT')
    ! Word k of philox = block (k/4, z'08000000', stream lo, stream hi) under key (seed lo, seed hi).
    call tbrf_rng_u32(TBRF_GEN_PHILOX, seed, stream, 0_c_int64_t, w, stat=st)
    call check(st == TBRF_OK, 'rng_u32')
    call tbrf_rng_philox4x32([4_c_int32_t, int(z'08000000', c_int32_t), 3_c_int32_t, 5_c_int32_t], &
                             [int(z'89ABCDEF', c_int32_t), int(z'01234567', c_int32_t)], blk)
    call check(all(w(17:20) == blk), 'rng_u32 words 16..19 follow the documented formula')
    call tbrf_rng_u32(TBRF_GEN_PHILOX, seed, stream, 10_c_int64_t, w2)
    call check(all(w2 == w(11:20)), 'rng_u32 offset 10 is word 10 on')
    call check(tbrf_rng_name(TBRF_GEN_PHILOX) == 'philox', 'rng_name')
    call check(tbrf_rng_name(99) == '', 'rng_name of an unknown id')
    ! U01 = word * 2^-32 exactly; floats from the same stream.
    call tbrf_rng_double(TBRF_GEN_PHILOX, seed, stream, 0_c_int64_t, TBRF_DIST_U01, d)
    call check(same(d, u01(w(1:8))), 'U01 doubles are word * 2^-32')
    call tbrf_rng_float(TBRF_GEN_PHILOX, seed, stream, 0_c_int64_t, TBRF_DIST_U01, f)
    call check(all(abs(f - d) < 2.0**(-23)), 'U01 floats near the doubles')
    call tbrf_rng_double(TBRF_GEN_PHILOX, seed, stream, 0_c_int64_t, 9, d, stat=st)
    call check(st == TBRF_ERR_INVALID, 'unknown dist')
    call tbrf_rng_u32(77, seed, stream, 0_c_int64_t, w, stat=st)
    call check(st == TBRF_ERR_INVALID, 'unknown generator')
    call tbrf_rng_u32(TBRF_GEN_SARU, seed, 2_c_int64_t**33, 0_c_int64_t, w, stat=st)
    call check(st == TBRF_ERR_INVALID, 'saru stream >= 2^32')

    ! Saru: jump(n) = n steps; seeding from 1..3 words only.
    call tbrf_rng_saru_seed([1_c_int32_t, 2_c_int32_t, 3_c_int32_t], state)
    st2 = state
    call tbrf_rng_saru_next(state, outs)
    call tbrf_rng_saru_jump(st2, 5_c_int64_t)
    call check(all(state == st2), 'saru jump 5 = 5 steps')
    call tbrf_rng_saru_seed([1_c_int32_t, 2_c_int32_t, 3_c_int32_t, 4_c_int32_t], state, stat=st)
    call check(st == TBRF_ERR_INVALID, 'saru seed of 4 words')
    call tbrf_rng_stream_pair(7_c_int32_t, 1_c_int32_t, 10_c_int32_t, 20_c_int32_t, state)
    call tbrf_rng_stream_pair(7_c_int32_t, 1_c_int32_t, 20_c_int32_t, 10_c_int32_t, st2)
    call check(all(state == st2), 'stream_pair symmetric')
    call tbrf_rng_stream_id(7_c_int32_t, 1_c_int32_t, 10_c_int32_t, st2)
    call check(any(state /= st2), 'stream_id differs from stream_pair')
    v = [1_c_int32_t, 2_c_int32_t]
    call tbrf_rng_tea8(v)
    w2(1:2) = [1_c_int32_t, 2_c_int32_t]
    call tbrf_rng_tea8(w2(1:2), [int(z'A341316C', c_int32_t), int(z'C8013EA4', c_int32_t), &
                                 int(z'AD90777D', c_int32_t), int(z'7E95761E', c_int32_t)])
    call check(all(v == w2(1:2)) .and. any(v /= [1, 2]), 'tea8 default key is the GPU key')
    call check(tbrf_rng_seed_prehash(5_c_int32_t) /= tbrf_rng_seed_prehash(6_c_int32_t), 'prehash')

    ! LCG: jump composes; block tables from state 0 are the states.
    call check(tbrf_rng_lcg64_jump(tbrf_rng_lcg64_jump(seed, 1000_c_int64_t), 234_c_int64_t) == &
               tbrf_rng_lcg64_jump(seed, 1234_c_int64_t), 'lcg64 jump composes')
    call tbrf_rng_lcg64_block(y, t)
    do k = 1, 8
        call check(t(k) == tbrf_rng_lcg64_jump(0_c_int64_t, int(k, c_int64_t)), 'lcg64 block t')
    end do
    call tbrf_rng_lcg64_block(y, t(1:3), stat=st)
    call check(st == TBRF_ERR_SIZE, 'lcg64 block of unequal tables')

    ! Monte Carlo: built-in integrand, defaults = explicit a = 1, u = 0.5.
    call tbrf_mc_exact(TBRF_MC_GAUSSIAN, 3, exact)
    call tbrf_mc_exact(TBRF_MC_GAUSSIAN, 3, out(1), a=[1d0, 1d0, 1d0], u=[0.5d0, 0.5d0, 0.5d0])
    call check(same([exact], out(1:1)) .and. exact > 0, 'mc_exact defaults')
    call tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 3, 100000_c_int64_t, 42_c_int64_t, TBRF_MC_SEQUENTIAL, &
                           0_c_int64_t, out)
    call check(abs(out(1) - exact) < 5 * out(2) .and. out(2) > 0, 'mc_integrate within 5 errors')
    call tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 3, 100000_c_int64_t, 42_c_int64_t, TBRF_MC_VECTORIZED, &
                           0_c_int64_t, out2)
    call check(same(out, out2), 'sequential and vectorized give the same bits')
    call check(tbrf_mc_integrand_name(TBRF_MC_NAG) == 'nag', 'integrand name')
    call tbrf_mc_exact(TBRF_MC_NAG, 3, exact, stat=st)
    call check(st == TBRF_ERR_UNSUPPORTED, 'nag integrand in 3D')
    call tbrf_mc_exact(TBRF_MC_GAUSSIAN, 3, exact, a=[1d0, 1d0], stat=st)
    call check(st == TBRF_ERR_SIZE, 'a shorter than dim')
    call tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 3, 1_c_int64_t, 42_c_int64_t, TBRF_MC_SEQUENTIAL, &
                           0_c_int64_t, out, stat=st)
    call check(st == TBRF_ERR_SIZE, 'mc_integrate n < 2')
    ! A Fortran integrand: x1 x2 x3 on [0,1]^3 (1/8) and on [0,2]^3 (8).
    cbfail = 0
    call tbrf_mc_integrate_fn(product3, 3, 50000_c_int64_t, 1_c_int64_t, TBRF_MC_VECTORIZED, 0_c_int64_t, &
                              out, c_loc(cbfail))
    call check(abs(out(1) - 0.125d0) < 5 * out(2), 'Fortran integrand on the unit cube')
    call tbrf_mc_integrate_fn(product3, 3, 50000_c_int64_t, 1_c_int64_t, TBRF_MC_SEQUENTIAL, 0_c_int64_t, &
                              out, c_loc(cbfail), lo=[0d0, 0d0, 0d0], hi=[2d0, 2d0, 2d0])
    call check(abs(out(1) - 8) < 5 * out(2), 'Fortran integrand on [0,2]^3')
    cbfail = 1
    call tbrf_mc_integrate_fn(product3, 3, 50000_c_int64_t, 1_c_int64_t, TBRF_MC_SEQUENTIAL, 0_c_int64_t, &
                              out, c_loc(cbfail), stat=st)
    call check(st == TBRF_ERR_CALLBACK, 'failing integrand gives TBRF_ERR_CALLBACK')
    call tbrf_mc_integrate_device(TBRF_BACKEND_CPU, -1, TBRF_MC_GAUSSIAN, 3, 1000_c_int64_t, 1_c_int64_t, &
                                  out, stat=st)
    call check(st == TBRF_ERR_INVALID, 'mc on a device with the CPU backend')
    call tbrf_mc_block_size(1000000_c_int64_t, 4, 64d0, s)
    call check(s == nint(sqrt(64d0 * 1000000 / 4)), 'block size s* = sqrt(beta n / dim)')
    call tbrf_mc_block_size(0_c_int64_t, 4, 64d0, s, stat=st)
    call check(st == TBRF_ERR_SIZE, 'block size n = 0')
    if (.false.) call tbrf_mc_measure_beta(beta)   ! timing-dependent: linked, not run

    call finish('fortran_rng')
contains
    !> Bitwise equality of two double arrays.
    logical function same(a, b)
        real(c_double), intent(in) :: a(:), b(:)
        same = all(transfer(a, [0_c_int64_t]) == transfer(b, [0_c_int64_t]))
    end function same

    elemental real(c_double) function u01(x)
        integer(c_int32_t), intent(in) :: x
        u01 = real(iand(int(x, c_int64_t), int(z'FFFFFFFF', c_int64_t)), c_double) * 2d0**(-32)
    end function u01
end program test_rng
