! tbrf.f90 — the idiomatic Fortran 2008 interface to libtbrf (doc/fortran.md).
!
! Built on module tbrf_c (generated from include/tbrf.h), whose constants
! (TBRF_OK, TBRF_ERR_*, TBRF_DOUBLE, ...), bind(C) types (tbrf_opts,
! tbrf_plan_info), callback interfaces (tbrf_pull_fn, tbrf_push_fn,
! tbrf_spectrum_fn) and raw c_tbrf_* interfaces it re-exports.
!
! Conventions:
!  - every C call that returns a status is a subroutine with an optional last
!    argument `stat`. Present: it receives the status (TBRF_OK = 0) and the
!    caller reads tbrf_plan_message / tbrf_model_message. Absent: a failure
!    writes "tbrf: <routine>: <status>: <detail>" to error_unit and executes
!    `error stop`;
!  - positions are real(c_double) :: xyz(dim, n); grids are (nx, ny[, nz])
!    arrays, the same memory as C's [nz][ny][nx]; values are real(c_float) or
!    real(c_double) arrays (the kind must match opts%precision);
!  - an absent `opts` means the defaults of tbrf_default_opts;
!  - seeds and realizations are integers of default or c_int64_t kind; C's
!    uint64_t values above huge(0_c_int64_t) are the negative int64 values of
!    the same bits;
!  - tbrf_model and tbrf_plan own a C object: they have finalizers, but call
!    tbrf_model_destroy / tbrf_destroy explicitly (variables of the main
!    program are never finalized, and gfortran before 13 does not finalize
!    local variables at the end of a procedure). Do not copy them by
!    assignment: a copy would share the C object (assignment is disabled and
!    stops with a message).
module tbrf
    use, intrinsic :: iso_c_binding
    use, intrinsic :: iso_fortran_env, only: error_unit
    use tbrf_c
    implicit none
    ! Public: everything of tbrf_c (constants, bind(C) types, callback
    ! interfaces, raw c_tbrf_* calls, and the iso_c_binding kinds such as
    ! c_double) and the idiomatic layer below; private: the helpers.
    public
    private :: error_unit, c_str, finish, finish_model, finish_plan, wrapper_fail
    private :: model_assign, plan_assign, model_final, plan_final, loc_d, loc_f
    private :: make_plan_i4, make_plan_i8, set_grid_i4, set_grid_i8
    private :: set_subgrid_i4, set_subgrid_i8
    private :: make_periodic_plan_i4, make_periodic_plan_i8
    private :: exec_ptr, exec_d1_i4, exec_d2_i4, exec_d3_i4, exec_f1_i4, exec_f2_i4, exec_f3_i4
    private :: exec_d1_i8, exec_d2_i8, exec_d3_i8, exec_f1_i8, exec_f2_i8, exec_f3_i8
    private :: exec_stream_i4, exec_stream_i8, exec_grid_stream_i4, exec_grid_stream_i8, mc_params
    private :: driver_assign, driver_final, finish_driver, make_driver_i4, make_driver_i8
    private :: driver_fail, driver_clear, driver_points_d, driver_points_f, grid_args, grid_fill
    private :: grid_last_4, grid_last_3
    private :: grid_planes, grid_slab, grid_contiguous, grid_shape, shape_text, temp_fits, points_shapes
    private :: two_components
    private :: budget_bytes
    private :: grid_n4_d8, grid_n4_d4, grid_n4_f8, grid_n4_f4, grid_n3_d8, grid_n3_d4, grid_n3_f8
    private :: grid_n3_f4, grid_n1_d8, grid_n1_d4, grid_n1_f8, grid_n1_f4, grid_s4_d, grid_s4_f
    private :: grid_s3_d, grid_s3_f, grid_c3_d, grid_c3_f, grid_c2_d, grid_c2_f
    private :: inflow_assign, inflow_final, finish_inflow, inflow_create_i4, inflow_create_i8
    private :: inflow_fill_grid_2, inflow_fill_grid_3
    private :: inflow_periodic_i4, inflow_periodic_i8
    private :: ic_cosmo_assign, ic_cosmo_final, finish_ic, finish_msg, msg_buffer

    !> A model (the C tbrf_model). Not copyable.
    type :: tbrf_model
        type(c_ptr) :: ptr = c_null_ptr
    contains
        procedure, private :: model_assign
        generic :: assignment(=) => model_assign
        final :: model_final
    end type tbrf_model

    !> A plan (the C tbrf_plan) with what the wrapper needs to check arrays.
    type :: tbrf_plan
        type(c_ptr) :: ptr = c_null_ptr
        integer(c_int) :: dim = 0
        integer(c_int) :: precision = TBRF_DOUBLE
        integer(c_int) :: ncomp = 1  ! values per point: dim for a vector field (opts%vector)
        character(len=:), allocatable, private :: msg  ! failure found by the wrapper
    contains
        procedure, private :: plan_assign
        generic :: assignment(=) => plan_assign
        final :: plan_final
    end type tbrf_plan

    interface tbrf_make_plan
        module procedure make_plan_i4, make_plan_i8
    end interface tbrf_make_plan

    !> A turbulence driver (the C tbrf_driver, doc/driving.md). Not copyable.
    type :: tbrf_driver
        type(c_ptr) :: ptr = c_null_ptr
        integer(c_int) :: dim = 0
        integer(c_int) :: nc = 0  ! the force's components: dim, or 3 (components = 3 in 1D/2D)
        character(len=:), allocatable, private :: msg  ! failure found by the wrapper
    contains
        procedure, private :: driver_assign
        generic :: assignment(=) => driver_assign
        final :: driver_final
    end type tbrf_driver

    !> tbrf_driver_make(driver, model, seed[, params][, stat])
    interface tbrf_driver_make
        module procedure make_driver_i4, make_driver_i8
    end interface tbrf_driver_make

    !> tbrf_driver_points(driver, t, xyz, force[, stat]): xyz(dim, n),
    !> force(dim, n) real(c_double) or real(c_float).
    interface tbrf_driver_points
        module procedure driver_points_d, driver_points_f
    end interface tbrf_driver_points

    !> The force at time t on a grid (doc/fortran.md, "Turbulence driving"),
    !> into double or single precision arrays, any of which may be an array
    !> section (the interior of a ghost-zoned array):
    !>   (driver, t, origin, spacing, n, force[, stat])  force(dim, nx, ny, nz),
    !>       (2, nx, ny) in 2D, or a flat force(dim*nx*ny*nz); n default
    !>       integer or c_int64_t
    !>   (driver, t, origin, spacing, force[, stat])     n from force's shape
    !>   (driver, t, origin, spacing, fx, fy, fz[, stat]) separate components
    !>       (nx, ny, nz); (driver, t, origin, spacing, fx, fy[, stat]) in 2D
    interface tbrf_driver_grid
        module procedure grid_n4_d8, grid_n4_d4, grid_n4_f8, grid_n4_f4
        module procedure grid_n3_d8, grid_n3_d4, grid_n3_f8, grid_n3_f4
        module procedure grid_n1_d8, grid_n1_d4, grid_n1_f8, grid_n1_f4
        module procedure grid_s4_d, grid_s4_f, grid_s3_d, grid_s3_f
        module procedure grid_c3_d, grid_c3_f, grid_c2_d, grid_c2_f
    end interface tbrf_driver_grid

    !> The grid with the components last, as block codes keep their
    !> variables (doc/fortran.md, "Turbulence driving"), written in place by
    !> the C library: (driver, t, origin, spacing, force[, stat]) with
    !> force(nx, ny, nz, nc) double, or force(nx, ny, nc) in 2D.
    interface tbrf_driver_grid_component_last
        module procedure grid_last_4, grid_last_3
    end interface tbrf_driver_grid_component_last

    !> An inflow-boundary sampler (the C tbrf_inflow; doc/streaming.md,
    !> "Inflow boundaries"). Not copyable.
    type :: tbrf_inflow
        type(c_ptr) :: ptr = c_null_ptr
        integer(c_int) :: dim = 0
    contains
        procedure, private :: inflow_assign
        generic :: assignment(=) => inflow_assign
        final :: inflow_final
    end type tbrf_inflow

    !> tbrf_inflow_create(inflow, model, dim, lo, hi, resolution, seed,
    !> realization, velocity[, line_precision][, opts][, stat])
    interface tbrf_inflow_create
        module procedure inflow_create_i4, inflow_create_i8
    end interface tbrf_inflow_create

    !> tbrf_inflow_create_periodic(inflow, model, dim, lo, hi, period,
    !> resolution, seed, realization, velocity[, opts][, stat]): the field
    !> periodic across the flow (period(d) > 0 on those axes, 0 along it)
    interface tbrf_inflow_create_periodic
        module procedure inflow_periodic_i4, inflow_periodic_i8
    end interface tbrf_inflow_create_periodic

    !> tbrf_inflow_fill_grid(inflow, t, origin, spacing, values[, stat]):
    !> values(nx, ny) in 2D, values(nx, ny, nz) in 3D; the block's size is
    !> the array's shape.
    interface tbrf_inflow_fill_grid
        module procedure inflow_fill_grid_2, inflow_fill_grid_3
    end interface tbrf_inflow_fill_grid

    !> A cosmological initial condition (the C tbrf_ic_cosmo; doc/ic.md).
    !> Not copyable.
    type :: tbrf_ic_cosmo
        type(c_ptr) :: ptr = c_null_ptr
    contains
        procedure, private :: ic_cosmo_assign
        generic :: assignment(=) => ic_cosmo_assign
        final :: ic_cosmo_final
    end type tbrf_ic_cosmo

    !> tbrf_make_periodic_plan(plan, model, dim, origin, length, n, seed[, opts][, stat]):
    !> a field periodic over the box [origin, origin + length) with the FFT
    !> method's modes of n cells; evaluate it anywhere (values wrap).
    interface tbrf_make_periodic_plan
        module procedure make_periodic_plan_i4, make_periodic_plan_i8
    end interface tbrf_make_periodic_plan

    interface tbrf_set_grid
        module procedure set_grid_i4, set_grid_i8
    end interface tbrf_set_grid

    interface tbrf_set_subgrid
        module procedure set_subgrid_i4, set_subgrid_i8
    end interface tbrf_set_subgrid

    interface tbrf_execute
        module procedure exec_d1_i4, exec_d2_i4, exec_d3_i4, exec_f1_i4, exec_f2_i4, exec_f3_i4
        module procedure exec_d1_i8, exec_d2_i8, exec_d3_i8, exec_f1_i8, exec_f2_i8, exec_f3_i8
    end interface tbrf_execute

    interface tbrf_execute_stream
        module procedure exec_stream_i4, exec_stream_i8
    end interface tbrf_execute_stream

    interface tbrf_execute_grid_stream
        module procedure exec_grid_stream_i4, exec_grid_stream_i8
    end interface tbrf_execute_grid_stream

