/* test_io_mpi.c — the collective writer of tbrf_io_mpi.h, run under
 * mpirun with 3 ranks (any count works):
 *  - every rank pushes its own cells of a 2D and a 3D grid in a different
 *    number of pushes (rank r in r + 1 pieces, one rank with none): the file
 *    holds every cell's value (its global number) and mpi_ranks = size;
 *  - rank 1 fails after its first push (tbrf_io_grid_push_done(w, 0))
 *    while the others keep pushing: every rank's push, push_done or commit
 *    fails, and neither the file nor its temporary is left;
 *  - a push outside the grid on one rank fails every rank the same way;
 *  - an output in a missing directory: NULL on every rank, rank 0's reason;
 *  - libtbrf_mpi's splits cover a grid and a point set exactly once;
 *  - pieces fine on each rank but overlapping across ranks, or leaving a
 *    cell out, are refused at commit on every rank naming the cell;
 *  - a series (tbrf_io_series_step_part): each rank its planes of every
 *    time, the file holding every value; parts that leave a gap, or that
 *    are not whole planes on one rank, fail every rank before the write,
 *    and a time no rank wrote fails the commit: no file left. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/tbrf_io_mpi.h"
#include "mpi_test.h"
#include "tbrf_mpi.h"

/* Whether a file whose name contains `name` exists in the directory. */
static int left(const char *dir, const char *name)
{
    DIR *d = opendir(dir);
    int found = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        found |= strstr(e->d_name, name) != NULL;
    if (d)
        closedir(d);
    return found;
}

/* Pushes this rank's slab of grid n in rank + 1 pieces (values: the cell
 * numbers); fail_after >= 0: stop with push_done(w, 0) after that many. */
static int push_slab(tbrf_io_writer *w, int dim, const int64_t n[3], int fail_after)
{
    int64_t start[3], count[3], first;
    if (tbrf_mpi_split_grid(MPI_COMM_WORLD, dim, n, start, count, &first) != TBRF_OK)
        return -1;
    const int64_t cells = count[0] * count[1] * count[2];
    double *v = malloc(sizeof(double) * (size_t)(cells > 0 ? cells : 1));
    for (int64_t i = 0; i < cells; i++)
        v[i] = (double)(first + i);
    const int pieces = rank + 1;
    int rc = 0;
    for (int k = 0; k < pieces && rc == 0; k++) {
        if (k == fail_after) {
            free(v);
            return tbrf_io_grid_push_done(w, 0) == 0 ? -2 : -1; /* -2: a failure went unseen */
        }
        const int64_t a = cells * k / pieces, b = cells * (k + 1) / pieces;
        rc = tbrf_io_grid_push(w, first + a, b - a, v + a);
    }
    free(v);
    int done = tbrf_io_grid_push_done(w, rc == 0);
    return rc ? rc : done;
}

static void test_grid(const char *dir, int dim)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/g%d.h5", dir, dim);
    const int64_t n[3] = {13, 7, dim == 3 ? 5 : 1};
    char err[1024] = "";
    tbrf_io_writer *w = tbrf_io_create_mpi(path, TBRF_IO_COMPRESS, MPI_COMM_WORLD, err, sizeof err);
    check(w != NULL, err);
    if (!w)
        return;
    check(tbrf_io_grid_begin(w, dim, n, TBRF_DOUBLE) == 0, tbrf_io_message(w));
    check(push_slab(w, dim, n, -1) == 0, tbrf_io_message(w));
    tbrf_io_meta m;
    tbrf_io_meta_init(&m);
    m.dim = dim;
    m.is_grid = 1;
    check(tbrf_io_write_meta(w, &m) == 0, tbrf_io_message(w));
    check(tbrf_io_commit(w) == 0, tbrf_io_message(w));
    tbrf_io_close(w);
    MPI_Barrier(MPI_COMM_WORLD);
    int64_t got[3];
    double *v = NULL;
    int ok = tbrf_io_read_field(path, got, &v, err, sizeof err) == 0;
    for (int64_t i = 0; ok && i < n[0] * n[1] * n[2]; i++)
        ok = v[i] == (double)i;
    free(v);
    check(ok, "the file holds every cell's value");
    tbrf_io_file *f = tbrf_io_open(path, err, sizeof err);
    int64_t ranks = 0;
    check(f && tbrf_io_attr_i64(f, "mpi_ranks", &ranks, 1) == 1 && ranks == size, "mpi_ranks = size");
    tbrf_io_file_close(f);
}

