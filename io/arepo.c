/* arepo.c — AREPO / Gadget format-3 HDF5 initial conditions (tbrf_arepo.h).
 *
 * Each file of a set is a tbrf_io writer (writer.c): its temporary,
 * removal on failure, the completion mark and the synced rename are the
 * ones every tbrf file gets; this file only adds the Gadget groups through
 * the writer's open HDF5 handle. The set is published together: every
 * temporary is complete and synced before the first rename, the renames
 * run with signals held back and keep the replaced members until the
 * last one, and each member records the set's digest so that a set
 * mixed by kill -9 is refused by tbrf's readers (tbrf_arepo_set_commit,
 * tbrf_arepo_check_set; doc/guarantees-outputs.md, "AREPO sets"). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/gadget.h"
#include "io/io_internal.h"
#include "tbrf_arepo.h"
#include "io/tbrf_io.h"

/* Rows converted and written per HDF5 call: bounded memory whatever n. */
#define AREPO_BLOCK 65536

void tbrf_arepo_header_init(tbrf_arepo_header *h)
{
    memset(h, 0, sizeof *h);
    h->box_size = 1;
    h->hubble_param = 1;
    h->double_precision = 1;
    h->num_files = 1;
}

char *tbrf_arepo_member_name(const char *base, int num_files, int index, int format)
{
    return format == TBRF_AREPO_FORMAT_HDF5 ? tbrf_arepo_file_name(base, num_files, index)
                                            : io_gadget_member_name(base, num_files, index);
}

char *tbrf_arepo_record_name(const char *base, int num_files, int index, int format)
{
    return format == TBRF_AREPO_FORMAT_HDF5 ? tbrf_arepo_file_name(base, num_files, index)
                                            : io_gadget_side_name(base);
}

char *tbrf_arepo_file_name(const char *base, int num_files, int index)
{
    size_t len = strlen(base);
    if (len > 5 && strcmp(base + len - 5, ".hdf5") == 0)
        len -= 5;
    size_t room = len + 32;
    char *s = malloc(room);
    if (!s)
        return NULL;
    if (num_files == 1)
        snprintf(s, room, "%.*s.hdf5", (int)len, base);
    else
        snprintf(s, room, "%.*s.%d.hdf5", (int)len, base, index);
    return s;
}

static int finite_in(double v, double lo, double hi)
{
    return isfinite(v) && v >= lo && v <= hi;
}

/* v is finite and, in a float32 file, within float range (a larger
 * double would be written as infinity). */
static int storable(const tbrf_arepo_header *h, double v)
{
    return isfinite(v) && (h->double_precision || fabs(v) <= FLT_MAX);
}

static const char *prec_name(const tbrf_arepo_header *h)
{
    return h->double_precision ? "" : " in float32";
}

int tbrf_arepo_check_header(const tbrf_arepo_header *h, char *err, size_t errlen)
{
    if (!(storable(h, h->box_size) && h->box_size > 0)) {
        io_setf(err, errlen, "BoxSize must be finite%s and > 0 (got %g)", prec_name(h),
                h->box_size);
        return -1;
    }
    if (!finite_in(h->omega0, 0, 10) || !finite_in(h->omega_lambda, 0, 10) ||
        !finite_in(h->omega_baryon, 0, h->omega0 > 0 ? h->omega0 : 0)) {
        io_setf(err, errlen, "Omega0 = %g and OmegaLambda = %g must lie in [0, 10], OmegaBaryon "
                "= %g in [0, Omega0]", h->omega0, h->omega_lambda, h->omega_baryon);
        return -1;
    }
    if (!(isfinite(h->hubble_param) && h->hubble_param > 0) || !finite_in(h->time, 0, 1e30) ||
        !(isfinite(h->redshift) && h->redshift > -1)) {
        io_setf(err, errlen, "HubbleParam = %g must be > 0, Time = %g >= 0 and Redshift = %g > -1",
                h->hubble_param, h->time, h->redshift);
        return -1;
    }
    for (int t = 0; t < 6; t++)
        if (!finite_in(h->mass_table[t], 0, 1e300)) {
            io_setf(err, errlen, "MassTable[%d] = %g must be finite and >= 0", t, h->mass_table[t]);
            return -1;
        }
    if (h->num_files < 1 || h->num_files > 65536 || (h->double_precision != 0 &&
        h->double_precision != 1) || (h->long_ids != 0 && h->long_ids != 1)) {
        io_setf(err, errlen, "NumFilesPerSnapshot must be 1..65536 (got %d), the precision and "
                "ID flags 0 or 1", h->num_files);
        return -1;
    }
    return 0;
}

