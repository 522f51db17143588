# prod.mlir: the 8-slot step's whole products (x [8, 2048] . W [N, 2048]^T, bf16 in, f32 out) for
# N = 3072 (q/k/v), 2048 (o), 16384 (gate/up), inputs f32 converted to bf16 behind a barrier.
out = []
for N in (3072, 2048, 16384):
    out.append(f'''func.func @p{N}(%x32: tensor<8x2048xf32>, %w32: tensor<{N}x2048xf32>) -> tensor<8x{N}xf32> {{
  %x0 = stablehlo.convert %x32 : (tensor<8x2048xf32>) -> tensor<8x2048xbf16>
  %w0 = stablehlo.convert %w32 : (tensor<{N}x2048xf32>) -> tensor<{N}x2048xbf16>
  %x, %w = stablehlo.optimization_barrier %x0, %w0 : tensor<8x2048xbf16>, tensor<{N}x2048xbf16>
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [1] : (tensor<8x2048xbf16>, tensor<{N}x2048xbf16>) -> tensor<8x{N}xf32>
  return %y : tensor<8x{N}xf32>
}}''')
open('prod.mlir', 'w').write('\n'.join(out) + '\n')
