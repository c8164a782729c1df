/* arepo_cosmo.c — a cosmological initial condition (tbrf_ic_cosmo, the
 * library's physics) written as an AREPO/Gadget set, file by file
 * (tbrf_arepo_write_cosmo, tbrf_arepo.h): the one writer of `tbrf arepo
 * cosmo` and of programs built on the installed libraries, so both write
 * the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"
#include "tbrf_arepo.h"

void tbrf_arepo_default_cosmo_file(tbrf_arepo_cosmo_file *file)
{
    if (!file)
        return;
    memset(file, 0, sizeof *file);
    file->num_files = 1;
    file->double_precision = 1;
}

/* The header of the set: Time = a, the cosmology, the particle masses in
 * MassTable (gas 0, dark matter 1), the units. */
static void cosmo_header(const tbrf_ic_cosmo_params *p, const tbrf_ic_cosmo_info *f,
                         const tbrf_arepo_cosmo_file *file, tbrf_arepo_header *h)
{
    tbrf_arepo_header_init(h);
    h->double_precision = file->double_precision != 0;
    h->long_ids = file->long_ids != 0;
    h->num_files = file->num_files;
    h->time = f->scale_factor;
    h->redshift = p->redshift;
    h->box_size = p->box;
    h->omega0 = p->omega_m;
    h->omega_lambda = p->omega_lambda;
    h->omega_baryon = p->omega_b;
    h->hubble_param = p->hubble;
    /* gas_volumes on a glass: per-particle Masses instead */
    h->mass_table[0] = p->gas_volumes && p->glass_n > 0 ? 0.0 : f->mass_gas;
    h->mass_table[1] = f->mass_dm;
    h->unit_length_cm = 3.085677581491367e24 / p->length_per_mpc; /* 1 Mpc (IAU 2015) a unit */
    h->unit_mass_g = 1.988409870698051e33 * p->mass_unit;         /* M_sun (IAU 2015) */
    h->unit_velocity_cm_s = p->velocity_unit;
}

/* The spectrum's normalisation and file, the gas's own spectrum, the two
 * fluids' displacements and velocities. */
static size_t transfer_params(const tbrf_ic_cosmo_params *q, const tbrf_arepo_cosmo_file *file,
                              tbrf_arepo_param *par)
{
    size_t k = 0;
    par[k++] = (tbrf_arepo_param){"normalisation", q->keep_amplitude ? "the table's own "
                                  "amplitude" : "sigma8", 0};
    if (file->power_digest)
        par[k++] = (tbrf_arepo_param){"power_file_digest", file->power_digest, 0};
    if (q->gas && q->power_gas)
        par[k++] = (tbrf_arepo_param){"gas_power_spectrum", file->gas_power_name
                                      ? file->gas_power_name : "(power_gas)", 0};
    if (q->gas && q->power_dm)
        par[k++] = (tbrf_arepo_param){"two_fluids", "the dark matter displaced by its own "
                                      "spectrum (power_dm), the gas by its own (power_gas), the "
                                      "same phases; the second order the total matter's", 0};
    if (q->gas && q->power_gas)
        par[k++] = (tbrf_arepo_param){"velocities", q->velocity_dm || q->velocity_gas
                                      ? "each species' own velocity spectrum (velocity_dm, "
                                        "velocity_gas): u = sqrt(a) H Psi_v"
                                      : "the growing mode: u = sqrt(a) f H Psi of each species' "
                                        "own displacement (no velocity spectrum given)", 0};
    return k;
}

/* Every parameter of the run, for /tbrf (tbrf info shows them); seed is
 * written as text (a double would round seeds above 2^53). */