/* The first bad value of a type, named by its row. */
static int check_type(const tbrf_arepo_header *h, int t, const tbrf_arepo_particles *p,
                      int whole, char *err, size_t errlen)
{
    if (p->n == 0)
        return 0;
    if (p->n < 0 || !p->pos || (h->mass_table[t] == 0 && !p->mass) || p->first_id < 1) {
        io_setf(err, errlen, "PartType%d: %lld particles need positions%s and IDs from 1 or more",
                t, (long long)p->n, h->mass_table[t] == 0 ? ", masses (MassTable is 0)" : "");
        return -1;
    }
    double total = 0;
    for (int64_t i = 0; i < p->n; i++) {
        for (int c = 0; c < 3; c++) {
            double x = p->pos[3 * i + c];
            if (!(isfinite(x) && x >= 0 && x < h->box_size)) {
                io_setf(err, errlen, "PartType%d particle %lld: coordinate %g is outside [0, "
                        "BoxSize = %g)", t, (long long)i, x, h->box_size);
                return -1;
            }
            if (p->vel && !storable(h, p->vel[3 * i + c])) {
                io_setf(err, errlen, "PartType%d particle %lld: velocity %g is not finite%s", t,
                        (long long)i, p->vel[3 * i + c], prec_name(h));
                return -1;
            }
        }
        if (h->mass_table[t] == 0) {
            if (!(storable(h, p->mass[i]) && p->mass[i] >= 0)) {
                io_setf(err, errlen, "PartType%d particle %lld: mass %g must be finite%s and >= 0",
                        t, (long long)i, p->mass[i], prec_name(h));
                return -1;
            }
            total += p->mass[i];
        }
        if (t == 0 && p->u && !(storable(h, p->u[i]) && p->u[i] >= 0)) {
            io_setf(err, errlen, "PartType0 particle %lld: internal energy %g must be finite%s "
                    "and >= 0", (long long)i, p->u[i], prec_name(h));
            return -1;
        }
    }
    if (whole && t == 0 && h->mass_table[0] == 0 && !(total > 0)) {
        io_setf(err, errlen, "PartType0: the gas mass is zero (AREPO aborts on that)");
        return -1;
    }
    return 0;
}

/* IDs: within uint32 unless long_ids, and the types' ranges disjoint
 * (AREPO checks that IDs are unique). */
static int check_ids(const tbrf_arepo_header *h, const tbrf_arepo_particles *types, char *err,
                     size_t errlen)
{
    const uint64_t max = h->long_ids ? UINT64_MAX : UINT32_MAX;
    for (int t = 0; t < 6; t++) {
        if (types[t].n == 0)
            continue;
        uint64_t a = types[t].first_id, n = (uint64_t)types[t].n;
        if (n - 1 > max - a) {
            io_setf(err, errlen, "PartType%d IDs %llu.. overflow %s (AREPO without LONGIDS reads "
                    "uint32)", t, (unsigned long long)a, h->long_ids ? "uint64" : "uint32");
            return -1;
        }
        for (int s = 0; s < t; s++) {
            if (types[s].n == 0)
                continue;
            uint64_t b = types[s].first_id, m = (uint64_t)types[s].n;
            if (a <= b + (m - 1) && b <= a + (n - 1)) {
                io_setf(err, errlen, "the IDs of PartType%d and PartType%d overlap", s, t);
                return -1;
            }
        }
    }
    return 0;
}

/* A group whose attributes `tbrf info` lists in the order written. No
 * object of the file records a time, so the same initial condition is
 * the same file, byte for byte, whoever writes it and when
 * (examples/arepo/run.sh cmp's the command's and the examples' files). */
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
static void file_rows(int64_t n, int f, int nf, int64_t *first, int64_t *count)
{
    /* n f / nf without overflow: the remainder term is below 2^32. */
    int64_t a = (n / nf) * f + (n % nf) * f / nf;
    int64_t b = (n / nf) * (f + 1) + (n % nf) * (f + 1) / nf;
    *first = a;
    *count = b - a;
}

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
        file_rows(types[t].n, f, h->num_files, &first, &count);
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

/* A 64-bit digest of n bytes continuing h: 8 bytes a multiply and a
 * shift, fast enough to run over every block as it is written. Not a
 * cryptographic hash: it tells the members of two runs apart. */
uint64_t io_digest_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, b + i, 8);
        h = (h ^ v) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

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

