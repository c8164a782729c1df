/* test_ic_zoom.c — zoom ICs (doc/ic.md, Zoom). The region
 * (tbrfi_zoom_mask): a box wrapping the box edge, a sphere and listed IDs
 * against a cell-by-cell count, padding against a brute-force dilation,
 * the extent, refusals. The zoom (tbrf_ic_zoom_make): counts and masses
 * (the total is the parent's), the coarse particles the parent IC's and
 * the fine ones (and their gas) the (G r)^3 IC's, bit for bit; the fine
 * displacement filtered to the parent's modes equals the parent's at its
 * sites to 1e-12 of max |Psi| (the unfiltered one does not: the check can
 * fail); two nested levels: each level's cells, particles (bit for bit
 * its (G r_l)^3 IC's) and masses. The parent-mode part at arbitrary sites (tbrfi_icc_psi_at): at
 * refinement-2 sites coinciding with parent sites it equals
 * tbrf_ic_cosmo_displacements to 1e-12 (plan path, fixed amplitudes,
 * paired); NULL sites refused. The steps (tbrf_ic_zoom_begin, level_make,
 * take, append, finish), as a distributed caller uses them, against
 * tbrf_ic_zoom_make bit for bit, and their misuse. */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/ic/cosmo_internal.h"
#include "apps/ic/zoom_internal.h"
#include "support/check.h"
#include "support/ic_cosmo.h"
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

/* A one-point glass at the centre of its unit box: tiled G r times, the
 * sub-cells' centres (I + 1/2) L/(G r) where a zoom's fine particles sit
 * (the zoom takes them from the half-shifted lattice; the glass path is
 * the independent check). */
static const double HALF[3] = {0.5, 0.5, 0.5};

/* The periodic distance of two indices on a ring of g. */
static int64_t ring(int64_t a, int64_t b, int64_t g)
{
    const int64_t d = llabs(a - b) % g;
    return d < g - d ? d : g - d;
}

/* The mask of z over a G^3 parent of box L, or NULL after a failed check. */
static unsigned char *mask_of(const tbrf_ic_zoom_params *z, double L, int64_t *cells)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = G;
    p.box = L;
    unsigned char *m = calloc(G * G * G, 1);
    char why[256];
    int64_t count[8] = {0};
    int st = tbrfi_zoom_mask(&p, z, m, count, why, sizeof why);
    *cells = count[1]; /* one level */
    CHECK(st == TBRF_OK, "mask: %s", why);
    if (st != TBRF_OK) {
        free(m);
        return NULL;
    }
    return m;
}

/* Box, sphere and IDs against a direct count; padding against a dilation
 * by brute force; the extent of a region across the box edge. */
static void test_mask(void)
{
    const double L = 160.0, dx = L / G; /* sites at 10 i */
    tbrf_ic_zoom_params z;
    tbrf_ic_default_zoom(&z);
    z.pad = 0;
    /* x sites 30 .. 60, y 100 .. 170 wrapping to 0 .. 10, z all */
    const double lo[3] = {25, 95, 0}, hi[3] = {65, 175, 160};
    memcpy(z.lo, lo, sizeof lo);
    memcpy(z.hi, hi, sizeof hi);
    int64_t cells = 0;
    unsigned char *box = mask_of(&z, L, &cells);
    int64_t want = 0, bad = 0;
    for (int64_t c = 0; box && c < G * G * G; c++) {
        const int64_t i = c % G, j = c / G % G;
        const int in = i >= 3 && i <= 6 && (j >= 10 || j <= 1);
        want += in;
        bad += box[c] != in;
    }
    CHECK(box && bad == 0 && cells == want && want == 4 * 8 * G, "box: %lld cells, %lld wrong",
          (long long)cells, (long long)bad);
    int64_t elo[3], ew[3];
    if (box) {
        tbrfi_zoom_extent(box, G, elo, ew);
        CHECK(elo[0] == 3 && ew[0] == 4 && elo[1] == 10 && ew[1] == 8 && ew[2] == G,
              "extent %lld+%lld %lld+%lld %lld", (long long)elo[0], (long long)ew[0],
              (long long)elo[1], (long long)ew[1], (long long)ew[2]);
    }
    /* padding by 2: every cell within Chebyshev distance 2 of a box cell */
    z.pad = 2;
    unsigned char *pad = mask_of(&z, L, &cells);
    bad = 0;
    for (int64_t c = 0; box && pad && c < G * G * G; c++) {
        int near = 0;
        for (int64_t b = 0; b < G * G * G && !near; b++)
            near = box[b] && ring(c % G, b % G, G) <= 2 && ring(c / G % G, b / G % G, G) <= 2 &&
                   ring(c / (G * G), b / (G * G), G) <= 2;
        bad += pad[c] != near;
    }
    CHECK(pad && bad == 0 && cells == 8 * 12 * G, "padded box: %lld cells, %lld wrong",
          (long long)cells, (long long)bad);
    /* a sphere of radius 25 about (5, 155, 80): sites within, periodically */
    tbrf_ic_default_zoom(&z);
    z.region = TBRF_IC_ZOOM_SPHERE;
    z.pad = 0;
    z.centre[0] = 5, z.centre[1] = 155, z.centre[2] = 80;
    z.radius = 25;
    unsigned char *sph = mask_of(&z, L, &cells);
    want = bad = 0;
    for (int64_t c = 0; sph && c < G * G * G; c++) {
        const double d[3] = {icx_dwrap((double)(c % G) * dx - 5, L),
                             icx_dwrap((double)(c / G % G) * dx - 155, L),
                             icx_dwrap((double)(c / (G * G)) * dx - 80, L)};
        const int in = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= 625;
        want += in;
        bad += sph[c] != in;
    }
    CHECK(sph && bad == 0 && cells == want && want > 20, "sphere: %lld cells of %lld, %lld wrong",
          (long long)cells, (long long)want, (long long)bad);
    /* IDs: a dark-matter and the gas ID of one site, and another site */
    const uint64_t ids[3] = {1 + 5 + G * 7, G * G * G + 1 + 5 + G * 7, 1 + G * G * G - 1};
    tbrf_ic_default_zoom(&z);
    z.region = TBRF_IC_ZOOM_IDS;
    z.ids = ids;
    z.n_ids = 3;
    z.pad = 0;
    unsigned char *idm = mask_of(&z, L, &cells);
    CHECK(idm && cells == 2 && idm[5 + G * 7] && idm[G * G * G - 1], "ids: %lld cells",
          (long long)cells);
    free(box), free(pad), free(sph), free(idm);
}

