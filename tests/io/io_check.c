/* io_check.c — independent checks of the files `tbrf` writes, through the
 * HDF5, netCDF and libpng C libraries directly (not through io/), for
 * tests/cli/test_cli.sh:
 *
 *   io_check same A B          /field (or /value) of A and B bitwise equal
 *   io_check nc-grid FILE.nc   CF-1.11 grid: coordinates, bounds, field(z,y,x),
 *                              values equal to the HDF5 view of the same file
 *   io_check nc-points FILE.nc CF point DSG: featureType, coordinates, x/y/z
 *   io_check png-slice FILE    decodes; red and blue both present, white-ish zero
 *   io_check png-plot FILE     decodes; both curve colours present, axes drawn
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

static int check_nc_grid(const char *path)
{
    int ncid, e = 0, field, ndims, dimids[3];
    NC(nc_open(path, NC_NOWRITE, &ncid));
    e |= att_is(ncid, NC_GLOBAL, "Conventions", "CF-1.11");
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
    e |= att_is(ncid, NC_GLOBAL, "Conventions", "CF-1.11");
    e |= att_is(ncid, NC_GLOBAL, "featureType", "point");
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

static int check_png(const char *path, int plot)
{
    int w, h;
    unsigned char *p = read_png(path, &w, &h);
    if (!p)
        return fail("%s does not decode as PNG%s", path, "");
    long red = 0, blue = 0, white = 0, black = 0, cmeas = 0, cmod = 0, n = (long)w * h;
    for (long i = 0; i < n; i++) {
        int r = p[3 * i], g = p[3 * i + 1], b = p[3 * i + 2];
        red += r > b + 40 && r > g + 20;
        blue += b > r + 40;
        white += r > 240 && g > 240 && b > 240;
        black += r < 30 && g < 30 && b < 30;
        cmeas += r == 31 && g == 119 && b == 180;
        cmod += r == 214 && g == 39 && b == 40;
    }
    free(p);
    printf("%s: %d x %d, red %.1f%%, blue %.1f%%, white %.1f%%, black %.1f%%, curves %ld/%ld px\n",
           path, w, h, 100.0 * red / n, 100.0 * blue / n, 100.0 * white / n, 100.0 * black / n,
           cmeas, cmod);
    if (w < 100 || h < 100)
        return fail("%s is too small%s", path, "");
    if (plot)
        return (cmeas > 200 && cmod > 200 && black > 1000) ? 0 : fail("%s lacks a curve or axes%s", path, "");
    /* A zero-mean field shows both signs, and a colour bar adds both. */
    return (red > n / 50 && blue > n / 50 && black > 50) ? 0 : fail("%s lacks red or blue%s", path, "");
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
    if (argc == 3 && strcmp(argv[1], "png-slice") == 0)
        return check_png(argv[2], 0);
    if (argc == 3 && strcmp(argv[1], "png-plot") == 0)
        return check_png(argv[2], 1);
    fprintf(stderr, "usage: io_check same A B | nc-grid F | nc-points F | png-slice F | png-plot F\n");
    return 2;
}
