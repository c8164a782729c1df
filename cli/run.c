/* run.c — running a planned request: values from the library into the
 * output file, the XDMF side file, and the --report. Shared by generate
 * and regenerate, which differ only in how they fill the request. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/measure.h"
#include "request.h"
#ifdef TBRF_CLI_MPI
#include <mpi.h>

#include "io/tbrf_io_mpi.h"
#include "tbrf_mpi.h"
#endif

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Largest grid read back into memory for the --report spectrum. */
#define REPORT_MAX_CELLS ((int64_t)1 << 26)

/* One run's state: the writer and running moments of the values. */
typedef struct run {
    request *r;
    tbrf_io_writer *w;
    progress prog;
    int64_t count;
    double mean, m2;
    double *xyz;    /* streamed points: the piece being evaluated */
    char err[1024]; /* streamed points: why a callback stopped the run */
    int64_t offset; /* MPI: the global number of this rank's first cell */
    void *ln;       /* --lognormal: the transformed chunk (streamed values) */
    size_t ln_size; /* its bytes */
} run;

/* --lognormal: rho/rho_mean = exp(g - v/2), v the variance g carries
 * (request.c, lognormal_shift), in place on n values. */
static void lognormal_apply(const request *r, void *values, int64_t n)
{
    const double v = r->meta.lognormal_shift;
    const double h = 0.5 * (isnan(v) ? r->meta.lognormal_sigma2 : v);
    if (r->meta.opts.precision == TBRF_FLOAT) {
        float *v = values;
        for (int64_t i = 0; i < n; i++)
            v[i] = (float)exp((double)v[i] - h);
    } else {
        double *v = values;
        for (int64_t i = 0; i < n; i++)
            v[i] = exp(v[i] - h);
    }
}

/* The values to write: the library's own, or with --lognormal their
 * transform in u->ln (the library's buffer is not ours to change); NULL
 * when out of memory. */
static const void *lognormal_values(run *u, const void *values, int64_t n)
{
    const request *r = u->r;
    if (!r->meta.lognormal || n <= 0)
        return values;
    const size_t bytes =
        (size_t)n * (r->meta.opts.precision == TBRF_FLOAT ? sizeof(float) : sizeof(double));
    if (bytes > u->ln_size) {
        void *p = realloc(u->ln, bytes);
        if (!p)
            return NULL;
        u->ln = p;
        u->ln_size = bytes;
    }
    memcpy(u->ln, values, bytes);
    lognormal_apply(r, u->ln, n);
    return u->ln;
}

/* Sum of v[0..n-1] (float or double) minus m, squared when sq: eight
 * running partial sums added in a fixed order, so the loop has no
 * dependency chain (a quarter of a 256^3 FFT run was this loop with one)
 * and the result is the same on every run. */
static inline double chunk_sum(const void *values, int isf, int64_t n, double m, int sq)
{
    const float *vf = values;
    const double *vd = values;
    double acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; k++) {
            const double d = (isf ? (double)vf[i + k] : vd[i + k]) - m;
            acc[k] += sq ? d * d : d;
        }
    for (; i < n; i++) {
        const double d = (isf ? (double)vf[i] : vd[i]) - m;
        acc[i % 8] += sq ? d * d : d;
    }
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
}

/* Chan et al.'s pairwise update of running mean and M2 with one chunk,
 * whose own moments are taken in two passes: stable for any grid size.
 * Only --report reads them: without it the two passes over every value
 * (a tenth of a 256^3 FFT run) are skipped. */
static void moments_add(run *u, const void *values, int64_t count)
{
    if (count <= 0 || !u->r->report)
        return;
    int isf = u->r->meta.opts.precision == TBRF_FLOAT;
    /* constant flags: each call is its own branch-free loop */
    double m = (isf ? chunk_sum(values, 1, count, 0.0, 0) : chunk_sum(values, 0, count, 0.0, 0)) /
               (double)count;
    double q = isf ? chunk_sum(values, 1, count, m, 1) : chunk_sum(values, 0, count, m, 1);
    double na = (double)u->count, nb = (double)count, n = na + nb;
    double delta = m - u->mean;
    u->mean += delta * nb / n;
    u->m2 += q + delta * delta * na * nb / n;
    u->count += count;
}

