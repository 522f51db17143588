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
  util.global private mutable @kv_k0 = dense<0x0D800000> : tensor<1x16x1x8xf32>
  util.global private mutable @kv_v0 = dense<0x0E000000> : tensor<1x16x1x8xf32>
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
    %v55 = util.global.load @kv_k0 : tensor<1x16x1x8xf32>
    %v56 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v57 = "stablehlo.reshape"(%v53) : (tensor<4x1x8xf32>) -> tensor<1x4x1x8xf32>
    %v58 = "stablehlo.dynamic_update_slice"(%v55, %v57, %a2, %v56, %v56, %v56) : (tensor<1x16x1x8xf32>, tensor<1x4x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v58, @kv_k0 : tensor<1x16x1x8xf32>
    %v59 = "stablehlo.dynamic_slice"(%v58, %a2, %v56, %v56, %v56) {slice_sizes = array<i64: 1, 16, 1, 8>} : (tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    %v60 = util.global.load @kv_v0 : tensor<1x16x1x8xf32>
    %v61 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v62 = "stablehlo.reshape"(%v54) : (tensor<4x1x8xf32>) -> tensor<1x4x1x8xf32>
    %v63 = "stablehlo.dynamic_update_slice"(%v60, %v62, %a2, %v61, %v61, %v61) : (tensor<1x16x1x8xf32>, tensor<1x4x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v63, @kv_v0 : tensor<1x16x1x8xf32>
    %v64 = "stablehlo.dynamic_slice"(%v63, %a2, %v61, %v61, %v61) {slice_sizes = array<i64: 1, 16, 1, 8>} : (tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    %v65 = "stablehlo.reshape"(%v43) : (tensor<4x2x8xf32>) -> tensor<1x4x1x2x8xf32>
    %v66 = "stablehlo.dot_general"(%v65, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [3]>} : (tensor<1x4x1x2x8xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x4x2x16xf32>
    %v67 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x4x2x16xf32>} : () -> tensor<1x1x4x2x16xf32>
    %v68 = "stablehlo.multiply"(%v66, %v67) : (tensor<1x1x4x2x16xf32>, tensor<1x1x4x2x16xf32>) -> tensor<1x1x4x2x16xf32>
    %v69 = "stablehlo.reshape"(%v3) : (tensor<4xi32>) -> tensor<1x4xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x4x16xi32>
    %v71 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x4xi32>) -> tensor<1x4x16xi32>
    %v72 = "stablehlo.compare"(%v70, %v71) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x4x16xi32>, tensor<1x4x16xi32>) -> tensor<1x4x16xi1>
    %v73 = "stablehlo.broadcast_in_dim"(%v72) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x4x16xi1>) -> tensor<1x1x4x2x16xi1>
    %v74 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x4x2x16xf32>} : () -> tensor<1x1x4x2x16xf32>
    %v75 = "stablehlo.select"(%v73, %v68, %v74) : (tensor<1x1x4x2x16xi1>, tensor<1x1x4x2x16xf32>, tensor<1x1x4x2x16xf32>) -> tensor<1x1x4x2x16xf32>
    %v76 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v77 = "stablehlo.reduce"(%v75, %v76) ({
    ^bb0(%rx77: tensor<f32>, %ry77: tensor<f32>):
      %rr77 = "stablehlo.maximum"(%rx77, %ry77) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr77) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x4x2x16xf32>, tensor<f32>) -> tensor<1x1x4x2xf32>
    %v78 = "stablehlo.broadcast_in_dim"(%v77) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x4x2xf32>) -> tensor<1x1x4x2x16xf32>
    %v79 = "stablehlo.subtract"(%v75, %v78) : (tensor<1x1x4x2x16xf32>, tensor<1x1x4x2x16xf32>) -> tensor<1x1x4x2x16xf32>
    %v80 = "stablehlo.exponential"(%v79) : (tensor<1x1x4x2x16xf32>) -> tensor<1x1x4x2x16xf32>
    %v81 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v82 = "stablehlo.reduce"(%v80, %v81) ({
    ^bb0(%rx82: tensor<f32>, %ry82: tensor<f32>):
      %rr82 = "stablehlo.add"(%rx82, %ry82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr82) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x4x2x16xf32>, tensor<f32>) -> tensor<1x1x4x2xf32>
    %v83 = "stablehlo.broadcast_in_dim"(%v82) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x4x2xf32>) -> tensor<1x1x4x2x16xf32>
    %v84 = "stablehlo.divide"(%v80, %v83) : (tensor<1x1x4x2x16xf32>, tensor<1x1x4x2x16xf32>) -> tensor<1x1x4x2x16xf32>
    %v85 = "stablehlo.dot_general"(%v84, %v64) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [1]>} : (tensor<1x1x4x2x16xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x4x2x8xf32>
    %v86 = "stablehlo.transpose"(%v85) {permutation = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x1x4x2x8xf32>) -> tensor<1x4x1x2x8xf32>
    %v87 = "stablehlo.reshape"(%v86) : (tensor<1x4x1x2x8xf32>) -> tensor<4x16xf32>
    %v88 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v89 = "stablehlo.dot_general"(%v87, %v88) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %v90 = "stablehlo.add"(%v7, %v89) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v91 = "stablehlo.multiply"(%v90, %v90) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v92 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v93 = "stablehlo.reduce"(%v91, %v92) ({
    ^bb0(%rx93: tensor<f32>, %ry93: tensor<f32>):
      %rr93 = "stablehlo.add"(%rx93, %ry93) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr93) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v94 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v95 = "stablehlo.divide"(%v93, %v94) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v96 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v97 = "stablehlo.add"(%v95, %v96) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v98 = "stablehlo.rsqrt"(%v97) : (tensor<4xf32>) -> tensor<4xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v100 = "stablehlo.multiply"(%v90, %v99) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v101 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v102 = "stablehlo.broadcast_in_dim"(%v101) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v103 = "stablehlo.multiply"(%v100, %v102) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v104 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v105 = "stablehlo.dot_general"(%v103, %v104) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v106 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v107 = "stablehlo.dot_general"(%v103, %v106) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v108 = "stablehlo.logistic"(%v105) : (tensor<4x32xf32>) -> tensor<4x32xf32>
    %v109 = "stablehlo.multiply"(%v105, %v108) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v110 = "stablehlo.multiply"(%v109, %v107) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v111 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v112 = "stablehlo.dot_general"(%v110, %v111) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x32xf32>, tensor<16x32xf32>) -> tensor<4x16xf32>
    %v113 = "stablehlo.add"(%v90, %v112) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v114 = "stablehlo.multiply"(%v113, %v113) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v115 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v116 = "stablehlo.reduce"(%v114, %v115) ({
    ^bb0(%rx116: tensor<f32>, %ry116: tensor<f32>):
      %rr116 = "stablehlo.add"(%rx116, %ry116) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr116) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v117 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v118 = "stablehlo.divide"(%v116, %v117) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v119 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v120 = "stablehlo.add"(%v118, %v119) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v121 = "stablehlo.rsqrt"(%v120) : (tensor<4xf32>) -> tensor<4xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v123 = "stablehlo.multiply"(%v113, %v122) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v124 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v125 = "stablehlo.broadcast_in_dim"(%v124) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v126 = "stablehlo.multiply"(%v123, %v125) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v127 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v128 = "stablehlo.subtract"(%a1, %v127) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v129 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v130 = "stablehlo.dynamic_slice"(%v126, %v128, %v129) {slice_sizes = array<i64: 1, 16>} : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v131 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v132 = "stablehlo.dot_general"(%v130, %v131) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v133 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v134 = "stablehlo.reduce"(%v132, %v133) ({
    ^bb0(%rx134: tensor<f32>, %ry134: tensor<f32>):
      %rr134 = "stablehlo.maximum"(%rx134, %ry134) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr134) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v135 = "stablehlo.broadcast_in_dim"(%v134) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x40xf32>
    %v136 = "stablehlo.compare"(%v132, %v135) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xi1>
    %v137 = "stablehlo.constant"() {value = dense<0x42200000> : tensor<1x40xf32>} : () -> tensor<1x40xf32>
    %v138 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x40xf32>
    %v139 = "stablehlo.select"(%v136, %v138, %v137) : (tensor<1x40xi1>, tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xf32>
    %v140 = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %v141 = "stablehlo.reduce"(%v139, %v140) ({
    ^bb0(%rx141: tensor<f32>, %ry141: tensor<f32>):
      %rr141 = "stablehlo.minimum"(%rx141, %ry141) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr141) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v142 = "stablehlo.convert"(%v141) : (tensor<1xf32>) -> tensor<1xi32>
    %v143 = "stablehlo.reshape"(%v142) : (tensor<1xi32>) -> tensor<i32>
    return %v143 : tensor<i32>
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
    %v55 = util.global.load @kv_k0 : tensor<1x16x1x8xf32>
    %v56 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v57 = "stablehlo.reshape"(%v53) : (tensor<4x1x8xf32>) -> tensor<1x4x1x8xf32>
    %v58 = "stablehlo.dynamic_update_slice"(%v55, %v57, %a2, %v56, %v56, %v56) : (tensor<1x16x1x8xf32>, tensor<1x4x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v58, @kv_k0 : tensor<1x16x1x8xf32>
    %v59 = "stablehlo.dynamic_slice"(%v58, %a2, %v56, %v56, %v56) {slice_sizes = array<i64: 1, 16, 1, 8>} : (tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    %v60 = util.global.load @kv_v0 : tensor<1x16x1x8xf32>
    %v61 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v62 = "stablehlo.reshape"(%v54) : (tensor<4x1x8xf32>) -> tensor<1x4x1x8xf32>
    %v63 = "stablehlo.dynamic_update_slice"(%v60, %v62, %a2, %v61, %v61, %v61) : (tensor<1x16x1x8xf32>, tensor<1x4x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v63, @kv_v0 : tensor<1x16x1x8xf32>
    %v64 = "stablehlo.dynamic_slice"(%v63, %a2, %v61, %v61, %v61) {slice_sizes = array<i64: 1, 16, 1, 8>} : (tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    %v65 = "stablehlo.reshape"(%v43) : (tensor<4x2x8xf32>) -> tensor<1x4x1x2x8xf32>
    %v66 = "stablehlo.dot_general"(%v65, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [3]>} : (tensor<1x4x1x2x8xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x4x2x16xf32>
    %v67 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x4x2x16xf32>} : () -> tensor<1x1x4x2x16xf32>
    %v68 = "stablehlo.multiply"(%v66, %v67) : (tensor<1x1x4x2x16xf32>, tensor<1x1x4x2x16xf32>) -> tensor<1x1x4x2x16xf32>
    %v69 = "stablehlo.reshape"(%v3) : (tensor<4xi32>) -> tensor<1x4xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x4x16xi32>
    %v71 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x4xi32>) -> tensor<1x4x16xi32>
    %v72 = "stablehlo.compare"(%v70, %v71) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x4x16xi32>, tensor<1x4x16xi32>) -> tensor<1x4x16xi1>
    %v73 = "stablehlo.broadcast_in_dim"(%v72) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x4x16xi1>) -> tensor<1x1x4x2x16xi1>
    %v74 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x4x2x16xf32>} : () -> tensor<1x1x4x2x16xf32>
    %v75 = "stablehlo.select"(%v73, %v68, %v74) : (tensor<1x1x4x2x16xi1>, tensor<1x1x4x2x16xf32>, tensor<1x1x4x2x16xf32>) -> tensor<1x1x4x2x16xf32>
    %v76 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v77 = "stablehlo.reduce"(%v75, %v76) ({
    ^bb0(%rx77: tensor<f32>, %ry77: tensor<f32>):
      %rr77 = "stablehlo.maximum"(%rx77, %ry77) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr77) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x4x2x16xf32>, tensor<f32>) -> tensor<1x1x4x2xf32>
    %v78 = "stablehlo.broadcast_in_dim"(%v77) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x4x2xf32>) -> tensor<1x1x4x2x16xf32>
    %v79 = "stablehlo.subtract"(%v75, %v78) : (tensor<1x1x4x2x16xf32>, tensor<1x1x4x2x16xf32>) -> tensor<1x1x4x2x16xf32>
    %v80 = "stablehlo.exponential"(%v79) : (tensor<1x1x4x2x16xf32>) -> tensor<1x1x4x2x16xf32>
    %v81 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v82 = "stablehlo.reduce"(%v80, %v81) ({
    ^bb0(%rx82: tensor<f32>, %ry82: tensor<f32>):
      %rr82 = "stablehlo.add"(%rx82, %ry82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr82) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x4x2x16xf32>, tensor<f32>) -> tensor<1x1x4x2xf32>
    %v83 = "stablehlo.broadcast_in_dim"(%v82) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x4x2xf32>) -> tensor<1x1x4x2x16xf32>
    %v84 = "stablehlo.divide"(%v80, %v83) : (tensor<1x1x4x2x16xf32>, tensor<1x1x4x2x16xf32>) -> tensor<1x1x4x2x16xf32>
    %v85 = "stablehlo.dot_general"(%v84, %v64) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [1]>} : (tensor<1x1x4x2x16xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x4x2x8xf32>
    %v86 = "stablehlo.transpose"(%v85) {permutation = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x1x4x2x8xf32>) -> tensor<1x4x1x2x8xf32>
    %v87 = "stablehlo.reshape"(%v86) : (tensor<1x4x1x2x8xf32>) -> tensor<4x16xf32>
    %v88 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v89 = "stablehlo.dot_general"(%v87, %v88) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
    %v90 = "stablehlo.add"(%v7, %v89) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v91 = "stablehlo.multiply"(%v90, %v90) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v92 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v93 = "stablehlo.reduce"(%v91, %v92) ({
    ^bb0(%rx93: tensor<f32>, %ry93: tensor<f32>):
      %rr93 = "stablehlo.add"(%rx93, %ry93) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr93) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v94 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v95 = "stablehlo.divide"(%v93, %v94) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v96 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v97 = "stablehlo.add"(%v95, %v96) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v98 = "stablehlo.rsqrt"(%v97) : (tensor<4xf32>) -> tensor<4xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v100 = "stablehlo.multiply"(%v90, %v99) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v101 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v102 = "stablehlo.broadcast_in_dim"(%v101) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v103 = "stablehlo.multiply"(%v100, %v102) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v104 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v105 = "stablehlo.dot_general"(%v103, %v104) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v106 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v107 = "stablehlo.dot_general"(%v103, %v106) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x16xf32>, tensor<32x16xf32>) -> tensor<4x32xf32>
    %v108 = "stablehlo.logistic"(%v105) : (tensor<4x32xf32>) -> tensor<4x32xf32>
    %v109 = "stablehlo.multiply"(%v105, %v108) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v110 = "stablehlo.multiply"(%v109, %v107) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
    %v111 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v112 = "stablehlo.dot_general"(%v110, %v111) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<4x32xf32>, tensor<16x32xf32>) -> tensor<4x16xf32>
    %v113 = "stablehlo.add"(%v90, %v112) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v114 = "stablehlo.multiply"(%v113, %v113) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v115 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v116 = "stablehlo.reduce"(%v114, %v115) ({
    ^bb0(%rx116: tensor<f32>, %ry116: tensor<f32>):
      %rr116 = "stablehlo.add"(%rx116, %ry116) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr116) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
    %v117 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<4xf32>} : () -> tensor<4xf32>
    %v118 = "stablehlo.divide"(%v116, %v117) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v119 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<4xf32>} : () -> tensor<4xf32>
    %v120 = "stablehlo.add"(%v118, %v119) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %v121 = "stablehlo.rsqrt"(%v120) : (tensor<4xf32>) -> tensor<4xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x16xf32>
    %v123 = "stablehlo.multiply"(%v113, %v122) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v124 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v125 = "stablehlo.broadcast_in_dim"(%v124) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<4x16xf32>
    %v126 = "stablehlo.multiply"(%v123, %v125) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %v127 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v128 = "stablehlo.subtract"(%a1, %v127) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v129 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v130 = "stablehlo.dynamic_slice"(%v126, %v128, %v129) {slice_sizes = array<i64: 1, 16>} : (tensor<4x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v131 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v132 = "stablehlo.dot_general"(%v130, %v131) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v133 = "stablehlo.reshape"(%v132) : (tensor<1x40xf32>) -> tensor<40xf32>
    return %v133 : tensor<40xf32>
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
    %v55 = util.global.load @kv_k0 : tensor<1x16x1x8xf32>
    %v56 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v57 = "stablehlo.reshape"(%v53) : (tensor<16x1x8xf32>) -> tensor<1x16x1x8xf32>
    %v58 = "stablehlo.dynamic_update_slice"(%v55, %v57, %a2, %v56, %v56, %v56) : (tensor<1x16x1x8xf32>, tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v58, @kv_k0 : tensor<1x16x1x8xf32>
    %v59 = "stablehlo.dynamic_slice"(%v58, %a2, %v56, %v56, %v56) {slice_sizes = array<i64: 1, 16, 1, 8>} : (tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    %v60 = util.global.load @kv_v0 : tensor<1x16x1x8xf32>
    %v61 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v62 = "stablehlo.reshape"(%v54) : (tensor<16x1x8xf32>) -> tensor<1x16x1x8xf32>
    %v63 = "stablehlo.dynamic_update_slice"(%v60, %v62, %a2, %v61, %v61, %v61) : (tensor<1x16x1x8xf32>, tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v63, @kv_v0 : tensor<1x16x1x8xf32>
    %v64 = "stablehlo.dynamic_slice"(%v63, %a2, %v61, %v61, %v61) {slice_sizes = array<i64: 1, 16, 1, 8>} : (tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    %v65 = "stablehlo.reshape"(%v43) : (tensor<16x2x8xf32>) -> tensor<1x16x1x2x8xf32>
    %v66 = "stablehlo.dot_general"(%v65, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [3]>} : (tensor<1x16x1x2x8xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x16x2x16xf32>
    %v67 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x16x2x16xf32>} : () -> tensor<1x1x16x2x16xf32>
    %v68 = "stablehlo.multiply"(%v66, %v67) : (tensor<1x1x16x2x16xf32>, tensor<1x1x16x2x16xf32>) -> tensor<1x1x16x2x16xf32>
    %v69 = "stablehlo.reshape"(%v3) : (tensor<16xi32>) -> tensor<1x16xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x16x16xi32>
    %v71 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x16xi32>) -> tensor<1x16x16xi32>
    %v72 = "stablehlo.compare"(%v70, %v71) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x16x16xi32>, tensor<1x16x16xi32>) -> tensor<1x16x16xi1>
    %v73 = "stablehlo.broadcast_in_dim"(%v72) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x16x16xi1>) -> tensor<1x1x16x2x16xi1>
    %v74 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x16x2x16xf32>} : () -> tensor<1x1x16x2x16xf32>
    %v75 = "stablehlo.select"(%v73, %v68, %v74) : (tensor<1x1x16x2x16xi1>, tensor<1x1x16x2x16xf32>, tensor<1x1x16x2x16xf32>) -> tensor<1x1x16x2x16xf32>
    %v76 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v77 = "stablehlo.reduce"(%v75, %v76) ({
    ^bb0(%rx77: tensor<f32>, %ry77: tensor<f32>):
      %rr77 = "stablehlo.maximum"(%rx77, %ry77) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr77) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x16x2x16xf32>, tensor<f32>) -> tensor<1x1x16x2xf32>
    %v78 = "stablehlo.broadcast_in_dim"(%v77) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x16x2xf32>) -> tensor<1x1x16x2x16xf32>
    %v79 = "stablehlo.subtract"(%v75, %v78) : (tensor<1x1x16x2x16xf32>, tensor<1x1x16x2x16xf32>) -> tensor<1x1x16x2x16xf32>
    %v80 = "stablehlo.exponential"(%v79) : (tensor<1x1x16x2x16xf32>) -> tensor<1x1x16x2x16xf32>
    %v81 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v82 = "stablehlo.reduce"(%v80, %v81) ({
    ^bb0(%rx82: tensor<f32>, %ry82: tensor<f32>):
      %rr82 = "stablehlo.add"(%rx82, %ry82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr82) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x16x2x16xf32>, tensor<f32>) -> tensor<1x1x16x2xf32>
    %v83 = "stablehlo.broadcast_in_dim"(%v82) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x16x2xf32>) -> tensor<1x1x16x2x16xf32>
    %v84 = "stablehlo.divide"(%v80, %v83) : (tensor<1x1x16x2x16xf32>, tensor<1x1x16x2x16xf32>) -> tensor<1x1x16x2x16xf32>
    %v85 = "stablehlo.dot_general"(%v84, %v64) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [1]>} : (tensor<1x1x16x2x16xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x16x2x8xf32>
    %v86 = "stablehlo.transpose"(%v85) {permutation = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x1x16x2x8xf32>) -> tensor<1x16x1x2x8xf32>
    %v87 = "stablehlo.reshape"(%v86) : (tensor<1x16x1x2x8xf32>) -> tensor<16x16xf32>
    %v88 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v89 = "stablehlo.dot_general"(%v87, %v88) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v90 = "stablehlo.add"(%v7, %v89) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v91 = "stablehlo.multiply"(%v90, %v90) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v92 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v93 = "stablehlo.reduce"(%v91, %v92) ({
    ^bb0(%rx93: tensor<f32>, %ry93: tensor<f32>):
      %rr93 = "stablehlo.add"(%rx93, %ry93) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr93) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v94 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v95 = "stablehlo.divide"(%v93, %v94) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v96 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v97 = "stablehlo.add"(%v95, %v96) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v98 = "stablehlo.rsqrt"(%v97) : (tensor<16xf32>) -> tensor<16xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v100 = "stablehlo.multiply"(%v90, %v99) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v101 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v102 = "stablehlo.broadcast_in_dim"(%v101) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v103 = "stablehlo.multiply"(%v100, %v102) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v104 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v105 = "stablehlo.dot_general"(%v103, %v104) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v106 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v107 = "stablehlo.dot_general"(%v103, %v106) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v108 = "stablehlo.logistic"(%v105) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %v109 = "stablehlo.multiply"(%v105, %v108) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v110 = "stablehlo.multiply"(%v109, %v107) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v111 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v112 = "stablehlo.dot_general"(%v110, %v111) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x16xf32>
    %v113 = "stablehlo.add"(%v90, %v112) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v114 = "stablehlo.multiply"(%v113, %v113) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v115 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v116 = "stablehlo.reduce"(%v114, %v115) ({
    ^bb0(%rx116: tensor<f32>, %ry116: tensor<f32>):
      %rr116 = "stablehlo.add"(%rx116, %ry116) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr116) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v117 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v118 = "stablehlo.divide"(%v116, %v117) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v119 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v120 = "stablehlo.add"(%v118, %v119) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v121 = "stablehlo.rsqrt"(%v120) : (tensor<16xf32>) -> tensor<16xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v123 = "stablehlo.multiply"(%v113, %v122) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v124 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v125 = "stablehlo.broadcast_in_dim"(%v124) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v126 = "stablehlo.multiply"(%v123, %v125) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v127 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v128 = "stablehlo.subtract"(%a1, %v127) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v129 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v130 = "stablehlo.dynamic_slice"(%v126, %v128, %v129) {slice_sizes = array<i64: 1, 16>} : (tensor<16x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v131 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v132 = "stablehlo.dot_general"(%v130, %v131) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v133 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v134 = "stablehlo.reduce"(%v132, %v133) ({
    ^bb0(%rx134: tensor<f32>, %ry134: tensor<f32>):
      %rr134 = "stablehlo.maximum"(%rx134, %ry134) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr134) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v135 = "stablehlo.broadcast_in_dim"(%v134) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x40xf32>
    %v136 = "stablehlo.compare"(%v132, %v135) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xi1>
    %v137 = "stablehlo.constant"() {value = dense<0x42200000> : tensor<1x40xf32>} : () -> tensor<1x40xf32>
    %v138 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x40xf32>
    %v139 = "stablehlo.select"(%v136, %v138, %v137) : (tensor<1x40xi1>, tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xf32>
    %v140 = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %v141 = "stablehlo.reduce"(%v139, %v140) ({
    ^bb0(%rx141: tensor<f32>, %ry141: tensor<f32>):
      %rr141 = "stablehlo.minimum"(%rx141, %ry141) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr141) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v142 = "stablehlo.convert"(%v141) : (tensor<1xf32>) -> tensor<1xi32>
    %v143 = "stablehlo.reshape"(%v142) : (tensor<1xi32>) -> tensor<i32>
    return %v143 : tensor<i32>
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
    %v55 = util.global.load @kv_k0 : tensor<1x16x1x8xf32>
    %v56 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v57 = "stablehlo.reshape"(%v53) : (tensor<16x1x8xf32>) -> tensor<1x16x1x8xf32>
    %v58 = "stablehlo.dynamic_update_slice"(%v55, %v57, %a2, %v56, %v56, %v56) : (tensor<1x16x1x8xf32>, tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v58, @kv_k0 : tensor<1x16x1x8xf32>
    %v59 = "stablehlo.dynamic_slice"(%v58, %a2, %v56, %v56, %v56) {slice_sizes = array<i64: 1, 16, 1, 8>} : (tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    %v60 = util.global.load @kv_v0 : tensor<1x16x1x8xf32>
    %v61 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v62 = "stablehlo.reshape"(%v54) : (tensor<16x1x8xf32>) -> tensor<1x16x1x8xf32>
    %v63 = "stablehlo.dynamic_update_slice"(%v60, %v62, %a2, %v61, %v61, %v61) : (tensor<1x16x1x8xf32>, tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v63, @kv_v0 : tensor<1x16x1x8xf32>
    %v64 = "stablehlo.dynamic_slice"(%v63, %a2, %v61, %v61, %v61) {slice_sizes = array<i64: 1, 16, 1, 8>} : (tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    %v65 = "stablehlo.reshape"(%v43) : (tensor<16x2x8xf32>) -> tensor<1x16x1x2x8xf32>
    %v66 = "stablehlo.dot_general"(%v65, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [3]>} : (tensor<1x16x1x2x8xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x16x2x16xf32>
    %v67 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x16x2x16xf32>} : () -> tensor<1x1x16x2x16xf32>
    %v68 = "stablehlo.multiply"(%v66, %v67) : (tensor<1x1x16x2x16xf32>, tensor<1x1x16x2x16xf32>) -> tensor<1x1x16x2x16xf32>
    %v69 = "stablehlo.reshape"(%v3) : (tensor<16xi32>) -> tensor<1x16xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x16x16xi32>
    %v71 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x16xi32>) -> tensor<1x16x16xi32>
    %v72 = "stablehlo.compare"(%v70, %v71) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x16x16xi32>, tensor<1x16x16xi32>) -> tensor<1x16x16xi1>
    %v73 = "stablehlo.broadcast_in_dim"(%v72) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x16x16xi1>) -> tensor<1x1x16x2x16xi1>
    %v74 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x16x2x16xf32>} : () -> tensor<1x1x16x2x16xf32>
    %v75 = "stablehlo.select"(%v73, %v68, %v74) : (tensor<1x1x16x2x16xi1>, tensor<1x1x16x2x16xf32>, tensor<1x1x16x2x16xf32>) -> tensor<1x1x16x2x16xf32>
    %v76 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v77 = "stablehlo.reduce"(%v75, %v76) ({
    ^bb0(%rx77: tensor<f32>, %ry77: tensor<f32>):
      %rr77 = "stablehlo.maximum"(%rx77, %ry77) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr77) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x16x2x16xf32>, tensor<f32>) -> tensor<1x1x16x2xf32>
    %v78 = "stablehlo.broadcast_in_dim"(%v77) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x16x2xf32>) -> tensor<1x1x16x2x16xf32>
    %v79 = "stablehlo.subtract"(%v75, %v78) : (tensor<1x1x16x2x16xf32>, tensor<1x1x16x2x16xf32>) -> tensor<1x1x16x2x16xf32>
    %v80 = "stablehlo.exponential"(%v79) : (tensor<1x1x16x2x16xf32>) -> tensor<1x1x16x2x16xf32>
    %v81 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v82 = "stablehlo.reduce"(%v80, %v81) ({
    ^bb0(%rx82: tensor<f32>, %ry82: tensor<f32>):
      %rr82 = "stablehlo.add"(%rx82, %ry82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr82) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x16x2x16xf32>, tensor<f32>) -> tensor<1x1x16x2xf32>
    %v83 = "stablehlo.broadcast_in_dim"(%v82) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x16x2xf32>) -> tensor<1x1x16x2x16xf32>
    %v84 = "stablehlo.divide"(%v80, %v83) : (tensor<1x1x16x2x16xf32>, tensor<1x1x16x2x16xf32>) -> tensor<1x1x16x2x16xf32>
    %v85 = "stablehlo.dot_general"(%v84, %v64) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [1]>} : (tensor<1x1x16x2x16xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x16x2x8xf32>
    %v86 = "stablehlo.transpose"(%v85) {permutation = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x1x16x2x8xf32>) -> tensor<1x16x1x2x8xf32>
    %v87 = "stablehlo.reshape"(%v86) : (tensor<1x16x1x2x8xf32>) -> tensor<16x16xf32>
    %v88 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v89 = "stablehlo.dot_general"(%v87, %v88) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v90 = "stablehlo.add"(%v7, %v89) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v91 = "stablehlo.multiply"(%v90, %v90) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v92 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v93 = "stablehlo.reduce"(%v91, %v92) ({
    ^bb0(%rx93: tensor<f32>, %ry93: tensor<f32>):
      %rr93 = "stablehlo.add"(%rx93, %ry93) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr93) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v94 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v95 = "stablehlo.divide"(%v93, %v94) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v96 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v97 = "stablehlo.add"(%v95, %v96) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v98 = "stablehlo.rsqrt"(%v97) : (tensor<16xf32>) -> tensor<16xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v100 = "stablehlo.multiply"(%v90, %v99) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v101 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v102 = "stablehlo.broadcast_in_dim"(%v101) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v103 = "stablehlo.multiply"(%v100, %v102) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v104 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v105 = "stablehlo.dot_general"(%v103, %v104) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v106 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v107 = "stablehlo.dot_general"(%v103, %v106) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<16x32xf32>
    %v108 = "stablehlo.logistic"(%v105) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %v109 = "stablehlo.multiply"(%v105, %v108) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v110 = "stablehlo.multiply"(%v109, %v107) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %v111 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v112 = "stablehlo.dot_general"(%v110, %v111) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x16xf32>
    %v113 = "stablehlo.add"(%v90, %v112) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v114 = "stablehlo.multiply"(%v113, %v113) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v115 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v116 = "stablehlo.reduce"(%v114, %v115) ({
    ^bb0(%rx116: tensor<f32>, %ry116: tensor<f32>):
      %rr116 = "stablehlo.add"(%rx116, %ry116) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr116) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<16x16xf32>, tensor<f32>) -> tensor<16xf32>
    %v117 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<16xf32>} : () -> tensor<16xf32>
    %v118 = "stablehlo.divide"(%v116, %v117) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v119 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<16xf32>} : () -> tensor<16xf32>
    %v120 = "stablehlo.add"(%v118, %v119) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %v121 = "stablehlo.rsqrt"(%v120) : (tensor<16xf32>) -> tensor<16xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v123 = "stablehlo.multiply"(%v113, %v122) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v124 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v125 = "stablehlo.broadcast_in_dim"(%v124) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<16x16xf32>
    %v126 = "stablehlo.multiply"(%v123, %v125) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %v127 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %v128 = "stablehlo.subtract"(%a1, %v127) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v129 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v130 = "stablehlo.dynamic_slice"(%v126, %v128, %v129) {slice_sizes = array<i64: 1, 16>} : (tensor<16x16xf32>, tensor<i32>, tensor<i32>) -> tensor<1x16xf32>
    %v131 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v132 = "stablehlo.dot_general"(%v130, %v131) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v133 = "stablehlo.reshape"(%v132) : (tensor<1x40xf32>) -> tensor<40xf32>
    return %v133 : tensor<40xf32>
  }
  func.func @decode(%a0: tensor<1xi32>, %a1: tensor<1xi32>) -> (tensor<1xi32>) {
    %v0 = "stablehlo.slice"(%a1) {start_indices = array<i64: 0>, limit_indices = array<i64: 1>, strides = array<i64: 1>} : (tensor<1xi32>) -> tensor<1xi32>
    %v1 = "stablehlo.reshape"(%v0) : (tensor<1xi32>) -> tensor<i32>
    %v2 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v3 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v4 = "stablehlo.reshape"(%a0) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v5 = "stablehlo.gather"(%v3, %v4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<1x1xi32>) -> tensor<1x16xf32>
    %v6 = "stablehlo.convert"(%a1) : (tensor<1xi32>) -> tensor<1xf32>
    %v7 = "stablehlo.broadcast_in_dim"(%v2) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<1x4xf32>
    %v8 = "stablehlo.broadcast_in_dim"(%v6) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x4xf32>
    %v9 = "stablehlo.multiply"(%v8, %v7) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %v10 = "stablehlo.concatenate"(%v9, %v9) {dimension = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
    %v11 = "stablehlo.cosine"(%v10) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v12 = "stablehlo.sine"(%v10) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v13 = "stablehlo.multiply"(%v5, %v5) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v14 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v15 = "stablehlo.reduce"(%v13, %v14) ({
    ^bb0(%rx15: tensor<f32>, %ry15: tensor<f32>):
      %rr15 = "stablehlo.add"(%rx15, %ry15) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr15) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v17 = "stablehlo.divide"(%v15, %v16) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v18 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v19 = "stablehlo.add"(%v17, %v18) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v20 = "stablehlo.rsqrt"(%v19) : (tensor<1xf32>) -> tensor<1xf32>
    %v21 = "stablehlo.broadcast_in_dim"(%v20) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v22 = "stablehlo.multiply"(%v5, %v21) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v23 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v24 = "stablehlo.broadcast_in_dim"(%v23) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v25 = "stablehlo.multiply"(%v22, %v24) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v26 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v27 = "stablehlo.dot_general"(%v25, %v26) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v29 = "stablehlo.dot_general"(%v25, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v30 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v31 = "stablehlo.dot_general"(%v25, %v30) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v32 = "stablehlo.reshape"(%v27) : (tensor<1x16xf32>) -> tensor<1x2x8xf32>
    %v33 = "stablehlo.slice"(%v32) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v34 = "stablehlo.slice"(%v32) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v35 = "stablehlo.negate"(%v34) : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %v36 = "stablehlo.concatenate"(%v35, %v33) {dimension = 2 : i64} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x8xf32>
    %v37 = "stablehlo.broadcast_in_dim"(%v11) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v38 = "stablehlo.broadcast_in_dim"(%v12) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v39 = "stablehlo.multiply"(%v36, %v38) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v40 = "stablehlo.multiply"(%v32, %v37) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v41 = "stablehlo.add"(%v40, %v39) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v42 = "stablehlo.reshape"(%v29) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v43 = "stablehlo.slice"(%v42) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v44 = "stablehlo.slice"(%v42) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v45 = "stablehlo.negate"(%v44) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %v46 = "stablehlo.concatenate"(%v45, %v43) {dimension = 2 : i64} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x8xf32>
    %v47 = "stablehlo.broadcast_in_dim"(%v11) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v48 = "stablehlo.broadcast_in_dim"(%v12) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v49 = "stablehlo.multiply"(%v46, %v48) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v50 = "stablehlo.multiply"(%v42, %v47) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v51 = "stablehlo.add"(%v50, %v49) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v52 = "stablehlo.reshape"(%v31) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v53 = util.global.load @kv_k0 : tensor<1x16x1x8xf32>
    %v54 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v55 = "stablehlo.slice"(%v51) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v56 = "stablehlo.reshape"(%v55) : (tensor<1x1x8xf32>) -> tensor<1x1x1x8xf32>
    %v57 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v58 = "stablehlo.dynamic_update_slice"(%v53, %v56, %v57, %v1, %v54, %v54) : (tensor<1x16x1x8xf32>, tensor<1x1x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v58, @kv_k0 : tensor<1x16x1x8xf32>
    %v59 = util.global.load @kv_v0 : tensor<1x16x1x8xf32>
    %v60 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v61 = "stablehlo.slice"(%v52) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v62 = "stablehlo.reshape"(%v61) : (tensor<1x1x8xf32>) -> tensor<1x1x1x8xf32>
    %v63 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v64 = "stablehlo.dynamic_update_slice"(%v59, %v62, %v63, %v1, %v60, %v60) : (tensor<1x16x1x8xf32>, tensor<1x1x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v64, @kv_v0 : tensor<1x16x1x8xf32>
    %v65 = "stablehlo.reshape"(%v41) : (tensor<1x2x8xf32>) -> tensor<1x1x1x2x8xf32>
    %v66 = "stablehlo.dot_general"(%v65, %v58) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [3]>} : (tensor<1x1x1x2x8xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x1x2x16xf32>
    %v67 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x1x2x16xf32>} : () -> tensor<1x1x1x2x16xf32>
    %v68 = "stablehlo.multiply"(%v66, %v67) : (tensor<1x1x1x2x16xf32>, tensor<1x1x1x2x16xf32>) -> tensor<1x1x1x2x16xf32>
    %v69 = "stablehlo.reshape"(%a1) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x1x16xi32>
    %v71 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x1xi32>) -> tensor<1x1x16xi32>
    %v72 = "stablehlo.compare"(%v70, %v71) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x1x16xi32>, tensor<1x1x16xi32>) -> tensor<1x1x16xi1>
    %v73 = "stablehlo.broadcast_in_dim"(%v72) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x1x16xi1>) -> tensor<1x1x1x2x16xi1>
    %v74 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x1x2x16xf32>} : () -> tensor<1x1x1x2x16xf32>
    %v75 = "stablehlo.select"(%v73, %v68, %v74) : (tensor<1x1x1x2x16xi1>, tensor<1x1x1x2x16xf32>, tensor<1x1x1x2x16xf32>) -> tensor<1x1x1x2x16xf32>
    %v76 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v77 = "stablehlo.reduce"(%v75, %v76) ({
    ^bb0(%rx77: tensor<f32>, %ry77: tensor<f32>):
      %rr77 = "stablehlo.maximum"(%rx77, %ry77) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr77) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x1x2xf32>
    %v78 = "stablehlo.broadcast_in_dim"(%v77) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2x16xf32>
    %v79 = "stablehlo.subtract"(%v75, %v78) : (tensor<1x1x1x2x16xf32>, tensor<1x1x1x2x16xf32>) -> tensor<1x1x1x2x16xf32>
    %v80 = "stablehlo.exponential"(%v79) : (tensor<1x1x1x2x16xf32>) -> tensor<1x1x1x2x16xf32>
    %v81 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v82 = "stablehlo.reduce"(%v80, %v81) ({
    ^bb0(%rx82: tensor<f32>, %ry82: tensor<f32>):
      %rr82 = "stablehlo.add"(%rx82, %ry82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr82) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x1x2xf32>
    %v83 = "stablehlo.broadcast_in_dim"(%v82) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2x16xf32>
    %v84 = "stablehlo.divide"(%v80, %v83) : (tensor<1x1x1x2x16xf32>, tensor<1x1x1x2x16xf32>) -> tensor<1x1x1x2x16xf32>
    %v85 = "stablehlo.dot_general"(%v84, %v64) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [1]>} : (tensor<1x1x1x2x16xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x1x2x8xf32>
    %v86 = "stablehlo.transpose"(%v85) {permutation = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x1x1x2x8xf32>) -> tensor<1x1x1x2x8xf32>
    %v87 = "stablehlo.reshape"(%v86) : (tensor<1x1x1x2x8xf32>) -> tensor<1x16xf32>
    %v88 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v89 = "stablehlo.dot_general"(%v87, %v88) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v90 = "stablehlo.add"(%v5, %v89) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v91 = "stablehlo.multiply"(%v90, %v90) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v92 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v93 = "stablehlo.reduce"(%v91, %v92) ({
    ^bb0(%rx93: tensor<f32>, %ry93: tensor<f32>):
      %rr93 = "stablehlo.add"(%rx93, %ry93) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr93) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v94 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v95 = "stablehlo.divide"(%v93, %v94) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v96 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v97 = "stablehlo.add"(%v95, %v96) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v98 = "stablehlo.rsqrt"(%v97) : (tensor<1xf32>) -> tensor<1xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v100 = "stablehlo.multiply"(%v90, %v99) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v101 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v102 = "stablehlo.broadcast_in_dim"(%v101) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v103 = "stablehlo.multiply"(%v100, %v102) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v104 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v105 = "stablehlo.dot_general"(%v103, %v104) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v106 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v107 = "stablehlo.dot_general"(%v103, %v106) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v108 = "stablehlo.logistic"(%v105) : (tensor<1x32xf32>) -> tensor<1x32xf32>
    %v109 = "stablehlo.multiply"(%v105, %v108) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v110 = "stablehlo.multiply"(%v109, %v107) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v111 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v112 = "stablehlo.dot_general"(%v110, %v111) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x32xf32>, tensor<16x32xf32>) -> tensor<1x16xf32>
    %v113 = "stablehlo.add"(%v90, %v112) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v114 = "stablehlo.multiply"(%v113, %v113) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v115 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v116 = "stablehlo.reduce"(%v114, %v115) ({
    ^bb0(%rx116: tensor<f32>, %ry116: tensor<f32>):
      %rr116 = "stablehlo.add"(%rx116, %ry116) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr116) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v117 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v118 = "stablehlo.divide"(%v116, %v117) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v119 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v120 = "stablehlo.add"(%v118, %v119) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v121 = "stablehlo.rsqrt"(%v120) : (tensor<1xf32>) -> tensor<1xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v123 = "stablehlo.multiply"(%v113, %v122) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v124 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v125 = "stablehlo.broadcast_in_dim"(%v124) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v126 = "stablehlo.multiply"(%v123, %v125) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v127 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v128 = "stablehlo.dot_general"(%v126, %v127) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    %v129 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v130 = "stablehlo.reduce"(%v128, %v129) ({
    ^bb0(%rx130: tensor<f32>, %ry130: tensor<f32>):
      %rr130 = "stablehlo.maximum"(%rx130, %ry130) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr130) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v131 = "stablehlo.broadcast_in_dim"(%v130) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x40xf32>
    %v132 = "stablehlo.compare"(%v128, %v131) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xi1>
    %v133 = "stablehlo.constant"() {value = dense<0x42200000> : tensor<1x40xf32>} : () -> tensor<1x40xf32>
    %v134 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x40xf32>
    %v135 = "stablehlo.select"(%v132, %v134, %v133) : (tensor<1x40xi1>, tensor<1x40xf32>, tensor<1x40xf32>) -> tensor<1x40xf32>
    %v136 = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %v137 = "stablehlo.reduce"(%v135, %v136) ({
    ^bb0(%rx137: tensor<f32>, %ry137: tensor<f32>):
      %rr137 = "stablehlo.minimum"(%rx137, %ry137) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr137) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x40xf32>, tensor<f32>) -> tensor<1xf32>
    %v138 = "stablehlo.convert"(%v137) : (tensor<1xf32>) -> tensor<1xi32>
    return %v138 : tensor<1xi32>
  }
  func.func @decode_logits(%a0: tensor<1xi32>, %a1: tensor<1xi32>) -> (tensor<1x40xf32>) {
    %v0 = "stablehlo.slice"(%a1) {start_indices = array<i64: 0>, limit_indices = array<i64: 1>, strides = array<i64: 1>} : (tensor<1xi32>) -> tensor<1xi32>
    %v1 = "stablehlo.reshape"(%v0) : (tensor<1xi32>) -> tensor<i32>
    %v2 = "stablehlo.constant"() {value = dense<"0x0000803FCDCCCC3D0AD7233C6F12833A"> : tensor<4xf32>} : () -> tensor<4xf32>
    %v3 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v4 = "stablehlo.reshape"(%a0) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v5 = "stablehlo.gather"(%v3, %v4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 16>} : (tensor<40x16xf32>, tensor<1x1xi32>) -> tensor<1x16xf32>
    %v6 = "stablehlo.convert"(%a1) : (tensor<1xi32>) -> tensor<1xf32>
    %v7 = "stablehlo.broadcast_in_dim"(%v2) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<1x4xf32>
    %v8 = "stablehlo.broadcast_in_dim"(%v6) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x4xf32>
    %v9 = "stablehlo.multiply"(%v8, %v7) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %v10 = "stablehlo.concatenate"(%v9, %v9) {dimension = 1 : i64} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
    %v11 = "stablehlo.cosine"(%v10) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v12 = "stablehlo.sine"(%v10) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %v13 = "stablehlo.multiply"(%v5, %v5) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v14 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v15 = "stablehlo.reduce"(%v13, %v14) ({
    ^bb0(%rx15: tensor<f32>, %ry15: tensor<f32>):
      %rr15 = "stablehlo.add"(%rx15, %ry15) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr15) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v16 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v17 = "stablehlo.divide"(%v15, %v16) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v18 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v19 = "stablehlo.add"(%v17, %v18) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v20 = "stablehlo.rsqrt"(%v19) : (tensor<1xf32>) -> tensor<1xf32>
    %v21 = "stablehlo.broadcast_in_dim"(%v20) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v22 = "stablehlo.multiply"(%v5, %v21) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v23 = util.global.load @w_model_layers_0_input_layernorm_weight : tensor<16xf32>
    %v24 = "stablehlo.broadcast_in_dim"(%v23) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v25 = "stablehlo.multiply"(%v22, %v24) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v26 = util.global.load @w_model_layers_0_self_attn_q_proj_weight : tensor<16x16xf32>
    %v27 = "stablehlo.dot_general"(%v25, %v26) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v28 = util.global.load @w_model_layers_0_self_attn_k_proj_weight : tensor<8x16xf32>
    %v29 = "stablehlo.dot_general"(%v25, %v28) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v30 = util.global.load @w_model_layers_0_self_attn_v_proj_weight : tensor<8x16xf32>
    %v31 = "stablehlo.dot_general"(%v25, %v30) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<8x16xf32>) -> tensor<1x8xf32>
    %v32 = "stablehlo.reshape"(%v27) : (tensor<1x16xf32>) -> tensor<1x2x8xf32>
    %v33 = "stablehlo.slice"(%v32) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 2, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v34 = "stablehlo.slice"(%v32) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 2, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
    %v35 = "stablehlo.negate"(%v34) : (tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
    %v36 = "stablehlo.concatenate"(%v35, %v33) {dimension = 2 : i64} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> tensor<1x2x8xf32>
    %v37 = "stablehlo.broadcast_in_dim"(%v11) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v38 = "stablehlo.broadcast_in_dim"(%v12) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %v39 = "stablehlo.multiply"(%v36, %v38) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v40 = "stablehlo.multiply"(%v32, %v37) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v41 = "stablehlo.add"(%v40, %v39) : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
    %v42 = "stablehlo.reshape"(%v29) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v43 = "stablehlo.slice"(%v42) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 4>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v44 = "stablehlo.slice"(%v42) {start_indices = array<i64: 0, 0, 4>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x4xf32>
    %v45 = "stablehlo.negate"(%v44) : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %v46 = "stablehlo.concatenate"(%v45, %v43) {dimension = 2 : i64} : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x8xf32>
    %v47 = "stablehlo.broadcast_in_dim"(%v11) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v48 = "stablehlo.broadcast_in_dim"(%v12) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v49 = "stablehlo.multiply"(%v46, %v48) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v50 = "stablehlo.multiply"(%v42, %v47) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v51 = "stablehlo.add"(%v50, %v49) : (tensor<1x1x8xf32>, tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v52 = "stablehlo.reshape"(%v31) : (tensor<1x8xf32>) -> tensor<1x1x8xf32>
    %v53 = util.global.load @kv_k0 : tensor<1x16x1x8xf32>
    %v54 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v55 = "stablehlo.slice"(%v51) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v56 = "stablehlo.reshape"(%v55) : (tensor<1x1x8xf32>) -> tensor<1x1x1x8xf32>
    %v57 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v58 = "stablehlo.dynamic_update_slice"(%v53, %v56, %v57, %v1, %v54, %v54) : (tensor<1x16x1x8xf32>, tensor<1x1x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v58, @kv_k0 : tensor<1x16x1x8xf32>
    %v59 = util.global.load @kv_v0 : tensor<1x16x1x8xf32>
    %v60 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v61 = "stablehlo.slice"(%v52) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 8>, strides = array<i64: 1, 1, 1>} : (tensor<1x1x8xf32>) -> tensor<1x1x8xf32>
    %v62 = "stablehlo.reshape"(%v61) : (tensor<1x1x8xf32>) -> tensor<1x1x1x8xf32>
    %v63 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v64 = "stablehlo.dynamic_update_slice"(%v59, %v62, %v63, %v1, %v60, %v60) : (tensor<1x16x1x8xf32>, tensor<1x1x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v64, @kv_v0 : tensor<1x16x1x8xf32>
    %v65 = "stablehlo.reshape"(%v41) : (tensor<1x2x8xf32>) -> tensor<1x1x1x2x8xf32>
    %v66 = "stablehlo.dot_general"(%v65, %v58) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [3]>} : (tensor<1x1x1x2x8xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x1x2x16xf32>
    %v67 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x1x2x16xf32>} : () -> tensor<1x1x1x2x16xf32>
    %v68 = "stablehlo.multiply"(%v66, %v67) : (tensor<1x1x1x2x16xf32>, tensor<1x1x1x2x16xf32>) -> tensor<1x1x1x2x16xf32>
    %v69 = "stablehlo.reshape"(%a1) : (tensor<1xi32>) -> tensor<1x1xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x1x16xi32>
    %v71 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x1xi32>) -> tensor<1x1x16xi32>
    %v72 = "stablehlo.compare"(%v70, %v71) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x1x16xi32>, tensor<1x1x16xi32>) -> tensor<1x1x16xi1>
    %v73 = "stablehlo.broadcast_in_dim"(%v72) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x1x16xi1>) -> tensor<1x1x1x2x16xi1>
    %v74 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x1x2x16xf32>} : () -> tensor<1x1x1x2x16xf32>
    %v75 = "stablehlo.select"(%v73, %v68, %v74) : (tensor<1x1x1x2x16xi1>, tensor<1x1x1x2x16xf32>, tensor<1x1x1x2x16xf32>) -> tensor<1x1x1x2x16xf32>
    %v76 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v77 = "stablehlo.reduce"(%v75, %v76) ({
    ^bb0(%rx77: tensor<f32>, %ry77: tensor<f32>):
      %rr77 = "stablehlo.maximum"(%rx77, %ry77) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr77) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x1x2xf32>
    %v78 = "stablehlo.broadcast_in_dim"(%v77) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2x16xf32>
    %v79 = "stablehlo.subtract"(%v75, %v78) : (tensor<1x1x1x2x16xf32>, tensor<1x1x1x2x16xf32>) -> tensor<1x1x1x2x16xf32>
    %v80 = "stablehlo.exponential"(%v79) : (tensor<1x1x1x2x16xf32>) -> tensor<1x1x1x2x16xf32>
    %v81 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v82 = "stablehlo.reduce"(%v80, %v81) ({
    ^bb0(%rx82: tensor<f32>, %ry82: tensor<f32>):
      %rr82 = "stablehlo.add"(%rx82, %ry82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr82) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x1x2x16xf32>, tensor<f32>) -> tensor<1x1x1x2xf32>
    %v83 = "stablehlo.broadcast_in_dim"(%v82) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2x16xf32>
    %v84 = "stablehlo.divide"(%v80, %v83) : (tensor<1x1x1x2x16xf32>, tensor<1x1x1x2x16xf32>) -> tensor<1x1x1x2x16xf32>
    %v85 = "stablehlo.dot_general"(%v84, %v64) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [1]>} : (tensor<1x1x1x2x16xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x1x2x8xf32>
    %v86 = "stablehlo.transpose"(%v85) {permutation = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x1x1x2x8xf32>) -> tensor<1x1x1x2x8xf32>
    %v87 = "stablehlo.reshape"(%v86) : (tensor<1x1x1x2x8xf32>) -> tensor<1x16xf32>
    %v88 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v89 = "stablehlo.dot_general"(%v87, %v88) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32>
    %v90 = "stablehlo.add"(%v5, %v89) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v91 = "stablehlo.multiply"(%v90, %v90) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v92 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v93 = "stablehlo.reduce"(%v91, %v92) ({
    ^bb0(%rx93: tensor<f32>, %ry93: tensor<f32>):
      %rr93 = "stablehlo.add"(%rx93, %ry93) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr93) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v94 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v95 = "stablehlo.divide"(%v93, %v94) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v96 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v97 = "stablehlo.add"(%v95, %v96) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v98 = "stablehlo.rsqrt"(%v97) : (tensor<1xf32>) -> tensor<1xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v100 = "stablehlo.multiply"(%v90, %v99) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v101 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v102 = "stablehlo.broadcast_in_dim"(%v101) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v103 = "stablehlo.multiply"(%v100, %v102) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v104 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v105 = "stablehlo.dot_general"(%v103, %v104) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v106 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v107 = "stablehlo.dot_general"(%v103, %v106) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<32x16xf32>) -> tensor<1x32xf32>
    %v108 = "stablehlo.logistic"(%v105) : (tensor<1x32xf32>) -> tensor<1x32xf32>
    %v109 = "stablehlo.multiply"(%v105, %v108) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v110 = "stablehlo.multiply"(%v109, %v107) : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
    %v111 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v112 = "stablehlo.dot_general"(%v110, %v111) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x32xf32>, tensor<16x32xf32>) -> tensor<1x16xf32>
    %v113 = "stablehlo.add"(%v90, %v112) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v114 = "stablehlo.multiply"(%v113, %v113) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v115 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v116 = "stablehlo.reduce"(%v114, %v115) ({
    ^bb0(%rx116: tensor<f32>, %ry116: tensor<f32>):
      %rr116 = "stablehlo.add"(%rx116, %ry116) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr116) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<1x16xf32>, tensor<f32>) -> tensor<1xf32>
    %v117 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<1xf32>} : () -> tensor<1xf32>
    %v118 = "stablehlo.divide"(%v116, %v117) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v119 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<1xf32>} : () -> tensor<1xf32>
    %v120 = "stablehlo.add"(%v118, %v119) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %v121 = "stablehlo.rsqrt"(%v120) : (tensor<1xf32>) -> tensor<1xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf32>) -> tensor<1x16xf32>
    %v123 = "stablehlo.multiply"(%v113, %v122) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v124 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v125 = "stablehlo.broadcast_in_dim"(%v124) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<1x16xf32>
    %v126 = "stablehlo.multiply"(%v123, %v125) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %v127 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v128 = "stablehlo.dot_general"(%v126, %v127) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<1x16xf32>, tensor<40x16xf32>) -> tensor<1x40xf32>
    return %v128 : tensor<1x40xf32>
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
    %v55 = util.global.load @kv_k0 : tensor<1x16x1x8xf32>
    %v56 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v57 = "stablehlo.reshape"(%v53) : (tensor<8x1x8xf32>) -> tensor<1x8x1x8xf32>
    %v58 = "stablehlo.dynamic_update_slice"(%v55, %v57, %v0, %v56, %v56, %v56) : (tensor<1x16x1x8xf32>, tensor<1x8x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v58, @kv_k0 : tensor<1x16x1x8xf32>
    %v59 = "stablehlo.dynamic_slice"(%v58, %v0, %v56, %v56, %v56) {slice_sizes = array<i64: 1, 16, 1, 8>} : (tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    %v60 = util.global.load @kv_v0 : tensor<1x16x1x8xf32>
    %v61 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %v62 = "stablehlo.reshape"(%v54) : (tensor<8x1x8xf32>) -> tensor<1x8x1x8xf32>
    %v63 = "stablehlo.dynamic_update_slice"(%v60, %v62, %v0, %v61, %v61, %v61) : (tensor<1x16x1x8xf32>, tensor<1x8x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    util.global.store %v63, @kv_v0 : tensor<1x16x1x8xf32>
    %v64 = "stablehlo.dynamic_slice"(%v63, %v0, %v61, %v61, %v61) {slice_sizes = array<i64: 1, 16, 1, 8>} : (tensor<1x16x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x1x8xf32>
    %v65 = "stablehlo.reshape"(%v43) : (tensor<8x2x8xf32>) -> tensor<1x8x1x2x8xf32>
    %v66 = "stablehlo.dot_general"(%v65, %v59) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [3]>} : (tensor<1x8x1x2x8xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x8x2x16xf32>
    %v67 = "stablehlo.constant"() {value = dense<0x3EB504F3> : tensor<1x1x8x2x16xf32>} : () -> tensor<1x1x8x2x16xf32>
    %v68 = "stablehlo.multiply"(%v66, %v67) : (tensor<1x1x8x2x16xf32>, tensor<1x1x8x2x16xf32>) -> tensor<1x1x8x2x16xf32>
    %v69 = "stablehlo.reshape"(%v3) : (tensor<8xi32>) -> tensor<1x8xi32>
    %v70 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x8x16xi32>
    %v71 = "stablehlo.broadcast_in_dim"(%v69) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x8xi32>) -> tensor<1x8x16xi32>
    %v72 = "stablehlo.compare"(%v70, %v71) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x8x16xi32>, tensor<1x8x16xi32>) -> tensor<1x8x16xi1>
    %v73 = "stablehlo.broadcast_in_dim"(%v72) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x8x16xi1>) -> tensor<1x1x8x2x16xi1>
    %v74 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<1x1x8x2x16xf32>} : () -> tensor<1x1x8x2x16xf32>
    %v75 = "stablehlo.select"(%v73, %v68, %v74) : (tensor<1x1x8x2x16xi1>, tensor<1x1x8x2x16xf32>, tensor<1x1x8x2x16xf32>) -> tensor<1x1x8x2x16xf32>
    %v76 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %v77 = "stablehlo.reduce"(%v75, %v76) ({
    ^bb0(%rx77: tensor<f32>, %ry77: tensor<f32>):
      %rr77 = "stablehlo.maximum"(%rx77, %ry77) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr77) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x8x2x16xf32>, tensor<f32>) -> tensor<1x1x8x2xf32>
    %v78 = "stablehlo.broadcast_in_dim"(%v77) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x8x2xf32>) -> tensor<1x1x8x2x16xf32>
    %v79 = "stablehlo.subtract"(%v75, %v78) : (tensor<1x1x8x2x16xf32>, tensor<1x1x8x2x16xf32>) -> tensor<1x1x8x2x16xf32>
    %v80 = "stablehlo.exponential"(%v79) : (tensor<1x1x8x2x16xf32>) -> tensor<1x1x8x2x16xf32>
    %v81 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v82 = "stablehlo.reduce"(%v80, %v81) ({
    ^bb0(%rx82: tensor<f32>, %ry82: tensor<f32>):
      %rr82 = "stablehlo.add"(%rx82, %ry82) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr82) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 4>} : (tensor<1x1x8x2x16xf32>, tensor<f32>) -> tensor<1x1x8x2xf32>
    %v83 = "stablehlo.broadcast_in_dim"(%v82) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x8x2xf32>) -> tensor<1x1x8x2x16xf32>
    %v84 = "stablehlo.divide"(%v80, %v83) : (tensor<1x1x8x2x16xf32>, tensor<1x1x8x2x16xf32>) -> tensor<1x1x8x2x16xf32>
    %v85 = "stablehlo.dot_general"(%v84, %v64) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [4], rhs_contracting_dimensions = [1]>} : (tensor<1x1x8x2x16xf32>, tensor<1x16x1x8xf32>) -> tensor<1x1x8x2x8xf32>
    %v86 = "stablehlo.transpose"(%v85) {permutation = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x1x8x2x8xf32>) -> tensor<1x8x1x2x8xf32>
    %v87 = "stablehlo.reshape"(%v86) : (tensor<1x8x1x2x8xf32>) -> tensor<8x16xf32>
    %v88 = util.global.load @w_model_layers_0_self_attn_o_proj_weight : tensor<16x16xf32>
    %v89 = "stablehlo.dot_general"(%v87, %v88) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %v90 = "stablehlo.add"(%v7, %v89) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v91 = "stablehlo.multiply"(%v90, %v90) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v92 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v93 = "stablehlo.reduce"(%v91, %v92) ({
    ^bb0(%rx93: tensor<f32>, %ry93: tensor<f32>):
      %rr93 = "stablehlo.add"(%rx93, %ry93) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr93) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %v94 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<8xf32>} : () -> tensor<8xf32>
    %v95 = "stablehlo.divide"(%v93, %v94) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v96 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<8xf32>} : () -> tensor<8xf32>
    %v97 = "stablehlo.add"(%v95, %v96) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v98 = "stablehlo.rsqrt"(%v97) : (tensor<8xf32>) -> tensor<8xf32>
    %v99 = "stablehlo.broadcast_in_dim"(%v98) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x16xf32>
    %v100 = "stablehlo.multiply"(%v90, %v99) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v101 = util.global.load @w_model_layers_0_post_attention_layernorm_weight : tensor<16xf32>
    %v102 = "stablehlo.broadcast_in_dim"(%v101) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<8x16xf32>
    %v103 = "stablehlo.multiply"(%v100, %v102) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v104 = util.global.load @w_model_layers_0_mlp_gate_proj_weight : tensor<32x16xf32>
    %v105 = "stablehlo.dot_general"(%v103, %v104) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %v106 = util.global.load @w_model_layers_0_mlp_up_proj_weight : tensor<32x16xf32>
    %v107 = "stablehlo.dot_general"(%v103, %v106) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
    %v108 = "stablehlo.logistic"(%v105) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %v109 = "stablehlo.multiply"(%v105, %v108) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %v110 = "stablehlo.multiply"(%v109, %v107) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %v111 = util.global.load @w_model_layers_0_mlp_down_proj_weight : tensor<16x32xf32>
    %v112 = "stablehlo.dot_general"(%v110, %v111) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x32xf32>, tensor<16x32xf32>) -> tensor<8x16xf32>
    %v113 = "stablehlo.add"(%v90, %v112) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v114 = "stablehlo.multiply"(%v113, %v113) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v115 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %v116 = "stablehlo.reduce"(%v114, %v115) ({
    ^bb0(%rx116: tensor<f32>, %ry116: tensor<f32>):
      %rr116 = "stablehlo.add"(%rx116, %ry116) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%rr116) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %v117 = "stablehlo.constant"() {value = dense<0x41800000> : tensor<8xf32>} : () -> tensor<8xf32>
    %v118 = "stablehlo.divide"(%v116, %v117) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v119 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<8xf32>} : () -> tensor<8xf32>
    %v120 = "stablehlo.add"(%v118, %v119) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %v121 = "stablehlo.rsqrt"(%v120) : (tensor<8xf32>) -> tensor<8xf32>
    %v122 = "stablehlo.broadcast_in_dim"(%v121) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x16xf32>
    %v123 = "stablehlo.multiply"(%v113, %v122) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v124 = util.global.load @w_model_norm_weight : tensor<16xf32>
    %v125 = "stablehlo.broadcast_in_dim"(%v124) {broadcast_dimensions = array<i64: 1>} : (tensor<16xf32>) -> tensor<8x16xf32>
    %v126 = "stablehlo.multiply"(%v123, %v125) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %v127 = util.global.load @w_model_embed_tokens_weight : tensor<40x16xf32>
    %v128 = "stablehlo.dot_general"(%v126, %v127) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>} : (tensor<8x16xf32>, tensor<40x16xf32>) -> tensor<8x40xf32>
    return %v128 : tensor<8x40xf32>
  }
}
