! layout_f.f90 — GENERATED from include/tbrf.h by fortran/gen_tbrf_c.awk (mode=flayout);
! do not edit. sizeof and field offsets of the bind(C) types of tbrf_c, in
! the order of layout_c.c (generated from the header at build time).
module layout_f
    use, intrinsic :: iso_c_binding
    use tbrf_c
    implicit none
contains
    subroutine fortran_layout(out, name, n)
        integer(c_int64_t), intent(out) :: out(:)
        character(len=64), intent(out) :: name(:)
        integer, intent(out) :: n
        type(tbrf_opts), target :: v1
        type(tbrf_plan_info), target :: v2
        type(tbrf_driver_params), target :: v3
        type(tbrf_driver_info), target :: v4
        n = 0
        call put(int(c_sizeof(v1), c_int64_t), 'sizeof(tbrf_opts)')
        call put(off(c_loc(v1%lines), c_loc(v1)), 'offsetof(tbrf_opts, lines)')
        call put(off(c_loc(v1%oversampling), c_loc(v1)), 'offsetof(tbrf_opts, oversampling)')
        call put(off(c_loc(v1%line_method), c_loc(v1)), 'offsetof(tbrf_opts, line_method)')
        call put(off(c_loc(v1%max_padding), c_loc(v1)), 'offsetof(tbrf_opts, max_padding)')
        call put(off(c_loc(v1%precision), c_loc(v1)), 'offsetof(tbrf_opts, precision)')
        call put(off(c_loc(v1%threads), c_loc(v1)), 'offsetof(tbrf_opts, threads)')
        call put(off(c_loc(v1%backend), c_loc(v1)), 'offsetof(tbrf_opts, backend)')
        call put(off(c_loc(v1%device), c_loc(v1)), 'offsetof(tbrf_opts, device)')
        call put(off(c_loc(v1%work_group), c_loc(v1)), 'offsetof(tbrf_opts, work_group)')
        call put(off(c_loc(v1%unroll), c_loc(v1)), 'offsetof(tbrf_opts, unroll)')
        call put(off(c_loc(v1%method), c_loc(v1)), 'offsetof(tbrf_opts, method)')
        call put(off(c_loc(v1%periodic), c_loc(v1)), 'offsetof(tbrf_opts, periodic)')
        call put(off(c_loc(v1%chunk), c_loc(v1)), 'offsetof(tbrf_opts, chunk)')
        call put(off(c_loc(v1%line_length_factor), c_loc(v1)), 'offsetof(tbrf_opts, line_length_factor)')
        call put(off(c_loc(v1%vector), c_loc(v1)), 'offsetof(tbrf_opts, vector)')
        call put(off(c_loc(v1%reserved), c_loc(v1)), 'offsetof(tbrf_opts, reserved)')
        call put(off(c_loc(v1%zeta), c_loc(v1)), 'offsetof(tbrf_opts, zeta)')
        call put(off(c_loc(v1%accuracy), c_loc(v1)), 'offsetof(tbrf_opts, accuracy)')
        call put(int(c_sizeof(v2), c_int64_t), 'sizeof(tbrf_plan_info)')
        call put(off(c_loc(v2%dim), c_loc(v2)), 'offsetof(tbrf_plan_info, dim)')
        call put(off(c_loc(v2%lines), c_loc(v2)), 'offsetof(tbrf_plan_info, lines)')
        call put(off(c_loc(v2%line_samples), c_loc(v2)), 'offsetof(tbrf_plan_info, line_samples)')
        call put(off(c_loc(v2%line_spacing), c_loc(v2)), 'offsetof(tbrf_plan_info, line_spacing)')
        call put(off(c_loc(v2%line_length), c_loc(v2)), 'offsetof(tbrf_plan_info, line_length)')
        call put(off(c_loc(v2%variance), c_loc(v2)), 'offsetof(tbrf_plan_info, variance)')
        call put(off(c_loc(v2%variance_resolved), c_loc(v2)), 'offsetof(tbrf_plan_info, variance_resolved)')
        call put(off(c_loc(v2%amplitude), c_loc(v2)), 'offsetof(tbrf_plan_info, amplitude)')
        call put(off(c_loc(v2%padding), c_loc(v2)), 'offsetof(tbrf_plan_info, padding)')
        call put(off(c_loc(v2%backend), c_loc(v2)), 'offsetof(tbrf_plan_info, backend)')
        call put(int(c_sizeof(v3), c_int64_t), 'sizeof(tbrf_driver_params)')
        call put(off(c_loc(v3%dim), c_loc(v3)), 'offsetof(tbrf_driver_params, dim)')
        call put(off(c_loc(v3%periodic), c_loc(v3)), 'offsetof(tbrf_driver_params, periodic)')
        call put(off(c_loc(v3%origin(1)), c_loc(v3)), 'offsetof(tbrf_driver_params, origin)')
        call put(off(c_loc(v3%length(1)), c_loc(v3)), 'offsetof(tbrf_driver_params, length)')
        call put(off(c_loc(v3%zeta), c_loc(v3)), 'offsetof(tbrf_driver_params, zeta)')
        call put(off(c_loc(v3%tcorr), c_loc(v3)), 'offsetof(tbrf_driver_params, tcorr)')
        call put(off(c_loc(v3%dt_update), c_loc(v3)), 'offsetof(tbrf_driver_params, dt_update)')
        call put(off(c_loc(v3%rms), c_loc(v3)), 'offsetof(tbrf_driver_params, rms)')
        call put(off(c_loc(v3%injection), c_loc(v3)), 'offsetof(tbrf_driver_params, injection)')
        call put(off(c_loc(v3%density), c_loc(v3)), 'offsetof(tbrf_driver_params, density)')
        call put(off(c_loc(v3%normalization), c_loc(v3)), 'offsetof(tbrf_driver_params, normalization)')
        call put(off(c_loc(v3%interpolate), c_loc(v3)), 'offsetof(tbrf_driver_params, interpolate)')
        call put(off(c_loc(v3%eval), c_loc(v3)), 'offsetof(tbrf_driver_params, eval)')
        call put(off(c_loc(v3%threads), c_loc(v3)), 'offsetof(tbrf_driver_params, threads)')
        call put(off(c_loc(v3%accuracy), c_loc(v3)), 'offsetof(tbrf_driver_params, accuracy)')
        call put(int(c_sizeof(v4), c_int64_t), 'sizeof(tbrf_driver_info)')
        call put(off(c_loc(v4%modes), c_loc(v4)), 'offsetof(tbrf_driver_info, modes)')
        call put(off(c_loc(v4%eval), c_loc(v4)), 'offsetof(tbrf_driver_info, eval)')
        call put(off(c_loc(v4%reserved), c_loc(v4)), 'offsetof(tbrf_driver_info, reserved)')
        call put(off(c_loc(v4%dt_update), c_loc(v4)), 'offsetof(tbrf_driver_info, dt_update)')
        call put(off(c_loc(v4%decay), c_loc(v4)), 'offsetof(tbrf_driver_info, decay)')
        call put(off(c_loc(v4%rms_ensemble), c_loc(v4)), 'offsetof(tbrf_driver_info, rms_ensemble)')
        call put(off(c_loc(v4%update), c_loc(v4)), 'offsetof(tbrf_driver_info, update)')
    contains
        subroutine put(v, what)
            integer(c_int64_t), intent(in) :: v
            character(len=*), intent(in) :: what
            n = n + 1
            out(n) = v
            name(n) = what
        end subroutine put
    end subroutine fortran_layout

    function off(a, b) result(d)
        type(c_ptr), intent(in) :: a, b
        integer(c_int64_t) :: d
        d = int(transfer(a, 0_c_intptr_t) - transfer(b, 0_c_intptr_t), c_int64_t)
    end function off
end module layout_f
