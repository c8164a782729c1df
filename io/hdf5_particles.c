/* hdf5_particles.c — the HDF5 side of the particle reader (particles.h,
 * particles_parts.h): an AREPO / Gadget format-3 member's /Header, a
 * set's /tbrf record and the PartType<t> rows in bounded chunks. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/hdf5_format.h"
#include "io/io_internal.h"
#include "io/particles.h"
#include "io/particles_parts.h"
#include "io/tbrf_io.h"
#include "tbrf_arepo.h"

/* count values of attribute `name` of group g as doubles: 0, or -1
 * unless it is there with exactly that many numbers. */
static int h5_attr(hid_t g, const char *name, int count, double *v)
{
    if (H5Aexists(g, name) <= 0)
        return -1;
    hid_t a = H5Aopen(g, name, H5P_DEFAULT);
    hid_t sp = a < 0 ? -1 : H5Aget_space(a), ty = a < 0 ? -1 : H5Aget_type(a);
    H5T_class_t c = ty < 0 ? H5T_NO_CLASS : H5Tget_class(ty);
    int ok = sp >= 0 && H5Sget_simple_extent_npoints(sp) == count &&
             (c == H5T_INTEGER || c == H5T_FLOAT) && H5Aread(a, H5T_NATIVE_DOUBLE, v) >= 0;
    for (int i = 0; ok && i < count; i++)
        ok = isfinite(v[i]);
    if (ty >= 0)
        H5Tclose(ty);
    if (sp >= 0)
        H5Sclose(sp);
    if (a >= 0)
        H5Aclose(a);
    return ok ? 0 : -1;
}

/* The /Header of an HDF5 member: 0, 1 when path is no HDF5 file with a
 * /Header group (not a particle file), -1 with err. */
int io_psnap_h5_header(const char *path, phdr *h, char *err, size_t errlen)
{
    memset(h, 0, sizeof *h);
    io_quiet q;
    io_quiet_begin(&q);
    hid_t f = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    hid_t g = f >= 0 && H5Lexists(f, "Header", H5P_DEFAULT) > 0
                  ? H5Gopen2(f, "Header", H5P_DEFAULT) : -1;
    int rc = 1;
    if (g < 0)
        goto done; /* no /Header: a grid, or no HDF5 */
    double t[6], tot[6], hi[6] = {0}, one[1];
    rc = -1;
    if (h5_attr(g, "NumPart_ThisFile", 6, t) || h5_attr(g, "NumPart_Total", 6, tot) ||
        (H5Aexists(g, "NumPart_Total_HighWord") > 0 && h5_attr(g, "NumPart_Total_HighWord", 6, hi)) ||
        h5_attr(g, "MassTable", 6, h->mass) || h5_attr(g, "BoxSize", 1, &h->box)) {
        io_setf(err, errlen, "%s: /Header NumPart_ThisFile, NumPart_Total, MassTable (6 numbers "
                "each) and BoxSize (one) are required", path);
        goto done;
    }
    h->nfiles = 1;
    if (H5Aexists(g, "NumFilesPerSnapshot") > 0) {
        if (h5_attr(g, "NumFilesPerSnapshot", 1, one) || !(one[0] >= 1 && one[0] <= PSNAP_MAX_FILES) ||
            one[0] != floor(one[0])) {
            io_setf(err, errlen, "%s: /Header NumFilesPerSnapshot is not one whole number in 1 .. "
                    "%d", path, PSNAP_MAX_FILES);
            goto done;
        }
        h->nfiles = (int)one[0];
    }
    double *opt[] = {&h->time, &h->redshift, &h->omega0, &h->omega_lambda, &h->hubble};
    const char *names[] = {"Time", "Redshift", "Omega0", "OmegaLambda", "HubbleParam"};
    for (int i = 0; i < 5; i++)
        if (h5_attr(g, names[i], 1, opt[i]))
            *opt[i] = NAN;
    for (int i = 0; i < 6; i++) {
        const double tt = tot[i] + hi[i] * 4294967296.0;
        if (!(t[i] >= 0 && t[i] <= 9e15 && t[i] == floor(t[i]) && tt >= 0 && tt <= 9e15 &&
              tt == floor(tt) && h->mass[i] >= 0)) {
            io_setf(err, errlen, "%s: /Header type %d: %g particles in this file, %g in all, mass "
                    "%g: not counts and a mass >= 0", path, i, t[i], tt, h->mass[i]);
            goto done;
        }
        h->this_file[i] = (int64_t)t[i];
        h->total[i] = (int64_t)tt;
    }
    rc = 0;
done:
    if (g >= 0)
        H5Gclose(g);
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return rc;
}

/* 1 when the HDF5 file path has a /tbrf group with attribute `name`. */
int io_psnap_h5_has_tbrf(const char *path, const char *name)
{
    io_quiet q;
    io_quiet_begin(&q);
    hid_t f = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    int yes = f >= 0 && H5Lexists(f, "tbrf", H5P_DEFAULT) > 0 &&
              H5Aexists_by_name(f, "tbrf", name, H5P_DEFAULT) > 0;
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return yes;
}

