# Median run times per algorithm: fintable.py DIR LABEL SEEDS... (DIR/{mpi,sleep}-LABEL-sS.csv.gz)
import sys,csv,gzip,statistics as st
root,lab=sys.argv[1],sys.argv[2]; seeds=sys.argv[3:]
def med(d):
    by={}
    for r in csv.DictReader(gzip.open(d+'.csv.gz','rt')): by.setdefault(r['algo'],[]).append(float(r['runtime'])*1e3)
    return {k:st.median(v) for k,v in by.items()}
for w in ('mpi','sleep'):
    rows=[med(f"{root}/{w}-{lab}-s{s}") for s in seeds]
    algos=list(rows[0])
    print(w, " ".join(f"{a}:" + ",".join(f"{r[a]:.2f}" for r in rows) for a in algos))
    fixed=[min(r[k] for k in ('binomial','pipelined','inorder')) for r in rows]
    print("  treedyn / fastest fixed tree:", " ".join(f"{r['treedyn']/f:.3f}" for r,f in zip(rows,fixed)), " median", f"{st.median([r['treedyn']/f for r,f in zip(rows,fixed)]):.3f}")
