/* drive_ref.c — the library's values of a three-component drive in a 1D
 * or 2D box, for drive_components.py to compare with `tbrf drive
 * --components 3` bit for bit:
 *
 *   drive_ref OUT DIM NX NY LX LY T0 DT NT
 *
 * writes to OUT the raw float64 values of tbrf_driver_grid at the times
 * T0 + i DT (i < NT), NC = 3 per cell, x fastest, for the driver the
 * command makes from `--box LX[,LY] --model band --kmin 2 pi --kmax 6 pi
 * --zeta 0.6 --tcorr 0.5 --rms 2 --seed 9 --interpolate --components 3
 * --grid NX[xNY]`: the same model calls (tbrf_model_make, variance 1), the
 * same lengths (one --box value: every axis) and spacing L/N. Exit 0, or 1
 * with the library's message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tbrf.h"

int main(int argc, char **argv)
{
    if (argc != 10) {
        fprintf(stderr, "usage: drive_ref OUT DIM NX NY LX LY T0 DT NT\n");
        return 2;
    }
    const int dim = atoi(argv[2]);
    const int64_t n[3] = {atoll(argv[3]), dim == 2 ? atoll(argv[4]) : 1, 1};
    const double lx = atof(argv[5]), ly = atof(argv[6]), t0 = atof(argv[7]), dt = atof(argv[8]);
    const int64_t nt = atoll(argv[9]);
    tbrf_model *model = NULL;
    int st = tbrf_model_make("band", NAN, 6.283185307179586, 18.84955592153876, NAN, NAN,
                             &model);
    if (st == TBRF_OK)
        st = tbrf_model_set_variance(model, 1.0);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.dim = dim;
    p.components = 3;
    p.length[0] = lx;
    p.length[1] = dim == 2 ? ly : lx;
    p.length[2] = dim == 2 ? 1.0 : lx;
    p.zeta = 0.6;
    p.tcorr = 0.5;
    p.rms = 2.0;
    p.interpolate = 1;
    tbrf_driver *drv = NULL;
    if (st == TBRF_OK)
        st = tbrf_driver_make(model, 9, &p, &drv);
    if (st != TBRF_OK) {
        fprintf(stderr, "drive_ref: %s\n", drv ? tbrf_driver_message(drv) : tbrf_strerror(st));
        return 1;
    }
    const double origin[3] = {0, 0, 0};
    const double spacing[3] = {lx / (double)n[0], dim == 2 ? ly / (double)n[1] : 1.0, 1.0};
    const size_t count = (size_t)(n[0] * n[1] * 3);
    double *v = malloc(sizeof *v * count);
    FILE *out = fopen(argv[1], "wb");
    int bad = !v || !out;
    for (int64_t i = 0; !bad && i < nt && st == TBRF_OK; i++) {
        st = tbrf_driver_grid(drv, t0 + (double)i * dt, origin, spacing, n, v);
        bad = st == TBRF_OK && fwrite(v, sizeof *v, count, out) != count;
    }
    if (out && fclose(out) != 0)
        bad = 1;
    if (bad || st != TBRF_OK) {
        fprintf(stderr, "drive_ref: %s\n", bad ? "cannot write" : tbrf_driver_message(drv));
        return 1;
    }
    free(v);
    tbrf_driver_destroy(drv);
    tbrf_model_destroy(model);
    return 0;
}
