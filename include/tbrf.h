/*
 * tbrf.h — Gaussian random fields by the spectral turning-bands method.
 *
 * The public C header of libtbrf, over the feature headers of
 * include/tbrf/ (one per topic). Conventions (doc/design.md, "Conventions"):
 *  - every function returns a status (TBRF_OK == 0) or a value documented as
 *    such; nothing exits, prints or keeps global mutable state;
 *  - objects follow the sqlite3 habit: a constructor hands back an object
 *    even when it fails (except on TBRF_ERR_NO_MEMORY, where it is NULL), so
 *    the detailed message can be read with tbrf_model_message() or
 *    tbrf_plan_message(); destroy it in every case;
 *  - positions are float64, interleaved (x,y[,z]) per point — Fortran's
 *    xyz(3,n) is the same memory; grid values are x-fastest, so C's
 *    [nz][ny][nx] and Fortran's (nx,ny,nz) are the same memory;
 *  - the spectral density follows the cosmology convention
 *    C(r) = ∫ d^dk/(2π)^d P(k) e^{ik·h}.
 */
#ifndef TBRF_H
#define TBRF_H

#include "tbrf/common.h"
#include "tbrf/model.h"
#include "tbrf/plan.h"
#include "tbrf/rng.h"
#include "tbrf/mc.h"
#include "tbrf/cosmology.h"
#include "tbrf/driver.h"
#include "tbrf/inflow.h"

#endif /* TBRF_H */
