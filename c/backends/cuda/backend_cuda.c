/* backend_cuda.c — the CUDA projection backend (host side, in C against the
 * CUDA runtime API; kernels in kernels/tb_project.cu share their bodies
 * with the OpenCL kernels).
 *
 * Per plan (init/release): the device (opts.device, -1 = device 0), a
 * compute stream and a copy stream, cached device buffers (lines and axes
 * uploaded once per realization, grid constants when the grid changes),
 * and two device output buffers, two pinned host staging buffers and two
 * device input buffers (points) for double buffering: the kernel of chunk
 * c+1 runs on the compute stream while chunk c is copied back on the copy
 * stream; events order every reuse of a buffer. The host copies a staged
 * chunk into the caller's array after its event completes, so the transfer
 * out of the device overlaps the next kernel. The device chunk is at most
 * 16 Mi values (TBRF_DEVICE_CHUNK forces a smaller one). What the OpenCL
 * backend does the same way (options, cache bookkeeping, host arrays,
 * chunk sizes, tuning) is in gpu/gpu_common.h; this file holds the CUDA calls.
 *
 * Lines are synthesised on the host (FFTW) and uploaded: for L*M samples
 * that is L*M*8 bytes per realization (8 MiB for 1024 lines of 1024
 * samples), small next to the projection, so device-side cuFFT synthesis
 * was not done (see doc/gpu.md).
 *
 * Without a CUDA device (cudaGetDeviceCount fails or returns 0) the backend
 * reports TBRF_ERR_NO_DEVICE. No NVIDIA GPU was available while writing
 * it: it runs in CI on the tests' CPU emulator of the CUDA runtime
 * (tests/backends/cuda_emulator), never yet on a GPU (doc/gpu.md). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "backends/backend.h"
#include "backends/cuda/cuda_device.h"
#include "backends/gpu/gpu_common.h"
#include "kernels/drive_cuda.h"
#include "kernels/tb_project_cuda.h"
#include "tbrf.h"

enum { KIND_GRID = GPU_KIND_GRID, KIND_POINTS = GPU_KIND_POINTS };
/* Values timed per configuration: 256 Ki x L lines is 0.3 ms at 1e12
 * cell.lines/s for 1024 lines, long against event resolution. The sample
 * must fit one device chunk, and a call is cut into 4 chunks from 256 Ki
 * values on (tbrfi_gpu_chunk_size), so calls of 1 Mi values or more tune. */
#define TUNE_SAMPLE ((int64_t)1 << 18)

typedef struct cu_state {
    int device;
    char name[256];
    size_t total_mem;
    int max_block;
    cudaStream_t compute, copy;
    cudaEvent_t kdone[2], cdone[2], t0, t1;
    gpu_config cfg;
    gpu_choice tuned[2]; /* per kind */
    char tune_err[128];  /* the last CUDA error while tuning */
    void *lines;     /* per realization */
    double *axis;
    void *lc;        /* per grid */
    gpu_cache cache; /* what lines, axis and lc hold */
    void *out[2], *in[2], *host[2];
    size_t out_cap, in_cap, host_cap;
    /* a periodic driver's direct sum (cu_drive_points): modes and
     * coefficients (of drive_gen, once loaded), one chunk of points and
     * values */
    int *dm;
    double *dc, *din, *dout;
    size_t dm_cap, dc_cap, din_cap, dout_cap;
    uint64_t drive_gen;
    int drive_loaded;
    char msg[512];
} cu_state;

static int cu_fail(cu_state *s, cudaError_t err, const char *what)
{
    snprintf(s->msg, sizeof s->msg, "%s on CUDA device %d (%s): %s", what, s->device, s->name,
             cudaGetErrorString(err));
    return err == cudaErrorMemoryAllocation ? TBRF_ERR_NO_MEMORY : TBRF_ERR_NO_DEVICE;
}

static int cu_available(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n <= 0) {
        cudaGetLastError(); /* clear the sticky "no device" error */
        return TBRF_ERR_NO_DEVICE;
    }
    return TBRF_OK;
}

/* For `auto`: a device that can also run the kernels (a GPU older than
 * the architectures built in has a device but no code for it). */
static int cu_available_gpu(void)
{
    int st = cu_available(), limit = 1024;
    if (st == TBRF_OK && tbrf_cuda_kernel_limit(&limit) != 0) {
        cudaGetLastError();
        st = TBRF_ERR_NO_DEVICE;
    }
    return st;
}

