/* bench_fft_write.c — the FFT method end to end against the user's
 * alternative done by hand, timed in the same run:
 *   tbrf:  the command `tbrf generate --model powerlaw --index -3 --kmin 0.05
 *          --kmax 3 --grid NxNxN --method fft --periodic --precision P
 *          --out DIR/tbrf.h5`, run as a child process (wall clock from
 *          spawn to exit: start-up, plan, modes, transform, statistics,
 *          HDF5 + XDMF write, rename);
 *   bare:  in this process, a threaded FFTW double c2r of the same size
 *          (FFTW_ESTIMATE, in place, as the FFT method plans it) with its
 *          input filled by a trivial loop, the result copied out of FFTW's
 *          padded rows (rounded to float for P = float), and written to an
 *          HDF5 file as one contiguous dataset with one H5Dwrite; and the
 *          same followed by an fsync of the file, the durability tbrf's
 *          files have (doc/guarantees-outputs.md: synced before renamed).
 * The two alternate within each repeat so that both see the same load;
 * best of `repeats`, in wall-clock seconds and in CPU seconds (user +
 * system: with OMP_NUM_THREADS=1 a per-core cost that waiting for a core
 * on a shared machine does not inflate; the fsync's wait for the disk is
 * not CPU time). Prints the times and the ratio tbrf / bare; asserts
 * nothing. Usage: bench_fft_write TBRF_COMMAND [n=256] [float|double]
 * [repeats=3] [dir=/tmp] */
#define _DEFAULT_SOURCE /* wait4 */
#include <fftw3.h>
#include <hdf5.h>
#include <math.h>
#include <omp.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>

extern char **environ;

static double cpu_seconds(const struct rusage *u)
{
    return (double)u->ru_utime.tv_sec + 1e-6 * (double)u->ru_utime.tv_usec + (double)u->ru_stime.tv_sec +
           1e-6 * (double)u->ru_stime.tv_usec;
}

/* Seconds of the user's alternative (wall; its CPU seconds, user + system,
 * into *cpu); NAN on failure. */
static double bare(int64_t n, int is_float, const char *path, int sync, double *sink, double *cpu)
{
    const int64_t nh = n / 2 + 1, N = n * n * n;
    struct rusage u0, u1;
    getrusage(RUSAGE_SELF, &u0);
    const double t0 = omp_get_wtime();
    fftw_complex *c = fftw_malloc(sizeof(fftw_complex) * (size_t)(n * n * nh));
    void *out = malloc((is_float ? sizeof(float) : sizeof(double)) * (size_t)N);
    if (!c || !out) {
        fftw_free(c);
        free(out);
        return NAN;
    }
    fftw_plan_with_nthreads(omp_get_max_threads());
    fftw_plan p = fftw_plan_dft_c2r_3d((int)n, (int)n, (int)n, c, (double *)c, FFTW_ESTIMATE);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n * n * nh; i++) {
        c[i][0] = (double)((i * 2654435761u) & 1023) * 1e-3;
        c[i][1] = (double)((i * 40503u) & 1023) * 1e-3;
    }
    fftw_execute(p);
    const double *r = (const double *)c;
#pragma omp parallel for schedule(static)
    for (int64_t row = 0; row < n * n; row++)
        for (int64_t i = 0; i < n; i++) {
            if (is_float)
                ((float *)out)[row * n + i] = (float)r[row * 2 * nh + i];
            else
                ((double *)out)[row * n + i] = r[row * 2 * nh + i];
        }
    const hsize_t dims[3] = {(hsize_t)n, (hsize_t)n, (hsize_t)n};
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t s = H5Screate_simple(3, dims, NULL);
    hid_t d = H5Dcreate2(f, "field", is_float ? H5T_IEEE_F32LE : H5T_IEEE_F64LE, s, H5P_DEFAULT,
                         H5P_DEFAULT, H5P_DEFAULT);
    herr_t e = H5Dwrite(d, is_float ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                        H5P_DEFAULT, out);
    H5Dclose(d);
    H5Sclose(s);
    herr_t ec = H5Fclose(f);
    if (sync) { /* the durability tbrf gives its files: on disk before the name */
        const int fd = open(path, O_RDONLY);
        if (fd < 0 || fsync(fd) != 0)
            ec = -1;
        if (fd >= 0)
            close(fd);
    }
    const double t = omp_get_wtime() - t0;
    getrusage(RUSAGE_SELF, &u1);
    *cpu = cpu_seconds(&u1) - cpu_seconds(&u0);
    *sink += r[n];
    fftw_destroy_plan(p);
    fftw_free(c);
    free(out);
    return f < 0 || e < 0 || ec < 0 ? NAN : t;
}

