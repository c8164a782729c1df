/* arepo.c — AREPO / Gadget format-3 HDF5 initial conditions (tbrf_arepo.h).
 *
 * Each file of a set is a tbrf_io writer (writer.c): its temporary,
 * removal on failure, the completion mark and the synced rename are the
 * ones every tbrf file gets; the Gadget groups are the HDF5 format's
 * (the arepo_write and arepo_record slots of the writer's table, in
 * hdf5_arepo.c, which also reads the files back). The set is published together: every
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
static void file_rows(int64_t n, int f, int nf, int64_t *first, int64_t *count)
{
    /* n f / nf without overflow: the remainder term is below 2^32. */
    int64_t a = (n / nf) * f + (n % nf) * f / nf;
    int64_t b = (n / nf) * (f + 1) + (n % nf) * (f + 1) / nf;
    *first = a;
    *count = b - a;
}

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
    int rc = w->ops->arepo_write(w, h, totals, types, f, params, nparams, digest, err, errlen);
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
    /* A part of a set (tbrf_arepo_set_open_part): this process writes
     * members f0 .. f0 + nl - 1 (f0 = 0, nl = num_files for a whole
     * set); bounds (num_files + 1 rows) where the members' rows are the
     * caller's, else NULL (tbrf_arepo_file_rows); bak and renamed the
     * kept files and the renames done while a part is published. */
    int f0, nl;
    int64_t *bounds;
    char **bak;
    unsigned char *renamed;
    int held;
    sigset_t old_mask;
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
    /* a Gadget set lists every name (NULL: another process's member) */
    const int gadget = s->format != TBRF_AREPO_FORMAT_HDF5;
    if (g_temp_hook)
        g_temp_hook(n > 0 ? s->tmps + (gadget ? 0 : s->f0) : NULL, n);
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
    for (int f = s->f0; f < s->f0 + s->nl; f++) {
        char *name = tbrf_arepo_file_name(base, nf, f);
        s->tmps[f] = name ? io_temp_name(name) : NULL;
        free(name);
        if (!s->tmps[f]) {
            io_setf(err, errlen, "out of memory");
            return -1;
        }
    }
    say_temps(s, s->nl);
    for (int f = s->f0; f < s->f0 + s->nl; f++) {
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

/* Whether this process writes the side file of a Gadget set: the one
 * that writes member 0 (the whole set, or that part). */
static int has_side(const tbrf_arepo_set *s)
{
    return s->format != TBRF_AREPO_FORMAT_HDF5 && s->f0 == 0;
}

/* The members' and the side file's names and temporaries of a Gadget
 * set (of a part: its own members, the side file with member 0), listed
 * for the handler before any exists; the side file's writer. 0, or -1
 * with err set. */
static int create_gadget_members(tbrf_arepo_set *s, const char *base, char *err, size_t errlen)
{
    const int nf = s->h.num_files;
    s->ntmp = nf + 1;
    for (int f = 0; f <= nf; f++) {
        if (f < nf ? f < s->f0 || f >= s->f0 + s->nl : !has_side(s))
            continue;
        s->paths[f] = f < nf ? io_gadget_member_name(base, nf, f) : io_gadget_side_name(base);
        s->tmps[f] = s->paths[f] ? io_temp_name(s->paths[f]) : NULL;
        if (!s->tmps[f]) {
            io_setf(err, errlen, "out of memory");
            return -1;
        }
    }
    say_temps(s, s->ntmp);
    for (int f = s->f0; f < s->f0 + s->nl; f++)
        io_remove_stale_temps(s->paths[f]);
    if (!has_side(s))
        return 0;
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

/* The set's arrays (num_files members, the side file of a Gadget set,
 * the kept files of a published part): 0, or -1 with err set. */
static int alloc_set(tbrf_arepo_set *s, const int64_t *bounds, char *err, size_t errlen)
{
    const size_t nf = (size_t)s->h.num_files, nt = nf + (s->format != TBRF_AREPO_FORMAT_HDF5);
    s->w = calloc(nf, sizeof *s->w);
    s->digest = calloc(nf, sizeof *s->digest);
    s->tmps = calloc(nt, sizeof *s->tmps);
    s->paths = calloc(nt, sizeof *s->paths);
    s->bytes = calloc(nf, sizeof *s->bytes);
    s->bak = calloc(nt, sizeof *s->bak);
    s->renamed = calloc(nt, 1);
    s->bounds = bounds ? malloc((nf + 1) * sizeof *s->bounds) : NULL;
    if (!s->w || !s->digest || !s->tmps || !s->paths || !s->bytes || !s->bak || !s->renamed ||
        (bounds && !s->bounds)) {
        io_setf(err, errlen, "out of memory");
        return -1;
    }
    if (bounds)
        memcpy(s->bounds, bounds, (nf + 1) * sizeof *s->bounds);
    return 0;
}

/* The members' own rows (tbrf_arepo_set_open_part): bounds rising from
 * 0 to the count of every type that has particles. 0, or -1 with err. */
static int check_bounds(const tbrf_arepo_header *h, const int64_t n[6], const int64_t *bounds,
                        char *err, size_t errlen)
{
    int bad = bounds[0] != 0;
    for (int f = 0; f < h->num_files; f++)
        bad |= bounds[f + 1] < bounds[f] || bounds[f + 1] - bounds[f] > INT32_MAX;
    for (int t = 0; t < 6; t++)
        bad |= n[t] > 0 && n[t] != bounds[h->num_files];
    if (bad)
        io_setf(err, errlen, "the members' rows must rise from 0 to every type's count, at most "
                "2^31 - 1 a member");
    return bad ? -1 : 0;
}

static int open_set(const char *base, const tbrf_arepo_header *h, const int64_t n[6],
                    const uint64_t first_id[6], int format, int f0, int nl, const int64_t *bounds,
                    tbrf_arepo_set **set, char *err, size_t errlen)
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
    s->f0 = f0 < 0 ? 0 : f0;
    s->nl = nl < 0 ? h->num_files : nl;
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
    if (alloc_set(s, bounds, err, errlen)) {
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

int tbrf_arepo_set_open_format(const char *base, const tbrf_arepo_header *h, const int64_t n[6],
                               const uint64_t first_id[6], int format, tbrf_arepo_set **set,
                               char *err, size_t errlen)
{
    return open_set(base, h, n, first_id, format, 0, -1, NULL, set, err, errlen);
}

int tbrf_arepo_set_open_part(const char *base, const tbrf_arepo_header *h, const int64_t n[6],
                             const uint64_t first_id[6], int member0, int members,
                             const int64_t *bounds, tbrf_arepo_set **set, char *err,
                             size_t errlen)
{
    return tbrf_arepo_set_open_part_format(base, h, n, first_id, member0, members, bounds,
                                           TBRF_AREPO_FORMAT_HDF5, set, err, errlen);
}

int tbrf_arepo_set_open_part_format(const char *base, const tbrf_arepo_header *h,
                                    const int64_t n[6], const uint64_t first_id[6], int member0,
                                    int members, const int64_t *bounds, int format,
                                    tbrf_arepo_set **set, char *err, size_t errlen)
{
    *set = NULL;
    if (!h || !n || !bounds) {
        io_setf(err, errlen, "no header, counts or rows given");
        return -1;
    }
    if (tbrf_arepo_check_header(h, err, errlen))
        return -1;
    if (member0 < 0 || members < 1 || member0 > h->num_files - members) {
        io_setf(err, errlen, "members %d .. %d of a set of %d", member0, member0 + members - 1,
                h->num_files);
        return -1;
    }
    if (check_bounds(h, n, bounds, err, errlen))
        return -1;
    return open_set(base, h, n, first_id, format, member0, members, bounds, set, err, errlen);
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
    uint64_t unused = 0;
    tbrf_io_writer *w = s->side;
    int rc = w->ops->arepo_write(w, &s->h, s->totals, NULL, 0, params, nparams, &unused, err,
                                 errlen);
    const char *format = s->format == TBRF_AREPO_FORMAT_GADGET1 ? "gadget1" : "gadget2";
    if (rc == 0 && w->ops->arepo_record(w, -1, 0, NULL, format, NULL)) {
        io_setf(err, errlen, "%s", w->message);
        rc = -1;
    }
    io_quiet_end(&q);
    return rc;
}

int tbrf_arepo_set_write_file(tbrf_arepo_set *s, int f, const tbrf_arepo_particles part[6],
                              const tbrf_arepo_param *params, size_t nparams, char *err,
                              size_t errlen)
{
    if (!s || f != s->f0 + s->written || s->written >= s->nl || !part) {
        io_setf(err, errlen, "AREPO files must be written in order, once each");
        return -1;
    }
    /* The whole set's counts for the header; this file's rows for the data,
     * checked as they come (a bad value leaves every file unpublished). */
    tbrf_arepo_particles t[6];
    for (int k = 0; k < 6; k++) {
        int64_t first, count;
        file_rows(s->totals[k].n, f, s->h.num_files, &first, &count);
        if (s->bounds && s->totals[k].n > 0) {
            first = s->bounds[f];
            count = s->bounds[f + 1] - first;
        }
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
 * sees); in a part of a set (tbrf_arepo_set_part_rename) "fail:0" fails
 * this process's first rename (tests/mpi/test_ic_cli.sh). */
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
    int rc = w->ops->arepo_record(w, f, nf, digest, NULL, NULL);
    io_quiet_end(&q);
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
    uint64_t *v = malloc((size_t)nf * 2 * sizeof *v);
    for (int f = 0; v && f < nf; f++) {
        v[2 * f] = s->bytes[f];
        v[2 * f + 1] = s->digest[f];
    }
    int rc = v ? s->side->ops->arepo_record(s->side, -1, nf, hex, NULL, v) : -1;
    free(v);
    io_quiet_end(&q);
    if (!v)
        IO_FAIL(s->side, "cannot write %s: recording the set: out of memory", s->side->path);
    return rc;
}

/* The staging of a Gadget set (or part): where the side file is written,
 * the set's identity from every member's digest and size (s->digest,
 * s->bytes: all num_files) recorded and the side file staged; this
 * process's members keep the modes of the files they replace. */
static int stage_gadget(tbrf_arepo_set *s, char *err, size_t errlen)
{
    const int nf = s->h.num_files;
    for (int f = s->f0; f < s->f0 + s->nl; f++) {
        int fd = open(s->tmps[f], O_RDONLY);
        if (fd >= 0) {
            keep_mode(fd, s->paths[f]);
            close(fd);
        }
    }
    if (!has_side(s))
        return 0;
    uint64_t id = io_digest_bytes(IO_GADGET_DIGEST_SEED, &nf, sizeof nf);
    id = io_digest_bytes(id, s->digest, (size_t)nf * sizeof *s->digest);
    id = io_digest_bytes(id, &s->meta, sizeof s->meta);
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)id);
    if (gadget_record(s, hex)) {
        io_setf(err, errlen, "%s", s->side->message);
        return -1;
    }
    return stage_member(s->side, err, errlen);
}

/* The commit of a Gadget set: its members are written and synced
 * (io_gadget_write_member); the side file completed and staged; then
 * the renames, the side file first and member 0 last. */
static int commit_gadget(tbrf_arepo_set *s, char *err, size_t errlen)
{
    if (stage_gadget(s, err, errlen))
        return -1;
    if (fault("term", 1)) /* every temporary synced, nothing renamed */
        raise(SIGTERM);
    return publish_held(s, s->tmps, (const char *const *)s->paths, s->h.num_files + 1, err,
                        errlen);
}

/* The set's identity from every member's digest (all num_files), then
 * what takes time (closing, syncing) for this process's members, with
 * signals free to stop the run: the handler removes every temporary. */
static int stage_hdf5(tbrf_arepo_set *s, const uint64_t *digests, char *err, size_t errlen)
{
    const int nf = s->h.num_files;
    uint64_t id = io_digest_bytes(0x6a09e667f3bcc909ull, &nf, sizeof nf);
    id = io_digest_bytes(id, digests, (size_t)nf * sizeof *digests);
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)id);
    for (int f = s->f0; f < s->f0 + s->nl; f++) {
        if (nf > 1 && write_set_attrs(s->w[f], f, nf, hex)) {
            io_setf(err, errlen, "%s", s->w[f]->message);
            return -1;
        }
        if (stage_member(s->w[f], err, errlen))
            return -1;
        if (fault("term", f + 1))
            raise(SIGTERM);
    }
    for (int f = s->f0; f < s->f0 + s->nl; f++)
        s->paths[f] = s->w[f]->path; /* the writers' own names, not freed here */
    return 0;
}