static const char *cu_message(void *state)
{
    cu_state *s = state;
    return s ? s->msg : NULL;
}

static void release_on_device(cu_state *s)
{
    cudaSetDevice(s->device);
    if (s->compute)
        cudaStreamSynchronize(s->compute);
    if (s->copy)
        cudaStreamSynchronize(s->copy);
    cudaFree(s->lines);
    cudaFree(s->axis);
    cudaFree(s->lc);
    cudaFree(s->dm);
    cudaFree(s->dc);
    cudaFree(s->din);
    cudaFree(s->dout);
    for (int b = 0; b < 2; b++) {
        cudaFree(s->out[b]);
        cudaFree(s->in[b]);
        cudaFreeHost(s->host[b]);
        if (s->kdone[b])
            cudaEventDestroy(s->kdone[b]);
        if (s->cdone[b])
            cudaEventDestroy(s->cdone[b]);
    }
    if (s->t0)
        cudaEventDestroy(s->t0);
    if (s->t1)
        cudaEventDestroy(s->t1);
    if (s->compute)
        cudaStreamDestroy(s->compute);
    if (s->copy)
        cudaStreamDestroy(s->copy);
    free(s);
}

static void cu_release(void *state)
{
    if (!state)
        return;
    int prev = tbrf_cuda_current_device();
    release_on_device(state);
    tbrf_cuda_restore_device(prev);
}

static int init_on_device(const tbrf_opts *opts, void **state, char *msg, size_t msgsize)
{
    *state = NULL;
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n <= 0) {
        snprintf(msg, msgsize, "no CUDA device (%s)",
                 err != cudaSuccess ? cudaGetErrorString(err) : "cudaGetDeviceCount returned 0");
        cudaGetLastError();
        return TBRF_ERR_NO_DEVICE;
    }
    int dev = opts->device < 0 ? 0 : opts->device;
    if (dev >= n) {
        snprintf(msg, msgsize, "CUDA device %d does not exist: %d device(s) found", dev, n);
        return TBRF_ERR_NO_DEVICE;
    }
    cu_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(msg, msgsize, "no memory for the CUDA backend state");
        return TBRF_ERR_NO_MEMORY;
    }
    s->device = dev;
    struct cudaDeviceProp prop;
    if ((err = cudaGetDeviceProperties(&prop, dev)) != cudaSuccess || (err = cudaSetDevice(dev)) != cudaSuccess) {
        snprintf(msg, msgsize, "CUDA device %d: %s", dev, cudaGetErrorString(err));
        free(s);
        return TBRF_ERR_NO_DEVICE;
    }
    snprintf(s->name, sizeof s->name, "%s", prop.name);
    s->total_mem = prop.totalGlobalMem;
    s->max_block = prop.maxThreadsPerBlock;
    if ((err = (cudaError_t)tbrf_cuda_kernel_limit(&s->max_block)) != cudaSuccess) {
        /* a GPU older or newer than the architectures built in */
        snprintf(msg, msgsize,
                 "CUDA device %d (%s, compute capability %d.%d) cannot run tbrf's kernels: %s "
                 "(built for CUDA architectures %s; rebuild with -DTBRF_CUDA_ARCHITECTURES=native)",
                 dev, s->name, prop.major, prop.minor, cudaGetErrorString(err), TBRF_CUDA_ARCHS);
        cudaGetLastError();
        free(s);
        return TBRF_ERR_NO_DEVICE;
    }
    tbrfi_gpu_config_init(&s->cfg, opts);
    if (s->cfg.req_wg > s->max_block) {
        snprintf(msg, msgsize, "opts.work_group = %d exceeds the block size limit %d of CUDA device %d (%s)",
                 s->cfg.req_wg, s->max_block, dev, s->name);
        free(s);
        return TBRF_ERR_INVALID;
    }
    err = cudaStreamCreateWithFlags(&s->compute, cudaStreamNonBlocking);
    if (err == cudaSuccess)
        err = cudaStreamCreateWithFlags(&s->copy, cudaStreamNonBlocking);
    for (int b = 0; b < 2 && err == cudaSuccess; b++) {
        err = cudaEventCreateWithFlags(&s->kdone[b], cudaEventDisableTiming);
        if (err == cudaSuccess)
            err = cudaEventCreateWithFlags(&s->cdone[b], cudaEventDisableTiming);
    }
    if (err == cudaSuccess)
        err = cudaEventCreate(&s->t0);
    if (err == cudaSuccess)
        err = cudaEventCreate(&s->t1);
    if (err != cudaSuccess) {
        snprintf(msg, msgsize, "CUDA device %d (%s): %s", dev, s->name, cudaGetErrorString(err));
        release_on_device(s);
        return TBRF_ERR_NO_DEVICE;
    }
    *state = s;
    return TBRF_OK;
}

