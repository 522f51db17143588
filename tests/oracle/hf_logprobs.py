"""The oracle for OpenAI's logprobs: HF transformers fp32 log_softmax along the greedy trajectory.

    python3 tests/oracle/hf_logprobs.py --dir MODEL_DIR --gguf FILE --steps 16 \
        -o tests/oracle/fixtures/smollm2-logprobs.json

For every prompt (plain, or through the chat template with a generation prompt): `steps` greedy
tokens (EOS does not stop the loop: the engine runs with ignore_eos), and at each step the chosen
token's log-probability and the 20 most likely tokens with theirs (torch.log_softmax of the fp32
logits), each token with its bytes (the byte-level BPE symbols mapped back through GPT-2's byte
table; special tokens as their text), so a test can compare token strings and bytes as well as values.
Runs on the CPU in float32 with deterministic algorithms.
"""
import argparse
import json
import os
import sys

import torch

from hf_common import header, load, prompt_ids

PROMPTS = [
    ("france", "The capital of France is", False),
    ("fibonacci", "def fibonacci(n):", False),
    ("chat-sea", "Write a short poem about the sea.", True),
]
TOP = 20


def byte_table():
    """GPT-2's byte-level alphabet inverted: the symbol a byte-level BPE vocabulary writes for each byte.
    Printable Latin-1 bytes stand for themselves; the other 68 bytes (controls, space, DEL, NBSP...) are
    written as U+0100 onwards, in byte order."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[chr(b)] = b
        else:
            table[chr(256 + extra)] = b
            extra += 1
    return table


def token_bytes(tok, table, i):
    piece = tok.convert_ids_to_tokens(i)
    if i in tok.all_special_ids or any(ch not in table for ch in piece):
        return list(piece.encode("utf-8"))
    return [table[ch] for ch in piece]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--gguf")
    ap.add_argument("--steps", type=int, default=16)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    model, tok = load(args.dir, args.gguf)
    table = byte_table()
    out = {
        "header": header("HF transformers fp32 log_softmax along greedy trajectories (CPU), the oracle for "
                         "tests/oracle/logprobs_parity.py",
                         args.gguf or os.path.basename(os.path.normpath(args.dir))),
        "prompts": [],
    }
    for name, text, chat in PROMPTS:
        ids = prompt_ids(tok, text, chat)
        x, past, steps = torch.tensor([ids]), None, []
        with torch.no_grad():
            for _ in range(args.steps):
                r = model(x, past_key_values=past, use_cache=True)
                past = r.past_key_values
                lp = torch.log_softmax(r.logits[0, -1].float(), dim=-1)
                v, i = torch.topk(lp, TOP)
                nxt = int(torch.argmax(lp))
                steps.append({
                    "id": nxt, "logprob": float(lp[nxt]), "bytes": token_bytes(tok, table, nxt),
                    "top": [{"id": int(a), "logprob": float(b), "bytes": token_bytes(tok, table, int(a))} for a, b in zip(i, v)],
                })
                x = torch.tensor([[nxt]])
        out["prompts"].append({"name": name, "text": text, "chat": chat, "prompt_ids": ids, "steps": steps,
                               "completion": tok.decode([s["id"] for s in steps], skip_special_tokens=True)})
        print(f"{name}: {len(ids)} prompt tokens, {tok.decode([s['id'] for s in steps])[:60]!r}", file=sys.stderr)
    with open(args.output, "w") as f:
        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
