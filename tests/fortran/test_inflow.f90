! test_inflow.f90 — the inflow-boundary sampler from Fortran:
! a wind along z fills a ghost block values(nx, ny, ng) at several times;
! the values equal, bit for bit, tbrf_execute of a plan made with the same
! arguments at the cells shifted by -v t (as in C, tests/core/test_inflow.c);
! fill at points equals fill_grid; float lines agree to float rounding; the
! windows hold less than the plan's lines; a time past the tube's end is
! refused with TBRF_ERR_OUT_OF_DOMAIN and leaves the values alone; the
! lognormal density is rho_w exp(sigma delta - sigma^2/2). A sampler
! periodic in x and y (tbrf_inflow_create_periodic) fills a block twice the
! box wide: its values repeat with the period to rounding and equal, bit for
! bit, the periodic plan of the header's description at x - v t.
program test_inflow
    use tbrf
    use test_support
    implicit none
    integer, parameter :: nx = 10, ny = 8, ng = 2, n = nx * ny * ng
    type(tbrf_model) :: model
    type(tbrf_plan) :: plan
    type(tbrf_inflow) :: inflow, inflow_f
    type(tbrf_opts) :: opts
    real(c_double) :: lo(3), hi(3), v(3), t, ref(n), pts(n)
    real(c_double) :: rho(nx, ny, ng), rhof(nx, ny, ng), dens(nx, ny, ng)
    real(c_double), target :: xyz(3, n), shifted(3, n)
    real(c_double), parameter :: t_end = 80
    integer :: i, j, k, q, step, st
    logical :: same
    type(tbrf_inflow) :: periodic
    type(tbrf_plan) :: pplan
    real(c_double) :: wide(2 * nx, ny, ng), wref(2 * nx * ny * ng), len3
    real(c_double), target :: wxyz(3, 2 * nx * ny * ng)

    call tbrf_model_powerlaw(model, -3.9_c_double, 0.05_c_double, 2._c_double)
    call tbrf_default_opts(opts)
    opts%lines = 96
    v = [0.05_c_double, 0._c_double, 1.5_c_double]
    ! ghost cells z = 200, 201 over x = 0..9, y = 0..7
    call tbrf_inflow_tube(3, [0._c_double, 0._c_double, 200._c_double], &
                          [nx - 1._c_double, ny - 1._c_double, 200._c_double + ng - 1], v, t_end, lo, hi)
    call check(abs(lo(3) - (200 - 1.5_c_double * t_end)) < 1e-9_c_double .and. &
               abs(hi(3) - 201) < 1e-9_c_double, "the tube spans the wind's path")
    call tbrf_make_plan(plan, model, 3, lo, hi, 1._c_double, 9, opts)
    call tbrf_inflow_create(inflow, model, 3, lo, hi, 1._c_double, 9, 4, v, opts=opts)
    call tbrf_inflow_create(inflow_f, model, 3, lo, hi, 1._c_double, 9, 4, v, TBRF_FLOAT, opts)
    q = 0
    do k = 0, ng - 1
        do j = 0, ny - 1
            do i = 0, nx - 1
                q = q + 1
                xyz(:, q) = [real(i, c_double), real(j, c_double), 200._c_double + k]
            end do
        end do
    end do
    same = .true.
    do step = 0, 4
        t = step * 0.25_c_double * t_end
        call tbrf_inflow_fill_grid(inflow, t, [0._c_double, 0._c_double, 200._c_double], &
                                   [1._c_double, 1._c_double, 1._c_double], rho)
        do q = 1, n
            shifted(:, q) = xyz(:, q) - v * t
        end do
        call tbrf_set_points(plan, shifted)
        call tbrf_execute(plan, 4, ref)
        same = same .and. all(transfer(rho, [0_c_int64_t]) == transfer(ref, [0_c_int64_t]))
        call tbrf_inflow_fill(inflow, t, xyz, pts)
        same = same .and. all(transfer(pts, [0_c_int64_t]) == transfer(ref, [0_c_int64_t]))
    end do
    call check(same, "inflow values equal the plan's at x - v t, bit for bit, by fill_grid and fill")
    call tbrf_inflow_fill_grid(inflow_f, t_end, [0._c_double, 0._c_double, 200._c_double], &
                               [1._c_double, 1._c_double, 1._c_double], rhof)
    call check(maxval(abs(rhof - rho)) <= 1e-6_c_double * sqrt(sum(rho**2) / n) &
               .and. maxval(abs(rhof - rho)) > 0, "float lines agree to float rounding")
    call check(tbrf_inflow_line_bytes(inflow) < tbrf_inflow_line_bytes(inflow, full=.true.), &
               "the windows hold less than the plan's lines")
    call check(2 * tbrf_inflow_line_bytes(inflow_f) == tbrf_inflow_line_bytes(inflow), &
               "float windows take half the bytes")
    rhof = -1
    call tbrf_inflow_fill_grid(inflow, 2 * t_end, [0._c_double, 0._c_double, 200._c_double], &
                               [1._c_double, 1._c_double, 1._c_double], rhof, stat=st)
    call check(st == TBRF_ERR_OUT_OF_DOMAIN .and. all(abs(rhof + 1) < 1e-300_c_double), &
               "past the tube's end: refused, nothing written")
    call check(index(tbrf_inflow_message(inflow), "outside the tube") > 0, "the message says where")
    call tbrf_inflow_set_density(inflow, TBRF_DENSITY_LOGNORMAL, 3._c_double, 0.5_c_double)
    call tbrf_inflow_fill_grid(inflow, t_end, [0._c_double, 0._c_double, 200._c_double], &
                               [1._c_double, 1._c_double, 1._c_double], dens)
    call check(all(transfer(dens, [0_c_int64_t]) == transfer(3 * exp(0.5_c_double * rho - 0.125_c_double), &
                                                              [0_c_int64_t])), "lognormal density")
    ! periodic across the flow: periods nx, ny; along z 2 (hi - lo) + nx
    call tbrf_inflow_create_periodic(periodic, model, 3, lo, hi, [real(nx, c_double), real(ny, c_double), &
                                     0._c_double], 1._c_double, 9, 4, v, opts)
    len3 = 2 * (hi(3) - lo(3)) + nx
    call tbrf_make_periodic_plan(pplan, model, 3, lo, [real(nx, c_double), real(ny, c_double), len3], &
                                 [nx, ny, int(ceiling(len3))], 9, opts)
    t = 0.5_c_double * t_end
    call tbrf_inflow_fill_grid(periodic, t, [0._c_double, 0._c_double, 200._c_double], &
                               [1._c_double, 1._c_double, 1._c_double], wide)
    q = 0
    do k = 0, ng - 1
        do j = 0, ny - 1
            do i = 0, 2 * nx - 1
                q = q + 1
                wxyz(:, q) = [real(i, c_double), real(j, c_double), 200._c_double + k] - v * t
            end do
        end do
    end do
    call tbrf_set_points(pplan, wxyz)
    call tbrf_execute(pplan, 4, wref)
    call check(all(transfer(wide, [0_c_int64_t]) == transfer(wref, [0_c_int64_t])), &
               "the periodic sampler's values are its periodic plan's, bit for bit")
    call check(maxval(abs(wide(1:nx, :, :) - wide(nx + 1:, :, :))) <= 1e-10_c_double * sqrt(sum(wide**2) / &
               size(wide)), "the periodic sampler repeats with the period across the flow")
    call tbrf_inflow_destroy(periodic)
    call tbrf_destroy(pplan)
    call tbrf_inflow_destroy(inflow)
    call tbrf_inflow_destroy(inflow_f)
    call tbrf_destroy(plan)
    call tbrf_model_destroy(model)
    call finish("fortran_inflow")
end program test_inflow