/* What tbrfi_zoom_mask refuses, each with a status. */
static void test_refusals(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = G;
    p.box = 160;
    unsigned char *m = calloc(G * G * G, 1);
    int64_t cells[8];
    tbrf_ic_zoom_params z;
    const uint64_t far = 2 * G * G * G + 1, zero = 0;
#define REFUSE(status, what, ...)                                                                \
    do {                                                                                       \
        tbrf_ic_default_zoom(&z);                                                              \
        z.hi[0] = z.hi[1] = z.hi[2] = 80;                                                      \
        __VA_ARGS__;                                                                           \
        memset(m, 0, G * G * G);                                                               \
        char why[256] = "";                                                                    \
        CHECK(tbrfi_zoom_mask(&p, &z, m, cells, why, sizeof why) == (status), "%s accepted",    \
              what);                                                                           \
        CHECK(why[0] != 0, "%s: no reason", what);                                             \
    } while (0)
    REFUSE(TBRF_ERR_INVALID, "refinement 3", z.refinement = 3);
    REFUSE(TBRF_ERR_INVALID, "refinement 128", z.refinement = 128);
    REFUSE(TBRF_ERR_INVALID, "pad -1", z.pad = -1);
    REFUSE(TBRF_ERR_INVALID, "a box of no width", z.hi[1] = z.lo[1]);
    REFUSE(TBRF_ERR_INVALID, "a box wider than L", z.hi[2] = 170);
    REFUSE(TBRF_ERR_INVALID, "a NaN corner", z.lo[0] = NAN);
    REFUSE(TBRF_ERR_INVALID, "a box between two sites", z.lo[0] = 1; z.hi[0] = 9; z.pad = 0);
    REFUSE(TBRF_ERR_INVALID, "the whole box", z.hi[0] = z.hi[1] = z.hi[2] = 160);
    REFUSE(TBRF_ERR_INVALID, "a sphere of radius L", z.region = TBRF_IC_ZOOM_SPHERE;
           z.radius = 160);
    REFUSE(TBRF_ERR_INVALID, "region kind 7", z.region = 7);
    REFUSE(TBRF_ERR_NULL, "NULL ids", z.region = TBRF_IC_ZOOM_IDS);
    REFUSE(TBRF_ERR_INVALID, "ID 0", z.region = TBRF_IC_ZOOM_IDS; z.ids = &zero; z.n_ids = 1);
    REFUSE(TBRF_ERR_INVALID, "an ID past 2 G^3", z.region = TBRF_IC_ZOOM_IDS; z.ids = &far;
           z.n_ids = 1);
#undef REFUSE
    tbrf_ic_zoom *zz = NULL;
    tbrf_ic_default_zoom(&z);
    z.hi[0] = z.hi[1] = z.hi[2] = 80;
    p.glass_n = 8;
    CHECK(tbrf_ic_zoom_make(&p, &z, &zz) == TBRF_ERR_INVALID && strstr(tbrf_ic_zoom_message(zz),
                                                                       "lattice"),
          "a glass parent accepted: %s", tbrf_ic_zoom_message(zz));
    tbrf_ic_zoom_part part;
    CHECK(tbrf_ic_zoom_particles(zz, 1, &part) == TBRF_ERR_INVALID, "an unmade zoom's particles");
    tbrf_ic_zoom_destroy(zz);
    CHECK(tbrf_ic_zoom_make(&p, NULL, &zz) == TBRF_ERR_NULL, "NULL region accepted");
    tbrf_ic_zoom_destroy(zz);
    free(m);
}

