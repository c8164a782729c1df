#define _POSIX_C_SOURCE 200809L
/* fuzz_h5.c — tbrf's HDF5 readers on files written from the fuzz input:
 * tbrf_io_read_meta (every attribute of a tbrf file: strings of every
 * kind and arrays of them, integers of both signs and widths, doubles
 * with NaN and infinities, wrong types and counts, missing ones),
 * tbrf_io_read_points, _read_field, _field_shape, _read_slice,
 * _read_values, _read_table and tbrf_io_info, on datasets of any rank,
 * shape and type, written or never written.
 *
 * The input is a list of operations (up to 96), each a byte choosing
 * what to add to the file (README.md, "fuzz_h5", has the encoding;
 * make_seeds.py writes inputs that make valid tbrf files). */
#include <hdf5.h>

#include "fuzz.h"
#include "io/tbrf_io.h"

static const char *const NAMES[] = {
    "model", "model_kind", "model_index", "model_kmin", "model_kmax", "model_length", "model_nu",
    "normalization", "variance", "amplitude", "model_table_file", "dim", "lines", "oversampling",
    "line_method", "method", "periodic", "max_padding", "seed", "realization", "precision",
    "backend", "backend_requested", "domain_lo", "domain_hi", "resolution", "geometry",
    "grid_origin", "grid_spacing", "grid_counts", "npoints", "points_file", "line_samples",
    "line_spacing", "line_length", "model_variance", "variance_resolved", "amplitude_used",
    "padding", "command", "tbrf_version", "other"};
#define NNAMES (sizeof NAMES / sizeof *NAMES)

static const char *const WORDS[] = {"gaussian", "powerlaw",  "exponential", "matern", "vonkarman",
                                    "table",    "grid",      "points",      "variance", "amplitude",
                                    "spectral", "circulant", "tb",          "fft",    "double",
                                    "float",    "cpu",       "auto",        "",       "callback"};
#define NWORDS (sizeof WORDS / sizeof *WORDS)

static const char *const DSETS[] = {"field", "points", "model_table", "value", "x", "y", "z"};

/* A string: a known word, or up to 40 raw bytes (NULs, control
 * characters and bad UTF-8 included). */
static void fz_text(fz *z, char *buf, size_t cap)
{
    unsigned sel = fz_u8(z);
    if (sel < 160) {
        snprintf(buf, cap, "%s", WORDS[sel % NWORDS]);
        return;
    }
    size_t n = fz_u8(z) % 41;
    if (n >= cap)
        n = cap - 1;
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)fz_u8(z);
    buf[n] = '\0';
}

static void put(hid_t f, const char *name, hid_t type, hid_t space, const void *v)
{
    if (H5Aexists(f, name) > 0)
        H5Adelete(f, name);
    hid_t a = H5Acreate2(f, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) {
        H5Awrite(a, type, v);
        H5Aclose(a);
    }
}

/* A dataspace: scalar (count 0), H5S_NULL (count 255) or 1-D of count. */
static hid_t space_of(unsigned count)
{
    if (count == 0)
        return H5Screate(H5S_SCALAR);
    if (count == 255)
        return H5Screate(H5S_NULL);
    hsize_t n = count;
    return H5Screate_simple(1, &n, NULL);
}

