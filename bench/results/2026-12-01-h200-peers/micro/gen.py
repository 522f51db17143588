#!/usr/bin/env python3
"""StableHLO micro-benchmarks of the Llama-3.2-1B weight products, for iree-benchmark-module.

Weights are function arguments, one bf16 argument per layer and matrix (not one stacked [L, ...]
argument sliced per layer as in the attention session's micro/mm_gen.py: a slice of an argument is
folded into its dispatch, so the L dispatches differ and are not deduplicated, 0.4 MB per VMFB
instead of ~0.05), so a VMFB holds no weights; activations are f32 arguments converted to
the product type inside, as src/hlo/llama.c `linear` does (`convert(in, matmul)`, `convert(W, matmul)`,
dot_general with an f32 result, i.e. f32 accumulation).

  gen.py pre FORM PREC M N K [L]
      L products x[M,K] . W_l^T (W_l [N,K], or [K,N] for form KN), every result returned
      (nothing is dead; the products are independent, which on CUDA streams changes nothing:
      one stream runs them one after another).
      FORM  A   plain dot_general, contracting [1] x [1] (the engine's form)
            S2, S4, S8  the reduction split into S chunks: x -> [M,S,K/S], W_l -> [N,S,K/S]
                (free reshapes), dot_general with the chunk as a batch dimension -> [S,M,N] f32,
                then a sum over the chunk dimension
            KN  the weight stored transposed, W_l [K,N], contracting [1] x [0] (a plain matmul
                instead of IREE's matmul_transpose_b; the engine could lay the weights out so
                at load time)
            KNS4  KN with the reduction split into 4 (x -> [M,4,K/4], W -> [4,K/4,N])
            R4  the rows in products of 4 rows each, concatenated (the engine's batched decode
                form on the GPU targets since 2026-12-01, mx_target_product_rows = 4)
            R4S4  R4 with each 4-row product's reduction split into 4 as S4
            (added 2026-12-03 for bench/results/2026-12-03-h200-rows8/)
      PREC  bf16: x converted to bf16; f32: x stays f32, W_l converted bf16 -> f32 inside

  gen.py fuse qkv FORM PREC M D NQ NKV [L]
      L chained layers: a = convert(x); q, k, v = a . Wq^T, a . Wk^T, a . Wv^T; then
      x' = 0.05 * (q + repeat(k * v, NQ/NKV)) (one elementwise consumer of all three; NQ = D)
      FORM  sep    three products (Wq [NQ,D], Wk, Wv [NKV,D])
            fused  one product with W_qkv [NQ+2 NKV, D], then three slices
            sepT, fusedT  the same with the products computed transposed, W . a^T -> [n, M], so
                   the slices are contiguous row ranges for M > 1 (at M = 4 IREE copies each
                   column slice of a [4, n] result with a `slow_memcpy` dispatch); the consumer
                   works in the [n, M] layout and transposes its [D, M] result back
  gen.py fuse gu FORM PREC M D F [L]
      L chained layers: g, u = a . Wg^T, a . Wu^T; x' = 0.1 * sum_over_4(silu(g) * u)
      (reshape [M, F/D, D], reduce; one consumer of both)
      FORM  sep    two products (Wg, Wu [F,D])
            fused  one product with W_gu [2F, D], then two slices
"""
import sys

ELT = {"bf16": "bf16", "f32": "f32"}


def t(shape, dt):
    return "tensor<" + "x".join(str(s) for s in shape) + "x" + dt + ">"


