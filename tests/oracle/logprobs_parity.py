"""logprobs through the official openai client against HF transformers fp32 (the fixture of
tests/oracle/hf_logprobs.py): chat `logprobs` + `top_logprobs` 20 and completions `logprobs` 5,
streamed and not, greedy, on mlxcel-server.

Judged: the tokens (chat: their bytes, exactly; completions: their text), every chosen token's
log-probability and every listed alternative's within TOL of HF's log_softmax, the alternatives in
HF's order (two alternatives whose HF values lie within TOL of each other may trade places), the
completions' top_logprobs holding the alternatives and the chosen token, text_offset counting the
tokens' characters, a stream's entries equal to the whole answer's, and the refusals of bad values.
Completions `echo`: the prompt extended by all but the last greedy token, echoed with logprobs 5 and
one token generated: at every position after the original prompt the entries must be HF's (teacher
forcing on the greedy trajectory is that trajectory), the first token's null, the tokens spelling the
text, the stream giving the prompt first, and the same prompt sent as token ids answering the same.
`n` > 1: greedy choices each HF's (the second and third from a copy of the first's KV rows and logits),
sampled choices apart and reproducible, streamed by index.

    python3 tests/oracle/logprobs_parity.py --mlxcel build/mlxcel --model MODEL.gguf \
        --fixture tests/oracle/fixtures/smollm2-logprobs.json
"""
import argparse
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from checks import api_error, check, expect, metric, served_client, summary  # noqa: E402

import openai  # noqa: E402

# Absolute tolerance on a log-probability. The engine's f32 logits are not HF's bit for bit (another
# summation order); across this fixture the largest difference measured was 5.8e-5 (printed at the end).
TOL = 5e-4
worst = {"diff": 0.0}


def close(got, want, what):
    d = abs(got - want)
    worst["diff"] = max(worst["diff"], d)
    expect(d <= TOL, f"{what}: {got} vs HF {want} (|diff| {d:.2e} > {TOL})")


def same_order(got_keys, top, key, what):
    """got_keys: our alternatives (as `key` of HF's entries) in our order; top: HF's, most likely first."""
    want = [key(t) for t in top]
    expect(len(got_keys) == len(want), f"{what}: {len(got_keys)} alternatives, HF {len(want)}")
    for k, (g, w) in enumerate(zip(got_keys, want)):
        if g == w:
            continue
        # A near-tie may be ordered either way: g must be an HF alternative within TOL of rank k's value.
        alt = [t for t in top if key(t) == g]
        expect(alt and abs(alt[0]["logprob"] - top[k]["logprob"]) <= TOL,
               f"{what}: rank {k} is {g!r}, HF has {w!r} ({top[k]['logprob']})")


