"""Checks that Hugging Face transformers loads a model as-is: an mlxcel synth directory or a GGUF file.

    python3 tests/oracle/hf_load_check.py --dir DIR                  # HF directory (config + safetensors)
    python3 tests/oracle/hf_load_check.py --dir DIR --gguf FILE.gguf # GGUF inside DIR

Loads with AutoModelForCausalLM (output_loading_info=True) and fails on any missing, unexpected or
mismatched weight; then runs one forward pass and a 24-token greedy generation on a fixed prompt, and
prints versions, parameter count, the logits' statistics and the generated text. Needs torch, so it
runs where torch is installed (the GPU machine), not in CI.
"""
import argparse
import json
import sys
import time

import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--gguf")
    ap.add_argument("--prompt", default="The capital of France is")
    args = ap.parse_args()
    kw = {"gguf_file": args.gguf} if args.gguf else {}
    t0 = time.time()
    model, info = AutoModelForCausalLM.from_pretrained(args.dir, output_loading_info=True, dtype=torch.float32, **kw)
    load_s = time.time() - t0
    problems = {k: v for k, v in info.items() if v and k in ("missing_keys", "unexpected_keys", "mismatched_keys")}
    tok = AutoTokenizer.from_pretrained(args.dir, **kw)
    ids = tok(args.prompt, return_tensors="pt").input_ids
    with torch.no_grad():
        logits = model(ids).logits[0, -1]
        out = model.generate(ids, max_new_tokens=24, do_sample=False)
    report = {
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "source": args.gguf or args.dir,
        "load_seconds": round(load_s, 2),
        "parameters": sum(p.numel() for p in model.parameters()),
        "config": {k: getattr(model.config, k, None) for k in (
            "num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads", "intermediate_size",
            "vocab_size", "tie_word_embeddings", "rope_theta", "rms_norm_eps")},
        "loading_problems": problems,
        "prompt_ids": ids[0].tolist(),
        "last_logits": {"finite": bool(torch.isfinite(logits).all()), "mean": float(logits.mean()),
                        "std": float(logits.std()), "argmax": int(logits.argmax())},
        "greedy_text": tok.decode(out[0][ids.shape[1]:]),
    }
    print(json.dumps(report, indent=2, default=str))
    ok = not problems and report["last_logits"]["finite"]
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
