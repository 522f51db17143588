# Variants of prefill_128's weight products (TileAndFuse, MMA 16x8x16; IREE's tile 64 x 64, 4 warps of
# 32 x 32, K step 128): the tables of ../2026-12-04-h200-prefill-tiles/gen.py at 128 rows.
import re, sys
src = '/tmp/a8/bench/mlxcel_prefill_128_dispatch_%s_cuda_nvptx_fb_benchmark.mlir'
out = '/tmp/a8/var'
MM = {  # name: (workgroup M, N, subgroup m, n in intrinsics, K step in intrinsics, threads, prefetch)
  'A': (64, 64, 2, 4, 8, 128, 2), 'B': (128, 128, 4, 8, 4, 128, 2), 'D': (128, 64, 2, 4, 8, 256, 2),
  'E': (64, 128, 2, 4, 8, 256, 2), 'K': (32, 64, 1, 4, 8, 128, 2), 'L': (64, 32, 2, 2, 8, 128, 2),
  'M': (32, 32, 1, 2, 8, 128, 2), 'N': (64, 64, 2, 4, 4, 128, 3), 'O': (64, 128, 4, 8, 8, 64, 2)}
for d in sys.argv[1:]:
    text = open(src % d).read()
    for name, (wm, wn, sm, sn, rk, th, pf) in MM.items():
        t = re.sub(r'reduction = \[((?:0, )+)8\], subgroup = \[((?:0, )?)2, 4, 0\], workgroup = \[((?:1, )?)64, 64, 0\]',
                   lambda m: f'reduction = [{m.group(1)}{rk}], subgroup = [{m.group(2)}{sm}, {sn}, 0], workgroup = [{m.group(3)}{wm}, {wn}, 0]', text)
        t = re.sub(r'workgroup_size = \[128, 1, 1\]', f'workgroup_size = [{th}, 1, 1]', t)
        t = re.sub(r'prefetch_num_stages = 2', f'prefetch_num_stages = {pf}', t)
        assert name == 'A' or t != text, (d, name)
        open(f'{out}/p128-d{d}-{name}.mlir', 'w').write(t)
