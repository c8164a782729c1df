/* test_drive_backends.c [cpu|opencl|cuda] — turbulence drivers on a
 * backend (tbrf_driver_set_backend, doc/driving.md, "Backends").
 *
 * With a GPU backend (exit 77 when it is not built or has no device):
 *  - periodic box, 3D and 2D, points (some outside the box) and a grid:
 *    the GPU's direct sum agrees with the CPU's within TOL_BOX of the
 *    largest |f| (why that tolerance: below); the GPU's grid equals its
 *    points bitwise; eval NUFFT runs on the CPU whatever the backend, so
 *    its values are the CPU's bits; AUTO becomes the direct sum there;
 *  - non-periodic domain (turning bands), 3D and 2D, points and a grid:
 *    the projection of the same host lines in double is bitwise the CPU's
 *    (doc/gpu.md, "Kernels and precision"), so memcmp;
 *  - state portability: the state saved at the same time by drivers made
 *    alike on the CPU (1 thread, eval DIRECT), the CPU (2 threads, eval
 *    NUFFT or AUTO) and the GPU backend is the same bytes, and each loads
 *    the others' and then continues as a fresh driver of its own kind.
 * With `cuda-faults` (the CUDA emulator): every device allocation of a
 * box's and a domain's sums fails in turn (faults(), below).
 * With `cpu` (always runs): the refusals: every backend this build lacks
 * gives TBRF_ERR_NOT_BUILT with a message saying so, one without a device
 * TBRF_ERR_NO_DEVICE, an unknown backend or device TBRF_ERR_INVALID; the
 * driver keeps working on its backend after a refusal; the portability of
 * the state across threads and eval on the CPU alone; the memory budget
 * (TBRF_MEMORY_BUDGET): malformed, below the NUFFT's fine grids (AUTO sums
 * directly, an explicit NUFFT is refused), below the modes or the lines.
 *
 * TOL_BOX. The CPU raises e^{i theta_d} to the power m_d by products
 * (~m ulps); a GPU work-item takes cos and sin of 2 pi frac(m . t), whose
 * argument carries a few ulps of |m . t|. Each term thus differs by about
 * (|m|_1 + 4) ulps of |c_m| (4: the device's sin/cos, which OpenCL allows
 * to be 4 ulps off in double, CUDA 2), and the sum by that times
 * sum_m |c_m| <= sqrt(nm) (sum |c_m|^2)^(1/2) ~ sqrt(nm) f_rms. Here the
 * band 2 pi..6 pi of a box of ~1 has |m_d| <= 3 and nm ~ 60-120: (9 + 4)
 * x 1.1e-16 x sqrt(120) ~ 1.6e-14 of f_rms, and max |f| is a few f_rms,
 * so ~1e-14 of max |f| at worst; TOL_BOX = 1e-12 leaves a factor 100
 * (measured: 1.3e-15 on PoCL and the CUDA emulator) and is far below what
 * a wrong mode, phase or sign gives (order one). For |m_d| up to 511 the
 * same bound gives ~1e-10, the figure doc/driving.md states. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include <unistd.h>

#include "support/testutil.h"

#define TOL_BOX 1e-12

static const double PI = 3.14159265358979323846;
static int backend = TBRF_BACKEND_OPENCL;
static tbrf_model *model;

static tbrf_driver_params params(int dim, int periodic, int eval, int threads)
{
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.dim = dim;
    p.periodic = periodic;
    p.zeta = 0.6;
    p.tcorr = 0.5;
    p.rms = 2.0;
    p.interpolate = 1;
    p.eval = eval;
    p.threads = threads;
    for (int c = 0; c < 3; c++) {
        p.origin[c] = periodic ? 0.0 : -0.5 + 0.25 * c;
        p.length[c] = 1.0 + 0.125 * c;
    }
    return p;
}

/* A driver on backend b (CPU when b < 0). */
static tbrf_driver *make(const tbrf_driver_params *p, int b)
{
    tbrf_driver *d = NULL;
    int st = tbrf_driver_make(model, 9, p, &d);
    CHECK(st == TBRF_OK, "driver_make: %s", tbrf_driver_message(d));
    if (st == TBRF_OK && b >= 0) {
        st = tbrf_driver_set_backend(d, b, -1);
        CHECK(st == TBRF_OK, "set_backend %s: %s", tbrf_backend_name(b), tbrf_driver_message(d));
    }
    return d;
}

