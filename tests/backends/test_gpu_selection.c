/* test_gpu_selection.c — run-time backend selection (doc/gpu.md):
 *  - every backend id answers tbrf_backend_available with OK, NOT_BUILT or
 *    NO_DEVICE, and a plan asking for it fails with that same status and a
 *    message naming the backend (never a crash);
 *  - AUTO picks a GPU backend only when a GPU device exists (an OpenCL CPU
 *    device such as PoCL does not count), else the CPU backend;
 *  - every slot of a usable backend's table entry is filled (stubs where
 *    it lacks a feature, backends/backend.h), and Monte Carlo on a GPU
 *    backend answers what tbrf_backend_available does (NOT_BUILT,
 *    NO_DEVICE or a result), on the CPU TBRF_ERR_INVALID;
 *  - `test_gpu_selection opencl-no-platform` (run with OCL_ICD_VENDORS set
 *    to an empty directory, so the ICD loader finds no platform): the
 *    OpenCL backend reports TBRF_ERR_NO_DEVICE and AUTO still works;
 *  - `test_gpu_selection cuda-no-device`: where the CUDA backend is built
 *    but the machine has no NVIDIA GPU, it reports TBRF_ERR_NO_DEVICE
 *    cleanly (exit 77 = skipped when a GPU is present). */
#include "support/testutil.h"
#include "backends/backend.h"

#ifdef TEST_HAVE_OPENCL
#include <CL/cl.h>
static int opencl_gpus(void)
{
    cl_platform_id pl[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, pl, &np) != CL_SUCCESS)
        return 0;
    int n = 0;
    for (cl_uint i = 0; i < np && i < 16; i++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR, 0, NULL, &nd) == CL_SUCCESS)
            n += (int)nd;
    }
    return n;
}
#else
static int opencl_gpus(void) { return 0; }
#endif

static const double LO[3] = {0, 0, 0}, HI[3] = {4, 4, 4};

static int plan_status(tbrf_model *m, int backend, int *picked, char *msg, size_t n)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.backend = backend;
    o.lines = 16;
    tbrf_plan *p = NULL;
    int st = tbrf_make_plan(m, 3, LO, HI, 0.5, 1, &o, &p);
    snprintf(msg, n, "%s", tbrf_plan_message(p));
    tbrf_plan_info info;
    if (st == TBRF_OK && tbrf_plan_get_info(p, &info) == TBRF_OK)
        *picked = info.backend;
    tbrf_destroy(p);
    return st;
}

