#!/usr/bin/env python3
"""Function calling (tools, tool_choice, tool calls and tool results) through the official openai client.

Oracles: transformers' apply_chat_template (jinja2) renders the same conversation and tools as the
server's /apply-template; a Python reading of each documented call format (hermes <tool_call> tags,
Llama 3.1 JSON) judges what the server parsed out of the text; the jsonschema package validates the
arguments of forced calls against the function's parameters.

Three servers on the same model (SmolLM2-135M): with the hermes template, with the Llama 3.1 JSON
template (both from ../shared/data/chat-templates), and with the model's own template, which has no
tools (requests with tools are refused there).

usage: tools_test.py --mlxcel build/mlxcel --model MODEL --hf-tokenizer DIR --templates DIR
Prints one line per check and "N passed, M failed" last.
"""
import argparse
import copy
import json
import os
import re

import jsonschema
import openai
from transformers import AutoTokenizer

from checks import api_error, check, expect, port_of, post_json, served_client, summary

WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Get the current weather in a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "The city name"}},
                   "required": ["city"], "additionalProperties": False}}}
CLOCK = {"type": "function", "function": {
    "name": "get_time", "description": "Get the local time in a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "The city name"},
                                                    "hour24": {"type": "boolean", "description": "24-hour clock"}},
                   "required": ["city", "hour24"], "additionalProperties": False}}}
TOOLS = [WEATHER, CLOCK]
PARAMS = {t["function"]["name"]: t["function"]["parameters"] for t in TOOLS}
SEEDS = range(4)


def few_shot(city):
    """Three earlier weather questions answered by a call, its result and a sentence, then a new one:
    enough for a 135M model to write a call of its own."""
    msgs = []
    for i, c in enumerate(["Paris", "Tokyo", "Lima"]):
        msgs += [{"role": "user", "content": f"What is the weather in {c}?"},
                 {"role": "assistant", "content": None, "tool_calls": [
                     {"id": f"call_{i}", "type": "function",
                      "function": {"name": "get_weather", "arguments": json.dumps({"city": c})}}]},
                 {"role": "tool", "tool_call_id": f"call_{i}", "content": "20 C and sunny"},
                 {"role": "assistant", "content": f"It is 20 C and sunny in {c}."}]
    return msgs + [{"role": "user", "content": f"What is the weather in {city}?"}]


def normalised(messages):
    """What docs/server.md says the template gets: arguments as the object they hold, and a tool
    result's name from the call it answers."""
    msgs, names = copy.deepcopy(messages), {}
    for m in msgs:
        for tc in m.get("tool_calls") or []:
            tc["function"]["arguments"] = json.loads(tc["function"]["arguments"])
            names[tc["id"]] = tc["function"]["name"]
        if m["role"] == "tool" and "name" not in m and m["tool_call_id"] in names:
            m["name"] = names[m["tool_call_id"]]
    return msgs


def hermes_calls(text):
    """The calls in a hermes answer, as (name, arguments) pairs, or None when it holds none."""
    found = re.findall(r"<tool_call>(.*?)(?:</tool_call>|$)", text, re.S)
    if not found:
        return None
    calls = []
    for body in found:
        j = json.loads(body)
        calls.append((j["name"], j["arguments"]))
    return calls


def apply_template(port, body):
    return post_json(port, "/apply-template", body)["prompt"]


