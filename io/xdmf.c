/* xdmf.c — XDMF side files, so ParaView and VisIt open a tbrf HDF5 file
 * directly (they read the light XML and take the heavy data from the .h5).
 *
 * Grids are 3DCoRectMesh with ORIGIN_DXDYDZ geometry, a 2D grid one z
 * layer at z = 0: XDMF lists dimensions slowest first, (z, y, x), which
 * is the shape of /field, so nothing is transposed. Points are a
 * Polyvertex topology whose connectivity is /connectivity (0 .. N-1,
 * written by writer.c) on /points, with /value as a node attribute. The .h5 is named
 * by its base name, so the pair can be moved together. XDMF 2.0 is the
 * version both ParaView and VisIt read. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io_internal.h"
#include "io/tbrf_io.h"

char *tbrf_io_xdmf_name(const char *h5path)
{
    if (!h5path)
        return NULL;
    size_t n = strlen(h5path);
    const char *dot = strrchr(h5path, '.');
    const char *slash = strrchr(h5path, '/');
    if (dot && (!slash || dot > slash) && dot != h5path && dot[-1] != '/')
        n = (size_t)(dot - h5path);
    char *s = malloc(n + 5);
    if (s) {
        memcpy(s, h5path, n);
        memcpy(s + n, ".xmf", 5);
    }
    return s;
}

/* The text with the five XML specials escaped. */
static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(*s, f);
        }
    }
}

static void put_ref(FILE *f, const char *base, const char *dataset)
{
    put_escaped(f, base);
    fprintf(f, ":/%s", dataset);
}

/* An XML DataItem of 3 doubles, v[2] first (XDMF orders slowest first). */
static void xml_vector(FILE *f, const char *name, const double *v)
{
    fprintf(f, "        <DataItem Name=\"%s\" Dimensions=\"3\" NumberType=\"Float\" "
               "Precision=\"8\" Format=\"XML\">",
            name);
    for (int c = 2; c >= 0; c--)
        fprintf(f, "%.17g%s", v[c], c ? " " : "");
    fprintf(f, "</DataItem>\n");
}

/* The uniform grid: a 3DCoRectMesh with origin and spacing, /field on
 * its nodes. A 2D grid is one z layer at z = 0 (origin 0, spacing 1 along
 * z): VTK's XDMF readers put a 2DCoRectMesh in the YZ plane. Its
 * DataItem is then (1, ny, nx) over the (ny, nx) /field, the same values
 * in the same order. */
static void xml_grid(FILE *f, const tbrf_io_meta *m, const char *base, int prec)
{
    double origin[3] = {0.0, 0.0, 0.0}, spacing[3] = {1.0, 1.0, 1.0};
    long long n[3] = {1, 1, 1};
    for (int c = 0; c < m->dim; c++) {
        origin[c] = m->origin[c];
        spacing[c] = m->spacing[c];
        n[c] = (long long)m->n[c];
    }
    char dims[96];
    snprintf(dims, sizeof dims, "%lld %lld %lld", n[2], n[1], n[0]);
    fprintf(f, "    <Grid Name=\"tbrf\" GridType=\"Uniform\">\n");
    fprintf(f, "      <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"%s\"/>\n", dims);
    fprintf(f, "      <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n");
    xml_vector(f, "Origin", origin);
    xml_vector(f, "Spacing", spacing);
    fprintf(f, "      </Geometry>\n");
    /* A vector: /field (nz, ny, nx, 3) or (ny, nx, 2), a Vector attribute
     * whose DataItem has the components as its last dimension. */
    const int vec = m->ncomp > 1;
    char vdims[128];
    snprintf(vdims, sizeof vdims, vec ? "%s %d" : "%s", dims, m->ncomp);
    fprintf(f, "      <Attribute Name=\"field\" AttributeType=\"%s\" Center=\"Node\">\n",
            vec ? "Vector" : "Scalar");
    fprintf(f, "        <DataItem Dimensions=\"%s\" NumberType=\"Float\" Precision=\"%d\" "
               "Format=\"HDF\">",
            vdims, prec);
    put_ref(f, base, "field");
    fprintf(f, "</DataItem>\n      </Attribute>\n    </Grid>\n");
}

