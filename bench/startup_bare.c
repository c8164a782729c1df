/* startup_bare.c — the "bare programs" of bench_startup.c: what a user's
 * own C program linked with libtbrf does for the same two results as the
 * command. Built twice:
 *   startup_bare_version      (libtbrf alone) prints tbrf_version(), as
 *                             `tbrf --version`;
 *   startup_bare_grid OUT.h5  (STARTUP_BARE_GRID: libtbrf and
 *                             libtbrf_writer) a 2x2x2 Gaussian field (length 1, seed 1,
 *                             1024 lines, double: what `tbrf generate
 *                             --model gaussian --length 1 --grid 2x2x2`
 *                             does) written with libtbrf_writer (HDF5 +
 *                             XDMF, temporary and rename, as the command).
 * Exit status 0 or 1 with a message. */
#include <stdio.h>

#include "tbrf.h"

#ifdef STARTUP_BARE_GRID
#include "tbrf_writer.h"

static int grid(const char *out)
{
    const int64_t n[3] = {2, 2, 2};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1}, lo[3] = {0, 0, 0},
                 hi[3] = {1, 1, 1};
    tbrf_model *model = NULL;
    tbrf_plan *plan = NULL;
    tbrf_writer *w = NULL;
    tbrf_opts opts;
    tbrf_default_opts(&opts);
    opts.lines = 1024;
    opts.precision = TBRF_DOUBLE;
    int st = tbrf_model_gaussian(1.0, &model);
    if (st == TBRF_OK)
        st = tbrf_make_plan(model, 3, lo, hi, 1.0, 1, &opts, &plan);
    if (st == TBRF_OK)
        st = tbrf_set_grid(plan, origin, spacing, n);
    if (st == TBRF_OK)
        st = tbrf_writer_create(out, 0, &w);
    if (st == TBRF_OK)
        st = tbrf_writer_grid_begin(w, 3, origin, spacing, n, TBRF_DOUBLE);
    if (st == TBRF_OK)
        st = tbrf_execute_grid_stream(plan, 0, tbrf_writer_push, w);
    if (st == TBRF_OK)
        st = tbrf_writer_commit(w);
    if (st != TBRF_OK)
        fprintf(stderr, "startup_bare: %s: %s%s%s\n", out, tbrf_strerror(st),
                w ? tbrf_writer_message(w) : "", tbrf_plan_message(plan));
    tbrf_writer_close(w);
    tbrf_destroy(plan);
    tbrf_model_destroy(model);
    return st == TBRF_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: startup_bare_grid OUT.h5\n");
        return 2;
    }
    return grid(argv[1]);
}
#else
int main(void)
{
    printf("libtbrf %s\n", tbrf_version());
    return 0;
}
#endif
