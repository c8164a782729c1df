/* bench_inflow_tube.c — the 256 x 256 x 10000 tube of the planetary-nebula
 * runs written out of core through the inflow sampler's line windows and
 * the installed writer: slabs of z planes filled with
 * tbrf_inflow_fill_grid at t = 0, rounded to float and pushed to
 * tbrf_writer. Prints the time and the line memory; run it under
 * /usr/bin/time -v for the peak RSS (doc/benchmarks-log.md, "Inflow sampler").
 * The baseline, `tbrf generate --grid 256x256x10000` (the plan's whole
 * lines), is timed the same way beside it.
 *
 *   bench_inflow_tube OUT.h5 [NX NY NZ [double|float]]  (default 256 256 10000 float) */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tbrf.h"
#include "tbrf_writer.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_inflow_tube OUT.h5 [NX NY NZ [double|float]]\n");
        return 2;
    }
    const int64_t n[3] = {argc > 4 ? atoll(argv[2]) : 256, argc > 4 ? atoll(argv[3]) : 256,
                          argc > 4 ? atoll(argv[4]) : 10000};
    const int prec = argc > 5 && strcmp(argv[5], "double") == 0 ? TBRF_DOUBLE : TBRF_FLOAT;
    const double lo[3] = {0, 0, 0}, hi[3] = {n[0] - 1, n[1] - 1, n[2] - 1}, v[3] = {0, 0, 1};
    const double spacing[3] = {1, 1, 1};
    tbrf_model *m = NULL;
    tbrf_inflow *in = NULL;
    tbrf_writer *w = NULL;
    tbrf_opts o;
    tbrf_default_opts(&o);
    double t0 = now();
    /* the model of doc/benchmarks-log.md's tube: --index -3.6667 --kmin 0.02 --kmax 3, seed 7 */
    if (tbrf_model_powerlaw(-3.6667, 0.02, 3.0, &m) ||
        tbrf_inflow_create(m, 3, lo, hi, 1.0, 7, 0, &o, v, prec, &in)) {
        fprintf(stderr, "inflow: %s\n", tbrf_inflow_message(in));
        return 1;
    }
    const double tl = now() - t0;
    const int64_t slab = 16; /* z planes per fill: 1M cells */
    double *val = malloc(sizeof(double) * (size_t)(n[0] * n[1] * slab));
    float *f = malloc(sizeof(float) * (size_t)(n[0] * n[1] * slab));
    int st = tbrf_writer_create(argv[1], 0, &w);
    if (!st)
        st = tbrf_writer_grid_begin(w, 3, lo, spacing, n, TBRF_FLOAT);
    for (int64_t k = 0; !st && k < n[2]; k += slab) {
        const int64_t nk = n[2] - k < slab ? n[2] - k : slab;
        const double origin[3] = {0, 0, (double)k};
        const int64_t cnt[3] = {n[0], n[1], nk}, cells = n[0] * n[1] * nk;
        st = tbrf_inflow_fill_grid(in, 0.0, origin, spacing, cnt, val);
        for (int64_t i = 0; !st && i < cells; i++)
            f[i] = (float)val[i];
        if (!st)
            st = tbrf_writer_push(w, k * n[0] * n[1], cells, f);
    }
    if (!st)
        st = tbrf_writer_commit(w);
    if (st)
        fprintf(stderr, "%s: %s %s\n", tbrf_strerror(st), tbrf_inflow_message(in), tbrf_writer_message(w));
    printf("tube %lld x %lld x %lld, %s line windows %.1f MiB (a plan: %.1f MiB): lines made in %.2f s, "
           "total %.1f s\n", (long long)n[0], (long long)n[1], (long long)n[2],
           prec == TBRF_FLOAT ? "float" : "double", tbrf_inflow_line_bytes(in, 0) / 1048576.0,
           tbrf_inflow_line_bytes(in, 1) / 1048576.0, tl, now() - t0);
    tbrf_writer_close(w);
    tbrf_inflow_destroy(in);
    tbrf_model_destroy(m);
    free(val);
    free(f);
    return st ? 1 : 0;
}