static double max_abs(const double *a, int64_t n)
{
    double m = 0.0;
    for (int64_t i = 0; i < n; i++)
        m = fmax(m, fabs(a[i]));
    return m;
}

/* max |a - b| / max |a|, and whether every value is finite. */
static double rel(const double *a, const double *b, int64_t n)
{
    double m = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(b[i]))
            return INFINITY;
        m = fmax(m, fabs(a[i] - b[i]));
    }
    return m / max_abs(a, n);
}

/* The force of driver d at time t: np points x into v, the grid into g. */
static void eval(tbrf_driver *d, double t, int dim, int64_t np, const double *x, double *v,
                 const double o[3], const double h[3], const int64_t n[3], double *g)
{
    CHECK(tbrf_driver_points(d, t, np, x, v) == TBRF_OK, "points: %s", tbrf_driver_message(d));
    CHECK(tbrf_driver_grid(d, t, o, h, n, g) == TBRF_OK, "grid: %s", tbrf_driver_message(d));
    (void)dim;
}

/* The grid's cells as points, x-fastest. */
static double *cells(int dim, const double o[3], const double h[3], const int64_t n[3])
{
    const int64_t total = n[0] * n[1] * n[2];
    double *x = tu_malloc(sizeof(double) * (size_t)(dim * total));
    for (int64_t c = 0; c < total; c++) {
        const int64_t i[3] = {c % n[0], (c / n[0]) % n[1], c / (n[0] * n[1])};
        for (int k = 0; k < dim; k++)
            x[dim * c + k] = o[k] + h[k] * (double)i[k];
    }
    return x;
}

/* CPU against the backend on one geometry (periodic or not, dim). */
static void agreement(int dim, int periodic)
{
    const char *what = periodic ? "box" : "domain";
    tbrf_driver_params p = params(dim, periodic, TBRF_DRIVE_AUTO, 0);
    tu_rng rng = {11u + (unsigned)dim};
    double lo[3], hi[3];
    for (int c = 0; c < 3; c++) {
        /* a box's points also outside it (the force is periodic) */
        lo[c] = periodic ? -0.7 : p.origin[c];
        hi[c] = periodic ? 2.1 : p.origin[c] + p.length[c];
    }
    const int64_t np = 1500, n[3] = {13, 10, dim == 3 ? 7 : 1};
    const double h[3] = {p.length[0] / 13.0, p.length[1] / 10.0, dim == 3 ? p.length[2] / 7.0 : 1.0};
    const int64_t total = n[0] * n[1] * n[2];
    double *x = tu_random_points(&rng, np, dim, lo, hi);
    double *vc = tu_malloc(sizeof(double) * (size_t)(dim * np)), *vg = tu_malloc(sizeof(double) * (size_t)(dim * np));
    double *gc = tu_malloc(sizeof(double) * (size_t)(dim * total)), *gg = tu_malloc(sizeof(double) * (size_t)(dim * total));
    tbrf_driver *c = make(&p, -1), *g = make(&p, backend);
    CHECK(tbrf_driver_backend(g) == backend, "%s %dD: tbrf_driver_backend %d", what, dim,
          tbrf_driver_backend(g));
    for (double t = 0.0; t < 1.0; t += 0.37) {
        eval(c, t, dim, np, x, vc, p.origin, h, n, gc);
        eval(g, t, dim, np, x, vg, p.origin, h, n, gg);
        CHECK(max_abs(vc, dim * np) > 0.1, "%s %dD: the force is not zero", what, dim);
        if (periodic) {
            const double rp = rel(vc, vg, dim * np), rg = rel(gc, gg, dim * total);
            CHECK(rp <= TOL_BOX, "%s %dD t=%.2f points: %s agrees with the cpu to %.2e", what, dim, t,
                  tbrf_backend_name(backend), rp);
            CHECK(rg <= TOL_BOX, "%s %dD t=%.2f grid: %s agrees with the cpu to %.2e", what, dim, t,
                  tbrf_backend_name(backend), rg);
            if (t == 0.0)
                printf("  %s %dD: %s vs cpu: points %.2e, grid %.2e of max |f|\n", what, dim,
                       tbrf_backend_name(backend), rp, rg);
        } else {
            CHECK(memcmp(vc, vg, sizeof(double) * (size_t)(dim * np)) == 0,
                  "%s %dD t=%.2f points: %s gives the cpu's bits (rel %.2e)", what, dim, t,
                  tbrf_backend_name(backend), rel(vc, vg, dim * np));
            CHECK(memcmp(gc, gg, sizeof(double) * (size_t)(dim * total)) == 0,
                  "%s %dD t=%.2f grid: %s gives the cpu's bits (rel %.2e)", what, dim, t,
                  tbrf_backend_name(backend), rel(gc, gg, dim * total));
        }
    }
    /* on the backend, the grid is its cells as points, bit for bit */
    double *xc = cells(dim, p.origin, h, n);
    double *vx = tu_malloc(sizeof(double) * (size_t)(dim * total));
    CHECK(tbrf_driver_points(g, 0.74, total, xc, vx) == TBRF_OK, "points: %s", tbrf_driver_message(g));
    CHECK(memcmp(vx, gg, sizeof(double) * (size_t)(dim * total)) == 0 || !periodic,
          "%s %dD: on %s the grid equals its cells as points", what, dim, tbrf_backend_name(backend));
    if (periodic) {
        tbrf_driver_info info;
        tbrf_driver_get_info(g, &info);
        CHECK(info.eval == TBRF_DRIVE_DIRECT, "box %dD: AUTO on %s sums directly (eval %d)", dim,
              tbrf_backend_name(backend), (int)info.eval);
        /* the NUFFT stays on the CPU: the CPU's bits */
        tbrf_driver_params q = params(dim, 1, TBRF_DRIVE_NUFFT, 0);
        tbrf_driver *nc = make(&q, -1), *ng = make(&q, backend);
        CHECK(tbrf_driver_points(nc, 0.5, np, x, vc) == TBRF_OK, "nufft cpu: %s", tbrf_driver_message(nc));
        CHECK(tbrf_driver_points(ng, 0.5, np, x, vg) == TBRF_OK, "nufft %s: %s", tbrf_backend_name(backend),
              tbrf_driver_message(ng));
        CHECK(memcmp(vc, vg, sizeof(double) * (size_t)(dim * np)) == 0, "box %dD: eval NUFFT on %s gives "
              "the cpu's bits", dim, tbrf_backend_name(backend));
        tbrf_driver_destroy(nc);
        tbrf_driver_destroy(ng);
    }
    tbrf_driver_destroy(c);
    tbrf_driver_destroy(g);
    free(x);
    free(xc);
    free(vx);
    free(vc);
    free(vg);
    free(gc);
    free(gg);
}

