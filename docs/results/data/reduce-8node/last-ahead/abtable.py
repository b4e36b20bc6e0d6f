# Markdown table of paired runs: abtable.py DIR LABEL SEEDS... (reads DIR/{base,new}-LABEL-sS.csv.gz)
import sys,csv,gzip,statistics as st,os
def med(d):
    rows=list(csv.DictReader(gzip.open(d+'.csv.gz','rt')))
    by={}
    for r in rows: by.setdefault(r['algo'],[]).append(float(r['runtime'])*1e3)
    return {k:st.median(v) for k,v in by.items()}
root,lab=sys.argv[1],sys.argv[2]; seeds=sys.argv[3:]
print("| seed | treedyn before → after | noncommut_treedyn before → after | fastest fixed tree before / after | treedyn / fastest tree before → after |")
print("| ---: | --- | --- | --- | --- |")
rb=[];ra=[];tb=[];ta=[];nb=[];na=[]
for s in seeds:
    b=med(f"{root}/base-{lab}-s{s}"); a=med(f"{root}/new-{lab}-s{s}")
    fb=min((b[k],k) for k in ('binomial','pipelined','inorder')); fa=min((a[k],k) for k in ('binomial','pipelined','inorder'))
    rb.append(b['treedyn']/fb[0]); ra.append(a['treedyn']/fa[0]); tb.append(b['treedyn']); ta.append(a['treedyn']); nb.append(b['noncommut_treedyn']); na.append(a['noncommut_treedyn'])
    fbs=f"{fb[1]} {fb[0]:.2f}"; fas=f"{fa[1]} {fa[0]:.2f}" if fa[1]!=fb[1] else f"{fa[0]:.2f}"
    print(f"| {s} | {b['treedyn']:.2f} → {a['treedyn']:.2f} | {b['noncommut_treedyn']:.2f} → {a['noncommut_treedyn']:.2f} | {fbs} / {fas} | {rb[-1]:.3f} → {ra[-1]:.3f} |")
print(f"\nmedian ratio before {st.median(rb):.3f} after {st.median(ra):.3f}; mean treedyn {st.mean(tb):.2f} -> {st.mean(ta):.2f}; noncommut {st.mean(nb):.2f} -> {st.mean(na):.2f}; after <1: {sum(r<1 for r in ra)}/{len(ra)}, before <1: {sum(r<1 for r in rb)}/{len(rb)}")
