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
 * spacing, as a one-point glass tiled G r times per axis (the plan's
 * non-uniform path evaluates the fine IC there). On the unshifted fine
 * lattice a parent cell's r sites per axis would sit half a fine cell off
 * its centre for even r, and the region's boundary would carry layers of
 * O(1) density contrast. */
static const double HALF_SITE[3] = {0.5, 0.5, 0.5};

/* The fine IC's parameters: the parent's with G r particles a side on the
 * sub-cells' centres. */
static tbrf_ic_cosmo_params fine_params(const tbrf_ic_cosmo_params *p, int32_t r)
{
    tbrf_ic_cosmo_params f = *p;
    f.particles = p->particles * r;
    f.glass = HALF_SITE;
    f.glass_n = 1;
    f.glass_box = 1.0;
    f.gas_volumes = 0;
    return f;
}

/* The parent's parameters for the coarse particles: no gas (a coarse
 * particle carries the site's whole mass, dark matter and baryons). */
static tbrf_ic_cosmo_params coarse_params(const tbrf_ic_cosmo_params *p)
{
    tbrf_ic_cosmo_params c = *p;
    c.gas = 0;
    c.power_gas = NULL;
    return c;
}

/* The chunks the fine IC streams in: the fewest that fit, at least one per
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

/* The bytes of the particles kept: positions, velocities, rows, energies. */
static double kept_bytes(int64_t fine, int64_t coarse, int gas)
{
    const double row = 7.0 * sizeof(double);
    return (double)fine * row * (gas ? 2.0 : 1.0) + (double)fine * (gas ? 8.0 : 0.0) +
           (double)coarse * row;
}

/* The most held at once: the mask and the kept particles, with the
 * parent's run and then the fine one's. */
static int zoom_bytes(const tbrf_ic_cosmo_params *p, int32_t r, int64_t cells, double *bytes)
{
    const tbrf_ic_cosmo_params f = fine_params(p, r), c = coarse_params(p);
    const int64_t g = p->particles, chunks = fine_chunks(&f);
    double bp = 0, bf = 0;
    int64_t fewest = 0;
    int st = tbrf_ic_cosmo_bytes(&c, 1, &bp, &fewest);
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_bytes(&f, chunks > 0 ? chunks : TBRF_IC_MAX_CHUNKS, &bf, &fewest);
    if (st != TBRF_OK)
        return st;
    *bytes = (double)(g * g * g) + kept_bytes(cells * r * r * r, g * g * g - cells, p->gas) +
             fmax(bp, bf);
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
    int64_t cells = 0;
    int st = tbrfi_zoom_mask(p, z, mask, &cells, NULL, 0);
    free(mask);
    return st == TBRF_OK ? zoom_bytes(p, z->refinement, cells, bytes) : st;
}

/* Room for n rows of type t (gas: with energies). */
static int type_alloc(tbrfi_zoom_type *t, int64_t n, int gas)
{
    t->cap = n;
    t->pos = malloc((size_t)(n > 0 ? n : 1) * 3 * sizeof(double));
    t->vel = malloc((size_t)(n > 0 ? n : 1) * 3 * sizeof(double));
    t->row = malloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
    t->u = gas ? malloc((size_t)(n > 0 ? n : 1) * sizeof(double)) : NULL;
    return t->pos && t->vel && t->row && (!gas || t->u) ? TBRF_OK : TBRF_ERR_NO_MEMORY;
}

/* Appends row `row` of a chunk (its index k in the chunk) to t. */
static void type_push(tbrfi_zoom_type *t, int64_t row, int64_t k, const double *pos,
                      const double *vel, const double *u)
{
    memcpy(t->pos + 3 * t->n, pos + 3 * k, 3 * sizeof(double));
    memcpy(t->vel + 3 * t->n, vel + 3 * k, 3 * sizeof(double));
    if (u)
        t->u[t->n] = u[k];
    t->row[t->n++] = row;
}

/* The callbacks' state: the zoom, and whether the chunks are the fine IC's. */
typedef struct zoom_take {
    tbrf_ic_zoom *zoom;
    int fine;
} zoom_take;

/* Keeps a chunk's particles on the zoom's side: the parent's outside the
 * region, the fine IC's (and their gas) inside it. */
static int take_chunk(void *user, const tbrf_ic_chunk *ch)
{
    zoom_take *t = user;
    tbrf_ic_zoom *z = t->zoom;
    const int64_t g = z->p.particles, r = z->z.refinement, gf = g * r;
    for (int64_t k = 0; k < ch->count; k++) {
        const int64_t row = ch->first + k;
        const int64_t c = !t->fine ? row
                                   : tbrfi_zoom_cell(row % gf, r, g) +
                                         g * (tbrfi_zoom_cell(row / gf % gf, r, g) +
                                              g * tbrfi_zoom_cell(row / (gf * gf), r, g));
        if (!t->fine && !z->mask[c]) {
            if (z->type[2].n >= z->type[2].cap)
                return 1; /* cannot happen: one parent site a cell */
            type_push(&z->type[2], row, k, ch->pos, ch->vel, NULL);
        } else if (t->fine && z->mask[c]) {
            if (z->type[1].n >= z->type[1].cap)
                return 1; /* cannot happen: r^3 fine sites a cell */
            type_push(&z->type[1], row, k, ch->pos, ch->vel, NULL);
            if (ch->gas_pos)
                type_push(&z->type[0], row, k, ch->gas_pos, ch->gas_vel ? ch->gas_vel : ch->vel,
                          ch->gas_u);
        }
    }
    return 0;
}

