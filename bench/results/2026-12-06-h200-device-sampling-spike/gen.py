"""Spike for sampling on the device (issue 11 item 4): what a seeded Gumbel-max draw and a bisection
for a top-k / top-p threshold cost per decode step, as StableHLO functions over [S, V] f32 logits.

    python3 gen.py S V > spike_S.mlir

Functions (each returns [S] i32):
  argmax(l)                 the engine's argmax form today (max, then the lowest index at the max)
  gumbel(l, t, seed, pos)   argmax(l + t * g), g = -log(-log(u)), u from a murmur3-style hash of
                            (seed, pos, token id): a plain-temperature draw (t = 0: the argmax)
  bisect_unrolled(l, k)     the largest float-bit threshold with count(l >= it) >= k: 32 steps written out
  bisect_while(l, k)        the same with a stablehlo.while loop
"""
import sys

S, V = int(sys.argv[1]), int(sys.argv[2])
L = f"tensor<{S}x{V}xf32>"
I = f"tensor<{S}x{V}xi32>"
s_i = f"tensor<{S}xi32>"
s_f = f"tensor<{S}xf32>"
n = [0]


def v():
    n[0] += 1
    return f"%v{n[0]}"


def const_i(x, t=I):
    x = x - (1 << 32) if x >= 1 << 31 else x
    r = v()
    return r, f"    {r} = stablehlo.constant dense<{x}> : {t}\n"


def argmax_body(l):
    """The lowest index of the row maximum, with f32 indices (as the engine: an integer min reduction
    is miscompiled by IREE's GPU code generation, bench/results/2026-11-30-h200-cuda-debug)."""
    out = []
    m, idx, eq, big, sel, mn, res, bm, ninf, zero = (v() for _ in range(10))
    out.append(f"    {ninf} = stablehlo.constant dense<0xFF800000> : tensor<f32>\n")
    out.append(f"    {m} = stablehlo.reduce({l} init: {ninf}) applies stablehlo.maximum across dimensions = [1] : ({L}, tensor<f32>) -> {s_f}\n")
    out.append(f"    {bm} = stablehlo.broadcast_in_dim {m}, dims = [0] : ({s_f}) -> {L}\n")
    out.append(f"    {eq} = stablehlo.compare EQ, {l}, {bm} : ({L}, {L}) -> tensor<{S}x{V}xi1>\n")
    out.append(f"    {idx} = stablehlo.iota dim = 1 : {L}\n")
    out.append(f"    {big} = stablehlo.constant dense<{float(V)}> : {L}\n")
    out.append(f"    {sel} = stablehlo.select {eq}, {idx}, {big} : tensor<{S}x{V}xi1>, {L}\n")
    out.append(f"    {zero} = stablehlo.constant dense<{float(V)}> : tensor<f32>\n")
    out.append(f"    {mn} = stablehlo.reduce({sel} init: {zero}) applies stablehlo.minimum across dimensions = [1] : ({L}, tensor<f32>) -> {s_f}\n")
    out.append(f"    {res} = stablehlo.convert {mn} : ({s_f}) -> {s_i}\n")
    return res, "".join(out)


def fmix(x, t):
    """murmur3's 32-bit finalizer on i32 bits (multiply wraps, shifts are logical)."""
    out = []
    for shift, mul in ((16, 0x85EBCA6B), (13, 0xC2B2AE35), (16, None)):
        c, line = const_i(shift, t)
        out.append(line)
        sh, x2 = v(), v()
        out.append(f"    {sh} = stablehlo.shift_right_logical {x}, {c} : {t}\n")
        out.append(f"    {x2} = stablehlo.xor {x}, {sh} : {t}\n")
        x = x2
        if mul:
            c, line = const_i(mul, t)
            out.append(line)
            x2 = v()
            out.append(f"    {x2} = stablehlo.multiply {x}, {c} : {t}\n")
            x = x2
    return x, "".join(out)


def fn_argmax():
    r, body = argmax_body("%l")
    return f"  func.func @argmax(%l: {L}) -> {s_i} {{\n{body}    return {r} : {s_i}\n  }}\n"


