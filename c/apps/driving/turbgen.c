/* turbgen.c — TurbGen's parameter file as driver parameters
 * (tbrf_driver_params_from_turbgen; doc/driving.md, "TurbGen's parameter
 * files").
 *
 * TurbGen (Federrath et al. 2022, chfeder/turbulence_generator, TurbGen.h)
 * drives modes k = 2 pi ik / L with amplitudes A_k (its init_modes), each
 * an OU vector of variance OUvar^2 per real component, OUvar =
 * sqrt(energy / t_decay), energy = (0.15 velocity)^3 / L_x, t_decay = L_x /
 * (k_driv velocity), and sums f = sum over every listed k (both k and -k)
 * of 2 sol_weight_norm A_k (P_zeta a cos - P_zeta b sin) g, g_d =
 * ampl_factor_d^1.5. Its force therefore has the ensemble mean square
 *   <|f|^2> = 4 OUvar^2 sol_weight_norm^2 sum_k A_k^2 sum_d g_d^2
 *             (zeta^2 (1 - u_d^2) + (1 - zeta)^2 u_d^2),
 * u the unit vector of TurbGen's wavevector as its projection sees it
 * (k_{min(d, ndim - 1)} for component d). That sum is computed here over
 * TurbGen's own mode list, including the sparse random directions of its
 * power law (its ran2 stream replayed), so the driver's ensemble rms is
 * TurbGen's for that file; the shape, zeta and the ACF map one to one. */
#include "apps/driving/driver.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf/driver.h"

#define TG_PI 3.14159265358979323846
/* TurbGen's tgd_max_nmodes: it stops ("Too many stirring modes") above */
#define TG_MAX_MODES 100000
/* The longest text taken (the command reads at most this much of a file) */
#define TG_TEXT_MAX (1 << 20)

enum { K_NDIM, K_L, K_VEL, K_AF, K_AAA, K_KDRIV, K_KMIN, K_KMAX, K_SOL, K_FORM, K_PLE, K_ANG,
       K_SEED, K_NSTEPS, K_COUNT };
static const char *const key_names[K_COUNT] = {
    "ndim", "L", "velocity", "ampl_factor", "ampl_auto_adjust", "k_driv", "k_min", "k_max",
    "sol_weight", "spect_form", "power_law_exp", "angles_exp", "random_seed",
    "nsteps_per_t_turb"};

/* The file's values: up to 3 per key (L and ampl_factor take one per
 * component, one value meaning all), and where each was given. */
typedef struct tg_file {
    double v[K_COUNT][3];
    int count[K_COUNT];
    int line[K_COUNT];
    int ncmp;
    int idim; /* (int) ndim: TurbGen's axes */
    char *msg;
    int64_t msg_size;
} tg_file;

static int tg_fail(tg_file *f, int status, const char *fmt, ...)
{
    if (f->msg && f->msg_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->msg, (size_t)f->msg_size, fmt, ap);
        va_end(ap);
    }
    return status;
}

/* Parses "a[, b, c]" into up to 3 finite numbers; returns the count, or
 * -1 (not numbers, or more than 3). */
static int parse_values(const char *s, double out[3])
{
    int n = 0;
    for (;;) {
        char *end;
        while (isspace((unsigned char)*s))
            s++;
        errno = 0;
        const double x = strtod(s, &end);
        if (end == s || errno == ERANGE || !isfinite(x) || n == 3)
            return -1;
        out[n++] = x;
        s = end;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0')
            return n;
        if (*s != ',')
            return -1;
        s++;
    }
}

/* One line "key = value(s) [# or ! comment]"; blank and comment lines
 * pass. */
