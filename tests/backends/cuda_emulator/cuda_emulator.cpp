/* cuda_emulator.cpp — the CUDA runtime calls of cuda_runtime_api.h on the
 * CPU, so the CUDA backend's code runs in tests on machines without an
 * NVIDIA GPU (CI, developers' laptops). Testing only; it never ships.
 *
 * What it checks that a plain CPU run would not:
 *  - device memory is not host memory: copies must name the right
 *    direction and stay inside one live allocation, kernel pointer
 *    arguments must point into device allocations, freed pointers are
 *    refused; new device and pinned memory is filled with 0xff bytes
 *    (NaN in float and double), so reading what was never written shows;
 *  - streams run only what the declared order forces (schedule "lazy", the
 *    default): work runs when the host waits on a stream, an event or the
 *    device, or frees memory, and then only the work that the wait depends
 *    on through stream order and cudaStreamWaitEvent. A missing event
 *    dependency therefore shows as wrong values, not as a rare race.
 *    "eager" runs work at once; "random:SEED" also runs a few random
 *    ready operations at every call;
 *  - a cudaMemcpy from pageable host memory to the device may complete
 *    after it returns (the runtime documentation says so): the source is
 *    staged at the call and written when the legacy stream runs;
 *  - launch shapes beyond the limits of current GPUs fail as on a GPU;
 *  - a device-memory limit (allocations beyond it fail), injected
 *    allocation failures, and a check at exit that every allocation,
 *    stream and event was released.
 * Kernels run one thread after another (no shared memory or barriers are
 * emulated; tbrf's kernels use neither).
 *
 * Environment (read when first used; FAIL_ALLOC at every allocation):
 *   TBRF_CUDA_EMU_DEVICES     number of devices (default 0: no device)
 *   TBRF_CUDA_EMU_MEMORY_MIB  device memory in MiB (default 1024)
 *   TBRF_CUDA_EMU_SCHEDULE    lazy (default) | eager | random:SEED
 *   TBRF_CUDA_EMU_FAIL_ALLOC  N: the N-th device or pinned allocation
 *                             after the variable took this value fails
 *   TBRF_CUDA_EMU_NO_KERNEL_IMAGE  1: as on a GPU whose architecture the
 *                             kernels were not built for: queries and
 *                             launches fail with cudaErrorNoKernelImageForDevice */
#include "cuda_runtime.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

thread_local uint3 threadIdx, blockIdx;
thread_local dim3 blockDim, gridDim;

namespace {

struct Op {
    enum Kind { work, record, wait } kind;
    uint64_t seq;
    std::function<void()> fn;       /* work */
    tbrf_emu_event *event;          /* record */
    tbrf_emu_stream *src;           /* wait: the stream of the awaited record */
    uint64_t src_seq;               /*       and its sequence number */
};

} // namespace

struct tbrf_emu_stream {
    unsigned flags;
    std::deque<Op> q;
};

struct tbrf_emu_event {
    unsigned flags;
    tbrf_emu_stream *stream; /* of the latest record; null: never recorded */
    uint64_t seq;            /* of the latest record */
    bool done;               /* the latest record has run */
    double ms;               /* when it ran */
};

namespace {

enum class Policy { lazy, eager, random };

struct Device {
    std::recursive_mutex mu;
    int ndev = 0, current = 0;
    size_t limit = (size_t)1024 << 20, in_use = 0;
    Policy policy = Policy::lazy;
    bool no_image = false;
    std::mt19937_64 rng;
    std::map<const char *, size_t> dev, pinned; /* base -> bytes */
    std::vector<tbrf_emu_stream *> streams;     /* created, live */
    std::vector<tbrf_emu_event *> events;
    tbrf_emu_stream legacy{cudaStreamDefault, {}};
    uint64_t next_seq = 1;
    std::string fail_setting;
    long fail_count = 0;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();

    Device()
    {
        if (const char *e = getenv("TBRF_CUDA_EMU_DEVICES"))
            ndev = atoi(e) > 0 ? atoi(e) : 0;
        if (const char *e = getenv("TBRF_CUDA_EMU_MEMORY_MIB"))
            if (atol(e) > 0)
                limit = (size_t)atol(e) << 20;
        if (const char *e = getenv("TBRF_CUDA_EMU_NO_KERNEL_IMAGE"))
            no_image = atoi(e) != 0;
        if (const char *e = getenv("TBRF_CUDA_EMU_SCHEDULE")) {
            if (strcmp(e, "eager") == 0)
                policy = Policy::eager;
            else if (strncmp(e, "random", 6) == 0) {
                policy = Policy::random;
                rng.seed(e[6] == ':' ? strtoull(e + 7, nullptr, 10) : 1);
            }
        }
    }

