/* backend.c — the backend table and run-time selection. */
#include "backends/backend.h"

#include <stddef.h>
#include "tbrf.h"

/* Indexed by backend id; NULL marks a backend this build does not have.
 * OpenCL and CUDA entries are filled in by their own issue's sources. */
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
        static const int preference[] = {TBRF_BACKEND_CUDA, TBRF_BACKEND_OPENCL, TBRF_BACKEND_CPU};
        for (int i = 0; i < 3; i++) {
            const backend_ops *b = backend_table[preference[i]];
            /* GPU backends count only with a GPU device (see backend.h). */
            int (*usable)(void) = b && b->available_gpu ? b->available_gpu : b ? b->available : NULL;
            if (b && usable() == TBRF_OK) {
                *status = TBRF_OK;
                return b;
            }
        }
        *status = TBRF_ERR_NO_DEVICE;
        return NULL;
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
