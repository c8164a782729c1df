/* cmd_sample.c — `tbrf sample FILE (--points P | --grid N...) --out OUT`:
 * the field a file records, evaluated at new positions.
 *
 * Everything that defines the field (model, table rows, seed, realization,
 * domain, resolution, method and its options, precision) is read from
 * FILE's attributes by tbrf_io_read_meta, exactly as regenerate reads
 * them; only the geometry is replaced. The recorded domain stays the
 * plan's domain (request.domain_dim), so positions outside it are refused
 * rather than evaluated on lines that do not reach them. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "request.h"

enum {
    S_POINTS, S_GRID, S_ORIGIN, S_SPACING, S_OUT, S_FORMAT, S_COMPRESS, S_QUIET, S_NO_XDMF,
    S_THREADS, S_CHUNK, S_REPORT, S_HELP, S_COUNT
};

static const args_opt OPTS[S_COUNT] = {
    [S_POINTS] = {"--points", 1},   [S_GRID] = {"--grid", 1},       [S_ORIGIN] = {"--origin", 1},
    [S_SPACING] = {"--spacing", 1}, [S_OUT] = {"--out", 1},         [S_FORMAT] = {"--format", 1},
    [S_COMPRESS] = {"--compress", 0}, [S_QUIET] = {"--quiet", 0},  [S_NO_XDMF] = {"--no-xdmf", 0},
    [S_THREADS] = {"--threads", 1}, [S_CHUNK] = {"--chunk", 1},     [S_REPORT] = {"--report", 0},
    [S_HELP] = {"--help", 0},
};

static void usage(void)
{
    printf("usage: tbrf sample FILE (--points P | --grid NXxNY[xNZ] [--origin X,Y[,Z]]\n"
           "                   [--spacing D|DX,DY[,DZ]]) --out OUT [--format hdf5|netcdf]\n"
           "                   [--compress] [--no-xdmf] [--quiet] [--threads T] [--chunk N]\n"
           "                   [--report]\n"
           "\n"
           "Evaluates the field recorded in FILE (written by tbrf generate, regenerate or\n"
           "sample: its model, table, seed, realization, domain, resolution, method and\n"
           "precision) at new positions and writes OUT as generate would, recording\n"
           "FILE's parameters with the new geometry (so OUT can be regenerated too).\n"
           "  --points P     positions, in any format generate --points reads\n"
           "  --grid N...    a grid with as many axes as FILE; --origin and --spacing\n"
           "                 default to FILE's grid (0 and 1 for a points FILE)\n"
           "Positions must lie in FILE's domain (domain_lo, domain_hi). At FILE's own\n"
           "grid the values are FILE's bit for bit; at other positions they equal FILE's\n"
           "field to rounding (doc/cli.md). A FILE made by the FFT method is sampled on\n"
           "its own grid only. stderr gets one 'wrote OUT ...' line unless --quiet.\n");
}

/* The new geometry into r->meta: points, or a grid whose origin and
 * spacing default to FILE's. EXIT_USAGE after one message. */
