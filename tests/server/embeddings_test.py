#!/usr/bin/env python3
"""POST /v1/embeddings through the official openai client, against HF transformers fp32.

Oracle: tests/oracle/fixtures/smollm2-embeddings.json (tests/oracle/hf_embeddings.py): for short texts
of several kinds and a 1483-token prompt (prefilled in three 512-token chunks), the mean over the
input's tokens of transformers' last hidden state (after the final norm), scaled to unit length, with
the ids of the HF tokenizer. Our vectors must be within TOL of HF's in every component (and a cosine
of at least 1 - 1e-6), given as texts (our tokenizer) and as HF's token ids, in the openai client's
default base64 encoding and as JSON floats (bit-identical to each other); while a generation decodes
beside them (its greedy text unchanged); usage counts the inputs' tokens. Bad input is a 400 naming
the parameter; a server without --embeddings answers 501 naming the option.

usage: embeddings_test.py --mlxcel build/mlxcel --model MODEL --fixture tests/oracle/fixtures/smollm2-embeddings.json
Prints one line per check and "N passed, M failed" last.
"""
import argparse
import json
import threading
import urllib.error
import urllib.request

import openai

from checks import api_error, check, expect, metric, port_of, served_client, summary

TOL = 3e-5  # per component, on unit vectors of 576 components (f32 forward passes on both sides; measured 3.6e-6)


def compare(got, want, what):
    diff = max(abs(g - w) for g, w in zip(got, want))
    cos = sum(g * w for g, w in zip(got, want))  # both unit length
    expect(len(got) == len(want), f"{what}: {len(got)} components, HF has {len(want)}")
    expect(diff <= TOL and cos >= 1 - 1e-6, f"{what}: max |ours - HF| {diff:.2e} (tolerance {TOL}), cosine {cos:.8f}")
    return diff


def post_raw(port, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/embeddings", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    ap.add_argument("--fixture", required=True)
    a = ap.parse_args()
    items = json.load(open(a.fixture))["items"]
    texts = [it["text"] for it in items]
    n_tokens = sum(len(it["ids"]) for it in items)

    proc, client, model = served_client(a.mlxcel, a.model, ["--embeddings"])
    port = port_of(client)
    try:
        got = {}

        @check(f"{len(items)} texts in one request (the openai client's default base64), one of {len(items[-1]['ids'])} "
               f"tokens: each within {TOL} of HF's mean-pooled unit vector, in order; usage counts {n_tokens} tokens")
        def _():
            r = client.embeddings.create(model=model, input=texts)
            expect(r.object == "list" and r.model == model and len(r.data) == len(items), f"answer: {r.object} {r.model} {len(r.data)}")
            worst = 0
            for i, (d, it) in enumerate(zip(r.data, items)):
                expect(d.index == i and d.object == "embedding", f"item {i}: index {d.index}, object {d.object}")
                worst = max(worst, compare(d.embedding, it["embedding"], it["name"]))
            expect(r.usage.prompt_tokens == n_tokens and r.usage.total_tokens == n_tokens, f"usage {r.usage}")
            got["base64"] = [d.embedding for d in r.data]
            print(f"      largest difference from HF: {worst:.2e}")

        @check("the same inputs as HF's token ids, with encoding_format float: the same vectors bit for bit")
        def _():
            r = client.embeddings.create(model=model, input=[it["ids"] for it in items], encoding_format="float")
            expect([d.embedding for d in r.data] == got["base64"], "float and token-id answers differ from the base64 text ones")
            one = client.embeddings.create(model=model, input=items[0]["text"], encoding_format="float")
            expect(len(one.data) == 1 and one.data[0].embedding == got["base64"][0], "a single string differs")

        @check("embeddings while a greedy generation decodes beside them: both answers unchanged")
        def _():
            alone = client.completions.create(model=model, prompt="The history of the lighthouse", max_tokens=48, temperature=0)
            out = {}

            def gen():
                out["r"] = client.completions.create(model=model, prompt="The history of the lighthouse", max_tokens=48,
                                                     temperature=0)
            t = threading.Thread(target=gen)
            t.start()
            r = client.embeddings.create(model=model, input=texts[:3] * 3, encoding_format="float")
            t.join(300)
            expect([d.embedding for d in r.data] == got["base64"][:3] * 3, "embeddings changed beside a generation")
            expect(out["r"].choices[0].text == alone.choices[0].text, "the generation changed beside embeddings")

        bad = [
            ({"input": ""}, "input", "an empty string"),
            ({"input": []}, "input", "an empty array"),
            ({"input": [[1, 2], []]}, "input", "an empty token array in a batch"),
            ({"input": [1, 999999]}, "input", "a token id outside the vocabulary"),
            ({"input": [1.5]}, "input", "a float for a token id"),
            ({"input": {"text": "x"}}, "input", "an object"),
            ({"input": ["a", 3]}, "input", "a batch mixing a string and an integer"),
            ({"input": list(range(1, 8195))}, "input", "8194 tokens, beyond the 8192 context"),
            ({"input": "x", "dimensions": 64}, "dimensions", "dimensions other than the model's 576"),
            ({"input": "x", "encoding_format": "int8"}, "encoding_format", "an unknown encoding_format"),
            ({"input": "x", "pooling": "cls"}, "pooling", "an unknown field"),
            ({}, "input", "no input"),
        ]

        @check(f"bad input ({len(bad)} kinds): 400 invalid_request_error naming the parameter, and the server still answers")
        def _():
            for body, param, what in bad:
                st, j = post_raw(port, body)
                err = j.get("error", {})
                expect(st == 400 and err.get("type") == "invalid_request_error" and err.get("param") == param,
                       f"{what}: {st} {j}")
            r = client.embeddings.create(model=model, input="hello", encoding_format="float")
            expect(r.data[0].embedding == got["base64"][4], "the answer after the refusals differs")
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as m:
                text = m.read().decode()
            ok = metric(text, 'mlxcel_http_requests_total{endpoint="/v1/embeddings",status="200"}')
            refused = metric(text, 'mlxcel_http_requests_total{endpoint="/v1/embeddings",status="400"}')
            expect(ok == 5 and refused == len(bad), f"/metrics counts {ok} answered and {refused} refused")
    finally:
        proc.terminate()
        proc.wait(30)

    proc, client, model = served_client(a.mlxcel, a.model)
    try:
        @check("a server started without --embeddings: 501 naming --embeddings")
        def _():
            try:
                client.embeddings.create(model=model, input="hello")
                expect(False, "answered")
            except openai.APIStatusError as e:
                err = api_error(e)
                expect(e.status_code == 501 and "--embeddings" in err.get("message", ""), f"{e.status_code} {err}")
    finally:
        proc.terminate()
        proc.wait(30)
    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
