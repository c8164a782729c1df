/* backend.c — the backend table, run-time selection, and the stubs that
 * fill the slots of features a backend lacks. */
#include "backends/backend.h"

#include <stddef.h>
#include "tbrf.h"

int tbrfi_backend_no_init(const tbrf_opts *opts, void **state, char *msg, size_t msgsize)
{
    (void)opts;
    (void)msg;
    (void)msgsize;
    *state = NULL;
    return TBRF_OK;
}

void tbrfi_backend_no_release(void *state)
{
    (void)state;
}

const char *tbrfi_backend_no_message(void *state)
{
    (void)state;
    return NULL;
}

int tbrfi_backend_no_gpu(void)
{
    return TBRF_ERR_NO_DEVICE;
}

int tbrfi_backend_no_mc(int device, int integrand, int dim, const double *a, const double *u,
                        int64_t n, uint64_t seed, double *K, double *S1, double *S2)
{
    (void)device;
    (void)integrand;
    (void)dim;
    (void)a;
    (void)u;
    (void)n;
    (void)seed;
    (void)K;
    (void)S1;
    (void)S2;
    return TBRF_ERR_UNSUPPORTED;
}

int tbrfi_backend_no_drive(const drive_sum *s, int64_t n, const double *xyz, double *out)
{
    (void)s;
    (void)n;
    (void)xyz;
    (void)out;
    return TBRF_ERR_UNSUPPORTED;
}

/* The GPU backends' project_windows: the inflow sampler's windowed lines
 * run on the CPU backend only (the caller's message says so). */
int tbrfi_backend_no_windows(const window_lines *w, int64_t n, const double *dx, const double *dy,
                             const double *dz, double *scratch, double *acc)
{
    (void)w;
    (void)n;
    (void)dx;
    (void)dy;
    (void)dz;
    (void)scratch;
    (void)acc;
    return TBRF_ERR_UNSUPPORTED;
}

/* Indexed by backend id; NULL marks a backend this build does not have
 * (answered TBRF_ERR_NOT_BUILT). */
static const backend_ops *const backend_table[] = {
    [TBRF_BACKEND_CPU] = &tbrf_backend_cpu,
#ifdef TBRF_HAVE_OPENCL
    [TBRF_BACKEND_OPENCL] = &tbrf_backend_opencl,
#else
    [TBRF_BACKEND_OPENCL] = NULL,
#endif
#ifdef TBRF_HAVE_CUDA
    [TBRF_BACKEND_CUDA] = &tbrf_backend_cuda,
#else
    [TBRF_BACKEND_CUDA] = NULL,
#endif
};

const backend_ops *tbrfi_backend_lookup(int id, int *status)
{
    if (id == TBRF_BACKEND_AUTO) {
        /* GPU backends count only with a GPU device (see backend.h), then
         * the CPU whenever it is usable. */
        static const int preference[] = {TBRF_BACKEND_CUDA, TBRF_BACKEND_OPENCL};
        for (int i = 0; i < 2; i++) {
            const backend_ops *b = backend_table[preference[i]];
            if (b && b->available_gpu() == TBRF_OK) {
                *status = TBRF_OK;
                return b;
            }
        }
        const backend_ops *cpu = backend_table[TBRF_BACKEND_CPU];
        *status = cpu->available() == TBRF_OK ? TBRF_OK : TBRF_ERR_NO_DEVICE;
        return *status == TBRF_OK ? cpu : NULL;
    }
    if (id < 0 || id >= (int)(sizeof backend_table / sizeof backend_table[0])) {
        *status = TBRF_ERR_INVALID;
        return NULL;
    }
    const backend_ops *b = backend_table[id];
    if (!b) {
        *status = TBRF_ERR_NOT_BUILT;
        return NULL;
    }
    *status = b->available();
    return *status == TBRF_OK ? b : NULL;
}

const char *tbrf_backend_name(int backend)
{
    switch (backend) {
    case TBRF_BACKEND_CPU: return "cpu";
    case TBRF_BACKEND_OPENCL: return "opencl";
    case TBRF_BACKEND_CUDA: return "cuda";
    case TBRF_BACKEND_AUTO: return "auto";
    default: return NULL;
    }
}

int tbrf_backend_available(int backend)
{
    int status;
    tbrfi_backend_lookup(backend, &status);
    return status;
}
