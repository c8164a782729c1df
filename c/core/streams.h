/* streams.h — the registry of random-stream key words. Every random number
 * tbrf draws is philox4x32-10(ctr = (w0, w1, r lo, r hi), key = seed)
 * (include/tbrf/rng/philox.h); what drew it is told apart by word 1 alone,
 * so each use owns one half-open range of w1 below. The compile-time
 * checks at the end fail the build when two ranges overlap, which is what
 * keeps a field, a driver, an initial condition's point placement and the
 * public tbrf_rng_* stream of the same seed from ever sharing a counter
 * (doc/design.md, "Random streams"). A new use takes a free range here and
 * adds it to the checks. Not installed. */
#ifndef TBRF_CORE_STREAMS_H
#define TBRF_CORE_STREAMS_H

#include "tbrf/rng/philox.h" /* TBRF_STREAM_ROTATION, TBRF_STREAM_SHIFT (device code uses them) */

/* Turning-bands line modes: w0 = mode block, w1 = line index l < 2^24
 * (plan.c's MAX_LINES). */
#define TBRF_STREAM_LINES 0x00000000u
#define TBRF_STREAM_LINES_END 0x01000000u

/* The public streams (tbrf_rng_u32's Philox stream and the micro-streams
 * tbrf_philox_id/_pair): [TBRF_STREAM_RNG, TBRF_STREAM_RNG_END), defined
 * in include/tbrf/rng/philox.h because device code uses them. */

/* Turbulence driving up to 0.5: w0 = mode (or line mode), r = update
 * index, w1 = TBRF_STREAM_DRIVE | 0..3. Retired in 0.6.0 (the OU steps it
 * keyed are gone), kept reserved so no later use takes it. */
#define TBRF_STREAM_DRIVE 0x10000000u
#define TBRF_STREAM_DRIVE_END 0x10000004u

/* Turbulence driving's OU tree (c/apps/driving/ou_tree.c, 0.6.0 on):
 * w0 = a box mode (10 bits per axis) or a line mode's process index, r =
 * the tree node's update index (0 .. 2^48), w1 = TBRF_STREAM_OU | block:
 * 0, 1 a box's modes, 2, 3 a non-periodic domain's line modes. */
#define TBRF_STREAM_OU 0x10000100u
#define TBRF_STREAM_OU_END 0x10000104u

/* Turbulence driving's sparse mode selection (directions > 0, 0.6.0 on):
 * w0 = the box mode (as the OU tree's), r = 0, one word per mode. */
#define TBRF_STREAM_DRIVE_SELECT 0x10000200u
#define TBRF_STREAM_DRIVE_SELECT_END 0x10000201u

/* Initial conditions: point placement (jittered lattice, random points,
 * glass tiling) and any other draw of the IC physics; w1 =
 * TBRF_STREAM_IC | purpose << 16 | (index >> 32), purpose < 256. */
#define TBRF_STREAM_IC 0x18000000u
#define TBRF_STREAM_IC_END 0x19000000u
/* The purposes of the IC range (c/apps/ic/points.c): the jittered
 * lattice's offsets and the random points' coordinates, w0 = point index
 * (low 32 bits), index < 2^48 so that index >> 32 fits below the purpose. */
#define TBRF_IC_PURPOSE_JITTER 1u
#define TBRF_IC_PURPOSE_RANDOM 2u
#define TBRF_IC_INDEX_LIMIT ((int64_t)1 << 48)
#define TBRF_IC_STREAM(purpose, index) \
    (TBRF_STREAM_IC | (purpose) << 16 | (uint32_t)((uint64_t)(index) >> 32))

/* Vector line amplitudes: w1 = TBRF_STREAM_VECTOR | l. */
#define TBRF_STREAM_VECTOR 0x20000000u
#define TBRF_STREAM_VECTOR_END 0x21000000u

/* The lines' sub-sample shifts: w1 = TBRF_STREAM_SHIFT | l. */
#define TBRF_STREAM_SHIFT_END 0x41000000u

/* The FFT method's modes: w1 = TBRF_STREAM_FFT | (K >> 32), K < 2^63 - 2^32. */
#define TBRF_STREAM_FFT 0x80000000u
#define TBRF_STREAM_FFT_END 0xFFFFFFFFu

/* The line directions' rotation: w1 = TBRF_STREAM_ROTATION (the last
 * value, which the FFT range stops short of). */

/* Disjoint and in increasing order, so no two uses share a counter. */
_Static_assert(TBRF_STREAM_LINES_END <= TBRF_STREAM_RNG, "lines overlap the public RNG");
_Static_assert(TBRF_STREAM_RNG_END <= TBRF_STREAM_DRIVE, "public RNG overlaps driving");
_Static_assert(TBRF_STREAM_DRIVE_END <= TBRF_STREAM_OU, "the retired driving range overlaps the OU tree");
_Static_assert(TBRF_STREAM_OU_END <= TBRF_STREAM_DRIVE_SELECT, "the OU tree overlaps mode selection");
_Static_assert(TBRF_STREAM_DRIVE_SELECT_END <= TBRF_STREAM_IC,
               "driving's mode selection overlaps initial conditions");
_Static_assert(TBRF_IC_PURPOSE_JITTER < 256 && TBRF_IC_PURPOSE_RANDOM < 256 &&
               TBRF_IC_PURPOSE_JITTER != TBRF_IC_PURPOSE_RANDOM,
               "IC purposes are distinct and fit 8 bits");
_Static_assert(TBRF_IC_STREAM(255u, TBRF_IC_INDEX_LIMIT - 1) < TBRF_STREAM_IC_END,
               "the IC words of every purpose and index stay in the IC range");
_Static_assert(TBRF_STREAM_IC_END <= TBRF_STREAM_VECTOR, "initial conditions overlap vector lines");
_Static_assert(TBRF_STREAM_VECTOR_END <= TBRF_STREAM_SHIFT, "vector lines overlap shifts");
_Static_assert(TBRF_STREAM_SHIFT_END <= TBRF_STREAM_FFT, "shifts overlap the FFT modes");
_Static_assert(TBRF_STREAM_FFT_END <= TBRF_STREAM_ROTATION, "FFT modes overlap the rotation");
_Static_assert(TBRF_STREAM_RNG < TBRF_STREAM_RNG_ID && TBRF_STREAM_RNG_ID < TBRF_STREAM_RNG_PAIR &&
                   TBRF_STREAM_RNG_PAIR < TBRF_STREAM_RNG_END,
               "the public families are ordered");
_Static_assert((TBRF_STREAM_RNG | 0x03FFFFFFu) < TBRF_STREAM_RNG_ID,
               "tbrf_rng_u32's block bits (blocks < 2^58) stay in its family");
_Static_assert((TBRF_STREAM_RNG_ID | TBRF_STREAM_RNG_N_MASK) < TBRF_STREAM_RNG_PAIR &&
                   (TBRF_STREAM_RNG_PAIR | TBRF_STREAM_RNG_N_MASK) < TBRF_STREAM_RNG_END,
               "the micro-streams' block numbers stay in their families");

#endif