static int parse_line(tg_file *f, char *line, int lineno)
{
    char *c = line + strcspn(line, "#!");
    *c = '\0';
    char *s = line;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '\0')
        return TBRF_OK;
    char *eq = strchr(s, '=');
    if (!eq)
        return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: no '=' in '%.60s'", lineno, s);
    char *ke = eq;
    while (ke > s && isspace((unsigned char)ke[-1]))
        ke--;
    *ke = '\0';
    int k = 0;
    while (k < K_COUNT && strcmp(s, key_names[k]) != 0)
        k++;
    if (k == K_COUNT)
        return tg_fail(f, TBRF_ERR_UNSUPPORTED,
                       "turbgen: line %d: parameter '%.60s' is not one tbrf honours (it reads "
                       "ndim, L, velocity, ampl_factor, ampl_auto_adjust, k_driv, k_min, k_max, "
                       "sol_weight, spect_form, power_law_exp, angles_exp, random_seed, "
                       "nsteps_per_t_turb)", lineno, s);
    if (f->count[k])
        return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: '%s' given twice (first on line %d)",
                       lineno, key_names[k], f->line[k]);
    const int n = parse_values(eq + 1, f->v[k]);
    const int multi = k == K_L || k == K_AF;
    if (n < 1 || (!multi && n != 1))
        return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: '%s' needs %s finite number%s",
                       lineno, key_names[k], multi ? "one or per-component" : "one",
                       multi ? "s" : "");
    f->count[k] = n;
    f->line[k] = lineno;
    return TBRF_OK;
}

/* The first byte of line that is no text (a control byte other than a
 * blank, or DEL), or NULL: a binary file is refused where it starts. */
static const char *binary_byte(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t' && c != '\r' && c != '\v' && c != '\f') || c == 0x7f)
            return line + i;
    }
    return NULL;
}

static int parse_text(tg_file *f, const char *text)
{
    /* bounded before it is parsed: a TurbGen file is a few hundred bytes */
    size_t total = 0;
    while (total <= TG_TEXT_MAX && text[total])
        total++;
    if (total > TG_TEXT_MAX)
        return tg_fail(f, TBRF_ERR_SIZE, "turbgen: the text is longer than %d bytes: not a "
                       "TurbGen parameter file", TG_TEXT_MAX);
    int lineno = 0;
    while (*text) {
        const size_t len = strcspn(text, "\n");
        char buf[1024];
        lineno++;
        if (len >= sizeof buf)
            return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d is longer than %d characters",
                           lineno, (int)sizeof buf - 1);
        const char *bad = binary_byte(text, len);
        if (bad)
            return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d, byte %d: 0x%02x is no text "
                           "(binary data, not a TurbGen parameter file)", lineno,
                           (int)(bad - text) + 1, (unsigned)(unsigned char)*bad);
        memcpy(buf, text, len);
        buf[len] = '\0';
        const int st = parse_line(f, buf, lineno);
        if (st != TBRF_OK)
            return st;
        text += len;
        if (*text == '\n')
            text++;
    }
    for (int k = 0; k < K_COUNT; k++)
        if (!f->count[k])
            return tg_fail(f, TBRF_ERR_INVALID,
                           "turbgen: parameter '%s' is missing (TurbGen requires every one of "
                           "its parameters)", key_names[k]);
    return TBRF_OK;
}

/* An integer-valued parameter (TurbGen reads these with atoi). */
static int int_value(tg_file *f, int k, int lo, int hi, int *out)
{
    const double x = f->v[k][0];
    if (!(x == floor(x) && x >= lo && x <= hi))
        return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: %s = %g must be an integer in "
                       "[%d, %d]", f->line[k], key_names[k], x, lo, hi);
    *out = (int)x;
    return TBRF_OK;
}

/* Expands L and ampl_factor to one value per component, as TurbGen does
 * (one value: every component; otherwise exactly ncmp). */
