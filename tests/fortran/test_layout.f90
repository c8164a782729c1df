! test_layout.f90 — the bind(C) types of module tbrf_c against the C structs:
! sizeof and the offset of every field, as the C compiler lays out the
! current tbrf.h (layout_c.c, generated at build time) and as the committed
! Fortran types do (layout_f.f90), must agree entry by entry, so a field
! added, removed, retyped or reordered on one side only fails here.
program test_layout
    use, intrinsic :: iso_c_binding
    use tbrf
    use layout_f
    implicit none
    interface
        function tbrf_ftest_layout(out) bind(C)
            import :: c_int, c_int64_t
            integer(c_int64_t), intent(out) :: out(*)
            integer(c_int) :: tbrf_ftest_layout
        end function tbrf_ftest_layout
        subroutine tbrf_ftest_default_opts(o) bind(C)
            import :: tbrf_opts
            type(tbrf_opts), intent(out) :: o
        end subroutine tbrf_ftest_default_opts
    end interface
    type(tbrf_opts) :: o, od
    integer(c_int64_t) :: c(1024), f(1024)
    character(len=64) :: name(1024)
    integer :: nc, nf, k, fails

    fails = 0
    nc = tbrf_ftest_layout(c)
    call fortran_layout(f, name, nf)
    if (nc /= nf) then
        write(*, '(a, i0, a, i0, a)') 'FAIL: C has ', nc, ' sizes/offsets, Fortran ', nf, &
            ' (regenerate fortran/tbrf_c.f90 and tests/fortran/layout_f.f90)'
        fails = fails + 1
    end if
    do k = 1, min(nc, nf)
        if (c(k) /= f(k)) then
            write(*, '(a, i0, a, i0)') 'FAIL: ' // trim(name(k)) // ': C ', c(k), ', Fortran ', f(k)
            fails = fails + 1
        end if
    end do
    ! The fields read through the Fortran type hold what C wrote.
    call tbrf_ftest_default_opts(od)
    call tbrf_default_opts(o)
    if (od%lines /= 0 .or. od%oversampling /= 4 .or. od%chunk /= 0) then
        write(*, '(a)') 'FAIL: default options read through the Fortran type are wrong'
        fails = fails + 1
    end if
    if (any(transfer(o, [0_c_int8_t]) /= transfer(od, [0_c_int8_t]))) then
        write(*, '(a)') 'FAIL: tbrf_default_opts from Fortran differs from C'
        fails = fails + 1
    end if
    if (fails /= 0) error stop 1
    write(*, '(a, i0, a)') 'layout: ', nc, ' sizes and offsets agree'
end program test_layout