int main(int argc, char **argv)
{
    tbrf_model *m = NULL;
    if (tbrf_model_gaussian(1.0, &m) != TBRF_OK)
        return 1;
    char msg[700];
    int picked = -1;
    if (argc > 1 && strcmp(argv[1], "opencl-no-platform") == 0) {
        /* run with OCL_ICD_VENDORS pointing at an empty directory */
        int av = tbrf_backend_available(TBRF_BACKEND_OPENCL);
        int st = plan_status(m, TBRF_BACKEND_OPENCL, &picked, msg, sizeof msg);
        printf("opencl without a platform: %s / %s: %s\n", tbrf_strerror(av), tbrf_strerror(st), msg);
        CHECK(av == TBRF_ERR_NO_DEVICE && st == TBRF_ERR_NO_DEVICE, "expected NO_DEVICE, got %s / %s",
              tbrf_strerror(av), tbrf_strerror(st));
        st = plan_status(m, TBRF_BACKEND_AUTO, &picked, msg, sizeof msg);
        CHECK(st == TBRF_OK && (picked == TBRF_BACKEND_CPU || picked == TBRF_BACKEND_CUDA),
              "auto without OpenCL: %s, picked %d", tbrf_strerror(st), picked);
        tbrf_model_destroy(m);
        return check_report("test_gpu_selection opencl-no-platform");
    }
    if (argc > 1 && strcmp(argv[1], "cuda-no-device") == 0) {
        int av = tbrf_backend_available(TBRF_BACKEND_CUDA);
        if (av == TBRF_OK) {
            printf("SKIP cuda-no-device: a CUDA device is present (the conformance suite runs instead)\n");
            tbrf_model_destroy(m);
            return 77;
        }
        CHECK(av == TBRF_ERR_NO_DEVICE, "CUDA built but available() = %s", tbrf_strerror(av));
        int st = plan_status(m, TBRF_BACKEND_CUDA, &picked, msg, sizeof msg);
        printf("cuda without a GPU: %s: %s\n", tbrf_strerror(st), msg);
        CHECK(st == TBRF_ERR_NO_DEVICE, "make_plan(cuda) = %s", tbrf_strerror(st));
        CHECK(strstr(msg, "cuda") != NULL, "message does not name the backend: %s", msg);
        tbrf_model_destroy(m);
        return check_report("test_gpu_selection cuda-no-device");
    }
    static const int ids[] = {TBRF_BACKEND_CPU, TBRF_BACKEND_OPENCL, TBRF_BACKEND_CUDA};
    int ok[3];
    for (int i = 0; i < 3; i++) {
        int av = tbrf_backend_available(ids[i]);
        ok[i] = av == TBRF_OK;
        CHECK(av == TBRF_OK || av == TBRF_ERR_NOT_BUILT || av == TBRF_ERR_NO_DEVICE, "%s: %s",
              tbrf_backend_name(ids[i]), tbrf_strerror(av));
        int st = plan_status(m, ids[i], &picked, msg, sizeof msg);
        printf("backend %-6s: available %s, make_plan %s %s\n", tbrf_backend_name(ids[i]),
               tbrf_strerror(av), tbrf_strerror(st), msg);
        CHECK(st == av, "%s: make_plan %s but available %s", tbrf_backend_name(ids[i]), tbrf_strerror(st),
              tbrf_strerror(av));
        if (st != TBRF_OK)
            CHECK(strstr(msg, tbrf_backend_name(ids[i])) != NULL, "message does not name the backend: %s", msg);
        int lst;
        const backend_ops *b = tbrfi_backend_lookup(ids[i], &lst);
        CHECK(lst == av && (b != NULL) == (av == TBRF_OK), "%s: lookup %s but available %s",
              tbrf_backend_name(ids[i]), tbrf_strerror(lst), tbrf_strerror(av));
        if (b)
            CHECK(b->id == ids[i] && b->name && b->available && b->project_grid && b->project_points &&
                      b->init && b->release && b->message && b->available_gpu && b->mc_chunks &&
                      b->drive_points && b->project_windows,
                  "%s: a slot of the backend table is empty", tbrf_backend_name(ids[i]));
        double r[2];
        int mst = tbrf_mc_integrate_device(ids[i], -1, TBRF_MC_GAUSSIAN, 3, NULL, NULL, 20000, 5, r);
        CHECK(mst == (ids[i] == TBRF_BACKEND_CPU ? TBRF_ERR_INVALID : av), "%s: Monte Carlo %s, available %s",
              tbrf_backend_name(ids[i]), tbrf_strerror(mst), tbrf_strerror(av));
    }
    CHECK(ok[0], "the CPU backend is always available");
#ifdef TEST_HAVE_OPENCL
    extern const backend_ops tbrf_backend_opencl; /* backend.h declares it in the library only */
    /* the inflow sampler's windowed lines run on the CPU only: the OpenCL
     * slot is the stub, with or without a device */
    CHECK(tbrf_backend_opencl.project_windows == tbrfi_backend_no_windows &&
              tbrf_backend_opencl.project_windows(NULL, 0, NULL, NULL, NULL, NULL, NULL) ==
                  TBRF_ERR_UNSUPPORTED,
          "opencl: project_windows should answer TBRF_ERR_UNSUPPORTED");
#endif
    CHECK(tbrf_backend_cpu.project_windows == tbrfi_windows_cpu_project, "cpu: project_windows");
    int st = plan_status(m, TBRF_BACKEND_AUTO, &picked, msg, sizeof msg);
    CHECK(st == TBRF_OK, "auto: %s %s", tbrf_strerror(st), msg);
    int gpus = opencl_gpus();
    printf("auto picked %s (OpenCL GPU devices: %d, CUDA %s)\n", tbrf_backend_name(picked), gpus,
           ok[2] ? "available" : "not available");
    if (ok[2])
        CHECK(picked == TBRF_BACKEND_CUDA, "auto should prefer CUDA, picked %s", tbrf_backend_name(picked));
    else if (ok[1] && gpus > 0)
        CHECK(picked == TBRF_BACKEND_OPENCL, "auto should pick the OpenCL GPU, picked %s",
              tbrf_backend_name(picked));
    else
        CHECK(picked == TBRF_BACKEND_CPU, "no GPU: auto should pick the CPU, picked %s",
              tbrf_backend_name(picked));
    tbrf_model_destroy(m);
    return check_report("test_gpu_selection");
}
