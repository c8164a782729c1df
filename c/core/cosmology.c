/* cosmology.c — the background cosmology and linear power spectra that
 * cosmological initial conditions need: E(a) = H(a)/H0, the linear growth
 * factor D and rate f of a matter + Lambda (+ curvature) universe without
 * radiation, the Eisenstein & Hu (1998) transfer function, and sigma(R)
 * normalisation of any 3D model (doc/arepo.md, "Cosmology").
 *
 * Why the integral form of D: for pressureless matter with a cosmological
 * constant and curvature (no radiation) the growing mode is exactly
 * D(a) ∝ E(a) ∫_0^a da' / (a' E(a'))^3 (Heath 1977), so no ODE and no
 * fitting formula is needed; the integral is smooth after a = t^2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/special.h"
#include "tbrf.h"

#define COSMO_PI 3.14159265358979323846

/* The parameter ranges accepted: wide enough for any published model,
 * narrow enough that the formulas stay meaningful. */
static int bad_omegas(double om, double ol)
{
    return !(isfinite(om) && isfinite(ol) && om > 0 && om <= 10 && ol >= -10 && ol <= 10);
}

/* omega_lambda NaN: a flat universe, the library's one rule for an unset
 * cosmological constant (tbrf_ic_default_cosmo leaves it NaN). */
static double lambda_or_flat(double om, double ol)
{
    return isnan(ol) ? 1.0 - om : ol;
}

static double e2(double om, double ol, double a)
{
    double ok = 1.0 - om - ol;
    return om / (a * a * a) + ok / (a * a) + ol;
}

int tbrf_cosmo_hubble(double omega_m, double omega_lambda, double a, double *hubble)
{
    omega_lambda = lambda_or_flat(omega_m, omega_lambda);
    if (!hubble)
        return TBRF_ERR_NULL;
    *hubble = NAN;
    if (bad_omegas(omega_m, omega_lambda) || !(isfinite(a) && a > 0))
        return TBRF_ERR_INVALID;
    double v = e2(omega_m, omega_lambda, a);
    if (!(v > 0))
        return TBRF_ERR_INVALID; /* a recollapsing or bouncing model at this a */
    *hubble = sqrt(v);
    return TBRF_OK;
}

/* ∫_0^a da'/(a' E)^3 with a' = t^2: the integrand 2 t^4 /(om + ok t^2 +
 * ol t^6)^{3/2} is smooth and bounded on [0, sqrt(a)]; 64 panels of
 * 16-point Gauss-Legendre reach rounding. Returns NaN if E^2 <= 0 on the
 * way (no growing mode through such a universe). */
typedef struct growth_ctx {
    double om, ok, ol;
    int bad;
} growth_ctx;

static double growth_integrand(double t, const void *vctx)
{
    growth_ctx *c = (growth_ctx *)vctx;
    double t2 = t * t;
    double den = c->om + c->ok * t2 + c->ol * t2 * t2 * t2;
    if (!(den > 0)) {
        c->bad = 1;
        return 0;
    }
    return 2.0 * t2 * t2 / (den * sqrt(den));
}

static double growth_integral(double om, double ol, double a)
{
    growth_ctx c = {om, 1.0 - om - ol, ol, 0};
    double top = sqrt(a), sum = 0;
    const int panels = 64;
    for (int i = 0; i < panels; i++)
        sum += tbrf_gl16(growth_integrand, &c, top * i / panels, top * (i + 1) / panels);
    return c.bad ? NAN : sum;
}

/* The unnormalised growing mode E(a) I(a) and, if f is not NULL, the rate. */
static double growth_raw(double om, double ol, double a, double *f)
{
    double i = growth_integral(om, ol, a);
    double ee = e2(om, ol, a);
    if (!(isfinite(i) && i > 0 && ee > 0))
        return NAN;
    double e = sqrt(ee);
    if (f) {
        double ok = 1.0 - om - ol;
        double dlne = -(3.0 * om / (a * a * a) + 2.0 * ok / (a * a)) / (2.0 * ee);
        *f = dlne + 1.0 / (i * a * a * ee * e);
    }
    return e * i;
}