static int per_component(tg_file *f, int k)
{
    if (f->count[k] == 1) {
        f->v[k][1] = f->v[k][2] = f->v[k][0];
    } else if (f->count[k] != f->ncmp) {
        return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: '%s' has %d values, ndim = %g "
                       "drives %d components", f->line[k], key_names[k], f->count[k],
                       f->v[K_NDIM][0], f->ncmp);
    }
    for (int d = f->ncmp; d < 3; d++)
        f->v[k][d] = 1.0;
    return TBRF_OK;
}

static int check_values(tg_file *f)
{
    const double nd = f->v[K_NDIM][0];
    if (nd == 1.0)
        return tg_fail(f, TBRF_ERR_UNSUPPORTED, "turbgen: line %d: ndim = 1 (one force component "
                       "in a 1D box) is not a tbrf driver; ndim = 1.5 drives three components "
                       "of a 1D box", f->line[K_NDIM]);
    if (nd != 1.5 && nd != 2.0 && nd != 2.5 && nd != 3.0)
        return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: ndim = %g must be 1, 1.5, 2, 2.5 "
                       "or 3", f->line[K_NDIM], nd);
    f->idim = (int)nd;
    f->ncmp = nd == 2.0 ? 2 : 3;
    int st = per_component(f, K_L);
    if (st == TBRF_OK)
        st = per_component(f, K_AF);
    if (st != TBRF_OK)
        return st;
    double gsum = 0.0;
    for (int d = 0; d < f->ncmp; d++) {
        if (!(f->v[K_L][d] > 0.0))
            return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: L must be > 0", f->line[K_L]);
        if (!(f->v[K_AF][d] >= 0.0))
            return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: ampl_factor must be >= 0",
                           f->line[K_AF]);
        gsum += f->v[K_AF][d];
    }
    if (!(gsum > 0.0))
        return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: ampl_factor is zero for every "
                       "component", f->line[K_AF]);
    static const int pos[] = {K_VEL, K_KDRIV, K_KMAX};
    for (int i = 0; i < 3; i++)
        if (!(f->v[pos[i]][0] > 0.0))
            return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: %s = %g must be > 0",
                           f->line[pos[i]], key_names[pos[i]], f->v[pos[i]][0]);
    if (!(f->v[K_KMIN][0] >= 0.0 && f->v[K_KMIN][0] < f->v[K_KMAX][0]))
        return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: k_min = %g must be in [0, k_max)",
                       f->line[K_KMIN], f->v[K_KMIN][0]);
    if (!(f->v[K_SOL][0] >= 0.0 && f->v[K_SOL][0] <= 1.0))
        return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: sol_weight = %g must be in [0, 1]",
                       f->line[K_SOL], f->v[K_SOL][0]);
    return TBRF_OK;
}

/* Numerical Recipes' ran2 as TurbGen.h has it (its statics in a struct),
 * to replay the directions of its power-law modes. */
typedef struct tg_ran2 {
    int idum2, iy, iv[32];
} tg_ran2;

static double tg_ran2_next(tg_ran2 *r, int *idum)
{
    enum { IM1 = 2147483563, IM2 = 2147483399, IMM1 = IM1 - 1, IA1 = 40014, IA2 = 40692,
           IQ1 = 53668, IQ2 = 52774, IR1 = 12211, IR2 = 3791, NTAB = 32,
           NDIV = 1 + IMM1 / NTAB };
    const double AM = 1.0 / IM1, RNMX = 1.0 - 1.2e-7;
    int j, k;
    if (*idum <= 0) {
        *idum = -*idum > 1 ? -*idum : 1;
        r->idum2 = *idum;
        for (j = NTAB + 7; j >= 0; j--) {
            k = *idum / IQ1;
            *idum = IA1 * (*idum - k * IQ1) - k * IR1;
            if (*idum < 0)
                *idum += IM1;
            if (j < NTAB)
                r->iv[j] = *idum;
        }
        r->iy = r->iv[0];
    }
    k = *idum / IQ1;
    *idum = IA1 * (*idum - k * IQ1) - k * IR1;
    if (*idum < 0)
        *idum += IM1;
    k = r->idum2 / IQ2;
    r->idum2 = IA2 * (r->idum2 - k * IQ2) - k * IR2;
    if (r->idum2 < 0)
        r->idum2 += IM2;
    j = r->iy / NDIV;
    r->iy = r->iv[j] - r->idum2;
    r->iv[j] = *idum;
    if (r->iy < 1)
        r->iy += IMM1;
    const double ret = AM * r->iy;
    return ret < RNMX ? ret : RNMX;
}

