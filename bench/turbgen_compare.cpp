// turbgen_compare.cpp — tbrf's turbulence driver side by side with TurbGen
// (Federrath et al. 2010; github.com/chfeder/turbulence_generator, whose
// header TurbGen.h is NOT part of tbrf: give its folder with -I). Same
// parameters for both: box 1, parabola spectrum on 1 <= |k|/2pi <= 3,
// solenoidal weight 0.5, autocorrelation time 0.5 (TurbGen: L / k_driv /
// velocity with k_driv 2, velocity 1), 10 updates per correlation time.
//
// Prints (doc/benchmarks-log.md, "Turbulence driving"):
//  - cost of one update and of one evaluation on a 64^3 grid, one thread
//    (TurbGen is serial), tbrf also on every thread;
//  - statistics over NT updates on a 32^3 grid (forward FFT per update):
//    relative scatter of the box rms^2 between updates, autocorrelation at
//    T/2 and T, solenoidal power fraction, the shells' shares of the power,
//    and the box mean of the force.
//
// Build (scratch folder, TurbGen checked out in $TG):
//   g++ -O3 -fopenmp -I$TG -I$PREFIX/include bench/turbgen_compare.cpp \
//       -L$PREFIX/lib -ltbrf -lfftw3 -o turbgen_compare
//   ./turbgen_compare [NT]    (run in a scratch folder: TurbGen writes
//                              TurbGen.par-style logs into the current one)
#include <TurbGen.h>
#include <fftw3.h>
#include <omp.h>

#include <cmath>
#include <ctime>
#include <cstdio>
#include <vector>

#include "tbrf.h"

static const double PI = 3.14159265358979323846;

// CPU seconds of the process: the one-thread timings below are not
// inflated by other jobs on a shared machine.
static double cpu_now()
{
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

struct stats {
    double rms2_mean = 0, rms2_sq = 0, ac_half = 0, ac_one = 0, sol = 0, tot = 0, shell[2] = {0, 0},
           mean_max = 0;
    int n = 0;
};

// One 32^3 force (3 x n^3, x fastest per component): the FFT gives the
// solenoidal power and the shells; the rest is accumulated by the caller.
static void spectral(const std::vector<double> &f, int n, stats &s)
{
    const int N = n * n * n, nh = n / 2 + 1;
    std::vector<double> in(N);
    fftw_complex *F[3];
    for (int c = 0; c < 3; c++) {
        F[c] = (fftw_complex *)fftw_malloc(sizeof(fftw_complex) * (size_t)n * n * nh);
        for (int i = 0; i < N; i++)
            in[i] = f[3 * i + c];
        fftw_plan p = fftw_plan_dft_r2c_3d(n, n, n, in.data(), F[c], FFTW_ESTIMATE);
        fftw_execute(p);
        fftw_destroy_plan(p);
    }
    for (int iz = 0; iz < n; iz++)
        for (int iy = 0; iy < n; iy++)
            for (int ix = 0; ix < nh; ix++) {
                const double k[3] = {(double)ix, (double)(iy <= n / 2 ? iy : iy - n), (double)(iz <= n / 2 ? iz : iz - n)};
                const double kk = std::sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
                if (kk == 0)
                    continue;
                const size_t at = ((size_t)iz * n + iy) * nh + ix;
                const double w = (ix == 0 || ix == n / 2) ? 1.0 : 2.0; // the r2c half
                for (int ri = 0; ri < 2; ri++) {
                    double kv = 0, p = 0;
                    for (int c = 0; c < 3; c++)
                        kv += k[c] / kk * F[c][at][ri];
                    for (int c = 0; c < 3; c++) {
                        const double v = F[c][at][ri], perp = v - k[c] / kk * kv;
                        s.sol += w * perp * perp;
                        s.tot += w * v * v;
                        p += w * v * v;
                    }
                    s.shell[kk < 2.0 ? 0 : 1] += p;
                }
            }
    for (int c = 0; c < 3; c++)
        fftw_free(F[c]);
}

template <class Eval> static stats measure(Eval eval, double dt, int nt)
{
    const int n = 32, N = n * n * n;
    stats s;
    std::vector<std::vector<double>> hist;
    for (int j = 0; j < nt; j++) {
        std::vector<double> f(3 * (size_t)N);
        eval((j + 0.5) * dt, f);
        double r2 = 0, mean[3] = {0, 0, 0};
        for (int i = 0; i < N; i++)
            for (int c = 0; c < 3; c++)
                r2 += f[3 * i + c] * f[3 * i + c], mean[c] += f[3 * i + c];
        r2 /= N;
        s.rms2_mean += r2;
        s.rms2_sq += r2 * r2;
        s.mean_max = std::fmax(s.mean_max, std::sqrt(mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2]) / N / std::sqrt(r2));
        spectral(f, n, s);
        hist.push_back(f);
        if (hist.size() > 11)
            hist.erase(hist.begin());
        if (hist.size() == 11) { // lags 5 and 10 updates: T/2 and T
            double a5 = 0, a10 = 0;
            for (int i = 0; i < 3 * N; i++)
                a5 += hist[5][i] * hist[10][i], a10 += hist[0][i] * hist[10][i];
            s.ac_half += a5 / N;
            s.ac_one += a10 / N;
            s.n++;
        }
    }
    return s;
}

