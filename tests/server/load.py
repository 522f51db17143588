#!/usr/bin/env python3
"""A load run against mlxcel-server: a benchmark that prints tables, with a pass/fail verdict.

The load rises in stages (default 1, 8, 16, 32, 64 concurrent clients; each stage a fixed number of
requests, or a fixed time, then it drains). Every client sends a mix, rotating through the kinds:

  completion         POST /v1/completions, not streamed
  completion-stream  the same, "stream": true (with include_usage)
  chat               POST /v1/chat/completions, not streamed
  chat-stream        the same, streamed
  cancel             a stream (completion or chat) closed by the client after --cancel-after chunks
  abandon            a non-streamed request whose client closes the socket after --abandon-after s
  slow               a stream read slowly: a small receive buffer, recv(--slow-recv) then sleep
                     --slow-sleep s, so the client's TCP window fills and the server's send queue
                     grows (back-pressure; measured from FIONREAD and /proc/net/tcp)

Two thirds of the requests are greedy, one third sampled (temperature 0.8, a seed). Each greedy
answer that runs to its end is compared with the same request's answer before the load.

What counts: "503" is the documented overload answer (503, code "overloaded", Retry-After);
"429" is the per-client connection limit's answer (429, code "too_many_connections", Retry-After),
counted apart and not ok: any 429 makes the exit status 1, since the load did not get in;
"cancelled" are the cancel and abandon kinds (by design). Anything else that is not a valid
answer is an error: another status, a reset or timeout on a request the client did not cancel,
malformed HTTP framing or SSE, an error event, a stream without finish_reason, usage or [DONE],
bytes after [DONE], a non-JSON body or one without the fields an answer has (an error that got
no byte at all, a reset or an EOF before the status line, is also counted as "no answer"). Greedy
mismatches are counted apart. Per stage it prints requests, ok, 503, 429, cancelled, errors, mismatches, time to
first token (streamed), time per output token (streamed: (finish - first token) / (tokens - 1)),
the gap between chunks, end to end (not for cancel, abandon or slow), and generated tokens/s
(mlxcel_completion_tokens_total over the stage's wall time); and what the server did meanwhile
(its peak threads, fds and RSS, /health's peak active and queued, the deltas of
mlxcel_generations_total and mlxcel_http_connections_refused_total, the load average).

Before and after the load: the server's RSS, threads and open fds (/proc/PID), its device
workers' RSS (its children), the device memory gauges of GET /metrics. After the load it checks
that the server is back to baseline: /health active 0 and queued 0 within --settle seconds, threads
and fds within --margin of the baseline, and a greedy probe equal to the one before the load.
With --rounds N the whole ramp runs N times on the same server, measured and checked after each
(the same figures twice tell a one-off growth, such as malloc arenas, from a leak). Exit status: 0
when there are no errors, no 429s, no mismatches and every after-check holds; 1 otherwise;
2 for bad usage.

It starts its own server (--model, with --mlxcel or --server) or uses a running one (--url, plus
--pid for the process figures). Only the standard library is used, so any python3 runs it:

  tests/server/load.py --model "$(scripts/fetch-model.sh)" --mlxcel build/mlxcel --stages 1,8,16,32,64
  tests/server/load.py --model "$(scripts/fetch-model.sh)" --requests 200 --concurrency 16
  tests/server/load.py --url http://127.0.0.1:8080 --pid $(pgrep -f mlxcel-server) --stages 1,4
"""
import argparse
import fcntl
import json
import os
import platform
import re
import shlex
import signal
import socket
import struct
import subprocess
import sys
import termios
import threading
import time
import urllib.parse

PROMPTS = ["Once upon a time", "The capital of France is", "def fibonacci(n):", "Write a haiku about rain.",
           "The three primary colours are", "In 1969, the first person to walk on the moon"]
KINDS = ("completion", "completion-stream", "chat", "chat-stream", "cancel", "abandon", "slow")
DEFAULT_MIX = "completion=3,completion-stream=3,chat=2,chat-stream=2,cancel=1,abandon=1,slow=1"
PROBE = ("completion", "The capital of France is")
LOG_PATTERN = re.compile(r"lost|fail|error|warn|abort|assert|sanitizer|leak", re.I)


class Failure(Exception):
    """An answer that is not what the API promises: counted as an error."""


# --- the process and the machine ------------------------------------------------------------------

def proc_status(pid, key):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def children(pid):
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    except OSError:
        return []
    return [int(k) for k in out]


def proc_figures(pid):
    """The server's RSS (KiB), threads and open fds, and its device workers' (children's) RSS."""
    if not pid:
        return None
    try:
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        fds = None
    kids = children(pid)
    return {"rss_kib": proc_status(pid, "VmRSS"), "threads": proc_status(pid, "Threads"), "fds": fds,
            "workers": len(kids), "workers_rss_kib": sum(proc_status(k, "VmRSS") or 0 for k in kids)}


def cpu_seconds(pid):
    """CPU seconds so far: the machine's busy and steal time, the server's, its workers', this client's."""
    hz = os.sysconf("SC_CLK_TCK")
    out = {"busy": None, "steal": None, "server": None, "workers": None}
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        out["busy"] = (v[0] + v[1] + v[2] + v[5] + v[6]) / hz  # user nice system irq softirq
        out["steal"] = (v[7] if len(v) > 7 else 0) / hz
    except (OSError, ValueError, IndexError):
        pass

    def proc_cpu(p):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / hz  # utime stime
        except (OSError, ValueError, IndexError):
            return None

    if pid:
        out["server"] = proc_cpu(pid)
        out["workers"] = sum(proc_cpu(k) or 0 for k in children(pid))
    t = os.times()
    out["client"] = t[0] + t[1] + t[2] + t[3]
    return out


