#!/usr/bin/env python3
"""Reliability and security of the live server: faults cost only the requests in flight, an attacker
cannot lock the server, authentication cannot be switched off by accident.

Starts `mlxcel-server` on loopback with SmolLM2 several times and checks, against the server's own
promises in docs/server.md and docs/security.md:

- every answer is JSON, also for the HTTP framing errors libmicrohttpd finds itself;
- slow-loris: connections that trickle a header byte now and then are closed with a 408 JSON error
  after --request-timeout, at most --max-connections-per-client of them get in (the others get a
  429 JSON error at once), and /health stays reachable from another address throughout;
- a half-closed client (shuts its write side after sending) still gets its whole answer;
- --api-key "" is refused (also over MLXCEL_API_KEY), the ready line states the auth state, and
  the device worker's environment has no API key;
- fault injection (the worker killed, stopped, failing a call, returning a NaN-argmax token; idle and
  busy; one and two devices): the affected requests fail with an error, the others are served,
  the worker is restarted, /health and /metrics tell the truth at every moment and never wait on a
  hung device, the log names the cause once;
- shutdown with a hung device honours --shutdown-timeout.

Faults come from outside (SIGKILL, SIGSTOP to the worker) or from the worker's test hook
(MLXCEL_XLA_WORKER_FAULT_FILE, src/device/worker/mlxcel_worker.py).

usage: reliability_test.py --mlxcel build/mlxcel --model MODEL
Prints one line per check and "N passed, M failed" last.
"""
import argparse
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

from checks import check, expect, launch, metric, summary

PROMPT = "Once upon a time"


def wait_for(pred, timeout, step=0.05):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(step)
    return pred()


def read_all(s):
    """Everything the peer sends on socket s until it closes."""
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            return data
        data += chunk


class Server:
    def __init__(self, binary, model, extra, env=None):
        self.fault = tempfile.mktemp(prefix="mlxcel-fault-")
        e = dict(os.environ, MLXCEL_XLA_WORKER_FAULT_FILE=self.fault)
        e.update(env or {})
        self.proc, self.port, self.lines = launch([binary, "-m", model, "--port", "0"] + extra, env=e)

    def raw(self, method, path, body=None, timeout=120, source="127.0.0.1"):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(source, 0))
        c.request(method, path, body=body, headers={"Content-Type": "application/json"})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, data

    def complete(self, max_tokens=8, prompt=PROMPT, timeout=120):
        st, data = self.raw("POST", "/v1/completions", json.dumps(
            {"prompt": prompt, "max_tokens": max_tokens, "temperature": 0}).encode(), timeout=timeout)
        return st, json.loads(data)

    def health(self, timeout=5):
        st, data = self.raw("GET", "/health", timeout=timeout)
        return st, json.loads(data)

    def metrics(self, timeout=5):
        return self.raw("GET", "/metrics", timeout=timeout)[1].decode()

    def workers(self):
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout.split()
        return [int(p) for p in out]

    def inject(self, spec):
        with open(self.fault + ".tmp", "w") as f:
            f.write(spec)
        os.rename(self.fault + ".tmp", self.fault)

    def stop(self):
        if self.proc.poll() is None:
            for w in self.workers():  # a stopped worker must not outlive the test
                os.kill(w, signal.SIGCONT)
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        for p in (self.fault, self.fault + ".tmp"):
            if os.path.exists(p):
                os.unlink(p)




def stream_async(srv, max_tokens, out, key):
    """A streamed completion in a thread; out[key] = (HTTP status, text, error event or None).
    out[(key, "first")] is set when its first token has arrived (its prefill call is over)."""
    def run():
        try:
            c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=120)
            c.request("POST", "/v1/completions", body=json.dumps(
                {"prompt": PROMPT, "max_tokens": max_tokens, "temperature": 0, "stream": True}).encode(),
                headers={"Content-Type": "application/json"})
            r = c.getresponse()
            text, err = "", None
            for line in r:
                line = line.decode().strip()
                if not line.startswith("data: ") or line == "data: [DONE]":
                    continue
                ev = json.loads(line[6:])
                if "error" in ev:
                    err = ev["error"]
                else:
                    text += ev["choices"][0]["text"]
                    out[(key, "first")] = True
            out[key] = (r.status, text, err)
        except Exception as e:  # noqa: BLE001
            out[key] = (None, "", str(e))
    t = threading.Thread(target=run)
    t.start()
    return t


