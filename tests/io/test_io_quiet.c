/* test_io_quiet.c — the io library never prints either: with HDF5's
 * automatic error printing left ON (its default, as in a host program
 * that never touched it), every reader and writer of io/tbrf_io.h is
 * given bad files, bad names and misuse, with stdout and stderr redirected
 * (dup2) into a file that must stay empty; and the refusals of the
 * output rules (doc/guarantees-outputs.md) come back as -1 with a
 * message: non-regular outputs, a side file that would be the output. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/tbrf_io.h"
#include "support/check.h"

static char dir[] = "/tmp/tbrf-io-quiet-XXXXXX";

static const char *in_dir(const char *name)
{
    static char buf[8][512];
    static int k = 0;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void readers(void)
{
    char err[1024];
    int dim;
    int64_t n, n3[3], w, h;
    double *v = NULL;
    const char *bad[] = {in_dir("garbage.h5"), in_dir("missing.h5"), dir, "/dev/null",
                         in_dir("empty.h5")};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tbrf_io_meta m;
        tbrf_io_meta_init(&m);
        CHECK(tbrf_io_read_meta(bad[i], &m, err, sizeof err) == -1, "read_meta %s", bad[i]);
        tbrf_io_meta_free(&m);
        CHECK(tbrf_io_read_field(bad[i], n3, &v, err, sizeof err) == -1, "read_field %s", bad[i]);
        CHECK(tbrf_io_read_slice(bad[i], 2, 0, &w, &h, &v, err, sizeof err) == -1,
              "read_slice %s", bad[i]);
        CHECK(tbrf_io_read_values(bad[i], &n, &v, err, sizeof err) == -1, "read_values %s",
              bad[i]);
        tbrf_io_read_points(bad[i], &dim, &n, &v, err, sizeof err);
        CHECK(tbrf_io_info(bad[i], stdout, err, sizeof err) == -1 || i == 4, "info %s", bad[i]);
        tbrf_io_file *f = tbrf_io_open(bad[i], err, sizeof err);
        tbrf_io_file_close(f);
    }
}

static void writers(void)
{
    char err[1024];
    const int64_t n[3] = {4, 3, 2};
    double vals[24] = {0};
    /* Unwritable places and non-regular outputs. */
    CHECK(!tbrf_io_create(in_dir("no/such/dir/x.h5"), 0, err, sizeof err), "missing dir");
    CHECK(!tbrf_io_create(dir, 0, err, sizeof err), "a directory");
    CHECK(!tbrf_io_create("", 0, err, sizeof err), "empty name");
    mkfifo(in_dir("fifo.h5"), 0644);
    CHECK(!tbrf_io_create(in_dir("fifo.h5"), 0, err, sizeof err) &&
              strstr(err, "not a regular file"),
          "a FIFO: %s", err);
    CHECK(!tbrf_io_create("/dev/null", TBRF_IO_NETCDF, err, sizeof err) &&
              strstr(err, "not a regular file"),
          "/dev/null: %s", err);
    /* A file under a regular file (unwritable even as root). */
    CHECK(!tbrf_io_create(in_dir("garbage.h5/x.h5"), 0, err, sizeof err), "under a file");

    for (int fmt = 0; fmt < 2; fmt++) {
        int flags = fmt ? TBRF_IO_NETCDF : 0;
        tbrf_io_writer *wr = tbrf_io_create(in_dir(fmt ? "w.nc" : "w.h5"), flags, err, sizeof err);
        if (!CHECK(wr != NULL, "create: %s", err))
            continue;
        CHECK(tbrf_io_grid_push(wr, 0, 1, vals) == -1, "push before begin");
        CHECK(tbrf_io_grid_begin(wr, 3, n, 99) == -1, "bad precision");
        CHECK(tbrf_io_grid_begin(wr, 3, n, TBRF_DOUBLE) == 0, "begin: %s", tbrf_io_message(wr));
        CHECK(tbrf_io_grid_begin(wr, 3, n, TBRF_DOUBLE) == -1, "begin twice");
        CHECK(tbrf_io_grid_push(wr, 20, 10, vals) == -1, "push outside");
        CHECK(tbrf_io_grid_push(wr, 0, 12, vals) == 0, "push");
        CHECK(tbrf_io_commit(wr) == -1, "commit of half a grid");
        CHECK(tbrf_io_write_values(wr, 5, TBRF_DOUBLE, vals) == -1 || fmt == 0,
              "values without points (netCDF)");
        tbrf_io_close(wr);
    }
    /* The netCDF writer initialised netCDF, which switches HDF5's printing
     * off as any program's first netCDF call does (io_nc_initialize): back
     * on, so that what follows is still checked against HDF5's default. */
    H5Eset_auto2(H5E_DEFAULT, (H5E_auto2_t)H5Eprint2, stderr);
    /* A side file that would be the output. */
    tbrf_io_writer *wr = tbrf_io_create(in_dir("side.xmf"), 0, err, sizeof err);
    tbrf_io_meta m;
    tbrf_io_meta_init(&m);
    m.dim = 3;
    m.is_grid = 1;
    for (int c = 0; c < 3; c++) {
        m.n[c] = n[c];
        m.spacing[c] = 1;
        m.origin[c] = 0;
    }
    if (CHECK(wr != NULL, "create side.xmf: %s", err)) {
        CHECK(tbrf_io_attach_xdmf(wr, &m) == -1 && strstr(tbrf_io_message(wr), "side file"),
              "side file = output: %s", tbrf_io_message(wr));
        tbrf_io_close(wr);
    }
    CHECK(tbrf_io_write_xdmf(in_dir("side.xmf"), &m, err, sizeof err) == -1, "xdmf over itself");
    CHECK(tbrf_io_write_xdmf(in_dir("no/dir/x.h5"), &m, err, sizeof err) == -1, "xdmf no dir");
    tbrf_io_close(NULL);
    CHECK(tbrf_io_temp_path(NULL) == NULL, "temp_path NULL");
    CHECK(tbrf_io_side_temp_path(NULL) == NULL, "side_temp_path NULL");
}

