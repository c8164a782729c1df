#define _POSIX_C_SOURCE 200809L
/* fuzz_driver_state.c — tbrf_driver_load (c/apps/driving/driver.c) on
 * any bytes, and the force of a state it accepts.
 *
 * The first byte picks the form: 0, the rest is the buffer as it is (any
 * bytes: the format, size and version checks); 1, a valid state of a
 * fixed driver with the rest applied as edits — (offset u16, xor byte)
 * triples, then, if the last byte is odd, the checksum written again over
 * the edited bytes (its formula copied from driver.c, "save / load"), so
 * the finiteness, parameter, count and update-index checks behind the
 * checksum are reached too. A state that loads is evaluated at its own
 * update and the next (the loaded value and random access). */
#include <math.h>

#include "fuzz.h"
#include "tbrf.h"

static uint64_t checksum(const unsigned char *b, int64_t size)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)size;
    for (int64_t at = 16; at + 8 <= size; at += 8) {
        uint64_t w;
        memcpy(&w, b + at, 8);
        h = (h ^ w) * 0x100000001b3ULL;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

static tbrf_driver *make(tbrf_model **m)
{
    const double two_pi = 6.283185307179586;
    tbrf_model_band(two_pi, 2.0 * two_pi, m);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.interpolate = 1;
    tbrf_driver *d = NULL;
    tbrf_driver_make(*m, 5, &p, &d);
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setenv("TBRF_MEMORY_BUDGET", "64M", 0);
    if (size < 1)
        return 0;
    tbrf_model *m = NULL;
    tbrf_driver *d = make(&m);
    const int64_t ssize = tbrf_driver_state_size(d);
    unsigned char *buf = NULL;
    int64_t len = 0;
    if (data[0] == 0 || ssize <= 0) {
        len = (int64_t)size - 1;
        buf = malloc(len > 0 ? (size_t)len : 1);
        if (buf && len > 0)
            memcpy(buf, data + 1, (size_t)len);
    } else {
        const double x[3] = {0.1, 0.2, 0.3};
        double f[3];
        tbrf_driver_points(d, 1234.5, 1, x, f);
        len = ssize;
        buf = malloc((size_t)len);
        if (buf && tbrf_driver_save(d, buf, len) == TBRF_OK) {
            for (size_t at = 1; at + 3 <= size; at += 3) {
                const size_t off = ((size_t)data[at] | (size_t)data[at + 1] << 8) % (size_t)len;
                buf[off] ^= data[at + 2];
            }
            if (data[size - 1] & 1u) {
                const uint64_t sum = checksum(buf, len);
                memcpy(buf + 8, &sum, 8);
            }
        }
    }
    tbrf_driver *r = NULL;
    tbrf_driver_make(m, 5, &(tbrf_driver_params){0}, &r); /* a failed driver refuses too */
    if (buf) {
        (void)tbrf_driver_load(r, buf, len);
        if (tbrf_driver_load(d, buf, len) == TBRF_OK) {
            tbrf_driver_info info;
            tbrf_driver_get_info(d, &info);
            const double x[3] = {0.7, 0.1, 0.9};
            double f[3];
            const double t = (double)info.update * info.dt_update;
            (void)tbrf_driver_points(d, t, 1, x, f);
            (void)tbrf_driver_points(d, t + 1.5 * info.dt_update, 1, x, f);
        }
        if (getenv("TBRF_FUZZ_VERBOSE"))
            fprintf(stderr, "fuzz_driver_state: load: %s\n", tbrf_driver_message(d)[0] ? tbrf_driver_message(d) : "ok");
    }
    free(buf);
    tbrf_driver_destroy(r);
    tbrf_driver_destroy(d);
    tbrf_model_destroy(m);
    return 0;
}
