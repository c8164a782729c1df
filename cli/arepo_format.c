/* arepo_format.c — the output layouts of `tbrf arepo cosmo` and `tbrf
 * arepo gas` (--format hdf5|gadget1|gadget2, doc/arepo.md "Gadget binary
 * files"): the option, the members' and side file's names for the
 * checks against the inputs, and the line that says what was written. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"
#include "cli.h"
#include "io/tbrf_io.h"
#include "tbrf_arepo.h"

int arepo_parse_format(const char *val, const char *prec, int *format,
                       int32_t *double_precision)
{
    static const char *const FORMATS[] = {"hdf5", "gadget1", "gadget2"};
    *format = TBRF_AREPO_FORMAT_HDF5;
    if (!val)
        return 0;
    int f = args_choice("--format", val, FORMATS, 3);
    if (f < 0) /* args_choice said which names are valid */
        return -1;
    *format = f;
    /* Gadget's default is float32 (INPUT_IN_DOUBLEPRECISION off) */
    if (f != TBRF_AREPO_FORMAT_HDF5 && !prec)
        *double_precision = 0;
    return 0;
}

int arepo_refuse_format_inputs(const char *cmd, const char *base, int nfiles, int format,
                               const char *const *in_paths, const char *const *in_what, int nin)
{
    /* an HDF5 set has no side file: its record is member 0, checked already */
    int names = nfiles + (format != TBRF_AREPO_FORMAT_HDF5);
    int rc = 0;
    for (int f = 0; f < names && rc == 0; f++) {
        char *name = f < nfiles ? tbrf_arepo_member_name(base, nfiles, f, format)
                                : tbrf_arepo_record_name(base, nfiles, 0, format);
        if (!name) {
            cli_errline("%s: out of memory", cmd);
            return EXIT_FAIL;
        }
        rc = cli_refuse_inputs(cmd, base, &name, 1, in_paths, in_what, nin);
        free(name);
    }
    return rc;
}

void arepo_say_wrote_format(const char *base, int files, int format, int64_t n,
                            const char *what, int dbl)
{
    if (format == TBRF_AREPO_FORMAT_HDF5) {
        arepo_say_wrote(base, files, n, what, dbl);
        return;
    }
    double bytes = 0;
    for (int i = 0; i < files; i++) {
        char *name = tbrf_arepo_member_name(base, files, i, format);
        struct stat st;
        if (name && stat(name, &st) == 0)
            bytes += (double)st.st_size;
        free(name);
    }
    char *first = tbrf_arepo_member_name(base, files, 0, format);
    char *last = tbrf_arepo_member_name(base, files, files - 1, format);
    char *side = tbrf_arepo_record_name(base, files, 0, format);
    char size[32], e1[1024], e2[1024], e3[1024];
    cli_human_size(bytes, size, sizeof size);
    const char *fmt = format == TBRF_AREPO_FORMAT_GADGET1 ? "Gadget format 1" : "Gadget format 2";
    char count[32] = "";
    if (files > 1)
        snprintf(count, sizeof count, " (%d files)", files);
    if (first && last && side)
        fprintf(stderr, "wrote %s%s%s%s: %s initial conditions, %lld %s, %s, %s; parameters in "
                "%s\n", tbrf_io_escape(first, e1, sizeof e1), files > 1 ? " ... " : "",
                files > 1 ? tbrf_io_escape(last, e2, sizeof e2) : "",
                count, fmt, (long long)n, what, dbl ? "float64" : "float32", size,
                tbrf_io_escape(side, e3, sizeof e3));
    free(first);
    free(last);
    free(side);
}
