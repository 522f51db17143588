#!/usr/bin/env python3
"""Fault injection against mlxcel-server on any device, for a GPU host (CI runs the CPU's version,
reliability_test.py; this one takes the device's serve arguments, so it runs with a prebuilt module
and no compiler): the worker
killed and stopped while idle and while busy, a call failing with the worker up, shutdown with a hung
device. For each: what the affected request got, whether the next greedy answer equals the one before
any fault, how long the restart took (from the server's log), and the GPU memory in use (nvidia-smi)
after each restart, so a restart that leaks device memory shows (-1 without nvidia-smi). Stdlib only.
scripts/gpu/h200_faults_and_selection.sh runs it on the H200 (not yet run: no GPU was lent).

usage: faults.py --mlxcel BIN --model M --out DIR -- SERVE_ARGS...
Prints one line per step and "N passed, M failed" last."""
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

results = {"passed": 0, "failed": 0}


def step(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(f"{'ok  ' if ok else 'FAIL'}  {name}{': ' + detail if detail else ''}", flush=True)


def gpu_mib():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True).stdout.split()
    except OSError:
        return -1
    return int(out[0]) if out else -1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("serve_args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    extra = [x for x in a.serve_args if x != "--"]
    fault = "/tmp/mlxcel-fault"
    env = dict(os.environ, MLXCEL_XLA_WORKER_FAULT_FILE=fault, MLXCEL_XLA_WORKER_TIMEOUT_MS="20000")
    log = open(os.path.join(a.out, "server.log"), "w")
    t_start = time.time()
    proc = subprocess.Popen([a.mlxcel, "serve", "-m", a.model, "--port", "18080", "--probe-interval", "1",
                             "--shutdown-timeout", "3"] + extra, stdout=log, stderr=subprocess.STDOUT, env=env)
    port = 18080

    def raw(method, path, body=None, timeout=120):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        c.request(method, path, body=json.dumps(body).encode() if body else None,
                  headers={"Content-Type": "application/json"})
        r = c.getresponse()
        d = r.read()
        c.close()
        return r.status, json.loads(d) if d[:1] == b"{" else d

    def health():
        try:
            return raw("GET", "/health", timeout=5)[1]
        except OSError:
            return None

    def complete(n=32):
        return raw("POST", "/v1/completions", {"prompt": "The capital of France is", "max_tokens": n, "temperature": 0})

    def workers():
        return [int(p) for p in subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True,
                                               text=True).stdout.split()]

    def wait(pred, secs):
        end = time.time() + secs
        while time.time() < end:
            v = pred()
            if v:
                return v
            time.sleep(0.05)
        return pred()

    def restarts():
        h = health()
        return h["backends"][0]["restarts"] if h else -1

    def restart_ms():
        text = open(os.path.join(a.out, "server.log")).read()
        ms = re.findall(r"restarted \(attempt \d+ of \d+, (\d+) ms\)", text)
        return int(ms[-1]) if ms else None

    ready = wait(lambda: (h := health()) and h.get("status") == "ok", 420)
    step("the server starts", bool(ready), f"{time.time() - t_start:.1f} s, GPU memory {gpu_mib()} MiB")
    if not ready:
        proc.kill()
        return 1
    st, ref = complete()
    ref_text = ref["choices"][0]["text"] if st == 200 else None
    step("reference greedy completion (32 tokens)", st == 200, repr(ref_text))
    mem0 = gpu_mib()

    def same_answer(label):
        st, j = complete()
        ok = st == 200 and j["choices"][0]["text"] == ref_text
        step(f"{label}: the next greedy answer equals the reference", ok, "" if ok else f"{st} {j}")

    def stream_bg(n, out):
        def run():
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                c.request("POST", "/v1/completions", body=json.dumps({"prompt": "Once upon a time", "max_tokens": n,
                                                                      "temperature": 0, "stream": True,
                                                                      "ignore_eos": True}).encode(),
                          headers={"Content-Type": "application/json"})
                r = c.getresponse()
                out["status"] = r.status
                out["events"] = [ln.decode().strip() for ln in r if ln.startswith(b"data: ")]
            except Exception as e:  # noqa: BLE001
                out["exc"] = str(e)
        t = threading.Thread(target=run)
        t.start()
        return t

    # 1. idle worker killed
    before = restarts()
    os.kill(workers()[0], signal.SIGKILL)
    ok = wait(lambda: restarts() == before + 1 and health()["status"] == "ok", 60)
    step("idle worker SIGKILLed: found by the probe and restarted", bool(ok),
         f"restart {restart_ms()} ms, GPU memory {gpu_mib()} MiB (before the fault {mem0})")
    same_answer("after the idle kill")
    # 2. idle worker stopped (hung)
    before = restarts()
    os.kill(workers()[0], signal.SIGSTOP)
    ok = wait(lambda: restarts() == before + 1 and health()["status"] == "ok", 60)
    step("idle worker SIGSTOPped: the probe times out after 5 s, the worker is replaced", bool(ok),
         f"restart {restart_ms()} ms, GPU memory {gpu_mib()} MiB")
    same_answer("after the idle hang")
    # 3. busy worker killed
    before = restarts()
    out = {}
    t = stream_bg(400, out)
    step("a 400-token stream runs", bool(wait(lambda: health()["active"] == 1, 30)), str(out)[:120])
    time.sleep(0.5)
    os.kill(workers()[0], signal.SIGKILL)
    t.join(120)
    err = [e for e in out.get("events", []) if '"error"' in e]
    step("busy worker SIGKILLed: the running stream ends with an error event", bool(err), err[0][:160] if err else str(out)[:200])
    ok = wait(lambda: restarts() == before + 1 and health()["status"] == "ok", 60)
    step("... and the worker is restarted", bool(ok), f"restart {restart_ms()} ms, GPU memory {gpu_mib()} MiB")
    same_answer("after the busy kill")
    # 4. busy worker stopped: metrics and health answer at once; the call times out (20 s)
    before = restarts()
    out = {}
    t = stream_bg(400, out)
    step("a 400-token stream runs", bool(wait(lambda: health()["active"] == 1, 30)), str(out)[:120])
    time.sleep(0.5)
    os.kill(workers()[0], signal.SIGSTOP)
    time.sleep(0.5)
    t0 = time.time()
    raw("GET", "/metrics", timeout=5)
    health()
    took = time.time() - t0
    step("busy worker SIGSTOPped: /metrics and /health answer at once", took < 1, f"{took * 1000:.0f} ms")
    t.join(120)
    err = [e for e in out.get("events", []) if '"error"' in e]
    step("... the hung stream ends with an error after the call timeout", bool(err), err[0][:160] if err else str(out)[:200])
    ok = wait(lambda: restarts() == before + 1 and health()["status"] == "ok", 60)
    step("... and the worker is restarted", bool(ok), f"restart {restart_ms()} ms, GPU memory {gpu_mib()} MiB")
    same_answer("after the busy hang")
    # 5. a call that fails with the worker up
    before = restarts()
    with open(fault + ".tmp", "w") as f:
        f.write("call_error decode")
    os.rename(fault + ".tmp", fault)
    st, j = complete()
    step("a failing decode call fails only its request (500 device_error)", st == 500 and j["error"]["code"] == "device_error",
         f"{st} {str(j)[:160]}")
    same_answer("after the failed call")
    step("... with no restart", restarts() == before, f"restarts {restarts()}")
    # 6. shutdown with a hung device
    out = {}
    t = stream_bg(400, out)
    step("a 400-token stream runs", bool(wait(lambda: health()["active"] == 1, 30)), str(out)[:120])
    w = workers()
    os.kill(w[0], signal.SIGSTOP)
    t0 = time.time()
    proc.send_signal(signal.SIGTERM)
    rc = proc.wait(60)
    took = time.time() - t0
    t.join(30)
    time.sleep(1)
    left = [p for p in w if os.path.exists(f"/proc/{p}")]
    step("SIGTERM with a hung device (--shutdown-timeout 3): exits 0 promptly, no worker left",
         rc == 0 and took < 10 and not left, f"exit {rc} after {took:.1f} s, GPU memory after {gpu_mib()} MiB")
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 0 if results["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
