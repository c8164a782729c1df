/* test_gadget_io.c — Gadget binary initial conditions (doc/arepo.md,
 * "Gadget binary files") read back by a parser of this test's own,
 * independent of the writer (io/gadget.c): record markers, the
 * 256-byte header at Gadget-2's offsets, the blocks POS VEL ID [MASS] [U]
 * (format 2: each behind its labelled record), and nothing after them.
 * Every value is compared with the HDF5 file of the same initial
 * condition (float64) rounded to float32; the header with its Header.
 * Then N-GenIC's format-1 glass files through tbrf_arepo_read_glass
 * (the --glass reader): a good one, every truncation of it, and
 * inconsistent ones, refused without allocating what they claim. */
#define _POSIX_C_SOURCE 200809L

#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tbrf.h"
#include "tbrf_arepo.h"

static int failures = 0;
#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); \
            failures++;                                                       \
        }                                                                     \
    } while (0)

/* ------------------------------------------------ the independent reader */

typedef struct gfile {
    unsigned char *b;
    size_t n, at;
    int bad;
} gfile;

static uint32_t u32(gfile *g)
{
    uint32_t v = 0;
    if (g->at + 4 > g->n) {
        g->bad = 1;
        return 0;
    }
    memcpy(&v, g->b + g->at, 4);
    g->at += 4;
    return v;
}

/* A record of `bytes` bytes (format 2: behind the label record `label`):
 * its payload's offset, or (size_t)-1 when the framing is wrong. */
static size_t record(gfile *g, int format, const char *label, uint32_t bytes)
{
    if (format == 2) {
        char lab[5] = {0};
        CHECK(u32(g) == 8);
        if (g->at + 4 <= g->n)
            memcpy(lab, g->b + g->at, 4);
        g->at += 4;
        CHECK(strncmp(lab, label, 4) == 0);
        CHECK(u32(g) == bytes + 8);
        CHECK(u32(g) == 8);
    }
    uint32_t m = u32(g);
    CHECK(m == bytes);
    size_t off = g->at;
    g->at += bytes;
    uint32_t m2 = u32(g);
    CHECK(m2 == bytes);
    if (g->bad || m != bytes || m2 != bytes)
        return (size_t)-1;
    return off;
}

typedef struct hdr {
    int32_t npart[6], num_files, dbl;
    uint32_t total[6], high[6];
    double mass[6], time, z, box, om, ol, h;
} hdr;

