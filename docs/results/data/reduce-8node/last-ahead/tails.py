# Median tail (last exit - last arrival, ms) per algorithm and gap class: tails.py FILE.csv[.gz]...
import sys,csv,gzip,statistics as st
rows=[]
for f in sys.argv[1:]:
    rows+=list(csv.DictReader((gzip.open(f,"rt") if f.endswith(".gz") else open(f))))
by={}
for r in rows:
    a=sorted(float(r[f'a{i}']) for i in range(8)); fmax=max(float(r[f'f{i}']) for i in range(8))
    gap=(a[-1]-a[-2])*1e3; tail=(fmax-a[-1])*1e3
    b='gap<1' if gap<1 else ('gap1-2' if gap<2 else 'gap>2')
    by.setdefault((r['algo'],b),[]).append(tail)
    by.setdefault((r['algo'],'all'),[]).append(float(r['runtime'])*1e3)
for k in sorted(by): print(k, len(by[k]), f"{st.median(by[k]):.2f}")
