/* io_hostile.c — hostile input files, made with the HDF5 and netCDF APIs
 * (no h5py needed), and the readers' answers to them (the
 * rules are doc/guarantees-inputs.md's).
 *
 *   io_hostile check DIR           the library-level checks (test
 *                                  io_hostile_inputs), files made in DIR
 *   io_hostile make KIND OUT [BASE] one file for tests/cli/test_inputs.sh;
 *                                  BASE is a file tbrf generate wrote,
 *                                  copied to OUT and then altered
 *
 * KINDs of `make`: strarray (model_kind as 4000 fixed strings), vlarray
 * (model_kind as 2 variable-length strings), utf8 (every string attribute
 * rewritten as variable-length UTF-8, as h5py writes them), nullpad (as
 * fixed NULLPAD strings exactly as long as their text), seedneg (seed an
 * int64 -1), bigtable (/model_table of 2e7 never-written rows, model_kind
 * "table"), biglines (lines 2^24: 32 GiB of line samples),
 * bigfield (/field replaced by a never-written 700^3 dataset, the
 * attributes left at BASE's counts), shape (/field replaced by a written
 * 32^3 field while the attributes say BASE's counts), wideplane (/field
 * 40000 x 40000 x 2, never written, attributes to match), points2e8
 * (a new file with /points (2e8, 3) never written), ctrl (a new file
 * whose attribute names and values hold control characters), ncint
 * (netCDF x, y, z of type int), ncfill (netCDF float x, y, z never
 * written). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <hdf5.h>
#include <math.h>
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/tbrf_io.h"
#include "support/check.h"
#include "tbrf.h"

/* ------------------------------------------------------------ helpers */

static int copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    int rc = a && b ? 0 : -1;
    char buf[65536];
    size_t n;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, a)) > 0)
        if (fwrite(buf, 1, n, b) != n)
            rc = -1;
    if (a)
        fclose(a);
    if (b && fclose(b))
        rc = -1;
    return rc;
}

/* Replaces (or creates) attribute `name` of object loc: type, space and
 * data as given. */
static int put_attr(hid_t loc, const char *name, hid_t type, hid_t space, const void *data)
{
    if (H5Aexists(loc, name) > 0)
        H5Adelete(loc, name);
    hid_t a = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a >= 0 && H5Awrite(a, type, data) >= 0 ? 0 : -1;
    if (a >= 0)
        H5Aclose(a);
    return rc;
}

static int put_vlstr(hid_t loc, const char *name, const char *s, H5T_cset_t cset)
{
    hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, cset);
    int rc = put_attr(loc, name, t, sp, &s);
    H5Tclose(t);
    H5Sclose(sp);
    return rc;
}

static int put_fixstr(hid_t loc, const char *name, const char *s, size_t size, H5T_str_t pad)
{
    hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
    H5Tset_size(t, size);
    H5Tset_strpad(t, pad);
    char *buf = calloc(size + 1, 1);
    memset(buf, pad == H5T_STR_SPACEPAD ? ' ' : 0, size);
    memcpy(buf, s, strlen(s) < size ? strlen(s) : size);
    int rc = put_attr(loc, name, t, sp, buf);
    free(buf);
    H5Tclose(t);
    H5Sclose(sp);
    return rc;
}

static int put_i64(hid_t loc, const char *name, int64_t v)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    int rc = put_attr(loc, name, H5T_NATIVE_INT64, sp, &v);
    H5Sclose(sp);
    return rc;
}

static int put_u64(hid_t loc, const char *name, uint64_t v)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    int rc = put_attr(loc, name, H5T_NATIVE_UINT64, sp, &v);
    H5Sclose(sp);
    return rc;
}

static int put_i64v(hid_t loc, const char *name, const int64_t *v, hsize_t n)
{
    hid_t sp = H5Screate_simple(1, &n, NULL);
    int rc = put_attr(loc, name, H5T_NATIVE_INT64, sp, v);
    H5Sclose(sp);
    return rc;
}

/* A dataset of `rank` dims, float64, chunked and never written (a file
 * of a few KiB whatever the shape), unless data is given. */