static int cu_init(const tbrf_opts *opts, void **state, char *msg, size_t msgsize)
{
    int prev = tbrf_cuda_current_device();
    int st = init_on_device(opts, state, msg, msgsize);
    tbrf_cuda_restore_device(prev);
    return st;
}

static cudaError_t ensure_dev(void **p, size_t *cap, size_t bytes)
{
    if (*p && *cap >= bytes)
        return cudaSuccess;
    cudaFree(*p);
    *p = NULL;
    *cap = 0;
    cudaError_t err = cudaMalloc(p, bytes ? bytes : 1);
    if (err == cudaSuccess)
        *cap = bytes;
    else
        *p = NULL;
    return err;
}

/* Uploads the lines and axes once per realization. */
static int ensure_lines(cu_state *s, const projection *p)
{
    gpu_upload up;
    int st = tbrfi_gpu_lines_upload(&s->cache, p, s->cfg.precision, &up, s->msg, sizeof s->msg);
    if (st || !up.data)
        return st;
    const size_t ab = sizeof(double) * 4 * (size_t)p->L; /* axes, then shifts */
    size_t cap = 0;
    cudaFree(s->lines);
    cudaFree(s->axis);
    s->lines = NULL;
    s->axis = NULL;
    cudaError_t err = ensure_dev(&s->lines, &cap, up.bytes);
    if (err == cudaSuccess)
        err = ensure_dev((void **)&s->axis, &cap, ab);
    /* synchronous copies: once per realization, and the source may be freed */
    if (err == cudaSuccess)
        err = cudaMemcpy(s->lines, up.data, up.bytes, cudaMemcpyHostToDevice);
    if (err == cudaSuccess)
        err = cudaMemcpy(s->axis, p->axis, ab, cudaMemcpyHostToDevice);
    /* a pageable cudaMemcpy may return before its DMA is done, and the
     * non-blocking streams do not wait for the legacy stream: wait here */
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    free(up.own);
    if (err != cudaSuccess)
        return cu_fail(s, err, "uploading the lines");
    tbrfi_gpu_lines_loaded(&s->cache, p);
    return TBRF_OK;
}

/* Uploads the per-line grid constants when the grid or the lines change. */
static int ensure_grid_constants(cu_state *s, const projection *p, const grid_geom *g)
{
    gpu_upload up;
    int st = tbrfi_gpu_grid_upload(&s->cache, p, g, s->cfg.precision, &up, s->msg, sizeof s->msg);
    if (st || !up.data)
        return st;
    size_t cap = 0;
    cudaFree(s->lc);
    s->lc = NULL;
    cudaError_t err = ensure_dev(&s->lc, &cap, up.bytes);
    if (err == cudaSuccess)
        err = cudaMemcpy(s->lc, up.data, up.bytes, cudaMemcpyHostToDevice);
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize(); /* see ensure_lines */
    free(up.own);
    if (err != cudaSuccess)
        return cu_fail(s, err, "uploading the grid constants");
    tbrfi_gpu_lc_loaded(&s->cache, p, g);
    return TBRF_OK;
}

static int launch(cu_state *s, int kind, int unroll, int block, const projection *p, const grid_geom *g,
                  int64_t first, int64_t n, const double *in, void *out)
{
    if (kind == KIND_GRID) {
        const long long start[3] = {g->start[0], g->start[1], g->start[2]};
        return tbrf_cuda_launch_grid(s->cfg.precision, unroll, block, s->lines, s->lc, p->L, p->M, g->n[0],
                                     g->n[1], start, first, n, p->norm, out, s->compute);
    }
    return tbrf_cuda_launch_points(s->cfg.precision, unroll, block, s->lines, s->axis, p->L, p->M, p->dim,
                                   p->center[0], p->center[1], p->center[2], p->offset, in, n, p->norm,
                                   out, s->compute);
}

/* Milliseconds of one launch of the job's kernel with block size w and
 * unroll u, timed with CUDA events after a warm-up launch; < 0 on failure
 * (the error is cleared). The tuner's gpu_tuning.time. */
