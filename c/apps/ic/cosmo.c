/* cosmo.c — cosmological initial conditions by the Zel'dovich
 * approximation and second-order LPT (cosmo_lpt.c) (tbrf_ic_cosmo_*, tbrf.h "initial conditions"; doc/ic.md).
 *
 * Particles start on the lattice q = (i, j, k) L/G, which is the box
 * lattice of a periodic plan with G modes per axis: the displacement Psi
 * is that plan's compressive (curl-free) vector field, evaluated by the
 * FFT method, with the spectrum P(k) D(z)^2 / (3 k^2) per component so
 * that |Psi_k|^2 = P(k) D^2 / k^2 — the field whose divergence is -delta
 * (Psi_k = i k delta_k / k^2: displacement and density share their random
 * numbers by construction). Modes stop at the particle Nyquist frequency
 * pi G / L, as a sphere (N-GenIC's SphereMode = 1). Glass sites take Psi
 * from the same plan's non-uniform FFT. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"
#include "apps/ic/cosmo_internal.h"
#include "apps/ic/ic_internal.h"
#include "core/model.h"

/* rho_crit / h^2 in 10^10 M_sun / Mpc^3 (3 H0^2 / 8 pi G with H0 = 100 h
 * km/s/Mpc; Planck 2018's constants): 27.7536627. */
#define RHO_CRIT_MPC 27.7536627
/* CODATA 2018, cgs: u = k_B T / ((gamma - 1) mu m_p). */
#define K_BOLTZMANN 1.380649e-16
#define M_PROTON 1.67262192369e-24
#define PI 3.14159265358979323846

void tbrf_ic_default_cosmo(tbrf_ic_cosmo_params *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->box = 50000.0;
    p->particles = 32;
    p->redshift = 127.0;
    p->omega_m = 0.3089;
    p->omega_lambda = NAN; /* 1 - omega_m (flat) unless given: resolved by tbrf_ic_cosmo_make */
    p->omega_b = 0.0486;
    p->hubble = 0.6774;
    p->n_s = 0.9667;
    p->sigma8 = 0.831;
    p->t_cmb = 2.7255;
    p->length_per_mpc = 1000.0;
    p->mass_unit = 1e10;
    p->velocity_unit = 1e5;
    p->wiggles = 1;
    p->seed = 1;
    p->lpt = 2;
    p->glass_box = 1.0;
    p->gas_mu = 1.22;
    p->gas_gamma = 5.0 / 3.0;
}

static int pos_finite(double x)
{
    return x > 0 && isfinite(x);
}

/* The ranges of tbrf_ic_cosmo_params; 0 or TBRF_ERR_INVALID with the
 * reason in *m. */
static int check_params(const tbrf_ic_cosmo_params *p, tbrfi_message *m)
{
    if (!pos_finite(p->box) || p->particles < 2 || p->particles > TBRF_IC_MAX_PARTICLES)
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: need a box > 0 and 2 .. %d "
                          "particles per axis (got %g, %lld)", TBRF_IC_MAX_PARTICLES, p->box,
                          (long long)p->particles);
    if (!(p->redshift > -1 && p->redshift <= 1e4) || !(p->omega_b >= 0) ||
        !(p->omega_b < p->omega_m) || !(p->omega_m <= 10) || !(p->omega_lambda >= 0) ||
        !(p->omega_lambda <= 10))
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: need -1 < redshift <= 1e4, 0 "
                          "<= omega_b < omega_m <= 10 and 0 <= omega_lambda <= 10 (got z %g, "
                          "omega_m %g, omega_b %g, omega_lambda %g)", p->redshift, p->omega_m,
                          p->omega_b, p->omega_lambda);
    if (!pos_finite(p->hubble) || !isfinite(p->n_s) ||
        !(p->keep_amplitude ? p->sigma8 >= 0 && isfinite(p->sigma8) : pos_finite(p->sigma8)) ||
        !pos_finite(p->t_cmb) || !pos_finite(p->length_per_mpc) || !pos_finite(p->mass_unit) ||
        !pos_finite(p->velocity_unit) || !(p->velocity_unit < 1e11))
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: hubble %g, sigma8 %g, t_cmb %g, "
                          "length_per_mpc %g, mass_unit %g must be finite and > 0, n_s %g finite "
                          "and velocity_unit %g in (0, 1e11) cm/s", p->hubble, p->sigma8,
                          p->t_cmb, p->length_per_mpc, p->mass_unit, p->n_s, p->velocity_unit);
    if (p->gas && (!(p->gas_gamma > 1 && isfinite(p->gas_gamma)) || !pos_finite(p->gas_mu) ||
                   !(p->gas_temperature >= 0 && isfinite(p->gas_temperature))))
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: gas needs gamma > 1, mu > 0 and "
                          "a temperature >= 0 (got %g, %g, %g)", p->gas_gamma, p->gas_mu,
                          p->gas_temperature);
    if (p->lpt < 1 || p->lpt > 3 || (p->fixed_amplitude != 0 && p->fixed_amplitude != 1) ||
        (p->paired != 0 && p->paired != 1) || p->reserved_lpt != 0)
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: need lpt 1, 2 or 3, "
                          "fixed_amplitude and paired 0 or 1, reserved_lpt 0 (got %d, %d, %d, "
                          "%d)", (int)p->lpt, (int)p->fixed_amplitude, (int)p->paired,
                          (int)p->reserved_lpt);
    if (p->gas && !(p->omega_b > 0))
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: gas needs omega_b > 0 (got %g)",
                          p->omega_b);
    if (p->glass_n < 0 || (p->glass_n > 0 && !p->glass))
        return tbrfi_fail(m, p->glass_n < 0 ? TBRF_ERR_INVALID : TBRF_ERR_NULL,
                          "cosmological IC: glass_n %lld with glass %s", (long long)p->glass_n,
                          p->glass ? "given" : "NULL");
    return TBRF_OK;
}

