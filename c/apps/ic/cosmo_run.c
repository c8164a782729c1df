/* cosmo_run.c — generating a cosmological initial condition chunk by
 * chunk (tbrf_ic_cosmo_generate) and its displacements. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"
#include "apps/ic/cosmo_internal.h"
#include "apps/ic/ic_internal.h"

/* The chunks being generated: the current chunk c, its rows first ..
 * first + count - 1, how many of their Psi have arrived, and the buffers
 * of one chunk; with 2LPT or fixed amplitudes the fields from the
 * potentials: the whole lattice's (lat1, lat2) or the fine grids of the
 * glass's NUFFT (u1, u2), and the chunk's second-order displacements
 * psi2 (NULL with lpt 1); with 3LPT likewise lat3 or u3 and psi3. */
typedef struct icc_out {
    tbrf_ic_cosmo *ic;
    tbrf_ic_push_fn push;
    void *user;
    int64_t n, chunks, c, first, count, have;
    double *psi, *pos, *gas, *site, *psi2, *psi3;
    double *lat1, *lat2, *lat3, *u1[3], *u2[3], *u3[3];
    nufft_setup nu;
    double *gpsi;  /* the gas's own Psi, then velocities (power_gas), or NULL */
    double *gmass; /* the gas's masses (gas_volumes on a glass), or NULL */
    double *own[3]; /* two fluids (ICC_OWN_*): the dark matter's Psi_c, its and the gas's
                       velocity fields Psi_v, or NULL */
} icc_out;

/* Rows [n c / C, n (c + 1) / C) without overflow (C <= 2^16). */
static void chunk_rows(int64_t n, int64_t c, int64_t nc, int64_t *first, int64_t *count)
{
    int64_t a = (n / nc) * c + (n % nc) * c / nc;
    int64_t b = (n / nc) * (c + 1) + (n % nc) * (c + 1) / nc;
    *first = a;
    *count = b - a;
}

static double wrap(double x, double box)
{
    x = fmod(x, box);
    x = x < 0 ? x + box : x;
    return x >= box ? 0.0 : x;
}

/* One species on one axis: the position q + s + hx (its first order s,
 * the matter's higher orders hx) and the velocity: the growing mode vfac
 * s, or from its own velocity field w (two fluids: sqrt(a) H w, w's sign
 * flipped for a paired partner), plus the higher orders' hv. */
static void one_species(double q, double s, const double *w, int paired, double vown,
                        double vfac, double hx, double hv, double *x, double *v)
{
    *x = q + s + hx;
    *v = (w ? (paired ? -*w : *w) * vown : s * vfac) + hv;
}

/* The chunk's particles from psi: positions q + Psi (plus N-GenIC's shift
 * with gas) wrapped into the box, and velocities vfac Psi written over
 * psi; a paired partner's Psi1 is -psi; with 2LPT q + Psi1 + Psi2 and
 * vfac Psi1 + vfac2 Psi2 (Psi2 = D2 Psi2 of the doc). With gas each
 * lattice site splits into the gas at q + Psi - (1/2)
 * (Omega_dm/Omega_m) d and the dark matter at q + Psi + (1/2)
 * (Omega_b/Omega_m) d on every axis (d = L/G), their centre of mass at
 * q + Psi; both move with the site's velocity, unless the gas has its
 * own first-order Psi (gpsi: its position and velocity from that and
 * the matter's higher orders); two fluids also give the dark matter its
 * own Psi_c and each species its own velocity field. 3LPT adds Psi3 (odd:
 * a paired partner's is -Psi3) with 3 vfac (f3 = 3 f1). */
