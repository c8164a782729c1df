/* backend_cpu.c — the OpenMP projection of lines onto grids and points.
 *
 * Cache blocking: a tile of TILE_ROWS grid rows x TILE_COLS columns (or
 * TILE_POINTS points) accumulates over blocks of LINE_BLOCK lines. The
 * line segments a block reads (adjacent rows read overlapping segments)
 * stay in L2 and are reused by all TILE_ROWS rows, so lines come from L3
 * or memory about once per tile (64 rows: 4x less traffic than 16, which
 * is what keeps L = 4096 lines, 59 MB of samples, as fast per line as
 * 1024). Blocks of 16 lines keep the segments one row reads in L1 (48 KB
 * here): with 32 the gathers of the AVX-512 kernel went to L2 and the
 * grid projection took 22% longer on one Sapphire Rapids core (2026-11-24,
 * doc/benchmarks-log.md, "What changed (second pass)"). The inner loops are
 * in cpu_kernels.h: a portable version and
 * AVX2 / AVX-512 versions picked at run time, all giving the same bits.
 * Points are evaluated in Morton order (see morton_order).
 *
 * Every cell sums its lines in the order 0..L-1 whatever the tiling,
 * chunking, thread count or kernel, which is what makes the result bitwise
 * reproducible. Lines stay double: float output must equal the double
 * output rounded (test_determinism), and float line samples would add
 * ~1e-7 relative error per term, far above the 1e-12 the grid and point
 * paths agree to. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/cpu/cpu_kernels.h"
#include "core/parallel.h"
#include "tbrf.h"

enum { TILE_ROWS = 64, TILE_COLS = 256, TILE_POINTS = 2048, LINE_BLOCK = 16 };

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
    return fma(f, y[j + 1] - y[j], y[j]);
}

static inline void store(void *out, int precision, int64_t idx, double v)
{
    if (precision == TBRF_FLOAT)
        ((float *)out)[idx] = (float)v;
    else
        ((double *)out)[idx] = v;
}

/* Portable kernels: the reference for the SIMD ones (cpu_kernels.h). */
void tbrfi_cpu_grid_portable(const double *lines, int64_t M, const double *rb, const double *sx, int nl,
                       int64_t lo, int64_t n, double *acc)
{
    for (int l = 0; l < nl; l++) {
        const double *y = lines + (size_t)l * (size_t)M;
        const double r = rb[l], s = sx[l];
        for (int64_t i = 0; i < n; i++)
            acc[i] += interp(y, fma((double)(lo + i), s, r));
    }
}

void tbrfi_cpu_points_portable(const double *lines, int64_t M, const double *axis, double offset,
                         const double *shift, int nl,
                         int64_t n, const double *dx, const double *dy, const double *dz,
                         double *acc)
{
    for (int l = 0; l < nl; l++) {
        const double *y = lines + (size_t)l * (size_t)M;
        const double ax = axis[3 * l], ay = axis[3 * l + 1], az = axis[3 * l + 2];
        const double off = offset + shift[l];
        for (int64_t i = 0; i < n; i++)
            acc[i] += interp(y, fma(dz[i], az, fma(dy[i], ay, dx[i] * ax)) + off);
    }
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
    double *lc = tbrfi_projection_grid_constants(p, g);
    if (!lc)
        return TBRF_ERR_NO_MEMORY;
    const int64_t M = p->M;
    const int L = p->L;
    const cpu_grid_fn kernel = tbrfi_cpu_grid_kernel(tbrfi_cpu_isa());

    /* A single tile (small streamed chunks) runs on the calling thread:
     * waking a team per chunk costs more than the work. */
    int failed = 0;
#pragma omp parallel num_threads(tbrf_threads(p->threads)) if (nwork > 1)
    {
    /* per thread: the tile's accumulators (TILE_ROWS x TILE_COLS doubles) */
    double (*acc)[TILE_COLS] = malloc(sizeof(double) * TILE_ROWS * TILE_COLS);
    if (!acc) {
#pragma omp atomic write
        failed = 1;
    }
#pragma omp for schedule(dynamic, 1)
    for (int64_t w = 0; w < nwork; w++) {
        if (!acc)
            continue;
        double rb[LINE_BLOCK], sx[LINE_BLOCK];
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
            iend[r] = hi > lo ? hi : lo;
            /* global indices: a cell's value never depends on the box */
            jj[r] = (double)(row % ny + g->start[1]);
            kk[r] = (double)(row / ny + g->start[2]);
            for (int64_t i = lo; i < hi; i++)
                acc[r][i - lo] = 0.0;
        }
        for (int lb = 0; lb < L; lb += LINE_BLOCK) {
            const int nl = lb + LINE_BLOCK < L ? LINE_BLOCK : L - lb;
            for (int r = 0; r < nrows; r++) {
                const int64_t lo = ibeg[r], n = iend[r] - lo;
                if (n <= 0)
                    continue;
                for (int l = 0; l < nl; l++) {
                    const double *c = lc + 4 * (lb + l);
                    rb[l] = (c[0] + kk[r] * c[3]) + jj[r] * c[2];
                    sx[l] = c[1];
                }
                kernel(p->lines + (size_t)lb * (size_t)M, M, rb, sx, nl, lo + g->start[0], n, acc[r]);
            }
        }
        for (int r = 0; r < nrows; r++) {
            const int64_t base = (r0 + r) * nx - first;
            for (int64_t i = ibeg[r]; i < iend[r]; i++)
                store(out, p->precision, base + i, p->norm * acc[r][i - ibeg[r]]);
        }
    }
    free(acc);
    }
    free(lc);
    return failed ? TBRF_ERR_NO_MEMORY : TBRF_OK;
}

