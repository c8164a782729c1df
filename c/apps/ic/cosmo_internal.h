/* cosmo_internal.h — the cosmological initial condition object, shared by
 * its making (cosmo.c) and its generation (cosmo_run.c). Not installed. */
#ifndef TBRF_APPS_IC_COSMO_INTERNAL_H
#define TBRF_APPS_IC_COSMO_INTERNAL_H

#include <fftw3.h>

#include "tbrf.h"
#include "core/message.h"
#include "methods/nufft/nufft.h"

/* The most chunks generate splits a set into (AREPO's file count limit,
 * and what keeps n c / chunks free of overflow). */
/* The signed wavenumber of FFT index i of n, whether it is a Nyquist
 * plane (n even), and the complex values of the half-complex n^3 array
 * (FFTW's r2c/c2r layout): the LPT orders' shared k-space indexing. */
static inline int64_t tbrfi_icc_wave(int64_t i, int64_t n)
{
    return i <= n / 2 ? i : i - n;
}

static inline int tbrfi_icc_nyquist(int64_t m, int64_t n)
{
    return n % 2 == 0 && (m == n / 2 || m == -n / 2);
}

static inline size_t tbrfi_icc_hc(int64_t n)
{
    return (size_t)(n * n * (n / 2 + 1));
}

#define TBRF_IC_MAX_CHUNKS 65536

/* The most particles per axis: the memory budget decides below it; at it
 * the byte counts of G^3 particles stay far inside 64 bits. */
#define TBRF_IC_MAX_PARTICLES 65536

/* The spectrum per component of Psi in the run's units: P(k) D^2 / (3 k^2),
 * P from the sigma8-normalised z = 0 model in h/Mpc. */
typedef struct icc_spec {
    const tbrf_model *p0;
    double d2, mpc;
} icc_spec;

struct tbrf_ic_cosmo {
    tbrfi_message msg;
    int made;                  /* make succeeded */
    int slab;                  /* made for a driver's slabs (tbrf_ic_cosmo_make_slab): with
                                  fixed amplitudes no potential, so generate refuses it */
    tbrf_ic_cosmo_params p;    /* as made; p.glass points to glass, p.power, p.power_gas NULL */
    double *glass;             /* the copy of the glass (3 glass_n) */
    tbrf_ic_cosmo_info info;
    icc_spec spec;             /* the model's callback data: lives as long as the plan */
    tbrf_model *p0, *m;        /* P(k) at z = 0 (h/Mpc), and Psi's spectrum */
    tbrf_plan *plan;
    fftw_complex *phi1;        /* fixed_amplitude: the first-order potential's modes
                                  (half-complex G^3; Psi1 = grad phi1), else NULL */
    fftw_complex *phi2;        /* lpt >= 2: the potential of D2 Psi2, else NULL */
    fftw_complex *psi3[3];     /* lpt 3: the modes of the third-order displacement (x y z,
                                  half-complex G^3, of the unpaired field), else NULL */
    double *psi1;              /* lpt 2 on the lattice without fixed amplitudes: the
                                  plan's Psi1 of the lattice (3 G^3, particle order)
                                  its potential was made from, which generate and
                                  displacements take instead of running the plan
                                  again (the same bits), else NULL */
    /* the gas's own spectrum (power_gas) and glass weights (gas_volumes) */
    icc_spec spec_gas;
    tbrf_model *g0, *mg;       /* the gas's P(k) at z = 0 and its Psi spectrum, or NULL */
    tbrf_plan *plan_gas;       /* its plan, evaluated at the sites by the non-uniform FFT */
    double *gas_weight;        /* glass_n Voronoi volumes over the mean, or NULL */
    double offset;             /* the lattice's sites are (i + offset) L/G: 0, or 1/2 for a
                                  zoom's sub-cell centres (tbrfi_icc_make_offset) */
    /* two fluids: the dark matter's own displacement, each species' velocity (ICC_OWN_*
     * of power_dm, velocity_dm, velocity_gas), the same phases as plan */
    icc_spec spec_own[3];
    tbrf_model *own0[3], *mown[3]; /* their P(k) at z = 0 and Psi spectra, or NULL */
    tbrf_plan *plan_own[3];        /* their plans, evaluated at the sites as plan_gas */
};

/* tbrf_ic_cosmo_make (planes 0) or tbrf_ic_cosmo_make_slab (planes > 0,
 * rows) on the lattice shifted by offset (0 <= offset < 1) of its spacing
 * on every axis: sites (i + offset) L/G, the plan's FFT evaluating the
 * same field there (its modes are functions of absolute position; a
 * slab's driver takes them with e^{i k.origin} at origin offset L/G,
 * tbrf_ic_cosmo_get_offset), the second and third orders formed from
 * those samples. Refused (TBRF_ERR_INVALID) with a glass or fixed
 * amplitudes (their fields are evaluated in the unshifted frame). */
int tbrfi_icc_make_offset(const tbrf_ic_cosmo_params *params, int64_t planes, int64_t rows,
                          double offset, tbrf_ic_cosmo **out);

