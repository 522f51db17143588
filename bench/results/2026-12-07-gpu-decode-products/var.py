# VectorDistribute configurations for the decode weight products (dumped benchmarks in bench0/ -> var/).
import re, os, glob
TI = ('translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute> '
      'workgroup_size = [%d, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<'
      'no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>')
def lc3(wn, sn, ln, lk, th, pr):  # [M=8, N, K]
    return ('lowering_config = #iree_gpu.lowering_config<{lane_basis = [[1, %d, %d], [0, 1, 2]], partial_reduction = [0, 0, %d], '
            'subgroup_basis = [[1, %d, 1], [0, 1, 2]], thread = [0, 0, %d], workgroup = [8, %d, 0]}>' % (ln, lk, pr, sn, th, wn))
def lc2(wn, sn, ln, lk, th, pr):  # [N, K]
    return ('lowering_config = #iree_gpu.lowering_config<{lane_basis = [[%d, %d], [0, 1]], partial_reduction = [0, %d], '
            'subgroup_basis = [[%d, 1], [0, 1]], thread = [0, %d], workgroup = [%d, 0]}>' % (ln, lk, pr, sn, th, wn))
# name: (workgroup N, warps, lanes N, lanes K, values per thread, reduction step)
V = {'a': (1, 1, 1, 32, 8, 256), 'b': (4, 4, 1, 32, 8, 256), 'c': (8, 8, 1, 32, 8, 256), 'd': (32, 8, 4, 8, 8, 64),
     'e': (8, 8, 1, 32, 16, 512), 'f': (16, 8, 2, 16, 8, 128), 'g': (4, 4, 1, 32, 16, 512), 'h': (2, 2, 1, 32, 8, 256)}
os.makedirs('var', exist_ok=True)
for f in sorted(glob.glob('bench0/*_benchmark.mlir')):
    base = os.path.basename(f).split('_dispatch')[0][2:]   # e.g. gu_m8
    text = open(f).read()
    open(f'var/{base}-A.mlir', 'w').write(text)
    m8 = base.endswith('m8')
    for name, (wn, sn, ln, lk, th, pr) in V.items():
        lc = (lc3 if m8 else lc2)(wn, sn, ln, lk, th, pr)
        t = re.sub(r'lowering_config = #iree_gpu\.lowering_config<\{[^}]*\}>', lc, text)
        t = re.sub(r'translation_info = #iree_codegen\.translation_info<pipeline = .*?use_igemm_convolution = false>\}>',
                   TI % (32 * sn), t)
        assert t != text or (not m8 and name == "a")
        open(f'var/{base}-{name}.mlir', 'w').write(t)
