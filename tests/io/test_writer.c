/* test_writer.c — the installed streaming writer (tbrf_writer_*, #15 item
 * 2), through libtbrf_writer:
 *  1. a grid streamed with tbrf_execute_grid_stream(plan, r, tbrf_writer_push,
 *     w), in double and float, reads back bitwise equal to tbrf_execute, with
 *     its XDMF side file and the completeness mark; chunks pushed in any
 *     order and size give the same file contents;
 *  2. failures leave no file: a missing chunk at commit, closing without
 *     commit, an unwritable directory; bad arguments get clean statuses
 *     and messages (NULLs, flags, netCDF not offered, dim, precision,
 *     spacing, counts, a second grid_begin, push before begin, commit twice).
 * Usage: test_writer DIR (a scratch directory). */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/tbrf_io.h"
#include "support/check.h"
#include "tbrf.h"
#include "tbrf_writer.h"

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static int dir_is_empty_but(const char *dir, const char *keep1, const char *keep2)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' | grep -v -x -e '%s' -e '%s')\"", dir, keep1, keep2);
    return system(cmd) == 0;
}

static void roundtrip(const char *dir, int precision)
{
    const int64_t n[3] = {20, 9, 31};
    const int64_t cells = n[0] * n[1] * n[2];
    const double origin[3] = {1.5, -2, 0}, spacing[3] = {0.5, 0.5, 0.75};
    const double lo[3] = {1.5, -2, 0}, hi[3] = {1.5 + 0.5 * 19, -2 + 0.5 * 8, 0.75 * 30};
    tbrf_model *m = NULL;
    tbrf_model_powerlaw(-3.9, 0.05, 2.0, &m);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 64;
    o.precision = precision;
    o.chunk = 7 * n[0]; /* several pushes */
    tbrf_plan *plan = NULL;
    REQUIRE(tbrf_make_plan(m, 3, lo, hi, 0.5, 3, &o, &plan) == TBRF_OK, , "plan");
    REQUIRE(tbrf_set_grid(plan, origin, spacing, n) == TBRF_OK, , "grid");
    const size_t vs = precision == TBRF_FLOAT ? sizeof(float) : sizeof(double);
    char *ref = malloc(vs * (size_t)cells);
    REQUIRE(tbrf_execute(plan, 2, ref) == TBRF_OK, , "execute");
    char path[512], side[512];
    snprintf(path, sizeof path, "%s/f%d.h5", dir, precision);
    snprintf(side, sizeof side, "%s/f%d.xmf", dir, precision);
    tbrf_writer *w = NULL;
    REQUIRE(tbrf_writer_create(path, 0, &w) == TBRF_OK, , "create: %s", tbrf_writer_message(w));
    REQUIRE(tbrf_writer_grid_begin(w, 3, origin, spacing, n, precision) == TBRF_OK, , "begin: %s",
            tbrf_writer_message(w));
    CHECK(!exists(path), "nothing is published before commit");
    REQUIRE(tbrf_execute_grid_stream(plan, 2, tbrf_writer_push, w) == TBRF_OK, , "stream: %s",
            tbrf_writer_message(w));
    REQUIRE(tbrf_writer_commit(w) == TBRF_OK, , "commit: %s", tbrf_writer_message(w));
    tbrf_writer_close(w);
    CHECK(exists(path) && exists(side), "%s and its side file exist", path);
    int64_t nn[3];
    double *back = NULL;
    char err[512];
    REQUIRE(tbrf_io_read_field(path, nn, &back, err, sizeof err) == 0, , "read: %s", err);
    int same = nn[0] == n[0] && nn[1] == n[1] && nn[2] == n[2];
    for (int64_t i = 0; same && i < cells; i++)
        same = precision == TBRF_FLOAT ? (float)back[i] == ((float *)ref)[i] : back[i] == ((double *)ref)[i];
    CHECK(same, "precision %d: the file holds tbrf_execute's values bit for bit", precision);
    tbrf_io_file *f = tbrf_io_open(path, err, sizeof err);
    char mark[16] = "";
    CHECK(f && tbrf_io_attr_str(f, "tbrf_complete", mark, sizeof mark) == 1 && strcmp(mark, "yes") == 0,
          "tbrf_complete = yes");
    tbrf_io_file_close(f);
    /* chunks in reverse order and odd sizes: the same contents */
    snprintf(path, sizeof path, "%s/r%d.h5", dir, precision);
    REQUIRE(tbrf_writer_create(path, TBRF_WRITER_COMPRESS | TBRF_WRITER_NO_XDMF, &w) == TBRF_OK, , "create");
    REQUIRE(tbrf_writer_grid_begin(w, 3, origin, spacing, n, precision) == TBRF_OK, , "begin");
    for (int64_t end = cells; end > 0;) {
        const int64_t c = end >= 37 ? 37 : end;
        REQUIRE(tbrf_writer_push(w, end - c, c, ref + vs * (size_t)(end - c)) == TBRF_OK, , "push");
        end -= c;
    }
    REQUIRE(tbrf_writer_commit(w) == TBRF_OK, , "commit");
    tbrf_writer_close(w);
    double *back2 = NULL;
    REQUIRE(tbrf_io_read_field(path, nn, &back2, err, sizeof err) == 0, , "read: %s", err);
    CHECK(memcmp(back, back2, sizeof(double) * (size_t)cells) == 0,
          "reverse-order pushes give the same field");
    snprintf(side, sizeof side, "%s/r%d.xmf", dir, precision);
    CHECK(!exists(side), "TBRF_WRITER_NO_XDMF: no side file");
    free(back);
    free(back2);
    free(ref);
    tbrf_destroy(plan);
    tbrf_model_destroy(m);
}

