"""Prints the peer table from one or more results files (JSON lines, bench/peers/README.md).

  python3 table.py results.jsonl [...] [--bandwidth BYTES_PER_S --weight-bytes BYTES] [--markdown]

Each figure is the median (min..max) of the measured runs. "x JAX" (decode tok/s) and "prefill x JAX"
(prefill ms) divide by the JAX record of the same dtype, batch and prompt length (f16 falls back to
JAX bf16, marked *). With --bandwidth and --weight-bytes, "of bound"
is tok/s against B x bandwidth / weight bytes: every weight read once per step, KV reads ignored."""
import argparse
import json
import statistics


def med(v):
    return statistics.median(v) if v else None


def fmt_range(v, digits=1):
    if not v:
        return "-"
    return f"{med(v):.{digits}f} ({min(v):.{digits}f}..{max(v):.{digits}f})"


def opt(x, spec):
    return "-" if x is None else format(x, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--bandwidth", type=float, help="bytes per second of the device's memory (the bound's)")
    ap.add_argument("--weight-bytes", type=float, help="bytes of weights read per decode step")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    recs = [json.loads(l) for f in a.files for l in open(f) if l.strip()]
    if not recs:
        raise SystemExit("table: no records in " + ", ".join(a.files))
    # JAX's record for the same dtype, batch and prompt length (a call may run several prompts)
    jax = {(r["dtype"], r["batch"], r["prompt_tokens"]): r for r in recs if r["peer"] == "jax"}
    head = ["peer", "dtype", "B", "prompt", "decode tok/s", "x JAX", "of bound", "prefill ms", "prefill x JAX", "warm-up s",
            "cold compile s", "warm load s", "peak GB", "tokens", "note"]
    rows = []
    order = {"mlxcel": 0, "jax": 1, "hf": 2, "llama.cpp": 3}
    for r in sorted(recs, key=lambda r: (r["batch"], r["prompt_tokens"], r["dtype"], order.get(r["peer"], 9))):
        d, pf = med(r["decode_tok_s"]), med(r["prefill_ms"])
        ref, star = jax.get((r["dtype"], r["batch"], r["prompt_tokens"])), ""
        if ref is None and r["dtype"] == "f16":
            ref, star = jax.get(("bf16", r["batch"], r["prompt_tokens"])), "*"
        theirs = r["peer"] != "jax" and ref
        ratio = f"{d / med(ref['decode_tok_s']):.2f}{star}" if theirs and d else "-"
        pf_ratio = f"{pf / med(ref['prefill_ms']):.1f}{star}" if theirs and pf and med(ref["prefill_ms"]) else "-"
        bound = "-"
        if a.bandwidth and a.weight_bytes and d:
            bound = f"{100 * d / (r['batch'] * a.bandwidth / a.weight_bytes):.0f}%"
        peak = r["peak_device_bytes"]
        rows.append([r["peer"], r["dtype"], str(r["batch"]), str(r["prompt_tokens"]), fmt_range(r["decode_tok_s"]), ratio,
                     bound, fmt_range(r["prefill_ms"]), pf_ratio, opt(r["warmup_s"], ".1f"), opt(r["cold_compile_s"], ".1f"),
                     opt(r["warm_load_s"], ".2f"), "-" if peak is None else f"{peak / 1e9:.2f}", r["text_sha"] or "-",
                     r["note"]])
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    w = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head[:-1])]
    print("  ".join(h.ljust(w[i]) for i, h in enumerate(head[:-1])) + "  note")
    for row in rows:
        print("  ".join(c.ljust(w[i]) for i, c in enumerate(row[:-1])) + "  " + row[-1])
    news = sorted({r["new_tokens"] for r in recs})
    print(f"\nprompt: tokens per sequence; {', '.join(map(str, news))} new per sequence; median (min..max) of each "
          f"peer's measured runs after one warm-up; x JAX: against JAX's record of the same dtype, B and prompt")


if __name__ == "__main__":
    main()
