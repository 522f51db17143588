"""The little harness the live-server tests share: named checks that report one line each and go on
after a failure, an assertion helper, and a Prometheus sample reader."""
import re
import sys
import traceback

results = {"passed": 0, "failed": 0}


def check(name):
    """Runs the decorated function at once as one check: "ok    NAME" or "FAIL  NAME: why"."""
    def wrap(fn):
        try:
            fn()
            results["passed"] += 1
            print(f"ok    {name}", flush=True)
        except Exception as e:  # noqa: BLE001 - any failure is reported, the next check still runs
            results["failed"] += 1
            print(f"FAIL  {name}: {type(e).__name__}: {e}", flush=True)
            traceback.print_exc(limit=3, file=sys.stdout)
        return fn
    return wrap


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def metric(text, name):
    """The value of the sample NAME (labels included, exactly as exposed), None when absent."""
    m = re.search(r"^" + re.escape(name) + r" (\S+)$", text, re.M)
    return float(m.group(1)) if m else None


def summary():
    """Prints the last line run_tests.sh counts; returns the exit status."""
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 0 if results["failed"] == 0 else 1


def launch(argv, env=None, ready_timeout=600):
    """Starts mlxcel-server with argv (which should include --port 0) and waits for its ready line.
    Returns (process, port, stderr lines so far and to come); a server that exits or stays silent
    raises AssertionError with its last lines."""
    import subprocess
    import threading
    lines, found = [], {}
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    ready = threading.Event()

    def pump():
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", line)
            if m:
                found["port"] = int(m.group(1))
                ready.set()
        ready.set()

    threading.Thread(target=pump, daemon=True).start()
    if not ready.wait(ready_timeout) or "port" not in found:
        proc.kill()
        raise AssertionError("the server did not get ready:\n" + "\n".join(lines[-20:]))
    return proc, found["port"], lines


def api_error(exc):
    """The {"message", "type", "param", "code"} object of an openai.APIStatusError."""
    err = exc.body if isinstance(exc.body, dict) else {}
    return err.get("error", err)  # the client unwraps "error" on some versions


def served_client(mlxcel, model, extra=()):
    """Starts mlxcel-server (beside the mlxcel binary) on a free port with 4 slots and no key, and
    returns (process, an openai client for it, the model id). A server that fails to start raises
    AssertionError with its last lines."""
    import os
    import openai
    server_bin = os.path.join(os.path.dirname(mlxcel), "mlxcel-server")
    proc, port, _ = launch([server_bin, "-m", model, "--port", "0", "--slots", "4", *extra])
    client = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="none", max_retries=0, timeout=300)
    return proc, client, os.path.basename(model)


def port_of(client):
    """The port of an openai client made by served_client."""
    return int(str(client.base_url).split(":")[2].split("/")[0])


def post_json(port, path, body, timeout=60):
    """POSTs body as JSON to the local server's path and returns the JSON answer (an HTTPError on 4xx/5xx)."""
    import json
    import urllib.request
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.load(r)
