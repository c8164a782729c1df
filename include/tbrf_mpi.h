/* tbrf_mpi.h — splitting a tbrf field over the ranks of an MPI
 * communicator (library libtbrf_mpi, built when Open MPI is found; the
 * core library libtbrf never calls MPI). Link with -ltbrf_mpi -ltbrf and
 * your MPI.
 *
 * Each rank evaluates only its own part, with no communication: grids by
 * tbrf_set_subgrid on its box, which gives bitwise the values of the whole
 * grid at those cells for every method and backend (doc/decomposition.md),
 * points by passing its own points. Every rank makes its plan with the same
 * model, dimension, domain, resolution, seed and options, so all ranks
 * synthesise the same lines. doc/mpi.md has the cost, memory and I/O model
 * per rank. */
#ifndef TBRF_MPI_H
#define TBRF_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "tbrf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* This rank's slab of the grid of n[0] x n[1] x n[2] cells (n[2] = 1 in
 * 2D): the slowest axis (z in 3D, y in 2D) split into `size` contiguous
 * ranges that differ by at most one plane, rank r getting the r-th, so the
 * ranks' cells are consecutive runs of the file's x-fastest order. start
 * and count are those of tbrf_set_subgrid; a rank beyond the number of
 * planes gets count[slow axis] = 0 and nothing to evaluate. *first is the
 * global number of its first cell (x fastest). Statuses: TBRF_OK,
 * TBRF_ERR_NULL, TBRF_ERR_INVALID (dim not 2 or 3, an MPI call failed),
 * TBRF_ERR_SIZE (a count below 1, a cell count overflowing int64). */
TBRF_API int tbrf_mpi_split_grid(MPI_Comm comm, int dim, const int64_t n[3], int64_t start[3],
                                 int64_t count[3], int64_t *first);

/* This rank's share of n points: rows *first .. *first + *count - 1, the
 * same near-equal contiguous split. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_SIZE (n < 0), TBRF_ERR_INVALID (an MPI call failed). */
TBRF_API int tbrf_mpi_split_points(MPI_Comm comm, int64_t n, int64_t *first, int64_t *count);

/* Collective: the largest status any rank passes (TBRF_OK when all pass
 * TBRF_OK), so every rank stops when one failed (its message stays on that
 * rank). An MPI failure gives TBRF_ERR_INVALID. */
TBRF_API int tbrf_mpi_agree(MPI_Comm comm, int status);

/* This rank's slab of grid n under tbrf_mpi_fft_stream: FFTW-MPI's block
 * split of the slowest axis (z in 3D, y in 2D) into blocks of
 * ceil(n_slow / size) planes, so the last ranks may get fewer planes or
 * none (count[slow axis] = 0). start, count and *first as
 * tbrf_mpi_split_grid's. Statuses: TBRF_OK, TBRF_ERR_NULL,
 * TBRF_ERR_INVALID (dim not 2 or 3), TBRF_ERR_SIZE (a count below 1 or
 * above 2^30). */
TBRF_API int tbrf_mpi_fft_split_grid(MPI_Comm comm, int dim, const int64_t n[3], int64_t start[3],
                                     int64_t count[3], int64_t *first);

/* Collective over comm: realization r of the FFT method's field on the
 * plan's whole grid n (tbrf_set_grid's n; tbrf_plan_method =
 * TBRF_METHOD_FFT; the same plan on every rank), as one distributed
 * transform. Each rank fills the Fourier modes of its own k slab
 * (tbrf_fft_modes), transforms with the others (FFTW-MPI, slabs of
 * tbrf_mpi_fft_split_grid, one thread a rank) and pushes the cells of its
 * slab to push(user, first, count, values): first is the global cell
 * number (x fastest), pieces of whole rows of about `step` cells, values
 * as tbrf_execute_grid_stream's (precision and vector must be the plan's
 * opts.precision and opts.vector). A rank holds about 1/size of the
 * half-complex array, 16 (n_x/2 + 1) n_y n_z / size bytes, plus
 * FFTW-MPI's transpose buffers and, for a vector field, its cells' values
 * (doc/mpi.md, "The FFT method"). The values are bitwise the same on every
 * run with the same number of ranks, and equal the serial method's within
 * the transform's rounding (doc/mpi.md states the bound). Statuses:
 * TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_UNSUPPORTED (not the FFT method),
 * TBRF_ERR_INVALID, TBRF_ERR_SIZE, TBRF_ERR_NO_MEMORY, TBRF_ERR_CALLBACK
 * (push returned non-zero), those of tbrf_fft_modes (its message on the
 * plan of the rank that failed), and on every rank the worst status any
 * rank had before the transform. FFTW's planner is not thread-safe and
 * this call plans outside libtbrf's own FFTW lock: make no tbrf plan and
 * run no other FFTW planner in another thread of the process meanwhile. */
TBRF_API int tbrf_mpi_fft_stream(MPI_Comm comm, tbrf_plan *plan, const int64_t n[3], int precision,
                                 int vector, uint64_t realization, int64_t step, tbrf_push_fn push,
                                 void *user);

