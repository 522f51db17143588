"""CUDA debug harness: load a VMFB with iree.runtime (as the mlxcel worker does) and run one experiment.

usage: h.py EXPERIMENT DEVICE VMFB [PARAMS] [--flags "..."]
Prints one JSON line: {"exp", "ok", "steps": [...], "error"}.
"""
import json
import sys
import time
import traceback

import numpy as np
import iree.runtime as rt


def main():
    args = sys.argv[1:]
    flags = []
    if "--flags" in args:
        i = args.index("--flags")
        flags = args[i + 1].split()
        del args[i:i + 2]
    exp, devname, vmfb = args[0], args[1], args[2]
    params = args[3] if len(args) > 3 else None
    if flags:
        rt.flags.parse_flags(*flags)
    out = {"exp": exp, "device": devname, "vmfb": vmfb, "flags": flags, "steps": []}
    try:
        drv = rt.get_driver(devname)
        dev = drv.create_device(drv.query_available_devices()[0]["device_id"])
        inst = rt.VmInstance()
        mods = [rt.create_hal_module(inst, dev)]
        if params:
            idx = rt.ParameterIndex()
            idx.load(params)
            mods.append(rt.create_io_parameters_module(inst, idx.create_provider(scope="model")))
        mod = rt.VmModule.mmap(inst, vmfb)
        t0 = time.time()
        ctx = rt.VmContext(inst, modules=mods + [mod])
        out["load_s"] = time.time() - t0
        inv = {}

        def call(fn, *a):
            if fn not in inv:
                inv[fn] = rt.FunctionInvoker(ctx, dev, mod.lookup_function(fn))
            step = {"fn": fn}
            out["steps"].append(step)
            t = time.time()
            r = inv[fn](*a)
            r = list(r) if isinstance(r, (list, tuple)) else [r]
            h = [np.asarray(x.to_host()) for x in r]
            step["ms"] = round((time.time() - t) * 1000, 3)
            step["out"] = [summ(x) for x in h]
            return h

        EXPS[exp](call)
        if RED:
            out["red"] = RED
        out["ok"] = True
        if dev.allocator.has_statistics:
            out["stats"] = {k: int(v) for k, v in dict(dev.allocator.statistics).items()}
    except Exception as e:  # noqa: BLE001
        out["ok"] = False
        out["error"] = str(e).strip()[:1500]
        out["tb"] = traceback.format_exc()[-800:]
    print(json.dumps(out))


def summ(x):
    x = np.asarray(x)
    if x.size <= 64:
        return {"shape": list(x.shape), "v": x.astype(np.float64).ravel().tolist() if x.dtype.kind == "f" else x.ravel().tolist()}
    f = x.astype(np.float64).ravel()
    d = {"shape": list(x.shape), "argmax": int(np.argmax(f)), "max": float(np.max(f)), "min": float(np.min(f)),
         "sum": float(np.sum(f)), "head": f[:6].tolist(), "nan": int(np.isnan(f).sum())}
    if x.ndim == 2:
        d["rowargmax"] = [int(i) for i in np.argmax(x, axis=1)]
    return d


i32 = lambda *v: np.array(v, dtype=np.int32)
sc = lambda v: np.array(v, dtype=np.int32)


def m_a(call):
    call("read")
    call("matvec", np.linspace(-1, 1, 8).astype(np.float32))


def m_b(call):
    x = np.array([1, 2, 3, 4], np.float32).reshape(1, 1, 4)
    call("upd", x, sc(0), sc(3))
    call("readk")
    call("readv")
    call("upd", x * 10, sc(1), sc(5))
    call("upd1", x * 100, i32(1, 7))
    call("readk")
    call("readv")


def m_c(call):
    x = np.linspace(-1, 1, 8).astype(np.float32)
    call("step", x, sc(0))
    call("step", x * 2, sc(1))
    call("step1", x * 3, i32(2))
    call("readc")


