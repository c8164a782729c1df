/* ic_mpi.c — a cosmological initial condition over the ranks of a
 * communicator (tbrf_mpi_ic_split, tbrf_ic_cosmo_generate_mpi of
 * tbrf_mpi.h): each rank holds the z slab of the lattice that the
 * distributed FFT engine gives it (fft_mpi.h; the modes are the serial
 * plan's, tbrf_fft_modes, each a function of seed and wavevector alone)
 * and turns its Psi1 (with 2LPT its D2 Psi2, with 3LPT its Psi3 too) into
 * its particles with libtbrf's own code (tbrf_ic_cosmo_push_rows3), so
 * only the transforms' transposes and, for 2LPT and 3LPT, the k planes
 * between the G and padded splits are communicated.
 *
 * What a rank holds at most (tbrf_ic_cosmo_slab_bytes counts it; S a
 * half-complex slab of its G planes, P one of its padded planes, V the
 * G planes landing on those): lpt 1, S beside its cells' Psi1; lpt 2,
 * two P beside S and V (the source); lpt 3, twelve P beside S (phi2) and
 * V (the Hessians of phi1 and phi2), then the five sources' S; the higher
 * orders' cells (24 bytes a particle each) are kept beside the first
 * order's working set. */
#include <stdlib.h>
#include <string.h>

#include <fftw3-mpi.h>

#include "../apps/ic/cosmo_lpt3_point.h"
#include "fft_mpi.h"
#include "tbrf_mpi.h"

/* Part k of `parts` near-equal parts of n: [n k / parts, n (k + 1) / parts)
 * without overflow (parts <= 2^16), tbrf_arepo_file_rows's split. */
static int64_t cut(int64_t n, int64_t k, int64_t parts)
{
    return (n / parts) * k + (n % parts) * k / parts;
}

/* Rank r's planes of G under FFTW-MPI's block split of the G^3 grid's
 * half-complex array (fft_mpi.c makes the same call). */
static void planes_of(MPI_Comm comm, int64_t g, int64_t *z0, int64_t *nz)
{
    ptrdiff_t local_n0 = 0, local_0_start = 0;
    fftw_mpi_init();
    fftw_mpi_local_size_3d((ptrdiff_t)g, (ptrdiff_t)g, (ptrdiff_t)(g / 2 + 1), comm, &local_n0,
                           &local_0_start);
    *z0 = local_0_start;
    *nz = local_n0;
}

int tbrf_mpi_ic_split(MPI_Comm comm, int64_t particles, int files, int64_t *z0, int64_t *planes,
                      int *member0, int *members, int64_t *bounds)
{
    if (!z0 || !planes || !member0 || !members || !bounds)
        return TBRF_ERR_NULL;
    int rank, size;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return TBRF_ERR_INVALID;
    if (particles < 2 || particles > 65536 || files < 1 || files > 65536)
        return TBRF_ERR_SIZE;
    planes_of(comm, particles, z0, planes);
    /* every rank's planes: the ranks with planes are the first ones */
    int64_t mine[2] = {*z0, *planes}, *all = malloc(2 * sizeof(int64_t) * (size_t)size);
    if (!all)
        return TBRF_ERR_NO_MEMORY;
    if (MPI_Allgather(mine, 2, MPI_INT64_T, all, 2, MPI_INT64_T, comm) != MPI_SUCCESS) {
        free(all);
        return TBRF_ERR_INVALID;
    }
    int used = 0;
    while (used < size && all[2 * used + 1] > 0)
        used++;
    int st = files < used ? TBRF_ERR_INVALID : TBRF_OK;
    const int64_t g2 = particles * particles;
    for (int r = 0, f = 0; st == TBRF_OK && r < used; r++) {
        const int take = files / used + (r < files % used);
        const int64_t first = all[2 * r] * g2, rows = all[2 * r + 1] * g2;
        if (r == rank) {
            *member0 = f;
            *members = take;
        }
        for (int k = 0; k < take; k++)
            bounds[f + k] = first + cut(rows, k, take);
        f += take;
    }
    if (st == TBRF_OK && rank >= used) {
        *member0 = files;
        *members = 0;
    }
    bounds[files] = particles * g2;
    free(all);
    return st;
}

/* The three components' modes of this rank's rows (modes[c], rows x nh
 * complex each), made the fixed-amplitude field's (tbrf_ic_cosmo_fixed_modes). */
static int fixed_modes(MPI_Comm comm, tbrf_ic_cosmo *ic, tbrf_plan *plan, const int64_t n[3],
                       const tbrfi_dfft *f, double *modes[3])
{
    const int64_t rows = f->nz_local * f->rows_per_plane, first = f->z0 * f->rows_per_plane;
    const size_t bytes = sizeof(fftw_complex) * (size_t)(rows * f->nh);
    int st = TBRF_OK;
    for (int c = 0; c < 3 && st == TBRF_OK; c++)
        st = (modes[c] = fftw_malloc(bytes > 0 ? bytes : 1)) ? TBRF_OK : TBRF_ERR_NO_MEMORY;
    for (int c = 0; c < 3 && st == TBRF_OK; c++)
        st = tbrf_fft_modes(plan, n, 0, c, first, rows, modes[c]);
    if (st == TBRF_OK)
        st = tbrf_ic_cosmo_fixed_modes(ic, first, rows, modes[0], modes[1], modes[2]);
    return tbrf_mpi_agree(comm, st);
}

