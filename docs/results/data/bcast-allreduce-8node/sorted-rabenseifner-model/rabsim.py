# Round model of Rabenseifner allreduce (P = 8, 1 MiB, 1 Gbit/s): every placement of the arrival order onto virtual ranks, uniform 0-50 ms arrivals.
import random, itertools, statistics as st
P=8; nb=8.4; al=0.05  # ms
def rab(arr, v2r):
    # arr: arrival per rank; v2r: vrank->rank
    t=[arr[v2r[v]] for v in range(P)]
    # RS rounds: distance 4,2,1 with sizes n/2, n/4, n/8
    for j,d in enumerate([4,2,1]):
        c=al+nb/2**(j+1)
        t=[max(t[v],t[v^d])+c for v in range(P)]
    for j,d in enumerate([1,2,4]):
        c=al+nb/2**(3-j)
        t=[max(t[v],t[v^d])+c for v in range(P)]
    return max(t)-min(arr)
random.seed(1)
samples=[[random.uniform(0,50) for _ in range(P)] for _ in range(400)]
def cost(pattern):  # pattern[k] = vrank of the k-th earliest
    tot=[]
    for arr in samples:
        order=sorted(range(P),key=lambda r:arr[r])
        v2r=[0]*P
        for k,r in enumerate(order): v2r[pattern[k]]=r
        tot.append(rab(arr,v2r))
    return st.mean(tot)
ident=[]
for arr in samples: ident.append(rab(arr,list(range(P))))
print("identity(random wrt arrival)", st.mean(ident))
best=min(itertools.permutations(range(P)), key=cost)
print("best pattern", best, cost(best))
print("sorted 0..7", cost(tuple(range(P))))
spread=st.mean(max(a)-min(a) for a in samples); print("spread",spread, "balanced", rab([0]*P,list(range(P))))