/* TurbGen's spectral context: its band ends (with its DBL_EPSILON
 * widening), its normalisation wavenumber kc, and what each mode's
 * A^2 share is weighted by. */
typedef struct tg_spec {
    double kmin, kmax, kc, zs, zc, g2[3];
    int form;
    double ple;
} tg_spec;

/* sum_d g_d^2 (zeta^2 (1 - u_d^2) + (1 - zeta)^2 u_d^2), u TurbGen's
 * wavevector as its projection reads it (component d from axis
 * min(d, idim - 1)). */
static double tg_share(const tg_file *f, const tg_spec *sp, const double k[3])
{
    double kk = 0.0, w = 0.0;
    for (int d = 0; d < f->ncmp; d++) {
        const double kd = k[d < f->idim - 1 ? d : f->idim - 1];
        kk += kd * kd;
    }
    for (int d = 0; d < f->ncmp; d++) {
        const double kd = k[d < f->idim - 1 ? d : f->idim - 1], u2 = kd * kd / kk;
        w += sp->g2[d] * (sp->zs * (1.0 - u2) + sp->zc * u2);
    }
    return w;
}

/* sum over TurbGen's band and parabola modes (full lattice, |ik_d| <= 256
 * as it loops) of A_k^2 share(k). */
static double tg_sum_full(const tg_file *f, const tg_spec *sp)
{
    const double *L = f->v[K_L];
    int imax[3] = {0, 0, 0};
    for (int d = 0; d < f->idim; d++) {
        const double m = ceil(sp->kmax * L[d] / (2 * TG_PI)) + 1.0;
        imax[d] = m < 256.0 ? (int)m : 256;
    }
    const double parab = -4.0 / pow(sp->kmax - sp->kmin, 2.0);
    double sum = 0.0;
    int64_t count = 0;
    for (int ix = -imax[0]; ix <= imax[0]; ix++)
        for (int iy = -imax[1]; iy <= imax[1]; iy++)
            for (int iz = -imax[2]; iz <= imax[2]; iz++) {
                const double k[3] = {2 * TG_PI * ix / L[0], 2 * TG_PI * iy / L[1],
                                     2 * TG_PI * iz / L[2]};
                const double ka = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
                if (!(ka >= sp->kmin && ka <= sp->kmax))
                    continue;
                double a = sp->form == 0 ? 1.0 : fabs(parab * pow(ka - sp->kc, 2.0) + 1.0);
                a = sqrt(a) * pow(sp->kc / ka, (f->idim - 1) / 2.0);
                sum += a * a * tg_share(f, sp, k);
                if (++count > TG_MAX_MODES)
                    return -1.0;
            }
    return count > TG_MAX_MODES ? -1.0 : sum;
}

/* The same over TurbGen's power-law modes: nang = 2^idim ceil(ik^angles_exp)
 * random directions per shell ik, drawn by its ran2 from random_seed in
 * its order (phi, theta in 3D, the radius). */
