/* example_stream.c — the complete example of doc/streaming.md, compiled
 * and run by ctest (test stream_example) so the documentation cannot rot.
 *
 * A hydro code keeps its cells in its own arrays (structure of arrays,
 * here x[], y[], z[] and a forcing[] to fill). Every step the cells move;
 * the code asks tbrf for the field at the new positions without building
 * an interleaved copy of all of them: tbrf pulls positions chunk by chunk
 * through one callback and pushes the values through another.
 *
 * The program checks the streaming contract as it goes:
 *  1. streamed values are bitwise equal to one-shot set_points + execute,
 *     for automatic and for several explicit chunk sizes;
 *  2. several threads, each with its own plan, give the same bits;
 *  3. a callback that returns non-zero stops the run with
 *     TBRF_ERR_CALLBACK and nothing else happens.
 * Exit status 0 when all hold. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"

#define NCELLS 20000
#define BOX 10.0 /* periodic box [0, BOX) */
#define NSTEPS 3

/* ----------------------------------------------------------- the hydro side */

typedef struct cells {
    int64_t n;
    double *x, *y, *z;  /* cell centres, owned by the hydro code */
    double *forcing;    /* where the field values go */
    int64_t abort_at;   /* for the demonstration of an aborted run; -1 = never */
} cells;

/* Pull: copy up to `max` positions, starting at cell `first`, into the
 * library's buffer (interleaved x,y,z). Setting *count = 0 ends the stream.
 * Any non-zero return aborts the run. */
static int pull_positions(void *user, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    const cells *c = user;
    int64_t m = c->n - first < max ? c->n - first : max;
    for (int64_t i = 0; i < m; i++) {
        xyz[3 * i + 0] = c->x[first + i];
        xyz[3 * i + 1] = c->y[first + i];
        xyz[3 * i + 2] = c->z[first + i];
    }
    *count = m; /* 0 once first == n: the end */
    return 0;
}

/* Push: values for cells first .. first+count-1 (doubles, as the plan was
 * made with the default precision). The buffer is the library's and is
 * only valid during this call, so copy what you need. */
static int push_values(void *user, int64_t first, int64_t count, const void *values)
{
    cells *c = user;
    if (c->abort_at >= 0 && first + count > c->abort_at)
        return 1; /* e.g. the hydro code ran out of time: stop cleanly */
    memcpy(c->forcing + first, values, (size_t)count * sizeof(double));
    return 0;
}

/* The cells move with a shear flow and wrap around the periodic box. */
static void move_cells(cells *c, double dt)
{
    for (int64_t i = 0; i < c->n; i++) {
        c->x[i] = fmod(c->x[i] + dt * (1.0 + 0.3 * sin(c->y[i])) + BOX, BOX);
        c->y[i] = fmod(c->y[i] + dt * 0.2 * cos(c->z[i]) + BOX, BOX);
        c->z[i] = fmod(c->z[i] + dt * 0.7 + BOX, BOX);
    }
}

/* ------------------------------------------------------------ the tbrf side */

/* One plan per caller (and per thread): a plan is used by one thread at a
 * time. opts.chunk = 0 lets tbrf choose a chunk that bounds its memory. */
static tbrf_plan *make_plan(int64_t chunk, int threads)
{
    tbrf_model *model = NULL;
    if (tbrf_model_powerlaw(-11.0 / 3.0, 0.5, 6.0, &model) != TBRF_OK) {
        fprintf(stderr, "model: %s\n", tbrf_model_message(model));
        tbrf_model_destroy(model);
        return NULL;
    }
    tbrf_opts opts;
    tbrf_default_opts(&opts);
    opts.lines = 256;
    opts.chunk = chunk;
    opts.threads = threads;
    const double lo[3] = {0, 0, 0}, hi[3] = {BOX, BOX, BOX};
    tbrf_plan *plan = NULL;
    int st = tbrf_make_plan(model, 3, lo, hi, /*resolution*/ 0.1, /*seed*/ 42, &opts, &plan);
    tbrf_model_destroy(model);
    if (st != TBRF_OK) {
        fprintf(stderr, "plan: %s\n", tbrf_plan_message(plan));
        tbrf_destroy(plan);
        return NULL;
    }
    return plan;
}

/* Reference: the same positions interleaved, evaluated in one call. */
static int one_shot(tbrf_plan *plan, const cells *c, uint64_t realization, double *out)
{
    double *xyz = malloc(sizeof(double) * 3 * (size_t)c->n);
    if (!xyz)
        return -1;
    for (int64_t i = 0; i < c->n; i++) {
        xyz[3 * i] = c->x[i];
        xyz[3 * i + 1] = c->y[i];
        xyz[3 * i + 2] = c->z[i];
    }
    int st = tbrf_set_points(plan, c->n, xyz);
    if (st == TBRF_OK)
        st = tbrf_execute(plan, realization, out);
    free(xyz);
    return st == TBRF_OK ? 0 : -1;
}

