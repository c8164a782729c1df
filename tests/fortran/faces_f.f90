! faces_f.f90 — the Fortran face of test faces_bitwise (python/tests/faces_bitwise.py):
! the cases that script also makes through `tbrf generate` and tbrf.Field,
! through module tbrf as a simulation code calls it (the domain and the
! resolution given, the options left at tbrf_default_opts unless the case
! sets them), each written as raw doubles to DIR/NAME.f.raw for the script
! to compare byte for byte. The points are the script's, read from
! DIR/points2.raw and DIR/points3.raw (x, y[, z] per point, doubles).
!
!   faces_f DIR
program faces_f
    use tbrf
    implicit none
    character(len=4096) :: dir
    integer :: nargs
    nargs = command_argument_count()
    if (nargs /= 1) then
        write(*, '(a)') 'usage: faces_f DIR'
        stop 2
    end if
    call get_command_argument(1, dir)
    ! grids: name, dim, n, spacing, vector kind, lines (0: the default), oversampling
    call grid_case('g3s', 'powerlaw', 3, [48_c_int64_t, 48_c_int64_t, 48_c_int64_t], &
                   [1d0, 1d0, 1d0], TBRF_SCALAR, 0, 0)
    call grid_case('g3v', 'gaussian', 3, [44_c_int64_t, 44_c_int64_t, 44_c_int64_t], &
                   [1d0, 1d0, 1d0], TBRF_VECTOR_SOLENOIDAL, 0, 0)
    call grid_case('g2s', 'matern', 2, [1200_c_int64_t, 16_c_int64_t, 1_c_int64_t], &
                   [1d0, 1d0, 1d0], TBRF_SCALAR, 0, 0)
    call grid_case('g2v', 'gaussian', 2, [1300_c_int64_t, 12_c_int64_t, 1_c_int64_t], &
                   [1d0, 1d0, 1d0], TBRF_VECTOR_COMPRESSIVE, 0, 0)
    call grid_case('g3e', 'powerlaw', 3, [32_c_int64_t, 24_c_int64_t, 20_c_int64_t], &
                   [0.5d0, 0.5d0, 0.5d0], TBRF_SCALAR, 300, 2)
    ! points: name, dim, domain side, resolution, vector kind, lines
    call points_case('p3s', 'gaussian', 3, 20d0, 0.5d0, TBRF_SCALAR, 0)
    call points_case('p2v', 'gaussian', 2, 30d0, 0.4d0, TBRF_VECTOR_SOLENOIDAL, 500)
contains

    ! The models of the cases, by kind name as the command and Python take them.
    subroutine make_model(model, kind)
        type(tbrf_model), intent(out) :: model
        character(len=*), intent(in) :: kind
        select case (kind)
        case ('powerlaw')
            call tbrf_model_make(model, kind, index=-3d0, kmin=0.05d0, kmax=3d0)
        case ('matern')
            call tbrf_model_make(model, kind, length=4d0, nu=1.5d0)
        case default
            call tbrf_model_make(model, kind, length=3d0)
        end select
    end subroutine make_model

    subroutine put(name, values)
        character(len=*), intent(in) :: name
        real(c_double), intent(in) :: values(:)
        integer :: u
        open(newunit=u, file=trim(dir) // '/' // name // '.f.raw', access='stream', &
             form='unformatted', status='replace', action='write')
        write(u) values
        close(u)
    end subroutine put

    subroutine grid_case(name, kind, dim, n, h, vector, lines, oversampling)
        character(len=*), intent(in) :: name, kind
        integer, intent(in) :: dim, vector, lines, oversampling
        integer(c_int64_t), intent(in) :: n(3)
        real(c_double), intent(in) :: h(3)
        type(tbrf_model) :: model
        type(tbrf_plan) :: plan
        type(tbrf_opts) :: opts
        real(c_double) :: lo(3), hi(3)
        real(c_double), allocatable :: values(:)
        integer :: ncomp
        call make_model(model, kind)
        call tbrf_default_opts(opts)
        opts%vector = vector
        if (lines > 0) opts%lines = lines
        if (oversampling > 0) opts%oversampling = oversampling
        ! the domain of the grid's cells and its finest spacing, as a code
        ! that owns the grid gives them
        lo = 0
        hi = h * real(n - 1, c_double)
        call tbrf_make_plan(plan, model, dim, lo, hi, minval(h(1:dim)), 1_c_int64_t, opts)
        call tbrf_set_grid(plan, [0d0, 0d0, 0d0], h, n)
        ncomp = 1
        if (vector /= TBRF_SCALAR) ncomp = dim
        allocate(values(product(n) * ncomp))
        call tbrf_execute(plan, 0_c_int64_t, values)
        call put(name, values)
        call tbrf_destroy(plan)
        call tbrf_model_destroy(model)
    end subroutine grid_case

    subroutine points_case(name, kind, dim, side, resolution, vector, lines)
        character(len=*), intent(in) :: name, kind
        integer, intent(in) :: dim, vector, lines
        real(c_double), intent(in) :: side, resolution
        type(tbrf_model) :: model
        type(tbrf_plan) :: plan
        type(tbrf_opts) :: opts
        real(c_double), allocatable :: xyz(:, :), values(:)
        integer(c_int64_t) :: bytes, np
        integer :: u, ncomp
        character(len=1) :: d
        write(d, '(i1)') dim
        open(newunit=u, file=trim(dir) // '/points' // d // '.raw', access='stream', &
             form='unformatted', status='old', action='read')
        inquire(unit=u, size=bytes)
        np = bytes / (8 * dim)
        allocate(xyz(dim, np))
        read(u) xyz
        close(u)
        call make_model(model, kind)
        call tbrf_default_opts(opts)
        opts%vector = vector
        if (lines > 0) opts%lines = lines
        call tbrf_make_plan(plan, model, dim, [0d0, 0d0, 0d0], [side, side, side], resolution, &
                            1_c_int64_t, opts)
        call tbrf_set_points(plan, xyz)
        ncomp = 1
        if (vector /= TBRF_SCALAR) ncomp = dim
        allocate(values(np * ncomp))
        call tbrf_execute(plan, 0_c_int64_t, values)
        call put(name, values)
        call tbrf_destroy(plan)
        call tbrf_model_destroy(model)
    end subroutine points_case
end program faces_f