/* The field whose modes the G engine f holds, transformed, into component
 * c of out (3 values a cell, x fastest). */
static void take_component(tbrfi_dfft *f, int c, double *out)
{
    const int64_t g = f->nx, nh = f->nh, rows = f->nz_local * f->rows_per_plane;
    tbrfi_dfft_c2r(f);
    const double *re = (const double *)f->C;
    for (int64_t row = 0; row < rows; row++)
        for (int64_t i = 0; i < g; i++)
            out[3 * (row * g + i) + c] = re[row * 2 * nh + i];
}

/* Psi1 of this rank's planes (3 values a cell, x fastest) into *psi
 * (NULL for a rank without planes): each component's modes of its k slab
 * (tbrf_fft_modes: the serial plan's; with fixed amplitudes all three
 * first, then fixed), the engine's transform, the padded rows taken out;
 * the slab is freed before the particles are made, so a rank holds it
 * beside Psi1 only while it transforms. */
static int slab_psi(MPI_Comm comm, tbrf_ic_cosmo *ic, tbrf_plan *plan, int64_t g, int fixed,
                    double **psi)
{
    const int64_t n[3] = {g, g, g};
    tbrfi_dfft f;
    double *modes[3] = {NULL, NULL, NULL};
    *psi = NULL;
    int st = tbrf_mpi_agree(comm, tbrfi_dfft_make(&f, comm, 3, n) ? TBRF_ERR_NO_MEMORY : TBRF_OK);
    const int64_t rows = f.nz_local * f.rows_per_plane;
    if (st == TBRF_OK && rows > 0 && !(*psi = malloc(sizeof(double) * 3 * (size_t)(rows * g))))
        st = TBRF_ERR_NO_MEMORY;
    st = tbrf_mpi_agree(comm, st);
    if (st == TBRF_OK && fixed)
        st = fixed_modes(comm, ic, plan, n, &f, modes);
    for (int c = 0; c < 3 && st == TBRF_OK; c++) {
        if (fixed)
            memcpy(f.C, modes[c], sizeof(fftw_complex) * (size_t)(rows * f.nh));
        else
            st = tbrf_mpi_agree(comm, tbrf_fft_modes(plan, n, 0, c, f.z0 * f.rows_per_plane,
                                                     rows, (double *)f.C));
        if (st != TBRF_OK)
            break;
        take_component(&f, c, *psi);
    }
    for (int c = 0; c < 3; c++)
        fftw_free(modes[c]);
    tbrfi_dfft_free(&f);
    if (st != TBRF_OK) {
        free(*psi);
        *psi = NULL;
    }
    return st;
}

/* ---------------------------------------------------------------- 2LPT
 * The second order over the ranks, as cosmo_lpt.c makes it serially
 * (doc/ic.md): the potential phi of Psi1 on this rank's k slab of the G^3
 * modes, its second derivatives on the grid padded to M = floor((3G +
 * 1)/2) a side (Orszag's 3/2 rule), the source delta2 = sum_{i>j}
 * [phi,ii phi,jj - phi,ij^2] formed there in real space, transformed back
 * and kept on the G^3 modes, and D2 Psi2 = grad phi2 on this rank's
 * planes. The padded grid has its own FFTW-MPI slab split (the engine of
 * fft_mpi.h, planned for M), so the modes move between the two splits
 * (MPI_Alltoallv of whole k planes). */

static int64_t idx_m(int64_t i, int64_t n)
{
    return i <= n / 2 ? i : i - n;
}

static int nyquist(int64_t m, int64_t n)
{
    return n % 2 == 0 && (m == n / 2 || m == -n / 2);
}

/* The padded grid of the products (cosmo_lpt.c's). */
static int64_t padded(int64_t g)
{
    return (3 * g + 1) / 2;
}

/* The padded plane that k plane iz of the G grid lands on: the same
 * signed wavenumber, so the map rises with iz and each rank's block of G
 * planes goes to consecutive ranks of the M split, in order. */
static int64_t to_padded(int64_t iz, int64_t g, int64_t m)
{
    return (idx_m(iz, g) + m) % m;
}

/* The two splits of the k planes: every rank's block of G planes and of M
 * planes (z0, nz pairs, as FFTW-MPI gives them). */
typedef struct lpt_split {
    int size;
    int64_t g, m, *gz, *mz; /* 2 size each */
} lpt_split;

