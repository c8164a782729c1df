/* test_ic_mpi.c — tbrf_ic_cosmo_generate_mpi and tbrf_mpi_ic_split of
 * libtbrf_mpi under mpirun (ctest runs it on 1, 2, 3 and 4 ranks):
 *  - the members cover the G^3 particles once, in lattice order, each
 *    rank's inside its FFTW-MPI planes, every rank with planes at least
 *    one member; on one rank the serial set's split;
 *  - each rank pushes exactly its members' chunks, in order, rows as
 *    tbrf_mpi_ic_split says; all ranks' particles are the serial run's
 *    (tbrf_ic_cosmo_generate): positions within the distributed
 *    transform's rounding of Psi1, 2 log2(G) eps max|Psi1| (plus one ulp
 *    of the box for the sum q + Psi; periodic distance), velocities within
 *    velocity_factor times that, gas energies equal (Zel'dovich; paired
 *    with gas at 16^3, plain at 32^3 with more members than ranks);
 *  - fixed amplitudes (32^3): the same bound, the serial potential coming
 *    from a forward transform of the field and the ranks' from its modes;
 *  - lpt 2 (the second order on the distributed 3/2-padded grid): the
 *    same, plus D2 Psi2's rounding, (4 log2 G + 4 log2 M + 8) eps
 *    max|D2 Psi2| (doc/mpi.md, "Values") on the positions and, times
 *    velocity_factor2, the velocities: 6^3 with gas, paired (G 6, M 9
 *    planes: on 4 ranks the last has a plane of neither grid), 4^3 (G 4,
 *    M 6: on 3 ranks the last has none of G's but 2 of M's), 16^3, 32^3
 *    with more members than ranks and with fixed amplitudes;
 *  - lpt 3 (the third order's twelve derivatives on the same padded
 *    grid): the same, plus Psi3's rounding, twice D2 Psi2's relative
 *    bound times max|Psi3| (max|Psi3| from the serial lpt 3 run's
 *    velocities less its lpt 2 twin's); and Psi3 itself, free of Psi1's
 *    rounding, as u3 - u2 of the distributed run and its distributed lpt
 *    2 twin against the serial pair, within that bound plus the sums'
 *    ulps: 6^3 with gas, paired, 4^3, 16^3 with more members than ranks
 *    and with fixed amplitudes;
 *  - a slab's IC with fixed amplitudes or lpt 2 or 3 has no potential for
 *    the serial calls; push_rows refuses lpt 2, push_rows2 a NULL psi2
 *    and lpt 3, push_rows3 a NULL psi3; slab_bytes grows with the order;
 *    fewer files than ranks with planes: TBRF_ERR_INVALID; a push that
 *    fails on the last rank: an error on every rank. */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_test.h"
#include "tbrf_mpi.h"

/* Every particle's values, the serial run's or this rank's pushed ones. */
typedef struct rows {
    double *pos, *vel, *gas, *u;
    int64_t n, next_chunk, pushed, bad;
    const int64_t *bounds; /* expected rows of each chunk, or NULL */
    int fail;
} rows;

static int take(void *user, const tbrf_ic_chunk *ch)
{
    rows *r = user;
    if (r->fail)
        return 1;
    if (r->bounds && (ch->chunk != r->next_chunk || ch->first != r->bounds[ch->chunk] ||
                      ch->first + ch->count != r->bounds[ch->chunk + 1]))
        r->bad++;
    r->next_chunk = ch->chunk + 1;
    memcpy(r->pos + 3 * ch->first, ch->pos, sizeof(double) * 3 * (size_t)ch->count);
    memcpy(r->vel + 3 * ch->first, ch->vel, sizeof(double) * 3 * (size_t)ch->count);
    if (ch->gas_pos) {
        memcpy(r->gas + 3 * ch->first, ch->gas_pos, sizeof(double) * 3 * (size_t)ch->count);
        memcpy(r->u + ch->first, ch->gas_u, sizeof(double) * (size_t)ch->count);
    }
    r->pushed += ch->count;
    return 0;
}

