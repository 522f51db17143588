"""mlxcel as a peer: batch 1 through `mlxcel generate --json`, batch B > 1 through `mlxcel serve --slots B`
with B concurrent streamed completions of the same prompt. Appends one record (bench/peers/README.md).

  python3 mlxcel_peer.py --mlxcel BIN --model DIR --dtype bf16 --batch B --prompt-ids IDS.json
                         --prompt-file PROMPT.txt --new 128 --runs 3 --out results.jsonl
                         [--vmfb MODULE] [--cold-compile-s S] [-- extra mlxcel options, e.g. --device cuda ...]

Batch 1: prefill and decode figures are the engine's own (`--stats`). Batch B: prefill_ms is the time
from sending the B requests to the last one's first token (the scheduler prefills them in turn), and
decode tok/s is the sum over the B requests of (tokens after the first) / (last token - first token),
measured by the client on the streamed chunks; the HTTP path is part of what a user pays."""
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import append_record, base_args, ids_sha  # noqa: E402


def generate_once(a, extra, prompt):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        js = f.name
    cmd = [a.mlxcel, "generate", "-m", a.model, "-p", prompt, "-n", str(a.new), "--no-chat", "--ignore-eos",
           "--precision", a.dtype, "--context", str(a.context), "--json", js] + (["--vmfb", a.vmfb] if a.vmfb else []) + extra
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=900)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(f"mlxcel peer: generate failed (exit {r.returncode}): {r.stderr.strip().splitlines()[-1:]}")
    j = json.load(open(js))
    os.unlink(js)
    return j, wall


def run_batch1(a, extra, prompt, n_prompt):
    warm, warm_s = generate_once(a, extra, prompt)
    runs = [generate_once(a, extra, prompt)[0] for _ in range(a.runs)]
    if any(r["prompt_tokens"] != n_prompt for r in runs):
        raise SystemExit(f"mlxcel peer: the prompt encodes to {runs[0]['prompt_tokens']} tokens, the ids file has {n_prompt}")
    same = all(r["generated_ids"] == warm["generated_ids"] for r in runs)
    return dict(decode_tok_s=[r["decode_tok_per_s"] for r in runs], prefill_ms=[r["prefill_ms"] for r in runs],
                warmup_s=warm_s, warm_load_s=sorted(r["load_ms"] for r in runs)[len(runs) // 2] / 1e3,
                peak_device_bytes=max(r["peak_device_bytes"] for r in runs), text_sha=ids_sha(warm["generated_ids"]),
                same=same)


def stream_completion(base, prompt, n, temperature=0, seed=None):
    req = {"prompt": prompt, "max_tokens": n, "temperature": temperature, "ignore_eos": True, "stream": True}
    if seed is not None:
        req["seed"] = seed
    body = json.dumps(req).encode()
    req = urllib.request.Request(base + "/v1/completions", body, {"Content-Type": "application/json"})
    first = last = None
    text = []
    with urllib.request.urlopen(req, timeout=900) as r:
        for line in r:
            if not line.startswith(b"data: ") or line.strip() == b"data: [DONE]":
                continue
            ch = json.loads(line[6:])
            t = ch["choices"][0].get("text", "")
            if t:
                now = time.perf_counter()
                first = first or now
                last = now
                text.append(t)
    return first, last, "".join(text)


def metric(base, name):
    for l in urllib.request.urlopen(base + "/metrics", timeout=30).read().decode().splitlines():
        if l.startswith(name + " ") or l.startswith(name + "{"):
            return float(l.split()[-1])
    return None


def run_batched(a, extra, prompt):
    cmd = [a.mlxcel, "serve", "-m", a.model, "--port", "0", "--slots", str(a.batch), "--context", str(a.context),
           "--precision", a.dtype, "--quiet"] + (["--vmfb", a.vmfb] if a.vmfb else []) + extra
    t0 = time.perf_counter()
    srv = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port, log = None, []

    def drain():  # the server's output, kept for a failure message; reading it keeps its pipe from filling
        for line in srv.stdout:
            log.append(line)
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    while port is None and srv.poll() is None and time.perf_counter() - t0 < 900:
        m = next((re.search(r"listening on http://127\.0\.0\.1:(\d+)", l) for l in list(log) if "listening on" in l), None)
        port = m.group(1) if m else None
        time.sleep(0.1)
    load_s = time.perf_counter() - t0
    if port is None:
        srv.kill()
        raise SystemExit(f"mlxcel peer: serve did not start: {''.join(log[-5:]).strip()}")
    base = f"http://127.0.0.1:{port}"
    try:
        def one_run():
            t = time.perf_counter()
            with concurrent.futures.ThreadPoolExecutor(a.batch) as ex:
                # Sampled: stream i draws with seed i + 1, so each stream is reproducible on its own.
                res = list(ex.map(lambda i: stream_completion(base, prompt, a.new, a.temperature, i + 1 if a.temperature else None),
                                  range(a.batch)))
            pre = (max(f for f, _, _ in res) - t) * 1e3
            dec = sum((a.new - 1) / (l - f) for f, l, _ in res)
            return pre, dec, [x for _, _, x in res]
        w = time.perf_counter()
        _, _, warm_texts = one_run()
        warm_s = time.perf_counter() - w
        runs = [one_run() for _ in range(a.runs)]
        peak = metric(base, "mlxcel_device_memory_peak_bytes")
    finally:
        srv.terminate()
        srv.wait(timeout=60)
    same = all(r[2] == warm_texts for r in runs) and (a.temperature > 0 or len(set(warm_texts)) == 1)
    return dict(decode_tok_s=[r[1] for r in runs], prefill_ms=[r[0] for r in runs], warmup_s=warm_s, warm_load_s=load_s,
                peak_device_bytes=int(peak) if peak else None,
                text_sha="text:" + hashlib.sha256(warm_texts[0].encode()).hexdigest()[:11], same=same)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = base_args(__doc__.splitlines()[0])
    ap.add_argument("--mlxcel", required=True, help="the mlxcel binary")
    ap.add_argument("--prompt-file", required=True, help="the prompt text (tokenized by mlxcel, without the chat template)")
    ap.add_argument("--vmfb", help="a prebuilt module for these options (the GPU machine has no compiler)")
    ap.add_argument("--cold-compile-s", type=float, help="this module's cold compile time, measured where it was compiled")
    ap.add_argument("--device-name", default="cuda")
    ap.add_argument("--temperature", type=float, default=0,
                    help="batch B > 1: every request draws at this temperature, stream i with seed i + 1 (batch 1 takes "
                         "generate's own --temperature and --seed after --)")
    a = ap.parse_args(argv)
    if len(a.batch) != 1:
        raise SystemExit("mlxcel peer: one --batch per call (each batch size is a module of its own)")
    a.batch = a.batch[0]
    prompt = open(a.prompt_file).read()
    n_prompt = len(json.load(open(a.prompt_ids)))
    r = run_batch1(a, extra, prompt, n_prompt) if a.batch == 1 else run_batched(a, extra, prompt)
    note = a.note + ("" if r.pop("same") else "; RUNS DIFFER (texts not identical across runs or sequences)")
    append_record(a.out, peer="mlxcel", device=a.device_name, dtype=a.dtype, batch=a.batch, prompt_tokens=n_prompt,
                  new_tokens=a.new, cold_compile_s=a.cold_compile_s, note=note.strip("; "), **r)


if __name__ == "__main__":
    main()