static void particles(const tbrf_ic_cosmo *ic, icc_out *o)
{
    const tbrf_ic_cosmo_params *p = &ic->p;
    const int64_t g = p->particles;
    const double dx = p->box / (double)g, vfac = ic->info.velocity_factor;
    const double vfac2 = ic->info.velocity_factor2;
    const double vown = sqrt(ic->info.scale_factor) * ic->info.hubble; /* u = sqrt(a) H Psi_v */
    const double sdm = ic->info.shift_dm, sgas = ic->info.shift_gas;
    const double *psi2 = o->lat2 ? o->lat2 + 3 * o->first : o->psi2;
    const double *psi3 = o->lat3 ? o->lat3 + 3 * o->first : o->psi3;
    double *dm = o->own[ICC_OWN_DM], *vdm = o->own[ICC_OWN_VDM], *vgas = o->own[ICC_OWN_VGAS];
    for (int64_t r = 0; r < o->count; r++) {
        const int64_t i = o->first + r;
        const int64_t ix[3] = {i % g, i / g % g, i / (g * g)};
        for (int c = 0; c < 3; c++) {
            const int64_t j = 3 * r + c;
            double s = p->paired ? -o->psi[j] : o->psi[j];
            double q = o->site && p->glass_n > 0 ? o->site[j]
                                                 : ((double)ix[c] + ic->offset) * dx;
            double hx = 0.0, hv = 0.0, x, v; /* the matter's orders 2 and 3 */
            if (psi2) {
                hx = psi2[j];
                hv = hx * vfac2;
            }
            if (psi3) {
                const double x3 = p->paired ? -psi3[j] : psi3[j];
                hx += x3;
                hv += x3 * (3.0 * vfac);
            }
            double sd = dm ? (p->paired ? -dm[j] : dm[j]) : s;
            one_species(q, sd, vdm ? vdm + j : NULL, p->paired, vown, vfac, hx, hv, &x, &v);
            o->pos[j] = wrap(o->gas ? x + sdm : x, p->box);
            if (o->gas && o->gpsi) { /* the gas's own first order, the matter's higher */
                double sg = p->paired ? -o->gpsi[j] : o->gpsi[j], xg, vg;
                one_species(q, sg, vgas ? vgas + j : NULL, p->paired, vown, vfac, hx, hv, &xg,
                            &vg);
                o->gas[j] = wrap(xg + sgas, p->box);
                o->gpsi[j] = vg;
            } else if (o->gas)
                o->gas[j] = wrap(x + sgas, p->box);
            o->psi[j] = v;
        }
    }
    for (int64_t r = 0; o->gas && r < o->count; r++)
        o->gas[3 * o->count + r] = ic->info.internal_energy;
    for (int64_t r = 0; o->gmass && r < o->count; r++)
        o->gmass[r] = ic->info.mass_gas * ic->gas_weight[(o->first + r) % p->glass_n];
}

/* One own plan at the chunk's sites into out (3 count). */
static int own_field(tbrf_ic_cosmo *ic, tbrf_plan *plan, const icc_out *o, double *out)
{
    int st = tbrf_set_points(plan, o->count, o->site);
    if (st == TBRF_OK)
        st = tbrf_execute(plan, 0, out);
    if (st != TBRF_OK)
        return tbrfi_fail(&ic->msg, st, "%s", tbrf_plan_message(plan));
    return TBRF_OK;
}

/* The species' own fields (the gas's Psi, the two fluids' Psi_c and
 * velocity fields) at the chunk's sites (lattice sites, or the glass
 * sites stream_psi set) by their plans' non-uniform FFT: a point's value
 * does not depend on the others, so any chunks give the same values. */
static int gas_psi(icc_out *o)
{
    tbrf_ic_cosmo *ic = o->ic;
    const tbrf_ic_cosmo_params *p = &ic->p;
    if (!o->gpsi && !o->own[ICC_OWN_DM])
        return TBRF_OK;
    if (p->glass_n == 0) {
        const int64_t g = p->particles;
        const double dx = p->box / (double)g;
        for (int64_t r = 0; r < o->count; r++) {
            const int64_t i = o->first + r;
            o->site[3 * r] = ((double)(i % g) + ic->offset) * dx;
            o->site[3 * r + 1] = ((double)(i / g % g) + ic->offset) * dx;
            o->site[3 * r + 2] = ((double)(i / (g * g)) + ic->offset) * dx;
        }
    }
    int st = o->gpsi ? own_field(ic, ic->plan_gas, o, o->gpsi) : TBRF_OK;
    for (int i = 0; st == TBRF_OK && i < 3; i++)
        if (o->own[i])
            st = own_field(ic, ic->plan_own[i], o, o->own[i]);
    return st;
}

