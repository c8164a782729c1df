/* nufft.h — type-2 non-uniform FFT of a periodic field's Fourier modes:
 * the field Z(x) = sum_m b_m exp(i 2 pi m.(x - o)/L), |m_d| < n_d/2, given
 * as the half-complex array of the FFT method on the box grid (n cells of
 * spacing L/n at the box origin o), evaluated at arbitrary positions.
 *
 * Method (Barnett, Magland & af Klinteberg 2019, "FINUFFT"): the modes are
 * divided by the Fourier transform of the exponential-of-semicircle kernel
 * phi(t) = exp(beta (sqrt(1 - (2t/w)^2) - 1)), |t| <= w/2 (in fine-grid
 * cells), placed on a grid oversampled sigma = 2 times, transformed by one
 * FFTW c2r, and the result is interpolated at each position by the w^dim
 * kernel weights around it, the kernel evaluated as w polynomial pieces
 * (FINUFFT's Horner kernel; nufft_setup.horner). The width w and beta follow FINUFFT's rules
 * for the requested relative accuracy eps (doc/method.md, "Periodic
 * fields at any point"). The fine grid is kept by the caller, so a new set
 * of positions costs only the interpolation. */
#ifndef TBRF_NUFFT_H
#define TBRF_NUFFT_H

#include <fftw3.h>
#include <stdint.h>

/* The widest kernel and the highest degree of its polynomial pieces. */
#define NUFFT_WMAX 16
#define NUFFT_DEG_MAX (NUFFT_WMAX + 3)

typedef struct nufft_setup {
    int dim;
    int w;            /* kernel width in fine cells */
    int deg;          /* degree of the kernel's polynomial pieces, w + 3 */
    double beta;      /* kernel shape */
    /* The kernel as w polynomial pieces, one per weight: weight j of a
     * position whose first fine index i0 lies t = i0 - pos (in
     * [-w/2, 1 - w/2)) cells from it is sum_k horner[k][j] z^k at
     * z = 2 t + w - 1 in [-1, 1) (Chebyshev interpolation of phi on each
     * unit interval, in monomials); lanes j >= w are zero. */
    double horner[NUFFT_DEG_MAX + 1][NUFFT_WMAX];
    int64_t n[3];     /* the box's mode grid (FFT method's cells) */
    int64_t N[3];     /* the fine grid (N[2] = 1 in 2D) */
    double origin[3], length[3];
} nufft_setup;

/* The width and shape for accuracy eps (1e-15 <= eps <= 0.1) and the fine
 * grid size for the box's n cells (N_d = the smallest even 2^a 3^b 5^c
 * at least max(2 n_d, 2 w)). */
void tbrfi_nufft_setup(nufft_setup *s, int dim, const int64_t n[3], const double origin[3],
                       const double length[3], double eps);

/* Bytes of one fine grid (doubles, FFTW's in-place c2r layout). */
double tbrfi_nufft_fine_bytes(const nufft_setup *s);

/* Allocates a fine grid (fftw_malloc: free with fftw_free), or NULL. */
double *tbrfi_nufft_fine_alloc(const nufft_setup *s);

/* Turns the box's modes C (n_z x n_y x (n_x/2+1), FFT-method layout, the
 * phases of the box origin included) into the fine real-space grid u.
 * Returns TBRF_OK, TBRF_ERR_NO_MEMORY or TBRF_ERR_FFT. */
int tbrfi_nufft_fine(const nufft_setup *s, const fftw_complex *C, int threads, double *u);

/* Interpolates ncomp fine grids u[c] at npts positions xyz (dim doubles
 * each, wrapped into the box) into out (double, or float if precision is
 * TBRF_FLOAT), value of component c of point i at out[ncomp*i + c]. Each
 * point is computed alone: bitwise the same for any thread count. The sum
 * runs as AVX-512 or AVX2 vector code where the CPU has it (TBRF_CPU_ISA
 * lowers the choice), with the portable version's bits. */
void tbrfi_nufft_interp(const nufft_setup *s, double *const *u, int ncomp, int64_t npts,
                        const double *xyz, int precision, int threads, void *out);

/* The same at the cells of a box of n cells whose cell 0 is the cell start
 * of the grid (origin, spacing): cells first .. first + count - 1 of the
 * box in x-fastest order. A cell's position is origin + spacing * (its
 * global index), so any box gives the whole grid's bits. */
void tbrfi_nufft_interp_grid(const nufft_setup *s, double *const *u, int ncomp, const double origin[3],
                             const double spacing[3], const int64_t n[3], const int64_t start[3],
                             int64_t first, int64_t count, int precision, int threads, void *out);

/* The kernel phi at z = 2 t / w in [-1, 1] (t in fine cells), exactly:
 * the function the polynomial pieces approximate (exposed for the tests). */
double tbrfi_nufft_kernel(const nufft_setup *s, double z);

/* The w weights of the polynomial pieces at z = 2 (i0 - pos) + w - 1 in
 * [-1, 1) (see horner above): k[0..w-1] (exposed for the tests). */
void tbrfi_nufft_weights(const nufft_setup *s, double z, double *k);

/* phi-hat(xi) = integral of phi(t) e^{-i xi t} dt for the kernel of s, by
 * Gauss-Legendre quadrature (exposed for the tests). */
double tbrfi_nufft_kernel_ft(const nufft_setup *s, double xi);

/* The operations one cell or point of an interpolation costs (w^dim
 * kernel weights times ncomp components), for the blocks between two
 * polls of a cancel hook (core/cancel.h). */
double tbrfi_nufft_cell_work(const nufft_setup *s, int ncomp);

#endif