static void op_string(fz *z, hid_t f, int vlen, int array)
{
    const char *name = NAMES[fz_u8(z) % NNAMES];
    unsigned count = array ? 1 + fz_u8(z) % 8 : 0;
    if (array && fz_u8(z) > 250)
        count = 4000;
    char text[64];
    fz_text(z, text, sizeof text);
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_cset(t, fz_u8(z) & 1 ? H5T_CSET_UTF8 : H5T_CSET_ASCII);
    hid_t s = space_of(count);
    size_t nelem = count ? count : 1;
    if (vlen) {
        H5Tset_size(t, H5T_VARIABLE);
        const char **v = malloc(nelem * sizeof *v);
        for (size_t i = 0; i < nelem; i++)
            v[i] = text;
        put(f, name, t, s, v);
        free(v);
    } else {
        unsigned sel = fz_u8(z);
        size_t size = sel == 0 ? strlen(text) + (strlen(text) == 0) : 1 + sel % 48;
        H5Tset_size(t, size);
        H5Tset_strpad(t, fz_u8(z) % 3 == 0   ? H5T_STR_NULLTERM
                         : fz_u8(z) % 2 == 0 ? H5T_STR_NULLPAD
                                             : H5T_STR_SPACEPAD);
        char *v = calloc(nelem, size);
        for (size_t i = 0; v && i < nelem; i++)
            memcpy(v + i * size, text, strlen(text) < size ? strlen(text) : size);
        if (v)
            put(f, name, t, s, v);
        free(v);
    }
    H5Sclose(s);
    H5Tclose(t);
}

static void op_number(fz *z, hid_t f, unsigned kind)
{
    const char *name = NAMES[fz_u8(z) % NNAMES];
    unsigned count = fz_u8(z) % 6;
    if (count == 5)
        count = 255; /* H5S_NULL */
    hid_t s = space_of(count);
    size_t nelem = count == 0 ? 1 : count == 255 ? 0 : count;
    const hid_t types[] = {H5T_NATIVE_INT64, H5T_NATIVE_UINT64, H5T_NATIVE_DOUBLE,
                           H5T_NATIVE_INT32, H5T_NATIVE_FLOAT,  H5T_NATIVE_UINT8};
    hid_t t = types[kind % 6];
    double d[8];
    int64_t i64[8];
    uint64_t u64[8];
    int32_t i32[8];
    float f32[8];
    uint8_t u8[8];
    for (size_t i = 0; i < nelem && i < 8; i++) {
        unsigned sel = fz_u8(z);
        int64_t small = (int64_t)fz_u8(z) - 16;
        i64[i] = sel < 200 ? small : (int64_t)fz_u64(z);
        u64[i] = (uint64_t)i64[i];
        i32[i] = (int32_t)i64[i];
        u8[i] = (uint8_t)i64[i];
        d[i] = fz_f64(z);
        f32[i] = (float)d[i];
    }
    const void *v = kind % 6 == 0   ? (const void *)i64
                    : kind % 6 == 1 ? (const void *)u64
                    : kind % 6 == 2 ? (const void *)d
                    : kind % 6 == 3 ? (const void *)i32
                    : kind % 6 == 4 ? (const void *)f32
                                    : (const void *)u8;
    put(f, name, t, s, v);
    H5Sclose(s);
}

static void op_dataset(fz *z, hid_t f)
{
    const char *name = DSETS[fz_u8(z) % 7];
    if (H5Lexists(f, name, H5P_DEFAULT) > 0)
        H5Ldelete(f, name, H5P_DEFAULT);
    if (fz_u8(z) > 240) { /* a group where a dataset is expected */
        hid_t g = H5Gcreate2(f, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (g >= 0)
            H5Gclose(g);
        return;
    }
    int rank = fz_u8(z) % 5;
    hsize_t dims[4], total = 1;
    for (int i = 0; i < rank; i++) {
        unsigned sel = fz_u8(z);
        dims[i] = sel < 240 ? sel % 20 : (hsize_t)1 << (10 + sel % 22);
        total = dims[i] && total > ((hsize_t)1 << 40) / dims[i] ? (hsize_t)1 << 40 : total * dims[i];
    }
    const hid_t types[] = {H5T_IEEE_F64LE, H5T_IEEE_F32BE, H5T_STD_I32LE, H5T_STD_U8LE};
    hid_t t = types[fz_u8(z) % 4];
    int written = fz_u8(z) % 4 != 0 && total <= 4096;
    int compress = fz_u8(z) % 4 == 0;
    hid_t s = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    int chunked = 1;
    for (int i = 0; i < rank; i++)
        chunked &= dims[i] > 0;
    if (rank > 0 && chunked) {
        hsize_t c[4];
        for (int i = 0; i < rank; i++)
            c[i] = dims[i] < 16 ? dims[i] : 16;
        H5Pset_chunk(dcpl, rank, c);
        if (compress)
            H5Pset_deflate(dcpl, 1);
    } else if (!written) {
        H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_LATE);
    }
    hid_t d = H5Dcreate2(f, name, t, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d >= 0 && written) {
        size_t n = rank == 0 ? 1 : (size_t)total;
        double *v = malloc((n ? n : 1) * sizeof *v);
        unsigned pattern = fz_u8(z);
        for (size_t i = 0; v && i < n; i++)
            v[i] = pattern < 200 ? 0.5 * (double)i + 0.125 : fz_f64(z);
        if (v && n)
            H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
        free(v);
    }
    if (d >= 0)
        H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(s);
}