static int make_ds(hid_t f, const char *name, int rank, const hsize_t *dims, const double *data)
{
    if (H5Lexists(f, name, H5P_DEFAULT) > 0)
        H5Ldelete(f, name, H5P_DEFAULT);
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hsize_t chunk[H5S_MAX_RANK];
    for (int i = 0; i < rank; i++)
        chunk[i] = dims[i] < 64 ? dims[i] : 64;
    H5Pset_chunk(dcpl, rank, chunk);
    hid_t d = H5Dcreate2(f, name, H5T_IEEE_F64LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int rc = d >= 0 ? 0 : -1;
    if (rc == 0 && data && H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        rc = -1;
    if (d >= 0)
        H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(sp);
    return rc;
}

/* Every fixed-length string attribute of the root group rewritten. */
typedef struct restr {
    int utf8; /* 1: variable-length UTF-8; 0: fixed NULLPAD of the text's length */
    int n;
    char names[64][64];
    char *values[64];
} restr;

static herr_t collect_cb(hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
    (void)info;
    restr *r = data;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = H5Aget_type(a);
    if (H5Tget_class(t) == H5T_STRING && r->n < 64 && strlen(name) < 64) {
        char *v = NULL;
        if (H5Tis_variable_str(t) > 0) {
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, H5T_VARIABLE);
            char *s = NULL;
            if (H5Aread(a, mt, &s) >= 0 && s) {
                v = strdup(s);
                H5free_memory(s);
            }
            H5Tclose(mt);
        } else {
            size_t sz = H5Tget_size(t);
            v = calloc(sz + 1, 1);
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, sz + 1);
            if (H5Aread(a, mt, v) < 0)
                v[0] = '\0';
            H5Tclose(mt);
        }
        if (v) {
            strcpy(r->names[r->n], name);
            r->values[r->n++] = v;
        }
    }
    H5Tclose(t);
    H5Aclose(a);
    return 0;
}

static int rewrite_strings(hid_t f, int utf8)
{
    restr r;
    memset(&r, 0, sizeof r);
    r.utf8 = utf8;
    hsize_t idx = 0;
    H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_cb, &r);
    int rc = r.n > 0 ? 0 : -1;
    for (int i = 0; i < r.n; i++) {
        if (utf8)
            rc |= put_vlstr(f, r.names[i], r.values[i], H5T_CSET_UTF8);
        else if (r.values[i][0])
            rc |= put_fixstr(f, r.names[i], r.values[i], strlen(r.values[i]), H5T_STR_NULLPAD);
        free(r.values[i]);
    }
    return rc;
}

/* ------------------------------------------------------------ make */

static int make_nc(const char *out, int kind_int)
{
    int nc, dim, var[3], st;
    static const char *names[3] = {"x", "y", "z"};
    if ((st = nc_create(out, NC_NETCDF4 | NC_CLOBBER, &nc)) != NC_NOERR)
        return -1;
    nc_def_dim(nc, "point", 10, &dim);
    for (int c = 0; c < 3; c++)
        nc_def_var(nc, names[c], kind_int ? NC_INT : NC_FLOAT, 1, &dim, &var[c]);
    nc_enddef(nc);
    if (kind_int) {
        int v[10];
        for (int i = 0; i < 10; i++)
            v[i] = i;
        for (int c = 0; c < 3; c++)
            nc_put_var_int(nc, var[c], v);
    } else {
        /* x and y written, z only half: the rest keeps the fill value. */
        float v[10];
        for (int i = 0; i < 10; i++)
            v[i] = (float)i;
        nc_put_var_float(nc, var[0], v);
        nc_put_var_float(nc, var[1], v);
        size_t start = 0, count = 5;
        nc_put_vara_float(nc, var[2], &start, &count, v);
    }
    return nc_close(nc) == NC_NOERR ? 0 : -1;
}

