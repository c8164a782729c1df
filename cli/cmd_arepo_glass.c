/* cmd_arepo_glass.c — `tbrf arepo glass`: a glass particle load
 * (tbrf_ic_glass_make; doc/arepo.md, "Making a glass") written as the
 * file `tbrf arepo cosmo --glass` and N-GenIC's GlassFile read: the n^3
 * particles as PartType1 of an AREPO HDF5 file, or of a Gadget binary
 * (--format gadget1|gadget2, the layout of N-GenIC's glass files). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "io/tbrf_io.h"
#include "request.h"
#include "tbrf.h"
#include "tbrf_arepo.h"

static void usage_glass(void)
{
    printf("usage: tbrf arepo glass --out BASE --particles n [--steps S] [--seed X]\n"
           "                        [--mesh M] [--box L] [--format hdf5|gadget1|gadget2]\n"
           "                        [--precision float|double] [--threads T] [--quiet]\n"
           "\n"
           "A glass of n^3 equal-mass particles in the periodic box [0, L)^3 (L 1 by\n"
           "default), for `tbrf arepo cosmo --glass BASE.hdf5` (N-GenIC's GlassFile):\n"
           "uniform random positions of the seed moved by repulsive gravity with full\n"
           "damping (velocities reset every step), the force particle-mesh on a\n"
           "periodic M^3 mesh (CIC deposit, FFT Poisson solve, CIC interpolation; M 4n\n"
           "by default), until the power of the lowest shells stops falling or S steps\n"
           "(200 by default) are done. Its P(k) is far below the Poisson shot noise at\n"
           "low k and rises as k^4 there (doc/arepo.md, \"Making a glass\"). The glass is\n"
           "a pure function of (n, M, S, seed, L), the same bits for any --threads.\n"
           "\n"
           "  --format F   hdf5 (default: BASE.hdf5, PartType1, double) or Gadget's\n"
           "               binary gadget1/gadget2 (BASE, float unless --precision\n"
           "               double, with the side file BASE.tbrf.h5)\n"
           "  --quiet      no lines on stderr\n");
}

enum { A_OUT, A_N, A_STEPS, A_SEED, A_MESH, A_BOX, A_FORMAT, A_PREC, A_THREADS, A_QUIET,
       A_HELP, A_COUNT };
static const args_opt AOPTS[A_COUNT] = {
    {"--out", 1},    {"--particles", 1}, {"--steps", 1},     {"--seed", 1},
    {"--mesh", 1},   {"--box", 1},       {"--format", 1},    {"--precision", 1},
    {"--threads", 1}, {"--quiet", 0},    {"--help", 0}};

/* The options into p, the header and the format; 0 or -1 after a line. */
static int glass_options(const char *const *val, tbrf_ic_glass_params *p, tbrf_arepo_header *h,
                         int *format)
{
    char err[256];
    int64_t v = 0;
    tbrf_ic_default_glass(p);
    if (!val[A_OUT] || !val[A_N]) {
        cli_errline("arepo glass: --out and --particles are required (see tbrf arepo glass "
                    "--help)");
        return -1;
    }
    if (args_int64("--particles", val[A_N], 2, 2048, &p->per_axis, err, sizeof err) ||
        (val[A_STEPS] && args_int64("--steps", val[A_STEPS], 1, 100000, &v, err, sizeof err)) ||
        (val[A_SEED] && args_uint64("--seed", val[A_SEED], &p->seed, err, sizeof err)) ||
        (val[A_MESH] && args_int64("--mesh", val[A_MESH], 2, 8192, &p->mesh, err, sizeof err)) ||
        (val[A_BOX] && args_positive("--box", val[A_BOX], &p->box, err, sizeof err))) {
        cli_errline("arepo glass: %s", err);
        return -1;
    }
    if (val[A_STEPS])
        p->steps = (int32_t)v;
    if (val[A_THREADS]) {
        if (args_int64("--threads", val[A_THREADS], 0, 1024, &v, err, sizeof err)) {
            cli_errline("arepo glass: %s", err);
            return -1;
        }
        p->threads = (int32_t)v;
    }
    /* the mesh is the one parameter the ranges above leave to check */
    double bytes = 0;
    if (tbrf_ic_glass_bytes(p, &bytes) != TBRF_OK) {
        cli_errline("arepo glass: --mesh %lld must be even and lie in --particles (%lld) .. 8192",
                    (long long)p->mesh, (long long)p->per_axis);
        return -1;
    }
    /* the run's memory, the positions handed back included, before the
     * command allocates them (the library checks it again) */
    if (tbrf_io_budget_check(NULL, "the glass", bytes, err, sizeof err)) {
        cli_errline("arepo glass: %s", err);
        return -1;
    }
    static const char *const PREC[] = {"float", "double"};
    tbrf_arepo_header_init(h);
    int prec = val[A_PREC] ? args_choice("--precision", val[A_PREC], PREC, 2) : 1;
    if (prec < 0)
        return -1;
    h->double_precision = prec;
    h->box_size = p->box;
    /* equal masses, the total 1 */
    h->mass_table[1] = 1.0 / ((double)p->per_axis * (double)p->per_axis * (double)p->per_axis);
    return arepo_parse_format(val[A_FORMAT], val[A_PREC], format, &h->double_precision);
}

