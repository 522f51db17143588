#!/usr/bin/env python3
"""A load run against mlxcel-server: a benchmark that prints a table, not a test.

Sends N completion requests (a mix of streaming and not, a few prompts, greedy and sampled) from C
concurrent client threads to a server on loopback, then prints errors, throughput (requests/s and
generated tokens/s), latency percentiles (end to end and time to first token for the streamed ones)
and the server's resident memory before and after, from /proc/PID/status.

It starts its own server (--model) or uses a running one (--url plus --pid for the memory figures).
Only the standard library is used, so any python3 runs it:

  tests/server/load.py --model "$(scripts/fetch-model.sh)" --requests 200 --concurrency 16
  tests/server/load.py --url http://127.0.0.1:8080 --pid $(pgrep -f mlxcel-server) --requests 50
"""
import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.parse

PROMPTS = ["Once upon a time", "The capital of France is", "def fibonacci(n):", "Write a haiku about rain.",
           "The three primary colours are", "In 1969, the first person to walk on the moon"]


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def tree_rss_kib(pid):
    """The server plus its device workers (children)."""
    total = rss_kib(pid) or 0
    try:
        kids = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    except OSError:
        kids = []
    return total, sum(rss_kib(int(k)) or 0 for k in kids)


def pct(xs, p):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def one_request(host, port, key, i, max_tokens, timeout):
    stream = i % 2 == 1
    body = {"prompt": PROMPTS[i % len(PROMPTS)], "max_tokens": max_tokens, "stream": stream}
    body.update({"temperature": 0} if i % 3 else {"temperature": 0.8, "seed": i})
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    t0 = time.perf_counter()
    c = http.client.HTTPConnection(host, port, timeout=timeout)
    c.request("POST", "/v1/completions", json.dumps(body), headers)
    r = c.getresponse()
    ttft, tokens = None, 0
    if r.status != 200:
        data = r.read()
        c.close()
        raise RuntimeError(f"HTTP {r.status}: {data[:200]!r}")
    if stream:
        done = False
        for raw in r:
            line = raw.decode().strip()
            if not line.startswith("data: "):
                continue
            if line == "data: [DONE]":
                done = True
                break
            chunk = json.loads(line[6:])
            if "error" in chunk:
                raise RuntimeError(f"stream error: {chunk['error']['message']}")
            if ttft is None and chunk["choices"] and chunk["choices"][0]["text"]:
                ttft = time.perf_counter() - t0
        if not done:
            raise RuntimeError("stream ended without [DONE]")
        tokens = None  # counted from /metrics
    else:
        tokens = json.loads(r.read())["usage"]["completion_tokens"]
    c.close()
    return time.perf_counter() - t0, ttft, tokens


def metric(text, name):
    m = re.search(r"^" + re.escape(name) + r" (\S+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


def get(host, port, path):
    c = http.client.HTTPConnection(host, port, timeout=30)
    c.request("GET", path)
    data = c.getresponse().read().decode()
    c.close()
    return data


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", help="start build/mlxcel-server with this model")
    ap.add_argument("--server", default="build/mlxcel-server")
    ap.add_argument("--server-args", default="", help="extra server options, e.g. '--slots 8'")
    ap.add_argument("--url", help="use a running server instead")
    ap.add_argument("--pid", type=int, help="the running server's pid (for memory figures)")
    ap.add_argument("--api-key")
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--max-tokens", type=int, default=32)
    ap.add_argument("--timeout", type=float, default=600, help="per request, seconds")
    a = ap.parse_args()
    if not a.model and not a.url:
        ap.error("give --model (start a server) or --url (use one)")

    proc = None
    if a.model:
        cmd = [a.server, "-m", a.model, "--port", "0", "--quiet", "--queue", str(max(64, a.requests))]
        cmd += a.server_args.split()
        proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
        port = None
        for line in proc.stderr:
            sys.stderr.write(line)
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", line)
            if m:
                port = int(m.group(1))
                break
        if port is None:
            sys.exit("the server did not start")
        threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
        host, pid = "127.0.0.1", proc.pid
    else:
        u = urllib.parse.urlparse(a.url)
        host, port, pid = u.hostname, u.port or 80, a.pid

    try:
        before = tree_rss_kib(pid) if pid else None
        m0 = get(host, port, "/metrics")
        lat, ttfts, errors = [], [], []
        lock = threading.Lock()
        nxt = [0]

        def worker():
            while True:
                with lock:
                    i = nxt[0]
                    nxt[0] += 1
                if i >= a.requests:
                    return
                try:
                    t, ttft, tok = one_request(host, port, a.api_key, i, a.max_tokens, a.timeout)
                    with lock:
                        lat.append(t)
                        if ttft is not None:
                            ttfts.append(ttft)
                except Exception as e:  # noqa: BLE001 - counted and shown
                    with lock:
                        errors.append(f"request {i}: {e}")

        t0 = time.perf_counter()
        th = [threading.Thread(target=worker) for _ in range(a.concurrency)]
        for t in th:
            t.start()
        for t in th:
            t.join()
        wall = time.perf_counter() - t0
        m1 = get(host, port, "/metrics")
        after = tree_rss_kib(pid) if pid else None
        gen = metric(m1, "mlxcel_completion_tokens_total") - metric(m0, "mlxcel_completion_tokens_total")

        print()
        print(f"load: {a.requests} requests, {a.concurrency} concurrent, max_tokens {a.max_tokens} "
              f"(half streamed, a third sampled), server {host}:{port}")
        rows = [("requests ok / errors", f"{len(lat)} / {len(errors)}"),
                ("wall time", f"{wall:.1f} s"),
                ("throughput", f"{len(lat) / wall:.2f} req/s, {gen / wall:.1f} generated tok/s"),
                ("latency p50 / p99 / max", f"{pct(lat, 50):.2f} / {pct(lat, 99):.2f} / {max(lat or [0]):.2f} s"),
                ("time to first token p50 / p99 (streamed)", f"{pct(ttfts, 50):.2f} / {pct(ttfts, 99):.2f} s")]
        if before and after:
            rows.append(("server RSS before / after", f"{before[0] / 1024:.1f} / {after[0] / 1024:.1f} MiB "
                         f"({(after[0] - before[0]) / 1024:+.1f})"))
            rows.append(("device worker RSS before / after", f"{before[1] / 1024:.1f} / {after[1] / 1024:.1f} MiB"))
        w = max(len(r[0]) for r in rows)
        for k, v in rows:
            print(f"  {k:<{w}}  {v}")
        for e in errors[:10]:
            print(f"  error: {e}")
        if len(errors) > 10:
            print(f"  ... {len(errors) - 10} more errors")
    finally:
        if proc:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
