/* cli_mkpoints.c — writes points files, good and bad, for the CLI tests
 * (no h5py needed).
 *
 *   cli_mkpoints OUT.h5 KIND N
 *
 * KIND: good3, good2 (N points in [0,10]^dim, float64), f32 (float32
 * (N,3)), nan (good3 with a NaN), inf, rank1 (/points (N)), shape4
 * ((N,4)), int (int32 (N,3)), nodset (no /points), group (/points is a
 * group), empty ((0,3)), text (not an HDF5 file at all), arepo (an
 * AREPO-like snapshot: a /Header group with attributes BoxSize, NumPart_ThisFile,
 * a name with a control character, and /PartType0/Coordinates (N,3)), many
 * (N empty groups /gNNNNNN, for tbrf info's bound on objects listed). */
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int write_ds(hid_t f, const char *name, hid_t ftype, hid_t mtype, int rank,
                    const hsize_t *dims, const void *data);

static void attr_d(hid_t o, const char *name, int n, const double *v)
{
    hsize_t d = (hsize_t)n;
    hid_t s = n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &d, NULL);
    hid_t a = H5Acreate2(o, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_DOUBLE, v);
    H5Aclose(a);
    H5Sclose(s);
}

static void attr_s(hid_t o, const char *name, const char *v)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, strlen(v) + 1);
    hid_t s = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(o, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, t, v);
    H5Aclose(a);
    H5Sclose(s);
    H5Tclose(t);
}

/* An AREPO-like snapshot: groups with attributes, a dataset inside one. */
static int write_arepo(hid_t f, const hsize_t *dims, const double *xyz)
{
    hid_t h = H5Gcreate2(f, "Header", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t p = H5Gcreate2(f, "PartType0", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (h < 0 || p < 0)
        return -1;
    double box = 10.0, np[6] = {(double)dims[0], 0, 0, 0, 0, 0};
    attr_d(h, "BoxSize", 1, &box);
    attr_d(h, "NumPart_ThisFile", 6, np);
    attr_s(h, "Git\ncommit", "abc\x01" "def");
    attr_s(p, "Description", "gas cells");
    H5Gclose(h);
    int rc = write_ds(p, "Coordinates", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, xyz);
    H5Gclose(p);
    return rc;
}

static int write_ds(hid_t f, const char *name, hid_t ftype, hid_t mtype, int rank,
                    const hsize_t *dims, const void *data)
{
    hid_t s = H5Screate_simple(rank, dims, NULL);
    hid_t d = H5Dcreate2(f, name, ftype, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = (s < 0 || d < 0 || H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) ? -1 : 0;
    if (d >= 0)
        H5Dclose(d);
    if (s >= 0)
        H5Sclose(s);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: cli_mkpoints OUT.h5 KIND N\n");
        return 2;
    }
    const char *out = argv[1], *kind = argv[2];
    long n = strtol(argv[3], NULL, 10);
    if (n < 0 || n > 10000000) {
        fprintf(stderr, "cli_mkpoints: bad N\n");
        return 2;
    }
    if (strcmp(kind, "text") == 0) {
        FILE *t = fopen(out, "w");
        if (!t)
            return 1;
        fputs("this is not an HDF5 file\n", t);
        return fclose(t) == 0 ? 0 : 1;
    }
    int dim = strcmp(kind, "good2") == 0 ? 2 : strcmp(kind, "shape4") == 0 ? 4 : 3;
    size_t cnt = (size_t)(n ? n : 1) * (size_t)dim;
    double *xyz = malloc(cnt * sizeof *xyz);
    int32_t *ixyz = malloc(cnt * sizeof *ixyz);
    float *fxyz = malloc(cnt * sizeof *fxyz);
    if (!xyz || !ixyz || !fxyz)
        return 1;
    /* A fixed LCG: the same points on every run and platform. */
    uint64_t s = 12345;
    for (size_t i = 0; i < cnt; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        xyz[i] = 10.0 * (double)(s >> 11) / 9007199254740992.0;
        ixyz[i] = (int32_t)(s >> 60);
        fxyz[i] = (float)xyz[i];
    }
    if (n > 0 && strcmp(kind, "nan") == 0)
        xyz[cnt / 2] = NAN;
    if (n > 0 && strcmp(kind, "inf") == 0)
        xyz[cnt / 2] = INFINITY;

    hid_t f = H5Fcreate(out, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0)
        return 1;
    hsize_t dims[2] = {(hsize_t)n, (hsize_t)dim};
    int rc = 0;
    if (strcmp(kind, "rank1") == 0) {
        rc = write_ds(f, "points", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, dims, xyz);
    } else if (strcmp(kind, "int") == 0) {
        rc = write_ds(f, "points", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, dims, ixyz);
    } else if (strcmp(kind, "f32") == 0) {
        rc = write_ds(f, "points", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 2, dims, fxyz);
    } else if (strcmp(kind, "nodset") == 0) {
        rc = write_ds(f, "other", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, xyz);
    } else if (strcmp(kind, "group") == 0) {
        hid_t g = H5Gcreate2(f, "points", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        rc = g < 0 ? -1 : 0;
        if (g >= 0)
            H5Gclose(g);
    } else if (strcmp(kind, "many") == 0) {
        for (long i = 0; i < n && rc == 0; i++) {
            char name[32];
            snprintf(name, sizeof name, "g%06ld", i);
            hid_t g = H5Gcreate2(f, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
            rc = g < 0 ? -1 : 0;
            if (g >= 0)
                H5Gclose(g);
        }
    } else if (strcmp(kind, "arepo") == 0) {
        rc = write_arepo(f, dims, xyz);
    } else if (strcmp(kind, "empty") == 0) {
        dims[0] = 0;
        rc = write_ds(f, "points", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, xyz);
    } else if (strcmp(kind, "good3") == 0 || strcmp(kind, "good2") == 0 ||
               strcmp(kind, "nan") == 0 || strcmp(kind, "inf") == 0 ||
               strcmp(kind, "shape4") == 0) {
        rc = write_ds(f, "points", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, xyz);
    } else {
        fprintf(stderr, "cli_mkpoints: unknown kind %s\n", kind);
        rc = -1;
    }
    if (H5Fclose(f) < 0)
        rc = -1;
    free(xyz);
    free(ixyz);
    free(fxyz);
    return rc ? 1 : 0;
}
