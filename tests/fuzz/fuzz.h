/* fuzz.h — what the fuzz targets of tests/fuzz share (README.md there).
 *
 * Each target defines LLVMFuzzerTestOneInput. Built with libFuzzer
 * (-DTBRF_FUZZ=ON, CC=clang) the fuzzer drives it; otherwise
 * fuzz_replay.c's main() runs it once per file given (or per file of a
 * directory given): the committed corpus, replayed by ctest.
 *
 * fz is a cursor over the input for the structured targets, which decode
 * the bytes into a file written with the HDF5 or netCDF API and then read
 * it with tbrf_io: whatever the bytes, the file is well formed, so what
 * is exercised is tbrf's readers, not HDF5's own parser. Past the end of
 * the input every read gives 0. */
#ifndef TBRF_FUZZ_H
#define TBRF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fz {
    const uint8_t *p;
    size_t n, at;
} fz;

static inline int fz_more(const fz *z)
{
    return z->at < z->n;
}

static inline unsigned fz_u8(fz *z)
{
    return z->at < z->n ? z->p[z->at++] : 0u;
}

static inline uint64_t fz_u64(fz *z)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)fz_u8(z) << (8 * i);
    return v;
}

/* A double: a small value most of the time, any 64 bits (NaN, inf,
 * subnormals) when the selector byte says so. */
static inline double fz_f64(fz *z)
{
    unsigned sel = fz_u8(z);
    if (sel < 200)
        return ((double)fz_u8(z) - 64.0) / 8.0;
    uint64_t b = fz_u64(z);
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* A path for this process's scratch file `tag` under $TMPDIR. */
static inline const char *fz_path(const char *tag)
{
    static char path[512];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/tbrf-fuzz-%ld-%s", dir && dir[0] ? dir : "/tmp", (long)getpid(),
             tag);
    return path;
}

/* Writes data to path; 0 or -1. */
static inline int fz_write(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int rc = fwrite(data, 1, size, f) == size ? 0 : -1;
    if (fclose(f))
        rc = -1;
    return rc;
}

/* A budget small enough that no input makes a run take gigabytes. */
static inline void fz_budget(void)
{
    setenv("TBRF_MEMORY_BUDGET", "64M", 0);
}

#endif