static void parse_header(const unsigned char *p, hdr *h)
{
    memcpy(h->npart, p, 24);
    memcpy(h->mass, p + 24, 48);
    memcpy(&h->time, p + 72, 8);
    memcpy(&h->z, p + 80, 8);
    memcpy(h->total, p + 96, 24);
    memcpy(&h->num_files, p + 124, 4);
    memcpy(&h->box, p + 128, 8);
    memcpy(&h->om, p + 136, 8);
    memcpy(&h->ol, p + 144, 8);
    memcpy(&h->h, p + 152, 8);
    memcpy(h->high, p + 168, 24);
    memcpy(&h->dbl, p + 196, 4);
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(len > 0 ? (size_t)len : 1);
    if (b && fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* An HDF5 dataset read as doubles (or IDs as uint64). */
static void *h5read(hid_t f, const char *name, hid_t mtype, size_t esize, size_t *count)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    if (d < 0)
        return NULL;
    hid_t sp = H5Dget_space(d);
    hssize_t n = H5Sget_simple_extent_npoints(sp);
    void *v = malloc((size_t)n * esize);
    H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    H5Sclose(sp);
    H5Dclose(d);
    *count = (size_t)n;
    return v;
}

/* The whole type t of the HDF5 file h5: positions, velocities, IDs, u. */
typedef struct h5type {
    double *pos, *vel, *u, *mass;
    uint64_t *id;
    size_t n;
} h5type;

static void h5type_read(hid_t f, int t, h5type *o)
{
    char name[64];
    size_t k = 0;
    memset(o, 0, sizeof *o);
    snprintf(name, sizeof name, "PartType%d/Coordinates", t);
    if (H5Lexists(f, t ? "PartType1" : "PartType0", H5P_DEFAULT) <= 0)
        return;
    o->pos = h5read(f, name, H5T_NATIVE_DOUBLE, 8, &k);
    o->n = k / 3;
    snprintf(name, sizeof name, "PartType%d/Velocities", t);
    o->vel = h5read(f, name, H5T_NATIVE_DOUBLE, 8, &k);
    snprintf(name, sizeof name, "PartType%d/ParticleIDs", t);
    o->id = h5read(f, name, H5T_NATIVE_UINT64, 8, &k);
    if (t == 0) {
        snprintf(name, sizeof name, "PartType0/InternalEnergy");
        o->u = h5read(f, name, H5T_NATIVE_DOUBLE, 8, &k);
        snprintf(name, sizeof name, "PartType0/Masses");
        if (H5Lexists(f, name, H5P_DEFAULT) > 0)
            o->mass = h5read(f, name, H5T_NATIVE_DOUBLE, 8, &k);
    }
}

static void h5type_free(h5type *o)
{
    free(o->pos);
    free(o->vel);
    free(o->u);
    free(o->mass);
    free(o->id);
}

/* Header attribute `name` of an HDF5 file as doubles. */
static void header_attr(hid_t f, const char *name, double *v)
{
    hid_t a = H5Aopen_by_name(f, "Header", name, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(a >= 0 && H5Aread(a, H5T_NATIVE_DOUBLE, v) >= 0);
    if (a >= 0)
        H5Aclose(a);
}

/* Value i of a float32 or float64 block at b. */
static double fval(const unsigned char *b, size_t i, int dbl)
{
    if (dbl) {
        double d;
        memcpy(&d, b + 8 * i, 8);
        return d;
    }
    float f;
    memcpy(&f, b + 4 * i, 4);
    return f;
}

/* What the file should hold: x as float32 (wrapped into the box) or x. */
static double stored(double x, int dbl, double box)
{
    if (dbl)
        return x;
    float f = (float)x;
    if (box > 0 && (double)f >= box)
        f = (float)((double)f - box);
    return f;
}

/* Compares member `path` (file f of nf) with rows [first[t], ..) of the
 * HDF5 types and their Header; advances first[]. */
static void check_member(const char *path, int format, int nf, hid_t h5,
                         const h5type *ty, int64_t first[2], int dbl, int long_ids)
{
    gfile g = {0};
    g.b = slurp(path, &g.n);
    CHECK(g.b != NULL);
    if (!g.b)
        return;
    size_t off = record(&g, format, "HEAD", 256);
    CHECK(off != (size_t)-1);
    if (off == (size_t)-1) {
        free(g.b);
        return;
    }
    hdr h;
    parse_header(g.b + off, &h);
    double mt[6], box = 0, time = 0, z = 0;
    header_attr(h5, "MassTable", mt);
    header_attr(h5, "BoxSize", &box);
    header_attr(h5, "Time", &time);
    header_attr(h5, "Redshift", &z);
    CHECK(h.num_files == nf && h.box == box && h.time == time && h.z == z && h.dbl == dbl);
    for (int t = 0; t < 6; t++) {
        size_t want = t < 2 ? ty[t].n : 0;
        CHECK(h.mass[t] == mt[t] && h.total[t] == (uint32_t)want && h.high[t] == 0);
    }
    const int es = dbl ? 8 : 4, is = long_ids ? 8 : 4;
    const size_t n0 = (size_t)h.npart[0], n1 = (size_t)h.npart[1], n = n0 + n1;
    const int has_mass = n0 > 0 && h.mass[0] == 0;
    size_t pos = record(&g, format, "POS ", (uint32_t)(3 * n * es));
    size_t vel = record(&g, format, "VEL ", (uint32_t)(3 * n * es));
    size_t ids = record(&g, format, "ID  ", (uint32_t)(n * is));
    size_t mass = has_mass ? record(&g, format, "MASS", (uint32_t)(n0 * es)) : 0;
    size_t u = n0 ? record(&g, format, "U   ", (uint32_t)(n0 * es)) : 0;
    CHECK(g.at == g.n && !g.bad); /* nothing after the last block */
    if (g.bad || pos == (size_t)-1 || vel == (size_t)-1 || ids == (size_t)-1 ||
        mass == (size_t)-1 || u == (size_t)-1) {
        free(g.b);
        return;
    }
    size_t row = 0, bad = 0;
    for (int t = 0; t < 2; t++) {
        size_t m = t ? n1 : n0;
        for (size_t i = 0; i < m; i++, row++) {
            size_t r = (size_t)first[t] + i;
            for (int c = 0; c < 3; c++) {
                bad += fval(g.b + pos, 3 * row + c, dbl) != stored(ty[t].pos[3 * r + c], dbl, box);
                bad += fval(g.b + vel, 3 * row + c, dbl) != stored(ty[t].vel[3 * r + c], dbl, 0);
            }
            uint64_t id = 0;
            memcpy(&id, g.b + ids + is * row, (size_t)is);
            bad += id != ty[t].id[r];
            if (t == 0 && has_mass)
                bad += fval(g.b + mass, i, dbl) != stored(ty[0].mass[r], dbl, 0);
            if (t == 0)
                bad += fval(g.b + u, i, dbl) != stored(ty[0].u[r], dbl, 0);
        }
        first[t] += (int64_t)m;
    }
    CHECK(bad == 0);
    free(g.b);
}

/* A Gadget set (base, nf files) against the HDF5 file h5path. */
static void check_set(const char *base, int format, int nf, const char *h5path, int dbl,
                      int long_ids)
{
    hid_t h5 = H5Fopen(h5path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(h5 >= 0);
    h5type ty[2];
    h5type_read(h5, 0, &ty[0]);
    h5type_read(h5, 1, &ty[1]);
    int64_t first[2] = {0, 0};
    for (int f = 0; f < nf; f++) {
        char path[600];
        if (nf == 1)
            snprintf(path, sizeof path, "%s", base);
        else
            snprintf(path, sizeof path, "%s.%d", base, f);
        check_member(path, format, nf, h5, ty, first, dbl, long_ids);
    }
    CHECK(first[0] == (int64_t)ty[0].n && first[1] == (int64_t)ty[1].n);
    /* the side file records the set and the command's parameters */
    char side[600], err[512];
    snprintf(side, sizeof side, "%s.tbrf.h5", base);
    CHECK(tbrf_arepo_file_format(side) == format);
    CHECK(tbrf_arepo_check_set(side, err, sizeof err) == 0);
    h5type_free(&ty[0]);
    h5type_free(&ty[1]);
    H5Fclose(h5);
}

/* ------------------------------------------------ the writers' side */

static tbrf_ic_cosmo *make_ic(int gas)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.box = 20000;
    p.particles = 8;
    p.redshift = 63;
    p.omega_m = 0.3;
    p.omega_lambda = 0.7;
    p.omega_b = 0.045;
    p.hubble = 0.7;
    p.sigma8 = 0.8;
    p.gas = gas;
    p.seed = 7;
    tbrf_ic_cosmo *ic = NULL;
    CHECK(tbrf_ic_cosmo_make(&p, &ic) == TBRF_OK);
    return ic;
}

static void write_ic(tbrf_ic_cosmo *ic, const char *base, int format, int nf, int dbl)
{
    tbrf_arepo_cosmo_file file;
    tbrf_arepo_default_cosmo_file(&file);
    file.format = format;
    file.num_files = nf;
    file.double_precision = dbl;
    char err[1024];
    int rc = tbrf_arepo_write_cosmo(base, ic, &file, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s: %s\n", base, err);
    CHECK(rc == 0);
}

static void test_cosmo(const char *dir)
{
    char h5[512], base[512];
    for (int gas = 0; gas < 2; gas++) {
        tbrf_ic_cosmo *ic = make_ic(gas);
        snprintf(h5, sizeof h5, "%s/ref%d", dir, gas);
        write_ic(ic, h5, TBRF_AREPO_FORMAT_HDF5, 1, 1);
        snprintf(h5, sizeof h5, "%s/ref%d.hdf5", dir, gas);
        const int cases[][3] = {{1, 1, 0}, {2, 1, 0}, {1, 3, 0}, {2, 3, 0}, {1, 2, 1}};
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            snprintf(base, sizeof base, "%s/g%d_%zu", dir, gas, c);
            write_ic(ic, base, cases[c][0], cases[c][1], cases[c][2]);
            check_set(base, cases[c][0], cases[c][1], h5, cases[c][2], 0);
        }
        tbrf_ic_cosmo_destroy(ic);
    }
}

/* Per-particle masses (a MASS block holding the gas only) and uint64
 * IDs, through tbrf_arepo_write_format, against tbrf_arepo_write. */
static void test_masses(const char *dir)
{
    enum { N = 27 };
    double pos[3 * N], vel[3 * N], mass[N], u[N];
    for (int i = 0; i < N; i++) {
        for (int c = 0; c < 3; c++) {
            pos[3 * i + c] = fmod(0.37 * i + 0.11 * c + 0.05, 1.0);
            vel[3 * i + c] = sin(i + c);
        }
        mass[i] = 1.0 + 0.01 * i;
        u[i] = 2.0 + i;
    }
    pos[4] = nextafter(1.0, 0.0); /* rounds to BoxSize as a float32: wraps to 0 */
    tbrf_arepo_header h;
    tbrf_arepo_header_init(&h);
    h.long_ids = 1;
    h.mass_table[1] = 0.5;
    tbrf_arepo_particles t[6];
    memset(t, 0, sizeof t);
    t[0] = (tbrf_arepo_particles){N, pos, vel, mass, u, (uint64_t)1 << 33};
    t[1] = (tbrf_arepo_particles){N, pos, vel, NULL, NULL, 1};
    char base[512], h5[512], err[1024];
    snprintf(base, sizeof base, "%s/mass_ref", dir);
    CHECK(tbrf_arepo_write(base, &h, t, NULL, 0, err, sizeof err) == 0);
    snprintf(h5, sizeof h5, "%s/mass_ref.hdf5", dir);
    for (int format = 1; format <= 2; format++) {
        h.double_precision = format == 1;
        snprintf(base, sizeof base, "%s/mass_g%d", dir, format);
        int rc = tbrf_arepo_write_format(base, &h, t, NULL, 0, format, err, sizeof err);
        if (rc)
            fprintf(stderr, "%s\n", err);
        CHECK(rc == 0);
        check_set(base, format, 1, h5, h.double_precision, 1);
    }
    /* a stale set member: AREPO and Gadget would read BASE.0 instead */
    snprintf(base, sizeof base, "%s/mass_g1.0", dir);
    FILE *f = fopen(base, "w");
    if (f)
        fclose(f);
    snprintf(base, sizeof base, "%s/mass_g1", dir);
    CHECK(tbrf_arepo_write_format(base, &h, t, NULL, 0, 1, err, sizeof err) == -1 &&
          strstr(err, "mass_g1.0") != NULL);
}

/* ------------------------------------------------ glass files */

/* A format-1 (or 2) glass of n float32 points in box. */
static size_t glass_bytes(unsigned char *b, int format, int n, double box, const float *xyz)
{
    size_t at = 0;
    unsigned char hb[256] = {0};
    int32_t np[6] = {0, n, 0, 0, 0, 0};
    uint32_t tot[6] = {0, (uint32_t)n, 0, 0, 0, 0};
    int32_t one = 1;
    memcpy(hb, np, 24);
    memcpy(hb + 96, tot, 24);
    memcpy(hb + 124, &one, 4);
    memcpy(hb + 128, &box, 8);
    uint32_t m;
#define PUT(p, k) (memcpy(b + at, (p), (k)), at += (k))
#define LABEL(s, len)                                       \
    do {                                                    \
        if (format == 2) {                                  \
            m = 8;                                          \
            PUT(&m, 4);                                     \
            PUT(s, 4);                                      \
            m = (uint32_t)(len) + 8;                        \
            PUT(&m, 4);                                     \
            m = 8;                                          \
            PUT(&m, 4);                                     \
        }                                                   \
    } while (0)
    LABEL("HEAD", 256);
    m = 256;
    PUT(&m, 4);
    PUT(hb, 256);
    PUT(&m, 4);
    LABEL("POS ", 12 * n);
    m = (uint32_t)(12 * n);
    PUT(&m, 4);
    PUT(xyz, (size_t)(12 * n));
    PUT(&m, 4);
    return at;
#undef PUT
#undef LABEL
}

static int write_bytes(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(b, 1, n, f);
    fclose(f);
    return w == n ? 0 : -1;
}

static void test_glass(const char *dir)
{
    const float xyz[12] = {0, 0, 0, 500, 500, 500, 250, 750, 250, 1000, 999, 1};
    unsigned char b[2048], c[2048];
    char path[512], err[1024];
    snprintf(path, sizeof path, "%s/glass.dat", dir);
    for (int format = 1; format <= 2; format++) {
        size_t n = glass_bytes(b, format, 4, 1000.0, xyz);
        CHECK(write_bytes(path, b, n) == 0);
        int64_t np = 0;
        double *g = NULL, box = 0;
        CHECK(tbrf_arepo_read_glass(path, &np, &g, &box, err, sizeof err) == 0);
        CHECK(np == 4 && box == 1000.0 && g && g[4] == 500.0 && g[9] == 0.0 && g[10] == 999.0);
        free(g);
        /* every truncation refused (short ones are no Gadget file: the
         * caller reads them as text) */
        for (size_t k = 0; k < n; k++) {
            CHECK(write_bytes(path, b, k) == 0);
            g = NULL;
            int rc = tbrf_arepo_read_glass(path, &np, &g, &box, err, sizeof err);
            CHECK(rc != 0 && g == NULL);
            CHECK(k < 8 || rc == -1);
        }
        /* inconsistent: the closing marker, the count, the box, a huge
         * claimed count with a small file (refused before allocation) */
        const struct {
            size_t off;
            uint32_t v;
        } bad[] = {{n - 4, 47}, {(format == 2 ? 16 : 0) + 4 + 4, 5},
                   {(format == 2 ? 16 : 0) + 4 + 4, 0x7fffffff},
                   {(format == 2 ? 16 : 0) + 4 + 100, 9}};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            memcpy(c, b, n);
            memcpy(c + bad[i].off, &bad[i].v, 4);
            CHECK(write_bytes(path, c, n) == 0);
            g = NULL;
            CHECK(tbrf_arepo_read_glass(path, &np, &g, &box, err, sizeof err) == -1 && !g);
        }
        /* a count of 2^31 - 1 in both words, in a file of 4 points */
        const uint32_t huge = 0x7fffffff;
        const size_t hd = (format == 2 ? 16 : 0) + 4;
        memcpy(c, b, n);
        memcpy(c + hd + 4, &huge, 4);
        memcpy(c + hd + 100, &huge, 4);
        CHECK(write_bytes(path, c, n) == 0);
        CHECK(tbrf_arepo_read_glass(path, &np, &g, &box, err, sizeof err) == -1 &&
              strstr(err, "POS block") != NULL);
        memcpy(c, b, n);
        double nbox = -1;
        memcpy(c + (format == 2 ? 16 : 0) + 4 + 128, &nbox, 8);
        CHECK(write_bytes(path, c, n) == 0);
        CHECK(tbrf_arepo_read_glass(path, &np, &g, &box, err, sizeof err) == -1 &&
              strstr(err, "BoxSize") != NULL);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "test_gadget_io_dir";
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    if (system(cmd) != 0)
        return 1;
    test_cosmo(dir);
    test_masses(dir);
    test_glass(dir);
    if (failures)
        fprintf(stderr, "test_gadget_io: %d failures\n", failures);
    else
        printf("test_gadget_io: ok\n");
    return failures ? 1 : 0;
}
