! tbrf_c.f90 — GENERATED from include/tbrf.h by fortran/gen_tbrf_c.awk; do not edit.
! Regenerate: awk -f fortran/gen_tbrf_c.awk BUILD/include/tbrf_version.h include/tbrf.h > fortran/tbrf_c.f90
! (the ctest fortran_generated_in_step fails while this file is stale).
!
! Raw bind(C) mirror of the C API: every macro constant, enum constant,
! struct, callback type and function of tbrf.h. Functions are named c_<C name>;
! the idiomatic module tbrf builds on them. Unsigned C integers are the
! signed Fortran kind of the same size (same bits).
module tbrf_c
    use, intrinsic :: iso_c_binding
    implicit none
    public

    integer(c_int), parameter :: TBRF_VERSION_MAJOR = 0
    integer(c_int), parameter :: TBRF_VERSION_MINOR = 8
    integer(c_int), parameter :: TBRF_VERSION_PATCH = 0
    character(len=*), parameter :: TBRF_VERSION_STRING = "0.8.0"
    integer(c_int), parameter :: TBRF_DEFAULT_LINES_MIN = 1024
    integer(c_int), parameter :: TBRF_DEFAULT_LINES_MAX = 16384
    integer(c_int), parameter :: TBRF_DEFAULT_LINES_BYTES = 1073741824
    integer(c_int), parameter :: TBRF_IC_ZOOM_BOX = 0
    integer(c_int), parameter :: TBRF_IC_ZOOM_SPHERE = 1
    integer(c_int), parameter :: TBRF_IC_ZOOM_IDS = 2

    integer(c_int), parameter :: TBRF_OK = 0
    integer(c_int), parameter :: TBRF_ERR_NULL = 1
    integer(c_int), parameter :: TBRF_ERR_INVALID = 2
    integer(c_int), parameter :: TBRF_ERR_SIZE = 3
    integer(c_int), parameter :: TBRF_ERR_NO_MEMORY = 4
    integer(c_int), parameter :: TBRF_ERR_FILE = 5
    integer(c_int), parameter :: TBRF_ERR_TABLE = 6
    integer(c_int), parameter :: TBRF_ERR_EMBEDDING = 7
    integer(c_int), parameter :: TBRF_ERR_UNSUPPORTED = 8
    integer(c_int), parameter :: TBRF_ERR_NOT_BUILT = 9
    integer(c_int), parameter :: TBRF_ERR_NO_DEVICE = 10
    integer(c_int), parameter :: TBRF_ERR_NO_GEOMETRY = 11
    integer(c_int), parameter :: TBRF_ERR_OUT_OF_DOMAIN = 12
    integer(c_int), parameter :: TBRF_ERR_CALLBACK = 13
    integer(c_int), parameter :: TBRF_ERR_FFT = 14
    integer(c_int), parameter :: TBRF_ERR_DIVERGENT = 15
    integer(c_int), parameter :: TBRF_ERR_BAD_PLAN = 16
    integer(c_int), parameter :: TBRF_ERR_CANCELLED = 17
    integer(c_int), parameter :: TBRF_DOUBLE = 0
    integer(c_int), parameter :: TBRF_FLOAT = 1
    integer(c_int), parameter :: TBRF_BACKEND_CPU = 0
    integer(c_int), parameter :: TBRF_BACKEND_OPENCL = 1
    integer(c_int), parameter :: TBRF_BACKEND_CUDA = 2
    integer(c_int), parameter :: TBRF_BACKEND_AUTO = 3
    integer(c_int), parameter :: TBRF_LINES_SPECTRAL = 0
    integer(c_int), parameter :: TBRF_LINES_CIRCULANT = 1
    integer(c_int), parameter :: TBRF_METHOD_TB = 0
    integer(c_int), parameter :: TBRF_METHOD_FFT = 1
    integer(c_int), parameter :: TBRF_METHOD_AUTO = 2
    integer(c_int), parameter :: TBRF_METHOD_NUFFT = 3
    integer(c_int), parameter :: TBRF_SCALAR = 0
    integer(c_int), parameter :: TBRF_VECTOR_SOLENOIDAL = 1
    integer(c_int), parameter :: TBRF_VECTOR_COMPRESSIVE = 2
    integer(c_int), parameter :: TBRF_VECTOR_MIXED = 3
    integer(c_int), parameter :: TBRF_PARAM_INDEX = 1
    integer(c_int), parameter :: TBRF_PARAM_KMIN = 2
    integer(c_int), parameter :: TBRF_PARAM_KMAX = 4
    integer(c_int), parameter :: TBRF_PARAM_LENGTH = 8
    integer(c_int), parameter :: TBRF_PARAM_NU = 16
    integer(c_int), parameter :: TBRF_PARAM_TABLE = 32
    integer(c_int), parameter :: TBRF_PARAM_ALPHA = 64
    integer(c_int), parameter :: TBRF_GEN_PHILOX = 0
    integer(c_int), parameter :: TBRF_GEN_SARU = 1
    integer(c_int), parameter :: TBRF_GEN_TEA8 = 2
    integer(c_int), parameter :: TBRF_GEN_LCG64 = 3
    integer(c_int), parameter :: TBRF_GEN_LCG64_PERMUTED = 4
    integer(c_int), parameter :: TBRF_DIST_U01 = 0
    integer(c_int), parameter :: TBRF_DIST_S11 = 1
    integer(c_int), parameter :: TBRF_DIST_NORMAL = 2
    integer(c_int), parameter :: TBRF_MC_OSCILLATORY = 0
    integer(c_int), parameter :: TBRF_MC_PRODUCT_PEAK = 1
    integer(c_int), parameter :: TBRF_MC_CORNER_PEAK = 2
    integer(c_int), parameter :: TBRF_MC_GAUSSIAN = 3
    integer(c_int), parameter :: TBRF_MC_CONTINUOUS = 4
    integer(c_int), parameter :: TBRF_MC_DISCONTINUOUS = 5
    integer(c_int), parameter :: TBRF_MC_NAG = 6
    integer(c_int), parameter :: TBRF_MC_SEQUENTIAL = 0
    integer(c_int), parameter :: TBRF_MC_VECTORIZED = 1
    integer(c_int), parameter :: TBRF_DRIVE_RMS_ENSEMBLE = 0
    integer(c_int), parameter :: TBRF_DRIVE_RMS_EXACT = 1
    integer(c_int), parameter :: TBRF_DRIVE_INJECTION = 2
    integer(c_int), parameter :: TBRF_DRIVE_AUTO = 0
    integer(c_int), parameter :: TBRF_DRIVE_DIRECT = 1
    integer(c_int), parameter :: TBRF_DRIVE_NUFFT = 2
    integer(c_int), parameter :: TBRF_DENSITY_FIELD = 0
    integer(c_int), parameter :: TBRF_DENSITY_LOGNORMAL = 1
    integer(c_int), parameter :: TBRF_DENSITY_LINEAR = 2
    integer(c_int), parameter :: TBRF_IC_TRANSFER_CAMB = 1
    integer(c_int), parameter :: TBRF_IC_TRANSFER_CLASS = 2
    integer(c_int), parameter :: TBRF_IC_TRANSFER_MATTER = 0
    integer(c_int), parameter :: TBRF_IC_TRANSFER_BARYON = 1
    integer(c_int), parameter :: TBRF_IC_TRANSFER_CDM = 2
    integer(c_int), parameter :: TBRF_IC_LATTICE = 0
    integer(c_int), parameter :: TBRF_IC_JITTERED = 1
    integer(c_int), parameter :: TBRF_IC_RANDOM = 2

    type, bind(C) :: tbrf_opts
        integer(c_int32_t) :: lines
        integer(c_int32_t) :: oversampling
        integer(c_int32_t) :: line_method
        integer(c_int32_t) :: max_padding
        integer(c_int32_t) :: precision
        integer(c_int32_t) :: threads
        integer(c_int32_t) :: backend
        integer(c_int32_t) :: device
        integer(c_int32_t) :: work_group
        integer(c_int32_t) :: unroll
        integer(c_int32_t) :: method
        integer(c_int32_t) :: periodic
        integer(c_int64_t) :: chunk
        integer(c_int32_t) :: line_length_factor
        integer(c_int32_t) :: vector
        integer(c_int32_t) :: reserved
        real(c_double) :: zeta
        real(c_double) :: accuracy
    end type tbrf_opts
    type, bind(C) :: tbrf_plan_info
        integer(c_int32_t) :: dim
        integer(c_int32_t) :: lines
        integer(c_int64_t) :: line_samples
        real(c_double) :: line_spacing
        real(c_double) :: line_length
        real(c_double) :: variance
        real(c_double) :: variance_resolved
        real(c_double) :: amplitude
        integer(c_int32_t) :: padding
        integer(c_int32_t) :: backend
    end type tbrf_plan_info
    type, bind(C) :: tbrf_driver_params
        integer(c_int32_t) :: dim
        integer(c_int32_t) :: periodic
        real(c_double) :: origin(3)
        real(c_double) :: length(3)
        real(c_double) :: zeta
        real(c_double) :: tcorr
        real(c_double) :: dt_update
        real(c_double) :: rms
        real(c_double) :: injection
        real(c_double) :: density
        integer(c_int32_t) :: normalization
        integer(c_int32_t) :: interpolate
        integer(c_int32_t) :: eval
        integer(c_int32_t) :: threads
        real(c_double) :: accuracy
        real(c_double) :: amplitude_factor(3)
        integer(c_int32_t) :: components
        integer(c_int32_t) :: directions
    end type tbrf_driver_params
    type, bind(C) :: tbrf_driver_info
        integer(c_int64_t) :: modes
        integer(c_int32_t) :: eval
        integer(c_int32_t) :: reserved
        real(c_double) :: dt_update
        real(c_double) :: decay
        real(c_double) :: rms_ensemble
        integer(c_int64_t) :: update
    end type tbrf_driver_info
    type, bind(C) :: tbrf_ic_cosmo_params
        real(c_double) :: box
        integer(c_int64_t) :: particles
        real(c_double) :: redshift
        real(c_double) :: omega_m
        real(c_double) :: omega_lambda
        real(c_double) :: omega_b
        real(c_double) :: hubble
        real(c_double) :: n_s
        real(c_double) :: sigma8
        real(c_double) :: t_cmb
        real(c_double) :: length_per_mpc
        real(c_double) :: mass_unit
        real(c_double) :: velocity_unit
        integer(c_int32_t) :: wiggles
        integer(c_int32_t) :: gas
        integer(c_int64_t) :: seed
        integer(c_int32_t) :: lpt
        integer(c_int32_t) :: fixed_amplitude
        integer(c_int32_t) :: paired
        integer(c_int32_t) :: reserved_lpt
        type(c_ptr) :: power
        type(c_ptr) :: glass
        integer(c_int64_t) :: glass_n
        real(c_double) :: glass_box
        real(c_double) :: gas_temperature
        real(c_double) :: gas_mu
        real(c_double) :: gas_gamma
        type(c_ptr) :: power_gas
        integer(c_int32_t) :: keep_amplitude
        integer(c_int32_t) :: gas_volumes
        type(c_ptr) :: power_dm
        type(c_ptr) :: velocity_dm
        type(c_ptr) :: velocity_gas
    end type tbrf_ic_cosmo_params
    type, bind(C) :: tbrf_ic_cosmo_info
        integer(c_int64_t) :: particles
        integer(c_int64_t) :: glass_tile
        real(c_double) :: scale_factor
        real(c_double) :: growth
        real(c_double) :: growth_rate
        real(c_double) :: hubble
        real(c_double) :: velocity_factor
        real(c_double) :: mass_dm
        real(c_double) :: mass_gas
        real(c_double) :: shift_dm
        real(c_double) :: shift_gas
        real(c_double) :: gas_temperature
        real(c_double) :: internal_energy
        real(c_double) :: growth2
        real(c_double) :: growth_rate2
        real(c_double) :: velocity_factor2
    end type tbrf_ic_cosmo_info
    type, bind(C) :: tbrf_ic_chunk
        integer(c_int64_t) :: chunk
        integer(c_int64_t) :: first
        integer(c_int64_t) :: count
        type(c_ptr) :: pos
        type(c_ptr) :: vel
        type(c_ptr) :: gas_pos
        type(c_ptr) :: gas_u
        type(c_ptr) :: gas_vel
        type(c_ptr) :: gas_mass
    end type tbrf_ic_chunk
    type, bind(C) :: tbrf_ic_glass_params
        integer(c_int64_t) :: per_axis
        integer(c_int64_t) :: mesh
        integer(c_int32_t) :: steps
        integer(c_int32_t) :: threads
        integer(c_int64_t) :: seed
        real(c_double) :: box
    end type tbrf_ic_glass_params
    type, bind(C) :: tbrf_ic_glass_info
        integer(c_int32_t) :: steps
        integer(c_int32_t) :: converged
        integer(c_int32_t) :: best_step
        integer(c_int32_t) :: reserved
        real(c_double) :: power_start
        real(c_double) :: power_low
        real(c_double) :: rms_step
    end type tbrf_ic_glass_info
    type, bind(C) :: tbrf_ic_points_params
        integer(c_int32_t) :: kind
        integer(c_int32_t) :: reserved
        integer(c_int64_t) :: per_axis
        integer(c_int64_t) :: n
        real(c_double) :: box
        real(c_double) :: jitter
        integer(c_int64_t) :: seed
        integer(c_int64_t) :: realization
    end type tbrf_ic_points_params
    type, bind(C) :: tbrf_ic_density_params
        integer(c_int32_t) :: kind
        integer(c_int32_t) :: reserved
        real(c_double) :: rho_mean
        real(c_double) :: sigma
        real(c_double) :: rho_floor
    end type tbrf_ic_density_params
    type, bind(C) :: tbrf_ic_zoom_params
        integer(c_int32_t) :: refinement
        integer(c_int32_t) :: region
        real(c_double) :: lo(3)
        real(c_double) :: hi(3)
        real(c_double) :: centre(3)
        real(c_double) :: radius
        type(c_ptr) :: ids
        integer(c_int64_t) :: n_ids
        integer(c_int32_t) :: pad
        integer(c_int32_t) :: levels
    end type tbrf_ic_zoom_params
    type, bind(C) :: tbrf_ic_zoom_info
        integer(c_int64_t) :: region_cells
        integer(c_int64_t) :: fine
        integer(c_int64_t) :: coarse
        integer(c_int64_t) :: levels
        integer(c_int64_t) :: level_particles(7)
        integer(c_int64_t) :: gas
        real(c_double) :: mass_fine
        real(c_double) :: mass_coarse
        real(c_double) :: mass_gas
        integer(c_int64_t) :: extent_lo(3)
        integer(c_int64_t) :: extent_width(3)
        real(c_double) :: scale_factor
        real(c_double) :: growth
        real(c_double) :: growth_rate
        real(c_double) :: velocity_factor
        real(c_double) :: growth2
        real(c_double) :: growth_rate2
        real(c_double) :: velocity_factor2
        real(c_double) :: gas_temperature
        real(c_double) :: internal_energy
    end type tbrf_ic_zoom_info
    type, bind(C) :: tbrf_ic_zoom_part
        integer(c_int64_t) :: n
        type(c_ptr) :: pos
        type(c_ptr) :: vel
        type(c_ptr) :: u
        type(c_ptr) :: mass
        type(c_ptr) :: row
    end type tbrf_ic_zoom_part

    abstract interface
    function tbrf_cancel_fn(user) bind(C)
        import
        integer(c_int) :: tbrf_cancel_fn
        type(c_ptr), value :: user
    end function tbrf_cancel_fn

    function tbrf_spectrum_fn(k, dim, user) bind(C)
        import
        real(c_double) :: tbrf_spectrum_fn
        real(c_double), value :: k
        integer(c_int), value :: dim
        type(c_ptr), value :: user
    end function tbrf_spectrum_fn

    function tbrf_pull_fn(user, first, max, xyz, count) bind(C)
        import
        integer(c_int) :: tbrf_pull_fn
        type(c_ptr), value :: user
        integer(c_int64_t), value :: first
        integer(c_int64_t), value :: max
        real(c_double) :: xyz(*)
        integer(c_int64_t), intent(out) :: count
    end function tbrf_pull_fn

    function tbrf_push_fn(user, first, count, values) bind(C)
        import
        integer(c_int) :: tbrf_push_fn
        type(c_ptr), value :: user
        integer(c_int64_t), value :: first
        integer(c_int64_t), value :: count
        type(c_ptr), value :: values
    end function tbrf_push_fn

    function tbrf_mc_fn(user, n, dim, x, f) bind(C)
        import
        integer(c_int) :: tbrf_mc_fn
        type(c_ptr), value :: user
        integer(c_int64_t), value :: n
        integer(c_int), value :: dim
        real(c_double), intent(in) :: x(*)
        real(c_double) :: f(*)
    end function tbrf_mc_fn

    function tbrf_ic_push_fn(user, chunk) bind(C)
        import
        integer(c_int) :: tbrf_ic_push_fn
        type(c_ptr), value :: user
        type(c_ptr), value :: chunk
    end function tbrf_ic_push_fn
    end interface

    interface
    function c_tbrf_strerror(status) bind(C, name="tbrf_strerror")
        import
        type(c_ptr) :: c_tbrf_strerror
        integer(c_int), value :: status
    end function c_tbrf_strerror

    function c_tbrf_version() bind(C, name="tbrf_version")
        import
        type(c_ptr) :: c_tbrf_version
    end function c_tbrf_version

    subroutine c_tbrf_default_opts(opts) bind(C, name="tbrf_default_opts")
        import
        type(tbrf_opts) :: opts
    end subroutine c_tbrf_default_opts

    function c_tbrf_memory_budget(bytes) bind(C, name="tbrf_memory_budget")
        import
        integer(c_int) :: c_tbrf_memory_budget
        integer(c_int64_t), intent(out) :: bytes
    end function c_tbrf_memory_budget

    function c_tbrf_model_powerlaw(index, kmin, kmax, model) bind(C, name="tbrf_model_powerlaw")
        import
        integer(c_int) :: c_tbrf_model_powerlaw
        real(c_double), value :: index
        real(c_double), value :: kmin
        real(c_double), value :: kmax
        type(c_ptr) :: model
    end function c_tbrf_model_powerlaw

    function c_tbrf_model_gaussian(length, model) bind(C, name="tbrf_model_gaussian")
        import
        integer(c_int) :: c_tbrf_model_gaussian
        real(c_double), value :: length
        type(c_ptr) :: model
    end function c_tbrf_model_gaussian

    function c_tbrf_model_exponential(length, model) bind(C, name="tbrf_model_exponential")
        import
        integer(c_int) :: c_tbrf_model_exponential
        real(c_double), value :: length
        type(c_ptr) :: model
    end function c_tbrf_model_exponential

    function c_tbrf_model_matern(length, nu, model) bind(C, name="tbrf_model_matern")
        import
        integer(c_int) :: c_tbrf_model_matern
        real(c_double), value :: length
        real(c_double), value :: nu
        type(c_ptr) :: model
    end function c_tbrf_model_matern

    function c_tbrf_model_vonkarman(length, model) bind(C, name="tbrf_model_vonkarman")
        import
        integer(c_int) :: c_tbrf_model_vonkarman
        real(c_double), value :: length
        type(c_ptr) :: model
    end function c_tbrf_model_vonkarman

    function c_tbrf_model_table(n, k, p, model) bind(C, name="tbrf_model_table")
        import
        integer(c_int) :: c_tbrf_model_table
        integer(c_size_t), value :: n
        real(c_double), intent(in) :: k(*)
        real(c_double), intent(in) :: p(*)
        type(c_ptr) :: model
    end function c_tbrf_model_table

    function c_tbrf_model_table_file(path, model) bind(C, name="tbrf_model_table_file")
        import
        integer(c_int) :: c_tbrf_model_table_file
        character(kind=c_char), intent(in) :: path(*)
        type(c_ptr) :: model
    end function c_tbrf_model_table_file

    function c_tbrf_model_table_data(model, n, k, p) bind(C, name="tbrf_model_table_data")
        import
        integer(c_int) :: c_tbrf_model_table_data
        type(c_ptr), value :: model
        integer(c_size_t) :: n(*)
        real(c_double) :: k(*)
        real(c_double) :: p(*)
    end function c_tbrf_model_table_data

    function c_tbrf_model_callback(fn, user, kmin, kmax, model) bind(C, name="tbrf_model_callback")
        import
        integer(c_int) :: c_tbrf_model_callback
        type(c_funptr), value :: fn
        type(c_ptr), value :: user
        real(c_double), value :: kmin
        real(c_double), value :: kmax
        type(c_ptr) :: model
    end function c_tbrf_model_callback

    function c_tbrf_model_band(kmin, kmax, model) bind(C, name="tbrf_model_band")
        import
        integer(c_int) :: c_tbrf_model_band
        real(c_double), value :: kmin
        real(c_double), value :: kmax
        type(c_ptr) :: model
    end function c_tbrf_model_band

    function c_tbrf_model_parabola(kmin, kmax, model) bind(C, name="tbrf_model_parabola")
        import
        integer(c_int) :: c_tbrf_model_parabola
        real(c_double), value :: kmin
        real(c_double), value :: kmax
        type(c_ptr) :: model
    end function c_tbrf_model_parabola

    function c_tbrf_model_set_variance(model, variance) bind(C, name="tbrf_model_set_variance")
        import
        integer(c_int) :: c_tbrf_model_set_variance
        type(c_ptr), value :: model
        real(c_double), value :: variance
    end function c_tbrf_model_set_variance

    function c_tbrf_model_set_amplitude(model, amplitude) bind(C, name="tbrf_model_set_amplitude")
        import
        integer(c_int) :: c_tbrf_model_set_amplitude
        type(c_ptr), value :: model
        real(c_double), value :: amplitude
    end function c_tbrf_model_set_amplitude

    function c_tbrf_model_set_band(model, kmin, kmax) bind(C, name="tbrf_model_set_band")
        import
        integer(c_int) :: c_tbrf_model_set_band
        type(c_ptr), value :: model
        real(c_double), value :: kmin
        real(c_double), value :: kmax
    end function c_tbrf_model_set_band

    function c_tbrf_model_set_anisotropy(model, scale, angles) bind(C, name="tbrf_model_set_anisotropy")
        import
        integer(c_int) :: c_tbrf_model_set_anisotropy
        type(c_ptr), value :: model
        real(c_double), intent(in) :: scale(3)
        real(c_double), intent(in) :: angles(3)
    end function c_tbrf_model_set_anisotropy

    function c_tbrf_model_anisotropy(model, scale, angles) bind(C, name="tbrf_model_anisotropy")
        import
        integer(c_int) :: c_tbrf_model_anisotropy
        type(c_ptr), value :: model
        real(c_double), intent(inout) :: scale(3)
        real(c_double), intent(inout) :: angles(3)
    end function c_tbrf_model_anisotropy

    function c_tbrf_model_spectrum(model, dim, k) bind(C, name="tbrf_model_spectrum")
        import
        real(c_double) :: c_tbrf_model_spectrum
        type(c_ptr), value :: model
        integer(c_int), value :: dim
        real(c_double), value :: k
    end function c_tbrf_model_spectrum

    function c_tbrf_model_covariance(model, dim, r) bind(C, name="tbrf_model_covariance")
        import
        real(c_double) :: c_tbrf_model_covariance
        type(c_ptr), value :: model
        integer(c_int), value :: dim
        real(c_double), value :: r
    end function c_tbrf_model_covariance

    function c_tbrf_model_variance(model, dim) bind(C, name="tbrf_model_variance")
        import
        real(c_double) :: c_tbrf_model_variance
        type(c_ptr), value :: model
        integer(c_int), value :: dim
    end function c_tbrf_model_variance

    function c_tbrf_model_describe(model) bind(C, name="tbrf_model_describe")
        import
        type(c_ptr) :: c_tbrf_model_describe
        type(c_ptr), value :: model
    end function c_tbrf_model_describe

    function c_tbrf_model_message(model) bind(C, name="tbrf_model_message")
        import
        type(c_ptr) :: c_tbrf_model_message
        type(c_ptr), value :: model
    end function c_tbrf_model_message

    function c_tbrf_model_status(model) bind(C, name="tbrf_model_status")
        import
        integer(c_int) :: c_tbrf_model_status
        type(c_ptr), value :: model
    end function c_tbrf_model_status

    subroutine c_tbrf_model_destroy(model) bind(C, name="tbrf_model_destroy")
        import
        type(c_ptr), value :: model
    end subroutine c_tbrf_model_destroy

    function c_tbrf_model_param_name(i) bind(C, name="tbrf_model_param_name")
        import
        type(c_ptr) :: c_tbrf_model_param_name
        integer(c_int), value :: i
    end function c_tbrf_model_param_name

    function c_tbrf_model_kind_name(i) bind(C, name="tbrf_model_kind_name")
        import
        type(c_ptr) :: c_tbrf_model_kind_name
        integer(c_int), value :: i
    end function c_tbrf_model_kind_name

    function c_tbrf_model_kind_summary(kind) bind(C, name="tbrf_model_kind_summary")
        import
        type(c_ptr) :: c_tbrf_model_kind_summary
        character(kind=c_char), intent(in) :: kind(*)
    end function c_tbrf_model_kind_summary

    function c_tbrf_model_kind_params(kind, takes, needs) bind(C, name="tbrf_model_kind_params")
        import
        integer(c_int) :: c_tbrf_model_kind_params
        character(kind=c_char), intent(in) :: kind(*)
        integer(c_int), intent(out) :: takes
        integer(c_int), intent(out) :: needs
    end function c_tbrf_model_kind_params

    function c_tbrf_model_make(kind, index, kmin, kmax, length, nu, model) bind(C, name="tbrf_model_make")
        import
        integer(c_int) :: c_tbrf_model_make
        character(kind=c_char), intent(in) :: kind(*)
        real(c_double), value :: index
        real(c_double), value :: kmin
        real(c_double), value :: kmax
        real(c_double), value :: length
        real(c_double), value :: nu
        type(c_ptr) :: model
    end function c_tbrf_model_make

    function c_tbrf_model_make_params(kind, n, names, values, model) bind(C, name="tbrf_model_make_params")
        import
        integer(c_int) :: c_tbrf_model_make_params
        character(kind=c_char), intent(in) :: kind(*)
        integer(c_int), value :: n
        type(c_ptr) :: names
        real(c_double), intent(in) :: values(*)
        type(c_ptr) :: model
    end function c_tbrf_model_make_params

    function c_tbrf_model_tail_slope(model, dim) bind(C, name="tbrf_model_tail_slope")
        import
        real(c_double) :: c_tbrf_model_tail_slope
        type(c_ptr), value :: model
        integer(c_int), value :: dim
    end function c_tbrf_model_tail_slope

    function c_tbrf_model_lognormal(density, dim, kmin, kmax, rmax, max_lost, lost, gaussian) &
        bind(C, name="tbrf_model_lognormal")
        import
        integer(c_int) :: c_tbrf_model_lognormal
        type(c_ptr), value :: density
        integer(c_int), value :: dim
        real(c_double), value :: kmin
        real(c_double), value :: kmax
        real(c_double), value :: rmax
        real(c_double), value :: max_lost
        real(c_double), intent(out) :: lost
        type(c_ptr) :: gaussian
    end function c_tbrf_model_lognormal

    function c_tbrf_lognormal_sigma2_mach(mach, b) bind(C, name="tbrf_lognormal_sigma2_mach")
        import
        real(c_double) :: c_tbrf_lognormal_sigma2_mach
        real(c_double), value :: mach
        real(c_double), value :: b
    end function c_tbrf_lognormal_sigma2_mach

    function c_tbrf_make_plan(model, dim, lo, hi, resolution, seed, opts, plan) bind(C, name="tbrf_make_plan")
        import
        integer(c_int) :: c_tbrf_make_plan
        type(c_ptr), value :: model
        integer(c_int), value :: dim
        real(c_double), intent(in) :: lo(3)
        real(c_double), intent(in) :: hi(3)
        real(c_double), value :: resolution
        integer(c_int64_t), value :: seed
        type(c_ptr), value :: opts
        type(c_ptr) :: plan
    end function c_tbrf_make_plan

    function c_tbrf_make_periodic_plan(model, dim, origin, length, n, seed, opts, plan) &
        bind(C, name="tbrf_make_periodic_plan")
        import
        integer(c_int) :: c_tbrf_make_periodic_plan
        type(c_ptr), value :: model
        integer(c_int), value :: dim
        real(c_double), intent(in) :: origin(3)
        real(c_double), intent(in) :: length(3)
        integer(c_int64_t), intent(in) :: n(3)
        integer(c_int64_t), value :: seed
        type(c_ptr), value :: opts
        type(c_ptr) :: plan
    end function c_tbrf_make_periodic_plan

    function c_tbrf_set_grid(plan, origin, spacing, n) bind(C, name="tbrf_set_grid")
        import
        integer(c_int) :: c_tbrf_set_grid
        type(c_ptr), value :: plan
        real(c_double), intent(in) :: origin(3)
        real(c_double), intent(in) :: spacing(3)
        integer(c_int64_t), intent(in) :: n(3)
    end function c_tbrf_set_grid

    function c_tbrf_set_subgrid(plan, origin, spacing, n, start, count) bind(C, name="tbrf_set_subgrid")
        import
        integer(c_int) :: c_tbrf_set_subgrid
        type(c_ptr), value :: plan
        real(c_double), intent(in) :: origin(3)
        real(c_double), intent(in) :: spacing(3)
        integer(c_int64_t), intent(in) :: n(3)
        integer(c_int64_t), intent(in) :: start(3)
        integer(c_int64_t), intent(in) :: count(3)
    end function c_tbrf_set_subgrid

    function c_tbrf_set_points(plan, n, xyz) bind(C, name="tbrf_set_points")
        import
        integer(c_int) :: c_tbrf_set_points
        type(c_ptr), value :: plan
        integer(c_int64_t), value :: n
        real(c_double), intent(in) :: xyz(*)
    end function c_tbrf_set_points

    function c_tbrf_plan_count(plan) bind(C, name="tbrf_plan_count")
        import
        integer(c_int64_t) :: c_tbrf_plan_count
        type(c_ptr), value :: plan
    end function c_tbrf_plan_count

    function c_tbrf_execute(plan, realization, values) bind(C, name="tbrf_execute")
        import
        integer(c_int) :: c_tbrf_execute
        type(c_ptr), value :: plan
        integer(c_int64_t), value :: realization
        type(c_ptr), value :: values
    end function c_tbrf_execute

    function c_tbrf_execute_stream(plan, realization, pull, push, user) bind(C, name="tbrf_execute_stream")
        import
        integer(c_int) :: c_tbrf_execute_stream
        type(c_ptr), value :: plan
        integer(c_int64_t), value :: realization
        type(c_funptr), value :: pull
        type(c_funptr), value :: push
        type(c_ptr), value :: user
    end function c_tbrf_execute_stream

    function c_tbrf_execute_grid_stream(plan, realization, push, user) &
        bind(C, name="tbrf_execute_grid_stream")
        import
        integer(c_int) :: c_tbrf_execute_grid_stream
        type(c_ptr), value :: plan
        integer(c_int64_t), value :: realization
        type(c_funptr), value :: push
        type(c_ptr), value :: user
    end function c_tbrf_execute_grid_stream

    function c_tbrf_default_lines(dim, lo, hi, resolution, n, spacing, opts, lines) &
        bind(C, name="tbrf_default_lines")
        import
        integer(c_int) :: c_tbrf_default_lines
        integer(c_int), value :: dim
        real(c_double), intent(in) :: lo(3)
        real(c_double), intent(in) :: hi(3)
        real(c_double), value :: resolution
        integer(c_int64_t), intent(in) :: n(3)
        real(c_double), intent(in) :: spacing(3)
        type(c_ptr), value :: opts
        integer(c_int32_t), intent(out) :: lines
    end function c_tbrf_default_lines

    function c_tbrf_grid_default_domain(dim, origin, spacing, n, lo, hi, resolution) &
        bind(C, name="tbrf_grid_default_domain")
        import
        integer(c_int) :: c_tbrf_grid_default_domain
        integer(c_int), value :: dim
        real(c_double), intent(in) :: origin(3)
        real(c_double), intent(in) :: spacing(3)
        integer(c_int64_t), intent(in) :: n(3)
        real(c_double), intent(inout) :: lo(3)
        real(c_double), intent(inout) :: hi(3)
        real(c_double), intent(out) :: resolution
    end function c_tbrf_grid_default_domain

    function c_tbrf_points_bounds(dim, n, xyz, lo, hi, bad) bind(C, name="tbrf_points_bounds")
        import
        integer(c_int) :: c_tbrf_points_bounds
        integer(c_int), value :: dim
        integer(c_int64_t), value :: n
        real(c_double), intent(in) :: xyz(*)
        real(c_double), intent(inout) :: lo(3)
        real(c_double), intent(inout) :: hi(3)
        integer(c_int64_t), intent(out) :: bad
    end function c_tbrf_points_bounds

    function c_tbrf_points_resolution(dim, npoints, lo, hi, resolution) bind(C, name="tbrf_points_resolution")
        import
        integer(c_int) :: c_tbrf_points_resolution
        integer(c_int), value :: dim
        integer(c_int64_t), value :: npoints
        real(c_double), intent(in) :: lo(3)
        real(c_double), intent(in) :: hi(3)
        real(c_double), intent(out) :: resolution
    end function c_tbrf_points_resolution

    function c_tbrf_periodic_points_resolution(dim, length, npoints, resolution) &
        bind(C, name="tbrf_periodic_points_resolution")
        import
        integer(c_int) :: c_tbrf_periodic_points_resolution
        integer(c_int), value :: dim
        real(c_double), intent(in) :: length(3)
        integer(c_int64_t), value :: npoints
        real(c_double), intent(out) :: resolution
    end function c_tbrf_periodic_points_resolution

    function c_tbrf_periodic_default_modes(dim, length, spacing, n) &
        bind(C, name="tbrf_periodic_default_modes")
        import
        integer(c_int) :: c_tbrf_periodic_default_modes
        integer(c_int), value :: dim
        real(c_double), intent(in) :: length(3)
        real(c_double), intent(in) :: spacing(3)
        integer(c_int64_t), intent(inout) :: n(3)
    end function c_tbrf_periodic_default_modes

    function c_tbrf_grid_isotropy(dim, n, spacing, lines, kf, knyq, kiso, need) &
        bind(C, name="tbrf_grid_isotropy")
        import
        integer(c_int) :: c_tbrf_grid_isotropy
        integer(c_int), value :: dim
        integer(c_int64_t), intent(in) :: n(3)
        real(c_double), intent(in) :: spacing(3)
        integer(c_int32_t), value :: lines
        real(c_double), intent(out) :: kf
        real(c_double), intent(out) :: knyq
        real(c_double), intent(out) :: kiso
        real(c_double), intent(out) :: need
    end function c_tbrf_grid_isotropy

    function c_tbrf_plan_get_info(plan, info) bind(C, name="tbrf_plan_get_info")
        import
        integer(c_int) :: c_tbrf_plan_get_info
        type(c_ptr), value :: plan
        type(tbrf_plan_info) :: info
    end function c_tbrf_plan_get_info

    function c_tbrf_plan_method(plan) bind(C, name="tbrf_plan_method")
        import
        integer(c_int) :: c_tbrf_plan_method
        type(c_ptr), value :: plan
    end function c_tbrf_plan_method

    function c_tbrf_fft_modes(plan, n, realization, component, first_row, rows, modes) &
        bind(C, name="tbrf_fft_modes")
        import
        integer(c_int) :: c_tbrf_fft_modes
        type(c_ptr), value :: plan
        integer(c_int64_t), intent(in) :: n(3)
        integer(c_int64_t), value :: realization
        integer(c_int), value :: component
        integer(c_int64_t), value :: first_row
        integer(c_int64_t), value :: rows
        real(c_double) :: modes(*)
    end function c_tbrf_fft_modes

    function c_tbrf_set_cancel(plan, cancel, user) bind(C, name="tbrf_set_cancel")
        import
        integer(c_int) :: c_tbrf_set_cancel
        type(c_ptr), value :: plan
        type(c_funptr), value :: cancel
        type(c_ptr), value :: user
    end function c_tbrf_set_cancel

    function c_tbrf_plan_status(plan) bind(C, name="tbrf_plan_status")
        import
        integer(c_int) :: c_tbrf_plan_status
        type(c_ptr), value :: plan
    end function c_tbrf_plan_status

    function c_tbrf_plan_message(plan) bind(C, name="tbrf_plan_message")
        import
        type(c_ptr) :: c_tbrf_plan_message
        type(c_ptr), value :: plan
    end function c_tbrf_plan_message

    subroutine c_tbrf_destroy(plan) bind(C, name="tbrf_destroy")
        import
        type(c_ptr), value :: plan
    end subroutine c_tbrf_destroy

    function c_tbrf_backend_name(backend) bind(C, name="tbrf_backend_name")
        import
        type(c_ptr) :: c_tbrf_backend_name
        integer(c_int), value :: backend
    end function c_tbrf_backend_name

    function c_tbrf_backend_available(backend) bind(C, name="tbrf_backend_available")
        import
        integer(c_int) :: c_tbrf_backend_available
        integer(c_int), value :: backend
    end function c_tbrf_backend_available

    function c_tbrf_rng_name(gen) bind(C, name="tbrf_rng_name")
        import
        type(c_ptr) :: c_tbrf_rng_name
        integer(c_int), value :: gen
    end function c_tbrf_rng_name

    function c_tbrf_rng_u32(gen, seed, stream, offset, n, out) bind(C, name="tbrf_rng_u32")
        import
        integer(c_int) :: c_tbrf_rng_u32
        integer(c_int), value :: gen
        integer(c_int64_t), value :: seed
        integer(c_int64_t), value :: stream
        integer(c_int64_t), value :: offset
        integer(c_int64_t), value :: n
        integer(c_int32_t) :: out(*)
    end function c_tbrf_rng_u32

    function c_tbrf_rng_double(gen, seed, stream, offset, n, dist, out) bind(C, name="tbrf_rng_double")
        import
        integer(c_int) :: c_tbrf_rng_double
        integer(c_int), value :: gen
        integer(c_int64_t), value :: seed
        integer(c_int64_t), value :: stream
        integer(c_int64_t), value :: offset
        integer(c_int64_t), value :: n
        integer(c_int), value :: dist
        real(c_double) :: out(*)
    end function c_tbrf_rng_double

    function c_tbrf_rng_float(gen, seed, stream, offset, n, dist, out) bind(C, name="tbrf_rng_float")
        import
        integer(c_int) :: c_tbrf_rng_float
        integer(c_int), value :: gen
        integer(c_int64_t), value :: seed
        integer(c_int64_t), value :: stream
        integer(c_int64_t), value :: offset
        integer(c_int64_t), value :: n
        integer(c_int), value :: dist
        real(c_float) :: out(*)
    end function c_tbrf_rng_float

    subroutine c_tbrf_rng_philox4x32(ctr, key, out) bind(C, name="tbrf_rng_philox4x32")
        import
        integer(c_int32_t), intent(in) :: ctr(4)
        integer(c_int32_t), intent(in) :: key(2)
        integer(c_int32_t), intent(inout) :: out(4)
    end subroutine c_tbrf_rng_philox4x32

    subroutine c_tbrf_rng_tea8(v, key) bind(C, name="tbrf_rng_tea8")
        import
        integer(c_int32_t), intent(inout) :: v(2)
        integer(c_int32_t), intent(in) :: key(4)
    end subroutine c_tbrf_rng_tea8

    function c_tbrf_rng_seed_prehash(seed) bind(C, name="tbrf_rng_seed_prehash")
        import
        integer(c_int32_t) :: c_tbrf_rng_seed_prehash
        integer(c_int32_t), value :: seed
    end function c_tbrf_rng_seed_prehash

    function c_tbrf_rng_saru_seed(nwords, seeds, state) bind(C, name="tbrf_rng_saru_seed")
        import
        integer(c_int) :: c_tbrf_rng_saru_seed
        integer(c_int), value :: nwords
        integer(c_int32_t), intent(in) :: seeds(*)
        integer(c_int32_t), intent(inout) :: state(2)
    end function c_tbrf_rng_saru_seed

    function c_tbrf_rng_saru_next(state, n, out) bind(C, name="tbrf_rng_saru_next")
        import
        integer(c_int) :: c_tbrf_rng_saru_next
        integer(c_int32_t), intent(inout) :: state(2)
        integer(c_int64_t), value :: n
        integer(c_int32_t) :: out(*)
    end function c_tbrf_rng_saru_next

    function c_tbrf_rng_saru_jump(state, n) bind(C, name="tbrf_rng_saru_jump")
        import
        integer(c_int) :: c_tbrf_rng_saru_jump
        integer(c_int32_t), intent(inout) :: state(2)
        integer(c_int64_t), value :: n
    end function c_tbrf_rng_saru_jump

    function c_tbrf_rng_stream_id(seed, step, id, state) bind(C, name="tbrf_rng_stream_id")
        import
        integer(c_int) :: c_tbrf_rng_stream_id
        integer(c_int32_t), value :: seed
        integer(c_int32_t), value :: step
        integer(c_int32_t), value :: id
        integer(c_int32_t), intent(inout) :: state(2)
    end function c_tbrf_rng_stream_id

    function c_tbrf_rng_stream_pair(seed, step, i, j, state) bind(C, name="tbrf_rng_stream_pair")
        import
        integer(c_int) :: c_tbrf_rng_stream_pair
        integer(c_int32_t), value :: seed
        integer(c_int32_t), value :: step
        integer(c_int32_t), value :: i
        integer(c_int32_t), value :: j
        integer(c_int32_t), intent(inout) :: state(2)
    end function c_tbrf_rng_stream_pair

    function c_tbrf_rng_lcg64_jump(x, n) bind(C, name="tbrf_rng_lcg64_jump")
        import
        integer(c_int64_t) :: c_tbrf_rng_lcg64_jump
        integer(c_int64_t), value :: x
        integer(c_int64_t), value :: n
    end function c_tbrf_rng_lcg64_jump

    function c_tbrf_rng_lcg64_block(s, y, t) bind(C, name="tbrf_rng_lcg64_block")
        import
        integer(c_int) :: c_tbrf_rng_lcg64_block
        integer(c_int64_t), value :: s
        integer(c_int64_t) :: y(*)
        integer(c_int64_t) :: t(*)
    end function c_tbrf_rng_lcg64_block

    function c_tbrf_mc_integrand_name(integrand) bind(C, name="tbrf_mc_integrand_name")
        import
        type(c_ptr) :: c_tbrf_mc_integrand_name
        integer(c_int), value :: integrand
    end function c_tbrf_mc_integrand_name

    function c_tbrf_mc_exact(integrand, dim, a, u, exact) bind(C, name="tbrf_mc_exact")
        import
        integer(c_int) :: c_tbrf_mc_exact
        integer(c_int), value :: integrand
        integer(c_int), value :: dim
        real(c_double), intent(in) :: a(*)
        real(c_double), intent(in) :: u(*)
        real(c_double), intent(out) :: exact
    end function c_tbrf_mc_exact

    function c_tbrf_mc_integrate(integrand, dim, a, u, n, seed, algorithm, block, out) &
        bind(C, name="tbrf_mc_integrate")
        import
        integer(c_int) :: c_tbrf_mc_integrate
        integer(c_int), value :: integrand
        integer(c_int), value :: dim
        real(c_double), intent(in) :: a(*)
        real(c_double), intent(in) :: u(*)
        integer(c_int64_t), value :: n
        integer(c_int64_t), value :: seed
        integer(c_int), value :: algorithm
        integer(c_int64_t), value :: block
        real(c_double), intent(inout) :: out(2)
    end function c_tbrf_mc_integrate

    function c_tbrf_mc_integrate_fn(fn, user, dim, lo, hi, n, seed, algorithm, block, out) &
        bind(C, name="tbrf_mc_integrate_fn")
        import
        integer(c_int) :: c_tbrf_mc_integrate_fn
        type(c_funptr), value :: fn
        type(c_ptr), value :: user
        integer(c_int), value :: dim
        real(c_double), intent(in) :: lo(*)
        real(c_double), intent(in) :: hi(*)
        integer(c_int64_t), value :: n
        integer(c_int64_t), value :: seed
        integer(c_int), value :: algorithm
        integer(c_int64_t), value :: block
        real(c_double), intent(inout) :: out(2)
    end function c_tbrf_mc_integrate_fn

    function c_tbrf_mc_integrate_device(backend, device, integrand, dim, a, u, n, seed, out) &
        bind(C, name="tbrf_mc_integrate_device")
        import
        integer(c_int) :: c_tbrf_mc_integrate_device
        integer(c_int), value :: backend
        integer(c_int), value :: device
        integer(c_int), value :: integrand
        integer(c_int), value :: dim
        real(c_double), intent(in) :: a(*)
        real(c_double), intent(in) :: u(*)
        integer(c_int64_t), value :: n
        integer(c_int64_t), value :: seed
        real(c_double), intent(inout) :: out(2)
    end function c_tbrf_mc_integrate_device

    function c_tbrf_mc_measure_beta(beta) bind(C, name="tbrf_mc_measure_beta")
        import
        integer(c_int) :: c_tbrf_mc_measure_beta
        real(c_double), intent(out) :: beta
    end function c_tbrf_mc_measure_beta

    function c_tbrf_mc_block_size(n, dim, beta, s) bind(C, name="tbrf_mc_block_size")
        import
        integer(c_int) :: c_tbrf_mc_block_size
        integer(c_int64_t), value :: n
        integer(c_int), value :: dim
        real(c_double), value :: beta
        integer(c_int64_t), intent(out) :: s
    end function c_tbrf_mc_block_size

    function c_tbrf_cosmo_hubble(omega_m, omega_lambda, a, hubble) bind(C, name="tbrf_cosmo_hubble")
        import
        integer(c_int) :: c_tbrf_cosmo_hubble
        real(c_double), value :: omega_m
        real(c_double), value :: omega_lambda
        real(c_double), value :: a
        real(c_double), intent(out) :: hubble
    end function c_tbrf_cosmo_hubble

    function c_tbrf_cosmo_growth(omega_m, omega_lambda, z, growth) bind(C, name="tbrf_cosmo_growth")
        import
        integer(c_int) :: c_tbrf_cosmo_growth
        real(c_double), value :: omega_m
        real(c_double), value :: omega_lambda
        real(c_double), value :: z
        real(c_double), intent(out) :: growth
    end function c_tbrf_cosmo_growth

    function c_tbrf_cosmo_growth_rate(omega_m, omega_lambda, z, rate) bind(C, name="tbrf_cosmo_growth_rate")
        import
        integer(c_int) :: c_tbrf_cosmo_growth_rate
        real(c_double), value :: omega_m
        real(c_double), value :: omega_lambda
        real(c_double), value :: z
        real(c_double), intent(out) :: rate
    end function c_tbrf_cosmo_growth_rate

    function c_tbrf_cosmo_growth2(omega_m, omega_lambda, z, growth2, rate2) bind(C, name="tbrf_cosmo_growth2")
        import
        integer(c_int) :: c_tbrf_cosmo_growth2
        real(c_double), value :: omega_m
        real(c_double), value :: omega_lambda
        real(c_double), value :: z
        real(c_double), intent(out) :: growth2
        real(c_double), intent(out) :: rate2
    end function c_tbrf_cosmo_growth2

    function c_tbrf_cosmo_eh_transfer(omega_m, omega_b, h, t_cmb, wiggles, k, transfer) &
        bind(C, name="tbrf_cosmo_eh_transfer")
        import
        integer(c_int) :: c_tbrf_cosmo_eh_transfer
        real(c_double), value :: omega_m
        real(c_double), value :: omega_b
        real(c_double), value :: h
        real(c_double), value :: t_cmb
        integer(c_int), value :: wiggles
        real(c_double), value :: k
        real(c_double), intent(out) :: transfer
    end function c_tbrf_cosmo_eh_transfer

    function c_tbrf_cosmo_sigma_r(model, r, sigma) bind(C, name="tbrf_cosmo_sigma_r")
        import
        integer(c_int) :: c_tbrf_cosmo_sigma_r
        type(c_ptr), value :: model
        real(c_double), value :: r
        real(c_double), intent(out) :: sigma
    end function c_tbrf_cosmo_sigma_r

    function c_tbrf_model_normalize_sigma(model, r, sigma) bind(C, name="tbrf_model_normalize_sigma")
        import
        integer(c_int) :: c_tbrf_model_normalize_sigma
        type(c_ptr), value :: model
        real(c_double), value :: r
        real(c_double), value :: sigma
    end function c_tbrf_model_normalize_sigma

    function c_tbrf_model_eisenstein_hu(omega_m, omega_b, h, n_s, t_cmb, wiggles, kmin, kmax, model) &
        bind(C, name="tbrf_model_eisenstein_hu")
        import
        integer(c_int) :: c_tbrf_model_eisenstein_hu
        real(c_double), value :: omega_m
        real(c_double), value :: omega_b
        real(c_double), value :: h
        real(c_double), value :: n_s
        real(c_double), value :: t_cmb
        integer(c_int), value :: wiggles
        real(c_double), value :: kmin
        real(c_double), value :: kmax
        type(c_ptr) :: model
    end function c_tbrf_model_eisenstein_hu

    subroutine c_tbrf_driver_default_params(params) bind(C, name="tbrf_driver_default_params")
        import
        type(tbrf_driver_params) :: params
    end subroutine c_tbrf_driver_default_params

    function c_tbrf_driver_make(model, seed, params, driver) bind(C, name="tbrf_driver_make")
        import
        integer(c_int) :: c_tbrf_driver_make
        type(c_ptr), value :: model
        integer(c_int64_t), value :: seed
        type(c_ptr), value :: params
        type(c_ptr) :: driver
    end function c_tbrf_driver_make

    function c_tbrf_driver_params_from_turbgen(text, params, seed, model, message, message_size) &
        bind(C, name="tbrf_driver_params_from_turbgen")
        import
        integer(c_int) :: c_tbrf_driver_params_from_turbgen
        character(kind=c_char), intent(in) :: text(*)
        type(tbrf_driver_params) :: params
        integer(c_int64_t), intent(out) :: seed
        type(c_ptr) :: model
        character(kind=c_char) :: message(*)
        integer(c_int64_t), value :: message_size
    end function c_tbrf_driver_params_from_turbgen

    function c_tbrf_driver_amplitude_adjust(n, gain, measured, target, t, dt, timescale, gain_out, &
        message, message_size) bind(C, name="tbrf_driver_amplitude_adjust")
        import
        integer(c_int) :: c_tbrf_driver_amplitude_adjust
        integer(c_int32_t), value :: n
        real(c_double), intent(in) :: gain(*)
        real(c_double), intent(in) :: measured(*)
        real(c_double), value :: target
        real(c_double), value :: t
        real(c_double), value :: dt
        real(c_double), value :: timescale
        real(c_double) :: gain_out(*)
        character(kind=c_char) :: message(*)
        integer(c_int64_t), value :: message_size
    end function c_tbrf_driver_amplitude_adjust

    function c_tbrf_driver_points(driver, t, n, xyz, out) bind(C, name="tbrf_driver_points")
        import
        integer(c_int) :: c_tbrf_driver_points
        type(c_ptr), value :: driver
        real(c_double), value :: t
        integer(c_int64_t), value :: n
        real(c_double), intent(in) :: xyz(*)
        real(c_double) :: out(*)
    end function c_tbrf_driver_points

    function c_tbrf_driver_grid(driver, t, origin, spacing, n, out) bind(C, name="tbrf_driver_grid")
        import
        integer(c_int) :: c_tbrf_driver_grid
        type(c_ptr), value :: driver
        real(c_double), value :: t
        real(c_double), intent(in) :: origin(3)
        real(c_double), intent(in) :: spacing(3)
        integer(c_int64_t), intent(in) :: n(3)
        real(c_double) :: out(*)
    end function c_tbrf_driver_grid

    function c_tbrf_driver_points_component_last(driver, t, n, xyz, out) &
        bind(C, name="tbrf_driver_points_component_last")
        import
        integer(c_int) :: c_tbrf_driver_points_component_last
        type(c_ptr), value :: driver
        real(c_double), value :: t
        integer(c_int64_t), value :: n
        real(c_double), intent(in) :: xyz(*)
        real(c_double) :: out(*)
    end function c_tbrf_driver_points_component_last

    function c_tbrf_driver_grid_component_last(driver, t, origin, spacing, n, out) &
        bind(C, name="tbrf_driver_grid_component_last")
        import
        integer(c_int) :: c_tbrf_driver_grid_component_last
        type(c_ptr), value :: driver
        real(c_double), value :: t
        real(c_double), intent(in) :: origin(3)
        real(c_double), intent(in) :: spacing(3)
        integer(c_int64_t), intent(in) :: n(3)
        real(c_double) :: out(*)
    end function c_tbrf_driver_grid_component_last

    function c_tbrf_driver_stream(driver, t, pull, push, user) bind(C, name="tbrf_driver_stream")
        import
        integer(c_int) :: c_tbrf_driver_stream
        type(c_ptr), value :: driver
        real(c_double), value :: t
        type(c_funptr), value :: pull
        type(c_funptr), value :: push
        type(c_ptr), value :: user
    end function c_tbrf_driver_stream

    function c_tbrf_driver_rms(driver, t, rms) bind(C, name="tbrf_driver_rms")
        import
        integer(c_int) :: c_tbrf_driver_rms
        type(c_ptr), value :: driver
        real(c_double), value :: t
        real(c_double), intent(out) :: rms
    end function c_tbrf_driver_rms

    function c_tbrf_driver_modes(driver, t, n, m, coef) bind(C, name="tbrf_driver_modes")
        import
        integer(c_int) :: c_tbrf_driver_modes
        type(c_ptr), value :: driver
        real(c_double), value :: t
        integer(c_int64_t) :: n(*)
        integer(c_int32_t) :: m(*)
        real(c_double) :: coef(*)
    end function c_tbrf_driver_modes

    function c_tbrf_driver_get_info(driver, info) bind(C, name="tbrf_driver_get_info")
        import
        integer(c_int) :: c_tbrf_driver_get_info
        type(c_ptr), value :: driver
        type(tbrf_driver_info) :: info
    end function c_tbrf_driver_get_info

    function c_tbrf_driver_state_size(driver) bind(C, name="tbrf_driver_state_size")
        import
        integer(c_int64_t) :: c_tbrf_driver_state_size
        type(c_ptr), value :: driver
    end function c_tbrf_driver_state_size

    function c_tbrf_driver_save(driver, buf, size) bind(C, name="tbrf_driver_save")
        import
        integer(c_int) :: c_tbrf_driver_save
        type(c_ptr), value :: driver
        type(c_ptr), value :: buf
        integer(c_int64_t), value :: size
    end function c_tbrf_driver_save

    function c_tbrf_driver_load(driver, buf, size) bind(C, name="tbrf_driver_load")
        import
        integer(c_int) :: c_tbrf_driver_load
        type(c_ptr), value :: driver
        type(c_ptr), value :: buf
        integer(c_int64_t), value :: size
    end function c_tbrf_driver_load

    function c_tbrf_driver_state_params(buf, size, params, seed, message, message_size) &
        bind(C, name="tbrf_driver_state_params")
        import
        integer(c_int) :: c_tbrf_driver_state_params
        type(c_ptr), value :: buf
        integer(c_int64_t), value :: size
        type(tbrf_driver_params) :: params
        integer(c_int64_t), intent(out) :: seed
        character(kind=c_char) :: message(*)
        integer(c_int64_t), value :: message_size
    end function c_tbrf_driver_state_params

    function c_tbrf_driver_status(driver) bind(C, name="tbrf_driver_status")
        import
        integer(c_int) :: c_tbrf_driver_status
        type(c_ptr), value :: driver
    end function c_tbrf_driver_status

    function c_tbrf_driver_message(driver) bind(C, name="tbrf_driver_message")
        import
        type(c_ptr) :: c_tbrf_driver_message
        type(c_ptr), value :: driver
    end function c_tbrf_driver_message

    subroutine c_tbrf_driver_destroy(driver) bind(C, name="tbrf_driver_destroy")
        import
        type(c_ptr), value :: driver
    end subroutine c_tbrf_driver_destroy

    function c_tbrf_driver_set_backend(driver, backend, device) bind(C, name="tbrf_driver_set_backend")
        import
        integer(c_int) :: c_tbrf_driver_set_backend
        type(c_ptr), value :: driver
        integer(c_int), value :: backend
        integer(c_int), value :: device
    end function c_tbrf_driver_set_backend

    function c_tbrf_driver_set_cancel(driver, cancel, user) bind(C, name="tbrf_driver_set_cancel")
        import
        integer(c_int) :: c_tbrf_driver_set_cancel
        type(c_ptr), value :: driver
        type(c_funptr), value :: cancel
        type(c_ptr), value :: user
    end function c_tbrf_driver_set_cancel

    function c_tbrf_driver_backend(driver) bind(C, name="tbrf_driver_backend")
        import
        integer(c_int) :: c_tbrf_driver_backend
        type(c_ptr), value :: driver
    end function c_tbrf_driver_backend

    function c_tbrf_inflow_tube(dim, ghost_lo, ghost_hi, velocity, t_end, lo, hi) &
        bind(C, name="tbrf_inflow_tube")
        import
        integer(c_int) :: c_tbrf_inflow_tube
        integer(c_int), value :: dim
        real(c_double), intent(in) :: ghost_lo(3)
        real(c_double), intent(in) :: ghost_hi(3)
        real(c_double), intent(in) :: velocity(3)
        real(c_double), value :: t_end
        real(c_double), intent(inout) :: lo(3)
        real(c_double), intent(inout) :: hi(3)
    end function c_tbrf_inflow_tube

    function c_tbrf_inflow_create(model, dim, lo, hi, resolution, seed, realization, opts, &
        velocity, line_precision, inflow) bind(C, name="tbrf_inflow_create")
        import
        integer(c_int) :: c_tbrf_inflow_create
        type(c_ptr), value :: model
        integer(c_int), value :: dim
        real(c_double), intent(in) :: lo(3)
        real(c_double), intent(in) :: hi(3)
        real(c_double), value :: resolution
        integer(c_int64_t), value :: seed
        integer(c_int64_t), value :: realization
        type(c_ptr), value :: opts
        real(c_double), intent(in) :: velocity(3)
        integer(c_int), value :: line_precision
        type(c_ptr) :: inflow
    end function c_tbrf_inflow_create

    function c_tbrf_inflow_create_periodic(model, dim, lo, hi, period, resolution, seed, &
        realization, opts, velocity, inflow) bind(C, name="tbrf_inflow_create_periodic")
        import
        integer(c_int) :: c_tbrf_inflow_create_periodic
        type(c_ptr), value :: model
        integer(c_int), value :: dim
        real(c_double), intent(in) :: lo(3)
        real(c_double), intent(in) :: hi(3)
        real(c_double), intent(in) :: period(3)
        real(c_double), value :: resolution
        integer(c_int64_t), value :: seed
        integer(c_int64_t), value :: realization
        type(c_ptr), value :: opts
        real(c_double), intent(in) :: velocity(3)
        type(c_ptr) :: inflow
    end function c_tbrf_inflow_create_periodic

    function c_tbrf_inflow_set_density(inflow, kind, rho_w, sigma, rho_floor) &
        bind(C, name="tbrf_inflow_set_density")
        import
        integer(c_int) :: c_tbrf_inflow_set_density
        type(c_ptr), value :: inflow
        integer(c_int), value :: kind
        real(c_double), value :: rho_w
        real(c_double), value :: sigma
        real(c_double), value :: rho_floor
    end function c_tbrf_inflow_set_density

    function c_tbrf_inflow_fill(inflow, t, n, xyz, values) bind(C, name="tbrf_inflow_fill")
        import
        integer(c_int) :: c_tbrf_inflow_fill
        type(c_ptr), value :: inflow
        real(c_double), value :: t
        integer(c_int64_t), value :: n
        real(c_double), intent(in) :: xyz(*)
        real(c_double) :: values(*)
    end function c_tbrf_inflow_fill

    function c_tbrf_inflow_fill_grid(inflow, t, origin, spacing, n, values) &
        bind(C, name="tbrf_inflow_fill_grid")
        import
        integer(c_int) :: c_tbrf_inflow_fill_grid
        type(c_ptr), value :: inflow
        real(c_double), value :: t
        real(c_double), intent(in) :: origin(3)
        real(c_double), intent(in) :: spacing(3)
        integer(c_int64_t), intent(in) :: n(3)
        real(c_double) :: values(*)
    end function c_tbrf_inflow_fill_grid

    function c_tbrf_inflow_set_cancel(inflow, cancel, user) bind(C, name="tbrf_inflow_set_cancel")
        import
        integer(c_int) :: c_tbrf_inflow_set_cancel
        type(c_ptr), value :: inflow
        type(c_funptr), value :: cancel
        type(c_ptr), value :: user
    end function c_tbrf_inflow_set_cancel

    function c_tbrf_inflow_line_bytes(inflow, full) bind(C, name="tbrf_inflow_line_bytes")
        import
        integer(c_int64_t) :: c_tbrf_inflow_line_bytes
        type(c_ptr), value :: inflow
        integer(c_int), value :: full
    end function c_tbrf_inflow_line_bytes

    function c_tbrf_inflow_message(inflow) bind(C, name="tbrf_inflow_message")
        import
        type(c_ptr) :: c_tbrf_inflow_message
        type(c_ptr), value :: inflow
    end function c_tbrf_inflow_message

    subroutine c_tbrf_inflow_destroy(inflow) bind(C, name="tbrf_inflow_destroy")
        import
        type(c_ptr), value :: inflow
    end subroutine c_tbrf_inflow_destroy

    subroutine c_tbrf_ic_default_cosmo(params) bind(C, name="tbrf_ic_default_cosmo")
        import
        type(tbrf_ic_cosmo_params) :: params
    end subroutine c_tbrf_ic_default_cosmo

    function c_tbrf_ic_cosmo_bytes(params, chunks, bytes, fewest) bind(C, name="tbrf_ic_cosmo_bytes")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_bytes
        type(c_ptr), value :: params
        integer(c_int64_t), value :: chunks
        real(c_double), intent(out) :: bytes
        integer(c_int64_t), intent(out) :: fewest
    end function c_tbrf_ic_cosmo_bytes

    function c_tbrf_ic_cosmo_make(params, ic) bind(C, name="tbrf_ic_cosmo_make")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_make
        type(c_ptr), value :: params
        type(c_ptr) :: ic
    end function c_tbrf_ic_cosmo_make

    function c_tbrf_ic_cosmo_get_params(ic, params) bind(C, name="tbrf_ic_cosmo_get_params")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_get_params
        type(c_ptr), value :: ic
        type(tbrf_ic_cosmo_params) :: params
    end function c_tbrf_ic_cosmo_get_params

    function c_tbrf_ic_cosmo_get_info(ic, info) bind(C, name="tbrf_ic_cosmo_get_info")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_get_info
        type(c_ptr), value :: ic
        type(tbrf_ic_cosmo_info) :: info
    end function c_tbrf_ic_cosmo_get_info

    function c_tbrf_ic_cosmo_get_offset(ic, offset) bind(C, name="tbrf_ic_cosmo_get_offset")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_get_offset
        type(c_ptr), value :: ic
        real(c_double), intent(out) :: offset
    end function c_tbrf_ic_cosmo_get_offset

    function c_tbrf_ic_cosmo_generate(ic, chunks, push, user) bind(C, name="tbrf_ic_cosmo_generate")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_generate
        type(c_ptr), value :: ic
        integer(c_int64_t), value :: chunks
        type(c_funptr), value :: push
        type(c_ptr), value :: user
    end function c_tbrf_ic_cosmo_generate

    function c_tbrf_ic_cosmo_displacements(ic, psi) bind(C, name="tbrf_ic_cosmo_displacements")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_displacements
        type(c_ptr), value :: ic
        real(c_double) :: psi(*)
    end function c_tbrf_ic_cosmo_displacements

    function c_tbrf_ic_cosmo_set_cancel(ic, cancel, user) bind(C, name="tbrf_ic_cosmo_set_cancel")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_set_cancel
        type(c_ptr), value :: ic
        type(c_funptr), value :: cancel
        type(c_ptr), value :: user
    end function c_tbrf_ic_cosmo_set_cancel

    function c_tbrf_ic_cosmo_displacements2(ic, psi2) bind(C, name="tbrf_ic_cosmo_displacements2")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_displacements2
        type(c_ptr), value :: ic
        real(c_double) :: psi2(*)
    end function c_tbrf_ic_cosmo_displacements2

    function c_tbrf_ic_cosmo_slab_bytes(params, planes, rows, bytes) bind(C, name="tbrf_ic_cosmo_slab_bytes")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_slab_bytes
        type(c_ptr), value :: params
        integer(c_int64_t), value :: planes
        integer(c_int64_t), value :: rows
        real(c_double), intent(out) :: bytes
    end function c_tbrf_ic_cosmo_slab_bytes

    function c_tbrf_ic_cosmo_make_slab(params, planes, rows, ic) bind(C, name="tbrf_ic_cosmo_make_slab")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_make_slab
        type(c_ptr), value :: params
        integer(c_int64_t), value :: planes
        integer(c_int64_t), value :: rows
        type(c_ptr) :: ic
    end function c_tbrf_ic_cosmo_make_slab

    function c_tbrf_ic_cosmo_plan(ic) bind(C, name="tbrf_ic_cosmo_plan")
        import
        type(c_ptr) :: c_tbrf_ic_cosmo_plan
        type(c_ptr), value :: ic
    end function c_tbrf_ic_cosmo_plan

    function c_tbrf_ic_cosmo_push_rows(ic, chunk, first, count, psi, push, user) &
        bind(C, name="tbrf_ic_cosmo_push_rows")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_push_rows
        type(c_ptr), value :: ic
        integer(c_int64_t), value :: chunk
        integer(c_int64_t), value :: first
        integer(c_int64_t), value :: count
        real(c_double) :: psi(*)
        type(c_funptr), value :: push
        type(c_ptr), value :: user
    end function c_tbrf_ic_cosmo_push_rows

    function c_tbrf_ic_cosmo_push_rows2(ic, chunk, first, count, psi, psi2, push, user) &
        bind(C, name="tbrf_ic_cosmo_push_rows2")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_push_rows2
        type(c_ptr), value :: ic
        integer(c_int64_t), value :: chunk
        integer(c_int64_t), value :: first
        integer(c_int64_t), value :: count
        real(c_double) :: psi(*)
        real(c_double), intent(in) :: psi2(*)
        type(c_funptr), value :: push
        type(c_ptr), value :: user
    end function c_tbrf_ic_cosmo_push_rows2

    function c_tbrf_ic_cosmo_push_rows3(ic, chunk, first, count, psi, psi2, psi3, push, user) &
        bind(C, name="tbrf_ic_cosmo_push_rows3")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_push_rows3
        type(c_ptr), value :: ic
        integer(c_int64_t), value :: chunk
        integer(c_int64_t), value :: first
        integer(c_int64_t), value :: count
        real(c_double) :: psi(*)
        real(c_double), intent(in) :: psi2(*)
        real(c_double), intent(in) :: psi3(*)
        type(c_funptr), value :: push
        type(c_ptr), value :: user
    end function c_tbrf_ic_cosmo_push_rows3

    function c_tbrf_ic_cosmo_fixed_modes(ic, first_row, rows, mx, my, mz) &
        bind(C, name="tbrf_ic_cosmo_fixed_modes")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_fixed_modes
        type(c_ptr), value :: ic
        integer(c_int64_t), value :: first_row
        integer(c_int64_t), value :: rows
        real(c_double) :: mx(*)
        real(c_double) :: my(*)
        real(c_double) :: mz(*)
    end function c_tbrf_ic_cosmo_fixed_modes

    function c_tbrf_ic_cosmo_status(ic) bind(C, name="tbrf_ic_cosmo_status")
        import
        integer(c_int) :: c_tbrf_ic_cosmo_status
        type(c_ptr), value :: ic
    end function c_tbrf_ic_cosmo_status

    function c_tbrf_ic_cosmo_message(ic) bind(C, name="tbrf_ic_cosmo_message")
        import
        type(c_ptr) :: c_tbrf_ic_cosmo_message
        type(c_ptr), value :: ic
    end function c_tbrf_ic_cosmo_message

    subroutine c_tbrf_ic_cosmo_destroy(ic) bind(C, name="tbrf_ic_cosmo_destroy")
        import
        type(c_ptr), value :: ic
    end subroutine c_tbrf_ic_cosmo_destroy

    function c_tbrf_ic_glass_tile(glass_n, glass, glass_box, particles, tile, message, message_size) &
        bind(C, name="tbrf_ic_glass_tile")
        import
        integer(c_int) :: c_tbrf_ic_glass_tile
        integer(c_int64_t), value :: glass_n
        real(c_double), intent(in) :: glass(*)
        real(c_double), value :: glass_box
        integer(c_int64_t), value :: particles
        integer(c_int64_t), intent(out) :: tile
        character(kind=c_char) :: message(*)
        integer(c_size_t), value :: message_size
    end function c_tbrf_ic_glass_tile

    function c_tbrf_ic_glass_sites(glass_n, glass, glass_box, tile, box, first, count, sites) &
        bind(C, name="tbrf_ic_glass_sites")
        import
        integer(c_int) :: c_tbrf_ic_glass_sites
        integer(c_int64_t), value :: glass_n
        real(c_double), intent(in) :: glass(*)
        real(c_double), value :: glass_box
        integer(c_int64_t), value :: tile
        real(c_double), value :: box
        integer(c_int64_t), value :: first
        integer(c_int64_t), value :: count
        real(c_double) :: sites(*)
    end function c_tbrf_ic_glass_sites

    subroutine c_tbrf_ic_default_glass(params) bind(C, name="tbrf_ic_default_glass")
        import
        type(tbrf_ic_glass_params) :: params
    end subroutine c_tbrf_ic_default_glass

    function c_tbrf_ic_glass_bytes(params, bytes) bind(C, name="tbrf_ic_glass_bytes")
        import
        integer(c_int) :: c_tbrf_ic_glass_bytes
        type(c_ptr), value :: params
        real(c_double), intent(out) :: bytes
    end function c_tbrf_ic_glass_bytes

    function c_tbrf_ic_glass_make(params, xyz, info, cancel, user, message, message_size) &
        bind(C, name="tbrf_ic_glass_make")
        import
        integer(c_int) :: c_tbrf_ic_glass_make
        type(c_ptr), value :: params
        real(c_double) :: xyz(*)
        type(tbrf_ic_glass_info) :: info
        type(c_funptr), value :: cancel
        type(c_ptr), value :: user
        character(kind=c_char) :: message(*)
        integer(c_size_t), value :: message_size
    end function c_tbrf_ic_glass_make

    function c_tbrf_ic_glass_power(n, xyz, box, mesh, threads, nbins, k, p, modes, message, &
        message_size) bind(C, name="tbrf_ic_glass_power")
        import
        integer(c_int) :: c_tbrf_ic_glass_power
        integer(c_int64_t), value :: n
        real(c_double), intent(in) :: xyz(*)
        real(c_double), value :: box
        integer(c_int64_t), value :: mesh
        integer(c_int32_t), value :: threads
        integer(c_int32_t), value :: nbins
        real(c_double) :: k(*)
        real(c_double) :: p(*)
        real(c_double) :: modes(*)
        character(kind=c_char) :: message(*)
        integer(c_size_t), value :: message_size
    end function c_tbrf_ic_glass_power

    function c_tbrf_ic_transfer_power(path, species, n_s, format, model, message, message_size) &
        bind(C, name="tbrf_ic_transfer_power")
        import
        integer(c_int) :: c_tbrf_ic_transfer_power
        character(kind=c_char), intent(in) :: path(*)
        integer(c_int32_t), value :: species
        real(c_double), value :: n_s
        integer(c_int32_t), intent(out) :: format
        type(c_ptr) :: model
        character(kind=c_char) :: message(*)
        integer(c_size_t), value :: message_size
    end function c_tbrf_ic_transfer_power

    function c_tbrf_ic_transfer_velocity(path, species, n_s, conformal_hubble, model, message, &
        message_size) bind(C, name="tbrf_ic_transfer_velocity")
        import
        integer(c_int) :: c_tbrf_ic_transfer_velocity
        character(kind=c_char), intent(in) :: path(*)
        integer(c_int32_t), value :: species
        real(c_double), value :: n_s
        real(c_double), value :: conformal_hubble
        type(c_ptr) :: model
        character(kind=c_char) :: message(*)
        integer(c_size_t), value :: message_size
    end function c_tbrf_ic_transfer_velocity

    subroutine c_tbrf_ic_default_points(params) bind(C, name="tbrf_ic_default_points")
        import
        type(tbrf_ic_points_params) :: params
    end subroutine c_tbrf_ic_default_points

    function c_tbrf_ic_points_count(params) bind(C, name="tbrf_ic_points_count")
        import
        integer(c_int64_t) :: c_tbrf_ic_points_count
        type(c_ptr), value :: params
    end function c_tbrf_ic_points_count

    function c_tbrf_ic_points(params, first, count, xyz, message, message_size) bind(C, name="tbrf_ic_points")
        import
        integer(c_int) :: c_tbrf_ic_points
        type(c_ptr), value :: params
        integer(c_int64_t), value :: first
        integer(c_int64_t), value :: count
        real(c_double) :: xyz(*)
        character(kind=c_char) :: message(*)
        integer(c_size_t), value :: message_size
    end function c_tbrf_ic_points

    subroutine c_tbrf_ic_default_density(params) bind(C, name="tbrf_ic_default_density")
        import
        type(tbrf_ic_density_params) :: params
    end subroutine c_tbrf_ic_default_density

    function c_tbrf_ic_density(params, n, g, rho, message, message_size) bind(C, name="tbrf_ic_density")
        import
        integer(c_int) :: c_tbrf_ic_density
        type(c_ptr), value :: params
        integer(c_int64_t), value :: n
        real(c_double), intent(in) :: g(*)
        real(c_double) :: rho(*)
        character(kind=c_char) :: message(*)
        integer(c_size_t), value :: message_size
    end function c_tbrf_ic_density

    function c_tbrf_ic_density_volumes(params, n, g, vol, box_volume, rho, message, message_size) &
        bind(C, name="tbrf_ic_density_volumes")
        import
        integer(c_int) :: c_tbrf_ic_density_volumes
        type(c_ptr), value :: params
        integer(c_int64_t), value :: n
        real(c_double), intent(in) :: g(*)
        real(c_double), intent(in) :: vol(*)
        real(c_double), value :: box_volume
        real(c_double) :: rho(*)
        character(kind=c_char) :: message(*)
        integer(c_size_t), value :: message_size
    end function c_tbrf_ic_density_volumes

    function c_tbrf_ic_voronoi_volumes(n, xyz, box, vol, message, message_size) &
        bind(C, name="tbrf_ic_voronoi_volumes")
        import
        integer(c_int) :: c_tbrf_ic_voronoi_volumes
        integer(c_int64_t), value :: n
        real(c_double), intent(in) :: xyz(*)
        real(c_double), value :: box
        real(c_double) :: vol(*)
        character(kind=c_char) :: message(*)
        integer(c_size_t), value :: message_size
    end function c_tbrf_ic_voronoi_volumes

    subroutine c_tbrf_ic_default_zoom(params) bind(C, name="tbrf_ic_default_zoom")
        import
        type(tbrf_ic_zoom_params) :: params
    end subroutine c_tbrf_ic_default_zoom

    function c_tbrf_ic_zoom_bytes(parent, zoom, bytes) bind(C, name="tbrf_ic_zoom_bytes")
        import
        integer(c_int) :: c_tbrf_ic_zoom_bytes
        type(c_ptr), value :: parent
        type(c_ptr), value :: zoom
        real(c_double), intent(out) :: bytes
    end function c_tbrf_ic_zoom_bytes

    function c_tbrf_ic_zoom_make(parent, zoom, out) bind(C, name="tbrf_ic_zoom_make")
        import
        integer(c_int) :: c_tbrf_ic_zoom_make
        type(c_ptr), value :: parent
        type(c_ptr), value :: zoom
        type(c_ptr) :: out
    end function c_tbrf_ic_zoom_make

    function c_tbrf_ic_zoom_begin(parent, zoom, hold, run, out) bind(C, name="tbrf_ic_zoom_begin")
        import
        integer(c_int) :: c_tbrf_ic_zoom_begin
        type(c_ptr), value :: parent
        type(c_ptr), value :: zoom
        integer(c_int), value :: hold
        real(c_double), value :: run
        type(c_ptr) :: out
    end function c_tbrf_ic_zoom_begin

    function c_tbrf_ic_zoom_level_make(zoom, level, planes, rows, ic) bind(C, name="tbrf_ic_zoom_level_make")
        import
        integer(c_int) :: c_tbrf_ic_zoom_level_make
        type(c_ptr), value :: zoom
        integer(c_int), value :: level
        integer(c_int64_t), value :: planes
        integer(c_int64_t), value :: rows
        type(c_ptr) :: ic
    end function c_tbrf_ic_zoom_level_make

    function c_tbrf_ic_zoom_take(zoom, chunk) bind(C, name="tbrf_ic_zoom_take")
        import
        integer(c_int) :: c_tbrf_ic_zoom_take
        type(c_ptr), value :: zoom
        type(c_ptr), value :: chunk
    end function c_tbrf_ic_zoom_take

    function c_tbrf_ic_zoom_append(zoom, type, part) bind(C, name="tbrf_ic_zoom_append")
        import
        integer(c_int) :: c_tbrf_ic_zoom_append
        type(c_ptr), value :: zoom
        integer(c_int), value :: type
        type(c_ptr), value :: part
    end function c_tbrf_ic_zoom_append

    function c_tbrf_ic_zoom_finish(zoom) bind(C, name="tbrf_ic_zoom_finish")
        import
        integer(c_int) :: c_tbrf_ic_zoom_finish
        type(c_ptr), value :: zoom
    end function c_tbrf_ic_zoom_finish

    function c_tbrf_ic_zoom_get_params(zoom, parent, region) bind(C, name="tbrf_ic_zoom_get_params")
        import
        integer(c_int) :: c_tbrf_ic_zoom_get_params
        type(c_ptr), value :: zoom
        type(tbrf_ic_cosmo_params) :: parent
        type(tbrf_ic_zoom_params) :: region
    end function c_tbrf_ic_zoom_get_params

    function c_tbrf_ic_zoom_get_info(zoom, info) bind(C, name="tbrf_ic_zoom_get_info")
        import
        integer(c_int) :: c_tbrf_ic_zoom_get_info
        type(c_ptr), value :: zoom
        type(tbrf_ic_zoom_info) :: info
    end function c_tbrf_ic_zoom_get_info

    function c_tbrf_ic_zoom_particles(zoom, type, part) bind(C, name="tbrf_ic_zoom_particles")
        import
        integer(c_int) :: c_tbrf_ic_zoom_particles
        type(c_ptr), value :: zoom
        integer(c_int), value :: type
        type(tbrf_ic_zoom_part) :: part
    end function c_tbrf_ic_zoom_particles

    function c_tbrf_ic_zoom_level(zoom, i, j, k) bind(C, name="tbrf_ic_zoom_level")
        import
        integer(c_int) :: c_tbrf_ic_zoom_level
        type(c_ptr), value :: zoom
        integer(c_int64_t), value :: i
        integer(c_int64_t), value :: j
        integer(c_int64_t), value :: k
    end function c_tbrf_ic_zoom_level

    function c_tbrf_ic_zoom_status(zoom) bind(C, name="tbrf_ic_zoom_status")
        import
        integer(c_int) :: c_tbrf_ic_zoom_status
        type(c_ptr), value :: zoom
    end function c_tbrf_ic_zoom_status

    function c_tbrf_ic_zoom_message(zoom) bind(C, name="tbrf_ic_zoom_message")
        import
        type(c_ptr) :: c_tbrf_ic_zoom_message
        type(c_ptr), value :: zoom
    end function c_tbrf_ic_zoom_message

    subroutine c_tbrf_ic_zoom_destroy(zoom) bind(C, name="tbrf_ic_zoom_destroy")
        import
        type(c_ptr), value :: zoom
    end subroutine c_tbrf_ic_zoom_destroy
    end interface
end module tbrf_c