def cpu_shares(c0, c1, wall):
    """Each part's share of the machine (all cores) between two cpu_seconds() readings, in %."""
    n = os.cpu_count() or 1
    out = {}
    for k in ("busy", "steal", "server", "workers", "client"):
        out[k] = None if c0[k] is None or c1[k] is None else 100 * (c1[k] - c0[k]) / (wall * n)
    if None not in (out["busy"], out["client"]):
        out["others"] = out["busy"] - (out["server"] or 0) - (out["workers"] or 0) - out["client"]
    else:
        out["others"] = None
    return out


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def server_send_queue(server_port, client_port):
    """The server side's unacknowledged + unsent bytes (tx_queue) of one loopback connection."""
    best = None
    for path in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(path) as f:
                next(f)
                for line in f:
                    p = line.split()
                    lport = int(p[1].rsplit(":", 1)[1], 16)
                    rport = int(p[2].rsplit(":", 1)[1], 16)
                    if lport == server_port and rport == client_port:
                        tx = int(p[4].split(":")[0], 16)
                        best = tx if best is None else max(best, tx)
        except (OSError, StopIteration, IndexError, ValueError):
            continue
    return best


# --- a small HTTP/1.1 client over a raw socket (so recv sizes, buffers and closes are ours) ---------

class Conn:
    def __init__(self, host, port, timeout, rcvbuf=None, src=None):
        fam = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.s = socket.socket(fam, socket.SOCK_STREAM)
        if rcvbuf:
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        if src:
            self.s.bind((src, 0))
        self.s.settimeout(timeout)
        self.s.connect((host, port))
        self.server_port = port
        self.client_port = self.s.getsockname()[1]
        self.buf = bytearray()
        self.eof = False
        self.received = 0
        self.recv_size = 65536
        self.pause = 0.0
        self.reads = 0
        self.max_inq = 0
        self.max_sendq = None

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass

    def send(self, method, path, body=None, headers=None):
        h = {"Host": "load", "Connection": "close"}
        if body is not None:
            h["Content-Type"] = "application/json"
            h["Content-Length"] = str(len(body))
        h.update(headers or {})
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items()) + "\r\n"
        self.s.sendall(head.encode() + (body or b""))

    def fill(self):
        if self.pause:
            inq = struct.unpack("i", fcntl.ioctl(self.s, termios.FIONREAD, b"\0\0\0\0"))[0]
            self.max_inq = max(self.max_inq, inq)
            if self.reads % 4 == 1:
                q = server_send_queue(self.server_port, self.client_port)
                if q is not None:
                    self.max_sendq = max(self.max_sendq or 0, q)
        d = self.s.recv(self.recv_size)
        self.reads += 1
        if self.pause:
            time.sleep(self.pause)
        if not d:
            self.eof = True
            return False
        self.received += len(d)
        self.buf += d
        return True

    def line(self):
        while True:
            k = self.buf.find(b"\r\n")
            if k >= 0:
                out = bytes(self.buf[:k])
                del self.buf[:k + 2]
                return out
            if len(self.buf) > 65536:
                raise Failure("an HTTP line over 64 KiB")
            if not self.fill():
                raise Failure(f"connection closed mid-line after {self.received} bytes")

    def exact(self, n):
        while len(self.buf) < n:
            if not self.fill():
                raise Failure(f"connection closed with {n - len(self.buf)} body bytes missing")
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out

    def head(self):
        status_line = self.line().decode("latin-1")
        m = re.match(r"HTTP/1\.[01] (\d{3})", status_line)
        if not m:
            raise Failure(f"bad status line {status_line[:80]!r}")
        headers = {}
        while True:
            ln = self.line().decode("latin-1")
            if not ln:
                break
            if ":" not in ln:
                raise Failure(f"bad header line {ln[:80]!r}")
            k, v = ln.split(":", 1)
            headers[k.strip().lower()] = v.strip()
        return int(m.group(1)), headers

    def body(self, headers):
        """Yields the body's pieces as they arrive, checking the framing."""
        if headers.get("transfer-encoding", "").lower() == "chunked":
            while True:
                size_line = self.line().decode("latin-1").split(";")[0].strip()
                if not re.fullmatch(r"[0-9a-fA-F]+", size_line):
                    raise Failure(f"bad chunk size {size_line[:40]!r}")
                n = int(size_line, 16)
                if n == 0:
                    while self.line():  # trailers
                        pass
                    return
                yield self.exact(n)
                if self.exact(2) != b"\r\n":
                    raise Failure("chunk not followed by CRLF")
        elif "content-length" in headers:
            yield self.exact(int(headers["content-length"]))
        else:
            if self.buf:
                yield bytes(self.buf)
                self.buf.clear()
            while self.fill():
                yield bytes(self.buf)
                self.buf.clear()

    def read_all(self, headers):
        return b"".join(self.body(headers))


def http_get(host, port, path, timeout=30, src=None):
    c = Conn(host, port, timeout, src=src)
    try:
        c.send("GET", path)
        status, headers = c.head()
        return status, c.read_all(headers).decode("utf-8", "replace")
    finally:
        c.close()


def sse_events(pieces):
    """Yields ('data', text) and ('comment', text) from the body's pieces, checking the framing."""
    buf = ""
    for p in pieces:
        try:
            buf += p.decode("utf-8")
        except UnicodeDecodeError:
            raise Failure("an SSE piece that is not UTF-8 (or a character split across chunks)")
        while "\n\n" in buf:
            ev, buf = buf.split("\n\n", 1)
            lines = ev.split("\n")
            if all(ln.startswith(":") for ln in lines):
                yield "comment", ev
                continue
            data = []
            for ln in lines:
                if ln.startswith("data: "):
                    data.append(ln[6:])
                elif ln.startswith("data:"):
                    data.append(ln[5:])
                elif not ln.startswith(":"):
                    raise Failure(f"malformed SSE line {ln[:80]!r}")
            yield "data", "\n".join(data)
    if buf.strip():
        raise Failure(f"the stream ended inside an event: {buf[:80]!r}")


# --- one request --------------------------------------------------------------------------------

