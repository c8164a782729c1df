/* args.c — strict parsing of option values (see args.h). strtod/strtoll
 * alone accept "12abc", " 5", "nan" and silently saturate on overflow; a
 * typo in a generating parameter must instead stop the run. */
#define _POSIX_C_SOURCE 200809L

#include "args.h"
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void setf(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* A missing or empty value, or one that starts with a space (strtod and
 * strtoll would skip it): "OPT needs KIND". */
static int blank(const char *opt, const char *s, const char *kind, char *err, size_t errlen)
{
    if (s && *s && !isspace((unsigned char)*s))
        return 0;
    setf(err, errlen, "%s needs %s", opt, kind);
    return -1;
}

/* Values are quoted in messages; keep a pathological one short. */
#define SHOWN "'%.60s'"

int args_double(const char *opt, const char *s, double *v, char *err, size_t errlen)
{
    if (blank(opt, s, "a number", err, errlen))
        return -1;
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (*end != '\0') {
        setf(err, errlen, "%s: " SHOWN " is not a number", opt, s);
        return -1;
    }
    if (!isfinite(x)) {
        setf(err, errlen, "%s: " SHOWN " is not a finite number", opt, s);
        return -1;
    }
    if (errno == ERANGE) {
        setf(err, errlen, "%s: " SHOWN " is out of the range of double", opt, s);
        return -1;
    }
    *v = x;
    return 0;
}

int args_positive(const char *opt, const char *s, double *v, char *err, size_t errlen)
{
    double x;
    if (args_double(opt, s, &x, err, errlen))
        return -1;
    if (!(x > 0)) {
        setf(err, errlen, "%s: " SHOWN " must be positive", opt, s);
        return -1;
    }
    *v = x;
    return 0;
}

int args_int64(const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *v, char *err,
               size_t errlen)
{
    if (blank(opt, s, "an integer", err, errlen))
        return -1;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (*end != '\0') {
        setf(err, errlen, "%s: " SHOWN " is not an integer", opt, s);
        return -1;
    }
    if (errno == ERANGE || x < lo || x > hi) {
        setf(err, errlen, "%s: " SHOWN " is out of range (%lld to %lld)", opt, s, (long long)lo,
             (long long)hi);
        return -1;
    }
    *v = x;
    return 0;
}

int args_uint64(const char *opt, const char *s, uint64_t *v, char *err, size_t errlen)
{
    if (blank(opt, s, "an integer", err, errlen))
        return -1;
    /* strtoull accepts "-1" and wraps it to 2^64-1. */
    if (*s == '-' || *s == '+') {
        setf(err, errlen, "%s: " SHOWN " must be an unsigned integer without a sign", opt, s);
        return -1;
    }
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end != '\0') {
        setf(err, errlen, "%s: " SHOWN " is not an integer", opt, s);
        return -1;
    }
    if (errno == ERANGE) {
        setf(err, errlen, "%s: " SHOWN " is larger than 2^64-1", opt, s);
        return -1;
    }
    *v = (uint64_t)x;
    return 0;
}

int args_doubles(const char *opt, const char *s, int maxn, double *v, int *count, char *err,
                 size_t errlen)
{
    if (!s || !*s) {
        setf(err, errlen, "%s needs a value", opt);
        return -1;
    }
    char buf[512];
    if (strlen(s) >= sizeof buf) {
        setf(err, errlen, "%s: value too long", opt);
        return -1;
    }
    strcpy(buf, s);
    int n = 0;
    char *p = buf;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (n == maxn) {
            setf(err, errlen, "%s: " SHOWN " has more than %d values", opt, s, maxn);
            return -1;
        }
        if (args_double(opt, p, &v[n], err, errlen))
            return -1;
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    *count = n;
    return 0;
}

