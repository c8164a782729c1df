/* anisotropy.c — the matrices of an anisotropic, rotated model
 * (tbrf_model_set_anisotropy): C(x) = C_iso(|S^-1 R^T x|), equivalently
 * P(k) = det S P_iso(|S R^T k|). The methods apply them where directions
 * and wavevectors are made (turning-bands line axes, FFT mode amplitudes),
 * so the projection kernels of every backend stay as they are. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/model.h"

/* result = G_ij(t) result: the Givens rotation of GSTools'
 * givens_rotation, [i][i] = [j][j] = cos t, [i][j] = -sin t, [j][i] = sin t. */
static void givens_left(int i, int j, double t, double R[9])
{
    const double c = cos(t), s = sin(t);
    for (int col = 0; col < 3; col++) {
        const double a = R[3 * i + col], b = R[3 * j + col];
        R[3 * i + col] = c * a - s * b;
        R[3 * j + col] = s * a + c * b;
    }
}

void tbrfi_model_anis_rotation(const tbrf_model *m, int dim, double R[9])
{
    static const double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memcpy(R, I, sizeof I);
    if (!m->anis)
        return;
    /* GSTools' rotation_planes (xy, xz, yz) with the alternating signs
     * that make the angles Tait-Bryan */
    givens_left(0, 1, m->anis_angles[0], R);
    if (dim == 3) {
        givens_left(0, 2, -m->anis_angles[1], R);
        givens_left(1, 2, m->anis_angles[2], R);
    }
}

int tbrfi_model_anis_axes(const tbrf_model *m, int dim, double T[9])
{
    tbrfi_model_anis_rotation(m, dim, T);
    if (!m->anis)
        return 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < dim; c++)
            T[3 * r + c] /= m->anis_scale[c];
    return 1;
}

int tbrfi_model_anis_waves(const tbrf_model *m, int dim, double K[9], double *det)
{
    double R[9];
    tbrfi_model_anis_rotation(m, dim, R);
    *det = 1.0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            K[3 * r + c] = (r < dim && m->anis ? m->anis_scale[r] : 1.0) * R[3 * c + r];
    for (int d = 0; m->anis && d < dim; d++)
        *det *= m->anis_scale[d];
    return m->anis;
}

int tbrfi_model_anis_check(const tbrf_model *m, int dim, char *msg, size_t msgsize)
{
    if (!m->anis || dim == 3)
        return TBRF_OK;
    if (m->anis_scale[2] != 1.0 || m->anis_angles[1] != 0.0 || m->anis_angles[2] != 0.0) {
        snprintf(msg, msgsize, "the model's anisotropy is three-dimensional (factors %g, %g, %g; "
                 "angles %g, %g, %g) but the field is 2D: give 2 factors and 1 angle",
                 m->anis_scale[0], m->anis_scale[1], m->anis_scale[2], m->anis_angles[0],
                 m->anis_angles[1], m->anis_angles[2]);
        return TBRF_ERR_INVALID;
    }
    return TBRF_OK;
}
