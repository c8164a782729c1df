/* fuzz_replay.c — main() of a fuzz target built without libFuzzer: runs
 * the target once on every file named, or on every file of a directory
 * named (not recursive), and reports how many. A crash, a sanitizer
 * report or a hang (ctest's timeout) fails the test; the targets assert
 * nothing else, like libFuzzer. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_replay: cannot read %s\n", path);
        return -1;
    }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    LLVMFuzzerTestOneInput(buf ? buf : (const uint8_t *)"", n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "fuzz_replay: no such file or directory: %s\n", argv[i]);
            bad++;
            continue;
        }
        if (!S_ISDIR(sb.st_mode)) {
            bad += run_file(argv[i]) != 0;
            files++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
            bad += run_file(p) != 0;
            files++;
        }
        if (d)
            closedir(d);
    }
    printf("%s: %d inputs replayed%s\n", argv[0], files, bad ? ", some unreadable" : "");
    return bad || files == 0 ? 1 : 0;
}
