import sys,csv,statistics as st,os
for d in sys.argv[1:]:
    rows=list(csv.DictReader(open(os.path.join(d,'results.csv'))))
    by={}
    for r in rows:
        a=max(float(r[f'a{i}']) for i in range(8)); f=max(float(r[f'f{i}']) for i in range(8))
        by.setdefault(r['algo'],[]).append((f-a)*1e3)
    print(os.path.basename(d), ' '.join(f"{k}={st.median(v):.2f}" for k,v in by.items()))
