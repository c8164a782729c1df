/* voronoi.c — periodic Voronoi cell volumes with Qhull
 * (tbrf_ic_voronoi_volumes, tbrf.h "initial conditions").
 *
 * AREPO's gas density is mass / Voronoi volume of the mesh-generating
 * point, so masses that give an intended density need each cell's volume
 * in the periodic box. Method: the points and their periodic images within
 * a margin m of the faces go to Qhull's Delaunay/Voronoi ("qhull v Qbb",
 * whose default merging treats cospherical points, e.g. a lattice,
 * exactly); each original point's cell is the convex hull of the Voronoi
 * vertices of its Delaunay facets, whose volume a second Qhull call
 * measures. A cell is trusted only if every one of its vertices' empty
 * circumspheres lies inside the replicated region [-m, box + m]^3 (then no
 * missing image could be closer); otherwise m doubles, up to the whole
 * box. Deterministic: Qhull runs without joggle or random rotation. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"
#include "apps/ic/ic_internal.h"

#ifdef TBRF_HAVE_QHULL
#include <libqhull_r/qhull_ra.h>

/* Qhull's error text goes to a memory stream, then into our message. */
typedef struct qh_log {
    char *buf;
    size_t len;
    FILE *f;
} qh_log;

static void log_open(qh_log *l)
{
    l->buf = NULL;
    l->len = 0;
    l->f = open_memstream(&l->buf, &l->len);
}

static void log_close(qh_log *l)
{
    if (l->f)
        fclose(l->f);
    free(l->buf);
}

/* The last line Qhull wrote, for a one-line message. */
static const char *log_text(qh_log *l)
{
    if (!l->f)
        return "";
    fflush(l->f);
    if (!l->buf)
        return "";
    char *s = l->buf;
    while (*s == ' ' || *s == '\n')
        s++;
    char *nl = strchr(s, '\n');
    if (nl)
        *nl = '\0';
    return s;
}

/* The points with their images within margin m: out[3 * k], the index of
 * the original in orig[k] (originals first, k < n). */
static int64_t replicate(int64_t n, const double *xyz, double box, double m, double *out,
                         int64_t *orig, int64_t room)
{
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        memcpy(out + 3 * k, xyz + 3 * i, 3 * sizeof(double));
        orig[k++] = i;
    }
    for (int s = 0; s < 27; s++) {
        int sh[3] = {s % 3 - 1, s / 3 % 3 - 1, s / 9 - 1};
        if (!sh[0] && !sh[1] && !sh[2])
            continue;
        for (int64_t i = 0; i < n; i++) {
            double p[3];
            int in = 1;
            for (int c = 0; c < 3; c++) {
                p[c] = xyz[3 * i + c] + sh[c] * box;
                in &= p[c] >= -m && p[c] <= box + m;
            }
            if (!in)
                continue;
            if (k >= room)
                return -1;
            memcpy(out + 3 * k, p, sizeof p);
            orig[k++] = i;
        }
    }
    return k;
}

/* Volume of the convex hull of k points (3k), by a fresh Qhull run
 * whose messages go to `null`. */
static double hull_volume(int k, double *pts, FILE *null)
{
    qhT qh_qh, *qh = &qh_qh;
    qh_zero(qh, null);
    double v = NAN;
    if (qh_new_qhull(qh, 3, k, pts, False, "qhull Qt", NULL, null) == 0) {
        qh_getarea(qh, qh->facet_list);
        v = qh->totvol;
    }
    int curlong, totlong;
    qh_freeqhull(qh, !qh_ALL);
    qh_memfreeshort(qh, &curlong, &totlong);
    return v;
}

/* Every original point's cell from the Voronoi diagram in qh: its volume
 * into vol. 1 done, 0 a cell is unbounded or reaches beyond the margin m
 * (retry wider), -1 a degenerate cell (message set). cell: room for 4096
 * vertices. */
