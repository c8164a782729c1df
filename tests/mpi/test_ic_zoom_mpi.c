/* test_ic_zoom_mpi.c — tbrf_ic_zoom_make_mpi of libtbrf_mpi under mpirun
 * (ctest runs it on 1, 2 and 3 ranks) against the serial
 * tbrf_ic_zoom_make:
 *  - rank 0 holds every particle: each type's count, lattice rows (the
 *    serial order: level by level, rising within one), masses and gas
 *    energies the serial zoom's exactly; positions and velocities within
 *    the distributed transform's rounding (tbrf_ic_cosmo_generate_mpi's
 *    bound, test_ic_mpi's, at the largest level side and the largest
 *    max|Psi1| and max|D2 Psi2| of the levels' ICs); the info the
 *    serial's; the other ranks' zooms made with the same info and no
 *    particles;
 *  - cases: 8^3 refined 2 in a box, Zel'dovich; 8^3 refined 4 in two
 *    levels, 2LPT, gas, paired, a sphere across the periodic z boundary
 *    (its cells on the first and the last ranks' planes); 6^3 refined 2,
 *    2LPT (its 12^3 level split 6, 6 or 4, 4, 4 planes); 8^3 refined 2 in
 *    a box, 3LPT with gas (Psi3 within twice the second order's relative
 *    bound, test_ic_mpi's);
 *  - fixed amplitudes refused on every rank (UNSUPPORTED), an empty region
 *    (INVALID), every rank returning. */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_test.h"
#include "tbrf_mpi.h"

/* The largest |D1 Psi1| and |D2 Psi2| of the levels' ICs, made whole
 * (a begun zoom's level_make), and the largest level side. */
static void level_bounds(const tbrf_ic_cosmo_params *p, const tbrf_ic_zoom_params *zp,
                         double *big, double *big2, int64_t *side)
{
    tbrf_ic_zoom *z = NULL;
    *big = *big2 = 0;
    *side = 0;
    int st = tbrf_ic_zoom_begin(p, zp, 0, 0.0, &z);
    const int levels = zp->levels > 0 ? zp->levels : 1;
    for (int l = 0; st == TBRF_OK && l <= levels; l++) {
        tbrf_ic_cosmo *ic = NULL;
        st = tbrf_ic_zoom_level_make(z, l, 0, 0, &ic);
        tbrf_ic_cosmo_params f;
        tbrf_ic_cosmo_info info;
        if (st == TBRF_OK && (st = tbrf_ic_cosmo_get_params(ic, &f)) == TBRF_OK)
            st = tbrf_ic_cosmo_get_info(ic, &info);
        double *psi = st == TBRF_OK ? malloc(sizeof(double) * 3 * (size_t)info.particles) : NULL;
        if (psi && tbrf_ic_cosmo_displacements(ic, psi) == TBRF_OK)
            for (int64_t i = 0; i < 3 * info.particles; i++)
                *big = fmax(*big, fabs(psi[i]));
        if (psi && p->lpt >= 2 && tbrf_ic_cosmo_displacements2(ic, psi) == TBRF_OK)
            for (int64_t i = 0; i < 3 * info.particles; i++)
                *big2 = fmax(*big2, fabs(psi[i]));
        if (st == TBRF_OK)
            *side = f.particles > *side ? f.particles : *side;
        free(psi);
        tbrf_ic_cosmo_destroy(ic);
    }
    check(st == TBRF_OK && *big > 0, "the levels' ICs made whole for the bound");
    tbrf_ic_zoom_destroy(z);
}

