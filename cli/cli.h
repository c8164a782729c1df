/* cli.h — what the commands of the `tbrf` tool share (not installed). */
#ifndef TBRF_CLI_H
#define TBRF_CLI_H

#include <stddef.h>
#include <stdint.h>

#define EXIT_FAIL 1  /* a run or file failed */
#define EXIT_USAGE 2 /* bad command line */

/* The MPI context (mpi_env.c; doc/mpi.md). The MPI build of the command
 * starts MPI only under a launcher (mpirun); otherwise, and in the serial
 * build, there is one rank and no MPI call is made. cli_mpi_start: 0, or
 * -1 when MPI_Init failed; cli_mpi_agree: 1 when every rank passes ok = 1. */
int cli_mpi_start(int *argc, char ***argv);
void cli_mpi_stop(void);
int cli_mpi_active(void); /* MPI started, and not inside cli_mpi_solo(1) */
void cli_mpi_solo(int on);  /* 1: rank 0 runs a command alone, as the serial tool */
int cli_mpi_rank(void);
int cli_mpi_size(void);
int cli_mpi_agree(int ok);
/* cli_mpi_agree waited asleep (a few polls a second, not a spinning core):
 * for ranks that wait for another's long run. */
int cli_mpi_agree_idle(int ok);
/* Collective: 1 when every rank passes the same string (a command line). */
int cli_mpi_same(const char *s);
/* run(argc, argv) on rank 0 alone, as the serial command, the other ranks
 * asleep until it ends and returning its status; rank 0 says so once,
 * with `why` (NULL: the commands that are split). main.c. */
int cli_rank0_only(int (*run)(int, char **), int argc, char **argv, const char *why);

/* Prints "tbrf: MESSAGE" on stderr as exactly one line ("tbrf: rank R:
 * MESSAGE" on the ranks but 0 of an MPI run). */