/* Drivers made alike on other backends, threads and evals save the same
 * bytes, and load each other's. gpu: include the backend's drivers. */
static void portability(int periodic, int gpu)
{
    const char *what = periodic ? "box" : "domain";
    const int ev2 = periodic ? TBRF_DRIVE_NUFFT : TBRF_DRIVE_AUTO;
    tbrf_driver_params pa = params(3, periodic, periodic ? TBRF_DRIVE_DIRECT : TBRF_DRIVE_AUTO, 1);
    tbrf_driver_params pb = params(3, periodic, ev2, 2);
    tbrf_driver_params pc = params(3, periodic, TBRF_DRIVE_AUTO, 3);
    tbrf_driver *d[3] = {make(&pa, -1), make(&pb, -1), make(&pc, gpu ? backend : -1)};
    const double fr[9] = {0.1, 0.2, 0.3, 0.45, 0.55, 0.65, 0.9, 0.05, 0.7};
    double x[9], v[9], w[9];
    for (int i = 0; i < 9; i++) /* inside the domain */
        x[i] = pa.origin[i % 3] + fr[i] * pa.length[i % 3];
    for (int k = 0; k < 3; k++)
        CHECK(tbrf_driver_points(d[k], 0.73, 3, x, v) == TBRF_OK, "points: %s", tbrf_driver_message(d[k]));
    const int64_t size = tbrf_driver_state_size(d[0]);
    unsigned char *s[3];
    for (int k = 0; k < 3; k++) {
        CHECK(tbrf_driver_state_size(d[k]) == size, "%s: the state sizes agree", what);
        s[k] = tu_malloc((size_t)size);
        CHECK(tbrf_driver_save(d[k], s[k], size) == TBRF_OK, "save: %s", tbrf_driver_message(d[k]));
    }
    CHECK(memcmp(s[0], s[1], (size_t)size) == 0 && memcmp(s[0], s[2], (size_t)size) == 0,
          "%s: the saved states of drivers on other threads, eval%s are the same bytes", what,
          gpu ? " and backend" : "");
    /* each loads the others' state into a fresh driver of its kind, and
     * continues as that kind's driver does from t = 0 */
    const tbrf_driver_params *pp[3] = {&pa, &pb, &pc};
    for (int k = 0; k < 3; k++)
        for (int from = 0; from < 3; from++) {
            if (from == k)
                continue;
            tbrf_driver *r = make(pp[k], k == 2 && gpu ? backend : -1);
            int st = tbrf_driver_load(r, s[from], size);
            CHECK(st == TBRF_OK, "%s: driver %d loads driver %d's state: %s", what, k, from,
                  tbrf_driver_message(r));
            CHECK(tbrf_driver_points(r, 1.31, 3, x, v) == TBRF_OK, "points: %s", tbrf_driver_message(r));
            CHECK(tbrf_driver_points(d[k], 1.31, 3, x, w) == TBRF_OK, "points: %s", tbrf_driver_message(d[k]));
            CHECK(memcmp(v, w, sizeof v) == 0, "%s: driver %d continues bitwise from driver %d's state",
                  what, k, from);
            tbrf_driver_destroy(r);
        }
    for (int k = 0; k < 3; k++) {
        tbrf_driver_destroy(d[k]);
        free(s[k]);
    }
}

