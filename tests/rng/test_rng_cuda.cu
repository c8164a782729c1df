/* test_rng_cuda.cu — the tbrf/rng/ headers compiled by nvcc (or as C++
 * against the CUDA emulator): the known-answer vectors of
 * tests/data/kat_vectors.txt computed by kat_body.h (the computation the C
 * and OpenCL harnesses run too) as __host__ __device__ code on the host
 * ("host": always runs, proves the headers compile as CUDA and give the
 * same answers) and in a kernel ("device": exits 77,
 * skipped, without a CUDA device), plus the Monte Carlo chunks on the
 * device against the CPU.
 *   test_rng_cuda KAT_FILE host|device */
#include <cuda_runtime.h>
#include <math.h>

#include "support/check.h"
#include "backends/cuda/cuda_launch.h"
#include "rng/kat_body.h"
#include "rng/rng_kat.h"
#include "tbrf.h"

__global__ void kat_kernel(int n, const int *kinds, const uint32_t *in, const int *nouts,
                           uint32_t *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        tbrf_kat_compute(kinds[i], in + 8 * i, nouts[i], out + 8 * i);
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
        kinds[i] = kat_kind(&v[i]);
        nouts[i] = v[i].nout;
        CHECK(kinds[i] >= 0, "line %d: unknown %s", v[i].line, v[i].name);
        memcpy(in + 8 * i, v[i].in, sizeof v[i].in);
    }
    int device = strcmp(argv[2], "device") == 0;
    if (!device) {
        for (int i = 0; i < n; i++)
            tbrf_kat_compute(kinds[i], in + 8 * i, nouts[i], out + 8 * i);
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