/* The digest continued over what every member's header and /tbrf hold
 * (the header's values, the parameters): two runs whose particles agree
 * but whose header or parameters differ (--time, --omega0) make sets
 * that tbrf_arepo_check_set tells apart too. */
static uint64_t digest_meta(uint64_t d, const tbrf_arepo_header *h, const tbrf_arepo_param *p,
                            size_t n)
{
    const double v[] = {h->time, h->redshift, h->box_size, h->omega0, h->omega_lambda,
                        h->omega_baryon, h->hubble_param, h->mass_table[0], h->mass_table[1],
                        h->mass_table[2], h->mass_table[3], h->mass_table[4], h->mass_table[5],
                        h->unit_length_cm, h->unit_mass_g, h->unit_velocity_cm_s};
    const int32_t iv[] = {h->double_precision, h->long_ids, h->num_files, h->flag_sfr,
                          h->flag_cooling, h->flag_stellarage, h->flag_metals, h->flag_feedback};
    d = io_digest_bytes(io_digest_bytes(d, v, sizeof v), iv, sizeof iv);
    for (size_t i = 0; i < n; i++) {
        if (!p[i].name)
            continue;
        d = io_digest_bytes(d, p[i].name, strlen(p[i].name) + 1);
        d = p[i].text ? io_digest_bytes(d, p[i].text, strlen(p[i].text) + 1)
                      : io_digest_bytes(d, &p[i].value, sizeof p[i].value);
    }
    return d;
}

/* One file into its writer's temporary. */
static int write_file(tbrf_io_writer *w, const tbrf_arepo_header *h,
                      const tbrf_arepo_particles *totals, const tbrf_arepo_particles *types,
                      const tbrf_arepo_param *params,
                      size_t nparams, int f, uint64_t *digest, char *err, size_t errlen)
{
    io_quiet q;
    io_quiet_begin(&q);
    *digest = digest_meta(*digest, h, params, nparams);
    int rc = write_header(w->file, h, totals, f);
    for (int t = 0; t < 6 && rc == 0; t++)
        rc = write_type(w->file, h, t, &types[t], digest);
    if (rc == 0)
        rc = write_params(w->file, params, nparams);
    if (rc) {
        char why[256];
        io_h5_reason(why, sizeof why);
        io_setf(err, errlen, "cannot write %s%s%s", w->path, why[0] ? ": " : "", why);
    }
    io_quiet_end(&q);
    return rc;
}

static int check_all(const tbrf_arepo_header *h, const tbrf_arepo_particles *types, char *err,
                     size_t errlen)
{
    if (tbrf_arepo_check_header(h, err, errlen))
        return -1;
    int64_t any = 0;
    for (int t = 0; t < 6; t++) {
        if (check_type(h, t, &types[t], 1, err, errlen))
            return -1;
        any += types[t].n;
        if (types[t].n / h->num_files > INT32_MAX) {
            io_setf(err, errlen, "PartType%d: %lld particles in %d files exceed the 2^31 rows "
                    "NumPart_ThisFile can count: use more files", t, (long long)types[t].n,
                    h->num_files);
            return -1;
        }
    }
    if (any == 0) {
        io_setf(err, errlen, "no particles to write");
        return -1;
    }
    return check_ids(h, types, err, errlen);
}

/* A set written file by file (tbrf_arepo_set_open). */
struct tbrf_arepo_set {
    tbrf_arepo_header h;
    tbrf_arepo_particles totals[6]; /* n and first_id of the whole set; no data */
    tbrf_io_writer **w;
    int written;        /* files written so far (in order) */
    uint64_t *digest;   /* each member's content digest (write_dataset) */
    const char **tmps;  /* the members' temporaries' names (malloc'ed), for the hook */
    /* Gadget sets (format gadget1/2): members are binary files written
     * into tmps[f] (gadget.c), the side file paths[nf] is an HDF5 writer
     * (tmps[nf] its temporary's name) */
    int format;
    int ntmp;             /* temporaries listed: num_files (+ 1: the side file) */
    char **paths;         /* the members' names, then the side file's */
    uint64_t *bytes;      /* each member's size */
    uint64_t meta;        /* digest of the header and parameters (digest_meta) */
    tbrf_io_writer *side; /* the side file */
    int committed;
};

/* The command's signal handler's list of temporaries to remove
 * (tbrf_arepo_set_temp_hook); NULL: none. */
static void (*g_temp_hook)(const char *const *paths, int n);

void tbrf_arepo_set_temp_hook(void (*hook)(const char *const *paths, int n))
{
    g_temp_hook = hook;
}