def complete_async(srv, max_tokens, out, key):
    def run():
        try:
            out[key] = srv.complete(max_tokens)
        except Exception as e:  # noqa: BLE001
            out[key] = (None, str(e))
    t = threading.Thread(target=run)
    t.start()
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    a = ap.parse_args()
    server_bin = os.path.join(os.path.dirname(a.mlxcel), "mlxcel-server")
    ref = {}

    # ------------------------------------------------------------------ limits, auth, half-close
    srv = Server(server_bin, a.model, ["--slots", "4", "--request-timeout", "3", "--max-connections", "48",
                                       "--max-connections-per-client", "16", "--timeout", "30"])
    try:
        @check("reference: a greedy 8-token completion")
        def _():
            st, j = srv.complete(8)
            expect(st == 200, f"status {st}: {j}")
            ref["8"] = j["choices"][0]["text"]
            st, j = srv.complete(48)
            ref["48"] = j["choices"][0]["text"]

        @check("a non-streamed answer that takes longer than --request-timeout (3 s) to generate is not cut off")
        def _():
            # The deadline bounds how long a request takes to arrive; the handler that blocks on the
            # generation used to count as still reading, and got a 408 past it.
            t0 = time.time()
            st, data = srv.raw("POST", "/v1/completions", json.dumps(
                {"prompt": PROMPT, "max_tokens": 600, "temperature": 0, "ignore_eos": True}).encode(), timeout=300)
            dt = time.time() - t0
            expect(st == 200, f"status {st} after {dt:.1f} s: {data[:200]!r}")
            expect(json.loads(data)["usage"]["completion_tokens"] == 600, "not the whole answer")
            expect(dt > 3, f"generated in {dt:.1f} s: too fast to test the 3 s deadline")

        @check("ready line states the auth state")
        def _():
            expect(any("no API key: the API is open" in ln for ln in srv.lines), srv.lines[-3:])

        @check("slow-loris: 64 trickling connections from one address: 16 get in and a JSON 408 within "
               "--request-timeout, 48 a JSON 429 at once, /health stays reachable from another address")
        def _():
            socks, stop = [], threading.Event()
            for _i in range(64):
                s = socket.socket()
                s.bind(("127.0.0.2", 0))
                s.settimeout(10)
                s.connect(("127.0.0.1", srv.port))
                try:
                    s.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\n")
                except OSError:
                    pass  # refused already (its 429 is read below)
                socks.append(s)

            def trickle():
                while not stop.is_set():
                    for s in socks:
                        try:
                            s.send(b"X")
                        except OSError:
                            pass
                    time.sleep(0.5)
            th = threading.Thread(target=trickle)
            th.start()
            t0 = time.time()
            try:
                time.sleep(1.0)
                st, h = srv.health()
                expect(st == 200 and h["status"] == "ok", f"/health during the attack: {st} {h}")
                got = []
                for s in socks:
                    data = b""
                    try:
                        while True:
                            chunk = s.recv(4096)
                            if not chunk:
                                break
                            data += chunk
                    except OSError:
                        pass
                    got.append(data)
                elapsed = time.time() - t0
            finally:
                stop.set()
                th.join()
                for s in socks:
                    s.close()
            by_status = {}
            for d in got:
                head, _, body = d.partition(b"\r\n\r\n")
                by_status.setdefault(head[:12], []).append(body)
            # The server's counts are exact; the client's may miss an answer: a refused client whose bytes
            # reach the socket after the server closed it gets a TCP reset, which can beat the answer.
            expect(set(by_status) <= {b"HTTP/1.1 408", b"HTTP/1.1 429", b""}, f"answers: {sorted(by_status)}")
            n408, n429 = len(by_status.get(b"HTTP/1.1 408", [])), len(by_status.get(b"HTTP/1.1 429", []))
            t = srv.metrics()
            expect(n408 + n429 >= 62 and n408 <= 16 and n429 <= 48 and n408 >= 14,
                   f"{n408} timed out (want the 16 admitted), {n429} refused (want 48), {64 - n408 - n429} reset; "
                   f"the server counted {metric(t, 'mlxcel_http_request_timeouts_total')} timeouts and "
                   f"{metric(t, 'mlxcel_http_connections_refused_total')} refusals")
            for status, code in ((b"HTTP/1.1 408", "request_timeout"), (b"HTTP/1.1 429", "too_many_connections")):
                for body in by_status.get(status, []):
                    expect(json.loads(body)["error"]["code"] == code, body)
            expect(elapsed < 3 + 3, f"the last trickling connection was closed after {elapsed:.1f} s")
            expect(metric(t, "mlxcel_http_request_timeouts_total") == 16, "timeouts not counted")
            expect(metric(t, "mlxcel_http_connections_refused_total") == 48, "refusals not counted")
            st, j = srv.complete(8)
            expect(st == 200 and j["choices"][0]["text"] == ref["8"], "serves after the attack")

        @check("--max-connections (48) held by three addresses: a fourth address gets a JSON 503 at once; the "
               "refusals do not count, so once the 48 close the server serves again")
        def _():
            held = []
            try:
                for src in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
                    for _i in range(16):
                        s = socket.socket()
                        s.bind((src, 0))
                        s.settimeout(10)
                        s.connect(("127.0.0.1", srv.port))
                        held.append(s)
                # The 48 are the server's once its threads have taken them: until then a fifth address
                # may still get in, after that it must get the 503, never a reset.
                head = body = b""
                for _i in range(40):
                    s = socket.create_connection(("127.0.0.1", srv.port), timeout=10, source_address=("127.0.0.5", 0))
                    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    data = read_all(s)
                    s.close()
                    head, _, body = data.partition(b"\r\n\r\n")
                    expect(head[:12] in (b"HTTP/1.1 200", b"HTTP/1.1 503"), f"answer: {data[:200]!r}")
                    if head.startswith(b"HTTP/1.1 503"):
                        break
                    time.sleep(0.05)
                expect(head.startswith(b"HTTP/1.1 503") and b"Retry-After: 1" in head, head)
                err = json.loads(body)["error"]
                expect(err["code"] == "too_many_connections" and err["type"] == "server_error", err)
            finally:
                for s in held:
                    s.close()
            st = None
            for _i in range(100):  # the server's threads close the 48 now
                try:
                    st, h = srv.health()
                except (OSError, ValueError):
                    st = None
                if st == 200:
                    break
                time.sleep(0.05)
            expect(st == 200, f"/health after the 48 closed: {st}")

        @check("HTTP framing errors that libmicrohttpd finds itself (431, 414, 400 header and chunk, 505) are "
               "answered with an OpenAI error object, not its HTML page")
        def _():
            cases = [(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n", 431, "headers_too_large"),
                     (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
                     (b"GET /health HTTP/1.1\r\nHost: x\r\nno-colon-here\r\n\r\n", 400, "malformed_request"),
                     (b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n", 400,
                      "malformed_request"),
                     (b"GET /health HTTP/9.9\r\nHost: x\r\n\r\n", 505, "http_version_not_supported")]
            for req, status, code in cases:
                s = socket.create_connection(("127.0.0.1", srv.port))
                try:
                    s.sendall(req)
                except OSError:
                    pass  # the server may answer and close before reading it all
                s.settimeout(10)
                data = b""
                try:
                    while True:
                        chunk = s.recv(65536)
                        if not chunk:
                            break
                        data += chunk
                except OSError:
                    pass
                s.close()
                head, _, body = data.partition(b"\r\n\r\n")
                expect(head.startswith(b"HTTP/1.1 %d" % status), f"{req[:40]!r}: {data[:120]!r}")
                expect(b"content-type: application/json" in head.lower(), f"{status}: not JSON: {head!r}")
                err = json.loads(body)["error"]
                expect(err["code"] == code and err["message"] and "\n" not in err["message"], f"{status}: {err}")

        @check("half-closed client: a request sent, then the write side shut, still gets its whole answer")
        def _():
            for stream in (False, True):
                s = socket.create_connection(("127.0.0.1", srv.port))
                body = json.dumps({"prompt": PROMPT, "max_tokens": 48, "temperature": 0, "stream": stream}).encode()
                s.sendall(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
                s.shutdown(socket.SHUT_WR)
                s.settimeout(120)
                data = read_all(s)
                s.close()
                expect(data.startswith(b"HTTP/1.1 200"), f"stream={stream}: {data[:100]!r}")
                if not stream:
                    text = json.loads(data.partition(b"\r\n\r\n")[2])["choices"][0]["text"]
                else:
                    text = "".join(json.loads(m)["choices"][0]["text"]
                                   for m in re.findall(rb"data: (\{.*?\})\r?\n", data))
                expect(text == ref["48"], f"stream={stream}: {text!r} != {ref['48']!r}")
    finally:
        srv.stop()

    @check("--api-key '' is refused before anything starts, also when MLXCEL_API_KEY is set or empty")
    def _():
        for args, env in (([ "--api-key", ""], {}), (["--api-key", ""], {"MLXCEL_API_KEY": "secret"}),
                          ([], {"MLXCEL_API_KEY": ""})):
            t0 = time.time()
            p = subprocess.run([server_bin, "-m", a.model, "--port", "0"] + args, capture_output=True, text=True,
                               env=dict(os.environ, **env), timeout=60)
            lines = p.stderr.strip().splitlines()
            expect(p.returncode == 2, f"{args} {env}: exit {p.returncode}: {p.stderr[-300:]}")
            expect(len(lines) == 1 and "API key is empty" in lines[0] and "remedy:" in lines[0], lines)
            expect(time.time() - t0 < 10, "refused only after starting")

    @check("with a key: the ready line says so, and neither the worker nor its environment holds the key")
    def _():
        s2 = Server(server_bin, a.model, ["--slots", "1"], env={"MLXCEL_API_KEY": "sekrit-123"})
        try:
            expect(any("API key required" in ln for ln in s2.lines), s2.lines[-2:])
            ws = s2.workers()
            expect(ws, "no worker")
            for w in ws:
                env = open(f"/proc/{w}/environ", "rb").read()
                expect(b"sekrit-123" not in env and b"MLXCEL_API_KEY" not in env, "the worker inherited the key")
            st, _d = s2.raw("GET", "/v1/models")
            expect(st == 401, f"no key: {st}")
        finally:
            s2.stop()

    # ------------------------------------------------------------------ faults on one device
    srv = Server(server_bin, a.model, ["--slots", "2", "--queue", "16", "--probe-interval", "1",
                                       "--shutdown-timeout", "2"], env={"MLXCEL_XLA_WORKER_TIMEOUT_MS": "4000"})
    try:
        def restarts():
            return metric(srv.metrics(), 'mlxcel_device_restarts_total{device="local-task",backend="0"}')

        @check("idle worker killed: the probe finds it, /health says restarting then ok, it is restarted, the log "
               "names the cause, the next request is served")
        def _():
            expect(srv.health()[1]["status"] == "ok", "not ok at the start")
            w = srv.workers()
            os.kill(w[0], signal.SIGKILL)
            seen = set()

            def restarted():
                st, h = srv.health()
                seen.add((st, h["status"]))
                return h["backends"][0]["restarts"] == 1 and h["status"] == "ok"
            expect(wait_for(restarted, 15), f"not restarted: {srv.health()}")
            expect(srv.workers() and srv.workers() != w, "no new worker")
            expect(any("lost" in ln and "killed by signal 9" in ln for ln in srv.lines), "the log does not say why")
            st, j = srv.complete(8)
            expect(st == 200 and j["choices"][0]["text"] == ref["8"], f"after the restart: {st} {j}")
            expect(metric(srv.metrics(), 'mlxcel_device_healthy{device="local-task",backend="0"}') == 1, "healthy gauge")

        @check("idle worker stopped (hung): the probe times it out, the worker is replaced, requests are served")
        def _():
            before = restarts()
            w = srv.workers()
            os.kill(w[0], signal.SIGSTOP)
            expect(wait_for(lambda: restarts() == before + 1, 20), "not restarted")
            expect(not os.path.exists(f"/proc/{w[0]}") or open(f"/proc/{w[0]}/stat").read().split()[2] == "Z",
                   "the hung worker is still there")
            st, j = srv.complete(8)
            expect(st == 200 and j["choices"][0]["text"] == ref["8"], f"{st} {j}")

        @check("busy worker killed: the 2 running requests fail with an error, the 2 queued ones are served "
               "after the restart")
        def _():
            before = restarts()
            out, th = {}, []
            for i in range(2):
                th.append(stream_async(srv, 400, out, i))
            expect(wait_for(lambda: (0, "first") in out and (1, "first") in out, 30), "the two did not start")
            for i in range(2, 4):
                th.append(complete_async(srv, 8, out, i))
            expect(wait_for(lambda: srv.health()[1]["queued"] == 2, 30), "the two did not queue")
            os.kill(srv.workers()[0], signal.SIGKILL)
            for t in th:
                t.join(120)
            for i in range(2):
                st, _text, err = out[i]
                expect(st == 200 and err and err["code"] == "device_error", f"running {i}: {out[i]}")
            for i in range(2, 4):
                st, j = out[i]
                expect(st == 200 and j["choices"][0]["text"] == ref["8"], f"queued {i}: {out[i]}")
            expect(restarts() == before + 1, "restart not counted")

        @check("/metrics and /health answer at once while a busy device hangs; the hung call fails after the "
               "worker timeout, the worker is restarted, the next request is served")
        def _():
            before = restarts()
            out = {}
            t = stream_async(srv, 400, out, 0)
            expect(wait_for(lambda: srv.health()[1]["active"] == 1, 30), "did not start")
            time.sleep(0.3)
            os.kill(srv.workers()[0], signal.SIGSTOP)
            time.sleep(0.5)
            t0 = time.time()
            srv.metrics(timeout=2)
            srv.health(timeout=2)
            expect(time.time() - t0 < 1.0, f"/metrics and /health took {time.time() - t0:.1f} s")
            t.join(60)
            st, _text, err = out[0]
            expect(err and err["code"] == "device_error", f"hung request: {out[0]}")
            expect(wait_for(lambda: restarts() == before + 1, 20), "not restarted")
            st, j = srv.complete(8)
            expect(st == 200 and j["choices"][0]["text"] == ref["8"], f"{st} {j}")

        @check("a call that fails with the worker up fails only its request: no restart, the next one is served")
        def _():
            before = restarts()
            srv.inject("call_error decode")
            st, j = srv.complete(8)
            expect(st == 500 and j["error"]["code"] == "device_error" and "injected fault" in j["error"]["message"],
                   f"{st} {j}")
            st, j = srv.complete(8)
            expect(st == 200 and j["choices"][0]["text"] == ref["8"], f"{st} {j}")
            expect(restarts() == before and srv.health()[1]["status"] == "ok", "the device was marked or restarted")

        @check("a NaN-argmax token fails only its own request among running ones; the device stays up")
        def _():
            before = restarts()
            out = {}
            t = stream_async(srv, 48, out, 0)
            # Its first token, not merely its admission: a slot counts as active before its prefill
            # call, and the fault must hit the second request's prefill, not this one's.
            expect(wait_for(lambda: (0, "first") in out, 30), "did not start")
            srv.inject("bad_token prefill")
            st, j = srv.complete(8)
            t.join(120)
            expect(st == 500 and "outside the vocabulary" in j["error"]["message"], f"{st} {j}")
            expect(out[0][0] == 200 and out[0][2] is None and out[0][1] == ref["48"], f"the other request: {out[0]}")
            expect(restarts() == before, "restarted")
            errs = metric(srv.metrics(), 'mlxcel_device_request_errors_total{device="local-task",backend="0"}')
            expect(errs >= 2, f"request errors {errs}")

        @check("shutdown with a hung device honours --shutdown-timeout 2 (exit within 8 s, no worker left)")
        def _():
            out = {}
            t = stream_async(srv, 400, out, 0)
            expect(wait_for(lambda: srv.health()[1]["active"] == 1, 30), "did not start")
            w = srv.workers()
            os.kill(w[0], signal.SIGSTOP)
            t0 = time.time()
            srv.proc.send_signal(signal.SIGTERM)
            rc = srv.proc.wait(30)
            took = time.time() - t0
            t.join(10)
            expect(rc == 0 and took < 8, f"exit {rc} after {took:.1f} s")
            time.sleep(0.3)
            expect(not any(os.path.exists(f"/proc/{p}") for p in w), "worker left")
    finally:
        srv.stop()

    # ------------------------------------------------------------------ two devices, and giving up
    @check("two devices: one worker killed while both serve: its request fails, the other device's is served, "
           "/health says degraded or ok, never unhealthy; then both serve again")
    def _():
        dp = Server(server_bin, a.model, ["--devices", "local-task,local-task", "--slots", "1", "--probe-interval", "1"])
        try:
            out = {}
            # One after the other: two requests arriving together may both see two idle devices and pick
            # the same one (the router reads the load before either is queued), leaving one waiting.
            ts = [stream_async(dp, 400, out, 0)]
            expect(wait_for(lambda: dp.health()[1]["active"] == 1, 30), "the first did not start")
            ts.append(stream_async(dp, 400, out, 1))
            expect(wait_for(lambda: dp.health()[1]["active"] == 2, 30), "the two did not start on both devices")
            ws = dp.workers()
            expect(len(ws) == 2, f"workers {ws}")
            os.kill(ws[0], signal.SIGKILL)
            states = []
            ok_during = []

            def watch():
                st, h = dp.health()
                states.append(h["status"])
                return h["healthy_devices"] == 2 and all(b["restarts"] + 0 >= 0 for b in h["backends"]) and \
                    sum(b["restarts"] for b in h["backends"]) == 1
            t0 = time.time()
            while time.time() - t0 < 2:  # while one is down, requests go to the other
                st, j = dp.complete(8)
                ok_during.append(st == 200 and j["choices"][0]["text"] == ref["8"])
            expect(wait_for(watch, 20), f"not restarted: {dp.health()}")
            for t in ts:
                t.join(120)
            errs = [out[i] for i in range(2) if out[i][2]]
            oks = [out[i] for i in range(2) if not out[i][2]]
            expect(len(errs) == 1 and len(oks) == 1, f"stream outcomes {out}")
            expect("unhealthy" not in states and "restarting" not in states, f"health said {set(states)}")
            expect(ok_during and all(ok_during), f"requests during the restart: {ok_during}")
        finally:
            dp.stop()

    @check("--max-restarts 0: a lost device is given up: /health 503 unhealthy, requests 503 naming the cause")
    def _():
        s3 = Server(server_bin, a.model, ["--slots", "1", "--probe-interval", "1", "--max-restarts", "0"])
        try:
            os.kill(s3.workers()[0], signal.SIGKILL)
            expect(wait_for(lambda: s3.health()[0] == 503, 10), f"health {s3.health()}")
            st, h = s3.health()
            expect(h["status"] == "unhealthy" and h["backends"][0]["state"] == "failed", h)
            st, j = s3.complete(8)
            expect(st == 503 and "given up" in j["error"]["message"], f"{st} {j}")
            expect(metric(s3.metrics(), 'mlxcel_device_state{device="local-task",backend="0"}') == 2, "state gauge")
        finally:
            s3.stop()

    return summary()


if __name__ == "__main__":
    sys.exit(main())