static double time_tune(const gpu_tune_job *job, int w, int u)
{
    cu_state *s = job->state;
    float ms = -1.0f;
    int e = launch(s, job->kind, u, w, job->p, job->g, 0, job->n, s->in[0], s->out[0]); /* warm-up */
    if (!e)
        e = (int)cudaEventRecord(s->t0, s->compute);
    if (!e)
        e = launch(s, job->kind, u, w, job->p, job->g, 0, job->n, s->in[0], s->out[0]);
    if (!e)
        e = (int)cudaEventRecord(s->t1, s->compute);
    if (!e)
        e = (int)cudaEventSynchronize(s->t1);
    if (!e)
        e = (int)cudaEventElapsedTime(&ms, s->t0, s->t1);
    if (e) {
        snprintf(s->tune_err, sizeof s->tune_err, "%s", cudaGetErrorString((cudaError_t)e));
        cudaGetLastError();
        return -1.0;
    }
    return ms;
}

/* Chooses s->tuned[kind] (tbrfi_gpu_tune) on the first n values (already in
 * in[0] for points). The block limit of every supported GPU (1024) is
 * above the sizes tried, so the tuner's clamp to it never binds. */
static int tune(cu_state *s, int kind, const projection *p, const grid_geom *g, int64_t n)
{
    char drv[32];
    int ver = 0;
    cudaDriverGetVersion(&ver);
    snprintf(drv, sizeof drv, "%d", ver);
    static const int blocks[] = {64, 128, 256, 512};
    const gpu_tuning t = {"cuda", s->name, drv, (size_t)s->max_block, TUNE_SAMPLE, 256, blocks, time_tune,
                          {s, kind, p, g, n}};
    s->tune_err[0] = '\0';
    int st = tbrfi_gpu_tune(&s->cfg, &t, &s->tuned[kind], s->msg, sizeof s->msg);
    if (st && s->tune_err[0]) {
        size_t n = strlen(s->msg);
        snprintf(s->msg + n, sizeof s->msg - n, " (last CUDA error: %s)", s->tune_err);
    }
    return st;
}

static int64_t chunk_size(const cu_state *s, size_t bytes_per_value, int64_t count)
{
    return tbrfi_gpu_chunk_size(s->cfg.forced_chunk, (int64_t)(s->total_mem / 8 / bytes_per_value), count);
}

static cudaError_t ensure_io(cu_state *s, int64_t chunk, size_t in_bytes)
{
    cudaError_t err = cudaSuccess;
    size_t ob = (size_t)chunk * s->cfg.vsize;
    if (s->out_cap < ob || s->host_cap < ob) {
        for (int b = 0; b < 2; b++) {
            cudaFree(s->out[b]);
            cudaFreeHost(s->host[b]);
            s->out[b] = s->host[b] = NULL;
        }
        s->out_cap = s->host_cap = 0;
        for (int b = 0; b < 2 && err == cudaSuccess; b++) {
            err = cudaMalloc(&s->out[b], ob);
            if (err == cudaSuccess)
                err = cudaMallocHost(&s->host[b], ob);
        }
        if (err == cudaSuccess)
            s->out_cap = s->host_cap = ob;
    }
    size_t ib = (size_t)chunk * in_bytes;
    if (err == cudaSuccess && in_bytes && s->in_cap < ib) {
        for (int b = 0; b < 2; b++) {
            cudaFree(s->in[b]);
            s->in[b] = NULL;
        }
        s->in_cap = 0;
        for (int b = 0; b < 2 && err == cudaSuccess; b++)
            err = cudaMalloc(&s->in[b], ib);
        if (err == cudaSuccess)
            s->in_cap = ib;
    }
    return err;
}