static int push_cb(void *user, int64_t first, int64_t count, const void *values)
{
    run *u = user;
    if (!(values = lognormal_values(u, values, count * u->r->meta.ncomp)))
        return 1;
    if (tbrf_io_grid_push(u->w, u->offset + first, count, values))
        return 1;
    moments_add(u, values, count * u->r->meta.ncomp);
    progress_update(&u->prog, first + count);
    return 0;
}

#ifdef TBRF_CLI_MPI
/* The distributed FFT's pushes carry global cell numbers; the run's
 * progress counts this rank's cells (u->offset its first). */
static int push_fft_cb(void *user, int64_t first, int64_t count, const void *values)
{
    run *u = user;
    return push_cb(u, first - u->offset, count, values);
}

/* Under MPI, the FFT method's grid is one transform distributed over the
 * ranks (tbrf_mpi_fft_stream, FFTW-MPI slabs): each rank fills its own k
 * slab's modes and holds about 1/P of the transform, where a sub-grid
 * would make every rank transform the whole grid. */
static int write_grid_mpi_fft(run *u)
{
    request *r = u->r;
    const tbrf_io_meta *m = &r->meta;
    int64_t start[3], count[3];
    int st = tbrf_mpi_fft_split_grid(MPI_COMM_WORLD, m->dim, m->n, start, count, &u->offset);
    const int64_t step = m->opts.chunk > 0 ? m->opts.chunk : (int64_t)1 << 20;
    if (st == TBRF_OK) {
        progress_begin(&u->prog, count[0] * count[1] * count[2], "cells", r->quiet);
        st = tbrf_mpi_fft_stream(MPI_COMM_WORLD, r->plan, m->n, m->opts.precision, m->opts.vector != TBRF_SCALAR,
                                 m->realization, step, push_fft_cb, u);
        progress_end(&u->prog);
    }
    int rc = tbrf_io_grid_push_done(u->w, st == TBRF_OK);
    if (st == TBRF_ERR_NO_MEMORY)
        cli_errline("FFT method: no memory for this rank's slab of the distributed transform");
    else if (st != TBRF_OK && st != TBRF_ERR_CALLBACK)
        cli_errline("%s", cli_plan_msg(r->plan, st));
    else if (rc && cli_mpi_rank() == 0)
        cli_errline("%s", tbrf_io_message(u->w));
    return st == TBRF_OK && rc == 0 ? 0 : EXIT_FAIL;
}

/* Under MPI: this rank's slab (tbrf_mpi_split_grid) as a sub-grid of the
 * plan's grid, whose cells are bitwise the serial run's, streamed into
 * the shared file. Every rank takes part in every collective push round
 * (tbrf_io_mpi.h), so one that fails makes all fail. */
static int write_grid_mpi(run *u)
{
    request *r = u->r;
    const tbrf_io_meta *m = &r->meta;
    if (cli_mpi_size() > 1 && tbrf_plan_method(r->plan) == TBRF_METHOD_FFT)
        return write_grid_mpi_fft(u);
    int64_t start[3], count[3];
    int st = tbrf_mpi_split_grid(MPI_COMM_WORLD, m->dim, m->n, start, count, &u->offset);
    const char *why = st ? "splitting the grid over the ranks failed" : NULL;
    const int mine = st == TBRF_OK && count[m->dim - 1] > 0;
    if (mine)
        st = tbrf_set_subgrid(r->plan, m->origin, m->spacing, m->n, start, count);
    if (mine && st == TBRF_OK) {
        progress_begin(&u->prog, count[0] * count[1] * count[2], "cells", r->quiet);
        st = tbrf_execute_grid_stream(r->plan, m->realization, push_cb, u);
        progress_end(&u->prog);
    }
    int rc = tbrf_io_grid_push_done(u->w, st == TBRF_OK);
    if (st != TBRF_OK && st != TBRF_ERR_CALLBACK)
        cli_errline("%s", why ? why : cli_plan_msg(r->plan, st));
    else if (rc && cli_mpi_rank() == 0)
        cli_errline("%s", tbrf_io_message(u->w));
    return st == TBRF_OK && rc == 0 ? 0 : EXIT_FAIL;
}
#endif

