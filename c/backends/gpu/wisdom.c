/* wisdom.c — the GPU tuning cache (see wisdom.h). */
#define _POSIX_C_SOURCE 200809L
#include "backends/gpu/wisdom.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

static int wisdom_path(char *buf, size_t n)
{
    const char *w = getenv("TBRF_WISDOM");
    if (w && *w)
        return snprintf(buf, n, "%s", w) < (int)n ? 0 : -1;
    const char *x = getenv("XDG_CACHE_HOME");
    if (x && *x)
        return snprintf(buf, n, "%s/tbrf/wisdom", x) < (int)n ? 0 : -1;
    const char *h = getenv("HOME");
    if (h && *h)
        return snprintf(buf, n, "%s/.cache/tbrf/wisdom", h) < (int)n ? 0 : -1;
    return -1;
}

void tbrf_wisdom_key(char *key, size_t n, const char *backend, const char *device,
                     const char *driver, const char *kernel, const char *precision)
{
    snprintf(key, n, "%s|%s|%s|%s|%s", backend, device, driver, kernel, precision);
    for (char *c = key; *c; c++)
        if ((unsigned char)*c <= ' ' || *c == 0x7f)
            *c = '_';
}

int tbrf_wisdom_lookup(const char *key, int *wg, int *unroll)
{
    char path[4096];
    if (wisdom_path(path, sizeof path))
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1024], k[1024];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        int a, b;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "%1023s %d %d", k, &a, &b) == 3 && strcmp(k, key) == 0 && a > 0 && b > 0) {
            *wg = a;
            *unroll = b;
            found = 1;
        }
    }
    fclose(f);
    return found;
}

/* mkdir -p of the directory part of path; errors ignored. */
static void make_parents(char *path)
{
    for (char *s = path + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            *s = '/';
            return;
        }
        *s = '/';
    }
}

void tbrf_wisdom_store(const char *key, int wg, int unroll)
{
    char path[4096];
    if (wisdom_path(path, sizeof path))
        return;
    make_parents(path);
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    fprintf(f, "%s %d %d\n", key, wg, unroll);
    fclose(f);
}
