/* zoom.h — `tbrf arepo zoom` (cmd_arepo_zoom.c): the region it parses,
 * handed to arepo cosmo's parse, budget and run (cmd_arepo_cosmo.c), which
 * it shares every other option with. Not installed. */
#ifndef TBRF_CLI_ZOOM_H
#define TBRF_CLI_ZOOM_H

#include "tbrf.h"

typedef struct cli_zoom {
    tbrf_ic_zoom_params params; /* ids point to ids */
    uint64_t *ids;              /* --region ids:FILE's IDs, or NULL */
    char *command;              /* the whole command line, as it is recorded */
    int argc;                   /* arepo zoom's own arguments (argv[0] "zoom"), for a */
    char **argv;                /* rerun on rank 0 alone under mpirun */
} cli_zoom;

/* arepo cosmo's command (argv[0] "cosmo" or "zoom", argv[-1] "arepo")
 * with the zoom's region: zoom NULL is `arepo cosmo`. An exit status. */
int arepo_cosmo_command(int argc, char **argv, const cli_zoom *zoom);

/* `arepo zoom`'s usage after arepo cosmo's options (cmd_arepo_zoom.c). */
void usage_zoom(void);

#endif
