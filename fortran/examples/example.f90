! example.f90 — the complete example of doc/fortran.md, compiled and run by
! ctest (fortran_example) so the documentation cannot rot.
!
! A hydro-style caller: a Kolmogorov-like forcing field on a 32^3 grid, then
! at cells that move every step (re-evaluated each step, the plan reused),
! then the same cells streamed through callbacks.

! Callbacks are ordinary Fortran functions with bind(C) interfaces; their
! user data arrives as type(c_ptr). Keep them in a module.
module cells_io
    use tbrf
    implicit none
    type :: cells_t
        real(c_double), allocatable :: xyz(:, :)   ! (3, ncell) positions
        real(c_double), allocatable :: force(:)    ! values received
    end type cells_t
contains
    !> Hands the library up to `max` positions from cell `first` (0-based).
    integer(c_int) function pull_cells(user, first, max, xyz, count) bind(C)
        type(c_ptr), value :: user
        integer(c_int64_t), value :: first, max
        real(c_double) :: xyz(*)
        integer(c_int64_t), intent(out) :: count
        type(cells_t), pointer :: c
        integer(c_int64_t) :: i
        call c_f_pointer(user, c)
        count = min(max, size(c%xyz, 2, kind=c_int64_t) - first)
        do i = 1, count
            xyz(3 * i - 2:3 * i) = c%xyz(:, first + i)
        end do
        pull_cells = 0                     ! non-zero would abort the run
    end function pull_cells

    !> Receives `count` values for the cells from `first` on.
    integer(c_int) function push_force(user, first, count, values) bind(C)
        type(c_ptr), value :: user
        integer(c_int64_t), value :: first, count
        type(c_ptr), value :: values
        type(cells_t), pointer :: c
        real(c_double), pointer :: v(:)
        call c_f_pointer(user, c)
        call c_f_pointer(values, v, [count])  ! real(c_float) if opts%precision = TBRF_FLOAT
        c%force(first + 1:first + count) = v
        push_force = 0
    end function push_force
end module cells_io

program example
    use tbrf
    use cells_io
    implicit none
    integer, parameter :: n = 32, ncell = 2000, nstep = 5
    real(c_double), parameter :: box = n - 1, dt = 0.01_c_double
    type(tbrf_model) :: model
    type(tbrf_plan) :: plan
    type(tbrf_opts) :: opts
    real(c_double), allocatable :: field(:, :, :)
    real(c_double), allocatable, target :: xyz(:, :)      ! target: set_points keeps its address
    real(c_double), allocatable :: vel(:, :), force(:), previous(:), first_force(:), start(:, :)
    type(cells_t), target :: cells
    integer :: stat, step, i
    real(c_double) :: dmax

    ! Style 1, no stat: a failure prints "tbrf: <routine>: <status>: <detail>"
    ! to error_unit and stops. Fine for set-up code.
    call tbrf_model_powerlaw(model, -11.0_c_double / 3, 0.1_c_double, 2.0_c_double)
    call tbrf_model_set_variance(model, 0.25_c_double)
    call tbrf_default_opts(opts)
    opts%lines = 512
    call tbrf_make_plan(plan, model, 3, lo=[0d0, 0d0, 0d0], hi=[box, box, box], &
                        resolution=1d0, seed=2026, opts=opts)
    call tbrf_model_destroy(model)          ! the plan keeps its own copy

    ! A grid: field(i,j,k) is the cell at origin + spacing*(i-1,j-1,k-1),
    ! the same memory as C's field[k][j][i].
    allocate(field(n, n, n))
    call tbrf_set_grid(plan, origin=[0d0, 0d0, 0d0], spacing=[1d0, 1d0, 1d0], n=[n, n, n])
    call tbrf_execute(plan, 0, field)
    write(*, '(a, f7.4, a)') 'grid mean square ', sum(field**2) / size(field), ' (target variance 0.25)'

    ! Style 2, with stat: the caller decides. A hydro loop: cells move every
    ! step and the forcing is re-evaluated there. set_points does not copy
    ! xyz, so moving the cells and calling it again costs a bounds check; the
    ! lines of realization 0 are reused.
    allocate(xyz(3, ncell), vel(3, ncell), force(ncell), previous(ncell), first_force(ncell))
    do i = 1, ncell
        xyz(:, i) = 1 + (box - 2) * [mod(i * 0.6180339887d0, 1d0), mod(i * 0.7548776662d0, 1d0), &
                                     mod(i * 0.5698402910d0, 1d0)]
        vel(:, i) = [sin(i * 1d0), cos(i * 1d0), sin(i * 0.5d0)]
    end do
    allocate(start, source=xyz)
    do step = 1, nstep
        call tbrf_set_points(plan, xyz, stat)
        if (stat == TBRF_OK) call tbrf_execute(plan, 0, force, stat)
        if (stat /= TBRF_OK) then
            write(*, '(a)') 'tbrf: ' // tbrf_strerror(stat) // ': ' // tbrf_plan_message(plan)
            call tbrf_destroy(plan)
            error stop 1
        end if
        if (step == 1) then
            first_force = force
        else
            ! The field is continuous: a small move changes the values a little.
            dmax = maxval(abs(force - previous))
            write(*, '(a, i0, a, es10.3)') 'step ', step, ': largest change of a cell value ', dmax
            if (dmax > 0.1d0 .or. .not. dmax > 0) error stop 'field not continuous in position'
        end if
        previous = force
        xyz = xyz + dt * vel      ! move (a real code applies its boundaries here)
    end do

    ! Streaming: the library pulls positions and pushes values in chunks.
    ! Back at their first positions the cells get their first values, bit
    ! for bit.
    cells%xyz = start
    allocate(cells%force(ncell))
    call tbrf_execute_stream(plan, 0, pull_cells, push_force, c_loc(cells), stat)
    if (stat /= TBRF_OK) error stop 'stream failed'
    if (any(transfer(cells%force, [0_c_int64_t]) /= transfer(first_force, [0_c_int64_t]))) &
        error stop 'streamed values differ from set_points + execute'
    write(*, '(a, f8.4)') 'streamed cells agree; last cell value ', cells%force(ncell)
    call tbrf_destroy(plan)
    deallocate(field, xyz, vel, force, previous, first_force, start)   ! main-program arrays are
    deallocate(cells%xyz, cells%force)                                 ! never freed otherwise
end program example
