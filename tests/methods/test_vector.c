/* test_vector.c — vector fields, exactness by construction:
 *  - turning bands: every line amplitude e_l of a solenoidal field is
 *    perpendicular to its line (|e.d| <= 1e-15 |e|), of a compressive one
 *    parallel (|e - (e.d) d| <= 1e-15 |e|), in 2D and 3D; so each line's
 *    contribution e Z(x.d) has zero divergence (curl). The field's
 *    central-difference divergence is then only the difference formula's
 *    error, (h^2/6) sum_l sum_c e_c d_c^3 Z_l''' : its ratio to the
 *    gradient norm falls 4 times when h halves (checked in [3, 5], the
 *    h^4 term and the lines' interpolation at spacing h/80 moving it
 *    little), while a compressive field's divergence ratio stays O(1);
 *  - FFT and NUFFT: on the box lattice the spectral divergence
 *    sqrt(sum |k.v_k|^2) of a solenoidal field, and the curl of a
 *    compressive one, are below 1e-10 of sqrt(sum |k|^2 |v_k|^2) (2D and
 *    3D); the NUFFT's vector values at lattice cells equal the FFT
 *    method's within the requested accuracy 1e-11 (5 eps margin as in
 *    test_periodic); a vector plan's scalar-free layout: component c of
 *    point i at values[dim i + c], and the grid stream pushes count points
 *    of dim values;
 *  - alternating realizations 0, 1, 0, 1, 2, 1, 0 on one plan (two line
 *    sets kept) give the bytes of fresh plans, scalar and vector;
 *  - the grid stream of a mixed vector field (NUFFT grid and turning
 *    bands) pushes count cells of dim values, equal to execute;
 *  - the divergence and curl checks again with an anisotropic, rotated
 *    model;
 *  - bad input: vector kinds out of range, zeta outside [0, 1] or NaN for
 *    MIXED, realizations >= 2^62 refused. */
#include <complex.h>
#include <fftw3.h>

#include "methods/turning_bands/vector.h"
#include "support/testutil.h"

static void check_amplitudes(int dim)
{
    enum { L = 4096 };
    tu_rng rng = {17};
    double *axis = tu_malloc(sizeof(double) * 3 * L), *amp = tu_malloc(sizeof(double) * 3 * L);
    for (int i = 0; i < 3 * L; i++)
        axis[i] = (i % 3 < dim) ? tu_normal(&rng) * 7.0 : 0.0; /* any scale: normalised inside */
    for (int kind = 0; kind < 2; kind++) {
        tbrfi_vector_amplitudes(dim, L, axis, 5, 2, kind == 0 ? 1.0 : 0.0, amp);
        double worst = 0;
        for (int l = 0; l < L; l++) {
            double n2 = 0, ed = 0, e2 = 0, d[3];
            for (int c = 0; c < dim; c++)
                n2 += axis[3 * l + c] * axis[3 * l + c];
            for (int c = 0; c < dim; c++) {
                d[c] = axis[3 * l + c] / sqrt(n2);
                ed += amp[3 * l + c] * d[c];
                e2 += amp[3 * l + c] * amp[3 * l + c];
            }
            double bad = 0;
            if (kind == 0)
                bad = fabs(ed);
            else
                for (int c = 0; c < dim; c++)
                    bad += (amp[3 * l + c] - ed * d[c]) * (amp[3 * l + c] - ed * d[c]);
            worst = fmax(worst, (kind == 0 ? bad : sqrt(bad)) / sqrt(e2));
        }
        CHECK(worst <= 1e-15, "%dD %s: worst relative off-axis part %g", dim,
              kind == 0 ? "solenoidal e.d" : "compressive e_perp", worst);
    }
    free(axis);
    free(amp);
}

/* Where set, the models of the divergence checks are anisotropic and
 * rotated (tbrf_model_set_anisotropy): the lines' physical
 * axes R S^-1 u and the FFT's physical wavevectors are what the
 * projections must use for the field to stay divergence- (curl-) free in
 * physical coordinates. The factors keep the shortest length 0.6 of the
 * model's so that the same steps h resolve it. */
