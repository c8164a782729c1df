#define _POSIX_C_SOURCE 200809L
/* fuzz_nc.c — tbrf_io_read_points on netCDF files written from the fuzz
 * input: classic, 64-bit offset or netCDF-4; variables x, y[, z] of any
 * type, rank and length (fixed or unlimited), with or without a fill
 * value, written in full, in part or not at all, NaN and infinities
 * included (README.md, "fuzz_nc", has the encoding). */
#include <netcdf.h>

#include "fuzz.h"
#include "io/tbrf_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_budget();
    fz z = {data, size, 0};
    const char *path = fz_path("points.nc");
    static const int formats[] = {NC_CLOBBER, NC_CLOBBER | NC_64BIT_OFFSET,
                                  NC_CLOBBER | NC_NETCDF4};
    int nc;
    if (nc_create(path, formats[fz_u8(&z) % 3], &nc) != NC_NOERR)
        return 0;
    unsigned sel = fz_u8(&z);
    size_t len = sel < 240 ? sel % 64 : (size_t)1 << (10 + sel % 20);
    int unlimited = fz_u8(&z) % 4 == 0;
    int dims[2];
    nc_def_dim(nc, "point", unlimited ? NC_UNLIMITED : (len ? len : 1), &dims[0]);
    nc_def_dim(nc, "other", 1 + fz_u8(&z) % 3, &dims[1]);
    static const char *names[3] = {"x", "y", "z"};
    static const nc_type types[] = {NC_DOUBLE, NC_FLOAT, NC_INT, NC_SHORT, NC_BYTE, NC_CHAR};
    int nvars = fz_u8(&z) % 4, var[3], written[3];
    for (int c = 0; c < nvars; c++) {
        unsigned t = fz_u8(&z);
        nc_type type = t < 160 ? NC_DOUBLE : types[t % 6];
        int nd = fz_u8(&z) % 8 == 0 ? 2 : 1;
        var[c] = -1;
        if (nc_def_var(nc, names[c], type, nd, dims, &var[c]) != NC_NOERR)
            continue;
        unsigned fill = fz_u8(&z) % 4;
        if (fill == 1)
            nc_def_var_fill(nc, var[c], NC_NOFILL, NULL);
        else if (fill == 2 && type == NC_DOUBLE) {
            double fv = fz_f64(&z);
            nc_def_var_fill(nc, var[c], NC_FILL, &fv);
        }
        written[c] = fz_u8(&z) % 3; /* 0 none, 1 half, 2 all */
    }
    /* A classic file is filled at enddef: not gigabytes of it (tbrf's
     * reader is what is tested; a sparse file declares the same). */
    int old_fill;
    if (len > 4096)
        nc_set_fill(nc, NC_NOFILL, &old_fill);
    if (nc_enddef(nc) != NC_NOERR) {
        nc_close(nc);
        unlink(path);
        return 0;
    }
    size_t n = unlimited ? len : (len ? len : 1);
    for (int c = 0; c < nvars && n <= 4096; c++) {
        if (var[c] < 0 || written[c] == 0)
            continue;
        size_t count[2] = {written[c] == 1 ? n / 2 : n, 1}, start[2] = {0, 0};
        if (count[0] == 0)
            continue;
        double *v = malloc(count[0] * sizeof *v);
        if (!v)
            continue;
        unsigned pattern = fz_u8(&z);
        for (size_t i = 0; i < count[0]; i++)
            v[i] = pattern < 200 ? (double)i * 0.25 - 3 : fz_f64(&z);
        nc_put_vara_double(nc, var[c], start, count, v);
        free(v);
    }
    nc_close(nc);
    int dim;
    int64_t np;
    double *xyz = NULL;
    char err[512];
    int rc = tbrf_io_read_points(path, &dim, &np, &xyz, err, sizeof err);
    if (getenv("TBRF_FUZZ_VERBOSE"))
        fprintf(stderr, "read_points: %s\n", rc ? err : "ok");
    free(xyz);
    unlink(path);
    return 0;
}
