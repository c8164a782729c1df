#define _POSIX_C_SOURCE 200809L
/* fuzz_arepo.c — the readers of AREPO files (tbrf_arepo.h) on sets of
 * files written from the fuzz input: tbrf_arepo_read_glass and
 * _read_coordinates (the --glass and --points readers), the set check
 * tbrf_arepo_check_set (set_files, set_member, set_digest of
 * every member), tbrf_arepo_read_command, tbrf_io_arepo_version and
 * tbrf_arepo_compare.
 *
 * The input: a byte giving the number of members (1 to 3, files
 * set.I.hdf5), then for each member up to 24 operations, each a byte
 * `op % 9` (README.md, "fuzz_arepo", has the encoding; make_seeds.py
 * writes inputs that make valid sets, mixed sets and glasses). */
#include <hdf5.h>

#include "fuzz.h"
#include "io/tbrf_io.h"
#include "tbrf_arepo.h"

static const char *const TBRF_ATTRS[] = {"set_files", "set_member", "set_digest", "command",
                                         "tbrf_version"};

/* A string: a digest-like word, or up to 40 raw bytes (control bytes,
 * bad UTF-8 and NULs included). */
static void text(fz *z, char *buf, size_t cap)
{
    static const char *const WORDS[] = {"0123456789abcdef", "fedcba9876543210",
                                        "tbrf arepo gas --box 1 --lattice 4 --out x", "", "0.5.0"};
    unsigned sel = fz_u8(z);
    if (sel < 160) {
        snprintf(buf, cap, "%s", WORDS[sel % 5]);
        return;
    }
    size_t n = fz_u8(z) % 41;
    if (n >= cap)
        n = cap - 1;
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)fz_u8(z);
    buf[n] = '\0';
}

static hid_t group(hid_t f, const char *name)
{
    if (H5Lexists(f, name, H5P_DEFAULT) > 0) {
        hid_t g = H5Gopen2(f, name, H5P_DEFAULT); /* fails on a dataset */
        if (g >= 0)
            return g;
        H5Ldelete(f, name, H5P_DEFAULT);
    }
    return H5Gcreate2(f, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
}

/* Attribute `name` of loc: an int32, a double, an int64 pair or a string
 * (fixed or variable length), from the input. */
static void op_attr(fz *z, hid_t loc, const char *name)
{
    if (loc < 0)
        return;
    if (H5Aexists(loc, name) > 0)
        H5Adelete(loc, name);
    unsigned kind = fz_u8(z) % 5;
    hsize_t two = 2;
    hid_t s = kind == 2 ? H5Screate_simple(1, &two, NULL) : H5Screate(H5S_SCALAR);
    if (kind <= 2) {
        unsigned sel = fz_u8(z);
        double d = sel < 200 ? (double)(sel % 5) : fz_f64(z);
        int32_t i = sel < 200 ? (int32_t)(sel % 5) - (sel % 7 == 0) : (int32_t)fz_u64(z);
        int64_t p[2] = {i, i};
        hid_t t = kind == 0 ? H5T_NATIVE_INT32 : kind == 1 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
        hid_t a = H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
        if (a >= 0) {
            H5Awrite(a, t, kind == 0 ? (const void *)&i : kind == 1 ? (const void *)&d
                                                                    : (const void *)p);
            H5Aclose(a);
        }
    } else {
        char buf[64];
        text(z, buf, sizeof buf);
        hid_t t = H5Tcopy(H5T_C_S1);
        if (kind == 3)
            H5Tset_size(t, strlen(buf) + 1 + fz_u8(z) % 4);
        else
            H5Tset_size(t, H5T_VARIABLE);
        const char *v = buf;
        char fixed[80] = {0};
        memcpy(fixed, buf, strlen(buf));
        hid_t a = H5Acreate2(loc, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
        if (a >= 0) {
            H5Awrite(a, t, kind == 3 ? (const void *)fixed : (const void *)&v);
            H5Aclose(a);
        }
        H5Tclose(t);
    }
    H5Sclose(s);
}

/* PartType0 or PartType1 /Coordinates: rank 0-3, small or huge dims, four
 * types, written from the input (inside the unit box, or any doubles) or
 * never written; or a group in its place. */
static void op_coords(fz *z, hid_t f)
{
    const char *gname = fz_u8(z) & 1 ? "PartType0" : "PartType1";
    hid_t g = group(f, gname);
    if (g < 0)
        return;
    if (H5Lexists(g, "Coordinates", H5P_DEFAULT) > 0)
        H5Ldelete(g, "Coordinates", H5P_DEFAULT);
    if (fz_u8(z) > 245) {
        hid_t h = H5Gcreate2(g, "Coordinates", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (h >= 0)
            H5Gclose(h);
        H5Gclose(g);
        return;
    }
    int rank = fz_u8(z) % 4;
    hsize_t dims[3] = {0, 0, 0}, total = 1;
    for (int i = 0; i < rank; i++) {
        unsigned sel = fz_u8(z);
        dims[i] = sel < 240 ? (i == 1 && sel < 200 ? 3 : sel % 40) : (hsize_t)1 << (10 + sel % 22);
        total = dims[i] && total > ((hsize_t)1 << 40) / dims[i] ? (hsize_t)1 << 40 : total * dims[i];
    }
    const hid_t types[] = {H5T_IEEE_F64LE, H5T_IEEE_F32LE, H5T_STD_I32LE, H5T_STD_U8LE};
    hid_t t = types[fz_u8(z) % 4];
    int written = fz_u8(z) % 4 != 0 && total <= 4096;
    hid_t s = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (!written)
        H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_LATE);
    hid_t d = H5Dcreate2(g, "Coordinates", t, s, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d >= 0 && written) {
        size_t n = rank == 0 ? 1 : (size_t)total;
        double *v = malloc((n ? n : 1) * sizeof *v);
        unsigned pattern = fz_u8(z);
        for (size_t i = 0; v && i < n; i++)
            v[i] = pattern < 128   ? (double)((i * 37) % 101) / 101.0
                   : pattern < 200 ? (double)(i % 7) / 8.0 /* duplicates */
                                   : fz_f64(z);
        if (v && n)
            H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
        free(v);
    }
    if (d >= 0)
        H5Dclose(d);
    H5Pclose(dcpl);
    H5Sclose(s);
    H5Gclose(g);
}

static void member(fz *z, const char *path)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0)
        return;
    int ops = fz_u8(z) % 25;
    for (int k = 0; k < ops; k++) {
        unsigned op = fz_u8(z) % 9;
        hid_t g = -1;
        if (op == 0 || op == 1) {
            g = group(f, "Header");
            op_attr(z, g, op == 0 ? "BoxSize" : "NumFilesPerSnapshot");
        } else if (op == 2) {
            op_coords(z, f);
        } else if (op <= 6) {
            g = group(f, "tbrf");
            op_attr(z, g, TBRF_ATTRS[op == 6 ? 3 + fz_u8(z) % 2 : op - 3]);
        } else if (op == 7) {
            g = group(f, "tbrf");
            const char *name = TBRF_ATTRS[fz_u8(z) % 5];
            if (g >= 0 && H5Aexists(g, name) > 0)
                H5Adelete(g, name);
        } else {
            static const char *const TOP[] = {"Header", "tbrf", "PartType0", "PartType1"};
            const char *name = TOP[fz_u8(z) % 4];
            if (H5Lexists(f, name, H5P_DEFAULT) > 0)
                H5Ldelete(f, name, H5P_DEFAULT);
        }
        if (g >= 0)
            H5Gclose(g);
    }
    H5Fclose(f);
}