/* Points: a Polyvertex of /points with /value on its nodes. */
static void xml_points(FILE *f, const tbrf_io_meta *m, const char *base, int prec)
{
    const int d = m->dim;
    long long np = (long long)m->npoints;
    fprintf(f, "    <Grid Name=\"tbrf_points\" GridType=\"Uniform\">\n");
    fprintf(f, "      <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%lld\" "
               "NodesPerElement=\"1\">\n",
            np);
    /* writer.c's /connectivity, 0 .. np-1: 32-bit unless np needs 64. */
    fprintf(f, "        <DataItem Dimensions=\"%lld 1\" NumberType=\"Int\" Precision=\"%d\" "
               "Format=\"HDF\">",
            np, np > 2147483647LL ? 8 : 4);
    put_ref(f, base, "connectivity");
    fprintf(f, "</DataItem>\n      </Topology>\n");
    fprintf(f, "      <Geometry GeometryType=\"%s\">\n", d == 3 ? "XYZ" : "XY");
    fprintf(f, "        <DataItem Dimensions=\"%lld %d\" NumberType=\"Float\" Precision=\"8\" "
               "Format=\"HDF\">",
            np, d);
    put_ref(f, base, "points");
    fprintf(f, "</DataItem>\n      </Geometry>\n");
    const int vec = m->ncomp > 1;
    fprintf(f, "      <Attribute Name=\"value\" AttributeType=\"%s\" Center=\"Node\">\n",
            vec ? "Vector" : "Scalar");
    if (vec)
        fprintf(f, "        <DataItem Dimensions=\"%lld %d\" NumberType=\"Float\" "
                   "Precision=\"%d\" Format=\"HDF\">",
                np, m->ncomp, prec);
    else
        fprintf(f, "        <DataItem Dimensions=\"%lld\" NumberType=\"Float\" Precision=\"%d\" "
                   "Format=\"HDF\">",
                np, prec);
    put_ref(f, base, "value");
    fprintf(f, "</DataItem>\n      </Attribute>\n    </Grid>\n");
}

/* The geometry of xml_grid: a 3DCoRectMesh (a 2D grid one z layer). */
static void xml_mesh(FILE *f, const tbrf_io_meta *m, char *dims, size_t len)
{
    double origin[3] = {0.0, 0.0, 0.0}, spacing[3] = {1.0, 1.0, 1.0};
    long long n[3] = {1, 1, 1};
    for (int c = 0; c < m->dim; c++)
        origin[c] = m->origin[c], spacing[c] = m->spacing[c], n[c] = (long long)m->n[c];
    snprintf(dims, len, "%lld %lld %lld", n[2], n[1], n[0]);
    fprintf(f, "      <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"%s\"/>\n", dims);
    fprintf(f, "      <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n");
    xml_vector(f, "Origin", origin);
    xml_vector(f, "Spacing", spacing);
    fprintf(f, "      </Geometry>\n");
}

/* The points' topology and geometry of xml_points. */
static void xml_cloud(FILE *f, const tbrf_io_meta *m, const char *base)
{
    long long np = (long long)m->npoints;
    fprintf(f, "      <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%lld\" "
               "NodesPerElement=\"1\">\n"
               "        <DataItem Dimensions=\"%lld 1\" NumberType=\"Int\" Precision=\"%d\" "
               "Format=\"HDF\">",
            np, np, np > 2147483647LL ? 8 : 4);
    put_ref(f, base, "connectivity");
    fprintf(f, "</DataItem>\n      </Topology>\n");
    fprintf(f, "      <Geometry GeometryType=\"%s\">\n        <DataItem Dimensions=\"%lld %d\" "
               "NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">",
            m->dim == 3 ? "XYZ" : "XY", np, m->dim);
    put_ref(f, base, "points");
    fprintf(f, "</DataItem>\n      </Geometry>\n");
}

