/* gadget.c — Gadget's binary initial-condition layouts (SnapFormat /
 * ICFormat 1 and 2, doc/arepo.md "Gadget binary files"): the members of a
 * set that tbrf_arepo_set writes when its format is gadget1 or gadget2
 * (arepo.c keeps the set: temporaries, side file, all-or-nothing
 * publication), and the reader of N-GenIC's format-1 glass files.
 *
 * A member is Fortran records, each framed by a 4-byte marker holding its
 * length: the 256-byte header (io_header of Gadget-2 and AREPO's
 * read_ic.c), then POS, VEL, ID, MASS (only for types whose MassTable entry
 * is 0) and U (gas), each block holding the file's particles type 0 first.
 * Format 2 puts before every record a 16-byte record of its own: marker 8,
 * the 4-character label, the next record's length plus 8, marker 8. Byte
 * order is the machine's (little-endian here, as every Gadget file met in
 * practice). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/gadget.h"
#include "io/io_internal.h"

/* Bytes buffered before a write(2): the digest runs over these chunks,
 * so the reader of a member (io_gadget_file_digest) reads the same. */
#define GADGET_CHUNK ((size_t)1 << 20)

char *io_gadget_member_name(const char *base, int num_files, int index)
{
    size_t room = strlen(base) + 24;
    char *s = malloc(room);
    if (!s)
        return NULL;
    if (num_files == 1)
        snprintf(s, room, "%s", base);
    else
        snprintf(s, room, "%s.%d", base, index);
    return s;
}

char *io_gadget_side_name(const char *base)
{
    size_t room = strlen(base) + 16;
    char *s = malloc(room);
    if (s)
        snprintf(s, room, "%s%s", base, IO_GADGET_SIDE_SUFFIX);
    return s;
}

/* The output of one member: a buffer written in GADGET_CHUNK pieces. */
typedef struct gout {
    int fd;
    unsigned char *buf;
    size_t used;
    uint64_t digest, bytes;
    int errnum; /* the first write error, 0 none */
} gout;