static int ANIS_ON;

static void maybe_anis(tbrf_model *m, int dim)
{
    const double s3[3] = {1, 0.6, 0.8}, a3[3] = {0.4, -0.7, 1.1};
    const double s2[3] = {1, 0.6, 1}, a2[3] = {0.4, 0, 0};
    if (ANIS_ON)
        CHECK(tbrf_model_set_anisotropy(m, dim == 3 ? s3 : s2, dim == 3 ? a3 : a2) == TBRF_OK,
              "set_anisotropy: %s", tbrf_model_message(m));
}

/* Mean over points of |div| / |grad| of a turning-bands vector field by
 * central differences of step h. */
static double tb_divergence_ratio(int kind, double h)
{
    tbrf_model *m = NULL;
    tbrf_model_gaussian(0.3, &m);
    maybe_anis(m, 3);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.vector = kind;
    o.lines = 256;
    o.oversampling = 16;
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    tbrf_plan *p = NULL;
    /* line spacing 0.008 / 16 = h_min / 40 */
    CHECK(tbrf_make_plan(m, 3, lo, hi, 0.008, 3, &o, &p) == TBRF_OK, "make: %s", tbrf_plan_message(p));
    enum { NP = 200 };
    tu_rng rng = {8};
    double *xyz = tu_malloc(sizeof(double) * 3 * 6 * NP), *v = tu_malloc(sizeof(double) * 3 * 6 * NP);
    for (int i = 0; i < NP; i++) {
        double x[3];
        for (int c = 0; c < 3; c++)
            x[c] = 0.2 + 0.6 * tu_uniform(&rng);
        for (int s = 0; s < 6; s++)
            for (int c = 0; c < 3; c++)
                xyz[3 * (6 * i + s) + c] = x[c] + (c == s / 2 ? (s % 2 ? h : -h) : 0.0);
    }
    CHECK(tbrf_set_points(p, 6 * NP, xyz) == TBRF_OK && tbrf_execute(p, 0, v) == TBRF_OK, "execute: %s",
          tbrf_plan_message(p));
    double sum = 0;
    for (int i = 0; i < NP; i++) {
        double div = 0, g2 = 0;
        for (int d = 0; d < 3; d++)
            for (int c = 0; c < 3; c++) {
                const double der = (v[3 * (6 * i + 2 * d + 1) + c] - v[3 * (6 * i + 2 * d) + c]) / (2 * h);
                g2 += der * der;
                if (c == d)
                    div += der;
            }
        sum += fabs(div) / sqrt(g2);
    }
    tbrf_destroy(p);
    tbrf_model_destroy(m);
    free(xyz);
    free(v);
    return sum / NP;
}

/* FFT method on a cubic lattice: spectral divergence (kind solenoidal) or
 * curl (compressive) over the gradient norm. */