static size_t cosmo_params(const tbrf_ic_cosmo_params *q, const tbrf_ic_cosmo_info *f,
                           const tbrf_arepo_cosmo_file *file, char seed[24],
                           tbrf_arepo_param *par)
{
    snprintf(seed, 24, "%llu", (unsigned long long)q->seed);
    const tbrf_arepo_param p[] = {
        {"command", file->command ? file->command : "tbrf arepo cosmo", 0},
        {"kind", q->lpt >= 3   ? "arepo cosmological initial conditions (3LPT)"
                 : q->lpt >= 2 ? "arepo cosmological initial conditions (2LPT)"
                               : "arepo cosmological initial conditions (Zel'dovich)", 0},
        {"particles_per_axis", NULL, (double)q->particles}, {"box", NULL, q->box},
        {"redshift", NULL, q->redshift}, {"omega_m", NULL, q->omega_m},
        {"omega_lambda", NULL, q->omega_lambda}, {"omega_b", NULL, q->omega_b},
        {"hubble", NULL, q->hubble}, {"n_s", NULL, q->n_s}, {"sigma8", NULL, q->sigma8},
        {"growth_factor", NULL, f->growth}, {"velocity_factor", NULL, f->velocity_factor},
        {"power_spectrum", file->power_name ? file->power_name
                           : q->wiggles    ? "eisenstein_hu"
                                           : "eisenstein_hu_nowiggle", 0},
        {"length_unit_per_mpc_h", NULL, q->length_per_mpc},
        {"mass_unit_msun_h", NULL, q->mass_unit}, {"seed", seed, 0},
        {"mode_cut", "sphere at the particle Nyquist pi G / L", 0},
        {"unit_velocity_cm_s", NULL, q->velocity_unit}};
    memcpy(par, p, sizeof p);
    size_t k = sizeof p / sizeof p[0];
    par[k++] = (tbrf_arepo_param){"lpt_order", NULL, (double)q->lpt};
    par[k++] = (tbrf_arepo_param){"fixed_amplitude", NULL, (double)q->fixed_amplitude};
    par[k++] = (tbrf_arepo_param){"paired", NULL, (double)q->paired};
    if (q->lpt >= 2) {
        par[k++] = (tbrf_arepo_param){"growth_factor2", NULL, f->growth2};
        par[k++] = (tbrf_arepo_param){"growth_rate2", NULL, f->growth_rate2};
        par[k++] = (tbrf_arepo_param){"velocity_factor2", NULL, f->velocity_factor2};
        par[k++] = (tbrf_arepo_param){"dealiasing", "second-order products on a 3/2-padded "
                                      "grid (Orszag)", 0};
    }
    if (q->lpt >= 3) {
        const double d3 = f->growth * f->growth * f->growth;
        par[k++] = (tbrf_arepo_param){"growth_factor3a", NULL, -d3 / 3.0};
        par[k++] = (tbrf_arepo_param){"growth_factor3b", NULL, 10.0 / 21.0 * d3};
        par[k++] = (tbrf_arepo_param){"growth_factor3c", NULL, -d3 / 7.0};
        par[k++] = (tbrf_arepo_param){"velocity_factor3", NULL, 3.0 * f->velocity_factor};
    }
    if (q->glass_n > 0) {
        par[k++] = (tbrf_arepo_param){"glass_file", file->glass_name ? file->glass_name
                                                                     : "(glass)", 0};
        par[k++] = (tbrf_arepo_param){"glass_particles", NULL, (double)q->glass_n};
        par[k++] = (tbrf_arepo_param){"glass_box", NULL, q->glass_box};
        par[k++] = (tbrf_arepo_param){"glass_tile", NULL, (double)f->glass_tile};
    }
    if (q->gas) {
        par[k++] = (tbrf_arepo_param){"gas", "PartType0 split by omega_b (N-GenIC's shifts)", 0};
        par[k++] = (tbrf_arepo_param){"gas_temperature", NULL, f->gas_temperature};
        par[k++] = (tbrf_arepo_param){"mu", NULL, q->gas_mu};
        par[k++] = (tbrf_arepo_param){"gamma", NULL, q->gas_gamma};
        par[k++] = (tbrf_arepo_param){"internal_energy", NULL, f->internal_energy};
        if (q->glass_n > 0 && q->gas_volumes)
            par[k++] = (tbrf_arepo_param){"gas_masses", "mass_gas times the glass point's "
                                          "periodic Voronoi volume over the mean", 0};
    }
    k += transfer_params(q, file, par + k);
    return k;
}

