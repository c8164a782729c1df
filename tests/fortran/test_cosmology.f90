! test_cosmology.f90 — the cosmology wrappers reach C with their arguments
! in place: E and D of Einstein-de Sitter in closed form, f = 1, T(0) = 1,
! sigma8 normalisation of the Eisenstein & Hu model to 1e-9 relative, and
! error statuses (stat present) for bad input.
program test_cosmology
    use tbrf
    use test_support
    implicit none
    type(tbrf_model) :: m
    real(c_double) :: e, d, f, t, s
    integer :: st
    character(len=:), allocatable :: msg

    call tbrf_cosmo_hubble(1.0_c_double, 0.0_c_double, 0.25_c_double, e)
    call check(abs(e - 8.0_c_double) < 1e-13_c_double, "EdS E(a = 1/4) = 8")
    call tbrf_cosmo_growth(1.0_c_double, 0.0_c_double, 3.0_c_double, d)
    call check(abs(d - 0.25_c_double) < 1e-13_c_double, "EdS D(z = 3) = 1/4")
    call tbrf_cosmo_growth_rate(1.0_c_double, 0.0_c_double, 3.0_c_double, f)
    call check(abs(f - 1.0_c_double) < 1e-12_c_double, "EdS f = 1")
    call tbrf_cosmo_eh_transfer(0.3_c_double, 0.05_c_double, 0.7_c_double, 2.7255_c_double, &
                                .true., 0.0_c_double, t)
    call check(abs(t - 1.0_c_double) <= 0.0_c_double, "T(0) = 1")
    call tbrf_cosmo_eh_transfer(0.3_c_double, 0.05_c_double, 0.7_c_double, 2.7255_c_double, &
                                .false., 0.1_c_double, t)
    call check(t > 0.0_c_double .and. t < 1.0_c_double, "no-wiggle T(0.1) in (0, 1)")

    call tbrf_model_eisenstein_hu(m, 0.3089_c_double, 0.0486_c_double, 0.6774_c_double, &
                                  0.9667_c_double, 2.7255_c_double, .true., 1e-4_c_double, &
                                  1e2_c_double)
    call tbrf_model_normalize_sigma(m, 8.0_c_double, 0.831_c_double)
    call tbrf_cosmo_sigma_r(m, 8.0_c_double, s)
    call check(abs(s / 0.831_c_double - 1) < 1e-9_c_double, "sigma8 normalised")
    call tbrf_model_destroy(m)

    call tbrf_cosmo_growth(-1.0_c_double, 0.0_c_double, 0.0_c_double, d, stat=st)
    call check(st == TBRF_ERR_INVALID, "omega_m < 0: TBRF_ERR_INVALID")
    call tbrf_model_eisenstein_hu(m, 0.3_c_double, 0.5_c_double, 0.7_c_double, 1.0_c_double, &
                                  2.7_c_double, .true., 1e-4_c_double, 1e2_c_double, stat=st)
    msg = tbrf_model_message(m)
    call check(st == TBRF_ERR_INVALID .and. index(msg, "omega_b=0.5") > 0, &
               "omega_b > omega_m: status and message")
    call tbrf_model_destroy(m)
    deallocate(msg) ! variables of a main program are never freed: LeakSanitizer would count it
    call finish("fortran_cosmology")
end program test_cosmology