static int check_z(double om, double ol, double z)
{
    if (bad_omegas(om, ol) || !isfinite(z) || z <= -1 || z > 1e7)
        return TBRF_ERR_INVALID;
    return TBRF_OK;
}

int tbrf_cosmo_growth(double omega_m, double omega_lambda, double z, double *growth)
{
    omega_lambda = lambda_or_flat(omega_m, omega_lambda);
    if (!growth)
        return TBRF_ERR_NULL;
    *growth = NAN;
    int st = check_z(omega_m, omega_lambda, z);
    if (st)
        return st;
    double a = 1.0 / (1.0 + z);
    /* E^2 must stay positive between the big bang and max(a, 1). */
    double d0 = growth_raw(omega_m, omega_lambda, 1.0, NULL);
    double da = growth_raw(omega_m, omega_lambda, a, NULL);
    if (!(isfinite(d0) && isfinite(da) && d0 > 0))
        return TBRF_ERR_INVALID;
    *growth = da / d0;
    return TBRF_OK;
}

int tbrf_cosmo_growth_rate(double omega_m, double omega_lambda, double z, double *rate)
{
    omega_lambda = lambda_or_flat(omega_m, omega_lambda);
    if (!rate)
        return TBRF_ERR_NULL;
    *rate = NAN;
    int st = check_z(omega_m, omega_lambda, z);
    if (st)
        return st;
    double r = NAN;
    double g = growth_raw(omega_m, omega_lambda, 1.0 / (1.0 + z), &r);
    if (!(isfinite(g) && isfinite(r)))
        return TBRF_ERR_INVALID;
    *rate = r;
    return TBRF_OK;
}

/* ------------------------------------------- second-order growth (2LPT)
 *
 * No closed form exists for D2 outside Einstein-de Sitter, so the growth
 * equations are integrated in ln a: with ' = d/dln a and
 * q(a) = 2 + dln E/dln a,
 *     D1'' + q D1' - (3/2) Omega_m(a) D1 = 0,
 *     D2'' + q D2' - (3/2) Omega_m(a) (D2 - D1^2) = 0,
 * from deep in matter domination, where the growing modes are D1 = a,
 * D2 = -(3/7) a^2 (EdS: 4c + c - (3/2)(c - 1) = 0 gives c = -3/7). The
 * equations are invariant under D1 -> c D1, D2 -> c^2 D2, so the ratio
 * D2/D1^2 at a does not depend on the normalisation: D2 = (D2/D1^2)_ode
 * times the exact D1^2 of tbrf_cosmo_growth. Classical RK4 with steps of
 * at most 0.002 in ln a (error ~ h^4, below 1e-10), started 12 e-folds
 * before min(a, 1) so that curvature and Lambda are negligible there. */
static void growth2_rhs(double om, double ol, double lna, const double y[4], double dy[4])
{
    const double a = exp(lna), ee = e2(om, ol, a), ok = 1.0 - om - ol;
    const double oma = om / (a * a * a * ee);
    const double q = 2.0 - (3.0 * om / (a * a * a) + 2.0 * ok / (a * a)) / (2.0 * ee);
    dy[0] = y[1];
    dy[1] = -q * y[1] + 1.5 * oma * y[0];
    dy[2] = y[3];
    dy[3] = -q * y[3] + 1.5 * oma * (y[2] - y[0] * y[0]);
}

