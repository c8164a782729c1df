/* args.h — strict parsing of command-line values for the tbrf tool.
 *
 * Every parser consumes the whole string or fails; numbers must be finite
 * and in range. On failure they write a one-line reason (without the
 * "tbrf: " prefix) into err. */
#ifndef TBRF_CLI_ARGS_H
#define TBRF_CLI_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* A finite double (no NaN, inf, or out-of-range like 1e999). */
int args_double(const char *opt, const char *s, double *v, char *err, size_t errlen);

/* A finite double > 0. */
int args_positive(const char *opt, const char *s, double *v, char *err, size_t errlen);

/* A decimal integer in [lo, hi]. */
int args_int64(const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *v, char *err,
               size_t errlen);

/* A decimal unsigned 64-bit integer (0 .. 2^64-1); a sign is refused. */
int args_uint64(const char *opt, const char *s, uint64_t *v, char *err, size_t errlen);

/* 1 to maxn comma-separated finite doubles; *count gets how many. */
int args_doubles(const char *opt, const char *s, int maxn, double *v, int *count, char *err,
                 size_t errlen);

/* Grid counts "NXxNY" (dim 2, n[2] = 1) or "NXxNYxNZ" (dim 3); each count
 * >= 1 and the product must fit in int64. */
int args_grid(const char *opt, const char *s, int64_t n[3], int *dim, char *err, size_t errlen);

/* Reads a two-column "k P" text table ('#' comments, blank lines skipped)
 * into malloc'ed arrays, for recording it in the output file. The library
 * validates the same file (tbrf_model_table_file) with its own messages. */
int args_read_table(const char *path, size_t *n, double **k, double **p, char *err,
                    size_t errlen);

#endif
