/* tbrf/driver.h — the turbulence driver.
 * A feature header of the public API: <tbrf.h> includes every one;
 * each may also be included alone (conventions: tbrf.h). */
#ifndef TBRF_DRIVER_PUBLIC_H
#define TBRF_DRIVER_PUBLIC_H

#include "tbrf/common.h"
#include "tbrf/model.h"
#include "tbrf/plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------ turbulence driving
 * An Ornstein-Uhlenbeck (OU) forcing field for simulation codes
 * (doc/driving.md): the Fourier modes of a periodic box in a band of the
 * spectrum, each an OU process changing on a fixed driving interval and
 * drawn by random access in time, so the force at time t is a pure
 * function of (spectrum, parameters, seed, the update of t, position),
 * computed in O(log updates) work.
 *
 * Ranks and threads (doc/driving.md, "Threads and ranks"): a driver has
 * no communicator; each rank makes its own with the same arguments and
 * the ranks agree bit for bit. One driver may be called from many threads
 * at once (a code's OpenMP loop over blocks): the values are bitwise
 * those of the serial loop. The first call at a new time builds that
 * time's coefficients once, under the driver's lock taken exclusively
 * (waiting for calls still running on the old ones); the calls of a time
 * it holds evaluate together. Calls on a non-periodic domain or a GPU
 * backend run one at a time on a driver. With threads, read each call's
 * returned status: tbrf_driver_status and _message are those of the last
 * call to finish. tbrf_driver_destroy must not run beside another call;
 * tbrf_driver_stream's callbacks must not call the same driver. */

typedef struct tbrf_driver tbrf_driver;

/* How the driver sets its amplitude (tbrf_driver_params.normalization). */
enum tbrf_drive_norm { TBRF_DRIVE_RMS_ENSEMBLE = 0, TBRF_DRIVE_RMS_EXACT = 1,
                       TBRF_DRIVE_INJECTION = 2 };
/* How the driver sums its modes at positions (tbrf_driver_params.eval). */
enum tbrf_drive_eval { TBRF_DRIVE_AUTO = 0, TBRF_DRIVE_DIRECT = 1, TBRF_DRIVE_NUFFT = 2 };

/* Driver parameters; fill with tbrf_driver_default_params(). */
typedef struct tbrf_driver_params {
    int32_t dim;           /* 3 (default), 2 or 1 (with components = 3): the box's axes, so
                              the coordinates of a position */
    int32_t periodic;      /* 1 (default): Fourier modes of the box; 0: the non-periodic domain
                              [origin, origin + length] by turning bands (OU line modes;
                              doc/driving.md, "Non-periodic domains") */
    double origin[3];      /* the box [origin, origin + length) (or the domain), default 0 */
    double length[3];      /* default 1 */
    double zeta;           /* solenoidal weight 0 <= zeta <= 1 of zeta P_perp + (1 - zeta)
                              P_par, default 1 (divergence-free) */
    double tcorr;          /* OU autocorrelation time T > 0, default 1 */
    double dt_update;      /* driving interval: the modes change at t = j dt_update;
                              0 (default) = tcorr / 10 */
    double rms;            /* target rms of the force, sqrt(<|f|^2>), default 1 */
    double injection;      /* TBRF_DRIVE_INJECTION: energy injection rate per unit volume */
    double density;        /* TBRF_DRIVE_INJECTION: mean density, default 1 */
    int32_t normalization; /* TBRF_DRIVE_RMS_ENSEMBLE (default): rms is the OU stationary
                              (ensemble) rms; _RMS_EXACT: every update is rescaled to rms over
                              the box exactly (Parseval, from the modes); _INJECTION: the
                              ensemble rms that injects `injection` (doc/driving.md) */
    int32_t interpolate;   /* 0 (default): the force is constant between updates; 1: linear
                              in time between updates j and j + 1 */
    int32_t eval;          /* TBRF_DRIVE_AUTO (default), _DIRECT (sum of the modes) or
                              _NUFFT (type-2 non-uniform FFT of the modes) */
    int32_t threads;       /* OpenMP threads of each call's own team, 0 = the OpenMP default
                              of the calling thread (omp_get_max_threads: OMP_NUM_THREADS,
                              else every core the rank sees); inside a code's parallel
                              region the team is nested, so one thread unless nesting is on */
    double accuracy;       /* _NUFFT: relative accuracy 1e-15 .. 0.1, 0 (default) = 1e-12 */
    double amplitude_factor[3]; /* per-component factors g_c >= 0 of the force (default 1, 1,
                              1; not all zero): f_c is multiplied by g_c before the
                              normalisation, so rms (or injection) still sets the total
                              and the factors its split (doc/driving.md, "Amplitude") */
    int32_t components;    /* force components: 0 (default) = dim, or 3 with dim = 1 or 2
                              (TurbGen's ndim = 1.5, 2.5): the modes of a 1D or 2D periodic
                              box, each with three components, so out holds 3 values per
                              point or cell (doc/driving.md, "Geometry") */
    int32_t directions;    /* 0 (default): every mode of the band; D > 0: sparse directions
                              for wide bands, as TurbGen's angles: in each shell s = round(|k|
                              length[0] / 2 pi) (s >= 1) each of its N_s modes is kept with
                              probability q_s = min(1, D s / N_s) (keyed by the seed) and its
                              variance divided by q_s, so the spectrum is exact in expectation
                              and about D s modes per shell are driven; periodic only
                              (doc/driving.md, "Wide bands") */
} tbrf_driver_params;

/* Fills *params with the defaults listed in tbrf_driver_params. */
TBRF_API void tbrf_driver_default_params(tbrf_driver_params *params);

/* Makes a driver: the modes k = 2 pi m / length (integer m != 0; never
 * the mean, so no net momentum) where the model's P(|k|) > 0, each an
 * OU process of variance P(|k|) times the projection, keyed by (seed, m,
 * update); in a 1D box (dim = 1, components = 3) the variance is the 3D
 * shell spectrum k^2 P_3(|k|), a model describing 2D and 3D. The model's shape matters, not its amplitude (the driver's
 * rms sets that); its support must be bounded (a covariance model needs
 * tbrf_model_set_band) and hold at most 2^20 modes with |m_d| <= 511.
 * The model is read during the call only (the driver keeps its modes).
 * With periodic = 0 the modes are those of 512 fixed turning-bands lines
 * over the domain instead (line modes with P1 > 0, dim OU processes
 * each), positions must lie in the domain, and the exact rms, the NUFFT,
 * tbrf_driver_rms and tbrf_driver_modes are TBRF_ERR_UNSUPPORTED: they
 * need the box's Fourier modes.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter NaN or
 * out of range, a failed model), TBRF_ERR_UNSUPPORTED (an unbounded
 * spectrum; an anisotropic model; periodic = 0 with TBRF_DRIVE_RMS_EXACT
 * or TBRF_DRIVE_NUFFT; components = 3 in a 1D or 2D box with periodic = 0
 * or _NUFFT),
 * TBRF_ERR_SIZE (too many modes, none in the box, eval = TBRF_DRIVE_NUFFT
 * with fine grids above 1 GiB, or lines above 1 GiB), TBRF_ERR_FFT,
 * TBRF_ERR_NO_MEMORY.
 * On any status but TBRF_ERR_NO_MEMORY *driver is set (read
 * tbrf_driver_message, then destroy). */
TBRF_API int tbrf_driver_make(const tbrf_model *model, uint64_t seed,
                              const tbrf_driver_params *params, tbrf_driver **driver);

/* Reads TurbGen's parameter file (Federrath et al. 2022,
 * chfeder/turbulence_generator: its "key = value  # comment" lines, the
 * text given NUL-terminated) into driver parameters, a seed and a model
 * giving TurbGen's force for that file in distribution: the spectral
 * shape (spect_form 0 band, 1 parabola, 2 power law k^power_law_exp, all
 * of the shell spectrum, over [k_min, k_max] 2 pi / L_x), zeta =
 * sol_weight, tcorr = t_decay = L_x / (k_driv velocity), dt_update =
 * t_decay / nsteps_per_t_turb, amplitude_factor_d = ampl_factor_d^1.5,
 * components from ndim (1.5, 2.5: three components of a 1D, 2D box) and
 * rms = TurbGen's ensemble rms of |f| for the file, summed over its own
 * modes (for the power law its sparse random directions, angles_exp,
 * replayed from random_seed), which TurbGen's OUvar = sqrt(energy /
 * t_decay) sets (doc/driving.md, "TurbGen's parameter files"). For a
 * power law (spect_form 2) params->directions is the largest D >= 1 whose
 * driver drives no more modes than TurbGen's list for the file (0, every
 * mode, when the band holds no more), so an update costs at most
 * TurbGen's; band and parabola files get 0, as TurbGen drives all their
 * modes. Set params->directions = 0 before tbrf_driver_make to drive
 * every mode (the rms is the same). The driver draws with its own
 * generator (seed = random_seed), so the realisation differs from
 * TurbGen's.
 * Make the driver with tbrf_driver_make(*model, *seed, params, ...) and
 * destroy *model after. Every TurbGen key is required (as TurbGen does);
 * an unknown key, ndim = 1, ampl_auto_adjust = 1 or k_max beyond
 * TurbGen's lattice (|ik| > 256) is refused by name. On failure the
 * reason (with the line) is written into message (message_size bytes,
 * NUL-terminated, truncated; message may be NULL) and *model is NULL.
 * The text is bounded before it is parsed: at most 1 MiB, and a byte that
 * is no text (a control byte other than a blank, or DEL) is refused at the
 * first one, naming its line and byte (a caller reading a file stops at 1
 * MiB + 1 bytes and at a NUL, which a C string cannot carry).
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a malformed line, a
 * value out of range, a missing or repeated key, a binary byte),
 * TBRF_ERR_UNSUPPORTED (a key tbrf does not honour), TBRF_ERR_SIZE (a
 * text over 1 MiB, no mode in the band, or more than TurbGen's limit of
 * 100000 modes, where TurbGen stops), TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_driver_params_from_turbgen(const char *text, tbrf_driver_params *params,
                                             TBRF_OUT uint64_t *seed, tbrf_model **model,
                                             TBRF_ARRAY char *message, int64_t message_size);

/* TurbGen's amplitude controller (its ampl_auto_adjust) as a pure
 * function, so that a restart that hands it the same inputs gets the same
 * bits: from the per-component gains gain[d] > 0 (multipliers of the
 * force's component d, TurbGen's ampl_factor^1.5) and the code's measured
 * velocity dispersion per component measured[d] >= 0 at time t, the gains
 * for the next interval dt >= 0 towards a total dispersion `target` > 0:
 *   want_d = gain_d (target / (measured_d sqrt(n)))^1.5,
 *   tau_d = sqrt(want_d / gain_d) timescale, e_d = exp(-dt / tau_d),
 *   gain_out_d = e_d gain_d + (1 - e_d) want_d,
 * timescale > 0 (TurbGen's t_decay: the driver's tcorr). TurbGen's guards
 * hold: a component is adjusted only when measured_d > 0 (a run from rest
 * measures 0) and t > 0.1 timescale; otherwise its gain is handed back
 * unchanged, with TBRF_OK. On any failure gain_out = gain as well, and
 * the reason, naming the argument, is written into message (message_size
 * bytes, NUL-terminated, truncated; message may be NULL; "" on success).
 * A driver applies gains through amplitude_factor = gain and rms = the
 * unit-gain rms times sqrt(sum_d gain_d^2 w_d), w_d the unit force's share
 * of component d (1/n in an isotropic box; doc/driving.md, "Amplitude
 * control"); the saved state records both, and
 * tbrf_driver_state_params reads them back at a restart. gain_out may be
 * gain. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (n not 1..3; a
 * value NaN, infinite or out of range; a result not finite). */
TBRF_API int tbrf_driver_amplitude_adjust(int32_t n, const double *gain, const double *measured,
                                          double target, double t, double dt, double timescale,
                                          TBRF_ARRAY double *gain_out, TBRF_ARRAY char *message,
                                          int64_t message_size);

/* The force at time t >= 0 at n positions xyz[dim*i + d] (wrapped into
 * the box; the array is read during the call only, so moved cells cost
 * nothing to set again) into out[nc*i + c], nc the components (dim, or 3
 * with components = 3). Update j holds for
 * fl(j dt_update) <= t < fl((j + 1) dt_update), so t = j * dt_update is in
 * update j. Any update costs at most 48 draws per mode (random access on
 * a tree of OU bridges), updates in order one each; values never depend
 * on the history of calls (doc/driving.md, "Time").
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (t NaN, negative, or
 * at or beyond 2^48 - 1 updates; a non-finite coordinate), TBRF_ERR_OUT_OF_DOMAIN
 * (periodic = 0: a position outside the domain, or NaN), TBRF_ERR_SIZE (n
 * < 0 or n dim overflowing),
 * TBRF_ERR_NO_MEMORY, TBRF_ERR_FFT, TBRF_ERR_BAD_PLAN (a driver whose make
 * failed). */
TBRF_API int tbrf_driver_points(tbrf_driver *driver, double t, int64_t n, const double *xyz,
                                TBRF_ARRAY double *out);

/* The force at time t on the grid origin + spacing (i, j, k), n[0] x n[1]
 * x n[2] cells (n[d] = 1 on the axes a 1D or 2D box lacks), x fastest, nc
 * values per cell into out (nc the components).
 * Unless eval is TBRF_DRIVE_NUFFT the modes are summed axis by axis (M_x
 * + 1 products per cell instead of one per mode; equal to the points'
 * values to rounding). Statuses as tbrf_driver_points (TBRF_ERR_INVALID
 * for a non-finite origin or spacing, TBRF_ERR_SIZE for counts < 1 or
 * overflowing). A block code calls it per block (doc/driving.md,
 * "Evaluation"), from many threads if it likes (above). */
TBRF_API int tbrf_driver_grid(tbrf_driver *driver, double t, const double origin[3],
                              const double spacing[3], const int64_t n[3], TBRF_ARRAY double *out);

/* tbrf_driver_points with the components last (a block code's x(n, dim)
 * and f(n, nc) in Fortran, AMRVAC's and PLUTO's layout): coordinate d of
 * point i at xyz[d n + i], component c of its force at out[c n + i].
 * Values bitwise those of tbrf_driver_points at the same positions; the
 * library gathers and scatters 65536 points at a time through its own
 * scratch, so the caller packs nothing. Statuses as tbrf_driver_points. */
TBRF_API int tbrf_driver_points_component_last(tbrf_driver *driver, double t, int64_t n,
                                               const double *xyz, TBRF_ARRAY double *out);

/* tbrf_driver_grid with the components last (Fortran f(nx, ny, nz, nc),
 * C out[c][k][j][i]): component c of cell q (x fastest) at out[c ncells +
 * q]. Values bitwise those of tbrf_driver_grid; summed axis by axis the
 * values are stored there directly, by any other path (NUFFT, a GPU
 * backend, a non-periodic domain) 65536 cells at a time through scratch.
 * Statuses as tbrf_driver_grid. */
TBRF_API int tbrf_driver_grid_component_last(tbrf_driver *driver, double t, const double origin[3],
                                             const double spacing[3], const int64_t n[3],
                                             TBRF_ARRAY double *out);

/* Streaming evaluation at time t: positions are pulled chunk by chunk
 * (65536 at a time, dim coordinates each) and each chunk's force (nc
 * doubles per point, nc the components) is
 * pushed before the next pull, so memory stays bounded. Values are
 * bitwise those of tbrf_driver_points. Statuses: those of
 * tbrf_driver_points and TBRF_ERR_CALLBACK. */
TBRF_API int tbrf_driver_stream(tbrf_driver *driver, double t, tbrf_pull_fn pull,
                                tbrf_push_fn push, void *user);

/* The rms of the force over the box at time t, sqrt((1/V) ∫ |f|^2), from
 * the modes by Parseval (no cell is evaluated). Statuses as
 * tbrf_driver_points, and TBRF_ERR_UNSUPPORTED for periodic = 0. */
TBRF_API int tbrf_driver_rms(tbrf_driver *driver, double t, TBRF_OUT double *rms);

/* The modes at time t: on entry *n is the room in m and coef (modes), on
 * return the number of modes, whose integer wavevectors (3 per mode) and
 * complex coefficients (2 nc doubles per mode, nc the components: re, im
 * of each)
 * are written only if they fit. The force is f(x) = sum over these modes
 * of 2 Re(coef e^{i k.(x - origin)}), k = 2 pi m / length (one member of
 * each +-m pair is listed). Statuses as tbrf_driver_points, and
 * TBRF_ERR_UNSUPPORTED for periodic = 0 (line modes, not box modes). */
TBRF_API int tbrf_driver_modes(tbrf_driver *driver, double t, TBRF_ARRAY int64_t *n,
                               TBRF_ARRAY int32_t *m, TBRF_ARRAY double *coef);

/* What a driver decided. */
typedef struct tbrf_driver_info {
    int64_t modes;       /* driven modes (one of each +-m pair); periodic = 0: line modes,
                            lines x modes per line */
    int32_t eval;        /* TBRF_DRIVE_DIRECT or _NUFFT: what AUTO chose */
    int32_t reserved;    /* 0 */
    double dt_update;    /* the driving interval */
    double decay;        /* exp(-dt_update / tcorr), the OU factor per update */
    double rms_ensemble; /* the OU stationary rms of the force */
    int64_t update;      /* the update of the OU value the driver holds (the last time
                            evaluated, or a loaded state's), -1 before any */
} tbrf_driver_info;

/* Fills *info. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_driver_get_info(const tbrf_driver *driver, tbrf_driver_info *info);

/* Bytes tbrf_driver_save writes for this driver (a header and the modes'
 * OU state); 0 for a NULL or failed driver. */
TBRF_API int64_t tbrf_driver_state_size(const tbrf_driver *driver);

/* Writes the OU value the driver holds (its update index and every mode's
 * value, with the version, the seed, the physical parameters, a hash of
 * the modes and a checksum) into buf of `size` bytes. With random access
 * in time the state is only a cache: a driver made alike computes the same
 * values without it (doc/driving.md, "Save and load"). Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_SIZE (size below
 * tbrf_driver_state_size), TBRF_ERR_NO_GEOMETRY (no state yet: evaluate at
 * some time first), TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_driver_save(const tbrf_driver *driver, void *buf, int64_t size);

/* Loads a state written by tbrf_driver_save into a driver made with the
 * same model, seed and physical parameters (any threads, eval, accuracy
 * or backend): the force is bitwise that of a driver without it. Checked
 * before a byte is used: the format and version (a 0.5 state is refused
 * by version), every value finite, the checksum, then the seed, each
 * physical parameter and the modes. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (not a state, another version, a NaN or infinite value,
 * a checksum mismatch, another driver's: the message names the value or
 * the parameter), TBRF_ERR_SIZE (a buffer shorter than the state it
 * holds), TBRF_ERR_BAD_PLAN. */
TBRF_API int tbrf_driver_load(tbrf_driver *driver, const void *buf, int64_t size);

/* The driver parameters a saved state records (tbrf_driver_save): dim,
 * components, periodic, origin, length, zeta, tcorr, dt_update, rms (or
 * injection and density), normalization, interpolate and
 * amplitude_factor — with amplitude control, the gains — into *params,
 * the others at their defaults (tbrf_driver_default_params), and the
 * state's seed into *seed (may be NULL). A code that adjusts the
 * amplitude restarts by making the driver from these parameters (its own
 * model) and loading the state; the state is checked as tbrf_driver_load
 * checks it (format, version, values, checksum) before anything is
 * written. On failure the reason is written into message (message_size
 * bytes, NUL-terminated, truncated; message may be NULL). Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (not an intact state of this
 * version), TBRF_ERR_SIZE (a buffer shorter than its state). */
TBRF_API int tbrf_driver_state_params(const void *buf, int64_t size, tbrf_driver_params *params,
                                      TBRF_OUT uint64_t *seed, TBRF_ARRAY char *message,
                                      int64_t message_size);

/* Status of the last call on the driver (TBRF_ERR_BAD_PLAN for a driver
 * whose make failed). */
TBRF_API int tbrf_driver_status(const tbrf_driver *driver);

/* Detailed message of the last failure ("" if none); never NULL. */
TBRF_API const char *tbrf_driver_message(const tbrf_driver *driver);

/* Frees the driver; NULL is ignored. */
TBRF_API void tbrf_driver_destroy(tbrf_driver *driver);
/* Where a driver's sums run (doc/driving.md, "Backends"). A driver is made
 * on the CPU backend; tbrf_driver_set_backend moves it to another. On a
 * non-periodic domain the turning-bands lines (synthesised on the host)
 * are projected by the backend, bitwise the CPU's values (doc/gpu.md). On
 * a periodic box the backend sums the Fourier modes directly (eval DIRECT,
 * which AUTO becomes on a GPU backend), within 1e-10 of the CPU's values
 * relative to the largest |f| (the GPU takes each mode's sine and cosine
 * where the CPU raises e^{i theta} to powers); eval NUFFT runs on the CPU
 * whatever the backend. The state (tbrf_driver_save) does not depend on
 * the backend, eval or thread count: any driver made alike loads it. */

/* Moves the driver's sums to `backend` (TBRF_BACKEND_CPU, _OPENCL, _CUDA,
 * or _AUTO: a CUDA or OpenCL GPU if one works, else the CPU) on device
 * `device` (-1: the backend's first usable; see doc/gpu.md, "Selecting a
 * backend and a device"). The values then come from that backend; the
 * state, time and model are kept. On failure the driver keeps its
 * backend. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (unknown
 * backend, device < -1), TBRF_ERR_NOT_BUILT (the backend is not in this
 * library), TBRF_ERR_NO_DEVICE (built, but no usable device),
 * TBRF_ERR_UNSUPPORTED (a device without double precision),
 * TBRF_ERR_NO_MEMORY, TBRF_ERR_BAD_PLAN (the make failed); the reason in
 * tbrf_driver_message. */
TBRF_API int tbrf_driver_set_backend(tbrf_driver *driver, int backend, int device);

/* Sets the driver's cancel hook (tbrf_cancel_fn; cancel NULL removes
 * it): tbrf_driver_grid, tbrf_driver_grid_component_last and the
 * turning-bands projections then poll cancel(user) between blocks of
 * planes or cells and stop with TBRF_ERR_CANCELLED when it returns
 * non-zero (the driver's state and time stay as they were). Waits for
 * calls in flight. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_BAD_PLAN
 * (the make failed). */
TBRF_API int tbrf_driver_set_cancel(tbrf_driver *driver, tbrf_cancel_fn cancel, void *user);

/* The backend the driver's sums run on: TBRF_BACKEND_CPU, _OPENCL or
 * _CUDA (AUTO resolved); -1 for NULL or a driver whose make failed. */
TBRF_API int tbrf_driver_backend(const tbrf_driver *driver);

#ifdef __cplusplus
}
#endif
#endif /* TBRF_DRIVER_PUBLIC_H */