/* Points are evaluated in Morton (Z-curve) order of their position, so a
 * tile of TILE_POINTS points is a compact cluster and the line samples it
 * reads stay in cache; each value is still written to the caller's index
 * and computed exactly as it would be in any other order. */
enum { MORTON_MIN = 4096 };

static uint32_t spread3(uint32_t v) /* 10 bits -> every third bit */
{
    v &= 0x3FFu;
    v = (v | (v << 16)) & 0x030000FFu;
    v = (v | (v << 8)) & 0x0300F00Fu;
    v = (v | (v << 4)) & 0x030C30C3u;
    v = (v | (v << 2)) & 0x09249249u;
    return v;
}

static uint32_t spread2(uint32_t v) /* 15 bits -> every second bit */
{
    v &= 0x7FFFu;
    v = (v | (v << 8)) & 0x00FF00FFu;
    v = (v | (v << 4)) & 0x0F0F0F0Fu;
    v = (v | (v << 2)) & 0x33333333u;
    v = (v | (v << 1)) & 0x55555555u;
    return v;
}

/* The permutation that sorts the points by Morton key (30 bits: 10 per
 * axis in 3D, 15 in 2D, over the points' bounding box), by a stable LSD
 * radix sort; NULL if memory is short (then points go in caller order). */
static int64_t *morton_order(int dim, int64_t n, const double *xyz, int threads)
{
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (int d = 0; d < dim; d++)
        lo[d] = hi[d] = xyz[d];
    /* min and max are exact: any split gives the same box */
    double lo0 = lo[0], lo1 = lo[1], lo2 = lo[2], hi0 = hi[0], hi1 = hi[1], hi2 = hi[2];
#pragma omp parallel for schedule(static) num_threads(threads) reduction(min : lo0, lo1, lo2) \
    reduction(max : hi0, hi1, hi2)
    for (int64_t i = 1; i < n; i++) {
        const double *x = xyz + (size_t)dim * (size_t)i;
        lo0 = x[0] < lo0 ? x[0] : lo0;
        hi0 = x[0] > hi0 ? x[0] : hi0;
        lo1 = x[1] < lo1 ? x[1] : lo1;
        hi1 = x[1] > hi1 ? x[1] : hi1;
        if (dim == 3) {
            lo2 = x[2] < lo2 ? x[2] : lo2;
            hi2 = x[2] > hi2 ? x[2] : hi2;
        }
    }
    lo[0] = lo0, lo[1] = lo1, lo[2] = lo2, hi[0] = hi0, hi[1] = hi1, hi[2] = hi2;
    const int bits = dim == 3 ? 10 : 15;
    const double cells = (double)(1 << bits);
    double scale[3];
    for (int d = 0; d < 3; d++)
        scale[d] = hi[d] > lo[d] ? (cells - 0.5) / (hi[d] - lo[d]) : 0.0;
    enum { MAX_SORT_THREADS = 64 };
    const int nt = threads < MAX_SORT_THREADS ? threads : MAX_SORT_THREADS;
    uint32_t *const kbuf = malloc(sizeof(uint32_t) * 2 * (size_t)n);
    int64_t *const ibuf = malloc(sizeof(int64_t) * 2 * (size_t)n);
    int64_t (*cnt)[1024] = malloc(sizeof(int64_t) * 1024 * (size_t)nt);
    if (!kbuf || !ibuf || !cnt) {
        free(kbuf);
        free(ibuf);
        free(cnt);
        return NULL;
    }
    uint32_t *key = kbuf, *k2 = kbuf + n;
    int64_t *idx = ibuf, *i2 = ibuf + n;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t i = 0; i < n; i++) {
        uint32_t q[3] = {0, 0, 0};
        for (int d = 0; d < dim; d++)
            q[d] = (uint32_t)((xyz[(size_t)dim * (size_t)i + (size_t)d] - lo[d]) * scale[d]);
        key[i] = dim == 3 ? spread3(q[0]) | (spread3(q[1]) << 1) | (spread3(q[2]) << 2)
                          : spread2(q[0]) | (spread2(q[1]) << 1);
        idx[i] = i;
    }
    /* Stable LSD radix sort, 10 bits a pass: each of nt fixed slices of
     * the points counts its keys, slice t's bucket b starts after every
     * slice's smaller buckets and the earlier slices' bucket b, so each
     * slice scatters its own points in order (the permutation does not
     * depend on the thread count; values never depend on the order). */
    for (int pass = 0; pass < 3; pass++) {
        const int shift = 10 * pass;
#pragma omp parallel num_threads(nt)
        {
#pragma omp for schedule(static)
            for (int t = 0; t < nt; t++) {
                const int64_t b0 = n * t / nt, b1 = n * (t + 1) / nt;
                memset(cnt[t], 0, sizeof cnt[t]);
                for (int64_t i = b0; i < b1; i++)
                    cnt[t][(key[i] >> shift) & 1023u]++;
            }
#pragma omp single
            {
                int64_t sum = 0;
                for (int b = 0; b < 1024; b++)
                    for (int t = 0; t < nt; t++) {
                        const int64_t c = cnt[t][b];
                        cnt[t][b] = sum;
                        sum += c;
                    }
            }
#pragma omp for schedule(static)
            for (int t = 0; t < nt; t++) {
                const int64_t b0 = n * t / nt, b1 = n * (t + 1) / nt;
                for (int64_t i = b0; i < b1; i++) {
                    const int64_t to = cnt[t][(key[i] >> shift) & 1023u]++;
                    k2[to] = key[i];
                    i2[to] = idx[i];
                }
            }
        }
        uint32_t *tk = key; key = k2; k2 = tk;
        int64_t *ti = idx; idx = i2; i2 = ti;
    }
    if (idx != ibuf)
        memmove(ibuf, idx, sizeof(int64_t) * (size_t)n);
    free(kbuf);
    free(cnt);
    return ibuf;
}