static void say_temps(const tbrf_arepo_set *s, int n)
{
    if (g_temp_hook)
        g_temp_hook(n > 0 ? s->tmps : NULL, n);
}

/* The members' writers. Every temporary is listed before the first
 * exists (the writer's name, io_temp_name), so that no signal falls
 * between a creation and its listing; the handler's unlink of one not
 * yet made is harmless. 0, or -1 with err set (tbrf_arepo_set_close then
 * removes what was made). */
static int create_members(tbrf_arepo_set *s, const char *base, char *err, size_t errlen)
{
    const int nf = s->h.num_files;
    s->ntmp = nf;
    for (int f = 0; f < nf; f++) {
        char *name = tbrf_arepo_file_name(base, nf, f);
        s->tmps[f] = name ? io_temp_name(name) : NULL;
        free(name);
        if (!s->tmps[f]) {
            io_setf(err, errlen, "out of memory");
            return -1;
        }
    }
    say_temps(s, nf);
    for (int f = 0; f < nf; f++) {
        char *name = tbrf_arepo_file_name(base, nf, f);
        s->w[f] = name ? tbrf_io_create(name, 0, err, errlen) : NULL;
        if (!name)
            io_setf(err, errlen, "out of memory");
        free(name);
        if (!s->w[f])
            return -1;
    }
    return 0;
}

/* The members' and the side file's names and temporaries of a Gadget
 * set, listed for the handler before any exists; the side file's writer.
 * 0, or -1 with err set. */
static int create_gadget_members(tbrf_arepo_set *s, const char *base, char *err, size_t errlen)
{
    const int nf = s->h.num_files;
    s->ntmp = nf + 1;
    for (int f = 0; f <= nf; f++) {
        s->paths[f] = f < nf ? io_gadget_member_name(base, nf, f) : io_gadget_side_name(base);
        s->tmps[f] = s->paths[f] ? io_temp_name(s->paths[f]) : NULL;
        if (!s->tmps[f]) {
            io_setf(err, errlen, "out of memory");
            return -1;
        }
    }
    say_temps(s, s->ntmp);
    for (int f = 0; f < nf; f++)
        io_remove_stale_temps(s->paths[f]);
    s->side = tbrf_io_create(s->paths[nf], 0, err, errlen);
    return s->side ? 0 : -1;
}

/* A stale set member that a reader would open instead of the single file
 * being written: AREPO looks for BASE.0.hdf5 before BASE.hdf5 (read_ic.c,
 * find_files), Gadget's readers BASE.0 before BASE. 0, or -1 with err. */
static int refuse_stale_set(const char *base, int format, char *err, size_t errlen)
{
    char *set0 = tbrf_arepo_member_name(base, 2, 0, format);
    int stale = set0 && access(set0, F_OK) == 0;
    if (stale)
        io_setf(err, errlen, "%s exists: AREPO would read that set instead of a single "
                "file; remove it or write a set (--files)", set0);
    free(set0);
    return stale ? -1 : 0;
}

int tbrf_arepo_set_open(const char *base, const tbrf_arepo_header *h, const int64_t n[6],
                        const uint64_t first_id[6], tbrf_arepo_set **set, char *err,
                        size_t errlen)
{
    return tbrf_arepo_set_open_format(base, h, n, first_id, TBRF_AREPO_FORMAT_HDF5, set, err,
                                      errlen);
}

