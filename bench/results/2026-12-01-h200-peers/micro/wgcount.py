#!/usr/bin/env python3
"""Summarise an `iree-compile --compile-to=executable-configurations` listing: per dispatch kind, how
many launches one call makes, the codegen pipeline, the workgroup size (threads), the workgroup tile
of the root op and the number of workgroups per launch (product over the dispatch name's loop ranges
of ceil(range / tile); '?' where the name's ranges and the tile do not line up).

  wgcount.py NAME configurations.mlir   -> one line: NAME: kind launches=N wg=[tile] threads=T groups=G pipeline=P; ...
"""
import math
import re
import sys

name, path = sys.argv[1], sys.argv[2]
text = open(path).read()

launch = {}
for m in re.finditer(r"stream\.cmd\.dispatch @[\w]+::@[\w]+::@([\w]+)", text):
    launch[m.group(1)] = launch.get(m.group(1), 0) + 1

# each function of an executable: from its `func.func @NAME() attributes {translation_info ...` to the next func.func
funcs = list(re.finditer(r"func\.func @(\w+_dispatch_\d+_\w+)\(\)", text))
rows = {}
for i, f in enumerate(funcs):
    body = text[f.start(): funcs[i + 1].start() if i + 1 < len(funcs) else len(text)]
    fname = f.group(1)
    pipe = re.search(r"pipeline = (?:#iree_gpu\.pipeline<)?(\w+)", body)
    wgs = re.search(r"workgroup_size = \[([\d, ]+)\]", body)
    tile = re.search(r"workgroup = \[([\d, ]+)\]", body) or re.search(r"tile_sizes = \[\[([\d, ]+)\]", body)
    kind = re.sub(r"^\w+?_dispatch_\d+_", "", fname)
    dims = re.search(r"_((?:\d+x)*\d+)(?:_|$)", kind)
    groups = "?"
    if tile and dims:
        t = [int(v) for v in tile.group(1).split(",")]
        d = [int(v) for v in dims.group(1).split("x")]
        # the root op's iterator types (same line as its lowering_config): reduction loops are not
        # distributed to workgroups, whatever their tile says
        line = body[body.rfind("\n", 0, tile.start()) + 1: tile.start()]
        it = re.search(r"iterator_types = \[([^\]]*)\]", line)
        par = [v.strip() == '"parallel"' for v in it.group(1).split(",")] if it else [True] * len(t)
        if len(t) == len(d) == len(par):
            groups = str(math.prod(math.ceil(dd / tt) for dd, tt, p in zip(d, t, par) if tt > 0 and p))
    threads = math.prod(int(v) for v in wgs.group(1).split(",")) if wgs else "?"
    n = launch.get(fname, 0)
    key = (kind, tile.group(1) if tile else "?", threads, groups, pipe.group(1) if pipe else "?")
    rows[key] = rows.get(key, 0) + n
out = []
for (kind, tile, threads, groups, pipe), n in sorted(rows.items(), key=lambda kv: -kv[1]):
    out.append(f"{kind} launches={n} wg=[{tile.replace(' ', '')}] threads={threads} groups={groups} {pipe}")
print(f"{name}: " + "; ".join(out))