static int make_split(MPI_Comm comm, const tbrfi_dfft *gf, const tbrfi_dfft *mf, lpt_split *s)
{
    MPI_Comm_size(comm, &s->size);
    s->g = gf->nx;
    s->m = mf->nx;
    s->gz = malloc(4 * sizeof(int64_t) * (size_t)s->size);
    s->mz = s->gz ? s->gz + 2 * s->size : NULL;
    int ok = s->gz != NULL;
    if (ok) {
        const int64_t mine[2] = {gf->z0, gf->nz_local}, minm[2] = {mf->z0, mf->nz_local};
        ok = MPI_Allgather(mine, 2, MPI_INT64_T, s->gz, 2, MPI_INT64_T, comm) == MPI_SUCCESS &&
             MPI_Allgather(minm, 2, MPI_INT64_T, s->mz, 2, MPI_INT64_T, comm) == MPI_SUCCESS;
    }
    return tbrf_mpi_agree(comm, ok ? TBRF_OK : TBRF_ERR_NO_MEMORY);
}

/* G planes of rank a's G block whose padded plane is in rank b's M block. */
static int crossing(const lpt_split *s, int a, int b)
{
    int n = 0;
    for (int64_t iz = s->gz[2 * a]; iz < s->gz[2 * a] + s->gz[2 * a + 1]; iz++) {
        const int64_t pz = to_padded(iz, s->g, s->m);
        n += pz >= s->mz[2 * b] && pz < s->mz[2 * b] + s->mz[2 * b + 1];
    }
    return n;
}

/* Whole G-layout k planes (G rows of G/2 + 1 modes) moved between the
 * splits: forward from each plane's G owner to its padded plane's M
 * owner, else back. Both buffers hold their planes in rising iz, which is
 * the order the ranks send and receive them in. */
static int move_planes(MPI_Comm comm, const lpt_split *s, int forward, const double *from,
                       double *to)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    int *cnt = malloc(4 * sizeof(int) * (size_t)s->size);
    /* a plane as G rows of G/2 + 1 complex: no count beyond 2^31 at G = 65536 */
    MPI_Datatype row, plane;
    int ok = cnt && MPI_Type_contiguous((int)(2 * (s->g / 2 + 1)), MPI_DOUBLE, &row) == MPI_SUCCESS;
    if (ok) {
        ok = MPI_Type_contiguous((int)s->g, row, &plane) == MPI_SUCCESS;
        MPI_Type_free(&row);
        if (ok && !(ok = MPI_Type_commit(&plane) == MPI_SUCCESS))
            MPI_Type_free(&plane);
    }
    /* every rank here before the exchange, or none in it */
    int st = tbrf_mpi_agree(comm, ok ? TBRF_OK : TBRF_ERR_NO_MEMORY);
    if (st == TBRF_OK) {
        int *sc = cnt, *sd = cnt + s->size, *rc = cnt + 2 * s->size, *rd = cnt + 3 * s->size;
        for (int r = 0, at_s = 0, at_r = 0; r < s->size; r++) {
            sc[r] = forward ? crossing(s, rank, r) : crossing(s, r, rank);
            rc[r] = forward ? crossing(s, r, rank) : crossing(s, rank, r);
            sd[r] = at_s;
            rd[r] = at_r;
            at_s += sc[r];
            at_r += rc[r];
        }
        st = MPI_Alltoallv(from, sc, sd, plane, to, rc, rd, plane, comm) == MPI_SUCCESS
                 ? TBRF_OK : TBRF_ERR_INVALID;
    }
    if (ok)
        MPI_Type_free(&plane);
    free(cnt);
    return st;
}

/* phi (rows x nh complex, this rank's G slab) of Psi1's modes: -i m.w /
 * (k_f m^2), zero at m = 0 and on the Nyquist planes (cosmo_lpt.c's
 * potential, with the modes in place of the forward transform of the
 * plan's field; with fixed amplitudes, of the fixed field's modes). */
