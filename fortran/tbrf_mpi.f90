! tbrf_mpi.f90 — module tbrf_mpi: the MPI layer (include/tbrf_mpi.h,
! libtbrf_mpi) for Fortran codes, in library tbrf_fortran_mpi (built when
! the MPI layer and MPI's Fortran bindings are found; doc/fortran.md,
! "Under MPI"). Each call takes the code's own communicator, either as
! the `mpi` module's integer handle or as mpi_f08's type(MPI_Comm), and is
! collective over it where the C function is. Starts are zero-based, as
! tbrf_set_subgrid's. Every procedure takes an optional `stat`: without
! it a failure is an error stop with the message.
module tbrf_mpi
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: error_unit
    use mpi_f08, only: MPI_Comm
    use tbrf
    implicit none
    private
    public :: tbrf_mpi_split_grid, tbrf_mpi_split_points, tbrf_mpi_agree
    public :: tbrf_mpi_fft_split_grid, tbrf_mpi_fft_stream, tbrf_mpi_ic_split
    public :: tbrf_ic_cosmo_generate_mpi, tbrf_ic_zoom_make_mpi

    !> tbrf_mpi_split_grid(comm, dim, n(3), start(3), count(3), first[, stat]):
    !> this rank's slab of the grid of n cells (the slowest axis split into
    !> near-equal ranges; count(slow axis) = 0 beyond the planes), start
    !> and count for tbrf_set_subgrid, first the global number of its
    !> first cell (x fastest).
    interface tbrf_mpi_split_grid
        module procedure split_grid_i, split_grid_f08
    end interface
    !> tbrf_mpi_split_points(comm, n, first, count[, stat]): this rank's
    !> rows first .. first + count - 1 of n points.
    interface tbrf_mpi_split_points
        module procedure split_points_i, split_points_f08
    end interface
    !> tbrf_mpi_agree(comm, status): the worst status of all ranks
    !> (TBRF_OK when every rank passes TBRF_OK); collective.
    interface tbrf_mpi_agree
        module procedure agree_i, agree_f08
    end interface
    !> tbrf_mpi_fft_split_grid(comm, dim, n(3), start(3), count(3), first[, stat]):
    !> this rank's slab under tbrf_mpi_fft_stream (FFTW-MPI's block split).
    interface tbrf_mpi_fft_split_grid
        module procedure fft_split_grid_i, fft_split_grid_f08
    end interface
    !> tbrf_mpi_fft_stream(comm, plan, n(3), precision, vector, realization,
    !> step, push[, user][, stat]): realization of the FFT method's field on
    !> the plan's whole grid n as one distributed transform, each rank
    !> pushing its slab's cells (push: a bind(C) function with the
    !> interface tbrf_push_fn); the message on the plan of the rank that
    !> failed (tbrf_plan_message).
    interface tbrf_mpi_fft_stream
        module procedure fft_stream_i, fft_stream_f08
    end interface
    !> tbrf_mpi_ic_split(comm, particles, files, z0, planes, member0,
    !> members, bounds(0:files)[, stat]): this rank's z planes z0 ..
    !> z0 + planes - 1 of the lattice and its members member0 .. member0 +
    !> members - 1 of a set of `files` (member f holds the rows bounds(f) ..
    !> bounds(f + 1) - 1, the same bounds on every rank).
    interface tbrf_mpi_ic_split
        module procedure ic_split_i, ic_split_f08
    end interface
    !> tbrf_ic_cosmo_generate_mpi(comm, ic, files, push[, user][, stat]):
    !> the particles of ic (tbrf_ic_cosmo_make_slab with this rank's planes
    !> and largest member, the same params on every rank) in `files`
    !> chunks, each rank pushing the chunks of its own members in order;
    !> the serial tbrf_ic_cosmo_generate's particles up to the distributed
    !> transform's rounding (doc/mpi.md). The status is the worst of all
    !> ranks'; the message on ic of the rank that failed.
    interface tbrf_ic_cosmo_generate_mpi
        module procedure ic_generate_i, ic_generate_f08
    end interface
    !> tbrf_ic_zoom_make_mpi(comm, zoom, parent, region[, ids][, power][, stat][, power_gas]):
    !> the zoom of tbrf_ic_zoom_make (module tbrf; the same arguments on
    !> every rank) with each level's IC made over the ranks, a slab of its
    !> planes each; rank 0's zoom holds every particle, in the serial
    !> order, the others' the same info and none; each particle the serial
    !> zoom's within the distributed transform's rounding (doc/mpi.md).
    !> lpt 1 to 3, not fixed amplitudes. On failure `zoom` keeps the C
    !> object for tbrf_ic_zoom_message (the rank that failed has it).
    interface tbrf_ic_zoom_make_mpi
        module procedure zoom_make_i, zoom_make_f08
    end interface

    interface
        function c_split_grid(comm, dim, n, start, count, first) bind(C, name="tbrf_mpi_f_split_grid")
            import
            integer(c_int) :: c_split_grid
            integer(c_int), value :: comm, dim
            integer(c_int64_t), intent(in) :: n(3)
            integer(c_int64_t), intent(out) :: start(3), count(3), first
        end function c_split_grid
        function c_split_points(comm, n, first, count) bind(C, name="tbrf_mpi_f_split_points")
            import
            integer(c_int) :: c_split_points
            integer(c_int), value :: comm
            integer(c_int64_t), value :: n
            integer(c_int64_t), intent(out) :: first, count
        end function c_split_points
        function c_agree(comm, status) bind(C, name="tbrf_mpi_f_agree")
            import
            integer(c_int) :: c_agree
            integer(c_int), value :: comm, status
        end function c_agree
        function c_fft_split_grid(comm, dim, n, start, count, first) &
                bind(C, name="tbrf_mpi_f_fft_split_grid")
            import
            integer(c_int) :: c_fft_split_grid
            integer(c_int), value :: comm, dim
            integer(c_int64_t), intent(in) :: n(3)
            integer(c_int64_t), intent(out) :: start(3), count(3), first
        end function c_fft_split_grid
        function c_fft_stream(comm, plan, n, precision, vector, realization, step, push, user) &
                bind(C, name="tbrf_mpi_f_fft_stream")
            import
            integer(c_int) :: c_fft_stream
            integer(c_int), value :: comm, precision, vector
            type(c_ptr), value :: plan, user
            integer(c_int64_t), intent(in) :: n(3)
            integer(c_int64_t), value :: realization, step
            type(c_funptr), value :: push
        end function c_fft_stream
        function c_ic_split(comm, particles, files, z0, planes, member0, members, bounds) &
                bind(C, name="tbrf_mpi_f_ic_split")
            import
            integer(c_int) :: c_ic_split
            integer(c_int), value :: comm, files
            integer(c_int64_t), value :: particles
            integer(c_int64_t), intent(out) :: z0, planes
            integer(c_int), intent(out) :: member0, members
            integer(c_int64_t), intent(out) :: bounds(*)
        end function c_ic_split
        function c_ic_generate(comm, ic, files, push, user) bind(C, name="tbrf_mpi_f_ic_cosmo_generate")
            import
            integer(c_int) :: c_ic_generate
            integer(c_int), value :: comm, files
            type(c_ptr), value :: ic, user
            type(c_funptr), value :: push
        end function c_ic_generate
        function c_zoom_make(comm, parent, zoom, out) bind(C, name="tbrf_mpi_f_ic_zoom_make")
            import
            integer(c_int) :: c_zoom_make
            integer(c_int), value :: comm
            type(c_ptr), value :: parent, zoom
            type(c_ptr), intent(out) :: out
        end function c_zoom_make
    end interface