static void read_all(const char *path, const char *other)
{
    char err[1024];
    const int verbose = getenv("TBRF_FUZZ_VERBOSE") != NULL;
    int64_t n = 0;
    double *xyz = NULL, box = 0;
    int rc = tbrf_arepo_check_set(path, err, sizeof err);
    if (verbose)
        fprintf(stderr, "%s: check_set: %s\n", path, rc ? err : "ok");
    rc = tbrf_arepo_read_glass(path, &n, &xyz, &box, err, sizeof err);
    if (verbose)
        fprintf(stderr, "%s: read_glass: %d %s (n %lld)\n", path, rc, rc < 0 ? err : "",
                (long long)n);
    free(xyz);
    xyz = NULL;
    rc = tbrf_arepo_read_coordinates(path, &n, &xyz, err, sizeof err);
    free(xyz);
    char *cmd = NULL;
    if (tbrf_arepo_read_command(path, &cmd, err, sizeof err) == 0 && cmd) {
        char esc[256];
        (void)tbrf_io_escape(cmd, esc, sizeof esc);
    }
    free(cmd);
    char v[64];
    tbrf_io_arepo_version(path, v, sizeof v);
    if (other)
        (void)tbrf_arepo_compare(path, other, err, sizeof err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_budget();
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    fz z = {data, size, 0};
    int m = 1 + (int)(fz_u8(&z) % 3);
    char names[3][512];
    for (int i = 0; i < m; i++) {
        char tag[32];
        snprintf(tag, sizeof tag, "set.%d.hdf5", i);
        snprintf(names[i], sizeof names[i], "%s", fz_path(tag));
        member(&z, names[i]);
    }
    for (int i = 0; i < m; i++)
        read_all(names[i], i + 1 < m ? names[i + 1] : NULL);
    for (int i = 0; i < m; i++)
        unlink(names[i]);
    return 0;
}