static void failures(const char *dir)
{
    const int64_t n[3] = {4, 4, 4}, bad[3] = {4, 0, 4}, flat[3] = {4, 4, 2};
    const double o[3] = {0, 0, 0}, h[3] = {1, 1, 1}, h0[3] = {1, 0, 1};
    double v[64] = {0};
    char path[600];
    snprintf(path, sizeof path, "%s/fail.h5", dir);
    tbrf_writer *w = NULL;
    CHECK(tbrf_writer_create(path, 0, NULL) == TBRF_ERR_NULL, "NULL out");
    CHECK(tbrf_writer_create(NULL, 0, &w) == TBRF_ERR_NULL, "NULL path");
    tbrf_writer_close(w);
    CHECK(tbrf_writer_create(path, 64, &w) == TBRF_ERR_INVALID, "unknown flags");
    tbrf_writer_close(w);
    CHECK(tbrf_writer_create(path, TBRF_WRITER_NETCDF, &w) == TBRF_ERR_UNSUPPORTED &&
          strstr(tbrf_writer_message(w), "netCDF"), "netCDF: %s", tbrf_writer_message(w));
    CHECK(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_ERR_INVALID, "begin on a failed writer");
    tbrf_writer_close(w);
    /* a directory that cannot exist: its parent is a regular file */
    char nodir[700];
    snprintf(nodir, sizeof nodir, "%s/plain", dir);
    FILE *pf = fopen(nodir, "w");
    if (pf)
        fclose(pf);
    snprintf(nodir, sizeof nodir, "%s/plain/x.h5", dir);
    CHECK(tbrf_writer_create(nodir, 0, &w) == TBRF_ERR_FILE && strstr(tbrf_writer_message(w), "plain/x.h5"),
          "unwritable: %s", tbrf_writer_message(w));
    tbrf_writer_close(w);
    snprintf(nodir, sizeof nodir, "%s/plain", dir);
    remove(nodir);
    CHECK(tbrf_writer_create(dir, 0, &w) == TBRF_ERR_FILE && strstr(tbrf_writer_message(w), "directory"),
          "a directory: %s", tbrf_writer_message(w));
    tbrf_writer_close(w);

    REQUIRE(tbrf_writer_create(path, 0, &w) == TBRF_OK, , "create");
    CHECK(tbrf_writer_push(w, 0, 4, v) == TBRF_ERR_INVALID, "push before begin");
    CHECK(tbrf_writer_commit(w) == TBRF_ERR_INVALID, "commit before begin");
    CHECK(tbrf_writer_grid_begin(w, 4, o, h, n, TBRF_DOUBLE) == TBRF_ERR_INVALID, "dim 4");
    CHECK(tbrf_writer_grid_begin(w, 3, o, h, n, 9) == TBRF_ERR_INVALID, "precision 9");
    CHECK(tbrf_writer_grid_begin(w, 3, o, h0, n, TBRF_DOUBLE) == TBRF_ERR_INVALID, "spacing 0");
    CHECK(tbrf_writer_grid_begin(w, 3, o, h, bad, TBRF_DOUBLE) == TBRF_ERR_SIZE, "n = 0");
    CHECK(tbrf_writer_grid_begin(w, 2, o, h, flat, TBRF_DOUBLE) == TBRF_ERR_SIZE, "2D with nz = 2");
    CHECK(tbrf_writer_grid_begin(w, 3, NULL, h, n, TBRF_DOUBLE) == TBRF_ERR_NULL, "NULL origin");
    REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_OK, , "begin: %s", tbrf_writer_message(w));
    CHECK(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_ERR_INVALID, "second begin");
    CHECK(tbrf_writer_push(w, 0, 32, v) == TBRF_OK, "half the grid");
    CHECK(tbrf_writer_push(w, 60, 8, v) != TBRF_OK && tbrf_writer_message(w)[0], "past the end: %s",
          tbrf_writer_message(w));
    CHECK(tbrf_writer_push(w, 32, 4, NULL) == TBRF_ERR_NULL, "NULL values");
    CHECK(tbrf_writer_commit(w) == TBRF_ERR_FILE && !exists(path), "commit of an incomplete grid: %s",
          tbrf_writer_message(w));
    tbrf_writer_close(w);
    CHECK(!exists(path), "nothing published");

    REQUIRE(tbrf_writer_create(path, 0, &w) == TBRF_OK, , "create");
    REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_OK, , "begin");
    CHECK(tbrf_writer_push(w, 0, 64, v) == TBRF_OK, "whole grid");
    tbrf_writer_close(w); /* no commit */
    CHECK(!exists(path), "closing without commit publishes nothing");

    REQUIRE(tbrf_writer_create(path, 0, &w) == TBRF_OK, , "create");
    REQUIRE(tbrf_writer_grid_begin(w, 3, o, h, n, TBRF_DOUBLE) == TBRF_OK, , "begin");
    CHECK(tbrf_writer_push(w, 0, 64, v) == TBRF_OK && tbrf_writer_commit(w) == TBRF_OK, "commit");
    CHECK(tbrf_writer_commit(w) == TBRF_ERR_INVALID && tbrf_writer_push(w, 0, 1, v) == TBRF_ERR_INVALID,
          "commit twice, push after commit");
    tbrf_writer_close(w);
    CHECK(exists(path), "committed");
    CHECK(tbrf_writer_commit(NULL) == TBRF_ERR_NULL && tbrf_writer_push(NULL, 0, 0, v) == TBRF_ERR_NULL &&
          tbrf_writer_message(NULL)[0], "NULL writer");
    tbrf_writer_close(NULL);
    CHECK(dir_is_empty_but(dir, "fail.h5", "fail.xmf"), "no temporaries left behind in %s", dir);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_writer DIR\n");
        return 2;
    }
    char rt[512], fl[512];
    snprintf(rt, sizeof rt, "%s/roundtrip", argv[1]);
    snprintf(fl, sizeof fl, "%s/failures", argv[1]);
    mkdir(argv[1], 0755);
    mkdir(rt, 0755);
    mkdir(fl, 0755);
    roundtrip(rt, TBRF_DOUBLE);
    roundtrip(rt, TBRF_FLOAT);
    failures(fl);
    return check_report("test_writer");
}
