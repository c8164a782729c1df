/* example_writer.c — the example of doc/streaming.md, "Grids larger than
 * memory": a field streamed to an HDF5 file (+ XDMF), or to netCDF-4 (CF)
 * when OUT ends in .nc, chunk by chunk with the installed writer
 * (tbrf_writer.h), never whole in memory. Compiled and run by ctest
 * (writer_example, writer_example_netcdf; writer_doc_in_sync checks the
 * page shows this file) and built against the installed library by
 * install_consumer.
 *
 *   example_writer OUT.h5|OUT.nc [NX NY NZ]      (default 64 x 64 x 1000)
 *
 * Build it against an installed tbrf with
 *   cc example_writer.c $(pkg-config --cflags --libs tbrf-writer) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"
#include "tbrf_writer.h"

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 5) {
        fprintf(stderr, "usage: example_writer OUT.h5|OUT.nc [NX NY NZ]\n");
        return 2;
    }
    const int64_t n[3] = {argc == 5 ? atoll(argv[2]) : 64, argc == 5 ? atoll(argv[3]) : 64,
                          argc == 5 ? atoll(argv[4]) : 1000};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    const double lo[3] = {0, 0, 0}, hi[3] = {n[0] - 1, n[1] - 1, n[2] - 1};

    /* A power-law tube, as the planetary-nebula winds of doc/streaming.md. */
    tbrf_model *model = NULL;
    tbrf_plan *plan = NULL;
    tbrf_writer *w = NULL;
    tbrf_opts opts;
    tbrf_default_opts(&opts);
    opts.precision = TBRF_FLOAT; /* what the file holds */
    int st = tbrf_model_powerlaw(-3.9, 0.02, 3.0, &model);
    if (st == TBRF_OK)
        st = tbrf_make_plan(model, 3, lo, hi, 1.0, 7, &opts, &plan);
    if (st == TBRF_OK)
        st = tbrf_set_grid(plan, origin, spacing, n);
    if (st != TBRF_OK) {
        fprintf(stderr, "plan: %s %s\n", tbrf_model_message(model), tbrf_plan_message(plan));
        return 1;
    }

    /* The writer: a temporary file until commit, then OUT.h5 and OUT.xmf,
     * or OUT.nc with its CF coordinates (x, y, z and their bounds). */
    const size_t len = strlen(argv[1]);
    const int netcdf = len > 3 && strcmp(argv[1] + len - 3, ".nc") == 0;
    st = tbrf_writer_create(argv[1], TBRF_WRITER_COMPRESS | (netcdf ? TBRF_WRITER_NETCDF : 0), &w);
    if (st == TBRF_OK)
        st = tbrf_writer_grid_begin(w, 3, origin, spacing, n, TBRF_FLOAT);
    if (st == TBRF_OK) /* chunks of whole rows go straight into the file */
        st = tbrf_execute_grid_stream(plan, 0, tbrf_writer_push, w);
    if (st == TBRF_OK)
        st = tbrf_writer_commit(w);
    if (st != TBRF_OK) /* the writer's reason, or the plan's */
        fprintf(stderr, "%s: %s: %s%s\n", argv[1], tbrf_strerror(st), tbrf_writer_message(w),
                tbrf_plan_message(plan));
    else
        printf("wrote %s: %lld x %lld x %lld float cells\n", argv[1], (long long)n[0],
               (long long)n[1], (long long)n[2]);
    tbrf_writer_close(w); /* without commit this removes the temporary */
    tbrf_destroy(plan);
    tbrf_model_destroy(model);
    return st == TBRF_OK ? 0 : 1;
}
