"""Data-parallel check against mlxcel-server (stdlib only): N greedy completions, concurrently or one
at a time; prints each answer's text hash, the wall time, generated tokens and the per-device routing
from /metrics. Writes the texts as JSON for comparison between runs."""
import concurrent.futures, hashlib, json, sys, time, urllib.request

base, n, conc, max_tokens, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
subjects = ["the sea", "a mountain", "a city at night", "a library", "the moon", "a garden", "a storm", "a train",
            "an old house", "a river", "the desert", "a forest", "a market", "a bridge", "winter", "a lighthouse"]
prompts = [f"Request {i}: write about {subjects[i % len(subjects)]}." for i in range(n)]

def complete(p):
    body = json.dumps({"prompt": p, "max_tokens": max_tokens, "temperature": 0}).encode()
    req = urllib.request.Request(base + "/v1/completions", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        j = json.load(r)
    return j["choices"][0]["text"], j["usage"]["completion_tokens"]

t0 = time.time()
with concurrent.futures.ThreadPoolExecutor(conc) as ex:
    res = list(ex.map(complete, prompts))
wall = time.time() - t0
toks = sum(c for _, c in res)
metrics = urllib.request.urlopen(base + "/metrics").read().decode()
routed = [l for l in metrics.splitlines() if l.startswith("mlxcel_device_requests_total")]
print(f"requests {n} concurrency {conc} max_tokens {max_tokens}: wall {wall:.2f} s, {toks} tokens, {toks / wall:.1f} tok/s")
for l in routed: print("  " + l)
json.dump([t for t, _ in res], open(out, "w"))
print("texts sha256", hashlib.sha256(json.dumps([t for t, _ in res]).encode()).hexdigest()[:16])
