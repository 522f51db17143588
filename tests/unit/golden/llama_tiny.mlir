module @mlxcel {
  util.global private @w_model_embed_tokens_weight = #flow.parameter.named<"model"::"model.embed_tokens.weight"> : tensor<40x16xf32>
  util.global private @w_model_norm_weight = #flow.parameter.named<"model"::"model.norm.weight"> : tensor<16xf32>
  util.global private @w_model_layers_0_input_layernorm_weight = #flow.parameter.named<"model"::"model.layers.0.input_layernorm.weight"> : tensor<16xf32>
  util.global private @w_model_layers_0_self_attn_q_proj_weight = #flow.parameter.named<"model"::"model.layers.0.self_attn.q_proj.weight"> : tensor<16x16xf32>
  util.global private @w_model_layers_0_self_attn_k_proj_weight = #flow.parameter.named<"model"::"model.layers.0.self_attn.k_proj.weight"> : tensor<8x16xf32>
  util.global private @w_model_layers_0_self_attn_v_proj_weight = #flow.parameter.named<"model"::"model.layers.0.self_attn.v_proj.weight"> : tensor<8x16xf32>
  util.global private @w_model_layers_0_self_attn_o_proj_weight = #flow.parameter.named<"model"::"model.layers.0.self_attn.o_proj.weight"> : tensor<16x16xf32>
  util.global private @w_model_layers_0_post_attention_layernorm_weight = #flow.parameter.named<"model"::"model.layers.0.post_attention_layernorm.weight"> : tensor<16xf32>
  util.global private @w_model_layers_0_mlp_gate_proj_weight = #flow.parameter.named<"model"::"model.layers.0.mlp.gate_proj.weight"> : tensor<32x16xf32>
  util.global private @w_model_layers_0_mlp_up_proj_weight = #flow.parameter.named<"model"::"model.layers.0.mlp.up_proj.weight"> : tensor<32x16xf32>
  util.global private @w_model_layers_0_mlp_down_proj_weight = #flow.parameter.named<"model"::"model.layers.0.mlp.down_proj.weight"> : tensor<16x32xf32>
  util.global private mutable @kv_k0 = dense<0x0D800000> : tensor<16x1x8xf32>
  util.global private mutable @kv_v0 = dense<0x0E000000> : tensor<16x1x8xf32>
  func.func @prefill_4(%a0: tensor<4xi32>, %a1: tensor<i32>) -> (tensor<i32>) {
    %v0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v1 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v2 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v3 = "stablehlo.reshape"(%a0) : (tensor<4xi32>) -> tensor<4x1xi32>
    %v4 = "stablehlo.gather"(%v2, %v3) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<4x1xi32>) -> tensor<4x16xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<4xi32>
    %v6 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi32>
    %v7 = "stablehlo.add"(%v6, %v5) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %v8 = "stablehlo.convert"(%v7) : (tensor<4xi32>) -> tensor<4xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v1) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<4x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %v15 = "stablehlo.multiply"(%v4, %v4) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v17 = "stablehlo.reduce"(%v15, %v16) ({
    ^bb0(%rx17: tensor<f32>, %ry17: tensor<f32>):
      %rr17 = "stablehlo.add"(%rx17, %ry17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr17) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v18 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v19 = "stablehlo.divide"(%v17, %v18) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v20 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v21 = "stablehlo.add"(%v19, %v20) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v22 = "stablehlo.rsqrt"(%v21) : (tensor<4xf32>) -> tensor<4xf32>
    %v23 = "stablehlo.broadcast_in_dim"(%v22) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v24 = "stablehlo.multiply"(%v4, %v23) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v25 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v26 = "stablehlo.broadcast_in_dim"(%v25) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v27 = "stablehlo.multiply"(%v24, %v26) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v29 = "stablehlo.dot_general"(%v27, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %v30 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v31 = "stablehlo.dot_general"(%v27, %v30) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
    %v32 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v33 = "stablehlo.dot_general"(%v27, %v32) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
    %v34 = "stablehlo.reshape"(%v29) : (tensor<4x16xf32>) -> tensor<4x2x8xf32>
    %v35 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 4, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<4x2x8xf32>) -> tensor<4x2x4xf32>
    %v36 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 4, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<4x2x8xf32>) -> tensor<4x2x4xf32>
    %v37 = "stablehlo.negate"(%v36) : (tensor<4x2x4xf32>) -> tensor<4x2x4xf32>
    %v38 = "stablehlo.concatenate"(%v37, %v35) {dimension = 2 : i64} : (tensor<4x2x4xf32>, tensor<4x2x4xf32>) -> tensor<4x2x8xf32>
    %v39 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %v40 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %v41 = "stablehlo.multiply"(%v38, %v40) : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
    %v42 = "stablehlo.multiply"(%v34, %v39) : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
    %v43 = "stablehlo.add"(%v42, %v41) : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
    %v44 = "stablehlo.reshape"(%v31) : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
    %v45 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 4, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x8xf32>) -> tensor<4x1x4xf32>
    %v46 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 4, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x8xf32>) -> tensor<4x1x4xf32>
    %v47 = "stablehlo.negate"(%v46) : (tensor<4x1x4xf32>) -> tensor<4x1x4xf32>
    %v48 = "stablehlo.concatenate"(%v47, %v45) {dimension = 2 : i64} : (tensor<4x1x4xf32>, tensor<4x1x4xf32>) -> tensor<4x1x8xf32>
    %v49 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
    %v50 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
    %v51 = "stablehlo.multiply"(%v48, %v50) : (tensor<4x1x8xf32>, tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
    %v52 = "stablehlo.multiply"(%v44, %v49) : (tensor<4x1x8xf32>, tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
    %v53 = "stablehlo.add"(%v52, %v51) : (tensor<4x1x8xf32>, tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
    %v54 = "stablehlo.reshape"(%v33) : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
    %v55 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v56 = util.global.load @kv_k0 : tensor<16x1x8xf32>
    %v57 = "stablehlo.dynamic_update_slice"(%v56, %v53, %v0, %v55, %v55) : (tensor<16x1x8xf32>, tensor<4x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    %v58 = util.global.load @kv_v0 : tensor<16x1x8xf32>
    %v59 = "stablehlo.dynamic_update_slice"(%v58, %v54, %v0, %v55, %v55) : (tensor<16x1x8xf32>, tensor<4x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    util.global.store %v57, @kv_k0 : tensor<16x1x8xf32>
    util.global.store %v59, @kv_v0 : tensor<16x1x8xf32>
    %v60 = "stablehlo.reshape"(%v43) : (tensor<4x2x8xf32>) -> tensor<4x1x2x8xf32>
    %v61 = "stablehlo.dot_general"(%v60, %v57) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<4x1x2x8xf32>, tensor<16x1x8xf32>) -> tensor<1x4x2x16xf32>
    %v62 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x4x2x16xf32>} : () -> tensor<1x4x2x16xf32>
    %v63 = "stablehlo.multiply"(%v61, %v62) : (tensor<1x4x2x16xf32>, tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32>
    %v64 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<4xi32>
    %v65 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi32>
    %v66 = "stablehlo.add"(%v65, %v64) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %v67 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4x16xi32>
    %v68 = "stablehlo.broadcast_in_dim"(%v66) {broadcast_dimensions = array<i64: 0>} : (tensor<4xi32>) -> tensor<4x16xi32>
    %v69 = "stablehlo.compare"(%v67, %v68) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi1>
    %v70 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<4x16xi1>) -> tensor<1x4x2x16xi1>
    %v71 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x4x2x16xf32>} : () -> tensor<1x4x2x16xf32>
    %v72 = "stablehlo.select"(%v70, %v63, %v71) : (tensor<1x4x2x16xi1>, tensor<1x4x2x16xf32>, tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32>
    %v73 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v74 = "stablehlo.reduce"(%v72, %v73) ({
    ^bb0(%rx74: tensor<f32>, %ry74: tensor<f32>):
      %rr74 = "stablehlo.maximum"(%rx74, %ry74) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr74) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x4x2x16xf32>, tensor<f32>) -> tensor<1x4x2xf32>
    %v75 = "stablehlo.broadcast_in_dim"(%v74) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x4x2xf32>) -> tensor<1x4x2x16xf32>
    %v76 = "stablehlo.subtract"(%v72, %v75) : (tensor<1x4x2x16xf32>, tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32>
    %v77 = "stablehlo.exponential"(%v76) : (tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32>
    %v78 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v79 = "stablehlo.reduce"(%v77, %v78) ({
    ^bb0(%rx79: tensor<f32>, %ry79: tensor<f32>):
      %rr79 = "stablehlo.add"(%rx79, %ry79) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr79) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x4x2x16xf32>, tensor<f32>) -> tensor<1x4x2xf32>
    %v80 = "stablehlo.broadcast_in_dim"(%v79) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x4x2xf32>) -> tensor<1x4x2x16xf32>
    %v81 = "stablehlo.divide"(%v77, %v80) : (tensor<1x4x2x16xf32>, tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32>
    %v82 = "stablehlo.dot_general"(%v81, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x4x2x16xf32>, tensor<16x1x8xf32>) -> tensor<1x4x2x8xf32>
    %v83 = "stablehlo.transpose"(%v82) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x4x2x8xf32>) -> tensor<4x1x2x8xf32>
    %v84 = "stablehlo.reshape"(%v83) : (tensor<4x1x2x8xf32>) -> tensor<4x16xf32>
    %v85 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v86 = "stablehlo.dot_general"(%v84, %v85) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %v87 = "stablehlo.add"(%v4, %v86) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v88 = "stablehlo.multiply"(%v87, %v87) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v89 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v90 = "stablehlo.reduce"(%v88, %v89) ({
    ^bb0(%rx90: tensor<f32>, %ry90: tensor<f32>):
      %rr90 = "stablehlo.add"(%rx90, %ry90) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr90) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v91 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v92 = "stablehlo.divide"(%v90, %v91) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v94 = "stablehlo.add"(%v92, %v93) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v95 = "stablehlo.rsqrt"(%v94) : (tensor<4xf32>) -> tensor<4xf32>
    %v96 = "stablehlo.broadcast_in_dim"(%v95) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v97 = "stablehlo.multiply"(%v87, %v96) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v98 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v100 = "stablehlo.multiply"(%v97, %v99) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v101 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v102 = "stablehlo.dot_general"(%v100, %v101) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v103 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v104 = "stablehlo.dot_general"(%v100, %v103) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v105 = "stablehlo.logistic"(%v102) : (tensor<4x32xf32>) -> tensor<4x32xf32>
    %v106 = "stablehlo.multiply"(%v102, %v105) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v107 = "stablehlo.multiply"(%v106, %v104) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v108 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v109 = "stablehlo.dot_general"(%v107, %v108) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x32xf32>, tensor<16x32xf32>) -> tensor<4x16xf32>
    %v110 = "stablehlo.add"(%v87, %v109) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v111 = "stablehlo.multiply"(%v110, %v110) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v112 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v113 = "stablehlo.reduce"(%v111, %v112) ({
    ^bb0(%rx113: tensor<f32>, %ry113: tensor<f32>):
      %rr113 = "stablehlo.add"(%rx113, %ry113) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr113) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v114 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v115 = "stablehlo.divide"(%v113, %v114) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v117 = "stablehlo.add"(%v115, %v116) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v118 = "stablehlo.rsqrt"(%v117) : (tensor<4xf32>) -> tensor<4xf32>
    %v119 = "stablehlo.broadcast_in_dim"(%v118) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v120 = "stablehlo.multiply"(%v110, %v119) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v121 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v123 = "stablehlo.multiply"(%v120, %v122) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v124 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v125 = "stablehlo.subtract"(%a1, %v124) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v126 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v127 = "stablehlo.dynamic_slice"(%v123, %v125, %v126) {slice_sizes = array<i64: 1, 16>} : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v128 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v129 = "stablehlo.dot_general"(%v127, %v128) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v130 = "stablehlo.reshape"(%v129) : (tensor<1x40xf32>) -> tensor<40xf32>
    %v131 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v132 = "stablehlo.reduce"(%v130, %v131) ({
    ^bb0(%rx132: tensor<f32>, %ry132: tensor<f32>):
      %rr132 = "stablehlo.maximum"(%rx132, %ry132) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr132) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<40xf32>, tensor<f32>) -> tensor<f32>
    %v133 = "stablehlo.broadcast_in_dim"(%v132) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<40xf32>
    %v134 = "stablehlo.compare"(%v130, %v133) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<40xf32>, tensor<40xf32>) -> tensor<40xi1>
    %v135 = "stablehlo.constant"() {value = dense<40> : tensor<40xi32>} : () -> tensor<40xi32>
    %v136 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<40xi32>
    %v137 = "stablehlo.select"(%v134, %v136, %v135) : (tensor<40xi1>, tensor<40xi32>, tensor<40xi32>) -> tensor<40xi32>
    %v138 = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %v139 = "stablehlo.reduce"(%v137, %v138) ({
    ^bb0(%rx139: tensor<i32>, %ry139: tensor<i32>):
      %rr139 = "stablehlo.minimum"(%rx139, %ry139) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr139) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<40xi32>, tensor<i32>) -> tensor<i32>
    return %v139 : tensor<i32>
  }
  func.func @prefill_4_logits(%a0: tensor<4xi32>, %a1: tensor<i32>) -> (tensor<40xf32>) {
    %v0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v1 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v2 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v3 = "stablehlo.reshape"(%a0) : (tensor<4xi32>) -> tensor<4x1xi32>
    %v4 = "stablehlo.gather"(%v2, %v3) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<4x1xi32>) -> tensor<4x16xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<4xi32>
    %v6 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi32>
    %v7 = "stablehlo.add"(%v6, %v5) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %v8 = "stablehlo.convert"(%v7) : (tensor<4xi32>) -> tensor<4xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v1) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<4x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %v15 = "stablehlo.multiply"(%v4, %v4) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v17 = "stablehlo.reduce"(%v15, %v16) ({
    ^bb0(%rx17: tensor<f32>, %ry17: tensor<f32>):
      %rr17 = "stablehlo.add"(%rx17, %ry17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr17) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v18 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v19 = "stablehlo.divide"(%v17, %v18) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v20 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v21 = "stablehlo.add"(%v19, %v20) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v22 = "stablehlo.rsqrt"(%v21) : (tensor<4xf32>) -> tensor<4xf32>
    %v23 = "stablehlo.broadcast_in_dim"(%v22) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v24 = "stablehlo.multiply"(%v4, %v23) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v25 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v26 = "stablehlo.broadcast_in_dim"(%v25) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v27 = "stablehlo.multiply"(%v24, %v26) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v29 = "stablehlo.dot_general"(%v27, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %v30 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v31 = "stablehlo.dot_general"(%v27, %v30) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
    %v32 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v33 = "stablehlo.dot_general"(%v27, %v32) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
    %v34 = "stablehlo.reshape"(%v29) : (tensor<4x16xf32>) -> tensor<4x2x8xf32>
    %v35 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 4, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<4x2x8xf32>) -> tensor<4x2x4xf32>
    %v36 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 4, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<4x2x8xf32>) -> tensor<4x2x4xf32>
    %v37 = "stablehlo.negate"(%v36) : (tensor<4x2x4xf32>) -> tensor<4x2x4xf32>
    %v38 = "stablehlo.concatenate"(%v37, %v35) {dimension = 2 : i64} : (tensor<4x2x4xf32>, tensor<4x2x4xf32>) -> tensor<4x2x8xf32>
    %v39 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %v40 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %v41 = "stablehlo.multiply"(%v38, %v40) : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
    %v42 = "stablehlo.multiply"(%v34, %v39) : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
    %v43 = "stablehlo.add"(%v42, %v41) : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x8xf32>
    %v44 = "stablehlo.reshape"(%v31) : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
    %v45 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 4, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x8xf32>) -> tensor<4x1x4xf32>
    %v46 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 4, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<4x1x8xf32>) -> tensor<4x1x4xf32>
    %v47 = "stablehlo.negate"(%v46) : (tensor<4x1x4xf32>) -> tensor<4x1x4xf32>
    %v48 = "stablehlo.concatenate"(%v47, %v45) {dimension = 2 : i64} : (tensor<4x1x4xf32>, tensor<4x1x4xf32>) -> tensor<4x1x8xf32>
    %v49 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
    %v50 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
    %v51 = "stablehlo.multiply"(%v48, %v50) : (tensor<4x1x8xf32>, tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
    %v52 = "stablehlo.multiply"(%v44, %v49) : (tensor<4x1x8xf32>, tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
    %v53 = "stablehlo.add"(%v52, %v51) : (tensor<4x1x8xf32>, tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
    %v54 = "stablehlo.reshape"(%v33) : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
    %v55 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v56 = util.global.load @kv_k0 : tensor<16x1x8xf32>
    %v57 = "stablehlo.dynamic_update_slice"(%v56, %v53, %v0, %v55, %v55) : (tensor<16x1x8xf32>, tensor<4x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    %v58 = util.global.load @kv_v0 : tensor<16x1x8xf32>
    %v59 = "stablehlo.dynamic_update_slice"(%v58, %v54, %v0, %v55, %v55) : (tensor<16x1x8xf32>, tensor<4x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    util.global.store %v57, @kv_k0 : tensor<16x1x8xf32>
    util.global.store %v59, @kv_v0 : tensor<16x1x8xf32>
    %v60 = "stablehlo.reshape"(%v43) : (tensor<4x2x8xf32>) -> tensor<4x1x2x8xf32>
    %v61 = "stablehlo.dot_general"(%v60, %v57) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<4x1x2x8xf32>, tensor<16x1x8xf32>) -> tensor<1x4x2x16xf32>
    %v62 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x4x2x16xf32>} : () -> tensor<1x4x2x16xf32>
    %v63 = "stablehlo.multiply"(%v61, %v62) : (tensor<1x4x2x16xf32>, tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32>
    %v64 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<4xi32>
    %v65 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi32>
    %v66 = "stablehlo.add"(%v65, %v64) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %v67 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4x16xi32>
    %v68 = "stablehlo.broadcast_in_dim"(%v66) {broadcast_dimensions = array<i64: 0>} : (tensor<4xi32>) -> tensor<4x16xi32>
    %v69 = "stablehlo.compare"(%v67, %v68) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi1>
    %v70 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<4x16xi1>) -> tensor<1x4x2x16xi1>
    %v71 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x4x2x16xf32>} : () -> tensor<1x4x2x16xf32>
    %v72 = "stablehlo.select"(%v70, %v63, %v71) : (tensor<1x4x2x16xi1>, tensor<1x4x2x16xf32>, tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32>
    %v73 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v74 = "stablehlo.reduce"(%v72, %v73) ({
    ^bb0(%rx74: tensor<f32>, %ry74: tensor<f32>):
      %rr74 = "stablehlo.maximum"(%rx74, %ry74) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr74) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x4x2x16xf32>, tensor<f32>) -> tensor<1x4x2xf32>
    %v75 = "stablehlo.broadcast_in_dim"(%v74) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x4x2xf32>) -> tensor<1x4x2x16xf32>
    %v76 = "stablehlo.subtract"(%v72, %v75) : (tensor<1x4x2x16xf32>, tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32>
    %v77 = "stablehlo.exponential"(%v76) : (tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32>
    %v78 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v79 = "stablehlo.reduce"(%v77, %v78) ({
    ^bb0(%rx79: tensor<f32>, %ry79: tensor<f32>):
      %rr79 = "stablehlo.add"(%rx79, %ry79) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr79) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x4x2x16xf32>, tensor<f32>) -> tensor<1x4x2xf32>
    %v80 = "stablehlo.broadcast_in_dim"(%v79) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x4x2xf32>) -> tensor<1x4x2x16xf32>
    %v81 = "stablehlo.divide"(%v77, %v80) : (tensor<1x4x2x16xf32>, tensor<1x4x2x16xf32>) -> tensor<1x4x2x16xf32>
    %v82 = "stablehlo.dot_general"(%v81, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x4x2x16xf32>, tensor<16x1x8xf32>) -> tensor<1x4x2x8xf32>
    %v83 = "stablehlo.transpose"(%v82) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x4x2x8xf32>) -> tensor<4x1x2x8xf32>
    %v84 = "stablehlo.reshape"(%v83) : (tensor<4x1x2x8xf32>) -> tensor<4x16xf32>
    %v85 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v86 = "stablehlo.dot_general"(%v84, %v85) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %v87 = "stablehlo.add"(%v4, %v86) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v88 = "stablehlo.multiply"(%v87, %v87) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v89 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v90 = "stablehlo.reduce"(%v88, %v89) ({
    ^bb0(%rx90: tensor<f32>, %ry90: tensor<f32>):
      %rr90 = "stablehlo.add"(%rx90, %ry90) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr90) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v91 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v92 = "stablehlo.divide"(%v90, %v91) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v94 = "stablehlo.add"(%v92, %v93) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v95 = "stablehlo.rsqrt"(%v94) : (tensor<4xf32>) -> tensor<4xf32>
    %v96 = "stablehlo.broadcast_in_dim"(%v95) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v97 = "stablehlo.multiply"(%v87, %v96) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v98 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v100 = "stablehlo.multiply"(%v97, %v99) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v101 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v102 = "stablehlo.dot_general"(%v100, %v101) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v103 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v104 = "stablehlo.dot_general"(%v100, %v103) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v105 = "stablehlo.logistic"(%v102) : (tensor<4x32xf32>) -> tensor<4x32xf32>
    %v106 = "stablehlo.multiply"(%v102, %v105) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v107 = "stablehlo.multiply"(%v106, %v104) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v108 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v109 = "stablehlo.dot_general"(%v107, %v108) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x32xf32>, tensor<16x32xf32>) -> tensor<4x16xf32>
    %v110 = "stablehlo.add"(%v87, %v109) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v111 = "stablehlo.multiply"(%v110, %v110) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v112 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v113 = "stablehlo.reduce"(%v111, %v112) ({
    ^bb0(%rx113: tensor<f32>, %ry113: tensor<f32>):
      %rr113 = "stablehlo.add"(%rx113, %ry113) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr113) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v114 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v115 = "stablehlo.divide"(%v113, %v114) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v117 = "stablehlo.add"(%v115, %v116) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v118 = "stablehlo.rsqrt"(%v117) : (tensor<4xf32>) -> tensor<4xf32>
    %v119 = "stablehlo.broadcast_in_dim"(%v118) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v120 = "stablehlo.multiply"(%v110, %v119) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v121 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v123 = "stablehlo.multiply"(%v120, %v122) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v124 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v125 = "stablehlo.subtract"(%a1, %v124) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v126 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v127 = "stablehlo.dynamic_slice"(%v123, %v125, %v126) {slice_sizes = array<i64: 1, 16>} : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v128 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v129 = "stablehlo.dot_general"(%v127, %v128) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v130 = "stablehlo.reshape"(%v129) : (tensor<1x40xf32>) -> tensor<40xf32>
    return %v130 : tensor<40xf32>
  }
  func.func @prefill_16(%a0: tensor<16xi32>, %a1: tensor<i32>) -> (tensor<i32>) {
    %v0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v1 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v2 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v3 = "stablehlo.reshape"(%a0) : (tensor<16xi32>) -> tensor<16x1xi32>
    %v4 = "stablehlo.gather"(%v2, %v3) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<16x1xi32>) -> tensor<16x16xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<16xi32>
    %v6 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<16xi32>
    %v7 = "stablehlo.add"(%v6, %v5) : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %v8 = "stablehlo.convert"(%v7) : (tensor<16xi32>) -> tensor<16xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v1) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<16x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %v15 = "stablehlo.multiply"(%v4, %v4) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v17 = "stablehlo.reduce"(%v15, %v16) ({
    ^bb0(%rx17: tensor<f32>, %ry17: tensor<f32>):
      %rr17 = "stablehlo.add"(%rx17, %ry17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr17) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v18 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v19 = "stablehlo.divide"(%v17, %v18) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v20 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v21 = "stablehlo.add"(%v19, %v20) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v22 = "stablehlo.rsqrt"(%v21) : (tensor<16xf32>) -> tensor<16xf32>
    %v23 = "stablehlo.broadcast_in_dim"(%v22) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v24 = "stablehlo.multiply"(%v4, %v23) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v25 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v26 = "stablehlo.broadcast_in_dim"(%v25) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v27 = "stablehlo.multiply"(%v24, %v26) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v29 = "stablehlo.dot_general"(%v27, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v30 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v31 = "stablehlo.dot_general"(%v27, %v30) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<8x16xf32>) -> tensor<16x8xf32>
    %v32 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v33 = "stablehlo.dot_general"(%v27, %v32) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<8x16xf32>) -> tensor<16x8xf32>
    %v34 = "stablehlo.reshape"(%v29) : (tensor<16x16xf32>) -> tensor<16x2x8xf32>
    %v35 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 16, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<16x2x8xf32>) -> tensor<16x2x4xf32>
    %v36 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 16, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<16x2x8xf32>) -> tensor<16x2x4xf32>
    %v37 = "stablehlo.negate"(%v36) : (tensor<16x2x4xf32>) -> tensor<16x2x4xf32>
    %v38 = "stablehlo.concatenate"(%v37, %v35) {dimension = 2 : i64} : (tensor<16x2x4xf32>, tensor<16x2x4xf32>) -> tensor<16x2x8xf32>
    %v39 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<16x8xf32>) -> tensor<16x2x8xf32>
    %v40 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<16x8xf32>) -> tensor<16x2x8xf32>
    %v41 = "stablehlo.multiply"(%v38, %v40) : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x8xf32>
    %v42 = "stablehlo.multiply"(%v34, %v39) : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x8xf32>
    %v43 = "stablehlo.add"(%v42, %v41) : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x8xf32>
    %v44 = "stablehlo.reshape"(%v31) : (tensor<16x8xf32>) -> tensor<16x1x8xf32>
    %v45 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 16, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<16x1x8xf32>) -> tensor<16x1x4xf32>
    %v46 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 16, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<16x1x8xf32>) -> tensor<16x1x4xf32>
    %v47 = "stablehlo.negate"(%v46) : (tensor<16x1x4xf32>) -> tensor<16x1x4xf32>
    %v48 = "stablehlo.concatenate"(%v47, %v45) {dimension = 2 : i64} : (tensor<16x1x4xf32>, tensor<16x1x4xf32>) -> tensor<16x1x8xf32>
    %v49 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<16x8xf32>) -> tensor<16x1x8xf32>
    %v50 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<16x8xf32>) -> tensor<16x1x8xf32>
    %v51 = "stablehlo.multiply"(%v48, %v50) : (tensor<16x1x8xf32>, tensor<16x1x8xf32>) -> tensor<16x1x8xf32>
    %v52 = "stablehlo.multiply"(%v44, %v49) : (tensor<16x1x8xf32>, tensor<16x1x8xf32>) -> tensor<16x1x8xf32>
    %v53 = "stablehlo.add"(%v52, %v51) : (tensor<16x1x8xf32>, tensor<16x1x8xf32>) -> tensor<16x1x8xf32>
    %v54 = "stablehlo.reshape"(%v33) : (tensor<16x8xf32>) -> tensor<16x1x8xf32>
    %v55 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v56 = util.global.load @kv_k0 : tensor<16x1x8xf32>
    %v57 = "stablehlo.dynamic_update_slice"(%v56, %v53, %v0, %v55, %v55) : (tensor<16x1x8xf32>, tensor<16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    %v58 = util.global.load @kv_v0 : tensor<16x1x8xf32>
    %v59 = "stablehlo.dynamic_update_slice"(%v58, %v54, %v0, %v55, %v55) : (tensor<16x1x8xf32>, tensor<16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    util.global.store %v57, @kv_k0 : tensor<16x1x8xf32>
    util.global.store %v59, @kv_v0 : tensor<16x1x8xf32>
    %v60 = "stablehlo.reshape"(%v43) : (tensor<16x2x8xf32>) -> tensor<16x1x2x8xf32>
    %v61 = "stablehlo.dot_general"(%v60, %v57) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<16x1x2x8xf32>, tensor<16x1x8xf32>) -> tensor<1x16x2x16xf32>
    %v62 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x16x2x16xf32>} : () -> tensor<1x16x2x16xf32>
    %v63 = "stablehlo.multiply"(%v61, %v62) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v64 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<16xi32>
    %v65 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<16xi32>
    %v66 = "stablehlo.add"(%v65, %v64) : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %v67 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<16x16xi32>
    %v68 = "stablehlo.broadcast_in_dim"(%v66) {broadcast_dimensions = array<i64: 0>} : (tensor<16xi32>) -> tensor<16x16xi32>
    %v69 = "stablehlo.compare"(%v67, %v68) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %v70 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<16x16xi1>) -> tensor<1x16x2x16xi1>
    %v71 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x16x2x16xf32>} : () -> tensor<1x16x2x16xf32>
    %v72 = "stablehlo.select"(%v70, %v63, %v71) : (tensor<1x16x2x16xi1>, tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v73 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v74 = "stablehlo.reduce"(%v72, %v73) ({
    ^bb0(%rx74: tensor<f32>, %ry74: tensor<f32>):
      %rr74 = "stablehlo.maximum"(%rx74, %ry74) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr74) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x16x2x16xf32>, tensor<f32>) -> tensor<1x16x2xf32>
    %v75 = "stablehlo.broadcast_in_dim"(%v74) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x16x2xf32>) -> tensor<1x16x2x16xf32>
    %v76 = "stablehlo.subtract"(%v72, %v75) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v77 = "stablehlo.exponential"(%v76) : (tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v78 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v79 = "stablehlo.reduce"(%v77, %v78) ({
    ^bb0(%rx79: tensor<f32>, %ry79: tensor<f32>):
      %rr79 = "stablehlo.add"(%rx79, %ry79) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr79) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x16x2x16xf32>, tensor<f32>) -> tensor<1x16x2xf32>
    %v80 = "stablehlo.broadcast_in_dim"(%v79) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x16x2xf32>) -> tensor<1x16x2x16xf32>
    %v81 = "stablehlo.divide"(%v77, %v80) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v82 = "stablehlo.dot_general"(%v81, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x16x2x16xf32>, tensor<16x1x8xf32>) -> tensor<1x16x2x8xf32>
    %v83 = "stablehlo.transpose"(%v82) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x16x2x8xf32>) -> tensor<16x1x2x8xf32>
    %v84 = "stablehlo.reshape"(%v83) : (tensor<16x1x2x8xf32>) -> tensor<16x16xf32>
    %v85 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v86 = "stablehlo.dot_general"(%v84, %v85) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v87 = "stablehlo.add"(%v4, %v86) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v88 = "stablehlo.multiply"(%v87, %v87) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v89 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v90 = "stablehlo.reduce"(%v88, %v89) ({
    ^bb0(%rx90: tensor<f32>, %ry90: tensor<f32>):
      %rr90 = "stablehlo.add"(%rx90, %ry90) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr90) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v91 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v92 = "stablehlo.divide"(%v90, %v91) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v94 = "stablehlo.add"(%v92, %v93) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v95 = "stablehlo.rsqrt"(%v94) : (tensor<16xf32>) -> tensor<16xf32>
    %v96 = "stablehlo.broadcast_in_dim"(%v95) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v97 = "stablehlo.multiply"(%v87, %v96) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v98 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v100 = "stablehlo.multiply"(%v97, %v99) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v101 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v102 = "stablehlo.dot_general"(%v100, %v101) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v103 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v104 = "stablehlo.dot_general"(%v100, %v103) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v105 = "stablehlo.logistic"(%v102) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %v106 = "stablehlo.multiply"(%v102, %v105) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v107 = "stablehlo.multiply"(%v106, %v104) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v108 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v109 = "stablehlo.dot_general"(%v107, %v108) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x16xf32>
    %v110 = "stablehlo.add"(%v87, %v109) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v111 = "stablehlo.multiply"(%v110, %v110) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v112 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v113 = "stablehlo.reduce"(%v111, %v112) ({
    ^bb0(%rx113: tensor<f32>, %ry113: tensor<f32>):
      %rr113 = "stablehlo.add"(%rx113, %ry113) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr113) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v114 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v115 = "stablehlo.divide"(%v113, %v114) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v117 = "stablehlo.add"(%v115, %v116) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v118 = "stablehlo.rsqrt"(%v117) : (tensor<16xf32>) -> tensor<16xf32>
    %v119 = "stablehlo.broadcast_in_dim"(%v118) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v120 = "stablehlo.multiply"(%v110, %v119) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v121 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v123 = "stablehlo.multiply"(%v120, %v122) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v124 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v125 = "stablehlo.subtract"(%a1, %v124) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v126 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v127 = "stablehlo.dynamic_slice"(%v123, %v125, %v126) {slice_sizes = array<i64: 1, 16>} : (tensor<16x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v128 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v129 = "stablehlo.dot_general"(%v127, %v128) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v130 = "stablehlo.reshape"(%v129) : (tensor<1x40xf32>) -> tensor<40xf32>
    %v131 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v132 = "stablehlo.reduce"(%v130, %v131) ({
    ^bb0(%rx132: tensor<f32>, %ry132: tensor<f32>):
      %rr132 = "stablehlo.maximum"(%rx132, %ry132) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr132) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<40xf32>, tensor<f32>) -> tensor<f32>
    %v133 = "stablehlo.broadcast_in_dim"(%v132) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<40xf32>
    %v134 = "stablehlo.compare"(%v130, %v133) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<40xf32>, tensor<40xf32>) -> tensor<40xi1>
    %v135 = "stablehlo.constant"() {value = dense<40> : tensor<40xi32>} : () -> tensor<40xi32>
    %v136 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<40xi32>
    %v137 = "stablehlo.select"(%v134, %v136, %v135) : (tensor<40xi1>, tensor<40xi32>, tensor<40xi32>) -> tensor<40xi32>
    %v138 = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %v139 = "stablehlo.reduce"(%v137, %v138) ({
    ^bb0(%rx139: tensor<i32>, %ry139: tensor<i32>):
      %rr139 = "stablehlo.minimum"(%rx139, %ry139) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr139) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<40xi32>, tensor<i32>) -> tensor<i32>
    return %v139 : tensor<i32>
  }
  func.func @prefill_16_logits(%a0: tensor<16xi32>, %a1: tensor<i32>) -> (tensor<40xf32>) {
    %v0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v1 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v2 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v3 = "stablehlo.reshape"(%a0) : (tensor<16xi32>) -> tensor<16x1xi32>
    %v4 = "stablehlo.gather"(%v2, %v3) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<16x1xi32>) -> tensor<16x16xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<16xi32>
    %v6 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<16xi32>
    %v7 = "stablehlo.add"(%v6, %v5) : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %v8 = "stablehlo.convert"(%v7) : (tensor<16xi32>) -> tensor<16xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v1) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<16x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %v15 = "stablehlo.multiply"(%v4, %v4) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v17 = "stablehlo.reduce"(%v15, %v16) ({
    ^bb0(%rx17: tensor<f32>, %ry17: tensor<f32>):
      %rr17 = "stablehlo.add"(%rx17, %ry17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr17) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v18 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v19 = "stablehlo.divide"(%v17, %v18) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v20 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v21 = "stablehlo.add"(%v19, %v20) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v22 = "stablehlo.rsqrt"(%v21) : (tensor<16xf32>) -> tensor<16xf32>
    %v23 = "stablehlo.broadcast_in_dim"(%v22) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v24 = "stablehlo.multiply"(%v4, %v23) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v25 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v26 = "stablehlo.broadcast_in_dim"(%v25) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v27 = "stablehlo.multiply"(%v24, %v26) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v29 = "stablehlo.dot_general"(%v27, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v30 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v31 = "stablehlo.dot_general"(%v27, %v30) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<8x16xf32>) -> tensor<16x8xf32>
    %v32 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v33 = "stablehlo.dot_general"(%v27, %v32) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<8x16xf32>) -> tensor<16x8xf32>
    %v34 = "stablehlo.reshape"(%v29) : (tensor<16x16xf32>) -> tensor<16x2x8xf32>
    %v35 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 16, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<16x2x8xf32>) -> tensor<16x2x4xf32>
    %v36 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 16, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<16x2x8xf32>) -> tensor<16x2x4xf32>
    %v37 = "stablehlo.negate"(%v36) : (tensor<16x2x4xf32>) -> tensor<16x2x4xf32>
    %v38 = "stablehlo.concatenate"(%v37, %v35) {dimension = 2 : i64} : (tensor<16x2x4xf32>, tensor<16x2x4xf32>) -> tensor<16x2x8xf32>
    %v39 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<16x8xf32>) -> tensor<16x2x8xf32>
    %v40 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<16x8xf32>) -> tensor<16x2x8xf32>
    %v41 = "stablehlo.multiply"(%v38, %v40) : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x8xf32>
    %v42 = "stablehlo.multiply"(%v34, %v39) : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x8xf32>
    %v43 = "stablehlo.add"(%v42, %v41) : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x8xf32>
    %v44 = "stablehlo.reshape"(%v31) : (tensor<16x8xf32>) -> tensor<16x1x8xf32>
    %v45 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 16, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<16x1x8xf32>) -> tensor<16x1x4xf32>
    %v46 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 16, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<16x1x8xf32>) -> tensor<16x1x4xf32>
    %v47 = "stablehlo.negate"(%v46) : (tensor<16x1x4xf32>) -> tensor<16x1x4xf32>
    %v48 = "stablehlo.concatenate"(%v47, %v45) {dimension = 2 : i64} : (tensor<16x1x4xf32>, tensor<16x1x4xf32>) -> tensor<16x1x8xf32>
    %v49 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<16x8xf32>) -> tensor<16x1x8xf32>
    %v50 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<16x8xf32>) -> tensor<16x1x8xf32>
    %v51 = "stablehlo.multiply"(%v48, %v50) : (tensor<16x1x8xf32>, tensor<16x1x8xf32>) -> tensor<16x1x8xf32>
    %v52 = "stablehlo.multiply"(%v44, %v49) : (tensor<16x1x8xf32>, tensor<16x1x8xf32>) -> tensor<16x1x8xf32>
    %v53 = "stablehlo.add"(%v52, %v51) : (tensor<16x1x8xf32>, tensor<16x1x8xf32>) -> tensor<16x1x8xf32>
    %v54 = "stablehlo.reshape"(%v33) : (tensor<16x8xf32>) -> tensor<16x1x8xf32>
    %v55 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v56 = util.global.load @kv_k0 : tensor<16x1x8xf32>
    %v57 = "stablehlo.dynamic_update_slice"(%v56, %v53, %v0, %v55, %v55) : (tensor<16x1x8xf32>, tensor<16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    %v58 = util.global.load @kv_v0 : tensor<16x1x8xf32>
    %v59 = "stablehlo.dynamic_update_slice"(%v58, %v54, %v0, %v55, %v55) : (tensor<16x1x8xf32>, tensor<16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    util.global.store %v57, @kv_k0 : tensor<16x1x8xf32>
    util.global.store %v59, @kv_v0 : tensor<16x1x8xf32>
    %v60 = "stablehlo.reshape"(%v43) : (tensor<16x2x8xf32>) -> tensor<16x1x2x8xf32>
    %v61 = "stablehlo.dot_general"(%v60, %v57) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<16x1x2x8xf32>, tensor<16x1x8xf32>) -> tensor<1x16x2x16xf32>
    %v62 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x16x2x16xf32>} : () -> tensor<1x16x2x16xf32>
    %v63 = "stablehlo.multiply"(%v61, %v62) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v64 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<16xi32>
    %v65 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<16xi32>
    %v66 = "stablehlo.add"(%v65, %v64) : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %v67 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<16x16xi32>
    %v68 = "stablehlo.broadcast_in_dim"(%v66) {broadcast_dimensions = array<i64: 0>} : (tensor<16xi32>) -> tensor<16x16xi32>
    %v69 = "stablehlo.compare"(%v67, %v68) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %v70 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<16x16xi1>) -> tensor<1x16x2x16xi1>
    %v71 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x16x2x16xf32>} : () -> tensor<1x16x2x16xf32>
    %v72 = "stablehlo.select"(%v70, %v63, %v71) : (tensor<1x16x2x16xi1>, tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v73 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v74 = "stablehlo.reduce"(%v72, %v73) ({
    ^bb0(%rx74: tensor<f32>, %ry74: tensor<f32>):
      %rr74 = "stablehlo.maximum"(%rx74, %ry74) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr74) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x16x2x16xf32>, tensor<f32>) -> tensor<1x16x2xf32>
    %v75 = "stablehlo.broadcast_in_dim"(%v74) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x16x2xf32>) -> tensor<1x16x2x16xf32>
    %v76 = "stablehlo.subtract"(%v72, %v75) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v77 = "stablehlo.exponential"(%v76) : (tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v78 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v79 = "stablehlo.reduce"(%v77, %v78) ({
    ^bb0(%rx79: tensor<f32>, %ry79: tensor<f32>):
      %rr79 = "stablehlo.add"(%rx79, %ry79) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr79) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x16x2x16xf32>, tensor<f32>) -> tensor<1x16x2xf32>
    %v80 = "stablehlo.broadcast_in_dim"(%v79) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x16x2xf32>) -> tensor<1x16x2x16xf32>
    %v81 = "stablehlo.divide"(%v77, %v80) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v82 = "stablehlo.dot_general"(%v81, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x16x2x16xf32>, tensor<16x1x8xf32>) -> tensor<1x16x2x8xf32>
    %v83 = "stablehlo.transpose"(%v82) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x16x2x8xf32>) -> tensor<16x1x2x8xf32>
    %v84 = "stablehlo.reshape"(%v83) : (tensor<16x1x2x8xf32>) -> tensor<16x16xf32>
    %v85 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v86 = "stablehlo.dot_general"(%v84, %v85) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v87 = "stablehlo.add"(%v4, %v86) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v88 = "stablehlo.multiply"(%v87, %v87) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v89 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v90 = "stablehlo.reduce"(%v88, %v89) ({
    ^bb0(%rx90: tensor<f32>, %ry90: tensor<f32>):
      %rr90 = "stablehlo.add"(%rx90, %ry90) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr90) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v91 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v92 = "stablehlo.divide"(%v90, %v91) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v94 = "stablehlo.add"(%v92, %v93) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v95 = "stablehlo.rsqrt"(%v94) : (tensor<16xf32>) -> tensor<16xf32>
    %v96 = "stablehlo.broadcast_in_dim"(%v95) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v97 = "stablehlo.multiply"(%v87, %v96) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v98 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v100 = "stablehlo.multiply"(%v97, %v99) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v101 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v102 = "stablehlo.dot_general"(%v100, %v101) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v103 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v104 = "stablehlo.dot_general"(%v100, %v103) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v105 = "stablehlo.logistic"(%v102) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %v106 = "stablehlo.multiply"(%v102, %v105) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v107 = "stablehlo.multiply"(%v106, %v104) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v108 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v109 = "stablehlo.dot_general"(%v107, %v108) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x16xf32>
    %v110 = "stablehlo.add"(%v87, %v109) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v111 = "stablehlo.multiply"(%v110, %v110) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v112 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v113 = "stablehlo.reduce"(%v111, %v112) ({
    ^bb0(%rx113: tensor<f32>, %ry113: tensor<f32>):
      %rr113 = "stablehlo.add"(%rx113, %ry113) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr113) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v114 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v115 = "stablehlo.divide"(%v113, %v114) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v117 = "stablehlo.add"(%v115, %v116) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v118 = "stablehlo.rsqrt"(%v117) : (tensor<16xf32>) -> tensor<16xf32>
    %v119 = "stablehlo.broadcast_in_dim"(%v118) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v120 = "stablehlo.multiply"(%v110, %v119) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v121 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v123 = "stablehlo.multiply"(%v120, %v122) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v124 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v125 = "stablehlo.subtract"(%a1, %v124) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v126 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v127 = "stablehlo.dynamic_slice"(%v123, %v125, %v126) {slice_sizes = array<i64: 1, 16>} : (tensor<16x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v128 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v129 = "stablehlo.dot_general"(%v127, %v128) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v130 = "stablehlo.reshape"(%v129) : (tensor<1x40xf32>) -> tensor<40xf32>
    return %v130 : tensor<40xf32>
  }
  func.func @decode(%a0: tensor<i32>, %a1: tensor<i32>) -> (tensor<i32>) {
    %v0 = "stablehlo.reshape"(%a0) : (tensor<i32>) -> tensor<1xi32>
    %v1 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v2 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v3 = "stablehlo.reshape"(%v0) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v4 = "stablehlo.gather"(%v2, %v3) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<1x1xi32>) -> tensor<1x16xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<1xi32>
    %v6 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1xi32>
    %v7 = "stablehlo.add"(%v6, %v5) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %v8 = "stablehlo.convert"(%v7) : (tensor<1xi32>) -> tensor<1xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v1) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<1x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v15 = "stablehlo.multiply"(%v4, %v4) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v17 = "stablehlo.reduce"(%v15, %v16) ({
    ^bb0(%rx17: tensor<f32>, %ry17: tensor<f32>):
      %rr17 = "stablehlo.add"(%rx17, %ry17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr17) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v18 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v19 = "stablehlo.divide"(%v17, %v18) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v20 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v21 = "stablehlo.add"(%v19, %v20) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v22 = "stablehlo.rsqrt"(%v21) : (tensor<1xf32>) -> tensor<1xf32>
    %v23 = "stablehlo.broadcast_in_dim"(%v22) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v24 = "stablehlo.multiply"(%v4, %v23) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v25 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v26 = "stablehlo.broadcast_in_dim"(%v25) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v27 = "stablehlo.multiply"(%v24, %v26) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v29 = "stablehlo.dot_general"(%v27, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v30 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v31 = "stablehlo.dot_general"(%v27, %v30) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v32 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v33 = "stablehlo.dot_general"(%v27, %v32) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v34 = "stablehlo.reshape"(%v29) : (tensor<1x16xf32>) -> tensor<1x2x8xf32>
    %v35 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v36 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v37 = "stablehlo.negate"(%v36) : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %v38 = "stablehlo.concatenate"(%v37, %v35) {dimension = 2 : i64} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x8xf32>
    %v39 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v40 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v41 = "stablehlo.multiply"(%v38, %v40) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v42 = "stablehlo.multiply"(%v34, %v39) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v43 = "stablehlo.add"(%v42, %v41) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v44 = "stablehlo.reshape"(%v31) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v45 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v46 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v47 = "stablehlo.negate"(%v46) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %v48 = "stablehlo.concatenate"(%v47, %v45) {dimension = 2 : i64} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x8xf32>
    %v49 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v50 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v51 = "stablehlo.multiply"(%v48, %v50) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v52 = "stablehlo.multiply"(%v44, %v49) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v53 = "stablehlo.add"(%v52, %v51) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v54 = "stablehlo.reshape"(%v33) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v55 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v56 = util.global.load @kv_k0 : tensor<16x1x8xf32>
    %v57 = "stablehlo.dynamic_update_slice"(%v56, %v53, %a1, %v55, %v55) : (tensor<16x1x8xf32>, tensor<1x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    %v58 = util.global.load @kv_v0 : tensor<16x1x8xf32>
    %v59 = "stablehlo.dynamic_update_slice"(%v58, %v54, %a1, %v55, %v55) : (tensor<16x1x8xf32>, tensor<1x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    util.global.store %v57, @kv_k0 : tensor<16x1x8xf32>
    util.global.store %v59, @kv_v0 : tensor<16x1x8xf32>
    %v60 = "stablehlo.reshape"(%v43) : (tensor<1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v61 = "stablehlo.dot_general"(%v60, %v57) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<1x1x2x8xf32>, tensor<16x1x8xf32>) -> tensor<1x1x2x16xf32>
    %v62 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x2x16xf32>} : () -> tensor<1x1x2x16xf32>
    %v63 = "stablehlo.multiply"(%v61, %v62) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v64 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<1xi32>
    %v65 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1xi32>
    %v66 = "stablehlo.add"(%v65, %v64) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %v67 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x16xi32>
    %v68 = "stablehlo.broadcast_in_dim"(%v66) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x16xi32>
    %v69 = "stablehlo.compare"(%v67, %v68) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x16xi32>, tensor<1x16xi32>) -> tensor<1x16xi1>
    %v70 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<1x16xi1>) -> tensor<1x1x2x16xi1>
    %v71 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x2x16xf32>} : () -> tensor<1x1x2x16xf32>
    %v72 = "stablehlo.select"(%v70, %v63, %v71) : (tensor<1x1x2x16xi1>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v73 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v74 = "stablehlo.reduce"(%v72, %v73) ({
    ^bb0(%rx74: tensor<f32>, %ry74: tensor<f32>):
      %rr74 = "stablehlo.maximum"(%rx74, %ry74) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr74) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v75 = "stablehlo.broadcast_in_dim"(%v74) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x16xf32>
    %v76 = "stablehlo.subtract"(%v72, %v75) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v77 = "stablehlo.exponential"(%v76) : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v78 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v79 = "stablehlo.reduce"(%v77, %v78) ({
    ^bb0(%rx79: tensor<f32>, %ry79: tensor<f32>):
      %rr79 = "stablehlo.add"(%rx79, %ry79) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr79) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v80 = "stablehlo.broadcast_in_dim"(%v79) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x16xf32>
    %v81 = "stablehlo.divide"(%v77, %v80) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v82 = "stablehlo.dot_general"(%v81, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x1x2x16xf32>, tensor<16x1x8xf32>) -> tensor<1x1x2x8xf32>
    %v83 = "stablehlo.transpose"(%v82) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v84 = "stablehlo.reshape"(%v83) : (tensor<1x1x2x8xf32>) -> tensor<1x16xf32>
    %v85 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v86 = "stablehlo.dot_general"(%v84, %v85) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v87 = "stablehlo.add"(%v4, %v86) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v88 = "stablehlo.multiply"(%v87, %v87) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v89 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v90 = "stablehlo.reduce"(%v88, %v89) ({
    ^bb0(%rx90: tensor<f32>, %ry90: tensor<f32>):
      %rr90 = "stablehlo.add"(%rx90, %ry90) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr90) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v91 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v92 = "stablehlo.divide"(%v90, %v91) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v94 = "stablehlo.add"(%v92, %v93) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v95 = "stablehlo.rsqrt"(%v94) : (tensor<1xf32>) -> tensor<1xf32>
    %v96 = "stablehlo.broadcast_in_dim"(%v95) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v97 = "stablehlo.multiply"(%v87, %v96) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v98 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v100 = "stablehlo.multiply"(%v97, %v99) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v101 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v102 = "stablehlo.dot_general"(%v100, %v101) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v103 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v104 = "stablehlo.dot_general"(%v100, %v103) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v105 = "stablehlo.logistic"(%v102) : (tensor<1x32xf32>) -> tensor<1x32xf32>
    %v106 = "stablehlo.multiply"(%v102, %v105) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v107 = "stablehlo.multiply"(%v106, %v104) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v108 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v109 = "stablehlo.dot_general"(%v107, %v108) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x32xf32>, tensor<16x32xf32>) -> tensor<1x16xf32>
    %v110 = "stablehlo.add"(%v87, %v109) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v111 = "stablehlo.multiply"(%v110, %v110) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v112 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v113 = "stablehlo.reduce"(%v111, %v112) ({
    ^bb0(%rx113: tensor<f32>, %ry113: tensor<f32>):
      %rr113 = "stablehlo.add"(%rx113, %ry113) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr113) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v114 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v115 = "stablehlo.divide"(%v113, %v114) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v117 = "stablehlo.add"(%v115, %v116) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v118 = "stablehlo.rsqrt"(%v117) : (tensor<1xf32>) -> tensor<1xf32>
    %v119 = "stablehlo.broadcast_in_dim"(%v118) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v120 = "stablehlo.multiply"(%v110, %v119) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v121 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v123 = "stablehlo.multiply"(%v120, %v122) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v124 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v125 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v126 = "stablehlo.dynamic_slice"(%v123, %v124, %v125) {slice_sizes = array<i64: 1, 16>} : (tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v127 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v128 = "stablehlo.dot_general"(%v126, %v127) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v129 = "stablehlo.reshape"(%v128) : (tensor<1x40xf32>) -> tensor<40xf32>
    %v130 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v131 = "stablehlo.reduce"(%v129, %v130) ({
    ^bb0(%rx131: tensor<f32>, %ry131: tensor<f32>):
      %rr131 = "stablehlo.maximum"(%rx131, %ry131) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr131) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<40xf32>, tensor<f32>) -> tensor<f32>
    %v132 = "stablehlo.broadcast_in_dim"(%v131) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<40xf32>
    %v133 = "stablehlo.compare"(%v129, %v132) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<40xf32>, tensor<40xf32>) -> tensor<40xi1>
    %v134 = "stablehlo.constant"() {value = dense<40> : tensor<40xi32>} : () -> tensor<40xi32>
    %v135 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<40xi32>
    %v136 = "stablehlo.select"(%v133, %v135, %v134) : (tensor<40xi1>, tensor<40xi32>, tensor<40xi32>) -> tensor<40xi32>
    %v137 = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %v138 = "stablehlo.reduce"(%v136, %v137) ({
    ^bb0(%rx138: tensor<i32>, %ry138: tensor<i32>):
      %rr138 = "stablehlo.minimum"(%rx138, %ry138) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%rr138) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<40xi32>, tensor<i32>) -> tensor<i32>
    return %v138 : tensor<i32>
  }
  func.func @decode_logits(%a0: tensor<i32>, %a1: tensor<i32>) -> (tensor<40xf32>) {
    %v0 = "stablehlo.reshape"(%a0) : (tensor<i32>) -> tensor<1xi32>
    %v1 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v2 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v3 = "stablehlo.reshape"(%v0) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v4 = "stablehlo.gather"(%v2, %v3) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<1x1xi32>) -> tensor<1x16xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<1xi32>
    %v6 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1xi32>
    %v7 = "stablehlo.add"(%v6, %v5) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %v8 = "stablehlo.convert"(%v7) : (tensor<1xi32>) -> tensor<1xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v1) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<1x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v15 = "stablehlo.multiply"(%v4, %v4) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v17 = "stablehlo.reduce"(%v15, %v16) ({
    ^bb0(%rx17: tensor<f32>, %ry17: tensor<f32>):
      %rr17 = "stablehlo.add"(%rx17, %ry17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr17) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v18 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v19 = "stablehlo.divide"(%v17, %v18) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v20 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v21 = "stablehlo.add"(%v19, %v20) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v22 = "stablehlo.rsqrt"(%v21) : (tensor<1xf32>) -> tensor<1xf32>
    %v23 = "stablehlo.broadcast_in_dim"(%v22) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v24 = "stablehlo.multiply"(%v4, %v23) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v25 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v26 = "stablehlo.broadcast_in_dim"(%v25) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v27 = "stablehlo.multiply"(%v24, %v26) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v29 = "stablehlo.dot_general"(%v27, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v30 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v31 = "stablehlo.dot_general"(%v27, %v30) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v32 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v33 = "stablehlo.dot_general"(%v27, %v32) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v34 = "stablehlo.reshape"(%v29) : (tensor<1x16xf32>) -> tensor<1x2x8xf32>
    %v35 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v36 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v37 = "stablehlo.negate"(%v36) : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %v38 = "stablehlo.concatenate"(%v37, %v35) {dimension = 2 : i64} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x8xf32>
    %v39 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v40 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v41 = "stablehlo.multiply"(%v38, %v40) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v42 = "stablehlo.multiply"(%v34, %v39) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v43 = "stablehlo.add"(%v42, %v41) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v44 = "stablehlo.reshape"(%v31) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v45 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v46 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v47 = "stablehlo.negate"(%v46) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %v48 = "stablehlo.concatenate"(%v47, %v45) {dimension = 2 : i64} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x8xf32>
    %v49 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v50 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v51 = "stablehlo.multiply"(%v48, %v50) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v52 = "stablehlo.multiply"(%v44, %v49) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v53 = "stablehlo.add"(%v52, %v51) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v54 = "stablehlo.reshape"(%v33) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v55 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v56 = util.global.load @kv_k0 : tensor<16x1x8xf32>
    %v57 = "stablehlo.dynamic_update_slice"(%v56, %v53, %a1, %v55, %v55) : (tensor<16x1x8xf32>, tensor<1x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    %v58 = util.global.load @kv_v0 : tensor<16x1x8xf32>
    %v59 = "stablehlo.dynamic_update_slice"(%v58, %v54, %a1, %v55, %v55) : (tensor<16x1x8xf32>, tensor<1x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    util.global.store %v57, @kv_k0 : tensor<16x1x8xf32>
    util.global.store %v59, @kv_v0 : tensor<16x1x8xf32>
    %v60 = "stablehlo.reshape"(%v43) : (tensor<1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v61 = "stablehlo.dot_general"(%v60, %v57) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<1x1x2x8xf32>, tensor<16x1x8xf32>) -> tensor<1x1x2x16xf32>
    %v62 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x2x16xf32>} : () -> tensor<1x1x2x16xf32>
    %v63 = "stablehlo.multiply"(%v61, %v62) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v64 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<1xi32>
    %v65 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1xi32>
    %v66 = "stablehlo.add"(%v65, %v64) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %v67 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x16xi32>
    %v68 = "stablehlo.broadcast_in_dim"(%v66) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x16xi32>
    %v69 = "stablehlo.compare"(%v67, %v68) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x16xi32>, tensor<1x16xi32>) -> tensor<1x16xi1>
    %v70 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<1x16xi1>) -> tensor<1x1x2x16xi1>
    %v71 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x2x16xf32>} : () -> tensor<1x1x2x16xf32>
    %v72 = "stablehlo.select"(%v70, %v63, %v71) : (tensor<1x1x2x16xi1>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v73 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v74 = "stablehlo.reduce"(%v72, %v73) ({
    ^bb0(%rx74: tensor<f32>, %ry74: tensor<f32>):
      %rr74 = "stablehlo.maximum"(%rx74, %ry74) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr74) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v75 = "stablehlo.broadcast_in_dim"(%v74) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x16xf32>
    %v76 = "stablehlo.subtract"(%v72, %v75) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v77 = "stablehlo.exponential"(%v76) : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v78 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v79 = "stablehlo.reduce"(%v77, %v78) ({
    ^bb0(%rx79: tensor<f32>, %ry79: tensor<f32>):
      %rr79 = "stablehlo.add"(%rx79, %ry79) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr79) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v80 = "stablehlo.broadcast_in_dim"(%v79) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x16xf32>
    %v81 = "stablehlo.divide"(%v77, %v80) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v82 = "stablehlo.dot_general"(%v81, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x1x2x16xf32>, tensor<16x1x8xf32>) -> tensor<1x1x2x8xf32>
    %v83 = "stablehlo.transpose"(%v82) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v84 = "stablehlo.reshape"(%v83) : (tensor<1x1x2x8xf32>) -> tensor<1x16xf32>
    %v85 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v86 = "stablehlo.dot_general"(%v84, %v85) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v87 = "stablehlo.add"(%v4, %v86) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v88 = "stablehlo.multiply"(%v87, %v87) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v89 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v90 = "stablehlo.reduce"(%v88, %v89) ({
    ^bb0(%rx90: tensor<f32>, %ry90: tensor<f32>):
      %rr90 = "stablehlo.add"(%rx90, %ry90) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr90) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v91 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v92 = "stablehlo.divide"(%v90, %v91) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v94 = "stablehlo.add"(%v92, %v93) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v95 = "stablehlo.rsqrt"(%v94) : (tensor<1xf32>) -> tensor<1xf32>
    %v96 = "stablehlo.broadcast_in_dim"(%v95) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v97 = "stablehlo.multiply"(%v87, %v96) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v98 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v100 = "stablehlo.multiply"(%v97, %v99) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v101 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v102 = "stablehlo.dot_general"(%v100, %v101) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v103 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v104 = "stablehlo.dot_general"(%v100, %v103) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v105 = "stablehlo.logistic"(%v102) : (tensor<1x32xf32>) -> tensor<1x32xf32>
    %v106 = "stablehlo.multiply"(%v102, %v105) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v107 = "stablehlo.multiply"(%v106, %v104) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v108 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v109 = "stablehlo.dot_general"(%v107, %v108) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x32xf32>, tensor<16x32xf32>) -> tensor<1x16xf32>
    %v110 = "stablehlo.add"(%v87, %v109) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v111 = "stablehlo.multiply"(%v110, %v110) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v112 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v113 = "stablehlo.reduce"(%v111, %v112) ({
    ^bb0(%rx113: tensor<f32>, %ry113: tensor<f32>):
      %rr113 = "stablehlo.add"(%rx113, %ry113) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr113) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v114 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v115 = "stablehlo.divide"(%v113, %v114) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v117 = "stablehlo.add"(%v115, %v116) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v118 = "stablehlo.rsqrt"(%v117) : (tensor<1xf32>) -> tensor<1xf32>
    %v119 = "stablehlo.broadcast_in_dim"(%v118) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v120 = "stablehlo.multiply"(%v110, %v119) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v121 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v123 = "stablehlo.multiply"(%v120, %v122) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v124 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v125 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v126 = "stablehlo.dynamic_slice"(%v123, %v124, %v125) {slice_sizes = array<i64: 1, 16>} : (tensor<1x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v127 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v128 = "stablehlo.dot_general"(%v126, %v127) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v129 = "stablehlo.reshape"(%v128) : (tensor<1x40xf32>) -> tensor<40xf32>
    return %v129 : tensor<40xf32>
  }
  func.func @score_8(%a0: tensor<8xi32>) -> (tensor<8x40xf32>) {
    %v0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v1 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v2 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v3 = "stablehlo.reshape"(%a0) : (tensor<8xi32>) -> tensor<8x1xi32>
    %v4 = "stablehlo.gather"(%v2, %v3) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<8xi32>
    %v6 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<8xi32>
    %v7 = "stablehlo.add"(%v6, %v5) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %v8 = "stablehlo.convert"(%v7) : (tensor<8xi32>) -> tensor<8xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v1) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<8x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %v15 = "stablehlo.multiply"(%v4, %v4) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v17 = "stablehlo.reduce"(%v15, %v16) ({
    ^bb0(%rx17: tensor<f32>, %ry17: tensor<f32>):
      %rr17 = "stablehlo.add"(%rx17, %ry17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr17) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %v18 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<8xf32>} : () -> tensor<8xf32>
    %v19 = "stablehlo.divide"(%v17, %v18) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v20 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<8xf32>} : () -> tensor<8xf32>
    %v21 = "stablehlo.add"(%v19, %v20) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v22 = "stablehlo.rsqrt"(%v21) : (tensor<8xf32>) -> tensor<8xf32>
    %v23 = "stablehlo.broadcast_in_dim"(%v22) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x16xf32>
    %v24 = "stablehlo.multiply"(%v4, %v23) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v25 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v26 = "stablehlo.broadcast_in_dim"(%v25) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<8x16xf32>
    %v27 = "stablehlo.multiply"(%v24, %v26) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v29 = "stablehlo.dot_general"(%v27, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %v30 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v31 = "stablehlo.dot_general"(%v27, %v30) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x8xf32>
    %v32 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v33 = "stablehlo.dot_general"(%v27, %v32) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x8xf32>
    %v34 = "stablehlo.reshape"(%v29) : (tensor<8x16xf32>) -> tensor<8x2x8xf32>
    %v35 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 8, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<8x2x8xf32>) -> tensor<8x2x4xf32>
    %v36 = "stablehlo.slice"(%v34) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 8, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<8x2x8xf32>) -> tensor<8x2x4xf32>
    %v37 = "stablehlo.negate"(%v36) : (tensor<8x2x4xf32>) -> tensor<8x2x4xf32>
    %v38 = "stablehlo.concatenate"(%v37, %v35) {dimension = 2 : i64} : (tensor<8x2x4xf32>, tensor<8x2x4xf32>) -> tensor<8x2x8xf32>
    %v39 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<8x8xf32>) -> tensor<8x2x8xf32>
    %v40 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<8x8xf32>) -> tensor<8x2x8xf32>
    %v41 = "stablehlo.multiply"(%v38, %v40) : (tensor<8x2x8xf32>, tensor<8x2x8xf32>) -> tensor<8x2x8xf32>
    %v42 = "stablehlo.multiply"(%v34, %v39) : (tensor<8x2x8xf32>, tensor<8x2x8xf32>) -> tensor<8x2x8xf32>
    %v43 = "stablehlo.add"(%v42, %v41) : (tensor<8x2x8xf32>, tensor<8x2x8xf32>) -> tensor<8x2x8xf32>
    %v44 = "stablehlo.reshape"(%v31) : (tensor<8x8xf32>) -> tensor<8x1x8xf32>
    %v45 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 8, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<8x1x8xf32>) -> tensor<8x1x4xf32>
    %v46 = "stablehlo.slice"(%v44) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 8, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<8x1x8xf32>) -> tensor<8x1x4xf32>
    %v47 = "stablehlo.negate"(%v46) : (tensor<8x1x4xf32>) -> tensor<8x1x4xf32>
    %v48 = "stablehlo.concatenate"(%v47, %v45) {dimension = 2 : i64} : (tensor<8x1x4xf32>, tensor<8x1x4xf32>) -> tensor<8x1x8xf32>
    %v49 = "stablehlo.broadcast_in_dim"(%v13) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<8x8xf32>) -> tensor<8x1x8xf32>
    %v50 = "stablehlo.broadcast_in_dim"(%v14) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<8x8xf32>) -> tensor<8x1x8xf32>
    %v51 = "stablehlo.multiply"(%v48, %v50) : (tensor<8x1x8xf32>, tensor<8x1x8xf32>) -> tensor<8x1x8xf32>
    %v52 = "stablehlo.multiply"(%v44, %v49) : (tensor<8x1x8xf32>, tensor<8x1x8xf32>) -> tensor<8x1x8xf32>
    %v53 = "stablehlo.add"(%v52, %v51) : (tensor<8x1x8xf32>, tensor<8x1x8xf32>) -> tensor<8x1x8xf32>
    %v54 = "stablehlo.reshape"(%v33) : (tensor<8x8xf32>) -> tensor<8x1x8xf32>
    %v55 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v56 = util.global.load @kv_k0 : tensor<16x1x8xf32>
    %v57 = "stablehlo.dynamic_update_slice"(%v56, %v53, %v0, %v55, %v55) : (tensor<16x1x8xf32>, tensor<8x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    %v58 = util.global.load @kv_v0 : tensor<16x1x8xf32>
    %v59 = "stablehlo.dynamic_update_slice"(%v58, %v54, %v0, %v55, %v55) : (tensor<16x1x8xf32>, tensor<8x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<16x1x8xf32>
    util.global.store %v57, @kv_k0 : tensor<16x1x8xf32>
    util.global.store %v59, @kv_v0 : tensor<16x1x8xf32>
    %v60 = "stablehlo.reshape"(%v43) : (tensor<8x2x8xf32>) -> tensor<8x1x2x8xf32>
    %v61 = "stablehlo.dot_general"(%v60, %v57) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<8x1x2x8xf32>, tensor<16x1x8xf32>) -> tensor<1x8x2x16xf32>
    %v62 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x8x2x16xf32>} : () -> tensor<1x8x2x16xf32>
    %v63 = "stablehlo.multiply"(%v61, %v62) : (tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32>
    %v64 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<8xi32>
    %v65 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<8xi32>
    %v66 = "stablehlo.add"(%v65, %v64) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %v67 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<8x16xi32>
    %v68 = "stablehlo.broadcast_in_dim"(%v66) {broadcast_dimensions = array<i64: 0>} : (tensor<8xi32>) -> tensor<8x16xi32>
    %v69 = "stablehlo.compare"(%v67, %v68) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %v70 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<8x16xi1>) -> tensor<1x8x2x16xi1>
    %v71 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x8x2x16xf32>} : () -> tensor<1x8x2x16xf32>
    %v72 = "stablehlo.select"(%v70, %v63, %v71) : (tensor<1x8x2x16xi1>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32>
    %v73 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v74 = "stablehlo.reduce"(%v72, %v73) ({
    ^bb0(%rx74: tensor<f32>, %ry74: tensor<f32>):
      %rr74 = "stablehlo.maximum"(%rx74, %ry74) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr74) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x8x2x16xf32>, tensor<f32>) -> tensor<1x8x2xf32>
    %v75 = "stablehlo.broadcast_in_dim"(%v74) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x8x2xf32>) -> tensor<1x8x2x16xf32>
    %v76 = "stablehlo.subtract"(%v72, %v75) : (tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32>
    %v77 = "stablehlo.exponential"(%v76) : (tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32>
    %v78 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v79 = "stablehlo.reduce"(%v77, %v78) ({
    ^bb0(%rx79: tensor<f32>, %ry79: tensor<f32>):
      %rr79 = "stablehlo.add"(%rx79, %ry79) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr79) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x8x2x16xf32>, tensor<f32>) -> tensor<1x8x2xf32>
    %v80 = "stablehlo.broadcast_in_dim"(%v79) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x8x2xf32>) -> tensor<1x8x2x16xf32>
    %v81 = "stablehlo.divide"(%v77, %v80) : (tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32>
    %v82 = "stablehlo.dot_general"(%v81, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x8x2x16xf32>, tensor<16x1x8xf32>) -> tensor<1x8x2x8xf32>
    %v83 = "stablehlo.transpose"(%v82) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x8x2x8xf32>) -> tensor<8x1x2x8xf32>
    %v84 = "stablehlo.reshape"(%v83) : (tensor<8x1x2x8xf32>) -> tensor<8x16xf32>
    %v85 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v86 = "stablehlo.dot_general"(%v84, %v85) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %v87 = "stablehlo.add"(%v4, %v86) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v88 = "stablehlo.multiply"(%v87, %v87) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v89 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v90 = "stablehlo.reduce"(%v88, %v89) ({
    ^bb0(%rx90: tensor<f32>, %ry90: tensor<f32>):
      %rr90 = "stablehlo.add"(%rx90, %ry90) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr90) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %v91 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<8xf32>} : () -> tensor<8xf32>
    %v92 = "stablehlo.divide"(%v90, %v91) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<8xf32>} : () -> tensor<8xf32>
    %v94 = "stablehlo.add"(%v92, %v93) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v95 = "stablehlo.rsqrt"(%v94) : (tensor<8xf32>) -> tensor<8xf32>
    %v96 = "stablehlo.broadcast_in_dim"(%v95) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x16xf32>
    %v97 = "stablehlo.multiply"(%v87, %v96) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v98 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<8x16xf32>
    %v100 = "stablehlo.multiply"(%v97, %v99) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v101 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v102 = "stablehlo.dot_general"(%v100, %v101) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %v103 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v104 = "stablehlo.dot_general"(%v100, %v103) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %v105 = "stablehlo.logistic"(%v102) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %v106 = "stablehlo.multiply"(%v102, %v105) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %v107 = "stablehlo.multiply"(%v106, %v104) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %v108 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v109 = "stablehlo.dot_general"(%v107, %v108) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x32xf32>, tensor<16x32xf32>) -> tensor<8x16xf32>
    %v110 = "stablehlo.add"(%v87, %v109) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v111 = "stablehlo.multiply"(%v110, %v110) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v112 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v113 = "stablehlo.reduce"(%v111, %v112) ({
    ^bb0(%rx113: tensor<f32>, %ry113: tensor<f32>):
      %rr113 = "stablehlo.add"(%rx113, %ry113) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr113) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %v114 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<8xf32>} : () -> tensor<8xf32>
    %v115 = "stablehlo.divide"(%v113, %v114) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<8xf32>} : () -> tensor<8xf32>
    %v117 = "stablehlo.add"(%v115, %v116) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v118 = "stablehlo.rsqrt"(%v117) : (tensor<8xf32>) -> tensor<8xf32>
    %v119 = "stablehlo.broadcast_in_dim"(%v118) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x16xf32>
    %v120 = "stablehlo.multiply"(%v110, %v119) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v121 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<8x16xf32>
    %v123 = "stablehlo.multiply"(%v120, %v122) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v124 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v125 = "stablehlo.dot_general"(%v123, %v124) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<40x16xf32>) -> tensor<8x40xf32>
    return %v125 : tensor<8x40xf32>
  }
}
