import csv,sys,statistics as st
for f in sys.argv[1:]:
    rows=list(csv.DictReader(open(f)))
    calls={}
    for r in rows: calls.setdefault(int(r['iter']),[]).append(r)
    tails=[];runs=[];spreads=[]
    for it,rs in sorted(calls.items()):
        if it<2: continue
        la=max(float(r['arrival']) for r in rs); fa=min(float(r['arrival']) for r in rs)
        ex=max(float(r['exit']) for r in rs)
        tails.append((ex-la)*1e3); runs.append((ex-fa)*1e3); spreads.append((la-fa)*1e3)
    print(f"{f:40s} run {st.mean(runs):6.2f} spread {st.mean(spreads):6.2f} after-last {st.mean(tails):6.2f} med {st.median(tails):6.2f}")