    /* At exit: what a program left allocated on the device. */
    ~Device()
    {
        if (dev.empty() && pinned.empty() && streams.empty() && events.empty())
            return;
        fprintf(stderr,
                "cuda emulator: at exit %zu device allocation(s) (%zu bytes), %zu pinned "
                "allocation(s), %zu stream(s) and %zu event(s) were never released\n",
                dev.size(), in_use, pinned.size(), streams.size(), events.size());
        fflush(stderr);
        _exit(1);
    }
};

Device &device()
{
    static Device d;
    return d;
}

thread_local cudaError_t last_error = cudaSuccess;

cudaError_t fail(cudaError_t e, const char *why = nullptr)
{
    if (why)
        fprintf(stderr, "cuda emulator: %s\n", why);
    last_error = e;
    return e;
}

double now_ms(const Device &d)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - d.t0).count();
}

/* The allocation of `m` that holds [p, p + n), or m.end(). */
std::map<const char *, size_t>::const_iterator holder(const std::map<const char *, size_t> &m,
                                                      const void *p, size_t n)
{
    const char *c = static_cast<const char *>(p);
    auto it = m.upper_bound(c);
    if (it == m.begin())
        return m.end();
    --it;
    if (c >= it->first && n <= it->second && (size_t)(c - it->first) <= it->second - n)
        return it;
    return m.end();
}

bool in_device(const Device &d, const void *p, size_t n) { return holder(d.dev, p, n) != d.dev.end(); }
bool in_pinned(const Device &d, const void *p, size_t n) { return holder(d.pinned, p, n) != d.pinned.end(); }

/* Has the op with sequence number seq on stream s run? */
bool executed(const tbrf_emu_stream *s, uint64_t seq) { return !s || s->q.empty() || s->q.front().seq > seq; }

bool ready(const tbrf_emu_stream *s)
{
    return !s->q.empty() && (s->q.front().kind != Op::wait || executed(s->q.front().src, s->q.front().src_seq));
}

void run_head(Device &d, tbrf_emu_stream *s)
{
    Op op = std::move(s->q.front());
    s->q.pop_front();
    if (op.kind == Op::work)
        op.fn();
    else if (op.kind == Op::record && op.event && op.event->seq == op.seq) {
        op.event->done = true;
        op.event->ms = now_ms(d);
    }
}

/* Runs stream s up to and including the op numbered seq, and first what
 * each of those ops waits for. */
void complete(Device &d, tbrf_emu_stream *s, uint64_t seq)
{
    while (!s->q.empty() && s->q.front().seq <= seq) {
        const Op &h = s->q.front();
        if (h.kind == Op::wait && !executed(h.src, h.src_seq))
            complete(d, h.src, h.src_seq);
        run_head(d, s);
    }
}

void drain(Device &d, tbrf_emu_stream *s) { complete(d, s, UINT64_MAX); }

/* The legacy default stream, then the created ones. */
std::vector<tbrf_emu_stream *> all_streams(Device &d)
{
    std::vector<tbrf_emu_stream *> all{&d.legacy};
    all.insert(all.end(), d.streams.begin(), d.streams.end());
    return all;
}

void drain_all(Device &d)
{
    for (tbrf_emu_stream *s : all_streams(d))
        drain(d, s);
}

/* The schedule's share of the work at every call. */
void progress(Device &d)
{
    if (d.policy == Policy::lazy)
        return;
    const std::vector<tbrf_emu_stream *> all = all_streams(d);
    if (d.policy == Policy::eager) {
        for (bool moved = true; moved;) {
            moved = false;
            for (tbrf_emu_stream *s : all)
                while (ready(s)) {
                    run_head(d, s);
                    moved = true;
                }
        }
        return;
    }
    for (int k = (int)(d.rng() % 4); k > 0; k--) {
        std::vector<tbrf_emu_stream *> r;
        for (tbrf_emu_stream *s : all)
            if (ready(s))
                r.push_back(s);
        if (r.empty())
            return;
        run_head(d, r[d.rng() % r.size()]);
    }
}

