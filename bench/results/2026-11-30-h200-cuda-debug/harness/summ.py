import json, sys
for path in sys.argv[1:]:
    try: lines = open(path).read().splitlines()
    except OSError: continue
    for l in lines:
        try: d = json.loads(l)
        except Exception: print("BAD", l[:200]); continue
        fl = d.get("flags"); fl = " ".join(fl) if isinstance(fl, list) else fl
        head = "%-18s %-20s %-36s" % (d.get("exp"), (d.get("vmfb") or "").split("/")[-1], fl)
        if "rc" in d: print(head, "rc", d["rc"]); continue
        outs = []
        for s in d["steps"]:
            o = s.get("out")
            if o is None: outs.append(s["fn"] + ":FAIL"); continue
            o = o[0]
            if "v" in o: outs.append(s["fn"] + "=" + ",".join("%.6g" % x for x in o["v"][:4]))
            else: outs.append(s["fn"] + ":am%d,sum%.4f" % (o["argmax"], o["sum"]))
        print(head, "OK" if d["ok"] else "ERR " + d.get("error", "")[:300].replace("\n", " | "))
        print("    ", "; ".join(outs)[:600])
        if "red" in d:
            for k, v in d["red"].items():
                print("      %-16s got %-30s want %-30s %s" % (k, v[0], v[1], "ok" if v[2] else "WRONG"))
