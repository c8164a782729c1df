/* tbrf/ic.h — initial conditions.
 * A feature header of the public API: <tbrf.h> includes every one;
 * each may also be included alone (conventions: tbrf.h). */
#ifndef TBRF_IC_PUBLIC_H
#define TBRF_IC_PUBLIC_H

#include "tbrf/common.h"
#include "tbrf/model.h"
#include "tbrf/plan.h"
#include "tbrf/cosmology.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------- initial conditions
 * The physics of initial conditions for simulation codes (doc/ic.md):
 * cosmological particle loads by second-order Lagrangian perturbation
 * theory (2LPT) or the Zel'dovich approximation, density
 * transforms of a Gaussian field, point placement and periodic Voronoi
 * volumes. Parameters come in plain structs filled by tbrf_ic_default_*;
 * the object (tbrf_ic_cosmo) keeps its status and message like a plan,
 * and the free functions write their one-line reason into an optional
 * message buffer (NULL, or room for message_size bytes; "" on success).
 * Writing the result as an AREPO/Gadget file is tbrf_arepo.h's
 * tbrf_arepo_write_cosmo (libtbrf_writer). */

/* Parameters of a cosmological initial condition (tbrf_ic_cosmo_make):
 * G^3 particles on the lattice q = (i, j, k) L/G (or a tiled glass),
 * displaced by Psi, a periodic curl-free Gaussian field with |Psi_k|^2 =
 * P(k) D(z)^2 / k^2 (Psi_k = i k delta_k / k^2, so div Psi = -delta),
 * modes cut at the particle Nyquist frequency pi G / L (a sphere), moving
 * with v = a H f Psi; with lpt 2 (the default) plus the second-order
 * D2 Psi2 moving with a H f2 D2 Psi2 (tbrf_ic_cosmo_displacements2); with
 * lpt 3 also the third-order Psi3 (monofonIC's: D3a = -D1^3/3, D3b =
 * 10/21 D1^3, D3c = -D1^3/7, the last a transverse term) moving with a H
 * (3 f) Psi3 (doc/ic.md).
 * Flat or curved LCDM without radiation. */
typedef struct tbrf_ic_cosmo_params {
    double box;            /* L, the box side in length units (default 50000: 50 Mpc/h in kpc/h) */
    int64_t particles;     /* G: G^3 particles, 2 <= G <= 65536 (default 32) */
    double redshift;       /* z, -1 < z <= 1e4 (default 127); a = 1/(1+z) */
    double omega_m;        /* 0 < omega_m <= 10 (default 0.3089) */
    double omega_lambda;   /* 0 <= omega_lambda <= 10; NaN (default): 1 - omega_m, a flat
                              universe whatever omega_m is set to (0.6911 with the default
                              omega_m), as tbrf_ic_cosmo_make and tbrf_ic_cosmo_get_params
                              then hold it */
    double omega_b;        /* 0 <= omega_b < omega_m (default 0.0486): the transfer function's
                              baryons (0: Eisenstein & Hu's zero-baryon form, dark matter
                              only), and the gas's share with gas = 1 (then > 0) */
    double hubble;         /* h (default 0.6774) */
    double n_s;            /* the spectral index (default 0.9667) */
    double sigma8;         /* sigma(8 Mpc/h) at z = 0 (default 0.831); unused with keep_amplitude */
    double t_cmb;          /* the CMB temperature today in K (default 2.7255) */
    double length_per_mpc; /* length units per Mpc/h: 1000 (default: kpc/h) or 1 (Mpc/h) */
    double mass_unit;      /* the mass unit in M_sun/h (default 1e10) */
    double velocity_unit;  /* the velocity unit in cm/s (default 1e5: km/s), < 1e11 */
    int32_t wiggles;       /* Eisenstein & Hu with baryon wiggles (1, default) or without (0) */
    int32_t gas;           /* 1: every site splits into a gas and a dark-matter particle,
                              masses in the ratio omega_b : omega_m - omega_b, shifted as
                              N-GenIC does; 0 (default): dark matter only */
    uint64_t seed;         /* the random seed (default 1) */
    int32_t lpt;           /* the order of Lagrangian perturbation theory: 1 (Zel'dovich),
                              2 (default: 2LPT, x = q + D1 Psi1 + D2 Psi2, doc/ic.md) or 3
                              (3LPT: + Psi3) */
    int32_t fixed_amplitude; /* 1: every first-order mode keeps its random phase with |delta_k|
                                set to its rms sqrt(P(k) D^2 / V) (Angulo & Pontzen 2016);
                                0 (default): Gaussian amplitudes */
    int32_t paired;        /* 1: the phase-flipped partner, delta -> -delta (Psi1 -> -Psi1;
                              Psi2, quadratic in delta, unchanged; Psi3 -> -Psi3); 0 (default) */
    int32_t reserved_lpt;  /* 0 */
    const tbrf_model *power; /* NULL (default): Eisenstein & Hu; else P(k) at z = 0, k in h/Mpc,
                                P in (Mpc/h)^3 (a CAMB/CLASS table, or a transfer file's
                                tbrf_ic_transfer_power), which must cover the modes used, 2 pi/L
                                to the sphere pi G/L, and when normalised sigma8's integrand
                                (k^3 P W^2(8k) at both ends of a table below 1e-4 of its
                                peak); copied and normalised to sigma8 unless keep_amplitude */
    const double *glass;   /* NULL (default): the lattice; else glass_n points (3 glass_n,
                              inside [0, glass_box)^3; a coordinate within 1e-6 glass_box
                              outside, as at glass_box itself, is wrapped), tiled T times per axis with G^3 =
                              glass_n T^3 (N-GenIC's GlassFile, GlassTileFac); copied */
    int64_t glass_n;       /* the glass's points (0 default) */
    double glass_box;      /* the glass's box (default 1) */
    double gas_temperature; /* gas: K, 0 (default) = 2.7255 (1 + z), the gas still coupled
                               to the radiation */
    double gas_mu;         /* gas: mean molecular weight (default 1.22, neutral primordial) */
    double gas_gamma;      /* gas: adiabatic index > 1 (default 5/3) */
    /* transfer files, amplitudes and gas masses: */
    const tbrf_model *power_gas; /* gas with power: NULL (default): the gas moves with the dark
                                    matter; else the baryons' P(k) on power's amplitude scale (a
                                    transfer file's k^n_s T_b^2), multiplied by the factor that
                                    normalises power: the gas takes its own displacement Psi_b
                                    (the same random phases, |Psi_b,k|^2 = P_b D^2 / k^2) and
                                    velocity a H f Psi_b; copied; its table must cover the modes */
    int32_t keep_amplitude;  /* with power: 0 (default) normalise to sigma8; 1 keep power's own
                                amplitude (N-GenIC's ReNormalizeInputSpectrum = 0) */
    int32_t gas_volumes;     /* gas on a glass: 0 (default) equal masses (MassTable); 1 each gas
                                particle's mass proportional to its glass point's periodic Voronoi
                                volume (Qhull), the total unchanged, so that the unperturbed gas
                                density is uniform (chunk gas_mass); no effect on the lattice */
    /* two fluids (doc/ic.md, "Two fluids"), with gas and power; on power's amplitude scale
       (multiplied by the factor that normalises it), copied, tables covering the modes: */
    const tbrf_model *power_dm; /* NULL (default): the dark matter moves with power (the total
                                   matter); else its own P(k) (a transfer file's k^n_s T_c^2):
                                   its displacement Psi_c (the same phases, |Psi_c,k|^2 = P_c
                                   D^2 / k^2) */
    const tbrf_model *velocity_dm; /* with power_dm: NULL (default): u = sqrt(a) f H Psi_c (the
                                      growing mode, the matter's f); else its velocity's P_v(k)
                                      (tbrf_ic_transfer_velocity: f^2 P_c in the growing mode):
                                      u = sqrt(a) H Psi_v, Psi_v of P_v with the same phases */
    const tbrf_model *velocity_gas; /* with power_gas: the same for the gas (NULL: u = sqrt(a) f H
                                       Psi_b) */
} tbrf_ic_cosmo_params;

