import json, sys, os
# usage: best.py DIR... : per run, Clairvoyant's median and the best other algorithm's
for d in sys.argv[1:]:
    try: j = json.load(open(os.path.join(d, "results.json")))
    except Exception: continue
    med = {r["algo"]: r["runtime"]["median"] * 1e3 for r in j["results"]}
    cv = med.pop("clairvoyant"); b = min(med, key=med.get)
    td = med.get("treedyn")
    print(f"{os.path.basename(d):28s} clairvoyant {cv:8.2f}  best other {b:18s} {med[b]:8.2f}  cv/best {cv/med[b]:.3f}" + (f"  treedyn {td:.2f}" if td else ""))
