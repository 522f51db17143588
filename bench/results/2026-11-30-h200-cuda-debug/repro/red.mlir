module @red {
  func.func @min_i32_64(%x: tensor<1x64xi32>) -> tensor<1xi32> {
    %i = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x64xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @max_i32_64(%x: tensor<1x64xi32>) -> tensor<1xi32> {
    %i = "stablehlo.constant"() {value = dense<-2147483648> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x64xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @min_f32_64(%x: tensor<1x64xf32>) -> tensor<1xf32> {
    %i = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    return %r : tensor<1xf32>
  }
  func.func @add_i32_64(%x: tensor<1x64xi32>) -> tensor<1xi32> {
    %i = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x64xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @am_i32_64(%x: tensor<1x64xf32>) -> tensor<1xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x64xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xi1>
    %vv = "stablehlo.constant"() {value = dense<64> : tensor<1x64xi32>} : () -> tensor<1x64xi32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x64xi32>
    %sel = "stablehlo.select"(%eq, %io, %vv) : (tensor<1x64xi1>, tensor<1x64xi32>, tensor<1x64xi32>) -> tensor<1x64xi32>
    %imax = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%sel, %imax) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x64xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @am_f32_64(%x: tensor<1x64xf32>) -> tensor<1xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x64xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xi1>
    %vv = "stablehlo.constant"() {value = dense<64.0> : tensor<1x64xf32>} : () -> tensor<1x64xf32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x64xf32>
    %sel = "stablehlo.select"(%eq, %io, %vv) : (tensor<1x64xi1>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
    %imax = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %r = "stablehlo.reduce"(%sel, %imax) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %ri = "stablehlo.convert"(%r) : (tensor<1xf32>) -> tensor<1xi32>
    return %ri : tensor<1xi32>
  }
  func.func @am_max_64(%x: tensor<1x64xf32>) -> tensor<1xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x64xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xi1>
    %z = "stablehlo.constant"() {value = dense<0> : tensor<1x64xi32>} : () -> tensor<1x64xi32>
    %vv = "stablehlo.constant"() {value = dense<64> : tensor<1x64xi32>} : () -> tensor<1x64xi32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x64xi32>
    %rev = "stablehlo.subtract"(%vv, %io) : (tensor<1x64xi32>, tensor<1x64xi32>) -> tensor<1x64xi32>
    %sel = "stablehlo.select"(%eq, %rev, %z) : (tensor<1x64xi1>, tensor<1x64xi32>, tensor<1x64xi32>) -> tensor<1x64xi32>
    %i0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%sel, %i0) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x64xi32>, tensor<i32>) -> tensor<1xi32>
    %vr = "stablehlo.constant"() {value = dense<64> : tensor<1xi32>} : () -> tensor<1xi32>
    %out = "stablehlo.subtract"(%vr, %r) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    return %out : tensor<1xi32>
  }
  func.func @min_i32_1024(%x: tensor<1x1024xi32>) -> tensor<1xi32> {
    %i = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x1024xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @max_i32_1024(%x: tensor<1x1024xi32>) -> tensor<1xi32> {
    %i = "stablehlo.constant"() {value = dense<-2147483648> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x1024xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @min_f32_1024(%x: tensor<1x1024xf32>) -> tensor<1xf32> {
    %i = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x1024xf32>, tensor<f32>) -> tensor<1xf32>
    return %r : tensor<1xf32>
  }
  func.func @add_i32_1024(%x: tensor<1x1024xi32>) -> tensor<1xi32> {
    %i = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x1024xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @am_i32_1024(%x: tensor<1x1024xf32>) -> tensor<1xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x1024xf32>, tensor<f32>) -> tensor<1xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x1024xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x1024xf32>, tensor<1x1024xf32>) -> tensor<1x1024xi1>
    %vv = "stablehlo.constant"() {value = dense<1024> : tensor<1x1024xi32>} : () -> tensor<1x1024xi32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x1024xi32>
    %sel = "stablehlo.select"(%eq, %io, %vv) : (tensor<1x1024xi1>, tensor<1x1024xi32>, tensor<1x1024xi32>) -> tensor<1x1024xi32>
    %imax = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%sel, %imax) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x1024xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @am_f32_1024(%x: tensor<1x1024xf32>) -> tensor<1xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x1024xf32>, tensor<f32>) -> tensor<1xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x1024xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x1024xf32>, tensor<1x1024xf32>) -> tensor<1x1024xi1>
    %vv = "stablehlo.constant"() {value = dense<1024.0> : tensor<1x1024xf32>} : () -> tensor<1x1024xf32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x1024xf32>
    %sel = "stablehlo.select"(%eq, %io, %vv) : (tensor<1x1024xi1>, tensor<1x1024xf32>, tensor<1x1024xf32>) -> tensor<1x1024xf32>
    %imax = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %r = "stablehlo.reduce"(%sel, %imax) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x1024xf32>, tensor<f32>) -> tensor<1xf32>
    %ri = "stablehlo.convert"(%r) : (tensor<1xf32>) -> tensor<1xi32>
    return %ri : tensor<1xi32>
  }
  func.func @am_max_1024(%x: tensor<1x1024xf32>) -> tensor<1xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x1024xf32>, tensor<f32>) -> tensor<1xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x1024xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x1024xf32>, tensor<1x1024xf32>) -> tensor<1x1024xi1>
    %z = "stablehlo.constant"() {value = dense<0> : tensor<1x1024xi32>} : () -> tensor<1x1024xi32>
    %vv = "stablehlo.constant"() {value = dense<1024> : tensor<1x1024xi32>} : () -> tensor<1x1024xi32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x1024xi32>
    %rev = "stablehlo.subtract"(%vv, %io) : (tensor<1x1024xi32>, tensor<1x1024xi32>) -> tensor<1x1024xi32>
    %sel = "stablehlo.select"(%eq, %rev, %z) : (tensor<1x1024xi1>, tensor<1x1024xi32>, tensor<1x1024xi32>) -> tensor<1x1024xi32>
    %i0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%sel, %i0) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x1024xi32>, tensor<i32>) -> tensor<1xi32>
    %vr = "stablehlo.constant"() {value = dense<1024> : tensor<1xi32>} : () -> tensor<1xi32>
    %out = "stablehlo.subtract"(%vr, %r) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    return %out : tensor<1xi32>
  }
  func.func @min_i32_128256(%x: tensor<1x128256xi32>) -> tensor<1xi32> {
    %i = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x128256xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @max_i32_128256(%x: tensor<1x128256xi32>) -> tensor<1xi32> {
    %i = "stablehlo.constant"() {value = dense<-2147483648> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x128256xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @min_f32_128256(%x: tensor<1x128256xf32>) -> tensor<1xf32> {
    %i = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x128256xf32>, tensor<f32>) -> tensor<1xf32>
    return %r : tensor<1xf32>
  }
  func.func @add_i32_128256(%x: tensor<1x128256xi32>) -> tensor<1xi32> {
    %i = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%x, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x128256xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @am_i32_128256(%x: tensor<1x128256xf32>) -> tensor<1xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x128256xf32>, tensor<f32>) -> tensor<1xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x128256xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x128256xf32>, tensor<1x128256xf32>) -> tensor<1x128256xi1>
    %vv = "stablehlo.constant"() {value = dense<128256> : tensor<1x128256xi32>} : () -> tensor<1x128256xi32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x128256xi32>
    %sel = "stablehlo.select"(%eq, %io, %vv) : (tensor<1x128256xi1>, tensor<1x128256xi32>, tensor<1x128256xi32>) -> tensor<1x128256xi32>
    %imax = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%sel, %imax) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x128256xi32>, tensor<i32>) -> tensor<1xi32>
    return %r : tensor<1xi32>
  }
  func.func @am_f32_128256(%x: tensor<1x128256xf32>) -> tensor<1xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x128256xf32>, tensor<f32>) -> tensor<1xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x128256xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x128256xf32>, tensor<1x128256xf32>) -> tensor<1x128256xi1>
    %vv = "stablehlo.constant"() {value = dense<128256.0> : tensor<1x128256xf32>} : () -> tensor<1x128256xf32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x128256xf32>
    %sel = "stablehlo.select"(%eq, %io, %vv) : (tensor<1x128256xi1>, tensor<1x128256xf32>, tensor<1x128256xf32>) -> tensor<1x128256xf32>
    %imax = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %r = "stablehlo.reduce"(%sel, %imax) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x128256xf32>, tensor<f32>) -> tensor<1xf32>
    %ri = "stablehlo.convert"(%r) : (tensor<1xf32>) -> tensor<1xi32>
    return %ri : tensor<1xi32>
  }
  func.func @am_max_128256(%x: tensor<1x128256xf32>) -> tensor<1xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x128256xf32>, tensor<f32>) -> tensor<1xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x128256xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x128256xf32>, tensor<1x128256xf32>) -> tensor<1x128256xi1>
    %z = "stablehlo.constant"() {value = dense<0> : tensor<1x128256xi32>} : () -> tensor<1x128256xi32>
    %vv = "stablehlo.constant"() {value = dense<128256> : tensor<1x128256xi32>} : () -> tensor<1x128256xi32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x128256xi32>
    %rev = "stablehlo.subtract"(%vv, %io) : (tensor<1x128256xi32>, tensor<1x128256xi32>) -> tensor<1x128256xi32>
    %sel = "stablehlo.select"(%eq, %rev, %z) : (tensor<1x128256xi1>, tensor<1x128256xi32>, tensor<1x128256xi32>) -> tensor<1x128256xi32>
    %i0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%sel, %i0) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x128256xi32>, tensor<i32>) -> tensor<1xi32>
    %vr = "stablehlo.constant"() {value = dense<128256> : tensor<1xi32>} : () -> tensor<1xi32>
    %out = "stablehlo.subtract"(%vr, %r) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    return %out : tensor<1xi32>
  }
  func.func @am4_i32_128256(%x: tensor<4x128256xf32>) -> tensor<4xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x128256xf32>, tensor<f32>) -> tensor<4xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x128256xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<4x128256xf32>, tensor<4x128256xf32>) -> tensor<4x128256xi1>
    %vv = "stablehlo.constant"() {value = dense<128256> : tensor<4x128256xi32>} : () -> tensor<4x128256xi32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4x128256xi32>
    %sel = "stablehlo.select"(%eq, %io, %vv) : (tensor<4x128256xi1>, tensor<4x128256xi32>, tensor<4x128256xi32>) -> tensor<4x128256xi32>
    %imax = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%sel, %imax) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x128256xi32>, tensor<i32>) -> tensor<4xi32>
    return %r : tensor<4xi32>
  }
  func.func @am4_f32_128256(%x: tensor<4x128256xf32>) -> tensor<4xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x128256xf32>, tensor<f32>) -> tensor<4xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x128256xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<4x128256xf32>, tensor<4x128256xf32>) -> tensor<4x128256xi1>
    %vv = "stablehlo.constant"() {value = dense<128256.0> : tensor<4x128256xf32>} : () -> tensor<4x128256xf32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4x128256xf32>
    %sel = "stablehlo.select"(%eq, %io, %vv) : (tensor<4x128256xi1>, tensor<4x128256xf32>, tensor<4x128256xf32>) -> tensor<4x128256xf32>
    %imax = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %r = "stablehlo.reduce"(%sel, %imax) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.minimum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x128256xf32>, tensor<f32>) -> tensor<4xf32>
    %ri = "stablehlo.convert"(%r) : (tensor<4xf32>) -> tensor<4xi32>
    return %ri : tensor<4xi32>
  }
  func.func @am4_max_128256(%x: tensor<4x128256xf32>) -> tensor<4xi32> {
    %ninf = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %m = "stablehlo.reduce"(%x, %ninf) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x128256xf32>, tensor<f32>) -> tensor<4xf32>
    %mb = "stablehlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x128256xf32>
    %eq = "stablehlo.compare"(%x, %mb) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<4x128256xf32>, tensor<4x128256xf32>) -> tensor<4x128256xi1>
    %z = "stablehlo.constant"() {value = dense<0> : tensor<4x128256xi32>} : () -> tensor<4x128256xi32>
    %vv = "stablehlo.constant"() {value = dense<128256> : tensor<4x128256xi32>} : () -> tensor<4x128256xi32>
    %io = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4x128256xi32>
    %rev = "stablehlo.subtract"(%vv, %io) : (tensor<4x128256xi32>, tensor<4x128256xi32>) -> tensor<4x128256xi32>
    %sel = "stablehlo.select"(%eq, %rev, %z) : (tensor<4x128256xi1>, tensor<4x128256xi32>, tensor<4x128256xi32>) -> tensor<4x128256xi32>
    %i0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %r = "stablehlo.reduce"(%sel, %i0) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %rr = "stablehlo.maximum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x128256xi32>, tensor<i32>) -> tensor<4xi32>
    %vr = "stablehlo.constant"() {value = dense<128256> : tensor<4xi32>} : () -> tensor<4xi32>
    %out = "stablehlo.subtract"(%vr, %r) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    return %out : tensor<4xi32>
  }
}