static double tg_sum_powerlaw(const tg_file *f, const tg_spec *sp, int seed, int64_t *nmodes)
{
    const double *L = f->v[K_L];
    tg_ran2 r;
    memset(&r, 0, sizeof r);
    r.idum2 = 123456789;
    int seed_init = -seed;
    (void)tg_ran2_next(&r, &seed_init);
    int ikmin = (int)round(sp->kmin * L[0] / (2 * TG_PI)), ikmax;
    ikmin = ikmin > 1 ? ikmin : 1;
    ikmax = (int)round(sp->kmax * L[0] / (2 * TG_PI));
    double sum = 0.0;
    int64_t count = 0;
    for (int ik = ikmin; ik <= ikmax && count <= TG_MAX_MODES; ik++) {
        const int nang = (int)(pow(2.0, f->idim) * ceil(pow((double)ik, f->v[K_ANG][0])));
        for (int ia = 1; ia <= nang; ia++) {
            double phi = 2 * TG_PI * tg_ran2_next(&r, &seed), theta = TG_PI / 2.0;
            if (f->idim == 1)
                phi = phi < TG_PI ? 0.0 : TG_PI;
            if (f->idim > 2)
                theta = acos(1.0 - 2.0 * tg_ran2_next(&r, &seed));
            const double rr = ik + tg_ran2_next(&r, &seed) - 0.5;
            double k[3] = {2 * TG_PI * round(rr * sin(theta) * cos(phi)) / L[0], 0.0, 0.0};
            if (f->idim > 1)
                k[1] = 2 * TG_PI * round(rr * sin(theta) * sin(phi)) / L[1];
            if (f->idim > 2)
                k[2] = 2 * TG_PI * round(rr * cos(theta)) / L[2];
            const double ka = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
            if (!(ka >= sp->kmin && ka <= sp->kmax))
                continue;
            double a = pow(ka / sp->kc, sp->ple);
            a = sqrt(a * pow((double)ik, f->idim - 1) / (double)nang * 4.0 * sqrt(3.0)) *
                pow(sp->kc / ka, (f->idim - 1) / 2.0);
            sum += a * a * tg_share(f, sp, k);
            count++;
        }
    }
    *nmodes = count;
    return count > TG_MAX_MODES ? -1.0 : sum;
}

/* TurbGen's ensemble rms of |f| for the file (the header comment's
 * formula). */
static double tg_rms(const tg_file *f, int form, int seed, int64_t *nmodes)
{
    const double Lx = f->v[K_L][0], vel = f->v[K_VEL][0], z = f->v[K_SOL][0];
    const double n = f->ncmp;
    tg_spec sp;
    sp.kmin = (f->v[K_KMIN][0] - 2.220446049250313e-16) * 2 * TG_PI / Lx;
    sp.kmax = (f->v[K_KMAX][0] + 2.220446049250313e-16) * 2 * TG_PI / Lx;
    sp.kc = form == 1 ? 0.5 * (sp.kmin + sp.kmax) : sp.kmin;
    sp.zs = z * z;
    sp.zc = (1.0 - z) * (1.0 - z);
    sp.form = form;
    sp.ple = f->v[K_PLE][0];
    for (int d = 0; d < 3; d++)
        sp.g2[d] = pow(pow(f->v[K_AF][d], 1.5), 2.0);
    const double t_decay = Lx / f->v[K_KDRIV][0] / vel;
    const double energy = pow(0.15 * vel, 3.0) / Lx;
    const double ouvar2 = energy / t_decay;
    const double swn2 = 3.0 / n * 3.0 / (1.0 - 2.0 * z + n * z * z);
    *nmodes = 0;
    const double sum = form == 2 ? tg_sum_powerlaw(f, &sp, seed, nmodes) : tg_sum_full(f, &sp);
    return sum < 0.0 ? -1.0 : sqrt(4.0 * ouvar2 * swn2 * sum);
}

/* The model of the shape: TurbGen's shell spectrum (band, parabola,
 * k^power_law_exp) over its band in physical k; per mode P ~ shell /
 * k^(idim - 1), which the driver reads in 3D for a 1D box (k^2 P_3). */
