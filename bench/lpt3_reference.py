"""bench/lpt3_reference.py — an independent numpy third-order LPT from a
first-order displacement on the lattice (doc/ic.md, "Third order"), for
bench/cosmo_peers_lpt3.py and tests/cli/arepo_cosmo_lpt3.py.

Psi1 (3, G, G, G), index [c, ix, iy, iz], in length units with D1 in it,
is grad phi (so phi,ij = d_j Psi1_i). From it:
    delta2 = sum_{i<j} (phi,ii phi,jj - phi,ij^2),   lap phi2 = delta2,
    lap phi3a = det(phi,ij),
    lap phi3b = sum_{i<j} (phi,ii phi2,jj + phi2,ii phi,jj - 2 phi,ij phi2,ij) / 2,
    lap A3c   = sum_i grad phi2,i x grad phi,i,
and the three terms T3a = grad phi3a, T3b = grad phi3b, T3c = curl A3c,
so that Psi3 = -T3a/3 + (10/21) T3b - T3c/7 (monofonIC's D3a, D3b, D3c
over D1^3: D1^3 is in the products already). Products are formed on a
padded grid and kept on the particles' modes |m_d| < G/2 (the Nyquist
planes zeroed), in one of three ways:
    "tbrf"      every product, cubic ones too, on the 3/2-padded grid
                (tbrf's cosmo_lpt3.c);
    "monofonic" products of two on the 3/2-padded grid, a triple as
                (a b kept on the particles' modes) times c (monofonIC's
                OrszagConvolver::convolve3);
    "exact"     on the grid padded twice: every kept mode of a cubic
                exact (its reach 3K beside the kept K, K = G/2 - 1).
"""
import numpy as np


def kgrid(G, box):
    k1 = 2 * np.pi / box * np.fft.fftfreq(G, 1.0 / G)
    k1[G // 2] = 0.0  # a derivative of the Nyquist mode is not real
    return np.meshgrid(k1, k1, k1, indexing="ij")


class Padded:
    """Fields moved between the particles' modes (G^3 coefficients) and a
    padded M^3 real grid."""

    def __init__(self, G, M):
        h = G // 2
        self.G, self.M = G, M
        self.src = np.r_[0:h, G - h + 1:G]  # modes -h+1 .. h-1
        self.dst = np.r_[0:h, M - h + 1:M]

    def up(self, X):
        Y = np.zeros((self.M,) * 3, complex)
        Y[np.ix_(self.dst, self.dst, self.dst)] = X[np.ix_(self.src, self.src, self.src)]
        return np.fft.ifftn(Y).real * (self.M / self.G) ** 3

    def down(self, y):
        C = np.fft.fftn(y) * (self.G / self.M) ** 3
        out = np.zeros((self.G,) * 3, complex)
        out[np.ix_(self.src, self.src, self.src)] = C[np.ix_(self.dst, self.dst, self.dst)]
        return out


def hessian(P, K):
    """phi,ij = -k_i k_j phi_k of the potential of the modes P[i] of Psi:
    phi_k = -i k.P / k^2 (the curl-free part, as tbrf's cosmo_lpt.c)."""
    phi = inv_lap(1j * (K[0] * P[0] + K[1] * P[1] + K[2] * P[2]), K)
    return [[-K[i] * K[j] * phi for j in range(3)] for i in range(3)]


def inv_lap(S, K):
    k2 = K[0] ** 2 + K[1] ** 2 + K[2] ** 2
    out = np.where(k2 > 0, -S / np.where(k2 > 0, k2, 1.0), 0.0)
    return out


def terms(psi1, box, scheme="tbrf"):
    """T3a, T3b, T3c (each (3, G, G, G), real) and Psi2 / (D2/D1^2) of psi1."""
    G = psi1.shape[1]
    K = kgrid(G, box)
    M = 2 * G if scheme == "exact" else 3 * G // 2
    pd = Padded(G, M)
    P = [np.fft.fftn(psi1[c]) for c in range(3)]
    A = hessian(P, K)
    a = [[pd.up(A[i][j]) for j in range(3)] for i in range(3)]
    d2 = np.zeros((M,) * 3)
    for i in range(3):
        for j in range(i + 1, 3):
            d2 += a[i][i] * a[j][j] - a[i][j] * a[i][j]
    phi2 = inv_lap(pd.down(d2), K)
    B = [[-K[i] * K[j] * phi2 for j in range(3)] for i in range(3)]
    b = [[pd.up(B[i][j]) for j in range(3)] for i in range(3)]
    if scheme == "monofonic":
        def pair(i, j, k, l):
            return pd.up(pd.down(a[i][j] * a[k][l]))
        det = (pair(0, 0, 1, 1) * a[2][2] + 2 * pair(0, 1, 0, 2) * a[1][2]
               - pair(1, 2, 1, 2) * a[0][0] - pair(0, 2, 0, 2) * a[1][1]
               - pair(0, 1, 0, 1) * a[2][2])
    else:
        det = (a[0][0] * (a[1][1] * a[2][2] - a[1][2] ** 2)
               - a[0][1] * (a[0][1] * a[2][2] - a[1][2] * a[0][2])
               + a[0][2] * (a[0][1] * a[1][2] - a[1][1] * a[0][2]))
    mix = np.zeros((M,) * 3)
    for i in range(3):
        for j in range(i + 1, 3):
            mix += a[i][i] * b[j][j] + b[i][i] * a[j][j] - 2 * a[i][j] * b[i][j]
    cvec = [np.zeros((M,) * 3) for _ in range(3)]
    for i in range(3):
        cvec[0] += b[i][1] * a[i][2] - b[i][2] * a[i][1]
        cvec[1] += b[i][2] * a[i][0] - b[i][0] * a[i][2]
        cvec[2] += b[i][0] * a[i][1] - b[i][1] * a[i][0]
    p3a = inv_lap(pd.down(det), K)
    p3b = inv_lap(pd.down(mix), K) / 2
    A3 = [inv_lap(pd.down(cvec[c]), K) for c in range(3)]

    def real(F):
        return np.stack([np.fft.ifftn(F[c]).real for c in range(3)])

    t3a = real([1j * K[c] * p3a for c in range(3)])
    t3b = real([1j * K[c] * p3b for c in range(3)])
    t3c = real([1j * (K[(c + 1) % 3] * A3[(c + 2) % 3] - K[(c + 2) % 3] * A3[(c + 1) % 3])
                for c in range(3)])
    psi2 = real([1j * K[c] * phi2 for c in range(3)])
    return t3a, t3b, t3c, psi2


COEFFS = (-1.0 / 3.0, 10.0 / 21.0, -1.0 / 7.0)


def psi3(psi1, box, scheme="tbrf"):
    t = terms(psi1, box, scheme)
    return COEFFS[0] * t[0] + COEFFS[1] * t[1] + COEFFS[2] * t[2]


def fit(psi3_file, t):
    """Least-squares (ca, cb, cc) of psi3_file = ca T3a + cb T3b + cc T3c and
    the relative rms residual."""
    X = np.stack([t[0].ravel(), t[1].ravel(), t[2].ravel()], axis=1)
    y = psi3_file.ravel()
    c, *_ = np.linalg.lstsq(X, y, rcond=None)
    r = np.linalg.norm(y - X @ c) / np.linalg.norm(y)
    return c, float(r)
