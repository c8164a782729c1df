/* hdf5_arepo.c — the HDF5 side of AREPO / Gadget format-3 initial
 * conditions: the groups /Header, /PartType*, /tbrf of a member (the
 * arepo_write and arepo_record slots of io_hdf5_ops, which arepo.c calls
 * through the writer's table), and reading members and sets back
 * (tbrf_arepo_read_*, tbrf_arepo_check_set, tbrf_arepo_compare). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/gadget.h"
#include "io/hdf5_format.h"
#include "tbrf_arepo.h"
#include "io/tbrf_io.h"

/* Rows converted and written per HDF5 call: bounded memory whatever n. */
#define AREPO_BLOCK 65536

static hid_t ordered_group(hid_t file, const char *name)
{
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    if (gcpl >= 0) {
        H5Pset_attr_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
        H5Pset_obj_track_times(gcpl, 0);
    }
    hid_t g = H5Gcreate2(file, name, H5P_DEFAULT, gcpl >= 0 ? gcpl : H5P_DEFAULT, H5P_DEFAULT);
    if (gcpl >= 0)
        H5Pclose(gcpl);
    return g;
}

static int attr(hid_t loc, const char *name, hid_t ftype, hid_t mtype, int count, const void *v)
{
    hsize_t d = (hsize_t)count;
    hid_t sp = count == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &d, NULL);
    hid_t a = sp < 0 ? -1 : H5Acreate2(loc, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = (a < 0 || H5Awrite(a, mtype, v) < 0) ? -1 : 0;
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

static int attr_d(hid_t g, const char *name, double v)
{
    return attr(g, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, &v);
}

static int attr_i(hid_t g, const char *name, int32_t v)
{
    return attr(g, name, H5T_STD_I32LE, H5T_NATIVE_INT32, 1, &v);
}

static int attr_s(hid_t g, const char *name, const char *s)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, strlen(s) + 1);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    int rc = attr(g, name, t, t, 1, s);
    H5Tclose(t);
    return rc;
}

