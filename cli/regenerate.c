/* regenerate.c — `tbrf regenerate FILE --out NEW`: reproduce a file's
 * field bit for bit from the attributes it records.
 *
 * Why it works: the field is a pure function of (model, dim, domain,
 * resolution, the math options, seed, realization, position) and every one
 * of these is in the file (DESIGN.md section 3). We rebuild the `generate`
 * options from the attributes, printing doubles with 17 significant digits
 * (which strtod reads back to the same double), and run generate. The
 * positions of a points file are read from the file itself; a tabulated
 * spectrum from its /model_table. The output format is free: an HDF5 file
 * can be regenerated as netCDF and back, with the same values. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "cli.h"
#include "io/tbrf_io.h"

#define MAXARGS 64

/* --check: compares the values of a and b exactly, plane by plane for a
 * grid (so a grid larger than memory can be checked), whole for points.
 * Float values convert to double exactly, so equal doubles mean equal
 * bits in the files. Returns 0 when identical. */
static int check_same(const char *a, const char *b, int is_grid, int64_t nz)
{
    char err[1024];
    int64_t total = 0;
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
            cli_errline("--check: %s", err);
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

typedef struct argv_buf {
    int argc;
    char *argv[MAXARGS];
} argv_buf;

static int push(argv_buf *a, const char *s)
{
    if (a->argc >= MAXARGS - 1)
        return -1;
    char *d = strdup(s);
    if (!d)
        return -1;
    a->argv[a->argc++] = d;
    a->argv[a->argc] = NULL;
    return 0;
}

static int push2(argv_buf *a, const char *opt, const char *val)
{
    return push(a, opt) || push(a, val);
}

static int push_f64(argv_buf *a, const char *opt, tbrf_io_file *f, const char *name, int n)
{
    double v[3];
    int got = tbrf_io_attr_f64(f, name, v, 3);
    if (got <= 0)
        return got; /* absent: not applicable */
    if (n > 0 && got != n)
        return -1;
    char buf[96] = "";
    size_t used = 0;
    for (int i = 0; i < got; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%.17g", i ? "," : "", v[i]);
    return push2(a, opt, buf) ? -1 : 1;
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
           "fails unless they are bitwise equal.\n");
}

int cmd_regenerate(int argc, char **argv)
{
    const char *file = NULL, *out = NULL;
    argv_buf extra = {0};
    argv_buf a = {0};
    int rc = EXIT_FAIL;
    char *table_tmp = NULL;
    tbrf_io_file *f = NULL;
    int check = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            usage();
            return 0;
        }
        int takes = strcmp(o, "--out") == 0 || strcmp(o, "--format") == 0 ||
                    strcmp(o, "--threads") == 0 || strcmp(o, "--chunk") == 0;
        int flag = strcmp(o, "--compress") == 0 || strcmp(o, "--quiet") == 0 ||
                   strcmp(o, "--no-xdmf") == 0;
        if (strcmp(o, "--check") == 0) {
            check = 1;
            continue;
        }
        if (takes) {
            if (i + 1 >= argc) {
                cli_errline("regenerate: %s needs a value", o);
                return EXIT_USAGE;
            }
            if (strcmp(o, "--out") == 0) {
                if (out) {
                    cli_errline("regenerate: --out given twice");
                    return EXIT_USAGE;
                }
                out = argv[++i];
            } else if (push2(&extra, o, argv[++i])) {
                goto nomem;
            }
        } else if (flag) {
            if (push(&extra, o))
                goto nomem;
        } else if (args_file("regenerate", o, &file)) {
            return EXIT_USAGE;
        }
    }
    if (!file || !out) {
        cli_errline("regenerate: usage: tbrf regenerate FILE --out NEW");
        rc = EXIT_USAGE;
        goto done;
    }
    char err[1024];
    f = tbrf_io_open(file, err, sizeof err);
    if (!f) {
        cli_errline("%s", err);
        goto done;
    }
    char kind[64], geometry[16], norm[16], lm[32], prec[16], backend[32], method[32];
    if (tbrf_io_attr_str(f, "model_kind", kind, sizeof kind) != 1 ||
        tbrf_io_attr_str(f, "geometry", geometry, sizeof geometry) != 1) {
        cli_errline("%s was not written by tbrf generate (no model_kind/geometry attributes)", file);
        goto done;
    }
    if (push(&a, "generate") || push2(&a, "--model", kind))
        goto nomem;
    int e = 0;
    e |= push_f64(&a, "--index", f, "model_index", 1) < 0;
    e |= push_f64(&a, "--kmin", f, "model_kmin", 1) < 0;
    e |= push_f64(&a, "--kmax", f, "model_kmax", 1) < 0;
    e |= push_f64(&a, "--length", f, "model_length", 1) < 0;
    /* The von Karman model is Matern with a fixed nu, not an option. */
    if (strcmp(kind, "vonkarman") != 0)
        e |= push_f64(&a, "--nu", f, "model_nu", 1) < 0;
    if (tbrf_io_attr_str(f, "normalization", norm, sizeof norm) == 1 && strcmp(norm, "amplitude") == 0)
        e |= push_f64(&a, "--amplitude", f, "amplitude", 1) <= 0;
    else
        e |= push_f64(&a, "--variance", f, "variance", 1) <= 0;
    if (strcmp(kind, "table") == 0) {
        size_t n;
        double *k, *p;
        if (tbrf_io_read_table(f, &n, &k, &p)) {
            cli_errline("%s: a table model but no /model_table to regenerate it from", file);
            goto done;
        }
        /* The library reads tables from text; 17 digits make it exact. */
        const char *td = getenv("TMPDIR");
        size_t tl = strlen(td && td[0] ? td : "/tmp") + 32;
        table_tmp = malloc(tl);
        int fd = -1;
        if (table_tmp) {
            snprintf(table_tmp, tl, "%s/tbrf-table-XXXXXX", td && td[0] ? td : "/tmp");
            fd = mkstemp(table_tmp);
        }
        FILE *tf = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!tf) {
            cli_errline("cannot write a temporary table file: %s", table_tmp ? table_tmp : "");
            if (fd >= 0)
                close(fd);
            free(k);
            free(p);
            goto done;
        }
        fprintf(tf, "# /model_table of %s\n", file);
        for (size_t i = 0; i < n; i++)
            fprintf(tf, "%.17g %.17g\n", k[i], p[i]);
        free(k);
        free(p);
        if (fclose(tf) != 0) {
            cli_errline("cannot write the temporary table file %s", table_tmp);
            goto done;
        }
        e |= push2(&a, "--table", table_tmp);
    }
    int64_t dim = 0, counts[3], lines, over, pad;
    uint64_t seed, real;
    if (tbrf_io_attr_i64(f, "dim", &dim, 1) != 1 || (dim != 2 && dim != 3) ||
        tbrf_io_attr_i64(f, "lines", &lines, 1) != 1 ||
        tbrf_io_attr_i64(f, "oversampling", &over, 1) != 1 ||
        tbrf_io_attr_i64(f, "max_padding", &pad, 1) != 1 ||
        tbrf_io_attr_u64(f, "seed", &seed) != 1 || tbrf_io_attr_u64(f, "realization", &real) != 1 ||
        tbrf_io_attr_str(f, "line_method", lm, sizeof lm) != 1 ||
        tbrf_io_attr_str(f, "precision", prec, sizeof prec) != 1) {
        cli_errline("%s: incomplete tbrf attributes (dim, lines, oversampling, max_padding, seed, "
                    "realization, line_method, precision)",
                    file);
        goto done;
    }
    char buf[128];
    if (strcmp(geometry, "grid") == 0) {
        if (tbrf_io_attr_i64(f, "grid_counts", counts, 3) != dim) {
            cli_errline("%s: no grid_counts attribute", file);
            goto done;
        }
        if (dim == 3)
            snprintf(buf, sizeof buf, "%lldx%lldx%lld", (long long)counts[0], (long long)counts[1],
                     (long long)counts[2]);
        else
            snprintf(buf, sizeof buf, "%lldx%lld", (long long)counts[0], (long long)counts[1]);
        e |= push2(&a, "--grid", buf);
        e |= push_f64(&a, "--spacing", f, "grid_spacing", (int)dim) <= 0;
        e |= push_f64(&a, "--origin", f, "grid_origin", (int)dim) <= 0;
    } else {
        e |= push2(&a, "--points", file);
    }
    e |= push_f64(&a, "--resolution", f, "resolution", 1) <= 0;
    snprintf(buf, sizeof buf, "%lld", (long long)lines);
    e |= push2(&a, "--lines", buf);
    snprintf(buf, sizeof buf, "%lld", (long long)over);
    e |= push2(&a, "--oversampling", buf);
    e |= push2(&a, "--line-method", lm);
    snprintf(buf, sizeof buf, "%lld", (long long)pad);
    e |= push2(&a, "--max-padding", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
    e |= push2(&a, "--seed", buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)real);
    e |= push2(&a, "--realization", buf);
    e |= push2(&a, "--precision", prec);
    /* Bitwise equality holds on one backend; use the one that ran. */
    if (tbrf_io_attr_str(f, "backend", backend, sizeof backend) == 1)
        e |= push2(&a, "--backend", backend);
    /* The method that ran (never "auto"), and whether the field was
     * asked to be periodic, where the file records them. */
    int64_t periodic = 0;
    if (tbrf_io_attr_i64(f, "periodic", &periodic, 1) == 1 && periodic)
        e |= push(&a, "--periodic");
    if (tbrf_io_attr_str(f, "method", method, sizeof method) == 1)
        e |= push2(&a, "--method", method);
    e |= push2(&a, "--out", out);
    for (int i = 0; i < extra.argc; i++)
        e |= push(&a, extra.argv[i]);
    if (e) {
        cli_errline("%s: an attribute has an unexpected type or size; cannot regenerate", file);
        goto done;
    }
    tbrf_io_file_close(f);
    f = NULL;
    rc = cli_generate(a.argc, a.argv);
    if (rc == 0 && check &&
        check_same(file, out, strcmp(geometry, "grid") == 0, dim == 3 ? counts[2] : 1))
        rc = EXIT_FAIL;
    goto done;
nomem:
    cli_errline("out of memory");
done:
    tbrf_io_file_close(f);
    if (table_tmp) {
        unlink(table_tmp);
        free(table_tmp);
    }
    for (int i = 0; i < a.argc; i++)
        free(a.argv[i]);
    for (int i = 0; i < extra.argc; i++)
        free(extra.argv[i]);
    return rc;
}