static void report(const char *who, const stats &s, int nt)
{
    const double m = s.rms2_mean / nt, sd = std::sqrt(s.rms2_sq / nt - m * m);
    const double sh = s.shell[0] + s.shell[1];
    std::printf("%-8s rms^2 mean %.4g, scatter between updates %.3f; autocorrelation T/2 %.3f, T %.3f "
                "(exp: %.3f, %.3f); solenoidal fraction %.3f; shells [1,2) %.3f, [2,3] %.3f; max |mean|/rms %.1e\n",
                who, m, sd / m, s.ac_half / s.n / m, s.ac_one / s.n / m, std::exp(-0.5), std::exp(-1.0),
                s.sol / s.tot, s.shell[0] / sh, s.shell[1] / sh, s.mean_max);
}

int main(int argc, char **argv)
{
    const int nt = argc > 1 ? std::atoi(argv[1]) : 400;
    std::FILE *par = std::fopen("TurbGen.par", "w");
    std::fprintf(par, "ndim = 3\nL = 1.0\nvelocity = 1.0\nampl_factor = 1.0\nampl_auto_adjust = 0\n"
                      "k_driv = 2.0\nk_min = 1.0\nk_max = 3.0\nsol_weight = 0.5\nspect_form = 1\n"
                      "power_law_exp = -2.0\nangles_exp = 1.0\nrandom_seed = 140281\nnsteps_per_t_turb = 10\n");
    std::fclose(par);
    TurbGen tg;
    tg.set_verbose(0);
    tg.init_driving("TurbGen.par");
    const double T = tg.get_turnover_time(), dt = T / 10;

    tbrf_model *pb;
    tbrf_model_parabola(2 * PI, 6 * PI, &pb);
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.zeta = 0.5;
    p.tcorr = T;
    p.threads = 1;
    tbrf_driver *d, *dn, *dall;
    tbrf_driver_make(pb, 140281, &p, &d);
    p.eval = TBRF_DRIVE_NUFFT;
    p.accuracy = 1e-6;
    tbrf_driver_make(pb, 140281, &p, &dn);
    p.eval = TBRF_DRIVE_AUTO;
    p.accuracy = 0;
    p.threads = 0;
    tbrf_driver_make(pb, 140281, &p, &dall);
    tbrf_driver_info info;
    tbrf_driver_get_info(d, &info);
    std::printf("TurbGen: %d modes (each +-k independently), T = %g; tbrf: %lld modes (one of each +-k pair)\n",
                (int)tg.get_modes()[0].size(), T, (long long)info.modes);

    // one update: 200 successive updates each
    double t0 = cpu_now();
    for (int j = 1; j <= 200; j++)
        tg.check_for_update((j + 0.5) * dt);
    const double tg_upd = (cpu_now() - t0) / 200;
    double r;
    t0 = cpu_now();
    for (int j = 1; j <= 200; j++)
        tbrf_driver_rms(d, (j + 0.5) * dt, &r);
    const double tb_upd = (cpu_now() - t0) / 200;
    std::printf("one update (CPU): TurbGen %.3g ms, tbrf %.3g ms (ratio %.2f)\n", tg_upd * 1e3, tb_upd * 1e3, tg_upd / tb_upd);

    // one evaluation at 64^3 cell centres
    const int n = 64, N = n * n * n;
    std::vector<float> gx(N), gy(N), gz(N);
    float *grid[3] = {gx.data(), gy.data(), gz.data()};
    const double beg[3] = {0.5 / n, 0.5 / n, 0.5 / n}, end[3] = {1 - 0.5 / n, 1 - 0.5 / n, 1 - 0.5 / n};
    const int nn[3] = {n, n, n};
    t0 = cpu_now();
    tg.get_turb_vector_unigrid(beg, end, nn, grid);
    const double tg_ev = cpu_now() - t0;
    std::vector<double> out(3 * (size_t)N);
    const double o[3] = {0.5 / n, 0.5 / n, 0.5 / n}, h[3] = {1.0 / n, 1.0 / n, 1.0 / n};
    const int64_t n64[3] = {n, n, n};
    const double tt = 201.5 * dt;
    tbrf_driver_grid(d, tt, o, h, n64, out.data()); // coefficients of this time, as in a step
    t0 = cpu_now();
    tbrf_driver_grid(d, tt, o, h, n64, out.data());
    const double tb_ev = cpu_now() - t0;
    tbrf_driver_grid(dn, tt, o, h, n64, out.data());
    t0 = cpu_now();
    tbrf_driver_grid(dn, tt, o, h, n64, out.data());
    const double tn_ev = cpu_now() - t0;
    tbrf_driver_grid(dall, tt, o, h, n64, out.data());
    t0 = omp_get_wtime();
    tbrf_driver_grid(dall, tt, o, h, n64, out.data());
    const double ta_ev = omp_get_wtime() - t0;
    std::printf("one evaluation at 64^3, one thread (CPU s): TurbGen %.3g s, tbrf direct %.3g s (ratio %.2f), tbrf "
                "NUFFT 1e-6 %.3g s (ratio %.2f); tbrf auto on %d threads %.3g s wall\n",
                tg_ev, tb_ev, tg_ev / tb_ev, tn_ev, tg_ev / tn_ev, omp_get_max_threads(), ta_ev);

    // statistics on 32^3 over nt updates
    TurbGen tg2;
    tg2.set_verbose(0);
    tg2.init_driving("TurbGen.par");
    auto tg_eval = [&](double t, std::vector<double> &f) {
        const int m = 32, M = m * m * m;
        std::vector<float> a(M), b(M), c(M);
        float *g[3] = {a.data(), b.data(), c.data()};
        const double b0[3] = {0.5 / m, 0.5 / m, 0.5 / m}, e0[3] = {1 - 0.5 / m, 1 - 0.5 / m, 1 - 0.5 / m};
        const int mm[3] = {m, m, m};
        tg2.check_for_update(t);
        tg2.get_turb_vector_unigrid(b0, e0, mm, g);
        for (int i = 0; i < M; i++)
            f[3 * i] = a[i], f[3 * i + 1] = b[i], f[3 * i + 2] = c[i];
    };
    auto tb_eval = [&](double t, std::vector<double> &f) {
        const int64_t m3[3] = {32, 32, 32};
        const double o3[3] = {0.5 / 32, 0.5 / 32, 0.5 / 32}, h3[3] = {1.0 / 32, 1.0 / 32, 1.0 / 32};
        tbrf_driver_grid(dall, t, o3, h3, m3, f.data());
    };
    stats a = measure(tg_eval, dt, nt), b = measure(tb_eval, dt, nt);
    std::printf("statistics over %d updates on 32^3 (expected solenoidal fraction 2 zeta^2/(2 zeta^2 + (1-zeta)^2) = %.3f):\n",
                nt, 2 * 0.25 / (2 * 0.25 + 0.25));
    report("TurbGen", a, nt);
    report("tbrf", b, nt);
    tbrf_driver_destroy(d);
    tbrf_driver_destroy(dn);
    tbrf_driver_destroy(dall);
    tbrf_model_destroy(pb);
    return 0;
}