static int cell_volumes(qhT *qh, int64_t n, const double *pts, double box, double m,
                        double *cell, double *vol, FILE *log, char *err, size_t errlen)
{
    vertexT *vertex;
    FORALLvertices {
        int id = qh_pointid(qh, vertex->point);
        if (id < 0 || id >= n)
            continue;
        facetT *neighbor, **neighborp;
        int nv = 0;
        FOREACHneighbor_(vertex) {
            if (neighbor->upperdelaunay || nv >= 4096)
                return 0; /* unbounded or absurd cell: images missing */
            double *c = neighbor->center, r2 = 0;
            for (int d = 0; d < 3; d++) {
                double dd = c[d] - pts[3 * id + d];
                r2 += dd * dd;
            }
            double r = sqrt(r2);
            for (int d = 0; d < 3; d++)
                if (c[d] - r < -m || c[d] + r > box + m)
                    return 0; /* the empty sphere leaves the replicated region */
            memcpy(cell + 3 * nv++, c, 3 * sizeof(double));
        }
        vol[id] = nv >= 4 ? hull_volume(nv, cell, log) : NAN;
        if (!(vol[id] > 0)) {
            tbrfi_ic_fail(err, errlen, TBRF_ERR_INVALID, "Voronoi volumes: cell of point %d is "
                          "degenerate (coincident points?)", id);
            return -1;
        }
    }
    return 1;
}

/* One attempt at margin m: 1 done, 0 a cell reaches beyond the margin
 * (retry wider), -1 Qhull failed, -2 out of memory (message set). */
static int volumes_at(int64_t n, const double *xyz, double box, double m, double *vol,
                      char *err, size_t errlen)
{
    /* Images of a slab of relative width m/box on each of 6 faces, 12
     * edges and 8 corners: at most 27 n, usually far fewer. */
    double f = fmin(1.0, m / box);
    double share = (1 + 2 * f) * (1 + 2 * f) * (1 + 2 * f);
    int64_t room = (int64_t)(share * (double)n) + 27 * 64 + n / 8;
    if (room > 27 * n)
        room = 27 * n;
    double *pts = malloc((size_t)room * 3 * sizeof *pts);
    int64_t *orig = malloc((size_t)room * sizeof *orig);
    double *cell = malloc(3 * 4096 * sizeof *cell);
    int rc = -1, started = 0;
    qhT qh_qh, *qh = &qh_qh;
    qh_log log;
    log_open(&log);
    qh_zero(qh, log.f);
    /* Qhull writes to stderr when given no stream: never from the library. */
    int64_t k = (pts && orig && cell && log.f) ? replicate(n, xyz, box, m, pts, orig, room) : -2;
    if (k == -2 || k > INT32_MAX) {
        tbrfi_ic_fail(err, errlen, TBRF_ERR_NO_MEMORY, "Voronoi volumes: out of memory for %lld "
                      "points", (long long)n);
        rc = -2;
    } else if (k < 0) {
        rc = 0; /* more images than expected: widen and count again */
    } else {
        started = 1; /* from here on Qhull holds memory, even when it fails */
        if (qh_new_qhull(qh, 3, (int)k, pts, False, "qhull v Qbb", NULL, log.f)) {
            tbrfi_ic_fail(err, errlen, TBRF_ERR_INVALID, "Voronoi volumes: Qhull failed: %s "
                          "(coincident points?)", log_text(&log));
        } else {
            qh_setvoronoi_all(qh);
            qh_vertexneighbors(qh);
            rc = cell_volumes(qh, n, pts, box, m, cell, vol, log.f, err, errlen);
        }
    }
    if (started) {
        int curlong, totlong;
        qh_freeqhull(qh, !qh_ALL);
        qh_memfreeshort(qh, &curlong, &totlong);
    }
    log_close(&log);
    free(pts);
    free(orig);
    free(cell);
    return rc;
}

static int cmp_point(const void *a, const void *b)
{
    const double *p = *(const double *const *)a, *q = *(const double *const *)b;
    for (int c = 0; c < 3; c++)
        if (p[c] != q[c])
            return p[c] < q[c] ? -1 : 1;
    return 0;
}

/* Two points at the same place have no Voronoi cell between them (Qhull
 * would drop one silently): find them first, for a clear message. */
