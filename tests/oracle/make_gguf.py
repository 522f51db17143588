#!/usr/bin/env python3
"""A GGUF of a synthetic HF checkpoint, laid out as llama.cpp's converter lays it out, with a K-quant
mix, and the HF directory of the weights that GGUF dequantizes to: the oracle's input.

    python tests/oracle/make_gguf.py --hf SYNTH_DIR --gguf OUT.gguf [--oracle-dir ORACLE_DIR]
    python tests/oracle/make_gguf.py --hf TOKENIZER_DIR --gguf OUT.gguf --tokenizer-only PRE [--arch ARCH]

SYNTH_DIR is an f32 checkpoint from `mlxcel synth` (config.json, model.safetensors, the Llama 3
tokenizer). OUT.gguf gets:
  * the architecture's metadata under llama.cpp's key names (llama, qwen2, qwen3, gemma2, gemma3, phi3);
  * each matrix quantized as a Q4_K_M file has it: Q6_K for the embedding, attn_v and ffn_down, Q4_K
    for the others; a matrix whose rows are not whole 256-value super-blocks gets Q5_0 (or Q8_0),
    as llama.cpp falls back; vectors stay F32;
  * llama.cpp's conventions: Llama's attn_q/attn_k rows permuted for interleaved-pair RoPE, Llama 3.1+
    RoPE scaling as rope_freqs.weight (one divisor per frequency), Gemma's norms stored as 1 + w,
    Phi-3's fused tensors kept fused (attn_qkv, and ffn_up holding gate then up);
  * the tokenizer (tokenizer.ggml.*: byte-level BPE, pre-tokenizer llama-bpe, the merges, the added
    tokens as control tokens, the chat template).
--tokenizer-only PRE writes TOKENIZER_DIR's byte-level tokenizer alone (no tensors, no config.json
needed; BOS and EOS from tokenizer_config.json) with tokenizer.ggml.pre = PRE, under architecture ARCH
(default llama): a vocabulary to check a GGUF pre-tokenizer name against transformers' conversion.
ORACLE_DIR (when given: making fixtures, not checking against them) is SYNTH_DIR with model.safetensors replaced by every tensor as the GGUF holds it,
dequantized by the gguf package's reference dequantizer (which mlxcel matches bit for bit,
tests/oracle/dequant_parity.py) and put back in HF's layout: HF transformers run on it computes what
mlxcel should compute from the GGUF.

gguf 0.19 quantizes Q8_0 and Q5_0 itself but not the K-quants; the Q4_K and Q6_K encoders here are
plain ones (a scale per sub-block from its range, the super-block scales from those), not llama.cpp's
search: any valid encoding serves, since the oracle sees what it dequantizes to. Deterministic.
"""
import argparse
import json
import math
import os
import shutil

import numpy as np
from gguf import GGMLQuantizationType as Q
from gguf import GGUFWriter, quants
from safetensors.numpy import load_file, save_file

ARCH = {"llama": "llama", "mistral": "llama", "qwen2": "qwen2", "qwen3": "qwen3", "gemma2": "gemma2",
        "gemma3_text": "gemma3", "phi3": "phi3"}
GEMMA = ("gemma2", "gemma3")

# HF name (layer {}) -> GGUF name; the per-family extras are only present when the checkpoint has them.
GLOBAL = {"model.embed_tokens.weight": "token_embd.weight", "model.norm.weight": "output_norm.weight",
          "lm_head.weight": "output.weight"}
LAYER = {
    "input_layernorm": "attn_norm", "self_attn.q_proj": "attn_q", "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v", "self_attn.o_proj": "attn_output", "mlp.gate_proj": "ffn_gate",
    "mlp.up_proj": "ffn_up", "mlp.down_proj": "ffn_down", "self_attn.q_norm": "attn_q_norm",
    "self_attn.k_norm": "attn_k_norm", "pre_feedforward_layernorm": "ffn_norm",
    "post_feedforward_layernorm": "post_ffw_norm", "self_attn.qkv_proj": "attn_qkv", "mlp.gate_up_proj": "ffn_up",
}


def gguf_name(hf, arch):
    if hf in GLOBAL:
        return GLOBAL[hf]
    parts = hf.split(".")  # model.layers.N.<module...>.<weight|bias>
    layer, module, kind = parts[2], ".".join(parts[3:-1]), parts[-1]
    if module == "post_attention_layernorm":  # Llama's is the MLP's input norm; Gemma's follows attention
        base = "post_attention_norm" if arch in GEMMA else "ffn_norm"
    else:
        base = LAYER[module]
    return f"blk.{layer}.{base}.{kind}"


