"""Shared by bg-yield/table.py and eager-pieces/table.py: the median run time
[ms] per entry of paired logs KEY-rPAIR-old.log / KEY-rPAIR-new.log, read
with the log parser of reduce-8node's forced-algorithm table."""
import importlib.util
import os
import re

_spec = importlib.util.spec_from_file_location(
    "forced_table", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../reduce-8node/forced/table.py"))
_forced = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_forced)


def load(d, key_re, key):
    """runs[(key(m), pair, 'old'|'new')] = {entry: median} for the logs in d
    whose names match key_re + '-r(\\d+)-(old|new)\\.log$' (key_re: one
    group, passed to key), and the entries in order of first appearance."""
    runs = {}
    for name in os.listdir(d):
        m = re.match(key_re + r"-r(\d+)-(old|new)\.log$", name)
        if m:
            runs[(key(m.group(1)), int(m.group(2)), m.group(3))] = _forced.medians(os.path.join(d, name))
    algos = []
    for r in runs.values():
        algos += [a for a in r if a not in algos]
    return runs, algos


def cells(runs, k, r, algos):
    """'old → new' of every entry for (k, r)."""
    o, n = runs.get((k, r, "old"), {}), runs.get((k, r, "new"), {})
    return ["%.2f → %.2f" % (o.get(a, float("nan")), n.get(a, float("nan"))) for a in algos]