def request_spec(i, kind, a, cycle_len):
    """What request number i of the given kind sends: (endpoint, body dict, greedy key or None)."""
    base = kind.replace("-stream", "")
    if base in ("cancel", "abandon", "slow"):  # alternate the endpoint between rounds of the mix
        base = "chat" if (i // cycle_len) % 2 else "completion"
    prompt = PROMPTS[i % len(PROMPTS)]
    body = {"max_tokens": a.max_tokens}
    if base == "chat":
        path = "/v1/chat/completions"
        body["messages"] = [{"role": "user", "content": prompt}]
    else:
        path = "/v1/completions"
        body["prompt"] = prompt
    greedy = i % 3 != 0
    body.update({"temperature": 0} if greedy else {"temperature": 0.8, "top_p": 0.95, "seed": i})
    stream = kind in ("completion-stream", "chat-stream", "cancel", "slow")
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    return path, body, (base, prompt) if greedy else None


def check_answer(chat, j):
    if not isinstance(j, dict) or not isinstance(j.get("choices"), list) or len(j["choices"]) != 1:
        raise Failure(f"answer without one choice: {json.dumps(j)[:200]}")
    ch = j["choices"][0]
    text = ch.get("message", {}).get("content") if chat else ch.get("text")
    if not isinstance(text, str):
        raise Failure(f"answer without text: {json.dumps(j)[:200]}")
    if ch.get("finish_reason") not in ("stop", "length"):
        raise Failure(f"finish_reason {ch.get('finish_reason')!r}")
    tokens = (j.get("usage") or {}).get("completion_tokens")
    if not isinstance(tokens, int) or tokens < 1:
        raise Failure(f"usage.completion_tokens {tokens!r}")
    want = "chat.completion" if chat else "text_completion"
    if j.get("object") != want:
        raise Failure(f"object {j.get('object')!r}, not {want}")
    return text, tokens


def one_request(host, port, a, i, kind, cycle_len):
    path, body, gkey = request_spec(i, kind, a, cycle_len)
    chat = path.endswith("chat/completions")
    stream = bool(body.get("stream"))
    r = {"i": i, "kind": kind, "endpoint": "chat" if chat else "completion", "stream": stream, "greedy": gkey,
         "outcome": None, "error": None, "e2e": None, "ttft": None, "tpot": None, "gaps": [], "tokens": None,
         "text": None, "waiting": 0}
    headers = {"Authorization": f"Bearer {a.api_key}"} if a.api_key else {}
    slow = kind == "slow"
    t0 = time.perf_counter()
    c = None
    got = 0  # content chunks
    try:
        c = Conn(host, port, a.timeout, rcvbuf=a.slow_rcvbuf if slow else None)
        if slow:
            c.recv_size, c.pause = a.slow_recv, a.slow_sleep
        if kind == "abandon":
            c.s.settimeout(a.abandon_after)
        head = None
        try:
            c.send("POST", path, json.dumps(body).encode(), headers)
        except OSError as e:  # the server may have answered (a 429) and closed before the request went out
            try:
                head = c.head()
            except (OSError, Failure):
                raise e
            r["send_error"] = f"{type(e).__name__}: {e}"
        try:
            status, h = head or c.head()
        except socket.timeout:
            if kind == "abandon":
                r["outcome"] = "cancelled"
                return r
            raise
        if kind == "abandon":
            c.s.settimeout(a.timeout)
        if status != 200:
            raw = c.read_all(h)
            try:
                err = json.loads(raw)["error"]
            except (ValueError, KeyError, TypeError):
                raise Failure(f"HTTP {status} with a body that is not an OpenAI error: {raw[:200]!r}")
            if status == 503 and err.get("code") == "overloaded":
                if h.get("retry-after") is None:
                    raise Failure("503 overloaded without Retry-After")
                r["outcome"] = "503"
                return r
            if status == 429 and err.get("code") == "too_many_connections":
                if h.get("retry-after") is None:
                    raise Failure("429 too_many_connections without Retry-After")
                r["outcome"], r["retry_after"] = "429", h.get("retry-after")
                return r
            raise Failure(f"HTTP {status} {err.get('code')}: {str(err.get('message'))[:200]}")
        if not stream:
            raw = c.read_all(h)
            try:
                j = json.loads(raw)
            except ValueError:
                raise Failure(f"a 200 body that is not JSON: {raw[:200]!r}")
            r["text"], r["tokens"] = check_answer(chat, j)
            r["e2e"] = time.perf_counter() - t0
            r["outcome"] = "ok"
            return r
        if not h.get("content-type", "").startswith("text/event-stream"):
            raise Failure(f"a stream with Content-Type {h.get('content-type')!r}")
        parts, cid, finish, usage, done, last, t_finish = [], None, None, None, False, None, None
        want_obj = "chat.completion.chunk" if chat else "text_completion"
        n_events = 0
        for typ, data in sse_events(c.body(h)):
            now = time.perf_counter()
            if typ == "comment":
                r["waiting"] += 1
                continue
            if done:
                raise Failure(f"an event after [DONE]: {data[:80]!r}")
            if data == "[DONE]":
                done = True
                continue
            try:
                ch = json.loads(data)
            except ValueError:
                raise Failure(f"an SSE data line that is not JSON: {data[:120]!r}")
            if "error" in ch:
                raise Failure(f"error event: {json.dumps(ch['error'])[:200]}")
            if ch.get("object") != want_obj:
                raise Failure(f"chunk object {ch.get('object')!r}, not {want_obj}")
            cid = cid or ch.get("id")
            if ch.get("id") != cid:
                raise Failure(f"chunk id changed from {cid} to {ch.get('id')}")
            n_events += 1
            if not ch.get("choices"):
                if "usage" not in ch or finish is None:
                    raise Failure(f"a chunk without choices that is not the usage after the finish: {data[:120]!r}")
                usage = ch["usage"]
                continue
            if usage is not None:
                raise Failure("a choice chunk after the usage chunk")
            choice = ch["choices"][0]
            if chat:
                delta = choice.get("delta", {})
                if n_events == 1 and delta.get("role") != "assistant":
                    raise Failure(f"the first chat chunk is not the assistant's role: {data[:120]!r}")
                piece = delta.get("content") or ""
            else:
                piece = choice.get("text") or ""
            if choice.get("finish_reason") is not None:
                if finish is not None:
                    raise Failure("two finish_reason chunks")
                if choice["finish_reason"] not in ("stop", "length"):
                    raise Failure(f"finish_reason {choice['finish_reason']!r}")
                finish, t_finish = choice["finish_reason"], now
            elif finish is not None:
                raise Failure("a content chunk after finish_reason")
            if piece:
                parts.append(piece)
                got += 1
                if r["ttft"] is None:
                    r["ttft"] = now - t0
                elif last is not None:
                    r["gaps"].append(now - last)
                last = now
                if kind == "cancel" and got >= a.cancel_after:
                    c.close()  # by design: the server should cancel the generation
                    r["outcome"] = "cancelled"
                    r["e2e"] = now - t0
                    return r
        if not done:
            raise Failure(f"the stream ended without [DONE] after {n_events} chunks")
        if finish is None:
            raise Failure("a stream without a finish_reason chunk")
        if not usage or not isinstance(usage.get("completion_tokens"), int):
            raise Failure("a stream without the usage chunk include_usage asks for")
        r["tokens"] = usage["completion_tokens"]
        r["text"] = "".join(parts)
        r["e2e"] = time.perf_counter() - t0
        if r["ttft"] is not None and r["tokens"] > 1:
            r["tpot"] = (t_finish - t0 - r["ttft"]) / (r["tokens"] - 1)
        r["outcome"] = "ok"
        return r
    except Failure as e:
        r["outcome"], r["error"] = "error", str(e)
    except (OSError, socket.timeout) as e:  # resets, refusals, timeouts on a request not cancelled
        r["outcome"] = "error"
        r["error"] = f"{type(e).__name__}: {e} (after {c.received if c else 0} bytes, {got} chunks)"
    finally:
        r["elapsed"] = time.perf_counter() - t0
        r["received"] = c.received if c else 0
        if c:
            if slow:
                r["slow"] = {"max_inq": c.max_inq, "rcvbuf": c.s.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
                             if c.s.fileno() >= 0 else a.slow_rcvbuf, "max_sendq": c.max_sendq, "bytes": c.received}
            c.close()
    return r


# --- metrics ------------------------------------------------------------------------------------

def metric_sum(text, name, **labels):
    total = 0.0
    for m in re.finditer(r"^" + re.escape(name) + r"(\{[^}]*\})? (\S+)$", text, re.M):
        ls = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1) or ""))
        if all(ls.get(k) == v for k, v in labels.items()):
            total += float(m.group(2))
    return total