PROMPTS = [[128000, 791, 6864, 315, 9822, 374], [128000, 9906, 1917, 11, 358, 1097, 264, 2678],
           [128000, 12805, 5304, 264, 892], [128000, 40, 1093, 311, 1005, 13]]


def model(call, slots, logits_first=True, steps=8, nslots_used=1):
    """Prefill prompt b into slot b (b < nslots_used), then greedy-decode `steps` steps on all slots."""
    toks = [None] * slots
    pos = [0] * slots
    for b in range(nslots_used):
        p = PROMPTS[b]
        padded = np.zeros(32, np.int32)
        padded[:len(p)] = p
        if logits_first:
            call("prefill_32_logits", padded, sc(len(p)), sc(b))
        t = call("prefill_32", padded, sc(len(p)), sc(b))[0]
        toks[b], pos[b] = int(t), len(p)
    for b in range(nslots_used, slots):
        toks[b], pos[b] = 0, 0  # idle slot: junk token at 0
    for s in range(steps):
        if s == 0 and logits_first:
            call("decode_logits", i32(*toks), i32(*pos))
        r = call("decode", i32(*toks), i32(*pos))[0]
        for b in range(slots):
            if b < nslots_used:
                toks[b], pos[b] = int(r[b]), pos[b] + 1


def red(call):
    """Integer/float reductions and argmax formulations vs numpy (the CUDA integer-reduction bug)."""
    rng = np.random.default_rng(1)
    res = {}
    for n in (64, 1024, 128256):
        xi = rng.integers(5, 100000, size=(1, n)).astype(np.int32)
        xf = rng.standard_normal((1, n)).astype(np.float32)
        xneg = -xi
        for fn, arg, want in ((f"min_i32_{n}", xi, xi.min()), (f"max_i32_{n}", xneg, xneg.max()),
                              (f"min_f32_{n}", xf, xf.min()), (f"add_i32_{n}", xi, xi.sum(dtype=np.int32)),
                              (f"am_i32_{n}", xf, xf.argmax()), (f"am_f32_{n}", xf, xf.argmax()),
                              (f"am_max_{n}", xf, xf.argmax())):
            got = call(fn, arg)[0].ravel()[0]
            res[fn] = [float(got), float(want), bool(got == want)]
    x4 = rng.standard_normal((4, 128256)).astype(np.float32)
    for fn in ("am4_i32_128256", "am4_f32_128256", "am4_max_128256"):
        got = call(fn, x4)[0]
        res[fn] = [got.tolist(), x4.argmax(axis=1).tolist(), bool((got == x4.argmax(axis=1)).all())]
    print(json.dumps({"red_check": res}), file=sys.stderr)
    RED.update(res)


RED = {}


def model_logits(call, slots, steps=16):
    """Greedy with decode_logits every step (host argmax), all slots used."""
    toks, pos = [0] * slots, [0] * slots
    for b in range(slots):
        p = PROMPTS[b % len(PROMPTS)]
        padded = np.zeros(32, np.int32)
        padded[:len(p)] = p
        l = call("prefill_32_logits", padded, sc(len(p)), sc(b))[0]
        toks[b], pos[b] = int(np.argmax(l)), len(p)
    for s in range(steps):
        l = call("decode_logits", i32(*toks), i32(*pos))[0]
        for b in range(slots):
            toks[b], pos[b] = int(np.argmax(l[b])), pos[b] + 1


EXPS = {
    "red": red,
    "model1_L": lambda c: model_logits(c, 1),
    "model4_L": lambda c: model_logits(c, 4),
    "m_a": m_a, "m_b": m_b, "m_c": m_c,
    "model1": lambda c: model(c, 1),
    "model1_nologits": lambda c: model(c, 1, logits_first=False),
    "model1_decodeonly": lambda c: (c("decode", i32(5), i32(0)), c("decode", i32(7), i32(1)), c("decode", i32(9), i32(2))),
    "model4": lambda c: model(c, 4, nslots_used=4),
    "model4_1": lambda c: model(c, 4, nslots_used=1),
}

if __name__ == "__main__":
    main()
