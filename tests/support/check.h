/* check.h — minimal assertion helpers for tests: count failures, print
 * what failed, and let main() return the failure count. */
#ifndef TBRF_TEST_CHECK_H
#define TBRF_TEST_CHECK_H

#include <stdio.h>

static int check_failures = 0;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            check_failures++;                                               \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

static inline int check_report(const char *name)
{
    if (check_failures)
        fprintf(stderr, "%s: %d check(s) failed\n", name, check_failures);
    else
        printf("%s: all checks passed\n", name);
    return check_failures ? 1 : 0;
}

#endif