def fn_gumbel():
    out = []
    # per slot: c = fmix(pos ^ fmix(seed))
    a, t = fmix("%seed", s_i)
    out.append(t)
    x = v()
    out.append(f"    {x} = stablehlo.xor %pos, {a} : {s_i}\n")
    c, t = fmix(x, s_i)
    out.append(t)
    bc, ids, hx = v(), v(), v()
    out.append(f"    {bc} = stablehlo.broadcast_in_dim {c}, dims = [0] : ({s_i}) -> {I}\n")
    out.append(f"    {ids} = stablehlo.iota dim = 1 : {I}\n")
    out.append(f"    {hx} = stablehlo.xor {ids}, {bc} : {I}\n")
    h, t = fmix(hx, I)
    out.append(t)
    c9, line = const_i(9)
    out.append(line)
    top, fu, half, scale, u0, u, lu, nlu, llu, g, bt, tg, score = (v() for _ in range(13))
    out.append(f"    {top} = stablehlo.shift_right_logical {h}, {c9} : {I}\n")
    out.append(f"    {fu} = stablehlo.convert {top} : ({I}) -> {L}\n")
    out.append(f"    {half} = stablehlo.constant dense<0.5> : {L}\n")
    out.append(f"    {scale} = stablehlo.constant dense<1.1920928955078125e-07> : {L}\n")
    out.append(f"    {u0} = stablehlo.add {fu}, {half} : {L}\n")
    out.append(f"    {u} = stablehlo.multiply {u0}, {scale} : {L}\n")
    out.append(f"    {lu} = stablehlo.log {u} : {L}\n")
    out.append(f"    {nlu} = stablehlo.negate {lu} : {L}\n")
    out.append(f"    {llu} = stablehlo.log {nlu} : {L}\n")
    out.append(f"    {g} = stablehlo.negate {llu} : {L}\n")
    out.append(f"    {bt} = stablehlo.broadcast_in_dim %t, dims = [0] : ({s_f}) -> {L}\n")
    out.append(f"    {tg} = stablehlo.multiply {bt}, {g} : {L}\n")
    out.append(f"    {score} = stablehlo.add %l, {tg} : {L}\n")
    r, body = argmax_body(score)
    out.append(body)
    return (f"  func.func @gumbel(%l: {L}, %t: {s_f}, %seed: {s_i}, %pos: {s_i}) -> {s_i} {{\n" + "".join(out)
            + f"    return {r} : {s_i}\n  }}\n")


def key_of(l):
    """Order-preserving i32 key of f32: bits, with the low 31 bits flipped for negative values."""
    out = []
    b, sgn, zero, flip, mask, k = v(), v(), v(), v(), v(), v()
    out.append(f"    {b} = stablehlo.bitcast_convert {l} : ({L}) -> {I}\n")
    out.append(f"    {zero} = stablehlo.constant dense<0> : {I}\n")
    out.append(f"    {sgn} = stablehlo.compare LT, {b}, {zero} : ({I}, {I}) -> tensor<{S}x{V}xi1>\n")
    out.append(f"    {mask} = stablehlo.constant dense<2147483647> : {I}\n")
    out.append(f"    {flip} = stablehlo.xor {b}, {mask} : {I}\n")
    out.append(f"    {k} = stablehlo.select {sgn}, {flip}, {b} : tensor<{S}x{V}xi1>, {I}\n")
    return k, "".join(out)


