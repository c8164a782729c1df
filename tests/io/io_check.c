/* io_check.c — independent checks of the files `tbrf` writes, through the
 * HDF5, netCDF and libpng C libraries directly (not through io/), for
 * tests/cli/test_cli.sh:
 *
 *   io_check same A B          /field (or /value) of A and B bitwise equal
 *   io_check nc-grid FILE.nc   CF-1.8 grid: coordinates, bounds, field(z,y,x),
 *                              values equal to the HDF5 view of the same file
 *   io_check nc-points FILE.nc CF point DSG: featureType, coordinates, x/y/z
 *   io_check png-slice FILE [W/H]  decodes; the framed plane has width/height
 *                              W/H (to 3%: the grid's physical aspect), shows red
 *                              and blue; a colour bar (red and blue in one
 *                              column) right of it
 *   io_check png-plot FILE     decodes; both curves, the shaded fit range left
 *                              of the dashed Nyquist line, a frame
 *   io_check png-seq FILE      decodes; the framed plane is drawn in a sequential
 *                              map (viridis: no red pixel, dark blue-violet and
 *                              green-yellow both present), and so is the bar
 *   io_check png-plane A B     the framed planes of two slices are the same size
 *                              and pixel for pixel the same
 *   io_check set-unit FILE U   adds the root attribute length_units = U
 *   io_check close A B TOL [I,J,K]  the values of B within TOL (absolute; 0:
 *                              bitwise) of A's, in order; with I,J,K, B is a
 *                              grid compared with A's block from cell (I,J,K)
 *
 * Exit 0 when the check holds; otherwise a line saying what failed. */
#include <hdf5.h>
#include <math.h>
#include <netcdf.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "io_check: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 1;
}

/* The values dataset ("field" or "value") of an HDF5/netCDF-4 file. */
static double *h5_values(const char *path, size_t *n, int *rank, hsize_t *dims)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return NULL;
    const char *name = H5Lexists(f, "field", H5P_DEFAULT) > 0 ? "field" : "value";
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    double *v = NULL;
    if (d >= 0) {
        hid_t s = H5Dget_space(d);
        *rank = H5Sget_simple_extent_dims(s, dims, NULL);
        *n = (size_t)H5Sget_simple_extent_npoints(s);
        v = malloc(*n * sizeof *v);
        if (v && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0) {
            free(v);
            v = NULL;
        }
        H5Sclose(s);
        H5Dclose(d);
    }
    H5Fclose(f);
    return v;
}

static int check_same(const char *a, const char *b)
{
    size_t na = 0, nb = 0;
    int ra = 0, rb = 0;
    hsize_t da[8], db[8];
    double *va = h5_values(a, &na, &ra, da), *vb = h5_values(b, &nb, &rb, db);
    int rc = 0;
    if (!va || !vb)
        rc = fail("cannot read the values of %s or %s", a, b);
    else if (na != nb || ra != rb)
        rc = fail("%s and %s have different shapes", a, b);
    else if (memcmp(va, vb, na * sizeof *va) != 0)
        rc = fail("%s and %s differ in value", a, b);
    else
        printf("%s and %s: %zu values bitwise equal\n", a, b, na);
    free(va);
    free(vb);
    return rc;
}