bool known_stream(const Device &d, cudaStream_t s)
{
    if (!s)
        return true;
    for (tbrf_emu_stream *x : d.streams)
        if (x == s)
            return true;
    return false;
}

bool known_event(const Device &d, cudaEvent_t e)
{
    for (tbrf_emu_event *x : d.events)
        if (x == e)
            return true;
    return false;
}

/* Queues an op on stream s (null: the legacy default stream, which waits
 * for the blocking streams and is waited for by them). */
uint64_t enqueue(Device &d, cudaStream_t s, Op op)
{
    tbrf_emu_stream *t = s ? s : &d.legacy;
    if (!s) {
        for (tbrf_emu_stream *x : d.streams)
            if (!(x->flags & cudaStreamNonBlocking))
                drain(d, x);
    } else if (!(s->flags & cudaStreamNonBlocking))
        drain(d, &d.legacy);
    const uint64_t seq = op.seq = d.next_seq++;
    t->q.push_back(std::move(op));
    progress(d);
    return seq;
}

Op work(std::function<void()> fn) { return Op{Op::work, 0, std::move(fn), nullptr, nullptr, 0}; }

/* The injected failure of TBRF_CUDA_EMU_FAIL_ALLOC, counted from the
 * moment the variable took its current value. */
bool injected_failure(Device &d)
{
    const char *e = getenv("TBRF_CUDA_EMU_FAIL_ALLOC");
    std::string v = e ? e : "";
    if (v != d.fail_setting) {
        d.fail_setting = v;
        d.fail_count = 0;
    }
    if (v.empty())
        return false;
    return ++d.fail_count == atol(v.c_str());
}

/* Checks a copy's pointers against its direction; cudaSuccess or why not. */
cudaError_t check_copy(const Device &d, void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    if (n == 0)
        return cudaSuccess;
    if (!dst || !src)
        return fail(cudaErrorInvalidValue, "null pointer in a copy");
    const bool ddev = in_device(d, dst, 1), sdev = in_device(d, src, 1);
    if (kind == cudaMemcpyDefault)
        kind = ddev ? (sdev ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                    : (sdev ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    const bool want_ddev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    const bool want_sdev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (kind > cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection, "unknown copy direction");
    if (want_ddev != ddev || want_sdev != sdev) {
        char why[160];
        snprintf(why, sizeof why, "copy of kind %d: destination %s device memory, source %s", (int)kind,
                 ddev ? "is" : "is not", sdev ? "is device memory" : "is not device memory");
        return fail(cudaErrorInvalidValue, why);
    }
    if ((want_ddev && !in_device(d, dst, n)) || (want_sdev && !in_device(d, src, n)))
        return fail(cudaErrorInvalidValue, "copy runs past the end of a device allocation");
    return cudaSuccess;
}

void run_kernel(dim3 grid, dim3 block, const std::function<void()> &body)
{
    gridDim = grid;
    blockDim = block;
    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++) {
                blockIdx = uint3{bx, by, bz};
                for (unsigned tz = 0; tz < block.z; tz++)
                    for (unsigned ty = 0; ty < block.y; ty++)
                        for (unsigned tx = 0; tx < block.x; tx++) {
                            threadIdx = uint3{tx, ty, tz};
                            body();
                        }
            }
}

cudaError_t no_device(const Device &d)
{
    return d.ndev > 0 ? cudaSuccess : fail(cudaErrorNoDevice);
}

} // namespace

namespace tbrf_emu {

cudaError_t launch_config_error(dim3 g, dim3 b)
{
    const unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    if (threads == 0 || threads > 1024 || b.z > 64 || g.x == 0 || g.y == 0 || g.z == 0 ||
        g.x > 2147483647u || g.y > 65535u || g.z > 65535u)
        return cudaErrorInvalidConfiguration;
    return cudaSuccess;
}

bool device_pointer(const void *p)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    return in_device(d, p, 1);
}