static void rows_alloc(rows *r, int64_t n)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    r->pos = calloc((size_t)n * 3, sizeof(double));
    r->vel = calloc((size_t)n * 3, sizeof(double));
    r->gas = calloc((size_t)n * 3, sizeof(double));
    r->u = calloc((size_t)n, sizeof(double));
}

static void rows_free(rows *r)
{
    free(r->pos);
    free(r->vel);
    free(r->gas);
    free(r->u);
}

/* The split: members cover 0 .. n once, each rank's within its planes. */
static void check_split(int64_t g, int files, const int64_t *bounds, int64_t z0, int64_t planes,
                        int member0, int members)
{
    int ok = bounds[0] == 0 && bounds[files] == g * g * g;
    for (int f = 0; f < files; f++)
        ok &= bounds[f + 1] >= bounds[f];
    check(ok, "the members' rows rise from 0 to G^3");
    ok = planes == 0 ? members == 0
                     : members >= 1 && bounds[member0] == z0 * g * g &&
                           bounds[member0 + members] == (z0 + planes) * g * g;
    check(ok, "a rank's members are its planes' rows, at least one where it has planes");
    int total = 0;
    MPI_Allreduce(&members, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    check(total == files, "every member belongs to one rank");
    const int64_t n = g * g * g; /* the serial split [n f / F, n (f + 1) / F) */
    for (int f = 0; size == 1 && f <= files; f++)
        check(bounds[f] == (n / files) * f + (n % files) * f / files,
              "one rank: the serial set's split");
}

/* One case: the serial run against the distributed one with `files`
 * members. */
static void run_case(int64_t g, int gas, int paired, int fixed, int files, int lpt)
{
    tbrf_ic_cosmo_params p;
    ic_params(&p, g, gas, paired, lpt);
    p.fixed_amplitude = fixed;
    const int64_t n = g * g * g;
    tbrf_ic_cosmo *serial = NULL, *ic = NULL;
    check(tbrf_ic_cosmo_make(&p, &serial) == TBRF_OK, "serial make");
    rows ref, got;
    rows_alloc(&ref, n);
    rows_alloc(&got, n);
    check(tbrf_ic_cosmo_generate(serial, 1, take, &ref) == TBRF_OK, "serial generate");
    double *psi = malloc(sizeof(double) * 3 * (size_t)n), big = 0;
    check(tbrf_ic_cosmo_displacements(serial, psi) == TBRF_OK, "serial displacements");
    for (int64_t i = 0; i < 3 * n; i++)
        big = fmax(big, fabs(psi[i]));
    double big2 = 0; /* max|D2 Psi2| */
    check(tbrf_ic_cosmo_displacements2(serial, psi) == TBRF_OK, "serial displacements2");
    for (int64_t i = 0; i < 3 * n; i++)
        big2 = fmax(big2, fabs(psi[i]));
    tbrf_ic_cosmo_info info;
    tbrf_ic_cosmo_get_info(serial, &info);
    /* max|Psi3|: the serial lpt 3 run's velocities less its lpt 2 twin's
     * are 3 velocity_factor Psi3 (Psi1, Psi2 the same bits) */
    double big3 = 0, vbig = 0;
    tbrf_ic_cosmo_params p2 = p;
    p2.lpt = 2;
    rows ref2 = {0}, got2 = {0};
    if (lpt >= 3) {
        tbrf_ic_cosmo *twin = NULL;
        rows_alloc(&ref2, n);
        check(tbrf_ic_cosmo_make(&p2, &twin) == TBRF_OK &&
                  tbrf_ic_cosmo_generate(twin, 1, take, &ref2) == TBRF_OK, "serial lpt 2 twin");
        for (int64_t i = 0; i < 3 * n; i++) {
            big3 = fmax(big3, fabs(ref.vel[i] - ref2.vel[i]) / (3.0 * fabs(info.velocity_factor)));
            vbig = fmax(vbig, fmax(fabs(ref.vel[i]), fabs(ref2.vel[i])));
        }
        check(big3 > 0, "lpt 3: a third order to compare");
        tbrf_ic_cosmo_destroy(twin);
    }
    int64_t *bounds = malloc(sizeof *bounds * ((size_t)files + 1)), z0, planes;
    int member0, members;
    check(tbrf_mpi_ic_split(MPI_COMM_WORLD, g, files, &z0, &planes, &member0, &members,
                            bounds) == TBRF_OK, "split");
    check_split(g, files, bounds, z0, planes, member0, members);
    int64_t rows_max = 0;
    for (int f = member0; f < member0 + members; f++)
        rows_max = bounds[f + 1] - bounds[f] > rows_max ? bounds[f + 1] - bounds[f] : rows_max;
    check(tbrf_ic_cosmo_make_slab(&p, planes > 0 ? planes : 1, rows_max, &ic) == TBRF_OK,
          "make_slab");
    got.bounds = bounds;
    got.next_chunk = member0;
    check(tbrf_ic_cosmo_generate_mpi(MPI_COMM_WORLD, ic, files, take, &got) == TBRF_OK,
          "generate_mpi");
    check(got.bad == 0 && got.next_chunk == member0 + members &&
              got.pushed == (planes * g * g), "each rank pushes its members, in order");
    /* the transform's rounding of Psi1 (doc/mpi.md), then q + Psi's */
    const double tol = 2.0 * log2((double)g) * DBL_EPSILON * big;
    const double vf = fabs(info.velocity_factor);
    /* lpt 2: D2 Psi2's rounding (both paths' transforms and products) and
     * one more rounded sum in each value; big2 is 0 for lpt 1 */
    const double m = (double)((3 * g + 1) / 2), vf2 = fabs(info.velocity_factor2);
    const double tol2 = (4.0 * log2((double)g) + 4.0 * log2(m) + 8.0) * DBL_EPSILON * big2;
    /* lpt 3: Psi3's, which carries phi2's rounding into a second padded
     * stage of the same kind (twelve derivatives, the products, five
     * forward transforms): twice D2 Psi2's relative bound; big3 is 0
     * below lpt 3 */
    const double tol3 = 2.0 * (4.0 * log2((double)g) + 4.0 * log2(m) + 8.0) * DBL_EPSILON * big3;
    const double vf3 = 3.0 * vf;
    const double tpos = tol + tol2 + tol3 + 2 * DBL_EPSILON * p.box;
    const double tvel = vf * (tol + 4 * DBL_EPSILON * big) +
                        (lpt >= 2 ? vf2 * (tol2 + 4 * DBL_EPSILON * big2) +
                                        2 * DBL_EPSILON * (vf * big + vf2 * big2) : 0.0) +
                        (lpt >= 3 ? vf3 * (tol3 + 4 * DBL_EPSILON * big3) +
                                        2 * DBL_EPSILON * (vf * big + vf2 * big2 + vf3 * big3)
                                  : 0.0);
    double dpos = 0, dvel = 0, du = 0;
    for (int64_t i = bounds[member0]; members > 0 && i < bounds[member0 + members]; i++)
        for (int c = 0; c < 3; c++) {
            dpos = fmax(dpos, periodic(got.pos[3 * i + c], ref.pos[3 * i + c], p.box));
            dvel = fmax(dvel, fabs(got.vel[3 * i + c] - ref.vel[3 * i + c]));
            if (gas) {
                dpos = fmax(dpos, periodic(got.gas[3 * i + c], ref.gas[3 * i + c], p.box));
                du = fmax(du, fabs(got.u[i] - ref.u[i]));
            }
        }
    char what[300];
    snprintf(what, sizeof what, "lpt %d, %lld^3, %d files%s: positions within %.3g (off %.3g), "
             "velocities within %.3g (off %.3g), gas energy equal (off %g)%s", lpt,
             (long long)g, files, fixed ? ", fixed" : "", tpos, dpos, tvel, dvel, du,
             lpt >= 3 ? "; max|Psi3|" : "");
    if (lpt >= 3)
        snprintf(what + strlen(what), sizeof what - strlen(what), " %.3g, Psi3 bound %.3g",
                 big3, tol3);
    check(dpos <= tpos && dvel <= tvel && du == 0, what);
    if (rank == 0)
        printf("%s\n", what);
    if (lpt >= 3) {
        /* Psi3 itself, free of Psi1's rounding: the distributed lpt 2 twin
         * has the lpt 3 run's Psi1 and D2 Psi2 bits, so u3 - u2 is 3
         * velocity_factor Psi3 on both paths, up to the rounding of the
         * sums that form u (an ulp of u3, u2 and of their higher orders
         * on each path) */
        tbrf_ic_cosmo *ic2 = NULL;
        rows_alloc(&got2, n);
        got2.bounds = bounds;
        got2.next_chunk = member0;
        check(tbrf_ic_cosmo_make_slab(&p2, planes > 0 ? planes : 1, rows_max, &ic2) == TBRF_OK &&
                  tbrf_ic_cosmo_generate_mpi(MPI_COMM_WORLD, ic2, files, take, &got2) == TBRF_OK,
              "distributed lpt 2 twin");
        double d3 = 0;
        for (int64_t i = 3 * bounds[member0]; members > 0 && i < 3 * bounds[member0 + members];
             i++)
            d3 = fmax(d3, fabs((got.vel[i] - got2.vel[i]) - (ref.vel[i] - ref2.vel[i])) / vf3);
        const double t3 = tol3 + 2 * DBL_EPSILON * (2 * vbig + vf2 * big2 + 2 * vf3 * big3) / vf3;
        snprintf(what, sizeof what, "lpt 3, %lld^3%s: Psi3 (u3 - u2) within %.3g (off %.3g) of "
                 "max|Psi3| %.3g", (long long)g, fixed ? ", fixed" : "", t3, d3, big3);
        check(d3 <= t3, what);
        if (rank == 0)
            printf("%s\n", what);
        tbrf_ic_cosmo_destroy(ic2);
        rows_free(&got2);
        rows_free(&ref2);
    }
    tbrf_ic_cosmo_destroy(ic);
    tbrf_ic_cosmo_destroy(serial);
    rows_free(&ref);
    rows_free(&got);
    free(psi);
    free(bounds);
}

/* What the distributed form refuses, on every rank. */
static void refusals(void)
{
    tbrf_ic_cosmo_params p;
    ic_params(&p, 16, 0, 0, 2);
    tbrf_ic_cosmo *ic = NULL;
    double bytes = 0, bytes1 = 0;
    check(tbrf_ic_cosmo_slab_bytes(&p, 4, 100, &bytes) == TBRF_OK, "slab_bytes takes lpt 2");
    p.lpt = 1;
    check(tbrf_ic_cosmo_slab_bytes(&p, 4, 100, &bytes1) == TBRF_OK && bytes > bytes1,
          "slab_bytes: lpt 2 holds more than lpt 1 (the padded slabs)");
    p.fixed_amplitude = 1;
    check(tbrf_ic_cosmo_make_slab(&p, 4, 100, &ic) == TBRF_OK, "make_slab, fixed amplitudes");
    double *d = malloc(sizeof(double) * 3 * 4096);
    check(tbrf_ic_cosmo_displacements(ic, d) == TBRF_ERR_UNSUPPORTED,
          "a slab's IC with fixed amplitudes has no potential: displacements refused");
    tbrf_ic_cosmo_destroy(ic);
    ic = NULL;
    rows r;
    rows_alloc(&r, 16 * 16 * 16);
    p.lpt = 2;
    p.fixed_amplitude = 0;
    check(tbrf_ic_cosmo_make_slab(&p, 4, 100, &ic) == TBRF_OK, "make_slab, lpt 2");
    check(tbrf_ic_cosmo_displacements2(ic, d) == TBRF_ERR_UNSUPPORTED &&
              tbrf_ic_cosmo_generate(ic, 1, take, &r) == TBRF_ERR_UNSUPPORTED,
          "a slab's IC with lpt 2 has no second order: displacements2, generate refused");
    check(tbrf_ic_cosmo_push_rows(ic, 0, 0, 10, d, take, &r) == TBRF_ERR_UNSUPPORTED &&
              tbrf_ic_cosmo_push_rows2(ic, 0, 0, 10, d, NULL, take, &r) == TBRF_ERR_NULL,
          "push_rows refuses lpt 2, push_rows2 a NULL psi2");
    tbrf_ic_cosmo_destroy(ic);
    ic = NULL;
    p.lpt = 3;
    double bytes3 = 0;
    check(tbrf_ic_cosmo_slab_bytes(&p, 4, 100, &bytes3) == TBRF_OK && bytes3 > bytes,
          "slab_bytes: lpt 3 holds more than lpt 2 (twelve padded slabs)");
    check(tbrf_ic_cosmo_make_slab(&p, 4, 100, &ic) == TBRF_OK, "make_slab, lpt 3");
    check(tbrf_ic_cosmo_generate(ic, 1, take, &r) == TBRF_ERR_UNSUPPORTED &&
              tbrf_ic_cosmo_push_rows2(ic, 0, 0, 10, d, d, take, &r) == TBRF_ERR_UNSUPPORTED &&
              tbrf_ic_cosmo_push_rows3(ic, 0, 0, 10, d, d, NULL, take, &r) == TBRF_ERR_NULL,
          "a slab's IC with lpt 3: generate refused, push_rows2 refuses lpt 3, push_rows3 a "
          "NULL psi3");
    free(d);
    p.lpt = 1;
    tbrf_ic_cosmo_destroy(ic);
    ic = NULL;
    int64_t z0, planes, bounds[8];
    int m0, m;
    if (size > 1)
        check(tbrf_mpi_ic_split(MPI_COMM_WORLD, 16, 1, &z0, &planes, &m0, &m, bounds) ==
                  TBRF_ERR_INVALID, "one file for several ranks with planes: INVALID");
    /* a push failing on the last rank: every rank fails */
    check(tbrf_mpi_ic_split(MPI_COMM_WORLD, 16, size, &z0, &planes, &m0, &m, bounds) == TBRF_OK,
          "split of 16^3");
    check(tbrf_ic_cosmo_make_slab(&p, planes > 0 ? planes : 1, 4096, &ic) == TBRF_OK,
          "make_slab 16^3");
    r.fail = rank == size - 1;
    check(tbrf_ic_cosmo_generate_mpi(MPI_COMM_WORLD, ic, size, take, &r) != TBRF_OK,
          "a failing push on one rank fails every rank");
    r.fail = 0;
    tbrf_ic_cosmo_destroy(ic);
    rows_free(&r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    run_case(16, 1, 1, 0, size, 1);
    run_case(32, 0, 0, 0, 2 * size + 1, 1);
    run_case(32, 0, 0, 1, size, 1);
    run_case(6, 1, 1, 0, size, 2);
    run_case(4, 0, 0, 0, size, 2);
    run_case(16, 0, 0, 0, size, 2);
    run_case(32, 0, 0, 0, 2 * size + 1, 2);
    run_case(32, 0, 0, 1, size, 2);
    run_case(6, 1, 1, 0, size, 3);
    run_case(4, 0, 0, 0, size, 3);
    run_case(16, 0, 0, 0, 2 * size + 1, 3);
    run_case(16, 0, 0, 1, size, 3);
    refusals();
    if (rank == 0)
        printf("%d checks on %d ranks, %d failed\n", checks, size, failures);
    MPI_Finalize();
    return failures ? 1 : 0;
}
