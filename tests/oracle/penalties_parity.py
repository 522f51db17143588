"""presence_penalty, frequency_penalty and logit_bias against HF transformers fp32 (the fixture of
tests/oracle/hf_penalties.py), through both front ends:

- `mlxcel generate --presence-penalty P --frequency-penalty F --logit-bias ID=B --temperature 0`: the
  generated ids equal the fixture's, token for token;
- mlxcel-server through the official openai client (completions, streamed and not, and chat): the
  answer's text equals the fixture's decoded completion and usage counts the tokens.

A case whose penalties leave the plain greedy answer unchanged could not tell an engine that ignores
them, so each case must differ from its plain trajectory (the fixture records both).

    python3 tests/oracle/penalties_parity.py --mlxcel build/mlxcel --model MODEL.gguf \
        --fixture tests/oracle/fixtures/smollm2-penalties.json
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "server"))
from checks import api_error, check, expect, served_client, summary  # noqa: E402

import openai  # noqa: E402


def generate_args(a, case, steps, out_json):
    args = [a.mlxcel, "generate", "-m", a.model, "-p", case["text"], "--chat" if case["chat"] else "--no-chat",
            "--temperature", "0", "--ignore-eos", "-n", str(steps), "--json", out_json,
            "--presence-penalty", repr(case["presence_penalty"]), "--frequency-penalty", repr(case["frequency_penalty"])]
    for tid, bias in case["logit_bias"].items():
        args += ["--logit-bias", f"{tid}={bias!r}"]
    return args


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    ap.add_argument("--fixture", required=True)
    a = ap.parse_args()
    cases = json.load(open(a.fixture))["cases"]
    tmp = tempfile.mkdtemp(prefix="mlxcel-penalties-")

    for case in cases:
        steps = len(case["ids"])

        @check(f"fixture {case['name']}: the penalties change HF's greedy answer")
        def _():
            expect(case["ids"] != case["plain_ids"], "the penalised and plain trajectories are equal")

        @check(f"generate {case['name']}: ids equal HF's ({steps} steps)")
        def _():
            out = os.path.join(tmp, case["name"] + ".json")
            g = subprocess.run(generate_args(a, case, steps, out), capture_output=True, text=True, timeout=900)
            expect(g.returncode == 0, f"generate exit {g.returncode}: {g.stderr[-400:]}")
            j = json.load(open(out))
            expect(j["prompt_tokens"] == len(case["prompt_ids"]), f"prompt {j['prompt_tokens']} tokens, HF {len(case['prompt_ids'])}")
            got = j["generated_ids"]
            first = next((k for k, (x, y) in enumerate(zip(got, case["ids"])) if x != y), None)
            expect(got == case["ids"], f"first difference at step {first} (HF margin there "
                   f"{case['margins'][first] if first is not None else '-'}): {got[:first + 3 if first is not None else 8]} "
                   f"vs {case['ids'][:first + 3 if first is not None else 8]}")

    try:
        proc, client, model_id = served_client(a.mlxcel, a.model)
    except AssertionError as e:
        print(f"FAIL  server start: {e}")
        return 1
    try:
        for k, case in enumerate(cases):
            steps = len(case["ids"])
            kw = dict(max_tokens=steps, temperature=0, presence_penalty=case["presence_penalty"],
                      frequency_penalty=case["frequency_penalty"], logit_bias=case["logit_bias"] or None,
                      extra_body={"ignore_eos": True})
            stream = k % 2 == 1

            @check(f"openai client {case['name']} ({'chat' if case['chat'] else 'completion'}"
                   f"{', streamed' if stream else ''}): text equals HF's")
            def _():
                if case["chat"]:
                    msgs = [{"role": "user", "content": case["text"]}]
                    if stream:
                        chunks = list(client.chat.completions.create(model=model_id, messages=msgs, stream=True, **kw))
                        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
                    else:
                        r = client.chat.completions.create(model=model_id, messages=msgs, **kw)
                        text = r.choices[0].message.content
                        expect(r.usage.completion_tokens == steps, f"completion_tokens {r.usage.completion_tokens}")
                else:
                    if stream:
                        chunks = list(client.completions.create(model=model_id, prompt=case["text"], stream=True, **kw))
                        text = "".join(c.choices[0].text for c in chunks if c.choices)
                    else:
                        r = client.completions.create(model=model_id, prompt=case["text"], **kw)
                        text = r.choices[0].text
                        expect(r.usage.completion_tokens == steps, f"completion_tokens {r.usage.completion_tokens}")
                        expect(r.usage.prompt_tokens == len(case["prompt_ids"]), f"prompt_tokens {r.usage.prompt_tokens}")
                expect(text == case["completion"], f"{text!r} != HF {case['completion']!r}")

        @check("openai client: out-of-range penalties and biases are 400s naming the field")
        def _():
            for bad, param in [({"presence_penalty": 2.5}, "presence_penalty"), ({"frequency_penalty": -3}, "frequency_penalty"),
                               ({"logit_bias": {"99999999": 1}}, "logit_bias"), ({"logit_bias": {"5": 300}}, "logit_bias")]:
                try:
                    client.completions.create(model=model_id, prompt="Hi", max_tokens=2, **bad)
                    raise AssertionError(f"{bad} was accepted")
                except openai.BadRequestError as e:
                    err = api_error(e)
                    expect(err.get("param") == param, f"{bad}: param {err.get('param')!r} in {e.body}")
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
