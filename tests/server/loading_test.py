"""mlxcel-server while the model compiles and loads (issue 15 item 7): the port is bound first, GET /health
answers 503 {"status": "loading"} until the model is ready and 200 after; the model endpoints answer
503 with code "loading" meanwhile, /v1/models and /metrics answer as usual; a second server on the
same port fails at once, before any compile, with a one-line error.

    python3 tests/server/loading_test.py --mlxcel build/mlxcel --model MODEL.gguf
"""
import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import threading
import time

from checks import check, expect, summary


def get(port, method, path, body=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request(method, path, body=body, headers={"Content-Type": "application/json"})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mlxcel", default="build/mlxcel")
    ap.add_argument("--model", required=True)
    a = ap.parse_args()
    server_bin = os.path.join(os.path.dirname(a.mlxcel), "mlxcel-server")
    proc = subprocess.Popen([server_bin, "-m", a.model, "--port", "0", "--slots", "4"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    lines, seen = [], {}
    bound, ready = threading.Event(), threading.Event()

    def pump():
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            m = re.search(r"loading the model; http://127\.0\.0\.1:(\d+)/health answers 503", line)
            if m:
                seen["port"] = int(m.group(1))
                bound.set()
            if "listening on http://" in line:
                ready.set()
        bound.set()
        ready.set()

    threading.Thread(target=pump, daemon=True).start()
    statuses = []
    try:
        @check("the port is bound before the model loads (the loading line names it)")
        def _():
            bound.wait(120)
            expect("port" in seen, f"no loading line: {lines[-5:]}")

        port = seen.get("port")
        if port:
            @check("while loading: /health 503 loading, completions 503 code loading, /v1/models and /metrics 200")
            def _():
                loading = {}
                deadline = time.time() + 900
                while time.time() < deadline and proc.poll() is None:
                    st, body = get(port, "GET", "/health")
                    statuses.append(st)
                    if st == 200:
                        break
                    h = json.loads(body)
                    expect(st == 503 and h["status"] == "loading", f"/health {st} {h}")
                    if "completion" not in loading:
                        st, body = get(port, "POST", "/v1/completions", json.dumps({"prompt": "Hi", "max_tokens": 2}))
                        err = json.loads(body)["error"]
                        loading["completion"] = (st, err["code"], err["message"])
                        loading["models"] = get(port, "GET", "/v1/models")[0]
                        loading["metrics"] = get(port, "GET", "/metrics")[0]
                    time.sleep(0.01)
                expect(503 in statuses, f"/health never answered 503 during loading: {statuses[:5]}")
                expect(statuses[-1] == 200, f"/health did not reach 200: last {statuses[-3:]}")
                expect(loading["completion"][:2] == (503, "loading"), f"completion while loading: {loading['completion']}")
                expect("retry when GET /health answers 200" in loading["completion"][2], loading["completion"][2])
                expect(loading["models"] == 200 and loading["metrics"] == 200, f"models/metrics {loading}")

            @check("after loading: /health 200 ok, the ready line, a completion answers")
            def _():
                ready.wait(60)
                expect(any("listening on http://" in ln for ln in lines), "no ready line")
                st, body = get(port, "GET", "/health")
                expect(st == 200 and json.loads(body)["status"] == "ok", f"/health {st} {body[:200]}")
                st, body = get(port, "POST", "/v1/completions", json.dumps({"prompt": "Hi", "max_tokens": 2, "temperature": 0}))
                expect(st == 200 and json.loads(body)["usage"]["completion_tokens"] == 2, f"completion {st} {body[:200]}")

            @check("a second server on the same port fails at once, before compiling, in one line")
            def _():
                t0 = time.time()
                r = subprocess.run([server_bin, "-m", a.model, "--port", str(port)], capture_output=True, text=True, timeout=120)
                dt = time.time() - t0
                expect(r.returncode != 0, "the second server started")
                err = [ln for ln in r.stderr.splitlines() if ln.startswith("mlxcel:")]
                expect(len(err) == 1 and f"port {port}" in err[0] and "remedy" in err[0], f"stderr {r.stderr[-300:]!r}")
                expect("compil" not in r.stderr, f"it compiled first: {r.stderr[-300:]!r}")
                expect(dt < 30, f"took {dt:.1f} s")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
    print(f"/health answers seen: {statuses.count(503)} x 503 loading, then {statuses[-1:] or 'none'}")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
