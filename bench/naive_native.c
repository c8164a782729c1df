/* naive_native.c — the straightforward projection loop a user would write
 * in float, compiled by itself with -O3 -march=native (bench/CMakeLists.txt):
 * every cell of an n^3 grid against every line, linear interpolation, an
 * OpenMP loop over cells. The baseline of bench_projection's ratio;
 * tbrf itself stays portable and dispatches its SIMD at run time. */
#include <stdint.h>

void naive_float_native(int64_t n, const float *lines, int64_t M, const float *axis, const float *off,
                        int L, const float c[3], float norm, float *out)
{
    const int64_t N = n * n * n;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < N; i++) {
        const float x = (float)(i % n) - c[0], y = (float)((i / n) % n) - c[1],
                    z = (float)(i / (n * n)) - c[2];
        float sum = 0.0f;
        for (int l = 0; l < L; l++) {
            const float t = x * axis[3 * l] + y * axis[3 * l + 1] + z * axis[3 * l + 2] + off[l];
            const int j = (int)t;
            const float f = t - (float)j;
            const float *yl = lines + (int64_t)l * M;
            sum += yl[j] + f * (yl[j + 1] - yl[j]);
        }
        out[i] = sum * norm;
    }
}
