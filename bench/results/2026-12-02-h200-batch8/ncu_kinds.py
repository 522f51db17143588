# Per-kernel time of one Nsight Compute run (--metrics gpu__time_duration.sum --csv), grouped by kind:
#   python3 ncu_kinds.py ncu-old.csv.gz [ncu-new.csv.gz ...]
# Only the function's kernels count (names beginning decode/prefill/extend: the initializer's fills are
# left out). Kinds by the dispatch name's shape, see kind().
import csv, gzip, collections, io, re, sys

def load(path):
    lines = gzip.open(path, "rt").read().splitlines()
    i = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    rows = [r for r in csv.DictReader(io.StringIO("\n".join(lines[i:]))) if r.get("Metric Name") == "gpu__time_duration.sum"]
    return [r for r in rows if re.match(r"(decode|prefill|extend)", r["Kernel Name"])]

def kind(name):
    n = re.sub(r"^.*?_dispatch_\d+_", "", name)
    if "128256" in n and "matmul" in n: return "LM head"
    if "scatter" in n: return "cache writes"
    if re.search(r"reduction_8x501|reduction_\d+x256_f32|1026048", n): return "argmax"
    # the expanded attention: the QK and PV products over the (slot, head) batch, K/V repeated per
    # query head (broadcast 64x4x...), the softmax; the per-head form at 8 slots (64 = slots x KV heads)
    if re.search(r"matvec_like_256x|matvec_like_64x(512|64)x|broadcast_64x4x|softmax", n): return "attention"
    # the 8-slot products with their reduction split (2026-12-03) and their chunk sums
    if re.search(r"matmul_like_\d+x8x(2048|512|8192)x\d+_(bf16|f16)", n): return "split weight products"
    if re.search(r"reduction_\d+x[248]_f32", n): return "split sums"
    if re.search(r"matmul_like_\d+x(2048|512|8192)x(2048|8192)_bf16", n): return "weight products"
    return "other"

for path in sys.argv[1:]:
    rows = load(path)
    tot = sum(float(r["Metric Value"].replace(",", "")) for r in rows)
    by = collections.OrderedDict()
    cls = collections.defaultdict(lambda: [0, 0.0])
    for r in rows:
        t = float(r["Metric Value"].replace(",", ""))
        a = by.setdefault(r["Kernel Name"], [0, 0.0, r["Block Size"], r["Grid Size"]]); a[0] += 1; a[1] += t
        c = cls[kind(r["Kernel Name"])]; c[0] += 1; c[1] += t
    print(f"{path}: {len(rows)} kernels, {tot / 1e6:.3f} ms of kernel time")
    for k, (n, t) in sorted(cls.items(), key=lambda x: -x[1][1]):
        print(f"  {k:16s} {t / 1e6:7.3f} ms  {n:5d} launches")
    for k, (n, t, b, g) in sorted(by.items(), key=lambda x: -x[1][1])[:30]:
        print(f"  {t / 1e3:9.1f} us n={n:4d} avg {t / n / 1e3:7.2f} us blk {b:>12} grid {g:>14} [{kind(k)}] {k[:110]}")