def joined_stream(stream, deltas=None):
    """A streamed answer put together as the openai client's users do: content, calls by index, finish
    (and each tool-call delta appended to `deltas` when given)."""
    content, calls, finish = "", {}, None
    for chunk in stream:
        if not chunk.choices:
            continue
        c = chunk.choices[0]
        content += c.delta.content or ""
        for tc in c.delta.tool_calls or []:
            if deltas is not None:
                deltas.append(tc)
            slot = calls.setdefault(tc.index, {"id": None, "name": "", "arguments": ""})
            slot["id"] = tc.id or slot["id"]
            slot["name"] += tc.function.name or ""
            slot["arguments"] += tc.function.arguments or ""
        finish = c.finish_reason or finish
    return content, [calls[k] for k in sorted(calls)], finish


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    ap.add_argument("--hf-tokenizer", required=True)
    ap.add_argument("--templates", required=True)
    a = ap.parse_args()
    hf = AutoTokenizer.from_pretrained(a.hf_tokenizer)
    templates = {name: open(os.path.join(a.templates, f)).read()
                 for name, f in [("hermes", "hermes-tools.jinja"), ("llama3", "llama3.1-tools-json.jinja")]}

    def oracle(template, messages, tools):
        return hf.apply_chat_template(normalised(messages), tools=tools, chat_template=template,
                                      add_generation_prompt=True, tokenize=False)

    # ---------------------------------------------------------------------------------------------- hermes
    proc, client, model = served_client(a.mlxcel, a.model,
                                        ["--chat-template", os.path.join(a.templates, "hermes-tools.jinja")])
    port = port_of(client)

    def chat(messages, **kw):
        return client.chat.completions.create(model=model, messages=messages, tools=TOOLS, max_tokens=80, **kw)

    try:
        @check("hermes: /apply-template of tools, tool calls and tool results is transformers' apply_chat_template "
               "(jinja2) of the normalised conversation")
        def _():
            for msgs in [[{"role": "user", "content": "Weather in Oslo?"}], few_shot("Rome")]:
                got = apply_template(port, {"messages": msgs, "tools": TOOLS})
                expect(got == oracle(templates["hermes"], msgs, TOOLS), f"rendered differently:\n{got[-400:]}")

        @check("hermes, auto, greedy: the tool_choice none answer to the same prompt holds a <tool_call>; auto gives "
               "exactly the calls a Python reading of that text finds, content null, finish tool_calls")
        def _():
            raw = chat(few_shot("Rome"), tool_choice="none", temperature=0).choices[0]
            want = hermes_calls(raw.message.content)
            expect(raw.message.tool_calls is None and want, f"no call in the none answer: {raw.message.content!r}")
            got = chat(few_shot("Rome"), tool_choice="auto", temperature=0).choices[0]
            expect(got.finish_reason == "tool_calls", f"finish {got.finish_reason}")
            expect(got.message.content is None, f"content {got.message.content!r}")
            calls = [(t.function.name, json.loads(t.function.arguments)) for t in got.message.tool_calls]
            expect(calls == want, f"{calls} != {want}")
            expect(all(t.id.startswith("call_") and t.type == "function" for t in got.message.tool_calls), "ids")

        @check("hermes, auto, streamed: the deltas join to the same calls and finish tool_calls, no content")
        def _():
            whole = chat(few_shot("Rome"), tool_choice="auto", temperature=0).choices[0].message.tool_calls
            content, calls, finish = joined_stream(chat(few_shot("Rome"), tool_choice="auto", temperature=0, stream=True))
            expect(finish == "tool_calls" and content == "", f"finish {finish}, content {content!r}")
            expect([(c["name"], c["arguments"]) for c in calls] == [(t.function.name, t.function.arguments) for t in whole],
                   f"{calls} vs {whole}")

        @check("hermes, auto, a question the model answers in words: the text is the content, finish stop or length")
        def _():
            raw = chat([{"role": "user", "content": "Say hello."}], tool_choice="none", temperature=0).choices[0]
            got = chat([{"role": "user", "content": "Say hello."}], tool_choice="auto", temperature=0).choices[0]
            expect(hermes_calls(raw.message.content) is None, f"the model called: {raw.message.content!r}")
            expect(got.message.content == raw.message.content and got.message.tool_calls is None, f"{got.message}")
            content, calls, finish = joined_stream(chat([{"role": "user", "content": "Say hello."}], temperature=0, stream=True))
            expect(content == raw.message.content and not calls and finish == got.finish_reason, f"streamed {content!r}")

        @check(f"hermes, a named function, greedy and {len(SEEDS)} seeds: greedy and each seeded answer that stops "
               "is one call of it whose arguments validate against its parameters (jsonschema), an answer cut by "
               "max_tokens is the start of such a call; streamed greedy gives the same call, name first, then the "
               "arguments in pieces")
        def _():
            pick = {"type": "function", "function": {"name": "get_time"}}
            msgs = [{"role": "user", "content": "What time is it in Oslo?"}]
            answers = [chat(msgs, tool_choice=pick, temperature=0)] + \
                      [chat(msgs, tool_choice=pick, temperature=1.0, seed=s) for s in SEEDS]
            # At temperature 1 a string argument can run on past max_tokens (the schema cannot end it):
            # such an answer must still be the named call as far as it goes.
            opening = re.compile(r'\s*(<tool_call>\s*)?\{\s*"name"\s*:\s*"get_time"\s*,\s*"arguments"\s*:\s*\{')
            stopped = 0
            for n, r in enumerate(answers):
                c = r.choices[0]
                if n and c.finish_reason == "length":
                    expect(opening.match(c.message.content or ""), f"cut by max_tokens: {c.message.content!r}")
                    continue
                stopped += n > 0
                expect(c.finish_reason == "tool_calls" and len(c.message.tool_calls) == 1, f"{c.finish_reason} {c.message}")
                t = c.message.tool_calls[0]
                expect(t.function.name == "get_time", t.function.name)
                jsonschema.validate(json.loads(t.function.arguments), PARAMS["get_time"])
            expect(stopped >= 1, "every seeded answer was cut by max_tokens")
            print(f"      {stopped} of {len(SEEDS)} seeded answers stopped")
            deltas = []
            content, calls, finish = joined_stream(chat(msgs, tool_choice=pick, temperature=0, stream=True), deltas)
            t = answers[0].choices[0].message.tool_calls[0]
            expect(finish == "tool_calls" and content == "" and
                   [(c["name"], c["arguments"]) for c in calls] == [(t.function.name, t.function.arguments)],
                   f"streamed {calls}, {finish}")
            # as OpenAI streams a call: id, type and name first with empty arguments, then argument pieces
            first, rest = deltas[0], deltas[1:]
            expect(first.id and first.type == "function" and first.function.name == "get_time" and
                   first.function.arguments == "", f"first delta {first}")
            expect(len(rest) >= 2 and all(d.id is None and d.function.name is None for d in rest), f"{len(rest)} pieces")

        @check(f"hermes, required over two tools, {len(SEEDS)} seeds and greedy: each answer that stops is one call of "
               "one of them whose arguments validate against that function's parameters (jsonschema)")
        def _():
            msgs = [{"role": "user", "content": "What is the weather in Oslo?"}]
            stopped = 0
            for kw in [dict(temperature=0)] + [dict(temperature=1.0, seed=s) for s in SEEDS]:
                c = chat(msgs, tool_choice="required", **kw).choices[0]
                if c.finish_reason == "length":
                    continue
                stopped += 1
                expect(c.finish_reason == "tool_calls" and len(c.message.tool_calls) == 1, f"{c.finish_reason} {c.message}")
                t = c.message.tool_calls[0]
                expect(t.function.name in PARAMS, f"{t}")
                jsonschema.validate(json.loads(t.function.arguments), PARAMS[t.function.name])
            expect(stopped >= 1, "every answer was cut by max_tokens")
            print(f"      {stopped} of {len(SEEDS) + 1} stopped")

        @check("hermes, a two-turn round trip: the client's own assistant message and a tool result go back; the "
               "prompt is jinja2's rendering of it, and the answer is text")
        def _():
            msgs = few_shot("Rome")
            first = chat(msgs, tool_choice="auto", temperature=0).choices[0].message
            expect(first.tool_calls, "no call in the first turn")
            msgs = msgs + [first.model_dump(exclude_none=True),
                           {"role": "tool", "tool_call_id": first.tool_calls[0].id, "content": "18 C and cloudy"}]
            got = apply_template(port, {"messages": msgs, "tools": TOOLS})
            expect(got == oracle(templates["hermes"], msgs, TOOLS), f"rendered differently:\n{got[-400:]}")
            second = chat(msgs, tool_choice="none", temperature=0).choices[0]
            expect(second.message.content and second.finish_reason in ("stop", "length"), f"{second}")
            print(f"      second turn: {second.message.content[:60]!r}")

        @check("hermes, n=2 with a named function: both choices are calls of it")
        def _():
            r = chat([{"role": "user", "content": "Weather in Oslo?"}], n=2, temperature=1.0, seed=3,
                     tool_choice={"type": "function", "function": {"name": "get_weather"}})
            expect(len(r.choices) == 2, f"{len(r.choices)} choices")
            for c in r.choices:
                expect(c.finish_reason == "tool_calls" and c.message.tool_calls[0].function.name == "get_weather", f"{c}")

        @check("hermes, bad input: an unknown function named, a strict schema outside the subset, a tool result "
               "without tool_call_id, tools on completions: a 400 naming the field")
        def _():
            cases = [(dict(tool_choice={"type": "function", "function": {"name": "nope"}}), "tool_choice"),
                     (dict(tools=[{"type": "function", "function": {"name": "f", "strict": True, "parameters": {
                         "type": "object", "properties": {"x": {"type": "string", "minLength": 2}}}}}]), "tools[0]"),
                     (dict(messages=[{"role": "tool", "content": "x"}]), "messages[0].tool_call_id")]
            for kw, param in cases:
                body = dict(model=model, messages=[{"role": "user", "content": "hi"}], tools=TOOLS, max_tokens=4)
                body.update(kw)
                try:
                    client.chat.completions.create(**body)
                    expect(False, f"accepted {kw}")
                except openai.BadRequestError as e:
                    expect(api_error(e).get("param") == param, f"{api_error(e)}")
            try:
                client.completions.create(model=model, prompt="hi", max_tokens=4, extra_body={"tools": TOOLS})
                expect(False, "completions took tools")
            except openai.BadRequestError as e:
                expect(api_error(e).get("param") == "tools", f"{api_error(e)}")
    finally:
        proc.terminate()
        proc.wait(timeout=60)

    # ---------------------------------------------------------------------------------------- llama3.1 json
    proc, client, model = served_client(a.mlxcel, a.model,
                                        ["--chat-template", os.path.join(a.templates, "llama3.1-tools-json.jinja")])
    port = port_of(client)
    try:
        @check("llama3-json: /apply-template with tools is jinja2's; a named function (decoded as {\"name\", "
               "\"parameters\"}) gives one call of it whose arguments validate")
        def _():
            msgs = [{"role": "user", "content": "What is the weather in Oslo?"}]
            got = apply_template(port, {"messages": msgs, "tools": TOOLS})
            expect(got == oracle(templates["llama3"], msgs, TOOLS), f"rendered differently:\n{got[-400:]}")
            pick = {"type": "function", "function": {"name": "get_weather"}}
            r = client.chat.completions.create(model=model, messages=msgs, tools=TOOLS, tool_choice=pick, temperature=0,
                                               max_tokens=60)
            t = r.choices[0].message.tool_calls[0]
            expect(r.choices[0].finish_reason == "tool_calls" and t.function.name == "get_weather", f"{r.choices[0]}")
            jsonschema.validate(json.loads(t.function.arguments), PARAMS["get_weather"])
            raw = client.chat.completions.create(model=model, messages=msgs, tools=TOOLS, tool_choice="none",
                                                 temperature=0, max_tokens=60).choices[0].message.content
            print(f"      unforced greedy text: {raw[:60]!r}")
    finally:
        proc.terminate()
        proc.wait(timeout=60)

    # ------------------------------------------------------------------------------- the model's own template
    proc, client, model = served_client(a.mlxcel, a.model)
    try:
        @check("the model's own template (no tools in it): tools are a 400 tools_not_supported naming tools and the "
               "remedy; the same request without tools is answered")
        def _():
            msgs = [{"role": "user", "content": "hi"}]
            try:
                client.chat.completions.create(model=model, messages=msgs, tools=TOOLS, max_tokens=4)
                expect(False, "accepted tools")
            except openai.BadRequestError as e:
                err = api_error(e)
                expect(err.get("param") == "tools" and err.get("code") == "tools_not_supported" and
                       "--chat-template" in err.get("message", ""), f"{err}")
            r = client.chat.completions.create(model=model, messages=msgs, max_tokens=4)
            expect(r.choices[0].message.content is not None, "no answer")
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