/* A grid file rb.h5 of 4x3x2 values base + i, with its side file; 0 or -1. */
static int write_rb(double base, int sabotage)
{
    char err[1024];
    const int64_t n[3] = {4, 3, 2};
    double v[24];
    for (int i = 0; i < 24; i++)
        v[i] = base + i;
    tbrf_io_meta m;
    tbrf_io_meta_init(&m);
    m.dim = 3;
    m.is_grid = 1;
    for (int c = 0; c < 3; c++) {
        m.n[c] = n[c];
        m.spacing[c] = 1;
        m.origin[c] = 0;
    }
    tbrf_io_writer *w = tbrf_io_create(in_dir("rb.h5"), 0, err, sizeof err);
    if (!CHECK(w != NULL, "create rb.h5: %s", err))
        return -1;
    int rc = tbrf_io_grid_begin(w, 3, n, TBRF_DOUBLE) || tbrf_io_grid_push(w, 0, 24, v) ||
             tbrf_io_attach_xdmf(w, &m) ? -1 : 0;
    CHECK(rc == 0, "rb.h5: %s", tbrf_io_message(w));
    if (sabotage == 1) { /* the side file's rename will fail */
        unlink(in_dir("rb.xmf"));
        mkdir(in_dir("rb.xmf"), 0755);
    }
    char side_tmp[600] = "";
    if (sabotage == 2 && tbrf_io_side_temp_path(w)) {
        /* the side file's temporary cannot be written */
        snprintf(side_tmp, sizeof side_tmp, "%s", tbrf_io_side_temp_path(w));
        mkdir(side_tmp, 0755);
    }
    if (rc == 0)
        rc = tbrf_io_commit(w);
    if (sabotage == 1)
        rmdir(in_dir("rb.xmf"));
    if (side_tmp[0])
        rmdir(side_tmp);
    tbrf_io_close(w);
    return rc;
}

/* The data file and its side file are published together or not at all:
 * a failing side file leaves the file it would have replaced as it was. */
static void rollback(void)
{
    char err[1024];
    CHECK(write_rb(1.0, 0) == 0, "first rb.h5");
    for (int sabotage = 1; sabotage <= 2; sabotage++) {
        CHECK(write_rb(100.0, sabotage) == -1, "sabotage %d: commit succeeded", sabotage);
        int64_t n[3];
        double *v = NULL;
        if (CHECK(tbrf_io_read_field(in_dir("rb.h5"), n, &v, err, sizeof err) == 0,
                  "sabotage %d: rb.h5 gone: %s", sabotage, err))
            CHECK(v[0] == 1.0 && v[23] == 24.0, "sabotage %d: rb.h5 holds the new values",
                  sabotage);
        free(v);
        char cmd[700];
        snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -q 'tmp-'", dir);
        CHECK(system(cmd) != 0, "sabotage %d: temporaries left", sabotage);
    }
    /* And the next commit publishes both again. */
    CHECK(write_rb(7.0, 0) == 0, "rb.h5 after the failures");
}

int main(void)
{
    if (!CHECK(mkdtemp(dir) != NULL, "mkdtemp"))
        return check_report("test_io_quiet");
    write_text(in_dir("garbage.h5"), "this is not HDF5\n");
    write_text(in_dir("empty.h5"), "");
    char path[600];
    snprintf(path, sizeof path, "%s/capture", dir);
    fflush(stdout);
    fflush(stderr);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int out = dup(1), errfd = dup(2);
    if (fd < 0 || out < 0 || errfd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
        return 2;
    readers();
    writers();
    rollback();
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(errfd, 2);
    close(fd);
    FILE *f = fopen(path, "r");
    char buf[4096];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    CHECK(n == 0, "%zu bytes printed on stdout/stderr (check failures included):\n%s", n, buf);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_report("test_io_quiet");
}