static int slab_potential(MPI_Comm comm, tbrf_ic_cosmo *ic, tbrf_plan *plan, const int64_t n[3],
                          tbrfi_dfft *f, int fixed, double kf, double *phi)
{
    const int64_t g = n[0], nh = f->nh, rows = f->nz_local * f->rows_per_plane;
    const int64_t first = f->z0 * f->rows_per_plane;
    double *modes[3] = {NULL, NULL, NULL};
    int st = fixed ? fixed_modes(comm, ic, plan, n, f, modes) : TBRF_OK;
    memset(phi, 0, sizeof(fftw_complex) * (size_t)(rows * nh));
    for (int c = 0; c < 3 && st == TBRF_OK; c++) {
        const double *w = fixed ? modes[c] : (const double *)f->C;
        if (!fixed)
            st = tbrf_mpi_agree(comm, tbrf_fft_modes(plan, n, 0, c, first, rows, (double *)f->C));
        for (int64_t r = 0; r < rows && st == TBRF_OK; r++)
            for (int64_t x = 0; x < nh; x++) {
                const int64_t row = first + r, m[3] = {x, idx_m(row % g, g), idx_m(row / g, g)};
                phi[2 * (r * nh + x)] += (double)m[c] * w[2 * (r * nh + x)];
                phi[2 * (r * nh + x) + 1] += (double)m[c] * w[2 * (r * nh + x) + 1];
            }
    }
    for (int c = 0; c < 3; c++)
        fftw_free(modes[c]);
    for (int64_t r = 0; r < rows && st == TBRF_OK; r++)
        for (int64_t x = 0; x < nh; x++) {
            const int64_t row = first + r, m[3] = {x, idx_m(row % g, g), idx_m(row / g, g)};
            const double m2 = (double)(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
            const int zero = m2 == 0 || nyquist(m[0], g) || nyquist(m[1], g) || nyquist(m[2], g);
            double *a = phi + 2 * (r * nh + x);
            const double fac = zero ? 0.0 : 1.0 / (kf * m2), re = a[0];
            a[0] = fac * a[1]; /* -i (re + i im) fac */
            a[1] = -fac * re;
        }
    return st;
}

/* The padded planes of this rank's M block filled with the modes of
 * phi,ij (i < 0: the laplacian), from phim, the G planes iz0 .. that land
 * on them (G layout), and transformed to real space. */
static void padded_derivative(const lpt_split *s, tbrfi_dfft *a, const double *phim, int64_t iz0,
                              int64_t nplanes, int i, int j, double kf)
{
    const int64_t g = s->g, m = s->m, nh = g / 2 + 1, mh = a->nh;
    memset(a->C, 0, sizeof(fftw_complex) * a->alloc);
    for (int64_t p = 0; p < nplanes; p++) {
        const int64_t mz = idx_m(iz0 + p, g), lz = to_padded(iz0 + p, g, m) - a->z0;
        for (int64_t y = 0; y < g; y++) {
            const int64_t my = idx_m(y, g), to = (lz * m + (my + m) % m) * mh;
            const double *from = phim + 2 * ((p * g + y) * nh);
            for (int64_t x = 0; x < nh; x++) {
                const int64_t k[3] = {x, my, mz};
                const double f = i < 0 ? -kf * kf * (double)(k[0] * k[0] + k[1] * k[1] + k[2] * k[2])
                                       : -kf * kf * (double)k[i] * (double)k[j];
                a->C[to + x][0] = f * from[2 * x];
                a->C[to + x][1] = f * from[2 * x + 1];
            }
        }
    }
    tbrfi_dfft_c2r(a);
}

/* delta2 = (1/2) [(lap phi)^2 - sum_ij phi,ij^2] (the serial sum over i > j
 * of phi,ii phi,jj - phi,ij^2, written so that one derivative at a time
 * is held beside the source) on this rank's padded planes, into S in real
 * space, then transformed forward. */
static void padded_source(const lpt_split *s, tbrfi_dfft *a, tbrfi_dfft *S, const double *phim,
                          int64_t iz0, int64_t nplanes, double kf)
{
    static const int term[7][2] = {{-1, -1}, {0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    static const double weight[7] = {0.5, -0.5, -0.5, -0.5, -1.0, -1.0, -1.0};
    const int64_t m = s->m, rows = S->nz_local * m, stride = 2 * S->nh;
    double *sr = (double *)S->C;
    const double *ar = (const double *)a->C;
    for (int t = 0; t < 7; t++) {
        padded_derivative(s, a, phim, iz0, nplanes, term[t][0], term[t][1], kf);
        for (int64_t row = 0; row < rows; row++)
            for (int64_t x = 0; x < m; x++) {
                const int64_t at = row * stride + x;
                const double v = weight[t] * ar[at] * ar[at];
                sr[at] = t == 0 ? v : sr[at] + v;
            }
    }
    tbrfi_dfft_r2c(S);
}

/* The G planes whose padded plane is in this rank's M block: iz0 and
 * their number (consecutive: the map rises with iz). */
static void landing(const lpt_split *s, const tbrfi_dfft *mf, int64_t *iz0, int64_t *nplanes)
{
    *iz0 = 0;
    *nplanes = 0;
    for (int64_t iz = 0; iz < s->g; iz++) {
        const int64_t pz = to_padded(iz, s->g, s->m);
        if (pz >= mf->z0 && pz < mf->z0 + mf->nz_local) {
            if ((*nplanes)++ == 0)
                *iz0 = iz;
        }
    }
}

/* The source's modes of the G planes iz0 .. out of S into buf (G layout). */
static void take_kept(const lpt_split *s, const tbrfi_dfft *S, int64_t iz0, int64_t nplanes,
                      double *buf)
{
    const int64_t g = s->g, m = s->m, nh = g / 2 + 1, mh = S->nh;
    for (int64_t p = 0; p < nplanes; p++) {
        const int64_t lz = to_padded(iz0 + p, g, m) - S->z0;
        for (int64_t y = 0; y < g; y++) {
            const int64_t from = (lz * m + (idx_m(y, g) + m) % m) * mh;
            memcpy(buf + 2 * ((p * g + y) * nh), S->C[from], sizeof(fftw_complex) * (size_t)nh);
        }
    }
}

/* delta2's modes of this rank's G slab (phi, rows x nh complex, in
 * place) from phi's: the padded grid made, phi's planes moved to it, the
 * source formed, its kept modes moved back. */
static int slab_source(MPI_Comm comm, const tbrfi_dfft *gf, int64_t g, double kf, double *phi)
{
    const int64_t m = padded(g), nm[3] = {m, m, m};
    tbrfi_dfft a, S;
    int st = tbrf_mpi_agree(comm, tbrfi_dfft_make(&a, comm, 3, nm) ? TBRF_ERR_NO_MEMORY : TBRF_OK);
    int st2 = tbrf_mpi_agree(comm, tbrfi_dfft_make(&S, comm, 3, nm) ? TBRF_ERR_NO_MEMORY : TBRF_OK);
    if (st2 == TBRF_OK) /* collective: only once every rank has its slab */
        st2 = tbrf_mpi_agree(comm, tbrfi_dfft_plan_r2c(&S, comm) ? TBRF_ERR_FFT : TBRF_OK);
    st = st ? st : st2;
    lpt_split sp = {0};
    if (st == TBRF_OK)
        st = make_split(comm, gf, &a, &sp);
    int64_t iz0 = 0, nplanes = 0;
    double *phim = NULL;
    if (st == TBRF_OK) {
        landing(&sp, &a, &iz0, &nplanes);
        const size_t bytes = sizeof(fftw_complex) * (size_t)(nplanes * g * (g / 2 + 1));
        st = tbrf_mpi_agree(comm, (phim = malloc(bytes > 0 ? bytes : 1)) ? TBRF_OK
                                                                         : TBRF_ERR_NO_MEMORY);
    }
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, move_planes(comm, &sp, 1, phi, phim));
    if (st == TBRF_OK) {
        padded_source(&sp, &a, &S, phim, iz0, nplanes, kf);
        take_kept(&sp, &S, iz0, nplanes, phim);
        st = tbrf_mpi_agree(comm, move_planes(comm, &sp, 0, phim, phi));
    }
    free(phim);
    free(sp.gz);
    tbrfi_dfft_free(&a);
    tbrfi_dfft_free(&S);
    return st;
}

/* The modes of a source on this rank's G slab (phi: the G planes z0 ..
 * z0 + nz - 1 of block b, rows x nh complex, in place) made its potential
 * -scale source_k / (k_f^2 m^2) (Nyquist planes and m = 0 zero): with
 * scale (D2 / D1^2) / M^3, delta2's made phi2 (cosmo_lpt.c's
 * second_potential); with 1 / M^3, a third-order source's made its
 * potential (cosmo_lpt3.c's l3_inverse_laplacian). */
static void inverse_laplacian(const tbrfi_dfft *b, double kf, double scale, double *phi)
{
    const int64_t g = b->nx, nh = g / 2 + 1, rows = b->nz_local * g, first = b->z0 * g;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t x = 0; x < nh; x++) {
            const int64_t row = first + r, my = idx_m(row % g, g), mz = idx_m(row / g, g);
            const double m2 = (double)(x * x + my * my + mz * mz);
            const int zero = m2 == 0 || nyquist(x, g) || nyquist(my, g) || nyquist(mz, g);
            const double fac = zero ? 0.0 : -scale / (kf * kf * m2);
            phi[2 * (r * nh + x)] *= fac;
            phi[2 * (r * nh + x) + 1] *= fac;
        }
}

/* The gradient of phi2 (this rank's G slab of modes), D2 Psi2,
 * transformed by the G engine f component by component into psi2 (3
 * values a cell, x fastest). */
static void gradient2(tbrfi_dfft *f, double kf, const double *phi, double *psi2)
{
    const int64_t g = f->nx, nh = f->nh, rows = f->nz_local * f->rows_per_plane;
    const int64_t first = f->z0 * f->rows_per_plane;
    for (int c = 0; c < 3; c++) {
        for (int64_t r = 0; r < rows; r++)
            for (int64_t x = 0; x < nh; x++) {
                const int64_t row = first + r, m[3] = {x, idx_m(row % g, g), idx_m(row / g, g)};
                const double k = kf * (double)m[c];
                f->C[r * nh + x][0] = -k * phi[2 * (r * nh + x) + 1]; /* i k phi2 */
                f->C[r * nh + x][1] = k * phi[2 * (r * nh + x)];
            }
        take_component(f, c, psi2);
    }
}

/* ---------------------------------------------------------------- 3LPT
 * The third order over the ranks, as cosmo_lpt3.c makes it serially
 * (monofonIC's formulation): from phi1 = phi (D1 in it) and phi2 (D2
 * Psi2's potential) on this rank's k slab, their twelve second
 * derivatives on the padded grid of the 2LPT source (its FFTW-MPI split,
 * the planes moved by MPI_Alltoallv as there), the five real sources
 * det(phi1,ij), the mixed phi1/phi2 term and sum_i grad phi2,i x grad
 * phi1,i formed point by point with the serial arithmetic
 * (cosmo_lpt3_point.h), each transformed back and kept on the G^3 modes,
 * their potentials combined into Psi3's three modes. */

/* The five sources' kept modes (unnormalised: M^3 times) on this rank's
 * G slab into out[0..4] (allocated here, rows x (G/2 + 1) complex each;
 * the caller frees them) from phi1's and phi2's modes there (*phi1 freed,
 * NULL, once moved): both moved to the padded split, the six second
 * derivatives of phi1 and then of phi2 on this rank's padded planes
 * (phi2's last left in the engine), the sources written over phi2's
 * first five, then each transformed forward, its kept modes taken and
 * moved back, its padded slab freed. */
static int slab_sources3(MPI_Comm comm, const tbrfi_dfft *gf, int64_t g, double kf,
                         double **phi1, const double *phi2, double *out[5])
{
    static const int ij[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    static const int slot[3][3] = {{0, 3, 4}, {3, 1, 5}, {4, 5, 2}};
    const int64_t m = padded(g), nm[3] = {m, m, m};
    const size_t hc = sizeof(fftw_complex) * (size_t)(gf->nz_local * g * (g / 2 + 1));
    tbrfi_dfft a;
    double *h[12] = {NULL}, *phim[2] = {NULL, NULL};
    int st = tbrf_mpi_agree(comm, tbrfi_dfft_make(&a, comm, 3, nm) ? TBRF_ERR_NO_MEMORY : TBRF_OK);
    if (st == TBRF_OK) /* collective: only once every rank has its slab */
        st = tbrf_mpi_agree(comm, tbrfi_dfft_plan_r2c(&a, comm) ? TBRF_ERR_FFT : TBRF_OK);
    lpt_split sp = {0};
    if (st == TBRF_OK)
        st = make_split(comm, gf, &a, &sp);
    int64_t iz0 = 0, nplanes = 0;
    const size_t pbytes = st == TBRF_OK ? sizeof(fftw_complex) * a.alloc : 0;
    if (st == TBRF_OK) {
        landing(&sp, &a, &iz0, &nplanes);
        const size_t bytes = sizeof(fftw_complex) * (size_t)(nplanes * g * (g / 2 + 1));
        phim[0] = malloc(bytes > 0 ? bytes : 1);
        phim[1] = malloc(bytes > 0 ? bytes : 1);
        st = tbrf_mpi_agree(comm, phim[0] && phim[1] ? TBRF_OK : TBRF_ERR_NO_MEMORY);
    }
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, move_planes(comm, &sp, 1, *phi1, phim[0]));
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, move_planes(comm, &sp, 1, phi2, phim[1]));
    if (st == TBRF_OK) {
        free(*phi1);
        *phi1 = NULL;
    }
    for (int t = 0; t < 12 && st == TBRF_OK; t++) {
        if (t < 11 && (st = tbrf_mpi_agree(comm, (h[t] = malloc(pbytes > 0 ? pbytes : 1))
                                                     ? TBRF_OK : TBRF_ERR_NO_MEMORY)))
            break;
        padded_derivative(&sp, &a, phim[t / 6], iz0, nplanes, ij[t % 6][0], ij[t % 6][1], kf);
        if (t < 11)
            memcpy(h[t], a.C, pbytes);
        else
            h[t] = (double *)a.C;
        if (t == 5) { /* room for phi2's */
            free(phim[0]);
            phim[0] = NULL;
        }
    }
    const int64_t rows = a.nz_local * m, stride = 2 * a.nh;
    for (int64_t row = 0; st == TBRF_OK && row < rows; row++)
        for (int64_t x = 0; x < m; x++) {
            const int64_t q = row * stride + x;
            double A[3][3], B[3][3], sv[5];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    A[i][j] = h[slot[i][j]][q];
                    B[i][j] = h[6 + slot[i][j]][q];
                }
            tbrfi_lpt3_point(A, B, sv);
            for (int k = 0; k < 5; k++)
                h[6 + k][q] = sv[k];
        }
    for (int t = 0; t < 6; t++) {
        free(h[t]);
        h[t] = NULL;
    }
    for (int k = 0; k < 5 && st == TBRF_OK; k++) {
        if ((st = tbrf_mpi_agree(comm, (out[k] = malloc(hc > 0 ? hc : 1)) ? TBRF_OK
                                                                          : TBRF_ERR_NO_MEMORY)))
            break;
        memcpy(a.C, h[6 + k], pbytes);
        free(h[6 + k]);
        h[6 + k] = NULL;
        tbrfi_dfft_r2c(&a);
        take_kept(&sp, &a, iz0, nplanes, phim[1]);
        st = tbrf_mpi_agree(comm, move_planes(comm, &sp, 0, phim[1], out[k]));
    }
    for (int t = 0; t < 11; t++)
        free(h[t]);
    free(phim[0]);
    free(phim[1]);
    free(sp.gz);
    tbrfi_dfft_free(&a);
    return st;
}