/* The two-fluid fields of tbrf_ic_cosmo's own0, mown and plan_own. */
enum { ICC_OWN_DM = 0, ICC_OWN_VDM = 1, ICC_OWN_VGAS = 2 };

/* The plans a chunk evaluates at its sites beside plan (the gas's own
 * and the two-fluid ones): with gas, one for each model given. */
static inline int tbrfi_icc_own_plans(const tbrf_ic_cosmo_params *p)
{
    return p->gas ? (p->power_gas != NULL) + (p->power_dm != NULL) + (p->velocity_dm != NULL) +
                        (p->velocity_gas != NULL)
                  : 0;
}

/* The bytes held with `chunks` chunks (tbrf_ic_cosmo_bytes). */
double tbrfi_icc_bytes(const tbrf_ic_cosmo_params *p, int64_t chunks);

/* The bytes of the potentials (cosmo_lpt.c), 0 for lpt 1 without fixed
 * amplitudes: the most held while make makes them (Psi1 of the lattice,
 * the potentials, the padded grids of the second-order source), and what
 * generate holds of them (the potentials, their fields on the lattice or
 * the glass's fine grids, Psi1 where kept). */
double tbrfi_icc_lpt_making(const tbrf_ic_cosmo_params *p);
double tbrfi_icc_lpt_held(const tbrf_ic_cosmo_params *p);
/* A periodic plan's bytes when it runs at points off the lattice: the
 * three fine grids of its NUFFT and the box's modes they come from. */
double tbrfi_icc_plan_at_sites(const tbrf_ic_cosmo_params *p);

/* Makes ic->phi1 (fixed amplitudes) and ic->phi2 (lpt 2) from the plan's
 * Psi1 on the lattice, and keeps that Psi1 in ic->psi1 where the
 * particles sit on the lattice and take it; TBRF_OK at once when neither
 * potential is asked for. Sets the message on failure. */
int tbrfi_icc_lpt_setup(tbrf_ic_cosmo *ic);

/* grad phi at every lattice site q = (i, j, k) L/G into out (3 G^3,
 * particle order). TBRF_OK, TBRF_ERR_NO_MEMORY, TBRF_ERR_FFT (no
 * message set). */
int tbrfi_icc_lattice(const tbrf_ic_cosmo *ic, const fftw_complex *phi, double *out);

/* The type-2 NUFFT of the particle lattice's modes (the plan's accuracy
 * 1e-12), and the three fine grids u[c] of grad phi (allocated here; the
 * caller frees them with fftw_free, also on failure). */
void tbrfi_icc_nufft_setup(const tbrf_ic_cosmo *ic, nufft_setup *s);
int tbrfi_icc_fine(const tbrf_ic_cosmo *ic, const fftw_complex *phi, const nufft_setup *s,
                   double *u[3]);

/* Psi1 at n arbitrary sites (3 n doubles, inside [0, box)^3), as
 * tbrf_ic_cosmo_displacements has it at the lattice (paired sign
 * included): the parent-mode part of a zoom's fine displacements.
 * TBRF_OK, the statuses of tbrf_ic_cosmo_displacements, TBRF_ERR_NULL. */
int tbrfi_icc_psi_at(tbrf_ic_cosmo *ic, int64_t n, const double *site, double *psi);

/* 3LPT (cosmo_lpt3.c): phi3a, phi3b and A3c x y z (out[0..4], G^3
 * half-complex) from the unit potentials phi1 and phi2; TBRF_OK or
 * TBRF_ERR_NO_MEMORY. */
int tbrfi_icc_lpt3_potentials(int64_t g, double kf, const fftw_complex *phi1,
                              const fftw_complex *phi2, fftw_complex *out[5]);

/* The padded grids tbrfi_icc_lpt3_potentials holds at once. */
#define TBRFI_ICC_LPT3_PADDED 12

/* psi3[0..2] (allocated here, fftw_free'd by the caller) = the modes of
 * the third-order displacement from phi = D1 phi1 and phi2 (D2 Psi2's
 * potential, D2/D1^2 = d2_over_d1sq times the unit one's D1^2): D3a
 * grad phi3a + D3b grad phi3b / 2 + D3c curl A3c over D1^3 (cosmo_lpt3.c).
 * TBRF_OK or TBRF_ERR_NO_MEMORY (psi3 left NULL). */
int tbrfi_icc_third_order(int64_t g, double kf, double d2_over_d1sq, const fftw_complex *phi,
                          const fftw_complex *phi2, fftw_complex *psi3[3]);

/* The fields of the third-order modes (ic->psi3), as tbrfi_icc_lattice and
 * tbrfi_icc_fine give grad phi: on the lattice (3 G^3, particle order), or
 * the glass's three fine grids u[c]. Statuses as theirs. */
int tbrfi_icc_lattice3(const tbrf_ic_cosmo *ic, double *out);
int tbrfi_icc_fine3(const tbrf_ic_cosmo *ic, const nufft_setup *s, double *u[3]);

#endif
