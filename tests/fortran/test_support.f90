! test_support.f90 — what the Fortran tests share: the count of failed
! checks, check() to record one, finish() to report the count and stop
! with a non-zero status if any failed, and same_bits() for the bitwise
! equalities the tests assert.
module test_support
    use, intrinsic :: iso_c_binding, only: c_double, c_int64_t
    implicit none
    private
    public :: check, finish, same_bits
    !> Failed checks so far (a test may count its own failures here too).
    integer, public :: fails = 0
contains
    subroutine check(ok, what)
        logical, intent(in) :: ok
        character(len=*), intent(in) :: what
        if (.not. ok) then
            write(*, '(a)') 'FAIL: ' // what
            fails = fails + 1
        end if
    end subroutine check

    !> Whether a and b are the same double, bit for bit: what the tests mean
    !> by equal (the library promises bits, and == on reals is what
    !> -Wcompare-reals rightly flags as fragile elsewhere).
    elemental logical function same_bits(a, b)
        real(c_double), intent(in) :: a, b
        same_bits = transfer(a, 0_c_int64_t) == transfer(b, 0_c_int64_t)
    end function same_bits

    !> Ends a test: 'name: all checks passed', or the failed count and
    !> error stop 1.
    subroutine finish(name)
        character(len=*), intent(in) :: name
        if (fails /= 0) then
            write(*, '(i0, a)') fails, ' check(s) failed'
            error stop 1
        end if
        write(*, '(a)') name // ': all checks passed'
    end subroutine finish
end module test_support