/* The spectrum, amplitude and gas choices of the caller's params (power
 * and power_gas are NULLed in the object's copy): 0 or TBRF_ERR_INVALID. */
static int check_choices(const tbrf_ic_cosmo_params *p, tbrfi_message *m)
{
    if ((p->keep_amplitude != 0 && p->keep_amplitude != 1) ||
        (p->gas_volumes != 0 && p->gas_volumes != 1))
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: keep_amplitude and gas_volumes "
                          "are 0 or 1 (got %d, %d)", (int)p->keep_amplitude, (int)p->gas_volumes);
    if (p->keep_amplitude && !p->power)
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: keep_amplitude needs a power "
                          "model (Eisenstein & Hu's fit has no amplitude of its own)");
    if (p->power_gas && !(p->gas && p->power))
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: power_gas needs gas = 1 and a "
                          "power model (its amplitude scale)");
    if (p->gas_volumes && !p->gas)
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: gas_volumes needs gas = 1");
    if ((p->power_dm || p->velocity_dm || p->velocity_gas) && !(p->gas && p->power))
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: power_dm, velocity_dm and "
                          "velocity_gas (two fluids) need gas = 1 and a power model");
    if ((p->velocity_dm && !p->power_dm) || (p->velocity_gas && !p->power_gas) ||
        (p->power_dm && !p->power_gas))
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: a species' velocity spectrum "
                          "goes with its own displacement, and the dark matter's own with the "
                          "gas's: velocity_dm needs power_dm, velocity_gas and power_dm "
                          "power_gas");
    /* the species' own modes come from their plans, not from the fixed potential */
    if (tbrfi_icc_own_plans(p) && p->fixed_amplitude)
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: fixed_amplitude with a "
                          "species' own spectrum (power_gas, power_dm, velocity_dm, "
                          "velocity_gas) is not supported: fix the amplitudes of one spectrum "
                          "(drop those or fixed_amplitude)");
    return TBRF_OK;
}

/* What the IC holds, counted from what it allocates on the path it takes
 * (the plan's oversampled grids only where the plan runs off the lattice:
 * on it, the plan's FFT method holds one half-complex grid) — within a few
 * per cent of the measured peak from 64^3 to 384^3 (doc/arepo.md, "Memory
 * and --files"). */

/* Beside the arrays counted: FFTW's plans, the model's tables, the
 * threads' stacks and the allocator's rounding (measured 1-4 MB at 64^3
 * and 96^3, whatever the threads). */
#define ICC_WORKING_SET (5.0 * 1048576.0)

/* The FFT method's half-complex grid of the G^3 lattice. */
static double lattice_transform(int64_t g)
{
    return 16.0 * (double)(g / 2 + 1) * (double)g * (double)g;
}

/* A chunk's bytes per particle: Psi (reused for the velocities) and the
 * positions, the gas's positions and energies, the glass sites. */
static double row_bytes(const tbrf_ic_cosmo_params *p)
{
    /* with the species' own plans (power_gas, two fluids): each one's
     * field (then velocities) and the sites; with gas_volumes: the
     * masses; with 2LPT (3LPT) at glass sites: Psi2 (and Psi3) */
    const int own = tbrfi_icc_own_plans(p);
    return 48.0 + (p->gas ? 32.0 : 0.0) + (p->glass_n > 0 || own ? 24.0 : 0.0) +
           24.0 * own + (p->gas && p->gas_volumes ? 8.0 : 0.0) +
           (p->glass_n > 0 && p->lpt >= 2 ? 24.0 * (double)(p->lpt - 1) : 0.0);
}

/* The working set, the glass and its Voronoi weights (Qhull's 2 kB a
 * point is held during make only, checked there), from make on. */
static double glass_bytes(const tbrf_ic_cosmo_params *p)
{
    return ICC_WORKING_SET + (24.0 + (p->gas && p->gas_volumes ? 8.0 : 0.0)) * (double)p->glass_n;
}

/* What generate holds whatever the rows of a chunk: the glass, two lattice
 * planes, the potentials' share, and the plans while they run: Psi's on
 * the lattice (its transform; split into chunks, the FFT method's stream
 * holds the whole vector field too) or at the glass sites (its NUFFT),
 * and the gas's own plan at the sites. */
