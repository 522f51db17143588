#!/usr/bin/env python3
"""Chat-template parity gate: mlxcel's prompt rendering against transformers' apply_chat_template.

    python tests/oracle/chat_template_parity.py --model MODEL.gguf --hf-tokenizer DIR --mlxcel build/mlxcel

For each conversation in CONVERSATIONS, and each of add_generation_prompt true and false, the
oracle is
    AutoTokenizer.from_pretrained(DIR).apply_chat_template(messages, tokenize=False,
                                                           add_generation_prompt=...)
(DIR's tokenizer_config.json holds the template; for SmolLM2 it is the GGUF's own, see
smollm2_tokenizer.py) and mlxcel's side is the stdout of
    MLXCEL template -m MODEL --messages FILE.json [--no-generation-prompt]
where FILE.json is the conversation as a JSON array of {"role", "content"}. They must be equal
character for character. Each (conversation, generation prompt) pair is one test; exit status 0
when all pass, 1 otherwise. Last line: "N passed, M failed".
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("HF_HUB_OFFLINE", "1")          # DIR is local; never reach for the hub
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")  # no "PyTorch was not found" banner
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

CONVERSATIONS = [
    ("system+user", [
        {"role": "system", "content": "You are a terse assistant."},
        {"role": "user", "content": "What is the capital of France?"}]),
    ("user only", [
        {"role": "user", "content": "Hello!"}]),
    ("multi-turn", [
        {"role": "system", "content": "Answer in one word."},
        {"role": "user", "content": "Colour of the sky?"},
        {"role": "assistant", "content": "Blue."},
        {"role": "user", "content": "And grass?"},
        {"role": "assistant", "content": "Green."},
        {"role": "user", "content": "Snow?"}]),
    ("user/assistant, no system", [
        {"role": "user", "content": "2+2?"},
        {"role": "assistant", "content": "4"},
        {"role": "user", "content": "times 10?"}]),
    ("whitespace and newlines", [
        {"role": "system", "content": "\n  Be precise.  \n\n"},
        {"role": "user", "content": "   leading spaces\n\tand a tab\r\nand CRLF, trailing   \n\n"},
        {"role": "assistant", "content": " \n "},
        {"role": "user", "content": "\n"}]),
    ("unicode", [
        {"role": "user", "content": "Ünïcödé: 日本語のテキスト, العربية, עברית, हिन्दी, 한국어 — "
                                    "emoji 👩🏽\u200d💻🇫🇷 1️⃣, e\u0301 vs é, \u00a0nbsp\u2028ls\u200bzwsp"},
        {"role": "assistant", "content": "Ça va ? 😀"}]),
    ("empty content", [
        {"role": "system", "content": ""},
        {"role": "user", "content": ""},
        {"role": "assistant", "content": ""},
        {"role": "user", "content": ""}]),
    ("template-like content", [
        {"role": "user", "content": "<|im_start|>user\nfake turn<|im_end|>\n{{ messages }} {% if x %}y{% endif %} "
                                    "{# c #} <|endoftext|> \\n \" ' "}]),
    ("long content", [
        {"role": "system", "content": "You are helpful. " * 50},
        {"role": "user", "content": "\n".join(f"line {i}: " + "lorem ipsum " * (i % 7) for i in range(80))}]),
]


def run_mlxcel(binary, model, messages, gen_prompt, timeout):
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as f:
        json.dump(messages, f, ensure_ascii=False)
        path = f.name
    cmd = [binary, "template", "-m", model, "--messages", path]
    if not gen_prompt:
        cmd.append("--no-generation-prompt")
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except FileNotFoundError:
        return None, f"cannot run {binary}"
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s"
    finally:
        os.unlink(path)
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, f"exit status {proc.returncode}" + (f": {err[-1]}" if err else "")
    try:
        return proc.stdout.decode("utf-8"), None
    except UnicodeDecodeError as e:
        return None, f"stdout is not UTF-8 ({e})"


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def around(s, j, width=40):
    lo, hi = max(0, j - width), min(len(s), j + width)
    return ("…" if lo else "") + repr(s[lo:hi]) + ("…" if hi < len(s) else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="model file passed to mlxcel -m")
    ap.add_argument("--hf-tokenizer", required=True, help="directory with tokenizer.json and tokenizer_config.json")
    ap.add_argument("--mlxcel", required=True, help="the mlxcel binary")
    ap.add_argument("--timeout", type=int, default=60, help="seconds one mlxcel template may take (default 60)")
    args = ap.parse_args()

    import transformers
    from transformers import AutoTokenizer
    tok = AutoTokenizer.from_pretrained(args.hf_tokenizer)
    print(f"oracle: transformers {transformers.__version__} apply_chat_template, {args.hf_tokenizer}")

    passed = failed = 0
    for name, messages in CONVERSATIONS:
        for gen in (True, False):
            label = f"{name}, add_generation_prompt={gen}"
            want = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=gen)
            got, problem = run_mlxcel(args.mlxcel, args.model, messages, gen, args.timeout)
            if problem is None and got == want:
                passed += 1
                print(f"PASS {label} ({len(want)} chars)")
                continue
            failed += 1
            if problem is not None:
                print(f"FAIL {label}: mlxcel template: {problem}")
                continue
            j = first_diff(want, got)
            print(f"FAIL {label}: first difference at character {j} (want {len(want)} chars, got {len(got)})")
            print(f"    want: {around(want, j)}")
            print(f"    got:  {around(got, j)}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
