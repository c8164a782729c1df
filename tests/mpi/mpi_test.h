/* mpi_test.h — what the MPI C tests share (the C tests of tests/mpi, one include
 * each): the rank, the size and a collective check, which counts a
 * failure on every rank when any rank fails (so all ranks end with the
 * same exit status), printing the failing rank's message; and for the
 * IC tests a cosmological IC's parameters and the periodic distance. */
#ifndef TBRF_TEST_MPI_TEST_H
#define TBRF_TEST_MPI_TEST_H

#include <math.h>
#include <mpi.h>
#include <stdio.h>

#include "tbrf.h"

static int rank, size, failures, checks;

static void check(int ok, const char *what)
{
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    checks++;
    if (!ok)
        fprintf(stderr, "FAIL rank %d: %s\n", rank, what);
    if (!all)
        failures++;
}

/* The IC tests' parameters: G^3 particles in 50 Mpc/h at z = 49. */
static inline void ic_params(tbrf_ic_cosmo_params *p, int64_t g, int gas, int paired, int lpt)
{
    tbrf_ic_default_cosmo(p);
    p->particles = g;
    p->box = 50000.0;
    p->redshift = 49.0;
    p->lpt = lpt;
    p->gas = gas;
    p->paired = paired;
}

/* |a - b| on a periodic axis of length box. */
static inline double periodic(double a, double b, double box)
{
    double d = fabs(a - b);
    return d > box / 2 ? box - d : d;
}

#endif