static int find_duplicate(int64_t n, const double *xyz, char *err, size_t errlen)
{
    const double **p = malloc((size_t)n * sizeof *p);
    if (!p)
        return tbrfi_ic_fail(err, errlen, TBRF_ERR_NO_MEMORY, "Voronoi volumes: out of memory for "
                             "%lld points", (long long)n);
    for (int64_t i = 0; i < n; i++)
        p[i] = xyz + 3 * i;
    qsort(p, (size_t)n, sizeof *p, cmp_point);
    int rc = TBRF_OK;
    for (int64_t i = 1; i < n && rc == TBRF_OK; i++)
        if (cmp_point(&p[i - 1], &p[i]) == 0)
            rc = tbrfi_ic_fail(err, errlen, TBRF_ERR_INVALID, "Voronoi volumes: points %lld "
                               "and %lld coincide", (long long)((p[i - 1] - xyz) / 3),
                               (long long)((p[i] - xyz) / 3));
    free(p);
    return rc;
}

/* The margins m, 2m, 4m ... up to the whole box until every cell closes. */
static int grow_margin(int64_t n, const double *xyz, double box, double *vol, char *err,
                       size_t errlen)
{
    /* Start at three mean spacings: a Poisson cell's vertices rarely lie
     * farther than that from its point. */
    double m = 3 * cbrt(box * box * box / (double)n);
    for (;;) {
        int rc = volumes_at(n, xyz, box, fmin(m, box), vol, err, errlen);
        if (rc == 1) {
            /* Qhull drops a point closer to another than its precision
             * resolves: it has no cell of its own. */
            for (int64_t i = 0; i < n; i++)
                if (!(vol[i] > 0))
                    return tbrfi_ic_fail(err, errlen, TBRF_ERR_INVALID, "Voronoi volumes: "
                                         "point %lld is too close to another for a cell of "
                                         "its own", (long long)i);
            tbrfi_ic_ok(err, errlen);
            return TBRF_OK;
        }
        if (rc < 0)
            return rc == -2 ? TBRF_ERR_NO_MEMORY : TBRF_ERR_INVALID;
        if (m >= box)
            return tbrfi_ic_fail(err, errlen, TBRF_ERR_INVALID, "Voronoi volumes: a cell reaches "
                                 "beyond the periodic images of the whole box (too few points?)");
        m *= 2;
    }
}

int tbrf_ic_voronoi_volumes(int64_t n, const double *xyz, double box, double *vol, char *err,
                            size_t errlen)
{
    if (!xyz || !vol)
        return tbrfi_ic_fail(err, errlen, TBRF_ERR_NULL, "Voronoi volumes: xyz or vol is NULL");
    if (n < 2 || n > INT32_MAX / 27 || !(isfinite(box) && box > 0))
        return tbrfi_ic_fail(err, errlen, TBRF_ERR_INVALID, "Voronoi volumes need 2 <= n <= "
                             "2^31/27 points (got %lld) and a box > 0 (got %g)", (long long)n,
                             box);
    for (int64_t i = 0; i < 3 * n; i++)
        if (!(isfinite(xyz[i]) && xyz[i] >= 0 && xyz[i] < box))
            return tbrfi_ic_fail(err, errlen, TBRF_ERR_INVALID, "Voronoi volumes: point %lld is "
                                 "outside [0, %g)", (long long)(i / 3), box);
    /* the images and Qhull's Delaunay and Voronoi structures */
    int st = tbrfi_ic_budget(2048.0 * (double)n, "Voronoi volumes", err, errlen);
    if (st == TBRF_OK)
        st = find_duplicate(n, xyz, err, errlen);
    if (st != TBRF_OK)
        return st;
    for (int64_t i = 0; i < n; i++)
        vol[i] = NAN;
    return grow_margin(n, xyz, box, vol, err, errlen);
}

#else

int tbrf_ic_voronoi_volumes(int64_t n, const double *xyz, double box, double *vol, char *err,
                            size_t errlen)
{
    (void)n, (void)xyz, (void)box, (void)vol;
    return tbrfi_ic_fail(err, errlen, TBRF_ERR_NOT_BUILT, "Voronoi volumes need Qhull "
                         "(libqhull-dev), absent when libtbrf was built: use the mean volume "
                         "L^3/N instead");
}

#endif