int args_grid(const char *opt, const char *s, int64_t n[3], int *dim, char *err, size_t errlen)
{
    if (!s || !*s) {
        setf(err, errlen, "%s needs NXxNY or NXxNYxNZ", opt);
        return -1;
    }
    int64_t c[3] = {1, 1, 1};
    int k = 0;
    const char *p = s;
    for (;;) {
        if (k == 3) {
            setf(err, errlen, "%s: " SHOWN " has more than three counts", opt, s);
            return -1;
        }
        if (!isdigit((unsigned char)*p)) {
            setf(err, errlen, "%s: " SHOWN " is not NXxNY or NXxNYxNZ with positive counts", opt,
                 s);
            return -1;
        }
        char *end;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        if (errno == ERANGE) {
            setf(err, errlen, "%s: a count in " SHOWN " does not fit in 64 bits", opt, s);
            return -1;
        }
        if (x < 1) {
            setf(err, errlen, "%s: " SHOWN " has a zero count", opt, s);
            return -1;
        }
        c[k++] = x;
        if (*end == '\0')
            break;
        if (*end != 'x' && *end != 'X') {
            setf(err, errlen, "%s: " SHOWN " is not NXxNY or NXxNYxNZ with positive counts", opt,
                 s);
            return -1;
        }
        p = end + 1;
    }
    if (k < 2) {
        setf(err, errlen, "%s: " SHOWN " needs at least two counts (NXxNY)", opt, s);
        return -1;
    }
    int64_t total = 1;
    for (int i = 0; i < 3; i++) {
        if (total > INT64_MAX / c[i]) {
            setf(err, errlen, "%s: " SHOWN " has more cells than fit in a 64-bit count", opt, s);
            return -1;
        }
        total *= c[i];
    }
    for (int i = 0; i < 3; i++)
        n[i] = c[i];
    *dim = k;
    return 0;
}

/* Older spellings still accepted for an option a command has under its
 * one name (the arepo subcommands named the cosmological
 * parameters three ways). Looked up only when the command has no option
 * of that spelling itself. */
static const struct {
    const char *alias, *name;
} ALIASES[] = {
    {"--h", "--hubble"},   {"--n-s", "--ns"},  {"--z", "--redshift"},
    {"--omega0", "--omega-m"}, {"--omega-baryon", "--omega-b"},
};

/* The index of the option spelt a[0..nlen) (or of its alias), or nopts. */
static int find_option(const args_opt *opts, int nopts, const char *a, size_t nlen)
{
    for (int o = 0; o < nopts; o++)
        if (strlen(opts[o].name) == nlen && strncmp(opts[o].name, a, nlen) == 0)
            return o;
    for (size_t k = 0; k < sizeof ALIASES / sizeof ALIASES[0]; k++)
        if (strlen(ALIASES[k].alias) == nlen && strncmp(ALIASES[k].alias, a, nlen) == 0)
            for (int o = 0; o < nopts; o++)
                if (strcmp(opts[o].name, ALIASES[k].name) == 0)
                    return o;
    return nopts;
}

int args_parse_options(const char *cmd, const args_opt *opts, int nopts, int help, int argc,
                       char **argv, const char **val)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0) {
            cli_errline("%s: unexpected argument '%.100s' (options start with --)", cmd, a);
            return -1;
        }
        const char *eq = strchr(a, '=');
        size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
        int o;
        o = find_option(opts, nopts, a, nlen);
        if (o == nopts) {
            cli_errline("%s: unknown option '%.*s' (see tbrf %s --help)", cmd,
                        (int)(nlen > 100 ? 100 : nlen), a, cmd);
            return -1;
        }
        if (o == help)
            return 1;
        if (val[o]) {
            cli_errline("%s: %s given twice", cmd, opts[o].name);
            return -1;
        }
        if (!opts[o].takes_value) {
            if (eq) {
                cli_errline("%s: %s takes no value", cmd, opts[o].name);
                return -1;
            }
            val[o] = "";
        } else if (eq) {
            val[o] = eq + 1;
        } else if (i + 1 < argc) {
            val[o] = argv[++i];
        } else {
            cli_errline("%s: %s needs a value", cmd, opts[o].name);
            return -1;
        }
    }
    return 0;
}

int args_file(const char *cmd, const char *word, const char **file)
{
    if (strncmp(word, "--", 2) == 0) {
        cli_errline("%s: unknown option '%.100s' (see tbrf %s --help)", cmd, word, cmd);
        return -1;
    }
    if (*file) {
        cli_errline("%s: give one file (got '%.100s' and '%.100s')", cmd, *file, word);
        return -1;
    }
    *file = word;
    return 0;
}

int args_choice(const char *opt, const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    char list[256];
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                 i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
    cli_errline("%s: '%.60s' is not %s", opt, s, list);
    return -1;
}