/* A series: one Uniform grid per frame, each with its time, reading row
 * `it` of /field (nt, [nz,] [ny,] nx, nc) or /value (nt, N, nc), nc =
 * m->ncomp (dim, or 3 in a 1D or 2D box: a 3-component Vector on the
 * 3DCoRectMesh, whose unused axes have one node). The row
 * is named in Xdmf 3's heavy-data syntax "FILE:/DATASET|START:STRIDE:
 * COUNT:DATASPACE" (a hyperslab per dimension of the dataset), which
 * ParaView's default XDMF reader (Xdmf3ReaderS) reads; an XDMF 2
 * HyperSlab DataItem, the other way to say it, gives that reader no
 * array at all (ParaView 5.11), so the XDMF 2 readers (ParaView's
 * "XDMF Reader", VisIt) are left without the series' values. The mesh is
 * repeated in every frame. */
static void xml_series(FILE *f, const tbrf_io_meta *m, const char *base, int64_t nt,
                       const double *t)
{
    const int d = m->dim, grid = m->is_grid;
    long long dd[5];
    int r = 0;
    dd[r++] = (long long)nt;
    if (grid)
        for (int c = d - 1; c >= 0; c--)
            dd[r++] = (long long)m->n[c];
    else
        dd[r++] = (long long)m->npoints;
    dd[r++] = m->ncomp;
    char rest[160] = "", dims[96];
    for (int i = 1, k = 0; i < r; i++)
        k += snprintf(rest + k, sizeof rest - (size_t)k, " %lld", dd[i]);
    fprintf(f, "    <Grid Name=\"tbrf_series\" GridType=\"Collection\" "
               "CollectionType=\"Temporal\">\n");
    for (int64_t it = 0; it < nt; it++) {
        fprintf(f, "    <Grid Name=\"frame %lld\" GridType=\"Uniform\">\n"
                   "      <Time Value=\"%.17g\"/>\n", (long long)it, t[it]);
        if (grid) {
            xml_mesh(f, m, dims, sizeof dims);
        } else {
            xml_cloud(f, m, base);
            snprintf(dims, sizeof dims, "%lld", (long long)m->npoints);
        }
        fprintf(f, "      <Attribute Name=\"%s\" AttributeType=\"Vector\" Center=\"Node\">\n"
                   "        <DataItem Dimensions=\"%s %d\" NumberType=\"Float\" Precision=\"8\" "
                   "Format=\"HDF\">",
                grid ? "field" : "value", dims, m->ncomp);
        put_ref(f, base, grid ? "field" : "value");
        fprintf(f, "|%lld", (long long)it); /* start */
        for (int i = 1; i < r; i++)
            fprintf(f, " 0");
        fprintf(f, ":1"); /* stride */
        for (int i = 1; i < r; i++)
            fprintf(f, " 1");
        fprintf(f, ":1%s:%lld%s</DataItem>\n      </Attribute>\n    </Grid>\n", rest,
                dd[0], rest); /* count, the dataset's shape */
    }
    fprintf(f, "    </Grid>\n");
}

/* Opens the temporary side file: its FILE, or NULL with err set. */
static FILE *open_temp(const char *xmf, const char *tmp, char *err, size_t errlen)
{
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        io_setf(err, errlen, "cannot write %s: %s", xmf, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
    }
    return f;
}

