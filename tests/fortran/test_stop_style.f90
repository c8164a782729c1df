! test_stop_style.f90 — without `stat`, a failing call writes
! "tbrf: <routine>: <status>: <detail>" to error_unit and stops with a
! non-zero exit status (ctest checks both). With the argument "copy" it
! copies a plan by assignment instead, which must stop the same way.
! Reaching the end is a failure.
program test_stop_style
    use tbrf
    implicit none
    type(tbrf_model) :: m
    type(tbrf_plan) :: p, q
    character(len=8) :: arg
    call get_command_argument(1, arg)
    if (arg == 'copy') then
        call tbrf_model_gaussian(m, 1.0_c_double)
        call tbrf_make_plan(p, m, 3, [0d0, 0d0, 0d0], [1d0, 1d0, 1d0], 1d0, 1)
        q = p
    else
        call tbrf_model_gaussian(m, -1.0_c_double)
    end if
    write(*, '(a)') 'FAIL: the failing call returned'
    call tbrf_destroy(q)
end program test_stop_style