int tbrf_arepo_set_commit(tbrf_arepo_set *s, char *err, size_t errlen)
{
    if (!s || s->written != s->h.num_files || s->nl != s->h.num_files) {
        io_setf(err, errlen, "the AREPO set is incomplete: %d of %d files written",
                s ? s->written : 0, s ? s->h.num_files : 0);
        return -1;
    }
    if (s->format != TBRF_AREPO_FORMAT_HDF5)
        return commit_gadget(s, err, errlen);
    if (stage_hdf5(s, s->digest, err, errlen))
        return -1;
    /* Then only renames */
    return publish_held(s, s->tmps, (const char *const *)s->paths, s->h.num_files, err, errlen);
}

int tbrf_arepo_set_part_digests(const tbrf_arepo_set *s, uint64_t *digests)
{
    if (!s || !digests || s->written != s->nl)
        return -1;
    memcpy(digests, s->digest + s->f0, (size_t)s->nl * sizeof *digests);
    return 0;
}

int tbrf_arepo_set_part_stage(tbrf_arepo_set *s, const uint64_t *digests, char *err,
                              size_t errlen)
{
    if (!s || !digests || s->written != s->nl) {
        io_setf(err, errlen, "the AREPO set's part is incomplete: %d of %d files written",
                s ? s->written : 0, s ? s->nl : 0);
        return -1;
    }
    if (s->format == TBRF_AREPO_FORMAT_HDF5)
        return stage_hdf5(s, digests, err, errlen);
    memcpy(s->digest, digests, (size_t)s->h.num_files * sizeof *digests);
    return stage_gadget(s, err, errlen);
}

