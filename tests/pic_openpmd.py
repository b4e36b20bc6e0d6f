#!/usr/bin/python3
"""tests/pic_openpmd.py FILE...: checks openPMD 1.1.0 snapshots of bin/pic
with an independent reader (h5py): every attribute the base standard
(STANDARD.md) and the ED-PIC extension (EXT_ED-PIC.md) require, with its
type, on the root, the iteration, the meshes group, each mesh record and
component, each particle species, record and component (constant
components: value and shape), plus the consistency of the data (shapes,
constant shapes against the particle count, the file name against
iterationFormat).  Prints one line per problem; exit 0 when none, 1 when
any, 77 when h5py is missing.
"""
import os
import re
import sys

try:
    import h5py
    import numpy as np
except ImportError:
    print("pic_openpmd.py: SKIP: python3 h5py/numpy not installed")
    sys.exit(77)

problems = []


def bad(path, msg):
    problems.append("%s: %s" % (path, msg))


def string_attr(obj, name, where, pattern=None, allowed=None):
    if name not in obj.attrs:
        return bad(where, "missing attribute %s" % name)
    v = obj.attrs[name]
    if not isinstance(v, (bytes, np.bytes_)):
        return bad(where, "%s must be a fixed-length string, is %s" % (name, type(v).__name__))
    s = v.decode("ascii")
    if pattern and not re.fullmatch(pattern, s):
        bad(where, "%s = '%s' does not match %s" % (name, s, pattern))
    if allowed and s not in allowed:
        bad(where, "%s = '%s' not one of %s" % (name, s, allowed))
    return s


def number_attr(obj, name, where, kinds=(np.float32, np.float64), shape=None):
    if name not in obj.attrs:
        return bad(where, "missing attribute %s" % name)
    v = np.asarray(obj.attrs[name])
    if v.dtype.type not in kinds:
        bad(where, "%s has type %s, expected %s" % (name, v.dtype, [k.__name__ for k in kinds]))
    if shape is not None and v.shape != shape:
        bad(where, "%s has shape %s, expected %s" % (name, v.shape, shape))
    return v


def strings_attr(obj, name, where, n):
    if name not in obj.attrs:
        return bad(where, "missing attribute %s" % name)
    v = np.asarray(obj.attrs[name])
    if v.dtype.kind != "S" or v.shape != (n,):
        bad(where, "%s must be %d fixed-length strings, is %s %s" % (name, n, v.dtype, v.shape))
    return [x.decode() for x in v]


def check_root(f, path):
    string_attr(f, "openPMD", "/", r"1\.1\.0")
    number_attr(f, "openPMDextension", "/", (np.uint32,), ())
    if "openPMDextension" in f.attrs and int(f.attrs["openPMDextension"]) & 1 != 1:
        bad("/", "openPMDextension does not declare ED-PIC (ID 1)")
    string_attr(f, "basePath", "/", r"/data/%T/")
    meshes = string_attr(f, "meshesPath", "/")
    parts = string_attr(f, "particlesPath", "/")
    enc = string_attr(f, "iterationEncoding", "/", allowed=("fileBased", "groupBased"))
    fmt = string_attr(f, "iterationFormat", "/")
    for name in ("software", "softwareVersion"):
        string_attr(f, name, "/")
    string_attr(f, "date", "/", r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} [+-][0-9]{4}")
    if enc == "fileBased" and fmt:
        regex = re.escape(fmt).replace("%T", "([0-9]+)")
        m = re.fullmatch(regex, os.path.basename(path))
        if not m:
            bad("/", "file name %s does not follow iterationFormat %s" % (os.path.basename(path), fmt))
            return meshes, parts, None
        return meshes, parts, m.group(1)
    return meshes, parts, None


def check_record_common(rec, where, particle):
    number_attr(rec, "unitDimension", where, (np.float64,), (7,))
    number_attr(rec, "timeOffset", where)
    if particle:
        number_attr(rec, "macroWeighted", where, (np.uint32,), ())
        number_attr(rec, "weightingPower", where, (np.float64,), ())


