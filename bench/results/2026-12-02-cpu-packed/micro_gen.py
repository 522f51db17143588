# matvec forms for the CPU: f32 weight [N,K]; i4 [N,B,G] dequant multiply-reduce; i8-held 4-bit [N,B,G]
import sys
N, K, G = 1536, 576, 32
B = K // G
def hdr(name, t):
    return f'  util.global private @{name} = #flow.parameter.named<"model"::"{name}"> : {t}'
L = ["module @m {",
     hdr("wf", f"tensor<{N}x{K}xf32>"), hdr("w4", f"tensor<{N}x{B}x{G}xi4>"), hdr("w8", f"tensor<{N}x{B}x{G}xi8>"),
     hdr("d", f"tensor<{N}x{B}xf32>"), hdr("m", f"tensor<{N}x{B}xf32>")]
L += [f"  func.func @f32(%x: tensor<1x{K}xf32>) -> tensor<1x{N}xf32> {{",
      f"    %w = util.global.load @wf : tensor<{N}x{K}xf32>",
      f"    %r = stablehlo.dot_general %x, %w, contracting_dims = [1] x [1] : (tensor<1x{K}xf32>, tensor<{N}x{K}xf32>) -> tensor<1x{N}xf32>",
      f"    return %r : tensor<1x{N}xf32>", "  }"]
for nm, ty in (("q4", "i4"), ("q8", "i8")):
    W = f"{N}x{B}x{G}"; X = f"1x{N}x{B}x{G}"
    L += [f"  func.func @{nm}(%x: tensor<1x{K}xf32>) -> tensor<1x{N}xf32> {{",
          f"    %q = util.global.load @w{ty[1]} : tensor<{W}x{ty}>",
          f"    %d = util.global.load @d : tensor<{N}x{B}xf32>",
          f"    %m = util.global.load @m : tensor<{N}x{B}xf32>",
          f"    %qf = stablehlo.convert %q : (tensor<{W}x{ty}>) -> tensor<{W}xf32>",
          f"    %db = stablehlo.broadcast_in_dim %d, dims = [0, 1] : (tensor<{N}x{B}xf32>) -> tensor<{W}xf32>",
          f"    %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<{N}x{B}xf32>) -> tensor<{W}xf32>",
          f"    %p = stablehlo.multiply %qf, %db : tensor<{W}xf32>",
          f"    %w = stablehlo.add %p, %mb : tensor<{W}xf32>",
          f"    %x3 = stablehlo.reshape %x : (tensor<1x{K}xf32>) -> tensor<1x{B}x{G}xf32>",
          f"    %xb = stablehlo.broadcast_in_dim %x3, dims = [0, 2, 3] : (tensor<1x{B}x{G}xf32>) -> tensor<{X}xf32>",
          f"    %wb = stablehlo.broadcast_in_dim %w, dims = [1, 2, 3] : (tensor<{W}xf32>) -> tensor<{X}xf32>",
          f"    %pr = stablehlo.multiply %xb, %wb : tensor<{X}xf32>",
          f"    %z = stablehlo.constant dense<0.0> : tensor<f32>",
          f"    %r = stablehlo.reduce(%pr init: %z) applies stablehlo.add across dimensions = [2, 3] : (tensor<{X}xf32>, tensor<f32>) -> tensor<1x{N}xf32>",
          f"    return %r : tensor<1x{N}xf32>", "  }"]
L += ["}"]
open("m.mlir", "w").write("\n".join(L))
# parameters
import struct, json, random
random.seed(0)
ts = {"wf": ("F32", [N, K], 4*N*K), "w4": ("U8", [N, K//2], N*K//2), "w8": ("I8", [N, K], N*K), "d": ("F32", [N, B], 4*N*B), "m": ("F32", [N, B], 4*N*B)}
hdr_, off = {}, 0
for k, (dt, sh, nb) in ts.items():
    hdr_[k] = {"dtype": dt, "shape": sh, "data_offsets": [off, off + nb]}; off += nb
h = json.dumps(hdr_).encode(); h += b" " * ((8 - len(h) % 8) % 8)
with open("p.safetensors", "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h)
    f.write(bytes(random.getrandbits(8) & 0x77 for _ in range(off)))  # small values everywhere
