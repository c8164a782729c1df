/* backend_cpu.c — the OpenMP projection of lines onto grids and points.
 *
 * Cache blocking: a tile of TILE_ROWS grid rows x TILE_COLS columns (or
 * TILE_POINTS points) accumulates over blocks of LINE_BLOCK lines, so the
 * tile's accumulators stay in L1 and the line segments it reads (adjacent
 * rows read overlapping segments) stay in L2. Every cell sums its lines in
 * the order 0..L-1 whatever the tiling, chunking or thread count, which is
 * what makes the result bitwise reproducible. */
#include <math.h>
#include <stdlib.h>

#include "backend.h"
#include "parallel.h"
#include "tbrf.h"

enum { TILE_ROWS = 4, TILE_COLS = 256, TILE_POINTS = 256, LINE_BLOCK = 32 };

static int cpu_available(void)
{
    return TBRF_OK;
}

/* Linear interpolation of a line at fractional index t (t >= 0 and
 * t < M - 1 are guaranteed by the domain check and the line sizing). */
static inline double interp(const double *y, double t)
{
    int64_t j = (int64_t)t;
    double f = t - (double)j;
    return y[j] + f * (y[j + 1] - y[j]);
}

static inline void store(void *out, int precision, int64_t idx, double v)
{
    if (precision == TBRF_FLOAT)
        ((float *)out)[idx] = (float)v;
    else
        ((double *)out)[idx] = v;
}

/* Per-line constants of a grid: t(i,j,k) = (base + k*sz + j*sy) + i*sx. */
static double *grid_line_constants(const projection *p, const grid_geom *g)
{
    double *c = malloc(sizeof(double) * 4 * (size_t)p->L);
    if (!c)
        return NULL;
    for (int l = 0; l < p->L; l++) {
        const double *a = p->axis + 3 * l;
        double base = 0.0;
        for (int d = 0; d < p->dim; d++)
            base += (g->origin[d] - p->center[d]) * a[d];
        c[4 * l] = base + p->offset;
        c[4 * l + 1] = g->spacing[0] * a[0];
        c[4 * l + 2] = g->spacing[1] * a[1];
        c[4 * l + 3] = p->dim == 3 ? g->spacing[2] * a[2] : 0.0;
    }
    return c;
}

static int cpu_project_grid(const projection *p, const grid_geom *g, int64_t first, int64_t count,
                            void *out)
{
    if (count <= 0)
        return TBRF_OK;
    const int64_t nx = g->n[0], ny = g->n[1];
    const int64_t last = first + count - 1;
    const int64_t row0 = first / nx, row1 = last / nx;
    const int64_t ngroups = (row1 - row0) / TILE_ROWS + 1;
    const int64_t nsegs = (nx + TILE_COLS - 1) / TILE_COLS;
    const int64_t nwork = ngroups * nsegs;
    double *lc = grid_line_constants(p, g);
    if (!lc)
        return TBRF_ERR_NO_MEMORY;
    const int64_t M = p->M;
    const int L = p->L;

    /* A single tile (small streamed chunks) runs on the calling thread:
     * waking a team per chunk costs more than the work. */
#pragma omp parallel for schedule(dynamic, 1) num_threads(tbrf_threads(p->threads)) if (nwork > 1)
    for (int64_t w = 0; w < nwork; w++) {
        double acc[TILE_ROWS][TILE_COLS];
        int64_t ibeg[TILE_ROWS], iend[TILE_ROWS];
        double jj[TILE_ROWS], kk[TILE_ROWS];
        const int64_t grp = w / nsegs, seg = w % nsegs;
        const int64_t r0 = row0 + grp * TILE_ROWS;
        const int nrows = (int)((row1 - r0 + 1) < TILE_ROWS ? (row1 - r0 + 1) : TILE_ROWS);
        for (int r = 0; r < nrows; r++) {
            int64_t row = r0 + r;
            int64_t lo = seg * TILE_COLS, hi = lo + TILE_COLS < nx ? lo + TILE_COLS : nx;
            if (row == row0 && first % nx > lo)
                lo = first % nx;
            if (row == row1 && last % nx + 1 < hi)
                hi = last % nx + 1;
            ibeg[r] = lo;
            iend[r] = hi;
            jj[r] = (double)(row % ny);
            kk[r] = (double)(row / ny);
            for (int64_t i = lo; i < hi; i++)
                acc[r][i - lo] = 0.0;
        }
        for (int lb = 0; lb < L; lb += LINE_BLOCK) {
            const int le = lb + LINE_BLOCK < L ? lb + LINE_BLOCK : L;
            for (int r = 0; r < nrows; r++) {
                const int64_t lo = ibeg[r], n = iend[r] - lo;
                double *a = acc[r];
                for (int l = lb; l < le; l++) {
                    const double *y = p->lines + (size_t)l * (size_t)M;
                    const double *c = lc + 4 * l;
                    const double rb = (c[0] + kk[r] * c[3]) + jj[r] * c[2];
                    const double sx = c[1];
                    for (int64_t i = 0; i < n; i++)
                        a[i] += interp(y, rb + (double)(lo + i) * sx);
                }
            }
        }
        for (int r = 0; r < nrows; r++) {
            const int64_t base = (r0 + r) * nx - first;
            for (int64_t i = ibeg[r]; i < iend[r]; i++)
                store(out, p->precision, base + i, p->norm * acc[r][i - ibeg[r]]);
        }
    }
    free(lc);
    return TBRF_OK;
}

static int cpu_project_points(const projection *p, int64_t n, const double *xyz, void *out)
{
    if (n <= 0)
        return TBRF_OK;
    const int64_t ntiles = (n + TILE_POINTS - 1) / TILE_POINTS;
    const int dim = p->dim, L = p->L;
    const int64_t M = p->M;

#pragma omp parallel for schedule(dynamic, 1) num_threads(tbrf_threads(p->threads)) if (ntiles > 1)
    for (int64_t w = 0; w < ntiles; w++) {
        double acc[TILE_POINTS], dx[TILE_POINTS], dy[TILE_POINTS], dz[TILE_POINTS];
        const int64_t p0 = w * TILE_POINTS;
        const int np = (int)(n - p0 < TILE_POINTS ? n - p0 : TILE_POINTS);
        for (int i = 0; i < np; i++) {
            const double *x = xyz + (size_t)dim * (size_t)(p0 + i);
            dx[i] = x[0] - p->center[0];
            dy[i] = x[1] - p->center[1];
            dz[i] = dim == 3 ? x[2] - p->center[2] : 0.0;
            acc[i] = 0.0;
        }
        for (int l = 0; l < L; l++) {
            const double *y = p->lines + (size_t)l * (size_t)M;
            const double ax = p->axis[3 * l], ay = p->axis[3 * l + 1], az = p->axis[3 * l + 2];
            for (int i = 0; i < np; i++)
                acc[i] += interp(y, ((dx[i] * ax + dy[i] * ay) + dz[i] * az) + p->offset);
        }
        for (int i = 0; i < np; i++)
            store(out, p->precision, p0 + i, p->norm * acc[i]);
    }
    return TBRF_OK;
}

const backend_ops tbrf_backend_cpu = {
    .id = TBRF_BACKEND_CPU,
    .name = "cpu",
    .available = cpu_available,
    .project_grid = cpu_project_grid,
    .project_points = cpu_project_points,
};
