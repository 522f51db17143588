# Batched-decode weight products: 16 products x [M, K] . W_l [N, K]^T with bf16 weights, in several forms.
import sys
form, M, prec = sys.argv[1], int(sys.argv[2]), sys.argv[3]
import os
L, N, K = 16, int(os.environ.get("N", "8192")), int(os.environ.get("K", "2048"))
o = []; a = o.append
res = ", ".join([f"tensor<{M}x{N}xf32>"] * L)
a(f"func.func @mm(%x: tensor<{M}x{K}xf32>, %W: tensor<{L}x{N}x{K}xbf16>) -> ({res}) {{")
xin = "%x"
if prec != "f32":
    a(f"  %xc = stablehlo.convert %x : (tensor<{M}x{K}xf32>) -> tensor<{M}x{K}x{prec}>"); xin = "%xc"
outs = []
for l in range(L):
    p = f"%l{l}_"
    a(f"  {p}w3 = stablehlo.slice %W [{l}:{l+1}, 0:{N}, 0:{K}] : (tensor<{L}x{N}x{K}xbf16>) -> tensor<1x{N}x{K}xbf16>")
    a(f"  {p}w = stablehlo.reshape {p}w3 : (tensor<1x{N}x{K}xbf16>) -> tensor<{N}x{K}xbf16>")
    w = f"{p}w"
    if prec != "bf16":
        a(f"  {p}wc = stablehlo.convert {p}w : (tensor<{N}x{K}xbf16>) -> tensor<{N}x{K}x{prec}>"); w = f"{p}wc"
    if form == "A":
        a(f"  {p}o = stablehlo.dot_general {xin}, {w}, contracting_dims = [1] x [1] : (tensor<{M}x{K}x{prec}>, tensor<{N}x{K}x{prec}>) -> tensor<{M}x{N}xf32>")
    elif form == "T":
        a(f"  {p}oT = stablehlo.dot_general {w}, {xin}, contracting_dims = [1] x [1] : (tensor<{N}x{K}x{prec}>, tensor<{M}x{K}x{prec}>) -> tensor<{N}x{M}xf32>")
        a(f"  {p}o = stablehlo.transpose {p}oT, dims = [1, 0] : (tensor<{N}x{M}xf32>) -> tensor<{M}x{N}xf32>")
    elif form == "H":  # halves of 4 rows
        h = M // 2
        parts = []
        for i in range(2):
            a(f"  {p}x{i} = stablehlo.slice {xin} [{i*h}:{(i+1)*h}, 0:{K}] : (tensor<{M}x{K}x{prec}>) -> tensor<{h}x{K}x{prec}>")
            a(f"  {p}o{i} = stablehlo.dot_general {p}x{i}, {w}, contracting_dims = [1] x [1] : (tensor<{h}x{K}x{prec}>, tensor<{N}x{K}x{prec}>) -> tensor<{h}x{N}xf32>")
            parts.append(f"{p}o{i}")
        a(f"  {p}o = stablehlo.concatenate {parts[0]}, {parts[1]}, dim = 0 : (tensor<{h}x{N}xf32>, tensor<{h}x{N}xf32>) -> tensor<{M}x{N}xf32>")
    outs.append(f"{p}o")
a(f"  return {', '.join(outs)} : {res}")
a("}")
print("\n".join(o))