static double spectral_ratio(int dim, int kind, int64_t n)
{
    tbrf_model *m = NULL;
    tbrf_model_gaussian(0.1, &m);
    maybe_anis(m, dim);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.vector = kind;
    const double orig[3] = {0.1, 0.2, 0.3}, L[3] = {1, 1, 1};
    const int64_t nn[3] = {n, n, dim == 3 ? n : 1};
    tbrf_plan *p = NULL;
    CHECK(tbrf_make_periodic_plan(m, dim, orig, L, nn, 4, &o, &p) == TBRF_OK, "make: %s", tbrf_plan_message(p));
    const double h[3] = {1.0 / n, 1.0 / n, 1.0 / n};
    CHECK(tbrf_set_grid(p, orig, h, nn) == TBRF_OK, "grid");
    CHECK(tbrf_plan_method(p) == TBRF_METHOD_FFT, "lattice runs FFT");
    const int64_t N = nn[0] * nn[1] * nn[2];
    double *v = tu_malloc(sizeof(double) * (size_t)(dim * N));
    CHECK(tbrf_execute(p, 1, v) == TBRF_OK, "execute: %s", tbrf_plan_message(p));
    fftw_complex *F[3];
    int dims[3] = {(int)nn[2], (int)n, (int)n};
    fftw_complex *in = fftw_malloc(sizeof(fftw_complex) * (size_t)N);
    for (int c = 0; c < dim; c++) {
        F[c] = fftw_malloc(sizeof(fftw_complex) * (size_t)N);
        for (int64_t i = 0; i < N; i++)
            in[i] = v[dim * i + c];
        fftw_plan pl = fftw_plan_dft(dim, dim == 3 ? dims : dims + 1, in, F[c], FFTW_FORWARD, FFTW_ESTIMATE);
        fftw_execute(pl);
        fftw_destroy_plan(pl);
    }
    double bad = 0, norm = 0;
    for (int64_t i = 0; i < N; i++) {
        double k[3] = {0, 0, 0};
        const int64_t id[3] = {i % n, (i / n) % n, i / (n * n)};
        for (int d = 0; d < dim; d++)
            k[d] = (double)(id[d] <= n / 2 ? id[d] : id[d] - n);
        double complex dot = 0, cr[3] = {0, 0, 0};
        double k2 = 0, v2 = 0;
        for (int d = 0; d < dim; d++) {
            dot += k[d] * F[d][i];
            k2 += k[d] * k[d];
            v2 += creal(F[d][i] * conj(F[d][i]));
        }
        if (dim == 3) {
            cr[0] = k[1] * F[2][i] - k[2] * F[1][i];
            cr[1] = k[2] * F[0][i] - k[0] * F[2][i];
            cr[2] = k[0] * F[1][i] - k[1] * F[0][i];
        } else
            cr[0] = k[0] * F[1][i] - k[1] * F[0][i];
        if (kind == TBRF_VECTOR_SOLENOIDAL)
            bad += creal(dot * conj(dot));
        else
            for (int d = 0; d < 3; d++)
                bad += creal(cr[d] * conj(cr[d]));
        norm += k2 * v2;
    }
    /* the NUFFT at the lattice cells equals the FFT's, per component */
    tbrf_opts o2 = o;
    o2.accuracy = 1e-11;
    tbrf_plan *q = NULL;
    CHECK(tbrf_make_periodic_plan(m, dim, orig, L, nn, 4, &o2, &q) == TBRF_OK, "make q");
    double *xyz = tu_malloc(sizeof(double) * (size_t)(dim * N)), *w = tu_malloc(sizeof(double) * (size_t)(dim * N));
    for (int64_t i = 0; i < N; i++) {
        const int64_t id[3] = {i % n, (i / n) % n, i / (n * n)};
        for (int d = 0; d < dim; d++)
            xyz[dim * i + d] = orig[d] + h[d] * (double)id[d];
    }
    CHECK(tbrf_set_points(q, N, xyz) == TBRF_OK && tbrf_execute(q, 1, w) == TBRF_OK, "nufft: %s",
          tbrf_plan_message(q));
    double err = 0, rms = 0;
    for (int64_t i = 0; i < dim * N; i++) {
        err = fmax(err, fabs(w[i] - v[i]));
        rms += v[i] * v[i];
    }
    rms = sqrt(rms / (double)(dim * N));
    CHECK(err <= 5e-11 * rms, "%dD kind %d: NUFFT vs FFT max error %g (rms %g)", dim, kind, err, rms);
    CHECK(tbrf_execute(q, (uint64_t)1 << 62, w) == TBRF_ERR_INVALID, "realization 2^62 refused");
    tbrf_destroy(q);
    for (int c = 0; c < dim; c++)
        fftw_free(F[c]);
    fftw_free(in);
    free(v);
    free(w);
    free(xyz);
    tbrf_destroy(p);
    tbrf_model_destroy(m);
    return sqrt(bad / norm);
}

/* Alternating realizations (the plan keeps two line sets) and moving
 * points give the bytes of fresh plans, scalar and vector. */
