/* cmd_arepo_regen.c — `tbrf regenerate` of an AREPO initial-condition file:
 * the file's /tbrf group records the command that
 * wrote it with every parameter, so the same command with another --out
 * remakes it, and --check compares every particle dataset bit for bit.
 * File arguments of that command (--points, --table, --glass) are read as recorded:
 * relative to the folder regenerate runs in. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "io/gadget.h"
#include "request.h"
#include "io/tbrf_io.h"
#include "tbrf.h"
#include "tbrf_arepo.h"

#define MAX_ARGS 256

/* The number of files of the set (--files, default 1) and which of them
 * `file` is (the N of BASE.N.hdf5; 0 for one file). */
static void set_index(char **w, int n, const char *file, int *nf, int *index)
{
    *nf = 1;
    *index = 0;
    for (int i = 0; i + 1 < n; i++)
        if (strcmp(w[i], "--files") == 0)
            *nf = atoi(w[i + 1]) > 0 ? atoi(w[i + 1]) : 1;
    if (*nf > 1) {
        const char *dot = strrchr(file, '.'), *p = dot;
        while (p && p > file && p[-1] >= '0' && p[-1] <= '9')
            p--;
        if (p && p > file && p[-1] == '.' && p < dot)
            *index = atoi(p);
    }
}

/* Remakes `file` into the set `out` and compares the same member of both
 * sets when check is set. */
static int remake(char **w, int n, const char *file, const char *out, int check)
{
    int nf, index, rc;
    set_index(w, n, file, &nf, &index);
    /* a Gadget set is regenerated from its side file BASE.tbrf.h5, the
     * one compared (its members byte for byte) */
    const int format = tbrf_arepo_file_format(file);
    /* no member of the new set may be the file regenerated (the
     * command's own inputs are refused by the command itself) */
    const char *in[1] = {file};
    const char *what[1] = {"the file being regenerated"};
    if (arepo_refuse_format_inputs("regenerate", out, nf, format, in, what, 1))
        return EXIT_USAGE;
    char *made = tbrf_arepo_record_name(out, nf, index, format);
    if (!made)
        return EXIT_FAIL;
    rc = cmd_arepo(n - 1, w + 1);
    if (rc == 0 && check) {
        char err[1024];
        int c = tbrf_arepo_compare(file, made, err, sizeof err);
        if (c == 0) {
            printf(format == TBRF_AREPO_FORMAT_HDF5
                       ? "check: the particles of %s are bitwise equal to %s\n"
                       : "check: the Gadget files of %s are bitwise equal to those of %s\n",
                   made, file);
        } else {
            char v[64], esc[256];
            tbrf_io_arepo_version(file, v, sizeof v);
            cli_errline("--check: %s: %s", made, err);
            if (v[0] && strcmp(v, tbrf_version()) != 0)
                cli_errline("--check: %s was written by another version of tbrf (%s, this is %s): "
                            "its values are not this version's (doc/design.md, \"Versions\")",
                            file, tbrf_io_escape(v, esc, sizeof esc), tbrf_version());
            for (int i = 0; i <= nf; i++) {
                char *name = i < nf ? tbrf_arepo_member_name(out, nf, i, format)
                                    : format != TBRF_AREPO_FORMAT_HDF5
                                        ? tbrf_arepo_record_name(out, nf, 0, format)
                                        : NULL;
                if (name)
                    unlink(name);
                free(name);
            }
            rc = EXIT_FAIL;
        }
    }
    free(made);
    return rc;
}

int arepo_regenerate(const char *file, const char *out, int check, int quiet)
{
    char *cmd = NULL, err[1024], *w[MAX_ARGS];
    if (io_gadget_sniff(file) > 0) { /* a binary member records nothing */
        char esc[1024];
        cli_errline("regenerate: %s is a Gadget binary file; its set's parameters are in the "
                    "side file BASE.tbrf.h5: regenerate that", tbrf_io_escape(file, esc, sizeof esc));
        return EXIT_USAGE;
    }
    int st = tbrf_arepo_read_command(file, &cmd, err, sizeof err);
    if (st == 1)
        return -1;
    if (st < 0) {
        cli_errline("%s", err);
        return EXIT_FAIL;
    }
    /* A crafted file's command could carry terminal escape sequences:
     * it is shown escaped and never run. */
    for (const char *c = cmd; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            char esc[1024];
            cli_errline("%s: its /tbrf/command holds control characters, which no command of "
                        "tbrf's writes: %s", file, tbrf_io_escape(cmd, esc, sizeof esc));
            free(cmd);
            return EXIT_FAIL;
        }
    /* a member of a mixed set (an interrupted commit) is no set to remake */
    if (tbrf_arepo_check_set(file, err, sizeof err)) {
        cli_errline("regenerate: %s", err);
        free(cmd);
        return EXIT_FAIL;
    }
    int n = request_split_command(cmd, w, MAX_ARGS), rc = EXIT_FAIL, o = -1;
    for (int i = 0; i + 1 < n; i++)
        if (strcmp(w[i], "--out") == 0)
            o = i + 1;
    if (n < 3 || strcmp(w[0], "tbrf") != 0 || strcmp(w[1], "arepo") != 0 || o < 0) {
        cli_errline("%s: its /tbrf/command is not a `tbrf arepo ... --out BASE` command", file);
    } else {
        w[o] = (char *)out;
        int has_quiet = 0;
        for (int i = 0; i < n; i++)
            has_quiet |= strcmp(w[i], "--quiet") == 0;
        if (quiet && !has_quiet && n < MAX_ARGS)
            w[n++] = (char *)"--quiet"; /* regenerate's --quiet silences the remade file's line */
        /* `arepo cosmo` records its --lpt since the option exists: a
         * command without it was written by the Zel'dovich approximation */
        int has_lpt = 0;
        for (int i = 0; i < n; i++)
            has_lpt |= strcmp(w[i], "--lpt") == 0;
        if (n >= 3 && strcmp(w[2], "cosmo") == 0 && !has_lpt && n + 1 < MAX_ARGS) {
            w[n++] = (char *)"--lpt";
            w[n++] = (char *)"1";
        }
        rc = remake(w, n, file, out, check);
    }
    free(cmd);
    return rc;
}