/* Fills *params with the defaults listed in tbrf_ic_cosmo_params (AREPO's
 * cosmo_box_gravity_only_3d example). */
TBRF_API void tbrf_ic_default_cosmo(tbrf_ic_cosmo_params *params);

/* A cosmological initial condition ready to generate: the normalised P(k),
 * the periodic plan of Psi (the FFT method on the lattice, its
 * non-uniform FFT at glass sites), the factors below. */
typedef struct tbrf_ic_cosmo tbrf_ic_cosmo;

/* What an initial condition derived from its parameters. */
typedef struct tbrf_ic_cosmo_info {
    int64_t particles;       /* G^3: dark-matter particles (and as many gas particles) */
    int64_t glass_tile;      /* T with G^3 = glass_n T^3; 0 on the lattice */
    double scale_factor;     /* a = 1 / (1 + z) */
    double growth;           /* D(z), D(0) = 1 */
    double growth_rate;      /* f = dln D / dln a at z */
    double hubble;           /* H(a) in velocity units per length unit */
    double velocity_factor;  /* Gadget's u = v / sqrt(a) per unit of Psi: sqrt(a) f H */
    double mass_dm;          /* a dark-matter particle's mass (mass units): Omega_m rho_crit
                                L^3 / G^3, times (Omega_m - Omega_b) / Omega_m with gas */
    double mass_gas;         /* a gas particle's: the site's mass times Omega_b / Omega_m; 0 */
    double shift_dm;         /* added to every coordinate of dark matter: (1/2)(Omega_b /
                                Omega_m) L/G with gas, else 0 */
    double shift_gas;        /* of gas: -(1/2)(1 - Omega_b / Omega_m) L/G */
    double gas_temperature;  /* K (the default resolved) */
    double internal_energy;  /* gas: k_B T / ((gamma - 1) mu m_p) in velocity units squared */
    double growth2;          /* D2(z) (tbrf_cosmo_growth2; about -(3/7) D^2), whatever lpt */
    double growth_rate2;     /* f2 = dln D2 / dln a at z */
    double velocity_factor2; /* u per unit of the second-order displacement D2 Psi2:
                                sqrt(a) f2 H (used with lpt = 2) */
} tbrf_ic_cosmo_info;

/* The bytes tbrf_ic_cosmo_make and tbrf_ic_cosmo_generate hold at once
 * when the particles come in `chunks` chunks (the plan, the glass, one
 * chunk's displacements, positions, gas positions and energies and glass
 * sites, two lattice planes; with lpt 2 or 3 or fixed amplitudes the
 * potentials, the padded grids of the second- (and third-) order sources
 * or the whole lattice's D2 Psi2 (and Psi3), whichever is more) into
 * *bytes, and into *fewest the fewest chunks that fit the memory budget
 * (tbrf_memory_budget), 0 when none does (the plan alone is over it).
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (particles outside
 * 2..65536, chunks outside 1 .. 65536, glass_n < 0, lpt outside 1..3). */
TBRF_API int tbrf_ic_cosmo_bytes(const tbrf_ic_cosmo_params *params, int64_t chunks,
                                 TBRF_OUT double *bytes, TBRF_OUT int64_t *fewest);

/* Checks the parameters, copies the glass, makes the z = 0 P(k) (Eisenstein
 * & Hu, or a copy of params->power), normalises it to sigma8, and makes
 * the plan of Psi; with lpt 2 or fixed amplitudes also the first-order
 * potential from the plan's Psi on the lattice and the second-order
 * potential from its dealiased source, with lpt 3 the third-order
 * displacement's modes (doc/ic.md). *ic is set even on failure (NULL only on
 * TBRF_ERR_NO_MEMORY): read tbrf_ic_cosmo_message, then destroy it.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter out of
 * range, a glass point outside its box, a glass that does not tile G^3 or
 * whose tiling is not cubic, a power table that does not cover the box's
 * modes or is anisotropic, no growth factor, lpt not 1, 2 or 3,
 * fixed_amplitude or paired not 0 or 1), TBRF_ERR_SIZE (over the memory
 * budget: the plan, or the potentials of lpt 2 or 3 and fixed amplitudes),
 * TBRF_ERR_NO_MEMORY, TBRF_ERR_FFT, and those of the plan. */
TBRF_API int tbrf_ic_cosmo_make(const tbrf_ic_cosmo_params *params, tbrf_ic_cosmo **ic);

/* The parameters the initial condition was made with (glass and
 * power_gas, power_dm, velocity_dm and velocity_gas pointing to their
 * copies, power NULL). Statuses: TBRF_OK,
 * TBRF_ERR_NULL, TBRF_ERR_BAD_PLAN (a failed make). */
TBRF_API int tbrf_ic_cosmo_get_params(const tbrf_ic_cosmo *ic, tbrf_ic_cosmo_params *params);

/* What ic derived (tbrf_ic_cosmo_info). Statuses as
 * tbrf_ic_cosmo_get_params. */
TBRF_API int tbrf_ic_cosmo_get_info(const tbrf_ic_cosmo *ic, tbrf_ic_cosmo_info *info);

/* The shift of ic's lattice in spacings: its sites are (i + offset) L/G
 * on every axis. 0 for tbrf_ic_cosmo_make and make_slab; 1/2 for a zoom's
 * refined levels (tbrf_ic_zoom_level_make: the centres of the parent
 * cells' sub-cells). A caller that transforms the modes itself
 * (tbrf_ic_cosmo_generate_mpi) sets the plan's grid origin to offset
 * L/G, so that tbrf_fft_modes carries the shift. Statuses as
 * tbrf_ic_cosmo_get_params. */
