module @m_a {
  util.global private @w = #flow.parameter.named<"model"::"w"> : tensor<4x8xbf16>
  func.func @read() -> tensor<4x8xf32> {
    %0 = util.global.load @w : tensor<4x8xbf16>
    %1 = "stablehlo.convert"(%0) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
  func.func @matvec(%x: tensor<8xf32>) -> tensor<4xf32> {
    %0 = util.global.load @w : tensor<4x8xbf16>
    %1 = "stablehlo.convert"(%0) : (tensor<4x8xbf16>) -> tensor<4x8xf32>
    %2 = "stablehlo.dot_general"(%1, %x) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}
