/* mpi_env.c — the command's MPI context. The MPI build of the command
 * (TBRF_CLI_MPI, build/mpi/tbrf, doc/mpi.md) initialises MPI only when a
 * launcher started it (mpirun sets OMPI_COMM_WORLD_SIZE, PMIx and PMI
 * launchers PMIX_RANK or PMI_RANK): run alone it is the serial command,
 * touching no MPI at all. The serial build has the same functions, with
 * one rank. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdlib.h>
#include <time.h>

#include "cli.h"
#include "mpi_launched.h"

#ifdef TBRF_CLI_MPI
#include <mpi.h>

static int g_active, g_solo, g_rank, g_size = 1;

int cli_mpi_start(int *argc, char ***argv)
{
    if (!cli_mpi_launched())
        return 0;
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        return -1;
    g_active = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    return 0;
}

void cli_mpi_stop(void)
{
    g_solo = 0;
    if (g_active)
        MPI_Finalize();
    g_active = 0;
}

int cli_mpi_active(void) { return g_active && !g_solo; }
void cli_mpi_solo(int on) { g_solo = on; }
int cli_mpi_rank(void) { return g_rank; }
int cli_mpi_size(void) { return g_size; }

int cli_mpi_agree(int ok)
{
    int all = ok;
    if (g_active)
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* A blocking MPI_Allreduce waits by polling: Open MPI's shared-memory
 * transport spins (or, oversubscribed, sched_yields) a full core on a rank
 * that waits seconds for rank 0. The non-blocking form, tested between
 * sleeps that grow from 0.1 ms to 20 ms, costs a waiting rank about 50
 * MPI_Tests a second and delays the answer by at most 20 ms. */
int cli_mpi_agree_idle(int ok)
{
    int all = ok;
    if (!g_active)
        return all;
    MPI_Request req;
    MPI_Iallreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &req);
    long wait_ns = 100000;
    for (int done = 0;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done)
            return all;
        struct timespec t = {0, wait_ns};
        nanosleep(&t, NULL);
        wait_ns = wait_ns < 10000000 ? 2 * wait_ns : 20000000;
    }
}

int cli_mpi_same(const char *s)
{
    unsigned long long h = 14695981039346656037ull, lo = 0, hi = 0; /* FNV-1a */
    for (const char *c = s ? s : ""; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    if (!g_active)
        return 1;
    MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}
#else
int cli_mpi_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}
void cli_mpi_stop(void) {}
int cli_mpi_active(void) { return 0; }
void cli_mpi_solo(int on) { (void)on; }
int cli_mpi_rank(void) { return 0; }
int cli_mpi_size(void) { return 1; }
int cli_mpi_agree(int ok) { return ok; }
int cli_mpi_agree_idle(int ok) { return ok; }
int cli_mpi_same(const char *s)
{
    (void)s;
    return 1;
}
#endif