/* The five potentials' modes of this rank's G slab (o[0..4]: phi3a,
 * phi3b without its half, A3c x y z) made Psi3's in o[0..2] (o[3], o[4]
 * left spent), mode by mode as cosmo_lpt3.c's l3_combine. */
static void combine3(const tbrfi_dfft *b, double kf, double d2_over_d1sq, double *o[5])
{
    const int64_t g = b->nx, nh = g / 2 + 1, rows = b->nz_local * g, first = b->z0 * g;
    double coef[3];
    tbrfi_lpt3_coefficients(d2_over_d1sq, coef);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t x = 0; x < nh; x++) {
            const int64_t row = first + r, i = 2 * (r * nh + x);
            const double k[3] = {kf * (double)x, kf * (double)idx_m(row % g, g),
                                 kf * (double)idx_m(row / g, g)};
            double in[5][2], out[3][2];
            for (int t = 0; t < 5; t++) {
                in[t][0] = o[t][i];
                in[t][1] = o[t][i + 1];
            }
            tbrfi_lpt3_mode(k, coef[0], coef[1], coef[2], (const double(*)[2])in, out);
            for (int c = 0; c < 3; c++) {
                o[c][i] = out[c][0];
                o[c][i + 1] = out[c][1];
            }
        }
}

/* Psi3's modes of this rank's G slab (psi3m[0..2], allocated here; the
 * caller frees them) from phi1 (freed, NULL, once moved) and phi2: the
 * padded sources, their potentials (-source_k / (k^2 M^3)), combined. */