static int tg_model(tg_file *f, int form, tbrf_model **model)
{
    const double Lx = f->v[K_L][0];
    const double kmin = 2 * TG_PI * f->v[K_KMIN][0] / Lx, kmax = 2 * TG_PI * f->v[K_KMAX][0] / Lx;
    int st;
    if (form == 0)
        st = tbrf_model_band(kmin, kmax, model);
    else if (form == 1)
        st = tbrf_model_parabola(kmin, kmax, model);
    else
        st = tbrf_model_powerlaw(f->v[K_PLE][0] - (f->idim == 2 ? 1.0 : 2.0), kmin, kmax, model);
    if (st != TBRF_OK)
        return tg_fail(f, st, "turbgen: the model of spect_form = %d over [%g, %g]: %s", form,
                       kmin, kmax, *model ? tbrf_model_message(*model) : "no memory");
    return TBRF_OK;
}

/* The modes a driver with `directions` = D drives (the selection is keyed
 * by the seed, so this is the count the caller's driver will have), or
 * -1 where it cannot be made (more than 2^20 modes, say). */
static int64_t tg_kept(const tbrf_driver_params *params, uint64_t seed, const tbrf_model *model,
                       int32_t directions)
{
    tbrf_driver_params p = *params;
    p.directions = directions;
    p.eval = TBRF_DRIVE_DIRECT; /* no NUFFT grids: only the mode list is wanted */
    p.threads = 1;
    tbrf_driver *d = NULL;
    tbrf_driver_info info;
    const int st = tbrf_driver_make(model, seed, &p, &d);
    const int64_t n = st == TBRF_OK && tbrf_driver_get_info(d, &info) == TBRF_OK ? info.modes : -1;
    tbrf_driver_destroy(d);
    return n;
}

/* A power law's sparse directions, as TurbGen samples them (angles_exp):
 * the largest D >= 1 whose driver drives at most TurbGen's tg_modes modes
 * (so an update costs at most TurbGen's), or 0 (every mode) when the whole
 * band holds no more than that. Kept counts grow with D (a mode is kept
 * when its fixed uniform is below min(1, D s / N_s)), so a bisection finds
 * it. D = 1 where even that drives more than TurbGen (angles_exp < 1 with
 * few shells), the fewest the selection offers. */
static int tg_directions(tg_file *f, tbrf_driver_params *params, uint64_t seed, const tbrf_model *model,
                         int64_t tg_modes)
{
    const int64_t full = tg_kept(params, seed, model, 0);
    params->directions = 0;
    if (full >= 0 && full <= tg_modes)
        return TBRF_OK;
    const int64_t one = tg_kept(params, seed, model, 1);
    if (one < 0)
        return tg_fail(f, TBRF_ERR_SIZE, "turbgen: the band's driver cannot be made with sparse "
                       "directions (more than 2^20 modes)");
    /* kept(lo) <= tg_modes (or lo = 1), kept(hi) > tg_modes: D = full keeps
     * every shell whole (D s >= full >= N_s), and full > tg_modes here */
    int32_t lo = 1, hi = full >= 0 && full < (1 << 20) ? (int32_t)full : 1 << 20;
    if (one <= tg_modes)
        while (hi - lo > 1) {
            const int32_t mid = lo + (hi - lo) / 2;
            const int64_t n = tg_kept(params, seed, model, mid);
            if (n >= 0 && n <= tg_modes)
                lo = mid;
            else
                hi = mid;
        }
    params->directions = lo;
    return TBRF_OK;
}

