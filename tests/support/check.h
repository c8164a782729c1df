/* check.h — the one assertion helper of the C tests (tests/README.md).
 *
 *   CHECK(cond, fmt, ...)              counts a check; on failure prints
 *                                      "FAIL file:line: cond: message" on
 *                                      stderr and counts the failure. An
 *                                      expression, 1 or 0, so
 *                                      `if (!CHECK(...)) return;` works;
 *                                      the message's arguments are
 *                                      evaluated only on failure.
 *   CHECK_NEAR(got, want, tol, fmt, ...)
 *                                      |got - want| <= tol (a NaN fails),
 *                                      printing both values and the
 *                                      difference on failure; also 1 or 0.
 *   CHECK_FAIL(fmt, ...)               an unconditional failure (a call that
 *                                      reported its own error); value 0.
 *   REQUIRE(cond, ret, fmt, ...)       CHECK, then `return ret` from the
 *                                      calling function on failure (ret may
 *                                      be empty in a void function).
 *   check_report(name)                 main's return value: prints
 *                                      "name: N checks passed" or the count
 *                                      of failures; 0 or 1.
 *
 * The message is a non-empty printf format with its arguments (checked by
 * -Wformat). check_failures and check_count are the counters.
 * Works in C11 and C++ (tests/rng/test_rng_cuda.cu). Header only: each test
 * program includes it once, directly or through testutil.h.
 *
 * Alias kept for the tests still written against testutil.h's old
 * helpers (tests/backends, tests/methods/test_fft_method.c):
 * check_report(name) = check_report(name). */
#ifndef TBRF_TEST_CHECK_H
#define TBRF_TEST_CHECK_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int check_failures = 0;
static int check_count = 0;
static double check_near_[4]; /* got, want, |diff|, tol of the last CHECK_NEAR */

#if defined(__GNUC__)
#define CHECK_PRINTF_(f, a) __attribute__((format(printf, f, a)))
#else
#define CHECK_PRINTF_(f, a)
#endif

static inline int check_pass_(void)
{
    check_count++;
    return 1;
}

static inline int check_fail_(const char *file, int line, const char *text, const char *fmt, ...)
    CHECK_PRINTF_(4, 5);
static inline int check_fail_(const char *file, int line, const char *text, const char *fmt, ...)
{
    va_list ap;
    check_count++;
    check_failures++;
    fprintf(stderr, "FAIL %s:%d: %s: ", file, line, text);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 0;
}

static inline int check_near_ok_(double got, double want, double tol)
{
    check_near_[0] = got;
    check_near_[1] = want;
    check_near_[2] = fabs(got - want);
    check_near_[3] = tol;
    return check_near_[2] <= tol; /* false for a NaN anywhere */
}

static inline int check_near_show_(void)
{
    fprintf(stderr, "    got %.17g, want %.17g: |diff| %.3g > %.3g\n", check_near_[0],
            check_near_[1], check_near_[2], check_near_[3]);
    return 0;
}

/* The message's arguments are evaluated only when the check fails (after
 * cond), so they may use what cond guarantees is not there, e.g. a
 * NULL-returning constructor's message. */
#define CHECK(cond, ...)                                                                \
    ((cond) ? check_pass_() : check_fail_(__FILE__, __LINE__, #cond, __VA_ARGS__))

#define CHECK_NEAR(got, want, tol, ...)                                                 \
    (check_near_ok_((got), (want), (tol))                                               \
         ? check_pass_()                                                                \
         : (check_fail_(__FILE__, __LINE__, #got " ~ " #want, __VA_ARGS__), check_near_show_()))

#define CHECK_FAIL(...) check_fail_(__FILE__, __LINE__, "failed", __VA_ARGS__)

#define REQUIRE(cond, ret, ...)                                                         \
    do {                                                                                \
        if (!CHECK(cond, __VA_ARGS__))                                                  \
            return ret;                                                                 \
    } while (0)

static inline int check_report(const char *name)
{
    if (check_failures) {
        fprintf(stderr, "%s: %d of %d check(s) failed\n", name, check_failures, check_count);
        return 1;
    }
    printf("%s: all %d checks passed\n", name, check_count);
    return 0;
}

/* The older helper's name (see above). */
#define check_report(name) check_report(name)

#endif