static void gflush(gout *o)
{
    if (o->used == 0)
        return;
    o->digest = io_digest_bytes(o->digest, o->buf, o->used);
    size_t off = 0;
    while (off < o->used && o->errnum == 0) {
        ssize_t w = write(o->fd, o->buf + off, o->used - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            o->errnum = w < 0 ? errno : EIO;
        else
            off += (size_t)w;
    }
    o->bytes += o->used;
    o->used = 0;
}

static void gput(gout *o, const void *p, size_t n)
{
    const unsigned char *b = p;
    while (n > 0) {
        size_t k = GADGET_CHUNK - o->used < n ? GADGET_CHUNK - o->used : n;
        memcpy(o->buf + o->used, b, k);
        o->used += k;
        b += k;
        n -= k;
        if (o->used == GADGET_CHUNK)
            gflush(o);
    }
}

static void gput_u32(gout *o, uint32_t v)
{
    gput(o, &v, 4);
}

/* The 256 bytes of the header at Gadget-2's offsets (allvars.h io_header;
 * AREPO's read_ic.c reads the same), every unused byte 0. */
static void header_bytes(unsigned char hb[256], const tbrf_arepo_header *h,
                         const tbrf_arepo_particles *totals, const int32_t this_file[6])
{
    memset(hb, 0, 256);
    uint32_t low[6], high[6];
    for (int t = 0; t < 6; t++) {
        low[t] = (uint32_t)((uint64_t)totals[t].n & 0xffffffffu);
        high[t] = (uint32_t)((uint64_t)totals[t].n >> 32);
    }
    const double cosmo[4] = {h->box_size, h->omega0, h->omega_lambda, h->hubble_param};
    const int32_t cool_files[2] = {h->flag_cooling, h->num_files};
    const int32_t sfr_fb[2] = {h->flag_sfr, h->flag_feedback};
    const int32_t age_met[2] = {h->flag_stellarage, h->flag_metals};
    const int32_t dbl = h->double_precision; /* AREPO's flag_doubleprecision */
    memcpy(hb + 0, this_file, 24);    /* npart[6] */
    memcpy(hb + 24, h->mass_table, 48); /* mass[6] */
    memcpy(hb + 72, &h->time, 8);
    memcpy(hb + 80, &h->redshift, 8);
    memcpy(hb + 88, sfr_fb, 8);       /* flag_sfr, flag_feedback */
    memcpy(hb + 96, low, 24);         /* npartTotal[6] */
    memcpy(hb + 120, cool_files, 8);  /* flag_cooling, num_files */
    memcpy(hb + 128, cosmo, 32);      /* BoxSize, Omega0, OmegaLambda, HubbleParam */
    memcpy(hb + 160, age_met, 8);     /* flag_stellarage, flag_metals */
    memcpy(hb + 168, high, 24);       /* npartTotalHighWord[6] */
    /* 192: flag_entropy_instead_u 0 (U is the specific energy) */
    memcpy(hb + 196, &dbl, 4);
}

/* Opens a record of n bytes (format 2: its label record first). */
static void record_begin(gout *o, int format, const char *label, uint64_t n)
{
    if (format == IO_GADGET_FORMAT2) {
        char lab[4] = {' ', ' ', ' ', ' '};
        memcpy(lab, label, strlen(label) < 4 ? strlen(label) : 4);
        gput_u32(o, 8);
        gput(o, lab, 4);
        gput_u32(o, (uint32_t)(n + 8));
        gput_u32(o, 8);
    }
    gput_u32(o, (uint32_t)n);
}

/* The blocks: what each holds per particle and of which types. */
enum { B_POS, B_VEL, B_ID, B_MASS, B_U, B_COUNT };
static const char *const LABELS[B_COUNT] = {"POS", "VEL", "ID", "MASS", "U"};

static int in_block(const tbrf_arepo_header *h, int b, int t)
{
    return b == B_MASS ? h->mass_table[t] == 0 : b == B_U ? t == 0 : 1;
}

/* Values per particle and bytes per value of block b. */
static void block_shape(const tbrf_arepo_header *h, int b, int *cols, size_t *esize)
{
    *cols = b <= B_VEL ? 3 : 1;
    *esize = b == B_ID ? (h->long_ids ? 8 : 4) : (h->double_precision ? 8 : 4);
}

/* The particles of block b in this file. */
static int64_t block_rows(const tbrf_arepo_header *h, int b, const tbrf_arepo_particles *p)
{
    int64_t n = 0;
    for (int t = 0; t < 6; t++)
        if (in_block(h, b, t))
            n += p[t].n;
    return n;
}

/* Value c of particle i of type t in block b (IDs apart). */
static double block_value(int b, const tbrf_arepo_particles *p, int64_t i, int c)
{
    switch (b) {
    case B_POS: return p->pos[3 * i + c];
    case B_VEL: return p->vel ? p->vel[3 * i + c] : 0.0;
    case B_MASS: return p->mass[i];
    default: return p->u ? p->u[i] : 0.0;
    }
}

static void put_block(gout *o, const tbrf_arepo_header *h, int b, const tbrf_arepo_particles *p)
{
    int cols;
    size_t esize;
    block_shape(h, b, &cols, &esize);
    for (int t = 0; t < 6; t++) {
        if (!in_block(h, b, t))
            continue;
        for (int64_t i = 0; i < p[t].n; i++) {
            if (b == B_ID) {
                uint64_t id = p[t].first_id + (uint64_t)i;
                uint32_t id32 = (uint32_t)id;
                gput(o, esize == 8 ? (const void *)&id : (const void *)&id32, esize);
                continue;
            }
            for (int c = 0; c < cols; c++) {
                double v = block_value(b, &p[t], i, c);
                float f = (float)v;
                /* a float coordinate rounded up to BoxSize wraps, as in
                 * the HDF5 files: every coordinate in [0, BoxSize) */
                if (b == B_POS && (double)f >= h->box_size)
                    f = (float)((double)f - h->box_size);
                gput(o, esize == 8 ? (const void *)&v : (const void *)&f, esize);
            }
        }
    }
}

/* The record length of every block, refused when a marker cannot hold
 * it (Gadget's markers are 4-byte signed integers). */
static int check_sizes(const tbrf_arepo_header *h, const tbrf_arepo_particles *p, int f,
                       char *err, size_t errlen)
{
    for (int b = 0; b < B_COUNT; b++) {
        int cols;
        size_t esize;
        block_shape(h, b, &cols, &esize);
        double bytes = (double)block_rows(h, b, p) * cols * (double)esize;
        if (bytes > (double)INT32_MAX - 8) {
            io_setf(err, errlen, "Gadget file %d: its %s block would hold %.0f bytes, more than a "
                    "record marker counts (2^31 - 1): use more --files", f, LABELS[b], bytes);
            return -1;
        }
    }
    return 0;
}

int io_gadget_write_member(const char *tmp, const tbrf_arepo_header *h,
                           const tbrf_arepo_particles totals[6],
                           const tbrf_arepo_particles part[6], int f, int format,
                           uint64_t *digest, uint64_t *bytes, char *err, size_t errlen)
{
    if (check_sizes(h, part, f, err, errlen))
        return -1;
    gout o = {-1, malloc(GADGET_CHUNK), 0, IO_GADGET_DIGEST_SEED, 0, 0};
    if (!o.buf) {
        io_setf(err, errlen, "out of memory");
        return -1;
    }
    o.fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (o.fd < 0) {
        io_setf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        free(o.buf);
        return -1;
    }
    int32_t this_file[6];
    for (int t = 0; t < 6; t++)
        this_file[t] = (int32_t)part[t].n;
    unsigned char hb[256];
    header_bytes(hb, h, totals, this_file);
    record_begin(&o, format, "HEAD", 256);
    gput(&o, hb, 256);
    gput_u32(&o, 256);
    for (int b = 0; b < B_COUNT; b++) {
        int cols;
        size_t esize;
        block_shape(h, b, &cols, &esize);
        int64_t rows = block_rows(h, b, part);
        if (rows == 0) /* Gadget's readers skip a block without particles */
            continue;
        uint64_t n = (uint64_t)rows * (uint64_t)cols * esize;
        record_begin(&o, format, LABELS[b], n);
        put_block(&o, h, b, part);
        gput_u32(&o, (uint32_t)n);
    }
    gflush(&o);
    int rc = o.errnum == 0 && fsync(o.fd) == 0 ? 0 : -1;
    if (rc)
        io_setf(err, errlen, "cannot write %s: %s", tmp, strerror(o.errnum ? o.errnum : errno));
    if (close(o.fd) != 0 && rc == 0) {
        io_setf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        rc = -1;
    }
    free(o.buf);
    *digest = o.digest;
    *bytes = o.bytes;
    return rc;
}

int io_gadget_file_digest(const char *path, uint64_t *digest, uint64_t *bytes)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    unsigned char *buf = malloc(GADGET_CHUNK);
    uint64_t d = IO_GADGET_DIGEST_SEED, total = 0;
    int rc = buf ? 0 : -1;
    while (rc == 0) {
        size_t got = 0;
        while (got < GADGET_CHUNK) { /* whole chunks, as gflush digested them */
            ssize_t r = read(fd, buf + got, GADGET_CHUNK - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                rc = -1;
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (rc || got == 0)
            break;
        d = io_digest_bytes(d, buf, got);
        total += got;
        if (got < GADGET_CHUNK)
            break;
    }
    free(buf);
    close(fd);
    *digest = d;
    *bytes = total;
    return rc;
}

/* ------------------------------------------------------------ info */

/* Reads exactly n bytes at the current position: 0, or -1. */
static int read_exact(FILE *f, void *p, size_t n)
{
    return fread(p, 1, n, f) == n ? 0 : -1;
}

/* Walks the records of a member: each record's label (format 2) and
 * length into out, until the end or a framing error (then -1: the
 * member is corrupt, and info must say so by its status too). */
static int info_records(FILE *f, FILE *out, int format, long size)
{
    static const char *const NAMES[] = {"POS", "VEL", "ID", "MASS", "U"};
    for (int k = 0; k < 16; k++) {
        char lab[5] = "";
        uint32_t m1, m2, next = 0, l1 = 0, l2 = 0;
        if (format == IO_GADGET_FORMAT2 &&
            (read_exact(f, &l1, 4) || read_exact(f, lab, 4) || read_exact(f, &next, 4) ||
             read_exact(f, &l2, 4) || l1 != 8 || l2 != 8))
            return 0;
        long here = ftell(f);
        if (read_exact(f, &m1, 4) || here < 0 || (long)m1 > size - here - 8 ||
            fseek(f, (long)m1, SEEK_CUR) || read_exact(f, &m2, 4) || m1 != m2) {
            if (ftell(f) < size) {
                fprintf(out, "  (a record's markers do not frame it: truncated or corrupt)\n");
                return -1;
            }
            return 0;
        }
        fprintf(out, "  record %-4s %u bytes\n", format == IO_GADGET_FORMAT2 ? lab
                : k < 5 ? NAMES[k] : "?", m1);
    }
    return 0;
}

int io_gadget_info(const char *path, FILE *out, char *err, size_t errlen)
{
    const int format = io_gadget_sniff(path);
    FILE *f = format > 0 ? fopen(path, "rb") : NULL;
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        io_setf(err, errlen, "%s: not a Gadget file of this byte order", path);
        if (f)
            fclose(f);
        return -1;
    }
    unsigned char hb[256];
    uint32_t m1 = 0;
    if (format == IO_GADGET_FORMAT2)
        fseek(f, 16, SEEK_SET);
    if (read_exact(f, &m1, 4) || m1 != 256 || read_exact(f, hb, 256) || fseek(f, 4, SEEK_CUR)) {
        io_setf(err, errlen, "%s: the Gadget header record is truncated", path);
        fclose(f);
        return -1;
    }
    int32_t npart[6], ints[2], dbl;
    uint32_t total[6], high[6];
    double mass[6], tz[2], cosmo[4];
    memcpy(npart, hb, 24);
    memcpy(mass, hb + 24, 48);
    memcpy(tz, hb + 72, 16);
    memcpy(total, hb + 96, 24);
    memcpy(ints, hb + 120, 8);
    memcpy(cosmo, hb + 128, 32);
    memcpy(high, hb + 168, 24);
    memcpy(&dbl, hb + 196, 4);
    fprintf(out, "%s: Gadget format %d, %lld bytes\n  header: Time %.17g Redshift %.17g "
            "BoxSize %.17g Omega0 %.17g OmegaLambda %.17g HubbleParam %.17g NumFiles %d "
            "flag_doubleprecision %d\n", path, format, (long long)st.st_size, tz[0], tz[1],
            cosmo[0], cosmo[1], cosmo[2], cosmo[3], ints[1], dbl);
    for (int t = 0; t < 6; t++)
        if (npart[t] || total[t] || high[t])
            fprintf(out, "  type %d: %d in this file, %llu in all, mass %.17g%s\n", t, npart[t],
                    (unsigned long long)total[t] + ((unsigned long long)high[t] << 32), mass[t],
                    mass[t] == 0 ? " (a MASS block)" : "");
    fseek(f, format == IO_GADGET_FORMAT2 ? 16 : 0, SEEK_SET);
    fseek(f, 264, SEEK_CUR);
    const int bad = info_records(f, out, format, (long)st.st_size);
    fclose(f);
    if (bad)
        io_setf(err, errlen, "%s: a record's markers do not frame it: a truncated or corrupt "
                "Gadget file", path);
    return bad;
}

/* ------------------------------------------------------------ glass */

int io_gadget_sniff(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    unsigned char b[8];
    size_t got = fread(b, 1, sizeof b, f);
    fclose(f);
    uint32_t m;
    if (got < 8)
        return 0;
    memcpy(&m, b, 4);
    if (m == 256)
        return IO_GADGET_FORMAT1;
    if (m == 8 && memcmp(b + 4, "HEAD", 4) == 0)
        return IO_GADGET_FORMAT2;
    if (m == 0x00010000u || (m == 0x08000000u && memcmp(b + 4, "HEAD", 4) == 0))
        return -1; /* the other byte order */
    return 0;
}

/* Format 2: skips labelled records until `label` and leaves the file at
 * its record's marker; the size of every skipped record is checked
 * against the file's. 0, or -1 with err set. */
static int find_label(FILE *f, const char *path, const char *label, long size, char *err,
                      size_t errlen)
{
    for (int guard = 0; guard < 64; guard++) {
        uint32_t m1, next, m2;
        char lab[4];
        if (read_exact(f, &m1, 4) || read_exact(f, lab, 4) || read_exact(f, &next, 4) ||
            read_exact(f, &m2, 4) || m1 != 8 || m2 != 8) {
            io_setf(err, errlen, "%s: a Gadget format-2 file without a %s block (or truncated)",
                    path, label);
            return -1;
        }
        if (memcmp(lab, label, 4) == 0)
            return 0;
        long here = ftell(f);
        if (next < 8 || here < 0 || (long)next > size - here || fseek(f, (long)next, SEEK_CUR)) {
            io_setf(err, errlen, "%s: block %.4s says %u bytes follow, beyond the file's end",
                    path, lab, next);
            return -1;
        }
    }
    io_setf(err, errlen, "%s: no %s block among the first 64 blocks", path, label);
    return -1;
}

/* The header record: the particles of the file and BoxSize, checked. */
static int glass_header(FILE *f, const char *path, int format, long size, int64_t *n,
                        double *box, char *err, size_t errlen)
{
    uint32_t m1, m2;
    unsigned char hb[256];
    if ((format == IO_GADGET_FORMAT2 && find_label(f, path, "HEAD", size, err, errlen)) ||
        read_exact(f, &m1, 4) || m1 != 256 || read_exact(f, hb, 256) || read_exact(f, &m2, 4) ||
        m2 != 256) {
        io_setf(err, errlen, "%s: not a Gadget file (its header record is not 256 bytes framed "
                "by markers 256, or the file ends inside it)", path);
        return -1;
    }
    int32_t npart[6], num_files;
    uint32_t total[6], high[6];
    memcpy(npart, hb, 24);
    memcpy(total, hb + 96, 24);
    memcpy(&num_files, hb + 124, 4);
    memcpy(box, hb + 128, 8);
    memcpy(high, hb + 168, 24);
    *n = 0;
    for (int t = 0; t < 6; t++) {
        if (npart[t] < 0 || (uint32_t)npart[t] != total[t] || high[t] != 0) {
            io_setf(err, errlen, "%s: type %d has %d particles in this file but %u (high word "
                    "%u) in all: a glass must be one file (NumFiles %d)", path, t, npart[t],
                    total[t], high[t], num_files);
            return -1;
        }
        *n += npart[t];
    }
    if (*n < 1 || !(isfinite(*box) && *box > 0)) {
        io_setf(err, errlen, "%s: a Gadget glass needs particles and a positive BoxSize (got "
                "%lld particles, BoxSize %g)", path, (long long)*n, *box);
        return -1;
    }
    return 0;
}

/* The POS record of n particles: float32 or float64 told by its length,
 * checked against the file before anything is allocated. */
static int glass_positions(FILE *f, const char *path, int format, long size, int64_t n,
                           double **xyz, char *err, size_t errlen)
{
    uint32_t m1, m2;
    if (format == IO_GADGET_FORMAT2 && find_label(f, path, "POS ", size, err, errlen))
        return -1;
    long here = ftell(f);
    if (read_exact(f, &m1, 4) || here < 0) {
        io_setf(err, errlen, "%s: the file ends before the POS block", path);
        return -1;
    }
    const double n3 = 3.0 * (double)n;
    size_t es = (double)m1 == 12.0 * (double)n ? 4 : (double)m1 == 24.0 * (double)n ? 8 : 0;
    if (es == 0 || (double)m1 + 8 > (double)(size - here)) {
        io_setf(err, errlen, "%s: the POS block holds %u bytes%s; %lld particles need %.0f "
                "(float32) or %.0f (float64)", path, m1, es ? ", beyond the file's end" : "",
                (long long)n, 4 * n3, 8 * n3);
        return -1;
    }
    char what[64];
    snprintf(what, sizeof what, "%lld glass points", (long long)n);
    if (tbrf_io_budget_check(path, what, 24.0 * (double)n + (double)m1, err, errlen))
        return -1;
    unsigned char *raw = malloc(m1);
    double *out = malloc((size_t)n * 3 * sizeof *out);
    int rc = raw && out ? 0 : -1;
    if (rc)
        io_setf(err, errlen, "%s: out of memory for %lld points", path, (long long)n);
    else if (read_exact(f, raw, m1) || read_exact(f, &m2, 4) || m2 != m1) {
        io_setf(err, errlen, "%s: the POS block's closing marker does not match its opening "
                "one (%u): a truncated or corrupt file", path, m1);
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < (size_t)n * 3; i++) {
        float fv;
        if (es == 4)
            memcpy(&fv, raw + 4 * i, 4);
        else
            memcpy(&out[i], raw + 8 * i, 8);
        if (es == 4)
            out[i] = fv;
        if (!isfinite(out[i])) {
            io_setf(err, errlen, "%s: glass particle %zu has a coordinate that is not finite",
                    path, i / 3);
            rc = -1;
        }
    }
    free(raw);
    if (rc)
        free(out);
    else
        *xyz = out;
    return rc;
}

int io_gadget_read_glass(const char *path, int64_t *n, double **xyz, double *box, char *err,
                         size_t errlen)
{
    *n = 0;
    *xyz = NULL;
    int format = io_gadget_sniff(path);
    if (format < 0) {
        io_setf(err, errlen, "%s: a Gadget file of the other byte order (big-endian): convert it "
                "first", path);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        io_setf(err, errlen, "cannot read glass file %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    long size = (long)st.st_size;
    int64_t np = 0;
    int rc = glass_header(f, path, format, size, &np, box, err, errlen);
    if (rc == 0)
        rc = glass_positions(f, path, format, size, np, xyz, err, errlen);
    fclose(f);
    /* a coordinate exactly at BoxSize is the periodic image of 0 */
    for (int64_t i = 0; rc == 0 && i < 3 * np; i++)
        if ((*xyz)[i] == *box)
            (*xyz)[i] = 0.0;
    if (rc == 0)
        *n = np;
    return rc;
}
