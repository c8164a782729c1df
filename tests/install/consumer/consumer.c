/* consumer.c — a program outside the source tree that uses the installed
 * library: generates a small field and checks it is not all zero. */
#include <stdio.h>
#include <tbrf.h>

int main(void)
{
    tbrf_model *m = NULL;
    tbrf_model_gaussian(2.0, &m);
    const double lo[3] = {0, 0, 0}, hi[3] = {7, 7, 7}, origin[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    const int64_t n[3] = {8, 8, 8};
    double v[512], s2 = 0.0;
    tbrf_plan *p = NULL;
    int st = tbrf_make_plan(m, 3, lo, hi, 1.0, 1, NULL, &p);
    if (!st) st = tbrf_set_grid(p, origin, h, n);
    if (!st) st = tbrf_execute(p, 0, v);
    for (int i = 0; i < 512; i++) s2 += v[i] * v[i];
    printf("tbrf %s: status %d, mean square %.3f\n", tbrf_version(), st, s2 / 512);
    tbrf_destroy(p);
    tbrf_model_destroy(m);
    return st == TBRF_OK && s2 > 0.0 ? 0 : 1;
}