TBRF_API int tbrf_ic_cosmo_get_offset(const tbrf_ic_cosmo *ic, TBRF_OUT double *offset);

/* One chunk of particles (tbrf_ic_cosmo_generate): rows first .. first +
 * count - 1 in particle order (x fastest on the lattice; glass point j
 * of tile (a, b, c) is row j + glass_n (a + T (b + T c))), 3 values a row.
 * Positions inside [0, L); vel is Gadget's u = v / sqrt(a) in velocity
 * units; gas_pos, gas_u (the internal energy, one a row) and gas_vel
 * are NULL without gas; the gas moves with the dark matter's velocity
 * unless it has its own spectrum (power_gas; two fluids: power_dm,
 * velocity_dm and velocity_gas give each species its own). Valid during the call
 * only. */
typedef struct tbrf_ic_chunk {
    int64_t chunk;          /* its index c */
    int64_t first;          /* its first row */
    int64_t count;          /* its rows (0 for an empty chunk) */
    const double *pos;      /* dark matter's positions (3 count) */
    const double *vel;      /* the dark matter's velocities, u = v / sqrt(a) (3 count); the
                               gas's too unless it has its own (gas_vel) */
    const double *gas_pos;  /* the gas's positions (3 count), or NULL */
    const double *gas_u;    /* the gas's internal energy (count), or NULL */
    const double *gas_vel;  /* the gas's velocities (3 count): vel, or the gas's own with
                               power_gas; NULL without gas */
    const double *gas_mass; /* the gas's masses (count) with gas_volumes on a glass, else NULL
                               (every gas particle has mass_gas) */
} tbrf_ic_chunk;

/* Chunk callback: 0 to go on, non-zero to stop (TBRF_ERR_CALLBACK). */
typedef int (*tbrf_ic_push_fn)(void *user, const tbrf_ic_chunk *chunk);

/* Generates the particles in `chunks` chunks, chunk c holding rows [n c /
 * chunks, n (c + 1) / chunks) of the n = G^3 (AREPO's split of a set into
 * files: tbrf_arepo_file_rows), pushed in order c = 0, 1, ..., each once,
 * empty ones too: memory is the plan and one chunk (tbrf_ic_cosmo_bytes,
 * checked against the budget first), with lpt 2 the whole lattice's D2
 * Psi2 (or the glass's fine grids of it), with lpt 3 its Psi3 too. The lattice's Psi comes from
 * one streamed pass of the FFT method (with lpt 2 the pass make ran for
 * the potential, kept; with fixed amplitudes from the fixed potential);
 * glass sites chunk by chunk from the non-uniform FFT.
 * The values are the same for any chunks and threads.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (chunks outside 1 .. 65536),
 * TBRF_ERR_SIZE, TBRF_ERR_NO_MEMORY, TBRF_ERR_CALLBACK, TBRF_ERR_BAD_PLAN,
 * TBRF_ERR_FFT, and those of the plan. */
TBRF_API int tbrf_ic_cosmo_generate(tbrf_ic_cosmo *ic, int64_t chunks, tbrf_ic_push_fn push,
                                    void *user);

/* The first-order displacements D1 Psi1 of every particle (3 n values,
 * rows in particle order, length units, before the gas/dark-matter shifts
 * and the wrap): the field whose spectral divergence is -delta on the
 * lattice (-(-delta) for a paired partner; fixed amplitudes included).
 * Statuses as tbrf_ic_cosmo_generate. */
TBRF_API int tbrf_ic_cosmo_displacements(tbrf_ic_cosmo *ic, TBRF_ARRAY double *psi);

/* Sets the cancel hook (tbrf_cancel_fn; cancel NULL removes it) of the
 * plans the IC evaluates its fields with: tbrf_ic_cosmo_displacements and
 * tbrf_ic_cosmo_generate then poll cancel(user) as tbrf_set_cancel says
 * (the potentials of fixed amplitudes or 2LPT, made by
 * tbrf_ic_cosmo_make, are not polled) and stop with TBRF_ERR_CANCELLED.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_BAD_PLAN (the make failed). */
TBRF_API int tbrf_ic_cosmo_set_cancel(tbrf_ic_cosmo *ic, tbrf_cancel_fn cancel, void *user);

/* The second-order displacements D2 Psi2 of every particle into psi2 (as
 * tbrf_ic_cosmo_displacements; zeros with lpt 1): the particles sit at q
 * + psi + psi2 and move with u = velocity_factor psi + velocity_factor2
 * psi2. Psi2 = grad phi2 with laplacian phi2 = sum_{i>j} [phi,ii phi,jj -
 * phi,ij^2] for Psi1 = grad phi (dealiased: doc/ic.md), so div psi2 =
 * (D2 / D1^2) times the source of psi's potential on the lattice.
 * Statuses as tbrf_ic_cosmo_generate. */
TBRF_API int tbrf_ic_cosmo_displacements2(tbrf_ic_cosmo *ic, TBRF_ARRAY double *psi2);

/* The pieces of an initial condition whose lattice a distributed driver
 * evaluates in z slabs (libtbrf_mpi's tbrf_ic_cosmo_generate_mpi,
 * tbrf_mpi.h): on the lattice, lpt 1, 2 or 3, random or fixed
 * amplitudes.
 *
 * The bytes one rank holds with `planes` z planes of the G^3 lattice and
 * chunks of at most `rows` particles (the working set; its cells' Psi1
 * beside, first, the distributed FFT's half-complex slab, then one
 * chunk's positions and gas rows; the gas's own plan where power_gas is
 * set; with lpt 2 first its planes of the 3/2-padded grid of the
 * second-order source, two half-complex slabs of it beside the G slab and
 * the potential's modes moved between the two splits, then its cells' D2
 * Psi2 beside the rest; with lpt 3 before that its planes of the padded
 * grid as twelve half-complex slabs (the Hessians of phi1 and phi2, the
 * five sources written over phi2's) beside phi2's modes and the moved
 * planes, then the sources' five G slabs, then its cells' Psi3 beside
 * the rest) into *bytes. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (particles outside 2..65536,
 * planes outside 1..particles, rows < 0, lpt outside 1..3),
 * TBRF_ERR_UNSUPPORTED (a glass: its sites' fields come from the whole
 * lattice). */
TBRF_API int tbrf_ic_cosmo_slab_bytes(const tbrf_ic_cosmo_params *params, int64_t planes,
                                      int64_t rows, TBRF_OUT double *bytes);

/* tbrf_ic_cosmo_make for a rank of such a driver: the same object and
 * plan, the memory budget checked against tbrf_ic_cosmo_slab_bytes's
 * figure for (planes, rows) instead of the whole lattice's; with fixed
 * amplitudes or lpt 2 or 3 no potential is made (the driver fixes the
 * modes: tbrf_ic_cosmo_fixed_modes; it makes the higher orders itself), so
 * tbrf_ic_cosmo_generate, tbrf_ic_cosmo_displacements and
 * tbrf_ic_cosmo_displacements2 refuse such an object
 * (TBRF_ERR_UNSUPPORTED). Statuses as tbrf_ic_cosmo_make's, and those of
 * tbrf_ic_cosmo_slab_bytes. */