# ------------------------------------------------------------------------------ K-quant encoders

def f16(x):
    return np.asarray(x, dtype=np.float32).astype(np.float16)


def quantize_q6_k(x):
    """[R, K] (K % 256 == 0) -> Q6_K blocks: ql[128] qh[64] scales[16] (int8) d (f16) per 256 values.
    Value j of a 128-half h: group g = j // 32, l = j % 32, sub-block scale h*8 + l//16 + 2g, the
    4 low bits in ql[h*64 + l + 32*(g & 1)] (low nibble for g < 2, high for g >= 2), the 2 high bits
    in qh[h*32 + l] at bit 2g; y = d * scale * (q - 32)."""
    blocks = x.reshape(-1, 256).astype(np.float32)
    n = blocks.shape[0]
    sub = blocks.reshape(n, 16, 16)
    sub_scale = np.abs(sub).max(axis=2) / 31.0  # q - 32 in -32..31
    d = np.abs(sub_scale).max(axis=1) / 127.0
    d16 = f16(d).astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        sc = np.where(d16[:, None] > 0, np.rint(sub_scale / d16[:, None]), 0).clip(-128, 127).astype(np.int8)
        step = d16[:, None] * sc.astype(np.float32)
        q = np.where(step[:, :, None] != 0, np.rint(sub / step[:, :, None]), 0)
    q = (q.clip(-32, 31) + 32).astype(np.uint8).reshape(n, 256)
    ql = np.zeros((n, 128), np.uint8)
    qh = np.zeros((n, 64), np.uint8)
    for h in range(2):
        for g in range(4):
            for_l = q[:, h * 128 + g * 32: h * 128 + g * 32 + 32]
            idx = h * 64 + 32 * (g & 1)
            if g < 2:
                ql[:, idx:idx + 32] |= for_l & 0xF
            else:
                ql[:, idx:idx + 32] |= (for_l & 0xF) << 4
            qh[:, h * 32:h * 32 + 32] |= ((for_l >> 4) & 3) << (2 * g)
    # scale order: sub-block s of the 16 covers values 16s..16s+15 of the block
    out = np.concatenate([ql, qh, sc.view(np.uint8), d16.astype(np.float16).view(np.uint8).reshape(n, 2)], axis=1)
    return out.reshape(x.shape[0], -1)