static int make(const char *kind, const char *out, const char *base)
{
    if (strcmp(kind, "ncint") == 0 || strcmp(kind, "ncfill") == 0)
        return make_nc(out, strcmp(kind, "ncint") == 0);
    hid_t f;
    if (strcmp(kind, "points2e8") == 0 || strcmp(kind, "ctrl") == 0) {
        f = H5Fcreate(out, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    } else {
        if (!base || copy_file(base, out))
            return -1;
        f = H5Fopen(out, H5F_ACC_RDWR, H5P_DEFAULT);
    }
    if (f < 0)
        return -1;
    int rc = 0;
    if (strcmp(kind, "strarray") == 0) {
        hsize_t n = 4000;
        hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate_simple(1, &n, NULL);
        H5Tset_size(t, 16);
        char *buf = malloc(16 * 4000);
        for (int i = 0; i < 4000; i++)
            memcpy(buf + 16 * i, "gaussianXXXXXXXX", 16);
        rc = put_attr(f, "model_kind", t, sp, buf);
        free(buf);
        H5Tclose(t);
        H5Sclose(sp);
    } else if (strcmp(kind, "vlarray") == 0) {
        hsize_t n = 2;
        hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate_simple(1, &n, NULL);
        H5Tset_size(t, H5T_VARIABLE);
        const char *v[2] = {"gaussian", "powerlaw"};
        rc = put_attr(f, "model_kind", t, sp, v);
        H5Tclose(t);
        H5Sclose(sp);
    } else if (strcmp(kind, "utf8") == 0 || strcmp(kind, "nullpad") == 0) {
        rc = rewrite_strings(f, strcmp(kind, "utf8") == 0);
    } else if (strcmp(kind, "seedneg") == 0) {
        rc = put_i64(f, "seed", -1);
    } else if (strcmp(kind, "bigtable") == 0) {
        hsize_t dims[2] = {20000000, 2};
        rc = make_ds(f, "model_table", 2, dims, NULL) | put_fixstr(f, "model_kind", "table", 5,
                                                                    H5T_STR_NULLTERM);
    } else if (strcmp(kind, "biglines") == 0) {
        /* The most lines the library takes: 2^24 x ~256 samples = 32 GiB. */
        rc = put_i64(f, "lines", (int64_t)1 << 24);
    } else if (strcmp(kind, "bigfield") == 0) {
        hsize_t dims[3] = {700, 700, 700};
        rc = make_ds(f, "field", 3, dims, NULL);
    } else if (strcmp(kind, "shape") == 0) {
        hsize_t dims[3] = {32, 32, 32};
        double *v = malloc(32 * 32 * 32 * sizeof *v);
        for (int i = 0; i < 32 * 32 * 32; i++)
            v[i] = sin(0.37 * i) + cos(0.011 * i);
        rc = make_ds(f, "field", 3, dims, v);
        free(v);
    } else if (strcmp(kind, "wideplane") == 0) {
        hsize_t dims[3] = {2, 40000, 40000};
        int64_t n[3] = {40000, 40000, 2};
        rc = make_ds(f, "field", 3, dims, NULL) | put_i64v(f, "grid_counts", n, 3);
    } else if (strcmp(kind, "points2e8") == 0) {
        hsize_t dims[2] = {200000000, 3};
        rc = make_ds(f, "points", 2, dims, NULL);
    } else if (strcmp(kind, "ctrl") == 0) {
        hsize_t dims[2] = {4, 3};
        double v[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
        rc = make_ds(f, "points\033[31m", 2, dims, v) |
             put_vlstr(f, "evil\033]0;title\007", "line1\nline2\033[2J\r", H5T_CSET_ASCII) |
             put_fixstr(f, "bell", "a\007b", 3, H5T_STR_NULLPAD);
    } else {
        fprintf(stderr, "io_hostile: unknown kind %s\n", kind);
        rc = -1;
    }
    if (H5Fclose(f) < 0)
        rc = -1;
    return rc;
}

/* ------------------------------------------------------------ check */

static char dir[512];

static const char *at(const char *name)
{
    static char p[4][600];
    static int k = 0;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static int has(const char *s, const char *sub)
{
    return s && strstr(s, sub) != NULL;
}

/* Item 1: strings of every kind; arrays refused, never overflowing. */
static void check_strings(void)
{
    const char *path = at("strings.h5");
    /* The latest format stores attributes over 64 KiB (fixed_huge). */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    H5Pclose(fapl);
    REQUIRE(f >= 0, , "cannot create %s", path);
    put_fixstr(f, "nullterm", "abc", 8, H5T_STR_NULLTERM);
    put_fixstr(f, "nullpad_full", "abcde", 5, H5T_STR_NULLPAD);
    put_fixstr(f, "nullpad", "ab", 6, H5T_STR_NULLPAD);
    put_fixstr(f, "spacepad", "ab", 6, H5T_STR_SPACEPAD);
    put_vlstr(f, "vl_ascii", "plain", H5T_CSET_ASCII);
    put_vlstr(f, "vl_utf8", "h\xc3\xa9llo", H5T_CSET_UTF8);
    {
        hsize_t n = 4000;
        hid_t t = H5Tcopy(H5T_C_S1), sp = H5Screate_simple(1, &n, NULL);
        H5Tset_size(t, 16);
        char *buf = calloc(16, 4000);
        memset(buf, 'x', 16 * 4000);
        put_attr(f, "fixed_array", t, sp, buf);
        free(buf);
        H5Tset_size(t, H5T_VARIABLE);
        hsize_t two = 2;
        hid_t sp2 = H5Screate_simple(1, &two, NULL);
        const char *v[2] = {"one", "two"};
        put_attr(f, "vl_array", t, sp2, v);
        H5Sclose(sp2);
        H5Tclose(t);
        H5Sclose(sp);
    }
    {
        /* Longer than TBRF_IO_MAX_STRING. */
        size_t big = (size_t)TBRF_IO_MAX_STRING + 10;
        char *s = malloc(big + 1);
        memset(s, 'y', big);
        s[big] = '\0';
        put_fixstr(f, "fixed_huge", s, big, H5T_STR_NULLTERM);
        put_vlstr(f, "vl_huge", s, H5T_CSET_ASCII);
        free(s);
    }
    put_i64(f, "negative", -1);
    put_u64(f, "huge_unsigned", (uint64_t)1 << 63);
    put_u64(f, "unsigned_ok", 42);
    H5Fclose(f);

    char err[512];
    tbrf_io_file *io = tbrf_io_open(path, err, sizeof err);
    REQUIRE(io, , "open: %s", err);
    char buf[64];
    /* Guards on both sides of the buffer see any overflow. */
    struct {
        char before[32];
        char s[8];
        char after[32];
    } g;
    memset(&g, 0x5a, sizeof g);
    static const struct {
        const char *name, *want;
        int rc;
    } cases[] = {{"nullterm", "abc", 1},      {"nullpad_full", "abcde", 1}, {"nullpad", "ab", 1},
                 {"spacepad", "ab", 1},       {"vl_ascii", "plain", 1},
                 {"vl_utf8", "h\xc3\xa9llo", 1}, {"fixed_array", NULL, -1},
                 {"vl_array", NULL, -1},      {"fixed_huge", NULL, -1},     {"vl_huge", NULL, -1},
                 {"absent", NULL, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        buf[0] = '\0';
        int rc = tbrf_io_attr_str(io, cases[i].name, buf, sizeof buf);
        CHECK(rc == cases[i].rc, "%s: rc %d, want %d", cases[i].name, rc, cases[i].rc);
        if (cases[i].want)
            CHECK(strcmp(buf, cases[i].want) == 0, "%s: read '%s', want '%s'", cases[i].name, buf,
                  cases[i].want);
        /* Truncated to the buffer, never past it. */
        int r2 = tbrf_io_attr_str(io, cases[i].name, g.s, sizeof g.s);
        CHECK(r2 == cases[i].rc, "%s in 8 bytes: rc %d", cases[i].name, r2);
        int intact = 1;
        for (size_t k = 0; k < 32; k++)
            intact &= g.before[k] == 0x5a && g.after[k] == 0x5a;
        CHECK(intact, "%s: tbrf_io_attr_str wrote outside its buffer", cases[i].name);
    }
    int64_t i64 = 7;
    uint64_t u64 = 7;
    CHECK(tbrf_io_attr_u64(io, "negative", &u64) == -1, "a negative value read as unsigned (%llu)",
          (unsigned long long)u64);
    CHECK(tbrf_io_attr_i64(io, "huge_unsigned", &i64, 1) == -1, "2^63 read as int64 (%lld)",
          (long long)i64);
    CHECK(tbrf_io_attr_u64(io, "unsigned_ok", &u64) == 1 && u64 == 42, "uint64 42 read as %llu",
          (unsigned long long)u64);
    CHECK(tbrf_io_attr_i64(io, "negative", &i64, 1) == 1 && i64 == -1, "int64 -1 read as %lld",
          (long long)i64);
    tbrf_io_file_close(io);
}

/* Item 8: sizes read from a file are checked before anything is
 * allocated; unwritten datasets are refused; the budget is honoured. */
static void check_budgets(void)
{
    char err[512];
    int dim;
    int64_t n, nn[3];
    double *xyz = NULL, *v = NULL;
    const char *p = at("points2e8.h5");
    REQUIRE(make("points2e8", p, NULL) == 0, , "make points2e8");
    CHECK(tbrf_io_read_points(p, &dim, &n, &xyz, err, sizeof err) == -1 && !xyz,
          "2e8 unwritten points were read");
    CHECK(has(err, "stores only"), "message: %s", err);

    const char *fld = at("bigfield.h5");
    hid_t f = H5Fcreate(fld, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims[3] = {700, 700, 700};
    make_ds(f, "field", 3, dims, NULL);
    H5Fclose(f);
    CHECK(tbrf_io_read_field(fld, nn, &v, err, sizeof err) == -1 && !v, "700^3 unwritten read");
    CHECK(has(err, "stores only"), "message: %s", err);
    CHECK(tbrf_io_field_shape(fld, nn, err, sizeof err) == -1, "field_shape accepted it");
    int64_t w, h;
    CHECK(tbrf_io_read_slice(fld, 2, 0, &w, &h, &v, err, sizeof err) == -1, "slice of it read");

    /* A real field larger than the budget: refused before reading. */
    const char *real = at("real.h5");
    f = H5Fcreate(real, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t d2[3] = {64, 64, 64};
    double *data = malloc(64 * 64 * 64 * sizeof *data);
    for (int i = 0; i < 64 * 64 * 64; i++)
        data[i] = sin(0.1 * i);
    make_ds(f, "field", 3, d2, data);
    hsize_t pd[2] = {100000, 3};
    double *pts = malloc(300000 * sizeof *pts);
    for (int i = 0; i < 300000; i++)
        pts[i] = 0.001 * i;
    make_ds(f, "points", 2, pd, pts);
    H5Fclose(f);
    free(data);
    free(pts);
    setenv(TBRF_IO_BUDGET_ENV, "1M", 1);
    CHECK(tbrf_io_budget() == 1048576, "budget 1M read as %llu",
          (unsigned long long)tbrf_io_budget());
    CHECK(tbrf_io_read_field(real, nn, &v, err, sizeof err) == -1 && has(err, "memory budget"),
          "2 MiB field under a 1 MiB budget: %s", err);
    CHECK(tbrf_io_read_points(real, &dim, &n, &xyz, err, sizeof err) == -1 &&
              has(err, "memory budget"),
          "2.4 MB of points under a 1 MiB budget: %s", err);
    CHECK(tbrf_io_read_slice(real, 2, 3, &w, &h, &v, err, sizeof err) == 0 && w == 64 && h == 64,
          "a 32 KiB plane under a 1 MiB budget: %s", err);
    free(v);
    v = NULL;
    setenv(TBRF_IO_BUDGET_ENV, "lots", 1);
    CHECK(tbrf_io_read_field(real, nn, &v, err, sizeof err) == -1 && has(err, "not a size"),
          "a bad budget variable: %s", err);
    unsetenv(TBRF_IO_BUDGET_ENV);
    CHECK(tbrf_io_budget() >= TBRF_IO_BUDGET_MIN, "default budget");
    CHECK(tbrf_io_read_field(real, nn, &v, err, sizeof err) == 0 && nn[0] == 64,
          "the field within the default budget: %s", err);
    free(v);
    v = NULL;
    CHECK(tbrf_io_read_points(real, &dim, &n, &xyz, err, sizeof err) == 0 && n == 100000,
          "the points within the default budget: %s", err);
    free(xyz);
    xyz = NULL;

    /* /model_table: 2e7 rows declared; and a good one. */
    const char *tb = at("table.h5");
    f = H5Fcreate(tb, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t td[2] = {20000000, 2};
    make_ds(f, "model_table", 2, td, NULL);
    H5Fclose(f);
    tbrf_io_file *io = tbrf_io_open(tb, err, sizeof err);
    size_t tn = 0;
    double *k = NULL, *pp = NULL;
    CHECK(io && tbrf_io_read_table(io, &tn, &k, &pp) == -1 && !k && !pp,
          "a 2e7-row /model_table was read");
    tbrf_io_file_close(io);

    /* Text points: a NUL byte (/dev/zero), an over-long line. */
    CHECK(tbrf_io_read_points("/dev/zero", &dim, &n, &xyz, err, sizeof err) == -1 &&
              has(err, "binary"),
          "/dev/zero as points: %s", err);
    const char *longl = at("long.txt");
    FILE *t = fopen(longl, "w");
    fputs("1 2 3\n", t);
    for (int i = 0; i < (TBRF_IO_MAX_LINE / 10) + 10; i++)
        fputs("          ", t);
    fputs("\n", t);
    fclose(t);
    CHECK(tbrf_io_read_points(longl, &dim, &n, &xyz, err, sizeof err) == -1 &&
              has(err, ":2: line longer"),
          "an over-long line: %s", err);
    /* Many points under a small budget: refused while growing. */
    const char *many = at("many.txt");
    t = fopen(many, "w");
    for (int i = 0; i < 100000; i++)
        fprintf(t, "%d 1 2\n", i);
    fclose(t);
    setenv(TBRF_IO_BUDGET_ENV, "512K", 1);
    CHECK(tbrf_io_read_points(many, &dim, &n, &xyz, err, sizeof err) == -1 &&
              has(err, "memory budget"),
          "100000 text points under 512 KiB: %s", err);
    unsetenv(TBRF_IO_BUDGET_ENV);
    CHECK(tbrf_io_read_points(many, &dim, &n, &xyz, err, sizeof err) == 0 && n == 100000,
          "100000 text points: %s", err);
    free(xyz);
    xyz = NULL;
}

/* Item 13: netCDF coordinates are floating point and written. */
static void check_netcdf(void)
{
    char err[512];
    int dim;
    int64_t n;
    double *xyz = NULL;
    const char *a = at("ncint.nc"), *b = at("ncfill.nc");
    REQUIRE(make("ncint", a, NULL) == 0 && make("ncfill", b, NULL) == 0, , "make netCDF");
    CHECK(tbrf_io_read_points(a, &dim, &n, &xyz, err, sizeof err) == -1 &&
              has(err, "floating-point"),
          "int coordinates: %s", err);
    CHECK(tbrf_io_read_points(b, &dim, &n, &xyz, err, sizeof err) == -1 && has(err, "fill value"),
          "unwritten coordinates: %s", err);
    free(xyz);
}

/* Item 6 and 13: the table parser's bounds and line numbers. */
static void check_table(void)
{
    tbrf_model *m = NULL;
    int st = tbrf_model_table_file("/dev/zero", &m);
    CHECK(st == TBRF_ERR_FILE && has(tbrf_model_message(m), "NUL"), "/dev/zero: %d %s", st,
          m ? tbrf_model_message(m) : "");
    tbrf_model_destroy(m);

    const char *p = at("long_table.txt");
    FILE *t = fopen(p, "w");
    fputs("0.1 1\n", t);
    for (int i = 0; i < (1 << 20) / 8 + 8; i++)
        fputs("# a long", t);
    fputs("\n1 2\n", t);
    fclose(t);
    st = tbrf_model_table_file(p, &m);
    CHECK(st == TBRF_ERR_SIZE && has(tbrf_model_message(m), ":2: line longer"), "long line: %d %s",
          st, m ? tbrf_model_message(m) : "");
    tbrf_model_destroy(m);

    /* A comment over 4 KiB whose tail looks like a row is a comment; a
     * 6000-byte comment line; rows and line numbers after them right. */
    p = at("comment_table.txt");
    t = fopen(p, "w");
    fputs("# ", t);
    for (int i = 0; i < 5000; i++)
        fputc('c', t);
    fputs(" 0.05 7\n0.1 1\n", t);
    for (int i = 0; i < 6000; i++)
        fputc(i == 0 ? '#' : 'x', t);
    fputs("\n0.5 0.5 # trailing comment\n2 0.25\n", t);
    fclose(t);
    st = tbrf_model_table_file(p, &m);
    size_t n = 8;
    double k[8], pv[8];
    CHECK(st == TBRF_OK && tbrf_model_table_data(m, &n, k, pv) == TBRF_OK && n == 3 && k[0] == 0.1 &&
              pv[0] == 1 && k[1] == 0.5 && k[2] == 2 && pv[2] == 0.25,
          "table after long comments: st %d, n %zu", st, n);
    tbrf_model_destroy(m);
    t = fopen(p, "a");
    fputs("1 0.1\n", t); /* line 6: k not increasing */
    fclose(t);
    st = tbrf_model_table_file(p, &m);
    CHECK(st == TBRF_ERR_TABLE && has(tbrf_model_message(m), "comment_table.txt:6:"),
          "line number after long comments: %s", m ? tbrf_model_message(m) : "");
    tbrf_model_destroy(m);

    /* An absurd n: refused, not wrapped around to a small allocation. */
    double two[2] = {1, 2};
    st = tbrf_model_table(SIZE_MAX / sizeof(double) + 2, two, two, &m);
    CHECK(st == TBRF_ERR_SIZE, "n = SIZE_MAX/8 + 2: status %d", st);
    tbrf_model_destroy(m);
}

static int stop_at_once(void *user, int64_t n, int dim, const double *x, double *f)
{
    (void)user, (void)n, (void)dim, (void)x, (void)f;
    return 1;
}

/* Item 13: 2^50 points need no per-chunk array of 4 TiB: the run starts
 * (and here stops at the first callback) instead of failing for memory. */
static void check_mc(void)
{
    double out[2];
    int st = tbrf_mc_integrate_fn(stop_at_once, NULL, 2, NULL, NULL, (int64_t)1 << 50, 1,
                                  TBRF_MC_SEQUENTIAL, 0, out);
    CHECK(st == TBRF_ERR_CALLBACK, "n = 2^50: status %d (%s)", st, tbrf_strerror(st));
    /* Across a group boundary the sequential and vectorized runs agree
     * bit for bit. */
    double a[2], b[2];
    int64_t n = ((int64_t)1 << 25) + 12345;
    CHECK(tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 1, NULL, NULL, n, 5, TBRF_MC_SEQUENTIAL, 0, a) == 0 &&
              tbrf_mc_integrate(TBRF_MC_GAUSSIAN, 1, NULL, NULL, n, 5, TBRF_MC_VECTORIZED, 0, b) ==
                  0 &&
              memcmp(a, b, sizeof a) == 0,
          "sequential %.17g, vectorized %.17g", a[0], b[0]);
    double e;
    CHECK(tbrf_mc_exact(TBRF_MC_CORNER_PEAK, 20, NULL, NULL, &e) == TBRF_OK &&
              tbrf_mc_exact(TBRF_MC_CORNER_PEAK, 21, NULL, NULL, &e) == TBRF_ERR_UNSUPPORTED,
          "cornerpeak: dimensions up to 20, as tbrf.h says");
}

static void check_escape(void)
{
    char b[32];
    CHECK(strcmp(tbrf_io_escape("a\nb\033c\\", b, sizeof b), "a\\nb\\x1bc\\\\") == 0, "got %s", b);
    CHECK(strcmp(tbrf_io_escape("abcdefghij", b, 8), "abcd...") == 0, "truncated: %s", b);
    CHECK(strcmp(tbrf_io_escape(NULL, b, sizeof b), "(null)") == 0, "NULL: %s", b);
}

int main(int argc, char **argv)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (argc >= 4 && strcmp(argv[1], "make") == 0) {
        if (make(argv[2], argv[3], argc > 4 ? argv[4] : NULL)) {
            fprintf(stderr, "io_hostile: cannot make %s %s\n", argv[2], argv[3]);
            return 1;
        }
        return 0;
    }
    if (argc != 3 || strcmp(argv[1], "check") != 0) {
        fprintf(stderr, "usage: io_hostile check DIR | io_hostile make KIND OUT [BASE]\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "%s", argv[2]);
    check_strings();
    check_budgets();
    check_netcdf();
    check_table();
    check_mc();
    check_escape();
    return check_report("io_hostile_inputs");
}
