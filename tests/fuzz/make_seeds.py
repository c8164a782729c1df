#!/usr/bin/env python3
"""make_seeds.py — writes the seed corpus of the fuzz targets into
corpus/<target>/ (committed; README.md says when to run it again).

fuzz_h5 and fuzz_nc read their input as the operations that fuzz_h5.c and
fuzz_nc.c decode; the seeds here spell valid tbrf files (a grid, a points
file, a table model) and a few hostile ones in that encoding, so that the
fuzzer starts deep in the readers."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

NAMES = ["model", "model_kind", "model_index", "model_kmin", "model_kmax", "model_length",
         "model_nu", "normalization", "variance", "amplitude", "model_table_file", "dim",
         "lines", "oversampling", "line_method", "method", "periodic", "max_padding", "seed",
         "realization", "precision", "backend", "backend_requested", "domain_lo", "domain_hi",
         "resolution", "geometry", "grid_origin", "grid_spacing", "grid_counts", "npoints",
         "points_file", "line_samples", "line_spacing", "line_length", "model_variance",
         "variance_resolved", "amplitude_used", "padding", "command", "tbrf_version", "other"]
WORDS = ["gaussian", "powerlaw", "exponential", "matern", "vonkarman", "table", "grid", "points",
         "variance", "amplitude", "spectral", "circulant", "tb", "fft", "double", "float", "cpu",
         "auto", "", "callback"]
DSETS = ["field", "points", "model_table", "value", "x", "y", "z"]


def n(name):
    return NAMES.index(name)


def S(name, word, vlen=False, utf8=False, pad=0):
    """A scalar string attribute: a known word. pad 0 NULLTERM, 1 NULLPAD,
    2 SPACEPAD (fixed length only; size = the word's length)."""
    out = [1 if vlen else 0, n(name), WORDS.index(word), 1 if utf8 else 0]
    if not vlen:
        out += [0] + ([0] if pad == 0 else [1, 0] if pad == 1 else [1, 1])
    return out


def SA(name, word, count, vlen=False):
    """An array of `count` (1..8) strings."""
    out = [3 if vlen else 2, n(name), count - 1, 0, WORDS.index(word), 0]
    if not vlen:
        out += [0, 0]
    return out


def num(kind, name, vals, scalar=True):
    """kind 0 int64, 1 uint64, 2 double, 3 int32, 4 float, 5 uint8."""
    out = [4, kind, n(name), 0 if scalar and len(vals) == 1 else len(vals)]
    for v in vals:
        if kind in (2, 4):
            out += [0, 16, 0, int(64 + 8 * v)]
        else:
            out += [0, int(v) + 16, 0, 64]
    return out


def I(name, *vals):
    return num(0, name, vals)


def U(name, v):
    return num(1, name, [v])


def D(name, *vals):
    return num(2, name, vals, scalar=len(vals) == 1)


def DS(name, dims, written=True, ftype=0):
    """A dataset of small dims (each < 20), float64 (ftype 0), written
    with 0.5 i + 0.125 or never written."""
    out = [8, DSETS.index(name), 0, len(dims)] + list(dims) + [ftype, 1 if written else 0, 1]
    return out + ([0] if written else [])


def common(kind="gaussian", geometry="grid"):
    return (S("model_kind", kind) + D("model_length", 2) + S("normalization", "variance") +
            D("variance", 1) + I("dim", 3) + I("lines", 16) + I("oversampling", 4) +
            S("line_method", "spectral") + S("method", "tb") + I("max_padding", 3) +
            U("seed", 5) + U("realization", 0) + S("precision", "double") +
            S("backend", "cpu") + D("resolution", 1) + S("geometry", geometry) +
            D("domain_lo", 0, 0, 0) + D("domain_hi", 7, 7, 7))


def grid():
    return (common() + D("grid_origin", 0, 0, 0) + D("grid_spacing", 1, 1, 1) +
            I("grid_counts", 8, 8, 8) + DS("field", [8, 8, 8]))


def points():
    return common(geometry="points") + I("npoints", 10) + DS("points", [10, 3]) + DS("value", [10])


def table():
    return (grid() + S("model_kind", "table") + DS("model_table", [6, 2]))


SEEDS_H5 = {
    "grid": grid(),
    "points": points(),
    "table": table(),
    "grid_utf8": grid() + S("model_kind", "gaussian", vlen=True, utf8=True),
    "grid_nullpad": grid() + S("geometry", "grid", pad=1) + S("line_method", "spectral", pad=2),
    "strarray": grid() + SA("model_kind", "gaussian", 8),
    "vlarray": grid() + SA("geometry", "grid", 2, vlen=True),
    "unwritten": grid() + DS("field", [8, 8, 8], written=False),
    "negative_seed": grid() + I("seed", -1),
    "int_points": points() + DS("points", [10, 3], ftype=2),
    "wrong_counts": grid() + I("grid_counts", 4, 4),
    "empty": [],
}

# fuzz_nc: format, length, unlimited, other dim, nvars, per variable
# (type, rank, fill, [fill value], written), per written variable a pattern.
SEEDS_NC = {
    "classic_xyz": [0, 10, 1, 0, 3] + [0, 1, 0, 2] * 3 + [0, 0, 0],
    "nc4_xy": [2, 12, 1, 0, 2] + [0, 1, 0, 2] * 2 + [0, 0],
    "nc4_half": [2, 12, 1, 0, 3] + [0, 1, 0, 2, 0, 1, 0, 2, 0, 1, 0, 1] + [0, 0, 0],
    "int_coords": [1, 10, 1, 0, 3] + [164, 1, 0, 2] * 3 + [0, 0, 0],
    "unlimited": [2, 8, 0, 0, 3] + [0, 1, 0, 2] * 3 + [0, 0, 0],
    "unwritten_big": [2, 250, 1, 0, 3] + [0, 1, 0, 0] * 3,
}

SEEDS_TABLE = {
    "simple": b"0.1 1\n0.5 0.5\n2 0.25\n",
    "comments": b"# k P\n\n0.1 1 # first\n0.5 0.5\r\n" + b"#" + b"x" * 6000 + b"\n2 0.25\n",
    "long_comment_row": b"# " + b"c" * 5000 + b" 0.05 7\n0.1 1\n1 2\n",
    "bad": b"0.1 1\nfoo bar\n",
    "decreasing": b"1 1\n0.5 1\n",
    "nul": b"0.1 1\n\x00\x00\n",
    "hex": b"0x1p-3 1e-300\ninf 1\nnan nan\n",
}

SEEDS_POINTS = {
    "xyz": b"0 0 0\n1 2 3\n# comment\n\n4.5 -1 2e3\n",
    "xy": b"0 0\n1 1\n2 2\n",
    "mixed": b"0 0 0\n1 1\n",
    "bad": b"1 2 x\n",
    "inf": b"1 2 1e999\n",
    "nul": b"1 2 3\n\x00\n",
    "crlf": b"1 2 3\r\n4 5 6\r\n",
}


# fuzz_arepo: a member count byte (1 + b % 3), then per member a count of
# operations and the operations (fuzz_arepo.c; README.md, "fuzz_arepo").
def A_BOX():
    return [0, 1, 1]                      # /Header BoxSize = 1.0 (double)


def A_COORDS(rows=8, part=1):
    return [2, part, 0, 2, rows, 0, 0, 1, 0]  # PartType<part>/Coordinates (rows, 3) in [0, 1)


def A_INT(op, v):
    return [op, 0, {0: 5, 1: 1, 2: 2, 3: 3}[v]]  # op 3 set_files, 4 set_member (int32)


def A_DIGEST(word):
    return [5, 3, word, 0]                # set_digest, a fixed string (word 0 or 1)


A_COMMAND = [6, 0, 4, 2]                  # /tbrf command, a variable-length string


def a_member(*ops):
    flat = [b for op in ops for b in op]
    return [len(ops)] + flat


def a_set(members):
    return [len(members) - 1] + [b for m in members for b in m]


SEEDS_AREPO = {
    "set_valid": a_set([a_member(A_BOX(), A_COORDS(), A_INT(3, 2), A_INT(4, 0), A_DIGEST(0),
                                 A_COMMAND),
                        a_member(A_BOX(), A_COORDS(), A_INT(3, 2), A_INT(4, 1), A_DIGEST(0),
                                 A_COMMAND)]),
    "set_mixed": a_set([a_member(A_BOX(), A_COORDS(), A_INT(3, 2), A_INT(4, 0), A_DIGEST(0)),
                        a_member(A_BOX(), A_COORDS(), A_INT(3, 2), A_INT(4, 1), A_DIGEST(1))]),
    "set_missing": a_set([a_member(A_BOX(), A_COORDS(), A_INT(3, 3), A_INT(4, 0), A_DIGEST(0))]),
    "set_bad_index": a_set([a_member(A_COORDS(), A_INT(3, 2), A_INT(4, 1), A_DIGEST(0)),
                            a_member(A_COORDS(), A_INT(3, 2), A_INT(4, 1), A_DIGEST(0))]),
    "glass": a_set([a_member(A_BOX(), A_COORDS(27, 1))]),
    "gas_points": a_set([a_member(A_COORDS(16, 0), A_COMMAND)]),
}


# fuzz_gadget: Gadget glass files (the file's bytes): format 1 and 2,
# float32 and float64, one point at BoxSize, and a truncated one.
def gadget_glass(fmt=1, npts=8, dbl=False, box=1000.0):
    import struct
    hb = bytearray(256)
    struct.pack_into("6i", hb, 0, 0, npts, 0, 0, 0, 0)
    struct.pack_into("6I", hb, 96, 0, npts, 0, 0, 0, 0)
    struct.pack_into("i", hb, 124, 1)
    struct.pack_into("d", hb, 128, box)
    pts = [((i % 2) * box / 2, (i // 2 % 2) * box / 2, (i // 4 % 2) * box / 2) for i in range(npts)]
    if npts > 1:
        pts[-1] = (box, 0.0, box / 3)
    pos = b"".join(struct.pack("3d" if dbl else "3f", *q) for q in pts)
    out = b""
    for label, rec in (("HEAD", bytes(hb)), ("POS ", pos)):
        if fmt == 2:
            out += struct.pack("i4sii", 8, label.encode(), len(rec) + 8, 8)
        out += struct.pack("i", len(rec)) + rec + struct.pack("i", len(rec))
    return out


SEEDS_GADGET = {
    "format1": gadget_glass(1),
    "format2": gadget_glass(2),
    "double": gadget_glass(1, dbl=True),
    "one": gadget_glass(1, npts=1),
    "truncated": gadget_glass(1)[:300],
}


def data(*parts):
    with open(os.path.join(HERE, "..", "data", *parts), "rb") as f:
        return f.read()


def replace_line(text, key, line):
    """text with its line starting with `key ` replaced by `line`."""
    return b"".join(line + b"\n" if ln.startswith(key + b" ") else ln + b"\n"
                    for ln in text.split(b"\n")[:-1])


TURBGEN = data("turbgen", "TurbGen.par")
SEEDS_TURBGEN = {
    "turbgen_par": TURBGEN,
    "ndim_1_5": replace_line(TURBGEN, b"ndim", b"ndim = 1.5"),
    "power_law": replace_line(TURBGEN, b"spect_form", b"spect_form = 2"),
    "binary_byte": b"ndim = 3\nL = 1\x01\n",
    "twice": b"ndim = 3\nndim = 3\n",
    "empty": b"",
}


def head(text, n):
    return b"".join(ln + b"\n" for ln in text.split(b"\n")[:n])


SEEDS_TRANSFER = {
    "camb_40_rows": head(data("transfer", "camb_transfer_99.dat"), 40),
    "class_40_rows": head(data("transfer", "class_tk_99.dat"), 40),
    "binary_byte": b"# k/h CDM baryon photon nu mass_nu total\n1 2 3 4 5 6 7\n\x01\n",
    "nuls": bytes(100),
    "camb_headerless": b"1 2 3 4 5 6 7\n2 2 3 4 5 6 7\n",
}

NGENIC = data("ngenic", "ngenic.param")
NGENIC_TAB = replace_line(NGENIC, b"WhichSpectrum", b"WhichSpectrum 2")
SEEDS_NGENIC = {  # fuzz_ngenic: the parameter file, then "%%SPECTRUM" and the table
    "ngenic_param": NGENIC,
    "with_spectrum": NGENIC_TAB + b"%%SPECTRUM\n-2 -6\n-1 -3\n0 -1\n1 0\n",
    "spectrum_nul": NGENIC_TAB + b"%%SPECTRUM\n-2 -6\n\x00\x00\n",
    "nul_byte": b"Nmesh 16\x00\n",
    "nsample_negative": b"Nsample -16\n",
}


def write(target, seeds):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(bytes(data))


write("fuzz_h5", SEEDS_H5)
write("fuzz_nc", SEEDS_NC)
write("fuzz_table", SEEDS_TABLE)
write("fuzz_points_text", SEEDS_POINTS)
write("fuzz_arepo", SEEDS_AREPO)
write("fuzz_gadget", SEEDS_GADGET)
write("fuzz_turbgen", SEEDS_TURBGEN)
write("fuzz_transfer", SEEDS_TRANSFER)
write("fuzz_ngenic", SEEDS_NGENIC)
