/* spectrum_model.h — the model line of `tbrf spectrum`: what a shell of
 * the measurement of a generated file should hold (not installed).
 *
 * The file's own model, rebuilt from its attributes: an isotropic scalar
 * or vector field's P(k) at the shell's k; an anisotropic one's mean over
 * the shell's directions of det S P(|S R^T k|) (analysis/shell_model.h:
 * the quadrature and its accuracy); a lognormal density's (the measured
 * values are rho/rho_mean): with a density target the contrast's model
 * (what g's derived spectrum realises), with a Gaussian target the
 * transform of exp(C_g) - 1 of g's model. */
#ifndef TBRF_CLI_SPECTRUM_MODEL_H
#define TBRF_CLI_SPECTRUM_MODEL_H

#include <stddef.h>

#include "io/tbrf_io.h"
#include "tbrf.h"

typedef struct spec_model {
    tbrf_model *model;  /* the isotropic model (a lognormal Gaussian target: g's) */
    int dim;            /* the file's dimension */
    int lognormal;      /* meta's lognormal: 0, TBRF_IO_LOGNORMAL_DENSITY or _GAUSSIAN */
    double factor;      /* a lognormal density's exp(var_resolved - v) (1 otherwise) */
    double *tk, *tp;    /* a Gaussian target's density spectrum, rows in ln k */
    size_t tn;
    int anis;           /* the model is anisotropic */
    double scale[3];
    double qerr;        /* the largest quadrature error estimate of the shells */
    char label[256];    /* what P_model is, for the table's header */
} spec_model;

/* Rebuilds *meta's model (meta's normalisation as the plan used it) for
 * shells up to kmax on a grid whose diagonal is diag. 0, or -1 after one
 * message naming file. */
int spec_model_make(spec_model *sm, tbrf_io_meta *meta, const char *file, double kmax,
                    double diag);

/* The model of the shell at k in dimension dim (NaN where it fails). */
double spec_model_shell(spec_model *sm, int dim, double k);

void spec_model_free(spec_model *sm);

#endif