/* Seconds of the command, spawned (its CPU seconds into *cpu); NAN if it
 * fails. */
static double command(const char *tbrf, int64_t n, const char *precision, const char *path, double *cpu)
{
    char grid[64];
    snprintf(grid, sizeof grid, "%lldx%lldx%lld", (long long)n, (long long)n, (long long)n);
    char *argv[] = {(char *)tbrf, "generate", "--model", "powerlaw", "--index", "-3", "--kmin",
                    "0.05", "--kmax", "3", "--grid", grid, "--method", "fft", "--periodic",
                    "--precision", (char *)precision, "--out", (char *)path, "--quiet", NULL};
    const double t0 = omp_get_wtime();
    pid_t pid;
    if (posix_spawn(&pid, tbrf, NULL, NULL, argv, environ))
        return NAN;
    int status = 0;
    struct rusage u;
    if (wait4(pid, &status, 0, &u) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
        return NAN;
    const double t = omp_get_wtime() - t0;
    *cpu = cpu_seconds(&u);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_fft_write TBRF_COMMAND [n=256] [float|double] [repeats=3] [dir=/tmp]\n");
        return 2;
    }
    const char *tbrf = argv[1];
    const int64_t n = argc > 2 ? atoll(argv[2]) : 256;
    const char *prec = argc > 3 ? argv[3] : "float";
    const int reps = argc > 4 && atoi(argv[4]) > 0 ? atoi(argv[4]) : 3;
    const char *dir = argc > 5 ? argv[5] : "/tmp";
    const int is_float = strcmp(prec, "float") == 0;
    char pt[4096], pb[4096];
    snprintf(pt, sizeof pt, "%s/bench_fft_write-%d-tbrf.h5", dir, (int)getpid());
    snprintf(pb, sizeof pb, "%s/bench_fft_write-%d-bare.h5", dir, (int)getpid());
    fftw_init_threads();
    double tb = 1e30, ts = 1e30, tt = 1e30, cb = 1e30, ct = 1e30, sink = 0;
    for (int r = 0; r < reps; r++) {
        double ca = NAN, cbb = NAN, cc = NAN;
        const double a = bare(n, is_float, pb, 0, &sink, &ca), b = command(tbrf, n, prec, pt, &cbb);
        const double c = bare(n, is_float, pb, 1, &sink, &cc);
        cb = ca < cb ? ca : cb;
        ct = cbb < ct ? cbb : ct;
        if (a != a || b != b || c != c) {
            fprintf(stderr, "bench_fft_write: %s failed\n", b != b ? tbrf : "the FFTW + HDF5 baseline");
            return 1;
        }
        tb = a < tb ? a : tb;
        tt = b < tt ? b : tt;
        ts = c < ts ? c : ts;
    }
    char xmf[4200];
    snprintf(xmf, sizeof xmf, "%.*s.xmf", (int)(strlen(pt) - 3), pt);
    remove(pt);
    remove(xmf);
    remove(pb);
    printf("# bench_fft_write: %lld^3 %s, %d threads, best of %d\n", (long long)n, prec,
           omp_get_max_threads(), reps);
    printf("%-44s %10.3f\n", "tbrf generate --method fft (end to end), s", tt);
    printf("%-44s %10.3f\n", "FFTW c2r + fill + HDF5 write by hand, s", tb);
    printf("%-44s %10.3f\n", "the same + fsync (tbrf's durability), s", ts);
    printf("ratio tbrf / by hand: %.2f\n", tt / tb);
    printf("ratio tbrf / by hand + fsync: %.2f\n", tt / ts);
    printf("%-44s %10.3f\n", "tbrf, CPU s (user + system)", ct);
    printf("%-44s %10.3f\n", "by hand, CPU s (user + system)", cb);
    printf("ratio tbrf / by hand, CPU time: %.2f\n", ct / cb);
    printf("RATIO fft_e2e_over_by_hand %.2f\n", tt / tb);
    printf("RATIO fft_cpu_over_by_hand %.2f\n", ct / cb);
    printf("RATIO fft_e2e_over_by_hand_fsync %.2f\n", tt / ts);
    fprintf(stderr, "(checksum %g)\n", sink);
    return 0;
}
