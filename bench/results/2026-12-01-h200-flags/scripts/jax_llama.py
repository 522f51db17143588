"""A small JAX Llama (Llama 3 family: GQA, llama3 RoPE scaling, tied embeddings) with a static KV cache,
the peer for mlxcel's decode on the same HF checkpoint. Written for this measurement.

  python3 jax_llama.py --model DIR --dtype bf16|f32 --prompt-ids FILE [--new 128] [--runs 3] [--context 512]
                       [--fixture F.json] [--out tokens.json]

Prints one 'jax stats:' line per measured run (prefill ms, decode tok/s with one host readback per token,
as the engine reads each token back) and, with --fixture, whether the greedy trajectories equal the
fixture's (HF fp32) token for token. f32 runs at matmul precision 'highest' (no TF32)."""
import argparse, json, os, struct, sys, time

import numpy as np
import jax
import jax.numpy as jnp
import ml_dtypes


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

    def rope(x, pos):  # x [T, heads, D]; rotate-half layout as HF
        f = pos.astype(jnp.float32)[:, None] * inv[None, :]
        emb = jnp.concatenate([f, f], axis=-1)
        cos, sin = jnp.cos(emb).astype(dtype)[:, None, :], jnp.sin(emb).astype(dtype)[:, None, :]
        x1, x2 = x[..., :D // 2], x[..., D // 2:]
        return x * cos + jnp.concatenate([-x2, x1], axis=-1) * sin

    lin = lambda x, W: jnp.einsum("ti,oi->to", x, W)

    def forward(P, cache, tokens, pos0):
        """tokens [T] at positions pos0..pos0+T-1; cache (k, v) each [L, C, KV, D]. Returns logits of the
        last position (f32) and the updated cache."""
        T = tokens.shape[0]
        pos = pos0 + jnp.arange(T)
        x = P["embed"][tokens]
        kc, vc = cache
        key_pos = jnp.arange(ctx)
        mask = key_pos[None, :] <= pos[:, None]  # [T, C]
        for i, l in enumerate(P["layers"]):
            h = rms(x, l["ln1"])
            q = rope(lin(h, l["q"]).reshape(T, H, D), pos)
            k = rope(lin(h, l["k"]).reshape(T, KV, D), pos)
            v = lin(h, l["v"]).reshape(T, KV, D)
            kc = jax.lax.dynamic_update_slice(kc, k[None].astype(kc.dtype), (i, pos0, 0, 0))
            vc = jax.lax.dynamic_update_slice(vc, v[None].astype(vc.dtype), (i, pos0, 0, 0))
            K, V = kc[i], vc[i]  # [C, KV, D]
            qg = q.reshape(T, KV, H // KV, D)
            s = jnp.einsum("tkgd,ckd->tkgc", qg, K).astype(jnp.float32) / np.sqrt(D)
            s = jnp.where(mask[:, None, None, :], s, -jnp.inf)
            a = jax.nn.softmax(s, axis=-1).astype(dtype)
            o = jnp.einsum("tkgc,ckd->tkgd", a, V).reshape(T, H * D)
            x = x + lin(o, l["o"])
            h = rms(x, l["ln2"])
            x = x + lin(jax.nn.silu(lin(h, l["gate"])) * lin(h, l["up"]), l["down"])
        x = rms(x[-1:], P["norm"])
        logits = lin(x, P["lm_head"]).astype(jnp.float32)[0]
        return logits, (kc, vc)

    def step(P, cache, tokens, pos0):
        logits, cache = forward(P, cache, tokens, pos0)
        return jnp.argmax(logits).astype(jnp.int32), cache

    fn = jax.jit(step, donate_argnums=(1,))
    empty = lambda: (jnp.zeros((L, ctx, KV, D), dtype), jnp.zeros((L, ctx, KV, D), dtype))
    return P, fn, empty


def generate(P, fn, empty, ids, new):
    """Greedy: prefill the prompt in one call, then `new`-1 decode calls; one host readback per token."""
    cache = empty()
    jax.block_until_ready(cache)
    t0 = time.perf_counter()
    tok, cache = fn(P, cache, jnp.asarray(ids, jnp.int32), 0)
    out = [int(tok)]
    t1 = time.perf_counter()
    pos = len(ids)
    for _ in range(new - 1):
        tok, cache = fn(P, cache, tok[None], pos)
        out.append(int(tok))
        pos += 1
    t2 = time.perf_counter()
    return out, (t1 - t0) * 1e3, (new - 1) / (t2 - t1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--dtype", default="bf16")
    ap.add_argument("--prompt-ids")
    ap.add_argument("--new", type=int, default=128)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--context", type=int, default=512)
    ap.add_argument("--fixture")
    ap.add_argument("--fixture-steps", type=int, default=0, help="compare only the first N steps (0: all)")
    ap.add_argument("--out")
    a = ap.parse_args()
    dtype = {"bf16": jnp.bfloat16, "f32": jnp.float32, "f16": jnp.float16}[a.dtype]
    if a.dtype == "f32":
        jax.config.update("jax_default_matmul_precision", "highest")
    cfg = json.load(open(os.path.join(a.model, "config.json")))
    t = time.perf_counter()
    w = load_safetensors(os.path.join(a.model, "model.safetensors"))
    P, fn, empty = build(cfg, w, dtype, a.context)
    jax.block_until_ready(P)
    print(f"jax {jax.__version__} on {jax.devices()[0].device_kind}: weights on device in {time.perf_counter() - t:.1f} s", flush=True)
    res = {}
    if a.fixture:
        fx = json.load(open(a.fixture))
        ok = 0
        for p in fx["prompts"]:
            pid, ref = json.loads(p["prompt_ids"]) if isinstance(p["prompt_ids"], str) else p["prompt_ids"], None
            ref = json.loads(p["greedy_ids"]) if isinstance(p["greedy_ids"], str) else p["greedy_ids"]
            if a.fixture_steps: ref = ref[:a.fixture_steps]
            got, _, _ = generate(P, fn, empty, pid, len(ref))
            first = next((i for i, (x, y) in enumerate(zip(got, ref)) if x != y), None)
            ok += first is None
            print(f"jax fixture {p['name']}: {'token-exact' if first is None else f'first divergence at step {first}'} "
                  f"({len(ref)} steps)", flush=True)
            res[p["name"]] = got
        print(f"jax fixture: {ok}/{len(fx['prompts'])} token-exact", flush=True)
    if a.prompt_ids:
        ids = json.load(open(a.prompt_ids))
        t = time.perf_counter()
        toks, _, _ = generate(P, fn, empty, ids, a.new)  # warm-up: compiles both shapes
        print(f"jax warm-up (compile + run) {time.perf_counter() - t:.1f} s", flush=True)
        for r in range(a.runs):
            toks2, pre_ms, tps = generate(P, fn, empty, ids, a.new)
            print(f"jax stats: dtype {a.dtype} prompt {len(ids)} prefill {pre_ms:.2f} ms; decode {a.new - 1} tokens "
                  f"{tps:.1f} tok/s; same tokens as warm-up: {toks2 == toks}", flush=True)
        res["prompt"] = toks
        try:
            import tokenizers
            tk = tokenizers.Tokenizer.from_file(os.path.join(a.model, "tokenizer.json"))
            res["prompt_text"] = tk.decode(toks, skip_special_tokens=False)
        except Exception as e:  # noqa: BLE001
            print(f"jax: no text decode ({e})")
        try:
            st = jax.devices()[0].memory_stats() or {}
            print(f"jax peak device bytes {st.get('peak_bytes_in_use', '?')}", flush=True)
        except Exception as e:  # noqa: BLE001
            print(f"jax memory stats unavailable: {e}")
    if a.out:
        json.dump(res, open(a.out, "w"))


if __name__ == "__main__":
    main()
