#!/usr/bin/env python3
"""same.py A B — exit 0 when the HDF5 files A and B hold the same groups,
datasets (shape, stored type and bytes) and attributes (type and bytes),
else 1 naming the first difference. Object timestamps and the file's
free-space layout are ignored: they are no part of an initial condition."""
import sys

import h5py
import numpy as np


def attrs(obj):
    return {k: obj.attrs[k] for k in obj.attrs}


def same_value(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def walk(a, b, path, out):
    ka, kb = attrs(a), attrs(b)
    if sorted(ka) != sorted(kb):
        out.append("%s: attributes %s vs %s" % (path, sorted(ka), sorted(kb)))
    for k in ka:
        if k in kb and not same_value(ka[k], kb[k]):
            out.append("%s: attribute %s: %r vs %r" % (path, k, ka[k], kb[k]))
    if isinstance(a, h5py.Dataset):
        if not isinstance(b, h5py.Dataset) or not same_value(a[()], b[()]):
            out.append("%s: dataset differs" % path)
        return
    if sorted(a.keys()) != sorted(b.keys()):
        out.append("%s: members %s vs %s" % (path, sorted(a.keys()), sorted(b.keys())))
        return
    for k in a.keys():
        walk(a[k], b[k], path.rstrip("/") + "/" + k, out)


def main():
    out = []
    with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
        walk(a, b, "/", out)
    if out:
        print("%s and %s differ: %s" % (sys.argv[1], sys.argv[2], "; ".join(out[:5])))
        return 1
    print("%s and %s: the same datasets and attributes" % (sys.argv[1], sys.argv[2]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
