#define _POSIX_C_SOURCE 200809L
/* fuzz_ngenic.c — N-GenIC parameter files for `tbrf arepo cosmo --ngenic`
 * (cli/ngenic.c: ngenic_read, ngenic_check, ngenic_power) on any bytes.
 * The input is the parameter file up to a line "%%SPECTRUM", and after it
 * the FileWithInputSpectrum table that a file read and checked is then
 * given (its own FileWithInputSpectrum replaced by that file's name).
 * Every refusal must be one line (cli_errline here records it). */
#include "fuzz.h"
#include "ngenic.h"

#include <stdarg.h>

static int g_lines;

/* The command's error line (cli/progress.c), counted. */
void cli_errline(const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!buf[0])
        abort();
    g_lines++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_budget();
    static const char SEP[] = "\n%%SPECTRUM\n";
    size_t cut = size;
    for (size_t i = 0; i + sizeof SEP - 1 <= size; i++)
        if (memcmp(data + i, SEP, sizeof SEP - 1) == 0) {
            cut = i + 1;
            break;
        }
    char param[512], table[512];
    snprintf(param, sizeof param, "%s", fz_path("ngenic"));
    snprintf(table, sizeof table, "%s", fz_path("ngenic-spectrum"));
    const size_t rest = cut < size ? size - cut - (sizeof SEP - 2) : 0;
    if (fz_write(param, data, cut) ||
        fz_write(table, data + size - rest, rest))
        return 0;
    ngenic_params p;
    g_lines = 0;
    int rc = ngenic_read(param, &p);
    if (rc == 0)
        rc = ngenic_check(param, &p);
    if (rc == 0) {
        snprintf(p.FileWithInputSpectrum, sizeof p.FileWithInputSpectrum, "%s", table);
        tbrf_model *power = NULL;
        rc = ngenic_power(param, &p, &power);
        if (rc == 0 && p.WhichSpectrum == 2) {
            if (!power)
                abort();
            (void)tbrf_model_spectrum(power, 3, 0.1);
        }
        if (rc != 0 && power)
            abort();
        tbrf_model_destroy(power);
    }
    /* exactly one line for a refusal, none for an acceptance */
    if ((rc != 0) != (g_lines == 1))
        abort();
    unlink(param);
    unlink(table);
    return 0;
}
