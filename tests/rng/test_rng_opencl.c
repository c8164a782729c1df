/* test_rng_opencl.c — the tbrf/rng/ headers compiled as OpenCL C on the
 * first OpenCL device: every vector of tests/data/kat_vectors.txt (by
 * kat_body.h, the computation the C and CUDA harnesses run too), Saru jump ==
 * stepping, pair symmetry, and the documented conversions bit for bit
 * against the host; then tbrf_mc_integrate_device(OPENCL) against the CPU
 * and the exact integrals. Exits 77 (skipped) when there is no device.
 *   test_rng_opencl KAT_FILE */
#include <math.h>

#include "support/check.h"
#include "backends/opencl/opencl_util.h"
#include "tbrf/rng/lcg64.h"
#include "tbrf/rng/normal.h"
#include "rng/rng_kat.h"
#include "tbrf.h"

#if !defined(TBRF_INCLUDE_DIR) || !defined(TBRF_TESTS_DIR)
#error "TBRF_INCLUDE_DIR (the include/ directory) and TBRF_TESTS_DIR (tests/) must be defined"
#endif

/* The known-answer computation is kat_body.h, read by the device compiler
 * through -I tests/ (as the C and CUDA harnesses include it). */
static const char SRC[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "#include \"rng/kat_body.h\"\n"
    "#include \"tbrf/rng/normal.h\"\n"
    /* one work-item per vector: kinds as kat_body.h; in[8*i..], out[8*i..] */
    "__kernel void kat(__global const int *kind, __global const uint *in,\n"
    "                  __global const int *nout, __global uint *out) {\n"
    "  int v = get_global_id(0);\n"
    "  tbrf_kat_compute(kind[v], in + 8 * v, nout[v], out + 8 * v);\n"
    "}\n"
    /* per word w[i]: the conversions, a jump check and a pair check */
    "__kernel void conv(__global const uint *w, __global float *f, __global double *d,\n"
    "                   __global uint *flags) {\n"
    "  int i = get_global_id(0); uint x = w[i];\n"
    "  f[2 * i] = tbrf_u01f(x); f[2 * i + 1] = tbrf_s11f(x);\n"
    "  d[6 * i] = tbrf_u01(x); d[6 * i + 1] = tbrf_s11(x); d[6 * i + 2] = tbrf_u01_open(x);\n"
    "  d[6 * i + 3] = tbrf_lcg64_u01((ulong)x << 32 | w[(i + 1) % get_global_size(0)]);\n"
    "  double g0, g1; tbrf_box_muller(x, w[(i + 1) % get_global_size(0)], &g0, &g1);\n"
    "  d[6 * i + 4] = g0; d[6 * i + 5] = g1;\n"
    "  tbrf_saru a = tbrf_saru_seed2(x, i), b = a; uint n = x % 1000u;\n"
    "  for (uint j = 0; j < n; j++) tbrf_saru_next(&a); tbrf_saru_jump(&b, n);\n"
    "  tbrf_saru p = tbrf_stream_pair(7, 3, x, i), q = tbrf_stream_pair(7, 3, i, x);\n"
    "  ulong y = x, z = tbrf_lcg64_jump(x, n); for (uint j = 0; j < n; j++) y = tbrf_lcg64_step(y);\n"
    "  flags[i] = (a.x == b.x && a.w == b.w ? 1u : 0u) | (p.x == q.x && p.w == q.w ? 2u : 0u)\n"
    "           | (y == z ? 4u : 0u);\n"
    "}\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_rng_opencl KAT_FILE\n");
        return 2;
    }
    struct tbrf_cl cl;
    char msg[4096];
    int st = tbrf_cl_open(-1, &cl, msg, sizeof msg);
    if (st) {
        printf("no OpenCL device (%s): skipped\n", msg);
        return 77;
    }
    printf("device: %s (%s)\n", cl.name, cl.platform_name);
    if (!cl.fp64) {
        printf("device has no double precision: skipped\n");
        tbrf_cl_close(&cl);
        return 77;
    }
    kat v[128];
    int bad, n = kat_read(argv[1], v, 128, &bad);
    CHECK(n >= 20, "read %d vectors (bad line %d)", n, bad);
    if (n < 1) {
        tbrf_cl_close(&cl);
        return check_report("test_rng_opencl");
    }
    cl_program prog;
    st = tbrf_cl_build(&cl, SRC, "-I" TBRF_INCLUDE_DIR " -I" TBRF_R123_DIR " -I" TBRF_TESTS_DIR, &prog, msg, sizeof msg);
    CHECK(st == 0, "build: %s", msg);
    if (st) {
        tbrf_cl_close(&cl);
        return check_report("test_rng_opencl");
    }
    cl_int err = 0;
    int kinds[128], nouts[128];
    cl_uint in[128 * 8] = {0}, out[128 * 8] = {0};
    for (int i = 0; i < n; i++) {
        kinds[i] = kat_kind(&v[i]);
        nouts[i] = v[i].nout;
        CHECK(kinds[i] >= 0, "line %d: unknown generator %s", v[i].line, v[i].name);
        for (int j = 0; j < v[i].nin; j++)
            in[8 * i + j] = v[i].in[j];
    }
    cl_kernel kk = clCreateKernel(prog, "kat", &err);
    cl_mem bk = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               (size_t)n * sizeof(int), kinds, &err);
    cl_mem bi = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               (size_t)n * 8 * sizeof(cl_uint), in, &err);
    cl_mem bn = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               (size_t)n * sizeof(int), nouts, &err);
    cl_mem bo = clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, (size_t)n * 8 * sizeof(cl_uint),
                               NULL, &err);
    err |= clSetKernelArg(kk, 0, sizeof bk, &bk);
    err |= clSetKernelArg(kk, 1, sizeof bi, &bi);
    err |= clSetKernelArg(kk, 2, sizeof bn, &bn);
    err |= clSetKernelArg(kk, 3, sizeof bo, &bo);
    size_t global = (size_t)n;
    err |= clEnqueueNDRangeKernel(cl.queue, kk, 1, NULL, &global, NULL, 0, NULL, NULL);
    err |= clFinish(cl.queue);
    err |= clEnqueueReadBuffer(cl.queue, bo, CL_TRUE, 0, (size_t)n * 8 * sizeof(cl_uint), out, 0,
                               NULL, NULL);
    CHECK(err == 0, "kat kernel: %s", tbrf_cl_error_name(err));
    int ok = 0;
    for (int i = 0; i < n && !err; i++) {
        int good = 1;
        for (int j = 0; j < v[i].nout; j++)
            if (out[8 * i + j] != v[i].out[j])
                good = 0;
        CHECK(good, "line %d %s: device %08x %08x, want %08x %08x", v[i].line, v[i].name,
              out[8 * i], out[8 * i + 1], v[i].out[0], v[i].out[1]);
        ok += good;
    }
    printf("%d of %d known-answer vectors equal on the device\n", ok, n);
    clReleaseMemObject(bk);
    clReleaseMemObject(bi);
    clReleaseMemObject(bn);
    clReleaseMemObject(bo);
    clReleaseKernel(kk);

    /* conversions, jump-ahead and pairs on 4096 words */
    enum { W = 4096 };
    static cl_uint w[W], flags[W];
    static float f[2 * W];
    static double d[6 * W];
    tbrf_rng_u32(TBRF_GEN_PHILOX, 5, 0, 0, W, w);
    w[0] = 0;
    w[1] = 0xFFFFFFFFu;
    w[2] = 0x80000000u;
    cl_kernel kc = clCreateKernel(prog, "conv", &err);
    cl_mem bw = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof w, w,
                               &err);
    cl_mem bf = clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, sizeof f, NULL, &err);
    cl_mem bd = clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, sizeof d, NULL, &err);
    cl_mem bg = clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, sizeof flags, NULL, &err);
    err |= clSetKernelArg(kc, 0, sizeof bw, &bw);
    err |= clSetKernelArg(kc, 1, sizeof bf, &bf);
    err |= clSetKernelArg(kc, 2, sizeof bd, &bd);
    err |= clSetKernelArg(kc, 3, sizeof bg, &bg);
    global = W;
    err |= clEnqueueNDRangeKernel(cl.queue, kc, 1, NULL, &global, NULL, 0, NULL, NULL);
    err |= clFinish(cl.queue);
    err |= clEnqueueReadBuffer(cl.queue, bf, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL);
    err |= clEnqueueReadBuffer(cl.queue, bd, CL_TRUE, 0, sizeof d, d, 0, NULL, NULL);
    err |= clEnqueueReadBuffer(cl.queue, bg, CL_TRUE, 0, sizeof flags, flags, 0, NULL, NULL);
    CHECK(err == 0, "conv kernel: %s", tbrf_cl_error_name(err));
    int conv_bad = 0, flag_bad = 0;
    double bm_err = 0;
    for (int i = 0; i < W && !err; i++) {
        uint32_t x = w[i], nx = w[(i + 1) % W];
        if (f[2 * i] != tbrf_u01f(x) || f[2 * i + 1] != tbrf_s11f(x) || d[6 * i] != tbrf_u01(x) ||
            d[6 * i + 1] != tbrf_s11(x) || d[6 * i + 2] != tbrf_u01_open(x) ||
            d[6 * i + 3] != tbrf_lcg64_u01((uint64_t)x << 32 | nx))
            conv_bad++;
        double g0, g1;
        tbrf_box_muller(x, nx, &g0, &g1);
        bm_err = fmax(bm_err, fmax(fabs(g0 - d[6 * i + 4]), fabs(g1 - d[6 * i + 5])));
        if (flags[i] != 7u)
            flag_bad++;
    }
    CHECK(conv_bad == 0, "%d words convert differently on the device", conv_bad);
    CHECK(flag_bad == 0, "%d words: jump/pair/lcg checks failed on the device", flag_bad);
    /* Box–Muller uses the device's log, sqrt, cos, sin: OpenCL allows
     * 4 ulp for log/cos/sin in double, i.e. relative ~1e-15 on values of
     * order 1..6; 1e-12 absolute is far above that and far below a bug. */
    CHECK(bm_err < 1e-12, "Box-Muller differs by %g", bm_err);
    printf("conversions bit-identical on %d words; Box-Muller max difference %.3g\n", W, bm_err);
    clReleaseMemObject(bw);
    clReleaseMemObject(bf);
    clReleaseMemObject(bd);
    clReleaseMemObject(bg);
    clReleaseKernel(kc);
    clReleaseProgram(prog);
    tbrf_cl_close(&cl);

    /* Monte Carlo on the device vs the CPU and the exact value. Per point
     * the device's cos/exp/pow may differ by a few ulp (OpenCL: <= 4 ulp
     * for double), so the means differ by < 1e-15 * max|f|; we allow
     * 1e-12 * max|f|, max|f| being 1 for the bounded families, e^d for
     * discontinuous (a_i = 1) and 4e^2 < 30 for nag. */
    for (int k = TBRF_MC_OSCILLATORY; k <= TBRF_MC_NAG; k++) {
        int dim = k == TBRF_MC_NAG ? 4 : 6;
        double rc[2], rg[2], ex, fmaxv = k == TBRF_MC_NAG ? 30 : k == TBRF_MC_DISCONTINUOUS ? exp(dim) : 1;
        tbrf_mc_exact(k, dim, NULL, NULL, &ex);
        tbrf_mc_integrate(k, dim, NULL, NULL, 100000, 11, TBRF_MC_VECTORIZED, 0, rc);
        st = tbrf_mc_integrate_device(TBRF_BACKEND_OPENCL, -1, k, dim, NULL, NULL, 100000, 11, rg);
        CHECK(st == TBRF_OK, "%s on OpenCL: %s", tbrf_mc_integrand_name(k), tbrf_strerror(st));
        if (st)
            continue;
        printf("%-14s cpu %.17g opencl %.17g exact %.10g\n", tbrf_mc_integrand_name(k), rc[0],
               rg[0], ex);
        CHECK(fabs(rc[0] - rg[0]) <= 1e-12 * fmaxv, "%s: cpu %.17g vs opencl %.17g",
              tbrf_mc_integrand_name(k), rc[0], rg[0]);
        CHECK(fabs(rg[0] - ex) < 4 * rg[1], "%s: opencl estimate off by %.2f se",
              tbrf_mc_integrand_name(k), (rg[0] - ex) / rg[1]);
    }
    return check_report("test_rng_opencl");
}