static double held_bytes(const tbrf_ic_cosmo_params *p, int64_t chunks)
{
    const int64_t g = p->particles;
    const double g3 = (double)g * (double)g * (double)g;
    double plan = 0.0;
    if (p->glass_n > 0 && !p->fixed_amplitude)
        plan = tbrfi_icc_plan_at_sites(p);
    else if (p->lpt < 2 && !p->fixed_amplitude)
        plan = lattice_transform(g) + (chunks > 1 ? 24.0 * g3 : 0.0);
    plan += tbrfi_icc_own_plans(p) * tbrfi_icc_plan_at_sites(p);
    return glass_bytes(p) + 48.0 * (double)(g * g) + tbrfi_icc_lpt_held(p) + plan;
}

double tbrfi_icc_bytes(const tbrf_ic_cosmo_params *p, int64_t chunks)
{
    const int64_t n = p->particles * p->particles * p->particles;
    const int64_t rows = n / chunks + (n % chunks != 0);
    return fmax(glass_bytes(p) + tbrfi_icc_lpt_making(p),
                held_bytes(p, chunks) + row_bytes(p) * (double)rows);
}

int tbrf_ic_cosmo_bytes(const tbrf_ic_cosmo_params *p, int64_t chunks, double *bytes,
                        int64_t *fewest)
{
    if (!p || !bytes || !fewest)
        return TBRF_ERR_NULL;
    if (p->particles < 2 || p->particles > TBRF_IC_MAX_PARTICLES || chunks < 1 ||
        chunks > TBRF_IC_MAX_CHUNKS || p->glass_n < 0 || p->lpt < 1 || p->lpt > 3)
        return TBRF_ERR_INVALID;
    uint64_t budget = 0;
    int st = tbrf_memory_budget(&budget);
    if (st != TBRF_OK)
        return st;
    const int64_t n = p->particles * p->particles * p->particles;
    *bytes = tbrfi_icc_bytes(p, chunks);
    *fewest = 0;
    if (glass_bytes(p) + tbrfi_icc_lpt_making(p) > (double)budget)
        return TBRF_OK;
    if (tbrfi_icc_bytes(p, 1) <= (double)budget) {
        *fewest = 1;
        return TBRF_OK;
    }
    /* more than one chunk: rows at most the spare over what they share */
    const double spare = (double)budget - held_bytes(p, 2), row = row_bytes(p);
    const double need = spare >= row ? fmax(2.0, ceil((double)n / floor(spare / row))) : INFINITY;
    *fewest = need <= (double)TBRF_IC_MAX_CHUNKS ? (int64_t)need : 0;
    return TBRF_OK;
}

/* k^3 P(k) W^2(8k), sigma8's integrand per ln k (W the top hat's
 * window); envelope: W^2 by its envelope 9 (1 + x^2) / x^6 beyond its
 * first zero, so that an end falling on a zero of W is not taken for a
 * small tail. */
static double sigma8_integrand(const tbrf_model *m, double k, int envelope)
{
    const double x = 8.0 * k;
    double w2;
    if (x < 1e-3)
        w2 = (1 - x * x / 10) * (1 - x * x / 10);
    else if (envelope && x > 4.49)
        w2 = 9.0 * (1 + x * x) / (x * x * x * x * x * x);
    else {
        const double w = 3.0 * (sin(x) - x * cos(x)) / (x * x * x);
        w2 = w * w;
    }
    return k * k * k * tbrf_model_spectrum(m, 3, k) * w2;
}

/* A table's range against what the IC uses: the box's modes 2 pi/L to
 * the sphere pi G/L, and when normalising sigma8's integrand, whose ends
 * must lie below 1e-4 of its peak over the rows (the part cut off is
 * then of that order). k: the rows' wavenumbers. */
static int table_covers(tbrf_ic_cosmo *ic, const tbrf_model *m, const char *what,
                        const double *k, size_t n, int normalising)
{
    const tbrf_ic_cosmo_params *p = &ic->p;
    const double side = p->box / p->length_per_mpc;
    const double kf = 2 * PI / side, kn = PI * (double)p->particles / side;
    if (!(k[0] <= kf && k[n - 1] >= kn))
        return tbrfi_fail(&ic->msg, TBRF_ERR_INVALID, "the %s covers k = %g to %g h/Mpc; this "
                          "box needs %g (2 pi/L) to %g (pi G/L, the sphere of modes)", what, k[0],
                          k[n - 1], kf, kn);
    if (!normalising)
        return TBRF_OK;
    double peak = 0;
    for (size_t i = 0; i < n; i++)
        peak = fmax(peak, sigma8_integrand(m, k[i], 0));
    const double lo = sigma8_integrand(m, k[0], 1), hi = sigma8_integrand(m, k[n - 1], 1);
    if (!(peak > 0) || !(lo <= 1e-4 * peak) || !(hi <= 1e-4 * peak))
        return tbrfi_fail(&ic->msg, TBRF_ERR_INVALID, "the %s covers k = %g to %g h/Mpc, too "
                          "little of sigma8's integrand k^3 P W^2(8k) to normalise it (at its "
                          "ends %.2g and %.2g of its peak, over 1e-4): extend it, or keep its "
                          "amplitude", what, k[0], k[n - 1], peak > 0 ? lo / peak : NAN,
                          peak > 0 ? hi / peak : NAN);
    return TBRF_OK;
}

