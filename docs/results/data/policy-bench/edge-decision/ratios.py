#!/usr/bin/env python3
"""Per log of run.sh: the medians of auto and rules (running Clairvoyant)
over the fixed Clairvoyant site's, and the medians over the seeds.

  python3 ratios.py DIR
"""
import os
import re
import statistics
import sys


def main():
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) == 2 else 2
    d = sys.argv[1]
    for binary in ("call", "edge"):
        ra, rr = [], []
        for name in sorted(os.listdir(d)):
            g = re.match(binary + r"-seed(\d+)\.log$", name)
            if not g:
                continue
            m = {}
            for line in open(os.path.join(d, name)):
                h = re.match(r"summary: op=\S+ algo=(\S+) P=\d+ runtime_median_ms=([\d.]+)", line)
                if h:
                    m[h.group(1)] = float(h.group(2))
            cv = m["clairvoyant"]
            rules = next(v for k, v in m.items() if k.startswith("rules"))
            ra.append(m["auto"] / cv)
            rr.append(rules / cv)
            print("%s seed %s: clairvoyant %.3f ms, auto/clairvoyant %.3f, rules/clairvoyant %.3f, radixk/clairvoyant %.3f"
                  % (binary, g.group(1), cv, ra[-1], rr[-1], m["radixk"] / cv))
        if ra:
            print("%s: median auto/clairvoyant %.3f, rules/clairvoyant %.3f, both %.3f (%d runs)"
                  % (binary, statistics.median(ra), statistics.median(rr), statistics.median(ra + rr), len(ra)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