def gen_pre(form, prec, M, N, K, L):
    o = []
    a = o.append
    kn = form.startswith("KN")
    w2 = [K, N] if kn else [N, K]
    res = ", ".join([t([M, N], "f32")] * L)
    wargs = ", ".join(f"%w{l}: {t(w2, 'bf16')}" for l in range(L))
    a(f"func.func @mm(%x: {t([M, K], 'f32')}, {wargs}) -> ({res}) {{")
    a(f"  %z = stablehlo.constant dense<0.0> : tensor<f32>")
    xin = "%x"
    if prec != "f32":
        a(f"  %xc = stablehlo.convert %x : ({t([M, K], 'f32')}) -> {t([M, K], prec)}")
        xin = "%xc"
    S = 0
    if form.startswith("S"):
        S = int(form[1:])
    elif form in ("KNS4", "R4S4"):
        S = 4
    elif form not in ("A", "KN", "R4"):
        raise SystemExit(f"unknown form {form}")
    if S and not form.startswith("R4"):
        assert K % S == 0
        Kc = K // S
        a(f"  %xs = stablehlo.reshape {xin} : ({t([M, K], prec)}) -> {t([M, S, Kc], prec)}")
    if form.startswith("R4"):
        assert M % 4 == 0
        R = M // 4
        for r in range(R):
            a(f"  %x{r} = stablehlo.slice {xin} [{4*r}:{4*r+4}, 0:{K}] : ({t([M, K], prec)}) -> {t([4, K], prec)}")
            if S:
                Kc = K // S
                a(f"  %x{r}s = stablehlo.reshape %x{r} : ({t([4, K], prec)}) -> {t([4, S, Kc], prec)}")
    outs = []
    for l in range(L):
        p = f"%l{l}_"
        w = f"%w{l}"
        if prec != "bf16":
            a(f"  {p}wc = stablehlo.convert {w} : ({t(w2, 'bf16')}) -> {t(w2, prec)}")
            w = f"{p}wc"
        if form.startswith("R4"):
            parts = []
            for r in range(M // 4):
                if S:
                    a(f"  {p}ws{r} = stablehlo.reshape {w} : ({t([N, K], prec)}) -> {t([N, S, Kc], prec)}")
                    a(f"  {p}p{r} = stablehlo.dot_general %x{r}s, {p}ws{r}, batching_dims = [1] x [1], contracting_dims = [2] x [2] : ({t([4, S, Kc], prec)}, {t([N, S, Kc], prec)}) -> {t([S, 4, N], 'f32')}")
                    a(f"  {p}o{r} = stablehlo.reduce({p}p{r} init: %z) applies stablehlo.add across dimensions = [0] : ({t([S, 4, N], 'f32')}, tensor<f32>) -> {t([4, N], 'f32')}")
                else:
                    a(f"  {p}o{r} = stablehlo.dot_general %x{r}, {w}, contracting_dims = [1] x [1] : ({t([4, K], prec)}, {t([N, K], prec)}) -> {t([4, N], 'f32')}")
                parts.append(f"{p}o{r}")
            ts = ", ".join([t([4, N], 'f32')] * len(parts))
            a(f"  {p}o = stablehlo.concatenate {', '.join(parts)}, dim = 0 : ({ts}) -> {t([M, N], 'f32')}")
        elif form == "A":
            a(f"  {p}o = stablehlo.dot_general {xin}, {w}, contracting_dims = [1] x [1] : ({t([M, K], prec)}, {t([N, K], prec)}) -> {t([M, N], 'f32')}")
        elif form == "KN":
            a(f"  {p}o = stablehlo.dot_general {xin}, {w}, contracting_dims = [1] x [0] : ({t([M, K], prec)}, {t([K, N], prec)}) -> {t([M, N], 'f32')}")
        elif form == "KNS4":
            a(f"  {p}ws = stablehlo.reshape {w} : ({t([K, N], prec)}) -> {t([S, Kc, N], prec)}")
            a(f"  {p}p = stablehlo.dot_general %xs, {p}ws, batching_dims = [1] x [0], contracting_dims = [2] x [1] : ({t([M, S, Kc], prec)}, {t([S, Kc, N], prec)}) -> {t([S, M, N], 'f32')}")
            a(f"  {p}o = stablehlo.reduce({p}p init: %z) applies stablehlo.add across dimensions = [0] : ({t([S, M, N], 'f32')}, tensor<f32>) -> {t([M, N], 'f32')}")
        else:
            a(f"  {p}ws = stablehlo.reshape {w} : ({t([N, K], prec)}) -> {t([N, S, Kc], prec)}")
            a(f"  {p}p = stablehlo.dot_general %xs, {p}ws, batching_dims = [1] x [1], contracting_dims = [2] x [2] : ({t([M, S, Kc], prec)}, {t([N, S, Kc], prec)}) -> {t([S, M, N], 'f32')}")
            a(f"  {p}o = stablehlo.reduce({p}p init: %z) applies stablehlo.add across dimensions = [0] : ({t([S, M, N], 'f32')}, tensor<f32>) -> {t([M, N], 'f32')}")
        outs.append(f"{p}o")
    a(f"  return {', '.join(outs)} : {res}")
    a("}")
    return "\n".join(o) + "\n"


def gen_fuse(kind, form, prec, M, D, dims, L):
    o = []
    a = o.append
    if kind == "qkv":
        NQ, NKV = dims
        assert NQ == D and NQ % NKV == 0
        parts = [NQ, NKV, NKV]
        names = ["q", "k", "v"]
    else:
        (F,) = dims
        assert F % D == 0
        parts = [F, F]
        names = ["g", "u"]
    NT = sum(parts)
    T = form.endswith("T")  # products computed transposed: W . a^T -> [n, M]
    if form in ("sep", "sepT"):
        wl = [(n, c) for n, c in zip(names, parts)]
    elif form in ("fused", "fusedT"):
        wl = [("all", NT)]
    else:
        raise SystemExit(f"unknown form {form}")
    args = ", ".join([f"%x0: {t([M, D], 'f32')}"] + [f"%w{l}{n}: {t([c, D], 'bf16')}" for l in range(L) for n, c in wl])
    a(f"func.func @{kind}({args}) -> {t([M, D], 'f32')} {{")
    a(f"  %z = stablehlo.constant dense<0.0> : tensor<f32>")
    if kind == "qkv":
        a(f"  %c = stablehlo.constant dense<0.05> : {t([M, D], 'f32')}")
    else:
        a(f"  %c = stablehlo.constant dense<0.1> : {t([M, D], 'f32')}")
    x = "%x0"
    for l in range(L):
        p = f"%l{l}_"
        xin = x
        if prec != "f32":
            a(f"  {p}a = stablehlo.convert {x} : ({t([M, D], 'f32')}) -> {t([M, D], prec)}")
            xin = f"{p}a"

        def weight(n, tag):
            w = f"%w{l}{tag}"
            if prec != "bf16":
                a(f"  {p}{tag}wc = stablehlo.convert {w} : ({t([n, D], 'bf16')}) -> {t([n, D], prec)}")
                w = f"{p}{tag}wc"
            return w

        def sh(n):  # shape of a product's result
            return [n, M] if T else [M, n]

        def dot(w, n, tag):
            if T:
                a(f"  {p}{tag} = stablehlo.dot_general {w}, {xin}, contracting_dims = [1] x [1] : ({t([n, D], prec)}, {t([M, D], prec)}) -> {t([n, M], 'f32')}")
            else:
                a(f"  {p}{tag} = stablehlo.dot_general {xin}, {w}, contracting_dims = [1] x [1] : ({t([M, D], prec)}, {t([n, D], prec)}) -> {t([M, n], 'f32')}")
            return f"{p}{tag}"

        outs = []
        if form in ("sep", "sepT"):
            for n, c in wl:
                outs.append(dot(weight(c, n), c, n))
        else:
            full = dot(weight(NT, "all"), NT, "all")
            off = 0
            for n, c in zip(names, parts):
                rng = f"[{off}:{off+c}, 0:{M}]" if T else f"[0:{M}, {off}:{off+c}]"
                a(f"  {p}{n} = stablehlo.slice {full} {rng} : ({t(sh(NT), 'f32')}) -> {t(sh(c), 'f32')}")
                outs.append(f"{p}{n}")
                off += c
        if kind == "qkv":
            q, k, v = outs
            G = NQ // NKV
            a(f"  {p}kv = stablehlo.multiply {k}, {v} : {t(sh(NKV), 'f32')}")
            if T:
                a(f"  {p}kvb = stablehlo.broadcast_in_dim {p}kv, dims = [1, 2] : ({t([NKV, M], 'f32')}) -> {t([G, NKV, M], 'f32')}")
                a(f"  {p}kvr = stablehlo.reshape {p}kvb : ({t([G, NKV, M], 'f32')}) -> {t([NQ, M], 'f32')}")
                a(f"  {p}sT = stablehlo.add {q}, {p}kvr : {t([NQ, M], 'f32')}")
                a(f"  {p}s = stablehlo.transpose {p}sT, dims = [1, 0] : ({t([D, M], 'f32')}) -> {t([M, D], 'f32')}")
            else:
                a(f"  {p}kvb = stablehlo.broadcast_in_dim {p}kv, dims = [0, 2] : ({t([M, NKV], 'f32')}) -> {t([M, G, NKV], 'f32')}")
                a(f"  {p}kvr = stablehlo.reshape {p}kvb : ({t([M, G, NKV], 'f32')}) -> {t([M, NQ], 'f32')}")
                a(f"  {p}s = stablehlo.add {q}, {p}kvr : {t([M, D], 'f32')}")
        else:
            g, u = outs
            R = F // D
            a(f"  {p}sg = stablehlo.logistic {g} : {t(sh(F), 'f32')}")
            a(f"  {p}si = stablehlo.multiply {g}, {p}sg : {t(sh(F), 'f32')}")
            a(f"  {p}act = stablehlo.multiply {p}si, {u} : {t(sh(F), 'f32')}")
            if T:
                a(f"  {p}ar = stablehlo.reshape {p}act : ({t([F, M], 'f32')}) -> {t([R, D, M], 'f32')}")
                a(f"  {p}sT = stablehlo.reduce({p}ar init: %z) applies stablehlo.add across dimensions = [0] : ({t([R, D, M], 'f32')}, tensor<f32>) -> {t([D, M], 'f32')}")
                a(f"  {p}s = stablehlo.transpose {p}sT, dims = [1, 0] : ({t([D, M], 'f32')}) -> {t([M, D], 'f32')}")
            else:
                a(f"  {p}ar = stablehlo.reshape {p}act : ({t([M, F], 'f32')}) -> {t([M, R, D], 'f32')}")
                a(f"  {p}s = stablehlo.reduce({p}ar init: %z) applies stablehlo.add across dimensions = [1] : ({t([M, R, D], 'f32')}, tensor<f32>) -> {t([M, D], 'f32')}")
        a(f"  {p}x = stablehlo.multiply {p}s, %c : {t([M, D], 'f32')}")
        x = f"{p}x"
    a(f"  return {x} : {t([M, D], 'f32')}")
    a("}")
    return "\n".join(o) + "\n"


def main(argv):
    if argv[1] == "pre":
        form, prec = argv[2], argv[3]
        M, N, K = (int(v) for v in argv[4:7])
        L = int(argv[7]) if len(argv) > 7 else 16
        sys.stdout.write(gen_pre(form, ELT[prec], M, N, K, L))
    elif argv[1] == "fuse":
        kind, form, prec = argv[2], argv[3], argv[4]
        nd = 3 if kind == "qkv" else 2
        v = [int(s) for s in argv[5:5 + 1 + nd]]
        M, D, dims = v[0], v[1], v[2:]
        rest = argv[5 + 1 + nd:]
        L = int(rest[0]) if rest else 16
        sys.stdout.write(gen_fuse(kind, form, ELT[prec], M, D, dims, L))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