/* Chunk o->c from its rows' Psi: the particles, pushed; then the next
 * chunk's rows, empty chunks pushed at once. */
static int emit(icc_out *o)
{
    do {
        tbrf_ic_chunk ch = {o->c, o->first, o->count, o->pos, o->psi, NULL, NULL, NULL, NULL};
        if (o->count > 0) {
            int st = gas_psi(o);
            if (st != TBRF_OK)
                return st;
            particles(o->ic, o);
            if (o->gas) {
                ch.gas_pos = o->gas;
                ch.gas_u = o->gas + 3 * o->count;
                ch.gas_vel = o->gpsi ? o->gpsi : o->psi;
                ch.gas_mass = o->gmass;
            }
        }
        if (o->push(o->user, &ch))
            return tbrfi_fail(&o->ic->msg, TBRF_ERR_CALLBACK, "cosmological IC: the chunk "
                              "callback stopped the run at chunk %lld", (long long)o->c);
        o->have = 0;
        if (++o->c < o->chunks)
            chunk_rows(o->n, o->c, o->chunks, &o->first, &o->count);
    } while (o->c < o->chunks && o->count == 0);
    return TBRF_OK;
}

/* Push callback of the lattice's grid stream: Psi rows, in order, into the
 * current chunk's buffer; a full buffer is emitted. */
static int push_rows(void *user, int64_t first, int64_t count, const void *values)
{
    icc_out *o = user;
    const double *v = values;
    (void)first; /* rows come in order: first is o->first + o->have */
    while (count > 0 && o->c < o->chunks) {
        int64_t take = count < o->count - o->have ? count : o->count - o->have;
        memcpy(o->psi + 3 * o->have, v, (size_t)take * 3 * sizeof *v);
        o->have += take;
        v += 3 * take;
        count -= take;
        if (o->have == o->count && emit(o))
            return 1;
    }
    return 0;
}

/* The plan's status as the object's, its message copied. */
static int plan_fail(tbrf_ic_cosmo *ic, int st)
{
    if (st == TBRF_OK || st == TBRF_ERR_CALLBACK) /* a callback's error is already set */
        return st;
    return tbrfi_fail(&ic->msg, st, "%s", tbrf_plan_message(ic->plan));
}

/* Psi for every chunk: the lattice in one streamed pass of the plan's FFT
 * (cells pushed in x-fastest order, which is the particle order; one
 * chunk takes the whole grid directly) unless make kept it (2LPT) or
 * fixed amplitudes give it, or the glass sites chunk by chunk by the
 * plan's non-uniform FFT. */
