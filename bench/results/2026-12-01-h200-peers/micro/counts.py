#!/usr/bin/env python3
"""Flops and bytes per call of each module in modules.txt (16 products or layers), as a Markdown
table, plus the launches per call and the product kernel's workgroups from dispatches.txt.

  counts.py [run-output.txt]   with a run.sh output, adds the median time, TFLOP/s and TB/s

Counts (decimal units: 1 GB = 1e9 bytes, 1 GFLOP = 1e9):
  flops     2 * M * N * K per product (the products only; sums, silu and the split's reduction
            are below 0.5% and left out)
  weights   bf16, 2 bytes per element, each read once
  act       the f32 activation read (x [M, K]: once per module for `pre`, once per layer for
            `fuse`); the bf16 copies and the products' f32 results are in `out`
  out       f32 results written: `pre` L * M * N * 4 (all returned); `fuse` the products' results
            L * M * NT * 4 (consumed by the next kernel, or fused into it)
  split     `pre` S-forms only: the [S, M, N] f32 partial products, written and read once more
  bytes     weights + act + out + split: the traffic a perfect schedule could not avoid
            (TB/s = bytes / time)
"""
import re
import sys

L = 16
HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
SHAPES = {"gu": (8192, 2048), "down": (2048, 8192), "qo": (2048, 2048)}


def counts(name):
    p = name.split("-")
    if p[0] == "pre":
        form, sh, M, prec = p[1], p[2], int(p[3]), p[4]
        N, K = SHAPES[sh]
        S = int(form[1:]) if form.startswith("S") else (4 if form == "KNS4" else 1)
        fl = L * 2 * M * N * K
        w = L * N * K * 2
        act = M * K * 4
        out = L * M * N * 4
        split = L * S * M * N * 4 * 2 if S > 1 else 0
    else:
        kind, form, M, prec = p[1], p[2], int(p[3]), p[4]
        D = 2048
        NT = 2048 + 2 * 512 if kind == "qkv" else 2 * 8192
        fl = L * 2 * M * NT * D
        w = L * NT * D * 2
        act = L * M * D * 4
        out = L * M * NT * 4
        split = 0
    return fl, w, act, out, split


def disp(name):
    for line in open(f"{HERE}/dispatches.txt"):
        if line.startswith(name + ":"):
            items = line.split(":", 1)[1].split(";")
            launches = sum(int(m.group(1)) for m in re.finditer(r"launches=(\d+)", line))
            prod = [i for i in items if re.search(r"mat(mul|vec)_like", i)]
            g = ",".join(sorted({re.search(r"groups=(\S+)", i).group(1) for i in prod}))
            return launches, g
    return "?", "?"


times = {}
if len(sys.argv) > 1:
    for line in open(sys.argv[1]):
        m = re.match(r"(\S+) rc=0 (\S+) \S+ (\w+)", line)
        if m:
            scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[m.group(3)]
            times[m.group(1)] = float(m.group(2)) * scale

hdr = "| module | GFLOP | weights MB | act MB | out MB | split MB | bytes MB | launches | product workgroups |"
if times:
    hdr += " median ms | TFLOP/s | TB/s |"
print(hdr)
print("|" + "---|" * (hdr.count("|") - 1))
for line in open(f"{HERE}/modules.txt"):
    name = line.split("|")[0]
    fl, w, act, out, split = counts(name)
    b = w + act + out + split
    launches, g = disp(name)
    row = f"| {name} | {fl/1e9:.2f} | {w/1e6:.1f} | {act/1e6:.2f} | {out/1e6:.2f} | {split/1e6:.1f} | {b/1e6:.1f} | {launches} | {g} |"
    if times:
        t = times.get(name)
        row += f" {t*1e3:.3f} | {fl/t/1e12:.1f} | {b/t/1e12:.2f} |" if t else " — | — | — |"
    print(row)
