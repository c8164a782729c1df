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
        type(tbrf_ic_cosmo_params), target :: v5
        type(tbrf_ic_cosmo_info), target :: v6
        type(tbrf_ic_chunk), target :: v7
        type(tbrf_ic_points_params), target :: v8
        type(tbrf_ic_density_params), target :: v9
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
        call put(off(c_loc(v3%amplitude_factor(1)), c_loc(v3)), 'offsetof(tbrf_driver_params, amplitude_factor)')
        call put(off(c_loc(v3%components), c_loc(v3)), 'offsetof(tbrf_driver_params, components)')
        call put(off(c_loc(v3%directions), c_loc(v3)), 'offsetof(tbrf_driver_params, directions)')
        call put(int(c_sizeof(v4), c_int64_t), 'sizeof(tbrf_driver_info)')
        call put(off(c_loc(v4%modes), c_loc(v4)), 'offsetof(tbrf_driver_info, modes)')
        call put(off(c_loc(v4%eval), c_loc(v4)), 'offsetof(tbrf_driver_info, eval)')
        call put(off(c_loc(v4%reserved), c_loc(v4)), 'offsetof(tbrf_driver_info, reserved)')
        call put(off(c_loc(v4%dt_update), c_loc(v4)), 'offsetof(tbrf_driver_info, dt_update)')
        call put(off(c_loc(v4%decay), c_loc(v4)), 'offsetof(tbrf_driver_info, decay)')
        call put(off(c_loc(v4%rms_ensemble), c_loc(v4)), 'offsetof(tbrf_driver_info, rms_ensemble)')
        call put(off(c_loc(v4%update), c_loc(v4)), 'offsetof(tbrf_driver_info, update)')
        call put(int(c_sizeof(v5), c_int64_t), 'sizeof(tbrf_ic_cosmo_params)')
        call put(off(c_loc(v5%box), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, box)')
        call put(off(c_loc(v5%particles), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, particles)')
        call put(off(c_loc(v5%redshift), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, redshift)')
        call put(off(c_loc(v5%omega_m), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, omega_m)')
        call put(off(c_loc(v5%omega_lambda), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, omega_lambda)')
        call put(off(c_loc(v5%omega_b), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, omega_b)')
        call put(off(c_loc(v5%hubble), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, hubble)')
        call put(off(c_loc(v5%n_s), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, n_s)')
        call put(off(c_loc(v5%sigma8), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, sigma8)')
        call put(off(c_loc(v5%t_cmb), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, t_cmb)')
        call put(off(c_loc(v5%length_per_mpc), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, length_per_mpc)')
        call put(off(c_loc(v5%mass_unit), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, mass_unit)')
        call put(off(c_loc(v5%velocity_unit), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, velocity_unit)')
        call put(off(c_loc(v5%wiggles), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, wiggles)')
        call put(off(c_loc(v5%gas), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, gas)')
        call put(off(c_loc(v5%seed), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, seed)')
        call put(off(c_loc(v5%lpt), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, lpt)')
        call put(off(c_loc(v5%fixed_amplitude), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, fixed_amplitude)')
        call put(off(c_loc(v5%paired), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, paired)')
        call put(off(c_loc(v5%reserved_lpt), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, reserved_lpt)')
        call put(off(c_loc(v5%power), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, power)')
        call put(off(c_loc(v5%glass), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, glass)')
        call put(off(c_loc(v5%glass_n), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, glass_n)')
        call put(off(c_loc(v5%glass_box), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, glass_box)')
        call put(off(c_loc(v5%gas_temperature), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, gas_temperature)')
        call put(off(c_loc(v5%gas_mu), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, gas_mu)')
        call put(off(c_loc(v5%gas_gamma), c_loc(v5)), 'offsetof(tbrf_ic_cosmo_params, gas_gamma)')
        call put(int(c_sizeof(v6), c_int64_t), 'sizeof(tbrf_ic_cosmo_info)')
        call put(off(c_loc(v6%particles), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, particles)')
        call put(off(c_loc(v6%glass_tile), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, glass_tile)')
        call put(off(c_loc(v6%scale_factor), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, scale_factor)')
        call put(off(c_loc(v6%growth), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, growth)')
        call put(off(c_loc(v6%growth_rate), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, growth_rate)')
        call put(off(c_loc(v6%hubble), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, hubble)')
        call put(off(c_loc(v6%velocity_factor), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, velocity_factor)')
        call put(off(c_loc(v6%mass_dm), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, mass_dm)')
        call put(off(c_loc(v6%mass_gas), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, mass_gas)')
        call put(off(c_loc(v6%shift_dm), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, shift_dm)')
        call put(off(c_loc(v6%shift_gas), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, shift_gas)')
        call put(off(c_loc(v6%gas_temperature), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, gas_temperature)')
        call put(off(c_loc(v6%internal_energy), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, internal_energy)')
        call put(off(c_loc(v6%growth2), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, growth2)')
        call put(off(c_loc(v6%growth_rate2), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, growth_rate2)')
        call put(off(c_loc(v6%velocity_factor2), c_loc(v6)), 'offsetof(tbrf_ic_cosmo_info, velocity_factor2)')
        call put(int(c_sizeof(v7), c_int64_t), 'sizeof(tbrf_ic_chunk)')
        call put(off(c_loc(v7%chunk), c_loc(v7)), 'offsetof(tbrf_ic_chunk, chunk)')
        call put(off(c_loc(v7%first), c_loc(v7)), 'offsetof(tbrf_ic_chunk, first)')
        call put(off(c_loc(v7%count), c_loc(v7)), 'offsetof(tbrf_ic_chunk, count)')
        call put(off(c_loc(v7%pos), c_loc(v7)), 'offsetof(tbrf_ic_chunk, pos)')
        call put(off(c_loc(v7%vel), c_loc(v7)), 'offsetof(tbrf_ic_chunk, vel)')
        call put(off(c_loc(v7%gas_pos), c_loc(v7)), 'offsetof(tbrf_ic_chunk, gas_pos)')
        call put(off(c_loc(v7%gas_u), c_loc(v7)), 'offsetof(tbrf_ic_chunk, gas_u)')
        call put(int(c_sizeof(v8), c_int64_t), 'sizeof(tbrf_ic_points_params)')
        call put(off(c_loc(v8%kind), c_loc(v8)), 'offsetof(tbrf_ic_points_params, kind)')
        call put(off(c_loc(v8%reserved), c_loc(v8)), 'offsetof(tbrf_ic_points_params, reserved)')
        call put(off(c_loc(v8%per_axis), c_loc(v8)), 'offsetof(tbrf_ic_points_params, per_axis)')
        call put(off(c_loc(v8%n), c_loc(v8)), 'offsetof(tbrf_ic_points_params, n)')
        call put(off(c_loc(v8%box), c_loc(v8)), 'offsetof(tbrf_ic_points_params, box)')
        call put(off(c_loc(v8%jitter), c_loc(v8)), 'offsetof(tbrf_ic_points_params, jitter)')
        call put(off(c_loc(v8%seed), c_loc(v8)), 'offsetof(tbrf_ic_points_params, seed)')
        call put(off(c_loc(v8%realization), c_loc(v8)), 'offsetof(tbrf_ic_points_params, realization)')
        call put(int(c_sizeof(v9), c_int64_t), 'sizeof(tbrf_ic_density_params)')
        call put(off(c_loc(v9%kind), c_loc(v9)), 'offsetof(tbrf_ic_density_params, kind)')
        call put(off(c_loc(v9%reserved), c_loc(v9)), 'offsetof(tbrf_ic_density_params, reserved)')
        call put(off(c_loc(v9%rho_mean), c_loc(v9)), 'offsetof(tbrf_ic_density_params, rho_mean)')
        call put(off(c_loc(v9%sigma), c_loc(v9)), 'offsetof(tbrf_ic_density_params, sigma)')
        call put(off(c_loc(v9%rho_floor), c_loc(v9)), 'offsetof(tbrf_ic_density_params, rho_floor)')
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
