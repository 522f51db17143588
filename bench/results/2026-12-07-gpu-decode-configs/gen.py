# Variants of the 8-slot decode attention's matvec dispatches: other VectorDistribute configs.
import re, sys, os
src = '/tmp/a8/bench/mlxcel_decode_%s_dispatch_%s_cuda_nvptx_fb_benchmark.mlir'
out = '/tmp/a8/var'
# name: (rows per subgroup on d1, lanes on the reduction, elements per thread, subgroups, reduction tile)
QK = {'A': None,
      'q1': (4, 8, 8, 1, 64), 'q2': (4, 8, 8, 4, 64), 'q3': (4, 8, 8, 8, 64),
      'q4': (2, 16, 4, 8, 64), 'q5': (8, 4, 16, 4, 64), 'q6': (8, 4, 16, 8, 64)}
PV = {'A': None,
      'p1': (1, 32, 8, 4, 256), 'p2': (1, 32, 8, 8, 256), 'p3': (2, 16, 8, 4, 128),
      'p4': (2, 16, 16, 4, 256), 'p5': (4, 8, 8, 8, 64), 'p6': (1, 32, 4, 8, 128)}
def variant(text, v):
    r, l, t, s, pr = v
    cfg = (f'lowering_config = #iree_gpu.lowering_config<{{lane_basis = [[1, {r}, {l}], [0, 1, 2]], '
           f'partial_reduction = [0, 0, {pr}], subgroup_basis = [[1, {s}, 1], [0, 1, 2]], '
           f'thread = [0, 0, {t}], workgroup = [1, {r * s}, 0]}}>')
    t2 = re.sub(r'lowering_config = #iree_gpu.lowering_config<\{[^}]*\}>', cfg, text)
    t2 = re.sub(r'workgroup_size = \[32, 1, 1\]', f'workgroup_size = [{32 * s}, 1, 1]', t2)
    assert t2 != text
    return t2
for w, d, table in [(a.split(':')[0], a.split(':')[1], QK if a.split(':')[2] == 'qk' else PV) for a in sys.argv[1:]]:
    text = open(src % (w, d)).read()
    for name, v in table.items():
        open(f'{out}/w{w}-d{d}-{name}.mlir', 'w').write(text if v is None else variant(text, v))