/* Cells stream from the library straight into the file: the grid is
 * never whole in memory. */
static int write_grid(run *u)
{
    request *r = u->r;
    const tbrf_io_meta *m = &r->meta;
    if (tbrf_io_grid_begin(u->w, m->dim, m->n, m->opts.precision)) {
        cli_errline("%s", tbrf_io_message(u->w));
        return EXIT_FAIL;
    }
#ifdef TBRF_CLI_MPI
    if (cli_mpi_active())
        return write_grid_mpi(u);
#endif
    progress_begin(&u->prog, m->n[0] * m->n[1] * m->n[2], "cells", r->quiet);
    int st = tbrf_execute_grid_stream(r->plan, m->realization, push_cb, u);
    progress_end(&u->prog);
    if (st != TBRF_OK) {
        cli_errline("%s", st == TBRF_ERR_CALLBACK ? tbrf_io_message(u->w)
                                                  : cli_plan_msg(r->plan, st));
        return EXIT_FAIL;
    }
    return 0;
}

/* Streamed points: tbrf_execute_stream pulls positions from the input
 * file piece by piece and pushes each piece's values, which go to the
 * output with their positions before the next piece is read. */
static int pull_cb(void *user, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    run *u = user;
    const request *r = u->r;
    int64_t left = r->meta.npoints - first;
    *count = left < max ? left : max;
    u->xyz = xyz;
    if (*count > 0 && tbrf_io_points_read(r->pts, first, *count, xyz, u->err, sizeof u->err))
        return 1;
    return 0;
}

static int push_points_cb(void *user, int64_t first, int64_t count, const void *values)
{
    run *u = user;
    if (!(values = lognormal_values(u, values, count * u->r->meta.ncomp))) {
        snprintf(u->err, sizeof u->err, "out of memory");
        return 1;
    }
    if (tbrf_io_points_push(u->w, first, count, u->xyz, values)) {
        snprintf(u->err, sizeof u->err, "%s", tbrf_io_message(u->w));
        return 1;
    }
    moments_add(u, values, count * u->r->meta.ncomp);
    progress_update(&u->prog, first + count);
    return 0;
}

static int stream_points(run *u)
{
    request *r = u->r;
    const tbrf_io_meta *m = &r->meta;
    if (tbrf_io_points_begin(u->w, m->dim, m->npoints, m->opts.precision)) {
        cli_errline("%s", tbrf_io_message(u->w));
        return EXIT_FAIL;
    }
    progress_begin(&u->prog, m->npoints, "points", r->quiet);
    int st = tbrf_execute_stream(r->plan, m->realization, pull_cb, push_points_cb, u);
    progress_end(&u->prog);
    if (st != TBRF_OK) {
        cli_errline("%s", st == TBRF_ERR_CALLBACK && u->err[0] ? u->err : cli_plan_msg(r->plan, st));
        return EXIT_FAIL;
    }
    return 0;
}

#ifdef TBRF_CLI_MPI
/* Under MPI: this rank's share of the points (tbrf_mpi_split_points) in
 * pieces, each evaluated alone (a point's value never depends on the
 * others: bitwise the serial run's) and written with its positions in
 * one collective round (tbrf_io_mpi.h). */