/* Flushes, syncs and closes f; 0, or -1 with err set and tmp removed. */
static int close_temp(FILE *f, const char *xmf, const char *tmp, char *err, size_t errlen)
{
    int bad = ferror(f), saved = bad ? errno : 0;
    if (!bad && (fflush(f) != 0 || fsync(fileno(f)) != 0)) {
        bad = 1;
        saved = errno;
    }
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    if (bad) {
        io_setf(err, errlen, "cannot write %s: %s", xmf, strerror(saved ? saved : EIO));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int io_xdmf_write_series_temp(const char *h5path, const char *xmf, const char *tmp,
                              const tbrf_io_meta *m, int64_t nt, const double *t, char *err,
                              size_t errlen)
{
    const char *hs = strrchr(h5path, '/');
    FILE *f = open_temp(xmf, tmp, err, errlen);
    if (!f)
        return -1;
    fprintf(f, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"2.0\">\n  <Domain>\n");
    xml_series(f, m, hs ? hs + 1 : h5path, nt, t);
    fprintf(f, "  </Domain>\n</Xdmf>\n");
    return close_temp(f, xmf, tmp, err, errlen);
}

int io_xdmf_write_temp(const char *h5path, const char *xmf, const char *tmp,
                       const tbrf_io_meta *m, char *err, size_t errlen)
{
    /* The data is named by its base name, relative to the side file, so
     * that the pair can be moved or copied together. Every reader joins it
     * to the side file's directory; ParaView 5.11's Xdmf3 reader takes a
     * bare "NAME.xmf" (no slash) for a directory and looks for
     * NAME.xmfNAME.h5, which no name written here can avoid short of an
     * absolute path (which would break moved files): doc/cli.md tells
     * users to open "./NAME.xmf". */
    const char *hs = strrchr(h5path, '/');
    const char *base = hs ? hs + 1 : h5path;
    const int prec = m->opts.precision == TBRF_FLOAT ? 4 : 8;
    FILE *f = open_temp(xmf, tmp, err, errlen);
    if (!f)
        return -1;
    fprintf(f, "<?xml version=\"1.0\" ?>\n"
               "<Xdmf Version=\"2.0\">\n"
               "  <Domain>\n");
    if (m->is_grid)
        xml_grid(f, m, base, prec);
    else
        xml_points(f, m, base, prec);
    fprintf(f, "  </Domain>\n</Xdmf>\n");
    return close_temp(f, xmf, tmp, err, errlen);
}

/* 1 if xmf is a regular XDMF file referring to base:/..., read from its
 * first 64 KiB (tbrf's side files are a few hundred bytes). */
static int refers_to(const char *xmf, const char *base)
{
    struct stat st;
    if (lstat(xmf, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(xmf, "r");
    if (!f)
        return 0;
    static const size_t cap = 65536;
    char *buf = malloc(cap + 1);
    size_t n = buf ? fread(buf, 1, cap, f) : 0;
    fclose(f);
    if (!buf)
        return 0;
    buf[n] = '\0';
    /* The reference as put_ref writes it: the escaped base, then ":/". */
    char ref[1024];
    size_t k = 0;
    for (const char *c = base; *c && k + 8 < sizeof ref; c++) {
        const char *e = *c == '&' ? "&amp;" : *c == '<' ? "&lt;" : *c == '>' ? "&gt;"
                      : *c == '"' ? "&quot;" : *c == '\'' ? "&apos;" : NULL;
        if (e) {
            memcpy(ref + k, e, strlen(e));
            k += strlen(e);
        } else {
            ref[k++] = *c;
        }
    }
    memcpy(ref + k, ":/", 3);
    int yes = strstr(buf, "<Xdmf") != NULL && strstr(buf, ref) != NULL;
    free(buf);
    return yes;
}

void io_xdmf_remove_stale(const char *path)
{
    char *xmf = tbrf_io_xdmf_name(path);
    if (!xmf)
        return;
    const char *hs = strrchr(path, '/');
    if (!io_same_file(xmf, path) && refers_to(xmf, hs ? hs + 1 : path))
        unlink(xmf);
    free(xmf);
}

int tbrf_io_write_xdmf(const char *h5path, const tbrf_io_meta *m, char *err, size_t errlen)
{
    if (!h5path || !m || (m->dim != 2 && m->dim != 3)) {
        io_setf(err, errlen, "tbrf_io_write_xdmf: bad arguments");
        return -1;
    }
    char *xmf = tbrf_io_xdmf_name(h5path);
    char *tmp = xmf ? io_temp_name(xmf) : NULL;
    if (!xmf || !tmp) {
        free(xmf);
        io_setf(err, errlen, "out of memory");
        return -1;
    }
    int rc = -1;
    /* NAME.xmf as the data's own name would replace the data. */
    if (io_same_file(xmf, h5path)) {
        io_setf(err, errlen, "cannot write %s: the XDMF side file would replace the data file %s",
                xmf, h5path);
        goto done;
    }
    /* Same safe-write rule as the data: temporary, then rename. */
    if (io_xdmf_write_temp(h5path, xmf, tmp, m, err, errlen))
        goto done;
    if (rename(tmp, xmf) != 0) {
        io_setf(err, errlen, "cannot write %s: %s", xmf, strerror(errno));
        unlink(tmp);
        goto done;
    }
    rc = 0;
done:
    free(xmf);
    free(tmp);
    return rc;
}