TBRF_API int tbrf_ic_cosmo_make_slab(const tbrf_ic_cosmo_params *params, int64_t planes,
                                     int64_t rows, tbrf_ic_cosmo **ic);

/* The periodic plan of Psi1, owned by ic (valid until
 * tbrf_ic_cosmo_destroy; a driver may set its grid): its realization 0
 * on the lattice (tbrf_set_grid with origin 0, spacing L/G and G cells a
 * side) is D1 Psi1 as the particles take it, before a pairing's sign.
 * NULL for NULL or a failed make. */
TBRF_API tbrf_plan *tbrf_ic_cosmo_plan(tbrf_ic_cosmo *ic);

/* The particles of lattice rows first .. first + count - 1 from their
 * D1 Psi1 (3 count values, the plan's at those sites; overwritten with
 * the velocities, which the chunk's vel points to, so that no copy is
 * held), pushed as the one chunk numbered `chunk` (0 .. 65535; count 0: an
 * empty chunk): the chunk tbrf_ic_cosmo_generate pushes for those rows
 * when psi holds the plan's values there (pairing, gas and its own
 * spectrum included; with fixed amplitudes psi must be the fixed field).
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (rows outside the
 * particles, chunk out of range), TBRF_ERR_UNSUPPORTED (lpt 2 or 3: see
 * tbrf_ic_cosmo_push_rows2 and 3; a glass), TBRF_ERR_NO_MEMORY,
 * TBRF_ERR_CALLBACK, TBRF_ERR_BAD_PLAN, and those of the gas's plan. */
TBRF_API int tbrf_ic_cosmo_push_rows(tbrf_ic_cosmo *ic, int64_t chunk, int64_t first,
                                     int64_t count, TBRF_ARRAY double *psi, tbrf_ic_push_fn push,
                                     void *user);

/* tbrf_ic_cosmo_push_rows with the second order: for lpt 2, psi2 holds
 * those rows' D2 Psi2 (3 count values; the field tbrf_ic_cosmo_displacements2
 * gives there; read only), and the particles are q + Psi1 + D2 Psi2 with
 * velocities vfac Psi1 + vfac2 D2 Psi2, the chunk tbrf_ic_cosmo_generate
 * pushes; for lpt 1 psi2 is ignored (may be NULL). Statuses as
 * tbrf_ic_cosmo_push_rows's (TBRF_ERR_NULL also for psi2 NULL with lpt 2
 * and count > 0; TBRF_ERR_UNSUPPORTED: a glass, lpt 3: see
 * tbrf_ic_cosmo_push_rows3). */
TBRF_API int tbrf_ic_cosmo_push_rows2(tbrf_ic_cosmo *ic, int64_t chunk, int64_t first,
                                      int64_t count, TBRF_ARRAY double *psi,
                                      const double *psi2, tbrf_ic_push_fn push,
                                      void *user);

/* tbrf_ic_cosmo_push_rows2 with the third order: for lpt 3, psi3 holds
 * those rows' Psi3 (3 count values, the third-order displacement
 * tbrf_ic_cosmo_generate adds there, before a pairing's sign; read only),
 * and the particles are q + Psi1 + D2 Psi2 + Psi3 (a paired partner's
 * -Psi1 + D2 Psi2 - Psi3) with velocities vfac Psi1 + vfac2 D2 Psi2 + 3
 * vfac Psi3, the chunk tbrf_ic_cosmo_generate pushes; for lpt 1 or 2
 * psi3 is ignored (may be NULL), for lpt 1 psi2 too: the chunk
 * tbrf_ic_cosmo_push_rows2 pushes. Statuses as tbrf_ic_cosmo_push_rows2's
 * (TBRF_ERR_NULL also for psi3 NULL with lpt 3 and count > 0;
 * TBRF_ERR_UNSUPPORTED: a glass). */
TBRF_API int tbrf_ic_cosmo_push_rows3(tbrf_ic_cosmo *ic, int64_t chunk, int64_t first,
                                      int64_t count, TBRF_ARRAY double *psi,
                                      const double *psi2, const double *psi3,
                                      tbrf_ic_push_fn push, void *user);

/* Fixed amplitudes for such a driver (params.fixed_amplitude): rows
 * first_row .. first_row + rows - 1 of the half-complex G^3 arrays of
 * Psi1's three components (mx, my, mz: the plan's modes as tbrf_fft_modes
 * fills them for components 0, 1, 2 of realization 0) replaced, mode by
 * mode, by those of the fixed-amplitude Psi1: the potential -i m.Psi_m /
 * (k_f m^2) (zero on the Nyquist planes, at m = 0 and where the spectrum
 * is), its modulus set to its rms, its gradient. Their transform is the
 * field tbrf_ic_cosmo_generate's fixed potential gives, up to rounding
 * (it takes the potential from the forward transform of the plan's
 * field). Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_BAD_PLAN,
 * TBRF_ERR_INVALID (rows outside the G^2 rows). */
TBRF_API int tbrf_ic_cosmo_fixed_modes(tbrf_ic_cosmo *ic, int64_t first_row, int64_t rows,
                                       TBRF_ARRAY double *mx, TBRF_ARRAY double *my,
                                       TBRF_ARRAY double *mz);

/* Status of the last call on ic (TBRF_ERR_BAD_PLAN for a failed make). */
TBRF_API int tbrf_ic_cosmo_status(const tbrf_ic_cosmo *ic);

/* The detail of the last failure ("" after success, a fixed text for
 * NULL); never NULL. */
TBRF_API const char *tbrf_ic_cosmo_message(const tbrf_ic_cosmo *ic);

/* Frees ic; NULL is ignored. */
TBRF_API void tbrf_ic_cosmo_destroy(tbrf_ic_cosmo *ic);

/* The tile factor T with particles^3 = glass_n T^3 of a glass (points
 * inside [0, glass_box)^3) into *tile. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (a point outside the glass box, counts that do not
 * tile, a quotient that is no cube; the message says which). */
TBRF_API int tbrf_ic_glass_tile(int64_t glass_n, const double *glass, double glass_box,
                                int64_t particles, TBRF_OUT int64_t *tile, char *message,
                                size_t message_size);

/* The sites of rows first .. first + count - 1 of the glass tiled tile^3
 * times in the box [0, box)^3 into sites (3 count): row j + glass_n (a + T
 * (b + T c)) is glass point j in tile (a, b, c), scaled by box / (T
 * glass_box). Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (sizes,
 * rows beyond glass_n tile^3). */
TBRF_API int tbrf_ic_glass_sites(int64_t glass_n, const double *glass, double glass_box,
                                 int64_t tile, double box, int64_t first, int64_t count,
                                 TBRF_ARRAY double *sites);

