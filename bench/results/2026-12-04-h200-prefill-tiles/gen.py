# Variants of the dumped prefill_512 dispatch benchmarks: other lowering configs for the same ops.
import re, sys, os
src = '/tmp/p512/bench/mlxcel_prefill_512_dispatch_%s_cuda_nvptx_fb_benchmark.mlir'
out = '/tmp/p512/var/mlir'
os.makedirs(out, exist_ok=True)
MM = {  # name: (workgroup M,N, subgroup m,n, reduction k, threads, prefetch)
  'A': (64, 64, 2, 4, 8, 128, 2),
  'B': (128, 128, 4, 8, 4, 128, 2),
  'C': (128, 128, 2, 8, 4, 256, 2),
  'D': (128, 64, 2, 4, 8, 256, 2),
  'E': (64, 128, 2, 4, 8, 256, 2),
  'F': (128, 256, 4, 8, 2, 256, 2),
  'G': (64, 64, 2, 4, 8, 128, 3),
  'H': (128, 128, 4, 8, 4, 128, 3),
  'I': (128, 128, 4, 8, 2, 128, 4),
  'J': (128, 128, 2, 8, 2, 256, 3),
}
for d in sys.argv[1:]:
    text = open(src % d).read()
    for name, (wm, wn, sm, sn, rk, th, pf) in MM.items():
        t = re.sub(r'reduction = \[0, 0, \d+\], subgroup = \[\d+, \d+, 0\], workgroup = \[\d+, \d+, 0\]',
                   f'reduction = [0, 0, {rk}], subgroup = [{sm}, {sn}, 0], workgroup = [{wm}, {wn}, 0]', text)
        t = re.sub(r'workgroup_size = \[\d+, 1, 1\]', f'workgroup_size = [{th}, 1, 1]', t)
        t = re.sub(r'prefetch_num_stages = \d+', f'prefetch_num_stages = {pf}', t)
        assert t != text or name == 'A'
        open(f'{out}/d{d}-{name}.mlir', 'w').write(t)
