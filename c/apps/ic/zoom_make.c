/* zoom_make.c — a zoom (multi-resolution) cosmological IC (doc/ic.md,
 * Zoom): the parent IC's particles outside the region, the fine IC's
 * inside it. The fine IC is the parent's parameters with G r particles a
 * side: every Fourier mode is a pure function of (seed, integer
 * wavevector) whatever G is, so the fine particles carry the parent's own
 * modes (|k| <= pi G/L) exactly and add those up to pi G r/L. Both are
 * made one after the other and streamed (tbrf_ic_cosmo_generate), keeping
 * only the particles of their side of the region. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/ic/cosmo_internal.h"
#include "apps/ic/ic_internal.h"
#include "apps/ic/zoom_internal.h"

/* Rows a chunk of the fine IC holds: its displacements and positions stay
 * small beside the plan. */
#define ZOOM_CHUNK_ROWS ((int64_t)1 << 20)

/* The fine sites: the centres of the r^3 sub-cells of every parent cell,
 * (I + 1/2) L/(G r) — the lattice of G r a side shifted by half its
 * spacing (tbrfi_icc_make_offset: the plan's FFT there), or with fixed
 * amplitudes, whose potential lives in the unshifted frame, a one-point
 * glass tiled G r times per axis (the plan's non-uniform path). On the
 * unshifted fine lattice a parent cell's r sites per axis would sit half
 * a fine cell off its centre for even r, and the region's boundary would
 * carry layers of O(1) density contrast. */
static const double HALF_SITE[3] = {0.5, 0.5, 0.5};

/* The parameters of level l's IC (refinement rl > 1: G rl particles a
 * side on the sub-cells' centres; rl = 1: the parent's lattice), with gas
 * at the finest level only (a coarser particle carries its site's whole
 * mass, dark matter and baryons). */
static tbrf_ic_cosmo_params level_params(const tbrf_ic_cosmo_params *p, int64_t rl, int gas)
{
    tbrf_ic_cosmo_params f = *p;
    f.particles = p->particles * rl;
    if (rl > 1 && p->fixed_amplitude) {
        f.glass = HALF_SITE;
        f.glass_n = 1;
        f.glass_box = 1.0;
    }
    f.gas_volumes = 0;
    if (!gas) { /* no species: the total matter, in the growing mode */
        f.gas = 0;
        f.power_gas = NULL;
        f.power_dm = f.velocity_dm = f.velocity_gas = NULL;
    }
    return f;
}

/* Level l's refinement of L levels: r / 2^(L - l), 1 for the parent. */
static int64_t level_r(const tbrf_ic_zoom_params *z, int l)
{
    const int levels = z->levels > 0 ? z->levels : 1;
    return l == 0 ? 1 : (int64_t)z->refinement >> (levels - l);
}

/* The chunks an IC streams in: the fewest that fit, at least one per
 * ZOOM_CHUNK_ROWS rows. 0 when none fits. */
static int64_t fine_chunks(const tbrf_ic_cosmo_params *f)
{
    double bytes = 0;
    int64_t fewest = 0;
    if (tbrf_ic_cosmo_bytes(f, 1, &bytes, &fewest) != TBRF_OK || fewest == 0)
        return 0;
    const int64_t n = f->particles * f->particles * f->particles;
    int64_t c = (n + ZOOM_CHUNK_ROWS - 1) / ZOOM_CHUNK_ROWS;
    c = c > fewest ? c : fewest;
    return c > TBRF_IC_MAX_CHUNKS ? TBRF_IC_MAX_CHUNKS : c;
}

/* The particles of each level (cells[l] rl^3) and the coarse ones'. */
static void level_counts(const tbrf_ic_zoom_params *z, const int64_t *cells, int64_t *count,
                         int64_t *coarse)
{
    const int levels = z->levels > 0 ? z->levels : 1;
    *coarse = 0;
    for (int l = 0; l <= levels; l++) {
        const int64_t rl = level_r(z, l);
        count[l] = cells[l] * rl * rl * rl;
        *coarse += l < levels ? count[l] : 0;
    }
}

