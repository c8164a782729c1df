/* opencl_util.h — small helpers shared by every OpenCL user inside libtbrf
 * (the projection backend, the random-number kernels and their tests):
 * open a platform/device/context/queue by device index, build a program
 * with its build log in the message, close everything.
 *
 * Internal header: not installed, not part of the public API. Nothing here
 * prints, exits or keeps global state; each caller owns its struct tbrf_cl. */
#ifndef TBRF_OPENCL_UTIL_H
#define TBRF_OPENCL_UTIL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>

/* An opened device. `queue` is out-of-order when the device supports it
 * (out_of_order = 1), so users must order commands with events; it is a
 * plain in-order queue otherwise, where the same events are harmless. */
struct tbrf_cl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    int index;             /* the device's index in tbrf's enumeration */
    int is_gpu;            /* CL_DEVICE_TYPE_GPU or _ACCELERATOR */
    int fp64;              /* cl_khr_fp64 (or OpenCL >= 1.2 double support) */
    int out_of_order;      /* the queue was created out-of-order */
    size_t max_work_group; /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    cl_ulong global_mem;   /* CL_DEVICE_GLOBAL_MEM_SIZE */
    cl_ulong max_alloc;    /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    cl_uint compute_units;
    char name[256];        /* device name */
    char platform_name[128];
    char driver[64];       /* driver version (part of the tuning-cache key) */
};

/* Devices are numbered 0, 1, ... over all platforms in the order the ICD
 * loader lists them (the order `clinfo -l` prints). */

/* Number of OpenCL devices over all platforms; 0 when there is no platform
 * (no ICD installed) or no device. If gpus is not NULL it receives the
 * number of GPU/accelerator devices. Never fails. */
int tbrf_cl_count(int *gpus);

/* Opens device `device_index` (>= 0), or with -1 the first usable one:
 * the device named by the environment variable TBRF_OPENCL_DEVICE (a
 * case-sensitive substring of the device name) if set, else the first GPU
 * or accelerator, else the first device of any type. Creates a context and
 * a queue (out-of-order when supported). Returns 0 (TBRF_OK) or
 * TBRF_ERR_NO_DEVICE (no platform, index out of range, name not found,
 * context or queue creation failed), TBRF_ERR_INVALID (index < -1), with a
 * message in msg. On failure *cl is left closed (tbrf_cl_close is safe). */
int tbrf_cl_open(int device_index, struct tbrf_cl *cl, char *msg, size_t msgsize);

/* Builds `source` for cl's device with the given options (may be NULL).
 * Returns 0 and *prog, or TBRF_ERR_NO_DEVICE / TBRF_ERR_NO_MEMORY with the
 * OpenCL error and the head of the build log in msg. */
int tbrf_cl_build(struct tbrf_cl *cl, const char *source, const char *options, cl_program *prog,
                  char *msg, size_t msgsize);

/* Releases the queue and context; zeroes *cl. NULL and closed are fine. */
void tbrf_cl_close(struct tbrf_cl *cl);

/* The name of an OpenCL error code ("CL_OUT_OF_RESOURCES", ...), static. */
const char *tbrf_cl_error_name(cl_int err);

/* The tbrf status for an OpenCL error: TBRF_ERR_NO_MEMORY for allocation
 * failures, TBRF_ERR_NO_DEVICE for anything else (the device failed). */
int tbrf_cl_status(cl_int err);

#endif