/* One case: the serial zoom against the distributed one. */
static void run_case(const char *name, const tbrf_ic_cosmo_params *p, const tbrf_ic_zoom_params *zp)
{
    tbrf_ic_zoom *serial = NULL, *z = NULL;
    check(tbrf_ic_zoom_make(p, zp, &serial) == TBRF_OK, "serial zoom");
    const int st = tbrf_ic_zoom_make_mpi(MPI_COMM_WORLD, p, zp, &z);
    char what[300];
    snprintf(what, sizeof what, "%s: make_mpi (%s)", name, z ? tbrf_ic_zoom_message(z) : "");
    check(st == TBRF_OK, what);
    double big, big2;
    int64_t side;
    level_bounds(p, zp, &big, &big2, &side);
    tbrf_ic_zoom_info a, b;
    check(tbrf_ic_zoom_get_info(serial, &a) == TBRF_OK && tbrf_ic_zoom_get_info(z, &b) == TBRF_OK &&
              memcmp(&a, &b, sizeof a) == 0, "every rank: the serial zoom's info");
    /* test_ic_mpi's bound at the largest side (doc/mpi.md, "Values") */
    const double g = (double)side, m = (double)((3 * side + 1) / 2);
    const double vf = fabs(a.velocity_factor), vf2 = fabs(a.velocity_factor2);
    const double tol = 2.0 * log2(g) * DBL_EPSILON * big;
    const double tol2 = (4.0 * log2(g) + 4.0 * log2(m) + 8.0) * DBL_EPSILON * big2;
    /* lpt 3: Psi3 within twice the second order's relative bound
     * (test_ic_mpi's), with max|Psi3| below max|D2 Psi2|, moving with 3 f1 */
    const double tol3 = p->lpt >= 3 ? 2.0 * tol2 : 0.0;
    const double tpos = tol + tol2 + tol3 + 2 * DBL_EPSILON * p->box;
    const double tvel = vf * (tol + 4 * DBL_EPSILON * big) + 3.0 * vf * tol3 +
                        (p->lpt >= 2 ? vf2 * (tol2 + 4 * DBL_EPSILON * big2) +
                                           2 * DBL_EPSILON * (vf * big + vf2 * big2) : 0.0);
    double dpos = 0, dvel = 0;
    int same = 1, empty = 1;
    for (int t = 0; t < 3; t++) {
        tbrf_ic_zoom_part s, d;
        tbrf_ic_zoom_particles(serial, t, &s);
        tbrf_ic_zoom_particles(z, t, &d);
        if (rank != 0) {
            empty &= d.n == 0;
            continue;
        }
        same &= s.n == d.n;
        for (int64_t i = 0; same && i < s.n; i++) {
            same &= s.row[i] == d.row[i] && (!s.u || s.u[i] == d.u[i]) &&
                    (!s.mass || s.mass[i] == d.mass[i]) && !s.u == !d.u && !s.mass == !d.mass;
            for (int c = 0; c < 3; c++) {
                dpos = fmax(dpos, periodic(s.pos[3 * i + c], d.pos[3 * i + c], p->box));
                dvel = fmax(dvel, fabs(s.vel[3 * i + c] - d.vel[3 * i + c]));
            }
        }
    }
    check(empty, "ranks but 0: made, no particles");
    snprintf(what, sizeof what, "%s on %d ranks: %lld fine, %lld coarse, %lld gas; rows, masses, "
             "energies the serial's; positions within %.3g (off %.3g), velocities within %.3g "
             "(off %.3g)", name, size, (long long)a.fine, (long long)a.coarse, (long long)a.gas,
             tpos, dpos, tvel, dvel);
    check(same && dpos <= tpos && dvel <= tvel, what);
    if (rank == 0)
        printf("%s\n", what);
    tbrf_ic_zoom_destroy(serial);
    tbrf_ic_zoom_destroy(z);
}

/* What the distributed zoom refuses, on every rank. */
static void refusals(void)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_zoom_params zp;
    ic_params(&p, 8, 0, 0, 2);
    tbrf_ic_default_zoom(&zp);
    zp.refinement = 2;
    for (int a = 0; a < 3; a++)
        zp.lo[a] = 10000, zp.hi[a] = 20000;
    tbrf_ic_zoom *z = NULL;
    p.fixed_amplitude = 1;
    check(tbrf_ic_zoom_make_mpi(MPI_COMM_WORLD, &p, &zp, &z) == TBRF_ERR_UNSUPPORTED &&
              z && strstr(tbrf_ic_zoom_message(z), "fixed"), "fixed amplitudes refused, saying so");
    tbrf_ic_zoom_destroy(z);
    p.fixed_amplitude = 0;
    zp.hi[0] = zp.lo[0]; /* empty */
    check(tbrf_ic_zoom_make_mpi(MPI_COMM_WORLD, &p, &zp, &z) == TBRF_ERR_INVALID && z,
          "an empty region refused");
    tbrf_ic_zoom_destroy(z);
    check(tbrf_ic_zoom_make_mpi(MPI_COMM_WORLD, &p, &zp, NULL) == TBRF_ERR_NULL, "out NULL");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    tbrf_ic_cosmo_params p;
    tbrf_ic_zoom_params zp;
    ic_params(&p, 8, 0, 0, 1);
    tbrf_ic_default_zoom(&zp);
    zp.refinement = 2;
    const double lo[3] = {6000, 12000, 18000}, hi[3] = {24000, 30000, 36000};
    for (int a = 0; a < 3; a++)
        zp.lo[a] = lo[a], zp.hi[a] = hi[a];
    run_case("8^3 r 2, box, lpt 1", &p, &zp);
    ic_params(&p, 8, 1, 1, 2);
    tbrf_ic_default_zoom(&zp);
    zp.refinement = 4;
    zp.levels = 2;
    zp.region = TBRF_IC_ZOOM_SPHERE;
    zp.centre[0] = 25000, zp.centre[1] = 25000, zp.centre[2] = 1000;
    zp.radius = 7000;
    run_case("8^3 r 4, 2 levels, sphere across z = 0, lpt 2, gas, paired", &p, &zp);
    ic_params(&p, 6, 0, 0, 2);
    tbrf_ic_default_zoom(&zp);
    zp.refinement = 2;
    zp.pad = 0;
    for (int a = 0; a < 3; a++)
        zp.lo[a] = 0, zp.hi[a] = 30000;
    run_case("6^3 r 2, lpt 2", &p, &zp);
    ic_params(&p, 8, 1, 0, 3);
    tbrf_ic_default_zoom(&zp);
    zp.refinement = 2;
    for (int a = 0; a < 3; a++)
        zp.lo[a] = lo[a], zp.hi[a] = hi[a];
    run_case("8^3 r 2, box, lpt 3, gas", &p, &zp);
    refusals();
    if (rank == 0)
        printf("%d checks, %d failed\n", checks, failures);
    MPI_Finalize();
    return failures ? 1 : 0;
}
