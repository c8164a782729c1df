/* cli/mpi_launched.h — whether this process was started by an MPI
 * launcher, for the launcher (which then runs the MPI command) and the
 * MPI command (which then calls MPI_Init). */
#ifndef TBRF_CLI_MPI_LAUNCHED_H
#define TBRF_CLI_MPI_LAUNCHED_H

#include <stdlib.h>
#include <string.h>

/* 1 under Open MPI's mpirun (OMPI_COMM_WORLD_SIZE), MPICH's hydra
 * (PMI_RANK) or another PMIx launcher (PMIX_RANK); 0 otherwise. A
 * singleton MPI_Init in a parent (ParaView's pvpython, a Python with
 * mpi4py) leaves PMIX_RANK in the environment its children inherit,
 * marked OMPI_MCA_ess=singleton: that is no launch, and a command run
 * from such a parent is serial. */
static inline int cli_mpi_launched(void)
{
    if (getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_RANK"))
        return 1;
    const char *ess = getenv("OMPI_MCA_ess");
    return getenv("PMIX_RANK") != NULL && !(ess && strcmp(ess, "singleton") == 0);
}

#endif
