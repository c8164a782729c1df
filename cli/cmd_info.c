/* cmd_info.c — `tbrf info FILE`: what a file holds and how it was made
 * (the io library prints it). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "io/gadget.h"
#include "io/tbrf_io.h"
#include "isotropy.h"
#include "tbrf_arepo.h"

static void usage(void)
{
    printf("usage: tbrf info FILE.h5\n"
           "\n"
           "Lists every group of FILE.h5 with its attributes (an AREPO snapshot's\n"
           "/Header, say), every dataset (shape, type, chunks, filters) with its\n"
           "attributes, and every attribute of the root group, which for files written\n"
           "by `tbrf generate` record the model, the method, the seed, the geometry and\n"
           "the plan. The netCDF library's internal attributes are not shown; at most\n"
           "10000 objects are listed. For a turning-bands grid it says up to which k the\n"
           "spectrum is isotropic and how many lines the grid's Nyquist needs.\n");
}

/* For a turning-bands grid file: up to which k its spectrum is isotropic
 * and how many lines the grid's Nyquist needs (cli/isotropy.c). Files
 * tbrf did not write, or whose parameters do not read, get no line. */
static void isotropy_line(const char *file)
{
    tbrf_io_meta m;
    char err[256];
    if (tbrf_io_read_meta(file, &m, err, sizeof err))
        return;
    if (m.is_grid && m.method_used == TBRF_METHOD_TB && m.opts.lines > 0) {
        cli_isotropy iso;
        cli_isotropy_of(m.dim, m.n, m.spacing, m.opts.lines, &iso);
        printf("isotropy: with %d lines the spectrum's shells scatter like a Gaussian field's "
               "(within 2%%) up to k = %.4g = %.3g fundamentals, %.0f%% of the grid's Nyquist "
               "%.4g; %.0f lines would reach the Nyquist (doc/method.md, \"How many lines\")\n",
               (int)m.opts.lines, iso.kiso < iso.knyq ? iso.kiso : iso.knyq,
               (iso.kiso < iso.knyq ? iso.kiso : iso.knyq) / iso.kf,
               100.0 * (iso.kiso < iso.knyq ? iso.kiso : iso.knyq) / iso.knyq, iso.knyq, iso.need);
    }
    if (m.lognormal) /* what the values are */
        printf("lognormal: the values are rho/rho_mean = exp(g - s2/2), var(ln rho) = s2 = %.6g; "
               "%s has the model's spectrum%s (doc/lognormal.md)\n", m.lognormal_sigma2,
               m.lognormal == TBRF_IO_LOGNORMAL_DENSITY ? "the contrast rho/rho_mean - 1"
                                                        : "the Gaussian g",
               m.lognormal == TBRF_IO_LOGNORMAL_DENSITY && m.lognormal_lost > 0 ? " (g's derived spectrum clipped where negative)" : "");
    tbrf_io_meta_free(&m);
}

int cmd_info(int argc, char **argv)
{
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage();
            return 0;
        }
        if (strncmp(argv[i], "--", 2) == 0) {
            cli_errline("info: unknown option '%.100s' (see tbrf info --help)", argv[i]);
            return EXIT_USAGE;
        }
        if (file) {
            cli_errline("info: give one file (got '%.100s' and '%.100s')", file, argv[i]);
            return EXIT_USAGE;
        }
        file = argv[i];
    }
    if (!file) {
        cli_errline("info: no file given (usage: tbrf info FILE.h5)");
        return EXIT_USAGE;
    }
    char err[1024], esc[2048];
    /* a member of a Gadget binary set: its header and records (the
     * parameters are in the set's side file BASE.tbrf.h5) */
    if (io_gadget_sniff(file) > 0) {
        if (io_gadget_info(file, stdout, err, sizeof err)) {
            cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
            return EXIT_FAIL;
        }
        printf("(tbrf's Gadget sets record their parameters in BASE.tbrf.h5: tbrf info that "
               "file)\n");
        return 0;
    }
    if (tbrf_io_info(file, stdout, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    isotropy_line(file);
    /* a member of an AREPO set mixed by kill -9: listed, then refused */
    if (tbrf_arepo_check_set(file, err, sizeof err)) {
        cli_errline("info: %s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    return 0;
}
