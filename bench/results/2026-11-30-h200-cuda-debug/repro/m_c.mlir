module @m_c {
  util.global private @w = #flow.parameter.named<"model"::"w"> : tensor<4x8xbf16>
  util.global private mutable @cache = dense<1.0e-30> : tensor<8x4xf32>
  func.func @step(%x: tensor<8xf32>, %p: tensor<i32>) -> tensor<4xf32> {
    %0 = util.global.load @w : tensor<4x8xbf16>
    %1 = "stablehlo.convert"(%0) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
    %y = "stablehlo.dot_general"(%1, %x) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
    %y2 = "stablehlo.reshape"(%y) : (tensor<4xf32>) -> tensor<1x4xf32>
    %c = util.global.load @cache : tensor<8x4xf32>
    %z = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %n = "stablehlo.dynamic_update_slice"(%c, %y2, %p, %z) : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    util.global.store %n, @cache : tensor<8x4xf32>
    %i = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %r = "stablehlo.reduce"(%n, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func @step1(%x: tensor<8xf32>, %pp: tensor<1xi32>) -> tensor<4xf32> {
    %p = "stablehlo.reshape"(%pp) : (tensor<1xi32>) -> tensor<i32>
    %r = func.call @step(%x, %p) : (tensor<8xf32>, tensor<i32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
  func.func @readc() -> tensor<8x4xf32> {
    %c = util.global.load @cache : tensor<8x4xf32>
    return %c : tensor<8x4xf32>
  }
}