void enqueue_kernel(cudaStream_t stream, dim3 grid, dim3 block, std::function<void()> body, cudaError_t err)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (err == cudaSuccess && (err = no_device(d)) != cudaSuccess)
        return;
    if (err == cudaSuccess && d.no_image)
        err = cudaErrorNoKernelImageForDevice;
    if (err == cudaSuccess && !known_stream(d, stream))
        err = cudaErrorInvalidResourceHandle;
    if (err != cudaSuccess) {
        fail(err, err == cudaErrorIllegalAddress ? "a kernel argument points outside device memory"
                  : err == cudaErrorInvalidConfiguration ? "launch shape beyond the device limits"
                                                         : nullptr);
        return;
    }
    enqueue(d, stream, work([grid, block, body]() { run_kernel(grid, block, body); }));
}

} // namespace tbrf_emu

extern "C" {

const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNoKernelImageForDevice: return "no kernel image is available for execution on the device";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    }
    return "unrecognized error code";
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void) { return last_error; }

cudaError_t cudaDriverGetVersion(int *version)
{
    if (!version)
        return fail(cudaErrorInvalidValue);
    *version = device().ndev > 0 ? 13000 : 0;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    Device &d = device();
    if (!count)
        return fail(cudaErrorInvalidValue);
    *count = d.ndev;
    return no_device(d);
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int dev)
{
    Device &d = device();
    if (!prop)
        return fail(cudaErrorInvalidValue);
    if (no_device(d))
        return last_error;
    if (dev < 0 || dev >= d.ndev)
        return fail(cudaErrorInvalidDevice);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "tbrf CUDA emulator (CPU)");
    prop->totalGlobalMem = d.limit;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
    prop->multiProcessorCount = 1;
    prop->major = 9;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int dev)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (no_device(d))
        return last_error;
    if (dev < 0 || dev >= d.ndev)
        return fail(cudaErrorInvalidDevice);
    d.current = dev;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *dev)
{
    Device &d = device();
    if (!dev)
        return fail(cudaErrorInvalidValue);
    if (no_device(d))
        return last_error;
    *dev = d.current;
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (no_device(d))
        return last_error;
    drain_all(d);
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    Device &d = device();
    if (!attr || !func)
        return fail(cudaErrorInvalidValue);
    if (no_device(d))
        return last_error;
    if (d.no_image)
        return fail(cudaErrorNoKernelImageForDevice);
    attr->maxThreadsPerBlock = 1024;
    attr->numRegs = 32;
    attr->sharedSizeBytes = 0;
    return cudaSuccess;
}

static cudaError_t allocate(std::map<const char *, size_t> &m, bool on_device, void **ptr, size_t bytes)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (!ptr)
        return fail(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (no_device(d))
        return last_error;
    progress(d);
    if (bytes == 0)
        return cudaSuccess;
    if (injected_failure(d) || (on_device && bytes > d.limit - d.in_use))
        return fail(cudaErrorMemoryAllocation);
    char *p = static_cast<char *>(malloc(bytes));
    if (!p)
        return fail(cudaErrorMemoryAllocation);
    memset(p, 0xff, bytes);
    m[p] = bytes;
    if (on_device)
        d.in_use += bytes;
    *ptr = p;
    return cudaSuccess;
}

/* Frees a block of m; like the runtime, waits for all device work first. */
static cudaError_t release(std::map<const char *, size_t> &m, bool on_device, void *ptr)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (!ptr)
        return cudaSuccess;
    auto it = m.find(static_cast<const char *>(ptr));
    if (it == m.end())
        return fail(cudaErrorInvalidValue, on_device ? "cudaFree of a pointer cudaMalloc did not return"
                                                     : "cudaFreeHost of a pointer cudaMallocHost did not return");
    drain_all(d);
    if (on_device)
        d.in_use -= it->second;
    m.erase(it);
    free(ptr);
    return cudaSuccess;
}

