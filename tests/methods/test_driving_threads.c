/* test_driving_threads.c — one driver (and one inflow sampler) shared by
 * the threads of an OpenMP block loop, as a block-AMR code calls it from
 * its `!$omp parallel do` over blocks (doc/driving.md, "Threads and
 * ranks").
 *
 * Each case evaluates the same blocks at the same times twice: a serial
 * loop on a driver of its own, and an OpenMP loop of 4 threads sharing one
 * driver, and asserts the two bitwise equal (memcmp) with every call TBRF_OK:
 *  - per step, the threads share the step's time (the AMR pattern: the
 *    first call of a step builds the new time's coefficients, the others
 *    wait for it and then evaluate together);
 *  - the steps and blocks mixed in one dynamic loop, so threads ask for
 *    different times at once (a rebuild must wait for the calls running on
 *    the old coefficients);
 * on a periodic box summed directly (grid and points, with time
 * interpolation and the exact rms, whose coefficients a rebuild in place
 * scales twice), by the NUFFT, over a non-periodic domain (turning bands),
 * and an inflow sampler filling ghost blocks. Built with ThreadSanitizer
 * (tests/README.md, "Threads") it also checks that no call races. */
#include <omp.h>
#include <string.h>

#include "support/testutil.h"
#include "support/driving.h"

enum { NB = 4, BN = 8, BLOCKS = NB * NB * NB, CELLS = BN * BN * BN, STEPS = 8, THREADS = 4 };

/* Block b's cells: origin and spacing of a BN^3 block of an NB^3 tiling
 * of the unit box. */
static void block_geom(int b, double origin[3], double spacing[3])
{
    const int ib[3] = {b % NB, b / NB % NB, b / (NB * NB)};
    for (int c = 0; c < 3; c++) {
        spacing[c] = 1.0 / (NB * BN);
        origin[c] = (double)(ib[c] * BN) * spacing[c] + 0.5 * spacing[c];
    }
}

/* Block b's cell centres as points (interleaved). */
static void block_points(int b, double *xyz)
{
    double o[3], h[3];
    block_geom(b, o, h);
    for (int k = 0; k < BN; k++)
        for (int j = 0; j < BN; j++)
            for (int i = 0; i < BN; i++) {
                double *x = xyz + 3 * (i + BN * (j + BN * k));
                x[0] = o[0] + h[0] * i;
                x[1] = o[1] + h[1] * j;
                x[2] = o[2] + h[2] * k;
            }
}

static double step_time(int s)
{
    return 0.013 + 0.037 * s; /* about one update apart (dt_update 0.05) */
}

/* Block b at step s into out (3 CELLS values): the grid or the points. */
static int eval_block(tbrf_driver *d, int use_points, int s, int b, double *out)
{
    double o[3], h[3];
    const int64_t n[3] = {BN, BN, BN};
    if (!use_points) {
        block_geom(b, o, h);
        return tbrf_driver_grid(d, step_time(s), o, h, n, out);
    }
    double xyz[3 * CELLS];
    block_points(b, xyz);
    return tbrf_driver_points(d, step_time(s), CELLS, xyz, out);
}

/* The serial loop's values into ref, then both threaded patterns on one
 * shared driver, each compared bitwise with ref. */
static void shared_driver(const char *what, const tbrf_model *m, const tbrf_driver_params *p,
                          int use_points)
{
    const size_t per = (size_t)3 * CELLS, all = per * BLOCKS * STEPS;
    double *ref = tu_malloc(sizeof(double) * all), *got = tu_malloc(sizeof(double) * all);
    tbrf_driver *serial = drv_make(m, 42, p);
    int bad = 0;
    for (int s = 0; s < STEPS; s++)
        for (int b = 0; b < BLOCKS; b++)
            bad |= eval_block(serial, use_points, s, b, ref + per * (size_t)(s * BLOCKS + b)) != TBRF_OK;
    CHECK(!bad, "%s: the serial loop failed: %s", what, tbrf_driver_message(serial));
    tbrf_driver_destroy(serial);

    for (int pattern = 0; pattern < 2; pattern++) {
        tbrf_driver *d = drv_make(m, 42, p);
        memset(got, 0, sizeof(double) * all);
        int failed = 0;
        if (pattern == 0) {
            for (int s = 0; s < STEPS; s++) {
#pragma omp parallel for num_threads(THREADS) schedule(dynamic, 1) reduction(| : failed)
                for (int b = 0; b < BLOCKS; b++)
                    failed |= eval_block(d, use_points, s, b, got + per * (size_t)(s * BLOCKS + b)) != TBRF_OK;
            }
        } else {
#pragma omp parallel for num_threads(THREADS) schedule(dynamic, 1) reduction(| : failed)
            for (int sb = 0; sb < STEPS * BLOCKS; sb++) {
                /* blocks of neighbouring steps interleaved: times differ */
                const int step = (sb / (2 * BLOCKS)) * 2 + (sb & 1);
                const int b = (sb / 2) % BLOCKS;
                failed |= eval_block(d, use_points, step, b, got + per * (size_t)(step * BLOCKS + b)) != TBRF_OK;
            }
        }
        CHECK(!failed, "%s, pattern %d: a threaded call failed", what, pattern);
        double worst = 0.0, peak = 0.0;
        for (size_t i = 0; i < all; i++) {
            worst = fmax(worst, fabs(got[i] - ref[i]));
            peak = fmax(peak, fabs(ref[i]));
        }
        CHECK(memcmp(got, ref, sizeof(double) * all) == 0,
              "%s, pattern %d (%s): %d threads sharing one driver differ from the serial loop by "
              "up to %.3g (max |f| %.3g)", what, pattern, pattern ? "mixed times" : "one time a step",
              THREADS, worst, peak);
        tbrf_driver_destroy(d);
    }
    free(ref);
    free(got);
}