def bisect_step(key, lo, hi, k):
    """mid = lo + (hi - lo + 1) / 2 (in i64 to avoid overflow); count(key >= mid) >= k ? lo = mid : hi = mid - 1."""
    out = []
    s64 = f"tensor<{S}xi64>"
    lo64, hi64, d, one, d1, two, half, mid64, mid, bmid, ge, ones, zeros, cnt, z0, ok, m1, nlo, nhi = (v() for _ in range(19))
    out.append(f"    {lo64} = stablehlo.convert {lo} : ({s_i}) -> {s64}\n")
    out.append(f"    {hi64} = stablehlo.convert {hi} : ({s_i}) -> {s64}\n")
    out.append(f"    {d} = stablehlo.subtract {hi64}, {lo64} : {s64}\n")
    out.append(f"    {one} = stablehlo.constant dense<1> : {s64}\n")
    out.append(f"    {d1} = stablehlo.add {d}, {one} : {s64}\n")
    out.append(f"    {two} = stablehlo.constant dense<2> : {s64}\n")
    out.append(f"    {half} = stablehlo.divide {d1}, {two} : {s64}\n")
    out.append(f"    {mid64} = stablehlo.add {lo64}, {half} : {s64}\n")
    out.append(f"    {mid} = stablehlo.convert {mid64} : ({s64}) -> {s_i}\n")
    out.append(f"    {bmid} = stablehlo.broadcast_in_dim {mid}, dims = [0] : ({s_i}) -> {I}\n")
    out.append(f"    {ge} = stablehlo.compare GE, {key}, {bmid} : ({I}, {I}) -> tensor<{S}x{V}xi1>\n")
    out.append(f"    {ones} = stablehlo.constant dense<1.0> : {L}\n")
    out.append(f"    {zeros} = stablehlo.constant dense<0.0> : {L}\n")
    sel = v()
    out.append(f"    {sel} = stablehlo.select {ge}, {ones}, {zeros} : tensor<{S}x{V}xi1>, {L}\n")
    out.append(f"    {z0} = stablehlo.constant dense<0.0> : tensor<f32>\n")
    out.append(f"    {cnt} = stablehlo.reduce({sel} init: {z0}) applies stablehlo.add across dimensions = [1] : ({L}, tensor<f32>) -> {s_f}\n")
    out.append(f"    {ok} = stablehlo.compare GE, {cnt}, {k} : ({s_f}, {s_f}) -> tensor<{S}xi1>\n")
    c1, line = const_i(1, s_i)
    out.append(line)
    out.append(f"    {m1} = stablehlo.subtract {mid}, {c1} : {s_i}\n")
    out.append(f"    {nlo} = stablehlo.select {ok}, {mid}, {lo} : tensor<{S}xi1>, {s_i}\n")
    out.append(f"    {nhi} = stablehlo.select {ok}, {hi}, {m1} : tensor<{S}xi1>, {s_i}\n")
    return nlo, nhi, "".join(out)


def bisect_start():
    """The row's keys and the first bounds, the whole i32 range: (key, lo, hi, the lines so far)."""
    out = []
    key, t = key_of("%l")
    out.append(t)
    lo, line = const_i(-(1 << 31), s_i)
    out.append(line)
    hi, line = const_i((1 << 31) - 1, s_i)
    out.append(line)
    return key, lo, hi, out


def fn_bisect_unrolled():
    key, lo, hi, out = bisect_start()
    for _ in range(32):
        lo, hi, t = bisect_step(key, lo, hi, "%k")
        out.append(t)
    return f"  func.func @bisect_unrolled(%l: {L}, %k: {s_f}) -> {s_i} {{\n" + "".join(out) + f"    return {lo} : {s_i}\n  }}\n"


def fn_bisect_while():
    key, lo, hi, out = bisect_start()
    i0, line = const_i(0, "tensor<i32>")
    out.append(line)
    w = v()
    out.append(f"    {w}:3 = stablehlo.while(%it = {i0}, %lo = {lo}, %hi = {hi}) : tensor<i32>, {s_i}, {s_i}\n")
    out.append("    cond {\n")
    lim, line = const_i(32, "tensor<i32>")
    out.append(line.replace("    ", "      ", 1))
    c = v()
    out.append(f"      {c} = stablehlo.compare LT, %it, {lim} : (tensor<i32>, tensor<i32>) -> tensor<i1>\n")
    out.append(f"      stablehlo.return {c} : tensor<i1>\n")
    out.append("    } do {\n")
    nlo, nhi, t = bisect_step(key, "%lo", "%hi", "%k")
    out.append(t)
    one, line = const_i(1, "tensor<i32>")
    out.append(line)
    it2 = v()
    out.append(f"      {it2} = stablehlo.add %it, {one} : tensor<i32>\n")
    out.append(f"      stablehlo.return {it2}, {nlo}, {nhi} : tensor<i32>, {s_i}, {s_i}\n")
    out.append("    }\n")
    return (f"  func.func @bisect_while(%l: {L}, %k: {s_f}) -> {s_i} {{\n" + "".join(out)
            + f"    return {w}#1 : {s_i}\n  }}\n")


print("module @spike {")
print(fn_argmax() + fn_gumbel() + fn_bisect_unrolled() + fn_bisect_while(), end="")
print("}")
