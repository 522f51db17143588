"""The HF transformers fp32 greedy trajectory of a model on a prompt set: the oracle for `mlxcel check`.

    python3 tests/oracle/hf_trajectory.py --dir MODEL_DIR [--gguf FILE] --prompts tests/oracle/prompts.json \
        --set smollm2 --steps 64 -o tests/oracle/fixtures/smollm2.json

For every prompt: the prompt's ids (plain: the tokenizer with its special tokens; chat: the chat
template with a generation prompt), then `steps` greedy tokens from a plain loop over the model with
its KV cache (no generate(): no logits processors, EOS does not stop it), and at each step the
top-2 logit margin and the top-5 ids and logits. Runs on the CPU in float32 with deterministic
algorithms, so the numbers do not depend on a GPU's matmul modes. The fixture's header records the
command, the versions and the machine.
"""
import argparse
import json
import os
import platform
import sys
import time

import torch
import transformers
from transformers import AutoModelForCausalLM, AutoTokenizer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--gguf")
    ap.add_argument("--prompts", required=True)
    ap.add_argument("--set", required=True)
    ap.add_argument("--steps", type=int, default=64)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    kw = {"gguf_file": args.gguf} if args.gguf else {}
    model = AutoModelForCausalLM.from_pretrained(args.dir, dtype=torch.float32, **kw).eval()
    tok = AutoTokenizer.from_pretrained(args.dir, **kw)
    prompts = json.load(open(args.prompts))[args.set]
    out = {
        "header": {
            "what": "HF transformers fp32 greedy trajectories (CPU), the oracle for mlxcel check",
            "command": " ".join(sys.argv),
            "model": args.gguf or os.path.basename(os.path.normpath(args.dir)),
            "transformers": transformers.__version__,
            "torch": torch.__version__,
            "python": platform.python_version(),
            "machine": platform.node() + " " + platform.machine() + ", torch threads " + str(torch.get_num_threads()),
            "date": time.strftime("%Y-%m-%d"),
        },
        "prompts": [],
    }
    for p in prompts:
        if p["chat"]:
            ids = tok.apply_chat_template([{"role": "user", "content": p["text"]}], tokenize=True,
                                          add_generation_prompt=True, return_dict=False)
            if isinstance(ids, dict) or hasattr(ids, "input_ids"):
                ids = ids["input_ids"]
            rendered = tok.apply_chat_template([{"role": "user", "content": p["text"]}], tokenize=False,
                                               add_generation_prompt=True)
        else:
            ids = tok(p["text"]).input_ids
            rendered = p["text"]
        ids = list(ids)
        t0 = time.time()
        x = torch.tensor([ids])
        past = None
        tokens, margins, top5 = [], [], []
        with torch.no_grad():
            for _ in range(args.steps):
                r = model(x, past_key_values=past, use_cache=True)
                past = r.past_key_values
                logits = r.logits[0, -1].float()
                v, i = torch.topk(logits, 5)
                tokens.append(int(i[0]))
                margins.append(float(v[0] - v[1]))
                top5.append([[int(a), float(b)] for a, b in zip(i, v)])
                x = torch.tensor([[int(i[0])]])
        out["prompts"].append({
            "name": p["name"], "chat": p["chat"], "text": p["text"], "rendered": rendered,
            "prompt_ids": ids, "greedy_ids": tokens, "margins": margins, "top5": top5,
            "greedy_text": tok.decode(tokens), "seconds": round(time.time() - t0, 2),
        })
        print(f"{p['name']}: {len(ids)} prompt tokens, min margin {min(margins):.4f}, "
              f"{repr(tok.decode(tokens)[:60])}", file=sys.stderr)
    with open(args.output, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
