/* cmd_regenerate.c — `tbrf regenerate FILE --out NEW`: reproduce a
 * file's field bit for bit from the attributes it records.
 *
 * Why it works: the field is a pure function of (model, dim, domain,
 * resolution, the math options, seed, realization, position) and every one
 * of these is in the file (doc/design.md, "Determinism"). tbrf_io_read_meta reads
 * them back into the very request `generate` fills from its command line,
 * and the same request_plan/request_run make the field. The positions of
 * a points file are read from the file itself; a tabulated spectrum from
 * its /model_table. The output format is free: an HDF5 file can be
 * regenerated as netCDF and back, with the same values. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "request.h"

/* The version that wrote FILE into buf ("" when it records none). A
 * field depends on the version that made it as well as on its parameters:
 * doc/changelog.md lists the releases whose fields changed. */
static void file_version(const char *file, char *buf, size_t len)
{
    char err[256];
    buf[0] = 0;
    tbrf_io_file *f = tbrf_io_open(file, err, sizeof err);
    if (f && tbrf_io_attr_str(f, "tbrf_version", buf, len) != 1)
        buf[0] = 0;
    if (f)
        tbrf_io_file_close(f);
}

/* Says, once, that FILE comes from another version and may therefore not
 * be remade bit for bit. Returns whether it does. */
static int other_version(const char *file)
{
    char v[64], esc[256];
    file_version(file, v, sizeof v);
    if (!v[0] || strcmp(v, tbrf_version()) == 0)
        return 0;
    fprintf(stderr,
            "tbrf: warning: %s was written by tbrf %s, this is %s: where the method changed "
            "between them (doc/design.md, \"Versions\") the values differ\n",
            file, tbrf_io_escape(v, esc, sizeof esc), tbrf_version());
    return 1;
}

/* --check: compares the values of a and b exactly, plane by plane for a
 * grid (so a grid larger than memory can be checked), whole for points.
 * Float values convert to double exactly, so equal doubles mean equal
 * bits in the files. Returns 0 when identical. */
/* A vector field's values, compared whole (components interleaved). */
static int check_same_vector(const char *a, const char *b)
{
    char err[1024], esc[2048];
    int c1, c2;
    int64_t n1, n2;
    double *v1 = NULL, *v2 = NULL;
    if (tbrf_io_read_vector(a, &c1, &n1, &v1, err, sizeof err) ||
        tbrf_io_read_vector(b, &c2, &n2, &v2, err, sizeof err)) {
        cli_errline("--check: %s", tbrf_io_escape(err, esc, sizeof esc));
        free(v1);
        return -1;
    }
    int same = c1 == c2 && n1 == n2 && memcmp(v1, v2, (size_t)(n1 * c1) * sizeof *v1) == 0;
    free(v1);
    free(v2);
    if (!same) {
        cli_errline("--check: the values of %s differ from those of %s", b, a);
        return -1;
    }
    printf("check: %lld values of %s are bitwise equal to %s\n", (long long)(n1 * c1), b, a);
    return 0;
}

static int check_same(const char *a, const char *b, int is_grid, int64_t nz, int ncomp)
{
    char err[1024], esc[2048];
    int64_t total = 0;
    if (ncomp > 1)
        return check_same_vector(a, b);
    for (int64_t k = 0; k < (is_grid ? nz : 1); k++) {
        int64_t n1, n2, w1, h1, w2, h2;
        double *v1 = NULL, *v2 = NULL;
        int bad;
        if (is_grid) {
            bad = tbrf_io_read_slice(a, 2, k, &w1, &h1, &v1, err, sizeof err) ||
                  tbrf_io_read_slice(b, 2, k, &w2, &h2, &v2, err, sizeof err);
            n1 = w1 * h1;
            n2 = bad ? -1 : w2 * h2;
        } else {
            bad = tbrf_io_read_values(a, &n1, &v1, err, sizeof err) ||
                  tbrf_io_read_values(b, &n2, &v2, err, sizeof err);
        }
        if (bad) {
            cli_errline("--check: %s", tbrf_io_escape(err, esc, sizeof esc));
            free(v1);
            free(v2);
            return -1;
        }
        int same = n1 == n2 && memcmp(v1, v2, (size_t)n1 * sizeof *v1) == 0;
        free(v1);
        free(v2);
        if (!same) {
            if (is_grid)
                cli_errline("--check: %s differs from %s in the z plane %lld", b, a, (long long)k);
            else
                cli_errline("--check: the values of %s differ from those of %s", b, a);
            return -1;
        }
        total += n1;
    }
    printf("check: %lld values of %s are bitwise equal to %s\n", (long long)total, b, a);
    return 0;
}