contains

    !> stat = st, or on failure without stat an error stop with the message.
    subroutine done(st, where, detail, stat)
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: where, detail
        integer, intent(out), optional :: stat
        if (present(stat)) then
            stat = st
        else if (st /= TBRF_OK) then
            if (len(detail) > 0) then
                write(error_unit, '(a)') 'tbrf: ' // where // ': ' // tbrf_strerror(st) // ': ' // detail
            else
                write(error_unit, '(a)') 'tbrf: ' // where // ': ' // tbrf_strerror(st)
            end if
            error stop 1
        end if
    end subroutine done

    subroutine split_grid_i(comm, dim, n, start, count, first, stat)
        integer, intent(in) :: comm, dim
        integer(c_int64_t), intent(in) :: n(3)
        integer(c_int64_t), intent(out) :: start(3), count(3), first
        integer, intent(out), optional :: stat
        call done(c_split_grid(int(comm, c_int), int(dim, c_int), n, start, count, first), &
                  "tbrf_mpi_split_grid", "", stat)
    end subroutine split_grid_i

    subroutine split_grid_f08(comm, dim, n, start, count, first, stat)
        type(MPI_Comm), intent(in) :: comm
        integer, intent(in) :: dim
        integer(c_int64_t), intent(in) :: n(3)
        integer(c_int64_t), intent(out) :: start(3), count(3), first
        integer, intent(out), optional :: stat
        call split_grid_i(comm%MPI_VAL, dim, n, start, count, first, stat)
    end subroutine split_grid_f08

    subroutine split_points_i(comm, n, first, count, stat)
        integer, intent(in) :: comm
        integer(c_int64_t), intent(in) :: n
        integer(c_int64_t), intent(out) :: first, count
        integer, intent(out), optional :: stat
        call done(c_split_points(int(comm, c_int), n, first, count), "tbrf_mpi_split_points", "", stat)
    end subroutine split_points_i

    subroutine split_points_f08(comm, n, first, count, stat)
        type(MPI_Comm), intent(in) :: comm
        integer(c_int64_t), intent(in) :: n
        integer(c_int64_t), intent(out) :: first, count
        integer, intent(out), optional :: stat
        call split_points_i(comm%MPI_VAL, n, first, count, stat)
    end subroutine split_points_f08

    integer function agree_i(comm, status) result(worst)
        integer, intent(in) :: comm, status
        worst = c_agree(int(comm, c_int), int(status, c_int))
    end function agree_i

    integer function agree_f08(comm, status) result(worst)
        type(MPI_Comm), intent(in) :: comm
        integer, intent(in) :: status
        worst = agree_i(comm%MPI_VAL, status)
    end function agree_f08

    subroutine fft_split_grid_i(comm, dim, n, start, count, first, stat)
        integer, intent(in) :: comm, dim
        integer(c_int64_t), intent(in) :: n(3)
        integer(c_int64_t), intent(out) :: start(3), count(3), first
        integer, intent(out), optional :: stat
        call done(c_fft_split_grid(int(comm, c_int), int(dim, c_int), n, start, count, first), &
                  "tbrf_mpi_fft_split_grid", "", stat)
    end subroutine fft_split_grid_i

    subroutine fft_split_grid_f08(comm, dim, n, start, count, first, stat)
        type(MPI_Comm), intent(in) :: comm
        integer, intent(in) :: dim
        integer(c_int64_t), intent(in) :: n(3)
        integer(c_int64_t), intent(out) :: start(3), count(3), first
        integer, intent(out), optional :: stat
        call fft_split_grid_i(comm%MPI_VAL, dim, n, start, count, first, stat)
    end subroutine fft_split_grid_f08

    subroutine fft_stream_i(comm, plan, n, precision, vector, realization, step, push, user, stat)
        integer, intent(in) :: comm, precision, vector
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: n(3), realization, step
        procedure(tbrf_push_fn) :: push
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        type(c_ptr) :: u
        integer(c_int) :: st
        u = c_null_ptr
        if (present(user)) u = user
        st = c_fft_stream(int(comm, c_int), plan%ptr, n, int(precision, c_int), int(vector, c_int), &
                          realization, step, c_funloc(push), u)
        call done(st, "tbrf_mpi_fft_stream", tbrf_plan_message(plan), stat)
    end subroutine fft_stream_i

    subroutine fft_stream_f08(comm, plan, n, precision, vector, realization, step, push, user, stat)
        type(MPI_Comm), intent(in) :: comm
        integer, intent(in) :: precision, vector
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: n(3), realization, step
        procedure(tbrf_push_fn) :: push
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        call fft_stream_i(comm%MPI_VAL, plan, n, precision, vector, realization, step, push, user, stat)
    end subroutine fft_stream_f08

    subroutine ic_split_i(comm, particles, files, z0, planes, member0, members, bounds, stat)
        integer, intent(in) :: comm, files
        integer(c_int64_t), intent(in) :: particles
        integer(c_int64_t), intent(out) :: z0, planes
        integer, intent(out) :: member0, members
        integer(c_int64_t), intent(out), contiguous :: bounds(:)
        integer, intent(out), optional :: stat
        integer(c_int) :: m0, m
        if (size(bounds) < files + 1) then
            call done(TBRF_ERR_SIZE, "tbrf_mpi_ic_split", "bounds must hold files + 1 values", stat)
            return
        end if
        call done(c_ic_split(int(comm, c_int), particles, int(files, c_int), z0, planes, m0, m, bounds), &
                  "tbrf_mpi_ic_split", "", stat)
        member0 = m0
        members = m
    end subroutine ic_split_i

    subroutine ic_split_f08(comm, particles, files, z0, planes, member0, members, bounds, stat)
        type(MPI_Comm), intent(in) :: comm
        integer, intent(in) :: files
        integer(c_int64_t), intent(in) :: particles
        integer(c_int64_t), intent(out) :: z0, planes
        integer, intent(out) :: member0, members
        integer(c_int64_t), intent(out), contiguous :: bounds(:)
        integer, intent(out), optional :: stat
        call ic_split_i(comm%MPI_VAL, particles, files, z0, planes, member0, members, bounds, stat)
    end subroutine ic_split_f08

    subroutine ic_generate_i(comm, ic, files, push, user, stat)
        integer, intent(in) :: comm, files
        type(tbrf_ic_cosmo), intent(inout) :: ic
        procedure(tbrf_ic_push_fn) :: push
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        type(c_ptr) :: u
        integer(c_int) :: st
        u = c_null_ptr
        if (present(user)) u = user
        st = c_ic_generate(int(comm, c_int), ic%ptr, int(files, c_int), c_funloc(push), u)
        call done(st, "tbrf_ic_cosmo_generate_mpi", tbrf_ic_cosmo_message(ic), stat)
    end subroutine ic_generate_i

    subroutine ic_generate_f08(comm, ic, files, push, user, stat)
        type(MPI_Comm), intent(in) :: comm
        integer, intent(in) :: files
        type(tbrf_ic_cosmo), intent(inout) :: ic
        procedure(tbrf_ic_push_fn) :: push
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        call ic_generate_i(comm%MPI_VAL, ic, files, push, user, stat)
    end subroutine ic_generate_f08

    subroutine zoom_make_i(comm, zoom, parent, region, ids, power, stat, power_gas)
        integer, intent(in) :: comm
        type(tbrf_ic_zoom), intent(inout) :: zoom
        type(tbrf_ic_cosmo_params), intent(in) :: parent
        type(tbrf_ic_zoom_params), intent(in) :: region
        integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
        type(tbrf_model), intent(in), optional :: power
        integer, intent(out), optional :: stat
        type(tbrf_model), intent(in), optional :: power_gas
        type(tbrf_ic_cosmo_params), target :: p
        type(tbrf_ic_zoom_params), target :: z
        integer(c_int) :: st
        call tbrf_ic_zoom_destroy(zoom)
        p = parent
        if (present(power)) p%power = power%ptr
        if (present(power_gas)) p%power_gas = power_gas%ptr
        z = region
        if (present(ids)) then
            z%ids = c_loc(ids)
            z%n_ids = size(ids, kind=c_int64_t)
        end if
        st = c_zoom_make(int(comm, c_int), c_loc(p), c_loc(z), zoom%ptr)
        call done(st, "tbrf_ic_zoom_make_mpi", tbrf_ic_zoom_message(zoom), stat)
    end subroutine zoom_make_i

    subroutine zoom_make_f08(comm, zoom, parent, region, ids, power, stat, power_gas)
        type(MPI_Comm), intent(in) :: comm
        type(tbrf_ic_zoom), intent(inout) :: zoom
        type(tbrf_ic_cosmo_params), intent(in) :: parent
        type(tbrf_ic_zoom_params), intent(in) :: region
        integer(c_int64_t), intent(in), target, contiguous, optional :: ids(:)
        type(tbrf_model), intent(in), optional :: power
        integer, intent(out), optional :: stat
        type(tbrf_model), intent(in), optional :: power_gas
        ! an absent contiguous ids passed on is read by gfortran's contiguity
        ! check (a null descriptor, UBSan): pass it only when present
        if (present(ids)) then
            call zoom_make_i(comm%MPI_VAL, zoom, parent, region, ids, power, stat, power_gas)
        else
            call zoom_make_i(comm%MPI_VAL, zoom, parent, region, power=power, stat=stat, &
                             power_gas=power_gas)
        end if
    end subroutine zoom_make_f08
end module tbrf_mpi
