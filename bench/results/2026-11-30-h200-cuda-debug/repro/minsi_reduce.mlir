// IREE 3.13 CUDA: a signed i32 min reduction returns min(x, -1); a max reduction max(x, 0).
func.func @min_i32(%x: tensor<1x64xi32>) -> tensor<1xi32> {
  %i = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
  %r = "stablehlo.reduce"(%x, %i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = "stablehlo.minimum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%m) : (tensor<i32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<1x64xi32>, tensor<i32>) -> tensor<1xi32>
  return %r : tensor<1xi32>
}
