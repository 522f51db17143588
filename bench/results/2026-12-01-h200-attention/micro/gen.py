# Decode-attention micro-benchmarks: L chained layers of one query step (KV heads 8, group 4, D 64) over a
# W-row window, in several forms of the two contractions, for iree-benchmark-module.
import sys
import os
L, KV, G, D = 16, int(os.environ.get("KV", "8")), 4, 64
def gen(qk, pv, dt, W):
    t = dt  # storage type of q/K/V and p
    o = []
    a = o.append
    vshape = f"{D}x{W}" if pv in ("SV", "V") else f"{W}x{D}"
    # (2026-12-03) K stored transposed [KV, D, W] for the qk forms T, U, Q
    kt = qk in ("T", "U", "Q")
    kshape = f"{D}x{W}" if kt else f"{W}x{D}"
    a(f"func.func @att(%q0: tensor<{KV}x{G}x{D}xf32>, %K: tensor<{L}x{KV}x{kshape}x{t}>, %V: tensor<{L}x{KV}x{vshape}x{t}>, %pos: tensor<i32>) -> tensor<{KV}x{G}x{D}xf32> {{")
    a(f"  %scale = stablehlo.constant dense<0.125> : tensor<{KV}x{G}x{W}xf32>")
    a(f"  %ninf = stablehlo.constant dense<0xFF800000> : tensor<{KV}x{G}x{W}xf32>")
    a(f"  %iota = stablehlo.iota dim = 2 : tensor<{KV}x{G}x{W}xi32>")
    a(f"  %posb = stablehlo.broadcast_in_dim %pos, dims = [] : (tensor<i32>) -> tensor<{KV}x{G}x{W}xi32>")
    a(f"  %vis = stablehlo.compare LE, %iota, %posb : (tensor<{KV}x{G}x{W}xi32>, tensor<{KV}x{G}x{W}xi32>) -> tensor<{KV}x{G}x{W}xi1>")
    a(f"  %z = stablehlo.constant dense<0.0> : tensor<f32>")
    a(f"  %mi = stablehlo.constant dense<0xFF800000> : tensor<f32>")
    prev = "%q0"
    for l in range(L):
        p = f"l{l}_"
        if kt:
            a(f"  %{p}k4 = stablehlo.slice %K [{l}:{l+1}, 0:{KV}, 0:{D}, 0:{W}] : (tensor<{L}x{KV}x{D}x{W}x{t}>) -> tensor<1x{KV}x{D}x{W}x{t}>")
            a(f"  %{p}k = stablehlo.reshape %{p}k4 : (tensor<1x{KV}x{D}x{W}x{t}>) -> tensor<{KV}x{D}x{W}x{t}>")
        else:
            a(f"  %{p}k4 = stablehlo.slice %K [{l}:{l+1}, 0:{KV}, 0:{W}, 0:{D}] : (tensor<{L}x{KV}x{W}x{D}x{t}>) -> tensor<1x{KV}x{W}x{D}x{t}>")
            a(f"  %{p}k = stablehlo.reshape %{p}k4 : (tensor<1x{KV}x{W}x{D}x{t}>) -> tensor<{KV}x{W}x{D}x{t}>")
        if pv in ("SV", "V"):
            a(f"  %{p}v4 = stablehlo.slice %V [{l}:{l+1}, 0:{KV}, 0:{D}, 0:{W}] : (tensor<{L}x{KV}x{D}x{W}x{t}>) -> tensor<1x{KV}x{D}x{W}x{t}>")
            a(f"  %{p}v = stablehlo.reshape %{p}v4 : (tensor<1x{KV}x{D}x{W}x{t}>) -> tensor<{KV}x{D}x{W}x{t}>")
        else:
            a(f"  %{p}v4 = stablehlo.slice %V [{l}:{l+1}, 0:{KV}, 0:{W}, 0:{D}] : (tensor<{L}x{KV}x{W}x{D}x{t}>) -> tensor<1x{KV}x{W}x{D}x{t}>")
            a(f"  %{p}v = stablehlo.reshape %{p}v4 : (tensor<1x{KV}x{W}x{D}x{t}>) -> tensor<{KV}x{W}x{D}x{t}>")
        q = prev
        if t != "f32":
            a(f"  %{p}qc = stablehlo.convert {prev} : (tensor<{KV}x{G}x{D}xf32>) -> tensor<{KV}x{G}x{D}x{t}>"); q = f"%{p}qc"
        # scores [KV, G, W] f32
        if qk == "A":
            a(f"  %{p}s0 = stablehlo.dot_general {q}, %{p}k, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<{KV}x{G}x{D}x{t}>, tensor<{KV}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{W}xf32>")
            a(f"  %{p}s1 = stablehlo.multiply %{p}s0, %scale : tensor<{KV}x{G}x{W}xf32>")
        elif qk == "B":
            a(f"  %{p}sT = stablehlo.dot_general %{p}k, {q}, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<{KV}x{W}x{D}x{t}>, tensor<{KV}x{G}x{D}x{t}>) -> tensor<{KV}x{W}x{G}xf32>")
            a(f"  %{p}s0 = stablehlo.transpose %{p}sT, dims = [0, 2, 1] : (tensor<{KV}x{W}x{G}xf32>) -> tensor<{KV}x{G}x{W}xf32>")
            a(f"  %{p}s1 = stablehlo.multiply %{p}s0, %scale : tensor<{KV}x{G}x{W}xf32>")
        elif qk == "X":  # K repeated per query head of the group, so the group is a batch dimension
            a(f"  %{p}kr = stablehlo.broadcast_in_dim %{p}k, dims = [0, 2, 3] : (tensor<{KV}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{W}x{D}x{t}>")
            a(f"  %{p}s0 = stablehlo.dot_general {q}, %{p}kr, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [3] : (tensor<{KV}x{G}x{D}x{t}>, tensor<{KV}x{G}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{W}xf32>")
            a(f"  %{p}s1 = stablehlo.multiply %{p}s0, %scale : tensor<{KV}x{G}x{W}xf32>")
        elif qk == "P":  # (2026-12-03) the group's query heads padded with zero rows to PAD (env, 8): M > 4;
            # barriers keep IREE from folding the pad and the slice back into an M = 4 product
            PAD = int(os.environ.get("PAD", "8"))
            a(f"  %{p}zq = stablehlo.constant dense<0.0> : tensor<{t}>")
            a(f"  %{p}qp = stablehlo.pad {q}, %{p}zq, low = [0, 0, 0], high = [0, {PAD - G}, 0], interior = [0, 0, 0] : (tensor<{KV}x{G}x{D}x{t}>, tensor<{t}>) -> tensor<{KV}x{PAD}x{D}x{t}>")
            a(f"  %{p}qpb = stablehlo.optimization_barrier %{p}qp : tensor<{KV}x{PAD}x{D}x{t}>")
            a(f"  %{p}sp0 = stablehlo.dot_general %{p}qpb, %{p}k, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<{KV}x{PAD}x{D}x{t}>, tensor<{KV}x{W}x{D}x{t}>) -> tensor<{KV}x{PAD}x{W}xf32>")
            a(f"  %{p}sp = stablehlo.optimization_barrier %{p}sp0 : tensor<{KV}x{PAD}x{W}xf32>")
            a(f"  %{p}s0 = stablehlo.slice %{p}sp [0:{KV}, 0:{G}, 0:{W}] : (tensor<{KV}x{PAD}x{W}xf32>) -> tensor<{KV}x{G}x{W}xf32>")
            a(f"  %{p}s1 = stablehlo.multiply %{p}s0, %scale : tensor<{KV}x{G}x{W}xf32>")
        elif qk == "T":  # (2026-12-03) grouped, K transposed: the reduction over D is K's outer dimension
            a(f"  %{p}s0 = stablehlo.dot_general {q}, %{p}k, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<{KV}x{G}x{D}x{t}>, tensor<{KV}x{D}x{W}x{t}>) -> tensor<{KV}x{G}x{W}xf32>")
            a(f"  %{p}s1 = stablehlo.multiply %{p}s0, %scale : tensor<{KV}x{G}x{W}xf32>")
        elif qk == "Q":  # (2026-12-03) K transposed, products elementwise, then a reduction over D (not innermost)
            a(f"  %{p}qb = stablehlo.broadcast_in_dim {q}, dims = [0, 1, 2] : (tensor<{KV}x{G}x{D}x{t}>) -> tensor<{KV}x{G}x{D}x{W}x{t}>")
            a(f"  %{p}kb = stablehlo.broadcast_in_dim %{p}k, dims = [0, 2, 3] : (tensor<{KV}x{D}x{W}x{t}>) -> tensor<{KV}x{G}x{D}x{W}x{t}>")
            qf, kf = f"%{p}qb", f"%{p}kb"
            if t != "f32":
                a(f"  %{p}qf = stablehlo.convert %{p}qb : (tensor<{KV}x{G}x{D}x{W}x{t}>) -> tensor<{KV}x{G}x{D}x{W}xf32>")
                a(f"  %{p}kf = stablehlo.convert %{p}kb : (tensor<{KV}x{G}x{D}x{W}x{t}>) -> tensor<{KV}x{G}x{D}x{W}xf32>")
                qf, kf = f"%{p}qf", f"%{p}kf"
            a(f"  %{p}m = stablehlo.multiply {qf}, {kf} : tensor<{KV}x{G}x{D}x{W}xf32>")
            a(f"  %{p}s0 = stablehlo.reduce(%{p}m init: %z) applies stablehlo.add across dimensions = [2] : (tensor<{KV}x{G}x{D}x{W}xf32>, tensor<f32>) -> tensor<{KV}x{G}x{W}xf32>")
            a(f"  %{p}s1 = stablehlo.multiply %{p}s0, %scale : tensor<{KV}x{G}x{W}xf32>")
        elif qk in ("S", "U"):  # one batched matvec per query head of the group; U (2026-12-03): a
            # vector-matrix product per query head over K transposed
            parts = []
            for g in range(G):
                a(f"  %{p}q{g}3 = stablehlo.slice {q} [0:{KV}, {g}:{g+1}, 0:{D}] : (tensor<{KV}x{G}x{D}x{t}>) -> tensor<{KV}x1x{D}x{t}>")
                a(f"  %{p}q{g} = stablehlo.reshape %{p}q{g}3 : (tensor<{KV}x1x{D}x{t}>) -> tensor<{KV}x{D}x{t}>")
                if qk == "S":
                    a(f"  %{p}sg{g}2 = stablehlo.dot_general %{p}k, %{p}q{g}, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<{KV}x{W}x{D}x{t}>, tensor<{KV}x{D}x{t}>) -> tensor<{KV}x{W}xf32>")
                else:
                    a(f"  %{p}sg{g}2 = stablehlo.dot_general %{p}q{g}, %{p}k, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<{KV}x{D}x{t}>, tensor<{KV}x{D}x{W}x{t}>) -> tensor<{KV}x{W}xf32>")
                a(f"  %{p}sg{g} = stablehlo.reshape %{p}sg{g}2 : (tensor<{KV}x{W}xf32>) -> tensor<{KV}x1x{W}xf32>")
                parts.append(f"%{p}sg{g}")
            a(f"  %{p}s0 = stablehlo.concatenate {', '.join(parts)}, dim = 1 : ({', '.join([f'tensor<{KV}x1x{W}xf32>']*G)}) -> tensor<{KV}x{G}x{W}xf32>")
            a(f"  %{p}s1 = stablehlo.multiply %{p}s0, %scale : tensor<{KV}x{G}x{W}xf32>")
        else:  # R: products scaled elementwise, then a plain reduction over D
            a(f"  %{p}qb = stablehlo.broadcast_in_dim {q}, dims = [0, 1, 3] : (tensor<{KV}x{G}x{D}x{t}>) -> tensor<{KV}x{G}x{W}x{D}x{t}>")
            a(f"  %{p}kb = stablehlo.broadcast_in_dim %{p}k, dims = [0, 2, 3] : (tensor<{KV}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{W}x{D}x{t}>")
            qf, kf = f"%{p}qb", f"%{p}kb"
            if t != "f32":
                a(f"  %{p}qf = stablehlo.convert %{p}qb : (tensor<{KV}x{G}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{W}x{D}xf32>")
                a(f"  %{p}kf = stablehlo.convert %{p}kb : (tensor<{KV}x{G}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{W}x{D}xf32>")
                qf, kf = f"%{p}qf", f"%{p}kf"
            a(f"  %{p}sc5 = stablehlo.constant dense<0.125> : tensor<{KV}x{G}x{W}x{D}xf32>")
            a(f"  %{p}m = stablehlo.multiply {qf}, {kf} : tensor<{KV}x{G}x{W}x{D}xf32>")
            a(f"  %{p}ms = stablehlo.multiply %{p}m, %{p}sc5 : tensor<{KV}x{G}x{W}x{D}xf32>")
            a(f"  %{p}s1 = stablehlo.reduce(%{p}ms init: %z) applies stablehlo.add across dimensions = [3] : (tensor<{KV}x{G}x{W}x{D}xf32>, tensor<f32>) -> tensor<{KV}x{G}x{W}xf32>")
        a(f"  %{p}s2 = stablehlo.select %vis, %{p}s1, %ninf : tensor<{KV}x{G}x{W}xi1>, tensor<{KV}x{G}x{W}xf32>")
        a(f"  %{p}mx = stablehlo.reduce(%{p}s2 init: %mi) applies stablehlo.maximum across dimensions = [2] : (tensor<{KV}x{G}x{W}xf32>, tensor<f32>) -> tensor<{KV}x{G}xf32>")
        a(f"  %{p}mxb = stablehlo.broadcast_in_dim %{p}mx, dims = [0, 1] : (tensor<{KV}x{G}xf32>) -> tensor<{KV}x{G}x{W}xf32>")
        a(f"  %{p}e0 = stablehlo.subtract %{p}s2, %{p}mxb : tensor<{KV}x{G}x{W}xf32>")
        a(f"  %{p}e = stablehlo.exponential %{p}e0 : tensor<{KV}x{G}x{W}xf32>")
        a(f"  %{p}den = stablehlo.reduce(%{p}e init: %z) applies stablehlo.add across dimensions = [2] : (tensor<{KV}x{G}x{W}xf32>, tensor<f32>) -> tensor<{KV}x{G}xf32>")
        a(f"  %{p}denb = stablehlo.broadcast_in_dim %{p}den, dims = [0, 1] : (tensor<{KV}x{G}xf32>) -> tensor<{KV}x{G}x{W}xf32>")
        a(f"  %{p}pf = stablehlo.divide %{p}e, %{p}denb : tensor<{KV}x{G}x{W}xf32>")
        pp = f"%{p}pf"
        if t != "f32":
            a(f"  %{p}pc = stablehlo.convert %{p}pf : (tensor<{KV}x{G}x{W}xf32>) -> tensor<{KV}x{G}x{W}x{t}>"); pp = f"%{p}pc"
        if pv == "A":
            a(f"  %{p}out = stablehlo.dot_general {pp}, %{p}v, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<{KV}x{G}x{W}x{t}>, tensor<{KV}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{D}xf32>")
        elif pv == "B":
            a(f"  %{p}oT = stablehlo.dot_general %{p}v, {pp}, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<{KV}x{W}x{D}x{t}>, tensor<{KV}x{G}x{W}x{t}>) -> tensor<{KV}x{D}x{G}xf32>")
            a(f"  %{p}out = stablehlo.transpose %{p}oT, dims = [0, 2, 1] : (tensor<{KV}x{D}x{G}xf32>) -> tensor<{KV}x{G}x{D}xf32>")
        elif pv == "V":  # (2026-12-03) grouped, V transposed [KV, D, W]: the reduction over W is innermost in both
            a(f"  %{p}out = stablehlo.dot_general {pp}, %{p}v, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<{KV}x{G}x{W}x{t}>, tensor<{KV}x{D}x{W}x{t}>) -> tensor<{KV}x{G}x{D}xf32>")
        elif pv == "X":
            a(f"  %{p}vr = stablehlo.broadcast_in_dim %{p}v, dims = [0, 2, 3] : (tensor<{KV}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{W}x{D}x{t}>")
            a(f"  %{p}out = stablehlo.dot_general {pp}, %{p}vr, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2] : (tensor<{KV}x{G}x{W}x{t}>, tensor<{KV}x{G}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{D}xf32>")
        elif pv == "P":  # (2026-12-03) p padded with zero rows to PAD (env, 8), as qk P
            PAD = int(os.environ.get("PAD", "8"))
            a(f"  %{p}zp = stablehlo.constant dense<0.0> : tensor<{t}>")
            a(f"  %{p}pp = stablehlo.pad {pp}, %{p}zp, low = [0, 0, 0], high = [0, {PAD - G}, 0], interior = [0, 0, 0] : (tensor<{KV}x{G}x{W}x{t}>, tensor<{t}>) -> tensor<{KV}x{PAD}x{W}x{t}>")
            a(f"  %{p}ppb = stablehlo.optimization_barrier %{p}pp : tensor<{KV}x{PAD}x{W}x{t}>")
            a(f"  %{p}op0 = stablehlo.dot_general %{p}ppb, %{p}v, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<{KV}x{PAD}x{W}x{t}>, tensor<{KV}x{W}x{D}x{t}>) -> tensor<{KV}x{PAD}x{D}xf32>")
            a(f"  %{p}op = stablehlo.optimization_barrier %{p}op0 : tensor<{KV}x{PAD}x{D}xf32>")
            a(f"  %{p}out = stablehlo.slice %{p}op [0:{KV}, 0:{G}, 0:{D}] : (tensor<{KV}x{PAD}x{D}xf32>) -> tensor<{KV}x{G}x{D}xf32>")
        elif pv in ("S", "SV"):  # one batched matvec per query head; SV: V stored transposed [KV, D, W]
            parts = []
            for g in range(G):
                a(f"  %{p}p{g}3 = stablehlo.slice {pp} [0:{KV}, {g}:{g+1}, 0:{W}] : (tensor<{KV}x{G}x{W}x{t}>) -> tensor<{KV}x1x{W}x{t}>")
                a(f"  %{p}p{g} = stablehlo.reshape %{p}p{g}3 : (tensor<{KV}x1x{W}x{t}>) -> tensor<{KV}x{W}x{t}>")
                if pv == "S":
                    a(f"  %{p}o{g}2 = stablehlo.dot_general %{p}v, %{p}p{g}, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<{KV}x{W}x{D}x{t}>, tensor<{KV}x{W}x{t}>) -> tensor<{KV}x{D}xf32>")
                else:
                    a(f"  %{p}o{g}2 = stablehlo.dot_general %{p}v, %{p}p{g}, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<{KV}x{D}x{W}x{t}>, tensor<{KV}x{W}x{t}>) -> tensor<{KV}x{D}xf32>")
                a(f"  %{p}o{g} = stablehlo.reshape %{p}o{g}2 : (tensor<{KV}x{D}xf32>) -> tensor<{KV}x1x{D}xf32>")
                parts.append(f"%{p}o{g}")
            a(f"  %{p}out = stablehlo.concatenate {', '.join(parts)}, dim = 1 : ({', '.join([f'tensor<{KV}x1x{D}xf32>']*G)}) -> tensor<{KV}x{G}x{D}xf32>")
        else:  # R: weighted rows summed over W
            a(f"  %{p}pb = stablehlo.broadcast_in_dim {pp}, dims = [0, 1, 2] : (tensor<{KV}x{G}x{W}x{t}>) -> tensor<{KV}x{G}x{W}x{D}x{t}>")
            a(f"  %{p}vb = stablehlo.broadcast_in_dim %{p}v, dims = [0, 2, 3] : (tensor<{KV}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{W}x{D}x{t}>")
            pf, vf = f"%{p}pb", f"%{p}vb"
            if t != "f32":
                a(f"  %{p}pbf = stablehlo.convert %{p}pb : (tensor<{KV}x{G}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{W}x{D}xf32>")
                a(f"  %{p}vbf = stablehlo.convert %{p}vb : (tensor<{KV}x{G}x{W}x{D}x{t}>) -> tensor<{KV}x{G}x{W}x{D}xf32>")
                pf, vf = f"%{p}pbf", f"%{p}vbf"
            a(f"  %{p}one = stablehlo.constant dense<1.0> : tensor<{KV}x{G}x{W}x{D}xf32>")
            a(f"  %{p}pv0 = stablehlo.multiply {pf}, {vf} : tensor<{KV}x{G}x{W}x{D}xf32>")
            a(f"  %{p}pv1 = stablehlo.multiply %{p}pv0, %{p}one : tensor<{KV}x{G}x{W}x{D}xf32>")
            a(f"  %{p}out = stablehlo.reduce(%{p}pv1 init: %z) applies stablehlo.add across dimensions = [2] : (tensor<{KV}x{G}x{W}x{D}xf32>, tensor<f32>) -> tensor<{KV}x{G}x{D}xf32>")
        prev = f"%{p}out"
    a(f"  return {prev} : tensor<{KV}x{G}x{D}xf32>")
    a("}")
    return "\n".join(o) + "\n"
qk, pv, dt, W = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.stdout.write(gen(qk, pv, dt, W))