/* fail_rank fails: after its first push (bad = 0) or with a push outside
 * the grid (bad = 1). */
static void test_failure(const char *dir, int fail_rank, int bad)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/fail%d.h5", dir, bad);
    const int64_t n[3] = {16, 9, 8};
    char err[1024] = "";
    tbrf_io_writer *w = tbrf_io_create_mpi(path, 0, MPI_COMM_WORLD, err, sizeof err);
    check(w != NULL, err);
    if (!w)
        return;
    tbrf_io_grid_begin(w, 3, n, TBRF_FLOAT);
    int rc;
    if (bad && rank == fail_rank) {
        float x = 0;
        rc = tbrf_io_grid_push(w, n[0] * n[1] * n[2], 1, &x); /* past the end */
        rc = tbrf_io_grid_push_done(w, rc == 0) ? -1 : rc;
    } else {
        /* after its first push (before any when it has a single piece) */
        rc = push_slab(w, 3, n, rank != fail_rank ? -1 : rank > 0 ? 1 : 0);
    }
    check(rc == -1, "every rank sees the failure in its pushes");
    check(tbrf_io_commit(w) != 0, "commit fails on every rank");
    tbrf_io_close(w);
    MPI_Barrier(MPI_COMM_WORLD);
    check(!left(dir, bad ? "fail1.h5" : "fail0.h5"), "no file and no temporary left");
}

/* Coverage across ranks: each rank pushes a piece that is
 * fine on its own, but rank 1's overlaps rank 0's and together they leave
 * a gap of the same size: the counts add up to the grid, commit still
 * refuses on every rank naming the cell written twice. Then the pieces
 * meet exactly, leaving the last cell out: commit names it. */
static void test_cover(const char *dir)
{
    if (size < 2)
        return;
    char path[4096], err[1024] = "";
    snprintf(path, sizeof path, "%s/cover.h5", dir);
    const int64_t n[3] = {8, 4, 1};
    float v[32] = {0};
    for (int gap = 0; gap < 2; gap++) {
        tbrf_io_writer *w = tbrf_io_create_mpi(path, 0, MPI_COMM_WORLD, err, sizeof err);
        check(w != NULL, err);
        if (!w)
            return;
        tbrf_io_grid_begin(w, 2, n, TBRF_FLOAT);
        /* rank 0: [0, 20); rank 1: [16, 28) or [20, 31); others nothing */
        const int64_t first = rank == 0 ? 0 : gap ? 20 : 16, count = rank == 0 ? 20 : rank == 1 ? (gap ? 11 : 12) : 0;
        int rc = tbrf_io_grid_push(w, first, count, v);
        rc = tbrf_io_grid_push_done(w, rc == 0) || rc;
        check(rc == 0, "each rank's pieces are fine on their own");
        check(tbrf_io_commit(w) != 0 &&
                  strstr(tbrf_io_message(w), gap ? "cell 31 (x 7, y 3) was never written"
                                                 : "cell 16 (x 0, y 2) would be written twice"),
              gap ? "a gap across ranks is named on every rank" : "an overlap across ranks is named on every rank");
        tbrf_io_close(w);
        MPI_Barrier(MPI_COMM_WORLD);
        check(!left(dir, "cover.h5"), "no file and no temporary left");
    }
}

/* One series of a 4 x 3 x 5 grid (2 components) and 3 times: each rank
 * writes planes [z0, z0 + nz) of every time (value: 1000 t + cell). mode
 * 0: the ranks' shares; 1: rank 0 leaves plane 0 out (a gap); 2: the last
 * rank's part is not whole planes; 3: no rank writes time 2. Returns 0
 * when every step and the commit passed. */
static int series_run(const char *path, int mode)
{
    const int64_t n[3] = {4, 3, 5}, plane = 12;
    char err[1024] = "";
    tbrf_io_writer *w = tbrf_io_create_mpi(path, 0, MPI_COMM_WORLD, err, sizeof err);
    if (!w)
        return -1;
    int64_t z0 = 0, nz = 0;
    tbrf_mpi_split_points(MPI_COMM_WORLD, n[2], &z0, &nz);
    int64_t first = z0 * plane, count = nz * plane;
    if (mode == 1 && rank == 0 && count > 0)
        first += plane, count -= plane;
    if (mode == 2 && rank == size - 1 && count > 0)
        count -= 1;
    double v[2 * 60];
    int rc = tbrf_io_series_begin(w, 3, 3, 3, n, 0, NULL);
    for (int64_t it = 0; it < (mode == 3 ? 2 : 3) && rc == 0; it++) {
        for (int64_t i = 0; i < count; i++)
            for (int c = 0; c < 3; c++)
                v[3 * i + c] = 1000.0 * (double)it + (double)(first + i) + 0.25 * c;
        rc = tbrf_io_series_step_part(w, it, 0.5 * (double)it, first, count, v);
    }
    rc = rc || tbrf_io_commit(w);
    tbrf_io_close(w);
    MPI_Barrier(MPI_COMM_WORLD);
    return rc;
}

