/* pick.h — which part of a grid file `tbrf preview` and `tbrf spectrum`
 * show: a scalar grid whole; of a vector grid a component or the
 * magnitude (or all components, for the spectrum's solenoidal and
 * compressive parts); of a `tbrf drive` series one frame, by number or
 * by time. A choice the file needs and the command line lacks is refused
 * with the valid choices named. */
#ifndef TBRF_CLI_PICK_H
#define TBRF_CLI_PICK_H

#include <stdint.h>

#include "io/tbrf_io.h"

/* The words of the command line (NULL: not given). */
typedef struct pick_args {
    const char *component; /* --component x|y|z|magnitude */
    const char *frame;     /* --frame N */
    const char *time;      /* --time T */
} pick_args;

typedef struct pick {
    tbrf_io_layout L;
    int comp;          /* 0..ncomp-1, TBRF_IO_MAGNITUDE or TBRF_IO_ALL_COMPONENTS; 0 for a
                          scalar */
    int64_t frame;     /* 0 for a single field */
    double time;       /* the frame's time (NaN: not a series) */
    char what[160];    /* for titles: "x component, t = 0.5 (frame 2 of 9)"; "" for a scalar */
    char label[200];   /* the quantity with its units: "field_x", "|field|", "field [K]" */
} pick;

/* Resolves a's words against the file's layout into *p. cmd names the
 * command in messages; all: a vector with no --component means all its
 * components (else the component is a required choice); magnitude: the
 * magnitude may be chosen. Returns 0, EXIT_USAGE (a choice missing,
 * invalid or not applicable, one line naming the valid ones) or
 * EXIT_FAIL (the file cannot be read; one line). */
int pick_resolve(const char *cmd, const char *file, const pick_args *a, int all, int magnitude,
                 pick *p);

/* 1 when file is a `tbrf drive` series at points (/time, /value, no
 * /field grid) or in a 1D box (/field (time, nx, 3)): then one line "CMD:
 * FILE is a series at points ...; CMD needs a grid" (or the reader's
 * naming the 1D series) has been printed. Else 0, nothing printed. */
int pick_points_series(const char *cmd, const char *file);

/* The option words pick_args takes: fills the slot of option o and
 * returns it, or NULL when o is none of them. */
const char **pick_slot(pick_args *a, const char *o);

#endif