/* Every particle of an IC in row order (positions, velocities, gas). */
typedef struct all_rows {
    double *pos, *vel, *gpos, *gvel, *gu;
} all_rows;

static int take_all(void *user, const tbrf_ic_chunk *ch)
{
    all_rows *a = user;
    const size_t b = (size_t)ch->first;
    memcpy(a->pos + 3 * b, ch->pos, (size_t)ch->count * 24);
    memcpy(a->vel + 3 * b, ch->vel, (size_t)ch->count * 24);
    if (ch->gas_pos) {
        memcpy(a->gpos + 3 * b, ch->gas_pos, (size_t)ch->count * 24);
        memcpy(a->gvel + 3 * b, ch->gas_vel ? ch->gas_vel : ch->vel, (size_t)ch->count * 24);
        memcpy(a->gu + b, ch->gas_u, (size_t)ch->count * 8);
    }
    return 0;
}

/* Every particle of p's IC, on the lattice shifted by offset spacings
 * (internal tbrfi_icc_make_offset) when offset > 0. */
static all_rows rows_of(const tbrf_ic_cosmo_params *p, double offset)
{
    const size_t n = (size_t)(p->particles * p->particles * p->particles);
    all_rows a = {malloc(n * 24), malloc(n * 24), malloc(n * 24), malloc(n * 24), malloc(n * 8)};
    tbrf_ic_cosmo *ic = NULL;
    if (offset > 0) {
        int st = tbrfi_icc_make_offset(p, 0, 0, offset, &ic);
        CHECK(st == TBRF_OK, "make_offset: %s", tbrf_ic_cosmo_message(ic));
        if (st != TBRF_OK) {
            tbrf_ic_cosmo_destroy(ic);
            ic = NULL;
        }
    } else {
        ic = icx_make(p);
    }
    if (ic)
        CHECK(tbrf_ic_cosmo_generate(ic, 3, take_all, &a) == TBRF_OK, "generate: %s",
              tbrf_ic_cosmo_message(ic));
    tbrf_ic_cosmo_destroy(ic);
    return a;
}

static void rows_free(all_rows *a)
{
    free(a->pos), free(a->vel), free(a->gpos), free(a->gvel), free(a->gu);
}

/* 1 when every kept particle of part is row `row` of a, bit for bit, and
 * the rows rise. */
static int same_rows(const tbrf_ic_zoom_part *t, const double *pos, const double *vel,
                     const double *u)
{
    int ok = 1;
    for (int64_t k = 0; k < t->n && ok; k++) {
        const int64_t r = t->row[k];
        ok = (k == 0 || r > t->row[k - 1]) && memcmp(t->pos + 3 * k, pos + 3 * r, 24) == 0 &&
             memcmp(t->vel + 3 * k, vel + 3 * r, 24) == 0 && (!u || t->u[k] == u[r]);
    }
    return ok;
}

/* A box region refined twice: counts, masses, and the particles those of
 * the parent (without gas) and of the (2G)^3 IC. */
