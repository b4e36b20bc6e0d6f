# usage: paptrace csv s23-tr.h5 | python3 pred_vs_actual.py
# per Clairvoyant call 2..8: arrival, exit and predicted offsets of ranks 0..7 [ms from the earliest arrival]
import csv, sys, collections
by = collections.defaultdict(list)
for r in csv.DictReader(sys.stdin):
    by[(r['algo'], int(r['iter']))].append(r)
for (al, it), rs in sorted(by.items()):
    if al != 'clairvoyant' or not 2 <= it <= 8:
        continue
    rs.sort(key=lambda r: int(r['rank']))
    a0 = min(float(r['arrival']) for r in rs)
    print(al, it, 'arr ', ' '.join('%.2f' % ((float(r['arrival']) - a0) * 1e3) for r in rs))
    print('   exit', ' '.join('%.2f' % ((float(r['exit']) - a0) * 1e3) for r in rs))
    print('   pred', ' '.join('%.2f' % (float(r['predicted']) * 1e3) for r in rs))
