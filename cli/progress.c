/* progress.c — the progress bar and the shared error line of the tool.
 *
 * The bar goes to stderr and only when stderr is a terminal: a batch log
 * or a pipe would otherwise fill with carriage returns. It redraws at most
 * five times a second, so its cost is nothing next to the work, and shows
 * the rate and the time left from the average rate so far (the work per
 * cell is uniform, so the average is the best predictor). TBRF_PROGRESS=1
 * forces it on (for tests and for `script` logs). */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

void cli_errline(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* One line, and no byte that drives a terminal: values quoted from a
     * crafted file (a model name, a recorded command) may hold escape
     * sequences; other control bytes are shown as \xHH. */
    char out[4 * sizeof buf];
    size_t o = 0;
    for (const unsigned char *c = (const unsigned char *)buf; *c; c++) {
        if (*c == '\n' || *c == '\r')
            out[o++] = ' ';
        else if (*c < 0x20 || *c == 0x7f)
            o += (size_t)snprintf(out + o, sizeof out - o, "\\x%02x", *c);
        else
            out[o++] = (char)*c;
    }
    out[o] = '\0';
    if (cli_mpi_rank() > 0)
        fprintf(stderr, "tbrf: rank %d: %s\n", cli_mpi_rank(), out);
    else
        fprintf(stderr, "tbrf: %s\n", out);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void progress_begin(progress *p, int64_t total, const char *unit, int quiet)
{
    const char *force = getenv("TBRF_PROGRESS");
    memset(p, 0, sizeof *p);
    /* one bar per run: rank 0's (its own part) in an MPI run */
    p->on = !quiet && total > 0 && cli_mpi_rank() == 0 &&
            (isatty(STDERR_FILENO) || (force && strcmp(force, "1") == 0));
    p->total = total;
    p->unit = unit;
    p->t0 = p->last = now();
}

static void hms(char *buf, size_t n, double s)
{
    if (!(s >= 0) || s > 359999)
        snprintf(buf, n, "--:--");
    else if (s >= 3600)
        snprintf(buf, n, "%d:%02d:%02d", (int)s / 3600, ((int)s / 60) % 60, (int)s % 60);
    else
        snprintf(buf, n, "%d:%02d", (int)s / 60, (int)s % 60);
}

static void draw(const progress *p, int64_t done, double t)
{
    enum { WIDTH = 30 };
    double frac = (double)done / (double)p->total, el = t - p->t0;
    int fill = (int)(frac * WIDTH);
    char bar[WIDTH + 1];
    for (int i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    double rate = el > 0 ? (double)done / el : 0.0;
    char left[32], spent[32];
    hms(left, sizeof left, rate > 0 ? (double)(p->total - done) / rate : -1.0);
    hms(spent, sizeof spent, el);
    fprintf(stderr, "\r[%s] %5.1f%%  %.3g %s/s  %s elapsed  %s left ", bar, 100.0 * frac, rate,
            p->unit, spent, left);
    fflush(stderr);
}

void progress_update(progress *p, int64_t done)
{
    if (!p->on)
        return;
    double t = now();
    if (t - p->last < 0.2 && done < p->total)
        return;
    p->last = t;
    p->drawn = 1;
    draw(p, done, t);
}

void progress_end(progress *p)
{
    /* Ends the bar's line (complete or not) so the next message starts
     * on its own line. */
    if (p->on && p->drawn)
        fputc('\n', stderr);
    p->on = 0;
}
