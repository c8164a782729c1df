#define _POSIX_C_SOURCE 200809L
/* fuzz_gadget.c — the Gadget binary glass reader (N-GenIC's GlassFile,
 * format 1 or 2, io/gadget.c) behind tbrf_arepo_read_glass on any
 * bytes: the input is the file. Seeds (make_seeds.py) are valid format-1
 * and format-2 glasses, float32 and float64, so that mutations reach the
 * header's and the POS record's checks. */
#include "fuzz.h"
#include "tbrf_arepo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_budget();
    const char *path = fz_path("glass.dat");
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    int64_t n = 0;
    double *xyz = NULL, box = 0;
    char err[512];
    if (tbrf_arepo_read_glass(path, &n, &xyz, &box, err, sizeof err) == 0) {
        double s = 0;
        for (int64_t i = 0; i < 3 * n; i++)
            s += xyz[i];
        (void)s;
    }
    free(xyz);
    unlink(path);
    return 0;
}
