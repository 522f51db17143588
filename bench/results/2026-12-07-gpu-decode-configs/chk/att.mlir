func.func @qk_128(%k32: tensor<64x128x64xf32>, %q32: tensor<64x64xf32>) -> tensor<64x128xf32> {
  %k0 = stablehlo.convert %k32 : (tensor<64x128x64xf32>) -> tensor<64x128x64xbf16>
  %q0 = stablehlo.convert %q32 : (tensor<64x64xf32>) -> tensor<64x64xbf16>
  %k, %q = stablehlo.optimization_barrier %k0, %q0 : tensor<64x128x64xbf16>, tensor<64x64xbf16>
  %s = stablehlo.dot_general %k, %q, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<64x128x64xbf16>, tensor<64x64xbf16>) -> tensor<64x128xf32>
  return %s : tensor<64x128xf32>
}
func.func @pv_128(%v32: tensor<64x64x128xf32>, %p32: tensor<64x128xf32>) -> tensor<64x64xf32> {
  %v0 = stablehlo.convert %v32 : (tensor<64x64x128xf32>) -> tensor<64x64x128xbf16>
  %p0 = stablehlo.convert %p32 : (tensor<64x128xf32>) -> tensor<64x128xbf16>
  %v, %p = stablehlo.optimization_barrier %v0, %p0 : tensor<64x64x128xbf16>, tensor<64x128xbf16>
  %o = stablehlo.dot_general %v, %p, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<64x64x128xbf16>, tensor<64x128xbf16>) -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}
func.func @qk_256(%k32: tensor<64x256x64xf32>, %q32: tensor<64x64xf32>) -> tensor<64x256xf32> {
  %k0 = stablehlo.convert %k32 : (tensor<64x256x64xf32>) -> tensor<64x256x64xbf16>
  %q0 = stablehlo.convert %q32 : (tensor<64x64xf32>) -> tensor<64x64xbf16>
  %k, %q = stablehlo.optimization_barrier %k0, %q0 : tensor<64x256x64xbf16>, tensor<64x64xbf16>
  %s = stablehlo.dot_general %k, %q, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<64x256x64xbf16>, tensor<64x64xbf16>) -> tensor<64x256xf32>
  return %s : tensor<64x256xf32>
}
func.func @pv_256(%v32: tensor<64x64x256xf32>, %p32: tensor<64x256xf32>) -> tensor<64x64xf32> {
  %v0 = stablehlo.convert %v32 : (tensor<64x64x256xf32>) -> tensor<64x64x256xbf16>
  %p0 = stablehlo.convert %p32 : (tensor<64x256xf32>) -> tensor<64x256xbf16>
  %v, %p = stablehlo.optimization_barrier %v0, %p0 : tensor<64x64x256xbf16>, tensor<64x256xbf16>
  %o = stablehlo.dot_general %v, %p, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<64x64x256xbf16>, tensor<64x256xbf16>) -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}