static int stream_psi(icc_out *o)
{
    tbrf_ic_cosmo *ic = o->ic;
    const tbrf_ic_cosmo_params *p = &ic->p;
    int st = TBRF_OK;
    if (p->glass_n > 0) {
        while (st == TBRF_OK && o->c < o->chunks) {
            tbrf_ic_glass_sites(p->glass_n, p->glass, p->glass_box, ic->info.glass_tile, p->box,
                                o->first, o->count, o->site);
            if (o->u2[0])
                tbrfi_nufft_interp(&o->nu, o->u2, 3, o->count, o->site, TBRF_DOUBLE, 0, o->psi2);
            if (o->u3[0])
                tbrfi_nufft_interp(&o->nu, o->u3, 3, o->count, o->site, TBRF_DOUBLE, 0, o->psi3);
            if (o->u1[0]) { /* fixed amplitudes: from their potential */
                tbrfi_nufft_interp(&o->nu, o->u1, 3, o->count, o->site, TBRF_DOUBLE, 0, o->psi);
                st = emit(o);
                continue;
            }
            st = tbrf_set_points(ic->plan, o->count, o->site);
            if (st == TBRF_OK)
                st = tbrf_execute(ic->plan, 0, o->psi);
            st = st == TBRF_OK ? emit(o) : plan_fail(ic, st);
        }
        return st;
    }
    /* fixed amplitudes: from their potential; 2LPT: the plan's Psi1 of make */
    const double *lat = o->lat1 ? o->lat1 : ic->psi1;
    while (lat && st == TBRF_OK && o->c < o->chunks) {
        memcpy(o->psi, lat + 3 * o->first, (size_t)o->count * 3 * sizeof *o->psi);
        st = emit(o);
    }
    if (lat)
        return st;
    const double dx = p->box / (double)p->particles, o0 = ic->offset * dx;
    const double origin[3] = {o0, o0, o0}, spacing[3] = {dx, dx, dx};
    const int64_t n[3] = {p->particles, p->particles, p->particles};
    st = tbrf_set_grid(ic->plan, origin, spacing, n);
    /* one chunk: straight into its buffer (a stream would copy the grid) */
    if (st == TBRF_OK && o->chunks == 1) {
        st = tbrf_execute(ic->plan, 0, o->psi);
        if (st == TBRF_OK)
            return emit(o);
    } else if (st == TBRF_OK)
        st = tbrf_execute_grid_stream(ic->plan, 0, push_rows, o);
    return plan_fail(ic, st);
}

/* The chunk buffers: Psi, positions, gas positions and energies, glass
 * sites and their Psi2 (and Psi3), rows each (the budget was checked). */
static int alloc_chunk(icc_out *o, int64_t rows)
{
    const tbrf_ic_cosmo_params *p = &o->ic->p;
    const size_t r = (size_t)rows;
    const int site2 = p->glass_n > 0 && p->lpt >= 2;
    if (!o->psi) /* tbrf_ic_cosmo_push_rows: the caller's */
        o->psi = malloc(r * 3 * sizeof(double));
    o->pos = malloc(r * 3 * sizeof(double));
    o->gas = p->gas ? malloc(r * 4 * sizeof(double)) : NULL;
    const int own = o->ic->plan_gas != NULL, weights = o->ic->gas_weight != NULL;
    o->site = p->glass_n > 0 || own ? malloc(r * 3 * sizeof(double)) : NULL;
    o->psi2 = site2 ? malloc(r * 3 * sizeof(double)) : NULL;
    o->psi3 = site2 && p->lpt >= 3 ? malloc(r * 3 * sizeof(double)) : NULL;
    o->gpsi = own ? malloc(r * 3 * sizeof(double)) : NULL;
    o->gmass = weights ? malloc(r * sizeof(double)) : NULL;
    int ok = 1; /* two fluids: power_dm needs power_gas, so own holds then too */
    for (int i = 0; i < 3; i++)
        if (o->ic->plan_own[i])
            ok &= (o->own[i] = malloc(r * 3 * sizeof(double))) != NULL;
    if (ok && o->psi && o->pos && (o->gas || !p->gas) && (o->site || !(p->glass_n > 0 || own)) &&
        (o->psi2 || !site2) && (o->psi3 || !site2 || p->lpt < 3) && (o->gpsi || !own) &&
        (o->gmass || !weights))
        return TBRF_OK;
    return tbrfi_fail(&o->ic->msg, TBRF_ERR_NO_MEMORY, "cosmological IC: out of memory for "
                      "%lld particles", (long long)rows);
}

static void free_fields(icc_out *o)
{
    free(o->psi2);
    free(o->psi3);
    free(o->lat1);
    free(o->lat2);
    free(o->lat3);
    for (int c = 0; c < 3; c++) {
        fftw_free(o->u1[c]);
        fftw_free(o->u2[c]);
        fftw_free(o->u3[c]);
    }
}

