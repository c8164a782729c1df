/* test_cuda_emulated.c — what the CUDA backend must survive that only the
 * CPU emulator of the CUDA runtime (tests/backends/cuda_emulator) can stage on a
 * machine without a GPU. Built only with -DTBRF_CUDA_EMULATOR=ON.
 *
 *   test_cuda_emulated big     a float grid and a point set whose values
 *                              are larger than the device memory
 *                              (TBRF_CUDA_EMU_MEMORY_MIB, set by ctest)
 *                              come out in chunks and agree with the CPU
 *                              backend to 1e-5 (doc/gpu.md's tolerance)
 *   test_cuda_emulated faults  the n-th device or pinned allocation fails
 *                              (TBRF_CUDA_EMU_FAIL_ALLOC), for every n
 *                              until a run succeeds: each failure is
 *                              TBRF_ERR_NO_MEMORY with a message, never a
 *                              crash, and the same plan then executes to
 *                              the right bits; the emulator's exit check
 *                              finds no device memory left allocated.
 *   test_cuda_emulated no-image  a GPU the kernels were not built for
 *                              (TBRF_CUDA_EMU_NO_KERNEL_IMAGE=1): make_plan
 *                              fails with TBRF_ERR_NO_DEVICE and a message
 *                              that says how to rebuild; `auto` passes over
 *                              it to another backend.
 *   test_cuda_emulated device  with two devices, a caller working on
 *                              device 1 finds it still current after a
 *                              plan on device 0 was made, executed and
 *                              destroyed, and after Monte Carlo on it. */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"

#include <string.h>

#include <cuda_runtime_api.h> /* the emulator's: the caller's own CUDA calls */

static tbrf_model *model;
static const double LO[3] = {0, 0, 0};

static tbrf_plan *cuda_plan(const double hi[3], int precision, int lines, int backend)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.backend = backend;
    o.precision = precision;
    o.lines = lines;
    o.work_group = 128; /* no tuning: every run makes the same allocations */
    o.unroll = 4;
    return tu_plan(model, 3, LO, hi, 1.0, 99, &o);
}

static void big(void)
{
    const char *mib = getenv("TBRF_CUDA_EMU_MEMORY_MIB");
    REQUIRE(mib && atol(mib) > 0, , "TBRF_CUDA_EMU_MEMORY_MIB is not set");
    const int64_t n[3] = {256, 256, 48}, cells = n[0] * n[1] * n[2];
    const double hi[3] = {256, 256, 48}, origin[3] = {0.5, 0.5, 0.5}, step[3] = {1, 1, 1};
    const size_t bytes = (size_t)cells * sizeof(float);
    CHECK(bytes > ((size_t)atol(mib) << 20), "the grid (%zu bytes) fits the device (%s MiB)", bytes, mib);
    float *g = tu_malloc(bytes), *c = tu_malloc(bytes);
    tbrf_plan *pg = cuda_plan(hi, TBRF_FLOAT, 32, TBRF_BACKEND_CUDA);
    tbrf_plan *pc = cuda_plan(hi, TBRF_FLOAT, 32, TBRF_BACKEND_CPU);
    REQUIRE(pg && pc, , "plans");
    CHECK(tbrf_set_grid(pg, origin, step, n) == TBRF_OK && tbrf_set_grid(pc, origin, step, n) == TBRF_OK,
          "set_grid");
    if (tu_execute(pg, 0, g) == TBRF_OK && tu_execute(pc, 0, c) == TBRF_OK) {
        double d = tu_rel_diff(g, c, TBRF_FLOAT, cells);
        printf("grid %lldx%lldx%lld float (%.1f MiB) on a %s MiB device: max|gpu-cpu|/max|cpu| = %.3g\n",
               (long long)n[0], (long long)n[1], (long long)n[2], (double)bytes / (1 << 20), mib, d);
        CHECK(d <= 1e-5, "grid differs from the CPU backend: %g", d);
    }
    /* points: 3 doubles in and one float out each, 28 bytes a point */
    const int64_t np = ((int64_t)atol(mib) << 20) / 24;
    tu_rng rng = {17};
    double *xyz = tu_random_points(&rng, np, 3, LO, hi);
    CHECK(tbrf_set_points(pg, np, xyz) == TBRF_OK && tbrf_set_points(pc, np, xyz) == TBRF_OK,
          "set_points");
    if (tu_execute(pg, 1, g) == TBRF_OK && tu_execute(pc, 1, c) == TBRF_OK) {
        double d = tu_rel_diff(g, c, TBRF_FLOAT, np);
        printf("%lld points (%.1f MiB in) on a %s MiB device: max|gpu-cpu|/max|cpu| = %.3g\n",
               (long long)np, (double)np * 24 / (1 << 20), mib, d);
        CHECK(d <= 1e-5, "points differ from the CPU backend: %g", d);
    }
    tbrf_destroy(pg);
    tbrf_destroy(pc);
    free(xyz);
    free(g);
    free(c);
}

