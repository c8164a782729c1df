#define _POSIX_C_SOURCE 200809L
/* fuzz_table.c — the "k P" table text parser (tbrf_model_table_file) on
 * any bytes, and the rows it accepts given back. */
#include "fuzz.h"
#include "tbrf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_path("table");
    if (fz_write(path, data, size))
        return 0;
    tbrf_model *m = NULL;
    if (tbrf_model_table_file(path, &m) == TBRF_OK) {
        size_t n = 0;
        if (tbrf_model_table_data(m, &n, NULL, NULL) == TBRF_OK && n <= 4096) {
            double k[4096], p[4096];
            tbrf_model_table_data(m, &n, k, p);
            (void)tbrf_model_spectrum(m, 3, 0.5 * (k[0] + k[n - 1]));
        }
    }
    (void)tbrf_model_message(m);
    tbrf_model_destroy(m);
    unlink(path);
    return 0;
}
