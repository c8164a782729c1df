/* cmd_mc.c — `tbrf mc`: Monte Carlo estimate of a built-in test integral
 * with its standard error and the exact value.
 *
 *   tbrf mc --integrand NAME --dim D --n N [--seed S]
 *           [--algorithm sequential|vectorized] [--block S]
 *           [--backend cpu|opencl|cuda] [--device I] [--json] */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "cli.h"
#include "tbrf.h"

static void usage(void)
{
    printf("usage: tbrf mc --integrand NAME --dim D --n N [--seed S]\n"
           "               [--algorithm sequential|vectorized] [--block S]\n"
           "               [--backend cpu|opencl|cuda] [--device I] [--json]\n"
           "\n"
           "Estimates the integral of a test function over [0,1]^D from N points of the\n"
           "64-bit LCG, with its standard error, and prints the exact value beside it.\n"
           "\n"
           "  --integrand   oscillatory, productpeak, cornerpeak (D <= 20), gaussian,\n"
           "                continuous, discontinuous (D >= 2) — Genz's families with\n"
           "                a_i = 1, u_i = 0.5 — or nag (NAG D01GBF's example, D = 4)\n"
           "  --dim D       dimension, 1..1024\n"
           "  --n N         number of points, >= 2\n"
           "  --seed S      LCG start x_0 (default 1)\n"
           "  --algorithm   sequential (one LCG step per number, one thread) or\n"
           "                vectorized (block form, OpenMP + SIMD; default); both\n"
           "                use the same points and give the same result\n"
           "  --block S     block size in points for vectorized (default: the\n"
           "                Hockney-Jesshope s* = sqrt(beta N / D), beta measured;\n"
           "                environment TBRF_LCG_BETA overrides beta)\n"
           "  --backend     cpu (default), opencl or cuda (vectorized only)\n"
           "  --device I    GPU device index (default: the first usable one)\n"
           "  --json        one JSON object on stdout: integrand, dim, n, seed,\n"
           "                algorithm, backend, estimate, stderr, exact, seconds\n");
}

enum { O_INTEGRAND, O_DIM, O_N, O_SEED, O_ALGORITHM, O_BLOCK, O_BACKEND, O_DEVICE, O_JSON,
       O_HELP, O_COUNT };
static const args_opt OPTS[O_COUNT] = {{"--integrand", 1}, {"--dim", 1},   {"--n", 1},      {"--seed", 1},
                   {"--algorithm", 1}, {"--block", 1}, {"--backend", 1}, {"--device", 1},
                   {"--json", 0},      {"--help", 0}};

/* One estimate to make. */
typedef struct mc_req {
    int integrand, algorithm, backend;
    int64_t dim, n, block, device;
    uint64_t seed;
} mc_req;

/* The integrand and the numbers. */
static int parse_numbers(const char *const *val, mc_req *q)
{
    for (int o = O_INTEGRAND; o <= O_N; o++)
        if (!val[o]) {
            cli_errline("mc: %s is required (see tbrf mc --help)", OPTS[o].name);
            return -1;
        }
    q->integrand = -1;
    for (int k = 0; tbrf_mc_integrand_name(k); k++)
        if (strcmp(val[O_INTEGRAND], tbrf_mc_integrand_name(k)) == 0)
            q->integrand = k;
    if (q->integrand < 0) {
        cli_errline("mc: unknown integrand '%.100s' (oscillatory, productpeak, cornerpeak, "
                    "gaussian, continuous, discontinuous, nag)", val[O_INTEGRAND]);
        return -1;
    }
    char err[256];
    if (args_int64("--dim", val[O_DIM], 1, 1024, &q->dim, err, sizeof err) ||
        args_int64("--n", val[O_N], 2, (int64_t)1 << 50, &q->n, err, sizeof err) ||
        (val[O_SEED] && args_uint64("--seed", val[O_SEED], &q->seed, err, sizeof err)) ||
        (val[O_BLOCK] && args_int64("--block", val[O_BLOCK], 1, (int64_t)1 << 20, &q->block, err,
                                    sizeof err)) ||
        (val[O_DEVICE] && args_int64("--device", val[O_DEVICE], 0, 1 << 20, &q->device, err,
                                     sizeof err))) {
        cli_errline("mc: %s", err);
        return -1;
    }
    return 0;
}

