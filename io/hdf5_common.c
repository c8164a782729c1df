/* hdf5_common.c — helpers of the HDF5 format's files: the quiet window
 * around HDF5's error printing (used around every format's calls, since
 * netCDF-4 is HDF5 underneath) and the innermost reason on its error
 * stack. */
#include <stdio.h>
#include <string.h>

#include "io/hdf5_format.h"

void io_quiet_begin(io_quiet *q)
{
    H5E_auto2_t func = NULL;
    q->data = NULL;
    H5Eget_auto2(H5E_DEFAULT, &func, &q->data);
    q->func = (void (*)(void))func;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void io_quiet_end(const io_quiet *q)
{
    H5Eset_auto2(H5E_DEFAULT, (H5E_auto2_t)q->func, q->data);
}

/* H5Ewalk2 visits the stack from the API call inward (downward); the last
 * entry visited is the innermost, which names the actual cause. */
static herr_t reason_cb(unsigned n, const H5E_error2_t *e, void *data)
{
    (void)n;
    const char **last = data;
    if (e && e->desc && e->desc[0])
        *last = e->desc;
    return 0;
}

void io_h5_reason(char *buf, size_t n)
{
    if (!buf || n == 0)
        return;
    buf[0] = '\0';
    const char *last = NULL;
    hid_t stack = H5Eget_current_stack();
    if (stack < 0)
        return;
    H5Ewalk2(stack, H5E_WALK_DOWNWARD, reason_cb, &last);
    if (last) {
        /* The sec2 driver's write and read failures read "file write
         * failed: time = ..., filename = ..., errno = 28, error message =
         * 'No space left on device', buf = ...": keep only the reason. */
        const char *key = "error message = '";
        const char *m = strstr(last, key);
        const char *end = m ? strchr(m + strlen(key), '\'') : NULL;
        if (m && end)
            io_setf(buf, n, "%.*s", (int)(end - (m + strlen(key))), m + strlen(key));
        else
            io_setf(buf, n, "%s", last);
    }
    H5Eclose_stack(stack);
}

hid_t io_h5_xfer_open(const tbrf_io_writer *w)
{
#ifdef TBRF_IO_MPI
    if (io_is_parallel(w)) {
        hid_t x = H5Pcreate(H5P_DATASET_XFER);
        if (x >= 0 && H5Pset_dxpl_mpio(x, H5FD_MPIO_COLLECTIVE) >= 0)
            return x;
        if (x >= 0)
            H5Pclose(x);
        return -1;
    }
#endif
    (void)w;
    return H5P_DEFAULT;
}

void io_h5_xfer_close(hid_t x)
{
    if (x >= 0 && x != H5P_DEFAULT)
        H5Pclose(x);
}