#define NC(call)                                                             \
    do {                                                                     \
        int st_ = (call);                                                    \
        if (st_ != NC_NOERR) {                                               \
            fprintf(stderr, "io_check: %s: %s\n", #call, nc_strerror(st_));  \
            return 1;                                                        \
        }                                                                    \
    } while (0)

/* Text attribute `att` of variable var equals want. */
static int att_is(int ncid, int var, const char *att, const char *want)
{
    char buf[256] = "";
    size_t len = 0;
    if (nc_inq_attlen(ncid, var, att, &len) != NC_NOERR || len >= sizeof buf ||
        nc_get_att_text(ncid, var, att, buf) != NC_NOERR) {
        fprintf(stderr, "io_check: attribute %s missing\n", att);
        return 1;
    }
    buf[len] = '\0';
    if (want && strcmp(buf, want) != 0) {
        fprintf(stderr, "io_check: attribute %s is '%s', expected '%s'\n", att, buf, want);
        return 1;
    }
    return 0;
}

/* CF (1.8 on) reserves "geometry" for geometry containers: tbrf writes
 * tbrf_geometry instead. */
static int no_global(int ncid, const char *att)
{
    if (nc_inq_att(ncid, NC_GLOBAL, att, NULL, NULL) == NC_NOERR) {
        fprintf(stderr, "io_check: global attribute %s present\n", att);
        return 1;
    }
    return 0;
}

static int check_nc_grid(const char *path)
{
    int ncid, e = 0, field, ndims, dimids[3];
    NC(nc_open(path, NC_NOWRITE, &ncid));
    e |= att_is(ncid, NC_GLOBAL, "Conventions", "CF-1.8");
    e |= att_is(ncid, NC_GLOBAL, "tbrf_geometry", "grid");
    e |= no_global(ncid, "geometry");
    NC(nc_inq_varid(ncid, "field", &field));
    NC(nc_inq_varndims(ncid, field, &ndims));
    NC(nc_inq_vardimid(ncid, field, dimids));
    static const char *ax[3] = {"x", "y", "z"}, *AX[3] = {"X", "Y", "Z"};
    double origin[3], spacing[3];
    NC(nc_get_att_double(ncid, NC_GLOBAL, "grid_origin", origin));
    NC(nc_get_att_double(ncid, NC_GLOBAL, "grid_spacing", spacing));
    size_t total = 1;
    for (int i = 0; i < ndims; i++) {
        int c = ndims - 1 - i; /* field(z, y, x): slowest first */
        char name[NC_MAX_NAME + 1];
        size_t len;
        NC(nc_inq_dim(ncid, dimids[i], name, &len));
        if (strcmp(name, ax[c]) != 0)
            return fail("field dimension %s, expected %s", name, ax[c]);
        total *= len;
        int var, bvar, bd[2];
        NC(nc_inq_varid(ncid, ax[c], &var));
        e |= att_is(ncid, var, "axis", AX[c]);
        e |= att_is(ncid, var, "units", NULL);
        e |= att_is(ncid, var, "long_name", NULL);
        char bname[16];
        snprintf(bname, sizeof bname, "%s_bnds", ax[c]);
        e |= att_is(ncid, var, "bounds", bname);
        NC(nc_inq_varid(ncid, bname, &bvar));
        NC(nc_inq_vardimid(ncid, bvar, bd));
        size_t blen;
        NC(nc_inq_dimlen(ncid, bd[1], &blen));
        if (blen != 2)
            return fail("%s has a second dimension of length != 2%s", bname, "");
        double *cv = malloc(len * sizeof *cv), *bv = malloc(2 * len * sizeof *bv);
        NC(nc_get_var_double(ncid, var, cv));
        NC(nc_get_var_double(ncid, bvar, bv));
        for (size_t j = 0; j < len; j++)
            if (cv[j] != origin[c] + spacing[c] * (double)j || !(bv[2 * j] < cv[j]) ||
                !(bv[2 * j + 1] > cv[j]) || (j > 0 && bv[2 * j] != bv[2 * j - 1]))
                e |= fail("coordinate %s or its bounds wrong%s", ax[c], "");
        free(cv);
        free(bv);
    }
    double *v = malloc(total * sizeof *v);
    NC(nc_get_var_double(ncid, field, v));
    NC(nc_close(ncid));
    size_t n;
    int rank;
    hsize_t dims[8];
    double *h = h5_values(path, &n, &rank, dims);
    if (!h || n != total || memcmp(h, v, n * sizeof *v) != 0)
        e |= fail("%s: netCDF and HDF5 views of the field differ%s", path, "");
    double s = 0, s2 = 0;
    for (size_t i = 0; i < total; i++)
        s += v[i], s2 += v[i] * v[i];
    printf("%s: CF grid, %zu cells, mean %.4g, variance %.4g\n", path, total, s / (double)total,
           s2 / (double)total);
    free(h);
    free(v);
    return e;
}

static int check_nc_points(const char *path)
{
    int ncid, e = 0, var, ndims, dimid, x;
    NC(nc_open(path, NC_NOWRITE, &ncid));
    e |= att_is(ncid, NC_GLOBAL, "Conventions", "CF-1.8");
    e |= att_is(ncid, NC_GLOBAL, "featureType", "point");
    e |= att_is(ncid, NC_GLOBAL, "tbrf_geometry", "points");
    e |= no_global(ncid, "geometry");
    NC(nc_inq_varid(ncid, "value", &var));
    NC(nc_inq_varndims(ncid, var, &ndims));
    if (ndims != 1)
        return fail("value is not one-dimensional%s%s", "", "");
    NC(nc_inq_vardimid(ncid, var, &dimid));
    int has_z = nc_inq_varid(ncid, "z", &x) == NC_NOERR;
    e |= att_is(ncid, var, "coordinates", has_z ? "x y z" : "x y");
    e |= att_is(ncid, var, "units", NULL);
    for (int c = 0; c < 2 + has_z; c++) {
        const char *nm = c == 0 ? "x" : c == 1 ? "y" : "z";
        int d2;
        NC(nc_inq_varid(ncid, nm, &x));
        NC(nc_inq_vardimid(ncid, x, &d2));
        if (d2 != dimid)
            e |= fail("%s does not share the dimension of value%s", nm, "");
        e |= att_is(ncid, x, "units", NULL);
        e |= att_is(ncid, x, "long_name", NULL);
    }
    size_t n;
    NC(nc_inq_dimlen(ncid, dimid, &n));
    NC(nc_close(ncid));
    printf("%s: CF point DSG, %zu points\n", path, n);
    return e;
}

static unsigned char *read_png(const char *path, int *w, int *h)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path))
        return NULL;
    img.format = PNG_FORMAT_RGB;
    unsigned char *buf = malloc(PNG_IMAGE_SIZE(img));
    if (!buf || !png_image_finish_read(&img, NULL, buf, 0, NULL)) {
        free(buf);
        png_image_free(&img);
        return NULL;
    }
    *w = (int)img.width;
    *h = (int)img.height;
    return buf;
}

