import sys,collections,statistics as st
for f in sys.argv[1:]:
    c=collections.defaultdict(list)
    for l in open(f):
        _,it,r,a,t1,t2=l.split(); c[int(it)].append((int(r),float(a),float(t1),float(t2)))
    pw=[];ex=[];tl=[]
    for it,rs in sorted(c.items()):
        if it<2: continue
        L=max(x[1] for x in rs)
        lastr=max(rs,key=lambda x:x[1])
        plan_ready=max(x[2] for x in rs)   # latest plan-ready
        end=max(x[3] for x in rs)
        pw.append((plan_ready-L)*1e3); ex.append((end-plan_ready)*1e3); tl.append((end-L)*1e3)
        print(it, 'last-rank', lastr[0], 'plan-ready-after-last %.2f'%((plan_ready-L)*1e3), 'last rank decide %.2f'%((lastr[2]-lastr[1])*1e3), 'end after last %.2f'%((end-L)*1e3), ' '.join('%d:%.1f/%.1f'%(x[0],(x[2]-L)*1e3,(x[3]-L)*1e3) for x in sorted(rs)))
    print(f,'plan after last %.2f  end after plan %.2f  tail %.2f'%(st.mean(pw),st.mean(ex),st.mean(tl)))
