/* driver.h — turbulence driving (tbrf_driver_*, doc/driving.md): the
 * Fourier modes of a periodic box in a band of a model's spectrum, each an
 * Ornstein–Uhlenbeck (OU) process on a fixed driving interval drawn by
 * random access in time (ou_tree.h: Philox under the seed with counter
 * (mode, TBRF_STREAM_OU | block, tree node)), summed
 * directly at positions through the backend table (drive_points) or
 * through the type-2 NUFFT of methods/nufft (CPU); over a non-periodic
 * domain, OU line modes projected by the turning-bands engine. */
#ifndef TBRF_DRIVER_H
#define TBRF_DRIVER_H

/* Philox word 1 of the driver's draws: TBRF_STREAM_OU | block (0, 1 a
 * box, 2, 3 line modes), with word 0 the mode m packed in 10 bits per axis
 * (or the line mode's process index) and words 2-3 the tree node's update
 * index; core/streams.h keeps every other use off it. */
#include "core/streams.h" /* TBRF_STREAM_OU */

/* Largest |m_d| of a driven mode (10 bits per axis in the counter). */
#define TBRF_DRIVE_MMAX 511

/* Most modes (one of each +-m pair) a driver keeps. */
#define TBRF_DRIVE_MAX_MODES ((int64_t)1 << 20)

#endif