int tbrf_arepo_set_open_format(const char *base, const tbrf_arepo_header *h, const int64_t n[6],
                               const uint64_t first_id[6], int format, tbrf_arepo_set **set,
                               char *err, size_t errlen)
{
    *set = NULL;
    if (format < TBRF_AREPO_FORMAT_HDF5 || format > TBRF_AREPO_FORMAT_GADGET2) {
        io_setf(err, errlen, "unknown AREPO file format %d", format);
        return -1;
    }
    if (!base || !base[0] || !h || !n || !first_id) {
        io_setf(err, errlen, "no output name, header or particle counts given");
        return -1;
    }
    if (tbrf_arepo_check_header(h, err, errlen))
        return -1;
    tbrf_arepo_set *s = calloc(1, sizeof *s);
    if (!s) {
        io_setf(err, errlen, "out of memory");
        return -1;
    }
    s->h = *h;
    s->format = format;
    int64_t any = 0;
    for (int t = 0; t < 6; t++) {
        s->totals[t].n = n[t];
        s->totals[t].first_id = first_id[t];
        any += n[t] > 0 ? n[t] : 0;
        int bad = n[t] < 0 || (n[t] > 0 && first_id[t] < 1);
        if (bad || n[t] / h->num_files > INT32_MAX) {
            io_setf(err, errlen, bad ? "PartType%d: %lld particles need IDs from 1 or more"
                                     : "PartType%d: %lld particles in %d files exceed the 2^31 "
                                       "rows NumPart_ThisFile can count: use more files",
                    t, (long long)n[t], h->num_files);
            free(s);
            return -1;
        }
    }
    if (any == 0 || check_ids(h, s->totals, err, errlen)) {
        if (any == 0)
            io_setf(err, errlen, "no particles to write");
        free(s);
        return -1;
    }
    if (h->num_files == 1 && refuse_stale_set(base, format, err, errlen)) {
        free(s);
        return -1;
    }
    const size_t nf = (size_t)h->num_files, nt = nf + (format != TBRF_AREPO_FORMAT_HDF5);
    s->w = calloc(nf, sizeof *s->w);
    s->digest = calloc(nf, sizeof *s->digest);
    s->tmps = calloc(nt, sizeof *s->tmps);
    s->paths = calloc(nt, sizeof *s->paths);
    s->bytes = calloc(nf, sizeof *s->bytes);
    if (!s->w || !s->digest || !s->tmps || !s->paths || !s->bytes) {
        io_setf(err, errlen, "out of memory");
        tbrf_arepo_set_close(s);
        return -1;
    }
    if (format == TBRF_AREPO_FORMAT_HDF5 ? create_members(s, base, err, errlen)
                                         : create_gadget_members(s, base, err, errlen)) {
        tbrf_arepo_set_close(s);
        return -1;
    }
    *set = s;
    return 0;
}

void tbrf_arepo_file_rows(int64_t n, int num_files, int f, int64_t *first, int64_t *count)
{
    file_rows(n, f, num_files, first, count);
}

/* The side file of a Gadget set: the set's Header (as member 0's) and
 * the parameters in /tbrf, with the format; the set's identity is added
 * at the commit (gadget_record). */
static int write_side(tbrf_arepo_set *s, const tbrf_arepo_param *params, size_t nparams,
                      char *err, size_t errlen)
{
    io_quiet q;
    io_quiet_begin(&q);
    s->meta = digest_meta(IO_GADGET_DIGEST_SEED, &s->h, params, nparams);
    hid_t file = s->side->file;
    int rc = write_header(file, &s->h, s->totals, 0) | write_params(file, params, nparams);
    hid_t g = rc ? -1 : H5Gopen2(file, "tbrf", H5P_DEFAULT);
    if (g >= 0) {
        rc |= attr_s(g, "format", s->format == TBRF_AREPO_FORMAT_GADGET1 ? "gadget1" : "gadget2");
        H5Gclose(g);
    }
    if (rc || g < 0) {
        char why[256];
        io_h5_reason(why, sizeof why);
        io_setf(err, errlen, "cannot write %s%s%s", s->side->path, why[0] ? ": " : "", why);
        rc = -1;
    }
    io_quiet_end(&q);
    return rc;
}

int tbrf_arepo_set_write_file(tbrf_arepo_set *s, int f, const tbrf_arepo_particles part[6],
                              const tbrf_arepo_param *params, size_t nparams, char *err,
                              size_t errlen)
{
    if (!s || f != s->written || f >= s->h.num_files || !part) {
        io_setf(err, errlen, "AREPO files must be written in order, once each");
        return -1;
    }
    /* The whole set's counts for the header; this file's rows for the data,
     * checked as they come (a bad value leaves every file unpublished). */
    tbrf_arepo_particles t[6];
    for (int k = 0; k < 6; k++) {
        int64_t first, count;
        file_rows(s->totals[k].n, f, s->h.num_files, &first, &count);
        if (part[k].n != count ||
            (count > 0 && part[k].first_id != s->totals[k].first_id + (uint64_t)first)) {
            io_setf(err, errlen, "PartType%d: file %d holds rows %lld.. (%lld of them), given "
                    "%lld", k, f, (long long)first, (long long)count, (long long)part[k].n);
            return -1;
        }
        if (check_type(&s->h, k, &part[k], 0, err, errlen))
            return -1;
        t[k] = part[k];
    }
    if (s->format != TBRF_AREPO_FORMAT_HDF5) {
        if (f == 0 && write_side(s, params, nparams, err, errlen))
            return -1;
        if (io_gadget_write_member(s->tmps[f], &s->h, s->totals, t, f, s->format, &s->digest[f],
                                   &s->bytes[f], err, errlen))
            return -1;
    } else if (write_file(s->w[f], &s->h, s->totals, t, params, nparams, f, &s->digest[f], err,
                          errlen)) {
        return -1;
    }
    s->written++;
    return 0;
}

