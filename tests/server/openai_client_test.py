#!/usr/bin/env python3
"""The live server against the official `openai` Python client (the judge of OpenAI compatibility).

Starts `mlxcel-server` on a free loopback port with SmolLM2, then checks completions and chat,
streaming and not, stop strings, usage counts, finish reasons, seeds, 16 concurrent requests,
cancellation (a stream closed mid-way gives its slot back), bad requests (4xx with an OpenAI error
object while the server keeps serving), the API key, the body limit, /metrics, that a greedy
completion equals `mlxcel generate --no-chat --temperature 0`, and a clean SIGTERM exit.

usage: openai_client_test.py --mlxcel build/mlxcel --model MODEL [--slots 4]
Prints one line per check and "N passed, M failed" last.
"""
import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import openai

from checks import check, expect, launch, metric, summary

KEY = "test-key-123"
MAX_BODY = 65536
PROMPTS = ["Once upon a time", "The capital of France is", "def fibonacci(n):", "My favourite colour is"]


class Server:
    def __init__(self, binary, model, extra):
        args = [binary, "-m", model, "--port", "0", "--api-key", KEY, "--max-body", str(MAX_BODY), "--timeout", "5"] + extra
        try:
            self.proc, self.port, self.stderr_lines = launch(args)
        except AssertionError as e:
            raise SystemExit(str(e))

    def raw(self, method, path, body=None, headers=None, timeout=60):
        """One plain HTTP request; returns (status, headers, body bytes)."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        h = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
        h.update(headers or {})
        c.request(method, path, body=body, headers=h)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, dict(r.getheaders()), data

    def health(self):
        return json.loads(self.raw("GET", "/health")[2])

    def metrics(self):
        return self.raw("GET", "/metrics")[2].decode()




def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    ap.add_argument("--slots", default="4")
    a = ap.parse_args()
    server_bin = os.path.join(os.path.dirname(a.mlxcel), "mlxcel-server")
    srv = Server(server_bin, a.model, ["--slots", a.slots, "--queue", "64"])
    base = f"http://127.0.0.1:{srv.port}/v1"
    client = openai.OpenAI(base_url=base, api_key=KEY, max_retries=0, timeout=120)
    print(f"server on port {srv.port} (pid {srv.proc.pid})", flush=True)
    model_id = None
    ref = {}  # greedy 12-token completion of each prompt

    @check("GET /v1/models lists the served model")
    def _():
        nonlocal model_id
        models = client.models.list().data
        expect(len(models) == 1, f"{len(models)} models")
        model_id = models[0].id
        expect(model_id == os.path.basename(a.model), f"id {model_id}")

    @check("completion: text, finish_reason length, usage counts")
    def _():
        r = client.completions.create(model=model_id, prompt=PROMPTS[0], max_tokens=12, temperature=0)
        ch = r.choices[0]
        expect(ch.text, "empty text")
        expect(ch.finish_reason == "length", f"finish {ch.finish_reason}")
        expect(r.usage.completion_tokens == 12, f"completion_tokens {r.usage.completion_tokens}")
        ids = subprocess.run([a.mlxcel, "tokenize", "-m", a.model, "-p", PROMPTS[0]], capture_output=True, text=True,
                             check=True).stdout.split("\n")[0].split()
        expect(r.usage.prompt_tokens == len(ids), f"prompt_tokens {r.usage.prompt_tokens}, tokenize says {len(ids)}")
        expect(r.usage.total_tokens == r.usage.prompt_tokens + 12, "total_tokens")
        expect(r.object == "text_completion" and r.id.startswith("cmpl-") and r.model == model_id, "envelope")
        ref[PROMPTS[0]] = ch.text

    @check("greedy completion equals `mlxcel generate --no-chat --temperature 0`")
    def _():
        n = 24
        r = client.completions.create(model=model_id, prompt=PROMPTS[1], max_tokens=n, temperature=0)
        g = subprocess.run([a.mlxcel, "generate", "-m", a.model, "-p", PROMPTS[1], "--no-chat", "--temperature", "0",
                            "-n", str(n)], capture_output=True, text=True, timeout=600)
        expect(g.returncode == 0, f"generate exit {g.returncode}: {g.stderr[-300:]}")
        want = g.stdout[:-1] if g.stdout.endswith("\n") else g.stdout
        expect(r.choices[0].text == want, f"server {r.choices[0].text!r} != generate {want!r}")

    @check("streamed completion: same text as non-streamed, finish_reason, usage chunk")
    def _():
        chunks = list(client.completions.create(model=model_id, prompt=PROMPTS[0], max_tokens=12, temperature=0,
                                                stream=True, stream_options={"include_usage": True}))
        text = "".join(c.choices[0].text for c in chunks if c.choices)
        expect(text == ref[PROMPTS[0]], f"{text!r} != {ref[PROMPTS[0]]!r}")
        finishes = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
        expect(finishes == ["length"], f"finish reasons {finishes}")
        expect(chunks[-1].usage is not None and chunks[-1].usage.completion_tokens == 12, "usage chunk")
        expect(len(chunks) >= 4, f"only {len(chunks)} chunks: not streamed")

    chat_msgs = [{"role": "user", "content": "Say hello in one short sentence."}]
    chat_ref = {}

    @check("chat: assistant message, finish_reason stop at EOS, usage")
    def _():
        r = client.chat.completions.create(model=model_id, messages=chat_msgs, max_tokens=120, temperature=0)
        ch = r.choices[0]
        expect(ch.message.role == "assistant" and ch.message.content, "no assistant content")
        expect(ch.finish_reason == "stop", f"finish {ch.finish_reason} after {r.usage.completion_tokens} tokens")
        expect(r.usage.completion_tokens < 120, "no EOS")
        expect(r.object == "chat.completion" and r.id.startswith("chatcmpl-"), "envelope")
        chat_ref.update(text=ch.message.content, usage=r.usage)

    @check("chat stream: role first, same content, usage equal to non-streamed")
    def _():
        chunks = list(client.chat.completions.create(model=model_id, messages=chat_msgs, max_tokens=120, temperature=0,
                                                     stream=True, stream_options={"include_usage": True}))
        expect(chunks[0].choices[0].delta.role == "assistant", "first delta has no role")
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        expect(text == chat_ref["text"], f"{text!r} != {chat_ref['text']!r}")
        expect([c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason] == ["stop"],
               "finish")
        u = chunks[-1].usage
        expect(u.prompt_tokens == chat_ref["usage"].prompt_tokens and u.completion_tokens == chat_ref["usage"].completion_tokens,
               f"usage {u} vs {chat_ref['usage']}")

    @check("stop strings (string and array, streamed and not): text ends before the stop, finish stop")
    def _():
        full = ref[PROMPTS[0]]
        words = full.split()
        stop = " " + words[len(words) // 2]
        cut = full[:full.index(stop)]
        r = client.completions.create(model=model_id, prompt=PROMPTS[0], max_tokens=12, temperature=0, stop=stop)
        expect(r.choices[0].text == cut and r.choices[0].finish_reason == "stop",
               f"{r.choices[0].text!r} ({r.choices[0].finish_reason}) != {cut!r}")
        r = client.completions.create(model=model_id, prompt=PROMPTS[0], max_tokens=12, temperature=0,
                                      stop=["never-there", stop])
        expect(r.choices[0].text == cut and r.choices[0].finish_reason == "stop", "array stop")
        s = "".join(c.choices[0].text for c in client.completions.create(model=model_id, prompt=PROMPTS[0], max_tokens=12,
                                                                          temperature=0, stop=[stop], stream=True))
        expect(s == cut, f"streamed {s!r} != {cut!r}")

    @check("seed: the same seed gives the same sampled text")
    def _():
        kw = dict(model=model_id, prompt=PROMPTS[3], max_tokens=10, temperature=0.9, top_p=0.95, seed=1234)
        t1 = client.completions.create(**kw).choices[0].text
        t2 = client.completions.create(**kw).choices[0].text
        expect(t1 == t2, f"{t1!r} != {t2!r}")

    @check("16 concurrent requests (threads): all succeed, each greedy text equals its single run")
    def _():
        for p in PROMPTS[1:]:
            ref[p] = client.completions.create(model=model_id, prompt=p, max_tokens=12, temperature=0).choices[0].text
        out, errs = [None] * 16, []

        def one(i):
            try:
                kind = i % 2
                p = PROMPTS[i % 4]
                if kind == 0:
                    out[i] = client.completions.create(model=model_id, prompt=p, max_tokens=12, temperature=0).choices[0].text
                else:
                    out[i] = "".join(c.choices[0].text for c in client.completions.create(
                        model=model_id, prompt=p, max_tokens=12, temperature=0, stream=True))
            except Exception as e:  # noqa: BLE001
                errs.append(f"{i}: {e}")

        th = [threading.Thread(target=one, args=(i,)) for i in range(16)]
        for t in th:
            t.start()
        for t in th:
            t.join(300)
        expect(not errs, f"errors: {errs[:3]}")
        bad = [i for i in range(16) if out[i] != ref[PROMPTS[i % 4]]]
        expect(not bad, f"requests {bad} differ from their single run, e.g. {out[bad[0]]!r}" if bad else "")

    @check("cancellation: a stream closed mid-way gives its slot back; the server still serves")
    def _():
        before = metric(srv.metrics(), 'mlxcel_generations_total{reason="cancelled"}') or 0
        stream = client.completions.create(model=model_id, prompt=PROMPTS[0], max_tokens=400, temperature=0, stream=True)
        got = 0
        for _c in stream:
            got += 1
            if got == 3:
                break
        expect(srv.health()["active"] >= 1, "the request was not running")
        stream.close()
        t0 = time.time()
        while srv.health()["active"] > 0 and time.time() - t0 < 10:
            time.sleep(0.05)
        expect(srv.health()["active"] == 0, "the slot did not come back within 10 s")
        after = metric(srv.metrics(), 'mlxcel_generations_total{reason="cancelled"}')
        expect(after == before + 1, f"cancelled count {before} -> {after}")
        r = client.completions.create(model=model_id, prompt=PROMPTS[0], max_tokens=12, temperature=0)
        expect(r.choices[0].text == ref[PROMPTS[0]], "serves differently after a cancellation")

    def expect_api_error(exc_type, status, param, fn, code=None):
        try:
            fn()
        except exc_type as e:
            expect(e.status_code == status, f"status {e.status_code}")
            err = e.body if isinstance(e.body, dict) else {}
            err = err.get("error", err)  # the client unwraps "error" on some versions
            expect(err.get("param") == param, f"param {err.get('param')!r} != {param!r} in {e.body}")
            expect(err.get("type") == "invalid_request_error" and err.get("message"), f"error object {e.body}")
            if code:
                expect(err.get("code") == code, f"code {err.get('code')}")
            return
        raise AssertionError(f"no {exc_type.__name__}")

    @check("unsupported fields refused with 400 naming the field (n above the slots, best_of, suffix; tools, since "
           "SmolLM2's template shows none)")
    def _():
        c = client.completions
        expect_api_error(openai.BadRequestError, 400, "n", lambda: c.create(model=model_id, prompt="a", n=99))  # > the slots
        expect_api_error(openai.BadRequestError, 400, "best_of", lambda: c.create(model=model_id, prompt="a", best_of=2))
        expect_api_error(openai.BadRequestError, 400, "suffix", lambda: c.create(model=model_id, prompt="a", suffix="z"))
        tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]
        expect_api_error(openai.BadRequestError, 400, "tools",
                         lambda: client.chat.completions.create(model=model_id, messages=chat_msgs, tools=tools),
                         code="tools_not_supported")

    @check("bad values refused with 400 (max_tokens -1 / over capacity, temperature 5, empty prompt, 9 stops)")
    def _():
        c = client.completions
        expect_api_error(openai.BadRequestError, 400, "max_tokens", lambda: c.create(model=model_id, prompt="a", max_tokens=-1))
        expect_api_error(openai.BadRequestError, 400, "max_tokens",
                         lambda: c.create(model=model_id, prompt="a", max_tokens=10 ** 9))
        expect_api_error(openai.BadRequestError, 400, "temperature",
                         lambda: c.create(model=model_id, prompt="a", temperature=5))
        expect_api_error(openai.BadRequestError, 400, "prompt", lambda: c.create(model=model_id, prompt=""))
        expect_api_error(openai.BadRequestError, 400, "stop",
                         lambda: c.create(model=model_id, prompt="a", stop=[str(i) for i in range(9)]))
        expect_api_error(openai.BadRequestError, 400, "messages",
                         lambda: client.chat.completions.create(model=model_id, messages=[]))
        # Over the default capacity (SmolLM2's maximum, 8192 positions): about 9000 tokens.
        expect_api_error(openai.BadRequestError, 400, "prompt",
                         lambda: c.create(model=model_id, prompt="hello " * 9000), code="context_length_exceeded")

    @check("unknown model: 404 model_not_found")
    def _():
        expect_api_error(openai.NotFoundError, 404, "model",
                         lambda: client.completions.create(model="gpt-9", prompt="a"), code="model_not_found")

    def raw_error(status, method, path, body=None, headers=None):
        st, h, data = srv.raw(method, path, body, headers)
        expect(st == status, f"{method} {path}: status {st}, expected {status}: {data[:200]!r}")
        err = json.loads(data)["error"]
        expect(set(err) == {"message", "type", "param", "code"} and err["message"], f"error object {err}")
        expect("\n" not in err["message"], "multi-line message")
        return err

    @check("raw bad requests: malformed JSON, invalid UTF-8, not an object, wrong types, 404, 405")
    def _():
        raw_error(400, "POST", "/v1/completions", b'{"prompt": "a",')
        raw_error(400, "POST", "/v1/completions", b'{"prompt": "\xff\xfe"}')
        raw_error(400, "POST", "/v1/completions", b'["prompt"]')
        raw_error(400, "POST", "/v1/completions", b'')
        e = raw_error(400, "POST", "/v1/completions", b'{"prompt": "a", "max_tokens": "ten"}')
        expect(e["param"] == "max_tokens", e)
        e = raw_error(400, "POST", "/v1/chat/completions", b'{"messages": [{"role": "user"}]}')
        expect(e["param"] == "messages[0].content", e)
        raw_error(404, "GET", "/v1/nothing")
        raw_error(405, "GET", "/v1/completions")
        raw_error(405, "POST", "/health")

    @check("API key: wrong or missing key gets 401; /health stays open")
    def _():
        bad = openai.OpenAI(base_url=base, api_key="wrong", max_retries=0)
        try:
            bad.completions.create(model=model_id, prompt="a", max_tokens=1)
            raise AssertionError("accepted a wrong key")
        except openai.AuthenticationError as e:
            expect(e.status_code == 401, f"status {e.status_code}")
        err = raw_error(401, "GET", "/v1/models", headers={"Authorization": ""})
        expect(err["code"] == "invalid_api_key", err)
        raw_error(401, "POST", "/v1/completions", b'{"prompt":"a"}', headers={"Authorization": "Basic Zm9vOmJhcg=="})
        expect(srv.raw("GET", "/health", headers={"Authorization": ""})[0] == 200, "/health needs a key")

    @check("body limit: 413 for a large Content-Length and for a large chunked body")
    def _():
        big = json.dumps({"prompt": "a" * (MAX_BODY + 10)}).encode()
        err = raw_error(413, "POST", "/v1/completions", big)
        expect(err["code"] == "request_too_large", err)
        c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=60)
        c.putrequest("POST", "/v1/completions")
        c.putheader("Authorization", f"Bearer {KEY}")
        c.putheader("Transfer-Encoding", "chunked")
        c.endheaders()
        for i in range(0, len(big), 8192):
            part = big[i:i + 8192]
            c.send(b"%x\r\n%s\r\n" % (len(part), part))
        c.send(b"0\r\n\r\n")
        r = c.getresponse()
        expect(r.status == 413, f"chunked: status {r.status}")
        expect(json.loads(r.read())["error"]["code"] == "request_too_large", "chunked: error object")
        c.close()

    @check("slow client: a connection that sends half a request is dropped after --timeout")
    def _():
        s = socket.create_connection(("127.0.0.1", srv.port))
        s.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + KEY.encode() +
                  b"\r\nContent-Length: 100\r\n\r\n{\"pro")
        s.settimeout(20)
        t0 = time.time()
        data = s.recv(100)
        s.close()
        expect(data == b"" and 3 < time.time() - t0 < 15, f"after {time.time() - t0:.1f} s got {data[:60]!r}")

    @check("the server still serves after every bad request")
    def _():
        r = client.completions.create(model=model_id, prompt=PROMPTS[0], max_tokens=12, temperature=0)
        expect(r.choices[0].text == ref[PROMPTS[0]], "different answer")
        expect(srv.health()["status"] == "ok", "unhealthy")

    @check("/metrics: requests by endpoint and status, tokens, queue, slots, histograms, device memory")
    def _():
        t = srv.metrics()
        for line in ['mlxcel_http_requests_total{endpoint="/v1/completions",status="200"}',
                     'mlxcel_http_requests_total{endpoint="/v1/completions",status="400"}',
                     'mlxcel_http_requests_total{endpoint="/v1/completions",status="413"}',
                     'mlxcel_http_requests_total{endpoint="/v1/chat/completions",status="200"}',
                     'mlxcel_http_requests_total{endpoint="/v1/models",status="401"}',
                     'mlxcel_queue_depth{device="local-task",backend="0"}', 'mlxcel_active_slots{device="local-task",backend="0"}',
                     'mlxcel_time_to_first_token_seconds_count', 'mlxcel_time_per_output_token_seconds_count',
                     'mlxcel_device_memory_bytes{device="local-task",backend="0"}']:
            expect(metric(t, line) is not None, f"no {line}")
        expect(metric(t, "mlxcel_completion_tokens_total") >= 16 * 12, "completion tokens")
        expect(metric(t, "mlxcel_prompt_tokens_total") > 0, "prompt tokens")
        expect(metric(t, 'mlxcel_slots{device="local-task",backend="0"}') == int(a.slots), "slots")
        # On local-task the weights are mapped parameters, not allocations: the peak is small but set.
        expect(metric(t, 'mlxcel_device_memory_peak_bytes{device="local-task",backend="0"}') > 0, "device memory peak")
        expect(metric(t, "mlxcel_time_to_first_token_seconds_count") ==
               metric(t, 'mlxcel_time_to_first_token_seconds_bucket{le="+Inf"}'), "histogram +Inf != count")

    @check("SIGTERM: exits 0 and leaves no device worker")
    def _():
        workers = subprocess.run(["pgrep", "-P", str(srv.proc.pid)], capture_output=True, text=True).stdout.split()
        expect(workers, "no worker child found")
        srv.proc.send_signal(signal.SIGTERM)
        rc = srv.proc.wait(60)
        expect(rc == 0, f"exit {rc}: {srv.stderr_lines[-3:]}")
        time.sleep(0.5)
        alive = [w for w in workers if os.path.exists(f"/proc/{w}")]
        expect(not alive, f"workers left: {alive}")

    if srv.proc.poll() is None:
        srv.proc.kill()

    @check("data parallel: --devices local-task,local-task spreads 8 concurrent requests over both, same answers")
    def _():
        dp = Server(server_bin, a.model, ["--devices", "local-task,local-task", "--slots", a.slots])
        try:
            c = openai.OpenAI(base_url=f"http://127.0.0.1:{dp.port}/v1", api_key=KEY, max_retries=0, timeout=300)
            out, errs = [None] * 8, []

            def one(i):
                try:
                    out[i] = c.completions.create(model=model_id, prompt=PROMPTS[i % 4], max_tokens=12,
                                                  temperature=0).choices[0].text
                except Exception as e:  # noqa: BLE001
                    errs.append(str(e))

            th = [threading.Thread(target=one, args=(i,)) for i in range(8)]
            for t in th:
                t.start()
            for t in th:
                t.join(300)
            expect(not errs, f"errors: {errs[:2]}")
            expect(all(out[i] == ref[PROMPTS[i % 4]] for i in range(8)), "answers differ from the one-device server")
            t = dp.metrics()
            per = [metric(t, f'mlxcel_device_requests_total{{device="local-task",backend="{b}"}}') for b in (0, 1)]
            expect(None not in per and sum(per) == 8 and min(per) >= 2, f"requests per device {per}")
            expect(dp.health()["healthy_devices"] == 2, "health")
            dp.proc.send_signal(signal.SIGTERM)
            expect(dp.proc.wait(60) == 0, "exit status")
        finally:
            if dp.proc.poll() is None:
                dp.proc.kill()

    return summary()


if __name__ == "__main__":
    sys.exit(main())
