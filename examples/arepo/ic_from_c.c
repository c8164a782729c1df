/* ic_from_c.c — the cosmological initial condition of run.sh
 * (cosmo_ics.hdf5: AREPO's cosmo_box_gravity_only_3d setting) from a C
 * program, with the installed libraries: the physics from libtbrf
 * (tbrf.h, "initial conditions"), the file from libtbrf_writer
 * (tbrf_arepo.h). The file is the one `tbrf arepo cosmo` writes, byte for
 * byte: the command makes the same calls.
 *
 *   cc ic_from_c.c $(pkg-config --cflags --libs tbrf-writer tbrf) -o ic_from_c
 *   ./ic_from_c        (32^3 particles; ./ic_from_c G for G^3)
 *
 * The file records, in /tbrf command, the command line that writes it, so
 * that `tbrf arepo regen cosmo_ics.hdf5` can remake it. */
#include <stdio.h>
#include <stdlib.h>

#include <tbrf.h>
#include <tbrf_arepo.h>

int main(int argc, char **argv)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    /* run.sh's cosmology (the defaults, spelled out): 50 Mpc/h in kpc/h,
     * z = 127, Planck 2015, Eisenstein & Hu P(k), seed 1 */
    p.box = 50000.0;
    p.particles = argc > 1 ? atoll(argv[1]) : 32;
    p.redshift = 127.0;
    p.omega_m = 0.3089;
    p.omega_lambda = 0.6911;
    p.omega_b = 0.0486;
    p.hubble = 0.6774;
    p.sigma8 = 0.831;
    p.seed = 1;
    p.lpt = 1; /* Zel'dovich, as N-GenIC's ICs of AREPO's example */
    tbrf_ic_cosmo *ic = NULL;
    int st = tbrf_ic_cosmo_make(&p, &ic);
    if (st != TBRF_OK) {
        fprintf(stderr, "ic_from_c: %s: %s\n", tbrf_strerror(st), tbrf_ic_cosmo_message(ic));
        tbrf_ic_cosmo_destroy(ic);
        return 1;
    }
    tbrf_ic_cosmo_info info;
    tbrf_ic_cosmo_get_info(ic, &info);
    printf("ic_from_c: %lld particles, D(z) = %.6g, velocity factor %.6g km/s per kpc/h, "
           "particle mass %.6g 1e10 M_sun/h\n", (long long)info.particles, info.growth,
           info.velocity_factor, info.mass_dm);

    char command[512];
    snprintf(command, sizeof command,
             "tbrf arepo cosmo --out cosmo_ics --box 50000 --particles %lld --redshift 127 "
             "--omega-m 0.3089 --omega-lambda 0.6911 --omega-b 0.0486 --hubble 0.6774 "
             "--sigma8 0.831 --seed 1 --lpt 1", (long long)p.particles);
    tbrf_arepo_cosmo_file file;
    tbrf_arepo_default_cosmo_file(&file); /* one file, float64, 32-bit IDs */
    file.command = command;
    char err[1024];
    int rc = tbrf_arepo_write_cosmo("cosmo_ics", ic, &file, err, sizeof err);
    if (rc)
        fprintf(stderr, "ic_from_c: %s\n", err);
    else
        printf("ic_from_c: wrote cosmo_ics.hdf5\n");
    tbrf_ic_cosmo_destroy(ic);
    return rc ? 1 : 0;
}