/* Making a glass (doc/ic.md, "Making a glass"): n^3 equal-mass particles
 * in the periodic box [0, L)^3, started at uniform random (Poisson)
 * positions (tbrf_ic_points's TBRF_IC_RANDOM of the seed) and moved by
 * repulsive gravity (gravity's sign flipped, as Gadget's MAKEGLASS) with
 * full damping: velocities reset every step, a particle moves by eta a,
 * the acceleration in units where the laplacian of the potential is the
 * density contrast, so a linear density mode shrinks by 1 - eta a step
 * (eta = 1/2; no particle moves more than a quarter of the mean spacing
 * a step). The force is particle-mesh on a periodic M^3 mesh: CIC
 * deposit, FFT Poisson solve (FFTW), spectral gradient, CIC
 * interpolation. The run stops after `steps` steps, or earlier when the
 * mean power of the lowest shells (|m| < 4.5 fundamental modes) on that
 * mesh has not reached a new minimum for 16 steps; the positions returned
 * are those of the lowest such power. The glass is a pure function of
 * (per_axis, mesh, steps, seed, box), the same bits for any thread
 * count. */
typedef struct tbrf_ic_glass_params {
    int64_t per_axis; /* n: n^3 particles, 2 <= n <= 2048 (default 16) */
    int64_t mesh;     /* M: the force mesh M^3, even, n <= M <= 8192; 0 (default): 4n */
    int32_t steps;    /* the most steps, 1 .. 100000 (default 200) */
    int32_t threads;  /* OpenMP threads as tbrf_opts.threads (0 default): no effect on values */
    uint64_t seed;    /* the random start's seed (default 1) */
    double box;       /* L > 0, finite (default 1) */
} tbrf_ic_glass_params;

/* How a glass run ended (tbrf_ic_glass_make). */
typedef struct tbrf_ic_glass_info {
    int32_t steps;        /* steps taken */
    int32_t converged;    /* 1: stopped as the low-k power stopped falling; 0: used every step */
    int32_t best_step;    /* the step whose positions were returned (0: the random start) */
    int32_t reserved;     /* 0 */
    double power_start;   /* the random start's mean P(k) / (L^3 / n^3) over the lowest shells,
                             |m| < 4.5 fundamental modes (about 1: Poisson) */
    double power_low;     /* the same for the positions returned */
    double rms_step;      /* the rms displacement of the last step, in mean spacings L/n */
} tbrf_ic_glass_info;

/* Fills *params with the defaults listed in tbrf_ic_glass_params. */
TBRF_API void tbrf_ic_default_glass(tbrf_ic_glass_params *params);

/* The bytes a glass run holds (positions, their best copy and a step's
 * displacements, two half-complex M^3 arrays) into *bytes; what
 * tbrf_ic_glass_make checks against the memory budget. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter out of range). */
TBRF_API int tbrf_ic_glass_bytes(const tbrf_ic_glass_params *params, TBRF_OUT double *bytes);

/* Makes the glass (see tbrf_ic_glass_params) into xyz (3 n^3, interleaved,
 * inside [0, L)^3), and how it ended into *info (may be NULL). cancel
 * (NULL: none) is polled with user between steps (tbrf_cancel_fn): a
 * non-zero return stops the run with TBRF_ERR_CANCELLED, xyz then holds
 * partial positions. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID
 * (a parameter), TBRF_ERR_SIZE (over the memory budget), TBRF_ERR_NO_MEMORY,
 * TBRF_ERR_FFT, TBRF_ERR_CANCELLED; the message says which. */
TBRF_API int tbrf_ic_glass_make(const tbrf_ic_glass_params *params, TBRF_ARRAY double *xyz,
                                tbrf_ic_glass_info *info, tbrf_cancel_fn cancel, void *user,
                                char *message, size_t message_size);

/* The shell-averaged power spectrum of n equal-mass points xyz (3n,
 * inside [0, box)^3) in units of the Poisson shot noise box^3 / n (a
 * uniform random set gives 1 in expectation, a glass far less at low k):
 * CIC deposit on a periodic mesh^3 (even, 4 .. 4096), forward FFT, |delta_k|^2
 * divided by the CIC window W(k)^2 = prod_d sinc^4(pi m_d / mesh). Shell b
 * (0 .. nbins - 1, nbins <= mesh/2 - 1; the glass of a mesh M is best
 * measured on another mesh, which does not share its aliases) holds the modes with |m| in
 * [b + 1/2, b + 3/2) fundamental modes 2 pi / box; k[b] is their mean |k|
 * (2 pi m / box), p[b] the mean power, modes[b] their count over the whole
 * sphere (m and -m both). threads as tbrf_opts.threads; the same bits for
 * any thread count. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (n,
 * box, mesh, nbins, a point outside the box), TBRF_ERR_SIZE (budget),
 * TBRF_ERR_NO_MEMORY, TBRF_ERR_FFT. */
TBRF_API int tbrf_ic_glass_power(int64_t n, const double *xyz, double box, int64_t mesh,
                                 int32_t threads, int32_t nbins, TBRF_ARRAY double *k,
                                 TBRF_ARRAY double *p, TBRF_ARRAY double *modes, char *message,
                                 size_t message_size);

/* Transfer files (tbrf_ic_transfer_power): the layouts recognised, */
enum tbrf_ic_transfer_format {
    TBRF_IC_TRANSFER_CAMB = 1, /* CAMB's *_transfer_*.dat, with or without its '#' header */
    TBRF_IC_TRANSFER_CLASS = 2 /* CLASS's *_tk.dat, format = class or camb, synchronous gauge */
};
/* and the species read. */
enum tbrf_ic_transfer_species {
    TBRF_IC_TRANSFER_MATTER = 0, /* total matter: CAMB's total, CLASS's d_m or d_tot (or
                                    -T_tot/k2) */
    TBRF_IC_TRANSFER_BARYON = 1, /* baryons: baryon, d_b, -T_b/k2 */
    TBRF_IC_TRANSFER_CDM = 2     /* cold dark matter: CDM, d_cdm, -T_cdm/k2 */
};

/* The P(k) = k^n_s T(k)^2 of one species of a CAMB transfer file or a
 * CLASS tk file (doc/ic.md, "Transfer files"), k in h/Mpc, as a table
 * model (tbrf_model_table) of amplitude 1, into *model, and the layout
 * into *format (may be NULL). The layout is told from the header: CLASS's
 * numbered "# 1:k (h/Mpc) 2:d_g 3:d_b ..." (T = delta / k^2 for its
 * synchronous-gauge d_i, as written for its format = camb -T_i/k2),
 * CAMB's "# k/h CDM baryon ... total", or none and 7, 9 or 13 columns
 * (older CAMB's fixed order); anything else is refused with a message
 * naming what was expected. T's sign and constant factors drop out of
 * the square and the normalisation: normalise the matter's model to
 * sigma8 and scale the others by the same factor (tbrf_ic_cosmo_params
 * power and power_gas do). Bounded input as tbrf_model_table_file, and
 * 256 MiB in all; the first byte that is no text (NUL, another control
 * byte than a blank, DEL) stops the read, named by line and byte.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (species, n_s outside
 * (-3, 5)), TBRF_ERR_FILE (unreadable, binary), TBRF_ERR_TABLE (an
 * unknown or ambiguous layout, a Newtonian-gauge CLASS file, a bad row),
 * TBRF_ERR_SIZE, TBRF_ERR_NO_MEMORY; *model is NULL on failure. */
