#define _POSIX_C_SOURCE 200809L
/* fuzz_points_text.c — the text points parser of tbrf_io_read_points on
 * any bytes (inputs that start like an HDF5 or netCDF file are read as
 * text after a leading '#': the binary formats have fuzz_h5, fuzz_nc). */
#include "fuzz.h"
#include "io/tbrf_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_budget();
    const char *path = fz_path("points.txt");
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    if (size >= 3 && (memcmp(data, "\x89HD", 3) == 0 || memcmp(data, "CDF", 3) == 0))
        fputc('#', f);
    fwrite(data, 1, size, f);
    fclose(f);
    int dim = 0;
    int64_t n = 0;
    double *xyz = NULL;
    char err[512];
    if (tbrf_io_read_points(path, &dim, &n, &xyz, err, sizeof err) == 0) {
        double s = 0;
        for (int64_t i = 0; i < n * dim; i++)
            s += xyz[i];
        (void)s;
    }
    free(xyz);
    unlink(path);
    return 0;
}