/* the faults test's grid */
static const double F_HI[3] = {20, 16, 12}, F_ORIGIN[3] = {0.25, 0.25, 0.25}, F_STEP[3] = {0.5, 0.5, 0.5};
static const int64_t F_DIMS[3] = {40, 32, 24};

/* One plan per n: fail the n-th allocation of a grid run and a point run,
 * then run again. Returns 1 once a run needed fewer than n allocations. */
static int fault_at(int n, const float *ref, int64_t cells, const double *xyz, const float *pref,
                    int64_t np)
{
    float *v = tu_malloc((size_t)(cells > np ? cells : np) * sizeof(float));
    tbrf_plan *p = cuda_plan(F_HI, TBRF_FLOAT, 64, TBRF_BACKEND_CUDA);
    int done = 0;
    if (!p || tbrf_set_grid(p, F_ORIGIN, F_STEP, F_DIMS) != TBRF_OK) {
        CHECK(0, "plan for fault %d", n);
        free(v);
        tbrf_destroy(p);
        return 1;
    }
    char at[16];
    snprintf(at, sizeof at, "%d", n);
    setenv("TBRF_CUDA_EMU_FAIL_ALLOC", at, 1);
    char msg[512] = "";
    int sg = tbrf_execute(p, 0, v);
    if (sg)
        snprintf(msg, sizeof msg, "%s", tbrf_plan_message(p));
    int sp = tbrf_set_points(p, np, xyz);
    if (!sp)
        sp = tbrf_execute(p, 0, v);
    if (sp)
        snprintf(msg, sizeof msg, "%s", tbrf_plan_message(p));
    unsetenv("TBRF_CUDA_EMU_FAIL_ALLOC");
    CHECK(sg == TBRF_OK || sg == TBRF_ERR_NO_MEMORY, "fault %d, grid: %s", n, tbrf_strerror(sg));
    CHECK(sp == TBRF_OK || sp == TBRF_ERR_NO_MEMORY, "fault %d, points: %s", n, tbrf_strerror(sp));
    if (sg == TBRF_OK && sp == TBRF_OK)
        done = 1; /* no n-th allocation: every path was failed once */
    else
        CHECK(strstr(msg, "out of memory") != NULL, "fault %d: message \"%s\"", n, msg);
    /* one allocation failed, so one run: the other must not inherit the
     * error (CUDA keeps the last error until cudaGetLastError reads it) */
    CHECK(sg == TBRF_OK || sp == TBRF_OK, "fault %d failed both runs", n);
    if (sp == TBRF_OK)
        CHECK(memcmp(v, pref, (size_t)np * sizeof(float)) == 0, "fault %d: points differ", n);
    /* the same plan recovers */
    CHECK(tbrf_execute(p, 0, v) == TBRF_OK && memcmp(v, pref, (size_t)np * sizeof(float)) == 0,
          "fault %d: points after the failure: %s", n, tbrf_plan_message(p));
    CHECK(tbrf_set_grid(p, F_ORIGIN, F_STEP, F_DIMS) == TBRF_OK && tbrf_execute(p, 0, v) == TBRF_OK &&
              memcmp(v, ref, (size_t)cells * sizeof(float)) == 0,
          "fault %d: grid after the failure: %s", n, tbrf_plan_message(p));
    tbrf_destroy(p);
    free(v);
    return done;
}

static void faults(void)
{
    const int64_t cells = F_DIMS[0] * F_DIMS[1] * F_DIMS[2], np = 5000;
    tu_rng rng = {3};
    double *xyz = tu_random_points(&rng, np, 3, LO, F_HI);
    float *ref = tu_malloc((size_t)cells * sizeof(float)), *pref = tu_malloc((size_t)np * sizeof(float));
    tbrf_plan *p = cuda_plan(F_HI, TBRF_FLOAT, 64, TBRF_BACKEND_CUDA);
    REQUIRE(p, , "plan");
    CHECK(tbrf_set_grid(p, F_ORIGIN, F_STEP, F_DIMS) == TBRF_OK && tu_execute(p, 0, ref) == TBRF_OK, "reference grid");
    CHECK(tbrf_set_points(p, np, xyz) == TBRF_OK && tu_execute(p, 0, pref) == TBRF_OK, "reference points");
    tbrf_destroy(p);
    int n = 1;
    while (n <= 64 && !fault_at(n, ref, cells, xyz, pref, np))
        n++;
    printf("failed allocations 1..%d in turn, one per run\n",
           n - 1);
    CHECK(n > 2 && n <= 64, "the runs made %d allocations", n - 1);
    free(xyz);
    free(ref);
    free(pref);
}

