/* particles.c — `preview` and `spectrum` take grids; a particle file
 * (the ICs of `tbrf arepo cosmo` and `arepo gas`) deserves a message that
 * says what it is and what reads it, not the grid readers' "not written
 * by tbrf generate" or "not a file of a format tbrf reads". */
#include "particles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "io/gadget.h"
#include "io/tbrf_io.h"
#include "tbrf_arepo.h"

/* The recorded command's first three words ("tbrf arepo cosmo") into w. */
static void command_name(const char *cmd, char *w, size_t len)
{
    size_t n = 0;
    int words = 0;
    for (const char *c = cmd; *c && n + 1 < len; c++) {
        if (*c == ' ' && ++words == 3)
            break;
        w[n++] = *c;
    }
    w[n] = '\0';
}

int cli_particles_refuse(const char *cmd, const char *file)
{
    char esc[1024], what[160], err[512];
    const int g = io_gadget_sniff(file);
    char *command = NULL;
    if (g > 0) {
        snprintf(what, sizeof what, "a Gadget format-%d snapshot of particles (parameters in "
                 "the set's side file BASE.tbrf.h5)", g == IO_GADGET_FORMAT1 ? 1 : 2);
    } else if (g == 0 && tbrf_arepo_read_command(file, &command, err, sizeof err) == 0 &&
               command) {
        char name[64];
        command_name(command, name, sizeof name);
        const int side = tbrf_arepo_file_format(file) != TBRF_AREPO_FORMAT_HDF5;
        snprintf(what, sizeof what, "%s of particles written by %s",
                 side ? "the side file of a Gadget set" : "an AREPO HDF5 snapshot", name);
        free(command);
    } else {
        return 0;
    }
    cli_errline("%s: %s is %s; tbrf %s reads the grids of tbrf generate, not particles: read it with "
                "yt (yt.load, which deposits particles onto a grid for slices and projections), "
                "or measure its P(k) with a particle code", cmd,
                tbrf_io_escape(file, esc, sizeof esc), what, cmd);
    return 1;
}
