# StableHLO module: the 1B's decode weight products, x [M, K] bf16 . W [N, K]^T -> [M, N] f32, M = 1 and 8.
import sys
shapes = {'qkv': (3072, 2048), 'o': (2048, 2048), 'gu': (16384, 2048), 'down': (2048, 8192), 'head': (128256, 2048)}
out = ['module @w {']
for M in (1, 8):
    for n, (N, K) in shapes.items():
        out.append(f'''  func.func @{n}_m{M}(%a: tensor<{M}x{K}xbf16>, %w: tensor<{N}x{K}xbf16>) -> tensor<{M}x{N}xf32> {{
    %r = stablehlo.dot_general %a, %w, contracting_dims = [1] x [1] : (tensor<{M}x{K}xbf16>, tensor<{N}x{K}xbf16>) -> tensor<{M}x{N}xf32>
    return %r : tensor<{M}x{N}xf32>
  }}''')
out.append('}')
open('w.mlir', 'w').write('\n'.join(out) + '\n')
