/* budget.c — the one reader of the memory budget ($TBRF_MEMORY_BUDGET),
 * used by every object before it allocates (tbrf_memory_budget). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "tbrf.h"

/* A budget below this would refuse ordinary small runs on a machine
 * whose physical memory cannot be read or is tiny. */
#define BUDGET_MIN ((uint64_t)256 << 20)

/* "4G", "512MiB", "1000000": bytes, or 0 when s is not such a size. */
static uint64_t parse_size(const char *s)
{
    if (!s || !isdigit((unsigned char)*s))
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE || v == 0)
        return 0;
    int shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (shift && (end[0] == 'i' || end[0] == 'I') && (end[1] == 'B' || end[1] == 'b'))
        end += 2;
    else if (end[0] == 'B' || end[0] == 'b')
        end++;
    if (*end != '\0' || v > (UINT64_MAX >> shift))
        return 0;
    return (uint64_t)v << shift;
}

int tbrf_memory_budget(uint64_t *bytes)
{
    if (!bytes)
        return TBRF_ERR_NULL;
    const char *env = getenv("TBRF_MEMORY_BUDGET");
    if (env && env[0]) {
        *bytes = parse_size(env);
        return *bytes ? TBRF_OK : TBRF_ERR_INVALID;
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t half = pages > 0 && page > 0 ? (uint64_t)pages / 2 * (uint64_t)page : 0;
    *bytes = half > BUDGET_MIN ? half : BUDGET_MIN;
    return TBRF_OK;
}