static int write_points_mpi(run *u)
{
    enum { PIECE = 65536 };
    request *r = u->r;
    const tbrf_io_meta *m = &r->meta;
    int64_t first = 0, count = 0;
    int st = tbrf_mpi_split_points(MPI_COMM_WORLD, m->npoints, &first, &count);
    if (tbrf_io_points_begin(u->w, m->dim, m->npoints, m->opts.precision))
        st = TBRF_ERR_INVALID, snprintf(u->err, sizeof u->err, "%s", tbrf_io_message(u->w));
    const size_t elt = m->opts.precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    double *xyz = malloc(sizeof(double) * (size_t)m->dim * PIECE);
    void *values = malloc(elt * (size_t)m->ncomp * PIECE);
    if (!st && (!xyz || !values))
        st = TBRF_ERR_NO_MEMORY, snprintf(u->err, sizeof u->err, "out of memory");
    for (int64_t done = 0; st == TBRF_OK && done < count; done += PIECE) {
        const int64_t n = count - done < PIECE ? count - done : PIECE, row = first + done;
        const double *p = r->xyz ? r->xyz + (size_t)m->dim * (size_t)row : xyz;
        if (!r->xyz && tbrf_io_points_read(r->pts, row, n, xyz, u->err, sizeof u->err))
            st = TBRF_ERR_INVALID;
        if (!st && ((st = tbrf_set_points(r->plan, n, p)) || (st = tbrf_execute(r->plan, m->realization, values))))
            snprintf(u->err, sizeof u->err, "%s", cli_plan_msg(r->plan, st));
        if (!st && m->lognormal)
            lognormal_apply(r, values, n * m->ncomp);
        if (!st && tbrf_io_points_push(u->w, row, n, p, values))
            st = TBRF_ERR_CALLBACK; /* another rank failed, or the write did */
        if (!st)
            moments_add(u, values, n * m->ncomp);
    }
    free(xyz);
    free(values);
    int rc = tbrf_io_grid_push_done(u->w, st == TBRF_OK);
    if (st != TBRF_OK && st != TBRF_ERR_CALLBACK)
        cli_errline("%s", u->err);
    else if (rc && cli_mpi_rank() == 0)
        cli_errline("%s", tbrf_io_message(u->w));
    return st == TBRF_OK && rc == 0 ? 0 : EXIT_FAIL;
}
#endif

static int write_points(run *u)
{
#ifdef TBRF_CLI_MPI
    if (cli_mpi_active())
        return write_points_mpi(u);
#endif
    if (u->r->pts)
        return stream_points(u);
    request *r = u->r;
    const tbrf_io_meta *m = &r->meta;
    size_t elt = m->opts.precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    void *values = malloc((size_t)m->npoints * (size_t)m->ncomp * elt);
    if (!values) {
        cli_errline("not enough memory for %lld values", (long long)m->npoints);
        return EXIT_FAIL;
    }
    int rc = 0, st = tbrf_execute(r->plan, m->realization, values);
    if (st != TBRF_OK) {
        cli_errline("%s", cli_plan_msg(r->plan, st));
        rc = EXIT_FAIL;
    } else {
        if (m->lognormal)
            lognormal_apply(r, values, m->npoints * m->ncomp);
        moments_add(u, values, m->npoints * m->ncomp);
        if (tbrf_io_write_points(u->w, m->dim, m->npoints, r->xyz) ||
            tbrf_io_write_values(u->w, m->npoints, m->opts.precision, values)) {
            cli_errline("%s", tbrf_io_message(u->w));
            rc = EXIT_FAIL;
        }
    }
    free(values);
    return rc;
}

/* The spectral slope of the written grid over its clean k range, read
 * back from the file (which also checks what was written). Returns 1
 * with *meas, or 0 with the reason in note. */
typedef struct slope_fit {
    tbrf_measurement meas;
    double klo, khi;
    char note[640];
} slope_fit;

