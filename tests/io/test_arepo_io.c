/* test_arepo_io.c — the AREPO writer of tbrf_io (io/arepo.c;
 * doc/arepo.md): a two-type, two-file set read back with HDF5
 * (attributes, shapes, dtypes, IDs from 1), bad input leaving no file.
 * The periodic Voronoi volumes moved into the library with their tests
 * (tests/apps/test_ic_voronoi.c). */
#define _DEFAULT_SOURCE
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tbrf_arepo.h"
#include "support/check.h"
#include "tbrf.h"

static double u01(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * 0x1p-53;
}

/* Attribute values of /Header read back as doubles. */
static int read_attr(hid_t g, const char *name, double *v, int count)
{
    hid_t a = H5Aopen(g, name, H5P_DEFAULT);
    if (a < 0)
        return -1;
    hid_t sp = H5Aget_space(a);
    int n = (int)H5Sget_simple_extent_npoints(sp);
    int rc = n == count ? H5Aread(a, H5T_NATIVE_DOUBLE, v) : -1;
    H5Sclose(sp);
    H5Aclose(a);
    return rc < 0 ? -1 : 0;
}

static void test_writer(void)
{
    char dir[] = "/tmp/tbrf_arepoXXXXXX";
    REQUIRE(mkdtemp(dir), , "mkdtemp");
    char base[256];
    snprintf(base, sizeof base, "%s/ic", dir);
    const int64_t n0 = 1000, n1 = 77;
    double *p0 = malloc(3 * n0 * sizeof *p0), *m0 = malloc(n0 * sizeof *m0),
           *u0 = malloc(n0 * sizeof *u0), *p1 = malloc(3 * n1 * sizeof *p1);
    uint64_t s = 7;
    for (int64_t i = 0; i < 3 * n0; i++)
        p0[i] = u01(&s) * 10;
    for (int64_t i = 0; i < n0; i++) {
        m0[i] = 1 + u01(&s);
        u0[i] = 2.5;
    }
    for (int64_t i = 0; i < 3 * n1; i++)
        p1[i] = u01(&s) * 10;
    tbrf_arepo_header h;
    tbrf_arepo_header_init(&h);
    h.box_size = 10;
    h.num_files = 2;
    h.double_precision = 0;
    h.mass_table[1] = 0.5;
    tbrf_arepo_particles t[6];
    memset(t, 0, sizeof t);
    t[0] = (tbrf_arepo_particles){n0, p0, NULL, m0, u0, 1};
    t[1] = (tbrf_arepo_particles){n1, p1, NULL, NULL, NULL, 1 + n0};
    tbrf_arepo_param par[2] = {{"command", "test", 0}, {"seed", NULL, 42}};
    char err[512] = "";
    REQUIRE(tbrf_arepo_write(base, &h, t, par, 2, err, sizeof err) == 0, , "%s", err);
    int64_t got[2] = {0, 0};
    for (int f = 0; f < 2; f++) {
        char *name = tbrf_arepo_file_name(base, 2, f);
        hid_t file = H5Fopen(name, H5F_ACC_RDONLY, H5P_DEFAULT);
        CHECK(file >= 0, "open %s", name);
        hid_t g = H5Gopen2(file, "Header", H5P_DEFAULT);
        double v6[6], v;
        CHECK(read_attr(g, "NumPart_ThisFile", v6, 6) == 0, "NumPart_ThisFile");
        got[0] += (int64_t)v6[0];
        got[1] += (int64_t)v6[1];
        CHECK(read_attr(g, "NumPart_Total", v6, 6) == 0 && v6[0] == n0 && v6[1] == n1, "total");
        CHECK(read_attr(g, "MassTable", v6, 6) == 0 && v6[1] == 0.5 && v6[0] == 0, "MassTable");
        CHECK(read_attr(g, "NumFilesPerSnapshot", &v, 1) == 0 && v == 2, "NumFiles");
        CHECK(read_attr(g, "Flag_DoublePrecision", &v, 1) == 0 && v == 0, "flag");
        const char *need[] = {"NumPart_Total_HighWord", "Time", "Redshift", "BoxSize", "Omega0",
                              "OmegaLambda", "HubbleParam", "Flag_Sfr", "Flag_Cooling",
                              "Flag_StellarAge", "Flag_Metals", "Flag_Feedback"};
        for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
            CHECK(H5Aexists(g, need[i]) > 0, "%s present", need[i]);
        H5Gclose(g);
        hid_t d = H5Dopen2(file, "PartType0/Coordinates", H5P_DEFAULT);
        hid_t ty = H5Dget_type(d);
        CHECK(H5Tget_class(ty) == H5T_FLOAT && H5Tget_size(ty) == 4, "float32 coordinates");
        H5Tclose(ty);
        H5Dclose(d);
        d = H5Dopen2(file, "PartType0/ParticleIDs", H5P_DEFAULT);
        ty = H5Dget_type(d);
        CHECK(H5Tget_class(ty) == H5T_INTEGER && H5Tget_size(ty) == 4 &&
              H5Tget_sign(ty) == H5T_SGN_NONE, "uint32 IDs");
        uint32_t first;
        hsize_t one = 1, zero = 0;
        hid_t sp = H5Dget_space(d), ms = H5Screate_simple(1, &one, NULL);
        H5Sselect_hyperslab(sp, H5S_SELECT_SET, &zero, NULL, &one, NULL);
        H5Dread(d, H5T_NATIVE_UINT32, ms, sp, H5P_DEFAULT, &first);
        CHECK(first == (f == 0 ? 1 : 1 + n0 / 2), "file %d first gas ID %u", f, first);
        H5Sclose(ms);
        H5Sclose(sp);
        H5Tclose(ty);
        H5Dclose(d);
        CHECK(H5Lexists(file, "PartType1/Masses", H5P_DEFAULT) == 0, "no Masses for MassTable>0");
        CHECK(H5Lexists(file, "tbrf", H5P_DEFAULT) > 0, "/tbrf group");
        H5Fclose(file);
        free(name);
    }
    CHECK(got[0] == n0 && got[1] == n1, "rows split over the files");
    /* Bad input: nothing written, the message names the value. */
    char *f0 = tbrf_arepo_file_name(base, 1, 0);
    h.num_files = 1;
    h.box_size = -1;
    CHECK(tbrf_arepo_write(base, &h, t, par, 2, err, sizeof err) == -1 && strstr(err, "BoxSize"),
          "negative box: %s", err);
    h.box_size = 10;
    h.omega0 = 11;
    CHECK(tbrf_arepo_write(base, &h, t, par, 2, err, sizeof err) == -1 && strstr(err, "Omega0"),
          "Omega0 out of range: %s", err);
    h.omega0 = 0;
    t[1].first_id = 5;
    CHECK(tbrf_arepo_write(base, &h, t, par, 2, err, sizeof err) == -1 && strstr(err, "overlap"),
          "overlapping IDs: %s", err);
    t[1].first_id = UINT32_MAX - 10;
    CHECK(tbrf_arepo_write(base, &h, t, par, 2, err, sizeof err) == -1 && strstr(err, "uint32"),
          "IDs beyond uint32: %s", err);
    t[1].first_id = 1 + n0;
    p0[5] = 10.0;
    CHECK(tbrf_arepo_write(base, &h, t, par, 2, err, sizeof err) == -1 && strstr(err, "outside"),
          "coordinate = BoxSize: %s", err);
    CHECK(access(f0, F_OK) != 0, "no %s left by the refused writes", f0);
    p0[5] = 1.0;
    for (int64_t i = 0; i < n0; i++)
        m0[i] = 0;
    CHECK(tbrf_arepo_write(base, &h, t, par, 2, err, sizeof err) == -1 && strstr(err, "zero"),
          "zero gas mass: %s", err);
    free(f0);
    for (int f = 0; f < 2; f++) {
        char *name = tbrf_arepo_file_name(base, 2, f);
        unlink(name);
        free(name);
    }
    CHECK(rmdir(dir) == 0, "no temporaries left in %s", dir);
    free(p0);
    free(m0);
    free(u0);
    free(p1);
}

int main(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    test_writer();
    return check_report("test_arepo_io");
}
