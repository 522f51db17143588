#!/usr/bin/env python3
"""response_format json_object and json_schema through the official openai client, judged by Python's
json and by the jsonschema package's validator.

Sampled chat answers (several prompts x seeds at temperature 1, and greedy ones) on mlxcel-server:
every answer that ends with finish_reason "stop" must parse with json.loads as an object (the text
the model wrote, nothing around it); an answer cut by max_tokens ("length") is counted, not parsed.
json_schema: random schemas of the supported subset (nested objects, arrays, enums, every type), two
seeds each; every answer that stops must validate against its schema. Also: the stream gives the same
text as the whole answer, n = 2 choices each parse, and the refusals (a schema keyword outside the
subset, named; an unknown type; a malformed response_format) name the field.

usage: structured_output_test.py --mlxcel build/mlxcel --model MODEL
Prints one line per check and "N passed, M failed" last.
"""
import argparse
import json
import random
from concurrent.futures import ThreadPoolExecutor

import jsonschema
import openai

from checks import api_error, check, expect, served_client, summary

PROMPTS = ["Describe a cat as a JSON object.", "Give me a JSON object with a name and an age.",
           "List three fruits with their colours in JSON."]
SEEDS = range(8)
MAX_TOKENS = 160
JSON = {"type": "json_object"}


N_SCHEMAS = 10
WORDS = ["name", "age", "city", "color", "size", "tags", "score", "ok", "kind", "items", "id", "note"]


