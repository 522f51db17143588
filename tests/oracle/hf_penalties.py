"""The oracle for OpenAI's presence_penalty, frequency_penalty and logit_bias: HF transformers fp32
logits with the penalties applied as OpenAI's API reference states them, greedy.

    python3 tests/oracle/hf_penalties.py --dir MODEL_DIR --gguf FILE --steps 32 \
        -o tests/oracle/fixtures/smollm2-penalties.json

OpenAI's rule (its "parameter details" for the penalties; vLLM applies the same): at each step a token
j generated c[j] times so far (the prompt not counted) has its logit lowered by
c[j] * frequency_penalty + (c[j] > 0) * presence_penalty; logit_bias adds its value to the token's
logit before sampling. Greedy decoding then takes the argmax (the lowest id among equals, as
torch.argmax). EOS does not stop the loop (the engine runs with ignore_eos). The completion text is
decoded without special tokens, as the engine writes its text.

Every case also records the plain greedy trajectory, so the test can see that the penalties changed
the answer (a case whose penalties change nothing could not tell an engine that ignores them).
Runs on the CPU in float32 with deterministic algorithms.
"""
import argparse
import json
import os
import sys

import torch

from hf_common import header, load, prompt_ids

# name, prompt, chat (through the chat template), presence, frequency, logit_bias {id: bias}
CASES = [
    ("presence-frequency", "The capital of France is", False, 0.6, 0.4, {}),
    ("frequency", "def fibonacci(n):", False, 0.0, 1.0, {}),
    ("negative-presence", "My favourite colour is", False, -0.8, 0.0, {}),
    # 7042 " Paris" banned; 198 "\n" made less likely
    ("logit-bias", "The capital of France is", False, 0.0, 0.0, {7042: -100.0, 198: -3.5}),
    ("chat-all", "Write a short poem about the sea.", True, 0.5, 0.3, {30: -2.0}),
]


def trajectory(model, ids, steps, presence, frequency, bias):
    x = torch.tensor([ids])
    past = None
    out, margins = [], []
    counts = {}
    with torch.no_grad():
        for _ in range(steps):
            r = model(x, past_key_values=past, use_cache=True)
            past = r.past_key_values
            logits = r.logits[0, -1].float().clone()
            for j, b in bias.items():
                logits[j] += b
            for j, c in counts.items():
                logits[j] -= c * frequency + presence
            v, i = torch.topk(logits, 2)
            nxt = int(torch.argmax(logits))
            out.append(nxt)
            margins.append(float(v[0] - v[1]))
            counts[nxt] = counts.get(nxt, 0) + 1
            x = torch.tensor([[nxt]])
    return out, margins


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--gguf")
    ap.add_argument("--steps", type=int, default=32)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    model, tok = load(args.dir, args.gguf)
    out = {
        "header": header("HF transformers fp32 greedy trajectories under OpenAI's presence/frequency penalties and "
                         "logit_bias (CPU), the oracle for tests/oracle/penalties_parity.py",
                         args.gguf or os.path.basename(os.path.normpath(args.dir))),
        "cases": [],
    }
    for name, text, chat, presence, frequency, bias in CASES:
        ids = prompt_ids(tok, text, chat)
        got, margins = trajectory(model, ids, args.steps, presence, frequency, bias)
        plain, _ = trajectory(model, ids, args.steps, 0.0, 0.0, {})
        out["cases"].append({
            "name": name, "chat": chat, "text": text, "presence_penalty": presence, "frequency_penalty": frequency,
            "logit_bias": {str(k): v for k, v in bias.items()}, "prompt_ids": ids, "ids": got, "margins": margins,
            "plain_ids": plain, "completion": tok.decode(got, skip_special_tokens=True),
        })
        first = next((k for k, (a, b) in enumerate(zip(got, plain)) if a != b), None)
        print(f"{name}: {len(ids)} prompt tokens, differs from plain greedy from step {first}, min margin "
              f"{min(margins):.4f}, {tok.decode(got)[:70]!r}", file=sys.stderr)
    with open(args.output, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
