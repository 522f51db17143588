"""JAX/XLA as a peer: a small Llama (Llama 3 family: GQA, llama3 RoPE scaling, tied embeddings) with a static
KV cache, on the same HF checkpoint as mlxcel. Written for this project's measurements.

  python3 jax_peer.py --model DIR --dtype bf16|f16|f32 --batch B --prompt-ids FILE [--new 128] [--runs 3]
                      [--context 512] [--fixture F.json] --out results.jsonl

B copies of the prompt are prefilled in one call and decoded together, one jitted call and one host
readback per step (as the engine reads each step's tokens back). Appends one record
(bench/peers/README.md); with --fixture, also prints whether the greedy trajectories equal the
fixture's (HF fp32) token for token. f32 runs at matmul precision 'highest' (no TF32)."""
import json, os, struct, sys, time

import numpy as np
import jax
import jax.numpy as jnp
import ml_dtypes

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import append_record, base_args, ids_sha  # noqa: E402


def load_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        base = 8 + n
    mm = np.memmap(path, dtype=np.uint8, mode="r")
    dt = {"BF16": ml_dtypes.bfloat16, "F16": np.float16, "F32": np.float32}
    out = {}
    for k, v in header.items():
        if k == "__metadata__":
            continue
        a, b = v["data_offsets"]
        out[k] = np.frombuffer(mm[base + a:base + b], dtype=dt[v["dtype"]]).reshape(v["shape"])
    return out


def rope_inv_freq(cfg):
    d = cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]
    inv = 1.0 / (cfg["rope_theta"] ** (np.arange(0, d, 2, dtype=np.float64) / d))
    rs = cfg.get("rope_scaling") or {}
    if rs.get("rope_type") == "llama3":
        factor, lo, hi, orig = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"], rs["original_max_position_embeddings"]
        wavelen = 2 * np.pi / inv
        lo_wl, hi_wl = orig / lo, orig / hi
        smooth = (orig / wavelen - lo) / (hi - lo)
        scaled = np.where(wavelen > lo_wl, inv / factor, inv)
        mid = (wavelen <= lo_wl) & (wavelen >= hi_wl)
        scaled = np.where(mid, (1 - smooth) * inv / factor + smooth * inv, scaled)
        inv = scaled
    return inv.astype(np.float32)