static void test_make(int lpt, int gas)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = G;
    p.lpt = lpt;
    p.gas = gas;
    p.seed = 11;
    tbrf_ic_zoom_params z;
    tbrf_ic_default_zoom(&z);
    const double dx = p.box / G; /* cells 12 .. 15 and 0 .. 1 on x, 3 .. 6 on y and z */
    z.lo[0] = 11.5 * dx, z.hi[0] = 17.5 * dx;
    z.lo[1] = z.lo[2] = 3.5 * dx, z.hi[1] = z.hi[2] = 7.5 * dx;
    z.pad = 0;
    tbrf_ic_zoom *zz = NULL;
    int st = tbrf_ic_zoom_make(&p, &z, &zz);
    REQUIRE(st == TBRF_OK, , "zoom make: %s", tbrf_ic_zoom_message(zz));
    tbrf_ic_zoom_info f;
    tbrf_ic_zoom_get_info(zz, &f);
    const int64_t cells = 6 * 4 * 4;
    CHECK(f.region_cells == cells && f.fine == 8 * cells && f.coarse == G * G * G - cells &&
              f.gas == (gas ? 8 * cells : 0),
          "counts: cells %lld fine %lld coarse %lld gas %lld", (long long)f.region_cells,
          (long long)f.fine, (long long)f.coarse, (long long)f.gas);
    CHECK(f.extent_lo[0] == 12 && f.extent_width[0] == 6 && f.extent_lo[1] == 4 &&
              f.extent_width[2] == 4, "extent %lld+%lld", (long long)f.extent_lo[0],
          (long long)f.extent_width[0]);
    CHECK(tbrf_ic_zoom_level(zz, 0, 4, 4) == 1 && tbrf_ic_zoom_level(zz, 2, 4, 4) == 0,
          "refined cells");
    /* the parent's particles weigh the site's whole mass */
    tbrf_ic_cosmo_params c = p;
    c.gas = 0;
    all_rows par = rows_of(&c, 0);
    tbrf_ic_cosmo *pic = icx_make(&c);
    tbrf_ic_cosmo_info pi;
    tbrf_ic_cosmo_get_info(pic, &pi);
    tbrf_ic_cosmo_destroy(pic);
    const double total = (double)f.fine * f.mass_fine + (double)f.gas * f.mass_gas +
                         (double)f.coarse * f.mass_coarse;
    const double want = (double)(G * G * G) * pi.mass_dm;
    CHECK(fabs(total / want - 1) < 1e-12 && f.mass_coarse == pi.mass_dm,
          "total mass %.17g, the parent's %.17g", total, want);
    tbrf_ic_zoom_part part;
    tbrf_ic_zoom_particles(zz, 2, &part);
    CHECK(same_rows(&part, par.pos, par.vel, NULL), "coarse particles are not the parent's");
    tbrf_ic_cosmo_params fp = p; /* on the sub-cells' centres: the half-shifted lattice */
    fp.particles = 2 * G;
    all_rows fine = rows_of(&fp, 0.5);
    /* the same sites as a one-point glass (the plan's non-uniform path):
     * the shifted lattice's FFT is the same field to the NUFFT's 1e-12 */
    fp.glass = HALF;
    fp.glass_n = 1;
    all_rows viaglass = rows_of(&fp, 0);
    double dpos = 0, dvel = 0, vmax = 0;
    for (int64_t t = 0; t < 3 * 8 * G * G * G; t++) {
        dpos = fmax(dpos, fabs(icx_dwrap(fine.pos[t] - viaglass.pos[t], p.box)));
        if (gas)
            dpos = fmax(dpos, fabs(icx_dwrap(fine.gpos[t] - viaglass.gpos[t], p.box)));
        dvel = fmax(dvel, fabs(fine.vel[t] - viaglass.vel[t]));
        vmax = fmax(vmax, fabs(fine.vel[t]));
    }
    /* 2LPT's products are dealiased exactly, the same in either frame; the
     * cubic term of 3LPT keeps an aliasing of about 3e-3 of Psi3 (doc/ic.md,
     * Third order) that depends on the frame: bounded by 1e-2 of max |Psi3|
     * (the lpt 3 run less the lpt 2 run on the shifted lattice) */
    double bound = 1e-9, psi3 = 0;
    if (lpt == 3) {
        fp.glass = NULL;
        fp.glass_n = 0;
        fp.lpt = 2;
        all_rows two = rows_of(&fp, 0.5);
        for (int64_t t = 0; t < 3 * 8 * G * G * G; t++)
            psi3 = fmax(psi3, fabs(icx_dwrap(fine.pos[t] - two.pos[t], p.box)));
        rows_free(&two);
        bound = 1e-2 * psi3;
    }
    printf("lpt %d gas %d: half-shifted lattice against the glass path: positions %.2e kpc/h "
           "(bound %.2e), velocities %.2e of %.3g\n", lpt, gas, dpos, bound, dvel / vmax, vmax);
    CHECK(dpos < bound && (lpt == 3 || dvel < 1e-11 * vmax), "the shifted lattice is not the "
          "glass path's field: %.2e, %.2e", dpos, dvel / vmax);
    rows_free(&viaglass);
    tbrf_ic_zoom_particles(zz, 1, &part);
    int cells_ok = 1;
    for (int64_t k = 0; k < part.n; k++) { /* each fine row's parent cell is refined */
        const int64_t r = part.row[k], gf = 2 * G;
        cells_ok &= tbrf_ic_zoom_level(zz, tbrfi_zoom_cell(r % gf, 2, G),
                                         tbrfi_zoom_cell(r / gf % gf, 2, G),
                                         tbrfi_zoom_cell(r / (gf * gf), 2, G)) == 1;
    }
    CHECK(cells_ok && same_rows(&part, fine.pos, fine.vel, NULL),
          "fine particles are not the (2G)^3 IC's (lpt %d gas %d)", lpt, gas);
    if (gas) {
        tbrf_ic_zoom_part gp;
        tbrf_ic_zoom_particles(zz, 0, &gp);
        CHECK(gp.n == part.n && same_rows(&gp, fine.gpos, fine.gvel, fine.gu) &&
                  f.mass_gas > 0 && f.internal_energy > 0,
              "gas particles are not the (2G)^3 IC's");
    }
    printf("zoom lpt %d gas %d: %lld fine, %lld coarse, %lld gas; total mass to %.1e\n", lpt, gas,
           (long long)f.fine, (long long)f.coarse, (long long)f.gas, fabs(total / want - 1));
    rows_free(&par);
    rows_free(&fine);
    tbrf_ic_zoom_destroy(zz);
}

