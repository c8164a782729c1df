/* common.c — messages and the budget check of the initial-condition
 * functions (ic_internal.h). */
#include <stdarg.h>
#include <stdio.h>

#include "tbrf.h"
#include "apps/ic/ic_internal.h"

int tbrfi_ic_fail(char *message, size_t message_size, int status, const char *fmt, ...)
{
    if (message && message_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(message, message_size, fmt, ap);
        va_end(ap);
    }
    return status;
}

void tbrfi_ic_ok(char *message, size_t message_size)
{
    if (message && message_size > 0)
        message[0] = '\0';
}

int tbrfi_ic_budget(double bytes, const char *what, char *message, size_t message_size)
{
    uint64_t budget = 0;
    int st = tbrf_memory_budget(&budget);
    if (st != TBRF_OK)
        return tbrfi_ic_fail(message, message_size, st, "%s: TBRF_MEMORY_BUDGET is not a size (a "
                             "number of bytes with an optional K, M, G or T)", what);
    if (bytes <= (double)budget)
        return TBRF_OK;
    return tbrfi_ic_fail(message, message_size, TBRF_ERR_SIZE, "%s would need %.1f MiB, more than "
                         "the memory budget of %.1f MiB (TBRF_MEMORY_BUDGET)", what,
                         bytes / 1048576.0, (double)budget / 1048576.0);
}