/* D2/D1^2 and f2 = dln D2/dln a at a. */
static void growth2_ode(double om, double ol, double a, double *ratio, double *f2)
{
    const double l1 = log(a), l0 = log(a < 1.0 ? a : 1.0) - 12.0;
    const int steps = (int)ceil((l1 - l0) / 0.002);
    const double h = (l1 - l0) / steps, a0 = exp(l0);
    double y[4] = {a0, a0, -3.0 / 7.0 * a0 * a0, -6.0 / 7.0 * a0 * a0};
    for (int s = 0; s < steps; s++) {
        const double l = l0 + h * s;
        double k1[4], k2[4], k3[4], k4[4], t[4];
        growth2_rhs(om, ol, l, y, k1);
        for (int i = 0; i < 4; i++)
            t[i] = y[i] + 0.5 * h * k1[i];
        growth2_rhs(om, ol, l + 0.5 * h, t, k2);
        for (int i = 0; i < 4; i++)
            t[i] = y[i] + 0.5 * h * k2[i];
        growth2_rhs(om, ol, l + 0.5 * h, t, k3);
        for (int i = 0; i < 4; i++)
            t[i] = y[i] + h * k3[i];
        growth2_rhs(om, ol, l + h, t, k4);
        for (int i = 0; i < 4; i++)
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
    *ratio = y[2] / (y[0] * y[0]);
    *f2 = y[3] / y[2];
}

int tbrf_cosmo_growth2(double omega_m, double omega_lambda, double z, double *growth2,
                       double *rate2)
{
    omega_lambda = lambda_or_flat(omega_m, omega_lambda);
    if (!growth2 || !rate2)
        return TBRF_ERR_NULL;
    *growth2 = *rate2 = NAN;
    double d1 = NAN;
    /* validates the parameters and E^2 > 0 from a = 0 to max(a, 1) */
    int st = tbrf_cosmo_growth(omega_m, omega_lambda, z, &d1);
    if (st)
        return st;
    double ratio, f2;
    growth2_ode(omega_m, omega_lambda, 1.0 / (1.0 + z), &ratio, &f2);
    if (!(isfinite(ratio) && isfinite(f2)))
        return TBRF_ERR_INVALID;
    *growth2 = ratio * d1 * d1;
    *rate2 = f2;
    return TBRF_OK;
}

/* ------------------------------------------------ Eisenstein & Hu 1998 */

/* The k-independent quantities of EH98 section 2-4, from their tf_fit.c
 * (variable names kept, so the code reads against the paper). */
typedef struct eh_params {
    double omhh, obhh, f_baryon, theta_cmb, k_equality, sound_horizon, k_silk;
    double alpha_c, beta_c, alpha_b, beta_b, beta_node, sound_horizon_fit, alpha_gamma;
} eh_params;

static int eh_set(double om, double ob, double h, double tcmb, eh_params *p)
{
    if (!(isfinite(om) && isfinite(ob) && isfinite(h) && isfinite(tcmb)) || om <= 0 || om > 10 ||
        ob < 0 || ob >= om || h <= 0.1 || h > 2 || tcmb <= 0 || tcmb > 100)
        return TBRF_ERR_INVALID;
    double omhh = om * h * h, obhh = ob * h * h, fb = ob / om;
    double th = tcmb / 2.7, th2 = th * th, th4 = th2 * th2;
    double z_eq = 2.50e4 * omhh / th4; /* really 1 + z */
    double k_eq = 0.0746 * omhh / th2;
    double b1 = 0.313 * pow(omhh, -0.419) * (1 + 0.607 * pow(omhh, 0.674));
    double b2 = 0.238 * pow(omhh, 0.223);
    double z_drag = 1291 * pow(omhh, 0.251) / (1 + 0.659 * pow(omhh, 0.828)) *
                    (1 + b1 * pow(obhh, b2));
    double r_drag = 31.5 * obhh / th4 * (1000 / (1 + z_drag));
    double r_eq = 31.5 * obhh / th4 * (1000 / z_eq);
    p->omhh = omhh;
    p->obhh = obhh;
    p->f_baryon = fb;
    p->theta_cmb = th;
    p->k_equality = k_eq;
    p->sound_horizon = 2. / 3. / k_eq * sqrt(6. / r_eq) *
                       log((sqrt(1 + r_drag) + sqrt(r_drag + r_eq)) / (1 + sqrt(r_eq)));
    p->k_silk = 1.6 * pow(obhh, 0.52) * pow(omhh, 0.73) * (1 + pow(10.4 * omhh, -0.95));
    double a1 = pow(46.9 * omhh, 0.670) * (1 + pow(32.1 * omhh, -0.532));
    double a2 = pow(12.0 * omhh, 0.424) * (1 + pow(45.0 * omhh, -0.582));
    p->alpha_c = pow(a1, -fb) * pow(a2, -fb * fb * fb);
    double bb1 = 0.944 / (1 + pow(458 * omhh, -0.708));
    double bb2 = pow(0.395 * omhh, -0.0266);
    p->beta_c = 1.0 / (1 + bb1 * (pow(1 - fb, bb2) - 1));
    double y = z_eq / (1 + z_drag);
    double g = y * (-6. * sqrt(1 + y) + (2. + 3. * y) * log((sqrt(1 + y) + 1) / (sqrt(1 + y) - 1)));
    p->alpha_b = 2.07 * k_eq * p->sound_horizon * pow(1 + r_drag, -0.75) * g;
    p->beta_node = 8.41 * pow(omhh, 0.435);
    p->beta_b = 0.5 + fb + (3. - 2. * fb) * sqrt(pow(17.2 * omhh, 2.0) + 1);
    p->sound_horizon_fit = 44.5 * log(9.83 / omhh) / sqrt(1 + 10.0 * pow(obhh, 0.75));
    p->alpha_gamma = 1 - 0.328 * log(431.0 * omhh) * fb + 0.38 * log(22.3 * omhh) * fb * fb;
    if (ob == 0) {
        /* the zero-baryon limit: no sound horizon, no baryon term (f_b =
         * 0 weights it out; its 0/0 factors are set to their limits) */
        p->sound_horizon = 0;
        p->alpha_b = 0;
        p->k_silk = 1;
    }
    return isfinite(p->sound_horizon) && isfinite(p->alpha_b) ? TBRF_OK : TBRF_ERR_INVALID;
}

/* EH98 eq. 16-24 (TFfit_onek), k in 1/Mpc. The node shift is written as
 * s x/(bn (1 + (x/bn)^3)^{1/3}), the same as s (1 + (bn/x)^3)^{-1/3} but
 * finite as k -> 0, where sin(x~)/x~ -> 1. */
static double eh_full(const eh_params *p, double k)
{
    if (k == 0)
        return 1.0;
    double q = k / 13.41 / p->k_equality;
    double xx = k * p->sound_horizon;
    double ln_beta = log(2.718282 + 1.8 * p->beta_c * q);
    double ln_nobeta = log(2.718282 + 1.8 * q);
    double c_alpha = 14.2 / p->alpha_c + 386.0 / (1 + 69.9 * pow(q, 1.08));
    double c_noalpha = 14.2 + 386.0 / (1 + 69.9 * pow(q, 1.08));
    double r = xx / 5.4, tf = 1.0 / (1.0 + r * r * r * r);
    double t_c = tf * ln_beta / (ln_beta + c_noalpha * q * q) +
                 (1 - tf) * ln_beta / (ln_beta + c_alpha * q * q);
    double u = xx / p->beta_node;
    double s_tilde = p->sound_horizon * u / cbrt(1 + u * u * u);
    double xt = k * s_tilde;
    double sinc = xt < 1e-4 ? 1 - xt * xt / 6 : sin(xt) / xt;
    double t_b0 = ln_nobeta / (ln_nobeta + c_noalpha * q * q);
    double v = xx / p->beta_b; /* alpha_b/(1 + (beta_b/xx)^3) = alpha_b v^3/(1 + v^3) */
    double t_b = sinc * (t_b0 / (1 + (xx / 5.2) * (xx / 5.2)) +
                         p->alpha_b * v * v * v / (1 + v * v * v) * exp(-pow(k / p->k_silk, 1.4)));
    return p->f_baryon * t_b + (1 - p->f_baryon) * t_c;
}

/* EH98 eq. 29-31 (TFnowiggles), k in 1/Mpc. */
static double eh_nowiggle(const eh_params *p, double k)
{
    double q = k / 13.41 / p->k_equality;
    double xx = 0.43 * k * p->sound_horizon_fit;
    double gamma_eff = p->omhh * (p->alpha_gamma + (1 - p->alpha_gamma) / (1 + xx * xx * xx * xx));
    double qe = q * p->omhh / gamma_eff;
    double l0 = log(2.0 * 2.718282 + 1.8 * qe);
    double c0 = 14.2 + 731.0 / (1 + 62.5 * qe);
    return l0 / (l0 + c0 * qe * qe);
}

int tbrf_cosmo_eh_transfer(double omega_m, double omega_b, double h, double t_cmb, int wiggles,
                           double k, double *transfer)
{
    if (!transfer)
        return TBRF_ERR_NULL;
    *transfer = NAN;
    eh_params p;
    int st = eh_set(omega_m, omega_b, h, t_cmb, &p);
    if (st)
        return st;
    if (!(isfinite(k) && k >= 0) || (wiggles != 0 && wiggles != 1))
        return TBRF_ERR_INVALID;
    /* no baryons: their eq. 29 (the no-wiggle form at f_b = 0) */
    *transfer = wiggles && omega_b > 0 ? eh_full(&p, k * h) : eh_nowiggle(&p, k * h);
    return TBRF_OK;
}

/* ------------------------------------------------------- sigma(R) */

/* Top-hat window 3 (sin x - x cos x)/x^3, by its series where the
 * difference cancels. */
static double tophat(double x)
{
    if (x < 1e-2) {
        double x2 = x * x;
        return 1 - x2 / 10 + x2 * x2 / 280;
    }
    return 3 * (sin(x) - x * cos(x)) / (x * x * x);
}

typedef struct sigma_ctx {
    const tbrf_model *m;
    double r;
} sigma_ctx;

/* k^3 P0(k) W^2(kR) as a function of t = ln k: the integrand of
 * 2 pi^2 sigma^2 = ∫ k^3 P W^2 dln k. */
static double sigma_integrand(double t, const void *vctx)
{
    const sigma_ctx *c = vctx;
    double k = exp(t), w = tophat(k * c->r);
    return k * k * k * tbrfi_model_shape_spectrum(c->m, 3, k) * w * w;
}

/* ∫ over [t0, t1] in panels at most 0.02 wide in ln k and at most a
 * quarter of the window's period pi/(2R) wide in k, so the oscillations
 * of W^2 and the kinks of a table's interpolation are both resolved. */
static double sigma_panels(const sigma_ctx *c, double t0, double t1)
{
    double sum = 0, t = t0;
    while (t < t1) {
        double k = exp(t);
        double h = fmin(0.02, COSMO_PI / (2 * k * c->r));
        double te = fmin(t1, t + h);
        sum += tbrf_gl16(sigma_integrand, c, t, te);
        t = te;
    }
    return sum;
}

/* sigma^2 of the shape (amplitude 1). Integrates the model's support
 * (tbrfi_model_support), knot to knot for a table, clipped to
 * [1e-8, 1e5]/R, where the window or k^3 makes the rest negligible for
 * any spectrum whose variance converges. */
static double sigma2_shape(const tbrf_model *m, double r)
{
    sigma_ctx c = {m, r};
    double sum = 0;
    double kmin, kmax;
    tbrfi_model_support(m, &kmin, &kmax);
    const double lo = fmax(1e-8 / r, kmin), hi = fmin(1e5 / r, kmax);
    if (m->kind == MODEL_TABLE) {
        for (size_t i = 0; i + 1 < m->n; i++) {
            double a = fmax(m->k[i], lo), b = fmin(m->k[i + 1], hi);
            if (a < b)
                sum += sigma_panels(&c, log(a), log(b));
        }
    } else {
        if (lo < hi)
            sum = sigma_panels(&c, log(lo), log(hi));
    }
    return sum / (2 * COSMO_PI * COSMO_PI);
}

int tbrf_cosmo_sigma_r(const tbrf_model *model, double r, double *sigma)
{
    if (!model || !sigma)
        return TBRF_ERR_NULL;
    *sigma = NAN;
    if (model->status != TBRF_OK || !(isfinite(r) && r > 0))
        return TBRF_ERR_INVALID;
    double a = tbrfi_model_amplitude(model, 3);
    double s2 = sigma2_shape(model, r);
    if (!(isfinite(a) && isfinite(s2) && s2 >= 0))
        return TBRF_ERR_DIVERGENT;
    *sigma = sqrt(a * s2);
    return TBRF_OK;
}

int tbrf_model_normalize_sigma(tbrf_model *model, double r, double sigma)
{
    if (!model)
        return TBRF_ERR_NULL;
    if (model->status != TBRF_OK || !(isfinite(r) && r > 0) || !(isfinite(sigma) && sigma > 0)) {
        return tbrfi_fail(&model->msg, TBRF_ERR_INVALID,
                          "sigma normalisation needs a usable model, R > 0 and sigma > 0 (got R = %g, "
                 "sigma = %g)", r, sigma);
    }
    double s2 = sigma2_shape(model, r);
    if (!(isfinite(s2) && s2 > 0)) {
        return tbrfi_fail(&model->msg, TBRF_ERR_DIVERGENT,
                          "sigma(R = %g) of the model's shape is %g: nothing to normalise", r, sqrt(s2));
    }
    return tbrf_model_set_amplitude(model, sigma * sigma / s2);
}

/* Rows per decade of k in the tabulated Eisenstein & Hu spectrum: the
 * baryon wiggles (period 2 pi/s ~ 0.06 h/Mpc) get >= 8 rows each at k
 * <= 0.3 h/Mpc, and log-log interpolation stays within 1e-4 of the
 * smooth parts. */
#define EH_ROWS_PER_DECADE 400

int tbrf_model_eisenstein_hu(double omega_m, double omega_b, double h, double n_s, double t_cmb,
                             int wiggles, double kmin, double kmax, tbrf_model **model)
{
    if (!model)
        return TBRF_ERR_NULL;
    *model = NULL;
    eh_params p;
    int bad = eh_set(omega_m, omega_b, h, t_cmb, &p) != TBRF_OK;
    bad |= !(isfinite(n_s) && n_s > -3 && n_s < 5) || (wiggles != 0 && wiggles != 1);
    bad |= !(isfinite(kmin) && isfinite(kmax) && kmin > 0 && kmax > kmin && kmax / kmin <= 1e12);
    double dec = bad ? 0 : log10(kmax / kmin);
    size_t n = bad ? 2 : (size_t)ceil(dec * EH_ROWS_PER_DECADE) + 1;
    double kk[2] = {1, 2}, pp[2] = {1, 1};
    if (bad) {
        /* The sqlite3 habit: hand back a failed model carrying the reason. */
        int st = tbrf_model_table(2, kk, pp, model);
        if (*model) {
            (*model)->status = TBRF_ERR_INVALID;
            snprintf((*model)->description, sizeof (*model)->description,
                     "eisenstein_hu (invalid)");
            tbrfi_fail(&(*model)->msg, TBRF_ERR_INVALID,
                     "eisenstein_hu: need 0 < omega_b < omega_m <= 10, 0.1 < h <= 2, 0 < t_cmb <= "
                     "100, -3 < n_s < 5, wiggles 0 or 1, 0 < kmin < kmax <= 1e12 kmin (got "
                     "omega_m=%g omega_b=%g h=%g n_s=%g t_cmb=%g wiggles=%d kmin=%g kmax=%g)",
                     omega_m, omega_b, h, n_s, t_cmb, wiggles, kmin, kmax);
        }
        return st == TBRF_OK ? TBRF_ERR_INVALID : st;
    }
    double *buf = malloc(2 * n * sizeof *buf);
    if (!buf)
        return TBRF_ERR_NO_MEMORY;
    double *k = buf, *pk = buf + n;
    for (size_t i = 0; i < n; i++) {
        k[i] = i + 1 == n ? kmax : kmin * pow(10.0, dec * (double)i / (double)(n - 1));
        double t = wiggles && omega_b > 0 ? eh_full(&p, k[i] * h) : eh_nowiggle(&p, k[i] * h);
        pk[i] = pow(k[i], n_s) * t * t;
    }
    int st = tbrf_model_table(n, k, pk, model);
    free(buf);
    if (st == TBRF_OK && *model)
        snprintf((*model)->description, sizeof (*model)->description,
                 "eisenstein_hu%s omega_m=%.10g omega_b=%.10g h=%.10g n_s=%.10g t_cmb=%.10g "
                 "kmin=%.10g kmax=%.10g (k in h/Mpc) rows=%zu variance=1",
                 wiggles ? "" : "_nowiggle", omega_m, omega_b, h, n_s, t_cmb, kmin, kmax, n);
    return st;
}