static int slab_modes3(MPI_Comm comm, const tbrfi_dfft *block, int64_t g, double kf,
                       double d2_over_d1sq, double **phi1, const double *phi2,
                       double *psi3m[3])
{
    const double m = (double)padded(g);
    double *o[5] = {NULL, NULL, NULL, NULL, NULL};
    int st = slab_sources3(comm, block, g, kf, phi1, phi2, o);
    if (st == TBRF_OK) {
        for (int k = 0; k < 5; k++)
            inverse_laplacian(block, kf, 1.0 / (m * m * m), o[k]);
        combine3(block, kf, d2_over_d1sq, o);
    }
    for (int k = 0; k < 5; k++) {
        if (k < 3 && st == TBRF_OK)
            psi3m[k] = o[k];
        else
            free(o[k]);
    }
    return st;
}

/* D2 Psi2 of this rank's planes (3 values a cell, x fastest) into *psi2,
 * with lpt 3 Psi3 into *psi3 (NULL for a rank without planes, *psi3 NULL
 * for lpt 2): phi of Psi1 on its k slab, the padded source, phi2 =
 * -(D2 / D1^2) delta2_k / (k^2 M^3) on the G^3 modes (Nyquist planes and
 * m = 0 zero; D1 is in phi already); with lpt 3 Psi3's modes from phi
 * and phi2 (slab_modes3); the gradient of phi2 and Psi3's modes
 * transformed by the engine component by component. */