static int new_geometry(const char *const *val, request *r)
{
    tbrf_io_meta *m = &r->meta;
    char err[512];
    int dim;
    if (!!val[S_GRID] == !!val[S_POINTS]) {
        cli_errline("sample: give exactly one of --grid NXxNY[xNZ] and --points FILE");
        return EXIT_USAGE;
    }
    if (val[S_POINTS]) {
        if (val[S_ORIGIN] || val[S_SPACING] || !val[S_POINTS][0]) {
            cli_errline(val[S_POINTS][0] ? "sample: --spacing and --origin apply to --grid only"
                                         : "--points needs a file name");
            return EXIT_USAGE;
        }
        for (int c = 0; c < 3; c++)
            m->origin[c] = m->spacing[c] = 0.0, m->n[c] = 0;
        m->is_grid = 0;
        m->points_file = r->points_from = val[S_POINTS];
        return 0;
    }
    int64_t n[3];
    if (args_grid("--grid", val[S_GRID], n, &dim, err, sizeof err)) {
        cli_errline("%s", err);
        return EXIT_USAGE;
    }
    if (dim != m->dim) {
        cli_errline("sample: --grid has %d axes but %s holds a %dD field", dim, r->input, m->dim);
        return EXIT_USAGE;
    }
    if (!m->is_grid)
        for (int c = 0; c < 3; c++)
            m->origin[c] = 0.0, m->spacing[c] = 1.0;
    for (int c = 0; c < 3; c++)
        m->n[c] = n[c];
    m->is_grid = 1;
    m->points_file = NULL;
    m->npoints = 0;
    if ((val[S_SPACING] && generate_parse_spacing(val[S_SPACING], m)) ||
        (val[S_ORIGIN] && generate_parse_origin(val[S_ORIGIN], m)))
        return EXIT_USAGE;
    return 0;
}

/* The FFT method's field is the inverse transform of its whole grid, a
 * periodic field defined by that grid: the library would evaluate a
 * different field on any other grid, so only the recorded one is taken. */
static int check_fft(const request *r, const tbrf_io_meta *f)
{
    const tbrf_io_meta *m = &r->meta;
    if (f->method_used != TBRF_METHOD_FFT)
        return 0;
    int same = m->is_grid;
    for (int c = 0; same && c < m->dim; c++)
        same = m->n[c] == f->n[c] && m->origin[c] == f->origin[c] && m->spacing[c] == f->spacing[c];
    if (same)
        return 0;
    cli_errline("sample: %s was made by the FFT method, whose periodic field is defined by its "
                "whole grid (%lldx%lldx%lld): it can be sampled on that grid only",
                r->input, (long long)f->n[0], (long long)f->n[1], (long long)f->n[2]);
    return EXIT_USAGE;
}

/* FILE's request with the new geometry and this command's output. */
static int fill_request(request *r, const char *file, const char *const *val)
{
    char err[1024], esc[2048];
    if (tbrf_io_read_meta(file, &r->meta, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    if (request_check_budget(&r->meta, file))
        return EXIT_FAIL;
    if (r->meta.info.backend >= 0)
        r->meta.opts.backend = r->meta.info.backend;
    r->input = file;
    r->sampling = 1;
    r->domain_dim = r->meta.dim;
    tbrf_io_meta f = r->meta; /* FILE's geometry, for check_fft (numbers only) */
    int rc = new_geometry(val, r);
    if (rc == 0)
        rc = check_fft(r, &f);
    if (rc)
        return rc;
    output_args a = {val[S_OUT], val[S_FORMAT], val[S_THREADS], val[S_CHUNK],
                     val[S_COMPRESS] != NULL, val[S_QUIET] != NULL, val[S_NO_XDMF] != NULL,
                     val[S_REPORT] != NULL};
    return request_output(r, &a);
}

int cmd_sample(int argc, char **argv)
{
    const char *val[S_COUNT] = {0};
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage();
        return 0;
    }
    if (argc < 2 || strncmp(argv[1], "--", 2) == 0 || !argv[1][0]) {
        cli_errline("sample: usage: tbrf sample FILE (--points P | --grid NXxNY[xNZ]) --out OUT");
        return EXIT_USAGE;
    }
    const char *file = argv[1];
    int parsed = args_parse_options("sample", OPTS, S_COUNT, S_HELP, argc - 1, argv + 1, val);
    if (parsed < 0)
        return EXIT_USAGE;
    if (parsed > 0) {
        usage();
        return 0;
    }
    request r;
    request_init(&r);
    int rc = fill_request(&r, file, val);
    if (rc == 0) {
        r.command = request_command(argc, argv);
        rc = request_plan(&r);
    }
    if (rc == 0)
        rc = request_run(&r);
    request_free(&r);
    return rc;
}
