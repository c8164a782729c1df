/* bench_gpu.c — cell·lines per second of each backend (cpu, opencl, cuda)
 * on n^3 grids (one-shot, or streamed through tbrf_execute_grid_stream for
 * the sizes given with --stream) and on random points, through the public
 * API. For each case it prints: the first execute (device setup is in
 * make_plan; the first execute adds tuning on first use, line synthesis
 * and upload), an execute of a new realization (synthesis + upload +
 * projection) and a repeated execute of the same realization (projection
 * only, the figure in cell·lines/s), and the ratio to the CPU backend
 * timed in the same run on the same case.
 *
 * Usage: bench_gpu [--backends cpu,opencl,cuda] [--grids 128,512]
 *                  [--stream 1024] [--points 10000000] [--lines 1024]
 *                  [--precision float|double] [--device N]
 * Defaults fit a minute on a 2-core PoCL machine: --grids 64,128
 * --points 1000000; on a GPU ask for --grids 128,512 --stream 1024
 * --points 10000000. Backends not built or without a device are reported
 * and skipped. TBRF_WISDOM is honoured (tuning cache). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tbrf.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int discard(void *user, int64_t first, int64_t count, const void *values)
{
    (void)first;
    (void)values;
    *(int64_t *)user += count;
    return 0;
}

static int parse_list(const char *s, long long *v, int max)
{
    int n = 0;
    while (s && *s && n < max) {
        char *end;
        v[n++] = strtoll(s, &end, 10);
        s = *end == ',' ? end + 1 : NULL;
    }
    return n;
}

typedef struct {
    int lines, precision, device;
} bench_cfg;

/* Times one case on one backend; returns projection-only seconds (< 0 if
 * skipped). kind: 0 grid, 1 streamed grid, 2 points. */
static double run_case(int backend, const bench_cfg *c, int kind, long long n, const double *xyz,
                       tbrf_model *m)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.backend = backend;
    o.lines = c->lines;
    o.precision = c->precision;
    o.device = c->device;
    /* grids: n^3 cells of unit spacing; points: uniform in a 256^3 box,
     * resolution 1 (as a 256^3 grid) */
    double nn = kind == 2 ? 256.0 : (double)n;
    double lo[3] = {0, 0, 0}, hi[3] = {nn, nn, nn};
    tbrf_plan *p = NULL;
    double t0 = now();
    int st = tbrf_make_plan(m, 3, lo, hi, 1.0, 1, &o, &p);
    double t_make = now() - t0;
    if (st) {
        printf("    %-6s skipped: %s\n", tbrf_backend_name(backend), tbrf_plan_message(p));
        tbrf_destroy(p);
        return -1.0;
    }
    long long count;
    if (kind == 2) {
        count = n;
        st = tbrf_set_points(p, n, xyz);
    } else {
        const int64_t g[3] = {n, n, n};
        const double org[3] = {0.5, 0.5, 0.5}, sp[3] = {1, 1, 1};
        count = n * n * n;
        st = tbrf_set_grid(p, org, sp, g);
    }
    void *v = NULL;
    size_t vs = c->precision == TBRF_FLOAT ? 4 : 8;
    if (!st && kind != 1) {
        v = malloc((size_t)count * vs);
        if (!v)
            st = TBRF_ERR_NO_MEMORY;
    }
    double t[3] = {0, 0, 0};
    const uint64_t reals[3] = {0, 1, 1};
    for (int r = 0; r < 3 && !st; r++) {
        int64_t pushed = 0;
        t0 = now();
        st = kind == 1 ? tbrf_execute_grid_stream(p, reals[r], discard, &pushed) : tbrf_execute(p, reals[r], v);
        t[r] = now() - t0;
    }
    if (st) {
        printf("    %-6s failed: %s\n", tbrf_backend_name(backend), tbrf_plan_message(p));
        free(v);
        tbrf_destroy(p);
        return -1.0;
    }
    double cl = (double)count * (double)c->lines;
    printf("    %-6s make %.2fs, first %.2fs, new realization %.2fs, projection %.3fs: %.3g cell*lines/s\n",
           tbrf_backend_name(backend), t_make, t[0], t[1], t[2], cl / t[2]);
    free(v);
    tbrf_destroy(p);
    return t[2];
}

int main(int argc, char **argv)
{
    bench_cfg c = {1024, TBRF_FLOAT, -1};
    long long grids[8] = {64, 128}, streams[8] = {0}, npoints = 1000000;
    int ngrids = 2, nstreams = 0;
    int backends[3] = {TBRF_BACKEND_CPU, TBRF_BACKEND_OPENCL, TBRF_BACKEND_CUDA}, nb = 3;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *a = argv[i], *val = argv[i + 1];
        if (!strcmp(a, "--grids"))
            ngrids = parse_list(val, grids, 8);
        else if (!strcmp(a, "--stream"))
            nstreams = parse_list(val, streams, 8);
        else if (!strcmp(a, "--points"))
            npoints = atoll(val);
        else if (!strcmp(a, "--lines"))
            c.lines = atoi(val);
        else if (!strcmp(a, "--device"))
            c.device = atoi(val);
        else if (!strcmp(a, "--precision"))
            c.precision = !strcmp(val, "double") ? TBRF_DOUBLE : TBRF_FLOAT;
        else if (!strcmp(a, "--backends")) {
            nb = 0;
            for (int b = 0; b < 3; b++)
                if (strstr(val, tbrf_backend_name(b)))
                    backends[nb++] = b;
        } else {
            fprintf(stderr, "bench_gpu: unknown option %s (see the header of bench/bench_gpu.c)\n", a);
            return 2;
        }
    }
    tbrf_model *m = NULL;
    if (tbrf_model_powerlaw(-3.0, 0.05, 3.0, &m) != TBRF_OK)
        return 1;
    printf("bench_gpu: %d lines, %s values, powerlaw -3 spectrum\n", c.lines,
           c.precision == TBRF_FLOAT ? "float" : "double");
    for (int b = 0; b < nb; b++)
        printf("  backend %-6s: %s\n", tbrf_backend_name(backends[b]),
               tbrf_strerror(tbrf_backend_available(backends[b])));
    for (int kind = 0; kind < 3; kind++) {
        int ncase = kind == 0 ? ngrids : kind == 1 ? nstreams : (npoints > 0);
        for (int i = 0; i < ncase; i++) {
            long long n = kind == 0 ? grids[i] : kind == 1 ? streams[i] : npoints;
            double *xyz = NULL;
            if (kind == 2) {
                xyz = malloc(sizeof(double) * 3 * (size_t)n);
                if (!xyz)
                    return 1;
                uint64_t s = 12345;
                for (long long j = 0; j < 3 * n; j++) {
                    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
                    xyz[j] = 256.0 * (double)(s >> 11) * 0x1.0p-53;
                }
                printf("  %lld random points:\n", n);
            } else {
                printf("  %lld^3 grid%s:\n", n, kind == 1 ? " (streamed)" : "");
            }
            double tcpu = -1.0;
            for (int b = 0; b < nb; b++) {
                double t = run_case(backends[b], &c, kind, n, xyz, m);
                if (backends[b] == TBRF_BACKEND_CPU)
                    tcpu = t;
                else if (t > 0 && tcpu > 0)
                    printf("           %.2fx the CPU backend\n", tcpu / t);
            }
            free(xyz);
        }
    }
    tbrf_model_destroy(m);
    return 0;
}