static void free_chunk(icc_out *o)
{
    free(o->psi);
    free(o->pos);
    free(o->gas);
    free(o->site);
    free_fields(o);
    free(o->gpsi);
    free(o->gmass);
    for (int i = 0; i < 3; i++)
        free(o->own[i]);
}

/* The message of a failed evaluation of a potential. */
static int field_fail(tbrf_ic_cosmo *ic, int st)
{
    if (st == TBRF_ERR_NO_MEMORY)
        return tbrfi_fail(&ic->msg, st, "cosmological IC: out of memory for the displacements "
                          "from the potentials");
    if (st != TBRF_OK)
        return tbrfi_fail(&ic->msg, st, "cosmological IC: FFTW could not plan a transform");
    return TBRF_OK;
}

/* The fields of the potentials for generate: the lattice's whole arrays,
 * or the fine grids of the glass's NUFFT (budgeted in
 * tbrfi_icc_lpt_bytes). */
static int potential_fields(icc_out *o)
{
    const tbrf_ic_cosmo *ic = o->ic;
    const size_t bytes = (size_t)o->n * 3 * sizeof(double);
    int st = TBRF_OK;
    if (ic->p.glass_n > 0) {
        tbrfi_icc_nufft_setup(ic, &o->nu);
        if (ic->phi1)
            st = tbrfi_icc_fine(ic, ic->phi1, &o->nu, o->u1);
        if (ic->phi2 && st == TBRF_OK)
            st = tbrfi_icc_fine(ic, ic->phi2, &o->nu, o->u2);
        if (ic->psi3[0] && st == TBRF_OK)
            st = tbrfi_icc_fine3(ic, &o->nu, o->u3);
        return field_fail(o->ic, st);
    }
    if (ic->phi1)
        st = (o->lat1 = malloc(bytes)) ? tbrfi_icc_lattice(ic, ic->phi1, o->lat1)
                                       : TBRF_ERR_NO_MEMORY;
    if (ic->phi2 && st == TBRF_OK)
        st = (o->lat2 = malloc(bytes)) ? tbrfi_icc_lattice(ic, ic->phi2, o->lat2)
                                       : TBRF_ERR_NO_MEMORY;
    if (ic->psi3[0] && st == TBRF_OK)
        st = (o->lat3 = malloc(bytes)) ? tbrfi_icc_lattice3(ic, o->lat3) : TBRF_ERR_NO_MEMORY;
    return field_fail(o->ic, st);
}

/* 0 when ic can run; the status (and message) otherwise. */
static int usable(tbrf_ic_cosmo *ic)
{
    if (!ic)
        return TBRF_ERR_NULL;
    if (!ic->made)
        return TBRF_ERR_BAD_PLAN;
    tbrfi_message_clear(&ic->msg);
    return TBRF_OK;
}

/* usable, and holding its potentials (not a slab's with fixed amplitudes
 * or 2LPT or 3LPT: its driver makes those fields). */
static int whole(tbrf_ic_cosmo *ic)
{
    int st = usable(ic);
    if (st == TBRF_OK && ic->slab && (ic->p.fixed_amplitude || ic->p.lpt >= 2))
        return tbrfi_fail(&ic->msg, TBRF_ERR_UNSUPPORTED, "cosmological IC: made for slabs "
                          "(tbrf_ic_cosmo_make_slab) with fixed amplitudes, 2LPT or 3LPT: it "
                          "has no potential; its driver makes the fields "
                          "(tbrf_ic_cosmo_fixed_modes, tbrf_ic_cosmo_push_rows2 or 3)");
    return st;
}

