/* request.h — one run of `generate` or `regenerate`: what generates the
 * field and where it goes (not installed).
 *
 * Why one struct: `generate` fills it from the command line and
 * `regenerate` from a file's attributes (tbrf_io_read_meta), and one
 * function, request_plan, turns either into a model and a plan. The
 * generating part is the tbrf_io_meta the output file records, so what a
 * run used and what its file says are the same values by construction. */
#ifndef TBRF_CLI_REQUEST_H
#define TBRF_CLI_REQUEST_H

#include <stdint.h>

#include "cli.h"
#include "io/tbrf_io.h"
#include "tbrf.h"

/* A model the tool knows: its name (--model, the model_kind attribute)
 * and which parameters it takes (MP_* bits) and needs, as the library's
 * table of model kinds says (tbrf_model_kind_params). */
enum {
    MP_INDEX = TBRF_PARAM_INDEX,
    MP_KMIN = TBRF_PARAM_KMIN,
    MP_KMAX = TBRF_PARAM_KMAX,
    MP_LENGTH = TBRF_PARAM_LENGTH,
    MP_NU = TBRF_PARAM_NU,
    MP_TABLE = TBRF_PARAM_TABLE,
    MP_ALPHA = TBRF_PARAM_ALPHA
};

typedef struct cli_model {
    const char *name;
    unsigned allowed, required; /* MP_* */
} cli_model;

/* The model called name, or NULL. */
const cli_model *cli_model_find(const char *name);

/* The models' names, "powerlaw, gaussian, ..." (for messages). */
const char *cli_model_names(void);

/* Prints the models of the library's table for a help text: each name,
 * its summary and the options it needs (and takes), by the names of its
 * parameters (--NAME). */
void cli_model_usage(void);

/* Makes m->model_kind's model from *m, amplitude or variance included.
 * A table comes from m->table_k/p when there are rows, else from
 * m->table_file, parsed by the library. Returns a tbrf status (*out may
 * hold a failed model, for its message) or TBRF_ERR_INVALID with *out
 * NULL for an unknown kind. */
int cli_model_make(const tbrf_io_meta *m, tbrf_model **out);

typedef struct request {
    tbrf_io_meta meta; /* what generates the field; recorded in the file */
    /* Where the positions of a points run come from (generate: --points;
     * regenerate: the file itself). */
    const char *points_from;
    /* regenerate: the file being regenerated (NULL for generate). The
     * output may be none of the inputs (this, points_from, the --table
     * file), compared by device and inode. */
    const char *input;
    /* The axes of meta.lo/hi given (generate --domain) or recorded (a
     * file's domain, for regenerate and sample): they are the plan's
     * domain, and positions outside them are refused. 0: the domain is
     * derived from the geometry (grid cells / points' bounding box). */
    int domain_dim;
    /* generate: how many values --box and --box-origin gave (0: none),
     * checked against the geometry's dimension in request_plan. */
    int box_dim, box_origin_dim;
    /* generate without --lines: request_plan picks a turning-bands grid's
     * lines: the library's default for the geometry (tbrf_default_lines). */
    int lines_auto;
    /* sample: the recorded field at a new geometry (its messages advise
     * sample's options) */
    int sampling;
    /* Output and execution: free to choose, they never change values. */
    const char *out;
    const char *format; /* the output format's name in io's registry ("hdf5", "netcdf"):
                           --format NAME, else the one OUT's suffix chooses */
    int compress, xdmf, quiet, report;
    /* Owned, released by request_free. */
    char *command;
    tbrf_model *model;
    tbrf_model *target; /* --lognormal density target: the contrast's model (model
                           is then the derived Gaussian's) */
    tbrf_plan *plan;
    double *xyz;               /* all positions (points files read whole) */
    tbrf_io_points_reader *pts; /* or /points read in pieces (HDF5 input) */
    double *table_k, *table_p; /* the table's rows, from the library */
} request;

/* The options of generate and regenerate that choose where and how the
 * field is written and computed, never its values (NULL/0: not given). */
typedef struct output_args {
    const char *out, *format, *threads, *chunk;
    int compress, quiet, no_xdmf, report;
} output_args;

/* Checks and stores them in r (out, format, compression, XDMF, threads,
 * chunk). Returns 0, or EXIT_USAGE after one "tbrf: ..." line. */
int request_output(request *r, const output_args *a);

/* An empty request: meta "not applicable", nothing owned. */
void request_init(request *r);

/* Releases what the request owns (and the meta, if read from a file). */
void request_free(request *r);

/* The one step from a request to a plan: makes the model, records the
 * table rows the library parsed, reads the positions of a points run,
 * derives the domain (and the default resolution) from the geometry,
 * makes the plan and sets its grid or points; checks the disk space of a
 * grid. Returns 0 or an EXIT_* status after one "tbrf: ..." line. */
int request_plan(request *r);

/* The memory the parameters recorded in FILE's *m ask for (lines x
 * samples, or the FFT's grid), checked against the budget before the
 * plan allocates it. 0, or EXIT_FAIL after one message. */
int request_check_budget(const tbrf_io_meta *m, const char *file);

/* Runs a planned request: refuses an output that is one of the inputs
 * or whose side file would be the output or an input, streams or
 * computes the values into the output file, publishes it and its XDMF
 * side file together (temporaries + renames), prints the --report.
 * Returns 0 or an EXIT_* status after one "tbrf: ..." line. */
int request_run(request *r);

/* Refuses (EXIT_USAGE after one message) an output that is one of the
 * inputs (input, points_from, a generate --table file; by device and
 * inode), or whose XDMF side file would be the output or an input.
 * request_plan and request_run call it. */
int request_check_paths(const request *r);

/* Removes what a successful request_run published (the output and its
 * side file), e.g. when regenerate --check then finds it differs. */
void request_discard_output(const request *r);

/* --spacing D|DX,DY[,DZ] and --origin X,Y[,Z] of a grid of m->dim axes
 * into m (cmd_generate.c; sample shares them). 0, or -1 after one
 * message. */
int generate_parse_spacing(const char *s, tbrf_io_meta *m);
int generate_parse_origin(const char *s, tbrf_io_meta *m);

/* The command line, quoted where needed, for the file's `command`
 * attribute (malloc'ed; NULL if out of memory). */
char *request_command(int argc, char **argv);

/* Splits a command request_command wrote (s, changed in place) into at
 * most max words w (words with blanks or quotes inside single quotes),
 * for `regenerate` to run it again. Returns the count, or -1 when it is
 * not a command of this form or has more words. */
int request_split_command(char *s, char **w, int max);

#endif