/* The fine displacement (the (2G)^3 IC's on the sub-cells' centres,
 * which the zoom's fine particles are) filtered to the parent's modes
 * (|k| <= pi G/L off the parent's Nyquist planes) and sampled at the
 * parent's sites equals the parent's Psi1 to 1e-12 of its largest value;
 * unfiltered it differs. */
static void test_filtered(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = G;
    p.lpt = 1;
    p.seed = 5;
    tbrf_ic_cosmo *lo = icx_make(&p);
    p.particles = 2 * G;
    tbrf_ic_cosmo *hi = NULL;
    CHECK(tbrfi_icc_make_offset(&p, 0, 0, 0.5, &hi) == TBRF_OK, "make_offset");
    if (!lo || !hi) {
        tbrf_ic_cosmo_destroy(lo);
        tbrf_ic_cosmo_destroy(hi);
        return;
    }
    const int64_t n = G * G * G, nf = 8 * n, gf = 2 * G;
    const double pi = 3.14159265358979323846;
    double *pl = malloc((size_t)n * 24), *ph = malloc((size_t)nf * 24);
    REQUIRE(tbrf_ic_cosmo_displacements(lo, pl) == TBRF_OK &&
                tbrf_ic_cosmo_displacements(hi, ph) == TBRF_OK, , "displacements");
    double complex *f = malloc((size_t)nf * sizeof *f), *q = malloc((size_t)n * sizeof *q);
    double amax = 0, err = 0, raw = 0;
    for (int64_t t = 0; t < 3 * n; t++)
        amax = fmax(amax, fabs(pl[t]));
    for (int c = 0; c < 3; c++) {
        for (int64_t t = 0; t < nf; t++)
            f[t] = ph[3 * t + c];
        icx_dft3((int)gf, f, -1);
        memset(q, 0, (size_t)n * sizeof *q);
        for (int64_t t = 0; t < nf; t++) {
            int m[3], m2 = 0;
            for (int d = 0; d < 3; d++) {
                const int64_t i = d == 0 ? t % gf : d == 1 ? t / gf % gf : t / (gf * gf);
                m[d] = (int)(i < gf / 2 ? i : i - gf);
                m2 += m[d] * m[d];
            }
            /* the parent's modes: its sphere, without its Nyquist planes (where
             * the sphere meets them only at (+-G/2, 0, 0) and permutations) */
            if (m2 > G * G / 4 || abs(m[0]) == G / 2 || abs(m[1]) == G / 2 || abs(m[2]) == G / 2)
                continue;
            /* the mode's bin on the parent's grid; the samples are at (I +
             * 1/2) h: a phase of half a fine cell per axis */
            const int64_t b = (m[0] + G) % G + G * ((m[1] + G) % G + G * ((m[2] + G) % G));
            q[b] += f[t] / (double)nf * cexp(-I * pi * (m[0] + m[1] + m[2]) / (double)gf);
        }
        icx_dft3(G, q, +1);
        for (int64_t s = 0; s < n; s++) {
            const int64_t i = s % G, j = s / G % G, k = s / (G * G);
            /* the fine row a quarter parent cell above the site */
            const int64_t u = 2 * i + gf * (2 * j + gf * 2 * k);
            err = fmax(err, fabs(creal(q[s]) - pl[3 * s + c]));
            raw = fmax(raw, fabs(ph[3 * u + c] - pl[3 * s + c]));
        }
    }
    printf("filtered fine Psi against the parent's: %.2e of max |Psi| %.3g (unfiltered %.2e)\n",
           err / amax, amax, raw / amax);
    CHECK(err <= 1e-12 * amax, "filtered fine Psi differs from the parent's by %.2e", err / amax);
    CHECK(raw > 1e-3 * amax, "the unfiltered fine Psi equals the parent's (%.2e)", raw / amax);
    free(pl), free(ph), free(f), free(q);
    tbrf_ic_cosmo_destroy(lo);
    tbrf_ic_cosmo_destroy(hi);
}


/* Two nested levels of refinement 4 (levels 2 and 4 a side per parent
 * cell): each level's cells as the padding makes them, its particles the
 * (G r_l)^3 IC's on the sub-cells' centres in its cells bit for bit, the
 * coarse type level by level with the right masses, the total the
 * parent's. */
