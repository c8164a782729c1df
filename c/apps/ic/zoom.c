/* zoom.c — the region of a zoom (multi-resolution) IC (doc/ic.md, Zoom):
 * which of the G^3 parent cells are refined. A cell is in the region when
 * its lattice site (i, j, k) L/G is (a box, a sphere, or the site of a
 * listed particle), so the region is a set of whole parent cells and the
 * fine particles replace exactly the parent particles of those cells;
 * padding grows it by whole cells on every side. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/ic/ic_internal.h"
#include "apps/ic/zoom_internal.h"

void tbrf_ic_default_zoom(tbrf_ic_zoom_params *z)
{
    if (!z)
        return;
    memset(z, 0, sizeof *z);
    z->refinement = 2;
    z->region = TBRF_IC_ZOOM_BOX;
    z->pad = 1;
}

/* The region's own parameters (the parent's G and L checked by the
 * caller): TBRF_OK or the status with why. */
static int check_region(const tbrf_ic_zoom_params *z, int64_t g, double L, char *why, size_t size)
{
    const int r = z->refinement;
    if (r < 2 || r > 64 || (r & (r - 1)) || g * r > 65536)
        return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID, "zoom: refinement %d must be 2, 4, 8, "
                             "16, 32 or 64 with G r <= 65536 (G %lld)", r, (long long)g);
    if (z->pad < 0 || z->pad > g)
        return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID, "zoom: pad %d outside 0 .. G (%lld)",
                             (int)z->pad, (long long)g);
    const int levels = z->levels > 0 ? z->levels : 1;
    if ((1 << (levels - 1)) * 2 > r || levels > 6 || (levels > 1 && z->pad < 1))
        return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID, "zoom: %d levels of refinement %d "
                             "(at most log2 of it, 6) with pad %d (at least 1 for nested "
                             "levels)", (int)z->levels, r, (int)z->pad);
    if (z->region == TBRF_IC_ZOOM_BOX) {
        for (int a = 0; a < 3; a++)
            if (!(z->lo[a] >= 0 && z->lo[a] < L && z->hi[a] > z->lo[a] &&
                  z->hi[a] <= z->lo[a] + L))
                return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID, "zoom: box axis %d from %g to "
                                     "%g: lo must be in [0, L) and lo < hi <= lo + L (L %g)", a,
                                     z->lo[a], z->hi[a], L);
    } else if (z->region == TBRF_IC_ZOOM_SPHERE) {
        for (int a = 0; a < 3; a++)
            if (!(z->centre[a] >= 0 && z->centre[a] < L))
                return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID, "zoom: sphere centre %g on "
                                     "axis %d outside [0, L) (L %g)", z->centre[a], a, L);
        if (!(z->radius > 0 && z->radius <= 0.5 * L))
            return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID, "zoom: sphere radius %g outside "
                                 "(0, L/2] (L %g)", z->radius, L);
    } else if (z->region == TBRF_IC_ZOOM_IDS) {
        if (!z->ids || z->n_ids < 1)
            return tbrfi_ic_fail(why, size, z->ids ? TBRF_ERR_INVALID : TBRF_ERR_NULL,
                                 "zoom: the region's ids are %s", z->ids ? "none" : "NULL");
    } else {
        return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID, "zoom: region kind %d is none of "
                             "TBRF_IC_ZOOM_BOX, _SPHERE, _IDS", (int)z->region);
    }
    return TBRF_OK;
}

/* The offset of x from c, wrapped into [-L/2, L/2). */
static double wrap_offset(double x, double c, double L)
{
    double d = fmod(x - c, L);
    if (d < -0.5 * L)
        d += L;
    else if (d >= 0.5 * L)
        d -= L;
    return d;
}

/* Marks the box's or the sphere's cells; 1D tests per axis for a box. */
static void mark_shape(const tbrf_ic_zoom_params *z, int64_t g, double L, unsigned char *mask)
{
    const double dx = L / (double)g;
    for (int64_t k = 0; k < g; k++)
        for (int64_t j = 0; j < g; j++)
            for (int64_t i = 0; i < g; i++) {
                const int64_t c[3] = {i, j, k};
                int in = 1;
                double r2 = 0;
                for (int a = 0; a < 3 && in; a++) {
                    const double q = (double)c[a] * dx;
                    if (z->region == TBRF_IC_ZOOM_BOX) {
                        double off = q - z->lo[a];
                        if (off < 0)
                            off += L;
                        in = off < z->hi[a] - z->lo[a];
                    } else {
                        const double d = wrap_offset(q, z->centre[a], L);
                        r2 += d * d;
                    }
                }
                if (z->region == TBRF_IC_ZOOM_SPHERE)
                    in = r2 <= z->radius * z->radius;
                mask[i + g * (j + g * k)] = (unsigned char)in;
            }
}

/* Marks the sites of the listed particles: dark matter row + 1, gas G^3 +
 * row + 1 (tbrf_arepo_write_cosmo's numbering). */
static int mark_ids(const tbrf_ic_zoom_params *z, int64_t g, unsigned char *mask, char *why,
                    size_t size)
{
    const uint64_t n = (uint64_t)(g * g * g);
    for (int64_t t = 0; t < z->n_ids; t++) {
        const uint64_t id = z->ids[t];
        if (id < 1 || id > 2 * n)
            return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID, "zoom: ID %llu (entry %lld) "
                                 "outside 1 .. 2 G^3 = %llu of the parent", (unsigned long long)id,
                                 (long long)t, (unsigned long long)(2 * n));
        mask[(id - 1) % n] = 1;
    }
    return TBRF_OK;
}

