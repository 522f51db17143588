#!/usr/bin/env python3
"""Prefix reuse: a prompt that starts with whole 512-token chunks a free slot still holds is prefilled
from the first chunk that differs, and gives the same tokens as a prefill from the start.

Oracle: HF transformers fp32 greedy text of SmolLM2 for a 1483-token prompt (the first of
tests/oracle/fixtures/smollm2-long.json), sent as token ids cold, and again after a two-turn chat on
its text has taken another slot and while a short generation decodes beside it (so the idle slot's
parked decode rows must miss the rows it holds): both answers must be HF's, and /metrics must count
exactly the whole chunks reused (the prompt's, and the second turn's, which starts with the first
turn's prompt). A server with --no-prefix-reuse gives the same answers and counts none; the second
turn's time to its first token is printed for both, and its answer must be the same.

usage: prefix_reuse_test.py --mlxcel build/mlxcel --model MODEL --fixture tests/oracle/fixtures/smollm2-long.json
Prints one line per check and "N passed, M failed" last.
"""
import argparse
import json
import re
import threading
import time
import urllib.request

from checks import check, expect, port_of, post_json, served_client, summary

CHUNK = 512


def hits(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as r:
        m = re.search(r"^mlxcel_prefix_cache_hit_tokens_total (\d+)$", r.read().decode(), re.M)
    return int(m.group(1))


def greedy(client, model, p):
    """The fixture prompt's greedy answer (sent as its token ids), and how long it took."""
    t0 = time.time()
    r = client.completions.create(model=model, prompt=p["prompt_ids"], max_tokens=len(p["greedy_ids"]), temperature=0,
                                  logprobs=0)
    return r, time.time() - t0


def first_prompt(port, messages):
    return post_json(port, "/apply-template", {"messages": messages})["prompt"]


def tokenize(port, text):
    return post_json(port, "/tokenize", {"content": text})["tokens"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    ap.add_argument("--fixture", required=True)
    a = ap.parse_args()
    p = json.load(open(a.fixture))["prompts"][0]  # 1483 tokens

    def serve(extra):
        proc, client, model = served_client(a.mlxcel, a.model, extra)
        return proc, client, model, port_of(client)

    results = {}
    for reuse in (True, False):
        proc, client, model, port = serve([] if reuse else ["--no-prefix-reuse"])
        label = "reuse" if reuse else "--no-prefix-reuse"
        try:
            @check(f"{label}: a 1483-token prompt cold, a two-turn chat on its text (another slot), then the prompt "
                   "again beside a concurrent short generation: HF's greedy text both times, the second with the first's "
                   "log-probabilities exactly; the second turn's time to its first token (printed); usage and /metrics "
                   "count exactly the whole chunks reused")
            def _():
                before = hits(port)
                r, cold = greedy(client, model, p)
                expect(r.choices[0].text == p["greedy_text"], f"cold: {r.choices[0].text!r} != {p['greedy_text']!r}")
                cold_lp = r.choices[0].logprobs.token_logprobs
                turn1 = [{"role": "user", "content": p["text"] + "\n\nWhat did the keeper oil on day 1?"}]
                first = client.chat.completions.create(model=model, messages=turn1, max_tokens=16, temperature=0)
                turn2 = turn1 + [{"role": "assistant", "content": first.choices[0].message.content},
                                 {"role": "user", "content": "And what passed the point before dusk?"}]
                t0, ttft, text = time.time(), None, ""
                for chunk in client.chat.completions.create(model=model, messages=turn2, max_tokens=16, temperature=0,
                                                            stream=True):
                    if chunk.choices and chunk.choices[0].delta.content:
                        ttft = ttft or time.time() - t0
                        text += chunk.choices[0].delta.content
                results[reuse] = (ttft, text)
                side = threading.Thread(target=lambda: client.completions.create(
                    model=model, prompt="Count slowly:", max_tokens=48, temperature=0))
                side.start()  # decodes in another slot while the prompt waits for its own, and after
                r, again = greedy(client, model, p)
                side.join()
                expect(r.choices[0].text == p["greedy_text"], f"again: {r.choices[0].text!r} != {p['greedy_text']!r}")
                # the reused rows are the ones a prefill from 0 writes: the answer's log-probabilities are the cold
                # run's exactly (rows clobbered by an idle slot's decode, or a chunk off by a row, show here first)
                lp0, lp1 = cold_lp, r.choices[0].logprobs.token_logprobs
                expect(lp1 == lp0, f"log-probabilities differ from the cold run's by up to "
                                   f"{max(abs(x - y) for x, y in zip(lp0, lp1)):.3g}")
                cached = r.usage.prompt_tokens_details.cached_tokens
                want_cached = (len(p["prompt_ids"]) - 1) // CHUNK * CHUNK if reuse else 0
                expect(cached == want_cached, f"usage.prompt_tokens_details.cached_tokens {cached}, want {want_cached}")
                got = hits(port) - before
                # the prompt's 2 whole chunks, and the second turn's (it starts with the first turn's prompt)
                n1 = len(tokenize(port, first_prompt(port, turn1)))
                want = (len(p["prompt_ids"]) - 1) // CHUNK * CHUNK + (n1 - 1) // CHUNK * CHUNK if reuse else 0
                expect(got == want, f"{got} reused tokens, want {want}")
                print(f"      prompt cold {cold:.2f} s, again {again:.2f} s; second turn: first token after {ttft:.2f} s, "
                      f"{text[:40]!r}")
        finally:
            proc.terminate()
            proc.wait(timeout=60)

    @check("the second turn's answer is the same with and without reuse (its time to the first token is printed, "
           "not judged: a measurement, not a gate)")
    def _():
        expect(results[True][1] == results[False][1], f"{results[True][1]!r} vs {results[False][1]!r}")
        print(f"      time to first token: {results[False][0]:.2f} s without reuse, {results[True][0]:.2f} s with "
              f"({results[False][0] / results[True][0]:.1f}x)")

    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
