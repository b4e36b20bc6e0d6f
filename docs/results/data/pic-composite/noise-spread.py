# The prediction error spread per call at the PIC's compositing site, as
# papcoll__pred_score computes it (range over ranks of measured minus
# predicted offset).  Usage: bin/paptrace csv TRACE.h5 --site pic-image > t.csv; python3 noise-spread.py t.csv
import csv, statistics, sys
from collections import defaultdict
calls = defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1])):
    calls[int(r['iter'])][int(r['rank'])] = (float(r['arrival']), float(r['predicted']))
spreads = []
for i in sorted(calls):
    c = calls[i]
    a0 = min(a for a, _ in c.values())
    err = [1e3 * (a - a0 - p) for a, p in c.values()]
    spreads.append(max(err) - min(err))
print("calls %d  spread [ms] min %.1f median %.1f max %.1f" % (len(spreads), min(spreads), statistics.median(spreads), max(spreads)))
