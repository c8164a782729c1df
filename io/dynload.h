/* dynload.h — optional shared libraries loaded when first needed (dlopen)
 * rather than at start-up, so that a program linked with the io library
 * (the tbrf command, libtbrf_writer) pays for netCDF, and the command for
 * cairo, only when it writes netCDF or draws a picture (doc/design.md,
 * "Start-up"). netCDF alone pulls in some twenty libraries (curl, gnutls,
 * Kerberos, LDAP, libxml2 and ICU) whose loading costs several times a
 * small run.
 *
 * A user of a library includes its header as usual, then a small header of
 * its own (io/nc_load.h, cli/cairo_load.h) that turns every function it
 * calls into a pointer filled here; the call sites stay unchanged. */
#ifndef TBRF_IO_DYNLOAD_H
#define TBRF_IO_DYNLOAD_H

#include <stddef.h>

/* Opens the library `soname` (dlopen, searched as the dynamic linker
 * searches) and sets *slots[i] to its function names[i], for i < n;
 * `what` names what needs the library, in the plural ("netCDF files").
 * Returns 0, or -1 with err set (the library is not installed, or lacks a
 * function) and every slot left NULL. Not thread-safe: callers serialise
 * it. */
int io_dynload(const char *soname, const char *what, const char *const *names, void **const *slots,
               int n, char *err, size_t errlen);

#endif