int tbrf_arepo_set_part_sizes(tbrf_arepo_set *s, uint64_t *sizes, int all)
{
    if (!s || !sizes || s->written != s->nl)
        return -1;
    if (all)
        memcpy(s->bytes, sizes, (size_t)s->h.num_files * sizeof *sizes);
    else
        memcpy(sizes, s->bytes + s->f0, (size_t)s->nl * sizeof *sizes);
    return 0;
}

/* One rename of a part: file f (num_files: a Gadget set's side file)
 * to its name, the file it replaces kept. 0, or -1 with err set. */
static int rename_part_file(tbrf_arepo_set *s, int f, char *err, size_t errlen)
{
    int lost = 0;
    s->bak[f] = backup_of(s->paths[f], s->tmps[f], &lost);
    if (fault("fail", 0) ? (errno = EIO, 1) : rename(s->tmps[f], s->paths[f]) != 0) {
        io_setf(err, errlen, "cannot write %s: %s", s->paths[f], strerror(errno));
        if (s->bak[f] && access(s->paths[f], F_OK) != 0 && rename(s->bak[f], s->paths[f]) == 0) {
            free(s->bak[f]);
            s->bak[f] = NULL;
        }
        return -1;
    }
    s->renamed[f] = 1;
    return 0;
}

int tbrf_arepo_set_part_rename(tbrf_arepo_set *s, int first_member, char *err, size_t errlen)
{
    if (!s->held) { /* held back until tbrf_arepo_set_part_finish */
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &s->old_mask);
        s->held = 1;
    }
    const int side = s->h.num_files; /* a Gadget set's side file: renamed first */
    if (!first_member && has_side(s) && !s->renamed[side] &&
        rename_part_file(s, side, err, errlen))
        return -1;
    for (int f = s->f0 + s->nl - 1; f >= s->f0; f--) {
        if ((f == 0) != (first_member != 0) || s->renamed[f])
            continue;
        if (rename_part_file(s, f, err, errlen))
            return -1;
    }
    return 0;
}

