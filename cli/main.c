/* main.c — the `tbrf` command: a table of commands, each in its own
 * cmd_*.c file, and what they share at the process level (HDF5's error
 * printing, signals, the final flush of stdout).
 *
 * Error policy: any bad argument or file gives exactly one line
 * "tbrf: ..." on stderr and a non-zero status (2 for usage errors, 1 for
 * failures while running), and never leaves an output file or temporary
 * behind. The library's own messages (tbrf_model_message,
 * tbrf_plan_message) are passed through because they name the offending
 * value precisely. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "cli.h"
#include "io/tbrf_io.h"
#include "tbrf.h"

/* ------------------------------------------------ interrupted runs */

/* The handler only calls async-signal-safe unlink() on paths stored in
 * advance (the output's temporary and its side file's), then re-raises
 * the signal with the default action so the exit status still says
 * "killed". Every signal whose default action ends the process is caught
 * (crashes included); one the parent set to be ignored (nohup, a test's
 * `trap "" XFSZ`) stays ignored. Only SIGKILL and SIGSTOP cannot be
 * caught: the next run to the same name removes a temporary a SIGKILL
 * left (io/common.c, io_remove_stale_temps). */
static char g_tmp[2][4096];
static volatile sig_atomic_t g_have_tmp[2] = {0, 0};
/* The temporaries of an AREPO set being written (cli_guard_temps). */
static const char *const *volatile g_set_tmp;
static volatile sig_atomic_t g_set_n;