cudaError_t cudaMalloc(void **ptr, size_t bytes) { return allocate(device().dev, true, ptr, bytes); }
cudaError_t cudaFree(void *ptr) { return release(device().dev, true, ptr); }
cudaError_t cudaMallocHost(void **ptr, size_t bytes) { return allocate(device().pinned, false, ptr, bytes); }
cudaError_t cudaFreeHost(void *ptr) { return release(device().pinned, false, ptr); }

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (no_device(d))
        return last_error;
    cudaError_t e = check_copy(d, dst, src, n, kind);
    if (e != cudaSuccess || n == 0)
        return e;
    if (!in_device(d, src, 1) && in_device(d, dst, 1) && !in_pinned(d, src, n)) {
        /* pageable to device: staged now, may land after the return */
        auto staged = std::make_shared<std::vector<char>>(static_cast<const char *>(src),
                                                          static_cast<const char *>(src) + n);
        enqueue(d, nullptr, work([dst, staged]() { memcpy(dst, staged->data(), staged->size()); }));
        return cudaSuccess;
    }
    uint64_t seq = enqueue(d, nullptr, work([dst, src, n]() { memcpy(dst, src, n); }));
    complete(d, &d.legacy, seq); /* and all legacy work before it */
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t s)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (no_device(d))
        return last_error;
    if (!known_stream(d, s))
        return fail(cudaErrorInvalidResourceHandle, "cudaMemcpyAsync on an unknown stream");
    cudaError_t e = check_copy(d, dst, src, n, kind);
    if (e != cudaSuccess || n == 0)
        return e;
    enqueue(d, s, work([dst, src, n]() { memcpy(dst, src, n); }));
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (!s || flags > cudaStreamNonBlocking)
        return fail(cudaErrorInvalidValue);
    if (no_device(d))
        return last_error;
    *s = new tbrf_emu_stream{flags, {}};
    d.streams.push_back(*s);
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (!s || !known_stream(d, s))
        return fail(cudaErrorInvalidResourceHandle, "cudaStreamDestroy of an unknown stream");
    drain(d, s);
    /* waits on its records are satisfied now: point them at nothing */
    for (tbrf_emu_stream *x : all_streams(d))
        for (Op &op : x->q)
            if (op.kind == Op::wait && op.src == s)
                op.src = nullptr;
    for (tbrf_emu_event *e : d.events)
        if (e->stream == s)
            e->stream = nullptr;
    for (size_t i = 0; i < d.streams.size(); i++)
        if (d.streams[i] == s)
            d.streams.erase(d.streams.begin() + (long)i);
    delete s;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (no_device(d))
        return last_error;
    if (!known_stream(d, s))
        return fail(cudaErrorInvalidResourceHandle, "cudaStreamSynchronize of an unknown stream");
    progress(d);
    drain(d, s ? s : &d.legacy);
    return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (no_device(d))
        return last_error;
    if (!known_stream(d, s) || !known_event(d, e) || flags != 0)
        return fail(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent: unknown stream or event");
    if (!e->stream || e->done) /* never recorded, or its record has run */
        return cudaSuccess;
    Op op{Op::wait, 0, {}, nullptr, e->stream, e->seq};
    enqueue(d, s, std::move(op));
    return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (!e || flags > (cudaEventBlockingSync | cudaEventDisableTiming))
        return fail(cudaErrorInvalidValue);
    if (no_device(d))
        return last_error;
    *e = new tbrf_emu_event{flags, nullptr, 0, false, 0.0};
    d.events.push_back(*e);
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (!known_event(d, e))
        return fail(cudaErrorInvalidResourceHandle, "cudaEventDestroy of an unknown event");
    for (tbrf_emu_stream *s : all_streams(d))
        for (Op &op : s->q)
            if (op.kind == Op::record && op.event == e)
                op.event = nullptr;
    for (size_t i = 0; i < d.events.size(); i++)
        if (d.events[i] == e)
            d.events.erase(d.events.begin() + (long)i);
    delete e;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (no_device(d))
        return last_error;
    if (!known_event(d, e) || !known_stream(d, s))
        return fail(cudaErrorInvalidResourceHandle, "cudaEventRecord: unknown stream or event");
    e->stream = s ? s : &d.legacy;
    e->done = false;
    e->seq = d.next_seq; /* the number enqueue gives the record */
    enqueue(d, s, Op{Op::record, 0, {}, e, nullptr, 0});
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (!known_event(d, e))
        return fail(cudaErrorInvalidResourceHandle, "cudaEventSynchronize of an unknown event");
    progress(d);
    if (e->stream && !e->done)
        complete(d, e->stream, e->seq);
    return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    Device &d = device();
    std::lock_guard<std::recursive_mutex> lock(d.mu);
    if (!ms)
        return fail(cudaErrorInvalidValue);
    if (!known_event(d, a) || !known_event(d, b) || ((a->flags | b->flags) & cudaEventDisableTiming) ||
        !a->stream || !b->stream)
        return fail(cudaErrorInvalidResourceHandle);
    if (!a->done || !b->done)
        return fail(cudaErrorNotReady);
    *ms = (float)(b->ms - a->ms);
    return cudaSuccess;
}

} // extern "C"
