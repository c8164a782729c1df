/* pick.c — a part of a grid file to draw or measure (see pick.h). */
#define _POSIX_C_SOURCE 200809L

#include "pick.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"

const char **pick_slot(pick_args *a, const char *o)
{
    return strcmp(o, "--component") == 0 ? &a->component
           : strcmp(o, "--frame") == 0   ? &a->frame
           : strcmp(o, "--time") == 0    ? &a->time
                                         : NULL;
}

/* The valid --component words. */
static const char *choices(int nc, int magnitude)
{
    return magnitude ? (nc == 3 ? "x, y, z or magnitude" : "x, y or magnitude")
                     : (nc == 3 ? "x, y or z" : "x or y");
}

/* The component word against a vector of nc components. */
static int component(const char *cmd, const char *file, const char *w, int nc, int magnitude,
                     int *comp)
{
    static const char *const NAMES[3] = {"x", "y", "z"};
    for (int c = 0; c < nc; c++)
        if (strcmp(w, NAMES[c]) == 0)
            return *comp = c, 0;
    if (magnitude && strcmp(w, "magnitude") == 0)
        return *comp = TBRF_IO_MAGNITUDE, 0;
    char esc[128];
    cli_errline("%s: --component '%s' is not one of %s's: %s", cmd,
                tbrf_io_escape(w, esc, sizeof esc), file, choices(nc, magnitude));
    return EXIT_USAGE;
}

/* The frame of a series from --frame N or --time T (the nearest time,
 * which must lie within half a step of T). */