static int slab_higher(MPI_Comm comm, tbrf_ic_cosmo *ic, tbrf_plan *plan, int64_t g, int fixed,
                       int lpt, double **psi2, double **psi3)
{
    const int64_t n[3] = {g, g, g}, m = padded(g);
    tbrf_ic_cosmo_params p;
    tbrf_ic_cosmo_info info;
    tbrf_ic_cosmo_get_params(ic, &p);
    tbrf_ic_cosmo_get_info(ic, &info);
    /* cosmo_lpt.c's kfund: 2 pi over the plan's period G (L/G) */
    const double kf = 2 * 3.14159265358979323846 / ((double)g * (p.box / (double)g));
    const double d2_over_d1sq = info.growth2 / (info.growth * info.growth);
    const double scale = d2_over_d1sq / ((double)m * (double)m * (double)m);
    tbrfi_dfft f;
    double *phi = NULL, *phi1 = NULL, *psi3m[3] = {NULL, NULL, NULL};
    *psi2 = NULL;
    *psi3 = NULL;
    int st = tbrf_mpi_agree(comm, tbrfi_dfft_make(&f, comm, 3, n) ? TBRF_ERR_NO_MEMORY : TBRF_OK);
    const int64_t rows = f.nz_local * f.rows_per_plane;
    const size_t hc = sizeof(fftw_complex) * (size_t)(rows * f.nh);
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, (phi = malloc(hc > 0 ? hc : 1)) ? TBRF_OK : TBRF_ERR_NO_MEMORY);
    if (st == TBRF_OK)
        st = slab_potential(comm, ic, plan, n, &f, fixed, kf, phi);
    const tbrfi_dfft block = {.nx = g, .z0 = f.z0, .nz_local = f.nz_local};
    tbrfi_dfft_free(&f); /* room for the padded slabs */
    if (st == TBRF_OK && lpt >= 3) { /* phi1's modes, kept beside the second order's source */
        st = tbrf_mpi_agree(comm, (phi1 = malloc(hc > 0 ? hc : 1)) ? TBRF_OK
                                                                   : TBRF_ERR_NO_MEMORY);
        if (st == TBRF_OK)
            memcpy(phi1, phi, hc);
    }
    if (st == TBRF_OK)
        st = slab_source(comm, &block, g, kf, phi);
    if (st == TBRF_OK)
        inverse_laplacian(&block, kf, scale, phi);
    if (st == TBRF_OK && lpt >= 3)
        st = slab_modes3(comm, &block, g, kf, d2_over_d1sq, &phi1, phi, psi3m);
    free(phi1);
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, tbrfi_dfft_make(&f, comm, 3, n) ? TBRF_ERR_NO_MEMORY : TBRF_OK);
    if (st == TBRF_OK && rows > 0 && !(*psi2 = malloc(sizeof(double) * 3 * (size_t)(rows * g))))
        st = TBRF_ERR_NO_MEMORY;
    st = tbrf_mpi_agree(comm, st);
    if (st == TBRF_OK)
        gradient2(&f, kf, phi, *psi2);
    free(phi);
    if (st == TBRF_OK && lpt >= 3 && rows > 0 &&
        !(*psi3 = malloc(sizeof(double) * 3 * (size_t)(rows * g))))
        st = TBRF_ERR_NO_MEMORY;
    if (lpt >= 3)
        st = tbrf_mpi_agree(comm, st);
    for (int c = 0; c < 3 && st == TBRF_OK && lpt >= 3; c++) {
        memcpy(f.C, psi3m[c], hc);
        take_component(&f, c, *psi3);
    }
    for (int c = 0; c < 3; c++)
        free(psi3m[c]);
    tbrfi_dfft_free(&f);
    if (st != TBRF_OK) {
        free(*psi2);
        free(*psi3);
        *psi2 = NULL;
        *psi3 = NULL;
    }
    return st;
}