def metric_lines(text, name):
    return [ln for ln in text.splitlines() if ln.startswith(name + "{") or ln.startswith(name + " ")]


def pct(xs, p):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def fmt(x, scale=1.0, digits=2):
    return "-" if x is None else f"{x * scale:.{digits}f}"


def mib(kib):
    return "?" if kib is None else f"{kib / 1024:.1f}"


# --- the run --------------------------------------------------------------------------------------

class Monitor(threading.Thread):
    """Samples the server's process figures and /health every interval; keeps the peaks."""

    def __init__(self, host, port, pid, src, interval=1.0):
        super().__init__(daemon=True)
        self.host, self.port, self.pid, self.src, self.interval = host, port, pid, src, interval
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.reset()

    def reset(self):
        with getattr(self, "lock", threading.Lock()):
            self.peak = {"threads": 0, "fds": 0, "rss_kib": 0, "workers_rss_kib": 0, "active": 0, "queued": 0}
            self.health_errors = []

    def take(self):
        """The peaks since the last take (with one sample now, so a short stage has one too)."""
        self.sample()
        with self.lock:
            out = dict(self.peak)
            out["health_errors"] = list(self.health_errors)
        self.reset()
        return out

    def sample(self):
        f = proc_figures(self.pid)
        h = None
        try:
            st, body = http_get(self.host, self.port, "/health", timeout=10, src=self.src)
            h = json.loads(body) if st == 200 else None
            err = None if st == 200 else f"/health {st}: {body[:120]}"
        except (OSError, ValueError, Failure) as e:
            err = f"/health: {type(e).__name__}: {e}"
        with self.lock:
            if f:
                for k in ("threads", "fds", "rss_kib", "workers_rss_kib"):
                    if f.get(k) is not None:
                        self.peak[k] = max(self.peak[k], f[k])
            if h:
                self.peak["active"] = max(self.peak["active"], h.get("active", 0))
                self.peak["queued"] = max(self.peak["queued"], h.get("queued", 0))
            if err and len(self.health_errors) < 5:
                self.health_errors.append(err)

    def run(self):
        while not self.stop.wait(self.interval):
            self.sample()


def greedy_answer(host, port, a, kind, prompt):
    body = {"max_tokens": a.max_tokens, "temperature": 0}
    if kind == "chat":
        path, body["messages"] = "/v1/chat/completions", [{"role": "user", "content": prompt}]
    else:
        path, body["prompt"] = "/v1/completions", prompt
    c = Conn(host, port, a.timeout)
    try:
        hd = {"Authorization": f"Bearer {a.api_key}"} if a.api_key else {}
        c.send("POST", path, json.dumps(body).encode(), hd)
        status, h = c.head()
        raw = c.read_all(h)
        if status != 200:
            raise Failure(f"HTTP {status}: {raw[:200]!r}")
        return check_answer(kind == "chat", json.loads(raw))[0]
    finally:
        c.close()


def parse_mix(s):
    cycle = []
    for part in s.split(","):
        k, _, w = part.partition("=")
        k = k.strip()
        if k not in KINDS:
            raise ValueError(f"unknown kind {k!r} (kinds: {', '.join(KINDS)})")
        cycle += [k] * int(w or 1)
    if not cycle:
        raise ValueError("an empty mix")
    # interleave: spread each kind over the cycle rather than in runs
    order = sorted(range(len(cycle)), key=lambda j: (cycle[:j].count(cycle[j]) / cycle.count(cycle[j]), j))
    return [cycle[j] for j in order]


