/* test_ic_memory.c — tbrf_ic_cosmo_bytes against the memory a
 * cosmological IC really holds: in a child process for each case, the
 * peak resident set of tbrf_ic_cosmo_make, _generate and _destroy over the
 * resident set before them (Linux: the high-water mark reset through
 * /proc/self/clear_refs, read from /proc/self/status). The estimate must
 * bound that peak from above (the budget it is checked against is then
 * safe) and be within 1.3x of it (the budget admits what fits). Cases:
 * Zel'dovich in one chunk and in several (the FFT method's stream then
 * holds the whole field), 2LPT (its peak: the padded grids of the
 * second-order source beside Psi1 and the potentials), 3LPT (the twelve
 * padded grids of the third-order sources beside the five potentials), at
 * 64^3 and 96^3:
 * 13 to 100 MB, so that the allocator's and the threads' few hundred kB
 * are noise against the margins the counts leave (measured: 1.01 to
 * 1.26). Exits 77 (skipped) where /proc cannot reset the high-water mark,
 * and under AddressSanitizer. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "support/check.h"
#include "tbrf.h"

/* AddressSanitizer's allocator (shadow memory, a quarantine of freed
 * blocks) makes the resident set its own, not the IC's. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* A field of /proc/self/status in bytes ("VmRSS", "VmHWM"), or -1. */
static double status_bytes(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    double kb = -1;
    const size_t n = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':')
            kb = strtod(line + n + 1, NULL);
    fclose(f);
    return kb < 0 ? -1 : kb * 1024.0;
}

static int reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return -1;
    int bad = fputs("5", f) < 0;
    return fclose(f) != 0 || bad ? -1 : 0;
}

static int ignore_chunk(void *user, const tbrf_ic_chunk *chunk)
{
    (void)user, (void)chunk;
    return 0;
}

/* In the child: the peak bytes over the start, or a negative value. */
static double held(const tbrf_ic_cosmo_params *p, int64_t chunks)
{
#if defined(__GLIBC__)
    /* large arrays straight from mmap, back to the system when freed: the
     * resident set then follows what is held, not the heap's history */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
    if (reset_peak())
        return -1;
    const double before = status_bytes("VmRSS");
    tbrf_ic_cosmo *ic = NULL;
    int st = tbrf_ic_cosmo_make(p, &ic);
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_generate(ic, chunks, ignore_chunk, NULL);
    if (st != TBRF_OK)
        fprintf(stderr, "IC failed: %s\n", ic ? tbrf_ic_cosmo_message(ic) : "no memory");
    tbrf_ic_cosmo_destroy(ic);
    const double peak = status_bytes("VmHWM");
    return st == TBRF_OK && before >= 0 && peak >= 0 ? peak - before : -2;
}

/* The child's measure through a pipe; -1 when /proc cannot tell. */
static double measure(const tbrf_ic_cosmo_params *p, int64_t chunks)
{
    int fd[2];
    if (pipe(fd))
        return -2;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        double v = held(p, chunks);
        _exit(write(fd[1], &v, sizeof v) == (ssize_t)sizeof v ? 0 : 1);
    }
    close(fd[1]);
    double v = -2;
    if (pid < 0 || read(fd[0], &v, sizeof v) != (ssize_t)sizeof v)
        v = -2;
    close(fd[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    return v;
}

int main(void)
{
#ifdef UNDER_ASAN
    printf("test_ic_memory: under AddressSanitizer the resident set is its allocator's: skipped\n");
    return 77;
#endif
    unsetenv("TBRF_MEMORY_BUDGET");
    const struct {
        int64_t g, chunks;
        int lpt;
    } cases[] = {{64, 1, 1}, {96, 1, 1}, {96, 4, 1}, {64, 1, 2}, {96, 1, 2}, {64, 1, 3}, {96, 3, 3}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tbrf_ic_cosmo_params p;
        tbrf_ic_default_cosmo(&p);
        p.particles = cases[i].g;
        p.lpt = cases[i].lpt;
        double bytes = 0;
        int64_t fewest = 0;
        CHECK(tbrf_ic_cosmo_bytes(&p, cases[i].chunks, &bytes, &fewest) == TBRF_OK && fewest >= 1,
              "%lld^3: estimate", (long long)p.particles);
        const double peak = measure(&p, cases[i].chunks);
        if (peak == -1) {
            printf("test_ic_memory: /proc/self/clear_refs unavailable: skipped\n");
            return 77;
        }
        printf("%lld^3, lpt %d, %lld chunk(s): estimate %.2f MB, held %.2f MB (%.3f)\n",
               (long long)p.particles, p.lpt, (long long)cases[i].chunks, bytes / 1e6, peak / 1e6,
               bytes / peak);
        CHECK(peak > 0, "%lld^3: the IC ran in the child (%g)", (long long)p.particles, peak);
        CHECK(bytes >= peak, "%lld^3, lpt %d: the estimate %.4g MB bounds the peak %.4g MB",
              (long long)p.particles, p.lpt, bytes / 1e6, peak / 1e6);
        CHECK(bytes <= 1.3 * peak, "%lld^3, lpt %d: the estimate %.4g MB within 1.3x of the peak "
              "%.4g MB", (long long)p.particles, p.lpt, bytes / 1e6, peak / 1e6);
    }
    return check_report("test_ic_memory");
}
