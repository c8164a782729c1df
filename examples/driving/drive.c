/* drive.c — turbulence driving from C, the same run as drive.f90
 * (examples/driving/README.md): n^3 moving cells in a periodic box of side
 * 1, the forcing at their positions every variable step, and a restart
 * halfway whose forcing must equal the running driver's bit for bit (from
 * a loaded state and from a fresh driver with no state). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tbrf.h>

static int die(const char *what, int st, const tbrf_driver *d)
{
    fprintf(stderr, "drive.c: %s: %s: %s\n", what, tbrf_strerror(st), tbrf_driver_message(d));
    exit(1);
}

int main(int argc, char **argv)
{
    const double pi = 3.14159265358979323846, t_end = 2.0, drag = 1.0;
    const int n = argc > 1 ? atoi(argv[1]) : 32;
    if (n < 1 || n > 1024)
        return fprintf(stderr, "drive.c: n = %d must be 1..1024\n", n), 1;
    const size_t nc = (size_t)n * n * n;
    double *x = malloc(3 * nc * sizeof *x), *v = calloc(3 * nc, sizeof *v);
    double *f = malloc(3 * nc * sizeof *f), *g = malloc(3 * nc * sizeof *g);
    if (!x || !v || !f || !g)
        return fprintf(stderr, "drive.c: out of memory\n"), 1;
    for (size_t c = 0; c < nc; c++) {
        x[3 * c] = ((double)(c % n) + 0.5) / n;
        x[3 * c + 1] = ((double)(c / n % n) + 0.5) / n;
        x[3 * c + 2] = ((double)(c / n / n) + 0.5) / n;
    }

    tbrf_model *band;
    tbrf_model_band(2 * pi, 6 * pi, &band);
    tbrf_driver_params prm;
    tbrf_driver_default_params(&prm);
    prm.zeta = 1;
    prm.tcorr = 0.5;
    prm.rms = 1;
    prm.normalization = TBRF_DRIVE_RMS_EXACT;
    prm.interpolate = 1;
    tbrf_driver *drv, *loaded = NULL, *fresh = NULL;
    int st = tbrf_driver_make(band, 42, &prm, &drv);
    if (st)
        die("make", st, drv);

    void *state = NULL;
    int step = 0, checked = 0, mismatch = 0;
    double t = 0.0;
    while (t < t_end) {
        const double dt = 0.01 * (1 + 0.5 * sin(1.3 * step));
        if ((st = tbrf_driver_points(drv, t, (int64_t)nc, x, f)))
            die("points", st, drv);
        for (size_t i = 0; i < 3 * nc; i++)
            v[i] += dt * (f[i] - drag * v[i]);
        if (state) {
            tbrf_driver_points(loaded, t, (int64_t)nc, x, g);
            mismatch += memcmp(f, g, 3 * nc * sizeof *f) != 0;
            tbrf_driver_points(fresh, t, (int64_t)nc, x, g);
            mismatch += memcmp(f, g, 3 * nc * sizeof *f) != 0;
            checked++;
        } else if (t >= t_end / 2) {
            const int64_t size = tbrf_driver_state_size(drv);
            state = malloc((size_t)size);
            if (!state || (st = tbrf_driver_save(drv, state, size)))
                die("save", st, drv);
            tbrf_driver_make(band, 42, &prm, &loaded);
            if ((st = tbrf_driver_load(loaded, state, size)))
                die("load", st, loaded);
            tbrf_driver_make(band, 42, &prm, &fresh);
        }
        for (size_t i = 0; i < 3 * nc; i++) {
            x[i] += dt * v[i];
            x[i] -= floor(x[i]);
        }
        t += dt;
        step++;
    }
    double rms, vr = 0.0;
    tbrf_driver_rms(drv, t, &rms);
    for (size_t i = 0; i < 3 * nc; i++)
        vr += v[i] * v[i];
    printf("drive.c: %zu cells, %d steps to t = %.3f, forcing rms %.3f\n", nc, step, t, rms);
    printf("drive.c: velocity rms %.3e\n", sqrt(vr / (double)nc));
    if (mismatch || !checked) {
        printf("drive.c: restart check FAILED (%d steps differ)\n", mismatch);
        return 1;
    }
    printf("drive.c: restart check passed: the forcing after the restart is identical %d steps "
           "(loaded state and fresh driver)\n", checked);
    tbrf_driver_destroy(drv);
    tbrf_driver_destroy(loaded);
    tbrf_driver_destroy(fresh);
    tbrf_model_destroy(band);
    free(state);
    free(x);
    free(v);
    free(f);
    free(g);
    return 0;
}