/* The bytes of the kept particles: positions, velocities and rows, the
 * masses of nested levels, the gas's energies. */
static double kept_bytes(const tbrf_ic_cosmo_params *p, int levels, const int64_t *count,
                         int64_t coarse)
{
    const double row = 7.0 * sizeof(double), n = (double)count[levels];
    return n * row * (p->gas ? 2.0 : 1.0) + (p->gas ? 8.0 * n : 0.0) +
           (double)coarse * (row + (levels > 1 ? 8.0 : 0.0));
}

/* The most one of the levels' runs holds: they are made one after the
 * other (tbrf_ic_zoom_make's chunks). */
static int run_bytes(const tbrf_ic_cosmo_params *p, const tbrf_ic_zoom_params *z, double *run)
{
    const int levels = z->levels > 0 ? z->levels : 1;
    *run = 0;
    for (int l = 0; l <= levels; l++) {
        const tbrf_ic_cosmo_params f = level_params(p, level_r(z, l), l == levels && p->gas);
        const int64_t chunks = l == 0 ? 1 : fine_chunks(&f);
        double b = 0;
        int64_t fewest = 0;
        int st = tbrf_ic_cosmo_bytes(&f, chunks > 0 ? chunks : TBRF_IC_MAX_CHUNKS, &b, &fewest);
        if (st != TBRF_OK)
            return st;
        *run = fmax(*run, b);
    }
    return TBRF_OK;
}

/* The most held at once: the mask and the kept particles with the
 * largest of the levels' runs. */
static int zoom_bytes(const tbrf_ic_cosmo_params *p, const tbrf_ic_zoom_params *z,
                      const int64_t *cells, double *bytes)
{
    const int levels = z->levels > 0 ? z->levels : 1;
    int64_t count[8], coarse = 0;
    level_counts(z, cells, count, &coarse);
    double run = 0;
    int st = run_bytes(p, z, &run);
    if (st == TBRF_OK)
        *bytes = (double)(p->particles * p->particles * p->particles) + run +
                 kept_bytes(p, levels, count, coarse);
    return st;
}

int tbrf_ic_zoom_bytes(const tbrf_ic_cosmo_params *p, const tbrf_ic_zoom_params *z,
                       double *bytes)
{
    if (!p || !z || !bytes)
        return TBRF_ERR_NULL;
    const int64_t g = p->particles;
    if (g < 2 || g > TBRF_IC_MAX_PARTICLES || z->refinement < 2 || z->refinement > 64 ||
        (z->refinement & (z->refinement - 1)) || g * z->refinement > TBRF_IC_MAX_PARTICLES)
        return TBRF_ERR_INVALID;
    unsigned char *mask = calloc((size_t)(g * g * g), 1);
    if (!mask)
        return TBRF_ERR_NO_MEMORY;
    int64_t cells[8] = {0};
    int st = tbrfi_zoom_mask(p, z, mask, cells, NULL, 0);
    free(mask);
    return st == TBRF_OK ? zoom_bytes(p, z, cells, bytes) : st;
}

/* The bytes the zoom's particle arrays take at caps cap[t]. */
static double held_bytes(const tbrf_ic_zoom *z, const int64_t *cap)
{
    double b = (double)(z->p.particles * z->p.particles * z->p.particles);
    for (int t = 0; t < 3; t++)
        b += (double)cap[t] * (7.0 * sizeof(double) + (t == 0 ? 8.0 : 0.0) +
                               (t == 2 && z->z.levels > 1 ? 8.0 : 0.0));
    return b;
}

/* Room for `more` rows of type t past those held (energies: gas;
 * masses: nested coarse levels): grown by doubling, the mask and every
 * type's arrays checked against the memory budget first. */
