/* bench_mpi.c — strong and weak scaling of an MPI field (doc/mpi.md),
 * run under mpirun: usage `bench_mpi NX NY NZ [weak] [threads] [dir]`.
 *
 * Every rank makes the plan (the same lines: replicated synthesis), then
 * evaluates its slab of z planes (tbrf_mpi_split_grid + tbrf_set_subgrid)
 * and writes it into one HDF5 file collectively (tbrf_io_mpi.h), each
 * phase timed between barriers; the figures are the slowest rank's.
 * `weak` makes the grid NZ x ranks planes tall (cells per rank fixed).
 *
 * The alternative to replicated synthesis, each rank synthesising L/N
 * lines and sharing them, is costed in the same run: its synthesis time is
 * measured as the replicated time / N (lines are independent) and its
 * exchange as an MPI_Allgather of the L x M line samples; the program
 * prints both totals and which wins. It asserts nothing. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/tbrf_io_mpi.h"
#include "tbrf.h"
#include "tbrf_mpi.h"

static int rank, size;

/* The slowest rank's time since t0, all ranks agreeing. */
static double lap(double *t0)
{
    double t = MPI_Wtime() - *t0, worst = t;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    *t0 = MPI_Wtime();
    return worst;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 4) {
        if (rank == 0)
            fprintf(stderr, "usage: bench_mpi NX NY NZ [weak] [threads] [dir]\n");
        MPI_Finalize();
        return 2;
    }
    int64_t n[3] = {atoll(argv[1]), atoll(argv[2]), atoll(argv[3])};
    const int weak = argc > 4 && strcmp(argv[4], "weak") == 0;
    const int threads = argc > 5 ? atoi(argv[5]) : 1;
    const char *dir = argc > 6 ? argv[6] : "/tmp";
    if (weak)
        n[2] *= size;
    const double origin[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    const double lo[3] = {0, 0, 0}, hi[3] = {(double)n[0] - 1, (double)n[1] - 1, (double)n[2] - 1};
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.threads = threads;
    tbrf_model *m = NULL;
    tbrf_plan *p = NULL;
    int st = tbrf_model_powerlaw(-11.0 / 3.0, 0.05, 3.0, &m);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (st == TBRF_OK)
        st = tbrf_make_plan(m, 3, lo, hi, 1.0, 7, &o, &p);
    const double t_plan = lap(&t0);
    /* the lines: one execute at a single cell synthesises all of them */
    const int64_t one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    double v1;
    if (st == TBRF_OK && (st = tbrf_set_subgrid(p, origin, h, n, zero, one)) == TBRF_OK)
        st = tbrf_execute(p, 0, &v1);
    const double t_lines = lap(&t0);
    /* the projection of this rank's cells (lines cached) */
    int64_t start[3], count[3], first = 0;
    if (st == TBRF_OK)
        st = tbrf_mpi_split_grid(MPI_COMM_WORLD, 3, n, start, count, &first);
    const int64_t cells = st == TBRF_OK ? count[0] * count[1] * count[2] : 0;
    double *v = malloc(sizeof(double) * (size_t)(cells > 0 ? cells : 1));
    if (st == TBRF_OK && cells > 0 && (st = tbrf_set_subgrid(p, origin, h, n, start, count)) == TBRF_OK)
        st = tbrf_execute(p, 0, v);
    const double t_proj = lap(&t0);
    /* one collective write of all slabs */
    char path[4096], err[1024] = "";
    snprintf(path, sizeof path, "%s/bench_mpi_%d.h5", dir, size);
    tbrf_io_writer *w = tbrf_io_create_mpi(path, 0, MPI_COMM_WORLD, err, sizeof err);
    int wrc = !w || tbrf_io_grid_begin(w, 3, n, TBRF_DOUBLE);
    if (!wrc)
        wrc = tbrf_io_grid_push(w, first, cells, v) | tbrf_io_grid_push_done(w, 1) | tbrf_io_commit(w);
    tbrf_io_close(w);
    const double t_write = lap(&t0);
    /* shared lines instead: the exchange of L x M samples */
    tbrf_plan_info info;
    memset(&info, 0, sizeof info);
    if (p)
        tbrf_plan_get_info(p, &info);
    const int64_t per = (int64_t)info.lines / size * info.line_samples;
    double *send = calloc((size_t)(per > 0 ? per : 1), sizeof(double));
    double *recv = malloc(sizeof(double) * (size_t)(per > 0 ? per : 1) * (size_t)size);
    if (send && recv)
        MPI_Allgather(send, (int)per, MPI_DOUBLE, recv, (int)per, MPI_DOUBLE, MPI_COMM_WORLD);
    const double t_gather = lap(&t0);
    st = tbrf_mpi_agree(MPI_COMM_WORLD, st);
    if (rank == 0) {
        if (st || wrc)
            printf("FAILED: %s %s\n", p ? tbrf_plan_message(p) : "", err);
        const double total = t_plan + t_lines + t_proj + t_write;
        const double shared = t_lines / size + t_gather;
        printf("%s ranks %d threads/rank %d grid %lldx%lldx%lld cells/rank %.3g | plan %.3f s lines %.3f s "
               "project %.3f s write %.3f s total %.3f s | %.3g Mcells/s | lines replicated %.3f s vs "
               "shared %.3f s (allgather %.1f MiB: %.3f s): %s\n",
               weak ? "weak" : "strong", size, threads, (long long)n[0], (long long)n[1], (long long)n[2],
               (double)(n[0] * n[1] * n[2]) / size, t_plan, t_lines, t_proj, t_write, total,
               (double)(n[0] * n[1] * n[2]) / total / 1e6, t_lines, shared,
               8.0 * (double)per * size / 1048576.0, t_gather, shared < t_lines ? "shared wins" : "replicated wins");
        unlink(path);
    }
    free(send);
    free(recv);
    free(v);
    tbrf_destroy(p);
    tbrf_model_destroy(m);
    MPI_Finalize();
    return st || wrc ? 1 : 0;
}
