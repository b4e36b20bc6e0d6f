"""papbench logs: the summary lines a run prints at its end, one per
algorithm ("summary: op=OP algo=NAME P=N runtime_median_ms=T ...").
Imported by the table scripts of the result folders."""
import re

LINE = re.compile(r"^summary: op=\S+ algo=(\S+) P=\d+ runtime_median_ms=([0-9.]+)")


def medians(path):
    """papbench log -> {algorithm: median run time [ms]}, in the log's order."""
    out = {}
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                out[m.group(1)] = float(m.group(2))
    return out
