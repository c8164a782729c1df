/* opencl_util.c — device enumeration, context/queue creation and program
 * builds for the OpenCL parts of libtbrf. */
#include "backends/opencl/opencl_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"

enum { MAX_PLATFORMS = 16, MAX_DEVICES = 64 };

const char *tbrf_cl_error_name(cl_int err)
{
    switch (err) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_BUILD_PROGRAM_FAILURE) E(CL_INVALID_VALUE) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
    E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PLATFORM) E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_QUEUE_PROPERTIES) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
#undef E
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform installed)";
    default: return "unknown OpenCL error";
    }
}

int tbrf_cl_status(cl_int err)
{
    if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY ||
        err == CL_INVALID_BUFFER_SIZE)
        return TBRF_ERR_NO_MEMORY;
    return TBRF_ERR_NO_DEVICE;
}

/* Every device of every platform, in enumeration order. */
typedef struct {
    cl_platform_id platform;
    cl_device_id device;
} dev_entry;

static int enumerate(dev_entry *out, int max)
{
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, plats, &np) != CL_SUCCESS)
        return 0;
    if (np > MAX_PLATFORMS)
        np = MAX_PLATFORMS;
    int n = 0;
    for (cl_uint i = 0; i < np && n < max; i++) {
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) != CL_SUCCESS)
            continue;
        if (nd > MAX_DEVICES)
            nd = MAX_DEVICES;
        for (cl_uint j = 0; j < nd && n < max; j++) {
            out[n].platform = plats[i];
            out[n].device = devs[j];
            n++;
        }
    }
    return n;
}

static int is_gpu(cl_device_id d)
{
    cl_device_type t = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    return (t & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) != 0;
}

int tbrf_cl_count(int *gpus)
{
    dev_entry e[MAX_DEVICES];
    int n = enumerate(e, MAX_DEVICES), g = 0;
    for (int i = 0; i < n; i++)
        g += is_gpu(e[i].device);
    if (gpus)
        *gpus = g;
    return n;
}

static void fill_info(struct tbrf_cl *cl)
{
    cl_device_id d = cl->device;
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof cl->name - 1, cl->name, NULL);
    clGetPlatformInfo(cl->platform, CL_PLATFORM_NAME, sizeof cl->platform_name - 1, cl->platform_name,
                      NULL);
    clGetDeviceInfo(d, CL_DRIVER_VERSION, sizeof cl->driver - 1, cl->driver, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof cl->max_work_group, &cl->max_work_group,
                    NULL);
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof cl->global_mem, &cl->global_mem, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof cl->max_alloc, &cl->max_alloc, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cl->compute_units, &cl->compute_units, NULL);
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL);
    cl->fp64 = fp != 0;
    cl->is_gpu = is_gpu(d);
    if (cl->max_work_group == 0)
        cl->max_work_group = 1;
}

int tbrf_cl_open(int device_index, struct tbrf_cl *cl, char *msg, size_t msgsize)
{
    if (!cl)
        return TBRF_ERR_NULL;
    memset(cl, 0, sizeof *cl);
    if (device_index < -1) {
        snprintf(msg, msgsize, "OpenCL device index %d: must be >= 0 or -1", device_index);
        return TBRF_ERR_INVALID;
    }
    dev_entry e[MAX_DEVICES];
    int n = enumerate(e, MAX_DEVICES);
    if (n == 0) {
        snprintf(msg, msgsize, "no OpenCL platform or device (is an ICD such as pocl-opencl-icd installed?)");
        return TBRF_ERR_NO_DEVICE;
    }
    int pick = -1;
    if (device_index >= 0) {
        if (device_index >= n) {
            snprintf(msg, msgsize, "OpenCL device %d does not exist: %d device(s) found", device_index, n);
            return TBRF_ERR_NO_DEVICE;
        }
        pick = device_index;
    } else {
        const char *want = getenv("TBRF_OPENCL_DEVICE");
        if (want && *want) {
            for (int i = 0; i < n && pick < 0; i++) {
                char name[256] = {0};
                clGetDeviceInfo(e[i].device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
                if (strstr(name, want))
                    pick = i;
            }
            if (pick < 0) {
                snprintf(msg, msgsize, "no OpenCL device name contains \"%s\" (TBRF_OPENCL_DEVICE)", want);
                return TBRF_ERR_NO_DEVICE;
            }
        }
        for (int i = 0; i < n && pick < 0; i++)
            if (is_gpu(e[i].device))
                pick = i;
        if (pick < 0)
            pick = 0;
    }
    cl->platform = e[pick].platform;
    cl->device = e[pick].device;
    cl->index = pick;
    fill_info(cl);
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)cl->platform, 0};
    cl->context = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
    if (!cl->context) {
        snprintf(msg, msgsize, "OpenCL device %d (%s): clCreateContext failed: %s", pick, cl->name,
                 tbrf_cl_error_name(err));
        tbrf_cl_close(cl);
        return TBRF_ERR_NO_DEVICE;
    }
    cl_command_queue_properties qp = 0;
    clGetDeviceInfo(cl->device, CL_DEVICE_QUEUE_PROPERTIES, sizeof qp, &qp, NULL);
    if (qp & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
        cl->queue = clCreateCommandQueue(cl->context, cl->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                         &err);
        cl->out_of_order = cl->queue != NULL;
    }
    if (!cl->queue)
        cl->queue = clCreateCommandQueue(cl->context, cl->device, 0, &err);
    if (!cl->queue) {
        snprintf(msg, msgsize, "OpenCL device %d (%s): clCreateCommandQueue failed: %s", pick, cl->name,
                 tbrf_cl_error_name(err));
        tbrf_cl_close(cl);
        return TBRF_ERR_NO_DEVICE;
    }
    return TBRF_OK;
}

int tbrf_cl_build(struct tbrf_cl *cl, const char *source, const char *options, cl_program *prog,
                  char *msg, size_t msgsize)
{
    if (!cl || !source || !prog)
        return TBRF_ERR_NULL;
    *prog = NULL;
    cl_int err;
    cl_program p = clCreateProgramWithSource(cl->context, 1, &source, NULL, &err);
    if (!p) {
        snprintf(msg, msgsize, "clCreateProgramWithSource: %s", tbrf_cl_error_name(err));
        return tbrf_cl_status(err);
    }
    err = clBuildProgram(p, 1, &cl->device, options ? options : "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[1024] = {0};
        clGetProgramBuildInfo(p, cl->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        snprintf(msg, msgsize, "OpenCL build for %s failed (%s): %s", cl->name, tbrf_cl_error_name(err),
                 log);
        clReleaseProgram(p);
        return err == CL_OUT_OF_HOST_MEMORY ? TBRF_ERR_NO_MEMORY : TBRF_ERR_NO_DEVICE;
    }
    *prog = p;
    return TBRF_OK;
}

void tbrf_cl_close(struct tbrf_cl *cl)
{
    if (!cl)
        return;
    if (cl->queue)
        clReleaseCommandQueue(cl->queue);
    if (cl->context)
        clReleaseContext(cl->context);
    memset(cl, 0, sizeof *cl);
}