contains

    ! ------------------------------------------------------------ helpers

    !> A NUL-terminated C string as a Fortran string ("" for c_null_ptr).
    function tbrf_c_string(p) result(s)
        type(c_ptr), intent(in) :: p
        character(len=:), allocatable :: s
        character(kind=c_char), pointer :: a(:)
        integer :: i, n
        if (.not. c_associated(p)) then
            s = ""
            return
        end if
        ! C strings of the library are short; the bound only limits the scan.
        call c_f_pointer(p, a, [1048576])
        n = 0
        do while (a(n + 1) /= c_null_char)
            n = n + 1
        end do
        allocate(character(len=n) :: s)
        do i = 1, n
            s(i:i) = a(i)
        end do
    end function tbrf_c_string

    function c_str(s) result(c)
        character(len=*), intent(in) :: s
        character(kind=c_char, len=len(s) + 1) :: c
        c = s // c_null_char
    end function c_str

    !> Hands the status to `stat`, or reports a failure and stops.
    subroutine finish(st, where, detail, stat)
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
    end subroutine finish

    subroutine finish_model(st, where, model, stat)
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: where
        type(tbrf_model), intent(in) :: model
        integer, intent(out), optional :: stat
        if (st == TBRF_OK .or. present(stat)) then
            call finish(st, where, "", stat)
        else
            call finish(st, where, tbrf_model_message(model), stat)
        end if
    end subroutine finish_model

    subroutine finish_plan(st, where, plan, stat)
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: where
        type(tbrf_plan), intent(in) :: plan
        integer, intent(out), optional :: stat
        if (st == TBRF_OK .or. present(stat)) then
            call finish(st, where, "", stat)
        else
            call finish(st, where, tbrf_plan_message(plan), stat)
        end if
    end subroutine finish_plan

    !> A failure the wrapper itself found (array shape, kind): kept as the
    !> plan's message.
    subroutine wrapper_fail(plan, st, where, detail, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: where, detail
        integer, intent(out), optional :: stat
        plan%msg = where // ": " // detail
        call finish(st, where, detail, stat)
    end subroutine wrapper_fail

    !> Whether the memory of xyz is one block in array element order, the
    !> layout the C library reads (F2008 has no is_contiguous): the
    !> addresses of the neighbours of xyz(1, 1) along each dimension.
    logical function points_contiguous(xyz) result(ok)
        real(c_double), intent(in), target :: xyz(:, :)
        integer(c_intptr_t) :: a0
        integer(c_intptr_t), parameter :: w = c_sizeof(0.0_c_double)
        ok = .true.
        if (size(xyz) == 0) return
        a0 = transfer(c_loc(xyz(1, 1)), a0)
        if (size(xyz, 1) > 1) ok = transfer(c_loc(xyz(2, 1)), a0) - a0 == w
        if (ok .and. size(xyz, 2) > 1) &
            ok = transfer(c_loc(xyz(1, 2)), a0) - a0 == w * size(xyz, 1, kind=c_intptr_t)
    end function points_contiguous

    !> msg with its first "point N" (counted from 0, as in C) renumbered for
    !> Fortran: "point N+1 (xyz(:, N+1))".
    function one_based_point(msg) result(s)
        character(len=*), intent(in) :: msg
        character(len=:), allocatable :: s
        character(len=24) :: num
        integer :: i, j, ios
        integer(c_int64_t) :: n
        s = msg
        i = index(msg, "point ")
        if (i == 0) return
        j = i + 6
        do while (j <= len(msg))
            if (verify(msg(j:j), "0123456789") /= 0) exit
            j = j + 1
        end do
        if (j == i + 6) return
        read(msg(i + 6:j - 1), *, iostat=ios) n
        if (ios /= 0) return
        write(num, '(i0)') n + 1
        s = msg(:i + 5) // trim(num) // " (xyz(:, " // trim(num) // "))" // msg(j:)
    end function one_based_point

    subroutine model_assign(to, from)
        class(tbrf_model), intent(inout) :: to
        type(tbrf_model), intent(in) :: from
        if (c_associated(from%ptr) .or. c_associated(to%ptr)) then
            write(error_unit, '(a)') 'tbrf: a tbrf_model cannot be copied (it owns a C object)'
            error stop 1
        end if
    end subroutine model_assign

    subroutine plan_assign(to, from)
        class(tbrf_plan), intent(inout) :: to
        type(tbrf_plan), intent(in) :: from
        if (c_associated(from%ptr) .or. c_associated(to%ptr)) then
            write(error_unit, '(a)') 'tbrf: a tbrf_plan cannot be copied (it owns a C object)'
            error stop 1
        end if
    end subroutine plan_assign

    subroutine model_final(model)
        type(tbrf_model), intent(inout) :: model
        call tbrf_model_destroy(model)
    end subroutine model_final

    subroutine plan_final(plan)
        type(tbrf_plan), intent(inout) :: plan
        call tbrf_destroy(plan)
    end subroutine plan_final

    ! ------------------------------------------------------------- status

    !> Short description of a status code (never empty).
    function tbrf_strerror(status) result(s)
        integer, intent(in) :: status
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_strerror(int(status, c_int)))
    end function tbrf_strerror

    !> The library version "MAJOR.MINOR.PATCH".
    function tbrf_version() result(s)
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_version())
    end function tbrf_version

    ! ------------------------------------------------------------- models
    ! Each constructor destroys what `model` held (intent(out) finalizes it)
    ! and keeps the new C object even on failure, so tbrf_model_message works.

    subroutine tbrf_model_powerlaw(model, index, kmin, kmax, stat)
        type(tbrf_model), intent(out) :: model
        real(c_double), intent(in) :: index, kmin, kmax
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_powerlaw(index, kmin, kmax, model%ptr), &
                          "tbrf_model_powerlaw", model, stat)
    end subroutine tbrf_model_powerlaw

    subroutine tbrf_model_gaussian(model, length, stat)
        type(tbrf_model), intent(out) :: model
        real(c_double), intent(in) :: length
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_gaussian(length, model%ptr), "tbrf_model_gaussian", model, stat)
    end subroutine tbrf_model_gaussian

    subroutine tbrf_model_exponential(model, length, stat)
        type(tbrf_model), intent(out) :: model
        real(c_double), intent(in) :: length
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_exponential(length, model%ptr), "tbrf_model_exponential", &
                          model, stat)
    end subroutine tbrf_model_exponential

    subroutine tbrf_model_matern(model, length, nu, stat)
        type(tbrf_model), intent(out) :: model
        real(c_double), intent(in) :: length, nu
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_matern(length, nu, model%ptr), "tbrf_model_matern", model, stat)
    end subroutine tbrf_model_matern

    subroutine tbrf_model_vonkarman(model, length, stat)
        type(tbrf_model), intent(out) :: model
        real(c_double), intent(in) :: length
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_vonkarman(length, model%ptr), "tbrf_model_vonkarman", model, stat)
    end subroutine tbrf_model_vonkarman

    !> Tabulated spectrum: k(:) and p(:) of the same size (copied).
    subroutine tbrf_model_table(model, k, p, stat)
        type(tbrf_model), intent(out) :: model
        real(c_double), intent(in) :: k(:), p(:)
        integer, intent(out), optional :: stat
        if (size(k) /= size(p)) then
            call finish(TBRF_ERR_TABLE, "tbrf_model_table", "k and p differ in size", stat)
            return
        end if
        call finish_model(c_tbrf_model_table(size(k, kind=c_size_t), k, p, model%ptr), &
                          "tbrf_model_table", model, stat)
    end subroutine tbrf_model_table

    subroutine tbrf_model_table_file(model, path, stat)
        type(tbrf_model), intent(out) :: model
        character(len=*), intent(in) :: path
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_table_file(c_str(path), model%ptr), "tbrf_model_table_file", &
                          model, stat)
    end subroutine tbrf_model_table_file

    !> A model of the named kind (tbrf_model_kind_name: "powerlaw",
    !> "gaussian", "matern", "stable", ...) from the parameters it takes
    !> (tbrf_model_kind_params; alpha for stable and rational); an absent
    !> parameter is "not given". kmin/kmax of a kind without a range of
    !> its own cut its spectrum to that band. By name through
    !> tbrf_model_make_params.
    subroutine tbrf_model_make(model, kind, index, kmin, kmax, length, nu, stat, alpha)
        type(tbrf_model), intent(out) :: model
        character(len=*), intent(in) :: kind
        real(c_double), intent(in), optional :: index, kmin, kmax, length, nu, alpha
        integer, intent(out), optional :: stat
        character(len=8) :: names(6)
        real(c_double) :: values(6)
        integer :: n
        n = 0
        call given('index', index)
        call given('kmin', kmin)
        call given('kmax', kmax)
        call given('length', length)
        call given('nu', nu)
        call given('alpha', alpha)
        call tbrf_model_make_params(model, kind, names(1:n), values(1:n), stat)
    contains
        subroutine given(name, v)
            character(len=*), intent(in) :: name
            real(c_double), intent(in), optional :: v
            if (.not. present(v)) return
            n = n + 1
            names(n) = name
            values(n) = v
        end subroutine given
    end subroutine tbrf_model_make

    !> A model of the named kind from parameters by name (names(i) =
    !> values(i); tbrf_model_param_name lists the names; trailing blanks
    !> ignored), as tbrf_model_make_params.
    subroutine tbrf_model_make_params(model, kind, names, values, stat)
        type(tbrf_model), intent(out) :: model
        character(len=*), intent(in) :: kind, names(:)
        real(c_double), intent(in) :: values(:)
        integer, intent(out), optional :: stat
        character(kind=c_char, len=len(names) + 1), allocatable, target :: buf(:)
        type(c_ptr), allocatable :: ptrs(:)
        real(c_double) :: v(max(size(values), 1))
        integer :: i, n
        n = min(size(names), size(values))
        allocate(buf(max(n, 1)), ptrs(max(n, 1)))
        ptrs = c_null_ptr
        v = 0
        do i = 1, n
            buf(i) = trim(names(i)) // c_null_char
            ptrs(i) = c_loc(buf(i))
            v(i) = values(i)
        end do
        call finish_model(c_tbrf_model_make_params(c_str(kind), int(n, c_int), ptrs(1), v, &
                                                   model%ptr), "tbrf_model_make_params", model, stat)
    end subroutine tbrf_model_make_params

    !> The rows of a tabulated model as the library holds them: k and p
    !> are allocated to the number of rows.
    subroutine tbrf_model_table_data(model, k, p, stat)
        type(tbrf_model), intent(in) :: model
        real(c_double), allocatable, intent(out) :: k(:), p(:)
        integer, intent(out), optional :: stat
        integer(c_size_t) :: n(1)
        real(c_double) :: none(1)
        integer(c_int) :: st
        n = 0 ! no room: the first call only counts the rows
        st = c_tbrf_model_table_data(model%ptr, n, none, none)
        if (st == TBRF_OK) then
            allocate(k(n(1)), p(n(1)))
            st = c_tbrf_model_table_data(model%ptr, n, k, p)
        end if
        if (st == TBRF_OK) then
            call finish(st, "tbrf_model_table_data", "", stat)
        else
            call finish(st, "tbrf_model_table_data", "not a usable tabulated model", stat)
        end if
    end subroutine tbrf_model_table_data

    !> Spectrum shape from a Fortran function with the bind(C) interface
    !> tbrf_spectrum_fn; `user` (default c_null_ptr) is passed through.
    subroutine tbrf_model_callback(model, fn, kmin, kmax, user, stat)
        type(tbrf_model), intent(out) :: model
        procedure(tbrf_spectrum_fn) :: fn
        real(c_double), intent(in) :: kmin, kmax
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        type(c_ptr) :: u
        u = c_null_ptr
        if (present(user)) u = user
        call finish_model(c_tbrf_model_callback(c_funloc(fn), u, kmin, kmax, model%ptr), &
                          "tbrf_model_callback", model, stat)
    end subroutine tbrf_model_callback

    subroutine tbrf_model_set_variance(model, variance, stat)
        type(tbrf_model), intent(inout) :: model
        real(c_double), intent(in) :: variance
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_set_variance(model%ptr, variance), "tbrf_model_set_variance", &
                          model, stat)
    end subroutine tbrf_model_set_variance

    subroutine tbrf_model_set_amplitude(model, amplitude, stat)
        type(tbrf_model), intent(inout) :: model
        real(c_double), intent(in) :: amplitude
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_set_amplitude(model%ptr, amplitude), "tbrf_model_set_amplitude", &
                          model, stat)
    end subroutine tbrf_model_set_amplitude

    !> Cuts the spectrum to kmin <= k <= kmax (kmax may be ieee_value(.., ieee_positive_inf)):
    !> any model; the variance, covariance and lines follow the cut spectrum.
    subroutine tbrf_model_set_band(model, kmin, kmax, stat)
        type(tbrf_model), intent(inout) :: model
        real(c_double), intent(in) :: kmin, kmax
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_set_band(model%ptr, kmin, kmax), "tbrf_model_set_band", &
                          model, stat)
    end subroutine tbrf_model_set_band

    !> Anisotropy and rotation (GSTools' anis/angles): C(x) = C_iso(|S^-1 R^T x|), S =
    !> diag(scale), R of the angles in radians (3D: R = G_yz(a3) G_xz(-a2) G_xy(a1);
    !> 2D: scale(3) = 1, angles(2:3) = 0). Every method, scalar and vector.
    subroutine tbrf_model_set_anisotropy(model, scale, angles, stat)
        type(tbrf_model), intent(inout) :: model
        real(c_double), intent(in) :: scale(3), angles(3)
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_set_anisotropy(model%ptr, scale, angles), &
                          "tbrf_model_set_anisotropy", model, stat)
    end subroutine tbrf_model_set_anisotropy

    !> The model's anisotropy factors and angles ((1, 1, 1) and 0 when isotropic).
    subroutine tbrf_model_anisotropy(model, scale, angles, stat)
        type(tbrf_model), intent(in) :: model
        real(c_double), intent(out) :: scale(3), angles(3)
        integer, intent(out), optional :: stat
        call finish(c_tbrf_model_anisotropy(model%ptr, scale, angles), "tbrf_model_anisotropy", &
                    "", stat)
    end subroutine tbrf_model_anisotropy

    !> P(k) in dimension dim, amplitude included (NaN for a bad dim or model).
    function tbrf_model_spectrum(model, dim, k) result(v)
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double), intent(in) :: k
        real(c_double) :: v
        v = c_tbrf_model_spectrum(model%ptr, int(dim, c_int), k)
    end function tbrf_model_spectrum

    !> C(r) in dimension dim, amplitude included (NaN for a bad dim or model).
    function tbrf_model_covariance(model, dim, r) result(v)
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double), intent(in) :: r
        real(c_double) :: v
        v = c_tbrf_model_covariance(model%ptr, int(dim, c_int), r)
    end function tbrf_model_covariance

    !> sigma^2 = C(0) in dimension dim (NaN if divergent).
    function tbrf_model_variance(model, dim) result(v)
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double) :: v
        v = c_tbrf_model_variance(model%ptr, int(dim, c_int))
    end function tbrf_model_variance

    function tbrf_model_describe(model) result(s)
        type(tbrf_model), intent(in) :: model
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_model_describe(model%ptr))
    end function tbrf_model_describe

    !> Detailed message of the model's last failure ("" if none).
    function tbrf_model_message(model) result(s)
        type(tbrf_model), intent(in) :: model
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_model_message(model%ptr))
    end function tbrf_model_message

    function tbrf_model_status(model) result(st)
        type(tbrf_model), intent(in) :: model
        integer :: st
        st = c_tbrf_model_status(model%ptr)
    end function tbrf_model_status

    !> Frees the model (plans made from it stay valid); safe to repeat.
    subroutine tbrf_model_destroy(model)
        type(tbrf_model), intent(inout) :: model
        call c_tbrf_model_destroy(model%ptr)
        model%ptr = c_null_ptr
    end subroutine tbrf_model_destroy

    !> The name of model kind i = 0, 1, ... ("" past the last kind).
    function tbrf_model_kind_name(i) result(s)
        integer, intent(in) :: i
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_model_kind_name(int(i, c_int)))
    end function tbrf_model_kind_name

    !> The name of the parameter whose bit is 2**i ("" past the last).
    function tbrf_model_param_name(i) result(s)
        integer, intent(in) :: i
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_model_param_name(int(i, c_int)))
    end function tbrf_model_param_name

    !> A one-line description of the kind ("" for an unknown one).
    function tbrf_model_kind_summary(kind) result(s)
        character(len=*), intent(in) :: kind
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_model_kind_summary(c_str(kind)))
    end function tbrf_model_kind_summary

    !> The parameters the kind takes and needs, as TBRF_PARAM_* bits.
    subroutine tbrf_model_kind_params(kind, takes, needs, stat)
        character(len=*), intent(in) :: kind
        integer, intent(out) :: takes, needs
        integer, intent(out), optional :: stat
        integer(c_int) :: t, n, st
        t = 0
        n = 0
        st = c_tbrf_model_kind_params(c_str(kind), t, n)
        takes = int(t)
        needs = int(n)
        call finish(st, 'tbrf_model_kind_params', kind, stat)
    end subroutine tbrf_model_kind_params

    !> The log-log slope of the spectrum at high k (NaN where there is none).
    function tbrf_model_tail_slope(model, dim) result(v)
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double) :: v
        v = c_tbrf_model_tail_slope(model%ptr, int(dim, c_int))
    end function tbrf_model_tail_slope

    !> The Gaussian model behind a lognormal density whose contrast has the
    !> density model's spectrum and variance (tbrf_model_lognormal in
    !> tbrf/model.h): a table over [kmin, kmax], xi_g exact for r <= rmax/2,
    !> negative parts clipped (lost: their share of sigma_g^2, refused above
    !> max_lost).
    subroutine tbrf_model_lognormal(gaussian, density, dim, kmin, kmax, rmax, max_lost, lost, stat)
        type(tbrf_model), intent(out) :: gaussian
        type(tbrf_model), intent(in) :: density
        integer, intent(in) :: dim
        real(c_double), intent(in) :: kmin, kmax, rmax, max_lost
        real(c_double), intent(out) :: lost
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_lognormal(density%ptr, int(dim, c_int), kmin, kmax, rmax, &
                                                 max_lost, lost, gaussian%ptr), &
                          "tbrf_model_lognormal", gaussian, stat)
    end subroutine tbrf_model_lognormal

    !> sigma^2 of ln rho = ln(1 + b^2 mach^2) (Federrath et al. 2008, 2010).
    function tbrf_lognormal_sigma2_mach(mach, b) result(v)
        real(c_double), intent(in) :: mach, b
        real(c_double) :: v
        v = c_tbrf_lognormal_sigma2_mach(mach, b)
    end function tbrf_lognormal_sigma2_mach

    ! -------------------------------------------------------------- plans

    subroutine tbrf_default_opts(opts)
        type(tbrf_opts), intent(out) :: opts
        call c_tbrf_default_opts(opts)
    end subroutine tbrf_default_opts

    !> The memory budget in bytes ($TBRF_MEMORY_BUDGET, or the default).
    subroutine tbrf_memory_budget(bytes, stat)
        integer(c_int64_t), intent(out) :: bytes
        integer, intent(out), optional :: stat
        integer(c_int) :: st
        st = c_tbrf_memory_budget(bytes)
        call finish(st, 'tbrf_memory_budget', '', stat)
    end subroutine tbrf_memory_budget

    subroutine make_plan_i4(plan, model, dim, lo, hi, resolution, seed, opts, stat)
        type(tbrf_plan), intent(out) :: plan
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double), intent(in) :: lo(:), hi(:), resolution
        integer(c_int32_t), intent(in) :: seed
        type(tbrf_opts), intent(in), optional, target :: opts
        integer, intent(out), optional :: stat
        call make_plan_i8(plan, model, dim, lo, hi, resolution, int(seed, c_int64_t), opts, stat)
    end subroutine make_plan_i4

    !> Makes a plan; lo(:) and hi(:) hold at least dim values. Destroys what
    !> `plan` held before. On failure `plan` still holds the C plan (its
    !> message), to be destroyed.
    subroutine make_plan_i8(plan, model, dim, lo, hi, resolution, seed, opts, stat)
        type(tbrf_plan), intent(out) :: plan
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double), intent(in) :: lo(:), hi(:), resolution
        integer(c_int64_t), intent(in) :: seed
        type(tbrf_opts), intent(in), optional, target :: opts
        integer, intent(out), optional :: stat
        real(c_double) :: lo3(3), hi3(3)
        type(c_ptr) :: po
        integer :: d
        lo3 = 0
        hi3 = 0
        if (size(lo) < min(dim, 3) .or. size(hi) < min(dim, 3)) then
            call finish(TBRF_ERR_SIZE, "tbrf_make_plan", "lo and hi need one value per dimension", stat)
            return
        end if
        d = max(0, min(dim, 3))
        lo3(1:d) = lo(1:d)
        hi3(1:d) = hi(1:d)
        po = c_null_ptr
        if (present(opts)) po = c_loc(opts)
        plan%dim = int(dim, c_int)
        plan%precision = TBRF_DOUBLE
        plan%ncomp = 1
        if (present(opts)) plan%precision = opts%precision
        if (present(opts)) then
            if (opts%vector /= TBRF_SCALAR) plan%ncomp = int(dim, c_int)
        end if
        call finish_plan(c_tbrf_make_plan(model%ptr, int(dim, c_int), lo3, hi3, resolution, seed, &
                                          po, plan%ptr), "tbrf_make_plan", plan, stat)
    end subroutine make_plan_i8

    subroutine make_periodic_plan_i4(plan, model, dim, origin, length, n, seed, opts, stat)
        type(tbrf_plan), intent(out) :: plan
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double), intent(in) :: origin(:), length(:)
        integer, intent(in) :: n(:)
        integer(c_int32_t), intent(in) :: seed
        type(tbrf_opts), intent(in), optional, target :: opts
        integer, intent(out), optional :: stat
        call make_periodic_plan_i8(plan, model, dim, origin, length, int(n, c_int64_t), &
                                   int(seed, c_int64_t), opts, stat)
    end subroutine make_periodic_plan_i4

    !> Makes a periodic plan; origin(:), length(:) and n(:) hold at least dim
    !> values. With opts%vector /= TBRF_SCALAR, execute writes dim values per
    !> point: pass values(dim, count) (or a rank-1 array of dim*count).
    subroutine make_periodic_plan_i8(plan, model, dim, origin, length, n, seed, opts, stat)
        type(tbrf_plan), intent(out) :: plan
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double), intent(in) :: origin(:), length(:)
        integer(c_int64_t), intent(in) :: n(:), seed
        type(tbrf_opts), intent(in), optional, target :: opts
        integer, intent(out), optional :: stat
        real(c_double) :: o3(3), l3(3)
        integer(c_int64_t) :: n3(3)
        type(c_ptr) :: po
        integer :: d
        o3 = 0
        l3 = 1
        n3 = 1
        if (size(origin) < min(dim, 3) .or. size(length) < min(dim, 3) .or. size(n) < min(dim, 3)) then
            call finish(TBRF_ERR_SIZE, "tbrf_make_periodic_plan", &
                        "origin, length and n need one value per dimension", stat)
            return
        end if
        d = max(0, min(dim, 3))
        o3(1:d) = origin(1:d)
        l3(1:d) = length(1:d)
        n3(1:d) = n(1:d)
        po = c_null_ptr
        if (present(opts)) po = c_loc(opts)
        plan%dim = int(dim, c_int)
        plan%precision = TBRF_DOUBLE
        plan%ncomp = 1
        if (present(opts)) plan%precision = opts%precision
        if (present(opts)) then
            if (opts%vector /= TBRF_SCALAR) plan%ncomp = int(dim, c_int)
        end if
        call finish_plan(c_tbrf_make_periodic_plan(model%ptr, int(dim, c_int), o3, l3, n3, seed, &
                                                   po, plan%ptr), "tbrf_make_periodic_plan", plan, stat)
    end subroutine make_periodic_plan_i8

    subroutine set_grid_i4(plan, origin, spacing, n, stat)
        type(tbrf_plan), intent(inout) :: plan
        real(c_double), intent(in) :: origin(:), spacing(:)
        integer(c_int32_t), intent(in) :: n(:)
        integer, intent(out), optional :: stat
        call set_grid_i8(plan, origin, spacing, int(n, c_int64_t), stat)
    end subroutine set_grid_i4

    !> Regular grid of n(1) x n(2) [x n(3)] cells at origin + spacing*(i,j,k)
    !> (zero-based); arrays of size dim (or 3).
    subroutine set_grid_i8(plan, origin, spacing, n, stat)
        type(tbrf_plan), intent(inout) :: plan
        real(c_double), intent(in) :: origin(:), spacing(:)
        integer(c_int64_t), intent(in) :: n(:)
        integer, intent(out), optional :: stat
        real(c_double) :: o3(3), s3(3)
        integer(c_int64_t) :: n3(3)
        integer :: d
        if (allocated(plan%msg)) deallocate(plan%msg)
        d = max(1, min(int(plan%dim), 3))
        if (size(origin) < d .or. size(spacing) < d .or. size(n) < d) then
            call wrapper_fail(plan, TBRF_ERR_SIZE, "tbrf_set_grid", &
                              "origin, spacing and n need one value per dimension", stat)
            return
        end if
        o3 = 0
        s3 = 1
        n3 = 1
        o3(1:d) = origin(1:d)
        s3(1:d) = spacing(1:d)
        n3(1:d) = n(1:d)
        if (size(origin) >= 3) o3 = origin(1:3)
        if (size(spacing) >= 3) s3 = spacing(1:3)
        if (size(n) >= 3) n3 = n(1:3)
        call finish_plan(c_tbrf_set_grid(plan%ptr, o3, s3, n3), "tbrf_set_grid", plan, stat)
    end subroutine set_grid_i8

    subroutine set_subgrid_i4(plan, origin, spacing, n, start, count, stat)
        type(tbrf_plan), intent(inout) :: plan
        real(c_double), intent(in) :: origin(:), spacing(:)
        integer(c_int32_t), intent(in) :: n(:), start(:), count(:)
        integer, intent(out), optional :: stat
        call set_subgrid_i8(plan, origin, spacing, int(n, c_int64_t), int(start, c_int64_t), &
                            int(count, c_int64_t), stat)
    end subroutine set_subgrid_i4

    !> One box of the grid of tbrf_set_grid: the count(d) cells from the
    !> zero-based global cell start(d) on each axis (a rank's part of a
    !> domain decomposition); every cell's value is bitwise the whole
    !> grid's there. Arrays of size dim (or 3).
    subroutine set_subgrid_i8(plan, origin, spacing, n, start, count, stat)
        type(tbrf_plan), intent(inout) :: plan
        real(c_double), intent(in) :: origin(:), spacing(:)
        integer(c_int64_t), intent(in) :: n(:), start(:), count(:)
        integer, intent(out), optional :: stat
        real(c_double) :: o3(3), s3(3)
        integer(c_int64_t) :: n3(3), b3(3), c3(3)
        integer :: d
        if (allocated(plan%msg)) deallocate(plan%msg)
        d = max(1, min(int(plan%dim), 3))
        if (size(origin) < d .or. size(spacing) < d .or. size(n) < d .or. size(start) < d &
            .or. size(count) < d) then
            call wrapper_fail(plan, TBRF_ERR_SIZE, "tbrf_set_subgrid", &
                              "origin, spacing, n, start and count need one value per dimension", stat)
            return
        end if
        o3 = 0
        s3 = 1
        n3 = 1
        b3 = 0
        c3 = 1
        o3(1:d) = origin(1:d)
        s3(1:d) = spacing(1:d)
        n3(1:d) = n(1:d)
        b3(1:d) = start(1:d)
        c3(1:d) = count(1:d)
        call finish_plan(c_tbrf_set_subgrid(plan%ptr, o3, s3, n3, b3, c3), "tbrf_set_subgrid", plan, stat)
    end subroutine set_subgrid_i8

    !> Points xyz(dim, n). NOT copied: pass a whole contiguous array with the
    !> TARGET (or POINTER) attribute that stays alive, unmoved in memory,
    !> until the next tbrf_set_grid/tbrf_set_points or tbrf_destroy. Its
    !> values may change (moving cells): call tbrf_set_points again, cheaply.
    subroutine tbrf_set_points(plan, xyz, stat)
        type(tbrf_plan), intent(inout) :: plan
        ! Not `contiguous`: with that attribute a strided section would be
        ! copied into a temporary that the plan would keep pointing at
        ! after this returns. Such a section is refused instead.
        real(c_double), intent(in), target :: xyz(:, :)
        integer, intent(out), optional :: stat
        integer(c_int) :: st
        real(c_double), pointer :: flat(:)
        if (allocated(plan%msg)) deallocate(plan%msg)
        if (c_associated(plan%ptr) .and. size(xyz, 1) /= plan%dim) then
            call wrapper_fail(plan, TBRF_ERR_SIZE, "tbrf_set_points", &
                              "xyz must have shape (dim, n) with dim the plan's dimension", stat)
            return
        end if
        if (.not. points_contiguous(xyz)) then
            call wrapper_fail(plan, TBRF_ERR_INVALID, "tbrf_set_points", "xyz must be contiguous " // &
                              "(a whole array, not a strided section): the plan keeps a pointer to it", stat)
            return
        end if
        if (size(xyz) == 0) then
            st = c_tbrf_set_points(plan%ptr, 0_c_int64_t, xyz)
        else
            ! the caller's own memory, as one contiguous vector: nothing to copy
            call c_f_pointer(c_loc(xyz(1, 1)), flat, [size(xyz)])
            st = c_tbrf_set_points(plan%ptr, size(xyz, 2, kind=c_int64_t), flat)
        end if
        if (st /= TBRF_OK .and. c_associated(plan%ptr)) then
            ! the C message numbers points from 0; a Fortran user's are xyz(:, 1..n)
            call wrapper_fail(plan, st, "tbrf_set_points", &
                              one_based_point(tbrf_c_string(c_tbrf_plan_message(plan%ptr))), stat)
            return
        end if
        call finish_plan(st, "tbrf_set_points", plan, stat)
    end subroutine tbrf_set_points

    !> Number of values tbrf_execute writes (0 before any geometry).
    function tbrf_plan_count(plan) result(n)
        type(tbrf_plan), intent(in) :: plan
        integer(c_int64_t) :: n
        n = c_tbrf_plan_count(plan%ptr)
    end function tbrf_plan_count

    subroutine exec_ptr(plan, realization, values, n, precision, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: realization, n
        type(c_ptr), intent(in) :: values
        integer(c_int), intent(in) :: precision
        integer, intent(out), optional :: stat
        character(len=40) :: a, b
        integer(c_int64_t) :: count
        if (allocated(plan%msg)) deallocate(plan%msg)
        count = c_tbrf_plan_count(plan%ptr) * plan%ncomp    ! 0 for no plan
        if (count > 0) then
            if (precision /= plan%precision) then
                call wrapper_fail(plan, TBRF_ERR_INVALID, "tbrf_execute", "values must be " // &
                                  merge("real(c_float) ", "real(c_double)", plan%precision == TBRF_FLOAT) // &
                                  " to match opts%precision", stat)
                return
            end if
            if (n < count) then
                write(a, '(i0)') n
                write(b, '(i0)') count
                call wrapper_fail(plan, TBRF_ERR_SIZE, "tbrf_execute", "values has " // trim(a) // &
                                  " elements, the plan writes " // trim(b), stat)
                return
            end if
        end if
        call finish_plan(c_tbrf_execute(plan%ptr, realization, values), "tbrf_execute", plan, stat)
    end subroutine exec_ptr

    ! tbrf_execute(plan, realization, values[, stat]): values real(c_double)
    ! or real(c_float), rank 1 (points or cells), 2 (nx,ny) or 3 (nx,ny,nz).
    subroutine exec_d1_i8(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: realization
        real(c_double), intent(inout), target, contiguous :: values(:)
        integer, intent(out), optional :: stat
        call exec_ptr(plan, realization, loc_d(values, size(values)), size(values, kind=c_int64_t), &
                      TBRF_DOUBLE, stat)
    end subroutine exec_d1_i8

    subroutine exec_d2_i8(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: realization
        real(c_double), intent(inout), target, contiguous :: values(:, :)
        integer, intent(out), optional :: stat
        call exec_ptr(plan, realization, loc_d(values, size(values)), size(values, kind=c_int64_t), &
                      TBRF_DOUBLE, stat)
    end subroutine exec_d2_i8

    subroutine exec_d3_i8(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: realization
        real(c_double), intent(inout), target, contiguous :: values(:, :, :)
        integer, intent(out), optional :: stat
        call exec_ptr(plan, realization, loc_d(values, size(values)), size(values, kind=c_int64_t), &
                      TBRF_DOUBLE, stat)
    end subroutine exec_d3_i8

    subroutine exec_f1_i8(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: realization
        real(c_float), intent(inout), target, contiguous :: values(:)
        integer, intent(out), optional :: stat
        call exec_ptr(plan, realization, loc_f(values, size(values)), size(values, kind=c_int64_t), &
                      TBRF_FLOAT, stat)
    end subroutine exec_f1_i8

    subroutine exec_f2_i8(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: realization
        real(c_float), intent(inout), target, contiguous :: values(:, :)
        integer, intent(out), optional :: stat
        call exec_ptr(plan, realization, loc_f(values, size(values)), size(values, kind=c_int64_t), &
                      TBRF_FLOAT, stat)
    end subroutine exec_f2_i8

    subroutine exec_f3_i8(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: realization
        real(c_float), intent(inout), target, contiguous :: values(:, :, :)
        integer, intent(out), optional :: stat
        call exec_ptr(plan, realization, loc_f(values, size(values)), size(values, kind=c_int64_t), &
                      TBRF_FLOAT, stat)
    end subroutine exec_f3_i8

    subroutine exec_d1_i4(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int32_t), intent(in) :: realization
        real(c_double), intent(inout), contiguous :: values(:)
        integer, intent(out), optional :: stat
        call exec_d1_i8(plan, int(realization, c_int64_t), values, stat)
    end subroutine exec_d1_i4

    subroutine exec_d2_i4(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int32_t), intent(in) :: realization
        real(c_double), intent(inout), contiguous :: values(:, :)
        integer, intent(out), optional :: stat
        call exec_d2_i8(plan, int(realization, c_int64_t), values, stat)
    end subroutine exec_d2_i4

    subroutine exec_d3_i4(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int32_t), intent(in) :: realization
        real(c_double), intent(inout), contiguous :: values(:, :, :)
        integer, intent(out), optional :: stat
        call exec_d3_i8(plan, int(realization, c_int64_t), values, stat)
    end subroutine exec_d3_i4

    subroutine exec_f1_i4(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int32_t), intent(in) :: realization
        real(c_float), intent(inout), contiguous :: values(:)
        integer, intent(out), optional :: stat
        call exec_f1_i8(plan, int(realization, c_int64_t), values, stat)
    end subroutine exec_f1_i4

    subroutine exec_f2_i4(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int32_t), intent(in) :: realization
        real(c_float), intent(inout), contiguous :: values(:, :)
        integer, intent(out), optional :: stat
        call exec_f2_i8(plan, int(realization, c_int64_t), values, stat)
    end subroutine exec_f2_i4

    subroutine exec_f3_i4(plan, realization, values, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int32_t), intent(in) :: realization
        real(c_float), intent(inout), contiguous :: values(:, :, :)
        integer, intent(out), optional :: stat
        call exec_f3_i8(plan, int(realization, c_int64_t), values, stat)
    end subroutine exec_f3_i4

    ! Address of the first element (c_null_ptr for an empty array).
    function loc_d(v, n) result(p)
        real(c_double), intent(in), target :: v(*)
        integer, intent(in) :: n
        type(c_ptr) :: p
        p = c_null_ptr
        if (n > 0) p = c_loc(v(1))
    end function loc_d

    function loc_f(v, n) result(p)
        real(c_float), intent(in), target :: v(*)
        integer, intent(in) :: n
        type(c_ptr) :: p
        p = c_null_ptr
        if (n > 0) p = c_loc(v(1))
    end function loc_f

    subroutine exec_stream_i4(plan, realization, pull, push, user, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int32_t), intent(in) :: realization
        procedure(tbrf_pull_fn) :: pull
        procedure(tbrf_push_fn) :: push
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        call exec_stream_i8(plan, int(realization, c_int64_t), pull, push, user, stat)
    end subroutine exec_stream_i4

    !> Streaming evaluation: the library calls pull(user, first, max, xyz,
    !> count) for up to max positions (xyz(1:dim*count), interleaved) and
    !> push(user, first, count, values) with a c_ptr to count values (c_float
    !> or c_double per opts%precision; c_f_pointer it). Both are Fortran
    !> functions with the bind(C) interfaces tbrf_pull_fn / tbrf_push_fn; a
    !> non-zero result aborts with TBRF_ERR_CALLBACK.
    subroutine exec_stream_i8(plan, realization, pull, push, user, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: realization
        procedure(tbrf_pull_fn) :: pull
        procedure(tbrf_push_fn) :: push
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        type(c_ptr) :: u
        if (allocated(plan%msg)) deallocate(plan%msg)
        u = c_null_ptr
        if (present(user)) u = user
        call finish_plan(c_tbrf_execute_stream(plan%ptr, realization, c_funloc(pull), c_funloc(push), u), &
                         "tbrf_execute_stream", plan, stat)
    end subroutine exec_stream_i8

    subroutine exec_grid_stream_i4(plan, realization, push, user, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int32_t), intent(in) :: realization
        procedure(tbrf_push_fn) :: push
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        call exec_grid_stream_i8(plan, int(realization, c_int64_t), push, user, stat)
    end subroutine exec_grid_stream_i4

    !> Streams the current grid to push in x-fastest chunks of whole rows.
    subroutine exec_grid_stream_i8(plan, realization, push, user, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: realization
        procedure(tbrf_push_fn) :: push
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        type(c_ptr) :: u
        if (allocated(plan%msg)) deallocate(plan%msg)
        u = c_null_ptr
        if (present(user)) u = user
        call finish_plan(c_tbrf_execute_grid_stream(plan%ptr, realization, c_funloc(push), u), &
                         "tbrf_execute_grid_stream", plan, stat)
    end subroutine exec_grid_stream_i8

    subroutine tbrf_plan_get_info(plan, info, stat)
        type(tbrf_plan), intent(inout) :: plan
        type(tbrf_plan_info), intent(out) :: info
        integer, intent(out), optional :: stat
        if (allocated(plan%msg)) deallocate(plan%msg)
        call finish_plan(c_tbrf_plan_get_info(plan%ptr, info), "tbrf_plan_get_info", plan, stat)
    end subroutine tbrf_plan_get_info

    !> Status of the last call on the plan.
    function tbrf_plan_status(plan) result(st)
        type(tbrf_plan), intent(in) :: plan
        integer :: st
        st = c_tbrf_plan_status(plan%ptr)
    end function tbrf_plan_status

    !> Detailed message of the last call's failure ("" if it succeeded).
    function tbrf_plan_message(plan) result(s)
        type(tbrf_plan), intent(in) :: plan
        character(len=:), allocatable :: s
        if (allocated(plan%msg)) then
            s = plan%msg
        else if (.not. c_associated(plan%ptr)) then
            s = "the plan is not made (or was destroyed)"
        else
            s = tbrf_c_string(c_tbrf_plan_message(plan%ptr))
        end if
    end function tbrf_plan_message

    !> The method execute runs for the current geometry (TBRF_METHOD_FFT or
    !> TBRF_METHOD_TB once a geometry is set, opts%method before; -1 for no
    !> plan or a failed one).
    function tbrf_plan_method(plan) result(m)
        type(tbrf_plan), intent(in) :: plan
        integer :: m
        m = c_tbrf_plan_method(plan%ptr)
    end function tbrf_plan_method

    !> The FFT method's Fourier modes of rows first_row .. first_row+rows-1
    !> (0-based, as in C) into modes (2*(n(1)/2+1)*rows reals: re, im), for a
    !> code that transforms them itself; component -1 for a scalar plan,
    !> 0 .. dim-1 for a vector plan's. See tbrf_fft_modes in tbrf/plan.h.
    subroutine tbrf_fft_modes(plan, n, realization, component, first_row, rows, modes, stat)
        type(tbrf_plan), intent(inout) :: plan
        integer(c_int64_t), intent(in) :: n(3)
        integer(c_int64_t), intent(in) :: realization, first_row, rows
        integer, intent(in) :: component
        real(c_double), intent(out) :: modes(*)
        integer, intent(out), optional :: stat
        call finish_plan(c_tbrf_fft_modes(plan%ptr, n, realization, int(component, c_int), first_row, &
                                          rows, modes), "tbrf_fft_modes", plan, stat)
    end subroutine tbrf_fft_modes

    !> Frees the plan; safe to repeat.
    subroutine tbrf_destroy(plan)
        type(tbrf_plan), intent(inout) :: plan
        call c_tbrf_destroy(plan%ptr)
        plan%ptr = c_null_ptr
        plan%dim = 0
        if (allocated(plan%msg)) deallocate(plan%msg)
    end subroutine tbrf_destroy

    ! ----------------------------------------------------------- backends

    !> Name of a backend id ("cpu", "opencl", "cuda", "auto"; "" if unknown).
    function tbrf_backend_name(backend) result(s)
        integer, intent(in) :: backend
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_backend_name(int(backend, c_int)))
    end function tbrf_backend_name

    !> TBRF_OK if the backend is built and has a device, else its status.
    function tbrf_backend_available(backend) result(st)
        integer, intent(in) :: backend
        integer :: st
        st = c_tbrf_backend_available(int(backend, c_int))
    end function tbrf_backend_available

    ! ------------------------------------ random numbers and Monte Carlo
    ! Seeds, streams, offsets and counts are integer(c_int64_t); 32-bit words
    ! are integer(c_int32_t) (C's uint32_t: the same bits, negative above
    ! 2^31 - 1). Array lengths come from the arrays.

    !> Name of a generator id ("philox", "saru", ...; "" if unknown).
    function tbrf_rng_name(gen) result(s)
        integer, intent(in) :: gen
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_rng_name(int(gen, c_int)))
    end function tbrf_rng_name

    !> Words offset .. offset+size(out)-1 of stream `stream` of generator gen.
    subroutine tbrf_rng_u32(gen, seed, stream, offset, out, stat)
        integer, intent(in) :: gen
        integer(c_int64_t), intent(in) :: seed, stream, offset
        integer(c_int32_t), intent(out), contiguous :: out(:)
        integer, intent(out), optional :: stat
        call finish(c_tbrf_rng_u32(int(gen, c_int), seed, stream, offset, size(out, kind=c_int64_t), out), &
                    "tbrf_rng_u32", "", stat)
    end subroutine tbrf_rng_u32

    !> The same stream converted by dist (TBRF_DIST_U01, _S11, _NORMAL).
    subroutine tbrf_rng_double(gen, seed, stream, offset, dist, out, stat)
        integer, intent(in) :: gen, dist
        integer(c_int64_t), intent(in) :: seed, stream, offset
        real(c_double), intent(out), contiguous :: out(:)
        integer, intent(out), optional :: stat
        call finish(c_tbrf_rng_double(int(gen, c_int), seed, stream, offset, size(out, kind=c_int64_t), &
                                      int(dist, c_int), out), "tbrf_rng_double", "", stat)
    end subroutine tbrf_rng_double

    subroutine tbrf_rng_float(gen, seed, stream, offset, dist, out, stat)
        integer, intent(in) :: gen, dist
        integer(c_int64_t), intent(in) :: seed, stream, offset
        real(c_float), intent(out), contiguous :: out(:)
        integer, intent(out), optional :: stat
        call finish(c_tbrf_rng_float(int(gen, c_int), seed, stream, offset, size(out, kind=c_int64_t), &
                                     int(dist, c_int), out), "tbrf_rng_float", "", stat)
    end subroutine tbrf_rng_float

    !> One Philox4x32-10 block: out = philox(ctr, key).
    subroutine tbrf_rng_philox4x32(ctr, key, out)
        integer(c_int32_t), intent(in) :: ctr(4), key(2)
        integer(c_int32_t), intent(out) :: out(4)
        call c_tbrf_rng_philox4x32(ctr, key, out)
    end subroutine tbrf_rng_philox4x32

    !> TEA8 hash of v(1:2) in place; key absent: the GPU key.
    subroutine tbrf_rng_tea8(v, key)
        integer(c_int32_t), intent(inout) :: v(2)
        integer(c_int32_t), intent(in), optional :: key(4)
        integer(c_int32_t), parameter :: gpu_key(4) = [int(z'A341316C', c_int32_t), &
            int(z'C8013EA4', c_int32_t), int(z'AD90777D', c_int32_t), int(z'7E95761E', c_int32_t)]
        if (present(key)) then
            call c_tbrf_rng_tea8(v, key)
        else
            call c_tbrf_rng_tea8(v, gpu_key)
        end if
    end subroutine tbrf_rng_tea8

    function tbrf_rng_seed_prehash(seed) result(h)
        integer(c_int32_t), intent(in) :: seed
        integer(c_int32_t) :: h
        h = c_tbrf_rng_seed_prehash(seed)
    end function tbrf_rng_seed_prehash

    !> Seeds a Saru state from size(seeds) = 1, 2 or 3 words.
    subroutine tbrf_rng_saru_seed(seeds, state, stat)
        integer(c_int32_t), intent(in) :: seeds(:)
        integer(c_int32_t), intent(out) :: state(2)
        integer, intent(out), optional :: stat
        integer(c_int32_t) :: w(3)
        w = 0
        w(1:min(3, size(seeds))) = seeds(1:min(3, size(seeds)))
        call finish(c_tbrf_rng_saru_seed(int(size(seeds), c_int), w, state), "tbrf_rng_saru_seed", "", stat)
    end subroutine tbrf_rng_saru_seed

    !> Steps the Saru state size(out) times, writing the outputs.
    subroutine tbrf_rng_saru_next(state, out, stat)
        integer(c_int32_t), intent(inout) :: state(2)
        integer(c_int32_t), intent(out), contiguous :: out(:)
        integer, intent(out), optional :: stat
        call finish(c_tbrf_rng_saru_next(state, size(out, kind=c_int64_t), out), "tbrf_rng_saru_next", "", stat)
    end subroutine tbrf_rng_saru_next

    subroutine tbrf_rng_saru_jump(state, n, stat)
        integer(c_int32_t), intent(inout) :: state(2)
        integer(c_int64_t), intent(in) :: n
        integer, intent(out), optional :: stat
        call finish(c_tbrf_rng_saru_jump(state, n), "tbrf_rng_saru_jump", "", stat)
    end subroutine tbrf_rng_saru_jump

    subroutine tbrf_rng_stream_id(seed, step, id, state, stat)
        integer(c_int32_t), intent(in) :: seed, step, id
        integer(c_int32_t), intent(out) :: state(2)
        integer, intent(out), optional :: stat
        call finish(c_tbrf_rng_stream_id(seed, step, id, state), "tbrf_rng_stream_id", "", stat)
    end subroutine tbrf_rng_stream_id

    subroutine tbrf_rng_stream_pair(seed, step, i, j, state, stat)
        integer(c_int32_t), intent(in) :: seed, step, i, j
        integer(c_int32_t), intent(out) :: state(2)
        integer, intent(out), optional :: stat
        call finish(c_tbrf_rng_stream_pair(seed, step, i, j, state), "tbrf_rng_stream_pair", "", stat)
    end subroutine tbrf_rng_stream_pair

    !> The 64-bit LCG state n steps after x.
    function tbrf_rng_lcg64_jump(x, n) result(y)
        integer(c_int64_t), intent(in) :: x, n
        integer(c_int64_t) :: y
        y = c_tbrf_rng_lcg64_jump(x, n)
    end function tbrf_rng_lcg64_jump

    !> Block-form tables of length s = size(y) = size(t).
    subroutine tbrf_rng_lcg64_block(y, t, stat)
        integer(c_int64_t), intent(out), contiguous :: y(:), t(:)
        integer, intent(out), optional :: stat
        if (size(y) /= size(t)) then
            call finish(TBRF_ERR_SIZE, "tbrf_rng_lcg64_block", "y and t differ in size", stat)
            return
        end if
        call finish(c_tbrf_rng_lcg64_block(size(y, kind=c_int64_t), y, t), "tbrf_rng_lcg64_block", "", stat)
    end subroutine tbrf_rng_lcg64_block

    !> Name of a built-in integrand ("" if unknown).
    function tbrf_mc_integrand_name(integrand) result(s)
        integer, intent(in) :: integrand
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_mc_integrand_name(int(integrand, c_int)))
    end function tbrf_mc_integrand_name

    ! The parameters a(:) and u(:) of a built-in integrand, the defaults
    ! (a = 1, u = 0.5) where absent; TBRF_ERR_SIZE if shorter than dim.
    subroutine mc_params(dim, a, u, aa, uu, st)
        integer, intent(in) :: dim
        real(c_double), intent(in), optional :: a(:), u(:)
        real(c_double), allocatable, intent(out) :: aa(:), uu(:)
        integer(c_int), intent(out) :: st
        integer :: d
        d = max(1, dim)
        allocate(aa(d), uu(d))
        aa = 1
        uu = 0.5_c_double
        st = TBRF_OK
        if (present(a)) then
            if (size(a) < dim) st = TBRF_ERR_SIZE
            if (st == TBRF_OK .and. dim > 0) aa(1:dim) = a(1:dim)
        end if
        if (present(u)) then
            if (size(u) < dim) st = TBRF_ERR_SIZE
            if (st == TBRF_OK .and. dim > 0) uu(1:dim) = u(1:dim)
        end if
    end subroutine mc_params

    !> Exact integral over [0,1]^dim of a built-in integrand.
    subroutine tbrf_mc_exact(integrand, dim, exact, a, u, stat)
        integer, intent(in) :: integrand, dim
        real(c_double), intent(out) :: exact
        real(c_double), intent(in), optional :: a(:), u(:)
        integer, intent(out), optional :: stat
        real(c_double), allocatable :: aa(:), uu(:)
        integer(c_int) :: st
        exact = 0
        call mc_params(dim, a, u, aa, uu, st)
        if (st == TBRF_OK) st = c_tbrf_mc_exact(int(integrand, c_int), int(dim, c_int), aa, uu, exact)
        call finish(st, "tbrf_mc_exact", "", stat)
    end subroutine tbrf_mc_exact

    !> Estimate out(1) and standard error out(2) of a built-in integrand from
    !> n points of the 64-bit LCG started at seed.
    subroutine tbrf_mc_integrate(integrand, dim, n, seed, algorithm, block, out, a, u, stat)
        integer, intent(in) :: integrand, dim, algorithm
        integer(c_int64_t), intent(in) :: n, seed, block
        real(c_double), intent(out) :: out(2)
        real(c_double), intent(in), optional :: a(:), u(:)
        integer, intent(out), optional :: stat
        real(c_double), allocatable :: aa(:), uu(:)
        integer(c_int) :: st
        out = 0
        call mc_params(dim, a, u, aa, uu, st)
        if (st == TBRF_OK) st = c_tbrf_mc_integrate(int(integrand, c_int), int(dim, c_int), aa, uu, n, seed, &
                                                    int(algorithm, c_int), block, out)
        call finish(st, "tbrf_mc_integrate", "", stat)
    end subroutine tbrf_mc_integrate

    !> As tbrf_mc_integrate (vectorized) on a GPU backend (TBRF_BACKEND_OPENCL
    !> or TBRF_BACKEND_CUDA; device -1 = the first usable one).
    subroutine tbrf_mc_integrate_device(backend, device, integrand, dim, n, seed, out, a, u, stat)
        integer, intent(in) :: backend, device, integrand, dim
        integer(c_int64_t), intent(in) :: n, seed
        real(c_double), intent(out) :: out(2)
        real(c_double), intent(in), optional :: a(:), u(:)
        integer, intent(out), optional :: stat
        real(c_double), allocatable :: aa(:), uu(:)
        integer(c_int) :: st
        out = 0
        call mc_params(dim, a, u, aa, uu, st)
        if (st == TBRF_OK) st = c_tbrf_mc_integrate_device(int(backend, c_int), int(device, c_int), &
                                                           int(integrand, c_int), int(dim, c_int), aa, uu, &
                                                           n, seed, out)
        call finish(st, "tbrf_mc_integrate_device", "", stat)
    end subroutine tbrf_mc_integrate_device

    !> As tbrf_mc_integrate for a Fortran integrand with the bind(C)
    !> interface tbrf_mc_fn over the box [lo, hi] (absent: the unit cube).
    subroutine tbrf_mc_integrate_fn(fn, dim, n, seed, algorithm, block, out, user, lo, hi, stat)
        procedure(tbrf_mc_fn) :: fn
        integer, intent(in) :: dim, algorithm
        integer(c_int64_t), intent(in) :: n, seed, block
        real(c_double), intent(out) :: out(2)
        type(c_ptr), intent(in), optional :: user
        real(c_double), intent(in), optional :: lo(:), hi(:)
        integer, intent(out), optional :: stat
        real(c_double), allocatable :: l(:), h(:)
        type(c_ptr) :: us
        integer(c_int) :: st
        out = 0
        us = c_null_ptr
        if (present(user)) us = user
        allocate(l(max(1, dim)), h(max(1, dim)))
        l = 0
        h = 1
        st = TBRF_OK
        if (present(lo)) then
            if (size(lo) < dim) st = TBRF_ERR_SIZE
            if (st == TBRF_OK .and. dim > 0) l(1:dim) = lo(1:dim)
        end if
        if (present(hi)) then
            if (size(hi) < dim) st = TBRF_ERR_SIZE
            if (st == TBRF_OK .and. dim > 0) h(1:dim) = hi(1:dim)
        end if
        if (st == TBRF_OK) st = c_tbrf_mc_integrate_fn(c_funloc(fn), us, int(dim, c_int), l, h, n, seed, &
                                                       int(algorithm, c_int), block, out)
        call finish(st, "tbrf_mc_integrate_fn", "", stat)
    end subroutine tbrf_mc_integrate_fn

    subroutine tbrf_mc_measure_beta(beta, stat)
        real(c_double), intent(out) :: beta
        integer, intent(out), optional :: stat
        call finish(c_tbrf_mc_measure_beta(beta), "tbrf_mc_measure_beta", "", stat)
    end subroutine tbrf_mc_measure_beta

    subroutine tbrf_mc_block_size(n, dim, beta, s, stat)
        integer(c_int64_t), intent(in) :: n
        integer, intent(in) :: dim
        real(c_double), intent(in) :: beta
        integer(c_int64_t), intent(out) :: s
        integer, intent(out), optional :: stat
        call finish(c_tbrf_mc_block_size(n, int(dim, c_int), beta, s), "tbrf_mc_block_size", "", stat)
    end subroutine tbrf_mc_block_size

    ! ------------------------------------------------------------ cosmology
    ! (doc/arepo.md, "Cosmology"; the C comments in tbrf.h give the ranges.)

    !> E(a) = H(a)/H0 for matter + Lambda + curvature (no radiation).
    subroutine tbrf_cosmo_hubble(omega_m, omega_lambda, a, hubble, stat)
        real(c_double), intent(in) :: omega_m, omega_lambda, a
        real(c_double), intent(out) :: hubble
        integer, intent(out), optional :: stat
        call finish(c_tbrf_cosmo_hubble(omega_m, omega_lambda, a, hubble), "tbrf_cosmo_hubble", "", stat)
    end subroutine tbrf_cosmo_hubble

    !> Linear growth factor D(z), D(0) = 1 (exact integral form).
    subroutine tbrf_cosmo_growth(omega_m, omega_lambda, z, growth, stat)
        real(c_double), intent(in) :: omega_m, omega_lambda, z
        real(c_double), intent(out) :: growth
        integer, intent(out), optional :: stat
        call finish(c_tbrf_cosmo_growth(omega_m, omega_lambda, z, growth), "tbrf_cosmo_growth", "", stat)
    end subroutine tbrf_cosmo_growth

    !> Linear growth rate f = dln D/dln a at redshift z.
    subroutine tbrf_cosmo_growth_rate(omega_m, omega_lambda, z, rate, stat)
        real(c_double), intent(in) :: omega_m, omega_lambda, z
        real(c_double), intent(out) :: rate
        integer, intent(out), optional :: stat
        call finish(c_tbrf_cosmo_growth_rate(omega_m, omega_lambda, z, rate), "tbrf_cosmo_growth_rate", &
                    "", stat)
    end subroutine tbrf_cosmo_growth_rate

    !> Second-order growth factor D2 (about -(3/7) D**2) and its rate f2 = dln D2/dln a at z,
    !> from the growth equations (tbrf_cosmo_growth2).
    subroutine tbrf_cosmo_growth2(omega_m, omega_lambda, z, growth2, rate2, stat)
        real(c_double), intent(in) :: omega_m, omega_lambda, z
        real(c_double), intent(out) :: growth2, rate2
        integer, intent(out), optional :: stat
        call finish(c_tbrf_cosmo_growth2(omega_m, omega_lambda, z, growth2, rate2), &
                    "tbrf_cosmo_growth2", "", stat)
    end subroutine tbrf_cosmo_growth2

    !> Eisenstein & Hu (1998) transfer function at k (h/Mpc); wiggles .true.
    !> for the full fit, .false. for the no-wiggle form.
    subroutine tbrf_cosmo_eh_transfer(omega_m, omega_b, h, t_cmb, wiggles, k, transfer, stat)
        real(c_double), intent(in) :: omega_m, omega_b, h, t_cmb, k
        logical, intent(in) :: wiggles
        real(c_double), intent(out) :: transfer
        integer, intent(out), optional :: stat
        integer(c_int) :: w
        w = 0
        if (wiggles) w = 1
        call finish(c_tbrf_cosmo_eh_transfer(omega_m, omega_b, h, t_cmb, w, k, transfer), &
                    "tbrf_cosmo_eh_transfer", "", stat)
    end subroutine tbrf_cosmo_eh_transfer

    !> sigma(R) of a 3D model smoothed by a top-hat sphere of radius r.
    subroutine tbrf_cosmo_sigma_r(model, r, sigma, stat)
        type(tbrf_model), intent(in) :: model
        real(c_double), intent(in) :: r
        real(c_double), intent(out) :: sigma
        integer, intent(out), optional :: stat
        call finish(c_tbrf_cosmo_sigma_r(model%ptr, r, sigma), "tbrf_cosmo_sigma_r", "", stat)
    end subroutine tbrf_cosmo_sigma_r

    !> Sets the amplitude so that sigma(r) = sigma (sigma8: r = 8 Mpc/h).
    subroutine tbrf_model_normalize_sigma(model, r, sigma, stat)
        type(tbrf_model), intent(inout) :: model
        real(c_double), intent(in) :: r, sigma
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_normalize_sigma(model%ptr, r, sigma), "tbrf_model_normalize_sigma", &
                          model, stat)
    end subroutine tbrf_model_normalize_sigma

    !> P(k) = A k^n_s T_EH(k)^2 (k in h/Mpc) tabulated on [kmin, kmax].
    subroutine tbrf_model_eisenstein_hu(model, omega_m, omega_b, h, n_s, t_cmb, wiggles, kmin, kmax, stat)
        type(tbrf_model), intent(out) :: model
        real(c_double), intent(in) :: omega_m, omega_b, h, n_s, t_cmb, kmin, kmax
        logical, intent(in) :: wiggles
        integer, intent(out), optional :: stat
        integer(c_int) :: w
        w = 0
        if (wiggles) w = 1
        call finish_model(c_tbrf_model_eisenstein_hu(omega_m, omega_b, h, n_s, t_cmb, w, kmin, kmax, &
                                                     model%ptr), "tbrf_model_eisenstein_hu", model, stat)
    end subroutine tbrf_model_eisenstein_hu

    ! ------------------------------------------------- turbulence driving
    ! Three lines per step of an MHD code (doc/fortran.md, "Driving"):
    !   call tbrf_driver_make(drv, model, seed, params)       ! once
    !   call tbrf_driver_points(drv, time, xyz, force)         ! every step
    !   v = v + dt * force                                     ! the code's own

    !> Flat shell spectrum k^(dim-1) P on [kmin, kmax] (TurbGen's band).
    subroutine tbrf_model_band(model, kmin, kmax, stat)
        type(tbrf_model), intent(out) :: model
        real(c_double), intent(in) :: kmin, kmax
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_band(kmin, kmax, model%ptr), "tbrf_model_band", model, stat)
    end subroutine tbrf_model_band

    !> Shell spectrum 1 - u^2, zero at kmin and kmax (TurbGen's parabola).
    subroutine tbrf_model_parabola(model, kmin, kmax, stat)
        type(tbrf_model), intent(out) :: model
        real(c_double), intent(in) :: kmin, kmax
        integer, intent(out), optional :: stat
        call finish_model(c_tbrf_model_parabola(kmin, kmax, model%ptr), "tbrf_model_parabola", model, stat)
    end subroutine tbrf_model_parabola

    subroutine tbrf_driver_default_params(params)
        type(tbrf_driver_params), intent(out) :: params
        call c_tbrf_driver_default_params(params)
    end subroutine tbrf_driver_default_params

    !> TurbGen's parameter file (its text, lines separated by new_line('a'))
    !> as driver parameters, a seed and a model (doc/driving.md, "TurbGen's
    !> parameter files"); on failure the reason goes to `message` (if
    !> present) or, without `stat`, to stderr before stopping.
    subroutine tbrf_driver_params_from_turbgen(text, params, seed, model, message, stat)
        character(len=*), intent(in) :: text
        type(tbrf_driver_params), intent(out) :: params
        integer(c_int64_t), intent(out) :: seed
        type(tbrf_model), intent(out) :: model
        character(len=*), intent(out), optional :: message
        integer, intent(out), optional :: stat
        character(kind=c_char) :: msg(512)
        integer(c_int) :: st
        integer :: i, n
        character(len=512) :: m
        st = c_tbrf_driver_params_from_turbgen(c_str(text), params, seed, model%ptr, msg, &
                                               int(size(msg), c_int64_t))
        m = ''
        n = 0
        do i = 1, size(msg)
            if (msg(i) == c_null_char) exit
            n = i
            m(i:i) = msg(i)
        end do
        if (present(message)) message = m(1:n)
        call finish(st, "tbrf_driver_params_from_turbgen", m(1:n), stat)
    end subroutine tbrf_driver_params_from_turbgen

    !> TurbGen's amplitude controller (doc/driving.md, "Amplitude control"):
    !> the gains for the next interval dt from the gains and the measured
    !> per-component velocity dispersions at time t (size(gain) components,
    !> 1 to 3). A component measured 0, or t <= 0.1 timescale, keeps its
    !> gain (TurbGen's guards). gain_out is always defined: on any failure
    !> it is gain, and the reason (naming the argument) goes to `message`
    !> (if present) and, without `stat`, to stderr before stopping.
    subroutine tbrf_driver_amplitude_adjust(gain, measured, target, t, dt, timescale, gain_out, &
                                            message, stat)
        real(c_double), intent(in) :: gain(:), measured(:), target, t, dt, timescale
        real(c_double), intent(out) :: gain_out(:)
        character(len=*), intent(out), optional :: message
        integer, intent(out), optional :: stat
        character(kind=c_char) :: msg(512)
        character(len=512) :: m
        integer(c_int) :: st
        integer :: i, n
        n = min(size(gain), size(gain_out))
        gain_out(1:n) = gain(1:n)
        if (size(gain_out) > n) gain_out(n + 1:) = 0
        if (present(message)) message = ''
        if (size(measured) /= size(gain) .or. size(gain_out) /= size(gain)) then
            if (present(message)) message = 'gain, measured and gain_out must have the same size'
            call finish(int(TBRF_ERR_SIZE, c_int), "tbrf_driver_amplitude_adjust", &
                        "gain, measured and gain_out must have the same size", stat)
            return
        end if
        st = c_tbrf_driver_amplitude_adjust(int(size(gain), c_int32_t), gain, measured, target, t, dt, &
                                            timescale, gain_out, msg, int(size(msg), c_int64_t))
        m = ''
        n = 0
        do i = 1, size(msg)
            if (msg(i) == c_null_char) exit
            n = i
            m(i:i) = msg(i)
        end do
        if (present(message)) message = m(1:n)
        call finish(st, "tbrf_driver_amplitude_adjust", m(1:n), stat)
    end subroutine tbrf_driver_amplitude_adjust

    !> The driver parameters a saved state records (the gains of amplitude
    !> control among them, as amplitude_factor) and its seed, for a restart:
    !> make the driver from them and load the state (doc/driving.md,
    !> "Amplitude control").
    subroutine tbrf_driver_state_params(state, params, seed, message, stat)
        integer(c_int8_t), intent(in), target :: state(:)
        type(tbrf_driver_params), intent(out) :: params
        integer(c_int64_t), intent(out) :: seed
        character(len=*), intent(out), optional :: message
        integer, intent(out), optional :: stat
        character(kind=c_char) :: msg(512)
        character(len=512) :: m
        integer(c_int) :: st
        integer :: i, n
        call c_tbrf_driver_default_params(params)
        seed = 0
        st = c_tbrf_driver_state_params(c_loc(state), size(state, kind=c_int64_t), params, seed, msg, &
                                        int(size(msg), c_int64_t))
        m = ''
        n = 0
        do i = 1, size(msg)
            if (msg(i) == c_null_char) exit
            n = i
            m(i:i) = msg(i)
        end do
        if (present(message)) message = m(1:n)
        call finish(st, "tbrf_driver_state_params", m(1:n), stat)
    end subroutine tbrf_driver_state_params

    subroutine driver_assign(to, from)
        class(tbrf_driver), intent(inout) :: to
        type(tbrf_driver), intent(in) :: from
        if (c_associated(from%ptr) .or. c_associated(to%ptr)) then
            write(error_unit, '(a)') 'tbrf: a tbrf_driver cannot be copied (it owns a C object)'
            error stop 1
        end if
    end subroutine driver_assign

    subroutine driver_final(driver)
        type(tbrf_driver), intent(inout) :: driver
        call tbrf_driver_destroy(driver)
    end subroutine driver_final

    subroutine finish_driver(st, where, driver, stat)
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: where
        type(tbrf_driver), intent(in) :: driver
        integer, intent(out), optional :: stat
        if (st == TBRF_OK .or. present(stat)) then
            call finish(st, where, "", stat)
        else
            call finish(st, where, tbrf_driver_message(driver), stat)
        end if
    end subroutine finish_driver

    !> A failure the driver wrapper found itself (an array's shape or size):
    !> kept as the driver's message, as a plan's (wrapper_fail), so that
    !> stat= callers read it from tbrf_driver_message.
    subroutine driver_fail(driver, st, where, detail, stat)
        type(tbrf_driver), intent(inout) :: driver
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: where, detail
        integer, intent(out), optional :: stat
        driver%msg = where // ": " // detail
        call finish(st, where, detail, stat)
    end subroutine driver_fail

    !> Forgets the wrapper's last message (each call's own failure, if any,
    !> is the one tbrf_driver_message gives).
    subroutine driver_clear(driver)
        type(tbrf_driver), intent(inout) :: driver
        if (allocated(driver%msg)) deallocate(driver%msg)
    end subroutine driver_clear

    subroutine make_driver_i4(driver, model, seed, params, stat)
        type(tbrf_driver), intent(out) :: driver
        type(tbrf_model), intent(in) :: model
        integer(c_int32_t), intent(in) :: seed
        type(tbrf_driver_params), intent(in), optional :: params
        integer, intent(out), optional :: stat
        call make_driver_i8(driver, model, int(seed, c_int64_t), params, stat)
    end subroutine make_driver_i4

    !> Makes a driver (absent params: tbrf_driver_default_params).
    subroutine make_driver_i8(driver, model, seed, params, stat)
        type(tbrf_driver), intent(out) :: driver
        type(tbrf_model), intent(in) :: model
        integer(c_int64_t), intent(in) :: seed
        type(tbrf_driver_params), intent(in), optional :: params
        integer, intent(out), optional :: stat
        type(tbrf_driver_params), target :: p
        if (present(params)) then
            p = params
        else
            call c_tbrf_driver_default_params(p)
        end if
        driver%dim = p%dim
        driver%nc = p%dim
        if (p%components == 3) driver%nc = 3
        call finish_driver(c_tbrf_driver_make(model%ptr, seed, c_loc(p), driver%ptr), "tbrf_driver_make", &
                           driver, stat)
    end subroutine make_driver_i8

    !> "(3, 6, 5, 4)": a shape or a list of counts, for messages.
    function shape_text(v) result(s)
        integer(c_int64_t), intent(in) :: v(:)
        character(len=:), allocatable :: s
        character(len=24) :: num
        integer :: i
        s = "("
        do i = 1, size(v)
            write(num, '(i0)') v(i)
            s = s // trim(num)
            if (i < size(v)) s = s // ", "
        end do
        s = s // ")"
    end function shape_text

    !> The memory budget in bytes (tbrf_memory_budget), huge() for one
    !> beyond the int64 range, -1 when TBRF_MEMORY_BUDGET is not a size.
    real(c_double) function budget_bytes() result(b)
        integer(c_int64_t) :: budget
        b = -1
        if (c_tbrf_memory_budget(budget) /= TBRF_OK) return
        b = huge(b)
        if (budget >= 0) b = real(budget, c_double)
    end function budget_bytes

    !> Whether `bytes` of a temporary fit the memory budget; else .false.
    !> after driver_fail naming both.
    logical function temp_fits(driver, where, bytes, stat) result(ok)
        type(tbrf_driver), intent(inout) :: driver
        character(len=*), intent(in) :: where
        real(c_double), intent(in) :: bytes
        integer, intent(out), optional :: stat
        real(c_double) :: budget
        character(len=16) :: need, have
        budget = budget_bytes()
        ok = bytes <= budget
        if (ok) return
        if (budget < 0) then
            call driver_fail(driver, TBRF_ERR_INVALID, where, "TBRF_MEMORY_BUDGET is not a size in bytes", stat)
            return
        end if
        write(need, '(f0.3)') bytes / 1048576d0
        write(have, '(f0.3)') budget / 1048576d0
        call driver_fail(driver, TBRF_ERR_SIZE, where, "a temporary of the values would need " // trim(need) // &
                         " MiB, more than the memory budget of " // trim(have) // " MiB (TBRF_MEMORY_BUDGET)", stat)
    end function temp_fits

    !> xyz(dim, n) and a force of fd1 x fd2 (dim, at least n) for points.
    logical function points_shapes(driver, xyz, fd1, fd2, stat) result(ok)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: xyz(:, :)
        integer, intent(in) :: fd1, fd2
        integer, intent(out), optional :: stat
        integer(c_int64_t) :: d, nc
        call driver_clear(driver)
        d = driver%dim
        nc = driver%nc
        ok = .not. c_associated(driver%ptr) .or. &  ! the C call says why
             (size(xyz, 1) == d .and. fd1 == nc .and. fd2 >= size(xyz, 2))
        if (.not. ok) &
            call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_points", "xyz is " // &
                             shape_text(shape(xyz, c_int64_t)) // " and force " // &
                             shape_text(int([fd1, fd2], c_int64_t)) // ": xyz must be (dim, n) and force (nc, n) with " // &
                             "(dim, nc) = " // shape_text([d, nc]) // ", force at least as long as xyz", stat)
    end function points_shapes

    !> The force at time t at positions xyz(dim, n) into force(dim, n).
    subroutine driver_points_d(driver, t, xyz, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t
        real(c_double), intent(in), contiguous :: xyz(:, :)
        real(c_double), intent(out), contiguous :: force(:, :)
        integer, intent(out), optional :: stat
        if (.not. points_shapes(driver, xyz, size(force, 1), size(force, 2), stat)) return
        call finish_driver(c_tbrf_driver_points(driver%ptr, t, size(xyz, 2, kind=c_int64_t), xyz, &
                                                force), "tbrf_driver_points", driver, stat)
    end subroutine driver_points_d

    !> The same into single precision (through a double temporary of the
    !> points' values, within the memory budget).
    subroutine driver_points_f(driver, t, xyz, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t
        real(c_double), intent(in), contiguous :: xyz(:, :)
        real(c_float), intent(out) :: force(:, :)
        integer, intent(out), optional :: stat
        real(c_double), allocatable :: tmp(:, :)
        integer(c_int) :: st
        if (.not. points_shapes(driver, xyz, size(force, 1), size(force, 2), stat)) return
        if (.not. temp_fits(driver, "tbrf_driver_points", 8d0 * size(xyz), stat)) return
        allocate(tmp(size(xyz, 1), size(xyz, 2)))
        st = c_tbrf_driver_points(driver%ptr, t, size(xyz, 2, kind=c_int64_t), xyz, tmp)
        if (st == TBRF_OK) force(:, 1:size(xyz, 2)) = real(tmp, c_float)
        deallocate(tmp)
        call finish_driver(st, "tbrf_driver_points", driver, stat)
    end subroutine driver_points_f

    !> The force at time t at positions x(n, dim) (the components last)
    !> into force(n, nc), written in place by the C library.
    subroutine tbrf_driver_points_component_last(driver, t, x, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t
        real(c_double), intent(in), contiguous :: x(:, :)
        real(c_double), intent(out), contiguous :: force(:, :)
        integer, intent(out), optional :: stat
        call driver_clear(driver)
        if (c_associated(driver%ptr) .and. (size(x, 2) /= driver%dim .or. size(force, 2) /= driver%nc .or. &
                                           size(force, 1) /= size(x, 1))) then
            call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_points_component_last", "x is " // &
                             shape_text(shape(x, c_int64_t)) // " and force " // &
                             shape_text(shape(force, c_int64_t)) // ": x must be (n, dim) and force (n, nc) " // &
                             "with (dim, nc) = " // shape_text(int([driver%dim, driver%nc], c_int64_t)), stat)
            return
        end if
        call finish_driver(c_tbrf_driver_points_component_last(driver%ptr, t, size(x, 1, kind=c_int64_t), x, &
                                                               force), "tbrf_driver_points_component_last", &
                           driver, stat)
    end subroutine tbrf_driver_points_component_last

    !> force(nx, ny, nz, nc): the grid's counts from the shape.
    subroutine grid_last_4(driver, t, origin, spacing, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_double), intent(out), contiguous :: force(:, :, :, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3), s(4)
        s = shape(force, c_int64_t)
        if (.not. grid_args(driver, origin, spacing, s(1:3), o, h, nn, stat)) return
        if (.not. grid_shape(driver, "force", s, [nn, int(driver%nc, c_int64_t)], stat)) return
        call finish_driver(c_tbrf_driver_grid_component_last(driver%ptr, t, o, h, nn, force), &
                           "tbrf_driver_grid_component_last", driver, stat)
    end subroutine grid_last_4

    !> force(nx, ny, nc) of a 2D driver.
    subroutine grid_last_3(driver, t, origin, spacing, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_double), intent(out), contiguous :: force(:, :, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3), s(3)
        s = shape(force, c_int64_t)
        if (.not. grid_args(driver, origin, spacing, [s(1), s(2), 1_c_int64_t], o, h, nn, stat)) return
        if (.not. grid_shape(driver, "force", s, [nn(1:2), int(driver%nc, c_int64_t)], stat)) return
        if (driver%dim /= 2) then
            call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_grid_component_last", "force has shape " // &
                             shape_text(s) // ": a 3D driver's grid is force(nx, ny, nz, nc)", stat)
            return
        end if
        call finish_driver(c_tbrf_driver_grid_component_last(driver%ptr, t, o, h, nn, force), &
                           "tbrf_driver_grid_component_last", driver, stat)
    end subroutine grid_last_3

    !> Checks a grid's origin, spacing and n (at least dim values each,
    !> counts >= 1) and makes the C call's (unused axes 0, 1, 1); .false.
    !> after driver_fail.
    logical function grid_args(driver, origin, spacing, n, o, h, nn, stat) result(ok)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: origin(:), spacing(:)
        integer(c_int64_t), intent(in) :: n(:)
        real(c_double), intent(out) :: o(3), h(3)
        integer(c_int64_t), intent(out) :: nn(3)
        integer, intent(out), optional :: stat
        integer :: d
        call driver_clear(driver)
        ok = .false.
        o = 0
        h = 1
        nn = 1
        d = driver%dim
        if (.not. c_associated(driver%ptr)) then
            call driver_fail(driver, TBRF_ERR_NULL, "tbrf_driver_grid", "the driver is not made (or was destroyed)", &
                             stat)
        else if (size(origin) < d .or. size(spacing) < d .or. size(n) < d) then
            call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_grid", "origin, spacing and n have " // &
                             shape_text(int([size(origin), size(spacing), size(n)], c_int64_t)) // &
                             " values: a grid of dim " // shape_text([int(d, c_int64_t)]) // " needs dim each", stat)
        else if (any(n(1:d) < 1)) then
            call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_grid", "n = " // shape_text(n(1:d)) // &
                             ": counts must be >= 1", stat)
        else
            o(1:d) = origin(1:d)
            h(1:d) = spacing(1:d)
            nn(1:d) = n(1:d)
            ok = real(nn(1), c_double) * nn(2) * nn(3) * d < 9d15
            if (.not. ok) call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_grid", "n = " // &
                                           shape_text(nn(1:d)) // ": too many cells", stat)
        end if
    end function grid_args

    !> An output array's shape against the grid's: .false. after
    !> driver_fail naming both.
    logical function grid_shape(driver, what, got, want, stat) result(ok)
        type(tbrf_driver), intent(inout) :: driver
        character(len=*), intent(in) :: what
        integer(c_int64_t), intent(in) :: got(:), want(:)
        integer, intent(out), optional :: stat
        ok = size(got) == size(want)
        if (ok) ok = all(got == want)
        if (.not. ok) call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_grid", what // " has shape " // &
                                       shape_text(got) // ", the grid needs " // shape_text(want), stat)
    end function grid_shape

    !> Whether count values whose first, second and last elements lie at the
    !> addresses a0, a1 and an fill one block in array element order (the
    !> layout the C library writes; F2008 has no is_contiguous).
    logical function grid_contiguous(a0, a1, an, count) result(ok)
        type(c_ptr), intent(in) :: a0, a1, an
        integer(c_int64_t), intent(in) :: count
        integer(c_intptr_t) :: p0, p1, pn
        integer(c_intptr_t), parameter :: w = c_sizeof(0.0_c_double)
        p0 = transfer(a0, p0)
        p1 = transfer(a1, p1)
        pn = transfer(an, pn)
        ok = pn - p0 == w * (count - 1) .and. (count < 2 .or. p1 - p0 == w)
    end function grid_contiguous

    !> Planes k0 .. k0 + kk - 1 (counted from 0) of the grid into tmp: the
    !> slab's z origin is origin + k0 spacing, as the C library computes a
    !> plane's z, so the values are those of the whole grid's call.
    function grid_planes(driver, t, o, h, nn, k0, kk, tmp) result(st)
        type(tbrf_driver), intent(in) :: driver
        real(c_double), intent(in) :: t, o(3), h(3)
        integer(c_int64_t), intent(in) :: nn(3), k0, kk
        real(c_double), intent(inout) :: tmp(*)
        integer(c_int) :: st
        real(c_double) :: oz(3)
        integer(c_int64_t) :: m(3)
        oz = o
        m = nn
        m(3) = kk
        if (k0 > 0) oz(3) = o(3) + h(3) * real(k0, c_double)
        st = c_tbrf_driver_grid(driver%ptr, t, oz, h, m, tmp)
    end function grid_planes

    !> Planes per evaluation through the temporary: the whole grid when its
    !> doubles fit 64 MiB and half the memory budget (one call, as a direct
    !> one), else one plane at a time; 0 after driver_fail when a plane
    !> does not fit half the budget.
    function grid_slab(driver, nn, stat) result(kc)
        type(tbrf_driver), intent(inout) :: driver
        integer(c_int64_t), intent(in) :: nn(3)
        integer, intent(out), optional :: stat
        integer(c_int64_t) :: kc
        real(c_double) :: plane
        plane = 8d0 * driver%nc * real(nn(1), c_double) * real(nn(2), c_double)
        kc = 0
        if (.not. temp_fits(driver, "tbrf_driver_grid", 2 * plane, stat)) return
        kc = 1
        if (plane * nn(3) <= min(64d0 * 1048576d0, budget_bytes() / 2)) kc = nn(3)
    end function grid_slab

    !> The grid evaluated through a temporary of whole planes and stored
    !> into the one destination given: interleaved d4/f4 (dim, nx, ny, nz),
    !> d3/f3 (2, nx, ny), flat f1, or the components xd, yd, zd / xf, yf, zf
    !> (nx, ny, nz) or xd2, yd2 / xf2, yf2 (nx, ny); any may be a section.
    subroutine grid_fill(driver, t, o, h, nn, stat, d4, f4, d3, f3, f1, xd, yd, zd, xf, yf, zf, &
                         xd2, yd2, xf2, yf2)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, o(3), h(3)
        integer(c_int64_t), intent(in) :: nn(3)
        integer, intent(out), optional :: stat
        real(c_double), intent(inout), optional :: d4(:, :, :, :), d3(:, :, :), xd(:, :, :), yd(:, :, :), &
                                                   zd(:, :, :), xd2(:, :), yd2(:, :)
        real(c_float), intent(inout), optional :: f4(:, :, :, :), f3(:, :, :), f1(:), xf(:, :, :), &
                                                  yf(:, :, :), zf(:, :, :), xf2(:, :), yf2(:, :)
        real(c_double), allocatable, target :: tmp(:)
        real(c_double), pointer :: p(:, :, :, :)
        integer(c_int64_t) :: kc, k0, kk, d, nx, ny, a, b
        integer(c_int) :: st
        d = driver%nc
        nx = nn(1)
        ny = nn(2)
        kc = grid_slab(driver, nn, stat)
        if (kc < 1) return
        allocate(tmp(d * nx * ny * kc))
        st = TBRF_OK
        do k0 = 0, nn(3) - 1, kc
            kk = min(kc, nn(3) - k0)
            st = grid_planes(driver, t, o, h, nn, k0, kk, tmp)
            if (st /= TBRF_OK) exit
            p(1:d, 1:nx, 1:ny, 1:kk) => tmp
            a = k0 + 1
            b = k0 + kk
            if (present(d4)) d4(:, :, :, a:b) = p
            if (present(f4)) f4(:, :, :, a:b) = real(p, c_float)
            if (present(d3)) d3 = p(:, :, :, 1)
            if (present(f3)) f3 = real(p(:, :, :, 1), c_float)
            if (present(f1)) f1(k0 * d * nx * ny + 1:b * d * nx * ny) = real(tmp(1:kk * d * nx * ny), c_float)
            if (present(xd)) xd(:, :, a:b) = p(1, :, :, :)
            if (present(yd)) yd(:, :, a:b) = p(2, :, :, :)
            if (present(zd)) zd(:, :, a:b) = p(3, :, :, :)
            if (present(xf)) xf(:, :, a:b) = real(p(1, :, :, :), c_float)
            if (present(yf)) yf(:, :, a:b) = real(p(2, :, :, :), c_float)
            if (present(zf)) zf(:, :, a:b) = real(p(3, :, :, :), c_float)
            if (present(xd2)) xd2 = p(1, :, :, 1)
            if (present(yd2)) yd2 = p(2, :, :, 1)
            if (present(xf2)) xf2 = real(p(1, :, :, 1), c_float)
            if (present(yf2)) yf2 = real(p(2, :, :, 1), c_float)
        end do
        deallocate(tmp)
        call finish_driver(st, "tbrf_driver_grid", driver, stat)
    end subroutine grid_fill

    !> force(dim, nx, ny, nz), double: written directly when it is one block
    !> of memory, else (a section: the interior of a ghost-zoned array)
    !> through grid_fill.
    subroutine grid_n4_d8(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer(c_int64_t), intent(in) :: n(:)
        real(c_double), intent(out), target :: force(:, :, :, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3), s(4)
        real(c_double), pointer :: flat(:)
        if (.not. grid_args(driver, origin, spacing, n, o, h, nn, stat)) return
        if (.not. grid_shape(driver, "force", shape(force, c_int64_t), [int(driver%nc, c_int64_t), nn], stat)) return
        s = shape(force, c_int64_t)
        if (grid_contiguous(c_loc(force(1, 1, 1, 1)), c_loc(force(min(2_c_int64_t, s(1)), 1, 1, 1)), &
                            c_loc(force(s(1), s(2), s(3), s(4))), product(s))) then
            call c_f_pointer(c_loc(force(1, 1, 1, 1)), flat, [product(s)])
            call finish_driver(c_tbrf_driver_grid(driver%ptr, t, o, h, nn, flat), "tbrf_driver_grid", driver, stat)
        else
            call grid_fill(driver, t, o, h, nn, stat, d4=force)
        end if
    end subroutine grid_n4_d8

    subroutine grid_n4_d4(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer, intent(in) :: n(:)
        real(c_double), intent(out), target :: force(:, :, :, :)
        integer, intent(out), optional :: stat
        call grid_n4_d8(driver, t, origin, spacing, int(n, c_int64_t), force, stat)
    end subroutine grid_n4_d4

    !> force(dim, nx, ny, nz), single precision (through a temporary).
    subroutine grid_n4_f8(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer(c_int64_t), intent(in) :: n(:)
        real(c_float), intent(out) :: force(:, :, :, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3)
        if (.not. grid_args(driver, origin, spacing, n, o, h, nn, stat)) return
        if (.not. grid_shape(driver, "force", shape(force, c_int64_t), [int(driver%nc, c_int64_t), nn], stat)) return
        call grid_fill(driver, t, o, h, nn, stat, f4=force)
    end subroutine grid_n4_f8

    subroutine grid_n4_f4(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer, intent(in) :: n(:)
        real(c_float), intent(out) :: force(:, :, :, :)
        integer, intent(out), optional :: stat
        call grid_n4_f8(driver, t, origin, spacing, int(n, c_int64_t), force, stat)
    end subroutine grid_n4_f4

    !> force(2, nx, ny) of a 2D driver, double.
    subroutine grid_n3_d8(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer(c_int64_t), intent(in) :: n(:)
        real(c_double), intent(out) :: force(:, :, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3)
        if (.not. grid_args(driver, origin, spacing, n, o, h, nn, stat)) return
        if (.not. grid_shape(driver, "force", shape(force, c_int64_t), [int(driver%nc, c_int64_t), &
                             nn(1:driver%dim)], stat)) return
        call grid_fill(driver, t, o, h, nn, stat, d3=force)
    end subroutine grid_n3_d8

    subroutine grid_n3_d4(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer, intent(in) :: n(:)
        real(c_double), intent(out) :: force(:, :, :)
        integer, intent(out), optional :: stat
        call grid_n3_d8(driver, t, origin, spacing, int(n, c_int64_t), force, stat)
    end subroutine grid_n3_d4

    !> force(2, nx, ny) of a 2D driver, single precision.
    subroutine grid_n3_f8(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer(c_int64_t), intent(in) :: n(:)
        real(c_float), intent(out) :: force(:, :, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3)
        if (.not. grid_args(driver, origin, spacing, n, o, h, nn, stat)) return
        if (.not. grid_shape(driver, "force", shape(force, c_int64_t), [int(driver%nc, c_int64_t), &
                             nn(1:driver%dim)], stat)) return
        call grid_fill(driver, t, o, h, nn, stat, f3=force)
    end subroutine grid_n3_f8

    subroutine grid_n3_f4(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer, intent(in) :: n(:)
        real(c_float), intent(out) :: force(:, :, :)
        integer, intent(out), optional :: stat
        call grid_n3_f8(driver, t, origin, spacing, int(n, c_int64_t), force, stat)
    end subroutine grid_n3_f4

    !> A flat force(dim*nx*ny*nz) (or longer), double, x fastest after the
    !> components.
    subroutine grid_n1_d8(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer(c_int64_t), intent(in) :: n(:)
        real(c_double), intent(out), contiguous :: force(:)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3)
        if (.not. grid_args(driver, origin, spacing, n, o, h, nn, stat)) return
        if (size(force, kind=c_int64_t) < driver%nc * product(nn)) then
            call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_grid", "force has " // &
                             shape_text([size(force, kind=c_int64_t)]) // " values, fewer than nc*nx*ny*nz = " // &
                             shape_text([driver%nc * product(nn)]), stat)
            return
        end if
        call finish_driver(c_tbrf_driver_grid(driver%ptr, t, o, h, nn, force), "tbrf_driver_grid", driver, stat)
    end subroutine grid_n1_d8

    subroutine grid_n1_d4(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer, intent(in) :: n(:)
        real(c_double), intent(out), contiguous :: force(:)
        integer, intent(out), optional :: stat
        call grid_n1_d8(driver, t, origin, spacing, int(n, c_int64_t), force, stat)
    end subroutine grid_n1_d4

    !> A flat force(dim*nx*ny*nz) (or longer), single precision.
    subroutine grid_n1_f8(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer(c_int64_t), intent(in) :: n(:)
        real(c_float), intent(out) :: force(:)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3)
        if (.not. grid_args(driver, origin, spacing, n, o, h, nn, stat)) return
        if (size(force, kind=c_int64_t) < driver%nc * product(nn)) then
            call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_grid", "force has " // &
                             shape_text([size(force, kind=c_int64_t)]) // " values, fewer than nc*nx*ny*nz = " // &
                             shape_text([driver%nc * product(nn)]), stat)
            return
        end if
        call grid_fill(driver, t, o, h, nn, stat, f1=force)
    end subroutine grid_n1_f8

    subroutine grid_n1_f4(driver, t, origin, spacing, n, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        integer, intent(in) :: n(:)
        real(c_float), intent(out) :: force(:)
        integer, intent(out), optional :: stat
        call grid_n1_f8(driver, t, origin, spacing, int(n, c_int64_t), force, stat)
    end subroutine grid_n1_f4

    !> force(dim, nx, ny, nz) with n from its shape, double.
    subroutine grid_s4_d(driver, t, origin, spacing, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_double), intent(out), target :: force(:, :, :, :)
        integer, intent(out), optional :: stat
        integer(c_int64_t) :: s(4)
        s = shape(force, c_int64_t)
        call grid_n4_d8(driver, t, origin, spacing, s(2:4), force, stat)
    end subroutine grid_s4_d

    !> force(dim, nx, ny, nz) with n from its shape, single precision.
    subroutine grid_s4_f(driver, t, origin, spacing, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_float), intent(out) :: force(:, :, :, :)
        integer, intent(out), optional :: stat
        integer(c_int64_t) :: s(4)
        s = shape(force, c_int64_t)
        call grid_n4_f8(driver, t, origin, spacing, s(2:4), force, stat)
    end subroutine grid_s4_f

    !> force(2, nx, ny) of a 2D driver with n from its shape, double.
    subroutine grid_s3_d(driver, t, origin, spacing, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_double), intent(out) :: force(:, :, :)
        integer, intent(out), optional :: stat
        integer(c_int64_t) :: s(3)
        s = shape(force, c_int64_t)
        if (driver%dim == 3) then
            call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_grid", "force has shape " // shape_text(s) // &
                             ": a 3D grid needs force(3, nx, ny, nz)", stat)
            return
        end if
        call grid_n3_d8(driver, t, origin, spacing, [s(2:3), 1_c_int64_t], force, stat)
    end subroutine grid_s3_d

    !> force(2, nx, ny) of a 2D driver with n from its shape, single precision.
    subroutine grid_s3_f(driver, t, origin, spacing, force, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_float), intent(out) :: force(:, :, :)
        integer, intent(out), optional :: stat
        integer(c_int64_t) :: s(3)
        s = shape(force, c_int64_t)
        if (driver%dim == 3) then
            call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_grid", "force has shape " // shape_text(s) // &
                             ": a 3D grid needs force(3, nx, ny, nz)", stat)
            return
        end if
        call grid_n3_f8(driver, t, origin, spacing, [s(2:3), 1_c_int64_t], force, stat)
    end subroutine grid_s3_f

    !> The components of a 3D grid into fx, fy, fz (nx, ny, nz) each, double;
    !> n from their shape, which must agree.
    subroutine grid_c3_d(driver, t, origin, spacing, fx, fy, fz, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_double), intent(out) :: fx(:, :, :), fy(:, :, :), fz(:, :, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3)
        if (.not. grid_args(driver, origin, spacing, shape(fx, c_int64_t), o, h, nn, stat)) return
        if (.not. grid_shape(driver, "fx", shape(fx, c_int64_t), nn(1:driver%dim), stat)) return
        if (.not. grid_shape(driver, "fy", shape(fy, c_int64_t), nn(1:driver%dim), stat)) return
        if (.not. grid_shape(driver, "fz", shape(fz, c_int64_t), nn(1:driver%dim), stat)) return
        call grid_fill(driver, t, o, h, nn, stat, xd=fx, yd=fy, zd=fz)
    end subroutine grid_c3_d

    !> The components of a 3D grid into fx, fy, fz, single precision.
    subroutine grid_c3_f(driver, t, origin, spacing, fx, fy, fz, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_float), intent(out) :: fx(:, :, :), fy(:, :, :), fz(:, :, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3)
        if (.not. grid_args(driver, origin, spacing, shape(fx, c_int64_t), o, h, nn, stat)) return
        if (.not. grid_shape(driver, "fx", shape(fx, c_int64_t), nn(1:driver%dim), stat)) return
        if (.not. grid_shape(driver, "fy", shape(fy, c_int64_t), nn(1:driver%dim), stat)) return
        if (.not. grid_shape(driver, "fz", shape(fz, c_int64_t), nn(1:driver%dim), stat)) return
        call grid_fill(driver, t, o, h, nn, stat, xf=fx, yf=fy, zf=fz)
    end subroutine grid_c3_f

    !> fx, fy of a 2D grid hold two components: a driver of three
    !> (components = 3) would lose fz, so it is refused (use force(3, nx, ny)).
    logical function two_components(driver, stat) result(ok)
        type(tbrf_driver), intent(inout) :: driver
        integer, intent(out), optional :: stat
        ok = driver%nc == 2
        if (.not. ok) call driver_fail(driver, TBRF_ERR_SIZE, "tbrf_driver_grid", "fx, fy hold two " // &
                                       "components, the driver has three (components = 3): pass " // &
                                       "force(3, nx, ny)", stat)
    end function two_components

    !> The components of a 2D grid into fx, fy (nx, ny) each, double.
    subroutine grid_c2_d(driver, t, origin, spacing, fx, fy, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_double), intent(out) :: fx(:, :), fy(:, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3)
        if (.not. grid_args(driver, origin, spacing, [shape(fx, c_int64_t), 1_c_int64_t], o, h, nn, stat)) return
        if (.not. grid_shape(driver, "fx", shape(fx, c_int64_t), nn(1:driver%dim), stat)) return
        if (.not. grid_shape(driver, "fy", shape(fy, c_int64_t), nn(1:driver%dim), stat)) return
        if (.not. two_components(driver, stat)) return
        call grid_fill(driver, t, o, h, nn, stat, xd2=fx, yd2=fy)
    end subroutine grid_c2_d

    !> The components of a 2D grid into fx, fy, single precision.
    subroutine grid_c2_f(driver, t, origin, spacing, fx, fy, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_float), intent(out) :: fx(:, :), fy(:, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: nn(3)
        if (.not. grid_args(driver, origin, spacing, [shape(fx, c_int64_t), 1_c_int64_t], o, h, nn, stat)) return
        if (.not. grid_shape(driver, "fx", shape(fx, c_int64_t), nn(1:driver%dim), stat)) return
        if (.not. grid_shape(driver, "fy", shape(fy, c_int64_t), nn(1:driver%dim), stat)) return
        if (.not. two_components(driver, stat)) return
        call grid_fill(driver, t, o, h, nn, stat, xf2=fx, yf2=fy)
    end subroutine grid_c2_f

    !> Streaming evaluation at time t through pull/push callbacks.
    subroutine tbrf_driver_stream(driver, t, pull, push, user, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t
        procedure(tbrf_pull_fn) :: pull
        procedure(tbrf_push_fn) :: push
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        type(c_ptr) :: u
        call driver_clear(driver)
        u = c_null_ptr
        if (present(user)) u = user
        call finish_driver(c_tbrf_driver_stream(driver%ptr, t, c_funloc(pull), c_funloc(push), u), &
                           "tbrf_driver_stream", driver, stat)
    end subroutine tbrf_driver_stream

    !> The rms of the force over the box at time t (Parseval).
    subroutine tbrf_driver_rms(driver, t, rms, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t
        real(c_double), intent(out) :: rms
        integer, intent(out), optional :: stat
        call driver_clear(driver)
        call finish_driver(c_tbrf_driver_rms(driver%ptr, t, rms), "tbrf_driver_rms", driver, stat)
    end subroutine tbrf_driver_rms

    !> The modes at time t: m(3, :) and coef(2*dim, :) allocated here.
    subroutine tbrf_driver_modes(driver, t, m, coef, stat)
        type(tbrf_driver), intent(inout) :: driver
        real(c_double), intent(in) :: t
        integer(c_int32_t), allocatable, intent(out) :: m(:, :)
        real(c_double), allocatable, intent(out) :: coef(:, :)
        integer, intent(out), optional :: stat
        integer(c_int64_t) :: n(1)
        integer(c_int32_t) :: m0(3)
        real(c_double) :: c0(6)
        integer(c_int) :: st
        call driver_clear(driver)
        n = 0
        st = c_tbrf_driver_modes(driver%ptr, t, n, m0, c0)
        if (st == TBRF_OK) then
            allocate(m(3, n(1)), coef(2 * driver%nc, n(1)))
            st = c_tbrf_driver_modes(driver%ptr, t, n, m, coef)
        end if
        call finish_driver(st, "tbrf_driver_modes", driver, stat)
    end subroutine tbrf_driver_modes

    subroutine tbrf_driver_get_info(driver, info, stat)
        type(tbrf_driver), intent(in) :: driver
        type(tbrf_driver_info), intent(out) :: info
        integer, intent(out), optional :: stat
        call finish_driver(c_tbrf_driver_get_info(driver%ptr, info), "tbrf_driver_get_info", driver, stat)
    end subroutine tbrf_driver_get_info

    !> Bytes of the driver's saved state.
    function tbrf_driver_state_size(driver) result(n)
        type(tbrf_driver), intent(in) :: driver
        integer(c_int64_t) :: n
        n = c_tbrf_driver_state_size(driver%ptr)
    end function tbrf_driver_state_size

    !> The OU state into state(:) (allocated here), for a restart file.
    subroutine tbrf_driver_save(driver, state, stat)
        type(tbrf_driver), intent(in) :: driver
        integer(c_int8_t), allocatable, target, intent(out) :: state(:)
        integer, intent(out), optional :: stat
        allocate(state(max(1_c_int64_t, c_tbrf_driver_state_size(driver%ptr))))
        call finish_driver(c_tbrf_driver_save(driver%ptr, c_loc(state), size(state, kind=c_int64_t)), &
                           "tbrf_driver_save", driver, stat)
    end subroutine tbrf_driver_save

    !> Loads a state written by tbrf_driver_save for a driver made alike.
    subroutine tbrf_driver_load(driver, state, stat)
        type(tbrf_driver), intent(inout) :: driver
        integer(c_int8_t), target, intent(in) :: state(:)
        integer, intent(out), optional :: stat
        call driver_clear(driver)
        call finish_driver(c_tbrf_driver_load(driver%ptr, c_loc(state), size(state, kind=c_int64_t)), &
                           "tbrf_driver_load", driver, stat)
    end subroutine tbrf_driver_load

    !> Moves the driver's sums to backend (TBRF_BACKEND_CPU, _OPENCL, _CUDA,
    !> _AUTO) on device (default -1: the first usable); doc/driving.md, "Backends".
    subroutine tbrf_driver_set_backend(driver, backend, device, stat)
        type(tbrf_driver), intent(inout) :: driver
        integer, intent(in) :: backend
        integer, intent(in), optional :: device
        integer, intent(out), optional :: stat
        integer(c_int) :: dev
        call driver_clear(driver)
        dev = -1
        if (present(device)) dev = int(device, c_int)
        call finish_driver(c_tbrf_driver_set_backend(driver%ptr, int(backend, c_int), dev), &
                           "tbrf_driver_set_backend", driver, stat)
    end subroutine tbrf_driver_set_backend

    !> The backend the driver's sums run on (AUTO resolved); -1 for a failed driver.
    function tbrf_driver_backend(driver) result(b)
        type(tbrf_driver), intent(in) :: driver
        integer :: b
        b = c_tbrf_driver_backend(driver%ptr)
    end function tbrf_driver_backend

    function tbrf_driver_status(driver) result(st)
        type(tbrf_driver), intent(in) :: driver
        integer :: st
        st = c_tbrf_driver_status(driver%ptr)
    end function tbrf_driver_status

    !> The last failure's message: the wrapper's own (an array's shape or
    !> size) or the C library's ("" after success).
    function tbrf_driver_message(driver) result(s)
        type(tbrf_driver), intent(in) :: driver
        character(len=:), allocatable :: s
        if (allocated(driver%msg)) then
            s = driver%msg
        else
            s = tbrf_c_string(c_tbrf_driver_message(driver%ptr))
        end if
    end function tbrf_driver_message

    subroutine tbrf_driver_destroy(driver)
        type(tbrf_driver), intent(inout) :: driver
        call c_tbrf_driver_destroy(driver%ptr)
        driver%ptr = c_null_ptr
        driver%dim = 0
        driver%nc = 0
        call driver_clear(driver)
    end subroutine tbrf_driver_destroy

    ! ------------------------------------------------- inflow boundaries

    subroutine inflow_assign(to, from)
        class(tbrf_inflow), intent(inout) :: to
        type(tbrf_inflow), intent(in) :: from
        if (c_associated(from%ptr) .or. c_associated(to%ptr)) then
            write(error_unit, '(a)') 'tbrf: a tbrf_inflow cannot be copied (it owns a C object)'
            error stop 1
        end if
    end subroutine inflow_assign

    subroutine inflow_final(inflow)
        type(tbrf_inflow), intent(inout) :: inflow
        call tbrf_inflow_destroy(inflow)
    end subroutine inflow_final

    subroutine finish_inflow(st, where, inflow, stat)
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: where
        type(tbrf_inflow), intent(in) :: inflow
        integer, intent(out), optional :: stat
        if (st == TBRF_OK .or. present(stat)) then
            call finish(st, where, "", stat)
        else
            call finish(st, where, tbrf_inflow_message(inflow), stat)
        end if
    end subroutine finish_inflow

    !> The tube [lo, hi] that ghost cells in [ghost_lo, ghost_hi] sample up
    !> to t_end (arrays of at least dim values; lo and hi get 3).
    subroutine tbrf_inflow_tube(dim, ghost_lo, ghost_hi, velocity, t_end, lo, hi, stat)
        integer, intent(in) :: dim
        real(c_double), intent(in) :: ghost_lo(:), ghost_hi(:), velocity(:), t_end
        real(c_double), intent(out) :: lo(3), hi(3)
        integer, intent(out), optional :: stat
        real(c_double) :: a(3), b(3), v(3)
        integer :: d
        a = 0
        b = 0
        v = 0
        lo = 0
        hi = 0
        d = max(0, min(dim, 3))
        if (size(ghost_lo) < d .or. size(ghost_hi) < d .or. size(velocity) < d) then
            call finish(TBRF_ERR_SIZE, "tbrf_inflow_tube", "ghost_lo, ghost_hi and velocity need dim values", &
                        stat)
            return
        end if
        a(1:d) = ghost_lo(1:d)
        b(1:d) = ghost_hi(1:d)
        v(1:d) = velocity(1:d)
        call finish(c_tbrf_inflow_tube(int(dim, c_int), a, b, v, t_end, lo, hi), "tbrf_inflow_tube", "", stat)
    end subroutine tbrf_inflow_tube

    subroutine inflow_create_i4(inflow, model, dim, lo, hi, resolution, seed, realization, velocity, &
                                line_precision, opts, stat)
        type(tbrf_inflow), intent(inout) :: inflow
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double), intent(in) :: lo(:), hi(:), resolution, velocity(:)
        integer(c_int32_t), intent(in) :: seed, realization
        integer, intent(in), optional :: line_precision
        type(tbrf_opts), intent(in), optional, target :: opts
        integer, intent(out), optional :: stat
        call inflow_create_i8(inflow, model, dim, lo, hi, resolution, int(seed, c_int64_t), &
                              int(realization, c_int64_t), velocity, line_precision, opts, stat)
    end subroutine inflow_create_i4

    !> Makes the sampler (destroying what `inflow` held): the field of
    !> tbrf_make_plan(model, dim, lo, hi, resolution, seed, opts) at
    !> `realization`, carried by `velocity`; line_precision TBRF_DOUBLE (the
    !> default) or TBRF_FLOAT. On failure `inflow` holds the C object with
    !> its message, to be destroyed.
    subroutine inflow_create_i8(inflow, model, dim, lo, hi, resolution, seed, realization, velocity, &
                                line_precision, opts, stat)
        type(tbrf_inflow), intent(inout) :: inflow
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double), intent(in) :: lo(:), hi(:), resolution, velocity(:)
        integer(c_int64_t), intent(in) :: seed, realization
        integer, intent(in), optional :: line_precision
        type(tbrf_opts), intent(in), optional, target :: opts
        integer, intent(out), optional :: stat
        real(c_double) :: lo3(3), hi3(3), v3(3)
        type(c_ptr) :: po
        integer(c_int) :: prec
        integer :: d
        call tbrf_inflow_destroy(inflow)
        lo3 = 0
        hi3 = 0
        v3 = 0
        d = max(0, min(dim, 3))
        if (size(lo) < d .or. size(hi) < d .or. size(velocity) < d) then
            call finish(TBRF_ERR_SIZE, "tbrf_inflow_create", "lo, hi and velocity need one value per "// &
                        "dimension", stat)
            return
        end if
        lo3(1:d) = lo(1:d)
        hi3(1:d) = hi(1:d)
        v3(1:d) = velocity(1:d)
        prec = TBRF_DOUBLE
        if (present(line_precision)) prec = int(line_precision, c_int)
        po = c_null_ptr
        if (present(opts)) po = c_loc(opts)
        inflow%dim = int(dim, c_int)
        call finish_inflow(c_tbrf_inflow_create(model%ptr, int(dim, c_int), lo3, hi3, resolution, seed, &
                                                realization, po, v3, prec, inflow%ptr), &
                           "tbrf_inflow_create", inflow, stat)
    end subroutine inflow_create_i8

    subroutine inflow_periodic_i4(inflow, model, dim, lo, hi, period, resolution, seed, realization, &
                                  velocity, opts, stat)
        type(tbrf_inflow), intent(inout) :: inflow
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double), intent(in) :: lo(:), hi(:), period(:), resolution, velocity(:)
        integer(c_int32_t), intent(in) :: seed, realization
        type(tbrf_opts), intent(in), optional, target :: opts
        integer, intent(out), optional :: stat
        call inflow_periodic_i8(inflow, model, dim, lo, hi, period, resolution, int(seed, c_int64_t), &
                                int(realization, c_int64_t), velocity, opts, stat)
    end subroutine inflow_periodic_i4

    !> Makes the sampler periodic across the flow (destroying what `inflow`
    !> held): the C tbrf_inflow_create_periodic, period(d) > 0 the period of
    !> a periodic axis (the box's), 0 on the flow's axis. On failure
    !> `inflow` holds the C object with its message, to be destroyed.
    subroutine inflow_periodic_i8(inflow, model, dim, lo, hi, period, resolution, seed, realization, &
                                  velocity, opts, stat)
        type(tbrf_inflow), intent(inout) :: inflow
        type(tbrf_model), intent(in) :: model
        integer, intent(in) :: dim
        real(c_double), intent(in) :: lo(:), hi(:), period(:), resolution, velocity(:)
        integer(c_int64_t), intent(in) :: seed, realization
        type(tbrf_opts), intent(in), optional, target :: opts
        integer, intent(out), optional :: stat
        real(c_double) :: lo3(3), hi3(3), p3(3), v3(3)
        type(c_ptr) :: po
        integer :: d
        call tbrf_inflow_destroy(inflow)
        lo3 = 0
        hi3 = 0
        p3 = 0
        v3 = 0
        d = max(0, min(dim, 3))
        if (size(lo) < d .or. size(hi) < d .or. size(period) < d .or. size(velocity) < d) then
            call finish(TBRF_ERR_SIZE, "tbrf_inflow_create_periodic", "lo, hi, period and velocity "// &
                        "need one value per dimension", stat)
            return
        end if
        lo3(1:d) = lo(1:d)
        hi3(1:d) = hi(1:d)
        p3(1:d) = period(1:d)
        v3(1:d) = velocity(1:d)
        po = c_null_ptr
        if (present(opts)) po = c_loc(opts)
        inflow%dim = int(dim, c_int)
        call finish_inflow(c_tbrf_inflow_create_periodic(model%ptr, int(dim, c_int), lo3, hi3, p3, &
                                                         resolution, seed, realization, po, v3, &
                                                         inflow%ptr), &
                           "tbrf_inflow_create_periodic", inflow, stat)
    end subroutine inflow_periodic_i8

    !> What fill writes: TBRF_DENSITY_FIELD, _LOGNORMAL (rho_w exp(sigma
    !> delta - sigma^2/2)) or _LINEAR (rho_w max(1 + sigma delta, rho_floor)).
    subroutine tbrf_inflow_set_density(inflow, kind, rho_w, sigma, rho_floor, stat)
        type(tbrf_inflow), intent(inout) :: inflow
        integer, intent(in) :: kind
        real(c_double), intent(in) :: rho_w, sigma
        real(c_double), intent(in), optional :: rho_floor
        integer, intent(out), optional :: stat
        real(c_double) :: fl
        fl = 0
        if (present(rho_floor)) fl = rho_floor
        call finish_inflow(c_tbrf_inflow_set_density(inflow%ptr, int(kind, c_int), rho_w, sigma, fl), &
                           "tbrf_inflow_set_density", inflow, stat)
    end subroutine tbrf_inflow_set_density

    !> One step at positions xyz(dim, n): values(i) at xyz(:, i) - velocity t.
    subroutine tbrf_inflow_fill(inflow, t, xyz, values, stat)
        type(tbrf_inflow), intent(inout) :: inflow
        real(c_double), intent(in) :: t
        real(c_double), intent(in), contiguous :: xyz(:, :)
        real(c_double), intent(out), contiguous :: values(:)
        integer, intent(out), optional :: stat
        if (size(xyz, 1) /= inflow%dim .or. size(values) < size(xyz, 2)) then
            call finish(TBRF_ERR_SIZE, "tbrf_inflow_fill", "xyz must be (dim, n) and values hold n", stat)
            return
        end if
        call finish_inflow(c_tbrf_inflow_fill(inflow%ptr, t, size(xyz, 2, kind=c_int64_t), xyz, values), &
                           "tbrf_inflow_fill", inflow, stat)
    end subroutine tbrf_inflow_fill

    subroutine inflow_fill_grid_2(inflow, t, origin, spacing, values, stat)
        type(tbrf_inflow), intent(inout) :: inflow
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_double), intent(out), contiguous :: values(:, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: n(3)
        if (inflow%dim /= 2 .or. size(origin) < 2 .or. size(spacing) < 2) then
            call finish(TBRF_ERR_SIZE, "tbrf_inflow_fill_grid", "a 2D sampler, origin(2), spacing(2)", stat)
            return
        end if
        o = 0
        h = 0
        o(1:2) = origin(1:2)
        h(1:2) = spacing(1:2)
        n = [size(values, 1, kind=c_int64_t), size(values, 2, kind=c_int64_t), 1_c_int64_t]
        call finish_inflow(c_tbrf_inflow_fill_grid(inflow%ptr, t, o, h, n, values), "tbrf_inflow_fill_grid", &
                           inflow, stat)
    end subroutine inflow_fill_grid_2

    subroutine inflow_fill_grid_3(inflow, t, origin, spacing, values, stat)
        type(tbrf_inflow), intent(inout) :: inflow
        real(c_double), intent(in) :: t, origin(:), spacing(:)
        real(c_double), intent(out), contiguous :: values(:, :, :)
        integer, intent(out), optional :: stat
        real(c_double) :: o(3), h(3)
        integer(c_int64_t) :: n(3)
        if (inflow%dim /= 3 .or. size(origin) < 3 .or. size(spacing) < 3) then
            call finish(TBRF_ERR_SIZE, "tbrf_inflow_fill_grid", "a 3D sampler, origin(3), spacing(3)", stat)
            return
        end if
        o = origin(1:3)
        h = spacing(1:3)
        n = [size(values, 1, kind=c_int64_t), size(values, 2, kind=c_int64_t), size(values, 3, kind=c_int64_t)]
        call finish_inflow(c_tbrf_inflow_fill_grid(inflow%ptr, t, o, h, n, values), "tbrf_inflow_fill_grid", &
                           inflow, stat)
    end subroutine inflow_fill_grid_3

    !> Bytes of line samples held (full = .false.) or that a plan holds.
    function tbrf_inflow_line_bytes(inflow, full) result(b)
        type(tbrf_inflow), intent(in) :: inflow
        logical, intent(in), optional :: full
        integer(c_int64_t) :: b
        integer(c_int) :: f
        f = 0
        if (present(full)) then
            if (full) f = 1
        end if
        b = c_tbrf_inflow_line_bytes(inflow%ptr, f)
    end function tbrf_inflow_line_bytes

    function tbrf_inflow_message(inflow) result(s)
        type(tbrf_inflow), intent(in) :: inflow
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_inflow_message(inflow%ptr))
    end function tbrf_inflow_message

    subroutine tbrf_inflow_destroy(inflow)
        type(tbrf_inflow), intent(inout) :: inflow
        call c_tbrf_inflow_destroy(inflow%ptr)
        inflow%ptr = c_null_ptr
    end subroutine tbrf_inflow_destroy

    ! ------------------------------------------------- initial conditions

    subroutine ic_cosmo_assign(to, from)
        class(tbrf_ic_cosmo), intent(inout) :: to
        type(tbrf_ic_cosmo), intent(in) :: from
        if (c_associated(from%ptr) .or. c_associated(to%ptr)) then
            write(error_unit, '(a)') 'tbrf: a tbrf_ic_cosmo cannot be copied (it owns a C object)'
            error stop 1
        end if
    end subroutine ic_cosmo_assign

    subroutine ic_cosmo_final(ic)
        type(tbrf_ic_cosmo), intent(inout) :: ic
        call tbrf_ic_cosmo_destroy(ic)
    end subroutine ic_cosmo_final

    subroutine finish_ic(st, where, ic, stat)
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: where
        type(tbrf_ic_cosmo), intent(in) :: ic
        integer, intent(out), optional :: stat
        if (st == TBRF_OK .or. present(stat)) then
            call finish(st, where, "", stat)
        else
            call finish(st, where, tbrf_ic_cosmo_message(ic), stat)
        end if
    end subroutine finish_ic

    !> The text of a C message buffer (up to its NUL).
    function msg_buffer(buf) result(s)
        character(kind=c_char), intent(in) :: buf(:)
        character(len=:), allocatable :: s
        integer :: i, n
        n = 0
        do while (n < size(buf))
            if (buf(n + 1) == c_null_char) exit
            n = n + 1
        end do
        allocate(character(len=n) :: s)
        do i = 1, n
            s(i:i) = buf(i)
        end do
    end function msg_buffer

    !> A free function's status: into stat when present, else a failure is
    !> reported with the message and stops. (The callers copy the message
    !> into their own `message` argument: gfortran loses the length of a
    !> deferred-length dummy handed on to another procedure.)
    subroutine finish_msg(st, where, buf, stat)
        integer(c_int), intent(in) :: st
        character(len=*), intent(in) :: where
        character(kind=c_char), intent(in) :: buf(:)
        integer, intent(out), optional :: stat
        call finish(st, where, msg_buffer(buf), stat)
    end subroutine finish_msg

    !> The defaults of tbrf_ic_cosmo_params (AREPO's cosmo_box_gravity_only_3d).
    subroutine tbrf_ic_default_cosmo(params)
        type(tbrf_ic_cosmo_params), intent(out) :: params
        call c_tbrf_ic_default_cosmo(params)
    end subroutine tbrf_ic_default_cosmo

    !> Bytes held with `chunks` chunks, and the fewest chunks that fit the
    !> memory budget (0: none).
    subroutine tbrf_ic_cosmo_bytes(params, chunks, bytes, fewest, stat)
        type(tbrf_ic_cosmo_params), intent(in), target :: params
        integer(c_int64_t), intent(in) :: chunks
        real(c_double), intent(out) :: bytes
        integer(c_int64_t), intent(out) :: fewest
        integer, intent(out), optional :: stat
        call finish(c_tbrf_ic_cosmo_bytes(c_loc(params), chunks, bytes, fewest), "tbrf_ic_cosmo_bytes", &
                    "", stat)
    end subroutine tbrf_ic_cosmo_bytes

    !> Makes the initial condition (destroying what `ic` held): params with,
    !> optionally, glass(3, n) points in [0, params%glass_box) and a z = 0
    !> P(k) table `power` (k in h/Mpc), both copied. On failure `ic` keeps
    !> the C object for tbrf_ic_cosmo_message.
    subroutine tbrf_ic_cosmo_make(ic, params, glass, power, stat, power_gas)
        type(tbrf_ic_cosmo), intent(inout) :: ic
        type(tbrf_ic_cosmo_params), intent(in) :: params
        real(c_double), intent(in), target, contiguous, optional :: glass(:, :)
        type(tbrf_model), intent(in), optional :: power
        integer, intent(out), optional :: stat
        type(tbrf_model), intent(in), optional :: power_gas
        type(tbrf_ic_cosmo_params), target :: p
        call tbrf_ic_cosmo_destroy(ic)
        p = params
        if (present(glass)) then
            if (size(glass, 1) /= 3) then
                call finish(TBRF_ERR_SIZE, "tbrf_ic_cosmo_make", "glass must be (3, n)", stat)
                return
            end if
            p%glass = c_loc(glass)
            p%glass_n = size(glass, 2, kind=c_int64_t)
        end if
        if (present(power)) p%power = power%ptr
        if (present(power_gas)) p%power_gas = power_gas%ptr
        call finish_ic(c_tbrf_ic_cosmo_make(c_loc(p), ic%ptr), "tbrf_ic_cosmo_make", ic, stat)
    end subroutine tbrf_ic_cosmo_make

    !> The parameters ic was made with (glass pointing to its copy).
    subroutine tbrf_ic_cosmo_get_params(ic, params, stat)
        type(tbrf_ic_cosmo), intent(in) :: ic
        type(tbrf_ic_cosmo_params), intent(out) :: params
        integer, intent(out), optional :: stat
        call finish_ic(c_tbrf_ic_cosmo_get_params(ic%ptr, params), "tbrf_ic_cosmo_get_params", ic, stat)
    end subroutine tbrf_ic_cosmo_get_params

    !> What ic derived: growth, velocity factor, masses, shifts, tile.
    subroutine tbrf_ic_cosmo_get_info(ic, info, stat)
        type(tbrf_ic_cosmo), intent(in) :: ic
        type(tbrf_ic_cosmo_info), intent(out) :: info
        integer, intent(out), optional :: stat
        call finish_ic(c_tbrf_ic_cosmo_get_info(ic%ptr, info), "tbrf_ic_cosmo_get_info", ic, stat)
    end subroutine tbrf_ic_cosmo_get_info

    !> Generates the particles in `chunks` chunks, calling push(user, chunk)
    !> for each in order (a bind(C) function with the interface
    !> tbrf_ic_push_fn; chunk points to a type(tbrf_ic_chunk): c_f_pointer
    !> it, then its pos, vel, gas_pos as (3, count) arrays).
    subroutine tbrf_ic_cosmo_generate(ic, chunks, push, user, stat)
        type(tbrf_ic_cosmo), intent(inout) :: ic
        integer(c_int64_t), intent(in) :: chunks
        procedure(tbrf_ic_push_fn) :: push
        type(c_ptr), intent(in), optional :: user
        integer, intent(out), optional :: stat
        type(c_ptr) :: u
        u = c_null_ptr
        if (present(user)) u = user
        call finish_ic(c_tbrf_ic_cosmo_generate(ic%ptr, chunks, c_funloc(push), u), &
                       "tbrf_ic_cosmo_generate", ic, stat)
    end subroutine tbrf_ic_cosmo_generate

    !> The first-order displacements D1 Psi1 of every particle into psi(3, G^3), particle order.
    subroutine tbrf_ic_cosmo_displacements(ic, psi, stat)
        type(tbrf_ic_cosmo), intent(inout) :: ic
        real(c_double), intent(out), contiguous :: psi(:, :)
        integer, intent(out), optional :: stat
        type(tbrf_ic_cosmo_info) :: info
        integer(c_int) :: st
        st = c_tbrf_ic_cosmo_get_info(ic%ptr, info)
        if (st == TBRF_OK .and. (size(psi, 1) /= 3 .or. size(psi, 2, kind=c_int64_t) /= info%particles)) then
            call finish(TBRF_ERR_SIZE, "tbrf_ic_cosmo_displacements", "psi must be (3, G**3)", stat)
            return
        end if
        if (st == TBRF_OK) st = c_tbrf_ic_cosmo_displacements(ic%ptr, psi)
        call finish_ic(st, "tbrf_ic_cosmo_displacements", ic, stat)
    end subroutine tbrf_ic_cosmo_displacements

    !> The second-order displacements D2 Psi2 of every particle into psi2(3, G^3) (zeros with lpt 1).
    subroutine tbrf_ic_cosmo_displacements2(ic, psi2, stat)
        type(tbrf_ic_cosmo), intent(inout) :: ic
        real(c_double), intent(out), contiguous :: psi2(:, :)
        integer, intent(out), optional :: stat
        type(tbrf_ic_cosmo_info) :: info
        integer(c_int) :: st
        st = c_tbrf_ic_cosmo_get_info(ic%ptr, info)
        if (st == TBRF_OK .and. (size(psi2, 1) /= 3 .or. size(psi2, 2, kind=c_int64_t) /= info%particles)) then
            call finish(TBRF_ERR_SIZE, "tbrf_ic_cosmo_displacements2", "psi2 must be (3, G**3)", stat)
            return
        end if
        if (st == TBRF_OK) st = c_tbrf_ic_cosmo_displacements2(ic%ptr, psi2)
        call finish_ic(st, "tbrf_ic_cosmo_displacements2", ic, stat)
    end subroutine tbrf_ic_cosmo_displacements2

    function tbrf_ic_cosmo_status(ic) result(st)
        type(tbrf_ic_cosmo), intent(in) :: ic
        integer :: st
        st = int(c_tbrf_ic_cosmo_status(ic%ptr))
    end function tbrf_ic_cosmo_status

    function tbrf_ic_cosmo_message(ic) result(s)
        type(tbrf_ic_cosmo), intent(in) :: ic
        character(len=:), allocatable :: s
        s = tbrf_c_string(c_tbrf_ic_cosmo_message(ic%ptr))
    end function tbrf_ic_cosmo_message

    subroutine tbrf_ic_cosmo_destroy(ic)
        type(tbrf_ic_cosmo), intent(inout) :: ic
        call c_tbrf_ic_cosmo_destroy(ic%ptr)
        ic%ptr = c_null_ptr
    end subroutine tbrf_ic_cosmo_destroy

    !> The tile factor T with particles**3 = n T**3 of glass(3, n).
    subroutine tbrf_ic_glass_tile(glass, glass_box, particles, tile, stat, message)
        real(c_double), intent(in), contiguous :: glass(:, :)
        real(c_double), intent(in) :: glass_box
        integer(c_int64_t), intent(in) :: particles
        integer(c_int64_t), intent(out) :: tile
        integer, intent(out), optional :: stat
        character(len=:), allocatable, intent(out), optional :: message
        character(kind=c_char) :: buf(1024)
        buf(1) = c_null_char
        call finish_msg(c_tbrf_ic_glass_tile(size(glass, 2, kind=c_int64_t), glass, glass_box, particles, &
                                             tile, buf, size(buf, kind=c_size_t)), &
                        "tbrf_ic_glass_tile", buf, stat)
        if (present(message)) message = msg_buffer(buf)
    end subroutine tbrf_ic_glass_tile

    !> The P(k) = k**n_s T(k)**2 of one species (TBRF_IC_TRANSFER_MATTER,
    !> _BARYON, _CDM) of a CAMB transfer file or a CLASS tk file as a table
    !> model; format (optional) gets TBRF_IC_TRANSFER_CAMB or _CLASS.
    subroutine tbrf_ic_transfer_power(model, path, species, n_s, format, stat, message)
        type(tbrf_model), intent(out) :: model
        character(len=*), intent(in) :: path
        integer(c_int32_t), intent(in) :: species
        real(c_double), intent(in) :: n_s
        integer(c_int32_t), intent(out), optional :: format
        integer, intent(out), optional :: stat
        character(len=:), allocatable, intent(out), optional :: message
        character(kind=c_char) :: buf(1024)
        integer(c_int32_t) :: f
        buf(1) = c_null_char
        f = 0
        call finish_msg(c_tbrf_ic_transfer_power(c_str(path), species, n_s, f, model%ptr, buf, &
                                                 size(buf, kind=c_size_t)), &
                        "tbrf_ic_transfer_power", buf, stat)
        if (present(format)) format = f
        if (present(message)) message = msg_buffer(buf)
    end subroutine tbrf_ic_transfer_power

    !> sites(3, count): rows first .. first + count - 1 (counted from 0, as
    !> in C) of glass(3, n) tiled tile**3 times in [0, box)**3.
    subroutine tbrf_ic_glass_sites(glass, glass_box, tile, box, first, sites, stat)
        real(c_double), intent(in), contiguous :: glass(:, :)
        real(c_double), intent(in) :: glass_box, box
        integer(c_int64_t), intent(in) :: tile, first
        real(c_double), intent(out), contiguous :: sites(:, :)
        integer, intent(out), optional :: stat
        call finish(c_tbrf_ic_glass_sites(size(glass, 2, kind=c_int64_t), glass, glass_box, tile, box, &
                                          first, size(sites, 2, kind=c_int64_t), sites), &
                    "tbrf_ic_glass_sites", "", stat)
    end subroutine tbrf_ic_glass_sites

    !> The defaults of tbrf_ic_points_params.
    subroutine tbrf_ic_default_points(params)
        type(tbrf_ic_points_params), intent(out) :: params
        call c_tbrf_ic_default_points(params)
    end subroutine tbrf_ic_default_points

    !> G**3 or n; -1 for bad parameters.
    function tbrf_ic_points_count(params) result(n)
        type(tbrf_ic_points_params), intent(in), target :: params
        integer(c_int64_t) :: n
        n = c_tbrf_ic_points_count(c_loc(params))
    end function tbrf_ic_points_count

    !> Points first .. first + count - 1 (from 0) into xyz(3, count).
    subroutine tbrf_ic_points(params, first, xyz, stat, message)
        type(tbrf_ic_points_params), intent(in), target :: params
        integer(c_int64_t), intent(in) :: first
        real(c_double), intent(out), contiguous :: xyz(:, :)
        integer, intent(out), optional :: stat
        character(len=:), allocatable, intent(out), optional :: message
        character(kind=c_char) :: buf(1024)
        buf(1) = c_null_char
        if (size(xyz, 1) /= 3) then
            call finish(TBRF_ERR_SIZE, "tbrf_ic_points", "xyz must be (3, count)", stat)
            return
        end if
        call finish_msg(c_tbrf_ic_points(c_loc(params), first, size(xyz, 2, kind=c_int64_t), xyz, buf, &
                                         size(buf, kind=c_size_t)), "tbrf_ic_points", buf, stat)
        if (present(message)) message = msg_buffer(buf)
    end subroutine tbrf_ic_points

    !> The defaults of tbrf_ic_density_params.
    subroutine tbrf_ic_default_density(params)
        type(tbrf_ic_density_params), intent(out) :: params
        call c_tbrf_ic_default_density(params)
    end subroutine tbrf_ic_default_density

    !> rho(i) from g(i), pointwise (the mean rho_mean in expectation).
    subroutine tbrf_ic_density(params, g, rho, stat, message)
        type(tbrf_ic_density_params), intent(in), target :: params
        real(c_double), intent(in), contiguous :: g(:)
        real(c_double), intent(out), contiguous :: rho(:)
        integer, intent(out), optional :: stat
        character(len=:), allocatable, intent(out), optional :: message
        character(kind=c_char) :: buf(1024)
        buf(1) = c_null_char
        if (size(rho) /= size(g)) then
            call finish(TBRF_ERR_SIZE, "tbrf_ic_density", "g and rho differ in size", stat)
            return
        end if
        call finish_msg(c_tbrf_ic_density(c_loc(params), size(g, kind=c_int64_t), g, rho, buf, &
                                          size(buf, kind=c_size_t)), "tbrf_ic_density", buf, stat)
        if (present(message)) message = msg_buffer(buf)
    end subroutine tbrf_ic_density

    !> rho(i) from g(i) for cells of volumes vol, sum rho vol = rho_mean
    !> box_volume exactly.
    subroutine tbrf_ic_density_volumes(params, g, vol, box_volume, rho, stat, message)
        type(tbrf_ic_density_params), intent(in), target :: params
        real(c_double), intent(in), contiguous :: g(:), vol(:)
        real(c_double), intent(in) :: box_volume
        real(c_double), intent(out), contiguous :: rho(:)
        integer, intent(out), optional :: stat
        character(len=:), allocatable, intent(out), optional :: message
        character(kind=c_char) :: buf(1024)
        buf(1) = c_null_char
        if (size(rho) /= size(g) .or. size(vol) /= size(g)) then
            call finish(TBRF_ERR_SIZE, "tbrf_ic_density_volumes", "g, vol and rho differ in size", stat)
            return
        end if
        call finish_msg(c_tbrf_ic_density_volumes(c_loc(params), size(g, kind=c_int64_t), g, vol, box_volume, &
                                                  rho, buf, size(buf, kind=c_size_t)), &
                        "tbrf_ic_density_volumes", buf, stat)
        if (present(message)) message = msg_buffer(buf)
    end subroutine tbrf_ic_density_volumes

    !> The periodic Voronoi volumes vol(n) of xyz(3, n) in [0, box)**3
    !> (TBRF_ERR_NOT_BUILT without Qhull).
    subroutine tbrf_ic_voronoi_volumes(xyz, box, vol, stat, message)
        real(c_double), intent(in), contiguous :: xyz(:, :)
        real(c_double), intent(in) :: box
        real(c_double), intent(out), contiguous :: vol(:)
        integer, intent(out), optional :: stat
        character(len=:), allocatable, intent(out), optional :: message
        character(kind=c_char) :: buf(1024)
        buf(1) = c_null_char
        if (size(xyz, 1) /= 3 .or. size(vol) /= size(xyz, 2)) then
            call finish(TBRF_ERR_SIZE, "tbrf_ic_voronoi_volumes", "xyz must be (3, n) and vol hold n", stat)
            return
        end if
        call finish_msg(c_tbrf_ic_voronoi_volumes(size(xyz, 2, kind=c_int64_t), xyz, box, vol, buf, &
                                                  size(buf, kind=c_size_t)), &
                        "tbrf_ic_voronoi_volumes", buf, stat)
        if (present(message)) message = msg_buffer(buf)
    end subroutine tbrf_ic_voronoi_volumes

end module tbrf