static int dark(const unsigned char *p, int w, int x, int y)
{
    const unsigned char *q = p + 3 * ((size_t)y * (size_t)w + (size_t)x);
    return q[0] < 60 && q[1] < 60 && q[2] < 60;
}

static int is_red(const unsigned char *q) { return q[0] > q[2] + 40 && q[0] > q[1] + 20; }
static int is_blue(const unsigned char *q) { return q[2] > q[0] + 40; }

/* The plot's frame: the longest horizontal run of dark pixels is its top
 * or bottom edge; the dark run down (or up) its left end is its side. */
static int find_frame(const unsigned char *p, int w, int h, int box[4])
{
    int best = 0, by = 0, bx = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0, run = 0; x < w; x++) {
            run = dark(p, w, x, y) ? run + 1 : 0;
            if (run > best)
                best = run, by = y, bx = x - run + 1;
        }
    int y0 = by, y1 = by;
    while (y0 > 0 && dark(p, w, bx, y0 - 1))
        y0--;
    while (y1 < h - 1 && dark(p, w, bx, y1 + 1))
        y1++;
    box[0] = bx, box[1] = y0, box[2] = bx + best - 1, box[3] = y1;
    return best > 20 && y1 - y0 > 20 ? 0 : -1;
}

/* A slice: the frame's inside (the plane) is w:h = aspect (if given, to
 * 3%), shows red and blue, and a colour bar right of it shows both in
 * one column. */