static int measure_slope(const request *r, slope_fit *f)
{
    const tbrf_io_meta *m = &r->meta;
    int64_t cells = m->n[0] * m->n[1] * m->n[2];
    double kf = 0.0, knyq = INFINITY;
    for (int c = 0; c < m->dim; c++) {
        if (m->n[c] < 2)
            continue; /* a one-plane 3D grid is measured as 2D */
        double q = 2.0 * M_PI / ((double)m->n[c] * m->spacing[c]);
        kf = q > kf ? q : kf;
        q = M_PI / m->spacing[c];
        knyq = q < knyq ? q : knyq;
    }
    /* Fit where the estimate is clean: above a few fundamentals (the
     * window's bias falls as (dk/k)^2), below half the grid Nyquist
     * (aliasing), and inside the model's own cut-offs. */
    f->klo = 4.0 * kf;
    f->khi = 0.5 * knyq;
    const cli_model *k = cli_model_find(m->model_kind);
    if (k && (k->allowed & MP_KMAX)) {
        const double kmin = m->param[TBRF_IO_P_KMIN];
        f->klo = fmax(f->klo, 1.25 * (isnan(kmin) ? 0.0 : kmin));
        f->khi = fmin(f->khi, m->param[TBRF_IO_P_KMAX] / 1.25);
    }
    if (cells > REPORT_MAX_CELLS)
        snprintf(f->note, sizeof f->note, "not measured (grid too large to read back)");
    else if (m->n[0] < 2 || m->n[1] < 2)
        snprintf(f->note, sizeof f->note, "not measured (grid too thin)");
    else if (!(f->klo < f->khi))
        snprintf(f->note, sizeof f->note, "not measured (no usable k range: %.4g > %.4g)", f->klo,
                 f->khi);
    else {
        double *field = NULL;
        int64_t nn[3];
        char err[512];
        if (tbrf_io_read_field(r->out, nn, &field, err, sizeof err)) {
            snprintf(f->note, sizeof f->note, "not measured (%s)", err);
            return 0;
        }
        double h[3] = {m->spacing[0], m->spacing[1], m->dim == 3 ? m->spacing[2] : 1.0};
        int ok = tbrf_measure_grid(field, nn, h, f->klo, f->khi, &f->meas) == 0;
        free(field);
        if (ok)
            return 1;
        snprintf(f->note, sizeof f->note,
                 "not measured (fewer than 3 usable shells in the k range)");
    }
    return 0;
}

/* What the model predicts for the measured slope, ending the line. */
static void expected_slope(const tbrf_io_meta *m, const tbrf_model *model)
{
    const cli_model *k = cli_model_find(m->model_kind);
    const double tail = tbrf_model_tail_slope(model, m->dim);
    /* A 3D field sampled on one plane (or line) has the projected
     * spectrum: each thin axis integrated out adds one to the slope. */
    int thin = 0;
    for (int c = 0; c < m->dim; c++)
        thin += m->n[c] < 2;
    int power = k && (k->allowed & MP_INDEX); /* the slope is the model's index */
    if (power && thin > 0)
        printf("   (model index %g; %g expected in this thin slice of a 3D field)\n",
               m->param[TBRF_IO_P_INDEX], m->param[TBRF_IO_P_INDEX] + thin);
    else if (power)
        printf("   (model index %g)\n", m->param[TBRF_IO_P_INDEX]);
    else if (!isnan(tail))
        printf("   (model tends to k^%g at k >> 1/length)\n", tail);
    else
        printf("\n");
}

/* --report: the file and what it holds, measured, on stdout (what was
 * written is the one "wrote" line on stderr, say_wrote: not repeated in
 * another format). */
static void report(const run *u)
{
    const request *r = u->r;
    const tbrf_io_meta *m = &r->meta;
    if (m->is_grid)
        printf("  file      %s (%lld cells)\n", r->out,
               (long long)(m->n[0] * m->n[1] * (m->dim == 3 ? m->n[2] : 1)));
    else
        printf("  file      %s (%lld points)\n", r->out, (long long)m->npoints);
    double mean = u->mean, var = u->count > 0 ? u->m2 / (double)u->count : NAN;
    slope_fit f;
    int have = m->is_grid && measure_slope(r, &f);
    if (have) {
        mean = f.meas.mean;
        var = f.meas.variance;
    }
    printf("  mean      %.6g   (target 0)\n", mean);
    printf("  variance  %.6g   (target %.6g; resolved %.6g)\n", var, m->info.variance,
           m->info.variance_resolved);
    if (!m->is_grid)
        return;
    if (!have) {
        printf("  slope     %s\n", f.note);
        return;
    }
    printf("  slope     %.4f +- %.4f over %.4g <= k <= %.4g (%d shells)", f.meas.slope,
           f.meas.slope_stderr, f.klo, f.khi, f.meas.bins_used);
    expected_slope(m, r->model);
}