/* This rank's members from its Psi1, D2 Psi2 and Psi3 (psi, psi2, psi3:
 * its planes' cells, the first at row `first`; the higher orders NULL
 * where lpt has none), each pushed as its chunk. */
static int push_members(tbrf_ic_cosmo *ic, double *psi, const double *psi2, const double *psi3,
                        int64_t first, int member0, int members, const int64_t *bounds,
                        tbrf_ic_push_fn push, void *user)
{
    int st = TBRF_OK;
    for (int f = member0; f < member0 + members && st == TBRF_OK; f++) {
        const int64_t at = 3 * (bounds[f] - first);
        st = tbrf_ic_cosmo_push_rows3(ic, f, bounds[f], bounds[f + 1] - bounds[f],
                                      psi ? psi + at : NULL, psi2 ? psi2 + at : NULL,
                                      psi3 ? psi3 + at : NULL, push, user);
    }
    return st;
}

int tbrf_ic_cosmo_generate_mpi(MPI_Comm comm, tbrf_ic_cosmo *ic, int files, tbrf_ic_push_fn push,
                               void *user)
{
    tbrf_ic_cosmo_params p;
    int st = !ic || !push ? TBRF_ERR_NULL : tbrf_ic_cosmo_get_params(ic, &p);
    if (st == TBRF_OK && p.glass_n > 0)
        st = TBRF_ERR_UNSUPPORTED;
    int64_t z0 = 0, planes = 0, *bounds = NULL;
    int member0 = 0, members = 0;
    if (st == TBRF_OK && (files < 1 || files > 65536))
        st = TBRF_ERR_INVALID;
    if (st == TBRF_OK && !(bounds = malloc(((size_t)files + 1) * sizeof *bounds)))
        st = TBRF_ERR_NO_MEMORY;
    if ((st = tbrf_mpi_agree(comm, st)) == TBRF_OK)
        st = tbrf_mpi_agree(comm, tbrf_mpi_ic_split(comm, p.particles, files, &z0, &planes,
                                                    &member0, &members, bounds));
    tbrf_plan *plan = st == TBRF_OK ? tbrf_ic_cosmo_plan(ic) : NULL;
    const int64_t g = st == TBRF_OK ? p.particles : 0;
    double *psi = NULL, *psi2 = NULL;
    if (st == TBRF_OK) {
        /* a shifted lattice (a zoom's refined level): tbrf_fft_modes carries
         * e^{i k.origin}, so every order below is formed at the shifted sites */
        double offset = 0;
        tbrf_ic_cosmo_get_offset(ic, &offset);
        const double dx = p.box / (double)g, o = offset * dx, origin[3] = {o, o, o};
        const double spacing[3] = {dx, dx, dx};
        const int64_t n[3] = {g, g, g};
        st = tbrf_mpi_agree(comm, tbrf_set_grid(plan, origin, spacing, n));
    }
    /* the higher orders first: their padded slabs are freed before Psi1 is held */
    double *psi3 = NULL;
    if (st == TBRF_OK && p.lpt >= 2)
        st = slab_higher(comm, ic, plan, g, p.fixed_amplitude, p.lpt, &psi2, &psi3);
    if (st == TBRF_OK)
        st = slab_psi(comm, ic, plan, g, p.fixed_amplitude, &psi);
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, push_members(ic, psi, psi2, psi3, z0 * g * g, member0,
                                               members, bounds, push, user));
    free(psi);
    free(psi2);
    free(psi3);
    free(bounds);
    return st;
}