static void test_levels(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = G;
    p.lpt = 2;
    p.seed = 9;
    tbrf_ic_zoom_params z;
    tbrf_ic_default_zoom(&z);
    const double dx = p.box / G; /* the sites of cells 7, 8 per axis */
    for (int a = 0; a < 3; a++)
        z.lo[a] = 6.5 * dx, z.hi[a] = 8.5 * dx;
    z.refinement = 4;
    z.levels = 2;
    z.pad = 1;
    tbrf_ic_zoom *zz = NULL;
    REQUIRE(tbrf_ic_zoom_make(&p, &z, &zz) == TBRF_OK, , "levels: %s", tbrf_ic_zoom_message(zz));
    tbrf_ic_zoom_info f;
    tbrf_ic_zoom_get_info(zz, &f);
    const int64_t n2 = 4 * 4 * 4, n1 = 6 * 6 * 6 - n2, n0 = G * G * G - 6 * 6 * 6;
    CHECK(f.levels == 2 && f.region_cells == n2 && f.level_particles[2] == 64 * n2 &&
              f.level_particles[1] == 8 * n1 && f.level_particles[0] == n0 &&
              f.fine == 64 * n2 && f.coarse == n0 + 8 * n1,
          "levels: %lld %lld %lld particles", (long long)f.level_particles[0],
          (long long)f.level_particles[1], (long long)f.level_particles[2]);
    CHECK(tbrf_ic_zoom_level(zz, 7, 7, 7) == 2 && tbrf_ic_zoom_level(zz, 5, 8, 8) == 1 &&
              tbrf_ic_zoom_level(zz, 4, 8, 8) == 0 && tbrf_ic_zoom_level(zz, 10, 10, 10) == 1,
          "levels of cells");
    tbrf_ic_zoom_part c, fine;
    tbrf_ic_zoom_particles(zz, 2, &c);
    tbrf_ic_zoom_particles(zz, 1, &fine);
    double total = (double)fine.n * f.mass_fine;
    int masses = c.mass != NULL;
    for (int64_t k = 0; masses && k < c.n; k++) {
        total += c.mass[k];
        const double mk = k < n0 ? f.mass_coarse : f.mass_coarse / 8; /* level 0, 1 */
        masses &= fabs(c.mass[k] / mk - 1) < 1e-14;
    }
    const double want = (double)(G * G * G) * f.mass_coarse;
    CHECK(masses && fabs(total / want - 1) < 1e-12, "masses by level, total %.17g of %.17g",
          total, want);
    /* level 1's particles: the (2G)^3 IC's on the sub-cells' centres */
    tbrf_ic_cosmo_params q = p;
    q.particles = 2 * G;
    all_rows l1 = rows_of(&q, 0.5);
    tbrf_ic_zoom_part mid = c;
    mid.n = c.n - n0;
    mid.pos += 3 * n0, mid.vel += 3 * n0, mid.row += n0;
    CHECK(same_rows(&mid, l1.pos, l1.vel, NULL), "level 1 is not the (2G)^3 IC's");
    q.particles = 4 * G;
    all_rows l2 = rows_of(&q, 0.5);
    CHECK(same_rows(&fine, l2.pos, l2.vel, NULL), "level 2 is not the (4G)^3 IC's");
    rows_free(&l1);
    rows_free(&l2);
    tbrf_ic_zoom_destroy(zz);
    z.levels = 3; /* more than log2(4) */
    CHECK(tbrf_ic_zoom_make(&p, &z, &zz) == TBRF_ERR_INVALID, "3 levels of 4 accepted");
    tbrf_ic_zoom_destroy(zz);
    z.levels = 2;
    z.pad = 0;
    CHECK(tbrf_ic_zoom_make(&p, &z, &zz) == TBRF_ERR_INVALID, "nested levels without pad");
    tbrf_ic_zoom_destroy(zz);
}

/* The steps (tbrf_ic_zoom_begin .. finish) as a distributed caller uses
 * them, serially: two "ranks", a zoom that holds the particles taking the
 * rows of each level's lower half and one that does not taking the upper
 * half, whose share is appended to the first's level by level, give
 * tbrf_ic_zoom_make's zoom bit for bit (every type's rows, positions,
 * velocities, masses, energies; the info); the non-holding zoom keeps one
 * level's share and none once finished; the lattice offset of each level;
 * misuse statuses. */
typedef struct halves {
    tbrf_ic_zoom *part[2]; /* rank 0 (holds), rank 1 */
    int64_t split;         /* rows below go to part 0 */
} halves;

static int take_halves(void *user, const tbrf_ic_chunk *ch)
{
    halves *h = user;
    tbrf_ic_chunk a = *ch, b = *ch;
    a.count = ch->first + ch->count <= h->split ? ch->count
              : ch->first >= h->split           ? 0
                                                : h->split - ch->first;
    b.first = ch->first + a.count;
    b.count = ch->count - a.count;
    b.pos += 3 * a.count, b.vel += 3 * a.count;
    if (b.gas_pos)
        b.gas_pos += 3 * a.count, b.gas_u += a.count;
    if (b.gas_vel)
        b.gas_vel += 3 * a.count;
    return tbrf_ic_zoom_take(h->part[0], &a) != TBRF_OK ||
           tbrf_ic_zoom_take(h->part[1], &b) != TBRF_OK;
}

