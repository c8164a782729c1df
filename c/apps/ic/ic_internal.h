/* ic_internal.h — what the initial-condition sources share (not
 * installed): the one-line reason of a free function's failure. */
#ifndef TBRF_APPS_IC_INTERNAL_H
#define TBRF_APPS_IC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tbrf.h"

/* Writes the printf-formatted reason into message (NULL: nowhere; at
 * most message_size bytes) and returns status, so that a free function
 * can `return tbrfi_ic_fail(message, size, TBRF_ERR_INVALID, "...")`. */
int tbrfi_ic_fail(char *message, size_t message_size, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Empties message (the success case). */
void tbrfi_ic_ok(char *message, size_t message_size);

/* 0 when `bytes` fit in the memory budget (tbrf_memory_budget), else the
 * status (TBRF_ERR_SIZE, or the budget's own) with "WHAT would need X MiB,
 * more than the memory budget of Y MiB (TBRF_MEMORY_BUDGET)" in message. */
int tbrfi_ic_budget(double bytes, const char *what, char *message, size_t message_size);

/* One density from one value g of a unit-variance Gaussian field,
 * pointwise as tbrf_ic_density_params says (the mean rho_mean in
 * expectation): the one transform tbrf_ic_density and the inflow sampler
 * use. No checks: the parameters are valid. */
double tbrfi_ic_density_point(const tbrf_ic_density_params *p, double g);

#endif