/* The set being written: chunk c of the IC is file c. */
typedef struct cosmo_write {
    tbrf_arepo_set *set;
    const tbrf_arepo_param *par;
    size_t np;
    int64_t n;
    char *err;
    size_t errlen;
} cosmo_write;

static int write_chunk(void *user, const tbrf_ic_chunk *ch)
{
    cosmo_write *w = user;
    tbrf_arepo_particles t[6];
    memset(t, 0, sizeof t);
    if (ch->count > 0) {
        t[1] = (tbrf_arepo_particles){ch->count, ch->pos, ch->vel, NULL, NULL,
                                      1 + (uint64_t)ch->first};
        if (ch->gas_pos) /* gas IDs after the dark matter's */
            t[0] = (tbrf_arepo_particles){ch->count, ch->gas_pos,
                                          ch->gas_vel ? ch->gas_vel : ch->vel, ch->gas_mass,
                                          ch->gas_u, 1 + (uint64_t)(w->n + ch->first)};
    }
    return tbrf_arepo_set_write_file(w->set, (int)ch->chunk, t, w->par, w->np, w->err,
                                     w->errlen);
}

int tbrf_arepo_write_cosmo(const char *base, tbrf_ic_cosmo *ic, const tbrf_arepo_cosmo_file *file,
                           char *err, size_t errlen)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_cosmo_info f;
    int st = tbrf_ic_cosmo_get_params(ic, &p);
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_get_info(ic, &f);
    if (!base || !file || st != TBRF_OK) {
        io_setf(err, errlen, "AREPO cosmological IC: %s", !base || !file ? "base or file is NULL"
                : ic ? tbrf_ic_cosmo_message(ic) : "ic is NULL");
        return -1;
    }
    tbrf_arepo_header h;
    cosmo_header(&p, &f, file, &h);
    char seed[24];
    tbrf_arepo_param par[56];
    const int64_t n = f.particles;
    cosmo_write w = {NULL, par, cosmo_params(&p, &f, file, seed, par), n, err, errlen};
    int64_t counts[6] = {p.gas ? n : 0, n, 0, 0, 0, 0};
    uint64_t ids[6] = {1 + (uint64_t)n, 1, 1, 1, 1, 1};
    /* Gadget's files take uint64 IDs (the long-ID convention) when the
     * largest passes uint32; HDF5 files follow file->long_ids */
    if (file->format != TBRF_AREPO_FORMAT_HDF5 && (uint64_t)n * (p.gas ? 2 : 1) > UINT32_MAX)
        h.long_ids = 1;
    if (tbrf_arepo_check_header(&h, err, errlen) ||
        tbrf_arepo_set_open_format(base, &h, counts, ids, file->format, &w.set, err, errlen))
        return -1;
    st = tbrf_ic_cosmo_generate(ic, h.num_files, write_chunk, &w);
    if (st != TBRF_OK && st != TBRF_ERR_CALLBACK) /* a callback's error is in err */
        io_setf(err, errlen, "%s", tbrf_ic_cosmo_message(ic));
    int rc = st == TBRF_OK ? tbrf_arepo_set_commit(w.set, err, errlen) : -1;
    tbrf_arepo_set_close(w.set);
    return rc;
}

/* A part of the set written by one of several processes
 * (tbrf_arepo_cosmo_part_open): the writer's state and what its
 * parameters point to. */
struct tbrf_arepo_cosmo_part {
    cosmo_write w;
    tbrf_arepo_param par[56];
    char seed[24];
    char err[1024];
};