static int check_slice(const char *path, const unsigned char *p, int w, int h, double aspect)
{
    int box[4];
    if (find_frame(p, w, h, box))
        return fail("%s: no framed plot area found%s", path, "");
    int pw = box[2] - box[0] - 1, ph = box[3] - box[1] - 1;
    long red = 0, blue = 0, area = (long)pw * ph;
    for (int y = box[1] + 1; y < box[3]; y++)
        for (int x = box[0] + 1; x < box[2]; x++) {
            const unsigned char *q = p + 3 * ((size_t)y * (size_t)w + (size_t)x);
            red += is_red(q), blue += is_blue(q);
        }
    int bar = 0;
    for (int x = box[2] + 1; x < w && !bar; x++) {
        int r = 0, b = 0;
        for (int y = 0; y < h; y++)
            r += is_red(p + 3 * ((size_t)y * (size_t)w + (size_t)x)),
                b += is_blue(p + 3 * ((size_t)y * (size_t)w + (size_t)x));
        bar = r > 20 && b > 20;
    }
    printf("%s: plane %d x %d px (aspect %.4f), red %.1f%%, blue %.1f%%, colour bar %s\n", path,
           pw, ph, (double)pw / ph, 100.0 * red / area, 100.0 * blue / area, bar ? "yes" : "no");
    if (aspect > 0 && fabs((double)pw / ph / aspect - 1.0) > 0.03) {
        char want[64];
        snprintf(want, sizeof want, "%.4f", aspect);
        return fail("%s: the plane's aspect is not the grid's %s", path, want);
    }
    if (!(red > area / 50 && blue > area / 50))
        return fail("%s: the plane lacks red or blue%s", path, "");
    return bar ? 0 : fail("%s: no colour bar right of the plane%s", path, "");
}

static int near(const unsigned char *q, int r, int g, int b)
{
    return abs(q[0] - r) + abs(q[1] - g) + abs(q[2] - b) < 40;
}

/* A spectrum plot: both curves, the shaded fit range left of the dashed
 * Nyquist line, a frame. */
static int check_plot(const char *path, const unsigned char *p, int w, int h)
{
    long meas = 0, model = 0, nyq = 0, fit = 0;
    double nyq_x = 0;
    int fit_x1 = -1, box[4];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const unsigned char *q = p + 3 * ((size_t)y * (size_t)w + (size_t)x);
            meas += near(q, 31, 119, 180);
            model += near(q, 214, 39, 40);
            if (near(q, 44, 160, 44))
                nyq++, nyq_x += x;
            if (q[0] == 255 && q[1] == 236 && q[2] == 179) {
                fit++;
                fit_x1 = x > fit_x1 ? x : fit_x1;
            }
        }
    int framed = find_frame(p, w, h, box) == 0 && box[2] - box[0] > w / 2;
    printf("%s: %d x %d, measured %ld px, model %ld px, Nyquist %ld px at x %.0f, fit range "
           "%ld px to x %d, frame %s\n", path, w, h, meas, model, nyq, nyq ? nyq_x / nyq : 0.0,
           fit, fit_x1, framed ? "yes" : "no");
    if (meas < 200 || model < 200)
        return fail("%s lacks a curve%s", path, "");
    if (nyq < 100 || fit < 2000)
        return fail("%s lacks the Nyquist mark or the fit range%s", path, "");
    if (!(nyq_x / nyq > fit_x1))
        return fail("%s: the fit range is not below the Nyquist mark%s", path, "");
    return framed ? 0 : fail("%s has no frame%s", path, "");
}

static int check_png(const char *path, int plot, double aspect)
{
    int w, h;
    unsigned char *p = read_png(path, &w, &h);
    if (!p)
        return fail("%s does not decode as PNG%s", path, "");
    int rc = (w < 100 || h < 100) ? fail("%s is too small%s", path, "")
             : plot                ? check_plot(path, p, w, h)
                                   : check_slice(path, p, w, h, aspect);
    free(p);
    return rc;
}