static void usage(void)
{
    printf("usage: tbrf regenerate FILE --out NEW [--format hdf5|netcdf] [--compress]\n"
           "                       [--threads T] [--chunk N] [--no-xdmf] [--quiet] [--check]\n"
           "\n"
           "Reads the attributes of FILE (written by tbrf generate, HDF5 or netCDF) and\n"
           "writes the same field again to NEW, bit for bit: the model, method, seed,\n"
           "realization and geometry come from FILE (the positions of a points file from\n"
           "FILE itself). NEW may be in the other format. Options that do not change the\n"
           "values (format, compression, threads, chunk) may be chosen freely. --check\n"
           "then compares NEW with FILE value by value (plane by plane for a grid) and\n"
           "fails unless they are bitwise equal. stderr gets one 'wrote NEW ...' line\n"
           "(what was written, its shape, type and size) unless --quiet.\n"
           "A `tbrf drive` series (or an AREPO file of tbrf arepo) is remade by the\n"
           "command it records, with NEW as its --out (a series' positions from FILE's\n"
           "/points; files its --turbgen or --table named are read again); --check then\n"
           "compares /time and every time's values.\n");
}

/* The command line: FILE, and the options that do not change values. */
typedef struct regen_args {
    const char *file;
    output_args out;
    int check;
} regen_args;

/* The slot of an option taking a value, or NULL. */
static const char **value_slot(regen_args *a, const char *o)
{
    return strcmp(o, "--out") == 0       ? &a->out.out
           : strcmp(o, "--format") == 0  ? &a->out.format
           : strcmp(o, "--threads") == 0 ? &a->out.threads
           : strcmp(o, "--chunk") == 0   ? &a->out.chunk
                                         : NULL;
}

static int *flag_slot(regen_args *a, const char *o)
{
    return strcmp(o, "--compress") == 0  ? &a->out.compress
           : strcmp(o, "--quiet") == 0   ? &a->out.quiet
           : strcmp(o, "--no-xdmf") == 0 ? &a->out.no_xdmf
           : strcmp(o, "--check") == 0   ? &a->check
                                         : NULL;
}

/* Returns 0, 1 after --help, or EXIT_USAGE after one message. */
static int parse_regenerate(int argc, char **argv, regen_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char **val = value_slot(a, o);
        int *flag = flag_slot(a, o);
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage();
            return 1;
        }
        if (val) {
            if (i + 1 >= argc) {
                cli_errline("regenerate: %s needs a value", o);
                return EXIT_USAGE;
            }
            if (*val) {
                cli_errline("regenerate: %s given twice", o);
                return EXIT_USAGE;
            }
            *val = argv[++i];
        } else if (flag) {
            *flag = 1;
        } else if (args_file("regenerate", o, &a->file)) {
            return EXIT_USAGE;
        }
    }
    if (!a->file || !a->out.out) {
        cli_errline("regenerate: usage: tbrf regenerate FILE --out NEW");
        return EXIT_USAGE;
    }
    return 0;
}

/* The request the file records, with this command line's output. */
static int fill_request(request *r, const regen_args *a, int argc, char **argv)
{
    char err[1024], esc[2048];
    if (tbrf_io_read_meta(a->file, &r->meta, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    if (request_check_budget(&r->meta, a->file))
        return EXIT_FAIL;
    r->domain_dim = r->meta.dim; /* the recorded domain, not the points' box */
    /* Bitwise equality holds on one backend: use the one that ran. */
    if (r->meta.info.backend >= 0)
        r->meta.opts.backend = r->meta.info.backend;
    /* The positions of a points file are in the file itself. */
    if (!r->meta.is_grid)
        r->meta.points_file = r->points_from = a->file;
    r->command = request_command(argc, argv);
    /* the output may not be the file it is remade from (a --check would
     * compare the new file with itself) */
    r->input = a->file;
    return request_output(r, &a->out);
}

int cmd_regenerate(int argc, char **argv)
{
    regen_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_regenerate(argc, argv, &a);
    if (rc)
        return rc == 1 ? 0 : rc;
    /* an AREPO file of `tbrf arepo` holds no field: its command remakes it */
    rc = arepo_regenerate(a.file, a.out.out, a.check, a.out.quiet);
    if (rc >= 0)
        return rc;
    /* a `tbrf drive` series: its recorded command remakes it */
    const char *refused = a.out.compress ? "--compress" : a.out.chunk ? "--chunk"
                          : a.out.no_xdmf ? "--no-xdmf"
                          : a.out.format && strcmp(a.out.format, "hdf5") ? "--format" : NULL;
    rc = drive_regenerate(a.file, a.out.out, a.out.threads, refused, a.check, a.out.quiet);
    if (rc >= 0)
        return rc;
    request r;
    request_init(&r);
    rc = fill_request(&r, &a, argc, argv);
    if (rc == 0)
        rc = request_plan(&r);
    if (rc == 0)
        rc = request_run(&r);
    int older = rc == 0 && other_version(a.file);
    if (rc == 0 && a.check &&
        check_same(a.file, a.out.out, r.meta.is_grid, r.meta.dim == 3 ? r.meta.n[2] : 1,
                   r.meta.ncomp)) {
        if (older)
            cli_errline("--check: %s was written by another version of tbrf (see the warning "
                        "above): its values are not this version's", a.file);
        /* a file that failed its check is no regenerated file: remove it */
        request_discard_output(&r);
        rc = EXIT_FAIL;
    }
    request_free(&r);
    return rc;
}