static int same_part(const tbrf_ic_zoom_part *a, const tbrf_ic_zoom_part *b)
{
    const size_t n = (size_t)a->n;
    return a->n == b->n && !memcmp(a->pos, b->pos, 3 * n * sizeof(double)) &&
           !memcmp(a->vel, b->vel, 3 * n * sizeof(double)) &&
           !memcmp(a->row, b->row, n * sizeof(int64_t)) && !a->u == !b->u &&
           (!a->u || !memcmp(a->u, b->u, n * sizeof(double))) && !a->mass == !b->mass &&
           (!a->mass || !memcmp(a->mass, b->mass, n * sizeof(double)));
}

static void test_steps(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = 8;
    p.lpt = 2;
    p.gas = 1;
    tbrf_ic_zoom_params z;
    tbrf_ic_default_zoom(&z);
    z.refinement = 4;
    z.levels = 2;
    z.region = TBRF_IC_ZOOM_SPHERE;
    z.centre[0] = z.centre[1] = z.centre[2] = 20000;
    z.radius = 6000;
    tbrf_ic_zoom *ref = NULL, *all = NULL;
    REQUIRE(tbrf_ic_zoom_make(&p, &z, &ref) == TBRF_OK, , "steps: make: %s",
            tbrf_ic_zoom_message(ref));
    halves h = {{NULL, NULL}, 0};
    CHECK(tbrf_ic_zoom_begin(&p, &z, 1, 0.0, &h.part[0]) == TBRF_OK &&
              tbrf_ic_zoom_begin(&p, &z, 0, 0.0, &h.part[1]) == TBRF_OK,
          "steps: begin: %s", tbrf_ic_zoom_message(h.part[0]));
    all = h.part[0];
    int ok = 1;
    for (int l = 0; l <= 2 && ok; l++) {
        tbrf_ic_cosmo *ic[2] = {NULL, NULL};
        double off = -1;
        ok &= CHECK(tbrf_ic_zoom_level_make(h.part[0], l, 0, 0, &ic[0]) == TBRF_OK &&
                        tbrf_ic_zoom_level_make(h.part[1], l, 0, 0, &ic[1]) == TBRF_OK &&
                        tbrf_ic_cosmo_get_offset(ic[0], &off) == TBRF_OK &&
                        off == (l == 0 ? 0.0 : 0.5),
                    "steps: level %d made, offset %g", l, off);
        tbrf_ic_cosmo_params f;
        tbrf_ic_cosmo_get_params(ic[0], &f);
        h.split = f.particles * f.particles * (f.particles / 2);
        ok &= CHECK(tbrf_ic_cosmo_generate(ic[0], 3, take_halves, &h) == TBRF_OK,
                    "steps: level %d generate: %s", l, tbrf_ic_zoom_message(h.part[0]));
        for (int t = 0; t < 3 && ok; t++) { /* rank 1's share after rank 0's */
            tbrf_ic_zoom_part q;
            ok &= CHECK(tbrf_ic_zoom_particles(h.part[1], t, &q) == TBRF_OK &&
                            tbrf_ic_zoom_append(all, t, &q) == TBRF_OK,
                        "steps: append: %s", tbrf_ic_zoom_message(all));
        }
        tbrf_ic_cosmo_destroy(ic[0]);
        tbrf_ic_cosmo_destroy(ic[1]);
    }
    tbrf_ic_zoom_part q;
    tbrf_ic_zoom_particles(h.part[1], 1, &q);
    CHECK(q.n > 0, "steps: a non-holding zoom holds the last level's share before finish");
    CHECK(tbrf_ic_zoom_finish(all) == TBRF_OK && tbrf_ic_zoom_finish(h.part[1]) == TBRF_OK,
          "steps: finish: %s", tbrf_ic_zoom_message(all));
    tbrf_ic_zoom_particles(h.part[1], 1, &q);
    CHECK(q.n == 0, "steps: a finished non-holding zoom holds none");
    tbrf_ic_zoom_info a, b;
    tbrf_ic_zoom_get_info(ref, &a);
    tbrf_ic_zoom_get_info(all, &b);
    CHECK(!memcmp(&a, &b, sizeof a), "steps: the info differs from make's");
    for (int t = 0; t < 3; t++) {
        tbrf_ic_zoom_part x, y;
        tbrf_ic_zoom_particles(ref, t, &x);
        tbrf_ic_zoom_particles(all, t, &y);
        CHECK(same_part(&x, &y), "steps: type %d differs from make's (%lld, %lld rows)", t,
              (long long)x.n, (long long)y.n);
    }
    /* misuse */
    tbrf_ic_cosmo *ic = NULL;
    tbrf_ic_chunk ch = {0, 0, 1, NULL, NULL, NULL, NULL, NULL, NULL};
    CHECK(tbrf_ic_zoom_finish(all) == TBRF_ERR_INVALID &&
              tbrf_ic_zoom_level_make(all, 0, 0, 0, &ic) == TBRF_ERR_INVALID && !ic &&
              tbrf_ic_zoom_append(all, 1, &q) == TBRF_ERR_INVALID,
          "steps: a finished zoom takes no more");
    tbrf_ic_zoom *w = NULL;
    CHECK(tbrf_ic_zoom_begin(&p, &z, 1, NAN, &w) == TBRF_ERR_INVALID, "steps: run NaN");
    CHECK(tbrf_ic_zoom_level_make(w, 0, 0, 0, &ic) == TBRF_ERR_INVALID, "steps: a failed begin");
    tbrf_ic_zoom_destroy(w);
    REQUIRE(tbrf_ic_zoom_begin(&p, &z, 1, 0.0, &w) == TBRF_OK, , "steps: begin");
    CHECK(tbrf_ic_zoom_finish(w) == TBRF_ERR_INVALID, "steps: finish before level 0");
    CHECK(tbrf_ic_zoom_level_make(w, 3, 0, 0, &ic) == TBRF_ERR_INVALID &&
              tbrf_ic_zoom_level_make(w, -1, 0, 0, &ic) == TBRF_ERR_INVALID &&
              tbrf_ic_zoom_level_make(w, 0, -1, 0, &ic) == TBRF_ERR_INVALID &&
              tbrf_ic_zoom_level_make(w, 0, 0, 0, NULL) == TBRF_ERR_NULL,
          "steps: level_make's level, planes and ic checked");
    CHECK(tbrf_ic_zoom_take(w, &ch) == TBRF_ERR_INVALID && strstr(tbrf_ic_zoom_message(w),
                                                                   "before level_make"),
          "steps: take before any level: %s", tbrf_ic_zoom_message(w));
    tbrf_ic_zoom_part bad = {1, NULL, NULL, NULL, NULL, NULL};
    CHECK(tbrf_ic_zoom_append(w, 3, &bad) == TBRF_ERR_INVALID &&
              tbrf_ic_zoom_append(w, 1, &bad) == TBRF_ERR_NULL &&
              tbrf_ic_zoom_append(w, 1, NULL) == TBRF_ERR_NULL,
          "steps: append's type and rows checked");
    REQUIRE(tbrf_ic_zoom_level_make(w, 0, 0, 0, &ic) == TBRF_OK, , "steps: level 0");
    tbrf_ic_cosmo_destroy(ic);
    CHECK(tbrf_ic_zoom_take(w, NULL) == TBRF_ERR_NULL && tbrf_ic_zoom_take(NULL, &ch) ==
              TBRF_ERR_NULL && tbrf_ic_zoom_take(w, &ch) == TBRF_ERR_INVALID,
          "steps: take's chunk checked (NULL, no positions)");
    CHECK(tbrf_ic_zoom_finish(w) == TBRF_ERR_INVALID && strstr(tbrf_ic_zoom_message(w), "kept"),
          "steps: finish with particles missing: %s", tbrf_ic_zoom_message(w));
    tbrf_ic_zoom_destroy(w);
    p.fixed_amplitude = 1;
    REQUIRE(tbrf_ic_zoom_begin(&p, &z, 0, 0.0, &w) == TBRF_OK, , "steps: begin, fixed");
    CHECK(tbrf_ic_zoom_level_make(w, 1, 2, 100, &ic) == TBRF_ERR_UNSUPPORTED && !ic,
          "steps: a refined level's slab with fixed amplitudes");
    tbrf_ic_zoom_destroy(w);
    p.gas = 0;
    p.fixed_amplitude = 0;
    REQUIRE(tbrf_ic_zoom_begin(&p, &z, 0, 0.0, &w) == TBRF_OK, , "steps: begin, no gas");
    tbrf_ic_zoom_part one = {0, NULL, NULL, NULL, NULL, NULL};
    CHECK(tbrf_ic_zoom_append(w, 0, &one) == TBRF_ERR_INVALID, "steps: gas rows without gas");
    double off = 1;
    tbrf_ic_cosmo *c = NULL;
    CHECK(tbrf_ic_cosmo_make(&p, &c) == TBRF_OK && tbrf_ic_cosmo_get_offset(c, &off) ==
              TBRF_OK && off == 0 && tbrf_ic_cosmo_get_offset(c, NULL) == TBRF_ERR_NULL,
          "steps: a plain IC's offset is 0");
    tbrf_ic_cosmo_destroy(c);
    tbrf_ic_zoom_destroy(w);
    tbrf_ic_zoom_destroy(h.part[1]);
    tbrf_ic_zoom_destroy(all);
    tbrf_ic_zoom_destroy(ref);
}

int main(void)
{
    test_mask();
    test_refusals();
    test_make(1, 0);
    test_make(2, 1);
    test_make(3, 0);
    test_levels();
    test_steps();
    test_filtered();
    one(0, 0);
    one(1, 0);
    one(0, 1);
    return check_report("test_ic_zoom");
}