/* The shared double-buffered pipeline: grid cells first.. or points xyz. */
static int pipeline(cu_state *s, int kind, const projection *p, const grid_geom *g, int64_t first,
                    int64_t count, const double *xyz, void *out)
{
    const size_t ib = kind == KIND_POINTS ? sizeof(double) * (size_t)p->dim : 0;
    const int64_t chunk = chunk_size(s, ib > s->cfg.vsize ? ib : s->cfg.vsize, count);
    cudaError_t err = ensure_io(s, chunk, ib);
    if (err != cudaSuccess)
        return cu_fail(s, err, "allocating the chunk buffers");
    if (!s->tuned[kind].tuned) {
        int64_t nt = chunk < TUNE_SAMPLE ? chunk : TUNE_SAMPLE;
        if (kind == KIND_POINTS &&
            ((err = cudaMemcpy(s->in[0], xyz, (size_t)nt * ib, cudaMemcpyHostToDevice)) != cudaSuccess ||
             (err = cudaDeviceSynchronize()) != cudaSuccess))
            return cu_fail(s, err, "uploading points for tuning");
        int st = tune(s, kind, p, g, nt);
        if (st)
            return st;
    }
    int64_t pending_off[2] = {-1, -1}, pending_n[2] = {0, 0};
    for (int64_t c = 0, off = 0; off < count; c++, off += chunk) {
        const int b = (int)(c & 1);
        const int64_t n = count - off < chunk ? count - off : chunk;
        /* host[b] still holds chunk c-2: wait for its copy, hand it over */
        if (pending_off[b] >= 0) {
            if ((err = cudaEventSynchronize(s->cdone[b])) != cudaSuccess)
                break;
            memcpy((char *)out + (size_t)pending_off[b] * s->cfg.vsize, s->host[b], (size_t)pending_n[b] * s->cfg.vsize);
            pending_off[b] = -1;
        }
        if (kind == KIND_POINTS) {
            /* in[b] was read by kernel c-2: order the upload after it */
            if ((err = cudaStreamWaitEvent(s->copy, s->kdone[b], 0)) != cudaSuccess)
                break;
            if ((err = cudaMemcpyAsync(s->in[b], xyz + (size_t)p->dim * (size_t)off, (size_t)n * ib,
                                       cudaMemcpyHostToDevice, s->copy)) != cudaSuccess)
                break;
            if ((err = cudaEventRecord(s->cdone[b], s->copy)) != cudaSuccess)
                break;
        }
        /* out[b] was copied out by chunk c-2 (and in[b] filled above) */
        if ((err = cudaStreamWaitEvent(s->compute, s->cdone[b], 0)) != cudaSuccess)
            break;
        int e = launch(s, kind, s->tuned[kind].unroll, s->tuned[kind].wg, p, g, first + off, n, s->in[b], s->out[b]);
        if (e) {
            err = (cudaError_t)e;
            break;
        }
        if ((err = cudaEventRecord(s->kdone[b], s->compute)) != cudaSuccess)
            break;
        if ((err = cudaStreamWaitEvent(s->copy, s->kdone[b], 0)) != cudaSuccess)
            break;
        if ((err = cudaMemcpyAsync(s->host[b], s->out[b], (size_t)n * s->cfg.vsize, cudaMemcpyDeviceToHost,
                                   s->copy)) != cudaSuccess)
            break;
        if ((err = cudaEventRecord(s->cdone[b], s->copy)) != cudaSuccess)
            break;
        pending_off[b] = off;
        pending_n[b] = n;
    }
    cudaError_t e1 = cudaStreamSynchronize(s->compute), e2 = cudaStreamSynchronize(s->copy);
    if (err == cudaSuccess)
        err = e1 != cudaSuccess ? e1 : e2;
    if (err != cudaSuccess)
        return cu_fail(s, err, kind == KIND_GRID ? "grid projection" : "point projection");
    for (int b = 0; b < 2; b++)
        if (pending_off[b] >= 0)
            memcpy((char *)out + (size_t)pending_off[b] * s->cfg.vsize, s->host[b], (size_t)pending_n[b] * s->cfg.vsize);
    return TBRF_OK;
}

/* The start of every projection call: this plan's device current, the
 * lines of p on it. */
static int prepare(cu_state *s, const projection *p)
{
    s->msg[0] = '\0';
    cudaError_t err = cudaSetDevice(s->device);
    if (err != cudaSuccess)
        return cu_fail(s, err, "cudaSetDevice");
    return ensure_lines(s, p);
}

static int cu_project_grid(const projection *p, const grid_geom *g, int64_t first, int64_t count, void *out)
{
    cu_state *s = p->state;
    if (count <= 0)
        return TBRF_OK;
    int prev = tbrf_cuda_current_device();
    int st = prepare(s, p);
    if (!st)
        st = ensure_grid_constants(s, p, g);
    if (!st)
        st = pipeline(s, KIND_GRID, p, g, first, count, NULL, out);
    tbrf_cuda_restore_device(prev);
    return st;
}

