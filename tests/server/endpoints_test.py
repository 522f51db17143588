#!/usr/bin/env python3
"""The utility endpoints of the live server, in llama.cpp's shapes, against Hugging Face as the oracle:
POST /tokenize (ids, and pieces), /detokenize and /apply-template, with transformers' tokenizer and
its apply_chat_template for the same model judging every answer, then their bad inputs (a 4xx naming
the field) and their place in /metrics and behind the API key.

usage: endpoints_test.py --mlxcel build/mlxcel --model MODEL --hf-tokenizer DIR
(DIR: the model's tokenizer as transformers loads it; tests/oracle/smollm2_tokenizer.py makes it for
SmolLM2.) Prints one line per check and "N passed, M failed" last.
"""
import argparse
import http.client
import json
import os
import signal
import sys

from transformers import AutoTokenizer

from checks import check, expect, launch, metric, summary

KEY = "endpoints-key"
TEXTS = ["Hello world", "The capital of France is Paris.", "  two  spaces\tand a tab\n", "1234567 digits 3.14159",
         "naïve café, 東京, Привет", "emoji 🤗🎉 and a combining e\u0301", "<|im_start|>user\nhi<|im_end|>", "", "a"]
CONVERSATIONS = [
    [{"role": "user", "content": "Say hello."}],
    [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Name three colors."}],
    [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello! How can I help?"},
     {"role": "user", "content": "Tell me a joke about 東京."}],
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    ap.add_argument("--hf-tokenizer", required=True)
    a = ap.parse_args()
    hf = AutoTokenizer.from_pretrained(a.hf_tokenizer)
    proc, port, lines = launch([a.mlxcel, "serve", "-m", a.model, "--port", "0", "--slots", "1"],
                               env=dict(os.environ, MLXCEL_API_KEY=KEY))

    def post(path, body, key=KEY, method="POST"):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        c.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, json.loads(data)

    try:
        @check("/tokenize: the ids equal transformers' encode, with and without add_special")
        def _():
            for text in TEXTS:
                for special in (False, True):
                    st, j = post("/tokenize", {"content": text, "add_special": special})
                    want = hf.encode(text, add_special_tokens=special)
                    expect(st == 200 and j["tokens"] == want, f"{text!r} add_special={special}: {st} {j} != {want}")
            st, j = post("/tokenize", {"content": "Hello world"})  # add_special defaults to false, as llama.cpp
            expect(j["tokens"] == hf.encode("Hello world", add_special_tokens=False), j)

        @check("/tokenize with_pieces: each piece is the token's text (transformers' decode of the one id), or its "
               "bytes when it is part of a character; the pieces' bytes join to the text")
        def _():
            for text in TEXTS:
                st, j = post("/tokenize", {"content": text, "with_pieces": True})
                expect(st == 200, f"{st} {j}")
                ids = [t["id"] for t in j["tokens"]]
                expect(ids == hf.encode(text, add_special_tokens=False), f"{text!r}: ids {ids}")
                joined = b""
                for t in j["tokens"]:
                    if isinstance(t["piece"], str):
                        expect(t["piece"] == hf.decode([t["id"]]), f"{text!r}: piece {t}")
                        joined += t["piece"].encode()
                    else:
                        expect("\ufffd" in hf.decode([t["id"]]), f"{text!r}: a byte piece for a whole character {t}")
                        joined += bytes(t["piece"])
                expect(joined == text.encode(), f"{text!r}: pieces join to {joined!r}")

        @check("/detokenize: the text equals transformers' decode (special tokens kept), and round-trips /tokenize")
        def _():
            for text in TEXTS:
                ids = hf.encode(text, add_special_tokens=False)
                st, j = post("/detokenize", {"tokens": ids})
                want = hf.decode(ids, skip_special_tokens=False)
                expect(st == 200 and j["content"] == want, f"{text!r}: {st} {j} != {want!r}")
            ids = hf.encode("naïve", add_special_tokens=False)
            st, j = post("/detokenize", {"tokens": ids[:1]})  # half a character: U+FFFD, as transformers
            expect(j["content"] == hf.decode(ids[:1]), f"{j} != {hf.decode(ids[:1])!r}")

        @check("/apply-template: the prompt equals transformers' apply_chat_template (generation prompt added)")
        def _():
            for msgs in CONVERSATIONS:
                st, j = post("/apply-template", {"messages": msgs})
                want = hf.apply_chat_template(msgs, tokenize=False, add_generation_prompt=True)
                expect(st == 200 and j["prompt"] == want, f"{msgs}: {st} {j} != {want!r}")
            # A whole chat completion body is accepted; only its messages count.
            st, j = post("/apply-template", {"messages": CONVERSATIONS[0], "max_tokens": 5, "temperature": 0.5})
            expect(st == 200 and j["prompt"] == hf.apply_chat_template(CONVERSATIONS[0], tokenize=False,
                                                                        add_generation_prompt=True), f"{st} {j}")

        def refused(status, param, path, body, **kw):
            st, j = post(path, body, **kw)
            expect(st == status, f"{path} {body}: status {st}, expected {status}: {j}")
            err = j["error"]
            expect(set(err) == {"message", "type", "param", "code"} and "\n" not in err["message"], err)
            expect(err["param"] == param, f"param {err['param']!r} != {param!r}")

        @check("bad input: a 4xx naming the field, and the server keeps serving")
        def _():
            refused(400, "content", "/tokenize", {})
            refused(400, "content", "/tokenize", {"content": 5})
            refused(400, "add_special", "/tokenize", {"content": "a", "add_special": "yes"})
            refused(400, "parse_special", "/tokenize", {"content": "a", "parse_special": True})
            refused(400, "tokens", "/detokenize", {})
            refused(400, "tokens", "/detokenize", {"tokens": "1 2"})
            refused(400, "tokens[1]", "/detokenize", {"tokens": [1, 10 ** 9]})
            refused(400, "tokens[0]", "/detokenize", {"tokens": [-1]})
            refused(400, "tokens[2]", "/detokenize", {"tokens": [1, 2, 3.5]})
            refused(400, "messages", "/apply-template", {"messages": []})
            refused(400, "messages", "/apply-template", {})
            refused(405, None, "/tokenize", None, method="GET")
            refused(401, None, "/tokenize", {"content": "a"}, key=None)
            refused(401, None, "/apply-template", {"messages": CONVERSATIONS[0]}, key="wrong")
            st, j = post("/tokenize", {"content": "still here"})
            expect(st == 200 and j["tokens"] == hf.encode("still here", add_special_tokens=False), j)

        @check("/metrics counts the utility endpoints by status")
        def _():
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            c.request("GET", "/metrics")
            t = c.getresponse().read().decode()
            for ep, status in (("/tokenize", 200), ("/tokenize", 400), ("/detokenize", 200), ("/detokenize", 400),
                               ("/apply-template", 200), ("/apply-template", 400), ("/tokenize", 401)):
                name = f'mlxcel_http_requests_total{{endpoint="{ep}",status="{status}"}}'
                expect(metric(t, name), f"no {name}")
    finally:
        proc.send_signal(signal.SIGTERM)
        rc = proc.wait(60)

    @check("SIGTERM: exits 0")
    def _():
        expect(rc == 0, f"exit {rc}: {lines[-3:]}")

    return summary()


if __name__ == "__main__":
    sys.exit(main())
