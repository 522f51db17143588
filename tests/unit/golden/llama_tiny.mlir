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
  util.global private mutable @kv_k0 = dense<0x0D800000> : tensor<1x16x8xf32>
  util.global private mutable @kv_v0 = dense<0x0E000000> : tensor<1x16x8xf32>
  func.func @prefill_4(%a0: tensor<4xi32>, %a1: tensor<i32>, %a2: tensor<i32>) -> (tensor<i32>) {
    %v0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v1 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<4xi32>
    %v2 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi32>
    %v3 = "stablehlo.add"(%v2, %v1) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %v4 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v5 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v6 = "stablehlo.reshape"(%a0) : (tensor<4xi32>) -> tensor<4x1xi32>
    %v7 = "stablehlo.gather"(%v5, %v6) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<4x1xi32>) -> tensor<4x16xf32>
    %v8 = "stablehlo.convert"(%v3) : (tensor<4xi32>) -> tensor<4xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v4) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<4x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %v15 = "stablehlo.multiply"(%v7, %v7) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
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
    %v24 = "stablehlo.multiply"(%v7, %v23) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
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
    %v55 = util.global.load @kv_k0 : tensor<1x16x8xf32>
    %v56 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v57 = "stablehlo.transpose"(%v53) {permutation = array<i64: 1, 0, 2>} : (tensor<4x1x8xf32>) -> tensor<1x4x8xf32>
    %v58 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v59 = "stablehlo.multiply"(%a2, %v58) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v60 = "stablehlo.dynamic_update_slice"(%v55, %v57, %v59, %v56, %v56) : (tensor<1x16x8xf32>, tensor<1x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    util.global.store %v60, @kv_k0 : tensor<1x16x8xf32>
    %v61 = util.global.load @kv_v0 : tensor<1x16x8xf32>
    %v62 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v63 = "stablehlo.transpose"(%v54) {permutation = array<i64: 1, 0, 2>} : (tensor<4x1x8xf32>) -> tensor<1x4x8xf32>
    %v64 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v65 = "stablehlo.multiply"(%a2, %v64) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v66 = "stablehlo.dynamic_update_slice"(%v61, %v63, %v65, %v62, %v62) : (tensor<1x16x8xf32>, tensor<1x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    util.global.store %v66, @kv_v0 : tensor<1x16x8xf32>
    %v67 = "stablehlo.reshape"(%v43) : (tensor<4x2x8xf32>) -> tensor<4x1x2x8xf32>
    %v68 = "stablehlo.dot_general"(%v67, %v53) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<4x1x2x8xf32>, tensor<4x1x8xf32>) -> tensor<1x4x2x4xf32>
    %v69 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4x4xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4x4xi32>
    %v71 = "stablehlo.compare"(%v70, %v69) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %v72 = "stablehlo.broadcast_in_dim"(%v71) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<4x4xi1>) -> tensor<1x4x2x4xi1>
    %v73 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x4x2x4xf32>} : () -> tensor<1x4x2x4xf32>
    %v74 = "stablehlo.multiply"(%v68, %v73) : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    %v75 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x4x2x4xf32>} : () -> tensor<1x4x2x4xf32>
    %v76 = "stablehlo.select"(%v72, %v74, %v75) : (tensor<1x4x2x4xi1>, tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    %v77 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v78 = "stablehlo.reduce"(%v76, %v77) ({
    ^bb0(%rx78: tensor<f32>, %ry78: tensor<f32>):
      %rr78 = "stablehlo.maximum"(%rx78, %ry78) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr78) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x4x2x4xf32>, tensor<f32>) -> tensor<1x4x2xf32>
    %v79 = "stablehlo.broadcast_in_dim"(%v78) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x4x2xf32>) -> tensor<1x4x2x4xf32>
    %v80 = "stablehlo.subtract"(%v76, %v79) : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    %v81 = "stablehlo.exponential"(%v80) : (tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    %v82 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v83 = "stablehlo.reduce"(%v81, %v82) ({
    ^bb0(%rx83: tensor<f32>, %ry83: tensor<f32>):
      %rr83 = "stablehlo.add"(%rx83, %ry83) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr83) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x4x2x4xf32>, tensor<f32>) -> tensor<1x4x2xf32>
    %v84 = "stablehlo.broadcast_in_dim"(%v83) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x4x2xf32>) -> tensor<1x4x2x4xf32>
    %v85 = "stablehlo.divide"(%v81, %v84) : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    %v86 = "stablehlo.dot_general"(%v85, %v54) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x4x2x4xf32>, tensor<4x1x8xf32>) -> tensor<1x4x2x8xf32>
    %v87 = "stablehlo.transpose"(%v86) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x4x2x8xf32>) -> tensor<4x1x2x8xf32>
    %v88 = "stablehlo.reshape"(%v87) : (tensor<4x1x2x8xf32>) -> tensor<4x16xf32>
    %v89 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v90 = "stablehlo.dot_general"(%v88, %v89) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %v91 = "stablehlo.add"(%v7, %v90) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v92 = "stablehlo.multiply"(%v91, %v91) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v94 = "stablehlo.reduce"(%v92, %v93) ({
    ^bb0(%rx94: tensor<f32>, %ry94: tensor<f32>):
      %rr94 = "stablehlo.add"(%rx94, %ry94) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr94) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v95 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v96 = "stablehlo.divide"(%v94, %v95) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v97 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v98 = "stablehlo.add"(%v96, %v97) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v99 = "stablehlo.rsqrt"(%v98) : (tensor<4xf32>) -> tensor<4xf32>
    %v100 = "stablehlo.broadcast_in_dim"(%v99) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v101 = "stablehlo.multiply"(%v91, %v100) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v102 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v103 = "stablehlo.broadcast_in_dim"(%v102) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v104 = "stablehlo.multiply"(%v101, %v103) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v105 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v106 = "stablehlo.dot_general"(%v104, %v105) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v107 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v108 = "stablehlo.dot_general"(%v104, %v107) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v109 = "stablehlo.logistic"(%v106) : (tensor<4x32xf32>) -> tensor<4x32xf32>
    %v110 = "stablehlo.multiply"(%v106, %v109) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v111 = "stablehlo.multiply"(%v110, %v108) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v112 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v113 = "stablehlo.dot_general"(%v111, %v112) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x32xf32>, tensor<16x32xf32>) -> tensor<4x16xf32>
    %v114 = "stablehlo.add"(%v91, %v113) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v115 = "stablehlo.multiply"(%v114, %v114) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v117 = "stablehlo.reduce"(%v115, %v116) ({
    ^bb0(%rx117: tensor<f32>, %ry117: tensor<f32>):
      %rr117 = "stablehlo.add"(%rx117, %ry117) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr117) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v118 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v119 = "stablehlo.divide"(%v117, %v118) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v120 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v121 = "stablehlo.add"(%v119, %v120) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v122 = "stablehlo.rsqrt"(%v121) : (tensor<4xf32>) -> tensor<4xf32>
    %v123 = "stablehlo.broadcast_in_dim"(%v122) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v124 = "stablehlo.multiply"(%v114, %v123) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v125 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v126 = "stablehlo.broadcast_in_dim"(%v125) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v127 = "stablehlo.multiply"(%v124, %v126) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v128 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v129 = "stablehlo.subtract"(%a1, %v128) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v130 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v131 = "stablehlo.dynamic_slice"(%v127, %v129, %v130) {slice_sizes = array<i64: 1, 16>} : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v132 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v133 = "stablehlo.dot_general"(%v131, %v132) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v134 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x40xf32>
    %v135 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v136 = "stablehlo.reduce"(%v133, %v135) ({
    ^bb0(%rx136: tensor<f32>, %ry136: tensor<f32>):
      %rr136 = "stablehlo.maximum"(%rx136, %ry136) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr136) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v137 = "stablehlo.broadcast_in_dim"(%v136) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x40xf32>
    %v138 = "stablehlo.compare"(%v133, %v137) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xi1>
    %v139 = "stablehlo.constant"() {value = dense<0x42200000> : tensor<1x40xf32>} : () -> tensor<1x40xf32>
    %v140 = "stablehlo.select"(%v138, %v134, %v139) : (tensor<1x40xi1>, tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xf32>
    %v141 = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %v142 = "stablehlo.reduce"(%v140, %v141) ({
    ^bb0(%rx142: tensor<f32>, %ry142: tensor<f32>):
      %rr142 = "stablehlo.minimum"(%rx142, %ry142) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr142) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v143 = "stablehlo.convert"(%v142) : (tensor<1xf32>) -> tensor<1xi32>
    %v144 = "stablehlo.reshape"(%v143) : (tensor<1xi32>) -> tensor<i32>
    return %v144 : tensor<i32>
  }
  func.func @prefill_4_logits(%a0: tensor<4xi32>, %a1: tensor<i32>, %a2: tensor<i32>) -> (tensor<40xf32>) {
    %v0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v1 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<4xi32>
    %v2 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi32>
    %v3 = "stablehlo.add"(%v2, %v1) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    %v4 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v5 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v6 = "stablehlo.reshape"(%a0) : (tensor<4xi32>) -> tensor<4x1xi32>
    %v7 = "stablehlo.gather"(%v5, %v6) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<4x1xi32>) -> tensor<4x16xf32>
    %v8 = "stablehlo.convert"(%v3) : (tensor<4xi32>) -> tensor<4xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v4) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<4x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %v15 = "stablehlo.multiply"(%v7, %v7) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
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
    %v24 = "stablehlo.multiply"(%v7, %v23) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
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
    %v55 = util.global.load @kv_k0 : tensor<1x16x8xf32>
    %v56 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v57 = "stablehlo.transpose"(%v53) {permutation = array<i64: 1, 0, 2>} : (tensor<4x1x8xf32>) -> tensor<1x4x8xf32>
    %v58 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v59 = "stablehlo.multiply"(%a2, %v58) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v60 = "stablehlo.dynamic_update_slice"(%v55, %v57, %v59, %v56, %v56) : (tensor<1x16x8xf32>, tensor<1x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    util.global.store %v60, @kv_k0 : tensor<1x16x8xf32>
    %v61 = util.global.load @kv_v0 : tensor<1x16x8xf32>
    %v62 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v63 = "stablehlo.transpose"(%v54) {permutation = array<i64: 1, 0, 2>} : (tensor<4x1x8xf32>) -> tensor<1x4x8xf32>
    %v64 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v65 = "stablehlo.multiply"(%a2, %v64) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v66 = "stablehlo.dynamic_update_slice"(%v61, %v63, %v65, %v62, %v62) : (tensor<1x16x8xf32>, tensor<1x4x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    util.global.store %v66, @kv_v0 : tensor<1x16x8xf32>
    %v67 = "stablehlo.reshape"(%v43) : (tensor<4x2x8xf32>) -> tensor<4x1x2x8xf32>
    %v68 = "stablehlo.dot_general"(%v67, %v53) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<4x1x2x8xf32>, tensor<4x1x8xf32>) -> tensor<1x4x2x4xf32>
    %v69 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4x4xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4x4xi32>
    %v71 = "stablehlo.compare"(%v70, %v69) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %v72 = "stablehlo.broadcast_in_dim"(%v71) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<4x4xi1>) -> tensor<1x4x2x4xi1>
    %v73 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x4x2x4xf32>} : () -> tensor<1x4x2x4xf32>
    %v74 = "stablehlo.multiply"(%v68, %v73) : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    %v75 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x4x2x4xf32>} : () -> tensor<1x4x2x4xf32>
    %v76 = "stablehlo.select"(%v72, %v74, %v75) : (tensor<1x4x2x4xi1>, tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    %v77 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v78 = "stablehlo.reduce"(%v76, %v77) ({
    ^bb0(%rx78: tensor<f32>, %ry78: tensor<f32>):
      %rr78 = "stablehlo.maximum"(%rx78, %ry78) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr78) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x4x2x4xf32>, tensor<f32>) -> tensor<1x4x2xf32>
    %v79 = "stablehlo.broadcast_in_dim"(%v78) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x4x2xf32>) -> tensor<1x4x2x4xf32>
    %v80 = "stablehlo.subtract"(%v76, %v79) : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    %v81 = "stablehlo.exponential"(%v80) : (tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    %v82 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v83 = "stablehlo.reduce"(%v81, %v82) ({
    ^bb0(%rx83: tensor<f32>, %ry83: tensor<f32>):
      %rr83 = "stablehlo.add"(%rx83, %ry83) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr83) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x4x2x4xf32>, tensor<f32>) -> tensor<1x4x2xf32>
    %v84 = "stablehlo.broadcast_in_dim"(%v83) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x4x2xf32>) -> tensor<1x4x2x4xf32>
    %v85 = "stablehlo.divide"(%v81, %v84) : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
    %v86 = "stablehlo.dot_general"(%v85, %v54) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x4x2x4xf32>, tensor<4x1x8xf32>) -> tensor<1x4x2x8xf32>
    %v87 = "stablehlo.transpose"(%v86) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x4x2x8xf32>) -> tensor<4x1x2x8xf32>
    %v88 = "stablehlo.reshape"(%v87) : (tensor<4x1x2x8xf32>) -> tensor<4x16xf32>
    %v89 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v90 = "stablehlo.dot_general"(%v88, %v89) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %v91 = "stablehlo.add"(%v7, %v90) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v92 = "stablehlo.multiply"(%v91, %v91) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v94 = "stablehlo.reduce"(%v92, %v93) ({
    ^bb0(%rx94: tensor<f32>, %ry94: tensor<f32>):
      %rr94 = "stablehlo.add"(%rx94, %ry94) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr94) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v95 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v96 = "stablehlo.divide"(%v94, %v95) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v97 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v98 = "stablehlo.add"(%v96, %v97) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v99 = "stablehlo.rsqrt"(%v98) : (tensor<4xf32>) -> tensor<4xf32>
    %v100 = "stablehlo.broadcast_in_dim"(%v99) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v101 = "stablehlo.multiply"(%v91, %v100) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v102 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v103 = "stablehlo.broadcast_in_dim"(%v102) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v104 = "stablehlo.multiply"(%v101, %v103) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v105 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v106 = "stablehlo.dot_general"(%v104, %v105) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v107 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v108 = "stablehlo.dot_general"(%v104, %v107) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v109 = "stablehlo.logistic"(%v106) : (tensor<4x32xf32>) -> tensor<4x32xf32>
    %v110 = "stablehlo.multiply"(%v106, %v109) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v111 = "stablehlo.multiply"(%v110, %v108) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v112 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v113 = "stablehlo.dot_general"(%v111, %v112) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x32xf32>, tensor<16x32xf32>) -> tensor<4x16xf32>
    %v114 = "stablehlo.add"(%v91, %v113) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v115 = "stablehlo.multiply"(%v114, %v114) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v117 = "stablehlo.reduce"(%v115, %v116) ({
    ^bb0(%rx117: tensor<f32>, %ry117: tensor<f32>):
      %rr117 = "stablehlo.add"(%rx117, %ry117) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr117) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v118 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v119 = "stablehlo.divide"(%v117, %v118) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v120 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v121 = "stablehlo.add"(%v119, %v120) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v122 = "stablehlo.rsqrt"(%v121) : (tensor<4xf32>) -> tensor<4xf32>
    %v123 = "stablehlo.broadcast_in_dim"(%v122) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v124 = "stablehlo.multiply"(%v114, %v123) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v125 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v126 = "stablehlo.broadcast_in_dim"(%v125) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v127 = "stablehlo.multiply"(%v124, %v126) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v128 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v129 = "stablehlo.subtract"(%a1, %v128) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v130 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v131 = "stablehlo.dynamic_slice"(%v127, %v129, %v130) {slice_sizes = array<i64: 1, 16>} : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v132 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v133 = "stablehlo.dot_general"(%v131, %v132) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v134 = "stablehlo.reshape"(%v133) : (tensor<1x40xf32>) -> tensor<40xf32>
    return %v134 : tensor<40xf32>
  }
  func.func @prefill_16(%a0: tensor<16xi32>, %a1: tensor<i32>, %a2: tensor<i32>) -> (tensor<i32>) {
    %v0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v1 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<16xi32>
    %v2 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<16xi32>
    %v3 = "stablehlo.add"(%v2, %v1) : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %v4 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v5 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v6 = "stablehlo.reshape"(%a0) : (tensor<16xi32>) -> tensor<16x1xi32>
    %v7 = "stablehlo.gather"(%v5, %v6) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<16x1xi32>) -> tensor<16x16xf32>
    %v8 = "stablehlo.convert"(%v3) : (tensor<16xi32>) -> tensor<16xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v4) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<16x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %v15 = "stablehlo.multiply"(%v7, %v7) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
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
    %v24 = "stablehlo.multiply"(%v7, %v23) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
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
    %v55 = util.global.load @kv_k0 : tensor<1x16x8xf32>
    %v56 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v57 = "stablehlo.transpose"(%v53) {permutation = array<i64: 1, 0, 2>} : (tensor<16x1x8xf32>) -> tensor<1x16x8xf32>
    %v58 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v59 = "stablehlo.multiply"(%a2, %v58) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v60 = "stablehlo.dynamic_update_slice"(%v55, %v57, %v59, %v56, %v56) : (tensor<1x16x8xf32>, tensor<1x16x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    util.global.store %v60, @kv_k0 : tensor<1x16x8xf32>
    %v61 = util.global.load @kv_v0 : tensor<1x16x8xf32>
    %v62 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v63 = "stablehlo.transpose"(%v54) {permutation = array<i64: 1, 0, 2>} : (tensor<16x1x8xf32>) -> tensor<1x16x8xf32>
    %v64 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v65 = "stablehlo.multiply"(%a2, %v64) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v66 = "stablehlo.dynamic_update_slice"(%v61, %v63, %v65, %v62, %v62) : (tensor<1x16x8xf32>, tensor<1x16x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    util.global.store %v66, @kv_v0 : tensor<1x16x8xf32>
    %v67 = "stablehlo.reshape"(%v43) : (tensor<16x2x8xf32>) -> tensor<16x1x2x8xf32>
    %v68 = "stablehlo.dot_general"(%v67, %v53) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<16x1x2x8xf32>, tensor<16x1x8xf32>) -> tensor<1x16x2x16xf32>
    %v69 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<16x16xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<16x16xi32>
    %v71 = "stablehlo.compare"(%v70, %v69) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %v72 = "stablehlo.broadcast_in_dim"(%v71) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<16x16xi1>) -> tensor<1x16x2x16xi1>
    %v73 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x16x2x16xf32>} : () -> tensor<1x16x2x16xf32>
    %v74 = "stablehlo.multiply"(%v68, %v73) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v75 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x16x2x16xf32>} : () -> tensor<1x16x2x16xf32>
    %v76 = "stablehlo.select"(%v72, %v74, %v75) : (tensor<1x16x2x16xi1>, tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v77 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v78 = "stablehlo.reduce"(%v76, %v77) ({
    ^bb0(%rx78: tensor<f32>, %ry78: tensor<f32>):
      %rr78 = "stablehlo.maximum"(%rx78, %ry78) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr78) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x16x2x16xf32>, tensor<f32>) -> tensor<1x16x2xf32>
    %v79 = "stablehlo.broadcast_in_dim"(%v78) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x16x2xf32>) -> tensor<1x16x2x16xf32>
    %v80 = "stablehlo.subtract"(%v76, %v79) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v81 = "stablehlo.exponential"(%v80) : (tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v82 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v83 = "stablehlo.reduce"(%v81, %v82) ({
    ^bb0(%rx83: tensor<f32>, %ry83: tensor<f32>):
      %rr83 = "stablehlo.add"(%rx83, %ry83) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr83) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x16x2x16xf32>, tensor<f32>) -> tensor<1x16x2xf32>
    %v84 = "stablehlo.broadcast_in_dim"(%v83) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x16x2xf32>) -> tensor<1x16x2x16xf32>
    %v85 = "stablehlo.divide"(%v81, %v84) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v86 = "stablehlo.dot_general"(%v85, %v54) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x16x2x16xf32>, tensor<16x1x8xf32>) -> tensor<1x16x2x8xf32>
    %v87 = "stablehlo.transpose"(%v86) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x16x2x8xf32>) -> tensor<16x1x2x8xf32>
    %v88 = "stablehlo.reshape"(%v87) : (tensor<16x1x2x8xf32>) -> tensor<16x16xf32>
    %v89 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v90 = "stablehlo.dot_general"(%v88, %v89) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v91 = "stablehlo.add"(%v7, %v90) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v92 = "stablehlo.multiply"(%v91, %v91) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v94 = "stablehlo.reduce"(%v92, %v93) ({
    ^bb0(%rx94: tensor<f32>, %ry94: tensor<f32>):
      %rr94 = "stablehlo.add"(%rx94, %ry94) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr94) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v95 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v96 = "stablehlo.divide"(%v94, %v95) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v97 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v98 = "stablehlo.add"(%v96, %v97) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v99 = "stablehlo.rsqrt"(%v98) : (tensor<16xf32>) -> tensor<16xf32>
    %v100 = "stablehlo.broadcast_in_dim"(%v99) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v101 = "stablehlo.multiply"(%v91, %v100) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v102 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v103 = "stablehlo.broadcast_in_dim"(%v102) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v104 = "stablehlo.multiply"(%v101, %v103) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v105 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v106 = "stablehlo.dot_general"(%v104, %v105) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v107 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v108 = "stablehlo.dot_general"(%v104, %v107) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v109 = "stablehlo.logistic"(%v106) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %v110 = "stablehlo.multiply"(%v106, %v109) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v111 = "stablehlo.multiply"(%v110, %v108) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v112 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v113 = "stablehlo.dot_general"(%v111, %v112) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x16xf32>
    %v114 = "stablehlo.add"(%v91, %v113) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v115 = "stablehlo.multiply"(%v114, %v114) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v117 = "stablehlo.reduce"(%v115, %v116) ({
    ^bb0(%rx117: tensor<f32>, %ry117: tensor<f32>):
      %rr117 = "stablehlo.add"(%rx117, %ry117) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr117) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v118 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v119 = "stablehlo.divide"(%v117, %v118) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v120 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v121 = "stablehlo.add"(%v119, %v120) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v122 = "stablehlo.rsqrt"(%v121) : (tensor<16xf32>) -> tensor<16xf32>
    %v123 = "stablehlo.broadcast_in_dim"(%v122) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v124 = "stablehlo.multiply"(%v114, %v123) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v125 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v126 = "stablehlo.broadcast_in_dim"(%v125) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v127 = "stablehlo.multiply"(%v124, %v126) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v128 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v129 = "stablehlo.subtract"(%a1, %v128) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v130 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v131 = "stablehlo.dynamic_slice"(%v127, %v129, %v130) {slice_sizes = array<i64: 1, 16>} : (tensor<16x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v132 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v133 = "stablehlo.dot_general"(%v131, %v132) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v134 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x40xf32>
    %v135 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v136 = "stablehlo.reduce"(%v133, %v135) ({
    ^bb0(%rx136: tensor<f32>, %ry136: tensor<f32>):
      %rr136 = "stablehlo.maximum"(%rx136, %ry136) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr136) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v137 = "stablehlo.broadcast_in_dim"(%v136) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x40xf32>
    %v138 = "stablehlo.compare"(%v133, %v137) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xi1>
    %v139 = "stablehlo.constant"() {value = dense<0x42200000> : tensor<1x40xf32>} : () -> tensor<1x40xf32>
    %v140 = "stablehlo.select"(%v138, %v134, %v139) : (tensor<1x40xi1>, tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xf32>
    %v141 = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %v142 = "stablehlo.reduce"(%v140, %v141) ({
    ^bb0(%rx142: tensor<f32>, %ry142: tensor<f32>):
      %rr142 = "stablehlo.minimum"(%rx142, %ry142) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr142) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v143 = "stablehlo.convert"(%v142) : (tensor<1xf32>) -> tensor<1xi32>
    %v144 = "stablehlo.reshape"(%v143) : (tensor<1xi32>) -> tensor<i32>
    return %v144 : tensor<i32>
  }
  func.func @prefill_16_logits(%a0: tensor<16xi32>, %a1: tensor<i32>, %a2: tensor<i32>) -> (tensor<40xf32>) {
    %v0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v1 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<16xi32>
    %v2 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<16xi32>
    %v3 = "stablehlo.add"(%v2, %v1) : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %v4 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v5 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v6 = "stablehlo.reshape"(%a0) : (tensor<16xi32>) -> tensor<16x1xi32>
    %v7 = "stablehlo.gather"(%v5, %v6) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<16x1xi32>) -> tensor<16x16xf32>
    %v8 = "stablehlo.convert"(%v3) : (tensor<16xi32>) -> tensor<16xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v4) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<16x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<16x8xf32>) -> tensor<16x8xf32>
    %v15 = "stablehlo.multiply"(%v7, %v7) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
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
    %v24 = "stablehlo.multiply"(%v7, %v23) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
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
    %v55 = util.global.load @kv_k0 : tensor<1x16x8xf32>
    %v56 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v57 = "stablehlo.transpose"(%v53) {permutation = array<i64: 1, 0, 2>} : (tensor<16x1x8xf32>) -> tensor<1x16x8xf32>
    %v58 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v59 = "stablehlo.multiply"(%a2, %v58) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v60 = "stablehlo.dynamic_update_slice"(%v55, %v57, %v59, %v56, %v56) : (tensor<1x16x8xf32>, tensor<1x16x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    util.global.store %v60, @kv_k0 : tensor<1x16x8xf32>
    %v61 = util.global.load @kv_v0 : tensor<1x16x8xf32>
    %v62 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v63 = "stablehlo.transpose"(%v54) {permutation = array<i64: 1, 0, 2>} : (tensor<16x1x8xf32>) -> tensor<1x16x8xf32>
    %v64 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v65 = "stablehlo.multiply"(%a2, %v64) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v66 = "stablehlo.dynamic_update_slice"(%v61, %v63, %v65, %v62, %v62) : (tensor<1x16x8xf32>, tensor<1x16x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    util.global.store %v66, @kv_v0 : tensor<1x16x8xf32>
    %v67 = "stablehlo.reshape"(%v43) : (tensor<16x2x8xf32>) -> tensor<16x1x2x8xf32>
    %v68 = "stablehlo.dot_general"(%v67, %v53) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<16x1x2x8xf32>, tensor<16x1x8xf32>) -> tensor<1x16x2x16xf32>
    %v69 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<16x16xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<16x16xi32>
    %v71 = "stablehlo.compare"(%v70, %v69) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %v72 = "stablehlo.broadcast_in_dim"(%v71) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<16x16xi1>) -> tensor<1x16x2x16xi1>
    %v73 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x16x2x16xf32>} : () -> tensor<1x16x2x16xf32>
    %v74 = "stablehlo.multiply"(%v68, %v73) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v75 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x16x2x16xf32>} : () -> tensor<1x16x2x16xf32>
    %v76 = "stablehlo.select"(%v72, %v74, %v75) : (tensor<1x16x2x16xi1>, tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v77 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v78 = "stablehlo.reduce"(%v76, %v77) ({
    ^bb0(%rx78: tensor<f32>, %ry78: tensor<f32>):
      %rr78 = "stablehlo.maximum"(%rx78, %ry78) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr78) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x16x2x16xf32>, tensor<f32>) -> tensor<1x16x2xf32>
    %v79 = "stablehlo.broadcast_in_dim"(%v78) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x16x2xf32>) -> tensor<1x16x2x16xf32>
    %v80 = "stablehlo.subtract"(%v76, %v79) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v81 = "stablehlo.exponential"(%v80) : (tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v82 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v83 = "stablehlo.reduce"(%v81, %v82) ({
    ^bb0(%rx83: tensor<f32>, %ry83: tensor<f32>):
      %rr83 = "stablehlo.add"(%rx83, %ry83) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr83) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x16x2x16xf32>, tensor<f32>) -> tensor<1x16x2xf32>
    %v84 = "stablehlo.broadcast_in_dim"(%v83) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x16x2xf32>) -> tensor<1x16x2x16xf32>
    %v85 = "stablehlo.divide"(%v81, %v84) : (tensor<1x16x2x16xf32>, tensor<1x16x2x16xf32>) -> tensor<1x16x2x16xf32>
    %v86 = "stablehlo.dot_general"(%v85, %v54) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x16x2x16xf32>, tensor<16x1x8xf32>) -> tensor<1x16x2x8xf32>
    %v87 = "stablehlo.transpose"(%v86) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x16x2x8xf32>) -> tensor<16x1x2x8xf32>
    %v88 = "stablehlo.reshape"(%v87) : (tensor<16x1x2x8xf32>) -> tensor<16x16xf32>
    %v89 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v90 = "stablehlo.dot_general"(%v88, %v89) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v91 = "stablehlo.add"(%v7, %v90) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v92 = "stablehlo.multiply"(%v91, %v91) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v94 = "stablehlo.reduce"(%v92, %v93) ({
    ^bb0(%rx94: tensor<f32>, %ry94: tensor<f32>):
      %rr94 = "stablehlo.add"(%rx94, %ry94) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr94) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v95 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v96 = "stablehlo.divide"(%v94, %v95) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v97 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v98 = "stablehlo.add"(%v96, %v97) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v99 = "stablehlo.rsqrt"(%v98) : (tensor<16xf32>) -> tensor<16xf32>
    %v100 = "stablehlo.broadcast_in_dim"(%v99) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v101 = "stablehlo.multiply"(%v91, %v100) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v102 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v103 = "stablehlo.broadcast_in_dim"(%v102) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v104 = "stablehlo.multiply"(%v101, %v103) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v105 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v106 = "stablehlo.dot_general"(%v104, %v105) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v107 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v108 = "stablehlo.dot_general"(%v104, %v107) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v109 = "stablehlo.logistic"(%v106) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %v110 = "stablehlo.multiply"(%v106, %v109) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v111 = "stablehlo.multiply"(%v110, %v108) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v112 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v113 = "stablehlo.dot_general"(%v111, %v112) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x16xf32>
    %v114 = "stablehlo.add"(%v91, %v113) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v115 = "stablehlo.multiply"(%v114, %v114) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v117 = "stablehlo.reduce"(%v115, %v116) ({
    ^bb0(%rx117: tensor<f32>, %ry117: tensor<f32>):
      %rr117 = "stablehlo.add"(%rx117, %ry117) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr117) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v118 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v119 = "stablehlo.divide"(%v117, %v118) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v120 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v121 = "stablehlo.add"(%v119, %v120) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v122 = "stablehlo.rsqrt"(%v121) : (tensor<16xf32>) -> tensor<16xf32>
    %v123 = "stablehlo.broadcast_in_dim"(%v122) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v124 = "stablehlo.multiply"(%v114, %v123) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v125 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v126 = "stablehlo.broadcast_in_dim"(%v125) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v127 = "stablehlo.multiply"(%v124, %v126) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v128 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v129 = "stablehlo.subtract"(%a1, %v128) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v130 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v131 = "stablehlo.dynamic_slice"(%v127, %v129, %v130) {slice_sizes = array<i64: 1, 16>} : (tensor<16x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v132 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v133 = "stablehlo.dot_general"(%v131, %v132) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v134 = "stablehlo.reshape"(%v133) : (tensor<1x40xf32>) -> tensor<40xf32>
    return %v134 : tensor<40xf32>
  }
  func.func @decode_8(%a0: tensor<1xi32>, %a1: tensor<1xi32>) -> (tensor<1xi32>) {
    %v0 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v1 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v2 = "stablehlo.reshape"(%a0) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v3 = "stablehlo.gather"(%v1, %v2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<1x1xi32>) -> tensor<1x16xf32>
    %v4 = "stablehlo.convert"(%a1) : (tensor<1xi32>) -> tensor<1xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<1x4xf32>
    %v6 = "stablehlo.broadcast_in_dim"(%v4) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x4xf32>
    %v7 = "stablehlo.multiply"(%v6, %v5) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %v8 = "stablehlo.concatenate"(%v7, %v7) {dimension = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
    %v9 = "stablehlo.cosine"(%v8) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v10 = "stablehlo.sine"(%v8) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v11 = "stablehlo.multiply"(%v3, %v3) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v12 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v13 = "stablehlo.reduce"(%v11, %v12) ({
    ^bb0(%rx13: tensor<f32>, %ry13: tensor<f32>):
      %rr13 = "stablehlo.add"(%rx13, %ry13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr13) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v14 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v15 = "stablehlo.divide"(%v13, %v14) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v17 = "stablehlo.add"(%v15, %v16) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v18 = "stablehlo.rsqrt"(%v17) : (tensor<1xf32>) -> tensor<1xf32>
    %v19 = "stablehlo.broadcast_in_dim"(%v18) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v20 = "stablehlo.multiply"(%v3, %v19) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v21 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v22 = "stablehlo.broadcast_in_dim"(%v21) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v23 = "stablehlo.multiply"(%v20, %v22) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v24 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v25 = "stablehlo.dot_general"(%v23, %v24) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v26 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v27 = "stablehlo.dot_general"(%v23, %v26) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v29 = "stablehlo.dot_general"(%v23, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v30 = "stablehlo.reshape"(%v25) : (tensor<1x16xf32>) -> tensor<1x2x8xf32>
    %v31 = "stablehlo.slice"(%v30) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v32 = "stablehlo.slice"(%v30) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v33 = "stablehlo.negate"(%v32) : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %v34 = "stablehlo.concatenate"(%v33, %v31) {dimension = 2 : i64} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x8xf32>
    %v35 = "stablehlo.broadcast_in_dim"(%v9) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v36 = "stablehlo.broadcast_in_dim"(%v10) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v37 = "stablehlo.multiply"(%v34, %v36) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v38 = "stablehlo.multiply"(%v30, %v35) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v39 = "stablehlo.add"(%v38, %v37) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v40 = "stablehlo.reshape"(%v27) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v41 = "stablehlo.slice"(%v40) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v42 = "stablehlo.slice"(%v40) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v43 = "stablehlo.negate"(%v42) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %v44 = "stablehlo.concatenate"(%v43, %v41) {dimension = 2 : i64} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x8xf32>
    %v45 = "stablehlo.broadcast_in_dim"(%v9) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v46 = "stablehlo.broadcast_in_dim"(%v10) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v47 = "stablehlo.multiply"(%v44, %v46) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v48 = "stablehlo.multiply"(%v40, %v45) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v49 = "stablehlo.add"(%v48, %v47) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v50 = "stablehlo.reshape"(%v29) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v51 = util.global.load @kv_k0 : tensor<1x16x8xf32>
    %v52 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v53 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x1xi32>
    %v54 = "stablehlo.reshape"(%v53) : (tensor<1x1xi32>) -> tensor<1xi32>
    %v55 = "stablehlo.reshape"(%v49) : (tensor<1x1x8xf32>) -> tensor<1x8xf32>
    %v56 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x1xi32>
    %v57 = "stablehlo.reshape"(%v54) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v58 = "stablehlo.concatenate"(%v56, %v57) {dimension = 1 : i64} : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x2xi32>
    %v59 = "stablehlo.scatter"(%v51, %v58, %v55) ({
    ^bb0(%sx59: tensor<f32>, %sy59: tensor<f32>):
      "stablehlo.return"(%sy59) : (tensor<f32>) -> ()
    }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = true} : (tensor<1x16x8xf32>, tensor<1x2xi32>, tensor<1x8xf32>) -> tensor<1x16x8xf32>
    util.global.store %v59, @kv_k0 : tensor<1x16x8xf32>
    %v60 = "stablehlo.slice"(%v59) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 8, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x16x8xf32>) -> tensor<1x8x8xf32>
    %v61 = "stablehlo.reshape"(%v60) : (tensor<1x8x8xf32>) -> tensor<1x1x8x8xf32>
    %v62 = util.global.load @kv_v0 : tensor<1x16x8xf32>
    %v63 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v64 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x1xi32>
    %v65 = "stablehlo.reshape"(%v64) : (tensor<1x1xi32>) -> tensor<1xi32>
    %v66 = "stablehlo.reshape"(%v50) : (tensor<1x1x8xf32>) -> tensor<1x8xf32>
    %v67 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x1xi32>
    %v68 = "stablehlo.reshape"(%v65) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v69 = "stablehlo.concatenate"(%v67, %v68) {dimension = 1 : i64} : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x2xi32>
    %v70 = "stablehlo.scatter"(%v62, %v69, %v66) ({
    ^bb0(%sx70: tensor<f32>, %sy70: tensor<f32>):
      "stablehlo.return"(%sy70) : (tensor<f32>) -> ()
    }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = true} : (tensor<1x16x8xf32>, tensor<1x2xi32>, tensor<1x8xf32>) -> tensor<1x16x8xf32>
    util.global.store %v70, @kv_v0 : tensor<1x16x8xf32>
    %v71 = "stablehlo.slice"(%v70) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 8, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x16x8xf32>) -> tensor<1x8x8xf32>
    %v72 = "stablehlo.reshape"(%v71) : (tensor<1x8x8xf32>) -> tensor<1x1x8x8xf32>
    %v73 = "stablehlo.reshape"(%v39) : (tensor<1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v74 = "stablehlo.dot_general"(%v73, %v61) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>} : (tensor<1x1x2x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x1x2x8xf32>
    %v75 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x8xi32>
    %v76 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x8xi32>
    %v77 = "stablehlo.compare"(%v76, %v75) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x8xi32>, tensor<1x8xi32>) -> tensor<1x8xi1>
    %v78 = "stablehlo.broadcast_in_dim"(%v77) {broadcast_dimensions = array<i64: 0, 3>} : (tensor<1x8xi1>) -> tensor<1x1x2x8xi1>
    %v79 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x2x8xf32>} : () -> tensor<1x1x2x8xf32>
    %v80 = "stablehlo.multiply"(%v74, %v79) : (tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v81 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x2x8xf32>} : () -> tensor<1x1x2x8xf32>
    %v82 = "stablehlo.select"(%v78, %v80, %v81) : (tensor<1x1x2x8xi1>, tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v83 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v84 = "stablehlo.reduce"(%v82, %v83) ({
    ^bb0(%rx84: tensor<f32>, %ry84: tensor<f32>):
      %rr84 = "stablehlo.maximum"(%rx84, %ry84) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr84) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x8xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v85 = "stablehlo.broadcast_in_dim"(%v84) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x8xf32>
    %v86 = "stablehlo.subtract"(%v82, %v85) : (tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v87 = "stablehlo.exponential"(%v86) : (tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v88 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v89 = "stablehlo.reduce"(%v87, %v88) ({
    ^bb0(%rx89: tensor<f32>, %ry89: tensor<f32>):
      %rr89 = "stablehlo.add"(%rx89, %ry89) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr89) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x8xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v90 = "stablehlo.broadcast_in_dim"(%v89) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x8xf32>
    %v91 = "stablehlo.divide"(%v87, %v90) : (tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v92 = "stablehlo.dot_general"(%v91, %v72) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<1x1x2x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x1x2x8xf32>
    %v93 = "stablehlo.reshape"(%v92) : (tensor<1x1x2x8xf32>) -> tensor<1x16xf32>
    %v94 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v95 = "stablehlo.dot_general"(%v93, %v94) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v96 = "stablehlo.add"(%v3, %v95) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v97 = "stablehlo.multiply"(%v96, %v96) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v98 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v99 = "stablehlo.reduce"(%v97, %v98) ({
    ^bb0(%rx99: tensor<f32>, %ry99: tensor<f32>):
      %rr99 = "stablehlo.add"(%rx99, %ry99) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr99) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v100 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v101 = "stablehlo.divide"(%v99, %v100) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v102 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v103 = "stablehlo.add"(%v101, %v102) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v104 = "stablehlo.rsqrt"(%v103) : (tensor<1xf32>) -> tensor<1xf32>
    %v105 = "stablehlo.broadcast_in_dim"(%v104) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v106 = "stablehlo.multiply"(%v96, %v105) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v107 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v108 = "stablehlo.broadcast_in_dim"(%v107) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v109 = "stablehlo.multiply"(%v106, %v108) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v110 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v111 = "stablehlo.dot_general"(%v109, %v110) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v112 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v113 = "stablehlo.dot_general"(%v109, %v112) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v114 = "stablehlo.logistic"(%v111) : (tensor<1x32xf32>) -> tensor<1x32xf32>
    %v115 = "stablehlo.multiply"(%v111, %v114) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v116 = "stablehlo.multiply"(%v115, %v113) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v117 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v118 = "stablehlo.dot_general"(%v116, %v117) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x32xf32>, tensor<16x32xf32>) -> tensor<1x16xf32>
    %v119 = "stablehlo.add"(%v96, %v118) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v120 = "stablehlo.multiply"(%v119, %v119) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v121 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v122 = "stablehlo.reduce"(%v120, %v121) ({
    ^bb0(%rx122: tensor<f32>, %ry122: tensor<f32>):
      %rr122 = "stablehlo.add"(%rx122, %ry122) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr122) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v123 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v124 = "stablehlo.divide"(%v122, %v123) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v125 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v126 = "stablehlo.add"(%v124, %v125) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v127 = "stablehlo.rsqrt"(%v126) : (tensor<1xf32>) -> tensor<1xf32>
    %v128 = "stablehlo.broadcast_in_dim"(%v127) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v129 = "stablehlo.multiply"(%v119, %v128) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v130 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v131 = "stablehlo.broadcast_in_dim"(%v130) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v132 = "stablehlo.multiply"(%v129, %v131) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v133 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v134 = "stablehlo.dot_general"(%v132, %v133) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v135 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x40xf32>
    %v136 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v137 = "stablehlo.reduce"(%v134, %v136) ({
    ^bb0(%rx137: tensor<f32>, %ry137: tensor<f32>):
      %rr137 = "stablehlo.maximum"(%rx137, %ry137) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr137) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v138 = "stablehlo.broadcast_in_dim"(%v137) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x40xf32>
    %v139 = "stablehlo.compare"(%v134, %v138) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xi1>
    %v140 = "stablehlo.constant"() {value = dense<0x42200000> : tensor<1x40xf32>} : () -> tensor<1x40xf32>
    %v141 = "stablehlo.select"(%v139, %v135, %v140) : (tensor<1x40xi1>, tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xf32>
    %v142 = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %v143 = "stablehlo.reduce"(%v141, %v142) ({
    ^bb0(%rx143: tensor<f32>, %ry143: tensor<f32>):
      %rr143 = "stablehlo.minimum"(%rx143, %ry143) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr143) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v144 = "stablehlo.convert"(%v143) : (tensor<1xf32>) -> tensor<1xi32>
    return %v144 : tensor<1xi32>
  }
  func.func @decode_8_logits(%a0: tensor<1xi32>, %a1: tensor<1xi32>) -> (tensor<1x40xf32>) {
    %v0 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v1 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v2 = "stablehlo.reshape"(%a0) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v3 = "stablehlo.gather"(%v1, %v2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<1x1xi32>) -> tensor<1x16xf32>
    %v4 = "stablehlo.convert"(%a1) : (tensor<1xi32>) -> tensor<1xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<1x4xf32>
    %v6 = "stablehlo.broadcast_in_dim"(%v4) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x4xf32>
    %v7 = "stablehlo.multiply"(%v6, %v5) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %v8 = "stablehlo.concatenate"(%v7, %v7) {dimension = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
    %v9 = "stablehlo.cosine"(%v8) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v10 = "stablehlo.sine"(%v8) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v11 = "stablehlo.multiply"(%v3, %v3) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v12 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v13 = "stablehlo.reduce"(%v11, %v12) ({
    ^bb0(%rx13: tensor<f32>, %ry13: tensor<f32>):
      %rr13 = "stablehlo.add"(%rx13, %ry13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr13) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v14 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v15 = "stablehlo.divide"(%v13, %v14) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v17 = "stablehlo.add"(%v15, %v16) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v18 = "stablehlo.rsqrt"(%v17) : (tensor<1xf32>) -> tensor<1xf32>
    %v19 = "stablehlo.broadcast_in_dim"(%v18) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v20 = "stablehlo.multiply"(%v3, %v19) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v21 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v22 = "stablehlo.broadcast_in_dim"(%v21) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v23 = "stablehlo.multiply"(%v20, %v22) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v24 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v25 = "stablehlo.dot_general"(%v23, %v24) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v26 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v27 = "stablehlo.dot_general"(%v23, %v26) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v29 = "stablehlo.dot_general"(%v23, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v30 = "stablehlo.reshape"(%v25) : (tensor<1x16xf32>) -> tensor<1x2x8xf32>
    %v31 = "stablehlo.slice"(%v30) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v32 = "stablehlo.slice"(%v30) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v33 = "stablehlo.negate"(%v32) : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %v34 = "stablehlo.concatenate"(%v33, %v31) {dimension = 2 : i64} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x8xf32>
    %v35 = "stablehlo.broadcast_in_dim"(%v9) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v36 = "stablehlo.broadcast_in_dim"(%v10) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v37 = "stablehlo.multiply"(%v34, %v36) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v38 = "stablehlo.multiply"(%v30, %v35) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v39 = "stablehlo.add"(%v38, %v37) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v40 = "stablehlo.reshape"(%v27) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v41 = "stablehlo.slice"(%v40) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v42 = "stablehlo.slice"(%v40) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v43 = "stablehlo.negate"(%v42) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %v44 = "stablehlo.concatenate"(%v43, %v41) {dimension = 2 : i64} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x8xf32>
    %v45 = "stablehlo.broadcast_in_dim"(%v9) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v46 = "stablehlo.broadcast_in_dim"(%v10) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v47 = "stablehlo.multiply"(%v44, %v46) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v48 = "stablehlo.multiply"(%v40, %v45) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v49 = "stablehlo.add"(%v48, %v47) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v50 = "stablehlo.reshape"(%v29) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v51 = util.global.load @kv_k0 : tensor<1x16x8xf32>
    %v52 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v53 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x1xi32>
    %v54 = "stablehlo.reshape"(%v53) : (tensor<1x1xi32>) -> tensor<1xi32>
    %v55 = "stablehlo.reshape"(%v49) : (tensor<1x1x8xf32>) -> tensor<1x8xf32>
    %v56 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x1xi32>
    %v57 = "stablehlo.reshape"(%v54) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v58 = "stablehlo.concatenate"(%v56, %v57) {dimension = 1 : i64} : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x2xi32>
    %v59 = "stablehlo.scatter"(%v51, %v58, %v55) ({
    ^bb0(%sx59: tensor<f32>, %sy59: tensor<f32>):
      "stablehlo.return"(%sy59) : (tensor<f32>) -> ()
    }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = true} : (tensor<1x16x8xf32>, tensor<1x2xi32>, tensor<1x8xf32>) -> tensor<1x16x8xf32>
    util.global.store %v59, @kv_k0 : tensor<1x16x8xf32>
    %v60 = "stablehlo.slice"(%v59) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 8, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x16x8xf32>) -> tensor<1x8x8xf32>
    %v61 = "stablehlo.reshape"(%v60) : (tensor<1x8x8xf32>) -> tensor<1x1x8x8xf32>
    %v62 = util.global.load @kv_v0 : tensor<1x16x8xf32>
    %v63 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v64 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x1xi32>
    %v65 = "stablehlo.reshape"(%v64) : (tensor<1x1xi32>) -> tensor<1xi32>
    %v66 = "stablehlo.reshape"(%v50) : (tensor<1x1x8xf32>) -> tensor<1x8xf32>
    %v67 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x1xi32>
    %v68 = "stablehlo.reshape"(%v65) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v69 = "stablehlo.concatenate"(%v67, %v68) {dimension = 1 : i64} : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x2xi32>
    %v70 = "stablehlo.scatter"(%v62, %v69, %v66) ({
    ^bb0(%sx70: tensor<f32>, %sy70: tensor<f32>):
      "stablehlo.return"(%sy70) : (tensor<f32>) -> ()
    }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = true} : (tensor<1x16x8xf32>, tensor<1x2xi32>, tensor<1x8xf32>) -> tensor<1x16x8xf32>
    util.global.store %v70, @kv_v0 : tensor<1x16x8xf32>
    %v71 = "stablehlo.slice"(%v70) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 8, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x16x8xf32>) -> tensor<1x8x8xf32>
    %v72 = "stablehlo.reshape"(%v71) : (tensor<1x8x8xf32>) -> tensor<1x1x8x8xf32>
    %v73 = "stablehlo.reshape"(%v39) : (tensor<1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v74 = "stablehlo.dot_general"(%v73, %v61) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>} : (tensor<1x1x2x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x1x2x8xf32>
    %v75 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x8xi32>
    %v76 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x8xi32>
    %v77 = "stablehlo.compare"(%v76, %v75) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x8xi32>, tensor<1x8xi32>) -> tensor<1x8xi1>
    %v78 = "stablehlo.broadcast_in_dim"(%v77) {broadcast_dimensions = array<i64: 0, 3>} : (tensor<1x8xi1>) -> tensor<1x1x2x8xi1>
    %v79 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x2x8xf32>} : () -> tensor<1x1x2x8xf32>
    %v80 = "stablehlo.multiply"(%v74, %v79) : (tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v81 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x2x8xf32>} : () -> tensor<1x1x2x8xf32>
    %v82 = "stablehlo.select"(%v78, %v80, %v81) : (tensor<1x1x2x8xi1>, tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v83 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v84 = "stablehlo.reduce"(%v82, %v83) ({
    ^bb0(%rx84: tensor<f32>, %ry84: tensor<f32>):
      %rr84 = "stablehlo.maximum"(%rx84, %ry84) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr84) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x8xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v85 = "stablehlo.broadcast_in_dim"(%v84) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x8xf32>
    %v86 = "stablehlo.subtract"(%v82, %v85) : (tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v87 = "stablehlo.exponential"(%v86) : (tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v88 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v89 = "stablehlo.reduce"(%v87, %v88) ({
    ^bb0(%rx89: tensor<f32>, %ry89: tensor<f32>):
      %rr89 = "stablehlo.add"(%rx89, %ry89) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr89) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x8xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v90 = "stablehlo.broadcast_in_dim"(%v89) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x8xf32>
    %v91 = "stablehlo.divide"(%v87, %v90) : (tensor<1x1x2x8xf32>, tensor<1x1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v92 = "stablehlo.dot_general"(%v91, %v72) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<1x1x2x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x1x2x8xf32>
    %v93 = "stablehlo.reshape"(%v92) : (tensor<1x1x2x8xf32>) -> tensor<1x16xf32>
    %v94 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v95 = "stablehlo.dot_general"(%v93, %v94) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v96 = "stablehlo.add"(%v3, %v95) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v97 = "stablehlo.multiply"(%v96, %v96) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v98 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v99 = "stablehlo.reduce"(%v97, %v98) ({
    ^bb0(%rx99: tensor<f32>, %ry99: tensor<f32>):
      %rr99 = "stablehlo.add"(%rx99, %ry99) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr99) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v100 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v101 = "stablehlo.divide"(%v99, %v100) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v102 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v103 = "stablehlo.add"(%v101, %v102) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v104 = "stablehlo.rsqrt"(%v103) : (tensor<1xf32>) -> tensor<1xf32>
    %v105 = "stablehlo.broadcast_in_dim"(%v104) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v106 = "stablehlo.multiply"(%v96, %v105) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v107 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v108 = "stablehlo.broadcast_in_dim"(%v107) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v109 = "stablehlo.multiply"(%v106, %v108) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v110 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v111 = "stablehlo.dot_general"(%v109, %v110) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v112 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v113 = "stablehlo.dot_general"(%v109, %v112) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v114 = "stablehlo.logistic"(%v111) : (tensor<1x32xf32>) -> tensor<1x32xf32>
    %v115 = "stablehlo.multiply"(%v111, %v114) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v116 = "stablehlo.multiply"(%v115, %v113) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v117 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v118 = "stablehlo.dot_general"(%v116, %v117) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x32xf32>, tensor<16x32xf32>) -> tensor<1x16xf32>
    %v119 = "stablehlo.add"(%v96, %v118) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v120 = "stablehlo.multiply"(%v119, %v119) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v121 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v122 = "stablehlo.reduce"(%v120, %v121) ({
    ^bb0(%rx122: tensor<f32>, %ry122: tensor<f32>):
      %rr122 = "stablehlo.add"(%rx122, %ry122) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr122) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v123 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v124 = "stablehlo.divide"(%v122, %v123) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v125 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v126 = "stablehlo.add"(%v124, %v125) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v127 = "stablehlo.rsqrt"(%v126) : (tensor<1xf32>) -> tensor<1xf32>
    %v128 = "stablehlo.broadcast_in_dim"(%v127) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v129 = "stablehlo.multiply"(%v119, %v128) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v130 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v131 = "stablehlo.broadcast_in_dim"(%v130) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v132 = "stablehlo.multiply"(%v129, %v131) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v133 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v134 = "stablehlo.dot_general"(%v132, %v133) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    return %v134 : tensor<1x40xf32>
  }
  func.func @decode_16(%a0: tensor<1xi32>, %a1: tensor<1xi32>) -> (tensor<1xi32>) {
    %v0 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v1 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v2 = "stablehlo.reshape"(%a0) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v3 = "stablehlo.gather"(%v1, %v2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<1x1xi32>) -> tensor<1x16xf32>
    %v4 = "stablehlo.convert"(%a1) : (tensor<1xi32>) -> tensor<1xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<1x4xf32>
    %v6 = "stablehlo.broadcast_in_dim"(%v4) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x4xf32>
    %v7 = "stablehlo.multiply"(%v6, %v5) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %v8 = "stablehlo.concatenate"(%v7, %v7) {dimension = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
    %v9 = "stablehlo.cosine"(%v8) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v10 = "stablehlo.sine"(%v8) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v11 = "stablehlo.multiply"(%v3, %v3) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v12 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v13 = "stablehlo.reduce"(%v11, %v12) ({
    ^bb0(%rx13: tensor<f32>, %ry13: tensor<f32>):
      %rr13 = "stablehlo.add"(%rx13, %ry13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr13) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v14 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v15 = "stablehlo.divide"(%v13, %v14) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v17 = "stablehlo.add"(%v15, %v16) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v18 = "stablehlo.rsqrt"(%v17) : (tensor<1xf32>) -> tensor<1xf32>
    %v19 = "stablehlo.broadcast_in_dim"(%v18) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v20 = "stablehlo.multiply"(%v3, %v19) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v21 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v22 = "stablehlo.broadcast_in_dim"(%v21) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v23 = "stablehlo.multiply"(%v20, %v22) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v24 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v25 = "stablehlo.dot_general"(%v23, %v24) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v26 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v27 = "stablehlo.dot_general"(%v23, %v26) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v29 = "stablehlo.dot_general"(%v23, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v30 = "stablehlo.reshape"(%v25) : (tensor<1x16xf32>) -> tensor<1x2x8xf32>
    %v31 = "stablehlo.slice"(%v30) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v32 = "stablehlo.slice"(%v30) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v33 = "stablehlo.negate"(%v32) : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %v34 = "stablehlo.concatenate"(%v33, %v31) {dimension = 2 : i64} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x8xf32>
    %v35 = "stablehlo.broadcast_in_dim"(%v9) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v36 = "stablehlo.broadcast_in_dim"(%v10) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v37 = "stablehlo.multiply"(%v34, %v36) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v38 = "stablehlo.multiply"(%v30, %v35) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v39 = "stablehlo.add"(%v38, %v37) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v40 = "stablehlo.reshape"(%v27) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v41 = "stablehlo.slice"(%v40) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v42 = "stablehlo.slice"(%v40) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v43 = "stablehlo.negate"(%v42) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %v44 = "stablehlo.concatenate"(%v43, %v41) {dimension = 2 : i64} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x8xf32>
    %v45 = "stablehlo.broadcast_in_dim"(%v9) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v46 = "stablehlo.broadcast_in_dim"(%v10) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v47 = "stablehlo.multiply"(%v44, %v46) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v48 = "stablehlo.multiply"(%v40, %v45) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v49 = "stablehlo.add"(%v48, %v47) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v50 = "stablehlo.reshape"(%v29) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v51 = util.global.load @kv_k0 : tensor<1x16x8xf32>
    %v52 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v53 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x1xi32>
    %v54 = "stablehlo.reshape"(%v53) : (tensor<1x1xi32>) -> tensor<1xi32>
    %v55 = "stablehlo.reshape"(%v49) : (tensor<1x1x8xf32>) -> tensor<1x8xf32>
    %v56 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x1xi32>
    %v57 = "stablehlo.reshape"(%v54) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v58 = "stablehlo.concatenate"(%v56, %v57) {dimension = 1 : i64} : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x2xi32>
    %v59 = "stablehlo.scatter"(%v51, %v58, %v55) ({
    ^bb0(%sx59: tensor<f32>, %sy59: tensor<f32>):
      "stablehlo.return"(%sy59) : (tensor<f32>) -> ()
    }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = true} : (tensor<1x16x8xf32>, tensor<1x2xi32>, tensor<1x8xf32>) -> tensor<1x16x8xf32>
    util.global.store %v59, @kv_k0 : tensor<1x16x8xf32>
    %v60 = "stablehlo.reshape"(%v59) : (tensor<1x16x8xf32>) -> tensor<1x1x16x8xf32>
    %v61 = util.global.load @kv_v0 : tensor<1x16x8xf32>
    %v62 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v63 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x1xi32>
    %v64 = "stablehlo.reshape"(%v63) : (tensor<1x1xi32>) -> tensor<1xi32>
    %v65 = "stablehlo.reshape"(%v50) : (tensor<1x1x8xf32>) -> tensor<1x8xf32>
    %v66 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x1xi32>
    %v67 = "stablehlo.reshape"(%v64) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v68 = "stablehlo.concatenate"(%v66, %v67) {dimension = 1 : i64} : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x2xi32>
    %v69 = "stablehlo.scatter"(%v61, %v68, %v65) ({
    ^bb0(%sx69: tensor<f32>, %sy69: tensor<f32>):
      "stablehlo.return"(%sy69) : (tensor<f32>) -> ()
    }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = true} : (tensor<1x16x8xf32>, tensor<1x2xi32>, tensor<1x8xf32>) -> tensor<1x16x8xf32>
    util.global.store %v69, @kv_v0 : tensor<1x16x8xf32>
    %v70 = "stablehlo.reshape"(%v69) : (tensor<1x16x8xf32>) -> tensor<1x1x16x8xf32>
    %v71 = "stablehlo.reshape"(%v39) : (tensor<1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v72 = "stablehlo.dot_general"(%v71, %v60) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>} : (tensor<1x1x2x8xf32>, tensor<1x1x16x8xf32>) -> tensor<1x1x2x16xf32>
    %v73 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x16xi32>
    %v74 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x16xi32>
    %v75 = "stablehlo.compare"(%v74, %v73) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x16xi32>, tensor<1x16xi32>) -> tensor<1x16xi1>
    %v76 = "stablehlo.broadcast_in_dim"(%v75) {broadcast_dimensions = array<i64: 0, 3>} : (tensor<1x16xi1>) -> tensor<1x1x2x16xi1>
    %v77 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x2x16xf32>} : () -> tensor<1x1x2x16xf32>
    %v78 = "stablehlo.multiply"(%v72, %v77) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v79 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x2x16xf32>} : () -> tensor<1x1x2x16xf32>
    %v80 = "stablehlo.select"(%v76, %v78, %v79) : (tensor<1x1x2x16xi1>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v81 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v82 = "stablehlo.reduce"(%v80, %v81) ({
    ^bb0(%rx82: tensor<f32>, %ry82: tensor<f32>):
      %rr82 = "stablehlo.maximum"(%rx82, %ry82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr82) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v83 = "stablehlo.broadcast_in_dim"(%v82) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x16xf32>
    %v84 = "stablehlo.subtract"(%v80, %v83) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v85 = "stablehlo.exponential"(%v84) : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v86 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v87 = "stablehlo.reduce"(%v85, %v86) ({
    ^bb0(%rx87: tensor<f32>, %ry87: tensor<f32>):
      %rr87 = "stablehlo.add"(%rx87, %ry87) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr87) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v88 = "stablehlo.broadcast_in_dim"(%v87) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x16xf32>
    %v89 = "stablehlo.divide"(%v85, %v88) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v90 = "stablehlo.dot_general"(%v89, %v70) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<1x1x2x16xf32>, tensor<1x1x16x8xf32>) -> tensor<1x1x2x8xf32>
    %v91 = "stablehlo.reshape"(%v90) : (tensor<1x1x2x8xf32>) -> tensor<1x16xf32>
    %v92 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v93 = "stablehlo.dot_general"(%v91, %v92) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v94 = "stablehlo.add"(%v3, %v93) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v95 = "stablehlo.multiply"(%v94, %v94) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v96 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v97 = "stablehlo.reduce"(%v95, %v96) ({
    ^bb0(%rx97: tensor<f32>, %ry97: tensor<f32>):
      %rr97 = "stablehlo.add"(%rx97, %ry97) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr97) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v98 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v99 = "stablehlo.divide"(%v97, %v98) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v100 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v101 = "stablehlo.add"(%v99, %v100) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v102 = "stablehlo.rsqrt"(%v101) : (tensor<1xf32>) -> tensor<1xf32>
    %v103 = "stablehlo.broadcast_in_dim"(%v102) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v104 = "stablehlo.multiply"(%v94, %v103) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v105 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v106 = "stablehlo.broadcast_in_dim"(%v105) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v107 = "stablehlo.multiply"(%v104, %v106) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v108 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v109 = "stablehlo.dot_general"(%v107, %v108) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v110 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v111 = "stablehlo.dot_general"(%v107, %v110) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v112 = "stablehlo.logistic"(%v109) : (tensor<1x32xf32>) -> tensor<1x32xf32>
    %v113 = "stablehlo.multiply"(%v109, %v112) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v114 = "stablehlo.multiply"(%v113, %v111) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v115 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v116 = "stablehlo.dot_general"(%v114, %v115) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x32xf32>, tensor<16x32xf32>) -> tensor<1x16xf32>
    %v117 = "stablehlo.add"(%v94, %v116) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v118 = "stablehlo.multiply"(%v117, %v117) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v119 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v120 = "stablehlo.reduce"(%v118, %v119) ({
    ^bb0(%rx120: tensor<f32>, %ry120: tensor<f32>):
      %rr120 = "stablehlo.add"(%rx120, %ry120) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr120) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v121 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v122 = "stablehlo.divide"(%v120, %v121) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v123 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v124 = "stablehlo.add"(%v122, %v123) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v125 = "stablehlo.rsqrt"(%v124) : (tensor<1xf32>) -> tensor<1xf32>
    %v126 = "stablehlo.broadcast_in_dim"(%v125) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v127 = "stablehlo.multiply"(%v117, %v126) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v128 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v129 = "stablehlo.broadcast_in_dim"(%v128) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v130 = "stablehlo.multiply"(%v127, %v129) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v131 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v132 = "stablehlo.dot_general"(%v130, %v131) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v133 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x40xf32>
    %v134 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v135 = "stablehlo.reduce"(%v132, %v134) ({
    ^bb0(%rx135: tensor<f32>, %ry135: tensor<f32>):
      %rr135 = "stablehlo.maximum"(%rx135, %ry135) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr135) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v136 = "stablehlo.broadcast_in_dim"(%v135) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x40xf32>
    %v137 = "stablehlo.compare"(%v132, %v136) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xi1>
    %v138 = "stablehlo.constant"() {value = dense<0x42200000> : tensor<1x40xf32>} : () -> tensor<1x40xf32>
    %v139 = "stablehlo.select"(%v137, %v133, %v138) : (tensor<1x40xi1>, tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xf32>
    %v140 = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %v141 = "stablehlo.reduce"(%v139, %v140) ({
    ^bb0(%rx141: tensor<f32>, %ry141: tensor<f32>):
      %rr141 = "stablehlo.minimum"(%rx141, %ry141) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr141) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v142 = "stablehlo.convert"(%v141) : (tensor<1xf32>) -> tensor<1xi32>
    return %v142 : tensor<1xi32>
  }
  func.func @decode_16_logits(%a0: tensor<1xi32>, %a1: tensor<1xi32>) -> (tensor<1x40xf32>) {
    %v0 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v1 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v2 = "stablehlo.reshape"(%a0) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v3 = "stablehlo.gather"(%v1, %v2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<1x1xi32>) -> tensor<1x16xf32>
    %v4 = "stablehlo.convert"(%a1) : (tensor<1xi32>) -> tensor<1xf32>
    %v5 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<1x4xf32>
    %v6 = "stablehlo.broadcast_in_dim"(%v4) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x4xf32>
    %v7 = "stablehlo.multiply"(%v6, %v5) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %v8 = "stablehlo.concatenate"(%v7, %v7) {dimension = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
    %v9 = "stablehlo.cosine"(%v8) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v10 = "stablehlo.sine"(%v8) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v11 = "stablehlo.multiply"(%v3, %v3) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v12 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v13 = "stablehlo.reduce"(%v11, %v12) ({
    ^bb0(%rx13: tensor<f32>, %ry13: tensor<f32>):
      %rr13 = "stablehlo.add"(%rx13, %ry13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr13) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v14 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v15 = "stablehlo.divide"(%v13, %v14) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v17 = "stablehlo.add"(%v15, %v16) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v18 = "stablehlo.rsqrt"(%v17) : (tensor<1xf32>) -> tensor<1xf32>
    %v19 = "stablehlo.broadcast_in_dim"(%v18) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v20 = "stablehlo.multiply"(%v3, %v19) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v21 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v22 = "stablehlo.broadcast_in_dim"(%v21) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v23 = "stablehlo.multiply"(%v20, %v22) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v24 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v25 = "stablehlo.dot_general"(%v23, %v24) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v26 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v27 = "stablehlo.dot_general"(%v23, %v26) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v29 = "stablehlo.dot_general"(%v23, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v30 = "stablehlo.reshape"(%v25) : (tensor<1x16xf32>) -> tensor<1x2x8xf32>
    %v31 = "stablehlo.slice"(%v30) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v32 = "stablehlo.slice"(%v30) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v33 = "stablehlo.negate"(%v32) : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %v34 = "stablehlo.concatenate"(%v33, %v31) {dimension = 2 : i64} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x8xf32>
    %v35 = "stablehlo.broadcast_in_dim"(%v9) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v36 = "stablehlo.broadcast_in_dim"(%v10) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v37 = "stablehlo.multiply"(%v34, %v36) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v38 = "stablehlo.multiply"(%v30, %v35) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v39 = "stablehlo.add"(%v38, %v37) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v40 = "stablehlo.reshape"(%v27) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v41 = "stablehlo.slice"(%v40) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v42 = "stablehlo.slice"(%v40) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v43 = "stablehlo.negate"(%v42) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %v44 = "stablehlo.concatenate"(%v43, %v41) {dimension = 2 : i64} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x8xf32>
    %v45 = "stablehlo.broadcast_in_dim"(%v9) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v46 = "stablehlo.broadcast_in_dim"(%v10) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v47 = "stablehlo.multiply"(%v44, %v46) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v48 = "stablehlo.multiply"(%v40, %v45) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v49 = "stablehlo.add"(%v48, %v47) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v50 = "stablehlo.reshape"(%v29) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v51 = util.global.load @kv_k0 : tensor<1x16x8xf32>
    %v52 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v53 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x1xi32>
    %v54 = "stablehlo.reshape"(%v53) : (tensor<1x1xi32>) -> tensor<1xi32>
    %v55 = "stablehlo.reshape"(%v49) : (tensor<1x1x8xf32>) -> tensor<1x8xf32>
    %v56 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x1xi32>
    %v57 = "stablehlo.reshape"(%v54) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v58 = "stablehlo.concatenate"(%v56, %v57) {dimension = 1 : i64} : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x2xi32>
    %v59 = "stablehlo.scatter"(%v51, %v58, %v55) ({
    ^bb0(%sx59: tensor<f32>, %sy59: tensor<f32>):
      "stablehlo.return"(%sy59) : (tensor<f32>) -> ()
    }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = true} : (tensor<1x16x8xf32>, tensor<1x2xi32>, tensor<1x8xf32>) -> tensor<1x16x8xf32>
    util.global.store %v59, @kv_k0 : tensor<1x16x8xf32>
    %v60 = "stablehlo.reshape"(%v59) : (tensor<1x16x8xf32>) -> tensor<1x1x16x8xf32>
    %v61 = util.global.load @kv_v0 : tensor<1x16x8xf32>
    %v62 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v63 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x1xi32>
    %v64 = "stablehlo.reshape"(%v63) : (tensor<1x1xi32>) -> tensor<1xi32>
    %v65 = "stablehlo.reshape"(%v50) : (tensor<1x1x8xf32>) -> tensor<1x8xf32>
    %v66 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x1xi32>
    %v67 = "stablehlo.reshape"(%v64) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v68 = "stablehlo.concatenate"(%v66, %v67) {dimension = 1 : i64} : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x2xi32>
    %v69 = "stablehlo.scatter"(%v61, %v68, %v65) ({
    ^bb0(%sx69: tensor<f32>, %sy69: tensor<f32>):
      "stablehlo.return"(%sy69) : (tensor<f32>) -> ()
    }) {indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = true} : (tensor<1x16x8xf32>, tensor<1x2xi32>, tensor<1x8xf32>) -> tensor<1x16x8xf32>
    util.global.store %v69, @kv_v0 : tensor<1x16x8xf32>
    %v70 = "stablehlo.reshape"(%v69) : (tensor<1x16x8xf32>) -> tensor<1x1x16x8xf32>
    %v71 = "stablehlo.reshape"(%v39) : (tensor<1x2x8xf32>) -> tensor<1x1x2x8xf32>
    %v72 = "stablehlo.dot_general"(%v71, %v60) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>} : (tensor<1x1x2x8xf32>, tensor<1x1x16x8xf32>) -> tensor<1x1x2x16xf32>
    %v73 = "stablehlo.broadcast_in_dim"(%a1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi32>) -> tensor<1x16xi32>
    %v74 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x16xi32>
    %v75 = "stablehlo.compare"(%v74, %v73) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x16xi32>, tensor<1x16xi32>) -> tensor<1x16xi1>
    %v76 = "stablehlo.broadcast_in_dim"(%v75) {broadcast_dimensions = array<i64: 0, 3>} : (tensor<1x16xi1>) -> tensor<1x1x2x16xi1>
    %v77 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x2x16xf32>} : () -> tensor<1x1x2x16xf32>
    %v78 = "stablehlo.multiply"(%v72, %v77) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v79 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x2x16xf32>} : () -> tensor<1x1x2x16xf32>
    %v80 = "stablehlo.select"(%v76, %v78, %v79) : (tensor<1x1x2x16xi1>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v81 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v82 = "stablehlo.reduce"(%v80, %v81) ({
    ^bb0(%rx82: tensor<f32>, %ry82: tensor<f32>):
      %rr82 = "stablehlo.maximum"(%rx82, %ry82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr82) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v83 = "stablehlo.broadcast_in_dim"(%v82) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x16xf32>
    %v84 = "stablehlo.subtract"(%v80, %v83) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v85 = "stablehlo.exponential"(%v84) : (tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v86 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v87 = "stablehlo.reduce"(%v85, %v86) ({
    ^bb0(%rx87: tensor<f32>, %ry87: tensor<f32>):
      %rr87 = "stablehlo.add"(%rx87, %ry87) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr87) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x2xf32>
    %v88 = "stablehlo.broadcast_in_dim"(%v87) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<1x1x2x16xf32>
    %v89 = "stablehlo.divide"(%v85, %v88) : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %v90 = "stablehlo.dot_general"(%v89, %v70) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<1x1x2x16xf32>, tensor<1x1x16x8xf32>) -> tensor<1x1x2x8xf32>
    %v91 = "stablehlo.reshape"(%v90) : (tensor<1x1x2x8xf32>) -> tensor<1x16xf32>
    %v92 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v93 = "stablehlo.dot_general"(%v91, %v92) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v94 = "stablehlo.add"(%v3, %v93) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v95 = "stablehlo.multiply"(%v94, %v94) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v96 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v97 = "stablehlo.reduce"(%v95, %v96) ({
    ^bb0(%rx97: tensor<f32>, %ry97: tensor<f32>):
      %rr97 = "stablehlo.add"(%rx97, %ry97) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr97) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v98 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v99 = "stablehlo.divide"(%v97, %v98) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v100 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v101 = "stablehlo.add"(%v99, %v100) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v102 = "stablehlo.rsqrt"(%v101) : (tensor<1xf32>) -> tensor<1xf32>
    %v103 = "stablehlo.broadcast_in_dim"(%v102) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v104 = "stablehlo.multiply"(%v94, %v103) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v105 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v106 = "stablehlo.broadcast_in_dim"(%v105) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v107 = "stablehlo.multiply"(%v104, %v106) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v108 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v109 = "stablehlo.dot_general"(%v107, %v108) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v110 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v111 = "stablehlo.dot_general"(%v107, %v110) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v112 = "stablehlo.logistic"(%v109) : (tensor<1x32xf32>) -> tensor<1x32xf32>
    %v113 = "stablehlo.multiply"(%v109, %v112) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v114 = "stablehlo.multiply"(%v113, %v111) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v115 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v116 = "stablehlo.dot_general"(%v114, %v115) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x32xf32>, tensor<16x32xf32>) -> tensor<1x16xf32>
    %v117 = "stablehlo.add"(%v94, %v116) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v118 = "stablehlo.multiply"(%v117, %v117) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v119 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v120 = "stablehlo.reduce"(%v118, %v119) ({
    ^bb0(%rx120: tensor<f32>, %ry120: tensor<f32>):
      %rr120 = "stablehlo.add"(%rx120, %ry120) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr120) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v121 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v122 = "stablehlo.divide"(%v120, %v121) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v123 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v124 = "stablehlo.add"(%v122, %v123) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v125 = "stablehlo.rsqrt"(%v124) : (tensor<1xf32>) -> tensor<1xf32>
    %v126 = "stablehlo.broadcast_in_dim"(%v125) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v127 = "stablehlo.multiply"(%v117, %v126) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v128 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v129 = "stablehlo.broadcast_in_dim"(%v128) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v130 = "stablehlo.multiply"(%v127, %v129) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v131 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v132 = "stablehlo.dot_general"(%v130, %v131) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    return %v132 : tensor<1x40xf32>
  }
  func.func @score_8(%a0: tensor<8xi32>) -> (tensor<8x40xf32>) {
    %v0 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v1 = "stablehlo.broadcast_in_dim"(%v0) {broadcast_dimensions = array<i64>} : (tensor<i32>) -> tensor<8xi32>
    %v2 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<8xi32>
    %v3 = "stablehlo.add"(%v2, %v1) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %v4 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v5 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v6 = "stablehlo.reshape"(%a0) : (tensor<8xi32>) -> tensor<8x1xi32>
    %v7 = "stablehlo.gather"(%v5, %v6) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
    %v8 = "stablehlo.convert"(%v3) : (tensor<8xi32>) -> tensor<8xf32>
    %v9 = "stablehlo.broadcast_in_dim"(%v4) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<8x4xf32>
    %v10 = "stablehlo.broadcast_in_dim"(%v8) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x4xf32>
    %v11 = "stablehlo.multiply"(%v10, %v9) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %v12 = "stablehlo.concatenate"(%v11, %v11) {dimension = 1 : i64} : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
    %v13 = "stablehlo.cosine"(%v12) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %v14 = "stablehlo.sine"(%v12) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %v15 = "stablehlo.multiply"(%v7, %v7) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
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
    %v24 = "stablehlo.multiply"(%v7, %v23) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
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
    %v55 = util.global.load @kv_k0 : tensor<1x16x8xf32>
    %v56 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v57 = "stablehlo.transpose"(%v53) {permutation = array<i64: 1, 0, 2>} : (tensor<8x1x8xf32>) -> tensor<1x8x8xf32>
    %v58 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v59 = "stablehlo.multiply"(%v0, %v58) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v60 = "stablehlo.dynamic_update_slice"(%v55, %v57, %v59, %v56, %v56) : (tensor<1x16x8xf32>, tensor<1x8x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    util.global.store %v60, @kv_k0 : tensor<1x16x8xf32>
    %v61 = util.global.load @kv_v0 : tensor<1x16x8xf32>
    %v62 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v63 = "stablehlo.transpose"(%v54) {permutation = array<i64: 1, 0, 2>} : (tensor<8x1x8xf32>) -> tensor<1x8x8xf32>
    %v64 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v65 = "stablehlo.multiply"(%v0, %v64) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v66 = "stablehlo.dynamic_update_slice"(%v61, %v63, %v65, %v62, %v62) : (tensor<1x16x8xf32>, tensor<1x8x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x8xf32>
    util.global.store %v66, @kv_v0 : tensor<1x16x8xf32>
    %v67 = "stablehlo.reshape"(%v43) : (tensor<8x2x8xf32>) -> tensor<8x1x2x8xf32>
    %v68 = "stablehlo.dot_general"(%v67, %v53) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>} : (tensor<8x1x2x8xf32>, tensor<8x1x8xf32>) -> tensor<1x8x2x8xf32>
    %v69 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<8x8xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<8x8xi32>
    %v71 = "stablehlo.compare"(%v70, %v69) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %v72 = "stablehlo.broadcast_in_dim"(%v71) {broadcast_dimensions = array<i64: 1, 3>} : (tensor<8x8xi1>) -> tensor<1x8x2x8xi1>
    %v73 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x8x2x8xf32>} : () -> tensor<1x8x2x8xf32>
    %v74 = "stablehlo.multiply"(%v68, %v73) : (tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>) -> tensor<1x8x2x8xf32>
    %v75 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x8x2x8xf32>} : () -> tensor<1x8x2x8xf32>
    %v76 = "stablehlo.select"(%v72, %v74, %v75) : (tensor<1x8x2x8xi1>, tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>) -> tensor<1x8x2x8xf32>
    %v77 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v78 = "stablehlo.reduce"(%v76, %v77) ({
    ^bb0(%rx78: tensor<f32>, %ry78: tensor<f32>):
      %rr78 = "stablehlo.maximum"(%rx78, %ry78) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr78) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x8x2x8xf32>, tensor<f32>) -> tensor<1x8x2xf32>
    %v79 = "stablehlo.broadcast_in_dim"(%v78) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x8x2xf32>) -> tensor<1x8x2x8xf32>
    %v80 = "stablehlo.subtract"(%v76, %v79) : (tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>) -> tensor<1x8x2x8xf32>
    %v81 = "stablehlo.exponential"(%v80) : (tensor<1x8x2x8xf32>) -> tensor<1x8x2x8xf32>
    %v82 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v83 = "stablehlo.reduce"(%v81, %v82) ({
    ^bb0(%rx83: tensor<f32>, %ry83: tensor<f32>):
      %rr83 = "stablehlo.add"(%rx83, %ry83) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr83) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<1x8x2x8xf32>, tensor<f32>) -> tensor<1x8x2xf32>
    %v84 = "stablehlo.broadcast_in_dim"(%v83) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<1x8x2xf32>) -> tensor<1x8x2x8xf32>
    %v85 = "stablehlo.divide"(%v81, %v84) : (tensor<1x8x2x8xf32>, tensor<1x8x2x8xf32>) -> tensor<1x8x2x8xf32>
    %v86 = "stablehlo.dot_general"(%v85, %v54) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [0]>} : (tensor<1x8x2x8xf32>, tensor<8x1x8xf32>) -> tensor<1x8x2x8xf32>
    %v87 = "stablehlo.transpose"(%v86) {permutation = array<i64: 1, 0, 2, 3>} : (tensor<1x8x2x8xf32>) -> tensor<8x1x2x8xf32>
    %v88 = "stablehlo.reshape"(%v87) : (tensor<8x1x2x8xf32>) -> tensor<8x16xf32>
    %v89 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v90 = "stablehlo.dot_general"(%v88, %v89) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %v91 = "stablehlo.add"(%v7, %v90) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v92 = "stablehlo.multiply"(%v91, %v91) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v93 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v94 = "stablehlo.reduce"(%v92, %v93) ({
    ^bb0(%rx94: tensor<f32>, %ry94: tensor<f32>):
      %rr94 = "stablehlo.add"(%rx94, %ry94) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr94) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %v95 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<8xf32>} : () -> tensor<8xf32>
    %v96 = "stablehlo.divide"(%v94, %v95) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v97 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<8xf32>} : () -> tensor<8xf32>
    %v98 = "stablehlo.add"(%v96, %v97) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v99 = "stablehlo.rsqrt"(%v98) : (tensor<8xf32>) -> tensor<8xf32>
    %v100 = "stablehlo.broadcast_in_dim"(%v99) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x16xf32>
    %v101 = "stablehlo.multiply"(%v91, %v100) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v102 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v103 = "stablehlo.broadcast_in_dim"(%v102) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<8x16xf32>
    %v104 = "stablehlo.multiply"(%v101, %v103) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v105 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v106 = "stablehlo.dot_general"(%v104, %v105) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %v107 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v108 = "stablehlo.dot_general"(%v104, %v107) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %v109 = "stablehlo.logistic"(%v106) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %v110 = "stablehlo.multiply"(%v106, %v109) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %v111 = "stablehlo.multiply"(%v110, %v108) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %v112 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v113 = "stablehlo.dot_general"(%v111, %v112) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x32xf32>, tensor<16x32xf32>) -> tensor<8x16xf32>
    %v114 = "stablehlo.add"(%v91, %v113) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v115 = "stablehlo.multiply"(%v114, %v114) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v116 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v117 = "stablehlo.reduce"(%v115, %v116) ({
    ^bb0(%rx117: tensor<f32>, %ry117: tensor<f32>):
      %rr117 = "stablehlo.add"(%rx117, %ry117) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr117) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %v118 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<8xf32>} : () -> tensor<8xf32>
    %v119 = "stablehlo.divide"(%v117, %v118) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v120 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<8xf32>} : () -> tensor<8xf32>
    %v121 = "stablehlo.add"(%v119, %v120) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v122 = "stablehlo.rsqrt"(%v121) : (tensor<8xf32>) -> tensor<8xf32>
    %v123 = "stablehlo.broadcast_in_dim"(%v122) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x16xf32>
    %v124 = "stablehlo.multiply"(%v114, %v123) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v125 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v126 = "stablehlo.broadcast_in_dim"(%v125) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<8x16xf32>
    %v127 = "stablehlo.multiply"(%v124, %v126) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v128 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v129 = "stablehlo.dot_general"(%v127, %v128) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<40x16xf32>) -> tensor<8x40xf32>
    return %v129 : tensor<8x40xf32>
  }
}
