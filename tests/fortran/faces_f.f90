! faces_f.f90 — the Fortran face of test faces_bitwise (python/tests/faces_bitwise.py):
! the cases that script also makes through `tbrf generate` and tbrf.Field,
! read from DIR/cases.txt (the script writes one line per case, see its
! case_line), made through module tbrf as a simulation code calls it, each
! written as raw doubles to DIR/NAME.f.raw for the script to compare byte
! for byte. The options stay at tbrf_default_opts unless the case sets
! them; a domain, resolution or box's modes the case leaves out is the
! library's default, asked for as a code would (tbrf_grid_default_domain;
! tbrf_points_bounds and tbrf_points_resolution; in a periodic box
! tbrf_periodic_points_resolution and tbrf_periodic_default_modes). The points are the
! script's, read from DIR/SET.raw (x, y[, z] per point, doubles).
!
!   faces_f DIR
program faces_f
    use tbrf
    implicit none
    character(len=4096) :: dir
    character(len=16) :: name, kind, geometry, pts
    integer :: u, ios, dim, vector, lines, oversampling
    integer(c_int64_t) :: seed, realization, n(3)
    real(c_double) :: h, side, resolution, box
    if (command_argument_count() /= 1) then
        write(*, '(a)') 'usage: faces_f DIR'
        stop 2
    end if
    call get_command_argument(1, dir)
    open(newunit=u, file=trim(dir) // '/cases.txt', status='old', action='read')
    do
        read(u, *, iostat=ios) name, kind, dim, geometry, vector, lines, oversampling, seed, &
                               realization, n, h, side, resolution, box, pts
        if (ios /= 0) exit
        call run_case()
    end do
    if (.not. is_iostat_end(ios)) then
        write(*, '(a, i0)') 'faces_f: cannot read cases.txt: iostat ', ios
        stop 1
    end if
    close(u)
contains

    ! The models of the cases, by kind name as the command and Python take them.
    subroutine make_model(model)
        type(tbrf_model), intent(out) :: model
        select case (kind)
        case ('powerlaw')
            call tbrf_model_make(model, trim(kind), index=-3d0, kmin=0.05d0, kmax=3d0)
        case ('matern')
            call tbrf_model_make(model, trim(kind), length=4d0, nu=1.5d0)
        case default
            call tbrf_model_make(model, trim(kind), length=3d0)
        end select
    end subroutine make_model

    subroutine run_case()
        type(tbrf_model) :: model
        type(tbrf_plan) :: plan
        type(tbrf_opts) :: opts
        real(c_double) :: lo(3), hi(3), res, spacing(3), length(3)
        real(c_double), allocatable, target :: xyz(:, :)
        real(c_double), allocatable :: values(:)
        integer(c_int64_t) :: count, modes(3)
        integer :: ncomp
        call make_model(model)
        call tbrf_default_opts(opts)
        opts%vector = vector
        if (lines > 0) opts%lines = lines
        if (oversampling > 0) opts%oversampling = oversampling
        lo = 0
        hi = 0
        spacing = h
        if (geometry == 'grid') then
            call tbrf_grid_default_domain(dim, [0d0, 0d0, 0d0], spacing, n, lo, hi, res)
            count = product(n)
        else
            call read_points(xyz)
            count = size(xyz, 2, kind=c_int64_t)
            lo = huge(1d0)
            hi = -huge(1d0)
            call tbrf_points_bounds(xyz, lo, hi)
        end if
        if (side > 0) then
            lo = 0
            hi = side
        end if
        if (box > 0) then
            ! periodic: the box is the domain, its modes the lattice nearest
            ! the grid's spacing or the resolution
            length = box
            if (geometry /= 'grid') call tbrf_periodic_points_resolution(dim, length, count, res)
            if (resolution > 0) res = resolution
            if (geometry /= 'grid' .or. resolution > 0) spacing = res
            modes = 1
            call tbrf_periodic_default_modes(dim, length, spacing, modes)
            spacing = h
            call tbrf_make_periodic_plan(plan, model, dim, [0d0, 0d0, 0d0], length, modes, seed, &
                                         opts)
        else
            if (geometry /= 'grid') call tbrf_points_resolution(dim, count, lo, hi, res)
            if (resolution > 0) res = resolution
            call tbrf_make_plan(plan, model, dim, lo, hi, res, seed, opts)
        end if
        if (geometry == 'grid') then
            call tbrf_set_grid(plan, [0d0, 0d0, 0d0], spacing, n)
        else
            call tbrf_set_points(plan, xyz)
        end if
        ncomp = 1
        if (vector /= TBRF_SCALAR) ncomp = dim
        allocate(values(count * ncomp))
        call tbrf_execute(plan, realization, values)
        call put(values)
        call tbrf_destroy(plan)
        call tbrf_model_destroy(model)
    end subroutine run_case

    subroutine read_points(xyz)
        real(c_double), allocatable, intent(out) :: xyz(:, :)
        integer(c_int64_t) :: bytes
        integer :: v
        open(newunit=v, file=trim(dir) // '/' // trim(pts) // '.raw', access='stream', &
             form='unformatted', status='old', action='read')
        inquire(unit=v, size=bytes)
        allocate(xyz(dim, bytes / (8 * dim)))
        read(v) xyz
        close(v)
    end subroutine read_points

    subroutine put(values)
        real(c_double), intent(in) :: values(:)
        integer :: v
        open(newunit=v, file=trim(dir) // '/' // trim(name) // '.f.raw', access='stream', &
             form='unformatted', status='replace', action='write')
        write(v) values
        close(v)
    end subroutine put
end program faces_f
