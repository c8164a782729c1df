/* driver_impl.h — the driver's object and the functions its files share
 * (driver.c: making, time, the calls; driver_modes.c: a periodic box's
 * Fourier modes; driver_lines.c: a domain's turning-bands line modes;
 * driver_state.c: save, load and the state's parameters). Not installed. */
#ifndef TBRF_DRIVER_IMPL_H
#define TBRF_DRIVER_IMPL_H

#include <pthread.h>
#include <stdint.h>

#include "apps/driving/driver.h"
#include "apps/driving/ou_tree.h"
#include "backends/backend.h"
#include "core/message.h"
#include "engine/engine.h"
#include "methods/nufft/nufft.h"
#include "tbrf.h"

#define DRIVE_CHUNK 65536
/* Updates of fewer modes run on one thread: a parallel region costs more
 * than a few thousand modes' draws, and busy-waiting threads slow a shared
 * machine (values never depend on it). */
#define PAR_MODES 4096

struct tbrf_driver {
    int status;        /* TBRF_OK, or BAD_PLAN once the make failed */
    tbrfi_message msg; /* the last call's status and message (under msg_lock) */
    /* Threads share a driver (doc/driving.md, "Threads and ranks"): calls
     * evaluate holding `lock` shared while the coefficients are those of
     * their time; the first call of a new time takes it exclusive, so a
     * rebuild waits for the calls running on the old coefficients and
     * the others wait for the new ones. Calls whose evaluation writes
     * shared scratch (a non-periodic domain's engine, a GPU backend's
     * upload cache) evaluate exclusive. */
    pthread_rwlock_t lock;
    pthread_mutex_t msg_lock;
    int locks; /* whether lock and msg_lock were made */
    tbrf_driver_params p;
    uint64_t seed;
    /* a hash of the driven modes (wavevectors or line modes and their
     * variances), which the saved state records beside the parameters */
    uint64_t modes_hash;
    int dim, eval; /* dim: the force's components (the arithmetic's dimension) */
    int pdim;      /* the box's axes (a position's coordinates): dim, or 1, 2 below a
                    * three-component dim (lifted: positions get 0 on the missing axes) */
    int eval_cpu; /* the eval of the CPU backend (eval, or what AUTO chose there) */
    /* where a box's sums run (tbrf_driver_set_backend): the table entry
     * and its state from init (NULL for the CPU); a domain's engine holds
     * its own. backend: the id in use (AUTO resolved), either way */
    const backend_ops *be;
    void *be_state;
    int backend;
    double budget; /* tbrf_memory_budget at make */
    double bytes;  /* what the make allocated */
    double dt, decay; /* dt_update, f = e^{-dt/T} */
    double amp;              /* A of the ensemble normalisation */
    double rms_ensemble;
    int64_t nm;
    int32_t *m;      /* 3 per mode */
    double *s;       /* s_m = sqrt(P(|k|)) */
    double *khat;    /* unit wavevector, 3 per mode */
    int mmax[3];
    double kmin, kmax; /* the model's support */
    /* directions > 0: the modes of each shell s (N_s of them), counted
     * before the selection; NULL after the make */
    int64_t *shell_n;
    int nshell;
    /* the OU tree, and its value a(j) (2 dim doubles per mode) at update
     * j, -1 before any; a1 holds a(j + 1) for the interpolation */
    ou_tree ou;
    int64_t j;
    double *a, *a1;
    /* coefficients of the last time asked: key (update, weight) */
    double *coef, *cj;
    int coef_valid;
    int64_t coef_j;
    double coef_w;
    uint64_t coef_gen; /* counts the coefficient sets, for a backend's upload cache */
    /* NUFFT: fine grids of the coefficients, valid with them */
    nufft_setup ns;
    double *fine[3];
    fftw_complex *C;
    int fine_valid;
    /* turning bands (periodic = 0): process i = l K + k is line l's mode
     * lm[k], dim complex components; s[i] = sqrt(E|X_m|^2) */
    int tb, L;
    int64_t K;
    int32_t *lm;
    tbrfi_engine *engine;  /* sizing, domain, FFT plan and projection (engine/engine.h) */
    const line_spec *spec; /* the engine's */
    double *u;         /* unit directions, 3 per line */
    double *axis;      /* u / delta (3 per line), then the L shifts */
    double *raw;       /* dim line sets Z_c (c L M samples each) */
    double *lines;     /* the mixed sets W_c = P_zeta(u) Z, projected per component */
    double lo[3], hi[3], tol; /* the engine's domain and tolerance */
    int lines_valid;
    tbrfi_cancel cancel; /* tbrf_driver_set_cancel's hook, also the engine's */
};

/* driver.c: the message (under msg_lock) and the memory budget */
int tbrfi_drv_fail(tbrf_driver *d, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int tbrfi_drv_set_status(tbrf_driver *d, int status);
int tbrfi_drv_ok(tbrf_driver *d);
/* TBRF_OK when `bytes` more fit the budget beside what the driver holds,
 * else TBRF_ERR_SIZE naming `what`; reserve also counts them as held */
int tbrfi_drv_fits(tbrf_driver *d, double bytes, const char *what);
int tbrfi_drv_reserve(tbrf_driver *d, double bytes, const char *what, const char *hint);
/* The model's support [kmin, kmax]; 0 when it is unbounded. */
int tbrfi_drv_support(const tbrf_model *m, double *kmin, double *kmax);

/* driver_modes.c: a periodic box */
int tbrfi_drv_unit_factors(const tbrf_driver *d);
double tbrfi_drv_unit_share(const tbrf_driver *d, const double *u);
uint64_t tbrfi_drv_fnv(uint64_t h, const void *data, size_t len);
int tbrfi_drv_setup_modes(tbrf_driver *d, const tbrf_model *model);
int tbrfi_drv_setup_eval(tbrf_driver *d);
int tbrfi_drv_ensure_fine(tbrf_driver *d);
drive_sum tbrfi_drv_sum_of(const tbrf_driver *d);
int tbrfi_drv_be_fail(tbrf_driver *d, int st, const char *what);
/* The grid axis by axis, component c of cell q at out[q ps + c cs]: 1
 * done, 0 when its dense array would be too large (not done), -1 without
 * memory, -2 beyond the budget (the message says why). */
int tbrfi_drv_grid_separable(tbrf_driver *d, const double origin[3], const double spacing[3],
                             const int64_t n[3], int64_t cs, int64_t ps, double *out);

/* driver_lines.c: a non-periodic domain */
int tbrfi_drv_setup_tb(tbrf_driver *d, const tbrf_model *model);
int tbrfi_drv_ensure_lines(tbrf_driver *d);
int tbrfi_drv_tb_inside(const tbrf_driver *d, int c, double x);
int tbrfi_drv_tb_points(tbrf_driver *d, int64_t n, const double *xyz, double *out);
int tbrfi_drv_tb_grid_inside(tbrf_driver *d, const double origin[3], const double spacing[3],
                             const int64_t n[3]);
grid_geom tbrfi_drv_tb_geom(const tbrf_driver *d, const double origin[3], const double spacing[3],
                            const int64_t n[3]);
int tbrfi_drv_tb_grid(tbrf_driver *d, const double origin[3], const double spacing[3],
                      const int64_t n[3], int64_t total, double *out);
int tbrfi_drv_engine_fail(tbrf_driver *d, int st);
int tbrfi_drv_tb_set_backend(tbrf_driver *d, int id, int device);

#endif