/* *dst, a copy of src (isotropic), with the range a table needs. */
static int take_model(tbrf_ic_cosmo *ic, const tbrf_model *src, const char *what,
                      int normalising, tbrf_model **dst)
{
    if (src->anis) /* P(k) of an isotropic universe */
        return tbrfi_fail(&ic->msg, TBRF_ERR_INVALID, "cosmological IC: the %s model is "
                          "anisotropic (%s): it must be isotropic", what,
                          tbrf_model_describe(src));
    *dst = tbrfi_model_copy(src);
    if (!*dst)
        return tbrfi_fail(&ic->msg, TBRF_ERR_NO_MEMORY, "cosmological IC: out of memory");
    /* the rows as written, or the amplitude the caller set */
    int st = tbrf_model_set_amplitude(*dst, src->by_variance ? 1.0 : src->amplitude);
    size_t n = 0;
    if (st != TBRF_OK || tbrf_model_table_data(*dst, &n, NULL, NULL) != TBRF_OK || n == 0)
        return st == TBRF_OK ? TBRF_OK
                             : tbrfi_fail(&ic->msg, st, "cosmological IC: %s",
                                          tbrf_model_message(*dst));
    double *k = malloc(n * sizeof *k), *pk = malloc(n * sizeof *pk);
    if (k && pk && tbrf_model_table_data(*dst, &n, k, pk) == TBRF_OK)
        st = table_covers(ic, *dst, what, k, n, normalising);
    else
        st = tbrfi_fail(&ic->msg, TBRF_ERR_NO_MEMORY, "cosmological IC: out of memory");
    free(k);
    free(pk);
    return st;
}

/* The copies of the species' own models (gas: power_gas, two fluids:
 * power_dm, velocity_dm, velocity_gas) given in src (with gas). */
static int take_own(tbrf_ic_cosmo *ic, const tbrf_ic_cosmo_params *src)
{
    static const char *const NAMES[3] = {"dark matter's power table", "dark matter's velocity "
                                         "table", "gas's velocity table"};
    const tbrf_model *own[3] = {src->power_dm, src->velocity_dm, src->velocity_gas};
    int st = src->power_gas ? take_model(ic, src->power_gas, "gas's power table", 0, &ic->g0)
                            : TBRF_OK;
    for (int i = 0; st == TBRF_OK && i < 3; i++)
        if (own[i])
            st = take_model(ic, own[i], NAMES[i], 0, &ic->own0[i]);
    return st;
}

/* Each own model times the factor c that normalised the matter's. */
static int scale_own(tbrf_ic_cosmo *ic, double c)
{
    int st = ic->g0 ? tbrf_model_set_amplitude(ic->g0, tbrfi_model_amplitude(ic->g0, 3) * c)
                    : TBRF_OK;
    for (int i = 0; st == TBRF_OK && i < 3; i++)
        if (ic->own0[i])
            st = tbrf_model_set_amplitude(ic->own0[i],
                                          tbrfi_model_amplitude(ic->own0[i], 3) * c);
    return st;
}

/* The z = 0 linear P(k) in h/Mpc: Eisenstein & Hu, or a copy of
 * params->power, normalised to sigma8 unless its amplitude is kept; the
 * species' own (power_gas, power_dm, velocity_dm, velocity_gas: with gas
 * only, src NULL without) multiplied by the same factor. */
static int linear_pk(tbrf_ic_cosmo *ic, const tbrf_model *power,
                     const tbrf_ic_cosmo_params *src)
{
    const tbrf_ic_cosmo_params *p = &ic->p;
    const int norm = !p->keep_amplitude;
    int st;
    if (power) {
        st = take_model(ic, power, "power table", norm, &ic->p0);
        if (st == TBRF_OK && src)
            st = take_own(ic, src);
        if (st != TBRF_OK)
            return st;
    } else {
        /* omega_b = 0: the fit's zero-baryon form (no wiggles to draw) */
        st = tbrf_model_eisenstein_hu(p->omega_m, p->omega_b, p->hubble, p->n_s, p->t_cmb,
                                      p->omega_b > 0 ? p->wiggles : 0, 1e-5, 1e3, &ic->p0);
    }
    double s0 = NAN;
    if (st == TBRF_OK && norm && power && src)
        st = tbrf_cosmo_sigma_r(ic->p0, 8.0, &s0);
    if (st == TBRF_OK && norm)
        st = tbrf_model_normalize_sigma(ic->p0, 8.0, p->sigma8);
    if (st == TBRF_OK && norm && power && src)
        st = scale_own(ic, (p->sigma8 / s0) * (p->sigma8 / s0));
    if (st != TBRF_OK)
        return tbrfi_fail(&ic->msg, st, "cosmological IC: %s",
                          ic->p0 ? tbrf_model_message(ic->p0) : tbrf_strerror(st));
    return TBRF_OK;
}