static int type_room(tbrf_ic_zoom *z, int type, int64_t more)
{
    tbrfi_zoom_type *t = &z->type[type];
    if (t->n + more <= t->cap && t->pos)
        return TBRF_OK;
    int64_t cap[3] = {z->type[0].cap, z->type[1].cap, z->type[2].cap};
    cap[type] = t->n + more > 2 * t->cap ? t->n + more : 2 * t->cap;
    cap[type] = cap[type] > 1024 || z->hold ? cap[type] : 1024;
    char why[TBRFI_MESSAGE_SIZE];
    int st = tbrfi_ic_budget(held_bytes(z, cap), "zoom IC: the particles kept", why, sizeof why);
    if (st != TBRF_OK)
        return tbrfi_fail(&z->msg, st, "%s", why);
    const size_t m = (size_t)(cap[type] > 0 ? cap[type] : 1);
    const int gas = type == 0, masses = type == 2 && z->z.levels > 1;
    double *pos = realloc(t->pos, m * 3 * sizeof(double));
    t->pos = pos ? pos : t->pos;
    double *vel = realloc(t->vel, m * 3 * sizeof(double));
    t->vel = vel ? vel : t->vel;
    int64_t *row = realloc(t->row, m * sizeof(int64_t));
    t->row = row ? row : t->row;
    double *u = gas ? realloc(t->u, m * sizeof(double)) : NULL;
    t->u = u ? u : t->u;
    double *mass = masses ? realloc(t->mass, m * sizeof(double)) : NULL;
    t->mass = mass ? mass : t->mass;
    if (!pos || !vel || !row || (gas && !u) || (masses && !mass))
        return tbrfi_fail(&z->msg, TBRF_ERR_NO_MEMORY, "zoom: out of memory for %lld particles",
                          (long long)cap[type]);
    t->cap = cap[type];
    return TBRF_OK;
}

/* Appends row `row` of a chunk (its index k in the chunk) to type t. */
static int type_push(tbrf_ic_zoom *z, int type, int64_t row, int64_t k, const double *pos,
                     const double *vel, const double *u, double mass)
{
    int st = type_room(z, type, 1);
    if (st != TBRF_OK)
        return st;
    tbrfi_zoom_type *t = &z->type[type];
    memcpy(t->pos + 3 * t->n, pos + 3 * k, 3 * sizeof(double));
    memcpy(t->vel + 3 * t->n, vel + 3 * k, 3 * sizeof(double));
    if (t->u)
        t->u[t->n] = u ? u[k] : 0.0;
    if (t->mass)
        t->mass[t->n] = mass;
    t->row[t->n++] = row;
    return TBRF_OK;
}

/* The level's index checked on a begun, unfinished zoom. */
static int level_usable(tbrf_ic_zoom *z, int level, const char *what)
{
    if (!z->began || z->made)
        return tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: %s on a zoom %s", what,
                          z->began ? "already finished" : "not begun (a failed begin)");
    const int levels = z->z.levels > 0 ? z->z.levels : 1;
    if (level < 0 || level > levels)
        return tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: %s: level %d outside 0 .. %d", what,
                          level, levels);
    return TBRF_OK;
}

