/* particles.c — the particles of an AREPO/Gadget HDF5 or Gadget binary
 * set read back in bounded chunks (particles.h): the headers of every
 * member first (counts, box, files checked against each other), then the
 * positions and masses type by type; the HDF5 members' own reading is
 * hdf5_particles.c. */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/gadget.h"
#include "io/io_internal.h"
#include "io/particles.h"
#include "io/particles_parts.h"
#include "io/tbrf_io.h"
#include "tbrf_arepo.h"


/* ------------------------------------------------------------ Gadget */

static int read_exact(FILE *f, void *p, size_t n)
{
    return fread(p, 1, n, f) == n ? 0 : -1;
}

/* Where a record's data lies: the marker at *off framing m bytes that a
 * matching marker closes within the file; *off moves past the record.
 * 0, or -1. */
static int record_at(FILE *f, int64_t size, int64_t *off, int64_t *data, uint32_t *len)
{
    uint32_t m1, m2;
    if (*off + 8 > size || fseeko(f, (off_t)*off, SEEK_SET) || read_exact(f, &m1, 4) ||
        (int64_t)m1 > size - *off - 8 || fseeko(f, (off_t)(*off + 4 + m1), SEEK_SET) ||
        read_exact(f, &m2, 4) || m1 != m2)
        return -1;
    *data = *off + 4;
    *len = m1;
    *off += 8 + (int64_t)m1;
    return 0;
}

/* Format 2: the record after the label record `label` from *off on
 * (skipping others), as record_at. */
static int labelled_at(FILE *f, int64_t size, const char *label, int64_t *off, int64_t *data,
                       uint32_t *len)
{
    for (int guard = 0; guard < 64; guard++) {
        int64_t d;
        uint32_t l;
        char lab[4];
        if (record_at(f, size, off, &d, &l) || l != 8 || fseeko(f, (off_t)d, SEEK_SET) ||
            read_exact(f, lab, 4))
            return -1;
        int hit = memcmp(lab, label, 4) == 0;
        if (record_at(f, size, off, data, len))
            return -1;
        if (hit)
            return 0;
    }
    return -1;
}

/* The layout of a Gadget member: header, and where POS and (when a type
 * present here keeps per-particle masses) MASS lie. */
typedef struct glayout {
    phdr h;
    int64_t pos, mass; /* data offsets (mass -1: no MASS block needed) */
    int es, mes;       /* bytes per value of POS and MASS */
} glayout;

/* The 256-byte Gadget header hb of member path into *h, with its
 * particles *n and those of its types without a MassTable entry *nm: 0,
 * or -1 with err (counts, masses or NumFiles that are none). */
static int gadget_header(const char *path, const unsigned char *hb, phdr *h, int64_t *n,
                         int64_t *nm, char *err, size_t errlen)
{
    int32_t npart[6], nf;
    uint32_t total[6], high[6];
    double cosmo[4], tz[2];
    memcpy(npart, hb, 24);
    memcpy(h->mass, hb + 24, 48);
    memcpy(tz, hb + 72, 16);
    memcpy(total, hb + 96, 24);
    memcpy(&nf, hb + 124, 4);
    memcpy(cosmo, hb + 128, 32);
    memcpy(high, hb + 168, 24);
    h->time = tz[0], h->redshift = tz[1];
    h->box = cosmo[0], h->omega0 = cosmo[1], h->omega_lambda = cosmo[2], h->hubble = cosmo[3];
    h->nfiles = nf;
    *n = *nm = 0;
    for (int t = 0; t < 6; t++) {
        /* a high word beyond 2^21 is no count (totals past 9e15) */
        if (npart[t] < 0 || high[t] >= (1u << 21) || !(h->mass[t] >= 0 && isfinite(h->mass[t]))) {
            io_setf(err, errlen, "%s: header type %d: %d particles (%u, high word %u, in all), "
                    "mass %g: not counts and a mass >= 0", path, t, npart[t], total[t], high[t],
                    h->mass[t]);
            return -1;
        }
        h->this_file[t] = npart[t];
        h->total[t] = (int64_t)total[t] + (int64_t)((uint64_t)high[t] << 32);
        *n += npart[t];
        if (h->mass[t] == 0)
            *nm += npart[t];
    }
    if (nf < 1 || nf > PSNAP_MAX_FILES) {
        io_setf(err, errlen, "%s: header NumFiles %d is not in 1 .. %d", path, nf, PSNAP_MAX_FILES);
        return -1;
    }
    return 0;
}