static void check_alternation(int kind)
{
    tbrf_model *m = NULL;
    tbrf_model_exponential(0.2, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.vector = kind;
    o.lines = 64;
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    enum { NP = 50 };
    double xyz[3 * NP], ref[2][3 * NP], v[3 * NP];
    tu_rng rng = {4};
    for (int i = 0; i < 3 * NP; i++)
        xyz[i] = tu_uniform(&rng);
    for (int r = 0; r < 2; r++) {
        tbrf_plan *f = NULL;
        CHECK(tbrf_make_plan(m, 3, lo, hi, 0.05, 8, &o, &f) == TBRF_OK, "fresh");
        CHECK(tbrf_set_points(f, NP, xyz) == TBRF_OK && tbrf_execute(f, (uint64_t)r, ref[r]) == TBRF_OK, "fresh");
        tbrf_destroy(f);
    }
    tbrf_plan *p = NULL;
    CHECK(tbrf_make_plan(m, 3, lo, hi, 0.05, 8, &o, &p) == TBRF_OK, "make");
    CHECK(tbrf_set_points(p, NP, xyz) == TBRF_OK, "points");
    const int seq[7] = {0, 1, 0, 1, 2, 1, 0};
    const size_t bytes = sizeof(double) * (size_t)(kind ? 3 : 1) * NP;
    for (int i = 0; i < 7; i++) {
        CHECK(tbrf_execute(p, (uint64_t)seq[i], v) == TBRF_OK, "execute");
        if (seq[i] < 2)
            CHECK(memcmp(v, ref[seq[i]], bytes) == 0, "kind %d step %d: realization %d differs from a fresh plan",
                  kind, i, seq[i]);
    }
    tbrf_destroy(p);
    tbrf_model_destroy(m);
}

typedef struct { double *out; int dim; int64_t pushed; } push_ctx;
static int push_vec(void *u, int64_t first, int64_t count, const void *values)
{
    push_ctx *c = u;
    memcpy(c->out + (size_t)c->dim * (size_t)first, values, sizeof(double) * (size_t)(c->dim * count));
    c->pushed += count;
    return 0;
}

/* A vector periodic plan on a grid off the lattice (NUFFT) and a vector
 * turning-bands grid: the grid stream pushes count cells of dim values,
 * the same as execute. */
static void check_vector_stream(void)
{
    tbrf_model *m = NULL;
    tbrf_model_gaussian(0.2, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.vector = TBRF_VECTOR_MIXED;
    o.zeta = 0.7;
    o.chunk = 20;
    const double orig[3] = {0, 0, 0}, L[3] = {1, 1, 1}, go[3] = {0.1, 0.2, 0.3}, gs[3] = {0.05, 0.06, 0.07};
    const int64_t nn[3] = {16, 16, 16}, gn[3] = {7, 6, 5};
    enum { NC = 7 * 6 * 5 };
    double a[3 * NC], b[3 * NC];
    for (int periodic = 0; periodic < 2; periodic++) {
        tbrf_plan *p = NULL;
        const double hi[3] = {1, 1, 1};
        int st = periodic ? tbrf_make_periodic_plan(m, 3, orig, L, nn, 6, &o, &p)
                          : tbrf_make_plan(m, 3, orig, hi, 0.05, 6, &o, &p);
        CHECK(st == TBRF_OK, "make: %s", tbrf_plan_message(p));
        CHECK(tbrf_set_grid(p, go, gs, gn) == TBRF_OK && tbrf_execute(p, 2, a) == TBRF_OK, "execute: %s",
              tbrf_plan_message(p));
        push_ctx c = {b, 3, 0};
        CHECK(tbrf_execute_grid_stream(p, 2, push_vec, &c) == TBRF_OK, "stream: %s", tbrf_plan_message(p));
        CHECK(c.pushed == NC, "pushed %lld cells", (long long)c.pushed);
        CHECK(memcmp(a, b, sizeof a) == 0, "%s: vector grid stream differs from execute",
              periodic ? "NUFFT" : "turning bands");
        tbrf_destroy(p);
    }
    tbrf_model_destroy(m);
}

static void check_bad_input(void)
{
    tbrf_model *m = NULL;
    tbrf_model_gaussian(0.1, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    tbrf_plan *p = NULL;
    o.vector = 4;
    CHECK(tbrf_make_plan(m, 3, lo, hi, 0.1, 1, &o, &p) == TBRF_ERR_INVALID, "vector 4");
    CHECK(strstr(tbrf_plan_message(p), "opts.vector") != NULL, "message: %s", tbrf_plan_message(p));
    tbrf_destroy(p);
    o.vector = TBRF_VECTOR_MIXED;
    o.zeta = 1.5;
    CHECK(tbrf_make_plan(m, 3, lo, hi, 0.1, 1, &o, &p) == TBRF_ERR_INVALID, "zeta 1.5");
    CHECK(strstr(tbrf_plan_message(p), "zeta") != NULL, "message: %s", tbrf_plan_message(p));
    tbrf_destroy(p);
    o.zeta = NAN;
    CHECK(tbrf_make_plan(m, 3, lo, hi, 0.1, 1, &o, &p) == TBRF_ERR_INVALID, "zeta NaN");
    tbrf_destroy(p);
    o.vector = TBRF_VECTOR_SOLENOIDAL; /* zeta ignored */
    CHECK(tbrf_make_plan(m, 3, lo, hi, 0.1, 1, &o, &p) == TBRF_OK, "solenoidal ignores zeta");
    const double x[6] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
    double v[6];
    CHECK(tbrf_set_points(p, 2, x) == TBRF_OK && tbrf_execute(p, 3, v) == TBRF_OK, "execute");
    CHECK(tbrf_execute(p, UINT64_MAX, v) == TBRF_ERR_INVALID, "realization 2^64-1 refused");
    tbrf_destroy(p);
    tbrf_model_destroy(m);
}

int main(void)
{
    check_amplitudes(3);
    check_amplitudes(2);
    for (ANIS_ON = 0; ANIS_ON < 2; ANIS_ON++) {
        const char *what = ANIS_ON ? "anisotropic" : "isotropic";
        const double r1 = tb_divergence_ratio(TBRF_VECTOR_SOLENOIDAL, 0.04);
        const double r2 = tb_divergence_ratio(TBRF_VECTOR_SOLENOIDAL, 0.02);
        const double rc = tb_divergence_ratio(TBRF_VECTOR_COMPRESSIVE, 0.02);
        printf("%s turning bands |div|/|grad|: h 0.04 %.3g, h 0.02 %.3g (ratio %.2f); compressive "
               "%.3g\n", what, r1, r2, r1 / r2, rc);
        CHECK(r1 / r2 >= 3 && r1 / r2 <= 5, "%s: divergence ratio falls %g times when h halves, "
              "not ~4", what, r1 / r2);
        CHECK(r2 < 0.05 && rc > 0.2, "%s: solenoidal %g should be small, compressive %g O(1)", what,
              r2, rc);
        for (int dim = 2; dim <= 3; dim++) {
            const double s = spectral_ratio(dim, TBRF_VECTOR_SOLENOIDAL, 16);
            const double c = spectral_ratio(dim, TBRF_VECTOR_COMPRESSIVE, 16);
            printf("%s %dD spectral divergence of solenoidal %.3g, curl of compressive %.3g\n", what,
                   dim, s, c);
            CHECK(s < 1e-10, "%s %dD solenoidal: spectral divergence ratio %g", what, dim, s);
            CHECK(c < 1e-10, "%s %dD compressive: spectral curl ratio %g", what, dim, c);
        }
    }
    ANIS_ON = 0;
    check_alternation(TBRF_SCALAR);
    check_alternation(TBRF_VECTOR_SOLENOIDAL);
    check_vector_stream();
    check_bad_input();
    return check_report("test_vector");
}