TBRF_API int tbrf_ic_transfer_power(const char *path, int32_t species, double n_s,
                                    TBRF_OUT int32_t *format, tbrf_model **model, char *message,
                                    size_t message_size);

/* The velocity of one species (TBRF_IC_TRANSFER_BARYON or _CDM) of such a
 * file as P_v(k) = k^n_s T_v(k)^2, a table model of amplitude 1, in the
 * density's units: T_v = -theta / (H_conf k^2), theta the Newtonian-gauge
 * velocity divergence, so that T_v = f T (f = dln D / dln a) in the
 * growing mode and a species moves with u = sqrt(a) H Psi_v for the
 * displacement Psi_v of P_v (tbrf_ic_cosmo_params velocity_dm and
 * velocity_gas; doc/ic.md, "Two fluids"). CAMB's v_CDM and v_b columns
 * are -v_N k / H_conf (its 13-column file or a header naming them), taken
 * as written; CLASS's format = class file (synchronous gauge) gives the
 * Newtonian theta from t_b, h_prime and eta_prime (theta_c = (h' + 6
 * eta') / 2, theta_b = t_b + theta_c), divided by conformal_hubble, H_conf
 * = a H at the file's redshift in 1/Mpc (c = 1; CLASS's theta are in
 * 1/Mpc; CAMB's columns do not use it, but it must still be > 0). The
 * velocity must have its density's sign at every row (a positive growth
 * rate: one set of phases carries both). Bounded input as
 * tbrf_ic_transfer_power. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (species, n_s, conformal_hubble not > 0),
 * TBRF_ERR_UNSUPPORTED (the file has no such velocity: CAMB's 7 or 9
 * columns, CLASS's format = camb), TBRF_ERR_FILE, TBRF_ERR_TABLE (as
 * tbrf_ic_transfer_power, and a velocity against its density's sign),
 * TBRF_ERR_SIZE, TBRF_ERR_NO_MEMORY; *model is NULL on failure. */
TBRF_API int tbrf_ic_transfer_velocity(const char *path, int32_t species, double n_s,
                                       double conformal_hubble, tbrf_model **model,
                                       char *message, size_t message_size);

/* Point placement (tbrf_ic_points). */
enum tbrf_ic_placement {
    TBRF_IC_LATTICE = 0,  /* G^3 cell centres (i + 1/2) L/G */
    TBRF_IC_JITTERED = 1, /* each coordinate moved by jitter u spacings, u uniform in [-1, 1) */
    TBRF_IC_RANDOM = 2    /* n uniform points in [0, L)^3 */
};

/* Parameters of a placement; the random numbers are Philox draws keyed by
 * the seed in their own stream (doc/design.md, "Random streams"): no
 * field, driver or tbrf_rng_* stream of any seed shares them. */
typedef struct tbrf_ic_points_params {
    int32_t kind;         /* enum tbrf_ic_placement (default TBRF_IC_LATTICE) */
    int32_t reserved;     /* 0 */
    int64_t per_axis;     /* lattice, jittered: G >= 1 (default 2) */
    int64_t n;            /* random: n >= 1 points, < 2^48 (default 8) */
    double box;           /* L > 0 (default 1) */
    double jitter;        /* jittered: 0 <= jitter < 0.5 spacings (default 0.25) */
    uint64_t seed;        /* default 1 */
    uint64_t realization; /* default 0 */
} tbrf_ic_points_params;

/* Fills *params with the defaults listed in tbrf_ic_points_params. */
TBRF_API void tbrf_ic_default_points(tbrf_ic_points_params *params);

/* The number of points of the placement (G^3 or n); -1 for bad params. */
TBRF_API int64_t tbrf_ic_points_count(const tbrf_ic_points_params *params);

/* Points first .. first + count - 1 of the placement into xyz (3 count,
 * interleaved), each inside [0, L)^3; point i depends on (seed,
 * realization, i) only, so a placement can be made in pieces. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter, or rows beyond
 * tbrf_ic_points_count). */
TBRF_API int tbrf_ic_points(const tbrf_ic_points_params *params, int64_t first, int64_t count,
                            TBRF_ARRAY double *xyz, char *message, size_t message_size);

/* A density from a unit-variance Gaussian field g (enum tbrf_inflow_density
 * kinds; the inflow sampler's convention): */
typedef struct tbrf_ic_density_params {
    int32_t kind;      /* TBRF_DENSITY_LOGNORMAL: rho_mean exp(sigma g - sigma^2/2);
                          TBRF_DENSITY_LINEAR (default): rho_mean max(1 + sigma g, floor);
                          TBRF_DENSITY_FIELD: g itself */
    int32_t reserved;  /* 0 */
    double rho_mean;   /* > 0 (default 1) */
    double sigma;      /* >= 0 (default 0) */
    double rho_floor;  /* linear: 0 <= floor < 1, relative to rho_mean (default 0) */
} tbrf_ic_density_params;

/* Fills *params with the defaults listed in tbrf_ic_density_params. */
TBRF_API void tbrf_ic_default_density(tbrf_ic_density_params *params);

/* rho[i] from g[i] for n points (g NULL: g = 0, a uniform density),
 * pointwise as tbrf_ic_density_params says (the mean is rho_mean in
 * expectation for unit-variance g): what an inflow boundary writes.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter). */
TBRF_API int tbrf_ic_density(const tbrf_ic_density_params *params, int64_t n, const double *g,
                             TBRF_ARRAY double *rho, char *message, size_t message_size);

/* As tbrf_ic_density for cells of volumes vol (n values), with the
 * volume-weighted mean imposed exactly instead of in expectation (AREPO
 * gas: masses rho V): rho_i = c s_i with s_i = exp(sigma g_i) (lognormal;
 * the factor exp(-sigma^2/2) cancels and is left out) or max(1 + sigma
 * g_i, floor) (linear; no floor when it is 0), c such that sum rho_i
 * vol_i = rho_mean box_volume; every s_i must be > 0 and finite. Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (a parameter, the kind
 * TBRF_DENSITY_FIELD, box_volume; a non-positive or infinite s_i, the
 * message naming the point). */
TBRF_API int tbrf_ic_density_volumes(const tbrf_ic_density_params *params, int64_t n,
                                     const double *g, const double *vol, double box_volume,
                                     TBRF_ARRAY double *rho, char *message, size_t message_size);

