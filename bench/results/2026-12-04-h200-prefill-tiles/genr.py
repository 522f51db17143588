# Variants of the residual-add + sum-of-squares dispatch (17): the config dispatch 2 got, and wider rows.
import re
src = '/tmp/p512/bench/mlxcel_prefill_512_dispatch_%s_cuda_nvptx_fb_benchmark.mlir'
text = open(src % 17).read()
V = {'R1': (128, 4, 8, 1024), 'R2': (256, 8, 8, 2048), 'R3': (64, 2, 8, 512)}
for name, (th, sg, tpt, pr) in V.items():
    t = re.sub(r'partial_reduction = \[0, \d+\], subgroup_basis = \[\[1, \d+\], \[0, 1\]\], thread = \[0, \d+\]',
               f'partial_reduction = [0, {pr}], subgroup_basis = [[1, {sg}], [0, 1]], thread = [0, {tpt}]', text)
    t = re.sub(r'workgroup_size = \[\d+, 1, 1\]', f'workgroup_size = [{th}, 1, 1]', t)
    assert t != text
    open(f'mlir/d17-{name}.mlir', 'w').write(t)
for d in (17, 22, 2, 3, 5, 13, 14, 15):
    open(f'mlir/d{d}-A.mlir', 'w').write(open(src % d).read())