int tbrf_ic_zoom_take(void *zoom, const tbrf_ic_chunk *ch)
{
    tbrf_ic_zoom *z = zoom;
    if (!z)
        return TBRF_ERR_NULL;
    if (!ch)
        return tbrfi_fail(&z->msg, TBRF_ERR_NULL, "zoom: take: chunk is NULL");
    const int level = z->level;
    int st = level < 0 ? tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: take before level_make")
                       : level_usable(z, level, "take");
    if (st != TBRF_OK)
        return st;
    const int levels = z->z.levels > 0 ? z->z.levels : 1, finest = level == levels;
    const int64_t g = z->p.particles, r = level_r(&z->z, level), gf = g * r;
    const double mass = z->lmass[level];
    if (st == TBRF_OK && ch->count > 0 &&
        (ch->first < 0 || ch->count > gf * gf * gf - ch->first || !ch->pos || !ch->vel))
        st = tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: take: a chunk of rows %lld + %lld "
                        "outside level %d's %lld^3 (or no positions)", (long long)ch->first,
                        (long long)ch->count, level, (long long)gf);
    for (int64_t k = 0; k < ch->count && st == TBRF_OK; k++) {
        const int64_t row = ch->first + k;
        const int64_t c = r == 1 ? row
                                 : tbrfi_zoom_cell(row % gf, r, g) +
                                       g * (tbrfi_zoom_cell(row / gf % gf, r, g) +
                                            g * tbrfi_zoom_cell(row / (gf * gf), r, g));
        if (z->mask[c] != level)
            continue;
        if (!finest) {
            st = type_push(z, 2, row, k, ch->pos, ch->vel, NULL, mass);
            continue;
        }
        st = type_push(z, 1, row, k, ch->pos, ch->vel, NULL, 0);
        if (ch->gas_pos && st == TBRF_OK)
            st = type_push(z, 0, row, k, ch->gas_pos, ch->gas_vel ? ch->gas_vel : ch->vel,
                           ch->gas_u, 0);
    }
    return st;
}

int tbrf_ic_zoom_append(tbrf_ic_zoom *z, int type, const tbrf_ic_zoom_part *part)
{
    if (!z)
        return TBRF_ERR_NULL;
    if (!part)
        return tbrfi_fail(&z->msg, TBRF_ERR_NULL, "zoom: append: part is NULL");
    int st = level_usable(z, 0, "append");
    const int masses = type == 2 && z->z.levels > 1;
    if (st == TBRF_OK && (type < 0 || type > 2 || part->n < 0 || (type == 0 && !z->p.gas)))
        st = tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: append: type %d (%lld rows) %s", type,
                        (long long)part->n, type == 0 ? "without gas" : "outside 0 .. 2");
    if (st == TBRF_OK && part->n > 0 &&
        (!part->pos || !part->vel || !part->row || (type == 0 && !part->u) ||
         (masses && !part->mass)))
        st = tbrfi_fail(&z->msg, TBRF_ERR_NULL, "zoom: append: type %d's rows lack positions, "
                        "velocities, rows%s", type, type == 0 ? " or energies" : " or masses");
    if (st == TBRF_OK && part->n > 0)
        st = type_room(z, type, part->n);
    if (st != TBRF_OK || part->n == 0)
        return st;
    tbrfi_zoom_type *t = &z->type[type];
    const size_t n = (size_t)part->n;
    memcpy(t->pos + 3 * t->n, part->pos, 3 * n * sizeof(double));
    memcpy(t->vel + 3 * t->n, part->vel, 3 * n * sizeof(double));
    memcpy(t->row + t->n, part->row, n * sizeof(int64_t));
    if (t->u)
        memcpy(t->u + t->n, part->u, n * sizeof(double));
    if (t->mass)
        memcpy(t->mass + t->n, part->mass, n * sizeof(double));
    t->n += part->n;
    return TBRF_OK;
}

/* The counts, masses and growth of the finished zoom. */
static void zoom_info(tbrf_ic_zoom *z)
{
    tbrf_ic_zoom_info *f = &z->info;
    const tbrf_ic_cosmo_info *parent = &z->linfo[0], *fine = &z->linfo[1];
    const int levels = z->z.levels > 0 ? z->z.levels : 1;
    const int64_t r = level_r(&z->z, levels);
    f->region_cells = z->count[levels] / (r * r * r);
    f->fine = z->count[levels];
    f->coarse = z->coarse;
    f->gas = z->p.gas ? z->count[levels] : 0;
    f->levels = levels;
    for (int l = 0; l <= levels; l++)
        f->level_particles[l] = z->count[l];
    f->mass_coarse = parent->mass_dm;
    f->mass_fine = fine->mass_dm;
    f->mass_gas = fine->mass_gas;
    f->scale_factor = parent->scale_factor;
    f->growth = parent->growth;
    f->growth_rate = parent->growth_rate;
    f->velocity_factor = parent->velocity_factor;
    f->growth2 = parent->growth2;
    f->growth_rate2 = parent->growth_rate2;
    f->velocity_factor2 = parent->velocity_factor2;
    f->gas_temperature = z->p.gas ? fine->gas_temperature : 0.0;
    f->internal_energy = z->p.gas ? fine->internal_energy : 0.0;
    tbrfi_zoom_extent(z->mask, z->p.particles, f->extent_lo, f->extent_width);
}

