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

/* The most held at once: the mask and the kept particles (positions,
 * velocities, rows; masses of nested levels; the gas's energies), with
 * the largest of the levels' runs, made one after the other. */
static int zoom_bytes(const tbrf_ic_cosmo_params *p, const tbrf_ic_zoom_params *z,
                      const int64_t *cells, double *bytes)
{
    const int levels = z->levels > 0 ? z->levels : 1;
    int64_t count[8], coarse = 0;
    level_counts(z, cells, count, &coarse);
    const double row = 7.0 * sizeof(double), n = (double)count[levels];
    double run = 0;
    for (int l = 0; l <= levels; l++) {
        const tbrf_ic_cosmo_params f = level_params(p, level_r(z, l), l == levels && p->gas);
        const int64_t chunks = l == 0 ? 1 : fine_chunks(&f);
        double b = 0;
        int64_t fewest = 0;
        int st = tbrf_ic_cosmo_bytes(&f, chunks > 0 ? chunks : TBRF_IC_MAX_CHUNKS, &b, &fewest);
        if (st != TBRF_OK)
            return st;
        run = fmax(run, b);
    }
    *bytes = (double)(p->particles * p->particles * p->particles) + run +
             n * row * (p->gas ? 2.0 : 1.0) + (p->gas ? 8.0 * n : 0.0) +
             (double)coarse * (row + (levels > 1 ? 8.0 : 0.0));
    return TBRF_OK;
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

/* Room for n rows of t (energies: gas; masses: nested coarse levels). */
static int type_alloc(tbrfi_zoom_type *t, int64_t n, int gas, int masses)
{
    const size_t m = (size_t)(n > 0 ? n : 1);
    t->cap = n;
    t->pos = malloc(m * 3 * sizeof(double));
    t->vel = malloc(m * 3 * sizeof(double));
    t->row = malloc(m * sizeof(int64_t));
    t->u = gas ? malloc(m * sizeof(double)) : NULL;
    t->mass = masses ? malloc(m * sizeof(double)) : NULL;
    return t->pos && t->vel && t->row && (!gas || t->u) && (!masses || t->mass)
               ? TBRF_OK : TBRF_ERR_NO_MEMORY;
}

/* Appends row `row` of a chunk (its index k in the chunk) to t, or
 * returns 1 when t is full (cannot happen: each level's count is known). */
static int type_push(tbrfi_zoom_type *t, int64_t row, int64_t k, const double *pos,
                     const double *vel, const double *u, double mass)
{
    if (t->n >= t->cap)
        return 1;
    memcpy(t->pos + 3 * t->n, pos + 3 * k, 3 * sizeof(double));
    memcpy(t->vel + 3 * t->n, vel + 3 * k, 3 * sizeof(double));
    if (u)
        t->u[t->n] = u[k];
    if (t->mass)
        t->mass[t->n] = mass;
    t->row[t->n++] = row;
    return 0;
}

/* The callbacks' state: the zoom, the level whose IC the chunks are, its
 * refinement and particle mass. */
typedef struct zoom_take {
    tbrf_ic_zoom *zoom;
    int level, finest;
    int64_t r;
    double mass;
} zoom_take;

/* Keeps a chunk's particles of its level's cells: the parent's outside
 * every level, level l's IC's in level l's cells (the finest level's with
 * their gas). */
static int take_chunk(void *user, const tbrf_ic_chunk *ch)
{
    zoom_take *t = user;
    tbrf_ic_zoom *z = t->zoom;
    const int64_t g = z->p.particles, r = t->r, gf = g * r;
    int full = 0;
    for (int64_t k = 0; k < ch->count && !full; k++) {
        const int64_t row = ch->first + k;
        const int64_t c = r == 1 ? row
                                 : tbrfi_zoom_cell(row % gf, r, g) +
                                       g * (tbrfi_zoom_cell(row / gf % gf, r, g) +
                                            g * tbrfi_zoom_cell(row / (gf * gf), r, g));
        if (z->mask[c] != t->level)
            continue;
        if (!t->finest) {
            full = type_push(&z->type[2], row, k, ch->pos, ch->vel, NULL, t->mass);
            continue;
        }
        full = type_push(&z->type[1], row, k, ch->pos, ch->vel, NULL, 0);
        if (ch->gas_pos && !full)
            full = type_push(&z->type[0], row, k, ch->gas_pos, ch->gas_vel ? ch->gas_vel : ch->vel,
                             ch->gas_u, 0);
    }
    return full;
}

/* Makes level l's IC and keeps its cells' particles; the info it derived
 * into *info (with the parent's the flat universe's Omega_Lambda). */
static int run_level(tbrf_ic_zoom *z, const tbrf_ic_cosmo_params *p, int l,
                     tbrf_ic_cosmo_info *info)
{
    const int levels = z->z.levels > 0 ? z->z.levels : 1;
    const int64_t rl = level_r(&z->z, l);
    const tbrf_ic_cosmo_params f = level_params(p, rl, l == levels && p->gas);
    tbrf_ic_cosmo *ic = NULL;
    int st = rl > 1 && !p->fixed_amplitude ? tbrfi_icc_make_offset(&f, 0.5, &ic)
                                           : tbrf_ic_cosmo_make(&f, &ic);
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_get_info(ic, info);
    zoom_take take = {z, l, l == levels, rl, info->mass_dm};
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_generate(ic, l == 0 ? 1 : fine_chunks(&f), take_chunk, &take);
    tbrf_ic_cosmo_params made;
    if (st == TBRF_OK && l == 0 && (st = tbrf_ic_cosmo_get_params(ic, &made)) == TBRF_OK)
        z->p.omega_lambda = made.omega_lambda; /* resolved: NaN is the flat universe's */
    if (st != TBRF_OK)
        tbrfi_fail(&z->msg, st, "zoom: level %d's IC (%lld^3): %s", l, (long long)f.particles,
                   ic ? tbrf_ic_cosmo_message(ic) : tbrf_strerror(st));
    tbrf_ic_cosmo_destroy(ic);
    return st;
}

/* The counts, masses and growth of the made zoom. */
static void zoom_info(tbrf_ic_zoom *z, const tbrf_ic_cosmo_info *parent,
                      const tbrf_ic_cosmo_info *fine, const int64_t *cells, const int64_t *count)
{
    tbrf_ic_zoom_info *f = &z->info;
    const int levels = z->z.levels > 0 ? z->z.levels : 1;
    f->region_cells = cells[levels];
    f->fine = z->type[1].n;
    f->coarse = z->type[2].n;
    f->gas = z->type[0].n;
    f->levels = levels;
    for (int l = 0; l <= levels; l++)
        f->level_particles[l] = count[l];
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

/* Checks, budgets and allocates, then runs the parent and each level. */
static int zoom_run(tbrf_ic_zoom *z, const tbrf_ic_cosmo_params *p,
                    const tbrf_ic_zoom_params *region)
{
    const int levels = region->levels > 0 ? region->levels : 1;
    int64_t cells[8] = {0}, count[8] = {0}, coarse = 0;
    int st = tbrfi_zoom_mask(p, region, z->mask, cells, z->msg.text, sizeof z->msg.text);
    if (st != TBRF_OK)
        return z->msg.status = st;
    double bytes = 0;
    char why[TBRFI_MESSAGE_SIZE];
    st = zoom_bytes(p, region, cells, &bytes);
    if (st == TBRF_OK)
        st = tbrfi_ic_budget(bytes, "zoom IC", why, sizeof why);
    if (st != TBRF_OK)
        return tbrfi_fail(&z->msg, st, "%s", st == TBRF_ERR_INVALID ? "zoom: the parent's "
                          "parameters are invalid for tbrf_ic_cosmo_make" : why);
    level_counts(region, cells, count, &coarse);
    if (type_alloc(&z->type[2], coarse, 0, levels > 1) != TBRF_OK ||
        type_alloc(&z->type[1], count[levels], 0, 0) != TBRF_OK ||
        (p->gas && type_alloc(&z->type[0], count[levels], 1, 0) != TBRF_OK))
        return tbrfi_fail(&z->msg, TBRF_ERR_NO_MEMORY, "zoom: out of memory for %lld "
                          "particles", (long long)(coarse + count[levels]));
    tbrf_ic_cosmo_info parent, fine;
    for (int l = 0; l <= levels && st == TBRF_OK; l++)
        st = run_level(z, p, l, l == 0 ? &parent : &fine);
    if (st == TBRF_OK && (z->type[1].n != count[levels] || z->type[2].n != coarse))
        st = tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: kept %lld fine and %lld coarse "
                        "particles, not %lld and %lld", (long long)z->type[1].n,
                        (long long)z->type[2].n, (long long)count[levels], (long long)coarse);
    if (st == TBRF_OK)
        zoom_info(z, &parent, &fine, cells, count);
    return st;
}

int tbrf_ic_zoom_make(const tbrf_ic_cosmo_params *parent, const tbrf_ic_zoom_params *zoom,
                      tbrf_ic_zoom **out)
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
    z->p = *parent;
    z->z = *zoom;
    z->z.ids = NULL;
    const int64_t g = parent->particles;
    if (g < 2 || g > TBRF_IC_MAX_PARTICLES)
        return tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: parent G %lld outside 2 .. %d",
                          (long long)g, TBRF_IC_MAX_PARTICLES);
    z->mask = calloc((size_t)(g * g * g), 1);
    if (!z->mask)
        return tbrfi_fail(&z->msg, TBRF_ERR_NO_MEMORY, "zoom: out of memory for the region");
    int st = zoom_run(z, parent, zoom);
    z->p.power = NULL;
    z->p.power_gas = NULL;
    z->p.power_dm = z->p.velocity_dm = z->p.velocity_gas = NULL;
    if (st != TBRF_OK)
        return st;
    z->made = 1;
    tbrfi_message_clear(&z->msg);
    return TBRF_OK;
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
    if (!z->made || type < 0 || type > 2)
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
