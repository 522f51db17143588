# Variants of the 8-slot step's split weight products (TileAndFuse, MMA 16x8x16) and chunk sums.
import re, sys
src = '/tmp/a8/bench/mlxcel_decode_128_dispatch_%s_cuda_nvptx_fb_benchmark.mlir'
out = '/tmp/a8/var'
MM = {  # name: (workgroup N, subgroup N in 8-wide intrinsics, K step in 16-deep intrinsics, threads, prefetch)
  'A': (32, 2, 8, 64, 2), 'B': (64, 2, 8, 128, 2), 'C': (128, 2, 8, 256, 2), 'D': (32, 1, 8, 128, 2),
  'E': (64, 4, 8, 64, 2), 'F': (32, 2, 4, 64, 2), 'G': (32, 2, 16, 64, 2), 'H': (64, 2, 4, 128, 2),
  'I': (16, 1, 8, 64, 2), 'J': (32, 2, 8, 64, 3)}
RED = {  # name: (workgroup rows, thread rows, chunks per step, threads)
  'A': None, 'r1': (32, 1, 0, 32), 'r2': (128, 1, 0, 128), 'r3': (256, 4, 0, 64), 'r4': (512, 4, 0, 128), 'r5': (256, 2, 0, 128)}
def mm(text, v):
    wn, sn, rk, th, pf = v
    t = re.sub(r'padding = \[1, 16, 32, 128\]', f'padding = [1, 16, {wn}, {rk * 16}]', text)
    t = re.sub(r'reduction = \[0, 0, 0, 8\], subgroup = \[0, 1, 2, 0\], workgroup = \[1, 16, 32, 0\]',
               f'reduction = [0, 0, 0, {rk}], subgroup = [0, 1, {sn}, 0], workgroup = [1, 16, {wn}, 0]', t)
    t = re.sub(r'workgroup_size = \[64, 1, 1\]', f'workgroup_size = [{th}, 1, 1]', t)
    t = re.sub(r'prefetch_num_stages = 2', f'prefetch_num_stages = {pf}', t)
    return t
def red(text, v, chunks):
    wr, tr, _, th = v
    t = re.sub(r'lowering_config<\{reduction = \[0, \d+\], thread = \[4, 0\], workgroup = \[128, 0\]\}>',
               f'lowering_config<{{reduction = [0, {chunks}], thread = [{tr}, 0], workgroup = [{wr}, 0]}}>', text)
    t = re.sub(r'workgroup_size = \[32, 1, 1\]', f'workgroup_size = [{th}, 1, 1]', t)
    return t
for a in sys.argv[1:]:
    d, kind, chunks = a.split(':')
    text = open(src % d).read()
    for name, v in (MM if kind == 'mm' else RED).items():
        t = text if v is None or name == 'A' else (mm(text, v) if kind == 'mm' else red(text, v, int(chunks)))
        assert name == 'A' or t != text, (d, name)
        open(f'{out}/w128-d{d}-{name}.mlir', 'w').write(t)