/* viridis' ends: dark blue-violet (blue well above red and green) and
 * green-yellow (green well above blue). */
static int is_violet(const unsigned char *q) { return q[2] > q[1] + 30 && q[2] > q[0] + 20; }
static int is_yellow(const unsigned char *q) { return q[1] > q[2] + 60; }
/* RdBu's reds, which viridis never comes near (its yellow end passes the
 * looser is_red). */
static int is_deep_red(const unsigned char *q) { return q[0] > q[1] + 60 && q[0] > q[2] + 40; }

/* A slice in a sequential map: no red in the plane, both of viridis' ends
 * in it, and a bar right of it showing both. */
static int check_seq(const char *path)
{
    int w, h, box[4];
    unsigned char *p = read_png(path, &w, &h);
    if (!p)
        return fail("%s does not decode as PNG%s", path, "");
    if (find_frame(p, w, h, box)) {
        free(p);
        return fail("%s: no framed plot area found%s", path, "");
    }
    long red = 0, vio = 0, yel = 0, area = (long)(box[2] - box[0] - 1) * (box[3] - box[1] - 1);
    for (int y = box[1] + 1; y < box[3]; y++)
        for (int x = box[0] + 1; x < box[2]; x++) {
            const unsigned char *q = p + 3 * ((size_t)y * (size_t)w + (size_t)x);
            red += is_deep_red(q), vio += is_violet(q), yel += is_yellow(q);
        }
    int bar = 0;
    for (int x = box[2] + 1; x < w && !bar; x++) {
        int v = 0, g = 0;
        for (int y = 0; y < h; y++)
            v += is_violet(p + 3 * ((size_t)y * (size_t)w + (size_t)x)),
                g += is_yellow(p + 3 * ((size_t)y * (size_t)w + (size_t)x));
        bar = v > 20 && g > 20;
    }
    free(p);
    printf("%s: red %.1f%%, violet %.1f%%, green-yellow %.1f%%, sequential bar %s\n", path,
           100.0 * red / area, 100.0 * vio / area, 100.0 * yel / area, bar ? "yes" : "no");
    if (red > 0)
        return fail("%s: red in the plane: not a sequential map%s", path, "");
    if (!(vio > area / 100 && yel > area / 100))
        return fail("%s: the plane lacks one end of the map%s", path, "");
    return bar ? 0 : fail("%s: no sequential colour bar right of the plane%s", path, "");
}

/* The framed planes of two slices: same size, same pixels. */
static int check_same_plane(const char *a, const char *b)
{
    int wa, ha, wb, hb, ba[4], bb[4];
    unsigned char *pa = read_png(a, &wa, &ha), *pb = read_png(b, &wb, &hb);
    int rc = 0;
    if (!pa || !pb || find_frame(pa, wa, ha, ba) || find_frame(pb, wb, hb, bb))
        rc = fail("%s or %s: no decodable framed plane", a, b);
    else if (ba[2] - ba[0] != bb[2] - bb[0] || ba[3] - ba[1] != bb[3] - bb[1])
        rc = fail("%s and %s: planes of different sizes", a, b);
    long differ = 0;
    for (int y = 1; rc == 0 && y < ba[3] - ba[1]; y++)
        for (int x = 1; x < ba[2] - ba[0]; x++)
            differ += memcmp(pa + 3 * ((size_t)(ba[1] + y) * wa + (size_t)(ba[0] + x)),
                             pb + 3 * ((size_t)(bb[1] + y) * wb + (size_t)(bb[0] + x)), 3) != 0;
    if (rc == 0)
        printf("%s vs %s: %ld plane pixels differ\n", a, b, differ);
    if (rc == 0 && differ)
        rc = fail("%s and %s: the planes differ", a, b);
    free(pa);
    free(pb);
    return rc;
}