/* This rank's share of a cosmological initial condition of G^3 =
 * particles^3 particles (tbrf_ic_cosmo_generate_mpi) written as a set of
 * `files` members: its z planes *z0 .. *z0 + *planes - 1 of the lattice
 * (FFTW-MPI's block split, tbrf_mpi_fft_split_grid's of the G^3 grid;
 * the last ranks may have none), its particles the rows z0 G^2 .. (z0 +
 * planes) G^2 - 1 of the lattice order (x fastest); and its members
 * *member0 .. *member0 + *members - 1, member f holding rows bounds[f]
 * .. bounds[f + 1] - 1 (bounds: files + 1 values, the same on every
 * rank). The members go to the ranks that have planes, files / R or one
 * more each (R those ranks), and split a rank's rows near-equally: on
 * one rank the serial set's split (tbrf_arepo_file_rows). A rank without
 * planes gets no member (*member0 = files, *members = 0). Collective.
 * Statuses: TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_SIZE (particles outside
 * 2..65536, files outside 1..65536), TBRF_ERR_INVALID (fewer files than
 * ranks with planes, an MPI call failed), TBRF_ERR_NO_MEMORY. */
TBRF_API int tbrf_mpi_ic_split(MPI_Comm comm, int64_t particles, int files, int64_t *z0,
                               int64_t *planes, int *member0, int *members, int64_t *bounds);

/* Collective over comm: the particles of ic (tbrf_ic_cosmo_make_slab on
 * every rank with the same parameters; on the lattice, lpt 1, 2 or 3,
 * random or fixed amplitudes) in `files` chunks, each rank pushing the chunks of
 * its own members (tbrf_mpi_ic_split) to push(user, chunk) in order,
 * chunk c holding rows bounds[c] .. bounds[c + 1] - 1. Each rank fills
 * the Fourier modes of its own k slab of the plan of Psi1
 * (tbrf_fft_modes, no replicated table; with fixed amplitudes
 * tbrf_ic_cosmo_fixed_modes of the three components), transforms with the others
 * (the distributed FFT of tbrf_mpi_fft_stream, FFTW-MPI) and makes its
 * particles with tbrf_ic_cosmo_push_rows3, so a particle is
 * the serial run's (tbrf_ic_cosmo_generate) up to the rounding of the
 * distributed transform: positions and velocities within that of Psi1,
 * 2 log2(G) 2^-52 max|Psi1| (doc/mpi.md, "Initial conditions"). With
 * lpt 2 the second order comes first, on the grid padded to M =
 * floor((3G + 1)/2) a side distributed by its own FFTW-MPI split (the
 * potential's modes moved to it and the source's back by MPI_Alltoallv):
 * D2 Psi2 within (4 log2 G + 4 log2 M + 8) 2^-52 max|D2 Psi2| more. With
 * lpt 3 the third order (cosmo_lpt3.c's: the six second derivatives of
 * phi1 and of phi2, twelve slabs of the padded grid a rank, the five
 * sources formed pointwise with the serial arithmetic and transformed
 * back, their potentials combined into Psi3's modes) comes before D2
 * Psi2 is transformed, on the same padded split: Psi3 within 2 (4 log2 G
 * + 4 log2 M + 8) 2^-52 max|Psi3| more (its velocity 3 f1 times that). A
 * rank holds tbrf_ic_cosmo_slab_bytes for its planes and its largest
 * member (with lpt 3 about 345 bytes a particle of its planes, the
 * twelve padded slabs), plus FFTW-MPI's transpose buffers. Statuses (on every rank, the worst
 * of all): TBRF_OK, TBRF_ERR_NULL, TBRF_ERR_UNSUPPORTED (a
 * glass), TBRF_ERR_INVALID (files outside 1..65536 or fewer than the
 * ranks with planes), TBRF_ERR_NO_MEMORY (the slab or its Psi1), those
 * of tbrf_fft_modes, tbrf_ic_cosmo_fixed_modes and
 * tbrf_ic_cosmo_push_rows2 (TBRF_ERR_CALLBACK: a push returned non-zero;
 * the message on ic of the rank that failed). */
TBRF_API int tbrf_ic_cosmo_generate_mpi(MPI_Comm comm, tbrf_ic_cosmo *ic, int files,
                                        tbrf_ic_push_fn push, void *user);

/* Collective over comm: the zoom of tbrf_ic_zoom_make (the same
 * parameters on every rank) with each level's IC made over the ranks
 * (tbrf_ic_zoom_level_make's slab of this rank's planes,
 * tbrf_ic_cosmo_generate_mpi), so a rank holds its slab of the finest
 * level's (G r)^3 lattice, not the whole. Rank 0's *out holds every
 * particle, in the serial zoom's order (gathered level by level in rank
 * order); every other rank's is made with the same info and no particles.
 * A particle is the serial zoom's up to the rounding of the distributed
 * transform (tbrf_ic_cosmo_generate_mpi's bounds). Rank 0 holds the
 * parent's mask and every particle, and while gathering a level the other
 * ranks' share of it once more; each rank its level slab
 * (tbrf_ic_cosmo_slab_bytes), each checked against the memory budget
 * first. lpt 1, 2 or 3, not fixed amplitudes (a refined level's glass of
 * one site has no slab). *out is set on every
 * rank even on failure (NULL only on TBRF_ERR_NO_MEMORY): read
 * tbrf_ic_zoom_message on the ranks (the one that failed has it), then
 * destroy it. Statuses (on every rank, the worst of all): those of
 * tbrf_ic_zoom_make, tbrf_ic_zoom_level_make (TBRF_ERR_UNSUPPORTED: fixed
 * amplitudes), tbrf_ic_cosmo_generate_mpi; TBRF_ERR_SIZE (a
 * level's gather over the budget or over 2^31 / 3 rows). */
TBRF_API int tbrf_ic_zoom_make_mpi(MPI_Comm comm, const tbrf_ic_cosmo_params *parent,
                                   const tbrf_ic_zoom_params *zoom, tbrf_ic_zoom **out);

#ifdef __cplusplus
}
#endif
#endif
