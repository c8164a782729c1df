/* cmd_arepo_zoom.c — `tbrf arepo zoom`: a zoom (multi-resolution)
 * cosmological IC (doc/arepo.md, "Zoom initial conditions"): arepo
 * cosmo's parent box, with a Lagrangian region refined --refine times
 * per axis.
 *
 *   tbrf arepo zoom --refine R --region box:...|sphere:...|ids:FILE [--pad N]
 *                   <arepo cosmo's options>
 *
 * This file takes the zoom's own options out of the line and reads the
 * region; the rest is arepo cosmo's parse, budget and run
 * (arepo_cosmo_command), then the library (tbrf_ic_zoom_make) and the
 * writer (tbrf_arepo_write_zoom). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "io/tbrf_io.h"
#include "request.h"
#include "zoom.h"

void usage_zoom(void)
{
    printf("\n"
           "tbrf arepo zoom: the same with a region refined (a zoom IC; doc/arepo.md):\n"
           "  --refine R        fine particles per parent cell per axis: 2, 4, 8, 16, 32, 64\n"
           "  --region SPEC     the Lagrangian region, in length units:\n"
           "                      box:X0,Y0,Z0,X1,Y1,Z1  the sites in [X0, X1) x ... (X1 past\n"
           "                                             L wraps)\n"
           "                      sphere:X,Y,Z,R         the sites within R (periodic)\n"
           "                      ids:FILE               the lattice sites of the parent IC's\n"
           "                                             particles listed by ParticleID (text,\n"
           "                                             one or more a line, # comments): a\n"
           "                                             halo of an earlier run's snapshot\n"
           "  --pad N           parent cells added around the region on every side (default 1)\n"
           "  --levels L        nested refined levels (default 1): level l of L has\n"
           "                    refinement R / 2^(L - l), level L the region, each coarser\n"
           "                    level the next one's cells padded by --pad more (PartType2\n"
           "                    with a Masses dataset)\n"
           "The parent's cells in the region are replaced by their R^3 particles of the\n"
           "same IC made with G R a side (PartType1; with --gas also PartType0), which\n"
           "share every mode of the parent exactly; the other cells keep the parent's\n"
           "particle (PartType2, MassTable[2]). Not with --glass or --ngenic. Under\n"
           "mpirun each level's IC is split over the ranks (a slab of planes each) and\n"
           "rank 0 writes the set; with --fixed-amplitude rank 0 runs it alone.\n");
}

/* One ID list's words into z->ids (grown as read), bounded by the memory
 * budget. 0, or -1 after a message naming the line. */
static int ids_line(const char *file, char *line, long no, cli_zoom *z, int64_t *cap)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    for (char *w = strtok(line, " \t\r\n,"); w; w = strtok(NULL, " \t\r\n,")) {
        char err[256];
        uint64_t id = 0;
        if (args_uint64("an ID", w, &id, err, sizeof err)) {
            cli_errline("arepo zoom: --region ids:%s line %ld: %s", file, no, err);
            return -1;
        }
        if (z->params.n_ids == *cap) {
            const int64_t more = *cap ? 2 * *cap : 1024;
            if (tbrf_io_budget_check(file, "the region's IDs", (double)more * 8.0, err,
                                     sizeof err)) {
                cli_errline("arepo zoom: %s", err);
                return -1;
            }
            uint64_t *n = realloc(z->ids, (size_t)more * sizeof *n);
            if (!n) {
                cli_errline("arepo zoom: out of memory for the region's IDs");
                return -1;
            }
            z->ids = n;
            *cap = more;
        }
        z->ids[z->params.n_ids++] = id;
    }
    return 0;
}

/* --region ids:FILE: every ID of the file (at least one). */
static int read_ids(const char *file, cli_zoom *z)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        cli_errline("arepo zoom: --region ids:%s: %s", file, strerror(errno));
        return -1;
    }
    char line[4096];
    long no = 0;
    int64_t cap = 0;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        no++;
        if (!strchr(line, '\n') && !feof(f)) {
            cli_errline("arepo zoom: --region ids:%s line %ld is longer than %zu bytes", file,
                        no, sizeof line - 1);
            rc = -1;
        } else {
            rc = ids_line(file, line, no, z, &cap);
        }
    }
    if (rc == 0 && ferror(f)) {
        cli_errline("arepo zoom: --region ids:%s: read error", file);
        rc = -1;
    }
    fclose(f);
    if (rc == 0 && z->params.n_ids == 0) {
        cli_errline("arepo zoom: --region ids:%s lists no ID", file);
        rc = -1;
    }
    z->params.ids = z->ids;
    return rc;
}