def check_mesh(rec, where, dims):
    string_attr(rec, "geometry", where, allowed=("cartesian",))
    string_attr(rec, "dataOrder", where, allowed=("C", "F"))
    strings_attr(rec, "axisLabels", where, dims)
    number_attr(rec, "gridSpacing", where, shape=(dims,))
    number_attr(rec, "gridGlobalOffset", where, (np.float64,), (dims,))
    number_attr(rec, "gridUnitSI", where, (np.float64,), ())
    string_attr(rec, "fieldSmoothing", where)
    check_record_common(rec, where, False)
    comps = [rec] if isinstance(rec, h5py.Dataset) else [rec[c] for c in rec]
    for c in comps:
        w = where if c is rec else where + "/" + c.name.split("/")[-1]
        number_attr(c, "unitSI", w, (np.float64,), ())
        number_attr(c, "position", w, shape=(dims,))
        if isinstance(c, h5py.Dataset) and c.ndim != dims:
            bad(w, "a %d-D record in a %d-D mesh" % (c.ndim, dims))


def check_meshes(g, where):
    for name in ("fieldSolver", "currentSmoothing", "chargeCorrection"):
        string_attr(g, name, where)
    if g.attrs.get("fieldSolver") in (b"other", b"GPSTD"):
        string_attr(g, "fieldSolverParameters", where)
    strings_attr(g, "fieldBoundary", where, 4)
    strings_attr(g, "particleBoundary", where, 4)
    if "E" not in g:
        bad(where, "no electric field record E")
    for name in g:
        check_mesh(g[name], where + name, 2)


def check_component(c, where, n):
    number_attr(c, "unitSI", where, (np.float64,), ())
    if isinstance(c, h5py.Group):  # constant component
        if "value" not in c.attrs:
            bad(where, "constant component without value")
        shape = number_attr(c, "shape", where, (np.uint64,), (1,))
        if shape is not None and int(shape[0]) != n:
            bad(where, "constant shape %s, but %d particles" % (shape, n))
    elif c.shape != (n,):
        bad(where, "shape %s, expected (%d,)" % (c.shape, n))


def check_species(sp, where):
    number_attr(sp, "particleShape", where)
    for name in ("currentDeposition", "particlePush", "particleInterpolation", "particleSmoothing"):
        string_attr(sp, name, where)
    for name in ("position", "positionOffset"):
        if name not in sp:
            bad(where, "missing required record %s" % name)
    if "position" not in sp:
        return
    x = sp["position"]["x"]
    n = int(x.attrs["shape"][0]) if isinstance(x, h5py.Group) else x.shape[0]
    for name in sp:
        rec, w = sp[name], where + name
        check_record_common(rec, w, True)
        comps = [(rec, w)] if not isinstance(rec, h5py.Group) or "value" in rec.attrs else \
            [(rec[c], w + "/" + c) for c in rec]
        for c, cw in comps:
            check_component(c, cw, n)


def check_file(path):
    with h5py.File(path, "r") as f:
        meshes, parts, it = check_root(f, path)
        if "data" not in f or len(f["data"]) != 1:
            return bad("/data", "a fileBased file must hold exactly one iteration")
        name = list(f["data"])[0]
        if not name.isdigit() or (it is not None and name != it):
            bad("/data/" + name, "iteration group must be the file's iteration %s" % it)
        base = f["data"][name]
        where = "/data/%s/" % name
        number_attr(base, "time", where)
        number_attr(base, "dt", where)
        number_attr(base, "timeUnitSI", where, (np.float64,), ())
        if meshes:
            if meshes not in base:
                bad(where, "meshesPath %s is set but missing" % meshes)
            else:
                check_meshes(base[meshes], where + meshes)
        if parts:
            if parts not in base:
                bad(where, "particlesPath %s is set but missing" % parts)
            else:
                for sp in base[parts]:
                    check_species(base[parts][sp], where + parts + sp + "/")


def main():
    if len(sys.argv) < 2:
        print("usage: tests/pic_openpmd.py FILE...")
        return 2
    for p in sys.argv[1:]:
        try:
            check_file(p)
        except (OSError, KeyError, ValueError) as e:
            bad(p, "cannot read: %s" % e)
    for msg in problems:
        print("FAIL pic_openpmd: " + msg)
    print("pic_openpmd: %d file%s, %d problem%s" % (len(sys.argv) - 1, "" if len(sys.argv) == 2 else "s",
                                                   len(problems), "" if len(problems) == 1 else "s"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
