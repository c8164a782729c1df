// turbgen_wide.cpp — the cost of one driving update, tbrf against TurbGen
// (github.com/chfeder/turbulence_generator, whose TurbGen.h is NOT part of
// tbrf: give its folder with -I), alternated in one run, for TurbGen's
// three spectra: band and parabola on 1 <= |k|/2pi <= 3, and the power law
// k^-2 on 1 <= |k|/2pi <= 16 with TurbGen's sparse angles (angles_exp 1)
// against tbrf's full band and its sparse directions (directions 8, 4).
// Box 1, sol_weight 0.5, t_decay 0.5, 10 updates per t_decay (TurbGen's
// example file otherwise). One update: TurbGen's check_for_update to the
// next step (OU step + projection of every mode); tbrf's
// tbrf_driver_rms at the next update (OU draws by the tree in order +
// projection into coefficients + a Parseval sum), one thread. TurbGen
// also appends a line to its evolution file at each update, as it does in
// a simulation.
//
// Build (scratch folder, TurbGen checked out in $TG, tbrf built in $B):
//   g++ -O3 -I$TG -I$SRC/include -I$B/include bench/turbgen_wide.cpp \
//       -L$B/c -ltbrf -Wl,-rpath,$B/c -o turbgen_wide
//   ./turbgen_wide [UPDATES] [ROUNDS]   (in a scratch folder: TurbGen
//                                        writes its .par and log there)
// Prints per case: modes, and the median over ROUNDS of the CPU time per
// update (TurbGen and tbrf alternated within each round).
#include <TurbGen.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <vector>

#include "tbrf.h"

static const double PI = 3.14159265358979323846;

static double cpu_now()
{
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void write_par(int form, double kmax)
{
    FILE *f = fopen("wide.par", "w");
    fprintf(f, "ndim = 3\nL = 1.0\nvelocity = 1.0\nampl_factor = 1.0\nampl_auto_adjust = 0\n"
               "k_driv = 2.0\nk_min = 1.0\nk_max = %g\nsol_weight = 0.5\nspect_form = %d\n"
               "power_law_exp = -2.0\nangles_exp = 1.0\nrandom_seed = 140281\n"
               "nsteps_per_t_turb = 10\n",
            kmax, form);
    fclose(f);
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main(int argc, char **argv)
{
    const int nup = argc > 1 ? atoi(argv[1]) : 200, rounds = argc > 2 ? atoi(argv[2]) : 5;
    struct cs {
        const char *name;
        int form;
        double kmax;
        int dirs;
    } cases[] = {{"band k 1..3", 0, 3, 0},       {"parabola k 1..3", 1, 3, 0},
                 {"power law k 1..16, full", 2, 16, 0}, {"power law k 1..16, directions 8", 2, 16, 8},
                 {"power law k 1..16, directions 4", 2, 16, 4}};
    printf("%-34s %8s %8s %12s %12s %8s\n", "case", "TG modes", "tbrf", "TurbGen/upd", "tbrf/upd",
           "ratio");
    for (const cs &c : cases) {
        write_par(c.form, c.kmax);
        TurbGen tg;
        tg.set_verbose(0);
        tg.init_driving("wide.par");
        FILE *fp = fopen("wide.par", "rb");
        static char text[4096];
        text[fread(text, 1, sizeof text - 1, fp)] = '\0';
        fclose(fp);
        tbrf_driver_params p;
        uint64_t seed;
        tbrf_model *m = nullptr;
        char msg[512];
        if (tbrf_driver_params_from_turbgen(text, &p, &seed, &m, msg, sizeof msg)) {
            fprintf(stderr, "%s\n", msg);
            return 1;
        }
        p.threads = 1;
        p.directions = c.dirs;
        tbrf_driver *d = nullptr;
        if (tbrf_driver_make(m, seed, &p, &d)) {
            fprintf(stderr, "%s\n", tbrf_driver_message(d));
            return 1;
        }
        tbrf_driver_info info;
        tbrf_driver_get_info(d, &info);
        const double dt = info.dt_update;
        std::vector<double> ttg, ttb;
        int64_t j = 0;
        double sink = 0;
        for (int r = 0; r < rounds; r++) {
            double t0 = cpu_now();
            for (int i = 0; i < nup; i++, j++)
                tg.check_for_update(((double)j + 0.5) * dt);
            ttg.push_back((cpu_now() - t0) / nup);
            t0 = cpu_now();
            for (int i = 0; i < nup; i++) {
                double rms;
                tbrf_driver_rms(d, ((double)(j - nup + i) + 0.5) * dt, &rms);
                sink += rms;
            }
            ttb.push_back((cpu_now() - t0) / nup);
        }
        const double a = median(ttg), b = median(ttb);
        printf("%-34s %8d %8lld %10.2f us %10.2f us %8.2f%s\n", c.name, (int)tg.get_amplitudes().size(),
               (long long)info.modes, 1e6 * a, 1e6 * b, a / b, sink == 0 ? "" : "");
        tbrf_driver_destroy(d);
        tbrf_model_destroy(m);
    }
    return 0;
}