/* Adds the root string attribute length_units = unit (as a user would). */
static int set_unit(const char *path, const char *unit)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0)
        return fail("cannot open %s for writing%s", path, "");
    hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
    H5Tset_size(t, strlen(unit));
    hid_t at = H5Acreate2(f, "length_units", t, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = at < 0 || H5Awrite(at, t, unit) < 0;
    if (at >= 0)
        H5Aclose(at);
    H5Sclose(sp);
    H5Tclose(t);
    H5Fclose(f);
    return rc ? fail("cannot write length_units on %s%s", path, "") : 0;
}

/* B's values against A's (A's sub-block at off when off is given). */
static int check_close(const char *a, const char *b, double tol, const char *off)
{
    size_t na = 0, nb = 0;
    int ra = 0, rb = 0;
    hsize_t da[8] = {0}, db[8] = {0};
    long long o[3] = {0, 0, 0};
    double *va = h5_values(a, &na, &ra, da), *vb = h5_values(b, &nb, &rb, db);
    int rc = 0;
    if (off && sscanf(off, "%lld,%lld,%lld", &o[0], &o[1], &o[2]) < 2)
        rc = fail("bad offset %s%s", off, "");
    else if (!va || !vb)
        rc = fail("cannot read the values of %s or %s", a, b);
    else if (!off && na != nb)
        rc = fail("%s and %s hold different numbers of values", a, b);
    else if (off && (ra != rb || ra < 2))
        rc = fail("%s and %s are not grids of one rank", a, b);
    if (rc == 0) {
        /* dims are (nz, ny, nx) or (ny, nx): x fastest */
        size_t anx = off ? da[ra - 1] : 0, any = off ? da[ra - 2] : 0;
        size_t bnx = off ? db[rb - 1] : 0, bny = off ? db[rb - 2] : 0;
        double worst = 0.0;
        size_t bad = 0;
        for (size_t i = 0; i < nb; i++) {
            size_t ia = i;
            if (off) {
                size_t x = i % bnx, y = (i / bnx) % bny, z = i / (bnx * bny);
                ia = (z + (size_t)o[2]) * anx * any + (y + (size_t)o[1]) * anx + x + (size_t)o[0];
                if (x + (size_t)o[0] >= anx || ia >= na) {
                    rc = fail("%s's cells reach outside %s", b, a);
                    break;
                }
            }
            double d = fabs(va[ia] - vb[i]);
            worst = d > worst || isnan(d) ? d : worst;
            bad += tol == 0.0 ? va[ia] != vb[i] : !(d <= tol);
        }
        if (rc == 0 && bad)
            rc = fail("%s and %s differ beyond the tolerance (see the line above)", a, b);
        if (rc == 0 || bad)
            fprintf(bad ? stderr : stdout, "%s vs %s: %zu values, max |difference| %.3g (tolerance %g)\n", a, b, nb,
                   worst, tol);
    }
    free(va);
    free(vb);
    return rc;
}

int main(int argc, char **argv)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (argc == 4 && strcmp(argv[1], "same") == 0)
        return check_same(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "nc-grid") == 0)
        return check_nc_grid(argv[2]);
    if (argc == 3 && strcmp(argv[1], "nc-points") == 0)
        return check_nc_points(argv[2]);
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "png-slice") == 0)
        return check_png(argv[2], 0, argc == 4 ? atof(argv[3]) : 0.0);
    if (argc == 3 && strcmp(argv[1], "png-seq") == 0)
        return check_seq(argv[2]);
    if (argc == 4 && strcmp(argv[1], "png-plane") == 0)
        return check_same_plane(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "set-unit") == 0)
        return set_unit(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "png-plot") == 0)
        return check_png(argv[2], 1, 0.0);
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "close") == 0)
        return check_close(argv[2], argv[3], atof(argv[4]), argc == 6 ? argv[5] : NULL);
    fprintf(stderr, "usage: io_check same A B | nc-grid F | nc-points F | png-slice F [W/H] | "
                    "png-plot F | png-seq F | png-plane A B | set-unit F U | close A B TOL [I,J,K]\n");
    return 2;
}