int tbrf_arepo_cosmo_part_open(const char *base, tbrf_ic_cosmo *ic,
                               const tbrf_arepo_cosmo_file *file, int member0, int members,
                               const int64_t *bounds, tbrf_arepo_cosmo_part **part, char *err,
                               size_t errlen)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_cosmo_info f;
    *part = NULL;
    int st = tbrf_ic_cosmo_get_params(ic, &p);
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_get_info(ic, &f);
    if (!base || !file || st != TBRF_OK) {
        io_setf(err, errlen, "AREPO cosmological IC: %s", !base || !file ? "base or file is NULL"
                : ic ? tbrf_ic_cosmo_message(ic) : "ic is NULL");
        return -1;
    }
    tbrf_arepo_cosmo_part *c = calloc(1, sizeof *c);
    if (!c) {
        io_setf(err, errlen, "out of memory");
        return -1;
    }
    tbrf_arepo_header h;
    cosmo_header(&p, &f, file, &h);
    const int64_t n = f.particles;
    c->w = (cosmo_write){NULL, c->par, cosmo_params(&p, &f, file, c->seed, c->par), n, c->err,
                         sizeof c->err};
    int64_t counts[6] = {p.gas ? n : 0, n, 0, 0, 0, 0};
    uint64_t ids[6] = {1 + (uint64_t)n, 1, 1, 1, 1, 1};
    if (tbrf_arepo_set_open_part_format(base, &h, counts, ids, member0, members, bounds,
                                        file->format, &c->w.set, err, errlen)) {
        free(c);
        return -1;
    }
    *part = c;
    return 0;
}

int tbrf_arepo_cosmo_part_push(void *part, const tbrf_ic_chunk *chunk)
{
    return write_chunk(&((tbrf_arepo_cosmo_part *)part)->w, chunk);
}

tbrf_arepo_set *tbrf_arepo_cosmo_part_set(tbrf_arepo_cosmo_part *part)
{
    return part ? part->w.set : NULL;
}

const char *tbrf_arepo_cosmo_part_message(const tbrf_arepo_cosmo_part *part)
{
    return part ? part->err : "";
}

void tbrf_arepo_cosmo_part_close(tbrf_arepo_cosmo_part *part)
{
    if (!part)
        return;
    tbrf_arepo_set_close(part->w.set);
    free(part);
}

/* ------------------------------------------------------------- zoom */

/* The zoom's derived values as the cosmological IC's, for the header and
 * the parameters the two share. */
static tbrf_ic_cosmo_info zoom_as_cosmo(const tbrf_ic_zoom_info *z)
{
    tbrf_ic_cosmo_info f;
    memset(&f, 0, sizeof f);
    f.scale_factor = z->scale_factor;
    f.growth = z->growth;
    f.growth_rate = z->growth_rate;
    f.velocity_factor = z->velocity_factor;
    f.growth2 = z->growth2;
    f.growth_rate2 = z->growth_rate2;
    f.velocity_factor2 = z->velocity_factor2;
    f.gas_temperature = z->gas_temperature;
    f.internal_energy = z->internal_energy;
    f.mass_dm = z->mass_fine;
    f.mass_gas = z->mass_gas;
    return f;
}

/* The region as recorded: its kind and numbers (the command holds the ID
 * file's name). */
static void zoom_region_text(const tbrf_ic_zoom_params *z, char *buf, size_t len)
{
    if (z->region == TBRF_IC_ZOOM_BOX)
        snprintf(buf, len, "box [%.17g, %.17g) x [%.17g, %.17g) x [%.17g, %.17g)", z->lo[0],
                 z->hi[0], z->lo[1], z->hi[1], z->lo[2], z->hi[2]);
    else if (z->region == TBRF_IC_ZOOM_SPHERE)
        snprintf(buf, len, "sphere about (%.17g, %.17g, %.17g) of radius %.17g", z->centre[0],
                 z->centre[1], z->centre[2], z->radius);
    else
        snprintf(buf, len, "the lattice sites of %lld particle IDs", (long long)z->n_ids);
}