/* Algorithm and backend, and the combinations that make no sense. */
static int parse_where(const char *const *val, mc_req *q)
{
    static const char *const BACKENDS[] = {"cpu", "opencl", "cuda"};
    static const int BACKEND_IDS[] = {TBRF_BACKEND_CPU, TBRF_BACKEND_OPENCL, TBRF_BACKEND_CUDA};
    q->algorithm = TBRF_MC_VECTORIZED;
    if (val[O_ALGORITHM]) {
        if (strcmp(val[O_ALGORITHM], "sequential") == 0)
            q->algorithm = TBRF_MC_SEQUENTIAL;
        else if (strcmp(val[O_ALGORITHM], "vectorized") != 0) {
            cli_errline("mc: unknown algorithm '%.100s' (sequential, vectorized)",
                        val[O_ALGORITHM]);
            return -1;
        }
    }
    if (val[O_BLOCK] && q->algorithm == TBRF_MC_SEQUENTIAL) {
        cli_errline("mc: --block applies to --algorithm vectorized only");
        return -1;
    }
    q->backend = val[O_BACKEND] ? -1 : TBRF_BACKEND_CPU;
    for (int k = 0; val[O_BACKEND] && k < 3; k++)
        if (strcmp(val[O_BACKEND], BACKENDS[k]) == 0)
            q->backend = BACKEND_IDS[k];
    if (q->backend < 0) {
        cli_errline("mc: unknown backend '%.100s' (cpu, opencl, cuda)", val[O_BACKEND]);
        return -1;
    }
    if (q->backend != TBRF_BACKEND_CPU && q->algorithm == TBRF_MC_SEQUENTIAL) {
        cli_errline("mc: --algorithm sequential runs on the cpu backend only");
        return -1;
    }
    if (val[O_DEVICE] && q->backend == TBRF_BACKEND_CPU) {
        cli_errline("mc: --device applies to --backend opencl or cuda");
        return -1;
    }
    return 0;
}

/* The exact value, or -1 after saying why this dimension has none. */
static int exact_value(const mc_req *q, double *exact)
{
    int st = tbrf_mc_exact(q->integrand, (int)q->dim, NULL, NULL, exact);
    if (st == 0)
        return 0;
    if (st == TBRF_ERR_UNSUPPORTED)
        cli_errline("mc: integrand %s does not support --dim %lld (%s)",
                    tbrf_mc_integrand_name(q->integrand), (long long)q->dim,
                    q->integrand == TBRF_MC_NAG             ? "nag needs 4"
                    : q->integrand == TBRF_MC_CORNER_PEAK   ? "cornerpeak allows at most 20"
                    : q->integrand == TBRF_MC_DISCONTINUOUS ? "discontinuous needs at least 2"
                                                            : "1..1024");
    else
        cli_errline("mc: %s", tbrf_strerror(st));
    return -1;
}

static void print_result(const mc_req *q, const double out[2], double exact, double secs,
                         int json)
{
    const char *alg = q->algorithm == TBRF_MC_SEQUENTIAL ? "sequential" : "vectorized";
    const char *bname = tbrf_backend_name(q->backend);
    const char *name = tbrf_mc_integrand_name(q->integrand);
    if (json) {
        printf("{\"integrand\": \"%s\", \"dim\": %lld, \"n\": %lld, \"seed\": %llu, "
               "\"algorithm\": \"%s\", \"backend\": \"%s\", \"estimate\": %.17g, "
               "\"stderr\": %.17g, \"exact\": %.17g, \"seconds\": %.6f}\n",
               name, (long long)q->dim, (long long)q->n, (unsigned long long)q->seed, alg, bname,
               out[0], out[1], exact, secs);
        return;
    }
    printf("integrand  %s, dim %lld, n %lld, seed %llu (%s, %s)\n", name, (long long)q->dim,
           (long long)q->n, (unsigned long long)q->seed, alg, bname);
    printf("estimate   %.12g +- %.3g\n", out[0], out[1]);
    printf("exact      %.12g (error %.2f standard errors)\n", exact,
           out[1] > 0 ? (out[0] - exact) / out[1] : 0.0);
    printf("seconds    %.3f\n", secs);
}

int cmd_mc(int argc, char **argv)
{
    const char *val[O_COUNT] = {0};
    int parsed = args_parse_options("mc", OPTS, O_COUNT, O_HELP, argc, argv, val);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        usage();
        return 0;
    }
    mc_req q = {.seed = 1, .device = -1};
    double exact, out[2];
    if (parse_numbers(val, &q) || parse_where(val, &q) || exact_value(&q, &exact))
        return EXIT_USAGE;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int st = q.backend == TBRF_BACKEND_CPU
                 ? tbrf_mc_integrate(q.integrand, (int)q.dim, NULL, NULL, q.n, q.seed,
                                     q.algorithm, q.block, out)
                 : tbrf_mc_integrate_device(q.backend, (int)q.device, q.integrand, (int)q.dim,
                                            NULL, NULL, q.n, q.seed, out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (st) {
        cli_errline("mc: %s backend: %s", val[O_BACKEND] ? val[O_BACKEND] : "cpu",
                    tbrf_strerror(st));
        return EXIT_FAIL;
    }
    print_result(&q, out, exact, secs, val[O_JSON] != NULL);
    return 0;
}
