/* gpu_common.h — host logic the OpenCL and CUDA projection backends share:
 * reading the plan options, knowing when the device copies of the lines and
 * grid constants are stale, preparing those arrays in the kernels' format,
 * sizing device chunks and choosing the work-group size and unroll factor.
 * Only the device API calls stay in backend_opencl.c / backend_cuda.c, so
 * both backends feed their (shared) kernels the same bits. Plain C: the
 * CUDA host code is compiled as C too. Internal header. */
#ifndef TBRF_GPU_COMMON_H
#define TBRF_GPU_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"
#include "tbrf.h"

enum { GPU_KIND_GRID = 0, GPU_KIND_POINTS = 1 };
extern const char *const tbrfi_gpu_kind_names[2]; /* "grid", "points": kernel and wisdom names */

/* The plan options a GPU backend keeps, read once at init. */
typedef struct gpu_config {
    int precision;        /* TBRF_FLOAT or TBRF_DOUBLE */
    size_t vsize;         /* bytes per output value (and per line sample) */
    int req_wg, req_unroll; /* opts.work_group / opts.unroll, 0 = tuned */
    int64_t forced_chunk; /* TBRF_DEVICE_CHUNK (values) for tests, 0 = automatic */
} gpu_config;

void tbrfi_gpu_config_init(gpu_config *c, const tbrf_opts *opts);

/* What the device buffers hold: the lines and axes of one realization and
 * the grid constants of one grid. New lines make the constants stale too. */
typedef struct gpu_cache {
    int L;
    int64_t M;
    uint64_t generation;
    int have_lines;
    grid_geom lc_geom;
    uint64_t lc_generation;
    int have_lc;
} gpu_cache;

/* Host data to copy into a device buffer: `bytes` at `data`; free(own)
 * once copied (own may be NULL). data is NULL when nothing is to be done. */
typedef struct gpu_upload {
    const void *data;
    size_t bytes;
    void *own;
} gpu_upload;

/* The line samples to upload for p, or data = NULL if the device already
 * holds them. Double kernels take p->lines as they are, float ones a float
 * copy. Once it says to upload, the lines and the grid constants count as
 * absent until tbrfi_gpu_lines_loaded. TBRF_OK, or TBRF_ERR_NO_MEMORY with msg. */
int tbrfi_gpu_lines_upload(gpu_cache *c, const projection *p, int precision, gpu_upload *up, char *msg,
                     size_t msgsize);
void tbrfi_gpu_lines_loaded(gpu_cache *c, const projection *p);

/* The same for the per-line constants of grid g (tbrfi_projection_grid_constants):
 * 4*L doubles for the double kernels, 32.32 fixed-point int64 for the
 * float ones (same size); valid for one generation of lines. */
int tbrfi_gpu_grid_upload(gpu_cache *c, const projection *p, const grid_geom *g, int precision,
                    gpu_upload *up, char *msg, size_t msgsize);
void tbrfi_gpu_lc_loaded(gpu_cache *c, const projection *p, const grid_geom *g);

/* Values per device chunk for `count` values: at most 16 Mi and `cap` (the
 * device's limit for this value size, ignored if <= 0), and at least 4
 * chunks of a large call so transfers overlap kernels; forced_chunk
 * overrides both limits. */
int64_t tbrfi_gpu_chunk_size(int64_t forced_chunk, int64_t cap, int64_t count);

/* Power of two <= u in 1..16 (u >= 1 gives the largest such; u < 1 gives 1). */
int tbrfi_gpu_unroll_round(int u);

/* One kernel to tune: the backend's state, the kernel kind and the
 * arguments of a run on the first n values. */
typedef struct gpu_tune_job {
    void *state;
    int kind;
    const projection *p;
    const grid_geom *g;
    int64_t n;
} gpu_tune_job;

/* The time (any unit, the smaller the better) of one run of the job's
 * kernel with work group wg and unroll (a power of two), or < 0 if it
 * failed. */
typedef double (*gpu_time_fn)(const gpu_tune_job *job, int wg, int unroll);

/* How a backend tunes one kernel. */
typedef struct gpu_tuning {
    const char *backend, *device, *driver; /* tuning-cache key parts (tbrf_wisdom_key) */
    size_t kmax;    /* the largest work group: cached entries above are
                     * ignored, tried sizes and the result clamped */
    int64_t sample; /* fewer values than this: provisional defaults */
    int default_wg; /* the provisional work group (unroll 4) */
    const int *wgs; /* the 4 work-group sizes tried */
    gpu_time_fn time;
    gpu_tune_job job;
} gpu_tuning;

/* The launch configuration of one kernel kind. */
typedef struct gpu_choice {
    int wg, unroll; /* unroll: 1, 2, 4, 8 or 16 */
    int tuned;      /* 0: not chosen yet, or provisionally (tune again) */
} gpu_choice;

/* Chooses *ch for the job: the options, else the tuning cache, else (n >=
 * sample) the fastest of 4 sizes x unroll 1..8, stored in the cache unless
 * the options fixed either, else provisional defaults (ch->tuned = 0: tune
 * again on a larger call). TBRF_OK, or TBRF_ERR_NO_DEVICE with msg when
 * every configuration failed (*ch unchanged). */
int tbrfi_gpu_tune(const gpu_config *c, const gpu_tuning *t, gpu_choice *ch, char *msg, size_t msgsize);

#endif