int tbrf_ic_cosmo_generate(tbrf_ic_cosmo *ic, int64_t chunks, tbrf_ic_push_fn push, void *user)
{
    int st = whole(ic);
    if (st != TBRF_OK)
        return st;
    if (!push)
        return tbrfi_fail(&ic->msg, TBRF_ERR_NULL, "cosmological IC: push is NULL");
    const int64_t n = ic->info.particles;
    if (chunks < 1 || chunks > TBRF_IC_MAX_CHUNKS)
        return tbrfi_fail(&ic->msg, TBRF_ERR_INVALID, "cosmological IC: %lld chunks: need 1 "
                          "to %d", (long long)chunks, TBRF_IC_MAX_CHUNKS);
    char why[TBRFI_MESSAGE_SIZE];
    st = tbrfi_ic_budget(tbrfi_icc_bytes(&ic->p, chunks),
                         "cosmological IC: one chunk's particles and the plan", why, sizeof why);
    if (st != TBRF_OK)
        return tbrfi_fail(&ic->msg, st, "%s", why);
    icc_out o;
    memset(&o, 0, sizeof o);
    o.ic = ic;
    o.push = push;
    o.user = user;
    o.n = n;
    o.chunks = chunks;
    st = potential_fields(&o);
    if (st == TBRF_OK)
        st = alloc_chunk(&o, n / chunks + (n % chunks != 0));
    chunk_rows(n, 0, chunks, &o.first, &o.count);
    if (st == TBRF_OK && o.count == 0) /* a first chunk with no rows */
        st = emit(&o);
    if (st == TBRF_OK)
        st = stream_psi(&o);
    free_chunk(&o);
    return st;
}

int tbrf_ic_cosmo_push_rows3(tbrf_ic_cosmo *ic, int64_t chunk, int64_t first, int64_t count,
                             double *psi, const double *psi2, const double *psi3,
                             tbrf_ic_push_fn push, void *user)
{
    int st = usable(ic);
    if (st != TBRF_OK)
        return st;
    const tbrf_ic_cosmo_params *p = &ic->p;
    const int64_t n = ic->info.particles;
    if (!push || (!psi && count > 0) || (p->lpt >= 2 && !psi2 && count > 0) ||
        (p->lpt >= 3 && !psi3 && count > 0))
        return tbrfi_fail(&ic->msg, TBRF_ERR_NULL, "cosmological IC: push, psi, (lpt 2 or 3) "
                          "psi2 or (lpt 3) psi3 is NULL");
    if (p->glass_n > 0)
        return tbrfi_fail(&ic->msg, TBRF_ERR_UNSUPPORTED, "cosmological IC: particles from a "
                          "given Psi are those on the lattice");
    if (chunk < 0 || chunk >= TBRF_IC_MAX_CHUNKS || first < 0 || count < 0 || first > n - count)
        return tbrfi_fail(&ic->msg, TBRF_ERR_INVALID, "cosmological IC: chunk %lld of rows "
                          "%lld + %lld outside the %lld particles", (long long)chunk,
                          (long long)first, (long long)count, (long long)n);
    icc_out o;
    memset(&o, 0, sizeof o);
    o.ic = ic;
    o.push = push;
    o.user = user;
    o.n = n;
    o.c = chunk;
    o.chunks = chunk + 1; /* emit pushes this one chunk */
    o.first = first;
    o.count = count;
    o.psi = psi; /* the velocities are written over it */
    st = count > 0 ? alloc_chunk(&o, count) : TBRF_OK;
    /* read only: particles() takes them as they are */
    o.psi2 = p->lpt >= 2 ? (double *)psi2 : NULL;
    o.psi3 = p->lpt >= 3 ? (double *)psi3 : NULL;
    if (st == TBRF_OK)
        st = emit(&o);
    o.psi = NULL;
    o.psi2 = NULL;
    o.psi3 = NULL;
    free_chunk(&o);
    return st;
}

