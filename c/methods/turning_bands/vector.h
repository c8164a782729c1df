/* vector.h — vector turning bands: each line l carries a constant vector
 * amplitude e_l = zeta (g - (g.d) d) + (1 - zeta) (g.d) d of a standard
 * normal dim-vector g drawn for (seed, realization, line), d the line's
 * direction, so the line's contribution e_l Z_l(x.d) has zero divergence
 * (zeta = 1: e_l is perpendicular to d) or zero curl (zeta = 0: e_l is
 * along d) identically. Component c of the field is the scalar projection
 * of the lines weighted by e_{l,c} times `scale` (doc/method.md, "Vector
 * fields"). */
#ifndef TBRF_VECTOR_H
#define TBRF_VECTOR_H

#include <stdint.h>

/* Philox word 1 of the amplitudes' counters: 0x20000000 | line (lines
 * < 2^24), a stream the lines (line index, 0x40000000 | line, 0xFFFFFFFF)
 * and the FFT modes (bit 31 set) never use. */
#include "core/streams.h" /* TBRF_STREAM_VECTOR */

/* The normalisation of every component to the scalar field's variance:
 * sqrt(dim / (zeta^2 (dim - 1) + (1 - zeta)^2)). */
double tbrfi_vector_scale(int dim, double zeta);

/* e_l (3 doubles per line, the unused third 0 in 2D) of the L lines whose
 * directions are axis[3l..3l+2] (any positive scale), times
 * tbrfi_vector_scale. */
void tbrfi_vector_amplitudes(int dim, int L, const double *axis, uint64_t seed, uint64_t realization,
                             double zeta, double *amp);

/* out[c][l*M + j] = amp[3l + c] * lines[l*M + j] for c < ncomp, the line
 * sets the backends project, one per component. */
void tbrfi_vector_weight_lines(int ncomp, int L, int64_t M, const double *lines, const double *amp,
                               int threads, double *out);

#endif