def random_schema(rng, depth=0):
    """An object schema of the subset mlxcel takes: every property required, no others allowed."""
    def value(d):
        r = rng.random()
        if r < 0.25:
            return {"type": "string"}
        if r < 0.4:
            return {"type": rng.choice(["integer", "number"])}
        if r < 0.5:
            return {"type": rng.choice(["boolean", "null"])}
        if r < 0.65:
            return {"enum": rng.sample(["red", "green", "blue", "small", "big", 1, 2, 10, True, None], rng.randint(1, 4))}
        if r < 0.8 or d >= 2:
            return {"type": "array", "items": {"type": rng.choice(["string", "integer"])} if rng.random() < 0.6
                    else {"enum": ["a", "b", "c"]}}
        return random_schema(rng, d + 1)
    names = rng.sample(WORDS, rng.randint(1, 4 if depth == 0 else 2))
    return {"type": "object", "properties": {n: value(depth) for n in names}, "required": names,
            "additionalProperties": False}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    a = ap.parse_args()
    proc, client, model_id = served_client(a.mlxcel, a.model)

    def ask(prompt, **kw):
        return client.chat.completions.create(model=model_id, messages=[{"role": "user", "content": prompt}],
                                              response_format=JSON, max_tokens=MAX_TOKENS, **kw)

    try:
        @check(f"json_object, {len(PROMPTS)} prompts x {len(SEEDS)} seeds at temperature 1 and greedy: every answer "
               "that stops parses as a JSON object; most stop before max_tokens")
        def _():
            stopped, cut = 0, 0
            asks = [(prompt, kw) for prompt in PROMPTS
                    for kw in [dict(temperature=1.0, seed=s) for s in SEEDS] + [dict(temperature=0)]]
            with ThreadPoolExecutor(4) as pool:  # the server's 4 slots
                answers = list(pool.map(lambda pk: ask(pk[0], **pk[1]).choices[0], asks))
            for (prompt, kw), c in zip(asks, answers):
                if c.finish_reason == "length":
                    cut += 1
                    expect(c.message.content.lstrip().startswith("{"), f"{kw}: {c.message.content[:80]!r}")
                    continue
                expect(c.finish_reason == "stop", f"{kw}: finish {c.finish_reason}")
                try:
                    value = json.loads(c.message.content)
                except json.JSONDecodeError as e:
                    raise AssertionError(f"{prompt!r} {kw}: {e}: {c.message.content!r}")
                expect(isinstance(value, dict), f"{kw}: not an object: {c.message.content!r}")
                stopped += 1
            total = stopped + cut
            print(f"      {stopped} of {total} stopped and parsed, {cut} cut by max_tokens {MAX_TOKENS}")
            expect(stopped * 2 >= total, f"only {stopped} of {total} answers closed their object")

        @check("json_object streamed: the chunks' text is the whole answer's (same seed)")
        def _():
            whole = ask(PROMPTS[1], temperature=1.0, seed=3).choices[0].message.content
            got = "".join(c.choices[0].delta.content or "" for c in
                          client.chat.completions.create(model=model_id, messages=[{"role": "user", "content": PROMPTS[1]}],
                                                         response_format=JSON, max_tokens=MAX_TOKENS, temperature=1.0,
                                                         seed=3, stream=True) if c.choices)
            expect(got == whole, f"{got!r} vs {whole!r}")

        @check("json_object with n=2: each choice that stops parses as an object")
        def _():
            r = ask(PROMPTS[0], temperature=1.0, seed=5, n=2)
            expect(len(r.choices) == 2, f"{len(r.choices)} choices")
            for c in r.choices:
                if c.finish_reason == "stop":
                    expect(isinstance(json.loads(c.message.content), dict), c.message.content)

        @check(f"json_schema: {N_SCHEMAS} random schemas (nested objects, arrays, enums, every type) x 2 seeds: every "
               "answer that stops validates with jsonschema; most stop before max_tokens")
        def _():
            asks = []
            for k in range(N_SCHEMAS):
                schema = random_schema(random.Random(k))
                rf = {"type": "json_schema", "json_schema": {"name": f"s{k}", "schema": schema, "strict": True}}
                prompt = "Reply with a JSON object with the fields " + ", ".join(schema["properties"]) + "."
                asks += [(schema, rf, prompt, seed) for seed in (0, 1)]

            def one(a):
                schema, rf, prompt, seed = a
                return client.chat.completions.create(model=model_id, messages=[{"role": "user", "content": prompt}],
                                                      response_format=rf, max_tokens=MAX_TOKENS, temperature=1.0,
                                                      seed=seed).choices[0]
            with ThreadPoolExecutor(4) as pool:
                answers = list(pool.map(one, asks))
            stopped = 0
            for (schema, _rf, _p, seed), c in zip(asks, answers):
                if c.finish_reason == "length":
                    continue
                expect(c.finish_reason == "stop", f"finish {c.finish_reason}")
                try:
                    jsonschema.validate(json.loads(c.message.content), schema)
                except (json.JSONDecodeError, jsonschema.ValidationError) as e:
                    raise AssertionError(f"{json.dumps(schema)} seed {seed}: {e}: {c.message.content!r}")
                stopped += 1
            print(f"      {stopped} of {len(asks)} stopped and validated, {len(asks) - stopped} cut by max_tokens {MAX_TOKENS}")
            expect(stopped * 2 >= len(asks), f"only {stopped} of {len(asks)} answers closed their object")

        @check("json_schema anyOf as a discriminated union (three objects told apart by a first const) x 4 seeds and "
               "greedy: every answer that stops validates with jsonschema")
        def _():
            def alt(kind, **props):
                props = {"kind": {"const": kind}, **props}
                return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}
            schema = {"anyOf": [alt("cat", name={"type": "string"}, lives={"type": "integer"}),
                                alt("dog", name={"type": "string"}, good={"type": "boolean"}),
                                alt("fish", fins={"type": "integer"}, colour={"enum": ["red", "blue"]})]}
            rf = {"type": "json_schema", "json_schema": {"name": "pet", "schema": schema, "strict": True}}
            stopped, kinds = 0, []
            for kw in [dict(temperature=0)] + [dict(temperature=1.0, seed=s) for s in range(4)]:
                c = client.chat.completions.create(model=model_id, response_format=rf, max_tokens=MAX_TOKENS,
                                                   messages=[{"role": "user", "content": "Describe a pet as JSON."}],
                                                   **kw).choices[0]
                if c.finish_reason == "length":
                    continue
                value = json.loads(c.message.content)
                jsonschema.validate(value, schema)
                stopped, kinds = stopped + 1, kinds + [value["kind"]]
            print(f"      {stopped} of 5 stopped and validated: {kinds}")
            expect(stopped >= 1, "every answer was cut by max_tokens")

        @check("response_format refusals: json_schema outside the subset (named), an unknown type, not an object: 400 naming it")
        def _():
            schema = {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "object", "properties": {
                "a": {"type": "string", "pattern": "^x"}}}}}
            for rf, code in [(schema, "invalid_value"), ({"type": "yaml"}, "invalid_value"),
                             ("json_object", "invalid_type")]:
                try:
                    client.chat.completions.create(model=model_id, messages=[{"role": "user", "content": "hi"}],
                                                   response_format=rf, max_tokens=4)
                    raise AssertionError(f"{rf}: accepted")
                except openai.BadRequestError as e:
                    err = api_error(e)
                    expect(err.get("param") == "response_format" and err.get("code") == code, f"{rf}: {e.body}")
                    if rf is schema:
                        expect("'pattern' is not supported" in err.get("message", ""), err.get("message"))
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