/* Test-only fault injection (tests/cli/arepo_sets.py; never set in use):
 * TBRF_TEST_AREPO_SET_FAULT="WHAT:K" makes a set's commit raise SIGTERM
 * once K members are closed and synced ("term"), fail as a rename would
 * once K members are renamed ("fail"), raise SIGTERM once K members are
 * renamed ("hold": delivered only after the last rename), or raise
 * SIGKILL once K members are renamed ("kill": the crash no handler
 * sees). */
static int fault(const char *what, int k)
{
    const char *e = getenv("TBRF_TEST_AREPO_SET_FAULT");
    size_t n = strlen(what);
    return e && strncmp(e, what, n) == 0 && e[n] == ':' && atoi(e + n + 1) == k;
}

/* The permission bits (and, as root, the owner) of the file a member
 * replaces, as tbrf_io_commit keeps them. */
static void keep_mode(int fd, const char *replaced)
{
    struct stat st;
    if (stat(replaced, &st) != 0 || !S_ISREG(st.st_mode) || fchmod(fd, st.st_mode & 07777) != 0)
        return;
    if (geteuid() == 0 && fchown(fd, st.st_uid, st.st_gid) != 0)
        return;
}

/* The set's identity in every member's /tbrf (a set of two or more):
 * set_files, set_member and set_digest, the digest of every member's
 * content, so that a member of another run (a mixed set) is told apart
 * (tbrf_arepo_check_set). Deterministic: the same set is the same bytes. */
static int write_set_attrs(tbrf_io_writer *w, int f, int nf, const char *digest)
{
    io_quiet q;
    io_quiet_begin(&q);
    hid_t g = H5Gopen2(w->file, "tbrf", H5P_DEFAULT);
    int rc = g < 0 ? -1 : attr_i(g, "set_files", nf) | attr_i(g, "set_member", f);
    if (g >= 0) {
        rc |= attr_s(g, "set_digest", digest);
        H5Gclose(g);
    }
    io_quiet_end(&q);
    if (rc)
        IO_FAIL(w, "cannot write %s: recording the set", w->path);
    return rc;
}

/* Member w marked complete, closed and synced under its temporary name:
 * all that tbrf_io_commit does but the rename. 0 or -1 (err set). */