static int cpu_project_points(const projection *p, int64_t n, const double *xyz, void *out)
{
    if (n <= 0)
        return TBRF_OK;
    const int64_t ntiles = (n + TILE_POINTS - 1) / TILE_POINTS;
    const int dim = p->dim, L = p->L;
    const int64_t M = p->M;
    const cpu_points_fn kernel = tbrfi_cpu_points_kernel(tbrfi_cpu_isa());
    int64_t *order = n >= MORTON_MIN ? morton_order(dim, n, xyz, tbrf_threads(p->threads)) : NULL;
    int failed = 0;

#pragma omp parallel num_threads(tbrf_threads(p->threads)) if (ntiles > 1)
    {
        /* per thread: one tile's positions, accumulators and indices */
        double *buf = malloc(sizeof(double) * 4 * TILE_POINTS);
        int64_t *id = malloc(sizeof(int64_t) * TILE_POINTS);
        if (!buf || !id) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t w = 0; w < ntiles; w++) {
            if (!buf || !id)
                continue;
            double *acc = buf, *dx = buf + TILE_POINTS, *dy = buf + 2 * TILE_POINTS,
                   *dz = buf + 3 * TILE_POINTS;
            const int64_t p0 = w * TILE_POINTS;
            const int np = (int)(n - p0 < TILE_POINTS ? n - p0 : TILE_POINTS);
            const int npad = (np + 7) & ~7;
            for (int i = 0; i < npad; i++) {
                const int64_t q = p0 + (i < np ? i : np - 1);
                const int64_t k = order ? order[q] : q;
                const double *x = xyz + (size_t)dim * (size_t)k;
                id[i] = k;
                dx[i] = x[0] - p->center[0];
                dy[i] = x[1] - p->center[1];
                dz[i] = dim == 3 ? x[2] - p->center[2] : 0.0;
                acc[i] = 0.0;
            }
            for (int lb = 0; lb < L; lb += LINE_BLOCK) {
                const int nl = lb + LINE_BLOCK < L ? LINE_BLOCK : L - lb;
                kernel(p->lines + (size_t)lb * (size_t)M, M, p->axis + 3 * (size_t)lb, p->offset,
                       p->axis + 3 * (size_t)L + lb, nl, npad, dx, dy, dz, acc);
            }
            for (int i = 0; i < np; i++)
                store(out, p->precision, id[i], p->norm * acc[i]);
        }
        free(buf);
        free(id);
    }
    free(order);
    return failed ? TBRF_ERR_NO_MEMORY : TBRF_OK;
}

const backend_ops tbrf_backend_cpu = {
    .id = TBRF_BACKEND_CPU,
    .name = "cpu",
    .available = cpu_available,
    .project_grid = cpu_project_grid,
    .project_points = cpu_project_points,
    .init = tbrfi_backend_no_init,
    .release = tbrfi_backend_no_release,
    .message = tbrfi_backend_no_message,
    .available_gpu = tbrfi_backend_no_gpu,
    .mc_chunks = tbrfi_backend_no_mc,
    .drive_points = tbrfi_drive_cpu_points,
    .project_windows = tbrfi_windows_cpu_project,
};
