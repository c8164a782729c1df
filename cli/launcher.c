/* launcher.c — the serial `tbrf` command's executable (doc/design.md,
 * "Start-up"). It links libtbrf alone: `tbrf --version` is answered here,
 * and every other command runs in the private module tbrf-commands.so
 * (main.c and the rest of cli/, with HDF5), loaded with dlopen from its
 * path relative to the executable (its own folder in the build tree,
 * LIBDIR/tbrf installed). HDF5 alone loads some thirty libraries (Debian builds it
 * with curl, gnutls, Kerberos and LDAP), several times the cost of the
 * library itself, which a command printing its version does not need.
 *
 * Under an MPI launcher the MPI command (when built: LIBDIR/tbrf/mpi/tbrf
 * installed, build/mpi/tbrf in the build tree) runs in its place, so
 * `mpirun -n 4 tbrf generate ...` splits the field over the ranks as
 * before (doc/mpi.md). */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <errno.h>
#include <H5public.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_launched.h"
#include "tbrf.h"

/* The same line as main.c's cmd_version: HDF5's version is that of the
 * headers the module was built with, which HDF5 itself checks against its
 * library when it starts (H5check_version). */
static int version(void)
{
    printf("tbrf %s (libtbrf %s, HDF5 %d.%d.%d)\n", TBRF_VERSION_STRING, tbrf_version(),
           H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "tbrf: cannot write to standard output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

/* The folder of this executable, in self (PATH_MAX bytes); 0 or -1. */
static int self_dir(char *self)
{
    ssize_t n = readlink("/proc/self/exe", self, PATH_MAX - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

/* The first of the files `where` (relative to this executable's folder)
 * that exists, with `mode` (access), in path; 0, or -1 when none does. */
static int find_beside(const char *const *where, int n, int mode, char *path, size_t size)
{
    char self[PATH_MAX];
    if (self_dir(self))
        return -1;
    for (int i = 0; i < n; i++)
        if (snprintf(path, size, "%s/%s", self, where[i]) < (int)size && access(path, mode) == 0)
            return 0;
    return -1;
}

/* Under mpirun (cli_mpi_launched, as mpi_env.c), execs the MPI command when
 * it is there; returns when it is not (a build without MPI: the serial
 * command runs). */
static void run_mpi_command(char **argv)
{
    static const char *const WHERE[] = {TBRF_MPI_COMMAND, "../mpi/tbrf"};
    char path[PATH_MAX + 64];
    if (!cli_mpi_launched())
        return;
    if (find_beside(WHERE, 2, X_OK, path, sizeof path))
        return;
    execv(path, argv);
    fprintf(stderr, "tbrf: cannot run the MPI command %s: %s\n", path, strerror(errno));
    exit(1);
}

/* The commands' module by its path from this executable (its own folder
 * in the build tree, LIBDIR/tbrf installed), else by name through the
 * RUNPATH: a sanitizer's dlopen interceptor searches its own, not ours. */
static void *load_module(char *path, size_t size)
{
    static const char *const WHERE[] = {TBRF_CLI_MODULE, TBRF_CLI_MODULE_INSTALLED};
    if (find_beside(WHERE, 2, R_OK, path, size))
        snprintf(path, size, "%s", TBRF_CLI_MODULE);
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0))
        return version();
    run_mpi_command(argv);
    char path[PATH_MAX + 64];
    void *module = load_module(path, sizeof path);
    if (!module) {
        const char *why = dlerror();
        fprintf(stderr, "tbrf: cannot load the commands' module %s: %s\n", path,
                why ? why : "unknown reason");
        return 1;
    }
    int (*run)(int, char **) = NULL;
    *(void **)&run = dlsym(module, "tbrf_cli_main");
    if (!run) {
        fprintf(stderr, "tbrf: %s is not tbrf's commands' module (no tbrf_cli_main)\n", path);
        return 1;
    }
    return run(argc, argv);
}
