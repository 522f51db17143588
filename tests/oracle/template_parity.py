#!/usr/bin/env python3
"""Template parity gate: mlxcel's Jinja engine against jinja2 as transformers runs chat templates.

    python tests/oracle/template_parity.py --mlxcel build/mlxcel --model TOKENIZER_DIR \\
        --templates ../shared/data/chat-templates [--template-file NAME=PATH ...]

For every template (each *.jinja of --templates, and each --template-file) and every conversation
in CONVERSATIONS (plain, system, multi-turn, tools, a tool call and its result, ...), with and without
the generation prompt, the oracle is transformers' own jinja2 environment
(transformers.utils.chat_template_utils._compile_jinja_template: the immutable sandbox, trim_blocks,
lstrip_blocks, loopcontrols, raise_exception, strftime_now and its tojson) rendering the context
{messages, tools (when the conversation has them), add_generation_prompt, bos_token, eos_token};
mlxcel's side is
    MLXCEL template -m TOKENIZER_DIR --chat-template PATH --context CONTEXT.json
with the same context. They must be equal byte for byte; where jinja2 raises (a template that
refuses a conversation, e.g. roles out of order), mlxcel must fail too, with one error line and a
non-zero exit. Each (template, conversation, generation prompt) is one test. Last line:
"N passed, M failed".
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

from transformers.utils.chat_template_utils import _compile_jinja_template  # noqa: E402

WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Get the current weather in a city.",
    "parameters": {"type": "object", "properties": {
        "city": {"type": "string", "description": "The city, e.g. Paris"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "The unit"}},
        "required": ["city"]}}}
SEARCH = {"type": "function", "function": {
    "name": "search", "description": "Search the web.",
    "parameters": {"type": "object", "properties": {
        "query": {"type": "string", "description": "What to look for"},
        "limit": {"type": "integer", "description": "At most this many results"},
        "tags": {"type": "array", "items": {"type": "string"}, "description": "Filters"}},
        "required": ["query"]},
    "return": {"type": "string", "description": "The results"}}}
CALL = {"id": "a1b2c3d4e", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}}

CONVERSATIONS = [
    ("user", {"messages": [{"role": "user", "content": "Hello!"}]}),
    ("system+user", {"messages": [{"role": "system", "content": "You are a terse assistant."},
                                  {"role": "user", "content": "What is the capital of France?"}]}),
    ("multi-turn", {"messages": [{"role": "system", "content": "Answer in one word."},
                                 {"role": "user", "content": "Colour of the sky?"},
                                 {"role": "assistant", "content": "Blue."},
                                 {"role": "user", "content": "And grass?"}]}),
    ("whitespace and unicode", {"messages": [
        {"role": "user", "content": "  leading spaces\n\tand a tab, trailing  \n"},
        {"role": "assistant", "content": " Ça va ? 😀 日本語 "},
        {"role": "user", "content": "e\u0301 \u00a0nbsp \"quotes\" and 'apostrophes' {{ not a template }} {% raw %}"}]}),
    ("empty content", {"messages": [{"role": "user", "content": ""}]}),
    ("tools", {"messages": [{"role": "system", "content": "You can look things up."},
                            {"role": "user", "content": "Weather in Paris?"}], "tools": [WEATHER, SEARCH]}),
    ("tools, no system", {"messages": [{"role": "user", "content": "Find cats."}], "tools": [SEARCH]}),
    ("tool call and result", {"messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": "", "tool_calls": [CALL]},
        {"role": "tool", "tool_call_id": "a1b2c3d4e", "name": "get_weather", "content": "18 C, sunny"},
        {"role": "user", "content": "Thanks. And tomorrow?"}], "tools": [WEATHER]}),
    ("tool call, string arguments", {"messages": [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": "",
         "tool_calls": [{"id": "z9y8x7w6v", "type": "function",
                         "function": {"name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}]},
        {"role": "tool", "tool_call_id": "z9y8x7w6v", "name": "get_weather", "content": "{\"temp\": -3}"}], "tools": [WEATHER]}),
    ("two users in a row", {"messages": [{"role": "user", "content": "One."}, {"role": "user", "content": "Two."}]}),
    ("assistant first", {"messages": [{"role": "assistant", "content": "Hi, how can I help?"},
                                      {"role": "user", "content": "Tell me a joke."}]}),
]

SPECIAL = {"bos_token": "<s>", "eos_token": "</s>"}


def run_mlxcel(args, path, ctx):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(ctx, f, ensure_ascii=False)
        name = f.name
    try:
        p = subprocess.run([args.mlxcel, "template", "-m", args.model, "--chat-template", path, "--context", name],
                           capture_output=True, timeout=60)
    finally:
        os.unlink(name)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def first_difference(a, b):
    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    return f"at char {i}: jinja2 {a[max(0, i - 30):i + 30]!r}\n      mlxcel {b[max(0, i - 30):i + 30]!r}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", required=True)
    ap.add_argument("--model", required=True, help="a tokenizer directory or GGUF (the command needs one)")
    ap.add_argument("--templates", help="a directory of *.jinja templates")
    ap.add_argument("--template-file", action="append", default=[], help="NAME=PATH, a template file")
    args = ap.parse_args()
    templates = []
    if args.templates:
        templates += [(os.path.basename(p), p) for p in sorted(glob.glob(os.path.join(args.templates, "*.jinja")))]
    for spec in args.template_file:
        name, _, path = spec.partition("=")
        templates.append((name, path))
    if not templates:
        sys.exit("template_parity: no templates given")
    passed = failed = 0
    for name, path in templates:
        source = open(path, encoding="utf-8").read()
        compiled = _compile_jinja_template(source)
        for conv_name, conv in CONVERSATIONS:
            for gen in (True, False):
                ctx = dict(conv, add_generation_prompt=gen, **SPECIAL)
                try:
                    want, want_err = compiled.render(**ctx), None
                except Exception as e:  # the template refuses this conversation
                    want, want_err = None, f"{type(e).__name__}: {e}"
                rc, got, err = run_mlxcel(args, path, ctx)
                label = f"{name} / {conv_name}, add_generation_prompt={gen}"
                if want_err is not None:
                    ok = rc != 0 and err.count("mlxcel: ") == 1
                    detail = f"jinja2 raised ({want_err}); mlxcel exit {rc}: {err.strip()[:200]}"
                else:
                    ok = rc == 0 and got == want
                    detail = first_difference(want, got) if rc == 0 else f"mlxcel failed (exit {rc}): {err.strip()[:300]}"
                if ok:
                    passed += 1
                    print(f"PASS {label}" + (f" (both refuse: {want_err[:80]})" if want_err else f" ({len(want)} chars)"))
                else:
                    failed += 1
                    print(f"FAIL {label}\n      {detail}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
