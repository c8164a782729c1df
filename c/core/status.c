/* status.c — status strings and the library version. */
#include "tbrf.h"

const char *tbrf_strerror(int status)
{
    switch (status) {
    case TBRF_OK: return "success";
    case TBRF_ERR_NULL: return "a required pointer argument is NULL";
    case TBRF_ERR_INVALID: return "invalid parameter (NaN, infinite, negative or out of range)";
    case TBRF_ERR_SIZE: return "invalid size (zero, negative, or too large to index or allocate)";
    case TBRF_ERR_NO_MEMORY: return "out of memory";
    case TBRF_ERR_FILE: return "file could not be opened or read";
    case TBRF_ERR_TABLE: return "malformed spectrum table";
    case TBRF_ERR_EMBEDDING: return "circulant embedding is not non-negative even after padding";
    case TBRF_ERR_UNSUPPORTED: return "unsupported combination of model, dimension and method";
    case TBRF_ERR_NOT_BUILT: return "backend not built into this library";
    case TBRF_ERR_NO_DEVICE: return "backend has no usable device";
    case TBRF_ERR_NO_GEOMETRY: return "no grid or points set before execute";
    case TBRF_ERR_OUT_OF_DOMAIN: return "position outside the plan's domain";
    case TBRF_ERR_CALLBACK: return "a user callback asked to abort";
    case TBRF_ERR_FFT: return "FFTW could not create a plan";
    case TBRF_ERR_DIVERGENT: return "the model's variance diverges or vanishes";
    case TBRF_ERR_BAD_PLAN: return "the plan failed to build";
    case TBRF_ERR_CANCELLED: return "the call was cancelled by its cancel hook";
    default: return "unknown status";
    }
}

const char *tbrf_version(void)
{
    return TBRF_VERSION_STRING;
}