static void no_image(void)
{
    const double hi[3] = {8, 8, 8};
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.backend = TBRF_BACKEND_CUDA;
    tbrf_plan *p = NULL;
    int st = tbrf_make_plan(model, 3, LO, hi, 1.0, 1, &o, &p);
    const char *msg = tbrf_plan_message(p);
    printf("cuda on a GPU without code for it: %s: %s\n", tbrf_strerror(st), msg);
    CHECK(st == TBRF_ERR_NO_DEVICE, "make_plan(cuda) = %s", tbrf_strerror(st));
    CHECK(msg && strstr(msg, "cannot run tbrf's kernels") && strstr(msg, "TBRF_CUDA_ARCHITECTURES"),
          "message does not say what to do: %s", msg);
    tbrf_destroy(p);
    p = NULL;
    o.backend = TBRF_BACKEND_AUTO;
    st = tbrf_make_plan(model, 3, LO, hi, 1.0, 1, &o, &p);
    tbrf_plan_info info;
    CHECK(st == TBRF_OK && tbrf_plan_get_info(p, &info) == TBRF_OK && info.backend != TBRF_BACKEND_CUDA,
          "auto did not pass over the unusable GPU: %s", tbrf_strerror(st));
    if (st == TBRF_OK)
        printf("auto picked %s\n", tbrf_backend_name(info.backend));
    tbrf_destroy(p);
}

static int current(void)
{
    int d = -1;
    CHECK(cudaGetDevice(&d) == cudaSuccess, "cudaGetDevice");
    return d;
}

static void device_kept(void)
{
    int n = 0;
    REQUIRE(cudaGetDeviceCount(&n) == cudaSuccess && n >= 2, , "needs TBRF_CUDA_EMU_DEVICES=2 (%d)", n);
    REQUIRE(cudaSetDevice(1) == cudaSuccess, , "cudaSetDevice(1)");
    const double hi[3] = {8, 8, 8}, origin[3] = {0.5, 0.5, 0.5}, step[3] = {1, 1, 1};
    const int64_t dims[3] = {8, 8, 8};
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.backend = TBRF_BACKEND_CUDA;
    o.device = 0;
    tbrf_plan *p = tu_plan(model, 3, LO, hi, 1.0, 1, &o);
    CHECK(current() == 1, "make_plan left device %d current", current());
    double v[512];
    if (p) {
        CHECK(tbrf_set_grid(p, origin, step, dims) == TBRF_OK && tu_execute(p, 0, v) == TBRF_OK, "execute");
        CHECK(current() == 1, "execute left device %d current", current());
    }
    tbrf_destroy(p);
    CHECK(current() == 1, "destroy left device %d current", current());
    double r[2];
    CHECK(tbrf_mc_integrate_device(TBRF_BACKEND_CUDA, 0, TBRF_MC_OSCILLATORY, 2, NULL, NULL, 10000, 1, r) ==
              TBRF_OK,
          "Monte Carlo on device 0");
    CHECK(current() == 1, "Monte Carlo left device %d current", current());
    printf("after a plan and Monte Carlo on device 0 the current device is %d (the caller's: 1)\n", current());
}

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "big") && strcmp(argv[1], "faults") && strcmp(argv[1], "no-image") &&
                      strcmp(argv[1], "device"))) {
        fprintf(stderr, "usage: test_cuda_emulated big|faults|no-image|device\n");
        return 2;
    }
    if (tbrf_backend_available(TBRF_BACKEND_CUDA) != TBRF_OK) {
        printf("SKIP: no (emulated) CUDA device: set TBRF_CUDA_EMU_DEVICES=1\n");
        return 77;
    }
    REQUIRE(tbrf_model_gaussian(2.0, &model) == TBRF_OK, 1, "model");
    if (strcmp(argv[1], "big") == 0)
        big();
    else if (strcmp(argv[1], "faults") == 0)
        faults();
    else if (strcmp(argv[1], "no-image") == 0)
        no_image();
    else
        device_kept();
    tbrf_model_destroy(model);
    return check_report(argv[1]);
}