/* The points being checked for duplicates (qsort has no context). */
static const double *g_dup_xyz;
static double g_dup_box; /* > 0: compare as float32 coordinates of this box */

/* Coordinate c of point i as the file stores it. */
static double dup_coord(int64_t i, int c)
{
    double x = g_dup_xyz[3 * i + c];
    if (g_dup_box > 0) {
        float f = (float)x;
        if ((double)f >= g_dup_box) /* as io/arepo.c wraps it */
            f = (float)((double)f - g_dup_box);
        x = f;
    }
    return x;
}

static int dup_cmp(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    for (int c = 0; c < 3; c++) {
        double x = dup_coord(a, c), y = dup_coord(b, c);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return (a > b) - (a < b);
}

int cli_refuse_duplicates(const char *cmd, const char *opt, const char *file, int64_t n,
                          const double *xyz, double float_box)
{
    char err[1024], e1[512];
    if (tbrf_io_budget_check(NULL, "the duplicate-point check", 8.0 * (double)n, err,
                             sizeof err)) {
        cli_errline("%s: %s", cmd, err);
        return EXIT_FAIL;
    }
    int64_t *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx);
    if (!idx) {
        cli_errline("%s: out of memory for %lld points", cmd, (long long)n);
        return EXIT_FAIL;
    }
    for (int64_t i = 0; i < n; i++)
        idx[i] = i;
    g_dup_xyz = xyz;
    g_dup_box = float_box;
    qsort(idx, (size_t)n, sizeof *idx, dup_cmp);
    /* the first point (in file order) that repeats an earlier one: equal
     * points sort by row, so that pair starts its run */
    int64_t a = -1, b = -1;
    for (int64_t k = 1; k < n; k++) {
        int same = 1;
        for (int c = 0; c < 3; c++)
            same &= dup_coord(idx[k - 1], c) == dup_coord(idx[k], c);
        if (same && (b < 0 || idx[k] < b)) {
            a = idx[k - 1];
            b = idx[k];
        }
    }
    free(idx);
    if (b < 0)
        return 0;
    cli_errline("%s: %s %s: points %lld and %lld (rows from 0) coincide at (%.17g, %.17g, "
                "%.17g)%s: AREPO cannot build a Voronoi mesh with two cells at one point; "
                "remove the duplicates", cmd, opt, tbrf_io_escape(file, e1, sizeof e1),
                (long long)a, (long long)b, dup_coord(a, 0), dup_coord(a, 1), dup_coord(a, 2),
                float_box > 0 ? " as float32" : "");
    return EXIT_USAGE;
}

/* The output and its side file may not be an input, nor each other:
 * writing them would destroy what the run reads or the data just
 * written. EXIT_USAGE after the message. */
int request_check_paths(const request *r)
{
    const tbrf_io_meta *m = &r->meta;
    struct {
        const char *path, *what;
    } in[3] = {{r->input, "the file being regenerated or sampled"},
               {r->points_from, "the --points input"},
               /* a regenerated table comes from the file, not this name */
               {m->storage ? NULL : m->table_file, "the --table input"}};
    char *side = r->xdmf ? tbrf_io_xdmf_name(r->out) : NULL;
    int rc = 0;
    for (int i = 0; i < 3 && !rc; i++) {
        if (cli_same_file(r->out, in[i].path)) {
            cli_errline("--out %s is %s; write the output elsewhere", r->out, in[i].what);
            rc = EXIT_USAGE;
        } else if (side && cli_same_file(side, in[i].path)) {
            cli_errline("--out %s: its XDMF side file %s is %s; name the output otherwise or "
                        "use --no-xdmf", r->out, side, in[i].what);
            rc = EXIT_USAGE;
        }
    }
    if (!rc && side && cli_same_file(side, r->out)) {
        cli_errline("--out %s: the XDMF side file would replace the output itself; name it "
                    "NAME.h5, or use --no-xdmf", r->out);
        rc = EXIT_USAGE;
    }
    char *outs[2] = {(char *)r->out, side}; /* and every input recorded by cli_input */
    if (!rc)
        rc = cli_refuse_inputs("tbrf", r->out, outs, side ? 2 : 1, NULL, NULL, 0);
    free(side);
    return rc;
}

