/* dynload.c — loading an optional shared library on first use (dynload.h). */
#include <dlfcn.h>
#include <stdio.h>

#include "io/dynload.h"

int io_dynload(const char *soname, const char *what, const char *const *names, void **const *slots,
               int n, char *err, size_t errlen)
{
    /* RTLD_LOCAL: the library's symbols resolve only through the slots,
     * never in place of a same-named function of the program. */
    void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(err, errlen, "%s need %s, which could not be loaded: %s", what, soname,
                 why ? why : "unknown reason");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        *slots[i] = dlsym(h, names[i]);
        if (!*slots[i]) {
            snprintf(err, errlen, "%s need %s, which lacks the function %s", what, soname,
                     names[i]);
            for (int j = 0; j <= i; j++)
                *slots[j] = NULL;
            dlclose(h);
            return -1;
        }
    }
    return 0;
}