/* What a driver answers for backends it cannot use. */
static void refusals(void)
{
    tbrf_driver_params p = params(3, 1, TBRF_DRIVE_AUTO, 0);
    tbrf_driver *d = make(&p, -1);
    const double x[3] = {0.1, 0.2, 0.3};
    double v0[3], v1[3];
    CHECK(tbrf_driver_points(d, 0.3, 1, x, v0) == TBRF_OK, "points: %s", tbrf_driver_message(d));
    const int ids[2] = {TBRF_BACKEND_OPENCL, TBRF_BACKEND_CUDA};
    for (int i = 0; i < 2; i++) {
        const int av = tbrf_backend_available(ids[i]);
        const int st = tbrf_driver_set_backend(d, ids[i], -1);
        if (av == TBRF_ERR_NOT_BUILT) {
            CHECK(st == TBRF_ERR_NOT_BUILT, "%s not built: status %d", tbrf_backend_name(ids[i]), st);
            CHECK(strstr(tbrf_driver_message(d), "not built") != NULL, "message: %s", tbrf_driver_message(d));
        } else if (av == TBRF_ERR_NO_DEVICE) {
            CHECK(st == TBRF_ERR_NO_DEVICE, "%s without a device: status %d", tbrf_backend_name(ids[i]), st);
            CHECK(strstr(tbrf_driver_message(d), "no usable device") != NULL, "message: %s",
                  tbrf_driver_message(d));
        } else {
            CHECK(st == TBRF_OK, "%s available: %s", tbrf_backend_name(ids[i]), tbrf_driver_message(d));
            CHECK(tbrf_driver_set_backend(d, TBRF_BACKEND_CPU, -1) == TBRF_OK, "back to the cpu");
        }
        printf("  %s: %s\n", tbrf_backend_name(ids[i]), st ? tbrf_driver_message(d) : "available");
    }
    CHECK(tbrf_driver_set_backend(d, 7, -1) == TBRF_ERR_INVALID, "an unknown backend refused");
    CHECK(tbrf_driver_set_backend(d, TBRF_BACKEND_CPU, -2) == TBRF_ERR_INVALID, "device -2 refused");
    CHECK(tbrf_driver_set_backend(NULL, TBRF_BACKEND_CPU, -1) == TBRF_ERR_NULL, "NULL driver");
    CHECK(tbrf_driver_backend(d) == TBRF_BACKEND_CPU, "still the cpu");
    CHECK(tbrf_driver_points(d, 0.3, 1, x, v1) == TBRF_OK && memcmp(v0, v1, sizeof v0) == 0,
          "after the refusals the driver gives the same bits");
    /* AUTO on a machine without a GPU is the CPU, whose values are the CPU's */
    CHECK(tbrf_driver_set_backend(d, TBRF_BACKEND_AUTO, -1) == TBRF_OK, "auto: %s", tbrf_driver_message(d));
    const int used = tbrf_driver_backend(d);
    CHECK(used >= TBRF_BACKEND_CPU && used < TBRF_BACKEND_AUTO, "auto resolved to %d", used);
    tbrf_driver_destroy(d);
    /* a failed driver refuses a backend with BAD_PLAN */
    p.zeta = 2.0;
    tbrf_driver_make(model, 9, &p, &d);
    CHECK(tbrf_driver_set_backend(d, TBRF_BACKEND_CPU, -1) == TBRF_ERR_BAD_PLAN, "failed driver");
    CHECK(tbrf_driver_backend(d) == -1 && tbrf_driver_backend(NULL) == -1, "no backend for a failed driver");
    tbrf_driver_destroy(d);
}