static int cu_project_points(const projection *p, int64_t n, const double *xyz, void *out)
{
    cu_state *s = p->state;
    if (n <= 0)
        return TBRF_OK;
    int prev = tbrf_cuda_current_device();
    int st = prepare(s, p);
    if (!st)
        st = pipeline(s, KIND_POINTS, p, NULL, 0, n, xyz, out);
    tbrf_cuda_restore_device(prev);
    return st;
}

/* Uploads a driver's modes and coefficients when they changed (their
 * generation). */
static int drive_upload(cu_state *s, const drive_sum *d)
{
    if (s->drive_loaded && s->drive_gen == d->generation)
        return TBRF_OK;
    const size_t mb = sizeof(int) * 3 * (size_t)d->nm, cb = sizeof(double) * 2 * (size_t)d->dim * (size_t)d->nm;
    s->drive_loaded = 0;
    cudaError_t err = ensure_dev((void **)&s->dm, &s->dm_cap, mb);
    if (err == cudaSuccess)
        err = ensure_dev((void **)&s->dc, &s->dc_cap, cb);
    if (err == cudaSuccess)
        err = cudaMemcpy(s->dm, d->m, mb, cudaMemcpyHostToDevice);
    if (err == cudaSuccess)
        err = cudaMemcpy(s->dc, d->coef, cb, cudaMemcpyHostToDevice);
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize(); /* see ensure_lines */
    if (err != cudaSuccess)
        return cu_fail(s, err, "uploading the driver's modes");
    s->drive_gen = d->generation;
    s->drive_loaded = 1;
    return TBRF_OK;
}

/* The chunk loop of cu_drive_points: each chunk uploaded, summed and
 * copied back before the next (nm sincos per point outweigh the
 * transfers, so no double buffering). */
static int drive_chunks(cu_state *s, const drive_sum *d, int64_t n, const double *xyz, double *out)
{
    int st = drive_upload(s, d);
    if (st)
        return st;
    const size_t vb = sizeof(double) * (size_t)d->dim;
    const int64_t chunk = chunk_size(s, 2 * vb, n);
    cudaError_t err = ensure_dev((void **)&s->din, &s->din_cap, (size_t)chunk * vb);
    if (err == cudaSuccess)
        err = ensure_dev((void **)&s->dout, &s->dout_cap, (size_t)chunk * vb);
    if (err != cudaSuccess)
        return cu_fail(s, err, "allocating the driver's point buffers");
    const int block = s->max_block < 128 ? s->max_block : 128;
    for (int64_t off = 0; off < n && err == cudaSuccess; off += chunk) {
        const int64_t c = n - off < chunk ? n - off : chunk;
        err = cudaMemcpy(s->din, xyz + (size_t)d->dim * (size_t)off, (size_t)c * vb, cudaMemcpyHostToDevice);
        if (err == cudaSuccess) /* the non-blocking stream does not wait for the copy: see ensure_lines */
            err = cudaDeviceSynchronize();
        if (err == cudaSuccess)
            err = (cudaError_t)tbrf_cuda_launch_drive(block, s->dm, s->dc, d->nm, d->dim, d->origin, d->length,
                                                      s->din, c, s->dout, s->compute);
        if (err == cudaSuccess)
            err = cudaStreamSynchronize(s->compute);
        if (err == cudaSuccess)
            err = cudaMemcpy(out + (size_t)d->dim * (size_t)off, s->dout, (size_t)c * vb, cudaMemcpyDeviceToHost);
    }
    return err == cudaSuccess ? TBRF_OK : cu_fail(s, err, "the driver's sum");
}

static int cu_drive_points(const drive_sum *d, int64_t n, const double *xyz, double *out)
{
    cu_state *s = d->state;
    if (n <= 0)
        return TBRF_OK;
    int prev = tbrf_cuda_current_device();
    s->msg[0] = '\0';
    cudaError_t err = cudaSetDevice(s->device);
    int st = err == cudaSuccess ? drive_chunks(s, d, n, xyz, out) : cu_fail(s, err, "cudaSetDevice");
    tbrf_cuda_restore_device(prev);
    return st;
}

const backend_ops tbrf_backend_cuda = {
    .id = TBRF_BACKEND_CUDA,
    .name = "cuda",
    .available = cu_available,
    .project_grid = cu_project_grid,
    .project_points = cu_project_points,
    .init = cu_init,
    .release = cu_release,
    .message = cu_message,
    .available_gpu = cu_available_gpu,
    .mc_chunks = tbrfi_mc_cuda_chunks,
    .drive_points = cu_drive_points,
    .project_windows = tbrfi_backend_no_windows,
};