/* Reads member path's header and finds its blocks: 0, or -1 with err. */
static int gadget_layout(const char *path, int format, int need_blocks, glayout *L, char *err,
                         size_t errlen)
{
    memset(L, 0, sizeof *L);
    L->mass = -1;
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        io_setf(err, errlen, "cannot read Gadget file %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    const int64_t size = (int64_t)st.st_size;
    int64_t off = 0, d;
    uint32_t len;
    unsigned char hb[256];
    int rc = -1;
    if ((format == IO_GADGET_FORMAT2 ? labelled_at(f, size, "HEAD", &off, &d, &len)
                                      : record_at(f, size, &off, &d, &len)) ||
        len != 256 || fseeko(f, (off_t)d, SEEK_SET) || read_exact(f, hb, 256)) {
        io_setf(err, errlen, "%s: not a Gadget file (its header record is not 256 bytes framed "
                "by markers, or the file ends inside it)", path);
        goto done;
    }
    int64_t n = 0, nm = 0;
    if (gadget_header(path, hb, &L->h, &n, &nm, err, errlen))
        goto done;
    rc = 0;
    if (!need_blocks || n == 0)
        goto done;
    /* every record framed up to the file's end: a cut file is refused
     * even where the blocks read are whole */
    int64_t walk = 0;
    for (int guard = 0; rc == 0 && walk < size; guard++)
        if (guard > 256 || record_at(f, size, &walk, &d, &len)) {
            io_setf(err, errlen, "%s: a record at byte %lld is not framed by matching markers "
                    "within the file: a truncated or corrupt Gadget file", path, (long long)walk);
            rc = -1;
        }
    if (rc)
        goto done;
    rc = -1;
    if ((format == IO_GADGET_FORMAT2 ? labelled_at(f, size, "POS ", &off, &L->pos, &len)
                                      : record_at(f, size, &off, &L->pos, &len)) ||
        !((double)len == 12.0 * (double)n || (double)len == 24.0 * (double)n)) {
        io_setf(err, errlen, "%s: no POS block of %lld particles (12 or 24 bytes each) framed by "
                "its markers: a truncated or corrupt Gadget file", path, (long long)n);
        goto done;
    }
    L->es = (double)len == 12.0 * (double)n ? 4 : 8;
    if (nm > 0) {
        /* format 1: VEL and ID come between POS and MASS */
        int bad = format == IO_GADGET_FORMAT2
                      ? labelled_at(f, size, "MASS", &off, &L->mass, &len)
                      : record_at(f, size, &off, &d, &len) || record_at(f, size, &off, &d, &len) ||
                            record_at(f, size, &off, &L->mass, &len);
        L->mes = !bad && (double)len == 4.0 * (double)nm   ? 4
                 : !bad && (double)len == 8.0 * (double)nm ? 8
                                                           : 0;
        if (!L->mes) {
            io_setf(err, errlen, "%s: %lld particles have MassTable 0 but no MASS block of %lld "
                    "values framed by its markers follows", path, (long long)nm, (long long)nm);
            goto done;
        }
    }
    rc = 0;
done:
    fclose(f);
    return rc;
}

/* ------------------------------------------------------------ the set */

void io_psnap_free(io_psnap *s)
{
    if (!s)
        return;
    for (int i = 0; s->member && i < s->nfiles; i++)
        free(s->member[i]);
    free(s->member);
    free(s->record);
    memset(s, 0, sizeof *s);
}

/* Whether name ends in ".K" + suffix with K a member index: its BASE
 * (malloc'ed) and K, or NULL. */
static char *member_base(const char *name, const char *suffix, int *k)
{
    size_t len = strlen(name), sl = strlen(suffix);
    if (len <= sl || strcmp(name + len - sl, suffix) != 0)
        return NULL;
    size_t e = len - sl, b = e;
    while (b > 0 && name[b - 1] >= '0' && name[b - 1] <= '9')
        b--;
    if (b == e || e - b > 5 || b < 2 || name[b - 1] != '.')
        return NULL;
    *k = atoi(name + b);
    char *base = malloc(b);
    if (base)
        snprintf(base, b, "%.*s", (int)(b - 1), name);
    return base;
}

/* Members' names of a set of nf files whose base is base (NULL: path is
 * the only one). 0, or -1 (memory). */
static int name_members(io_psnap *s, const char *path, const char *base, int nf)
{
    s->nfiles = nf;
    s->member = calloc((size_t)nf, sizeof *s->member);
    if (!s->member)
        return -1;
    for (int i = 0; i < nf; i++) {
        s->member[i] = !base ? strdup(path)
                       : s->format == TBRF_AREPO_FORMAT_HDF5 ? tbrf_arepo_file_name(base, nf, i)
                                                             : io_gadget_member_name(base, nf, i);
        if (!s->member[i])
            return -1;
    }
    return 0;
}

/* The members of the set that path (a member with header h) belongs to,
 * and the Gadget side file beside them. 0, or -1 with err. */
static int find_members(io_psnap *s, const char *path, const phdr *h, char *err, size_t errlen)
{
    int k = 0;
    const int hdf5 = s->format == TBRF_AREPO_FORMAT_HDF5;
    char *base = h->nfiles > 1 ? member_base(path, hdf5 ? ".hdf5" : "", &k) : NULL;
    if (h->nfiles > 1 && (!base || k >= h->nfiles)) {
        io_setf(err, errlen, "%s says it is one of %d files (NumFiles), but its name is not "
                "BASE.K%s with K below %d: name the members as the writer did", path, h->nfiles,
                hdf5 ? ".hdf5" : "", h->nfiles);
        free(base);
        return -1;
    }
    int rc = name_members(s, path, base, h->nfiles);
    if (rc == 0 && !hdf5) {
        /* tbrf's side file records the run: BASE.tbrf.h5 beside the members */
        char *b = base ? base : strdup(path);
        char *side = b ? io_gadget_side_name(b) : NULL;
        if (side && io_psnap_h5_has_tbrf(side, "command"))
            s->record = side;
        else
            free(side);
        if (b != base)
            free(b);
    }
    free(base);
    if (rc)
        io_setf(err, errlen, "out of memory");
    return rc;
}

/* Every member's header against the first's: totals, box, files; the
 * counts summing to the totals. */
static int check_members(io_psnap *s, const phdr *h0, char *err, size_t errlen)
{
    int64_t sum[6] = {0};
    for (int i = 0; i < s->nfiles; i++) {
        phdr h;
        glayout L;
        struct stat st;
        const char *m = s->member[i];
        if (stat(m, &st) != 0) {
            io_setf(err, errlen, "%s: member %d of a set of %d is missing: an incomplete set", m, i,
                    s->nfiles);
            return -1;
        }
        int rc = s->format == TBRF_AREPO_FORMAT_HDF5
                     ? io_psnap_h5_header(m, &h, err, errlen)
                     : gadget_layout(m, io_gadget_sniff(m) > 0 ? io_gadget_sniff(m) : s->format,
                                     0, &L, err, errlen);
        if (s->format != TBRF_AREPO_FORMAT_HDF5)
            h = L.h;
        if (rc > 0)
            io_setf(err, errlen, "%s: member %d of the set is not an AREPO HDF5 particle file", m, i);
        if (rc)
            return -1;
        int same = h.nfiles == h0->nfiles && h.box == h0->box;
        for (int t = 0; t < 6; t++) {
            same = same && h.total[t] == h0->total[t] && h.mass[t] == h0->mass[t];
            sum[t] += h.this_file[t];
        }
        if (!same) {
            io_setf(err, errlen, "%s: its header (NumFiles, BoxSize, totals, MassTable) differs "
                    "from %s's: not one set", m, s->member[0]);
            return -1;
        }
    }
    s->n = 0;
    for (int t = 0; t < 6; t++) {
        if (sum[t] != h0->total[t]) {
            io_setf(err, errlen, "%s: the %d files hold %lld particles of type %d but the header "
                    "says %lld in all: an incomplete or inconsistent set", s->member[0], s->nfiles,
                    (long long)sum[t], t, (long long)h0->total[t]);
            return -1;
        }
        s->total[t] = h0->total[t];
        s->mass_table[t] = h0->mass[t];
        s->n += h0->total[t];
    }
    if (!(isfinite(h0->box) && h0->box > 0)) {
        io_setf(err, errlen, "%s: BoxSize %g is not a positive number", s->member[0], h0->box);
        return -1;
    }
    s->box = h0->box, s->time = h0->time, s->redshift = h0->redshift;
    s->omega0 = h0->omega0, s->omega_lambda = h0->omega_lambda, s->hubble = h0->hubble;
    return 0;
}

/* path is a Gadget set's side file: its members from its base and the
 * set_files it records. */
static int side_members(io_psnap *s, const char *path, phdr *h, char *err, size_t errlen)
{
    size_t len = strlen(path), sl = strlen(IO_GADGET_SIDE_SUFFIX);
    s->format = tbrf_arepo_file_format(path);
    s->record = strdup(path);
    char *base = s->record && len > sl ? strndup(path, len - sl) : NULL;
    if (!base) {
        io_setf(err, errlen, "out of memory");
        return -1;
    }
    int rc = -1;
    glayout L;
    double nf = NAN;
    io_psnap_number(s, "set_files", &nf);
    if (!(nf >= 1 && nf <= PSNAP_MAX_FILES))
        io_setf(err, errlen, "%s: /tbrf set_files is not a file count", path);
    else {
        char *first = io_gadget_member_name(base, (int)nf, 0);
        if (first && gadget_layout(first, s->format, 0, &L, err, errlen) == 0) {
            *h = L.h;
            rc = name_members(s, path, (int)nf > 1 ? base : NULL, (int)nf);
            if (rc == 0 && (int)nf == 1) {
                free(s->member[0]);
                s->member[0] = first, first = NULL;
            }
        }
        free(first);
    }
    free(base);
    return rc;
}

int io_psnap_open(const char *path, io_psnap *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (io_stat_input(path, NULL, err, errlen))
        return -1;
    phdr h;
    glayout L;
    const int g = io_gadget_sniff(path);
    int rc;
    if (g < 0) {
        io_setf(err, errlen, "%s: a Gadget file of the other byte order (big-endian): convert it "
                "first", path);
        return -1;
    }
    if (g > 0) {
        s->format = g;
        rc = gadget_layout(path, g, 0, &L, err, errlen);
        h = L.h;
        if (rc == 0)
            rc = find_members(s, path, &h, err, errlen);
    } else {
        size_t len = strlen(path), sl = strlen(IO_GADGET_SIDE_SUFFIX);
        const int side = len > sl && strcmp(path + len - sl, IO_GADGET_SIDE_SUFFIX) == 0 &&
                         tbrf_arepo_file_format(path) != TBRF_AREPO_FORMAT_HDF5;
        rc = side ? 0 : io_psnap_h5_header(path, &h, err, errlen);
        if (rc == 1)
            return 1; /* no particle file: the caller reads it otherwise */
        if (rc == 0 && side)
            rc = side_members(s, path, &h, err, errlen);
        else if (rc == 0) {
            s->format = TBRF_AREPO_FORMAT_HDF5;
            rc = find_members(s, path, &h, err, errlen);
            if (rc == 0 && io_psnap_h5_has_tbrf(path, "command") && !(s->record = strdup(path)))
                rc = -1;
        }
    }
    /* a set of tbrf's is checked whole: every member of this run */
    if (rc == 0 && s->record && tbrf_arepo_check_set(s->record, err, errlen))
        rc = -1;
    if (rc == 0)
        rc = check_members(s, &h, err, errlen);
    if (rc)
        io_psnap_free(s);
    return rc ? -1 : 0;
}

/* ------------------------------------------------------------ the walk */


/* Positions into [0, box), checked finite; masses finite and >= 0. */
int io_psnap_tidy(const io_psnap *s, const char *m, int t, double *xyz, double *mass, int64_t n,
                char *err, size_t errlen)
{
    for (int64_t i = 0; i < 3 * n; i++) {
        double x = xyz[i];
        if (!isfinite(x)) {
            io_setf(err, errlen, "%s: a type-%d particle has a coordinate that is not finite", m, t);
            return -1;
        }
        if (x < 0 || x >= s->box) {
            x = fmod(x, s->box);
            x = x < 0 ? x + s->box : x;
            xyz[i] = x >= s->box ? 0.0 : x;
        }
    }
    for (int64_t i = 0; mass && i < n; i++)
        if (!(isfinite(mass[i]) && mass[i] >= 0)) {
            io_setf(err, errlen, "%s: a type-%d particle's mass %g is not finite and >= 0", m, t,
                    mass[i]);
            return -1;
        }
    return 0;
}

/* rows values of es bytes from f at its position into v (doubles). */
static int read_values(FILE *f, unsigned char *raw, int es, int64_t count, double *v)
{
    if (read_exact(f, raw, (size_t)count * (size_t)es))
        return -1;
    for (int64_t i = 0; i < count; i++) {
        if (es == 4) {
            float x;
            memcpy(&x, raw + 4 * i, 4);
            v[i] = x;
        } else
            memcpy(&v[i], raw + 8 * i, 8);
    }
    return 0;
}

static int gadget_member(const io_psnap *s, const char *m, pbuf *b, io_psnap_fn fn, void *user,
                         char *err, size_t errlen)
{
    glayout L;
    int fmt = io_gadget_sniff(m);
    if (fmt <= 0 || gadget_layout(m, fmt, 1, &L, err, errlen)) {
        if (fmt <= 0)
            io_setf(err, errlen, "%s: not a Gadget file of this byte order", m);
        return -1;
    }
    FILE *fp = fopen(m, "rb"), *fm = L.mass >= 0 ? fopen(m, "rb") : NULL;
    int rc = !fp || (L.mass >= 0 && !fm) || fseeko(fp, (off_t)L.pos, SEEK_SET) ||
                     (fm && fseeko(fm, (off_t)L.mass, SEEK_SET))
                 ? -1 : 0;
    if (rc)
        io_setf(err, errlen, "cannot read %s: %s", m, strerror(errno));
    for (int t = 0; t < 6 && rc == 0; t++)
        for (int64_t r = 0; r < L.h.this_file[t] && rc == 0; r += b->chunk) {
            int64_t c = L.h.this_file[t] - r < b->chunk ? L.h.this_file[t] - r : b->chunk;
            const int own = L.h.mass[t] == 0;
            if (read_values(fp, b->raw, L.es, 3 * c, b->xyz) ||
                (own && read_values(fm, b->raw, L.mes, c, b->mass))) {
                io_setf(err, errlen, "%s: the file ends inside its POS or MASS block", m);
                rc = -1;
            } else if ((rc = io_psnap_tidy(s, m, t, b->xyz, own ? b->mass : NULL, c, err, errlen)) == 0)
                rc = fn(user, t, b->xyz, own ? b->mass : NULL, c);
        }
    if (fp)
        fclose(fp);
    if (fm)
        fclose(fm);
    return rc;
}

int io_psnap_each(const io_psnap *s, int64_t chunk, io_psnap_fn fn, void *user, char *err,
                  size_t errlen)
{
    pbuf b = {NULL, NULL, NULL, chunk < 1 ? 1 : chunk};
    if (tbrf_io_budget_check(s->member[0], "the particle reader's buffers", 56.0 * (double)b.chunk,
                             err, errlen))
        return -1;
    b.xyz = malloc((size_t)b.chunk * 3 * sizeof *b.xyz);
    b.mass = malloc((size_t)b.chunk * sizeof *b.mass);
    b.raw = malloc((size_t)b.chunk * 24);
    int rc = b.xyz && b.mass && b.raw ? 0 : -1;
    if (rc)
        io_setf(err, errlen, "out of memory for the particle reader's buffers");
    for (int i = 0; i < s->nfiles && rc == 0; i++)
        rc = s->format == TBRF_AREPO_FORMAT_HDF5
                 ? io_psnap_h5_member(s, s->member[i], &b, fn, user, err, errlen)
                 : gadget_member(s, s->member[i], &b, fn, user, err, errlen);
    free(b.xyz);
    free(b.mass);
    free(b.raw);
    return rc;
}