def quantize_q4_k(x):
    """[R, K] (K % 256 == 0) -> Q4_K blocks: d, dmin (f16), scales[12] (6-bit scales and mins of 8
    sub-blocks of 32), qs[128]; y = d*sc*q - dmin*m, q in 0..15; sub-blocks 2j and 2j+1 share
    qs[32j..32j+31] (low nibbles, then high)."""
    blocks = x.reshape(-1, 256).astype(np.float32)
    n = blocks.shape[0]
    sub = blocks.reshape(n, 8, 32)
    lo = np.minimum(sub.min(axis=2), 0.0)
    scale = (sub.max(axis=2) - lo) / 15.0
    mins = -lo
    d = f16(scale.max(axis=1) / 63.0).astype(np.float32)
    dmin = f16(mins.max(axis=1) / 63.0).astype(np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        sc = np.where(d[:, None] > 0, np.rint(scale / d[:, None]), 0).clip(0, 63).astype(np.uint8)
        m = np.where(dmin[:, None] > 0, np.rint(mins / dmin[:, None]), 0).clip(0, 63).astype(np.uint8)
        step = d[:, None] * sc.astype(np.float32)
        off = dmin[:, None] * m.astype(np.float32)
        q = np.where(step[:, :, None] > 0, np.rint((sub + off[:, :, None]) / step[:, :, None]), 0)
    q = q.clip(0, 15).astype(np.uint8)
    qs = np.zeros((n, 128), np.uint8)
    for j in range(4):
        qs[:, 32 * j:32 * j + 32] = q[:, 2 * j] | (q[:, 2 * j + 1] << 4)
    scales = np.zeros((n, 12), np.uint8)
    for j in range(4):
        scales[:, j] = sc[:, j] | ((sc[:, j + 4] >> 4) << 6)
        scales[:, j + 4] = m[:, j] | ((m[:, j + 4] >> 4) << 6)
        scales[:, j + 8] = (sc[:, j + 4] & 0xF) | ((m[:, j + 4] & 0xF) << 4)
    head = np.concatenate([f16(d).view(np.uint8).reshape(n, 2), f16(dmin).view(np.uint8).reshape(n, 2)], axis=1)
    return np.concatenate([head, scales, qs], axis=1).reshape(x.shape[0], -1)


def quantize(x, qtype):
    if qtype == Q.Q6_K:
        return quantize_q6_k(x)
    if qtype == Q.Q4_K:
        return quantize_q4_k(x)
    return quants.quantize(x, qtype)


def quant_type(gname, shape):
    if len(shape) == 1:
        return Q.F32
    k = shape[1]
    wants_6 = gname == "token_embd.weight" or gname == "output.weight" or gname.endswith("attn_v.weight") \
        or gname.endswith("ffn_down.weight")
    if k % 256 == 0:
        return Q.Q6_K if wants_6 else Q.Q4_K
    return Q.Q8_0 if wants_6 else Q.Q5_0


# ------------------------------------------------------------------------------ layout conventions

def permute_rows(w, heads):
    """llama.cpp's permutation of Llama's Q/K rows (HF's rotate-half order to interleaved pairs)."""
    return w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def unpermute_rows(w, heads):
    return w.reshape(heads, w.shape[0] // heads // 2, 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def llama3_rope_factors(cfg, head_dim):
    """llama.cpp's rope_freqs for llama3 scaling: one divisor per frequency."""
    rs = cfg.get("rope_scaling") or cfg.get("rope_parameters") or {}
    if (rs.get("rope_type") or rs.get("type")) != "llama3":
        return None
    base = rs.get("rope_theta", cfg.get("rope_theta", 10000.0))
    factor, lo, hi = rs.get("factor", 8.0), rs.get("low_freq_factor", 1.0), rs.get("high_freq_factor", 4.0)
    old = rs.get("original_max_position_embeddings", 8192)
    freqs = 1.0 / (base ** (np.arange(0, head_dim, 2, dtype=np.float32) / head_dim))
    out = []
    for f in freqs:
        wavelen = 2 * math.pi / f
        if wavelen < old / hi:
            out.append(1.0)
        elif wavelen > old / lo:
            out.append(factor)
        else:
            smooth = (old / wavelen - lo) / (hi - lo)
            out.append(1.0 / ((1 - smooth) / factor + smooth))
    return np.array(out, dtype=np.float32)


def add_tokenizer(w, hf_dir, cfg, pre="llama-bpe", endoftext=False):
    tok = json.load(open(os.path.join(hf_dir, "tokenizer.json")))
    vocab = tok["model"]["vocab"]
    added = {a["id"]: a for a in tok.get("added_tokens", [])}
    n = max(max(vocab.values()), max(added) if added else 0) + 1
    tokens = [""] * n
    types = [1] * n
    for t, i in vocab.items():
        tokens[i] = t
    for i, a in added.items():
        tokens[i] = a["content"]
        types[i] = 3 if a.get("special") else 4
    if endoftext and "<|endoftext|>" not in tokens:
        # transformers' GPT-2 conversion appends <|endoftext|> (its default unknown token) when the vocabulary
        # lacks it, as Llama 3's does and Qwen's does not; that shifts the ids of any text holding it. In
        # the vocabulary's last special token's place it is there, as in Qwen's.
        tokens[max(i for i, a in added.items() if a.get("special"))] = "<|endoftext|>"
    merges = [m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]]
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre(pre)
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(cfg["bos_token_id"])
    eos = cfg["eos_token_id"]
    w.add_eos_token_id(eos[0] if isinstance(eos, list) else eos)
    w.add_add_bos_token(True)
    tc_path = os.path.join(hf_dir, "tokenizer_config.json")
    if os.path.exists(tc_path):
        template = json.load(open(tc_path)).get("chat_template")
        if isinstance(template, str):
            w.add_chat_template(template)


def write_oracle(args, cfg, arch, oracle):
    os.makedirs(args.oracle_dir, exist_ok=True)
    for f in os.listdir(args.hf):
        if f not in ("model.safetensors", "config.json"):
            shutil.copy(os.path.join(args.hf, f), os.path.join(args.oracle_dir, f))
    if arch in GEMMA:
        # A Gemma GGUF cannot say which layers are global: llama.cpp and transformers (reading a GGUF)
        # both take every 6th (Gemma 3) or every 2nd (Gemma 2). The oracle runs the model the GGUF describes.
        cfg.pop("layer_types", None)
        cfg.pop("sliding_window_pattern", None)
    json.dump(cfg, open(os.path.join(args.oracle_dir, "config.json"), "w"), indent=2)
    save_file(oracle, os.path.join(args.oracle_dir, "model.safetensors"))


def tokenizer_only(args):
    tok = json.load(open(os.path.join(args.hf, "tokenizer.json")))
    tc = json.load(open(os.path.join(args.hf, "tokenizer_config.json")))
    ids = {a["content"]: a["id"] for a in tok.get("added_tokens", [])}
    name = lambda t: t if isinstance(t, str) else t["content"]  # noqa: E731
    cfg = {"bos_token_id": ids[name(tc["bos_token"])], "eos_token_id": ids[name(tc["eos_token"])]}
    w = GGUFWriter(args.gguf, args.arch)
    add_tokenizer(w, args.hf, cfg, args.tokenizer_only, endoftext=True)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    print(f"make_gguf: {args.gguf}: the tokenizer of {args.hf} alone, pre-tokenizer {args.tokenizer_only}, architecture {args.arch}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hf", required=True)
    ap.add_argument("--gguf", required=True)
    ap.add_argument("--oracle-dir")
    ap.add_argument("--tokenizer-only", metavar="PRE")
    ap.add_argument("--arch", default="llama")
    args = ap.parse_args()
    if args.tokenizer_only:
        return tokenizer_only(args)
    cfg = json.load(open(os.path.join(args.hf, "config.json")))
    arch = ARCH[cfg["model_type"]]
    heads, kv = cfg["num_attention_heads"], cfg.get("num_key_value_heads", cfg["num_attention_heads"])
    head_dim = cfg.get("head_dim") or cfg["hidden_size"] // heads
    weights = load_file(os.path.join(args.hf, "model.safetensors"))

    w = GGUFWriter(args.gguf, arch)
    w.add_block_count(cfg["num_hidden_layers"])
    w.add_context_length(cfg.get("max_position_embeddings", 2048))
    w.add_embedding_length(cfg["hidden_size"])
    w.add_feed_forward_length(cfg["intermediate_size"])
    w.add_head_count(heads)
    w.add_head_count_kv(kv)
    w.add_key_length(head_dim)
    w.add_value_length(head_dim)
    w.add_rope_dimension_count(head_dim)
    theta = cfg.get("rope_theta") or (cfg.get("rope_parameters") or {}).get("rope_theta") or 10000.0
    if arch == "gemma3":
        theta = cfg["rope_parameters"]["full_attention"]["rope_theta"]
    if arch in GEMMA + ("phi3",) and cfg.get("sliding_window"):
        w.add_sliding_window(cfg["sliding_window"])
    if arch == "gemma2":
        w.add_attn_logit_softcapping(cfg["attn_logit_softcapping"])
        w.add_final_logit_softcapping(cfg["final_logit_softcapping"])
    w.add_rope_freq_base(theta)
    w.add_layer_norm_rms_eps(cfg.get("rms_norm_eps", 1e-6))
    w.add_vocab_size(cfg["vocab_size"])
    add_tokenizer(w, args.hf, cfg)

    oracle = {}
    for name in sorted(weights, key=lambda s: (s.count("layers"), s)):
        x = weights[name].astype(np.float32)
        gname = gguf_name(name, arch)
        if arch in GEMMA and name.endswith("norm.weight"):
            x = x + np.float32(1.0)  # llama.cpp stores Gemma's norms as 1 + w
        if arch == "llama" and (".q_proj." in name or ".k_proj." in name):
            x = permute_rows(x, heads if ".q_proj." in name else kv)
        qtype = quant_type(gname, x.shape)
        if qtype == Q.F32:
            w.add_tensor(gname, x)
            back = x
        else:
            packed = quantize(x, qtype)
            w.add_tensor(gname, packed, raw_dtype=qtype)
            if not args.oracle_dir:
                continue
            back = quants.dequantize(packed, qtype).reshape(x.shape).astype(np.float32)
        if arch in GEMMA and name.endswith("norm.weight"):
            back = back - np.float32(1.0)  # HF adds the 1 itself (transformers does the same on a GGUF)
        if arch == "llama" and (".q_proj." in name or ".k_proj." in name):
            back = unpermute_rows(back, heads if ".q_proj." in name else kv)
        oracle[name] = np.ascontiguousarray(back)
    factors = llama3_rope_factors(cfg, head_dim)
    if factors is not None:
        w.add_tensor("rope_freqs.weight", factors)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()

    if args.oracle_dir:
        write_oracle(args, cfg, arch, oracle)
    counts = {}
    for name in weights:
        t = quant_type(gguf_name(name, arch), weights[name].shape).name
        counts[t] = counts.get(t, 0) + 1
    print(f"make_gguf: {args.gguf}: {arch}, {len(weights)} tensors ({', '.join(f'{v} {k}' for k, v in sorted(counts.items()))})"
          f"{', rope_freqs' if factors is not None else ''}"
          f"{'; oracle weights in ' + args.oracle_dir if args.oracle_dir else ''}")


if __name__ == "__main__":
    main()