static double psi_spectrum(double k, int dim, void *user)
{
    const icc_spec *s = user;
    (void)dim;
    if (!(k > 0))
        return 0.0;
    double kk = k * s->mpc; /* h/Mpc */
    double p = tbrf_model_spectrum(s->p0, 3, kk) * s->mpc * s->mpc * s->mpc;
    return s->d2 * p / (3.0 * k * k);
}

/* The plan of a displacement with the z = 0 spectrum p0 (its callback
 * data in *spec): the periodic plan over the box whose box lattice is
 * the particle lattice (the FFT method there, its non-uniform FFT at
 * other sites); the same seed draws the same phases for any spectrum. */
static int psi_plan(tbrf_ic_cosmo *ic, const tbrf_model *p0, icc_spec *spec, tbrf_model **m,
                    tbrf_plan **plan)
{
    const tbrf_ic_cosmo_params *p = &ic->p;
    *spec = (icc_spec){p0, ic->info.growth * ic->info.growth, p->length_per_mpc};
    const double kn = PI * (double)p->particles / p->box;
    int st = tbrf_model_callback(psi_spectrum, spec, 0.0, kn, m);
    if (st == TBRF_OK)
        st = tbrf_model_set_amplitude(*m, 1.0);
    if (st != TBRF_OK)
        return tbrfi_fail(&ic->msg, st, "cosmological IC: %s",
                          *m ? tbrf_model_message(*m) : tbrf_strerror(st));
    const double origin[3] = {0, 0, 0}, length[3] = {p->box, p->box, p->box};
    const int64_t n[3] = {p->particles, p->particles, p->particles};
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.vector = TBRF_VECTOR_COMPRESSIVE;
    st = tbrf_make_periodic_plan(*m, 3, origin, length, n, p->seed, &o, plan);
    if (st != TBRF_OK)
        return tbrfi_fail(&ic->msg, st, "%s",
                          *plan ? tbrf_plan_message(*plan) : tbrf_strerror(st));
    return TBRF_OK;
}

/* a, D, f, H, the velocity factor, the masses, the gas's shifts and
 * energy. */
static int derive(tbrf_ic_cosmo *ic)
{
    const tbrf_ic_cosmo_params *p = &ic->p;
    tbrf_ic_cosmo_info *f = &ic->info;
    const double a = 1.0 / (1.0 + p->redshift);
    double e;
    if (tbrf_cosmo_growth(p->omega_m, p->omega_lambda, p->redshift, &f->growth) != TBRF_OK ||
        tbrf_cosmo_hubble(p->omega_m, p->omega_lambda, a, &e) != TBRF_OK ||
        tbrf_cosmo_growth_rate(p->omega_m, p->omega_lambda, p->redshift, &f->growth_rate) !=
            TBRF_OK ||
        tbrf_cosmo_growth2(p->omega_m, p->omega_lambda, p->redshift, &f->growth2,
                           &f->growth_rate2) != TBRF_OK)
        return tbrfi_fail(&ic->msg, TBRF_ERR_INVALID, "cosmological IC: no growth factor, H(a) "
                          "or f(a) for this cosmology at z = %g", p->redshift);
    const double vunit = p->velocity_unit / 1e5, mpc = p->length_per_mpc;
    f->particles = p->particles * p->particles * p->particles;
    f->scale_factor = a;
    f->hubble = 100.0 * e / mpc / vunit; /* 100 E(a) km/s per Mpc/h */
    f->velocity_factor = sqrt(a) * f->growth_rate * 100.0 * e / mpc / vunit;
    f->velocity_factor2 = sqrt(a) * f->growth_rate2 * 100.0 * e / mpc / vunit;
    const double side = p->box / mpc, g = (double)p->particles;
    const double m = p->omega_m * RHO_CRIT_MPC * 1e10 / p->mass_unit * side * side * side /
                     (g * g * g);
    f->mass_gas = p->gas ? m * (p->omega_b / p->omega_m) : 0.0;
    f->mass_dm = p->gas ? m * ((p->omega_m - p->omega_b) / p->omega_m) : m;
    const double dx = p->box / g;
    f->shift_dm = p->gas ? 0.5 * p->omega_b / p->omega_m * dx : 0.0;
    f->shift_gas = p->gas ? -0.5 * (p->omega_m - p->omega_b) / p->omega_m * dx : 0.0;
    f->gas_temperature = p->gas_temperature > 0 ? p->gas_temperature
                                                : 2.7255 * (1.0 + p->redshift);
    f->internal_energy = p->gas ? K_BOLTZMANN * f->gas_temperature /
                                      ((p->gas_gamma - 1) * p->gas_mu * M_PROTON) /
                                      (p->velocity_unit * p->velocity_unit)
                                : 0.0;
    return TBRF_OK;
}

/* The glass's coordinates within 1e-6 glass_box outside [0, glass_box)
 * (a point at glass_box itself, float32 rounding) wrapped into it; those
 * further out are left for tbrf_ic_glass_tile to refuse. */
static void wrap_glass(double *x, int64_t n, double box)
{
    const double tol = 1e-6 * box;
    for (int64_t i = 0; i < 3 * n; i++) {
        if (x[i] >= box && x[i] <= box + tol)
            x[i] -= box;
        else if (x[i] < 0 && x[i] >= -tol)
            x[i] += box;
        if (x[i] >= box && x[i] <= box + tol) /* -tiny + box rounded up to box */
            x[i] = 0.0;
    }
}

