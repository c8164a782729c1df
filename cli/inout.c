/* inout.c — the rules every command keeps between the files a run reads
 * and the files it writes (doc/guarantees-outputs.md):
 *   - an input is never an output: every file a run reads is recorded
 *     when its name is known (cli_input: the option's file and what it
 *     names, a parameter file's glass and spectrum), and every output is
 *     compared with every recorded input and the ones the command names
 *     (cli_refuse_inputs), same name or same device and inode;
 *   - an output is checked before the work (cli_check_output): a folder
 *     holding it that exists and is writable, the size against the free
 *     space and the file-size limit (RLIMIT_FSIZE, `ulimit -f`), each
 *     refusal with the system's reason. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cli.h"
#include "io/tbrf_io.h"

/* The inputs recorded so far (a command runs once a process). */
enum { MAX_INPUTS = 64 };
static struct {
    char *path;
    const char *what;
} g_inputs[MAX_INPUTS];
static int g_ninputs, g_lost;

void cli_input(const char *path, const char *what)
{
    if (!path || !path[0])
        return;
    char *copy = g_ninputs < MAX_INPUTS ? strdup(path) : NULL;
    if (!copy) {
        g_lost = 1; /* the check then refuses: an input it cannot compare */
        return;
    }
    g_inputs[g_ninputs].path = copy;
    g_inputs[g_ninputs++].what = what;
}

void cli_inputs_clear(void)
{
    for (int i = 0; i < g_ninputs; i++)
        free(g_inputs[i].path);
    g_ninputs = g_lost = 0;
}

int cli_same_file(const char *a, const char *b)
{
    if (!a || !b)
        return 0;
    if (strcmp(a, b) == 0)
        return 1;
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* One output name against one input: 0, or EXIT_USAGE after the line. */
static int refuse_one(const char *cmd, const char *out, const char *name, const char *in,
                      const char *what)
{
    if (!name || !in || !cli_same_file(name, in))
        return 0;
    char e1[512], e2[512];
    if (strcmp(name, out) == 0)
        cli_errline("%s: --out %s is %s; write the output elsewhere", cmd,
                    tbrf_io_escape(out, e1, sizeof e1), what);
    else
        cli_errline("%s: --out %s: %s is %s; write the output elsewhere", cmd,
                    tbrf_io_escape(out, e1, sizeof e1), tbrf_io_escape(name, e2, sizeof e2),
                    what);
    return EXIT_USAGE;
}

int cli_refuse_inputs(const char *cmd, const char *out, char *const *out_names, int nout,
                      const char *const *in_paths, const char *const *in_what, int nin)
{
    if (g_lost) {
        cli_errline("%s: out of memory recording the inputs", cmd);
        return EXIT_FAIL;
    }
    for (int o = 0; o < nout; o++) {
        for (int i = 0; i < nin; i++)
            if (refuse_one(cmd, out, out_names[o], in_paths[i], in_what[i]))
                return EXIT_USAGE;
        for (int i = 0; i < g_ninputs; i++)
            if (refuse_one(cmd, out, out_names[o], g_inputs[i].path, g_inputs[i].what))
                return EXIT_USAGE;
    }
    return 0;
}

/* The folder holding path, into dir[n] ("." for a bare name). */
static void folder_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else if (slash == path)
        snprintf(dir, n, "/");
    else
        snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

int cli_check_output(const char *cmd, const char *out, double bytes, double largest)
{
    char dir[4096], e1[512], e2[512], need[32], have[32];
    struct stat st;
    if (!out || !out[0]) {
        cli_errline("%s: --out names no file", cmd);
        return EXIT_USAGE;
    }
    if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_errline("%s: --out %s is a directory: name the file to write", cmd,
                    tbrf_io_escape(out, e1, sizeof e1));
        return EXIT_USAGE;
    }
    folder_of(out, dir, sizeof dir);
    int e = 0;
    if (stat(dir, &st) != 0)
        e = errno;
    else if (!S_ISDIR(st.st_mode))
        e = ENOTDIR;
    else if (access(dir, W_OK | X_OK) != 0)
        e = errno;
    if (e) {
        cli_errline("%s: --out %s: cannot write in the folder %s: %s", cmd,
                    tbrf_io_escape(out, e1, sizeof e1), tbrf_io_escape(dir, e2, sizeof e2),
                    strerror(e));
        return EXIT_FAIL;
    }
    struct rlimit rl;
    if (largest > 0 && getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        largest > (double)rl.rlim_cur) {
        cli_human_size(largest, need, sizeof need);
        cli_human_size((double)rl.rlim_cur, have, sizeof have);
        cli_errline("%s: --out %s: a file of %s would exceed the file-size limit of %s "
                    "(RLIMIT_FSIZE, `ulimit -f`): raise the limit or write less", cmd,
                    tbrf_io_escape(out, e1, sizeof e1), need, have);
        return EXIT_FAIL;
    }
    char err[1024];
    if (bytes > 0 && tbrf_io_space_check(out, "the output", bytes, err, sizeof err)) {
        cli_errline("%s: %s", cmd, err);
        return EXIT_FAIL;
    }
    return 0;
}
