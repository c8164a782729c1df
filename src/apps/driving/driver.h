/* driver.h — turbulence driving (tbrf_driver_*, doc/driving.md): the
 * Fourier modes of a periodic box in a band of a model's spectrum, each an
 * Ornstein–Uhlenbeck (OU) process advanced on a fixed driving interval and
 * drawn from Philox under the seed with counter (mode, update), summed
 * directly at positions through the backend table (drive_points) or
 * through the type-2 NUFFT of methods/nufft (CPU); over a non-periodic
 * domain, OU line modes projected by the turning-bands engine. */
#ifndef TBRF_DRIVER_H
#define TBRF_DRIVER_H

/* Philox word 1 of the driver's draws: 0x10000000 | block (0, 1), with
 * word 0 the mode m packed in 10 bits per axis and words 2-3 the update
 * index. The lines (word 1 < 2^24), the rotation (0xFFFFFFFF), the line
 * shifts (0x40000000 | l), the vector amplitudes (0x20000000 | l) and the
 * FFT modes (bit 31) never use it. */
#include "core/streams.h" /* TBRF_STREAM_DRIVE */

/* Largest |m_d| of a driven mode (10 bits per axis in the counter). */
#define TBRF_DRIVE_MMAX 511

/* Most modes (one of each +-m pair) a driver keeps. */
#define TBRF_DRIVE_MAX_MODES ((int64_t)1 << 20)

#endif
