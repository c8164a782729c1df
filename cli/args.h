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

/* An option of a subcommand: its name ("--seed") and whether it takes a
 * value. */
typedef struct args_opt {
    const char *name;
    int takes_value;
} args_opt;

/* Fills val[0..nopts-1] from argv (argv[0] is the subcommand `cmd`).
 * Accepts "--opt VALUE" and "--opt=VALUE"; a flag gets "". Unknown,
 * repeated and valueless options and non-option arguments are refused
 * with one "tbrf: CMD: ..." line on stderr. Stops at option `help`.
 * A few older spellings (--h for --hubble, --n-s for --ns, --z for
 * --redshift, --omega0 for --omega-m, --omega-baryon for --omega-b) fill
 * the option of the newer name when the command has it.
 * Returns 0, 1 if `help` was given, or -1 after an error. */
int args_parse_options(const char *cmd, const args_opt *opts, int nopts, int help, int argc,
                       char **argv, const char **val);

/* A word of subcommand `cmd` that is none of its options: an unknown
 * "--" option, or its one input file, stored in *file. Returns 0, or -1
 * after a "tbrf: CMD: ..." line (unknown option, or a second file). */
int args_file(const char *cmd, const char *word, const char **file);

/* The index of s among names[0..n) (the values of option opt), or -1
 * after "tbrf: OPT: 'S' is not A, B or C" on stderr. */
int args_choice(const char *opt, const char *s, const char *const *names, int n);

#endif