int tbrf_arepo_set_part_finish(tbrf_arepo_set *s, int ok)
{
    int lost = 0;
    for (int i = s->f0; i <= s->f0 + s->nl; i++) {
        const int f = i < s->f0 + s->nl ? i : s->h.num_files; /* then the side file */
        if (f == s->h.num_files && !has_side(s))
            continue;
        if (!ok && s->renamed[f])
            lost |= s->bak[f] ? rename(s->bak[f], s->paths[f]) != 0
                              : unlink(s->paths[f]) != 0 && errno != ENOENT;
        if (s->bak[f])
            unlink(s->bak[f]);
        free(s->bak[f]);
        s->bak[f] = NULL;
        s->renamed[f] = 0;
    }
    if (ok) {
        say_temps(s, 0);
        s->committed = 1;
        for (int f = s->f0; f < s->f0 + s->nl; f++)
            if (s->w[f])
                s->w[f]->committed = 1;
        if (s->side)
            s->side->committed = 1;
        io_sync_dir(s->paths[s->f0]);
    }
    if (s->held)
        pthread_sigmask(SIG_SETMASK, &s->old_mask, NULL);
    s->held = 0;
    return lost ? -1 : 0;
}

void tbrf_arepo_set_close(tbrf_arepo_set *s)
{
    if (!s)
        return;
    if (s->held) /* a part renamed but never finished: put back what it replaced */
        tbrf_arepo_set_part_finish(s, 0);
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
    for (int f = 0; s->bak && f < s->h.num_files + (s->format != TBRF_AREPO_FORMAT_HDF5); f++)
        free(s->bak[f]);
    free(s->bak);
    free(s->renamed);
    free(s->bounds);
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

