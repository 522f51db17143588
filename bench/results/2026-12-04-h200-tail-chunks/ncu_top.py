# The kernels of one Nsight Compute run (--metrics gpu__time_duration.sum --csv), summed per dispatch
# name (the part after "_dispatch_N_"), largest first; the function's kernels only (initializer fills
# left out):  python3 ncu_top.py call/ncu-t32.csv.gz [...]  [--top N]
import collections, csv, gzip, io, re, sys

def kernels(path):
    lines = gzip.open(path, "rt").read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    for r in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        if r.get("Metric Name") == "gpu__time_duration.sum" and re.match(r"(decode|prefill|extend)", r["Kernel Name"]):
            yield re.sub(r"^.*?_dispatch_\d+_", "", r["Kernel Name"]), float(r["Metric Value"].replace(",", ""))

args = sys.argv[1:]
top = int(args[args.index("--top") + 1]) if "--top" in args else 10
paths = [a for i, a in enumerate(args) if a != "--top" and (i == 0 or args[i - 1] != "--top")]
for path in paths:
    rows = list(kernels(path))
    total = sum(t for _, t in rows)
    by = collections.defaultdict(lambda: [0, 0.0])
    for name, t in rows:
        by[name][0] += 1
        by[name][1] += t
    print(f"{path}: {len(rows)} kernels, {total / 1e6:.2f} ms")
    for name, (n, t) in sorted(by.items(), key=lambda kv: -kv[1][1])[:top]:
        print(f"  {t / 1e6:8.3f} ms {100 * t / total:5.1f}%  x{n:<3d} {name}")
    print()