static int stage_member(tbrf_io_writer *w, char *err, size_t errlen)
{
    io_quiet q;
    io_quiet_begin(&q);
    int rc = w->ops->mark_complete(w);
    w->open = 0;
    rc |= w->ops->close(w);
    io_quiet_end(&q);
    int fd = rc ? -1 : open(w->tmp, O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) {
        io_setf(err, errlen, "cannot write %s: %s", w->path, rc ? w->message : strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    keep_mode(fd, w->path);
    close(fd);
    return 0;
}

/* The file NAME that member w replaces kept as ".NAME.tmp-PID.old" until
 * the set is published: a hard link, or where the file system has none
 * NAME itself renamed there (NAME is then missing until the member's own
 * rename, with signals held back). NULL when there is nothing to keep;
 * the next run to NAME removes one a crash left (io_remove_stale_temps).
 * *lost is set when a file exists that could not be kept. */
static char *backup_of(const char *path, const char *tmp, int *lost)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    size_t n = strlen(tmp) + 8;
    char *b = malloc(n);
    if (b) {
        snprintf(b, n, "%s.old", tmp);
        unlink(b);
        if (link(path, b) == 0 || rename(path, b) == 0)
            return b;
        free(b);
    }
    *lost = 1;
    return NULL;
}

/* Renames the staged members to their names, the last member first and
 * member 0 (the file AREPO opens first, whose header says how many
 * follow) last. Until every rename is done each replaced member is kept
 * as a hard link, so a failed rename puts the previous set back. 0, or
 * -1 with the previous set restored and no member of the new one. tmps
 * and paths: the nf files' temporaries and names (a Gadget set's side
 * file last: renamed first). */
static int publish_members(const char *const *tmps, const char *const *paths, int nf, char *err,
                           size_t errlen)
{
    char **bak = calloc((size_t)nf, sizeof *bak);
    if (!bak) {
        io_setf(err, errlen, "out of memory");
        return -1;
    }
    int done = 0, e = 0, lost = 0;
    while (done < nf) {
        const char *tmp = tmps[nf - 1 - done], *path = paths[nf - 1 - done];
        bak[done] = backup_of(path, tmp, &lost);
        if (fault("fail", done) ? (errno = EIO, 1) : rename(tmp, path) != 0) {
            e = errno;
            break;
        }
        done++;
        if (fault("kill", done))
            raise(SIGKILL);
        if (fault("hold", done)) /* held back until the set is published */
            raise(SIGTERM);
    }
    if (done < nf) {
        /* the member that failed: its old file back where it was */
        if (bak[done] && access(paths[nf - 1 - done], F_OK) != 0)
            lost |= rename(bak[done], paths[nf - 1 - done]) != 0;
        for (int i = 0; i < done; i++) {
            const char *name = paths[nf - 1 - i];
            if (bak[i] ? rename(bak[i], name) != 0 : unlink(name) != 0 && errno != ENOENT)
                lost = 1;
        }
        io_setf(err, errlen, "cannot write %s: %s; %s", paths[nf - 1 - done], strerror(e),
                lost ? "the set could not be put back as it was" : "the set is left as it was");
    }
    for (int i = 0; i < nf; i++) {
        if (bak[i])
            unlink(bak[i]);
        free(bak[i]);
    }
    free(bak);
    return done < nf ? -1 : 0;
}

/* Renames with every catchable signal held back: one arriving now is
 * delivered once the whole set is published (and its handler finds no
 * temporary), never between two members. */
static int publish_held(tbrf_arepo_set *s, const char *const *tmps, const char *const *paths,
                        int n, char *err, size_t errlen)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = publish_members(tmps, paths, n, err, errlen);
    if (rc == 0) {
        say_temps(s, 0);
        s->committed = 1;
        for (int f = 0; f < s->h.num_files; f++)
            if (s->w[f])
                s->w[f]->committed = 1;
        if (s->side)
            s->side->committed = 1;
        io_sync_dir(paths[0]);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

/* The set's identity in the side file of a Gadget set: set_files,
 * set_digest (of every member's bytes and the parameters) and
 * /gadget_members, each member's size and digest (nf x 2 uint64), which
 * tbrf_arepo_check_set compares with the members on disk. */
static int gadget_record(tbrf_arepo_set *s, const char *hex)
{
    const int nf = s->h.num_files;
    io_quiet q;
    io_quiet_begin(&q);
    hid_t file = s->side->file, g = H5Gopen2(file, "tbrf", H5P_DEFAULT);
    int rc = g < 0 ? -1 : attr_i(g, "set_files", nf) | attr_s(g, "set_digest", hex);
    if (g >= 0)
        H5Gclose(g);
    hsize_t dims[2] = {(hsize_t)nf, 2};
    uint64_t *v = malloc((size_t)nf * 2 * sizeof *v);
    hid_t sp = H5Screate_simple(2, dims, NULL);
    hid_t d = sp < 0 || rc ? -1 : H5Dcreate2(file, "gadget_members", H5T_STD_U64LE, sp,
                                            H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (int f = 0; v && f < nf; f++) {
        v[2 * f] = s->bytes[f];
        v[2 * f + 1] = s->digest[f];
    }
    if (!v || d < 0 || H5Dwrite(d, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0)
        rc = -1;
    if (d >= 0)
        H5Dclose(d);
    if (sp >= 0)
        H5Sclose(sp);
    free(v);
    io_quiet_end(&q);
    if (rc)
        IO_FAIL(s->side, "cannot write %s: recording the set", s->side->path);
    return rc;
}

/* The commit of a Gadget set: its members are written and synced
 * (io_gadget_write_member); the side file completed and staged; then
 * the renames, the side file first and member 0 last. */
static int commit_gadget(tbrf_arepo_set *s, char *err, size_t errlen)
{
    const int nf = s->h.num_files;
    uint64_t id = io_digest_bytes(IO_GADGET_DIGEST_SEED, &nf, sizeof nf);
    id = io_digest_bytes(id, s->digest, (size_t)nf * sizeof *s->digest);
    id = io_digest_bytes(id, &s->meta, sizeof s->meta);
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)id);
    if (gadget_record(s, hex)) {
        io_setf(err, errlen, "%s", s->side->message);
        return -1;
    }
    if (stage_member(s->side, err, errlen))
        return -1;
    if (fault("term", 1)) /* every temporary synced, nothing renamed */
        raise(SIGTERM);
    for (int f = 0; f < nf; f++) {
        int fd = open(s->tmps[f], O_RDONLY);
        if (fd >= 0) {
            keep_mode(fd, s->paths[f]);
            close(fd);
        }
    }
    return publish_held(s, s->tmps, (const char *const *)s->paths, nf + 1, err, errlen);
}

int tbrf_arepo_set_commit(tbrf_arepo_set *s, char *err, size_t errlen)
{
    if (!s || s->written != s->h.num_files) {
        io_setf(err, errlen, "the AREPO set is incomplete: %d of %d files written",
                s ? s->written : 0, s ? s->h.num_files : 0);
        return -1;
    }
    if (s->format != TBRF_AREPO_FORMAT_HDF5)
        return commit_gadget(s, err, errlen);
    const int nf = s->h.num_files;
    uint64_t id = io_digest_bytes(0x6a09e667f3bcc909ull, &nf, sizeof nf);
    id = io_digest_bytes(id, s->digest, (size_t)nf * sizeof *s->digest);
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)id);
    /* Everything that takes time first (closing, syncing), with signals
     * free to stop the run: the handler removes every temporary. */
    for (int f = 0; f < nf; f++) {
        if (nf > 1 && write_set_attrs(s->w[f], f, nf, hex)) {
            io_setf(err, errlen, "%s", s->w[f]->message);
            return -1;
        }
        if (stage_member(s->w[f], err, errlen))
            return -1;
        if (fault("term", f + 1))
            raise(SIGTERM);
    }
    /* Then only renames */
    for (int f = 0; f < nf; f++) {
        s->paths[f] = s->w[f]->path; /* the writers' own names, not freed here */
    }
    return publish_held(s, s->tmps, (const char *const *)s->paths, nf, err, errlen);
}