void cli_errline(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The commands (argv[0] is the command's name), one per cmd_*.c file;
 * main.c's table lists them. Each returns 0 or an EXIT_* status. */
int cmd_generate(int argc, char **argv);
int cmd_regenerate(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_preview(int argc, char **argv);
int cmd_spectrum(int argc, char **argv);
int cmd_rng(int argc, char **argv);
int cmd_mc(int argc, char **argv);
int cmd_arepo(int argc, char **argv); /* cmd_arepo.c: AREPO initial conditions */
int cmd_arepo_cosmo(int argc, char **argv); /* cmd_arepo_cosmo.c: `arepo cosmo` */
int cmd_arepo_glass(int argc, char **argv); /* cmd_arepo_glass.c: `arepo glass` */
int cmd_arepo_zoom(int argc, char **argv);  /* cmd_arepo_zoom.c: `arepo zoom` */
/* cmd_arepo_regen.c: `regenerate` of an AREPO file from its recorded
 * command; -1 when FILE is no AREPO file of tbrf, else an exit status. */
int arepo_regenerate(const char *file, const char *out, int check, int quiet);
/* FNV-1a (64 bits) of the file's bytes as 16 hex digits into hex: a
 * check that a spectrum's file is the one a set was made from (`arepo
 * cosmo --input-digest`, its power_file_digest), not a cryptographic
 * digest. 0, -1 when unreadable, -2 at a NUL byte (read no further: 64
 * KiB past it at most). cmd_arepo_cosmo.c. */
int cli_file_digest(const char *path, char hex[17]);
/* "12.3 MiB": a byte count for the wrote lines (run.c). */
void cli_human_size(double bytes, char *buf, size_t n);
/* The one stderr line for an AREPO file or set that `tbrf
 * arepo` wrote: its name(s), the particles and their type, the precision
 * and the size on disk (cmd_arepo.c). */
void arepo_say_wrote(const char *base, int files, int64_t n, const char *what, int dbl);
/* --format hdf5|gadget1|gadget2 (val NULL: hdf5) into *format
 * (TBRF_AREPO_FORMAT_*); a gadget format without --precision (prec NULL)
 * sets *double_precision 0, Gadget's float32. 0, or -1 after the message
 * (arepo_format.c). */
int arepo_parse_format(const char *val, const char *prec, int *format, int32_t *double_precision);
/* cli_refuse_inputs for the AREPO set BASE of nfiles files in `format`
 * (arepo_format.c): every member's name (tbrf_arepo_member_name) and, for
 * Gadget, the side file BASE.tbrf.h5; EXIT_FAIL when a name cannot be
 * made. */
int arepo_refuse_format_inputs(const char *cmd, const char *base, int nfiles, int format,
                               const char *const *in_paths, const char *const *in_what, int nin);
/* arepo_say_wrote for the set in `format`. */
void arepo_say_wrote_format(const char *base, int files, int format, int64_t n,
                            const char *what, int dbl);
int cmd_sample(int argc, char **argv);
int cmd_drive(int argc, char **argv); /* cmd_drive.c: turbulence driving series */
/* cmd_drive.c: `regenerate` of a `tbrf drive` series from its recorded
 * command (--out replaced, --points read from the series itself;
 * threads, when given, replaces its --threads; refused names an option of
 * regenerate's that does not apply to a series, or NULL); -1 when FILE is
 * no series, else an exit status after --check when check is set. */
int drive_regenerate(const char *file, const char *out, const char *threads, const char *refused,
                     int check, int quiet);

/* A run killed by Ctrl-C or the batch system's SIGTERM must not leave its
 * temporary file behind: main.c's signal handler removes the file named
 * here (NULL or unguard: none). */
void cli_guard_temp(const char *tmp);
/* Guards the temporary that tbrf_io_create(out) will make, before it
 * exists (tbrf_io_temp_name): a signal landing while the writer creates
 * it, HDF5 or netCDF writing its header, must find it listed already,
 * as an AREPO set's members are (cli_guard_temps). 0, or -1 when memory
 * runs out (nothing guarded). */
int cli_guard_new_temp(const char *out);
/* The side file's temporary, removed with it (cli_unguard_temp: both). */
void cli_guard_side_temp(const char *tmp);
void cli_unguard_temp(void);
/* Many temporaries at once (an AREPO set: tbrf_arepo_set_temp_hook's
 * signature): the caller keeps paths[0 .. n-1] valid until the next call;
 * NULL or 0: none. */
void cli_guard_temps(const char *const *paths, int n);

/* inout.c: inputs against outputs, outputs before the work.
 * 1 if a and b name the same file: equal names, or the same device and
 * inode (hard links, ./x and x, symbolic links). */
int cli_same_file(const char *a, const char *b);
/* Records a file the run reads (path copied; what: a literal such as
 * "the --turbgen input"), as soon as its name is known: every later
 * cli_refuse_inputs compares its outputs with it too. NULL or "" is
 * ignored. */
void cli_input(const char *path, const char *what);
/* Forgets the recorded inputs (tests that run several commands). */
void cli_inputs_clear(void);
/* The output named by out_names[0 .. nout-1] (a file, or every member of
 * a set) may be none of the inputs in_paths[0 .. nin-1] (NULL entries
 * skipped), described by in_what[i] ("the --glass input"), nor any input
 * recorded by cli_input: 0, or EXIT_USAGE after one line "CMD: --out OUT:
 * NAME is WHAT; write the output elsewhere" (EXIT_FAIL when an input
 * could not be recorded). Every command that reads files checks its
 * outputs with it before any work. */
int cli_refuse_inputs(const char *cmd, const char *out, char *const *out_names, int nout,
                      const char *const *in_paths, const char *const *in_what, int nin);
/* Before any work: out is no folder, the folder holding it exists and is
 * writable, `largest` bytes (the largest file written; 0: unknown) fit
 * the file-size limit (RLIMIT_FSIZE) and `bytes` (all of the output; 0:
 * unknown) the folder's free space. 0, or EXIT_USAGE / EXIT_FAIL after
 * one line "CMD: --out OUT: ..." with the system's reason. */
int cli_check_output(const char *cmd, const char *out, double bytes, double largest);
/* Points that coincide (xyz: n rows of 3; float_box > 0: compared as the
 * float32 coordinates written in a box of that size) read from `file`
 * by option `opt`: 0 when none, else EXIT_USAGE after one line naming the
 * first point that repeats an earlier one and that earlier one
 * (EXIT_FAIL when the check's index is over the memory budget). */
int cli_refuse_duplicates(const char *cmd, const char *opt, const char *file, int64_t n,
                          const double *xyz, double float_box);

/* The plan's detailed message, or the status text when it has none. */
struct tbrf_plan;
const char *cli_plan_msg(const struct tbrf_plan *plan, int status);

/* A progress bar on stderr, drawn only when stderr is a terminal and not
 * --quiet, so logs and pipes never get carriage-return noise. */
typedef struct progress {
    int on, drawn;
    int64_t total;
    double t0, last;
    const char *unit;
} progress;

void progress_begin(progress *p, int64_t total, const char *unit, int quiet);
void progress_update(progress *p, int64_t done);
void progress_end(progress *p);

#endif