int io_psnap_number(const io_psnap *s, const char *name, double *v)
{
    *v = NAN;
    if (!s->record)
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    hid_t f = H5Fopen(s->record, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t g = f >= 0 && H5Lexists(f, "tbrf", H5P_DEFAULT) > 0 ? H5Gopen2(f, "tbrf", H5P_DEFAULT)
                                                               : -1;
    int rc = g >= 0 ? h5_attr(g, name, 1, v) : -1;
    if (g >= 0)
        H5Gclose(g);
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    if (rc)
        *v = NAN;
    return rc;
}

int io_psnap_text(const io_psnap *s, const char *name, char **text)
{
    *text = NULL;
    if (!s->record)
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    hid_t f = H5Fopen(s->record, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t a = f >= 0 && H5Lexists(f, "tbrf", H5P_DEFAULT) > 0 &&
                      H5Aexists_by_name(f, "tbrf", name, H5P_DEFAULT) > 0
                  ? H5Aopen_by_name(f, "tbrf", name, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = a >= 0 && io_attr_string(a, text) == 1 && *text ? 0 : -1;
    if (a >= 0)
        H5Aclose(a);
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return rc;
}

/* GROUP/name of file f as an (n, cols) float dataset (cols 1: (n) or
 * (n, 1)), its storage checked: the open dataset, or -1 with err. */
static hid_t h5_rows(hid_t f, const char *m, int t, const char *name, int64_t n, int cols,
                     char *err, size_t errlen)
{
    char path[48];
    snprintf(path, sizeof path, "PartType%d/%s", t, name);
    char group[16];
    snprintf(group, sizeof group, "PartType%d", t);
    hid_t d = H5Lexists(f, group, H5P_DEFAULT) > 0 && H5Lexists(f, path, H5P_DEFAULT) > 0
                  ? H5Dopen2(f, path, H5P_DEFAULT) : -1;
    hid_t sp = d < 0 ? -1 : H5Dget_space(d), ty = d < 0 ? -1 : H5Dget_type(d);
    hsize_t dims[2] = {0, 0};
    int nd = sp < 0 ? -1 : H5Sget_simple_extent_ndims(sp);
    int ok = nd >= 1 && nd <= 2 && H5Sget_simple_extent_dims(sp, dims, NULL) == nd &&
             dims[0] == (hsize_t)n && (nd == 2 ? dims[1] == (hsize_t)cols : cols == 1) &&
             ty >= 0 && H5Tget_class(ty) == H5T_FLOAT;
    if (ty >= 0)
        H5Tclose(ty);
    if (sp >= 0)
        H5Sclose(sp);
    if (!ok) {
        io_setf(err, errlen, "%s: /%s is not a float (%lld%s) dataset, as NumPart_ThisFile[%d] "
                "says", m, path, (long long)n, cols == 3 ? ", 3" : "", t);
    } else if (io_check_storage(d, m, path, 8.0 * (double)n * cols, err, errlen) == 0)
        return d;
    if (d >= 0)
        H5Dclose(d);
    return -1;
}

/* Rows r .. r + c - 1 of the (n, cols) dataset d into v. */
static int h5_read_rows(hid_t d, int64_t r, int64_t c, int cols, double *v)
{
    hid_t fs = H5Dget_space(d);
    int nd = fs < 0 ? 0 : H5Sget_simple_extent_ndims(fs);
    hsize_t start[2] = {(hsize_t)r, 0}, count[2] = {(hsize_t)c, (hsize_t)cols};
    hsize_t mcount = (hsize_t)c * (hsize_t)cols;
    hid_t ms = H5Screate_simple(1, &mcount, NULL);
    int rc = fs >= 0 && ms >= 0 &&
                     H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
                     (nd == 2 || nd == 1) &&
                     H5Dread(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, v) >= 0
                 ? 0 : -1;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return rc;
}

int io_psnap_h5_member(const io_psnap *s, const char *m, pbuf *b, io_psnap_fn fn, void *user,
                     char *err, size_t errlen)
{
    phdr h;
    int rc = io_psnap_h5_header(m, &h, err, errlen);
    if (rc)
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    hid_t f = H5Fopen(m, H5F_ACC_RDONLY, H5P_DEFAULT);
    rc = f < 0 ? -1 : 0;
    if (rc)
        io_setf(err, errlen, "cannot open %s", m);
    for (int t = 0; t < 6 && rc == 0; t++) {
        if (h.this_file[t] == 0)
            continue;
        const int own = h.mass[t] == 0;
        hid_t dx = h5_rows(f, m, t, "Coordinates", h.this_file[t], 3, err, errlen);
        hid_t dm = dx >= 0 && own ? h5_rows(f, m, t, "Masses", h.this_file[t], 1, err, errlen) : -1;
        rc = dx < 0 || (own && dm < 0) ? -1 : 0;
        for (int64_t r = 0; r < h.this_file[t] && rc == 0; r += b->chunk) {
            int64_t c = h.this_file[t] - r < b->chunk ? h.this_file[t] - r : b->chunk;
            if (h5_read_rows(dx, r, c, 3, b->xyz) || (own && h5_read_rows(dm, r, c, 1, b->mass))) {
                io_setf(err, errlen, "%s: cannot read PartType%d rows %lld .. %lld", m, t,
                        (long long)r, (long long)(r + c - 1));
                rc = -1;
            } else if ((rc = io_psnap_tidy(s, m, t, b->xyz, own ? b->mass : NULL, c, err, errlen)) == 0) {
                io_quiet_end(&q); /* the callback may call HDF5 itself */
                rc = fn(user, t, b->xyz, own ? b->mass : NULL, c);
                io_quiet_begin(&q);
            }
        }
        if (dm >= 0)
            H5Dclose(dm);
        if (dx >= 0)
            H5Dclose(dx);
    }
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return rc;
}
