/* formats.c — the registry of output formats: every io_format_ops by
 * name, so that the command's --format, the suffix rule and the messages
 * listing what is available all read one table. A new format is one line
 * here and its own files (doc/design.md, "Adding an output format"). */
#include <stdio.h>
#include <string.h>

#include "io/io_internal.h"
#include "io/io_reader.h"
#include "io/tbrf_io.h"

const io_format_ops *const io_formats[] = {&io_hdf5_ops, &io_netcdf_ops};
const int io_nformats = (int)(sizeof io_formats / sizeof io_formats[0]);

/* The readers, probed in this order: netCDF first, since a netCDF-4 file
 * is an HDF5 file too (its probe asks for netCDF's mark). */
const io_reader_ops *const io_readers[] = {&io_netcdf_reader, &io_hdf5_reader};
const int io_nreaders = (int)(sizeof io_readers / sizeof io_readers[0]);

void tbrf_io_format_list(char *buf, size_t n)
{
    size_t at = 0;
    if (n > 0)
        buf[0] = '\0';
    for (int i = 0; i < io_nformats && at < n; i++) {
        int k = snprintf(buf + at, n - at, "%s%s", i ? ", " : "", io_formats[i]->name);
        at += k > 0 ? (size_t)k : 0;
    }
}

const io_format_ops *io_format_find(const char *name, char *err, size_t errlen)
{
    for (int i = 0; name && i < io_nformats; i++)
        if (strcmp(io_formats[i]->name, name) == 0)
            return io_formats[i];
    char list[256];
    tbrf_io_format_list(list, sizeof list);
    io_setf(err, errlen, "unknown output format %s (available: %s)", name ? name : "(none)", list);
    return NULL;
}

const io_format_ops *io_format_for_path(const char *path)
{
    const size_t len = strlen(path);
    for (int i = 0; i < io_nformats; i++) {
        const char *x = io_formats[i]->suffix;
        const size_t xl = x ? strlen(x) : 0;
        if (xl > 0 && len > xl && strcmp(path + len - xl, x) == 0)
            return io_formats[i];
    }
    return &io_hdf5_ops;
}

int tbrf_io_format_check(const char *name, char *err, size_t errlen)
{
    return io_format_find(name, err, errlen) ? 0 : -1;
}

const char *tbrf_io_format_of(const char *path, const char *format)
{
    if (format) {
        const io_format_ops *f = io_format_find(format, NULL, 0);
        return f ? f->name : NULL;
    }
    return io_format_for_path(path ? path : "")->name;
}

int tbrf_io_format_xdmf(const char *format)
{
    const io_format_ops *f = io_format_find(format, NULL, 0);
    return f && f->xdmf;
}

void tbrf_io_format_objects(const char *format, int is_grid, int dim, int ncomp, char *values,
                            size_t vlen, char *positions, size_t plen)
{
    const io_format_ops *f = io_format_find(format, NULL, 0);
    if (vlen > 0)
        values[0] = '\0';
    if (plen > 0)
        positions[0] = '\0';
    if (f)
        f->objects(is_grid, dim, ncomp, values, vlen, positions, plen);
}

int io_format_nothing_to_load(char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return 0;
}

int io_format_refuse(tbrf_io_writer *w, const char *what)
{
    IO_FAIL(w, "%s: %s files cannot hold %s", w->path, w->ops->title, what);
    return -1;
}
