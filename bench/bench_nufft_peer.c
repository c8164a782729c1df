/* bench_nufft_peer.c — tbrf's side of bench/nufft_peer.py (tbrf's periodic
 * fields at points against FINUFFT type 2): one periodic plan of n^3 box
 * modes at the points of a file, timed on request so that the driver can
 * alternate it with FINUFFT in one run.
 * Usage: bench_nufft_peer n eps float|double ncomp points.f64 npts
 *   (points.f64: npts x 3 doubles in [0, 1), the box is [0, 1)^3; ncomp 1
 *   is a scalar field, 3 a solenoidal vector field). Reads commands on
 *   stdin, one per line, answering each with one line:
 *     interp  set_points + execute of the realization already made (the
 *             oversampled grid cached: the interpolation alone, as after
 *             moving points) -> process CPU seconds
 *     full R  set_points + execute of a new realization R (mode synthesis,
 *             the oversampled FFT and the interpolation) -> CPU seconds
 *     quit
 * Process CPU seconds are the figure a loaded machine disturbs least with
 * one thread (run it with OMP_NUM_THREADS=1). Asserts nothing. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tbrf.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int timed(tbrf_plan *p, int64_t npts, const double *xyz, uint64_t r, void *v, double *sec)
{
    const double c0 = cpu_now();
    if (tbrf_set_points(p, npts, xyz) != TBRF_OK || tbrf_execute(p, r, v) != TBRF_OK)
        return 1;
    *sec = cpu_now() - c0;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: %s n eps float|double ncomp points.f64 npts\n", argv[0]);
        return 2;
    }
    const int64_t n = atoll(argv[1]), npts = atoll(argv[6]);
    const int ncomp = atoi(argv[4]), single = strcmp(argv[3], "float") == 0;
    double *xyz = malloc(sizeof(double) * 3 * (size_t)npts);
    void *v = malloc((single ? sizeof(float) : sizeof(double)) * (size_t)ncomp * (size_t)npts);
    FILE *f = fopen(argv[5], "rb");
    if (!xyz || !v || !f || fread(xyz, sizeof(double) * 3, (size_t)npts, f) != (size_t)npts) {
        fprintf(stderr, "cannot read %lld points from %s\n", (long long)npts, argv[5]);
        return 1;
    }
    fclose(f);
    tbrf_model *model = NULL;
    tbrf_model_gaussian(2.0 / (double)n, &model);
    tbrf_opts opts;
    tbrf_default_opts(&opts);
    opts.threads = 1;
    opts.accuracy = atof(argv[2]);
    opts.precision = single ? TBRF_FLOAT : TBRF_DOUBLE;
    opts.vector = ncomp == 3 ? TBRF_VECTOR_SOLENOIDAL : TBRF_SCALAR;
    const double o[3] = {0, 0, 0}, L[3] = {1, 1, 1};
    const int64_t nn[3] = {n, n, n};
    tbrf_plan *p = NULL;
    double sec;
    if (tbrf_make_periodic_plan(model, 3, o, L, nn, 1, &opts, &p) != TBRF_OK ||
        timed(p, npts, xyz, 1, v, &sec)) {
        fprintf(stderr, "%s\n", tbrf_plan_message(p));
        return 1;
    }
    printf("ready\n");
    fflush(stdout);
    char line[64];
    while (fgets(line, sizeof line, stdin) && strncmp(line, "quit", 4) != 0) {
        unsigned long long r = 1;
        if (strncmp(line, "full", 4) == 0)
            r = strtoull(line + 4, NULL, 10);
        if (timed(p, npts, xyz, r, v, &sec)) {
            fprintf(stderr, "%s\n", tbrf_plan_message(p));
            return 1;
        }
        double again; /* untimed: realization 1 stays among the two cached */
        if (r != 1 && timed(p, npts, xyz, 1, v, &again))
            return 1;
        printf("%.6f\n", sec);
        fflush(stdout);
    }
    tbrf_destroy(p);
    tbrf_model_destroy(model);
    free(xyz);
    free(v);
    return 0;
}
