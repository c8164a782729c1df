#define _POSIX_C_SOURCE 200809L
/* fuzz_turbgen.c — TurbGen's parameter-file parser,
 * tbrf_driver_params_from_turbgen (c/apps/driving/turbgen.c), on any
 * bytes (as text: up to the first NUL, which is where a C string ends),
 * and the driver a file it accepts makes. */
#include "fuzz.h"
#include "tbrf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_budget();
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    tbrf_driver_params p;
    uint64_t seed = 0;
    tbrf_model *model = NULL;
    char msg[512];
    int st = tbrf_driver_params_from_turbgen(text, &p, &seed, &model, msg, sizeof msg);
    /* a refusal is one line of text; an acceptance a model */
    if (st != TBRF_OK && (model || !msg[0] || strchr(msg, '\n')))
        abort();
    if (st == TBRF_OK) {
        if (!model)
            abort();
        p.threads = 1;
        tbrf_driver *d = NULL;
        if (tbrf_driver_make(model, seed, &p, &d) == TBRF_OK) {
            double xyz[3] = {0.1, 0.2, 0.3}, f[3];
            (void)tbrf_driver_points(d, 0.5, 1, xyz, f);
        }
        tbrf_driver_destroy(d);
    }
    tbrf_model_destroy(model);
    free(text);
    return 0;
}