static void test_drivers(void)
{
    tbrf_model *m = NULL;
    CHECK(tbrf_model_band(2.0 * M_PI, 3.0 * 2.0 * M_PI, &m) == TBRF_OK, "band");
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.tcorr = 0.5;
    p.dt_update = 0.05;
    p.eval = TBRF_DRIVE_DIRECT;
    shared_driver("direct grid", m, &p, 0);
    shared_driver("direct points", m, &p, 1);
    p.interpolate = 1;
    p.normalization = TBRF_DRIVE_RMS_EXACT;
    shared_driver("direct grid, interpolated, exact rms", m, &p, 0);
    shared_driver("direct points, interpolated, exact rms", m, &p, 1);
    p.eval = TBRF_DRIVE_NUFFT;
    shared_driver("nufft points, interpolated, exact rms", m, &p, 1);
    tbrf_driver_default_params(&p);
    p.tcorr = 0.5;
    p.dt_update = 0.05;
    p.periodic = 0;
    p.interpolate = 1;
    shared_driver("non-periodic points, interpolated", m, &p, 1);
    tbrf_model_destroy(m);
}

/* One inflow sampler filling ghost blocks from 4 threads at once, at
 * mixed times: bitwise the serial fills. */
static void test_inflow(void)
{
    tbrf_model *m = NULL;
    CHECK(tbrf_model_powerlaw(-3.9, 0.05, 2.0, &m) == TBRF_OK, "powerlaw");
    const double v[3] = {0.0, 0.0, 1.0}, glo[3] = {0, 0, 0}, ghi[3] = {16, 16, 2};
    double lo[3], hi[3];
    CHECK(tbrf_inflow_tube(3, glo, ghi, v, 20.0, lo, hi) == TBRF_OK, "tube");
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 64;
    tbrf_inflow *in = NULL;
    REQUIRE(tbrf_inflow_create(m, 3, lo, hi, 1.0, 11, 3, &o, v, TBRF_DOUBLE, &in) == TBRF_OK, ,
            "inflow: %s", tbrf_inflow_message(in));
    enum { GB = 4 * 4, GC = 4 * 4 * 2, GSTEPS = 10 };
    const size_t all = (size_t)GC * GB * GSTEPS;
    double *ref = tu_malloc(sizeof(double) * all), *got = tu_malloc(sizeof(double) * all);
    const int64_t n[3] = {4, 4, 2};
    const double h[3] = {1, 1, 1};
    int bad = 0;
    for (int sb = 0; sb < GB * GSTEPS; sb++) {
        const int b = sb % GB, s = sb / GB;
        const double og[3] = {4.0 * (b % 4), 4.0 * (b / 4), 0.0};
        bad |= tbrf_inflow_fill_grid(in, 1.9 * s, og, h, n, ref + (size_t)GC * sb) != TBRF_OK;
    }
    CHECK(!bad, "inflow: the serial fills failed: %s", tbrf_inflow_message(in));
    int failed = 0;
#pragma omp parallel for num_threads(THREADS) schedule(dynamic, 1) reduction(| : failed)
    for (int sb = 0; sb < GB * GSTEPS; sb++) {
        const int b = sb % GB, s = sb / GB;
        const double og[3] = {4.0 * (b % 4), 4.0 * (b / 4), 0.0};
        failed |= tbrf_inflow_fill_grid(in, 1.9 * s, og, h, n, got + (size_t)GC * sb) != TBRF_OK;
    }
    CHECK(!failed, "inflow: a threaded fill failed");
    CHECK(memcmp(got, ref, sizeof(double) * all) == 0, "inflow: %d threads sharing one sampler "
          "differ from the serial fills", THREADS);
    free(ref);
    free(got);
    tbrf_inflow_destroy(in);
    tbrf_model_destroy(m);
}

int main(void)
{
    test_drivers();
    test_inflow();
    return check_report("test_driving_threads");
}
