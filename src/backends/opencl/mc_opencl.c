/* mc_opencl.c — the Monte Carlo chunks of tbrf_mc_integrate_device() on
 * an OpenCL device: one work-item per chunk of TBRF_MC_CHUNK points runs
 * rng/mc_body.h (embedded at build time with rng/common.h and
 * rng/lcg64.h), so the device does the CPU's arithmetic in the CPU's order
 * (FP_CONTRACT OFF). Built only with TBRF_HAVE_OPENCL. */
#include <stdlib.h>
#include <string.h>

#include "backends/opencl/opencl_util.h"
#include "tbrf.h"

extern const char tbrf_mc_opencl_src[];

static const char PRELUDE[] = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                              "#pragma OPENCL FP_CONTRACT OFF\n"
                              "#define TBRF_RNG_NO_R123 1\n";

int tbrf_mc_opencl_run(int device, int integrand, int dim, const double *a, const double *u,
                       int64_t n, uint64_t seed, double *K, double *S1, double *S2);

int tbrf_mc_opencl_run(int device, int integrand, int dim, const double *a, const double *u,
                       int64_t n, uint64_t seed, double *K, double *S1, double *S2)
{
    struct tbrf_cl cl;
    char msg[1024];
    int st = tbrf_cl_open(device, &cl, msg, sizeof msg);
    if (st)
        return st;
    const size_t nchunks = (size_t)((n + 8191) / 8192);
    const size_t dbytes = (size_t)dim * sizeof(double), cbytes = nchunks * sizeof(double);
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem buf[5] = {NULL, NULL, NULL, NULL, NULL}; /* a, u, K, S1, S2 */
    double *au = NULL;
    char *src = NULL;
    cl_int err = CL_SUCCESS;
    if (!cl.fp64) {
        st = TBRF_ERR_NO_DEVICE; /* the kernel needs double precision */
        goto done;
    }
    src = malloc(strlen(PRELUDE) + strlen(tbrf_mc_opencl_src) + 1);
    au = malloc(2 * dbytes);
    if (!src || !au) {
        st = TBRF_ERR_NO_MEMORY;
        goto done;
    }
    strcpy(src, PRELUDE);
    strcat(src, tbrf_mc_opencl_src);
    for (int i = 0; i < dim; i++) {
        au[i] = a ? a[i] : 1.0;
        au[dim + i] = u ? u[i] : 0.5;
    }
    st = tbrf_cl_build(&cl, src, NULL, &prog, msg, sizeof msg);
    if (st)
        goto done;
    k = clCreateKernel(prog, "tbrf_mc_chunks", &err);
    for (int b = 0; b < 5 && !err; b++)
        buf[b] = b < 2 ? clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, dbytes,
                                        au + b * dim, &err)
                       : clCreateBuffer(cl.context, CL_MEM_WRITE_ONLY, cbytes, NULL, &err);
    if (!err) {
        cl_int ck = integrand, cd = dim;
        cl_ulong cn = (cl_ulong)n, cs = seed;
        err |= clSetKernelArg(k, 0, sizeof ck, &ck);
        err |= clSetKernelArg(k, 1, sizeof cd, &cd);
        err |= clSetKernelArg(k, 2, sizeof cn, &cn);
        err |= clSetKernelArg(k, 3, sizeof cs, &cs);
        for (int b = 0; b < 5; b++)
            err |= clSetKernelArg(k, 4 + (cl_uint)b, sizeof(cl_mem), &buf[b]);
    }
    if (!err) {
        size_t global = nchunks;
        cl_event ev = NULL;
        err = clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, NULL, 0, NULL, &ev);
        if (!err)
            err = clWaitForEvents(1, &ev);
        if (ev)
            clReleaseEvent(ev);
    }
    double *dst[3] = {K, S1, S2};
    for (int b = 0; b < 3 && !err; b++)
        err = clEnqueueReadBuffer(cl.queue, buf[2 + b], CL_TRUE, 0, cbytes, dst[b], 0, NULL, NULL);
done:
    if (err && !st)
        st = tbrf_cl_status(err);
    for (int b = 0; b < 5; b++)
        if (buf[b])
            clReleaseMemObject(buf[b]);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    free(src);
    free(au);
    tbrf_cl_close(&cl);
    return st;
}
