/* ngenic.h — N-GenIC parameter files for `tbrf arepo cosmo --ngenic`
 * (ngenic.c; doc/arepo.md "--ngenic"). */
#ifndef TBRF_CLI_NGENIC_H
#define TBRF_CLI_NGENIC_H

#include "tbrf.h"

#define NGENIC_STR 1024

/* Every key N-GenIC's read_parameterfile knows (NumFiles: some of its
 * versions; default 1), named as in the file. */
typedef struct ngenic_params {
    double Nmesh, Nsample, Box, GlassTileFac, Omega, OmegaLambda, OmegaBaryon,
        OmegaDM_2ndSpecies, HubbleParam, Redshift, Sigma8, SphereMode, WhichSpectrum,
        InputSpectrum_UnitLength_in_cm, ReNormalizeInputSpectrum, ShapeGamma, PrimordialIndex,
        Seed, NumFilesWrittenInParallel, UnitLength_in_cm, UnitMass_in_g,
        UnitVelocity_in_cm_per_s, WDM_On, WDM_Vtherm_On, WDM_PartMass_in_kev, NumFiles;
    char FileBase[NGENIC_STR], OutputDir[NGENIC_STR], GlassFile[NGENIC_STR],
        FileWithInputSpectrum[NGENIC_STR];
} ngenic_params;

/* Reads the file: 0, or EXIT_USAGE after one line naming the line and
 * key (an unknown or repeated key, a value that is not a number, a
 * required key missing). */
int ngenic_read(const char *path, ngenic_params *p);

/* 0 when tbrf can do what the values ask, else EXIT_USAGE after one line
 * naming the key it cannot honour. */
int ngenic_check(const char *path, const ngenic_params *p);

/* WhichSpectrum 2: FileWithInputSpectrum's rows (log10 k, log10 Delta^2,
 * k in h / InputSpectrum_UnitLength_in_cm) as tbrf's P(k) at z = 0 (k in
 * h/Mpc, P = 2 pi^2 Delta^2 / k^3 in (Mpc/h)^3, tilted by k^(n - 1) as
 * N-GenIC does) into *power; NULL for the Eisenstein & Hu fit. 0, or
 * EXIT_USAGE / EXIT_FAIL after the message. */
int ngenic_power(const char *path, const ngenic_params *p, tbrf_model **power);

#endif
