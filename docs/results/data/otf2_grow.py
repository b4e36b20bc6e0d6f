#!/usr/bin/python3
"""Grows a papcoll trace for the OTF2 export benchmark (docs/results/otf2-export.md):
copies SRC to DST and repeats each site's calls until it has N, each repetition
shifted by the calls' span so that times keep increasing.

usage: otf2_grow.py SRC.h5 DST.h5 N
"""
import shutil
import sys

import h5py
import numpy as np

src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
shutil.copy(src, dst)
with h5py.File(dst, "r+") as f:
    for g in f["sites"].values():
        r, it = g["ranks"][()], g["iters"][()]
        m = len(r)
        period = 3 * 0.01
        rows = np.resize(r, (n,) + r.shape[1:])
        its = np.resize(it, (n,))
        shift = (np.arange(n) // m) * m * period
        for fld in ("compute_start", "edge", "compute_end", "arrival", "exit"):
            rows[fld] = rows[fld] + shift[:, None]
        its["iter"] = np.arange(n)
        g["ranks"].resize((n,) + r.shape[1:])
        g["ranks"][...] = rows
        g["iters"].resize((n,))
        g["iters"][...] = its