/* The volume of the Voronoi cell of each of n >= 2 points xyz (3n, inside
 * [0, box)^3, none coincident) in the periodic box into vol (n): Qhull on
 * the points and their periodic images within a margin of the faces (the
 * margin grows until every cell is bounded, at most the whole box);
 * deterministic. The volumes sum to box^3. About 2 kB a point, checked
 * against the memory budget. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (n, box, a point outside, coincident points, a
 * degenerate cell, Qhull's refusal), TBRF_ERR_SIZE (budget),
 * TBRF_ERR_NO_MEMORY, TBRF_ERR_NOT_BUILT (libtbrf built without Qhull). */
TBRF_API int tbrf_ic_voronoi_volumes(int64_t n, const double *xyz, double box, TBRF_ARRAY double *vol,
                                     char *message, size_t message_size);

/* ---------------------------------------------------- zoom initial conditions
 * A zoom (multi-resolution) cosmological IC (doc/ic.md, "Zoom"): a region
 * of the G^3 parent lattice refined r times per axis. Every Fourier mode
 * is a pure function of (seed, integer wavevector), so the fine particles
 * are those of the same IC made with G r particles a side, kept where
 * their parent cell is in the region: they share every parent mode
 * exactly and add the band pi G/L < |k| <= pi G r/L. The region's cells
 * are replaced by their r^3 fine particles (PartType1, mass m / r^3; with
 * gas a gas and a dark-matter particle per fine site), the other cells
 * keep the parent's particle (PartType2, mass m): the total mass is the
 * parent's. The price is the fine IC's plan over the whole box. */
#define TBRF_IC_ZOOM_BOX 0    /* an axis-aligned Lagrangian box */
#define TBRF_IC_ZOOM_SPHERE 1 /* a Lagrangian sphere */
#define TBRF_IC_ZOOM_IDS 2    /* the lattice sites of parent particles by ID */

/* The region of a zoom. A parent cell is in it when its lattice site (i,
 * j, k) L/G is (periodically), then pad cells are added on every side;
 * with several levels, the coarser levels surround it as nested shells. */
typedef struct tbrf_ic_zoom_params {
    int32_t refinement; /* r: fine particles per parent cell per axis, 2, 4, 8, 16, 32 or 64
                           (default 2) */
    int32_t region;     /* TBRF_IC_ZOOM_BOX (default), _SPHERE or _IDS */
    double lo[3];       /* box: its lower corner in length units, in [0, L) (default 0) */
    double hi[3];       /* box: its upper corner, lo < hi <= lo + L (past L wraps; default 0:
                           refused) */
    double centre[3];   /* sphere: its centre in [0, L) */
    double radius;      /* sphere: 0 < radius <= L/2 */
    const uint64_t *ids; /* ids: n_ids ParticleIDs of the parent IC as tbrf_arepo_write_cosmo
                            numbers them (dark matter 1 .. G^3, row + 1; gas G^3 + 1 .. 2 G^3,
                            the same sites); not copied */
    int64_t n_ids;
    int32_t pad;        /* parent cells added around the region on every side, 0 .. G
                           (default 1) */
    int32_t levels;     /* refined levels, 1 (default; 0 is 1) .. log2(r): level l of L has
                           refinement r / 2^(L - l); level L is the region, each coarser
                           level the next finer one's cells padded by pad more (pad >= 1) */
} tbrf_ic_zoom_params;

/* Fills *params with the defaults listed in tbrf_ic_zoom_params. */
TBRF_API void tbrf_ic_default_zoom(tbrf_ic_zoom_params *params);

/* What a zoom holds (tbrf_ic_zoom_get_info). */
typedef struct tbrf_ic_zoom_info {
    int64_t region_cells; /* parent cells of the finest level (after padding) */
    int64_t fine;         /* PartType1: region_cells r^3 fine dark-matter particles */
    int64_t coarse;       /* PartType2: the parent's particles outside every level and the
                             coarser levels' (G^3 - region_cells with one level) */
    int64_t levels;       /* refined levels L */
    int64_t level_particles[7]; /* dark-matter particles of level 0 (the parent's) .. L */
    int64_t gas;          /* PartType0: fine gas particles (fine with gas, else 0) */
    double mass_fine;     /* a fine dark-matter particle's mass (mass units) */
    double mass_coarse;   /* a parent particle's: the site's whole mass (a level l particle
                             weighs mass_coarse / r_l^3) */
    double mass_gas;      /* a fine gas particle's (gas), else 0 */
    int64_t extent_lo[3]; /* the smallest periodic box of parent cells that holds the region: */
    int64_t extent_width[3]; /* lo in 0 .. G-1, width 1 .. G per axis */
    double scale_factor;  /* a = 1 / (1 + z) */
    double growth;        /* D(z), D(0) = 1 */
    double growth_rate;   /* f = dln D / dln a at z */
    double velocity_factor; /* u per unit of Psi1: sqrt(a) f H */
    double growth2;       /* D2(z) */
    double growth_rate2;  /* f2 */
    double velocity_factor2; /* u per unit of D2 Psi2 (lpt 2) */
    double gas_temperature; /* K (gas), else 0 */
    double internal_energy; /* the gas's (gas), else 0 */
} tbrf_ic_zoom_info;

typedef struct tbrf_ic_zoom tbrf_ic_zoom;

/* The particles of one type of a zoom (tbrf_ic_zoom_particles): n rows,
 * positions in [0, L) and Gadget velocities u = v / sqrt(a) (3n each),
 * the internal energy (gas, else NULL), each particle's mass (coarse with
 * several levels, else NULL: one mass, tbrf_ic_zoom_info's) and lattice
 * row (in the (G r_l)^3 lattice of its level l; the parent's G^3 for level
 * 0), rising within a level; coarse particles come level by level from 0.
 * Valid until tbrf_ic_zoom_destroy. */
typedef struct tbrf_ic_zoom_part {
    int64_t n;
    const double *pos;
    const double *vel;
    const double *u;
    const double *mass;
    const int64_t *row;
} tbrf_ic_zoom_part;

/* The bytes tbrf_ic_zoom_make holds at most (the parent's and then the
 * fine IC's make and generate, the mask, the particles kept) into *bytes.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (as tbrf_ic_zoom_make). */
TBRF_API int tbrf_ic_zoom_bytes(const tbrf_ic_cosmo_params *parent,
                                const tbrf_ic_zoom_params *zoom, TBRF_OUT double *bytes);

