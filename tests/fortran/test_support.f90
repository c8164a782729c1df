! test_support.f90 — what the Fortran tests share: the count of failed
! checks, check() to record one, and finish() to report the count and stop
! with a non-zero status if any failed.
module test_support
    implicit none
    private
    public :: check, finish
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