func.func @qk_512(%k32: tensor<64x512x64xf32>, %q32: tensor<64x64xf32>) -> tensor<64x512xf32> {
  %k0 = stablehlo.convert %k32 : (tensor<64x512x64xf32>) -> tensor<64x512x64xbf16>
  %q0 = stablehlo.convert %q32 : (tensor<64x64xf32>) -> tensor<64x64xbf16>
  %k, %q = stablehlo.optimization_barrier %k0, %q0 : tensor<64x512x64xbf16>, tensor<64x64xbf16>
  %s = stablehlo.dot_general %k, %q, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<64x512x64xbf16>, tensor<64x64xbf16>) -> tensor<64x512xf32>
  return %s : tensor<64x512xf32>
}
func.func @pv_512(%v32: tensor<64x64x512xf32>, %p32: tensor<64x512xf32>) -> tensor<64x64xf32> {
  %v0 = stablehlo.convert %v32 : (tensor<64x64x512xf32>) -> tensor<64x64x512xbf16>
  %p0 = stablehlo.convert %p32 : (tensor<64x512xf32>) -> tensor<64x512xbf16>
  %v, %p = stablehlo.optimization_barrier %v0, %p0 : tensor<64x64x512xbf16>, tensor<64x512xbf16>
  %o = stablehlo.dot_general %v, %p, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<64x64x512xbf16>, tensor<64x512xbf16>) -> tensor<64x64xf32>
  return %o : tensor<64x64xf32>
}
func.func @qkg_128(%k32: tensor<64x128x64xf32>, %q32: tensor<64x4x64xf32>) -> tensor<64x4x128xf32> {
  %k0 = stablehlo.convert %k32 : (tensor<64x128x64xf32>) -> tensor<64x128x64xbf16>
  %q0 = stablehlo.convert %q32 : (tensor<64x4x64xf32>) -> tensor<64x4x64xbf16>
  %k, %q = stablehlo.optimization_barrier %k0, %q0 : tensor<64x128x64xbf16>, tensor<64x4x64xbf16>
  %s = stablehlo.dot_general %q, %k, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<64x4x64xbf16>, tensor<64x128x64xbf16>) -> tensor<64x4x128xf32>
  return %s : tensor<64x4x128xf32>
}
func.func @pvg_128(%v32: tensor<64x64x128xf32>, %p32: tensor<64x4x128xf32>) -> tensor<64x4x64xf32> {
  %v0 = stablehlo.convert %v32 : (tensor<64x64x128xf32>) -> tensor<64x64x128xbf16>
  %p0 = stablehlo.convert %p32 : (tensor<64x4x128xf32>) -> tensor<64x4x128xbf16>
  %v, %p = stablehlo.optimization_barrier %v0, %p0 : tensor<64x64x128xbf16>, tensor<64x4x128xbf16>
  %o = stablehlo.dot_general %p, %v, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<64x4x128xbf16>, tensor<64x64x128xbf16>) -> tensor<64x4x64xf32>
  return %o : tensor<64x4x64xf32>
}
func.func @qkg_256(%k32: tensor<64x256x64xf32>, %q32: tensor<64x4x64xf32>) -> tensor<64x4x256xf32> {
  %k0 = stablehlo.convert %k32 : (tensor<64x256x64xf32>) -> tensor<64x256x64xbf16>
  %q0 = stablehlo.convert %q32 : (tensor<64x4x64xf32>) -> tensor<64x4x64xbf16>
  %k, %q = stablehlo.optimization_barrier %k0, %q0 : tensor<64x256x64xbf16>, tensor<64x4x64xbf16>
  %s = stablehlo.dot_general %q, %k, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<64x4x64xbf16>, tensor<64x256x64xbf16>) -> tensor<64x4x256xf32>
  return %s : tensor<64x4x256xf32>
}
func.func @pvg_256(%v32: tensor<64x64x256xf32>, %p32: tensor<64x4x256xf32>) -> tensor<64x4x64xf32> {
  %v0 = stablehlo.convert %v32 : (tensor<64x64x256xf32>) -> tensor<64x64x256xbf16>
  %p0 = stablehlo.convert %p32 : (tensor<64x4x256xf32>) -> tensor<64x4x256xbf16>
  %v, %p = stablehlo.optimization_barrier %v0, %p0 : tensor<64x64x256xbf16>, tensor<64x4x256xbf16>
  %o = stablehlo.dot_general %p, %v, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<64x4x256xbf16>, tensor<64x64x256xbf16>) -> tensor<64x4x64xf32>
  return %o : tensor<64x4x64xf32>
}
func.func @qkg_512(%k32: tensor<64x512x64xf32>, %q32: tensor<64x4x64xf32>) -> tensor<64x4x512xf32> {
  %k0 = stablehlo.convert %k32 : (tensor<64x512x64xf32>) -> tensor<64x512x64xbf16>
  %q0 = stablehlo.convert %q32 : (tensor<64x4x64xf32>) -> tensor<64x4x64xbf16>
  %k, %q = stablehlo.optimization_barrier %k0, %q0 : tensor<64x512x64xbf16>, tensor<64x4x64xbf16>
  %s = stablehlo.dot_general %q, %k, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<64x4x64xbf16>, tensor<64x512x64xbf16>) -> tensor<64x4x512xf32>
  return %s : tensor<64x4x512xf32>
}
func.func @pvg_512(%v32: tensor<64x64x512xf32>, %p32: tensor<64x4x512xf32>) -> tensor<64x4x64xf32> {
  %v0 = stablehlo.convert %v32 : (tensor<64x64x512xf32>) -> tensor<64x64x512xbf16>
  %p0 = stablehlo.convert %p32 : (tensor<64x4x512xf32>) -> tensor<64x4x512xbf16>
  %v, %p = stablehlo.optimization_barrier %v0, %p0 : tensor<64x64x512xbf16>, tensor<64x4x512xbf16>
  %o = stablehlo.dot_general %p, %v, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<64x4x512xbf16>, tensor<64x64x512xbf16>) -> tensor<64x4x64xf32>
  return %o : tensor<64x4x64xf32>
}