int tbrf_ic_cosmo_push_rows2(tbrf_ic_cosmo *ic, int64_t chunk, int64_t first, int64_t count,
                             double *psi, const double *psi2, tbrf_ic_push_fn push, void *user)
{
    int st = usable(ic);
    if (st == TBRF_OK && ic->p.lpt >= 3)
        return tbrfi_fail(&ic->msg, TBRF_ERR_UNSUPPORTED, "cosmological IC: 3LPT's particles "
                          "take their third order too (tbrf_ic_cosmo_push_rows3)");
    return st == TBRF_OK ? tbrf_ic_cosmo_push_rows3(ic, chunk, first, count, psi, psi2, NULL,
                                                    push, user)
                         : st;
}

int tbrf_ic_cosmo_push_rows(tbrf_ic_cosmo *ic, int64_t chunk, int64_t first, int64_t count,
                            double *psi, tbrf_ic_push_fn push, void *user)
{
    int st = usable(ic);
    if (st == TBRF_OK && ic->p.lpt >= 2)
        return tbrfi_fail(&ic->msg, TBRF_ERR_UNSUPPORTED, "cosmological IC: 2LPT's particles "
                          "take their second order too (tbrf_ic_cosmo_push_rows2)");
    return st == TBRF_OK ? tbrf_ic_cosmo_push_rows2(ic, chunk, first, count, psi, NULL, push, user)
                         : st;
}

/* The glass sites of every particle (3 n, budgeted on top of the plan
 * and the potentials), or NULL with the message set. */
static double *all_sites(tbrf_ic_cosmo *ic)
{
    const tbrf_ic_cosmo_params *p = &ic->p;
    const int64_t n = ic->info.particles;
    char why[TBRFI_MESSAGE_SIZE];
    int st = tbrfi_ic_budget(tbrfi_icc_bytes(&ic->p, TBRF_IC_MAX_CHUNKS) + 24.0 * (double)n,
                             "cosmological IC: the glass sites", why, sizeof why);
    if (st != TBRF_OK) {
        tbrfi_fail(&ic->msg, st, "%s", why);
        return NULL;
    }
    double *site = malloc((size_t)n * 3 * sizeof *site);
    if (!site) {
        tbrfi_fail(&ic->msg, TBRF_ERR_NO_MEMORY, "cosmological IC: out of memory");
        return NULL;
    }
    tbrf_ic_glass_sites(p->glass_n, p->glass, p->glass_box, ic->info.glass_tile, p->box, 0, n,
                        site);
    return site;
}

/* grad phi at every particle: the lattice's inverse FFT, or the glass
 * sites' NUFFT. */
static int potential_all(tbrf_ic_cosmo *ic, const fftw_complex *phi, double *out)
{
    if (ic->p.glass_n == 0)
        return field_fail(ic, tbrfi_icc_lattice(ic, phi, out));
    double *site = all_sites(ic);
    if (!site)
        return ic->msg.status;
    nufft_setup nu;
    double *u[3] = {NULL, NULL, NULL};
    tbrfi_icc_nufft_setup(ic, &nu);
    int st = field_fail(ic, tbrfi_icc_fine(ic, phi, &nu, u));
    if (st == TBRF_OK)
        tbrfi_nufft_interp(&nu, u, 3, ic->info.particles, site, TBRF_DOUBLE, 0, out);
    for (int c = 0; c < 3; c++)
        fftw_free(u[c]);
    free(site);
    return st;
}

/* Psi1 of every particle from the plan (no fixed amplitudes), or as make
 * kept it. */
static int plan_all(tbrf_ic_cosmo *ic, double *psi)
{
    const tbrf_ic_cosmo_params *p = &ic->p;
    int st;
    if (ic->psi1) { /* what the plan gave make */
        memcpy(psi, ic->psi1, (size_t)ic->info.particles * 3 * sizeof *psi);
        return TBRF_OK;
    }
    if (p->glass_n == 0) {
        const double dx = p->box / (double)p->particles, o0 = ic->offset * dx;
        const double origin[3] = {o0, o0, o0}, spacing[3] = {dx, dx, dx};
        const int64_t g[3] = {p->particles, p->particles, p->particles};
        st = tbrf_set_grid(ic->plan, origin, spacing, g);
        if (st == TBRF_OK)
            st = tbrf_execute(ic->plan, 0, psi);
        return plan_fail(ic, st);
    }
    double *site = all_sites(ic);
    if (!site)
        return ic->msg.status;
    st = tbrf_set_points(ic->plan, ic->info.particles, site); /* not copied: kept until executed */
    if (st == TBRF_OK)
        st = tbrf_execute(ic->plan, 0, psi);
    free(site);
    return plan_fail(ic, st);
}