/* Rows [first, first + count) of each type in file f of F. */
static int write_header(hid_t file, const tbrf_arepo_header *h, const tbrf_arepo_particles *types,
                        int f)
{
    hid_t g = ordered_group(file, "Header");
    if (g < 0)
        return -1;
    int32_t this_file[6];
    uint32_t total[6], high[6];
    for (int t = 0; t < 6; t++) {
        int64_t first, count;
        tbrf_arepo_file_rows(types[t].n, h->num_files, f, &first, &count);
        this_file[t] = (int32_t)count;
        total[t] = (uint32_t)((uint64_t)types[t].n & 0xffffffffu);
        high[t] = (uint32_t)((uint64_t)types[t].n >> 32);
    }
    int rc = attr(g, "NumPart_ThisFile", H5T_STD_I32LE, H5T_NATIVE_INT32, 6, this_file);
    rc |= attr(g, "NumPart_Total", H5T_STD_U32LE, H5T_NATIVE_UINT32, 6, total);
    rc |= attr(g, "NumPart_Total_HighWord", H5T_STD_U32LE, H5T_NATIVE_UINT32, 6, high);
    rc |= attr(g, "MassTable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 6, h->mass_table);
    rc |= attr_d(g, "Time", h->time) | attr_d(g, "Redshift", h->redshift);
    rc |= attr_d(g, "BoxSize", h->box_size) | attr_i(g, "NumFilesPerSnapshot", h->num_files);
    rc |= attr_d(g, "Omega0", h->omega0) | attr_d(g, "OmegaLambda", h->omega_lambda);
    rc |= attr_d(g, "OmegaBaryon", h->omega_baryon) | attr_d(g, "HubbleParam", h->hubble_param);
    rc |= attr_i(g, "Flag_Sfr", h->flag_sfr) | attr_i(g, "Flag_Cooling", h->flag_cooling);
    rc |= attr_i(g, "Flag_StellarAge", h->flag_stellarage);
    rc |= attr_i(g, "Flag_Metals", h->flag_metals);
    rc |= attr_i(g, "Flag_Feedback", h->flag_feedback);
    rc |= attr_i(g, "Flag_DoublePrecision", h->double_precision);
    rc |= attr_i(g, "Flag_Entropy_ICs", 0); /* InternalEnergy is u, not entropy */
    if (h->unit_length_cm > 0)
        rc |= attr_d(g, "UnitLength_in_cm", h->unit_length_cm);
    if (h->unit_mass_g > 0)
        rc |= attr_d(g, "UnitMass_in_g", h->unit_mass_g);
    if (h->unit_velocity_cm_s > 0)
        rc |= attr_d(g, "UnitVelocity_in_cm_per_s", h->unit_velocity_cm_s);
    H5Gclose(g);
    return rc;
}

/* Marks a float dataset of zeros for write_dataset. */
static const double ZEROS[1] = {0};

/* How a member's datasets are stored: the precision, the ID width, and
 * the running digest of every block written (the member's content, which
 * the set's identity is made of: tbrf_arepo_set_commit). */
typedef struct ds_out {
    int dbl, long_ids;
    uint64_t *digest;
} ds_out;

/* Rows [r, r + m) of a dataset converted to the memory type of *mtype in
 * buf. Float32 coordinates (box > 0) that round up to BoxSize wrap to
 * the box's other side, so that every stored coordinate lies in [0,
 * BoxSize) as AREPO requires (a double just below the box rounds to it
 * as a float). */
static void fill_block(void *buf, const double *src, int64_t first, int64_t r, size_t k, int cols,
                       int dbl, uint64_t first_id, double box, hid_t *mtype)
{
    if (src == ZEROS) {
        memset(buf, 0, k * (dbl ? sizeof(double) : sizeof(float)));
        *mtype = dbl ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
    } else if (!src) {
        uint64_t *u = buf;
        for (size_t i = 0; i < k; i++)
            u[i] = first_id + (uint64_t)(first + r) + i;
        *mtype = H5T_NATIVE_UINT64;
    } else if (dbl) {
        memcpy(buf, src + (first + r) * cols, k * sizeof(double));
        *mtype = H5T_NATIVE_DOUBLE;
    } else {
        float *fl = buf;
        for (size_t i = 0; i < k; i++) {
            fl[i] = (float)src[(first + r) * cols + (int64_t)i];
            if (box > 0 && (double)fl[i] >= box)
                fl[i] = (float)((double)fl[i] - box);
        }
        *mtype = H5T_NATIVE_FLOAT;
    }
}

/* A dataset of rows x cols from src (doubles; ZEROS: zeros; NULL: the IDs
 * first_id + row), converted block by block to the file type; box > 0
 * for coordinates (fill_block). */
static int write_dataset(hid_t g, const char *name, int64_t rows, int cols, const double *src,
                         int64_t first, const ds_out *o, uint64_t first_id, double box)
{
    const int dbl = o->dbl;
    hsize_t dims[2] = {(hsize_t)rows, (hsize_t)cols};
    hid_t ftype = src ? (dbl ? H5T_IEEE_F64LE : H5T_IEEE_F32LE)
                      : (o->long_ids ? H5T_STD_U64LE : H5T_STD_U32LE);
    hid_t sp = H5Screate_simple(cols == 1 ? 1 : 2, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl >= 0)
        H5Pset_obj_track_times(dcpl, 0); /* no times: see ordered_group */
    hid_t d = sp < 0 ? -1 : H5Dcreate2(g, name, ftype, sp, H5P_DEFAULT,
                                       dcpl >= 0 ? dcpl : H5P_DEFAULT, H5P_DEFAULT);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    int rc = d < 0 ? -1 : 0;
    size_t esize = 8;
    void *buf = rc ? NULL : malloc((size_t)AREPO_BLOCK * (size_t)cols * esize);
    if (!buf)
        rc = -1;
    *o->digest = io_digest_bytes(*o->digest, name, strlen(name));
    for (int64_t r = 0; rc == 0 && r < rows; r += AREPO_BLOCK) {
        int64_t m = rows - r < AREPO_BLOCK ? rows - r : AREPO_BLOCK;
        size_t k = (size_t)m * (size_t)cols;
        hid_t mtype;
        fill_block(buf, src, first, r, k, cols, dbl, first_id, box, &mtype);
        *o->digest = io_digest_bytes(*o->digest, buf, k * H5Tget_size(mtype));
        hsize_t start[2] = {(hsize_t)r, 0}, cnt[2] = {(hsize_t)m, (hsize_t)cols};
        hid_t ms = H5Screate_simple(cols == 1 ? 1 : 2, cnt, NULL);
        H5Sselect_hyperslab(sp, H5S_SELECT_SET, start, NULL, cnt, NULL);
        if (ms < 0 || H5Dwrite(d, mtype, ms, sp, H5P_DEFAULT, buf) < 0)
            rc = -1;
        if (ms >= 0)
            H5Sclose(ms);
    }
    free(buf);
    if (d >= 0)
        H5Dclose(d);
    if (sp >= 0)
        H5Sclose(sp);
    return rc;
}

/* Zeros for a missing Velocities or InternalEnergy: AREPO would fill them
 * itself, but an explicit dataset makes the file self-describing. */
static int write_type(hid_t file, const tbrf_arepo_header *h, int t, const tbrf_arepo_particles *p,
                      uint64_t *digest)
{
    const int64_t first = 0, count = p->n; /* p is this file's rows */
    if (count == 0)
        return 0;
    char name[16];
    snprintf(name, sizeof name, "PartType%d", t);
    hid_t g = ordered_group(file, name); /* no times (attributes: none) */
    if (g < 0)
        return -1;
    const ds_out o = {h->double_precision, h->long_ids, digest};
    *digest = io_digest_bytes(*digest, name, strlen(name));
    int rc = write_dataset(g, "Coordinates", count, 3, p->pos, first, &o, 0, h->box_size);
    rc |= write_dataset(g, "Velocities", count, 3, p->vel ? p->vel : ZEROS, first, &o, 0, 0);
    rc |= write_dataset(g, "ParticleIDs", count, 1, NULL, first, &o, p->first_id, 0);
    if (h->mass_table[t] == 0)
        rc |= write_dataset(g, "Masses", count, 1, p->mass, first, &o, 0, 0);
    if (t == 0)
        rc |= write_dataset(g, "InternalEnergy", count, 1, p->u ? p->u : ZEROS, first, &o, 0, 0);
    H5Gclose(g);
    return rc;
}

static int write_params(hid_t file, const tbrf_arepo_param *params, size_t n)
{
    hid_t g = ordered_group(file, "tbrf");
    if (g < 0)
        return -1;
    int rc = attr_s(g, "tbrf_version", tbrf_version());
    for (size_t i = 0; i < n; i++) {
        if (!params[i].name)
            continue;
        rc |= params[i].text ? attr_s(g, params[i].name, params[i].text)
                             : attr_d(g, params[i].name, params[i].value);
    }
    H5Gclose(g);
    return rc;
}

int io_h5_arepo_write(tbrf_io_writer *w, const struct tbrf_arepo_header *h,
                      const struct tbrf_arepo_particles *totals,
                      const struct tbrf_arepo_particles *types, int f,
                      const struct tbrf_arepo_param *params, size_t nparams, uint64_t *digest,
                      char *err, size_t errlen)
{
    hid_t file = io_h5(w)->file;
    int rc = write_header(file, h, totals, f);
    for (int t = 0; types && t < 6 && rc == 0; t++)
        rc = write_type(file, h, t, &types[t], digest);
    if (rc == 0)
        rc = write_params(file, params, nparams);
    if (rc) {
        char why[256];
        io_h5_reason(why, sizeof why);
        io_setf(err, errlen, "cannot write %s%s%s", w->path, why[0] ? ": " : "", why);
    }
    return rc;
}

/* /gadget_members (nf x 2 uint64) from rows. 0 or -1. */
static int members_dataset(hid_t file, int nf, const uint64_t *rows)
{
    hsize_t dims[2] = {(hsize_t)nf, 2};
    hid_t sp = H5Screate_simple(2, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (dcpl >= 0) /* no times: the same set gives the same bytes */
        H5Pset_obj_track_times(dcpl, 0);
    hid_t d = sp < 0 ? -1 : H5Dcreate2(file, "gadget_members", H5T_STD_U64LE, sp, H5P_DEFAULT,
                                       dcpl >= 0 ? dcpl : H5P_DEFAULT, H5P_DEFAULT);
    int rc = d < 0 || H5Dwrite(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows) < 0;
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (d >= 0)
        H5Dclose(d);
    if (sp >= 0)
        H5Sclose(sp);
    return rc ? -1 : 0;
}

int io_h5_arepo_record(tbrf_io_writer *w, int f, int nf, const char *digest, const char *format,
                       const uint64_t *rows)
{
    hid_t file = io_h5(w)->file, g = H5Gopen2(file, "tbrf", H5P_DEFAULT);
    int rc = g < 0;
    if (g >= 0) {
        if (nf > 0)
            rc |= attr_i(g, "set_files", nf);
        if (f >= 0)
            rc |= attr_i(g, "set_member", f);
        if (digest)
            rc |= attr_s(g, "set_digest", digest);
        if (format)
            rc |= attr_s(g, "format", format);
        H5Gclose(g);
    }
    if (rc == 0 && rows)
        rc = members_dataset(file, nf, rows);
    if (rc)
        IO_FAIL(w, "cannot write %s: recording the set", w->path);
    return rc ? -1 : 0;
}

/* GROUP/Coordinates (N, 3) of path into *xyz, and /Header's BoxSize into
 * *box when box is not NULL (1 when the file has none). */
static int read_coords(const char *path, const char *group, int64_t *n, double **xyz,
                       double *box, char *err, size_t errlen)
{
    char dset[32];
    snprintf(dset, sizeof dset, "%s/Coordinates", group);
    *n = 0;
    *xyz = NULL;
    if (io_stat_input(path, "points", err, errlen) || tbrf_arepo_check_set(path, err, errlen))
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = 1;
    hid_t f = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    hid_t d = -1, sp = -1;
    if (f < 0 || H5Lexists(f, group, H5P_DEFAULT) <= 0 || H5Lexists(f, dset, H5P_DEFAULT) <= 0)
        goto done; /* not an AREPO file with that type: the caller reads /points or text */
    d = H5Dopen2(f, dset, H5P_DEFAULT);
    sp = d < 0 ? -1 : H5Dget_space(d);
    hsize_t dims[2] = {0, 0};
    hid_t ty = d < 0 ? -1 : H5Dget_type(d);
    int ok = sp >= 0 && H5Sget_simple_extent_ndims(sp) == 2 &&
             H5Sget_simple_extent_dims(sp, dims, NULL) == 2 && dims[1] == 3 && dims[0] >= 1 &&
             ty >= 0 && H5Tget_class(ty) == H5T_FLOAT;
    if (ty >= 0)
        H5Tclose(ty);
    rc = -1;
    if (!ok) {
        io_setf(err, errlen, "%s: /%s is not a float (N, 3) dataset", path, dset);
        goto done;
    }
    char what[64];
    snprintf(what, sizeof what, "%llu coordinates", (unsigned long long)dims[0]);
    if (io_check_storage(d, path, dset, 24.0 * (double)dims[0], err, errlen) ||
        tbrf_io_budget_check(path, what, 24.0 * (double)dims[0], err, errlen))
        goto done;
    *xyz = malloc((size_t)dims[0] * 3 * sizeof **xyz);
    if (!*xyz || H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, *xyz) < 0) {
        io_setf(err, errlen, "%s: cannot read /%s", path, dset);
        free(*xyz);
        *xyz = NULL;
        goto done;
    }
    *n = (int64_t)dims[0];
    rc = 0;
    if (box) {
        *box = 1.0;
        if (H5Aexists_by_name(f, "Header", "BoxSize", H5P_DEFAULT) > 0) {
            hid_t a = H5Aopen_by_name(f, "Header", "BoxSize", H5P_DEFAULT, H5P_DEFAULT);
            hid_t as = a < 0 ? -1 : H5Aget_space(a);
            if (as < 0 || H5Sget_simple_extent_npoints(as) != 1 ||
                H5Aread(a, H5T_NATIVE_DOUBLE, box) < 0 || !(isfinite(*box) && *box > 0)) {
                io_setf(err, errlen, "%s: /Header BoxSize is not one positive number", path);
                free(*xyz);
                *xyz = NULL;
                *n = 0;
                rc = -1;
            }
            if (as >= 0)
                H5Sclose(as);
            if (a >= 0)
                H5Aclose(a);
        }
    }
done:
    if (sp >= 0)
        H5Sclose(sp);
    if (d >= 0)
        H5Dclose(d);
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return rc;
}

int tbrf_arepo_read_coordinates(const char *path, int64_t *n, double **xyz, char *err,
                                size_t errlen)
{
    return read_coords(path, "PartType0", n, xyz, NULL, err, errlen);
}

int tbrf_arepo_read_glass(const char *path, int64_t *n, double **xyz, double *box, char *err,
                          size_t errlen)
{
    /* N-GenIC's glass files are Gadget binaries (a record marker 256
     * first): told by their first bytes, as HDF5 and text are */
    if (io_stat_input(path, "glass", err, errlen) == 0 && io_gadget_sniff(path) != 0)
        return io_gadget_read_glass(path, n, xyz, box, err, errlen);
    int rc = read_coords(path, "PartType1", n, xyz, box, err, errlen);
    return rc == 1 ? read_coords(path, "PartType0", n, xyz, box, err, errlen) : rc;
}

/* String attribute `name` of the /tbrf group of an AREPO file of tbrf's
 * (one with /Header and /tbrf) into *value (malloc'ed): 0, 1 when the file
 * is not such a file or has no such attribute, -1 when it is unreadable
 * (message in err). */
static int read_tbrf_attr(const char *path, const char *name, char **value, char *err, size_t errlen)
{
    *value = NULL;
    if (io_stat_input(path, "file", err, errlen))
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    int rc = 1;
    hid_t f = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    hid_t a = -1;
    if (f >= 0 && H5Lexists(f, "Header", H5P_DEFAULT) > 0 && H5Lexists(f, "tbrf", H5P_DEFAULT) > 0 &&
        H5Aexists_by_name(f, "tbrf", name, H5P_DEFAULT) > 0)
        a = H5Aopen_by_name(f, "tbrf", name, H5P_DEFAULT, H5P_DEFAULT);
    if (a >= 0) {
        rc = io_attr_string(a, value) == 1 ? 0 : -1;
        if (rc)
            io_setf(err, errlen, "%s: /tbrf/%s is not one string", path, name);
        H5Aclose(a);
    }
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return rc;
}

static int attr_one_int(hid_t a, int *v);

int tbrf_arepo_file_format(const char *path)
{
    char *v = NULL, err[256];
    int f = TBRF_AREPO_FORMAT_HDF5;
    if (path && read_tbrf_attr(path, "format", &v, err, sizeof err) == 0 && v)
        f = strcmp(v, "gadget1") == 0   ? TBRF_AREPO_FORMAT_GADGET1
            : strcmp(v, "gadget2") == 0 ? TBRF_AREPO_FORMAT_GADGET2
                                        : TBRF_AREPO_FORMAT_HDF5;
    free(v);
    return f;
}

/* The members' sizes and digests that the side file of a Gadget set
 * records (/gadget_members, nf x 2) into malloc'ed *v: 0, or -1 when
 * they are missing or not nf rows (nf from /tbrf set_files). */
static int read_gadget_members(const char *side, int *nf, uint64_t **v)
{
    *v = NULL;
    io_quiet q;
    io_quiet_begin(&q);
    hid_t f = H5Fopen(side, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t a = f < 0 ? -1 : H5Aopen_by_name(f, "tbrf", "set_files", H5P_DEFAULT, H5P_DEFAULT);
    hid_t d = f < 0 ? -1 : H5Dopen2(f, "gadget_members", H5P_DEFAULT);
    hid_t sp = d < 0 ? -1 : H5Dget_space(d);
    hsize_t dims[2] = {0, 0};
    int rc = a >= 0 && attr_one_int(a, nf) == 0 && *nf >= 1 && *nf <= 65536 && sp >= 0 &&
                     H5Sget_simple_extent_ndims(sp) == 2 &&
                     H5Sget_simple_extent_dims(sp, dims, NULL) == 2 && dims[0] == (hsize_t)*nf &&
                     dims[1] == 2
                 ? 0
                 : -1;
    if (rc == 0) {
        *v = malloc((size_t)*nf * 2 * sizeof **v);
        if (!*v || H5Dread(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, *v) < 0)
            rc = -1;
    }
    if (rc) {
        free(*v);
        *v = NULL;
    }
    if (sp >= 0)
        H5Sclose(sp);
    if (d >= 0)
        H5Dclose(d);
    if (a >= 0)
        H5Aclose(a);
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return rc;
}

/* BASE of a Gadget set's side file BASE.tbrf.h5 (malloc'ed), NULL when
 * the name does not end so. */
static char *gadget_base(const char *side)
{
    size_t len = strlen(side), sl = strlen(IO_GADGET_SIDE_SUFFIX);
    if (len <= sl || strcmp(side + len - sl, IO_GADGET_SIDE_SUFFIX) != 0)
        return NULL;
    char *b = malloc(len - sl + 1);
    if (b)
        snprintf(b, len - sl + 1, "%.*s", (int)(len - sl), side);
    return b;
}

/* tbrf_arepo_check_set of a Gadget set's side file: every member there,
 * of the recorded size and digest (read back in full). */
static int check_gadget_set(const char *side, char *err, size_t errlen)
{
    int nf = 0;
    uint64_t *v = NULL;
    char *base = gadget_base(side);
    if (!base || read_gadget_members(side, &nf, &v)) {
        io_setf(err, errlen, base ? "%s: /tbrf set_files and /gadget_members (set_files x 2) do "
                "not agree: not a side file of tbrf's" : "%s: a Gadget set's side file must be "
                "named BASE" IO_GADGET_SIDE_SUFFIX " (renamed?)", side);
        free(base);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < nf && rc == 0; i++) {
        char *name = io_gadget_member_name(base, nf, i);
        uint64_t d = 0, n = 0;
        if (!name) {
            io_setf(err, errlen, "out of memory");
            rc = -1;
        } else if (io_gadget_file_digest(name, &d, &n)) {
            io_setf(err, errlen, "%s records a set of %d Gadget files, but %s is missing or "
                    "unreadable: an incomplete set", side, nf, name);
            rc = -1;
        } else if (n != v[2 * i] || d != v[2 * i + 1]) {
            io_setf(err, errlen, "%s does not belong to the set of %s (another run's file or "
                    "changed since: a mixed set, as an interrupted commit leaves; write the set "
                    "again)", name, side);
            rc = -1;
        }
        free(name);
    }
    free(v);
    free(base);
    return rc;
}

/* Members of the Gadget sets of side files a and b compared byte for
 * byte: 0 equal, 1 different (err names the member), -1 unreadable. */
static int compare_gadget_sets(const char *a, const char *b, char *err, size_t errlen)
{
    int na = 0, nb = 0;
    uint64_t *va = NULL, *vb = NULL;
    char *ba = gadget_base(a), *bb = gadget_base(b);
    int rc = !ba || !bb || read_gadget_members(a, &na, &va) || read_gadget_members(b, &nb, &vb)
                 ? -1 : na != nb ? 1 : 0;
    if (rc)
        io_setf(err, errlen, rc < 0 ? "cannot read the Gadget sets of %s and %s"
                                    : "%s and %s hold different numbers of files", a, b);
    unsigned char *x = rc ? NULL : malloc(1 << 16), *y = rc ? NULL : malloc(1 << 16);
    for (int i = 0; rc == 0 && i < na; i++) {
        char *fa = io_gadget_member_name(ba, na, i), *fb = io_gadget_member_name(bb, nb, i);
        FILE *pa = fa ? fopen(fa, "rb") : NULL, *pb = fb ? fopen(fb, "rb") : NULL;
        if (!x || !y || !pa || !pb) {
            io_setf(err, errlen, "cannot read %s", !pa ? (fa ? fa : a) : (fb ? fb : b));
            rc = -1;
        }
        while (rc == 0) {
            size_t ka = fread(x, 1, 1 << 16, pa), kb = fread(y, 1, 1 << 16, pb);
            if (ka != kb || memcmp(x, y, ka) != 0) {
                io_setf(err, errlen, "%s differs from %s", fb, fa);
                rc = 1;
            }
            if (ka == 0 || ka < (1 << 16))
                break;
        }
        if (pa)
            fclose(pa);
        if (pb)
            fclose(pb);
        free(fa);
        free(fb);
    }
    free(x);
    free(y);
    free(va);
    free(vb);
    free(ba);
    free(bb);
    return rc;
}

/* One integer from attribute a: 0, or -1 unless it is a single integer
 * (H5Aread would write every element of a larger one). */
static int attr_one_int(hid_t a, int *v)
{
    hid_t sp = a < 0 ? -1 : H5Aget_space(a), ty = a < 0 ? -1 : H5Aget_type(a);
    int ok = sp >= 0 && ty >= 0 && H5Sget_simple_extent_npoints(sp) == 1 &&
             H5Tget_class(ty) == H5T_INTEGER && H5Aread(a, H5T_NATIVE_INT, v) >= 0;
    if (sp >= 0)
        H5Sclose(sp);
    if (ty >= 0)
        H5Tclose(ty);
    return ok ? 0 : -1;
}

/* The set attributes of member `path` (write_set_attrs): 0 read; 1 when
 * the file records no set (one file, another program's, or a tbrf older
 * than the set records); 2 when it records one unreadably (not single
 * integers and a string); -1 when it does not exist or is no HDF5. */
static int member_id(const char *path, int *files, int *member, char digest[24])
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    io_quiet q;
    io_quiet_begin(&q);
    hid_t f = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    int rc = f < 0 ? -1 : 1;
    if (f >= 0 && H5Lexists(f, "tbrf", H5P_DEFAULT) > 0 &&
        H5Aexists_by_name(f, "tbrf", "set_digest", H5P_DEFAULT) > 0) {
        hid_t a = H5Aopen_by_name(f, "tbrf", "set_files", H5P_DEFAULT, H5P_DEFAULT);
        hid_t b = H5Aopen_by_name(f, "tbrf", "set_member", H5P_DEFAULT, H5P_DEFAULT);
        hid_t c = H5Aopen_by_name(f, "tbrf", "set_digest", H5P_DEFAULT, H5P_DEFAULT);
        char *d = NULL;
        int ok = attr_one_int(a, files) == 0 && attr_one_int(b, member) == 0 && c >= 0 &&
                 io_attr_string(c, &d) == 1 && d;
        snprintf(digest, 24, "%s", ok ? d : "");
        free(d);
        for (hid_t *h = (hid_t[]){a, b, c, -2}; *h != -2; h++)
            if (*h >= 0)
                H5Aclose(*h);
        rc = ok ? 0 : 2;
    }
    if (f >= 0)
        H5Fclose(f);
    io_quiet_end(&q);
    return rc;
}

int tbrf_arepo_check_set(const char *path, char *err, size_t errlen)
{
    if (tbrf_arepo_file_format(path) != TBRF_AREPO_FORMAT_HDF5)
        return check_gadget_set(path, err, errlen);
    int nf = 0, k = 0, nf2 = 0, k2 = 0;
    char id[24], id2[24];
    int own = path ? member_id(path, &nf, &k, id) : 1;
    if (own == 2) {
        io_setf(err, errlen, "%s: /tbrf set_files, set_member and set_digest are not two "
                "integers and a string", path);
        return -1;
    }
    if (own != 0)
        return 0; /* no set recorded: nothing to check (the reader says what is wrong) */
    /* BASE from PATH = BASE.K.hdf5 */
    char suffix[48];
    snprintf(suffix, sizeof suffix, ".%d.hdf5", k);
    size_t len = strlen(path), sl = strlen(suffix);
    if (nf < 2 || k < 0 || k >= nf || len <= sl || strcmp(path + len - sl, suffix) != 0) {
        io_setf(err, errlen, "%s records that it is file %d of a set of %d, which is not its name "
                "(BASE.%d.hdf5): renamed or not one of tbrf's sets", path, k, nf, k);
        return -1;
    }
    char *base = malloc(len + 1);
    if (!base) {
        io_setf(err, errlen, "out of memory");
        return -1;
    }
    snprintf(base, len + 1, "%.*s", (int)(len - sl), path);
    int rc = 0;
    for (int i = 0; i < nf && rc == 0; i++) {
        char *name = i == k ? NULL : tbrf_arepo_file_name(base, nf, i);
        if (!name)
            continue;
        int got = member_id(name, &nf2, &k2, id2);
        if (got < 0)
            io_setf(err, errlen, "%s is file %d of a set of %d, but %s is missing or unreadable: "
                    "an incomplete set", path, k, nf, name);
        else if (got > 0 || nf2 != nf || k2 != i || strcmp(id, id2) != 0)
            io_setf(err, errlen, "%s does not belong to the set of %s (another run's file: a "
                    "mixed set, as an interrupted commit leaves; write the set again)", name, path);
        rc = got != 0 || nf2 != nf || k2 != i || strcmp(id, id2) != 0 ? -1 : 0;
        free(name);
    }
    free(base);
    return rc;
}

int tbrf_arepo_read_command(const char *path, char **command, char *err, size_t errlen)
{
    return read_tbrf_attr(path, "command", command, err, errlen);
}

void tbrf_io_arepo_version(const char *path, char *buf, size_t len)
{
    char *v = NULL, err[256];
    buf[0] = '\0';
    if (read_tbrf_attr(path, "tbrf_version", &v, err, sizeof err) == 0 && v)
        snprintf(buf, len, "%s", v);
    free(v);
}

/* Dataset `name` of a and b read as native type mt (the same class in
 * both): 0 equal, 1 different, -1 unreadable (message in err). */
static int compare_dataset(hid_t fa, hid_t fb, const char *name, char *err, size_t errlen)
{
    hid_t da = H5Dopen2(fa, name, H5P_DEFAULT), db = H5Dopen2(fb, name, H5P_DEFAULT);
    hid_t sa = da < 0 ? -1 : H5Dget_space(da), sb = db < 0 ? -1 : H5Dget_space(db);
    hid_t ta = da < 0 ? -1 : H5Dget_type(da), tb = db < 0 ? -1 : H5Dget_type(db);
    hssize_t na = sa < 0 ? -1 : H5Sget_simple_extent_npoints(sa);
    hssize_t nb = sb < 0 ? -1 : H5Sget_simple_extent_npoints(sb);
    int rc = -1;
    void *va = NULL, *vb = NULL;
    if (na < 0 || ta < 0 || tb < 0) {
        io_setf(err, errlen, "cannot read /%s", name);
        goto done;
    }
    rc = 1;
    if (na != nb || H5Tequal(ta, tb) <= 0) {
        io_setf(err, errlen, "/%s has another shape or type", name);
        goto done;
    }
    size_t sz = H5Tget_size(ta);
    rc = -1;
    if (tbrf_io_budget_check(NULL, name, 2.0 * (double)sz * (double)na, err, errlen))
        goto done;
    va = malloc((size_t)na * sz + 1);
    vb = malloc((size_t)nb * sz + 1);
    if (!va || !vb || H5Dread(da, ta, H5S_ALL, H5S_ALL, H5P_DEFAULT, va) < 0 ||
        H5Dread(db, tb, H5S_ALL, H5S_ALL, H5P_DEFAULT, vb) < 0) {
        io_setf(err, errlen, "cannot read /%s", name);
        goto done;
    }
    rc = memcmp(va, vb, (size_t)na * sz) != 0;
    if (rc)
        io_setf(err, errlen, "/%s differs", name);
done:
    free(va);
    free(vb);
    for (hid_t *h = (hid_t[]){ta, tb, -2}; *h != -2; h++)
        if (*h >= 0)
            H5Tclose(*h);
    for (hid_t *h = (hid_t[]){sa, sb, -2}; *h != -2; h++)
        if (*h >= 0)
            H5Sclose(*h);
    for (hid_t *h = (hid_t[]){da, db, -2}; *h != -2; h++)
        if (*h >= 0)
            H5Dclose(*h);
    return rc;
}

int tbrf_arepo_compare(const char *a, const char *b, char *err, size_t errlen)
{
    if (tbrf_arepo_file_format(a) != TBRF_AREPO_FORMAT_HDF5 &&
        tbrf_arepo_file_format(b) != TBRF_AREPO_FORMAT_HDF5)
        return compare_gadget_sets(a, b, err, errlen);
    static const char *const NAMES[] = {"Coordinates", "Velocities", "ParticleIDs", "Masses",
                                        "InternalEnergy"};
    io_quiet q;
    io_quiet_begin(&q);
    hid_t fa = H5Fis_hdf5(a) > 0 ? H5Fopen(a, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    hid_t fb = H5Fis_hdf5(b) > 0 ? H5Fopen(b, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    int rc = 0;
    if (fa < 0 || fb < 0) {
        io_setf(err, errlen, "cannot open %s as HDF5", fa < 0 ? a : b);
        rc = -1;
    }
    for (int t = 0; rc == 0 && t < 6; t++)
        for (int k = 0; rc == 0 && k < 5; k++) {
            char name[64];
            snprintf(name, sizeof name, "PartType%d/%s", t, NAMES[k]);
            char group[16];
            snprintf(group, sizeof group, "PartType%d", t);
            int ea = H5Lexists(fa, group, H5P_DEFAULT) > 0 && H5Lexists(fa, name, H5P_DEFAULT) > 0;
            int eb = H5Lexists(fb, group, H5P_DEFAULT) > 0 && H5Lexists(fb, name, H5P_DEFAULT) > 0;
            if (ea != eb) {
                io_setf(err, errlen, "/%s is in one file only", name);
                rc = 1;
            } else if (ea) {
                rc = compare_dataset(fa, fb, name, err, errlen);
            }
        }
    if (fa >= 0)
        H5Fclose(fa);
    if (fb >= 0)
        H5Fclose(fb);
    io_quiet_end(&q);
    return rc;
}