/* The parent's checks, the mask, the counts and the budget of what the
 * zoom holds beside run (room for every particle when it holds them). */
static int zoom_begin(tbrf_ic_zoom *z, const tbrf_ic_cosmo_params *p,
                      const tbrf_ic_zoom_params *region, double run)
{
    const int levels = region->levels > 0 ? region->levels : 1;
    int64_t cells[8] = {0};
    int st = tbrfi_zoom_mask(p, region, z->mask, cells, z->msg.text, sizeof z->msg.text);
    if (st != TBRF_OK)
        return z->msg.status = st;
    level_counts(region, cells, z->count, &z->coarse);
    char why[TBRFI_MESSAGE_SIZE];
    const double g3 = (double)(p->particles * p->particles * p->particles);
    st = tbrfi_ic_budget(g3 + run + (z->hold ? kept_bytes(p, levels, z->count, z->coarse) : 0.0),
                         z->hold ? "zoom IC" : "zoom IC: the region's mask", why, sizeof why);
    if (st != TBRF_OK)
        return tbrfi_fail(&z->msg, st, "%s", why);
    if (z->hold && ((st = type_room(z, 2, z->coarse)) != TBRF_OK ||
                    (st = type_room(z, 1, z->count[levels])) != TBRF_OK ||
                    (p->gas && (st = type_room(z, 0, z->count[levels])) != TBRF_OK)))
        return st;
    return TBRF_OK;
}

int tbrf_ic_zoom_begin(const tbrf_ic_cosmo_params *parent, const tbrf_ic_zoom_params *zoom,
                       int hold, double run, tbrf_ic_zoom **out)
{
    if (!out)
        return TBRF_ERR_NULL;
    tbrf_ic_zoom *z = calloc(1, sizeof *z);
    *out = z;
    if (!z)
        return TBRF_ERR_NO_MEMORY;
    if (!parent || !zoom)
        return tbrfi_fail(&z->msg, TBRF_ERR_NULL, "zoom: parent or zoom NULL");
    if (parent->glass_n != 0 || parent->glass)
        return tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: the parent must be on the lattice "
                          "(a glass has no fine version with the same sites)");
    if (!(run >= 0) || isinf(run))
        return tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: run bytes %g", run);
    z->p = *parent;
    z->z = *zoom;
    z->z.ids = NULL;
    z->hold = hold != 0;
    z->level = -1;
    const int64_t g = parent->particles;
    if (g < 2 || g > TBRF_IC_MAX_PARTICLES)
        return tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: parent G %lld outside 2 .. %d",
                          (long long)g, TBRF_IC_MAX_PARTICLES);
    z->mask = calloc((size_t)(g * g * g), 1);
    if (!z->mask)
        return tbrfi_fail(&z->msg, TBRF_ERR_NO_MEMORY, "zoom: out of memory for the region");
    int st = zoom_begin(z, parent, zoom, run);
    if (st != TBRF_OK)
        return st;
    z->began = 1;
    tbrfi_message_clear(&z->msg);
    return TBRF_OK;
}

