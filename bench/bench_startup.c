/* bench_startup.c — the `tbrf` command's start-up against a bare program
 * linked with libtbrf (doc/benchmarks-log.md, "Start-up"):
 *   version: `tbrf --version` against `startup_bare_version` (a C
 *            program linked with libtbrf printing tbrf_version());
 *   grid 2^3: `tbrf generate --model gaussian --length 1 --grid 2x2x2
 *            --out DIR/cmd.h5` against `startup_bare_grid DIR/bare.h5`
 *            (the same field generated with libtbrf and written with
 *            libtbrf_writer: HDF5 is in both, as both write the file).
 * Each child runs from spawn to exit with its output to /dev/null; its
 * CPU time (user + system, from wait4: not inflated by waiting for a core
 * on a shared machine) and wall time are taken. The two sides alternate,
 * the order flipping every pair, after one unmeasured run of each.
 * Prints each side's median and the median [min-max] of the per-pair
 * ratios tbrf / bare, and RATIO lines for bench/run_suite.sh; asserts
 * nothing. Usage: bench_startup TBRF STARTUP_BARE_VERSION STARTUP_BARE_GRID
 * [pairs=20] [dir=/tmp] */
#define _DEFAULT_SOURCE /* wait4 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_PAIRS 1000

/* Runs argv to its end; CPU and wall seconds, or -1 when it failed. */
static int run(char *const argv[], double *cpu, double *wall)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1 /* O_WRONLY */, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    *cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Times a against b over `pairs` alternated pairs, removing `files`
 * before each run; prints one line per clock. 0, or -1 when a run failed. */
static int compare(const char *name, const char *key, char *const a[], char *const b[],
                   int pairs, char *const files[])
{
    static double ca[MAX_PAIRS], cb[MAX_PAIRS], wa[MAX_PAIRS], wb[MAX_PAIRS], rc_[MAX_PAIRS],
        rw[MAX_PAIRS];
    for (int i = -1; i < pairs; i++) {
        double c[2], w[2];
        for (int k = 0; k < 2; k++) {
            int side = (i & 1) ? 1 - k : k; /* a b, then b a */
            for (int f = 0; files[f]; f++)
                unlink(files[f]);
            if (run(side ? b : a, &c[side], &w[side])) {
                fprintf(stderr, "bench_startup: %s failed\n", (side ? b : a)[0]);
                return -1;
            }
        }
        if (i < 0)
            continue; /* the unmeasured first pair: caches */
        ca[i] = c[0], cb[i] = c[1], wa[i] = w[0], wb[i] = w[1];
        rc_[i] = c[0] / c[1], rw[i] = w[0] / w[1];
    }
    double rcmed = median(rc_, pairs), rwmed = median(rw, pairs);
    printf("%-9s cpu  %7.2f ms %7.2f ms   %5.2f [%.2f-%.2f]\n", name, 1e3 * median(ca, pairs),
           1e3 * median(cb, pairs), rcmed, rc_[0], rc_[pairs - 1]);
    printf("%-9s wall %7.2f ms %7.2f ms   %5.2f [%.2f-%.2f]\n", name, 1e3 * median(wa, pairs),
           1e3 * median(wb, pairs), rwmed, rw[0], rw[pairs - 1]);
    printf("RATIO startup_%s_cpu %.2f\nRATIO startup_%s_wall %.2f\n", key, rcmed, key, rwmed);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_startup TBRF STARTUP_BARE_VERSION STARTUP_BARE_GRID "
                        "[pairs=20] [dir=/tmp]\n");
        return 2;
    }
    int pairs = argc > 4 ? atoi(argv[4]) : 20;
    const char *dir = argc > 5 ? argv[5] : "/tmp";
    if (pairs < 1 || pairs > MAX_PAIRS) {
        fprintf(stderr, "bench_startup: pairs in 1..%d\n", MAX_PAIRS);
        return 2;
    }
    char cmd_h5[4096], cmd_xmf[4096], bare_h5[4096], bare_xmf[4096];
    snprintf(cmd_h5, sizeof cmd_h5, "%s/tbrf_startup_cmd.h5", dir);
    snprintf(cmd_xmf, sizeof cmd_xmf, "%s/tbrf_startup_cmd.xmf", dir);
    snprintf(bare_h5, sizeof bare_h5, "%s/tbrf_startup_bare.h5", dir);
    snprintf(bare_xmf, sizeof bare_xmf, "%s/tbrf_startup_bare.xmf", dir);
    char *const ver_a[] = {argv[1], "--version", NULL};
    char *const ver_b[] = {argv[2], NULL};
    char *const grid_a[] = {argv[1], "generate", "--model", "gaussian", "--length", "1",
                            "--grid", "2x2x2", "--out", cmd_h5, NULL};
    char *const grid_b[] = {argv[3], bare_h5, NULL};
    char *const files[] = {cmd_h5, cmd_xmf, bare_h5, bare_xmf, NULL};
    printf("# start-up: %s against %s and %s, %d pairs alternated; median of each\n"
           "# side, median [min-max] of the per-pair ratios tbrf / bare\n", argv[1], argv[2],
           argv[3], pairs);
    printf("%-9s %-4s %10s %10s   %s\n", "case", "time", "tbrf", "bare", "tbrf/bare");
    int rc = compare("version", "version", ver_a, ver_b, pairs, files) ||
             compare("grid 2^3", "grid2", grid_a, grid_b, pairs, files);
    for (int f = 0; files[f]; f++)
        unlink(files[f]);
    return rc ? 1 : 0;
}