/* The memory budget (tbrf_memory_budget) bounds every driver: a
 * malformed TBRF_MEMORY_BUDGET is refused at make; a budget that holds
 * the modes but not the NUFFT's fine grids makes AUTO sum directly (the
 * direct sum's bits) and an explicit NUFFT TBRF_ERR_SIZE; one that holds
 * not even the modes, or a domain's lines, refuses the make. */
static void budget(void)
{
    tbrf_model *wide = NULL;
    CHECK(tbrf_model_band(2.0 * PI, 60.0, &wide) == TBRF_OK, "band model");
    tbrf_driver_params p = params(3, 1, TBRF_DRIVE_AUTO, 0);
    p.length[0] = 0.7, p.length[1] = 0.9, p.length[2] = 1.3; /* 1487 modes: AUTO takes the NUFFT */
    tbrf_driver *d = NULL, *r = NULL;
    tbrf_driver_info info;
    CHECK(tbrf_driver_make(wide, 9, &p, &d) == TBRF_OK && tbrf_driver_get_info(d, &info) == TBRF_OK &&
          info.eval == TBRF_DRIVE_NUFFT && info.modes == 1487, "default budget: AUTO is the NUFFT "
          "(eval %d, %lld modes)", (int)info.eval, (long long)info.modes);
    tbrf_driver_destroy(d);
    setenv("TBRF_MEMORY_BUDGET", "lots", 1);
    CHECK(tbrf_driver_make(wide, 9, &p, &d) == TBRF_ERR_INVALID &&
          strstr(tbrf_driver_message(d), "TBRF_MEMORY_BUDGET") != NULL, "a malformed budget refused: %s",
          tbrf_driver_message(d));
    tbrf_driver_destroy(d);
    /* the modes' arrays take 1487 x 236 bytes = 343 KiB, the fine grids
     * more than 1 MiB (3 components of at least 28 x 36 x 52 doubles) */
    setenv("TBRF_MEMORY_BUDGET", "600K", 1);
    CHECK(tbrf_driver_make(wide, 9, &p, &d) == TBRF_OK && tbrf_driver_get_info(d, &info) == TBRF_OK &&
          info.eval == TBRF_DRIVE_DIRECT, "600 KiB: AUTO sums directly (eval %d): %s", (int)info.eval,
          tbrf_driver_message(d));
    const double x[6] = {0.1, 0.2, 0.3, 0.45, 0.85, 1.2};
    double v[6], w[6];
    tbrf_driver_params q = p;
    q.eval = TBRF_DRIVE_DIRECT;
    CHECK(tbrf_driver_make(wide, 9, &q, &r) == TBRF_OK, "direct: %s", tbrf_driver_message(r));
    CHECK(tbrf_driver_points(d, 0.4, 2, x, v) == TBRF_OK && tbrf_driver_points(r, 0.4, 2, x, w) == TBRF_OK &&
          memcmp(v, w, sizeof v) == 0, "AUTO under the budget gives the direct sum's bits");
    tbrf_driver_destroy(d);
    tbrf_driver_destroy(r);
    q.eval = TBRF_DRIVE_NUFFT;
    CHECK(tbrf_driver_make(wide, 9, &q, &d) == TBRF_ERR_SIZE &&
          strstr(tbrf_driver_message(d), "memory budget") != NULL, "an explicit NUFFT over the budget: %s",
          tbrf_driver_message(d));
    tbrf_driver_destroy(d);
    setenv("TBRF_MEMORY_BUDGET", "100K", 1);
    CHECK(tbrf_driver_make(wide, 9, &p, &d) == TBRF_ERR_SIZE &&
          strstr(tbrf_driver_message(d), "modes' arrays") != NULL, "100 KiB: the modes refused: %s",
          tbrf_driver_message(d));
    tbrf_driver_destroy(d);
    q = params(3, 0, TBRF_DRIVE_AUTO, 0);
    CHECK(tbrf_driver_make(model, 9, &q, &d) == TBRF_ERR_SIZE &&
          strstr(tbrf_driver_message(d), "lines") != NULL, "100 KiB: a domain's lines refused: %s",
          tbrf_driver_message(d));
    tbrf_driver_destroy(d);
    unsetenv("TBRF_MEMORY_BUDGET");
    tbrf_model_destroy(wide);
}