int tbrf_ic_zoom_level_make(tbrf_ic_zoom *z, int level, int64_t planes, int64_t rows,
                            tbrf_ic_cosmo **ic)
{
    if (ic)
        *ic = NULL;
    if (!z || !ic)
        return z ? tbrfi_fail(&z->msg, TBRF_ERR_NULL, "zoom: level_make: ic is NULL")
                 : TBRF_ERR_NULL;
    int st = level_usable(z, level, "level_make");
    if (st != TBRF_OK)
        return st;
    const int levels = z->z.levels > 0 ? z->z.levels : 1;
    const int64_t rl = level_r(&z->z, level);
    if (planes < 0)
        st = tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: level_make: planes %lld",
                        (long long)planes);
    if (st == TBRF_OK && planes > 0 && rl > 1 && z->p.fixed_amplitude)
        st = tbrfi_fail(&z->msg, TBRF_ERR_UNSUPPORTED, "zoom: a refined level with fixed "
                        "amplitudes is made on a glass of one site, which has no slab");
    if (st != TBRF_OK)
        return st;
    if (!z->hold) /* what it held was the previous level's, handed on */
        for (int t = 0; t < 3; t++)
            z->type[t].n = 0;
    z->level = -1; /* until this level's IC is made */
    const tbrf_ic_cosmo_params f = level_params(&z->p, rl, level == levels && z->p.gas);
    st = rl > 1 && !z->p.fixed_amplitude ? tbrfi_icc_make_offset(&f, planes, rows, 0.5, ic)
         : planes > 0                    ? tbrf_ic_cosmo_make_slab(&f, planes, rows, ic)
                                         : tbrf_ic_cosmo_make(&f, ic);
    tbrf_ic_cosmo_params made;
    if (st == TBRF_OK && level == 0 && (st = tbrf_ic_cosmo_get_params(*ic, &made)) == TBRF_OK)
        z->p.omega_lambda = made.omega_lambda; /* resolved: NaN is the flat universe's */
    tbrf_ic_cosmo_info info;
    if (st == TBRF_OK && (st = tbrf_ic_cosmo_get_info(*ic, &info)) == TBRF_OK) {
        z->lmass[level] = info.mass_dm;
        if (level == 0)
            z->linfo[0] = info;
        if (level == levels)
            z->linfo[1] = info;
    }
    if (st == TBRF_OK)
        z->level = level;
    if (st != TBRF_OK)
        tbrfi_fail(&z->msg, st, "zoom: level %d's IC (%lld^3): %s", level,
                   (long long)f.particles, *ic ? tbrf_ic_cosmo_message(*ic) : tbrf_strerror(st));
    return st;
}

int tbrf_ic_zoom_finish(tbrf_ic_zoom *z)
{
    if (!z)
        return TBRF_ERR_NULL;
    int st = level_usable(z, 0, "finish");
    if (st == TBRF_OK && z->linfo[0].particles == 0)
        st = tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: finish before level 0 was made");
    const int levels = z->z.levels > 0 ? z->z.levels : 1;
    if (st == TBRF_OK && z->hold &&
        (z->type[1].n != z->count[levels] || z->type[2].n != z->coarse ||
         z->type[0].n != (z->p.gas ? z->count[levels] : 0)))
        st = tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: kept %lld fine, %lld gas and %lld "
                        "coarse particles, not %lld, %lld and %lld", (long long)z->type[1].n,
                        (long long)z->type[0].n, (long long)z->type[2].n,
                        (long long)z->count[levels],
                        (long long)(z->p.gas ? z->count[levels] : 0), (long long)z->coarse);
    if (st != TBRF_OK)
        return st;
    if (!z->hold) /* its rows were handed on */
        for (int t = 0; t < 3; t++)
            z->type[t].n = 0;
    zoom_info(z);
    z->p.power = NULL;
    z->p.power_gas = NULL;
    z->p.power_dm = z->p.velocity_dm = z->p.velocity_gas = NULL;
    z->made = 1;
    tbrfi_message_clear(&z->msg);
    return TBRF_OK;
}

