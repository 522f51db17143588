func.func @p3072(%x32: tensor<8x2048xf32>, %w32: tensor<3072x2048xf32>) -> tensor<8x3072xf32> {
  %x0 = stablehlo.convert %x32 : (tensor<8x2048xf32>) -> tensor<8x2048xbf16>
  %w0 = stablehlo.convert %w32 : (tensor<3072x2048xf32>) -> tensor<3072x2048xbf16>
  %x, %w = stablehlo.optimization_barrier %x0, %w0 : tensor<8x2048xbf16>, tensor<3072x2048xbf16>
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [1] : (tensor<8x2048xbf16>, tensor<3072x2048xbf16>) -> tensor<8x3072xf32>
  return %y : tensor<8x3072xf32>
}
func.func @p2048(%x32: tensor<8x2048xf32>, %w32: tensor<2048x2048xf32>) -> tensor<8x2048xf32> {
  %x0 = stablehlo.convert %x32 : (tensor<8x2048xf32>) -> tensor<8x2048xbf16>
  %w0 = stablehlo.convert %w32 : (tensor<2048x2048xf32>) -> tensor<2048x2048xbf16>
  %x, %w = stablehlo.optimization_barrier %x0, %w0 : tensor<8x2048xbf16>, tensor<2048x2048xbf16>
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [1] : (tensor<8x2048xbf16>, tensor<2048x2048xbf16>) -> tensor<8x2048xf32>
  return %y : tensor<8x2048xf32>
}
func.func @p16384(%x32: tensor<8x2048xf32>, %w32: tensor<16384x2048xf32>) -> tensor<8x16384xf32> {
  %x0 = stablehlo.convert %x32 : (tensor<8x2048xf32>) -> tensor<8x2048xbf16>
  %w0 = stablehlo.convert %w32 : (tensor<16384x2048xf32>) -> tensor<16384x2048xbf16>
  %x, %w = stablehlo.optimization_barrier %x0, %w0 : tensor<8x2048xbf16>, tensor<16384x2048xbf16>
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [1] : (tensor<8x2048xbf16>, tensor<16384x2048xbf16>) -> tensor<8x16384xf32>
  return %y : tensor<8x16384xf32>
}