static int tg_fill(tg_file *f, tbrf_driver_params *params, uint64_t *seed, tbrf_model **model)
{
    int form = 0, rseed = 0, nsteps = 1, aaa = 0;
    int st = int_value(f, K_FORM, 0, 2, &form);
    if (st == TBRF_OK)
        st = int_value(f, K_SEED, -2147483647, 2147483647, &rseed);
    if (st == TBRF_OK)
        st = int_value(f, K_NSTEPS, 1, 1000000000, &nsteps);
    if (st == TBRF_OK)
        st = int_value(f, K_AAA, 0, 1, &aaa);
    if (st != TBRF_OK)
        return st;
    if (aaa)
        return tg_fail(f, TBRF_ERR_UNSUPPORTED, "turbgen: line %d: ampl_auto_adjust = 1 is not "
                       "honoured: the driver's amplitude is fixed by the file (set 0)",
                       f->line[K_AAA]);
    if (form != 1 && !(f->v[K_KMIN][0] > 0.0))
        return tg_fail(f, TBRF_ERR_INVALID, "turbgen: line %d: k_min = 0 with spect_form = %d: "
                       "TurbGen normalises these spectra at k_min, so its force vanishes",
                       f->line[K_KMIN], form);
    for (int d = 0; d < f->idim; d++)
        if (f->v[K_KMAX][0] * f->v[K_L][d] / f->v[K_L][0] > 256.0)
            return tg_fail(f, TBRF_ERR_UNSUPPORTED, "turbgen: line %d: k_max = %g reaches |ik| > "
                           "256 along axis %d, beyond TurbGen's lattice", f->line[K_KMAX],
                           f->v[K_KMAX][0], d);
    tbrf_driver_default_params(params);
    params->dim = f->idim;
    params->components = f->ncmp == 3 && f->idim < 3 ? 3 : 0;
    for (int d = 0; d < 3; d++) {
        params->length[d] = d < f->ncmp ? f->v[K_L][d] : 1.0;
        params->amplitude_factor[d] = d < f->ncmp ? pow(f->v[K_AF][d], 1.5) : 1.0;
    }
    params->zeta = f->v[K_SOL][0];
    /* t_decay and dt exactly as TurbGen computes them */
    params->tcorr = f->v[K_L][0] / f->v[K_KDRIV][0] / f->v[K_VEL][0];
    params->dt_update = params->tcorr / nsteps;
    params->normalization = TBRF_DRIVE_RMS_ENSEMBLE;
    int64_t tg_modes = 0;
    params->rms = tg_rms(f, form, rseed, &tg_modes);
    if (params->rms == -1.0)
        return tg_fail(f, TBRF_ERR_SIZE, "turbgen: more than %d TurbGen modes in k = [%g, %g] 2 pi "
                       "/ L_x: TurbGen itself stops there (its tgd_max_nmodes)", TG_MAX_MODES,
                       f->v[K_KMIN][0], f->v[K_KMAX][0]);
    if (!(params->rms > 0.0 && isfinite(params->rms)))
        return tg_fail(f, TBRF_ERR_SIZE, "turbgen: no TurbGen mode in k = [%g, %g] 2 pi / L_x "
                       "(its force is zero)", f->v[K_KMIN][0], f->v[K_KMAX][0]);
    *seed = (uint64_t)(int64_t)rseed;
    st = tg_model(f, form, model);
    if (st == TBRF_OK && form == 2)
        st = tg_directions(f, params, *seed, *model, tg_modes);
    return st;
}

int tbrf_driver_params_from_turbgen(const char *text, tbrf_driver_params *params,
                                    uint64_t *seed, tbrf_model **model, char *message,
                                    int64_t message_size)
{
    tg_file f;
    memset(&f, 0, sizeof f);
    f.msg = message;
    f.msg_size = message_size;
    if (message && message_size > 0)
        message[0] = '\0';
    if (model)
        *model = NULL;
    if (!text || !params || !seed || !model)
        return tg_fail(&f, TBRF_ERR_NULL, "turbgen: text, params, seed and model must not be "
                       "NULL");
    int st = parse_text(&f, text);
    if (st == TBRF_OK)
        st = check_values(&f);
    if (st == TBRF_OK)
        st = tg_fill(&f, params, seed, model);
    if (st != TBRF_OK && *model) {
        tbrf_model_destroy(*model);
        *model = NULL;
    }
    return st;
}