/* gas_volumes: each glass point's periodic Voronoi volume over the mean
 * (Qhull), the gas masses' weights. */
static int glass_weights(tbrf_ic_cosmo *ic)
{
    const tbrf_ic_cosmo_params *p = &ic->p;
    ic->gas_weight = malloc((size_t)p->glass_n * sizeof *ic->gas_weight);
    if (!ic->gas_weight)
        return tbrfi_fail(&ic->msg, TBRF_ERR_NO_MEMORY, "cosmological IC: out of memory");
    char why[TBRFI_MESSAGE_SIZE];
    int st = tbrf_ic_voronoi_volumes(p->glass_n, ic->glass, p->glass_box, ic->gas_weight, why,
                                     sizeof why);
    if (st != TBRF_OK)
        return tbrfi_fail(&ic->msg, st, "cosmological IC: gas_volumes: the glass's Voronoi "
                          "volumes: %s", why);
    const double mean = p->glass_box * p->glass_box * p->glass_box / (double)p->glass_n;
    for (int64_t j = 0; j < p->glass_n; j++)
        ic->gas_weight[j] /= mean;
    return TBRF_OK;
}

/* The copy of the glass (wrapped), its tiling and the gas's weights. */
static int take_glass(tbrf_ic_cosmo *ic, const double *glass)
{
    tbrf_ic_cosmo_params *p = &ic->p;
    p->glass = NULL;
    if (p->glass_n == 0)
        return TBRF_OK;
    ic->glass = malloc((size_t)p->glass_n * 3 * sizeof *ic->glass);
    if (!ic->glass)
        return tbrfi_fail(&ic->msg, TBRF_ERR_NO_MEMORY, "cosmological IC: out of memory for "
                          "the glass of %lld points", (long long)p->glass_n);
    memcpy(ic->glass, glass, (size_t)p->glass_n * 3 * sizeof *ic->glass);
    if (pos_finite(p->glass_box))
        wrap_glass(ic->glass, p->glass_n, p->glass_box);
    int st = tbrf_ic_glass_tile(p->glass_n, ic->glass, p->glass_box, p->particles,
                                &ic->info.glass_tile, ic->msg.text, sizeof ic->msg.text);
    if (st != TBRF_OK)
        return ic->msg.status = st;
    p->glass = ic->glass;
    if (p->gas && p->gas_volumes) {
        /* Qhull's Delaunay and periodic images: about 2 kB a point */
        char why[TBRFI_MESSAGE_SIZE];
        st = tbrfi_ic_budget(tbrfi_icc_bytes(p, TBRF_IC_MAX_CHUNKS) +
                                 2048.0 * (double)p->glass_n,
                             "cosmological IC: the glass's Voronoi volumes", why, sizeof why);
        if (st != TBRF_OK)
            return tbrfi_fail(&ic->msg, st, "%s", why);
        return glass_weights(ic);
    }
    return TBRF_OK;
}

/* What a rank holds with `planes` z planes of the lattice (on the
 * lattice, no glass): the working set and the Psi1 of its cells, beside
 * the distributed FFT's half-complex slab while it transforms, then
 * beside one chunk's rows (their Psi1 becomes their velocities in
 * place), and the gas's own plan at the sites (whole on every rank).
 * With lpt 2 the second order comes first: its rank's planes of the
 * padded grid (M = floor((3G + 1)/2) a side; at most ceil(planes M / G)
 * of them under FFTW-MPI's block split) as two half-complex slabs (the
 * source and one derivative) beside the G slab and the first-order
 * potential's modes moved to them and back, then its cells' D2 Psi2 kept
 * beside all of the above. With lpt 3 the third order comes before that
 * (ic_mpi.c's slab_psi3): phi1 and phi2 on the G slab (phi2 from the
 * second order's padded source), then the padded stage: both moved to
 * the padded planes, phi1's six second derivatives there (the engine's
 * slab and six more) beside the two moved copies and phi2, then phi2's
 * six (phi1's copy freed), then the five sources, each transformed, its
 * kept modes moved back into a G slab of its own (a padded slab freed
 * per source); then those five slabs made Psi3's three modes beside phi2,
 * D2 Psi2 and Psi3 transformed by the G engine into their cells, both
 * kept beside the first order's working set. */
