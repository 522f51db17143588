module @m_b {
  util.global private mutable @k = dense<1.0e-30> : tensor<2x8x4xf32>
  util.global private mutable @v = dense<2.0e-30> : tensor<2x8x4xf32>
  func.func @upd(%x: tensor<1x1x4xf32>, %s: tensor<i32>, %p: tensor<i32>) -> tensor<f32> {
    %c = util.global.load @k : tensor<2x8x4xf32>
    %z = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %n = "stablehlo.dynamic_update_slice"(%c, %x, %s, %p, %z) : (tensor<2x8x4xf32>, tensor<1x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x8x4xf32>
    util.global.store %n, @k : tensor<2x8x4xf32>
    %cv = util.global.load @v : tensor<2x8x4xf32>
    %two = "stablehlo.constant"() {value = dense<2.0> : tensor<1x1x4xf32>} : () -> tensor<1x1x4xf32>
    %x2 = "stablehlo.multiply"(%x, %two) : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %nv = "stablehlo.dynamic_update_slice"(%cv, %x2, %s, %p, %z) : (tensor<2x8x4xf32>, tensor<1x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x8x4xf32>
    util.global.store %nv, @v : tensor<2x8x4xf32>
    %i = "stablehlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
    %sum = "stablehlo.add"(%n, %nv) : (tensor<2x8x4xf32>, tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %r = "stablehlo.reduce"(%sum, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0, 1, 2>} : (tensor<2x8x4xf32>, tensor<f32>) -> tensor<f32>
    return %r : tensor<f32>
  }
  func.func @upd1(%x: tensor<1x1x4xf32>, %sp: tensor<2xi32>) -> tensor<f32> {
    %a = "stablehlo.slice"(%sp) {start_indices = array<i64: 0>, limit_indices = array<i64: 1>, strides = array<i64: 1>} : (tensor<2xi32>) -> tensor<1xi32>
    %s = "stablehlo.reshape"(%a) : (tensor<1xi32>) -> tensor<i32>
    %b = "stablehlo.slice"(%sp) {start_indices = array<i64: 1>, limit_indices = array<i64: 2>, strides = array<i64: 1>} : (tensor<2xi32>) -> tensor<1xi32>
    %p = "stablehlo.reshape"(%b) : (tensor<1xi32>) -> tensor<i32>
    %r = func.call @upd(%x, %s, %p) : (tensor<1x1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<f32>
    return %r : tensor<f32>
  }
  func.func @readk() -> tensor<2x8x4xf32> {
    %c = util.global.load @k : tensor<2x8x4xf32>
    return %c : tensor<2x8x4xf32>
  }
  func.func @readv() -> tensor<2x8x4xf32> {
    %c = util.global.load @v : tensor<2x8x4xf32>
    return %c : tensor<2x8x4xf32>
  }
}