int tbrf_ic_zoom_make(const tbrf_ic_cosmo_params *parent, const tbrf_ic_zoom_params *zoom,
                      tbrf_ic_zoom **out)
{
    double run = 0;
    int st = parent && zoom ? run_bytes(parent, zoom, &run) : TBRF_OK;
    st = tbrf_ic_zoom_begin(parent, zoom, 1, st == TBRF_OK ? run : 0, out);
    if (st != TBRF_OK)
        return st;
    tbrf_ic_zoom *z = *out;
    const int levels = zoom->levels > 0 ? zoom->levels : 1;
    for (int l = 0; l <= levels && st == TBRF_OK; l++) {
        tbrf_ic_cosmo *ic = NULL;
        st = tbrf_ic_zoom_level_make(z, l, 0, 0, &ic);
        if (st == TBRF_OK) {
            const tbrf_ic_cosmo_params f =
                level_params(&z->p, level_r(zoom, l), l == levels && z->p.gas);
            st = tbrf_ic_cosmo_generate(ic, l == 0 ? 1 : fine_chunks(&f), tbrf_ic_zoom_take, z);
            if (st != TBRF_OK && z->msg.status == TBRF_OK)
                tbrfi_fail(&z->msg, st, "zoom: level %d's IC: %s", l, tbrf_ic_cosmo_message(ic));
            else if (st != TBRF_OK)
                st = z->msg.status;
        }
        tbrf_ic_cosmo_destroy(ic);
    }
    return st == TBRF_OK ? tbrf_ic_zoom_finish(z) : st;
}

int tbrf_ic_zoom_get_params(const tbrf_ic_zoom *z, tbrf_ic_cosmo_params *parent,
                            tbrf_ic_zoom_params *region)
{
    if (!z || !parent || !region)
        return TBRF_ERR_NULL;
    if (!z->made)
        return TBRF_ERR_INVALID;
    *parent = z->p;
    *region = z->z;
    return TBRF_OK;
}

int tbrf_ic_zoom_get_info(const tbrf_ic_zoom *z, tbrf_ic_zoom_info *info)
{
    if (!z || !info)
        return TBRF_ERR_NULL;
    if (!z->made)
        return TBRF_ERR_INVALID;
    *info = z->info;
    return TBRF_OK;
}

int tbrf_ic_zoom_particles(const tbrf_ic_zoom *z, int type, tbrf_ic_zoom_part *part)
{
    if (!z || !part)
        return TBRF_ERR_NULL;
    if (!(z->made || z->began) || type < 0 || type > 2)
        return TBRF_ERR_INVALID;
    const tbrfi_zoom_type *t = &z->type[type];
    *part = (tbrf_ic_zoom_part){t->n, t->pos, t->vel, t->u, t->mass, t->row};
    return TBRF_OK;
}

int tbrf_ic_zoom_level(const tbrf_ic_zoom *z, int64_t i, int64_t j, int64_t k)
{
    if (!z || !z->made)
        return -1;
    const int64_t g = z->p.particles;
    if (i < 0 || j < 0 || k < 0 || i >= g || j >= g || k >= g)
        return 0;
    return z->mask[i + g * (j + g * k)];
}

int tbrf_ic_zoom_status(const tbrf_ic_zoom *z)
{
    return z ? z->msg.status : TBRF_ERR_NULL;
}

const char *tbrf_ic_zoom_message(const tbrf_ic_zoom *z)
{
    return z ? tbrfi_message_text(&z->msg) : "no zoom";
}

void tbrf_ic_zoom_destroy(tbrf_ic_zoom *z)
{
    if (!z)
        return;
    for (int t = 0; t < 3; t++) {
        free(z->type[t].pos);
        free(z->type[t].vel);
        free(z->type[t].u);
        free(z->type[t].mass);
        free(z->type[t].row);
    }
    free(z->mask);
    free(z);
}