int tbrf_ic_cosmo_displacements(tbrf_ic_cosmo *ic, double *psi)
{
    int st = whole(ic);
    if (st != TBRF_OK)
        return st;
    if (!psi)
        return tbrfi_fail(&ic->msg, TBRF_ERR_NULL, "cosmological IC: psi is NULL");
    st = ic->phi1 ? potential_all(ic, ic->phi1, psi) : plan_all(ic, psi);
    const int64_t n = 3 * ic->info.particles;
    for (int64_t i = 0; st == TBRF_OK && ic->p.paired && i < n; i++)
        psi[i] = -psi[i];
    return st;
}

int tbrf_ic_cosmo_displacements2(tbrf_ic_cosmo *ic, double *psi2)
{
    int st = whole(ic);
    if (st != TBRF_OK)
        return st;
    if (!psi2)
        return tbrfi_fail(&ic->msg, TBRF_ERR_NULL, "cosmological IC: psi2 is NULL");
    if (ic->phi2)
        return potential_all(ic, ic->phi2, psi2);
    memset(psi2, 0, (size_t)ic->info.particles * 3 * sizeof *psi2);
    return TBRF_OK;
}

int tbrf_ic_cosmo_set_cancel(tbrf_ic_cosmo *ic, tbrf_cancel_fn cancel, void *user)
{
    int st = usable(ic);
    if (st == TBRF_OK && (st = tbrf_set_cancel(ic->plan, cancel, user)) == TBRF_OK && ic->plan_gas)
        st = tbrf_set_cancel(ic->plan_gas, cancel, user);
    for (int i = 0; st == TBRF_OK && i < 3; i++)
        if (ic->plan_own[i])
            st = tbrf_set_cancel(ic->plan_own[i], cancel, user);
    return st;
}

/* Psi1 (the parent's own modes, as tbrf_ic_cosmo_displacements gives it,
 * paired sign included) at n arbitrary sites (3 n, in [0, box)): the
 * parent-mode part of a zoom region's fine displacements. The plan's
 * non-uniform path, or the kept potential's NUFFT with fixed amplitudes. */
int tbrfi_icc_psi_at(tbrf_ic_cosmo *ic, int64_t n, const double *site, double *psi)
{
    int st = whole(ic);
    if (st != TBRF_OK)
        return st;
    if (!site || !psi)
        return tbrfi_fail(&ic->msg, TBRF_ERR_NULL, "cosmological IC: zoom sites or psi NULL");
    if (n <= 0)
        return TBRF_OK;
    if (ic->phi1) {
        nufft_setup nu;
        double *u[3] = {NULL, NULL, NULL};
        tbrfi_icc_nufft_setup(ic, &nu);
        st = field_fail(ic, tbrfi_icc_fine(ic, ic->phi1, &nu, u));
        if (st == TBRF_OK)
            tbrfi_nufft_interp(&nu, u, 3, n, site, TBRF_DOUBLE, 0, psi);
        for (int c = 0; c < 3; c++)
            fftw_free(u[c]);
    } else {
        st = tbrf_set_points(ic->plan, n, site); /* not copied: kept until executed */
        if (st == TBRF_OK)
            st = tbrf_execute(ic->plan, 0, psi);
        st = plan_fail(ic, st);
    }
    for (int64_t i = 0; st == TBRF_OK && ic->p.paired && i < 3 * n; i++)
        psi[i] = -psi[i];
    return st;
}