/* On the CUDA emulator (cuda-faults): the n-th device allocation fails
 * (TBRF_CUDA_EMU_FAIL_ALLOC), for every n that a box's and a domain's
 * point sums make: the call fails with TBRF_ERR_NO_MEMORY and the
 * emulator's "out of memory" in the message, and the same driver then
 * gives the values of a driver that never failed. */
static void faults(void)
{
    const double fr[9] = {0.1, 0.2, 0.3, 0.45, 0.55, 0.65, 0.9, 0.05, 0.7};
    for (int periodic = 1; periodic >= 0; periodic--) {
        tbrf_driver_params p = params(3, periodic, TBRF_DRIVE_AUTO, 0);
        double x[9], ref[9], v[9];
        for (int i = 0; i < 9; i++)
            x[i] = p.origin[i % 3] + fr[i] * p.length[i % 3];
        tbrf_driver *r = make(&p, backend);
        CHECK(tbrf_driver_points(r, 0.6, 3, x, ref) == TBRF_OK, "reference: %s", tbrf_driver_message(r));
        tbrf_driver_destroy(r);
        int n = 1, failed = 0;
        for (; n < 64; n++) {
            tbrf_driver *d = make(&p, backend);
            char at[16];
            snprintf(at, sizeof at, "%d", n);
            setenv("TBRF_CUDA_EMU_FAIL_ALLOC", at, 1);
            const int st = tbrf_driver_points(d, 0.6, 3, x, v);
            unsetenv("TBRF_CUDA_EMU_FAIL_ALLOC");
            if (st == TBRF_OK) { /* no n-th allocation: every one failed once */
                CHECK(memcmp(v, ref, sizeof v) == 0, "%s: the values without a failure",
                      periodic ? "box" : "domain");
                tbrf_driver_destroy(d);
                break;
            }
            failed++;
            CHECK(st == TBRF_ERR_NO_MEMORY && strstr(tbrf_driver_message(d), "out of memory") != NULL,
                  "%s, allocation %d fails: status %d, %s", periodic ? "box" : "domain", n, st,
                  tbrf_driver_message(d));
            CHECK(tbrf_driver_points(d, 0.6, 3, x, v) == TBRF_OK && memcmp(v, ref, sizeof v) == 0,
                  "%s, allocation %d: the driver recovers: %s", periodic ? "box" : "domain", n,
                  tbrf_driver_message(d));
            tbrf_driver_destroy(d);
        }
        CHECK(failed >= 2 && n < 64, "%s: %d allocations failed in turn", periodic ? "box" : "domain", failed);
        printf("  %s: %d allocations failed in turn, each refused and recovered\n",
               periodic ? "box" : "domain", failed);
    }
}

int main(int argc, char **argv)
{
    if (tbrf_model_band(2.0 * PI, 6.0 * PI, &model) != TBRF_OK)
        return 1;
    if (argc > 1 && strcmp(argv[1], "cpu") == 0) {
        refusals();
        budget();
        portability(1, 0);
        portability(0, 0);
        tbrf_model_destroy(model);
        return check_report("test_drive_backends cpu");
    }
    const int fault = argc > 1 && strcmp(argv[1], "cuda-faults") == 0;
    if (argc > 1 && (strcmp(argv[1], "cuda") == 0 || fault))
        backend = TBRF_BACKEND_CUDA;
    const char *name = tbrf_backend_name(backend);
    const int av = tbrf_backend_available(backend);
    if (av != TBRF_OK) {
        printf("SKIP test_drive_backends %s: %s\n", name, tbrf_strerror(av));
        tbrf_model_destroy(model);
        return 77;
    }
    if (!getenv("TBRF_WISDOM")) {
        char wisdom[256];
        snprintf(wisdom, sizeof wisdom, "/tmp/tbrf-test-wisdom-%ld", (long)getpid());
        setenv("TBRF_WISDOM", wisdom, 1);
    }
    printf("test_drive_backends: backend %s\n", name);
    if (fault) {
        faults();
        tbrf_model_destroy(model);
        return check_report("test_drive_backends cuda-faults");
    }
    agreement(3, 1);
    agreement(2, 1);
    agreement(3, 0);
    agreement(2, 0);
    portability(1, 1);
    portability(0, 1);
    tbrf_model_destroy(model);
    return check_report("test_drive_backends");
}