void request_discard_output(const request *r)
{
    if (!r || !r->out)
        return;
    unlink(r->out);
    char *side = r->xdmf ? tbrf_io_xdmf_name(r->out) : NULL;
    if (side)
        unlink(side);
    free(side);
}

/* Commits with every catchable signal held back, so that the data and
 * its side file are renamed together (a signal arriving meanwhile is
 * delivered afterwards, with nothing left to remove). */
static int commit_held(run *u)
{
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int rc = tbrf_io_commit(u->w);
    cli_unguard_temp();
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

static int write_file(run *u)
{
    request *r = u->r;
    char err[1024];
    int rc = request_check_paths(r);
    if (rc)
        return rc;
    int flags = r->compress ? TBRF_IO_COMPRESS : 0;
    /* Listed before it exists: no signal falls between its creation and
     * its listing. Under MPI another rank's name (its own PID) names no
     * file, and rank 0's replaces it below. */
    if (!cli_mpi_agree(cli_guard_new_temp(r->out) == 0)) {
        cli_unguard_temp();
        if (cli_mpi_rank() == 0)
            cli_errline("cannot write %s: out of memory", r->out);
        return EXIT_FAIL;
    }
#ifdef TBRF_CLI_MPI
    if (cli_mpi_active()) /* one file, every rank writing its part (collective) */
        u->w = tbrf_io_create_mpi_format(r->out, r->format, flags, MPI_COMM_WORLD, err, sizeof err);
    else
#endif
        u->w = tbrf_io_create_format(r->out, r->format, flags, err, sizeof err);
    if (!u->w) {
        cli_unguard_temp();
        if (cli_mpi_rank() == 0)
            cli_errline("%s", err);
        return EXIT_FAIL;
    }
    cli_guard_temp(tbrf_io_temp_path(u->w));
    if (r->xdmf) {
        if (tbrf_io_attach_xdmf(u->w, &r->meta)) {
            cli_errline("%s", tbrf_io_message(u->w));
            return EXIT_FAIL;
        }
        cli_guard_side_temp(tbrf_io_side_temp_path(u->w));
    }
    /* vector values: dim components per position */
    if (r->meta.ncomp > 1 && tbrf_io_set_components(u->w, r->meta.ncomp)) {
        cli_errline("%s", tbrf_io_message(u->w));
        return EXIT_FAIL;
    }
    rc = r->meta.is_grid ? write_grid(u) : write_points(u);
    if (rc)
        return rc;
    /* under MPI both are collective: every rank calls them, and commits
     * only when every rank wrote its attributes */
    int bad = tbrf_io_write_meta(u->w, &r->meta);
    if (bad)
        cli_errline("%s", tbrf_io_message(u->w));
    if (!cli_mpi_agree(!bad))
        return EXIT_FAIL;
    if (commit_held(u)) {
        if (cli_mpi_rank() == 0)
            cli_errline("%s", tbrf_io_message(u->w));
        return EXIT_FAIL;
    }
    return 0;
}

/* "1.5 MiB": a byte count in the largest binary unit that keeps it >= 1. */
void cli_human_size(double bytes, char *buf, size_t n)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 5) {
        bytes /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, n, "%.0f B", bytes);
    else
        snprintf(buf, n, "%.3g %s", bytes, unit[u]);
}

