/* lines.h — the turning-bands line processes: sizing, mode variances and
 * synthesis by one real FFT per line. */
#ifndef TBRF_LINES_H
#define TBRF_LINES_H

#include <stddef.h>
#include <stdint.h>
#include "tbrf.h"

typedef struct line_spec {
    int dim;
    int64_t M;              /* samples per line, even, FFT-friendly */
    double delta;           /* sample spacing */
    double length;          /* Lambda = M * delta */
    double offset;          /* line index of the domain centre: t = s/delta + offset */
    double *mode_var;       /* E|X_m|^2 of the c2r input, m = 0..M/2, interpolation-compensated */
    double variance_resolved; /* expected field variance (before compensation, f-averaged) */
    int padding;            /* circulant doublings used */
} line_spec;

/* Sizes the lines for a domain whose diagonal is `extent` (no point is
 * farther than extent/2 from the centre) and fills the mode variances.
 * Rules (doc/method.md, "Lines"): delta = resolution / oversampling, halved
 * (modes above the band edge oversampling pi / resolution zero) where the
 * band's upper half holds over 1% of the variance;
 * Lambda >= 2 extent + the model's correlation scale, so wrap-around never
 * correlates distant points; M rounded up to a product of small primes. On failure writes a
 * message (msg, msgsize) and returns a status. */
int tbrfi_lines_spec_build(line_spec *s, const tbrf_model *model, int dim, double extent,
                     double resolution, const tbrf_opts *opts, char *msg, size_t msgsize);

void tbrfi_lines_spec_free(line_spec *s);

/* Interpolation loss of a mode at kappa*delta = theta, averaged over the
 * position between two samples: mean of |(1-f) + f e^{i theta}|^2 over f. */
double tbrfi_lines_interp_gain(double theta);

/* Synthesises the L lines of one realization into lines[l*M + j] (must not
 * alias). Random modes come from Philox keyed by seed with counter (mode
 * pair, line, realization), so a line's samples do not depend on threads.
 * fft_plan is an FFTW c2r plan of size M made with FFTW_UNALIGNED.
 * Returns TBRF_OK or TBRF_ERR_NO_MEMORY. */
/* The L lines' sub-sample shifts of (seed, realization), each in (0, 1):
 * Philox block (0, TBRF_STREAM_SHIFT | l), word 0 (tbrf_u01_open). Added
 * to the plan's offset, they place each line's sample grid at its own
 * random sub-sample position (doc/method.md, "Interpolation"). */
void tbrfi_lines_shifts(uint64_t seed, uint64_t realization, int L, double *shift);

int tbrfi_lines_synthesize(const line_spec *s, void *fft_plan, uint64_t seed, uint64_t realization,
                     int L, int threads, double *lines);

/* Synthesises the same L lines as tbrfi_lines_synthesize but keeps only a
 * window of each: samples first[l] .. first[l] + count[l] - 1 of line l go
 * to out + base[l] (doubles, or floats rounded from the double samples when
 * precision is TBRF_FLOAT). The kept samples are bitwise those of the full
 * lines; the memory is sum(count) values plus one line of M samples per
 * thread. Returns TBRF_OK or TBRF_ERR_NO_MEMORY. */
int tbrfi_lines_synthesize_windows(const line_spec *s, void *fft_plan, uint64_t seed,
                                   uint64_t realization, int L, int threads, const int64_t *first,
                                   const int64_t *count, const int64_t *base, int precision,
                                   void *out);

/* Makes / destroys the c2r plan under a lock: FFTW's planner is not
 * thread-safe, and separate tbrf plans may be made from several threads. */
void *tbrfi_lines_fft_plan(int64_t M);
void tbrfi_lines_fft_destroy(void *plan);

/* The lock every FFTW planner call of the library takes (c/methods/fft/fft.c
 * plans its multi-dimensional transforms under it too). */
void tbrfi_lines_fftw_lock(void);
void tbrfi_lines_fftw_unlock(void);

#endif
