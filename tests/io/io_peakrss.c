/* io_peakrss.c — runs a command and checks its peak resident set size.
 *
 *   io_peakrss LIMIT_MIB command args...
 *
 * Exits with the command's status if it failed, 1 if its peak RSS
 * (getrusage of the child via wait4: what the kernel measured, not an
 * estimate) exceeds LIMIT_MIB, 0 otherwise. Used by the out-of-core test:
 * a grid much larger than the limit must be written within it. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: io_peakrss LIMIT_MIB command args...\n");
        return 2;
    }
    double limit = atof(argv[1]);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("wait4");
        return 2;
    }
    double mib = (double)ru.ru_maxrss / 1024.0; /* ru_maxrss is in KiB on Linux */
    printf("peak RSS %.1f MiB (limit %.1f MiB)\n", mib, limit);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "command failed (status %d)\n", status);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    return mib <= limit ? 0 : 1;
}