/* Makes the zoom of the parent IC `parent` (lattice only: no glass; lpt 1,
 * 2 or 3; gas, fixed amplitudes, paired and power tables as for
 * tbrf_ic_cosmo_make) over the region `zoom`: the region's cells, the
 * parent's particles outside it, the fine IC's inside it, all held. *out
 * is set even on failure (NULL only on TBRF_ERR_NO_MEMORY): read
 * tbrf_ic_zoom_message, then destroy it. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (a parameter, a glass, an ID outside 1 .. 2 G^3, an
 * empty region or one that covers the whole box, G r over 65536, and
 * tbrf_ic_cosmo_make's), TBRF_ERR_SIZE (the memory budget), TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_ic_zoom_make(const tbrf_ic_cosmo_params *parent,
                               const tbrf_ic_zoom_params *zoom, tbrf_ic_zoom **out);

/* tbrf_ic_zoom_make's steps, for a caller that makes the levels' ICs
 * itself (tbrf_ic_zoom_make_mpi of tbrf_mpi.h: each over the ranks):
 *     tbrf_ic_zoom_begin, then for level l = 0 .. levels in turn
 *     tbrf_ic_zoom_level_make, the IC's chunks each to tbrf_ic_zoom_take
 *     (tbrf_ic_cosmo_generate(ic, chunks, tbrf_ic_zoom_take, zoom); rows
 *     in rising order; tbrf_ic_zoom_append for rows another made), the
 *     IC destroyed; then tbrf_ic_zoom_finish.
 * A zoom holding its particles (hold) keeps them in the order taken,
 * which must be the serial order: level by level, rows rising within a
 * level (what tbrf_ic_zoom_particles documents). One that does not hold
 * them keeps only the current level's (dropped by the next level_make and
 * by finish): a rank's share, handed on to the one that holds them. */

/* Begins a zoom of `parent` over the region `zoom` (the checks of
 * tbrf_ic_zoom_make, the region's cells and counts; no IC made). The
 * parent's power tables are read by every level_make: they must live
 * until finish. hold: room for every particle now (else grown as taken);
 * run: the bytes the caller's level runs hold at most beside the zoom,
 * added to the memory budget's check (the mask, and with hold the
 * particles). *out is set even on failure (NULL only on
 * TBRF_ERR_NO_MEMORY): read tbrf_ic_zoom_message, then destroy it.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID (as
 * tbrf_ic_zoom_make; run negative or not finite), TBRF_ERR_SIZE (the
 * memory budget), TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_ic_zoom_begin(const tbrf_ic_cosmo_params *parent,
                                const tbrf_ic_zoom_params *zoom, int hold, double run,
                                tbrf_ic_zoom **out);

/* Makes level `level`'s IC into *ic (destroy it with
 * tbrf_ic_cosmo_destroy): the parent's (level 0) or that with G r_l
 * particles a side on the centres of the parent cells' r_l^3 sub-cells
 * (tbrf_ic_cosmo_get_offset 1/2; with fixed amplitudes a glass of one
 * site), the gas at the finest level only; whole (planes 0,
 * tbrf_ic_cosmo_make) or a rank's slab (planes > 0 and rows, as
 * tbrf_ic_cosmo_make_slab). Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (not begun, finished, a level outside 0 .. levels,
 * planes negative), TBRF_ERR_UNSUPPORTED (a refined level's slab with
 * fixed amplitudes), and tbrf_ic_cosmo_make's or make_slab's (the
 * message on the zoom). */
TBRF_API int tbrf_ic_zoom_level_make(tbrf_ic_zoom *zoom, int level, int64_t planes,
                                     int64_t rows, tbrf_ic_cosmo **ic);

/* A tbrf_ic_push_fn with the zoom (a tbrf_ic_zoom *) as user: keeps the
 * particles of a chunk of the IC that tbrf_ic_zoom_level_make made last
 * (from tbrf_ic_cosmo_generate or tbrf_ic_cosmo_generate_mpi) whose parent
 * cell is at that level: the parent's outside every level, the finest
 * level's as the fine (and gas) particles, the others as coarse with
 * their level's mass. Statuses (non-zero stops the generate): TBRF_OK,
 * TBRF_ERR_NULL, TBRF_ERR_INVALID (no level made, finished, rows outside
 * the level's lattice), TBRF_ERR_SIZE (the budget, growing),
 * TBRF_ERR_NO_MEMORY; the message on the zoom. */
TBRF_API int tbrf_ic_zoom_take(void *zoom, const tbrf_ic_chunk *chunk);

/* Appends part's n rows to type `type` (0 gas, 1 fine, 2 coarse), as
 * another zoom's tbrf_ic_zoom_particles gave them (energies for the gas,
 * masses for coarse particles of nested levels). Statuses: TBRF_OK,
 * TBRF_ERR_NULL, TBRF_ERR_INVALID (not begun or finished, a type outside
 * 0 .. 2, gas without gas, n negative), TBRF_ERR_SIZE, TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_ic_zoom_append(tbrf_ic_zoom *zoom, int type, const tbrf_ic_zoom_part *part);

/* Ends the zoom: with hold, every count checked against the region's;
 * the info derived; the power tables no longer read. Statuses: TBRF_OK,
 * TBRF_ERR_NULL, TBRF_ERR_INVALID (not begun, finished, no level 0, a
 * count short or over). */
TBRF_API int tbrf_ic_zoom_finish(tbrf_ic_zoom *zoom);

/* The parent's parameters (power tables NULL) and the region's (ids NULL)
 * the zoom was made with. Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_INVALID
 * (not made). */
TBRF_API int tbrf_ic_zoom_get_params(const tbrf_ic_zoom *zoom, tbrf_ic_cosmo_params *parent,
                                     tbrf_ic_zoom_params *region);

/* The counts, masses and derived values. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (not made). */
TBRF_API int tbrf_ic_zoom_get_info(const tbrf_ic_zoom *zoom, tbrf_ic_zoom_info *info);

/* The particles of AREPO type `type` (0 gas, 1 fine, 2 coarse) into *part
 * (n 0 for a type the zoom has none of; between tbrf_ic_zoom_begin and
 * finish those held so far). Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (not begun, a type outside 0 .. 2). */
TBRF_API int tbrf_ic_zoom_particles(const tbrf_ic_zoom *zoom, int type,
                                    tbrf_ic_zoom_part *part);

/* The refinement level of parent cell (i, j, k) (each 0 .. G-1): 0 not
 * refined (or out of range), 1 .. levels; -1 for a zoom not made or NULL. */
TBRF_API int tbrf_ic_zoom_level(const tbrf_ic_zoom *zoom, int64_t i, int64_t j, int64_t k);

/* The last call's status (TBRF_ERR_NULL for NULL). */
TBRF_API int tbrf_ic_zoom_status(const tbrf_ic_zoom *zoom);

/* The last call's message: "" after a success; never NULL ("no zoom" for
 * NULL). */
TBRF_API const char *tbrf_ic_zoom_message(const tbrf_ic_zoom *zoom);

/* Frees the zoom and its particles; NULL is ignored. */
TBRF_API void tbrf_ic_zoom_destroy(tbrf_ic_zoom *zoom);

#ifdef __cplusplus
}
#endif
#endif /* TBRF_IC_PUBLIC_H */
