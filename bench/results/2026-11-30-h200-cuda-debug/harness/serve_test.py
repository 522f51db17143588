"""Fire concurrent greedy completions at a running mlxcel server; print one JSON line of texts."""
import json, sys, threading, time, urllib.request
port = int(sys.argv[1]); base = "http://127.0.0.1:%d" % port
for _ in range(600):
    try:
        urllib.request.urlopen(base + "/health", timeout=1).read(); break
    except Exception:
        time.sleep(0.1)
prompts = ["The capital of France is", "Once upon a time", "List three colors:", "def fib(n):",
           "Hello", "The quick brown fox", "In 1492,", "Water boils at"]
budgets = [16, 24, 8, 20, 12, 16, 10, 18]
res = [None] * len(prompts)
def one(i):
    body = json.dumps({"prompt": prompts[i], "max_tokens": budgets[i], "temperature": 0}).encode()
    req = urllib.request.Request(base + "/v1/completions", data=body, headers={"Content-Type": "application/json"})
    try:
        r = json.loads(urllib.request.urlopen(req, timeout=120).read())
        res[i] = {"text": r["choices"][0]["text"], "usage": r.get("usage"), "finish": r["choices"][0].get("finish_reason")}
    except Exception as e:
        res[i] = {"error": str(e)[:300]}
t = time.time()
th = [threading.Thread(target=one, args=(i,)) for i in range(len(prompts))]
[x.start() for x in th]; [x.join() for x in th]
wall = time.time() - t
try:
    m = urllib.request.urlopen(base + "/metrics", timeout=5).read().decode()
    m = [l for l in m.splitlines() if l and not l.startswith("#")][:20]
except Exception as e:
    m = str(e)
print(json.dumps({"wall_s": round(wall, 3), "results": res, "metrics": m}))
