/* wisdom.h — the tuning cache of the GPU backends: the best work-group size
 * and unroll factor per (backend, device, driver, kernel, precision),
 * measured once and remembered in a small text file, like FFTW's wisdom.
 *
 * File: $TBRF_WISDOM if set, else $XDG_CACHE_HOME/tbrf/wisdom, else
 * $HOME/.cache/tbrf/wisdom. One entry per line, "KEY WG UNROLL", the last
 * entry for a key wins; '#' lines are comments. Failing to read or write
 * the file is silent and harmless: the backend then tunes again next time.
 * Internal header. */
#ifndef TBRF_GPU_WISDOM_H
#define TBRF_GPU_WISDOM_H

#include <stddef.h>

/* Writes a key made of the parts joined by '|', with blanks and control
 * characters replaced by '_', into key (size n). */
void tbrf_wisdom_key(char *key, size_t n, const char *backend, const char *device,
                     const char *driver, const char *kernel, const char *precision);

/* 1 and *wg, *unroll if the cache has an entry for key, else 0. */
int tbrf_wisdom_lookup(const char *key, int *wg, int *unroll);

/* Appends an entry (creating the directory and file if needed); silent. */
void tbrf_wisdom_store(const char *key, int wg, int unroll);

#endif