static void read_all(const char *path)
{
    char err[1024];
    tbrf_io_meta m;
    /* TBRF_FUZZ_VERBOSE=1: what the readers said (to check the seeds). */
    const int verbose = getenv("TBRF_FUZZ_VERBOSE") != NULL;
    int rm = tbrf_io_read_meta(path, &m, err, sizeof err);
    if (verbose)
        fprintf(stderr, "read_meta: %s\n", rm ? err : "ok");
    if (rm == 0) {
        char buf[64];
        (void)tbrf_io_escape(m.model_kind, buf, sizeof buf);
        tbrf_io_meta_free(&m);
    }
    int dim;
    int64_t n, nn[3], w, h;
    double *v = NULL;
    int rp = tbrf_io_read_points(path, &dim, &n, &v, err, sizeof err);
    if (verbose)
        fprintf(stderr, "read_points: %s\n", rp ? err : "ok");
    free(v);
    v = NULL;
    int rf = tbrf_io_read_field(path, nn, &v, err, sizeof err);
    if (verbose)
        fprintf(stderr, "read_field: %s\n", rf ? err : "ok");
    free(v);
    v = NULL;
    if (tbrf_io_field_shape(path, nn, err, sizeof err) == 0)
        for (int axis = 0; axis < 3; axis++) {
            if (tbrf_io_read_slice(path, axis, nn[axis] / 2, &w, &h, &v, err, sizeof err) == 0)
                free(v);
            v = NULL;
        }
    if (tbrf_io_read_values(path, &n, &v, err, sizeof err) == 0)
        free(v);
    tbrf_io_file *f = tbrf_io_open(path, err, sizeof err);
    if (f) {
        size_t tn;
        double *k, *p;
        if (tbrf_io_read_table(f, &tn, &k, &p) == 0) {
            free(k);
            free(p);
        }
        char s[16];
        int64_t i3[3];
        uint64_t u;
        double d3[3];
        for (size_t i = 0; i < NNAMES; i++) {
            (void)tbrf_io_attr_str(f, NAMES[i], s, sizeof s);
            (void)tbrf_io_attr_i64(f, NAMES[i], i3, 3);
            (void)tbrf_io_attr_u64(f, NAMES[i], &u);
            (void)tbrf_io_attr_f64(f, NAMES[i], d3, 3);
        }
        tbrf_io_file_close(f);
    }
    FILE *out = fopen("/dev/null", "w");
    if (out) {
        (void)tbrf_io_info(path, out, err, sizeof err);
        fclose(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_budget();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const char *path = fz_path("meta.h5");
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0)
        return 0;
    fz z = {data, size, 0};
    for (int ops = 0; ops < 96 && fz_more(&z); ops++) {
        unsigned op = fz_u8(&z) % 10;
        if (op < 4)
            op_string(&z, f, op & 1, op >> 1);
        else if (op < 8)
            op_number(&z, f, fz_u8(&z));
        else if (op == 8)
            op_dataset(&z, f);
        else {
            const char *name = NAMES[fz_u8(&z) % NNAMES];
            if (H5Aexists(f, name) > 0)
                H5Adelete(f, name);
        }
    }
    H5Fclose(f);
    read_all(path);
    unlink(path);
    return 0;
}