static void on_signal(int sig)
{
    for (int i = 0; i < 2; i++)
        if (g_have_tmp[i])
            unlink(g_tmp[i]);
    for (int i = 0; i < g_set_n; i++)
        if (g_set_tmp[i])
            unlink(g_set_tmp[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void guard(int slot, const char *tmp)
{
    g_have_tmp[slot] = 0;
    if (!tmp || strlen(tmp) >= sizeof g_tmp[slot])
        return;
    memcpy(g_tmp[slot], tmp, strlen(tmp) + 1);
    g_have_tmp[slot] = 1;
}

void cli_guard_temp(const char *tmp)
{
    guard(0, tmp);
}

int cli_guard_new_temp(const char *out)
{
    char *tmp = tbrf_io_temp_name(out);
    if (!tmp)
        return -1;
    guard(0, tmp);
    free(tmp);
    return 0;
}

void cli_guard_side_temp(const char *tmp)
{
    guard(1, tmp);
}

void cli_guard_temps(const char *const *paths, int n)
{
    g_set_n = 0; /* the handler never reads a list being replaced */
    g_set_tmp = paths;
    g_set_n = paths ? n : 0;
}

void cli_unguard_temp(void)
{
    g_have_tmp[0] = 0;
    g_have_tmp[1] = 0;
}

static void install_signals(void)
{
    static const int SIGNALS[] = {
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
        SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGSYS,
#ifdef SIGPOLL
        SIGPOLL,
#endif
#ifdef SIGPWR
        SIGPWR,
#endif
#ifdef SIGSTKFLT
        SIGSTKFLT,
#endif
#if !defined(__SANITIZE_ADDRESS__)
        /* crashes (left to the sanitizers' own reports in their builds) */
        SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL,
#endif
    };
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask); /* one clean-up at a time */
    for (size_t i = 0; i < sizeof SIGNALS / sizeof SIGNALS[0]; i++) {
        if (sigaction(SIGNALS[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue;
        sigaction(SIGNALS[i], &sa, NULL);
    }
}

/* ------------------------------------------------------ commands */

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* NULL: not listed in the help */
} COMMANDS[] = {
    {"generate", cmd_generate, "make one realization on a grid or at points, write HDF5 or netCDF"},
    {"regenerate", cmd_regenerate, "reproduce a file's field bit for bit from its attributes"},
    {"sample", cmd_sample, "evaluate a file's field at new points or on a new grid"},
    {"info", cmd_info, "show what an HDF5 or netCDF-4 file holds and how it was generated"},
    {"preview", cmd_preview, "draw a slice of a grid file as a PNG image"},
    {"spectrum", cmd_spectrum, "measure a grid file's P(k) and compare it with its model"},
    {"rng", cmd_rng, "write a generator's output words (raw or hex)"},
    {"mc", cmd_mc, "Monte Carlo estimate of a test integral with its standard error"},
    {"arepo", cmd_arepo, "AREPO initial conditions (gas at mesh points) and linear P(k)"},
    {"drive", cmd_drive, "a turbulence driver's forcing at a sequence of times (OU Fourier modes)"},
    {"help", cmd_help, NULL},
    {"--help", cmd_help, NULL},
    {"-h", cmd_help, NULL},
    {"version", cmd_version, NULL},
    {"--version", cmd_version, NULL},
};
#define NCOMMANDS ((int)(sizeof COMMANDS / sizeof COMMANDS[0]))

static int cmd_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    unsigned maj = 0, min = 0, rel = 0;
    H5get_libversion(&maj, &min, &rel);
    printf("tbrf %s (libtbrf %s, HDF5 %u.%u.%u)\n", TBRF_VERSION_STRING, tbrf_version(), maj, min,
           rel);
    return 0;
}

static int cmd_help(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("usage: tbrf COMMAND [options]\n"
           "\n"
           "Gaussian random fields by the spectral turning-bands method.\n"
           "\n"
           "commands:\n");
    for (int i = 0; i < NCOMMANDS; i++)
        if (COMMANDS[i].summary)
            printf("  %-10s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    printf("\n"
           "  tbrf COMMAND --help   options of a command\n"
           "  tbrf --version        versions of the tool, the library and HDF5\n"
           "\n"
           "Exit status: 0 success, 1 a run or file failed, 2 bad command line.\n");
    return 0;
}

/* Under mpirun, generate splits its field over the ranks (run.c) and
 * drive its frames' cells or points (cmd_drive.c); any other command
 * runs on rank 0 alone, once, as the serial command would
 * (cli_mpi_solo), and the other ranks return its exit status, asleep
 * meanwhile (cli_mpi_agree_idle). Rank 0 says so once, so that P - 1
 * reserved cores doing nothing are not a surprise. */
static int mpi_runs(const char *cmd)
{
    return cli_mpi_size() == 1 || strcmp(cmd, "generate") == 0 || strcmp(cmd, "drive") == 0 ||
           strcmp(cmd, "arepo") == 0; /* cmd_arepo.c: arepo cosmo splits, the rest cli_rank0_only */
}

/* --help anywhere: a usage text, nothing run (and nothing to warn of). */
static int help_asked(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

int cli_rank0_only(int (*run)(int, char **), int argc, char **argv, const char *why)
{
    if (cli_mpi_rank() == 0 && !help_asked(argc, argv)) {
        const char *sub = argc > 1 && argv[1][0] != '-' ? argv[1] : "";
        char others[48] = "rank waits";
        if (cli_mpi_size() > 2)
            snprintf(others, sizeof others, "%d ranks wait", cli_mpi_size() - 1);
        cli_errline("note: '%.40s%s%.40s' runs on rank 0 alone under mpirun; the other %s asleep "
                    "until it ends (%.200s)", argv[0], *sub ? " " : "", sub, others,
                    why ? why : "generate, drive and arepo cosmo are split over ranks");
    }
    cli_mpi_solo(1);
    int rc = cli_mpi_rank() == 0 ? run(argc, argv) : 0;
    cli_mpi_solo(0);
    return cli_mpi_agree_idle(rc == 0) ? rc : (rc ? rc : EXIT_FAIL);
}

#ifdef TBRF_CLI_MODULE
/* The serial command's entry, in its module tbrf-commands.so: the
 * executable (launcher.c) loads the module and calls this with its own
 * arguments. The only symbol the module exports. */
__attribute__((visibility("default"))) int tbrf_cli_main(int argc, char **argv);
int tbrf_cli_main(int argc, char **argv)
#else
int main(int argc, char **argv)
#endif
{
    /* HDF5 1.10 crashes in its atexit clean-up when an H5Fclose failed
     * earlier (e.g. the disk filled while flushing): the failed file stays
     * registered half torn down. The tool closes every file it opens
     * itself, so it does without that clean-up. Must precede any other
     * HDF5 call. */
    H5dont_atexit();
    /* Our messages replace HDF5's stack dumps everywhere in the tool. */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    install_signals();
    if (argc < 2) {
        cli_errline("no command given; try 'tbrf --help'");
        return EXIT_USAGE;
    }
    if (cli_mpi_start(&argc, &argv)) {
        cli_errline("MPI_Init failed");
        return EXIT_FAIL;
    }
    int rc = -1;
    for (int i = 0; i < NCOMMANDS && rc < 0; i++)
        if (strcmp(argv[1], COMMANDS[i].name) == 0)
            rc = mpi_runs(argv[1]) ? COMMANDS[i].run(argc - 1, argv + 1) : cli_rank0_only(COMMANDS[i].run, argc - 1, argv + 1, NULL);
    if (rc < 0) {
        cli_errline("unknown command '%.100s'; try 'tbrf --help'", argv[1]);
        rc = EXIT_USAGE;
    }
    /* A full disk or closed pipe on stdout is a failure too. */
    if (fflush(stdout) != 0 && rc == 0) {
        cli_errline("cannot write to standard output: %s", strerror(errno));
        rc = EXIT_FAIL;
    }
    if (cli_mpi_active()) /* before MPI_Finalize: parallel HDF5 holds MPI objects */
        H5close();
    cli_mpi_stop();
    return rc;
}
