/* amplitude.c — TurbGen's amplitude controller as a pure function
 * (tbrf_driver_amplitude_adjust; doc/driving.md, "Amplitude control").
 *
 * TurbGen (TurbGen.h, check_for_update) adjusts its ampl_factor^1.5 per
 * component only once the code hands it a measured dispersion v > 0 and
 * only at t > 0.1 t_decay: a run from rest measures v = 0 at first, and a
 * dispersion that has barely begun to grow would ask for huge gains. The
 * same guards hold here, and the gains are handed back unchanged (a
 * status TBRF_OK) while they hold; any failure hands them back unchanged
 * too, so a caller that ignores the status keeps driving as before. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "tbrf.h"

/* The message (message_size bytes, NUL-terminated, truncated; message
 * may be NULL) and gain_out = gain; returns status. */
static int refuse(int status, int32_t n, const double *gain, double *gain_out, char *message,
                  int64_t message_size, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static int refuse(int status, int32_t n, const double *gain, double *gain_out, char *message,
                  int64_t message_size, const char *fmt, ...)
{
    if (message && message_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(message, (size_t)message_size, fmt, ap);
        va_end(ap);
    }
    if (gain && gain_out && n >= 1 && n <= 3)
        for (int d = 0; d < n; d++)
            gain_out[d] = gain[d];
    return status;
}

/* The arguments' refusal, naming the first bad one, or TBRF_OK. */
static int check_args(int32_t n, const double *gain, const double *measured, double target,
                      double t, double dt, double timescale, double *gain_out, char *message,
                      int64_t message_size)
{
    if (n < 1 || n > 3)
        return refuse(TBRF_ERR_INVALID, n, gain, gain_out, message, message_size,
                      "amplitude_adjust: n=%d must be 1, 2 or 3 (the force's components)", (int)n);
    if (!(target > 0.0 && isfinite(target)))
        return refuse(TBRF_ERR_INVALID, n, gain, gain_out, message, message_size,
                      "amplitude_adjust: target=%g must be finite and > 0", target);
    if (!(t >= 0.0 && isfinite(t)))
        return refuse(TBRF_ERR_INVALID, n, gain, gain_out, message, message_size,
                      "amplitude_adjust: t=%g must be finite and >= 0", t);
    if (!(dt >= 0.0 && isfinite(dt)))
        return refuse(TBRF_ERR_INVALID, n, gain, gain_out, message, message_size,
                      "amplitude_adjust: dt=%g must be finite and >= 0", dt);
    if (!(timescale > 0.0 && isfinite(timescale)))
        return refuse(TBRF_ERR_INVALID, n, gain, gain_out, message, message_size,
                      "amplitude_adjust: timescale=%g must be finite and > 0 (TurbGen's t_decay: "
                      "the driver's tcorr)", timescale);
    for (int d = 0; d < n; d++) {
        if (!(gain[d] > 0.0 && isfinite(gain[d])))
            return refuse(TBRF_ERR_INVALID, n, gain, gain_out, message, message_size,
                          "amplitude_adjust: gain[%d]=%g must be finite and > 0", d, gain[d]);
        if (!(measured[d] >= 0.0 && isfinite(measured[d])))
            return refuse(TBRF_ERR_INVALID, n, gain, gain_out, message, message_size,
                          "amplitude_adjust: measured[%d]=%g must be finite and >= 0 (a velocity "
                          "dispersion; 0 holds the gains)", d, measured[d]);
    }
    return TBRF_OK;
}

int tbrf_driver_amplitude_adjust(int32_t n, const double *gain, const double *measured,
                                 double target, double t, double dt, double timescale,
                                 double *gain_out, char *message, int64_t message_size)
{
    if (message && message_size > 0)
        message[0] = '\0';
    if (!gain || !measured || !gain_out)
        return refuse(TBRF_ERR_NULL, n, gain, gain_out, message, message_size,
                      "amplitude_adjust: %s is NULL", !gain ? "gain" : !measured ? "measured" : "gain_out");
    int st = check_args(n, gain, measured, target, t, dt, timescale, gain_out, message, message_size);
    if (st != TBRF_OK)
        return st;
    double out[3];
    for (int d = 0; d < n; d++) {
        out[d] = gain[d];
        /* TurbGen's guards: nothing measured yet (a run from rest), or too
         * early for the measured dispersion to answer the force */
        if (!(measured[d] > 0.0) || !(t > 0.1 * timescale))
            continue;
        /* the gain that would give the target now (v ~ gain^(2/3): the
         * energy input ~ gain^2 T balances dissipation ~ v^3 / L), then
         * relaxed towards it on sqrt(ratio) timescale, as TurbGen does, so
         * a large correction is applied slowly */
        const double want = gain[d] * pow(target / measured[d] / sqrt((double)n), 1.5);
        const double tau = sqrt(want / gain[d]) * timescale;
        const double damp = exp(-dt / tau);
        out[d] = gain[d] * damp + (1.0 - damp) * want;
        if (!(out[d] > 0.0 && isfinite(out[d])))
            return refuse(TBRF_ERR_INVALID, n, gain, gain_out, message, message_size,
                          "amplitude_adjust: the gain of component %d is not finite (%g) from "
                          "gain[%d]=%g, measured[%d]=%g, target=%g", d, out[d], d, gain[d], d,
                          measured[d], target);
    }
    for (int d = 0; d < n; d++)
        gain_out[d] = out[d];
    return TBRF_OK;
}
