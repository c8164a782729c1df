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
    private :: ic_cosmo_assign, ic_cosmo_final, finish_ic, ic_params_with, finish_msg, msg_buffer
    private :: ic_zoom_assign, ic_zoom_final, finish_zoom

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

    !> A zoom initial condition (the C tbrf_ic_zoom; doc/ic.md, Zoom).
    !> Not copyable.
    type :: tbrf_ic_zoom
        type(c_ptr) :: ptr = c_null_ptr
    contains
        procedure, private :: ic_zoom_assign
        generic :: assignment(=) => ic_zoom_assign
        final :: ic_zoom_final
    end type tbrf_ic_zoom

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

    include 'tbrf_common.inc'
    include 'tbrf_model.inc'
    include 'tbrf_plan.inc'
    include 'tbrf_rng.inc'
    include 'tbrf_mc.inc'
    include 'tbrf_cosmology.inc'
    include 'tbrf_driver.inc'
    include 'tbrf_inflow.inc'
    include 'tbrf_ic.inc'
    include 'tbrf_specifics.inc'

end module tbrf