/* The glass's parameters and how its run ended, recorded in /tbrf. */
static size_t glass_params(const tbrf_ic_glass_params *p, const tbrf_ic_glass_info *info,
                           const char *command, char seed[24], tbrf_arepo_param *par)
{
    snprintf(seed, 24, "%llu", (unsigned long long)p->seed);
    size_t k = 0;
    par[k++] = (tbrf_arepo_param){"command", command, 0};
    par[k++] = (tbrf_arepo_param){"kind", "glass", 0};
    par[k++] = (tbrf_arepo_param){"method", "damped repulsive particle-mesh gravity (CIC, FFT)",
                                  0};
    par[k++] = (tbrf_arepo_param){"particles_per_axis", NULL, (double)p->per_axis};
    par[k++] = (tbrf_arepo_param){"mesh", NULL, (double)(p->mesh ? p->mesh : 4 * p->per_axis)};
    par[k++] = (tbrf_arepo_param){"max_steps", NULL, (double)p->steps};
    par[k++] = (tbrf_arepo_param){"seed", seed, 0};
    par[k++] = (tbrf_arepo_param){"steps", NULL, (double)info->steps};
    par[k++] = (tbrf_arepo_param){"best_step", NULL, (double)info->best_step};
    par[k++] = (tbrf_arepo_param){"converged", NULL, (double)info->converged};
    par[k++] = (tbrf_arepo_param){"low_k_power_start", NULL, info->power_start};
    par[k++] = (tbrf_arepo_param){"low_k_power", NULL, info->power_low};
    return k;
}

int cmd_arepo_glass(int argc, char **argv)
{
    const char *val[A_COUNT] = {0};
    int r = args_parse_options("arepo glass", AOPTS, A_COUNT, A_HELP, argc, argv, val);
    if (r == 1) {
        usage_glass();
        return 0;
    }
    if (r < 0)
        return EXIT_USAGE;
    tbrf_ic_glass_params p;
    tbrf_arepo_header h;
    int format = TBRF_AREPO_FORMAT_HDF5;
    if (glass_options(val, &p, &h, &format))
        return EXIT_USAGE;
    const int64_t n = p.per_axis * p.per_axis * p.per_axis;
    char *first = tbrf_arepo_member_name(val[A_OUT], 1, 0, format);
    if (!first) {
        cli_errline("arepo glass: out of memory");
        return EXIT_FAIL;
    }
    const double bytes = (double)n * (6.0 * (h.double_precision ? 8.0 : 4.0) + 4.0);
    int rc = cli_check_output("arepo glass", first, bytes, bytes);
    free(first);
    if (rc)
        return rc;
    double *xyz = malloc(sizeof *xyz * 3 * (size_t)n);
    if (!xyz) {
        cli_errline("arepo glass: out of memory for %lld particles", (long long)n);
        return EXIT_FAIL;
    }
    tbrf_ic_glass_info info;
    char msg[1024];
    int st = tbrf_ic_glass_make(&p, xyz, &info, NULL, NULL, msg, sizeof msg);
    if (st != TBRF_OK) {
        cli_errline("arepo glass: %s", msg);
        free(xyz);
        return st == TBRF_ERR_INVALID || st == TBRF_ERR_SIZE ? EXIT_USAGE : EXIT_FAIL;
    }
    char *command = request_command(argc + 1, argv - 1); /* "arepo glass ..." */
    char seed[24];
    tbrf_arepo_param par[16];
    const size_t np = glass_params(&p, &info, command, seed, par);
    tbrf_arepo_particles t[6];
    memset(t, 0, sizeof t);
    t[1] = (tbrf_arepo_particles){n, xyz, NULL, NULL, NULL, 1};
    if (tbrf_arepo_write_format(val[A_OUT], &h, t, par, np, format, msg, sizeof msg)) {
        cli_errline("arepo glass: %s", msg);
        rc = EXIT_FAIL;
    }
    if (rc == 0 && !val[A_QUIET]) {
        fprintf(stderr, "glass: %d steps%s, the positions of step %d: low-k power %.3g of "
                "Poisson (start %.3g), last step's rms move %.3g spacings\n", (int)info.steps,
                info.converged ? " (the low-k power stopped falling)" : " (all of --steps)",
                (int)info.best_step, info.power_low, info.power_start, info.rms_step);
        arepo_say_wrote_format(val[A_OUT], 1, format, n, "glass particles (PartType1)",
                               h.double_precision);
    }
    free(command);
    free(xyz);
    return rc;
}