def run_stage(host, port, a, conc, n_req, seconds, first_i, cycle):
    results, lock = [], threading.Lock()
    nxt = [first_i]
    deadline = time.perf_counter() + seconds if seconds else None

    def worker():
        while True:
            with lock:
                i = nxt[0]
                if (deadline is None and i >= first_i + n_req) or (deadline is not None and time.perf_counter() >= deadline):
                    return
                nxt[0] += 1
            r = one_request(host, port, a, i, cycle[i % len(cycle)], len(cycle))
            with lock:
                results.append(r)

    th = [threading.Thread(target=worker) for _ in range(conc)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    return results, nxt[0]


def start_server(a, queue, per_client):
    if a.mlxcel:
        cmd = [a.mlxcel, "serve"]
    else:
        cmd = [a.server]
    cmd += ["-m", a.model, "--port", "0", "--queue", str(queue)]
    if per_client:
        cmd += ["--max-connections-per-client", str(per_client)]
    if not a.server_log:
        cmd.append("--quiet")
    cmd += a.server_args.split()
    print("server: " + " ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, errors="replace")
    log = open(a.server_log, "w") if a.server_log else None
    lines = []
    port = None
    for line in proc.stderr:
        lines.append(line)
        if log:
            log.write(line)
            log.flush()
        sys.stderr.write(line)
        m = re.search(r"listening on http://(?:127\.0\.0\.1|\[::1\]|[^:]+):(\d+) ", line)
        if m:
            port = int(m.group(1))
            break
    if port is None:
        sys.exit("the server did not start")

    def drain():
        for ln in proc.stderr:
            lines.append(ln)
            if log:
                log.write(ln)
                log.flush()
        if log:
            log.close()

    t = threading.Thread(target=drain, daemon=True)
    t.start()
    return proc, port, lines, t


def measure_stage(host, port, a, conc, n, first_i, cycle, pid, src, mon, refs, failures):
    """Runs one stage and sums it up."""
    m0 = http_get(host, port, "/metrics", src=src)[1]
    mon.take()
    c0 = cpu_seconds(pid)
    ts = time.perf_counter()
    res, _ = run_stage(host, port, a, conc, n, a.stage_seconds, first_i, cycle)
    wall = time.perf_counter() - ts
    cpu = cpu_shares(c0, cpu_seconds(pid), wall)
    peak = mon.take()
    m1 = http_get(host, port, "/metrics", src=src)[1]

    def delta(name, **labels):
        return metric_sum(m1, name, **labels) - metric_sum(m0, name, **labels)

    mism = [r for r in res if r["outcome"] == "ok" and r["greedy"] and refs.get(r["greedy"]) is not None
            and r["text"] != refs[r["greedy"]]]
    timed = [r for r in res if r["outcome"] == "ok" and r["kind"] not in ("slow", "abandon")]
    streamed = [r for r in res if r["stream"] and r["kind"] != "slow" and r["ttft"] is not None
                and r["outcome"] in ("ok", "cancelled")]
    fast_streams = [r for r in timed if r["stream"]]
    slow = [r for r in res if r["kind"] == "slow"]
    cnt = {o: sum(1 for r in res if r["outcome"] == o) for o in ("ok", "503", "429", "cancelled", "error")}
    gen = delta("mlxcel_completion_tokens_total")
    tpots = [r["tpot"] for r in fast_streams if r["tpot"]]
    gaps = [g for r in fast_streams for g in r["gaps"]]
    s = {"concurrency": conc, "requests": len(res), **cnt, "mismatches": len(mism), "wall_s": wall,
         "ttft_p50": pct([r["ttft"] for r in streamed], 50), "ttft_p99": pct([r["ttft"] for r in streamed], 99),
         "tpot_p50": pct(tpots, 50), "tpot_p99": pct(tpots, 99), "itl_p50": pct(gaps, 50), "itl_p99": pct(gaps, 99),
         "e2e_p50": pct([r["e2e"] for r in timed], 50), "e2e_p99": pct([r["e2e"] for r in timed], 99),
         "gen_tokens": gen, "gen_tok_s": gen / wall if wall else None,
         "server_cancelled": delta("mlxcel_generations_total", reason="cancelled"),
         "server_errors": delta("mlxcel_generations_total", reason="error"),
         "server_refused": delta("mlxcel_http_connections_refused_total"),
         "no_answer": sum(1 for r in res if r["outcome"] == "error" and r.get("received") == 0),
         "retry_after": sorted({r["retry_after"] for r in res if r["outcome"] == "429"}),
         "429_after_send_error": sum(1 for r in res if r["outcome"] == "429" and r.get("send_error")),
         "peak": peak, "loadavg": loadavg(), "cpu_pct": cpu,
         "slow": {"n": len(slow), "ok": sum(1 for r in slow if r["outcome"] == "ok"),
                  "backpressured": sum(1 for r in slow if (r.get("slow") or {}).get("max_sendq")),
                  "max_inq": max([(r.get("slow") or {}).get("max_inq", 0) for r in slow] or [0]),
                  "max_sendq": max([(r.get("slow") or {}).get("max_sendq") or 0 for r in slow] or [0]),
                  "e2e_p50": pct([r["e2e"] for r in slow if r["outcome"] == "ok"], 50)},
         "kinds": {k: sum(1 for r in res if r["kind"] == k) for k in KINDS}}
    for r in mism:
        failures.append(f"stage {conc}: request {r['i']} ({r['kind']}, {r['endpoint']}, greedy) text differs "
                        f"from its reference: {r['text'][:60]!r} vs {refs[r['greedy']][:60]!r}")
    nc = sum(1 for r in res if r["outcome"] == "cancelled" and r["kind"] == "cancel")
    print(f"stage {conc:>3}: {len(res)} requests in {wall:.1f} s: ok {cnt['ok']}, 503 {cnt['503']}, 429 {cnt['429']}, "
          f"cancelled {cnt['cancelled']} (cancel {nc}, abandon {cnt['cancelled'] - nc}), errors {cnt['error']} "
          f"({s['no_answer']} with no answer), mismatches {len(mism)}; load average {s['loadavg']}", flush=True)
    return s, res


def settle(host, port, a, pid, src, base, round_wall):
    """After a round: waits for /health and the process figures to come back, probes, measures."""
    t_end = time.perf_counter()
    settled_health, hs = None, None
    while time.perf_counter() - t_end < a.settle:
        try:
            hs = json.loads(http_get(host, port, "/health", src=src)[1])
            if hs.get("active") == 0 and hs.get("queued") == 0:
                settled_health = time.perf_counter() - t_end
                break
        except (OSError, ValueError, Failure):
            pass
        time.sleep(0.25)
    settled_proc = None
    while pid and base and time.perf_counter() - t_end < a.settle:
        f = proc_figures(pid)
        if f["threads"] is not None and f["threads"] <= base["threads"] + a.margin \
                and f["fds"] is not None and f["fds"] <= base["fds"] + a.margin:
            settled_proc = time.perf_counter() - t_end
            break
        time.sleep(0.25)
    probe = greedy_answer(host, port, a, *PROBE)
    time.sleep(1)
    figures = proc_figures(pid)
    metrics = http_get(host, port, "/metrics", src=src)[1]
    health = http_get(host, port, "/health", src=src)[1]
    print(f"round done in {round_wall:.1f} s; load average {loadavg()}", flush=True)

    def checks(probe_before, proc):
        out = [(settled_health is not None, f"/health active 0 and queued 0 within {a.settle:.0f} s: "
                + (f"after {settled_health:.2f} s" if settled_health is not None else f"no, last {hs}"))]
        if pid and base and figures:
            out.append((settled_proc is not None, f"threads and fds within {a.margin} of the baseline within "
                        f"{a.settle:.0f} s: " + (f"after {settled_proc:.2f} s" if settled_proc is not None else "no")
                        + f" (threads {base['threads']} -> {figures['threads']}, fds {base['fds']} -> {figures['fds']})"))
        out.append((probe == probe_before, f"greedy probe {PROBE} equal before and after: "
                    + ("yes" if probe == probe_before else f"no: {probe_before!r} vs {probe!r}")))
        if proc:
            out.append((proc.poll() is None, "the server is still running"))
        return out

    return {"figures": figures, "metrics": metrics, "health": health, "settled_health_s": settled_health,
            "settled_proc_s": settled_proc, "probe": probe, "checks": checks}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_argument_group("the server")
    g.add_argument("--model", help="start a server with this model")
    g.add_argument("--mlxcel", help="start it as `MLXCEL serve` (e.g. build/mlxcel)")
    g.add_argument("--server", default="build/mlxcel-server", help="else start this program [%(default)s]")
    g.add_argument("--server-args", default="", help="extra server options, e.g. '--slots 8'")
    g.add_argument("--queue", type=int, help="the started server's --queue [default: max(64, 2 x the largest stage)]")
    g.add_argument("--per-client", type=int,
                   help="the started server's --max-connections-per-client (every client here is 127.0.0.1; a "
                        "connection a client has closed counts until the server closes it too); 0: leave the "
                        "server's default [default: max(64, 2 x the largest stage)]")
    g.add_argument("--server-log", help="write the started server's stderr here (and keep its per-request lines)")
    g.add_argument("--url", help="use a running server instead, e.g. http://127.0.0.1:8080")
    g.add_argument("--pid", type=int, help="the running server's pid (for the process figures and checks)")
    g.add_argument("--api-key")
    g = ap.add_argument_group("the load")
    g.add_argument("--stages", help="concurrent clients per stage, rising, e.g. 1,8,16,32,64 "
                                    "[default: one stage of --concurrency]")
    g.add_argument("--stage-requests", default="auto",
                   help="requests per stage: N, a list (one per stage), or auto = max(8, 2 x concurrency) [%(default)s]")
    g.add_argument("--stage-seconds", type=float, help="instead: start requests for this long per stage, then drain")
    g.add_argument("--requests", type=int, default=200, help="without --stages: the requests of the one stage [%(default)s]")
    g.add_argument("--concurrency", type=int, default=16, help="without --stages: its clients [%(default)s]")
    g.add_argument("--rounds", type=int, default=1,
                   help="run the whole ramp this many times on the same server, measuring after each [%(default)s]")
    g.add_argument("--mix", default=DEFAULT_MIX, help=f"kinds and weights [%(default)s]")
    g.add_argument("--max-tokens", type=int, default=32)
    g.add_argument("--cancel-after", type=int, default=3, help="cancel: close after this many content chunks [%(default)s]")
    g.add_argument("--abandon-after", type=float, default=1.0, help="abandon: close after this many seconds [%(default)s]")
    g.add_argument("--slow-recv", type=int, default=512, help="slow: bytes per recv [%(default)s]")
    g.add_argument("--slow-sleep", type=float, default=0.5, help="slow: seconds between recvs [%(default)s]")
    g.add_argument("--slow-rcvbuf", type=int, default=2048, help="slow: SO_RCVBUF asked for [%(default)s]")
    g.add_argument("--timeout", type=float, default=600, help="per request socket timeout, seconds [%(default)s]")
    g = ap.add_argument_group("the checks")
    g.add_argument("--settle", type=float, default=10, help="seconds the server has to return to baseline [%(default)s]")
    g.add_argument("--margin", type=int, default=4, help="threads and fds allowed above the baseline [%(default)s]")
    g.add_argument("--json", help="also write the results here as JSON")
    a = ap.parse_args()
    if not a.model and not a.url:
        ap.error("give --model (start a server) or --url (use one)")
    try:
        cycle = parse_mix(a.mix)
    except ValueError as e:
        ap.error(str(e))
    if a.stages:
        stages = [int(x) for x in a.stages.split(",")]
        if a.stage_requests == "auto":
            per = [max(8, 2 * c) for c in stages]
        else:
            v = [int(x) for x in a.stage_requests.split(",")]
            per = v * len(stages) if len(v) == 1 else v
            if len(per) != len(stages):
                ap.error("--stage-requests: one number, or one per stage")
    else:
        stages, per = [a.concurrency], [a.requests]
    if any(c < 1 for c in stages) or any(n < 1 for n in per) or a.rounds < 1:
        ap.error("stages and requests must be at least 1")

    print("command: " + " ".join(shlex.quote(x) for x in sys.argv))
    print(f"load.py: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; host {platform.node()}, nproc {os.cpu_count()}, "
          f"CPU {cpu_model()}, python {platform.python_version()}")
    print(f"load average before: {loadavg()}", flush=True)
    proc, lines, drain = None, [], None
    if a.model:
        # every client here is 127.0.0.1: a limit of twice the largest stage leaves room for the
        # connections the clients have closed and the server has not yet (see --per-client)
        big = max(64, 2 * max(stages))
        proc, port, lines, drain = start_server(a, a.queue or big, big if a.per_client is None else a.per_client)
        host, pid = "127.0.0.1", proc.pid
    else:
        u = urllib.parse.urlparse(a.url)
        host, port, pid = u.hostname, u.port or 80, a.pid
    # the monitor's polls come from another loopback address when it can, so they do not count
    # against the per-client connection limit of the load's clients
    src = "127.0.0.2" if host == "127.0.0.1" else None
    try:
        if src:
            http_get(host, port, "/health", src=src)
    except OSError:
        src = None

    failures, results_all, report = [], [], {"stages": []}
    rc = 1
    try:
        # warm-up and the greedy references: every greedy (endpoint, prompt) once, 4 at a time
        t0 = time.perf_counter()
        refs, rlock = {}, threading.Lock()
        keys = [(k, p) for k in ("completion", "chat") for p in PROMPTS]

        def ref_worker(ks):
            for k in ks:
                try:
                    txt = greedy_answer(host, port, a, *k)
                except Exception as e:  # noqa: BLE001 - reported
                    txt = None
                    failures.append(f"reference {k}: {e}")
                with rlock:
                    refs[k] = txt

        th = [threading.Thread(target=ref_worker, args=(keys[j::4],)) for j in range(4)]
        for t in th:
            t.start()
        for t in th:
            t.join()
        probe_before = greedy_answer(host, port, a, *PROBE)
        print(f"references: {len(refs)} greedy answers (4 at a time) and the probe, {time.perf_counter() - t0:.1f} s")
        time.sleep(1)
        st, m_before = http_get(host, port, "/metrics", src=src)
        base = proc_figures(pid)
        _, hb = http_get(host, port, "/health", src=src)
        print(f"baseline: /health {hb}")

        mon = Monitor(host, port, pid, src)
        mon.start()
        i = 0
        t_load = time.perf_counter()
        afters, checks = [], []
        for rnd in range(1, a.rounds + 1):
            if a.rounds > 1:
                print(f"round {rnd} of {a.rounds}")
            t_round = time.perf_counter()
            for conc, n in zip(stages, per):
                s, res = measure_stage(host, port, a, conc, n, i, cycle, pid, src, mon, refs, failures)
                i += len(res)
                s["round"] = rnd
                report["stages"].append(s)
                results_all += res
            if rnd == a.rounds:
                mon.stop.set()
            af = settle(host, port, a, pid, src, base, time.perf_counter() - t_round)
            af["round"] = rnd
            afters.append(af)
            for ok, what in af["checks"](probe_before, proc):
                checks.append((ok, f"after round {rnd}: {what}" if a.rounds > 1 else what))
        load_wall = time.perf_counter() - t_load
        after = afters[-1]["figures"]

        # --- the tables ---
        print()
        total = {o: sum(s[o] for s in report["stages"])
                 for o in ("requests", "ok", "503", "429", "cancelled", "error", "mismatches", "no_answer",
                           "server_refused", "429_after_send_error")}
        print(f"load: stages {','.join(map(str, stages))} concurrent; requests per stage {','.join(map(str, per))}"
              f"{f'; {a.rounds} rounds' if a.rounds > 1 else ''}; max_tokens {a.max_tokens}; mix {a.mix} "
              f"(a third sampled); server {host}:{port}; {load_wall:.1f} s")
        print("latency columns: ttft over streams that got a first token (incl. cancel; not slow, whose reads are paced); "
              "tpot = (finish - ttft) / (tokens - 1) and itl = gaps between content chunks, over complete non-slow "
              "streams; e2e over complete requests except slow and abandon; tok/s = mlxcel_completion_tokens_total "
              "delta / stage wall; cancel = cancel + abandon (by design); 429 = too_many_connections (not ok)")
        rcol = ["round"] if a.rounds > 1 else []
        hdr = rcol + ["conc", "reqs", "ok", "503", "429", "cancel", "errors", "mism", "ttft p50", "ttft p99", "tpot p50",
                      "tpot p99", "itl p50", "itl p99", "e2e p50", "e2e p99", "tok/s", "wall"]
        units = [""] * len(rcol) + ["", "", "", "", "", "", "", "", "s", "s", "ms", "ms", "ms", "ms", "s", "s", "", "s"]
        rows = []
        for s in report["stages"]:
            rows.append(([str(s["round"])] if rcol else []) + [
                str(s["concurrency"]), str(s["requests"]), str(s["ok"]), str(s["503"]), str(s["429"]), str(s["cancelled"]),
                str(s["error"]), str(s["mismatches"]), fmt(s["ttft_p50"]), fmt(s["ttft_p99"]),
                fmt(s["tpot_p50"], 1000, 0), fmt(s["tpot_p99"], 1000, 0), fmt(s["itl_p50"], 1000, 0),
                fmt(s["itl_p99"], 1000, 0), fmt(s["e2e_p50"]), fmt(s["e2e_p99"]), fmt(s["gen_tok_s"], 1, 1),
                fmt(s["wall_s"], 1, 1)])
        print_table(hdr, units, rows)
        print()
        print("the server during each stage (cpu: shares of all cores over the stage from /proc/stat and /proc/PID/stat: "
              "the server, its device workers, this client, everything else on the machine; peaks sampled once a "
              "second; srv cancel/err: mlxcel_generations_total deltas; srv 429: mlxcel_http_connections_refused_total "
              "delta; slow: back-pressured = the server's send "
              "queue was non-empty while the client read slowly)")
        hdr2 = rcol + ["conc", "cpu srv%", "cpu wrk%", "cpu cli%", "cpu oth%", "threads", "fds", "RSS MiB", "workers MiB",
                       "active", "queued", "srv cancel", "srv err", "srv 429", "slow ok/n", "backpressured", "max sendq B",
                       "slow e2e p50 s", "load avg"]
        rows2 = []
        for s in report["stages"]:
            p, sl, cp = s["peak"], s["slow"], s["cpu_pct"]
            rows2.append(([str(s["round"])] if rcol else []) + [
                str(s["concurrency"]), fmt(cp["server"], 1, 0), fmt(cp["workers"], 1, 0), fmt(cp["client"], 1, 0),
                fmt(cp["others"], 1, 0), str(p["threads"]), str(p["fds"]), mib(p["rss_kib"]),
                mib(p["workers_rss_kib"]), str(p["active"]), str(p["queued"]), f"{s['server_cancelled']:.0f}",
                f"{s['server_errors']:.0f}", f"{s['server_refused']:.0f}", f"{sl['ok']}/{sl['n']}", str(sl["backpressured"]),
                str(sl["max_sendq"]), fmt(sl["e2e_p50"], 1, 1), s["loadavg"]])
        print_table(hdr2, [""] * len(hdr2), rows2)
        for s in report["stages"]:
            for e in s["peak"]["health_errors"]:
                failures.append(f"stage {s['concurrency']}: monitor {e}")

        print()
        print("before / after the load" + (" (after each round)" if a.rounds > 1 else ""))
        cols = [("before", base, m_before, hb)] + [
            (f"after{' ' + str(af['round']) if a.rounds > 1 else ''}", af["figures"], af["metrics"], af["health"])
            for af in afters]
        if base and after:
            def row(label, f):
                print(f"  {label:<34}" + "".join(f"{f(c[1]):>14}" for c in cols))
            print(f"  {'':<34}" + "".join(f"{c[0]:>14}" for c in cols))
            row("server RSS MiB", lambda x: mib(x["rss_kib"]))
            row("server threads", lambda x: str(x["threads"]))
            row("server open fds", lambda x: str(x["fds"]))
            row("device workers", lambda x: str(x["workers"]))
            row("device workers' RSS MiB", lambda x: mib(x["workers_rss_kib"]))
        else:
            print("  process figures: n/a (give --pid)")
            print(f"  {'':<34}" + "".join(f"{c[0]:>14}" for c in cols))
        for name in ("mlxcel_device_memory_bytes", "mlxcel_device_memory_peak_bytes"):
            vals = [" ".join(x.split()[-1] for x in metric_lines(c[2], name)) or "n/a" for c in cols]
            print(f"  {name:<34}" + "".join(f"{v:>14}" for v in vals)
                  + f"   {', '.join(x.split(' ')[0][len(name):] for x in metric_lines(cols[-1][2], name))}")
        for c in cols:
            print(f"  /health {c[0]:<9} {c[3]}")

        print()
        print("checks after the load")
        for ok, what in checks:
            print(f"  {'ok  ' if ok else 'FAIL'} {what}")
            if not ok:
                failures.append(what)

        errs = [r for r in results_all if r["outcome"] == "error"]
        print()
        print(f"totals: {total['requests']} requests: ok {total['ok']}, 503 {total['503']}, 429 {total['429']}, "
              f"cancelled {total['cancelled']} (by design), errors {total['error']} ({total['no_answer']} with no "
              f"answer: a reset or EOF before any byte), greedy mismatches {total['mismatches']}")
        if total["429"] or total["server_refused"]:
            ras = sorted({x for s in report["stages"] for x in s["retry_after"]})
            print(f"  429 too_many_connections: {total['429']} seen by the clients, each a JSON OpenAI error with "
                  f"Retry-After {'/'.join(ras) or '-'} ({total['429_after_send_error']} of them read after the request's "
                  f"send failed); mlxcel_http_connections_refused_total went up by {total['server_refused']:.0f}")
            refused = [r for r in results_all if r["outcome"] == "429"]
            print("  refused: " + ", ".join(f"{r['i']} ({r['kind']}, {r['elapsed']:.2f} s)" for r in refused[:40])
                  + (f", ... {len(refused) - 40} more" if len(refused) > 40 else ""))
            failures.append(f"{total['429']} requests refused with 429 too_many_connections (the per-client limit)")
        for r in errs[:20]:
            print(f"  error: request {r['i']} ({r['kind']}, {r['endpoint']}, {'stream' if r['stream'] else 'whole'}) "
                  f"after {r['elapsed']:.2f} s: {r['error']}")
        if len(errs) > 20:
            print(f"  ... {len(errs) - 20} more errors")
        for f_ in failures:
            print(f"  failure: {f_}")
        rc = 1 if errs or failures else 0
        report.update({"command": sys.argv, "stages_arg": stages, "per_stage": per, "rounds": a.rounds, "baseline": base,
                       "after": [{k: v for k, v in af.items() if k not in ("checks", "metrics")} for af in afters],
                       "health_before": hb, "checks": [{"ok": ok, "what": w} for ok, w in checks],
                       "errors": [{k: r[k] for k in ("i", "kind", "endpoint", "stream", "error", "elapsed")} for r in errs],
                       "refused": [{k: r.get(k) for k in ("i", "kind", "elapsed", "retry_after", "send_error")}
                                   for r in results_all if r["outcome"] == "429"],
                       "failures": failures, "load_wall_s": load_wall, "rc": rc})
    except (Failure, OSError, ValueError) as e:  # the references, probe or metrics could not be had
        print(f"failure: the run stopped: {type(e).__name__}: {e}")
        report["failures"] = failures + [f"the run stopped: {e}"]
        rc = 1
    finally:
        if proc:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if drain:
                drain.join(10)
            print()
            print(f"server exit status {proc.returncode}")
            gen_lines = [ln for ln in lines if re.search(r": (cmpl|chatcmpl)-[0-9a-f]+ /v1/", ln)]
            finishes = {}
            for ln in gen_lines:
                m = re.search(r"finish (\w+)", ln)
                if m:
                    finishes[m.group(1)] = finishes.get(m.group(1), 0) + 1
            flagged = [ln.rstrip() for ln in lines if LOG_PATTERN.search(ln)]
            print(f"server log: {len(lines)} lines, {len(gen_lines)} per-request lines (finish: "
                  f"{', '.join(f'{k} {v}' for k, v in sorted(finishes.items())) or '-'}), "
                  f"{len(flagged)} lines matching {LOG_PATTERN.pattern}")
            for ln in flagged[:10]:
                print(f"  {ln}")
            report["server"] = {"exit": proc.returncode, "log_lines": len(lines), "finishes": finishes,
                                "flagged": flagged[:50]}
            if proc.returncode != 0 or flagged:
                rc = 1
        print(f"load average after: {loadavg()}")
        if a.json:
            report["rc"] = rc
            with open(a.json, "w") as f:
                json.dump(report, f, indent=1, default=str)
    print(f"result: {'PASS' if rc == 0 else 'FAIL'}")
    return rc


def print_table(hdr, units, rows):
    h = [f"{x} {u}".strip() if u else x for x, u in zip(hdr, units)]
    w = [max(len(h[j]), *(len(r[j]) for r in rows)) if rows else len(h[j]) for j in range(len(h))]
    print("  " + "  ".join(h[j].rjust(w[j]) for j in range(len(h))))
    for r in rows:
        print("  " + "  ".join(r[j].rjust(w[j]) for j in range(len(h))))


if __name__ == "__main__":
    sys.exit(main())