static void test_series(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/series.h5", dir);
    check(series_run(path, 0) == 0, "a series, each rank its planes of every time");
    /* rank 0 reads it back: every value of every time where it belongs */
    char err[1024] = "";
    int ok = 1;
    if (rank == 0) {
        tbrf_io_layout L;
        double *t = NULL, *v = NULL;
        int64_t nt = 0;
        ok = tbrf_io_read_times(path, &nt, &t, err, sizeof err) == 0 && nt == 3 && t[2] == 1.0 &&
             tbrf_io_grid_layout(path, &L, err, sizeof err) == 0;
        for (int64_t it = 0; ok && it < 3; it++) {
            ok = tbrf_io_read_grid_part(path, &L, it, -1, 0, TBRF_IO_ALL_COMPONENTS, &v, err, sizeof err) == 0;
            for (int64_t i = 0; ok && i < 60; i++)
                for (int c = 0; c < 3; c++)
                    ok &= v[3 * i + c] == 1000.0 * (double)it + (double)i + 0.25 * c;
            free(v);
            v = NULL;
        }
        free(t);
    }
    check(ok, err[0] ? err : "every value and time of the series read back");
    unlink(path);
    if (size > 1) {
        check(series_run(path, 1) != 0, "a gap between the ranks' parts fails every rank");
        check(!left(dir, "series.h5"), "a gap: no file and no temporary left");
    }
    check(series_run(path, 2) != 0, "a part of no whole planes fails every rank");
    check(!left(dir, "series.h5"), "not whole planes: no file and no temporary left");
    check(series_run(path, 3) != 0, "a time no rank wrote fails the commit");
    check(!left(dir, "series.h5"), "a missing time: no file and no temporary left");
}

static void test_splits(void)
{
    const int64_t n[3] = {5, 4, 7};
    int64_t start[3], count[3], first, mine, total = 0;
    check(tbrf_mpi_split_grid(MPI_COMM_WORLD, 3, n, start, count, &first) == TBRF_OK, "split_grid");
    mine = count[0] * count[1] * count[2];
    MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    check(total == 140 && first == start[2] * 20, "the slabs cover the grid once");
    check(tbrf_mpi_split_points(MPI_COMM_WORLD, 10, &first, &mine) == TBRF_OK, "split_points");
    MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    check(total == 10, "the point shares cover the points once");
    check(tbrf_mpi_agree(MPI_COMM_WORLD, rank == 1 ? TBRF_ERR_SIZE : TBRF_OK) == (size > 1 ? TBRF_ERR_SIZE : TBRF_OK),
          "agree: the worst status");
    check(tbrf_mpi_split_grid(MPI_COMM_WORLD, 4, n, start, count, &first) == TBRF_ERR_INVALID, "dim 4");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char dir[] = "/tmp/tbrf-io-mpi-XXXXXX";
    if (rank == 0 && !mkdtemp(dir))
        dir[0] = '\0';
    MPI_Bcast(dir, (int)sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    test_splits();
    test_grid(dir, 3);
    test_grid(dir, 2);
    test_failure(dir, size > 1 ? 1 : 0, 0);
    test_failure(dir, size - 1, 1);
    test_cover(dir);
    test_series(dir);
    char path[4096], err[1024] = "";
    snprintf(path, sizeof path, "%s/missing/f.h5", dir);
    tbrf_io_writer *w = tbrf_io_create_mpi(path, 0, MPI_COMM_WORLD, err, sizeof err);
    check(w == NULL && strstr(err, "missing/f.h5") != NULL, "a missing directory: NULL and the reason everywhere");
    tbrf_io_close(w);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
        if (failures)
            printf("test_io_mpi: %d of %d checks failed\n", failures, checks);
        else
            printf("test_io_mpi: all %d checks passed on %d ranks\n", checks, size);
    }
    MPI_Finalize();
    return failures ? 1 : 0;
}