def build(cfg, w, dtype, ctx):
    L, H, KV = cfg["num_hidden_layers"], cfg["num_attention_heads"], cfg["num_key_value_heads"]
    D = cfg.get("head_dim") or cfg["hidden_size"] // H
    eps = cfg["rms_norm_eps"]
    dev = lambda a: jnp.asarray(a).astype(dtype)
    P = {"embed": dev(w["model.embed_tokens.weight"]), "norm": dev(w["model.norm.weight"]), "layers": []}
    P["lm_head"] = P["embed"] if cfg.get("tie_word_embeddings") else dev(w["lm_head.weight"])
    for i in range(L):
        p = f"model.layers.{i}."
        P["layers"].append({n: dev(w[p + k]) for n, k in [
            ("ln1", "input_layernorm.weight"), ("ln2", "post_attention_layernorm.weight"),
            ("q", "self_attn.q_proj.weight"), ("k", "self_attn.k_proj.weight"), ("v", "self_attn.v_proj.weight"),
            ("o", "self_attn.o_proj.weight"), ("gate", "mlp.gate_proj.weight"), ("up", "mlp.up_proj.weight"),
            ("down", "mlp.down_proj.weight")]})
    inv = jnp.asarray(rope_inv_freq(cfg))

    def rms(x, g):  # as HF: f32 statistics, scale in the model dtype
        xf = x.astype(jnp.float32)
        xf = xf * jax.lax.rsqrt(jnp.mean(xf * xf, axis=-1, keepdims=True) + eps)
        return g * xf.astype(dtype)

    def rope(x, pos):  # x [B, T, heads, D]; rotate-half layout as HF
        f = pos.astype(jnp.float32)[:, None] * inv[None, :]
        emb = jnp.concatenate([f, f], axis=-1)
        cos, sin = jnp.cos(emb).astype(dtype)[:, None, :], jnp.sin(emb).astype(dtype)[:, None, :]
        x1, x2 = x[..., :D // 2], x[..., D // 2:]
        return x * cos + jnp.concatenate([-x2, x1], axis=-1) * sin

    lin = lambda x, W: jnp.einsum("bti,oi->bto", x, W)

    def forward(P, cache, tokens, pos0):
        """tokens [B, T] at positions pos0..pos0+T-1 (every sequence at the same positions); cache (k, v)
        each [L, B, C, KV, D]. Returns each sequence's logits at its last position (f32) and the cache."""
        B, T = tokens.shape
        pos = pos0 + jnp.arange(T)
        x = P["embed"][tokens]
        kc, vc = cache
        key_pos = jnp.arange(ctx)
        mask = key_pos[None, :] <= pos[:, None]  # [T, C]
        for i, l in enumerate(P["layers"]):
            h = rms(x, l["ln1"])
            q = rope(lin(h, l["q"]).reshape(B, T, H, D), pos)
            k = rope(lin(h, l["k"]).reshape(B, T, KV, D), pos)
            v = lin(h, l["v"]).reshape(B, T, KV, D)
            kc = jax.lax.dynamic_update_slice(kc, k[None].astype(kc.dtype), (i, 0, pos0, 0, 0))
            vc = jax.lax.dynamic_update_slice(vc, v[None].astype(vc.dtype), (i, 0, pos0, 0, 0))
            K, V = kc[i], vc[i]  # [B, C, KV, D]
            qg = q.reshape(B, T, KV, H // KV, D)
            s = jnp.einsum("btkgd,bckd->btkgc", qg, K).astype(jnp.float32) / np.sqrt(D)
            s = jnp.where(mask[None, :, None, None, :], s, -jnp.inf)
            a = jax.nn.softmax(s, axis=-1).astype(dtype)
            o = jnp.einsum("btkgc,bckd->btkgd", a, V).reshape(B, T, H * D)
            x = x + lin(o, l["o"])
            h = rms(x, l["ln2"])
            x = x + lin(jax.nn.silu(lin(h, l["gate"])) * lin(h, l["up"]), l["down"])
        x = rms(x[:, -1:], P["norm"])
        logits = lin(x, P["lm_head"]).astype(jnp.float32)[:, 0]
        return logits, (kc, vc)

    def step(P, cache, tokens, pos0):
        logits, cache = forward(P, cache, tokens, pos0)
        return jnp.argmax(logits, axis=-1).astype(jnp.int32), cache

    fn = jax.jit(step, donate_argnums=(1,))
    empty = lambda B: (jnp.zeros((L, B, ctx, KV, D), dtype), jnp.zeros((L, B, ctx, KV, D), dtype))
    return P, fn, empty


def generate(P, fn, empty, ids, new, batch=1):
    """Greedy: prefill B copies of the prompt in one call, then `new`-1 decode calls; one host readback
    per step. Returns the first sequence's ids, prefill ms and decode tok/s over all sequences."""
    cache = empty(batch)
    jax.block_until_ready(cache)
    t0 = time.perf_counter()
    tok, cache = fn(P, cache, jnp.asarray([ids] * batch, jnp.int32), 0)
    out = [np.asarray(tok)]
    t1 = time.perf_counter()
    pos = len(ids)
    for _ in range(new - 1):
        tok, cache = fn(P, cache, tok[:, None], pos)
        out.append(np.asarray(tok))
        pos += 1
    t2 = time.perf_counter()
    seqs = np.stack(out, axis=1)
    if not (seqs == seqs[0]).all():
        print("jax: the batch's sequences differ (identical prompts)", flush=True)
    return [int(t) for t in seqs[0]], (t1 - t0) * 1e3, batch * (new - 1) / (t2 - t1)


def main():
    ap = base_args(__doc__.splitlines()[0])
    ap.add_argument("--fixture")
    ap.add_argument("--fixture-steps", type=int, default=0, help="compare only the first N steps (0: all)")
    a = ap.parse_args()
    dtype = {"bf16": jnp.bfloat16, "f32": jnp.float32, "f16": jnp.float16}[a.dtype]
    if a.dtype == "f32":
        jax.config.update("jax_default_matmul_precision", "highest")
    cfg = json.load(open(os.path.join(a.model, "config.json")))
    t = time.perf_counter()
    w = load_safetensors(os.path.join(a.model, "model.safetensors"))
    P, fn, empty = build(cfg, w, dtype, a.context)
    jax.block_until_ready(P)
    load_s = time.perf_counter() - t
    print(f"jax {jax.__version__} on {jax.devices()[0].device_kind}: weights on device in {load_s:.1f} s", flush=True)
    if a.fixture:
        fx = json.load(open(a.fixture))
        ok = 0
        for p in fx["prompts"]:
            pid = json.loads(p["prompt_ids"]) if isinstance(p["prompt_ids"], str) else p["prompt_ids"]
            ref = json.loads(p["greedy_ids"]) if isinstance(p["greedy_ids"], str) else p["greedy_ids"]
            if a.fixture_steps: ref = ref[:a.fixture_steps]
            got, _, _ = generate(P, fn, empty, pid, len(ref))
            first = next((i for i, (x, y) in enumerate(zip(got, ref)) if x != y), None)
            ok += first is None
            print(f"jax fixture {p['name']}: {'token-exact' if first is None else f'first divergence at step {first}'} "
                  f"({len(ref)} steps)", flush=True)
        print(f"jax fixture: {ok}/{len(fx['prompts'])} token-exact", flush=True)
    ids = json.load(open(a.prompt_ids))
    for batch in a.batch:
        t = time.perf_counter()
        toks, _, _ = generate(P, fn, empty, ids, a.new, batch)  # warm-up: compiles both shapes
        warm_s = time.perf_counter() - t
        pre, dec, same = [], [], True
        for _ in range(a.runs):
            toks2, pre_ms, tps = generate(P, fn, empty, ids, a.new, batch)
            pre.append(pre_ms)
            dec.append(tps)
            same = same and toks2 == toks
        try:
            peak = (jax.devices()[0].memory_stats() or {}).get("peak_bytes_in_use")
        except Exception:  # noqa: BLE001 -- not every backend reports memory
            peak = None
        note = f"jax {jax.__version__}; peak is the process's so far" + ("" if same else "; RUNS DIFFER")
        append_record(a.out, peer="jax", device=jax.devices()[0].platform, dtype=a.dtype, batch=batch,
                      prompt_tokens=len(ids), new_tokens=a.new, decode_tok_s=dec, prefill_ms=pre, warmup_s=warm_s,
                      cold_compile_s=None, warm_load_s=load_s, peak_device_bytes=peak, text_sha=ids_sha(toks),
                      note=(note + "; " + a.note).strip("; "))

if __name__ == "__main__":
    main()