static double slab_bytes(const tbrf_ic_cosmo_params *p, int64_t planes, int64_t rows)
{
    const int64_t g = p->particles;
    const double cells = (double)g * (double)g * (double)planes;
    const double slab = 16.0 * (double)(g / 2 + 1) * (double)g * (double)planes;
    /* fixed amplitudes: the three components' modes at once, beside the slab */
    const double modes = p->fixed_amplitude ? 4.0 * slab : slab;
    double held = 24.0 * cells + fmax(modes, (row_bytes(p) - 24.0) * (double)rows);
    if (p->lpt >= 2) {
        const int64_t m = (3 * g + 1) / 2, mplanes = (planes * m + g - 1) / g;
        const double mslab = 16.0 * (double)(m / 2 + 1) * (double)m * (double)mplanes;
        /* the G planes landing on them: one to a padded plane, at most G */
        const double moved = 16.0 * (double)(g / 2 + 1) * (double)g *
                             (double)(mplanes < g ? mplanes : g);
        const double first = held;
        held = fmax(2.0 * mslab + slab + moved, held + 24.0 * cells);
        held = fmax(held, modes + slab);
        if (p->lpt >= 3) {
            /* the second order's source beside phi1 too; phi1's Hessian
             * beside both moved copies; phi2's beside one (12 padded slabs,
             * the engine's included, as the serial TBRFI_ICC_LPT3_PADDED);
             * sources k = 0 and 4 going back (the extremes of a linear
             * count); the five G slabs; phi2, Psi3's modes and the engine
             * with D2 Psi2's cells, then with Psi3's too; Psi1's stage */
            const double third[] = {2.0 * mslab + 2.0 * slab + moved,
                                    7.0 * mslab + 2.0 * moved + slab,
                                    12.0 * mslab + moved + slab,
                                    6.0 * mslab + moved + 2.0 * slab,
                                    2.0 * mslab + moved + 6.0 * slab,
                                    6.0 * slab,
                                    5.0 * slab + 24.0 * cells,
                                    4.0 * slab + 48.0 * cells,
                                    first + 48.0 * cells};
            for (size_t i = 0; i < sizeof third / sizeof third[0]; i++)
                held = fmax(held, third[i]);
        }
    }
    return glass_bytes(p) + held + tbrfi_icc_own_plans(p) * tbrfi_icc_plan_at_sites(p);
}

/* 0 when the slab form takes p (planes 1 .. G, rows >= 0): the lattice,
 * any order; else the status with the message. */
static int slab_takes(const tbrf_ic_cosmo_params *p, int64_t planes, int64_t rows,
                      tbrfi_message *m)
{
    if (planes < 1 || planes > p->particles || rows < 0)
        return tbrfi_fail(m, TBRF_ERR_INVALID, "cosmological IC: a slab of %lld planes of %lld "
                          "(rows %lld)", (long long)planes, (long long)p->particles,
                          (long long)rows);
    if (p->glass_n > 0)
        return tbrfi_fail(m, TBRF_ERR_UNSUPPORTED, "cosmological IC: the lattice in slabs takes "
                          "particles on the lattice: glass sites come from the whole lattice");
    return TBRF_OK;
}

int tbrf_ic_cosmo_slab_bytes(const tbrf_ic_cosmo_params *p, int64_t planes, int64_t rows,
                             double *bytes)
{
    if (!p || !bytes)
        return TBRF_ERR_NULL;
    tbrfi_message m;
    if (p->particles < 2 || p->particles > TBRF_IC_MAX_PARTICLES || p->lpt < 1 || p->lpt > 3)
        return TBRF_ERR_INVALID;
    const int st = slab_takes(p, planes, rows, &m);
    *bytes = st == TBRF_OK ? slab_bytes(p, planes, rows) : 0.0;
    return st;
}

/* The object's params pointing to its copies of the species' models,
 * and their plans (the same seed: the same phases) when st is TBRF_OK. */
static int own_plans(tbrf_ic_cosmo *ic, int st)
{
    ic->p.power_gas = ic->g0;
    ic->p.power_dm = ic->own0[ICC_OWN_DM];
    ic->p.velocity_dm = ic->own0[ICC_OWN_VDM];
    ic->p.velocity_gas = ic->own0[ICC_OWN_VGAS];
    if (st == TBRF_OK && ic->g0)
        st = psi_plan(ic, ic->g0, &ic->spec_gas, &ic->mg, &ic->plan_gas);
    for (int i = 0; st == TBRF_OK && i < 3; i++)
        if (ic->own0[i])
            st = psi_plan(ic, ic->own0[i], &ic->spec_own[i], &ic->mown[i], &ic->plan_own[i]);
    return st;
}

/* make, with the budget of the whole run (planes 0) or of a slab, on the
 * lattice shifted by offset spacings. */
