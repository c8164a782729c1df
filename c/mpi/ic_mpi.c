/* ic_mpi.c — a cosmological initial condition over the ranks of a
 * communicator (tbrf_mpi_ic_split, tbrf_ic_cosmo_generate_mpi of
 * tbrf_mpi.h): each rank holds the z slab of the lattice that the
 * distributed FFT engine gives it (fft_mpi.h; the modes are the serial
 * plan's, tbrf_fft_modes, each a function of seed and wavevector alone)
 * and turns its Psi1 (and with 2LPT its D2 Psi2) into its particles with
 * libtbrf's own code (tbrf_ic_cosmo_push_rows2), so only the transforms'
 * transposes and, for 2LPT, the k planes between the G and padded splits
 * are communicated. */
#include <stdlib.h>
#include <string.h>

#include <fftw3-mpi.h>

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
    const int64_t rows = f.nz_local * f.rows_per_plane, stride = 2 * f.nh;
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
        tbrfi_dfft_c2r(&f);
        const double *r = (const double *)f.C;
        for (int64_t row = 0; row < rows; row++)
            for (int64_t i = 0; i < g; i++)
                (*psi)[3 * (row * g + i) + c] = r[row * stride + i];
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

/* delta2's modes of this rank's G slab (phi, in place) made phi2 =
 * -scale delta2_k / (k_f^2 m^2) (Nyquist planes and m = 0 zero), and its
 * gradient, D2 Psi2, transformed by the G engine f component by
 * component into psi2 (3 values a cell, x fastest). */
static void gradient2(tbrfi_dfft *f, double kf, double scale, double *phi, double *psi2)
{
    const int64_t g = f->nx, nh = f->nh, rows = f->nz_local * f->rows_per_plane;
    const int64_t first = f->z0 * f->rows_per_plane;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t x = 0; x < nh; x++) {
            const int64_t row = first + r, my = idx_m(row % g, g), mz = idx_m(row / g, g);
            const double m2 = (double)(x * x + my * my + mz * mz);
            const int zero = m2 == 0 || nyquist(x, g) || nyquist(my, g) || nyquist(mz, g);
            const double fac = zero ? 0.0 : -scale / (kf * kf * m2);
            phi[2 * (r * nh + x)] *= fac;
            phi[2 * (r * nh + x) + 1] *= fac;
        }
    for (int c = 0; c < 3; c++) {
        for (int64_t r = 0; r < rows; r++)
            for (int64_t x = 0; x < nh; x++) {
                const int64_t row = first + r, m[3] = {x, idx_m(row % g, g), idx_m(row / g, g)};
                const double k = kf * (double)m[c];
                f->C[r * nh + x][0] = -k * phi[2 * (r * nh + x) + 1]; /* i k phi2 */
                f->C[r * nh + x][1] = k * phi[2 * (r * nh + x)];
            }
        tbrfi_dfft_c2r(f);
        const double *re = (const double *)f->C;
        for (int64_t row = 0; row < rows; row++)
            for (int64_t i = 0; i < g; i++)
                psi2[3 * (row * g + i) + c] = re[row * 2 * nh + i];
    }
}

/* D2 Psi2 of this rank's planes (3 values a cell, x fastest) into *psi2
 * (NULL for a rank without planes): phi of Psi1 on its k slab, the
 * padded source, phi2 = -(D2 / D1^2) delta2_k / (k^2 M^3) on the G^3
 * modes (Nyquist planes and m = 0 zero; D1 is in phi already), its
 * gradient transformed by the engine component by component. */
static int slab_psi2(MPI_Comm comm, tbrf_ic_cosmo *ic, tbrf_plan *plan, int64_t g, int fixed,
                     double **psi2)
{
    const int64_t n[3] = {g, g, g}, m = padded(g);
    tbrf_ic_cosmo_params p;
    tbrf_ic_cosmo_info info;
    tbrf_ic_cosmo_get_params(ic, &p);
    tbrf_ic_cosmo_get_info(ic, &info);
    /* cosmo_lpt.c's kfund: 2 pi over the plan's period G (L/G) */
    const double kf = 2 * 3.14159265358979323846 / ((double)g * (p.box / (double)g));
    const double scale = info.growth2 / (info.growth * info.growth) /
                         ((double)m * (double)m * (double)m);
    tbrfi_dfft f;
    double *phi = NULL;
    *psi2 = NULL;
    int st = tbrf_mpi_agree(comm, tbrfi_dfft_make(&f, comm, 3, n) ? TBRF_ERR_NO_MEMORY : TBRF_OK);
    const int64_t rows = f.nz_local * f.rows_per_plane;
    const size_t hc = sizeof(fftw_complex) * (size_t)(rows * f.nh);
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, (phi = malloc(hc > 0 ? hc : 1)) ? TBRF_OK : TBRF_ERR_NO_MEMORY);
    if (st == TBRF_OK)
        st = slab_potential(comm, ic, plan, n, &f, fixed, kf, phi);
    const tbrfi_dfft block = {.nx = g, .z0 = f.z0, .nz_local = f.nz_local};
    tbrfi_dfft_free(&f); /* room for the padded slabs */
    if (st == TBRF_OK)
        st = slab_source(comm, &block, g, kf, phi);
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, tbrfi_dfft_make(&f, comm, 3, n) ? TBRF_ERR_NO_MEMORY : TBRF_OK);
    if (st == TBRF_OK && rows > 0 && !(*psi2 = malloc(sizeof(double) * 3 * (size_t)(rows * g))))
        st = TBRF_ERR_NO_MEMORY;
    st = tbrf_mpi_agree(comm, st);
    if (st == TBRF_OK)
        gradient2(&f, kf, scale, phi, *psi2);
    free(phi);
    tbrfi_dfft_free(&f);
    if (st != TBRF_OK) {
        free(*psi2);
        *psi2 = NULL;
    }
    return st;
}

/* This rank's members from its Psi1 (psi: its planes' cells, the first
 * at row `first`), each pushed as its chunk. */
static int push_members(tbrf_ic_cosmo *ic, double *psi, const double *psi2, int64_t first,
                        int member0, int members, const int64_t *bounds, tbrf_ic_push_fn push,
                        void *user)
{
    int st = TBRF_OK;
    for (int f = member0; f < member0 + members && st == TBRF_OK; f++)
        st = tbrf_ic_cosmo_push_rows2(ic, f, bounds[f], bounds[f + 1] - bounds[f],
                                      psi ? psi + 3 * (bounds[f] - first) : NULL,
                                      psi2 ? psi2 + 3 * (bounds[f] - first) : NULL, push, user);
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
    /* the second order first: its padded slabs are freed before Psi1 is held */
    if (st == TBRF_OK && p.lpt >= 2)
        st = slab_psi2(comm, ic, plan, g, p.fixed_amplitude, &psi2);
    if (st == TBRF_OK)
        st = slab_psi(comm, ic, plan, g, p.fixed_amplitude, &psi);
    if (st == TBRF_OK)
        st = tbrf_mpi_agree(comm, push_members(ic, psi, psi2, z0 * g * g, member0, members,
                                               bounds, push, user));
    free(psi);
    free(psi2);
    free(bounds);
    return st;
}