static int frame(const char *cmd, const char *file, const pick_args *a, pick *p)
{
    char err[1024], esc[2048];
    int64_t nt = 0;
    double *t = NULL;
    if (tbrf_io_read_times(file, &nt, &t, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    int rc = 0;
    if (nt != p->L.nt) {
        cli_errline("%s: /time holds %lld times for %lld frames of /field", file, (long long)nt,
                    (long long)p->L.nt);
        rc = EXIT_FAIL;
    } else if (!a->frame && !a->time) {
        cli_errline("%s: %s is a series of %lld frames, t = %g .. %g: choose one with --frame "
                    "0..%lld or --time T", cmd, file, (long long)nt, t[0], t[nt - 1],
                    (long long)(nt - 1));
        rc = EXIT_USAGE;
    } else if (a->frame && a->time) {
        cli_errline("%s: --frame and --time both choose the frame: give one", cmd);
        rc = EXIT_USAGE;
    } else if (a->frame) {
        if (args_int64("--frame", a->frame, 0, nt - 1, &p->frame, err, sizeof err)) {
            cli_errline("%s: %s (%s has frames 0..%lld)", cmd, tbrf_io_escape(err, esc, 512),
                        file, (long long)(nt - 1));
            rc = EXIT_USAGE;
        }
    } else {
        double want;
        if (args_double("--time", a->time, &want, err, sizeof err)) {
            cli_errline("%s: %s", cmd, tbrf_io_escape(err, esc, sizeof esc));
            rc = EXIT_USAGE;
        } else {
            int64_t best = 0;
            for (int64_t i = 1; i < nt; i++)
                if (fabs(t[i] - want) < fabs(t[best] - want))
                    best = i;
            double half = nt > 1 ? 0.5 * fabs(t[nt - 1] - t[0]) / (double)(nt - 1) : 0.0;
            if (fabs(t[best] - want) > half * (1 + 1e-9) + 1e-12 * fabs(want)) {
                cli_errline("%s: --time %g is outside %s's times %g .. %g (every %g)", cmd, want,
                            file, t[0], t[nt - 1], 2 * half);
                rc = EXIT_USAGE;
            }
            p->frame = best;
        }
    }
    if (rc == 0)
        p->time = t[p->frame];
    free(t);
    return rc;
}

/* The title's words and the bar's label. */
static void describe(const char *file, pick *p)
{
    static const char *const AX[3] = {"x", "y", "z"};
    static const char *const SPLIT[3] = {"field_x", "field_y", "field_z"};
    char name[64];
    if (p->L.ncomp == 1 || p->comp == TBRF_IO_ALL_COMPONENTS)
        snprintf(name, sizeof name, "field");
    else if (p->comp == TBRF_IO_MAGNITUDE)
        snprintf(name, sizeof name, "|field|");
    else if (p->L.split)
        snprintf(name, sizeof name, "%s", SPLIT[p->comp]);
    else
        snprintf(name, sizeof name, "field, %s component", AX[p->comp]);
    char units[64] = "";
    if (tbrf_io_dataset_units(file, p->L.split ? "field_x" : "field", units, sizeof units) &&
        (strcmp(units, "1") == 0 || !units[0]))
        units[0] = '\0'; /* dimensionless: no unit to print */
    snprintf(p->label, sizeof p->label, "%s%s%s%s", name, units[0] ? " [" : "", units,
             units[0] ? "]" : "");
    size_t used = 0;
    p->what[0] = '\0';
    if (p->L.ncomp > 1 && p->comp >= 0)
        used = (size_t)snprintf(p->what, sizeof p->what, "%s component", AX[p->comp]);
    else if (p->L.ncomp > 1)
        used = (size_t)snprintf(p->what, sizeof p->what, "%s",
                                p->comp == TBRF_IO_MAGNITUDE ? "magnitude" : "all components");
    if (p->L.nt > 0 && used < sizeof p->what)
        snprintf(p->what + used, sizeof p->what - used, "%st = %g, frame %lld of 0..%lld",
                 used ? ", " : "", p->time, (long long)p->frame, (long long)(p->L.nt - 1));
}

int pick_resolve(const char *cmd, const char *file, const pick_args *a, int all, int magnitude,
                 pick *p)
{
    char err[1024], esc[2048];
    memset(p, 0, sizeof *p);
    p->time = NAN;
    if (tbrf_io_grid_layout(file, &p->L, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    int rc = 0;
    if (p->L.ncomp == 1 && a->component) {
        cli_errline("%s: %s holds a scalar field: --component applies to vector files only", cmd,
                    file);
        return EXIT_USAGE;
    }
    if (p->L.ncomp > 1) {
        if (a->component) {
            rc = component(cmd, file, a->component, p->L.ncomp, magnitude, &p->comp);
        } else if (all) {
            p->comp = TBRF_IO_ALL_COMPONENTS;
        } else {
            cli_errline("%s: %s holds %d-component vectors: choose --component %s", cmd, file,
                        p->L.ncomp, choices(p->L.ncomp, magnitude));
            rc = EXIT_USAGE;
        }
        if (rc)
            return rc;
    }
    if (p->L.nt > 0) {
        if ((rc = frame(cmd, file, a, p)) != 0)
            return rc;
    } else if (a->frame || a->time) {
        cli_errline("%s: %s is a single field, not a series: --%s applies to `tbrf drive` "
                    "series only", cmd, file, a->frame ? "frame" : "time");
        return EXIT_USAGE;
    }
    describe(file, p);
    return 0;
}

int pick_points_series(const char *cmd, const char *file)
{
    char err[1024], esc[2048];
    int64_t nt = 0;
    double *t = NULL;
    tbrf_io_layout L;
    int yes = tbrf_io_read_times(file, &nt, &t, err, sizeof err) == 0;
    const int layout = yes ? tbrf_io_grid_layout(file, &L, err, sizeof err) : 0;
    free(t);
    if (layout == -2) /* a series in a 1D box: the reader's message names it */
        cli_errline("%s: %s", cmd, tbrf_io_escape(err, esc, sizeof esc));
    else if (layout)
        cli_errline("%s: %s is a series at points (/value (time, point, component)); %s needs a "
                    "grid", cmd, file, cmd);
    return layout != 0;
}