/* Makes one of the two ICs and keeps its side; the info it derived into
 * *info. */
static int run_side(tbrf_ic_zoom *z, const tbrf_ic_cosmo_params *p, int fine, int64_t chunks,
                    tbrf_ic_cosmo_info *info)
{
    tbrf_ic_cosmo *ic = NULL;
    int st = tbrf_ic_cosmo_make(p, &ic);
    zoom_take take = {z, fine};
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_generate(ic, chunks, take_chunk, &take);
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_get_info(ic, info);
    tbrf_ic_cosmo_params made;
    if (st == TBRF_OK && !fine && (st = tbrf_ic_cosmo_get_params(ic, &made)) == TBRF_OK)
        z->p.omega_lambda = made.omega_lambda; /* resolved: NaN is the flat universe's */
    if (st != TBRF_OK)
        tbrfi_fail(&z->msg, st, "zoom: the %s IC (%lld^3): %s", fine ? "fine" : "parent",
                   (long long)p->particles, ic ? tbrf_ic_cosmo_message(ic) : tbrf_strerror(st));
    tbrf_ic_cosmo_destroy(ic);
    return st;
}

/* The counts, masses and growth of the made zoom. */
static void zoom_info(tbrf_ic_zoom *z, const tbrf_ic_cosmo_info *parent,
                      const tbrf_ic_cosmo_info *fine, int64_t cells)
{
    tbrf_ic_zoom_info *f = &z->info;
    f->region_cells = cells;
    f->fine = z->type[1].n;
    f->coarse = z->type[2].n;
    f->gas = z->type[0].n;
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

/* Checks, budgets and allocates, then runs the parent and the fine IC. */
static int zoom_run(tbrf_ic_zoom *z, const tbrf_ic_cosmo_params *p,
                    const tbrf_ic_zoom_params *region)
{
    const int64_t g = p->particles, r = region->refinement;
    int64_t cells = 0;
    int st = tbrfi_zoom_mask(p, region, z->mask, &cells, z->msg.text, sizeof z->msg.text);
    if (st != TBRF_OK)
        return z->msg.status = st;
    double bytes = 0;
    char why[TBRFI_MESSAGE_SIZE];
    st = zoom_bytes(p, (int32_t)r, cells, &bytes);
    if (st == TBRF_OK)
        st = tbrfi_ic_budget(bytes, "zoom IC", why, sizeof why);
    if (st != TBRF_OK)
        return tbrfi_fail(&z->msg, st, "%s", st == TBRF_ERR_INVALID ? "zoom: the parent's "
                          "parameters are invalid for tbrf_ic_cosmo_make" : why);
    const int64_t fine = cells * r * r * r;
    if (type_alloc(&z->type[2], g * g * g - cells, 0) != TBRF_OK ||
        type_alloc(&z->type[1], fine, 0) != TBRF_OK ||
        (p->gas && type_alloc(&z->type[0], fine, 1) != TBRF_OK))
        return tbrfi_fail(&z->msg, TBRF_ERR_NO_MEMORY, "zoom: out of memory for %lld "
                          "particles", (long long)(fine + g * g * g - cells));
    const tbrf_ic_cosmo_params c = coarse_params(p), f = fine_params(p, (int32_t)r);
    tbrf_ic_cosmo_info ci, fi;
    st = run_side(z, &c, 0, 1, &ci);
    if (st == TBRF_OK)
        st = run_side(z, &f, 1, fine_chunks(&f), &fi);
    if (st == TBRF_OK && (z->type[1].n != fine || z->type[2].n != g * g * g - cells))
        st = tbrfi_fail(&z->msg, TBRF_ERR_INVALID, "zoom: kept %lld fine and %lld coarse "
                        "particles, not %lld and %lld", (long long)z->type[1].n,
                        (long long)z->type[2].n, (long long)fine, (long long)(g * g * g - cells));
    if (st == TBRF_OK)
        zoom_info(z, &ci, &fi, cells);
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
    *part = (tbrf_ic_zoom_part){t->n, t->pos, t->vel, t->u, t->row};
    return TBRF_OK;
}

int tbrf_ic_zoom_refined(const tbrf_ic_zoom *z, int64_t i, int64_t j, int64_t k)
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
        free(z->type[t].row);
    }
    free(z->mask);
    free(z);
}
