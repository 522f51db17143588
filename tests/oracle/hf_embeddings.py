"""The oracle for /v1/embeddings: HF transformers fp32, the mean over an input's tokens of the decoder's
last hidden state (after the final norm: `model.model(ids).last_hidden_state`), scaled to unit length.

    python3 tests/oracle/hf_embeddings.py --dir MODEL_DIR --gguf FILE --tokenizer TOKENIZER_DIR \
        --prompts tests/oracle/prompts.json -o tests/oracle/fixtures/smollm2-embeddings.json

The ids are those of the tokenizer in TOKENIZER_DIR (tokenizer.json through HF `tokenizers`, with the
special tokens the model adds): for SmolLM2 the one tests/oracle/smollm2_tokenizer.py builds, as
transformers' own GGUF conversion drops its digit split. Inputs: short texts of several kinds, and the
1483-token prompt of set smollm2-long (beyond the 512-token prefill chunk, so the engine's chunk sums
are checked too). Runs on the CPU in float32 with deterministic algorithms.
"""
import argparse
import json

import torch
from tokenizers import Tokenizer

from hf_common import header, load

TEXTS = [
    ("short", "The capital of France is Paris."),
    ("question", "What is the boiling point of water at sea level, in degrees Celsius?"),
    ("code", "def add(a, b):\n    return a + b\n"),
    ("unicode", "Grüße aus Köln! 東京は晴れです。 🌞"),
    ("one-word", "hello"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--gguf")
    ap.add_argument("--tokenizer", required=True, help="a directory with the tokenizer.json whose ids the engine gives")
    ap.add_argument("--prompts", required=True)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    model, _ = load(a.dir, a.gguf)
    tok = Tokenizer.from_file(a.tokenizer + "/tokenizer.json")
    texts = list(TEXTS)
    long = json.load(open(a.prompts))["smollm2-long"][0]
    texts.append(("long-" + long["name"], long["text"]))
    items = []
    with torch.no_grad():
        for name, text in texts:
            ids = tok.encode(text, add_special_tokens=True).ids
            h = model.model(torch.tensor([ids])).last_hidden_state[0].double()  # [n, dim]
            v = h.mean(0)
            v = v / v.norm()
            items.append({"name": name, "text": text, "ids": ids, "embedding": [float(x) for x in v]})
            print(f"{name}: {len(ids)} tokens, dim {len(v)}")
    out = {"header": header("mean-pooled last hidden state (after the final norm), unit length, fp32 forward",
                            a.gguf or a.dir), "items": items}
    with open(a.output, "w") as f:
        json.dump(out, f)
        f.write("\n")


if __name__ == "__main__":
    main()