def lossy(b):
    return bytes(b).decode("utf-8", errors="replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    ap.add_argument("--fixture", required=True)
    a = ap.parse_args()
    prompts = json.load(open(a.fixture))["prompts"]
    try:
        proc, client, model_id = served_client(a.mlxcel, a.model)
    except AssertionError as e:
        print(f"FAIL  server start: {e}")
        return 1
    try:
        for p in prompts:
            steps = p["steps"]
            kw = dict(model=model_id, max_tokens=len(steps), temperature=0, extra_body={"ignore_eos": True})
            if p["chat"]:
                msgs = [{"role": "user", "content": p["text"]}]
                whole = {}

                @check(f"chat {p['name']}: logprobs and top_logprobs 20 match HF's log_softmax")
                def _():
                    r = client.chat.completions.create(messages=msgs, logprobs=True, top_logprobs=20, **kw)
                    content = r.choices[0].logprobs.content
                    expect(r.choices[0].message.content == p["completion"], f"text {r.choices[0].message.content!r}")
                    expect(len(content) == len(steps), f"{len(content)} entries for {len(steps)} tokens")
                    for i, (e, s) in enumerate(zip(content, steps)):
                        expect(e.bytes == s["bytes"], f"step {i}: bytes {e.bytes} vs HF {s['bytes']}")
                        expect(e.token == lossy(s["bytes"]), f"step {i}: token {e.token!r}")
                        close(e.logprob, s["logprob"], f"step {i} chosen")
                        same_order([bytes(t.bytes) for t in e.top_logprobs], s["top"], lambda t: bytes(t["bytes"]),
                                   f"step {i}")
                        by = {bytes(t["bytes"]): t["logprob"] for t in s["top"]}
                        for t in e.top_logprobs:
                            close(t.logprob, by[bytes(t.bytes)], f"step {i} alternative {t.token!r}")
                    whole["content"] = [(e.token, e.logprob, e.bytes, [(t.token, t.logprob) for t in e.top_logprobs])
                                        for e in content]

                @check(f"chat {p['name']} streamed: the chunks' logprobs are the whole answer's")
                def _():
                    got = []
                    for c in client.chat.completions.create(messages=msgs, logprobs=True, top_logprobs=20, stream=True, **kw):
                        if c.choices and c.choices[0].logprobs and c.choices[0].logprobs.content:
                            got += [(e.token, e.logprob, e.bytes, [(t.token, t.logprob) for t in e.top_logprobs])
                                    for e in c.choices[0].logprobs.content]
                    expect(got == whole.get("content"), f"{len(got)} streamed entries differ from the whole answer's")
            else:
                whole = {}

                @check(f"completion {p['name']}: logprobs 5 match HF's log_softmax")
                def _():
                    r = client.completions.create(prompt=p["text"], logprobs=5, **kw)
                    lp = r.choices[0].logprobs
                    expect(r.choices[0].text == p["completion"], f"text {r.choices[0].text!r}")
                    expect(len(lp.tokens) == len(steps), f"{len(lp.tokens)} tokens for {len(steps)}")
                    for i, s in enumerate(steps):
                        expect(lp.tokens[i] == lossy(s["bytes"]), f"step {i}: token {lp.tokens[i]!r} vs HF {lossy(s['bytes'])!r}")
                        close(lp.token_logprobs[i], s["logprob"], f"step {i} chosen")
                        top5 = {lossy(t["bytes"]): t["logprob"] for t in s["top"][:5]}
                        want_keys = set(top5) | {lossy(s["bytes"])}
                        got = lp.top_logprobs[i]
                        # The fifth alternative may trade places with the sixth when their values are within TOL.
                        sixth = s["top"][5]["logprob"]
                        for k in set(got) ^ want_keys:
                            expect(abs(top5.get(k, sixth) - sixth) <= TOL, f"step {i}: alternatives {sorted(got)} vs HF {sorted(want_keys)}")
                        for k, v in got.items():
                            if k in top5:
                                close(v, top5[k], f"step {i} alternative {k!r}")
                        expect(lp.text_offset[i] == sum(len(t) for t in lp.tokens[:i]), f"step {i}: text_offset {lp.text_offset[i]}")
                    whole["lp"] = (lp.tokens, lp.token_logprobs, lp.top_logprobs, lp.text_offset)

                @check(f"completion {p['name']} streamed: the chunks' logprobs are the whole answer's")
                def _():
                    tokens, values, tops, offsets = [], [], [], []
                    for c in client.completions.create(prompt=p["text"], logprobs=5, stream=True, **kw):
                        lp = c.choices[0].logprobs if c.choices else None
                        if lp:
                            tokens += lp.tokens
                            values += lp.token_logprobs
                            tops += lp.top_logprobs
                            offsets += lp.text_offset
                    expect((tokens, values, tops, offsets) == whole.get("lp"), "the streamed logprobs differ from the whole answer's")

        for p in [p for p in prompts if not p["chat"]]:
            steps, P = p["steps"], len(p["prompt_ids"])
            # The prompt and all but the last greedy token, echoed: every position after the original prompt
            # has HF's values (teacher forcing on the greedy trajectory is that trajectory), and the one
            # generated token is the last step.
            text = p["text"] + lossy(b"".join(bytes(s["bytes"]) for s in steps[:-1]))
            kw = dict(model=model_id, prompt=text, max_tokens=1, temperature=0, echo=True)
            whole = {}

            @check(f"completion {p['name']} echo: the prompt's tokens and logprobs (null first), then the answer's, match HF")
            def _():
                r = client.completions.create(logprobs=5, **kw)
                lp = r.choices[0].logprobs
                # A BOS the server put in front of the text is not echoed (the text did not hold it): then
                # the first echoed token has its value, given the BOS.
                bos = r.usage.prompt_tokens + r.usage.completion_tokens - len(lp.tokens)
                expect(bos in (0, 1), f"{len(lp.tokens)} tokens for usage {r.usage}")
                Q = P - bos  # the echoed tokens of the original prompt
                want_tokens = [None] * Q + [lossy(s["bytes"]) for s in steps]
                expect(r.choices[0].text == text + want_tokens[-1], f"text {r.choices[0].text!r}")
                expect(len(lp.tokens) == len(want_tokens), f"{len(lp.tokens)} tokens, want {len(want_tokens)} (the echoed "
                       f"prompt should encode to the prompt's {P} tokens and {len(steps) - 1} of the trajectory's)")
                expect(r.usage.completion_tokens == 1, f"usage {r.usage}")
                expect((lp.token_logprobs[0] is None and lp.top_logprobs[0] is None) == (bos == 0),
                       f"first entry {lp.token_logprobs[0]} with {bos} BOS")
                expect("".join(lp.tokens) == r.choices[0].text, f"tokens {lp.tokens!r} do not spell the text")
                for j in range(1 - bos, len(want_tokens)):
                    expect(lp.text_offset[j] == sum(len(t) for t in lp.tokens[:j]), f"position {j}: text_offset {lp.text_offset[j]}")
                    expect(lp.token_logprobs[j] <= 0 and lp.tokens[j] in lp.top_logprobs[j], f"position {j}: {lp.top_logprobs[j]}")
                    if j < Q:
                        continue  # inside the original prompt: no HF values in the fixture
                    s = steps[j - Q]
                    expect(lp.tokens[j] == want_tokens[j], f"position {j}: token {lp.tokens[j]!r} vs HF {want_tokens[j]!r}")
                    close(lp.token_logprobs[j], s["logprob"], f"position {j} chosen")
                    top5 = {lossy(t["bytes"]): t["logprob"] for t in s["top"][:5]}
                    for k, v in lp.top_logprobs[j].items():
                        if k in top5:
                            close(v, top5[k], f"position {j} alternative {k!r}")
                        else:  # an unlisted key is the chosen token, or the sixth trading places with the fifth
                            expect(k == lp.tokens[j] or abs(v - s["top"][5]["logprob"]) <= TOL, f"position {j}: {k!r} {v}")
                whole["lp"] = (lp.tokens, lp.token_logprobs, lp.top_logprobs, lp.text_offset)

            @check(f"completion {p['name']} echo streamed: the prompt first, the chunks' logprobs are the whole answer's")
            def _():
                tokens, values, tops, offsets, texts = [], [], [], [], []
                for c in client.completions.create(logprobs=5, stream=True, **kw):
                    if not c.choices:
                        continue
                    texts.append(c.choices[0].text)
                    lp = c.choices[0].logprobs
                    if lp:
                        tokens += lp.tokens
                        values += lp.token_logprobs
                        tops += lp.top_logprobs
                        offsets += lp.text_offset
                expect(texts and texts[0] == text, f"first chunk {texts[:1]!r}")
                expect((tokens, values, tops, offsets) == whole.get("lp"), "the streamed logprobs differ from the whole answer's")

            @check(f"completion {p['name']} echo of the same prompt as token ids: the same answer")
            def _():
                ids = p["prompt_ids"] + [s["id"] for s in steps[:-1]]
                r = client.completions.create(model=model_id, prompt=ids, max_tokens=1, temperature=0, echo=True, logprobs=5)
                lp = r.choices[0].logprobs
                expect(r.usage.prompt_tokens == len(ids), f"usage {r.usage}")
                # Token ids are echoed as given, a BOS among them too (null, its text in front): past it, the
                # text prompt's answer.
                tokens, values, tops, offsets = whole.get("lp", ([], [], [], []))
                k = len(lp.tokens) - len(tokens)
                shift = len(lp.tokens[0]) if k == 1 else 0
                expect(k in (0, 1) and (lp.tokens[k:], lp.token_logprobs[k:], lp.top_logprobs[k:]) == (tokens, values, tops)
                       and [o - shift for o in lp.text_offset[k:]] == offsets, "the answer differs from the text prompt's")
                expect(r.choices[0].text == "".join(lp.tokens), f"text {r.choices[0].text!r} vs tokens {lp.tokens!r}")

            @check(f"completion {p['name']} echo without logprobs: the prompt, then the answer")
            def _():
                r = client.completions.create(**kw)
                expect(r.choices[0].text == text + lossy(bytes(steps[-1]["bytes"])) and r.choices[0].logprobs is None,
                       f"{r.choices[0].text!r}")

        def copied_tokens():
            port = int(str(client.base_url).split(":")[2].split("/")[0])
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as m:
                return metric(m.read().decode(), "mlxcel_prompt_copied_tokens_total")

        p = next(p for p in prompts if not p["chat"])
        steps = p["steps"]
        kw = dict(model=model_id, prompt=p["text"], max_tokens=len(steps), extra_body={"ignore_eos": True})
        whole = {}

        @check(f"n=3 greedy ({p['name']}): three choices, each HF's greedy text and logprobs; usage counts the prompt once; "
               "choices 1 and 2 start from copies of choice 0's KV rows and logits (/metrics counts their prompts as copied)")
        def _():
            before = copied_tokens()
            r = client.completions.create(n=3, temperature=0, logprobs=1, **kw)
            copied = copied_tokens() - before
            expect(copied == 2 * len(p["prompt_ids"]), f"{copied} prompt tokens copied, not 2 x {len(p['prompt_ids'])}")
            expect([c.index for c in r.choices] == [0, 1, 2], f"indexes {[c.index for c in r.choices]}")
            for c in r.choices:
                expect(c.text == p["completion"], f"choice {c.index}: {c.text!r}")
                for i, s in enumerate(steps):
                    close(c.logprobs.token_logprobs[i], s["logprob"], f"choice {c.index} step {i}")
            expect(r.usage.prompt_tokens == len(p["prompt_ids"]) and r.usage.completion_tokens == 3 * len(steps), f"usage {r.usage}")
            # One token each: choice 0 finishes at its prefill, and the others copy the rows it left.
            before = copied_tokens()
            r = client.completions.create(n=3, temperature=0, logprobs=1, model=model_id, prompt=p["text"], max_tokens=1)
            copied = copied_tokens() - before
            expect(copied == 2 * len(p["prompt_ids"]), f"max_tokens 1: {copied} prompt tokens copied")
            for c in r.choices:
                close(c.logprobs.token_logprobs[0], steps[0]["logprob"], f"max_tokens 1, choice {c.index}")

        @check("n=4 sampled with a seed: choices drawn apart, the same four again with the same seed, the first one n=1's")
        def _():
            texts = [c.text for c in client.completions.create(n=4, temperature=1.0, seed=11, **kw).choices]
            expect(len(set(texts)) >= 2, f"the four choices are one text: {texts[0]!r}")
            again = [c.text for c in client.completions.create(n=4, temperature=1.0, seed=11, **kw).choices]
            expect(again == texts, "the same seed gave other choices")
            one = client.completions.create(n=1, temperature=1.0, seed=11, **kw).choices[0].text
            expect(one == texts[0], f"n=1 with the seed: {one!r}, n=4's first: {texts[0]!r}")
            whole["texts"] = texts

        @check("n=4 streamed: chunks carry their choice's index; each choice's text, finish and the usage as unstreamed")
        def _():
            texts, finishes, usage = [""] * 4, [None] * 4, None
            for c in client.completions.create(n=4, temperature=1.0, seed=11, stream=True, stream_options={"include_usage": True}, **kw):
                for ch in c.choices:
                    texts[ch.index] += ch.text
                    finishes[ch.index] = ch.finish_reason or finishes[ch.index]
                usage = c.usage or usage
            expect(texts == whole.get("texts"), f"streamed {texts} vs {whole.get('texts')}")
            expect(finishes == ["length"] * 4, f"finishes {finishes}")
            expect(usage and usage.completion_tokens == 4 * len(steps), f"usage {usage}")

        @check("chat n=2 streamed: each choice gets its role chunk and the greedy answer")
        def _():
            msgs = [{"role": "user", "content": "Hi"}]
            texts, roles = ["", ""], [0, 0]
            for c in client.chat.completions.create(model=model_id, messages=msgs, n=2, max_tokens=8, temperature=0, stream=True):
                for ch in c.choices:
                    roles[ch.index] += ch.delta.role == "assistant"
                    texts[ch.index] += ch.delta.content or ""
            one = client.chat.completions.create(model=model_id, messages=msgs, max_tokens=8, temperature=0).choices[0].message.content
            expect(roles == [1, 1] and texts == [one, one], f"roles {roles}, texts {texts} vs {one!r}")

        @check("n above the slots (4), or 0: 400 naming n")
        def _():
            for n in (5, 0):
                try:
                    client.completions.create(model=model_id, prompt="Hi", max_tokens=2, n=n)
                    raise AssertionError(f"n={n}: accepted")
                except openai.BadRequestError as e:
                    expect(api_error(e).get("param") == "n", f"n={n}: {e.body}")

        @check("logprobs out of range, or top_logprobs without logprobs: 400 naming the field")
        def _():
            msgs = [{"role": "user", "content": "Hi"}]
            for fn, param in [(lambda: client.completions.create(model=model_id, prompt="Hi", max_tokens=2, logprobs=6), "logprobs"),
                              (lambda: client.chat.completions.create(model=model_id, messages=msgs, max_tokens=2, logprobs=True,
                                                                      top_logprobs=21), "top_logprobs"),
                              (lambda: client.chat.completions.create(model=model_id, messages=msgs, max_tokens=2,
                                                                      top_logprobs=2), "top_logprobs")]:
                try:
                    fn()
                    raise AssertionError(f"{param}: accepted")
                except openai.BadRequestError as e:
                    err = api_error(e)
                    expect(err.get("param") == param, f"param {err.get('param')!r} in {e.body}")

        @check("a sampled request's logprobs: the chosen token's value is its listed alternative's")
        def _():
            r = client.chat.completions.create(model=model_id, messages=[{"role": "user", "content": "Tell me a story."}],
                                               max_tokens=12, temperature=1.0, seed=7, logprobs=True, top_logprobs=5)
            for e in r.choices[0].logprobs.content:
                listed = {bytes(t.bytes): t.logprob for t in e.top_logprobs}
                vals = [t.logprob for t in e.top_logprobs]
                expect(vals == sorted(vals, reverse=True), f"alternatives out of order: {vals}")
                if bytes(e.bytes) in listed:
                    expect(listed[bytes(e.bytes)] == e.logprob, f"{e.token!r}: {e.logprob} vs listed {listed[bytes(e.bytes)]}")
                else:
                    expect(e.logprob <= vals[-1], f"{e.token!r} ({e.logprob}) is unlisted but above the 5th ({vals[-1]})")
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    print(f"largest |logprob - HF| seen: {worst['diff']:.2e} (tolerance {TOL})")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
