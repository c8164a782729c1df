/* cli.h — what the commands of the `tbrf` tool share (not installed). */
#ifndef TBRF_CLI_H
#define TBRF_CLI_H

#include <stdint.h>

#define EXIT_FAIL 1  /* a run or file failed */
#define EXIT_USAGE 2 /* bad command line */

/* Prints "tbrf: MESSAGE" on stderr as exactly one line. */
void cli_errline(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* `tbrf generate` with argv[0] = "generate" (tbrf.c); regenerate calls it
 * with the options it rebuilt from a file's attributes. */
int cli_generate(int argc, char **argv);

int cmd_regenerate(int argc, char **argv); /* regenerate.c */
int cmd_preview(int argc, char **argv);    /* preview.c */
int cmd_spectrum(int argc, char **argv);   /* spectrum.c */

/* A progress bar on stderr, drawn only when stderr is a terminal and not
 * --quiet, so logs and pipes never get carriage-return noise. */
typedef struct progress {
    int on, drawn;
    int64_t total;
    double t0, last;
    const char *unit;
} progress;

void progress_begin(progress *p, int64_t total, const char *unit, int quiet);
void progress_update(progress *p, int64_t done);
void progress_end(progress *p);

#endif
