/* voronoi.c — periodic Voronoi cell volumes with Qhull (tbrf_arepo.h).
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

#include "io/io_internal.h"
#include "io/tbrf_arepo.h"

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

/* One attempt at margin m: 1 done, 0 a cell reaches beyond the margin
 * (retry wider), -1 Qhull failed (message set). */
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
    /* Qhull writes to stderr when given no stream: never from tbrf_io. */
    int64_t k = (pts && orig && cell && log.f) ? replicate(n, xyz, box, m, pts, orig, room) : -2;
    if (k == -2 || k > INT32_MAX) {
        io_setf(err, errlen, "Voronoi volumes: out of memory for %lld points", (long long)n);
        goto out;
    }
    if (k < 0) {
        rc = 0; /* more images than expected: widen and count again */
        goto out;
    }
    started = 1; /* from here on Qhull holds memory, even when it fails */
    if (qh_new_qhull(qh, 3, (int)k, pts, False, "qhull v Qbb", NULL, log.f)) {
        io_setf(err, errlen, "Voronoi volumes: Qhull failed: %s (coincident points?)",
                log_text(&log));
        goto out;
    }
    qh_setvoronoi_all(qh);
    qh_vertexneighbors(qh);
    rc = 1;
    vertexT *vertex;
    FORALLvertices {
        int id = qh_pointid(qh, vertex->point);
        if (id < 0 || id >= n)
            continue;
        facetT *neighbor, **neighborp;
        int nv = 0;
        FOREACHneighbor_(vertex) {
            if (neighbor->upperdelaunay || nv >= 4096) {
                rc = 0; /* unbounded or absurd cell: images missing */
                break;
            }
            double *c = neighbor->center, r2 = 0;
            for (int d = 0; d < 3; d++) {
                double dd = c[d] - pts[3 * id + d];
                r2 += dd * dd;
            }
            double r = sqrt(r2);
            for (int d = 0; d < 3; d++)
                if (c[d] - r < -m || c[d] + r > box + m)
                    rc = 0;
            memcpy(cell + 3 * nv++, c, 3 * sizeof(double));
        }
        if (rc == 0)
            break;
        vol[id] = nv >= 4 ? hull_volume(nv, cell, log.f) : NAN;
        if (!(vol[id] > 0)) {
            io_setf(err, errlen, "Voronoi volumes: cell of point %d is degenerate "
                    "(coincident points?)", id);
            rc = -1;
            break;
        }
    }
out:
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
    if (!p) {
        io_setf(err, errlen, "Voronoi volumes: out of memory for %lld points", (long long)n);
        return -1;
    }
    for (int64_t i = 0; i < n; i++)
        p[i] = xyz + 3 * i;
    qsort(p, (size_t)n, sizeof *p, cmp_point);
    int rc = 0;
    for (int64_t i = 1; i < n && rc == 0; i++)
        if (cmp_point(&p[i - 1], &p[i]) == 0) {
            io_setf(err, errlen, "Voronoi volumes: points %lld and %lld coincide",
                    (long long)((p[i - 1] - xyz) / 3), (long long)((p[i] - xyz) / 3));
            rc = -1;
        }
    free(p);
    return rc;
}

int tbrf_voronoi_periodic_volumes(int64_t n, const double *xyz, double box, double *vol,
                                  char *err, size_t errlen)
{
    if (!xyz || !vol || n < 2 || !(isfinite(box) && box > 0)) {
        io_setf(err, errlen, "Voronoi volumes need n >= 2 points (got %lld) and a box > 0 "
                "(got %g)", (long long)n, box);
        return -1;
    }
    for (int64_t i = 0; i < 3 * n; i++)
        if (!(isfinite(xyz[i]) && xyz[i] >= 0 && xyz[i] < box)) {
            io_setf(err, errlen, "Voronoi volumes: point %lld is outside [0, %g)",
                    (long long)(i / 3), box);
            return -1;
        }
    if (find_duplicate(n, xyz, err, errlen))
        return -1;
    for (int64_t i = 0; i < n; i++)
        vol[i] = NAN;
    /* Start at three mean spacings: a Poisson cell's vertices rarely lie
     * farther than that from its point. */
    double m = 3 * cbrt(box * box * box / (double)n);
    for (;;) {
        int rc = volumes_at(n, xyz, box, fmin(m, box), vol, err, errlen);
        if (rc == 1) {
            /* Qhull drops a point closer to another than its precision
             * resolves: it has no cell of its own. */
            for (int64_t i = 0; i < n; i++)
                if (!(vol[i] > 0)) {
                    io_setf(err, errlen, "Voronoi volumes: point %lld is too close to another "
                            "for a cell of its own", (long long)i);
                    return -1;
                }
            return 0;
        }
        if (rc < 0)
            return -1;
        if (m >= box) {
            io_setf(err, errlen, "Voronoi volumes: a cell reaches beyond the periodic images of "
                    "the whole box (too few points?)");
            return -1;
        }
        m *= 2;
    }
}

#else

int tbrf_voronoi_periodic_volumes(int64_t n, const double *xyz, double box, double *vol,
                                  char *err, size_t errlen)
{
    (void)n, (void)xyz, (void)box, (void)vol;
    io_setf(err, errlen, "Voronoi volumes need Qhull (libqhull-dev), absent when tbrf was "
            "built: use the mean-volume fallback");
    return -1;
}

#endif
