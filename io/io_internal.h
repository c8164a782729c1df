/* io_internal.h — helpers shared by the files of io/. Not installed. */
#ifndef TBRF_IO_INTERNAL_H
#define TBRF_IO_INTERNAL_H

#include <stddef.h>
#include <hdf5.h>

/* HDF5 prints its error stack to stderr by default. We switch that off for
 * the duration of each public call and restore the caller's handler on
 * return, so a host program keeps its own setting while our callers get
 * one clear line instead of a stack dump. */
typedef struct io_quiet {
    H5E_auto2_t func;
    void *data;
} io_quiet;

void io_quiet_begin(io_quiet *q);
void io_quiet_end(const io_quiet *q);

/* snprintf into err (if errlen > 0), never overflowing, newlines removed
 * so the message stays one line. */
void io_setf(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The innermost description on HDF5's current error stack (often the
 * reason, e.g. "No space left on device"), shortened to fit; "" if none. */
void io_h5_reason(char *buf, size_t n);

#endif