void tbrf_arepo_set_close(tbrf_arepo_set *s)
{
    if (!s)
        return;
    /* the writers remove their temporaries; the names leave the
     * handler's list only then, and are freed after */
    for (int f = 0; s->w && f < s->h.num_files; f++)
        tbrf_io_close(s->w[f]);
    const int gadget = s->format != TBRF_AREPO_FORMAT_HDF5;
    if (gadget)
        tbrf_io_close(s->side);
    for (int f = 0; gadget && !s->committed && s->tmps && f < s->h.num_files; f++)
        if (s->tmps[f])
            unlink(s->tmps[f]); /* a member written but not published */
    say_temps(s, 0);
    for (int f = 0; s->tmps && f < s->ntmp; f++)
        free((char *)s->tmps[f]);
    for (int f = 0; gadget && s->paths && f < s->ntmp; f++)
        free(s->paths[f]);
    free(s->w);
    free(s->digest);
    free(s->tmps);
    free(s->paths);
    free(s->bytes);
    free(s);
}

int tbrf_arepo_write(const char *base, const tbrf_arepo_header *h,
                     const tbrf_arepo_particles types[6], const tbrf_arepo_param *params,
                     size_t nparams, char *err, size_t errlen)
{
    return tbrf_arepo_write_format(base, h, types, params, nparams, TBRF_AREPO_FORMAT_HDF5, err,
                                   errlen);
}

int tbrf_arepo_write_format(const char *base, const tbrf_arepo_header *h,
                            const tbrf_arepo_particles types[6], const tbrf_arepo_param *params,
                            size_t nparams, int format, char *err, size_t errlen)
{
    if (!base || !base[0] || !h || !types) {
        io_setf(err, errlen, "no output name, header or particles given");
        return -1;
    }
    if (check_all(h, types, err, errlen))
        return -1;
    int64_t n[6];
    uint64_t id[6];
    for (int t = 0; t < 6; t++) {
        n[t] = types[t].n;
        id[t] = types[t].first_id;
    }
    tbrf_arepo_set *s = NULL;
    int rc = tbrf_arepo_set_open_format(base, h, n, id, format, &s, err, errlen);
    for (int f = 0; rc == 0 && f < h->num_files; f++) {
        tbrf_arepo_particles part[6];
        for (int t = 0; t < 6; t++) {
            int64_t first, count;
            file_rows(types[t].n, f, h->num_files, &first, &count);
            const tbrf_arepo_particles *p = &types[t];
            part[t] = (tbrf_arepo_particles){count, p->pos ? p->pos + 3 * first : NULL,
                                             p->vel ? p->vel + 3 * first : NULL,
                                             p->mass ? p->mass + first : NULL,
                                             p->u ? p->u + first : NULL,
                                             p->first_id + (uint64_t)first};
        }
        rc = tbrf_arepo_set_write_file(s, f, part, params, nparams, err, errlen);
    }
    if (rc == 0)
        rc = tbrf_arepo_set_commit(s, err, errlen);
    tbrf_arepo_set_close(s);
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