/* Grows the marked cells by pad along axis a, periodically: a cell is
 * marked when any within pad along the axis was. */
static int dilate_axis(unsigned char *mask, int64_t g, int64_t pad, int a)
{
    const int64_t stride[3] = {1, g, g * g};
    const int64_t s = stride[a];
    unsigned char *line = malloc((size_t)g);
    if (!line)
        return TBRF_ERR_NO_MEMORY;
    for (int64_t o = 0; o < g * g; o++) {
        /* the first cell of line o: the other two axes' indices */
        const int64_t u = o % g, v = o / g;
        const int64_t base = a == 0 ? g * (u + g * v) : a == 1 ? u + g * g * v : u + g * v;
        int64_t count = 0; /* marked cells in the window [i - pad, i + pad] */
        for (int64_t i = 0; i < g; i++)
            line[i] = mask[base + i * s];
        const int64_t w = 2 * pad + 1 >= g ? g : 2 * pad + 1;
        for (int64_t d = -pad; d < -pad + w; d++)
            count += line[((d % g) + g) % g];
        for (int64_t i = 0; i < g; i++) {
            mask[base + i * s] = count > 0;
            if (w < g) { /* slide: drop i - pad, take i + pad + 1 */
                count -= line[(((i - pad) % g) + g) % g];
                count += line[(i + pad + 1) % g];
            }
        }
    }
    free(line);
    return TBRF_OK;
}

int tbrfi_zoom_dilate(unsigned char *mask, int64_t g, int64_t pad)
{
    int st = TBRF_OK;
    for (int a = 0; a < 3 && st == TBRF_OK && pad > 0; a++)
        st = dilate_axis(mask, g, pad, a);
    return st;
}

/* The coarser levels about the finest (mask 1 where it is): level l the
 * finest level's cells grown by (L - l) pad, each cell its highest level;
 * the cells of each level counted into cells[0 .. L]. */
static int nest_levels(unsigned char *mask, int64_t g, int levels, int64_t pad, int64_t *cells)
{
    const int64_t n = g * g * g;
    unsigned char *grow = malloc((size_t)n);
    if (!grow)
        return TBRF_ERR_NO_MEMORY;
    memcpy(grow, mask, (size_t)n);
    for (int64_t c = 0; c < n; c++)
        mask[c] = mask[c] ? (unsigned char)levels : 0;
    int st = TBRF_OK;
    for (int l = levels - 1; l >= 1 && st == TBRF_OK; l--) {
        st = tbrfi_zoom_dilate(grow, g, pad);
        for (int64_t c = 0; c < n && st == TBRF_OK; c++)
            if (grow[c] && !mask[c])
                mask[c] = (unsigned char)l;
    }
    free(grow);
    for (int l = 0; l <= levels; l++)
        cells[l] = 0;
    for (int64_t c = 0; c < n; c++)
        cells[mask[c]]++;
    return st;
}

int tbrfi_zoom_mask(const tbrf_ic_cosmo_params *p, const tbrf_ic_zoom_params *z,
                    unsigned char *mask, int64_t *cells, char *why, size_t size)
{
    if (!p || !z || !mask || !cells)
        return tbrfi_ic_fail(why, size, TBRF_ERR_NULL, "zoom: a NULL argument");
    const int64_t g = p->particles;
    if (g < 2 || g > 65536 || !(p->box > 0) || !isfinite(p->box))
        return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID, "zoom: parent G %lld or box %g "
                             "invalid", (long long)g, p->box);
    int st = check_region(z, g, p->box, why, size);
    if (st != TBRF_OK)
        return st;
    if (z->region == TBRF_IC_ZOOM_IDS)
        st = mark_ids(z, g, mask, why, size);
    else
        mark_shape(z, g, p->box, mask);
    const int levels = z->levels > 0 ? z->levels : 1;
    if (st == TBRF_OK && (tbrfi_zoom_dilate(mask, g, z->pad) != TBRF_OK ||
                          nest_levels(mask, g, levels, z->pad, cells) != TBRF_OK))
        st = tbrfi_ic_fail(why, size, TBRF_ERR_NO_MEMORY, "zoom: out of memory");
    if (st != TBRF_OK)
        return st;
    if (cells[levels] == 0 || cells[0] == 0)
        return tbrfi_ic_fail(why, size, TBRF_ERR_INVALID, "zoom: the region holds %s parent "
                             "cell (padded by %d)%s", cells[0] ? "no" : "every", (int)z->pad,
                             cells[0] ? "" : ": that is the (G r)^3 IC, tbrf_ic_cosmo_make");
    return TBRF_OK;
}

void tbrfi_zoom_extent(const unsigned char *mask, int64_t g, int64_t lo[3], int64_t width[3])
{
    unsigned char *used = calloc((size_t)(3 * g), 1);
    for (int64_t c = 0; used && c < g * g * g; c++)
        if (mask[c]) {
            used[c % g] = 1;
            used[g + c / g % g] = 1;
            used[2 * g + c / (g * g)] = 1;
        }
    for (int a = 0; a < 3; a++) {
        const unsigned char *u = used ? used + a * g : NULL;
        int64_t best = 0, best_end = 0, run = 0; /* the longest empty run, ending before best_end */
        for (int64_t i = 0; u && i < 2 * g; i++) {
            run = u[i % g] ? 0 : run + 1;
            if (run > best && run <= g) {
                best = run;
                best_end = (i + 1) % g;
            }
        }
        lo[a] = u ? best_end : 0;
        width[a] = u ? g - best : g;
    }
    free(used);
}
