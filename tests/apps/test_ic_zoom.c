/* test_ic_zoom.c — the parent-mode part of a zoom region's fine
 * displacements (tbrfi_icc_psi_at, doc/ic.md): at fine sites (refinement
 * 2 inside a sub-box) that coincide with parent lattice sites it equals
 * the parent's Psi1 (tbrf_ic_cosmo_displacements) to 1e-12 of the
 * parent's largest |Psi|, with the plan's path and with fixed amplitudes
 * (the kept potential's NUFFT), paired sign included; the fine sites in
 * between differ from every parent value (the check can fail); NULL
 * sites are refused. The layout (tbrfi_zoom_layout): counts by type
 * counted cell by cell (a region wrapping the box edge), total mass the
 * parent's, bad regions refused. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "apps/ic/cosmo_internal.h"
#include "apps/ic/zoom_internal.h"
#include "support/check.h"
#include "tbrf.h"

#define G 16
#define R 2
#define LO 4 /* the sub-box's parent cells lo .. lo + W - 1 per axis */
#define W 6

static int one(int fixed, int paired)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = G;
    p.fixed_amplitude = fixed;
    p.paired = paired;
    tbrf_ic_cosmo *ic = NULL;
    REQUIRE(tbrf_ic_cosmo_make(&p, &ic) == TBRF_OK, 1, "make: %s", tbrf_ic_cosmo_message(ic));
    double *psi = malloc(3 * G * G * G * sizeof *psi);
    const int64_t nf = (int64_t)(R * W) * (R * W) * (R * W);
    double *site = malloc((size_t)nf * 3 * sizeof *site), *zp = malloc((size_t)nf * 3 * sizeof *zp);
    REQUIRE(tbrf_ic_cosmo_displacements(ic, psi) == TBRF_OK, 1, "%s", tbrf_ic_cosmo_message(ic));
    const double dx = p.box / G, h = dx / R;
    int64_t s = 0;
    for (int k = 0; k < R * W; k++)
        for (int j = 0; j < R * W; j++)
            for (int i = 0; i < R * W; i++, s++) {
                site[3 * s] = LO * dx + i * h;
                site[3 * s + 1] = LO * dx + j * h;
                site[3 * s + 2] = LO * dx + k * h;
            }
    REQUIRE(tbrfi_icc_psi_at(ic, nf, site, zp) == TBRF_OK, 1, "%s", tbrf_ic_cosmo_message(ic));
    double amax = 0, err = 0, off = 0;
    for (int64_t t = 0; t < 3 * G * G * G; t++)
        amax = fmax(amax, fabs(psi[t]));
    s = 0;
    for (int k = 0; k < R * W; k++)
        for (int j = 0; j < R * W; j++)
            for (int i = 0; i < R * W; i++, s++) {
                const int64_t q = ((int64_t)(LO + k / R) * G + (LO + j / R)) * G + LO + i / R;
                for (int c = 0; c < 3; c++) {
                    const double d = fabs(zp[3 * s + c] - psi[3 * q + c]);
                    if (i % R == 0 && j % R == 0 && k % R == 0)
                        err = fmax(err, d);
                    else
                        off = fmax(off, d);
                }
            }
    printf("fixed %d paired %d: max |Psi| %.3e, coinciding sites %.3e, others differ by %.3e\n",
           fixed, paired, amax, err / amax, off / amax);
    CHECK(err <= 1e-12 * amax, "the parent-mode part at parent sites: %.3e of max", err / amax);
    CHECK(off > 1e-3 * amax, "sites between parent sites differ from the parent's only by %.3e",
          off / amax);
    CHECK(tbrfi_icc_psi_at(ic, nf, NULL, zp) == TBRF_ERR_NULL, "NULL sites accepted");
    free(psi);
    free(site);
    free(zp);
    tbrf_ic_cosmo_destroy(ic);
    return 0;
}

static void layout(void)
{
    const int64_t lo[3] = {3, 10, 0}, hi[3] = {7, 18, 16}; /* y wraps past G */
    tbrfi_zoom_counts z;
    char why[256];
    REQUIRE(tbrfi_zoom_layout(G, 4, lo, hi, 2.5, &z, why, sizeof why) == TBRF_OK, , "%s", why);
    int64_t in = 0;
    for (int k = 0; k < G; k++)
        for (int j = 0; j < G; j++)
            for (int i = 0; i < G; i++)
                in += tbrfi_zoom_inside(&z, G, i, j, k);
    CHECK(in == 4 * 8 * 16 && z.region_cells == in, "cells inside %lld, layout %lld",
          (long long)in, (long long)z.region_cells);
    CHECK(z.fine == in * 64 && z.coarse == G * G * G - in, "counts %lld %lld",
          (long long)z.fine, (long long)z.coarse);
    const double total = (double)z.fine * z.mass_fine + (double)z.coarse * z.mass_coarse;
    CHECK(fabs(total - 2.5 * G * G * G) <= 1e-12 * total, "total mass %.17g", total);
    const int64_t bad[3] = {3, 10, 0}, badhi[3] = {3, 18, 16};
    CHECK(tbrfi_zoom_layout(G, 4, bad, badhi, 2.5, &z, why, sizeof why) == TBRF_ERR_INVALID,
          "an empty region accepted");
    CHECK(tbrfi_zoom_layout(G, 0, lo, hi, 2.5, &z, why, sizeof why) == TBRF_ERR_INVALID,
          "refinement 0 accepted");
    CHECK(tbrfi_zoom_layout(G, 4, NULL, hi, 2.5, &z, why, sizeof why) == TBRF_ERR_NULL,
          "NULL lo accepted");
}

int main(void)
{
    layout();
    one(0, 0);
    one(1, 0);
    one(0, 1);
    return check_report("test_ic_zoom");
}