/* --region SPEC into z->params. 0, or -1 after the message. */
static int parse_region(const char *spec, cli_zoom *z)
{
    char err[256];
    double v[6];
    int n = 0;
    tbrf_ic_zoom_params *p = &z->params;
    if (strncmp(spec, "box:", 4) == 0) {
        p->region = TBRF_IC_ZOOM_BOX;
        if (args_doubles("--region box", spec + 4, 6, v, &n, err, sizeof err) == 0 && n == 6) {
            for (int a = 0; a < 3; a++)
                p->lo[a] = v[a], p->hi[a] = v[3 + a];
            return 0;
        }
    } else if (strncmp(spec, "sphere:", 7) == 0) {
        p->region = TBRF_IC_ZOOM_SPHERE;
        if (args_doubles("--region sphere", spec + 7, 4, v, &n, err, sizeof err) == 0 &&
            n == 4) {
            for (int a = 0; a < 3; a++)
                p->centre[a] = v[a];
            p->radius = v[3];
            return 0;
        }
    } else if (strncmp(spec, "ids:", 4) == 0 && spec[4]) {
        p->region = TBRF_IC_ZOOM_IDS;
        cli_input(spec + 4, "the --region ids file");
        return read_ids(spec + 4, z);
    } else {
        cli_errline("arepo zoom: --region '%s' is none of box:X0,Y0,Z0,X1,Y1,Z1, "
                    "sphere:X,Y,Z,R and ids:FILE", spec);
        return -1;
    }
    cli_errline("arepo zoom: --region %s takes %s comma-separated numbers", spec,
                p->region == TBRF_IC_ZOOM_BOX ? "6" : "4");
    return -1;
}

/* The zoom's options (--refine, --region, --pad, --levels, each once) out of argv
 * into val; the other words into rest (argv[0] first). 0, or -1 after the
 * message. */
static int split_options(int argc, char **argv, const char *val[4], char **rest, int *nrest)
{
    static const char *const names[4] = {"--refine", "--region", "--pad", "--levels"};
    *nrest = 0;
    for (int i = 0; i < argc; i++) {
        int o = -1;
        size_t len = 0;
        for (int k = 0; k < 4 && o < 0 && i > 0; k++) {
            len = strlen(names[k]);
            if (strncmp(argv[i], names[k], len) == 0 && (!argv[i][len] || argv[i][len] == '='))
                o = k;
        }
        if (o < 0) {
            rest[(*nrest)++] = argv[i];
            continue;
        }
        const char *v = argv[i][len] == '=' ? argv[i] + len + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!v || val[o]) {
            cli_errline("arepo zoom: %s %s", names[o], v ? "given twice" : "needs a value");
            return -1;
        }
        val[o] = v;
    }
    rest[*nrest] = NULL;
    return 0;
}

/* --refine, --region, --pad and --levels into z. 0, or -1 after the
 * message. */
static int parse_zoom(const char *val[4], cli_zoom *z)
{
    char err[256];
    int64_t r = 0, pad = 1, levels = 1;
    tbrf_ic_default_zoom(&z->params);
    if (!val[0] || !val[1]) {
        cli_errline("arepo zoom: %s is required (see tbrf arepo zoom --help)",
                    val[0] ? "--region" : "--refine");
        return -1;
    }
    if (args_int64("--refine", val[0], 2, 64, &r, err, sizeof err) ||
        (val[2] && args_int64("--pad", val[2], 0, 65536, &pad, err, sizeof err)) ||
        (val[3] && args_int64("--levels", val[3], 1, 6, &levels, err, sizeof err))) {
        cli_errline("arepo zoom: %s", err);
        return -1;
    }
    if (r & (r - 1)) {
        cli_errline("arepo zoom: --refine %lld is not a power of two (2, 4, 8, 16, 32, 64)",
                    (long long)r);
        return -1;
    }
    z->params.refinement = (int32_t)r;
    z->params.pad = (int32_t)pad;
    z->params.levels = (int32_t)levels;
    return parse_region(val[1], z);
}

int cmd_arepo_zoom(int argc, char **argv)
{
    const char *val[4] = {NULL, NULL, NULL, NULL};
    char **rest = malloc((size_t)(argc + 2) * sizeof *rest);
    cli_zoom z;
    memset(&z, 0, sizeof z);
    int nrest = 0, rc = EXIT_USAGE;
    if (!rest) {
        cli_errline("arepo zoom: out of memory");
        return EXIT_FAIL;
    }
    /* rest[0] is "arepo": arepo cosmo records argv[-1] .. */
    rest[0] = argv[-1];
    if (split_options(argc, argv, val, rest + 1, &nrest) == 0) {
        int help = 0;
        for (int i = 1; i < nrest; i++)
            help |= strcmp(rest[1 + i], "--help") == 0 || strcmp(rest[1 + i], "-h") == 0;
        if (help || parse_zoom(val, &z) == 0) {
            z.command = help ? NULL : request_command(argc + 1, argv - 1);
            z.argc = argc;
            z.argv = argv;
            rc = arepo_cosmo_command(nrest, rest + 1, help ? NULL : &z);
            if (help)
                usage_zoom();
        }
    }
    free(z.command);
    free(z.ids);
    free(rest);
    return rc;
}
