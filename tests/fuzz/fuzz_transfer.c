#define _POSIX_C_SOURCE 200809L
/* fuzz_transfer.c — CAMB and CLASS transfer files, tbrf_ic_transfer_power
 * (c/apps/ic/transfer.c), on any bytes: every species, and the spectrum
 * of a file it accepts evaluated. */
#include "fuzz.h"
#include "tbrf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_budget();
    const char *path = fz_path("transfer");
    if (fz_write(path, data, size))
        return 0;
    for (int32_t s = 0; s < 3; s++) {
        tbrf_model *m = NULL;
        int32_t format = 0;
        char msg[1024];
        int st = tbrf_ic_transfer_power(path, s, 0.96, &format, &m, msg, sizeof msg);
        if (st != TBRF_OK && (m || !msg[0]))
            abort();
        if (st == TBRF_OK) {
            if (!m || (format != TBRF_IC_TRANSFER_CAMB && format != TBRF_IC_TRANSFER_CLASS))
                abort();
            (void)tbrf_model_spectrum(m, 3, 0.1);
        }
        tbrf_model_destroy(m);
    }
    unlink(path);
    return 0;
}
