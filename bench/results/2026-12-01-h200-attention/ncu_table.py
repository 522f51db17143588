import csv, gzip, collections, re, sys, io
def load(path):
    lines=gzip.open(path,"rt").read().splitlines()
    i=next(i for i,l in enumerate(lines) if l.startswith('"ID"'))
    rows=list(csv.DictReader(io.StringIO("\n".join(lines[i:]))))
    return [r for r in rows if r.get("Metric Name")=="gpu__time_duration.sum"]
for path in sys.argv[1:]:
    rows=load(path)
    fn_rows=[r for r in rows if re.match(r"(decode|prefill)", r["Kernel Name"])]
    # the last call's kernels: after the initializer (names __init or hoisted) 
    tot=sum(float(r["Metric Value"].replace(",","")) for r in fn_rows)
    print(path, "kernels", len(rows), "function kernels", len(fn_rows), "sum %.1f us" % (tot/1e3))
    agg=collections.OrderedDict()
    for r in fn_rows:
        a=agg.setdefault(r["Kernel Name"],[0,0.0,r["Block Size"],r["Grid Size"]]); a[0]+=1; a[1]+=float(r["Metric Value"].replace(",",""))
    cls=collections.defaultdict(float)
    for k,(n,t,b,g) in agg.items():
        m=re.search(r"dispatch_\d+_(.*)",k); c=m.group(1) if m else k
        c=re.sub(r"_\d+(x\d+)*","",c); cls[c]+=t
    for k,(n,t,b,g) in sorted(agg.items(), key=lambda x:-x[1][1])[:int(sys.argv[0:1] and 40)]:
        print(f"  {t/1e3:8.1f} us  n={n:3d}  avg {t/n/1e3:7.2f} us  blk {b:>12} grid {g:>14}  {k[:100]}")
    print("  by kind:", ", ".join(f"{k} {v/1e3:.0f}" for k,v in sorted(cls.items(), key=lambda x:-x[1])))
