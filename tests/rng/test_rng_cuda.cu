/* test_rng_cuda.cu — the rng/ headers compiled by nvcc: the known-answer
 * vectors of tests/data/kat_vectors.txt computed by the __host__ __device__
 * bodies on the host ("host": always runs, proves the headers compile as
 * CUDA and give the same answers) and in a kernel ("device": exits 77,
 * skipped, without a CUDA device), plus the Monte Carlo chunks on the
 * device against the CPU.
 *   test_rng_cuda KAT_FILE host|device */
#include <cuda_runtime.h>
#include <math.h>

#include "support/check.h"
#include "backends/cuda/cuda_launch.h"
#include "tbrf/rng/lcg64.h"
#include "backends/kernels/mc_body.h"
#include "tbrf/rng/philox.h"
#include "tbrf/rng/saru.h"
#include "tbrf/rng/tea.h"
#include "rng/rng_kat.h"
#include "tbrf.h"

__host__ __device__ static int compute(int kind, const uint32_t *a, int nout, uint32_t *o)
{
    if (kind == 0) {
        philox4x32_ctr_t c = {{a[0], a[1], a[2], a[3]}};
        philox4x32_key_t k = {{a[4], a[5]}};
        philox4x32_ctr_t r = philox4x32(c, k);
        for (int j = 0; j < 4; j++)
            o[j] = r.v[j];
        return 4;
    }
    if (kind >= 1 && kind <= 3) {
        tbrf_saru s = kind == 1   ? tbrf_saru_seed1(a[0])
                      : kind == 2 ? tbrf_saru_seed2(a[0], a[1])
                                  : tbrf_saru_seed3(a[0], a[1], a[2]);
        for (int j = 0; j < nout; j++)
            o[j] = tbrf_saru_next(&s);
        return nout;
    }
    if (kind == 4) {
        uint32_t v0 = a[0], v1 = a[1];
        tbrf_tea8(&v0, &v1, a[2], a[3], a[4], a[5]);
        o[0] = v0;
        o[1] = v1;
        return 2;
    }
    if (kind == 5) {
        o[0] = tbrf_seed_prehash(a[0]);
        return 1;
    }
    uint64_t x = (uint64_t)a[0] << 32 | a[1];
    for (int j = 0; j < nout; j++) {
        x = tbrf_lcg64_step(x);
        o[j] = kind == 6 ? tbrf_lcg64_out(x) : tbrf_lcg64_out_permuted(x);
    }
    return nout;
}

__global__ void kat_kernel(int n, const int *kinds, const uint32_t *in, const int *nouts,
                           uint32_t *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        compute(kinds[i], in + 8 * i, nouts[i], out + 8 * i);
}

static int kind_of(const kat *k)
{
    const char *names[] = {"philox4x32", "saru1", "saru2", "saru3", "tea8", "prehash", "lcg64",
                           "lcg64-permuted"};
    for (int i = 0; i < 8; i++)
        if (!strcmp(k->name, names[i]))
            return i;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_rng_cuda KAT_FILE host|device\n");
        return 2;
    }
    static kat v[128];
    int bad, n = kat_read(argv[1], v, 128, &bad);
    CHECK(n >= 20, "read %d vectors (bad line %d)", n, bad);
    static int kinds[128], nouts[128];
    static uint32_t in[128 * 8], out[128 * 8];
    for (int i = 0; i < n; i++) {
        kinds[i] = kind_of(&v[i]);
        nouts[i] = v[i].nout;
        CHECK(kinds[i] >= 0, "line %d: unknown %s", v[i].line, v[i].name);
        memcpy(in + 8 * i, v[i].in, sizeof v[i].in);
    }
    int device = strcmp(argv[2], "device") == 0;
    if (!device) {
        for (int i = 0; i < n; i++)
            compute(kinds[i], in + 8 * i, nouts[i], out + 8 * i);
    } else {
        int count = 0;
        if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
            printf("no CUDA device: skipped\n");
            return 77;
        }
        int *dk, *dn;
        uint32_t *di, *dout;
        cudaMalloc(&dk, sizeof kinds);
        cudaMalloc(&dn, sizeof nouts);
        cudaMalloc(&di, sizeof in);
        cudaMalloc(&dout, sizeof out);
        cudaMemcpy(dk, kinds, sizeof kinds, cudaMemcpyHostToDevice);
        cudaMemcpy(dn, nouts, sizeof nouts, cudaMemcpyHostToDevice);
        cudaMemcpy(di, in, sizeof in, cudaMemcpyHostToDevice);
        TBRF_LAUNCH(kat_kernel, 1, 128, 0)(n, dk, di, dn, dout);
        cudaError_t e = cudaGetLastError(); /* a launch error, e.g. no code for this GPU */
        CHECK(e == cudaSuccess, "launch: %s", cudaGetErrorString(e));
        e = cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
        CHECK(e == cudaSuccess, "kernel: %s", cudaGetErrorString(e));
        cudaFree(dk);
        cudaFree(dn);
        cudaFree(di);
        cudaFree(dout);
        /* Monte Carlo on the device vs the CPU: same tolerance argument
         * as test_rng_opencl (a few ulp per point, 1e-12 max|f|). */
        for (int k = TBRF_MC_OSCILLATORY; k <= TBRF_MC_NAG; k++) {
            int dim = k == TBRF_MC_NAG ? 4 : 6;
            double rc[2], rg[2];
            double fmaxv = k == TBRF_MC_NAG ? 30 : k == TBRF_MC_DISCONTINUOUS ? exp(dim) : 1;
            tbrf_mc_integrate(k, dim, NULL, NULL, 100000, 11, TBRF_MC_VECTORIZED, 0, rc);
            int st = tbrf_mc_integrate_device(TBRF_BACKEND_CUDA, -1, k, dim, NULL, NULL, 100000,
                                              11, rg);
            CHECK(st == TBRF_OK && fabs(rc[0] - rg[0]) <= 1e-12 * fmaxv,
                  "%s: cpu %.17g cuda %.17g (status %d)", tbrf_mc_integrand_name(k), rc[0], rg[0],
                  st);
        }
    }
    int ok = 0;
    for (int i = 0; i < n; i++) {
        int good = 1;
        for (int j = 0; j < v[i].nout; j++)
            good &= out[8 * i + j] == v[i].out[j];
        CHECK(good, "line %d %s (%s): %08x want %08x", v[i].line, v[i].name, argv[2], out[8 * i],
              v[i].out[0]);
        ok += good;
    }
    printf("%d of %d known-answer vectors equal (%s, nvcc)\n", ok, n, argv[2]);
    return check_report("test_rng_cuda");
}