/* Threads: each owns a plan and a copy of the cells' forcing array. */
typedef struct job {
    const cells *shared;
    int64_t chunk;
    uint64_t realization;
    double *forcing;
    int status;
} job;

static void *thread_main(void *arg)
{
    job *j = arg;
    cells mine = *j->shared; /* same positions, own output */
    mine.forcing = j->forcing;
    tbrf_plan *plan = make_plan(j->chunk, 1);
    j->status = plan ? tbrf_execute_stream(plan, j->realization, pull_positions, push_values, &mine)
                     : TBRF_ERR_BAD_PLAN;
    tbrf_destroy(plan);
    return NULL;
}

int main(void)
{
    cells c = {.n = NCELLS, .abort_at = -1};
    c.x = malloc(sizeof(double) * NCELLS);
    c.y = malloc(sizeof(double) * NCELLS);
    c.z = malloc(sizeof(double) * NCELLS);
    c.forcing = malloc(sizeof(double) * NCELLS);
    double *ref = malloc(sizeof(double) * NCELLS);
    if (!c.x || !c.y || !c.z || !c.forcing || !ref)
        return 1;
    for (int64_t i = 0; i < NCELLS; i++) { /* scattered initial cells */
        c.x[i] = fmod(0.6180339887 * (double)i, BOX);
        c.y[i] = fmod(0.4142135623 * (double)i * 1.7, BOX);
        c.z[i] = fmod(0.7320508075 * (double)i * 2.3, BOX);
    }

    /* Plans with automatic and explicit chunk sizes: all must agree. */
    const int64_t chunks[] = {0, 1, 7, 1000, NCELLS, 3 * NCELLS};
    const int nchunks = (int)(sizeof chunks / sizeof chunks[0]);
    tbrf_plan *plans[sizeof chunks / sizeof chunks[0]];
    for (int k = 0; k < nchunks; k++)
        if (!(plans[k] = make_plan(chunks[k], 0)))
            return 1;
    tbrf_plan *reference = make_plan(0, 0);
    if (!reference)
        return 1;

    int failures = 0;
    for (int step = 0; step < NSTEPS; step++) {
        /* The same realization every step: a frozen field the cells move
         * through (a new realization per step would be new forcing). */
        const uint64_t realization = 5;
        if (one_shot(reference, &c, realization, ref)) {
            fprintf(stderr, "one-shot: %s\n", tbrf_plan_message(reference));
            return 1;
        }
        for (int k = 0; k < nchunks; k++) {
            memset(c.forcing, 0xff, sizeof(double) * NCELLS); /* NaN: nothing stale */
            int st = tbrf_execute_stream(plans[k], realization, pull_positions, push_values, &c);
            if (st != TBRF_OK) {
                fprintf(stderr, "stream: %s\n", tbrf_plan_message(plans[k]));
                return 1;
            }
            if (memcmp(c.forcing, ref, sizeof(double) * NCELLS) != 0) {
                fprintf(stderr, "step %d chunk %lld: streamed values differ from one-shot\n",
                        step, (long long)chunks[k]);
                failures++;
            }
        }
        printf("step %d: %d chunk sizes bitwise equal to one-shot (value[0] = %.17g)\n", step,
               nchunks, ref[0]);
        move_cells(&c, 0.37);
    }

    /* Several threads at once, each on its own plan. */
    enum { NTHREADS = 4 };
    pthread_t tid[NTHREADS];
    job jobs[NTHREADS];
    if (one_shot(reference, &c, 9, ref))
        return 1;
    for (int t = 0; t < NTHREADS; t++) {
        jobs[t] = (job){&c, t == 0 ? 0 : 97 * t, 9, malloc(sizeof(double) * NCELLS), -1};
        if (!jobs[t].forcing || pthread_create(&tid[t], NULL, thread_main, &jobs[t]) != 0)
            return 1;
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(tid[t], NULL);
        if (jobs[t].status != TBRF_OK ||
            memcmp(jobs[t].forcing, ref, sizeof(double) * NCELLS) != 0) {
            fprintf(stderr, "thread %d: status %d or values differ\n", t, jobs[t].status);
            failures++;
        }
        free(jobs[t].forcing);
    }
    printf("%d threads on separate plans: bitwise equal to one-shot\n", NTHREADS);

    /* A push that refuses stops the run with TBRF_ERR_CALLBACK. */
    c.abort_at = NCELLS / 2;
    int st = tbrf_execute_stream(plans[3], 5, pull_positions, push_values, &c);
    if (st != TBRF_ERR_CALLBACK) {
        fprintf(stderr, "abort: expected TBRF_ERR_CALLBACK, got %d\n", st);
        failures++;
    } else {
        printf("aborted run: %s (%s)\n", tbrf_strerror(st), tbrf_plan_message(plans[3]));
    }

    for (int k = 0; k < nchunks; k++)
        tbrf_destroy(plans[k]);
    tbrf_destroy(reference);
    free(c.x);
    free(c.y);
    free(c.z);
    free(c.forcing);
    free(ref);
    return failures ? 1 : 0;
}