/* The zoom's own parameters after the cosmology's. */
static size_t zoom_params(const tbrf_ic_zoom_params *z, const tbrf_ic_zoom_info *f,
                          const char *region, tbrf_arepo_param *par)
{
    size_t k = 0;
    par[k++] = (tbrf_arepo_param){"zoom_refinement", NULL, (double)z->refinement};
    par[k++] = (tbrf_arepo_param){"zoom_levels", NULL, (double)f->levels};
    par[k++] = (tbrf_arepo_param){"zoom_region", region, 0};
    par[k++] = (tbrf_arepo_param){"zoom_pad_cells", NULL, (double)z->pad};
    par[k++] = (tbrf_arepo_param){"zoom_region_cells", NULL, (double)f->region_cells};
    par[k++] = (tbrf_arepo_param){"zoom_method", "PartType1 (and PartType0): the particles of "
                                  "the same IC made with G r a side on the sub-cells' centres "
                                  "of the region's cells; PartType2: the parent's outside, and "
                                  "with nested levels each level's IC in its cells", 0};
    return k;
}

int tbrf_arepo_write_zoom(const char *base, const tbrf_ic_zoom *zoom,
                          const tbrf_arepo_cosmo_file *file, char *err, size_t errlen)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_zoom_params z;
    tbrf_ic_zoom_info zi;
    int st = tbrf_ic_zoom_get_params(zoom, &p, &z);
    if (st == TBRF_OK)
        st = tbrf_ic_zoom_get_info(zoom, &zi);
    if (!base || !file || st != TBRF_OK) {
        io_setf(err, errlen, "AREPO zoom IC: %s", !base || !file ? "base or file is NULL"
                : zoom ? tbrf_ic_zoom_message(zoom) : "zoom is NULL");
        return -1;
    }
    const tbrf_ic_cosmo_info f = zoom_as_cosmo(&zi);
    tbrf_arepo_header h;
    cosmo_header(&p, &f, file, &h);
    /* nested levels: PartType2 of several masses, a Masses dataset */
    h.mass_table[2] = zi.levels > 1 ? 0.0 : zi.mass_coarse;
    char seed[24], region[256];
    tbrf_arepo_param par[72];
    tbrf_arepo_cosmo_file named = *file;
    if (!named.command)
        named.command = "tbrf arepo zoom";
    size_t np = cosmo_params(&p, &f, &named, seed, par);
    static const char *const KIND[3] = {"arepo zoom initial conditions (Zel'dovich)",
                                        "arepo zoom initial conditions (2LPT)",
                                        "arepo zoom initial conditions (3LPT)"};
    par[1].text = KIND[p.lpt >= 3 ? 2 : p.lpt == 2 ? 1 : 0];
    zoom_region_text(&z, region, sizeof region);
    np += zoom_params(&z, &zi, region, par + np);
    tbrf_arepo_particles t[6];
    memset(t, 0, sizeof t);
    tbrf_ic_zoom_part part[3];
    for (int k = 0; k < 3; k++)
        tbrf_ic_zoom_particles(zoom, k, &part[k]);
    /* IDs: fine 1 .., coarse after them, gas last */
    const uint64_t n1 = (uint64_t)part[1].n, n2 = (uint64_t)part[2].n;
    t[1] = (tbrf_arepo_particles){part[1].n, part[1].pos, part[1].vel, NULL, NULL, 1};
    t[2] = (tbrf_arepo_particles){part[2].n, part[2].pos, part[2].vel, part[2].mass, NULL,
                                  1 + n1};
    t[0] = (tbrf_arepo_particles){part[0].n, part[0].pos, part[0].vel, NULL, part[0].u,
                                  1 + n1 + n2};
    if (file->format != TBRF_AREPO_FORMAT_HDF5 && n1 + n2 + (uint64_t)part[0].n > UINT32_MAX)
        h.long_ids = 1;
    if (tbrf_arepo_check_header(&h, err, errlen))
        return -1;
    return tbrf_arepo_write_format(base, &h, t, par, np, file->format, err, errlen);
}