/* One stderr line naming what was written, in the names of the format
 * it was written in (io's registry), e.g.
 * "wrote f.h5 (+ f.xmf): /field 128x128x128 float32, 8 MiB". */
static void say_wrote(const request *r)
{
    const tbrf_io_meta *m = &r->meta;
    const char *prec = m->opts.precision == TBRF_FLOAT ? "float32" : "float64";
    double elt = m->opts.precision == TBRF_FLOAT ? 4.0 : 8.0;
    char *side = r->xdmf ? tbrf_io_xdmf_name(r->out) : NULL;
    char values[96], positions[64], shape[192], size[32], eo[1024], es[1024];
    tbrf_io_format_objects(r->format, m->is_grid, m->dim, m->ncomp, values, sizeof values,
                           positions, sizeof positions);
    /* a vector of one dataset shows its components as a last extent */
    const int split = m->ncomp > 1 && strchr(values, ',') != NULL;
    char comps[16] = "";
    if (m->ncomp > 1 && !split)
        snprintf(comps, sizeof comps, "x%d", m->ncomp);
    double count;
    if (m->is_grid) {
        count = (double)m->n[0] * (double)m->n[1] * (double)(m->dim == 3 ? m->n[2] : 1);
        if (m->dim == 3)
            snprintf(shape, sizeof shape, "%s %lldx%lldx%lld%s", values, (long long)m->n[0],
                     (long long)m->n[1], (long long)m->n[2], comps);
        else
            snprintf(shape, sizeof shape, "%s %lldx%lld%s", values, (long long)m->n[0],
                     (long long)m->n[1], comps);
    } else {
        count = (double)m->npoints;
        snprintf(shape, sizeof shape, "%s %lld%s", values, (long long)m->npoints, comps);
    }
    cli_human_size(count * m->ncomp * elt, size, sizeof size);
    tbrf_io_escape(r->out, eo, sizeof eo);
    fprintf(stderr, "wrote %s", eo);
    if (side)
        fprintf(stderr, " (+ %s)", tbrf_io_escape(side, es, sizeof es));
    fprintf(stderr, ": %s %s%s%s%s, %s\n", shape, prec, positions[0] ? " (+ " : "", positions,
            positions[0] ? ")" : "", size);
    free(side);
}

#ifdef TBRF_CLI_MPI
/* The ranks' running moments combined on rank 0 (Chan et al.'s pairwise
 * update, as moments_add), for --report. */
static void merge_moments(run *u)
{
    double mine[3] = {(double)u->count, u->mean, u->m2};
    const int size = cli_mpi_size();
    double *all = cli_mpi_rank() == 0 ? malloc(sizeof(double) * 3 * (size_t)size) : NULL;
    int ok = all != NULL;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD); /* rank 0 short of memory: no merge */
    if (!ok)
        return;
    MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (!all)
        return;
    u->count = 0;
    u->mean = u->m2 = 0.0;
    for (int k = 0; k < size; k++) {
        double na = (double)u->count, nb = all[3 * k], n = na + nb;
        if (nb <= 0)
            continue;
        double delta = all[3 * k + 1] - u->mean;
        u->mean += delta * nb / n;
        u->m2 += all[3 * k + 2] + delta * delta * na * nb / n;
        u->count += (int64_t)nb;
    }
    free(all);
}
#endif

int request_run(request *r)
{
    run u;
    memset(&u, 0, sizeof u);
    u.r = r;
    r->meta.command = r->command;
    int rc = write_file(&u);
    cli_unguard_temp();
    tbrf_io_close(u.w); /* removes the temporary unless committed */
    free(u.ln);
#ifdef TBRF_CLI_MPI
    if (rc == 0 && r->report && cli_mpi_active()) /* the same flags on every rank */
        merge_moments(&u);
#endif
    if (rc == 0 && !r->quiet && cli_mpi_rank() == 0)
        say_wrote(r);
    if (rc == 0 && r->report && cli_mpi_rank() == 0)
        report(&u);
    return rc;
}