static int make_ic(const tbrf_ic_cosmo_params *params, int64_t planes, int64_t rows,
                   double offset, tbrf_ic_cosmo **out)
{
    if (!out)
        return TBRF_ERR_NULL;
    *out = calloc(1, sizeof **out);
    tbrf_ic_cosmo *ic = *out;
    if (!ic)
        return TBRF_ERR_NO_MEMORY;
    if (!params)
        return tbrfi_fail(&ic->msg, TBRF_ERR_NULL, "cosmological IC: params is NULL");
    if (offset != 0 && (!(offset > 0 && offset < 1) || params->glass_n != 0 ||
                        params->fixed_amplitude))
        return tbrfi_fail(&ic->msg, TBRF_ERR_INVALID, "cosmological IC: a lattice offset %g "
                          "(0 .. 1, not with a glass or fixed amplitudes)", offset);
    ic->offset = offset;
    ic->p = *params;
    ic->p.power = NULL;
    if (isnan(ic->p.omega_lambda)) /* the default: a flat universe whatever omega_m */
        ic->p.omega_lambda = 1.0 - ic->p.omega_m;
    /* power_gas and the two fluids' models stay set (never read through)
     * for the byte counts until the copies replace them (own_plans) */
    int st = check_choices(params, &ic->msg);
    if (st == TBRF_OK)
        st = check_params(&ic->p, &ic->msg);
    if (st == TBRF_OK && planes > 0)
        st = slab_takes(&ic->p, planes, rows, &ic->msg);
    if (st == TBRF_OK)
        st = take_glass(ic, params->glass);
    if (st == TBRF_OK) {
        char why[TBRFI_MESSAGE_SIZE];
        /* the plan and the glass; chunks add theirs in generate */
        st = tbrfi_ic_budget(planes > 0 ? slab_bytes(&ic->p, planes, rows)
                                        : tbrfi_icc_bytes(&ic->p, TBRF_IC_MAX_CHUNKS),
                             ic->p.lpt >= 2 || ic->p.fixed_amplitude
                                 ? "cosmological IC: the plan of Psi and the potentials of "
                                   "2LPT, 3LPT or fixed amplitudes"
                                 : planes > 0 ? "cosmological IC: this rank's slab of the lattice"
                                 : "cosmological IC: the plan of Psi", why, sizeof why);
        if (st != TBRF_OK)
            tbrfi_fail(&ic->msg, st, "%s", why);
    }
    if (st == TBRF_OK)
        st = derive(ic);
    if (st == TBRF_OK)
        st = linear_pk(ic, params->power, params->gas ? params : NULL);
    if (st == TBRF_OK)
        st = psi_plan(ic, ic->p0, &ic->spec, &ic->m, &ic->plan);
    st = own_plans(ic, st);
    ic->slab = planes > 0;
    if (st == TBRF_OK && !ic->slab) /* a slab's driver fixes its own modes */
        st = tbrfi_icc_lpt_setup(ic);
    ic->made = st == TBRF_OK;
    if (ic->made)
        tbrfi_message_clear(&ic->msg);
    return st;
}

int tbrf_ic_cosmo_make(const tbrf_ic_cosmo_params *params, tbrf_ic_cosmo **out)
{
    return make_ic(params, 0, 0, 0.0, out);
}

int tbrfi_icc_make_offset(const tbrf_ic_cosmo_params *params, int64_t planes, int64_t rows,
                          double offset, tbrf_ic_cosmo **out)
{
    return make_ic(params, planes, rows, offset, out);
}

int tbrf_ic_cosmo_make_slab(const tbrf_ic_cosmo_params *params, int64_t planes, int64_t rows,
                            tbrf_ic_cosmo **out)
{
    return make_ic(params, planes, rows, 0.0, out);
}

tbrf_plan *tbrf_ic_cosmo_plan(tbrf_ic_cosmo *ic)
{
    return ic && ic->made ? ic->plan : NULL;
}

int tbrf_ic_cosmo_get_params(const tbrf_ic_cosmo *ic, tbrf_ic_cosmo_params *params)
{
    if (!ic || !params)
        return TBRF_ERR_NULL;
    if (!ic->made)
        return TBRF_ERR_BAD_PLAN;
    *params = ic->p;
    return TBRF_OK;
}

int tbrf_ic_cosmo_get_offset(const tbrf_ic_cosmo *ic, double *offset)
{
    if (!ic || !offset)
        return TBRF_ERR_NULL;
    if (!ic->made)
        return TBRF_ERR_BAD_PLAN;
    *offset = ic->offset;
    return TBRF_OK;
}

int tbrf_ic_cosmo_get_info(const tbrf_ic_cosmo *ic, tbrf_ic_cosmo_info *info)
{
    if (!ic || !info)
        return TBRF_ERR_NULL;
    if (!ic->made)
        return TBRF_ERR_BAD_PLAN;
    *info = ic->info;
    return TBRF_OK;
}

int tbrf_ic_cosmo_status(const tbrf_ic_cosmo *ic)
{
    if (!ic)
        return TBRF_ERR_NULL;
    return ic->made ? ic->msg.status : TBRF_ERR_BAD_PLAN;
}

const char *tbrf_ic_cosmo_message(const tbrf_ic_cosmo *ic)
{
    return ic ? tbrfi_message_text(&ic->msg) : "no initial condition (NULL)";
}

void tbrf_ic_cosmo_destroy(tbrf_ic_cosmo *ic)
{
    if (!ic)
        return;
    tbrf_destroy(ic->plan);
    tbrf_model_destroy(ic->m);
    tbrf_model_destroy(ic->p0);
    tbrf_destroy(ic->plan_gas);
    tbrf_model_destroy(ic->mg);
    tbrf_model_destroy(ic->g0);
    for (int i = 0; i < 3; i++) {
        tbrf_destroy(ic->plan_own[i]);
        tbrf_model_destroy(ic->mown[i]);
        tbrf_model_destroy(ic->own0[i]);
    }
    free(ic->gas_weight);
    free(ic->glass);
    fftw_free(ic->phi1);
    fftw_free(ic->phi2);
    for (int c = 0; c < 3; c++)
        fftw_free(ic->psi3[c]);
    free(ic->psi1);
    free(ic);
}
