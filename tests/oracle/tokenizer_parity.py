#!/usr/bin/env python3
"""Tokenizer parity gate: mlxcel's tokenizer against Hugging Face `tokenizers` on a corpus.

    python tests/oracle/tokenizer_parity.py --model MODEL.gguf --hf-tokenizer DIR \\
        --corpus CORPUS.jsonl --mlxcel build/mlxcel [--add-special-tokens 0|1]

Every record of CORPUS.jsonl ({"kind", "text"}, see build_corpus.py) is one test. It passes when
  1. mlxcel's ids equal Tokenizer.from_file(DIR/tokenizer.json).encode(text, add_special_tokens).ids,
  2. mlxcel's "decoded" equals HF's decode(mlxcel's ids, skip_special_tokens=False), and
  3. mlxcel's "decoded" equals the text with whatever the post-processor added around it (for a
     model that adds BOS, the BOS token's text in front): the round trip, where HF's own decode
     gives the text back (a SentencePiece prefix space after BOS is kept by HF's decode too).

mlxcel's side comes from one run of
    MLXCEL tokenize -m MODEL --jsonl CORPUS [--no-bos]
which prints one {"ids": [...], "decoded": "..."} line per record, in order, and on stderr
    mlxcel tokenize: encoded N bytes in X ms (Y MB/s)
--add-special-tokens 1 (the default) compares against HF with add_special_tokens=True and lets
mlxcel add BOS as the model's config says; 0 compares with add_special_tokens=False and passes
--no-bos.

Also prints the encode throughput of both sides. HF is timed with TOKENIZERS_PARALLELISM=false as
`encode` record by record and as one `encode_batch`, then as `encode_batch` with parallelism on.
Exit status 0 when every record passes, 1 otherwise, 2 on bad usage. Last line: "N passed, M failed".
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

os.environ["TOKENIZERS_PARALLELISM"] = "false"  # before tokenizers is imported; switched on for one timing

from tokenizers import Tokenizer  # noqa: E402

SHOW = 10
CONTEXT_TOKENS = 5
CONTEXT_CHARS = 40
STAT_RE = re.compile(r"mlxcel tokenize: encoded (\d+) bytes in ([0-9.]+) ms \(([0-9.]+) MB/s\)")


def load_corpus(path):
    """Records split on "\\n" only (a text may hold U+2028 or U+0085, which str.splitlines breaks at)."""
    with open(path, "rb") as f:
        data = f.read()
    records = []
    for n, line in enumerate(data.split(b"\n"), 1):
        if not line.strip():
            continue
        rec = json.loads(line.decode("utf-8"))
        if not isinstance(rec, dict) or not isinstance(rec.get("text"), str):
            sys.exit(f"tokenizer_parity: {path}:{n}: not a {{\"kind\", \"text\"}} record")
        records.append((rec.get("kind", "?"), rec["text"]))
    return records


def mb_per_s(nbytes, seconds):
    return nbytes / 1e6 / seconds if seconds > 0 else float("inf")


def time_hf(tok, texts, add_special):
    """(single-thread encodings, rows for the throughput table)."""
    nbytes = sum(len(t.encode("utf-8")) for t in texts)
    rows = []
    t0 = time.perf_counter()
    single = [tok.encode(t, add_special_tokens=add_special) for t in texts]
    rows.append(("HF encode, 1 thread", nbytes, time.perf_counter() - t0))
    t0 = time.perf_counter()
    batch1 = tok.encode_batch(texts, add_special_tokens=add_special)
    rows.append(("HF encode_batch, 1 thread", nbytes, time.perf_counter() - t0))
    os.environ["TOKENIZERS_PARALLELISM"] = "true"
    threads = os.environ.get("RAYON_NUM_THREADS") or str(os.cpu_count())
    t0 = time.perf_counter()
    batchn = tok.encode_batch(texts, add_special_tokens=add_special)
    rows.append((f"HF encode_batch, parallel ({threads} CPUs)", nbytes, time.perf_counter() - t0))
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    odd = sum(1 for a, b, c in zip(single, batch1, batchn) if not (a.ids == b.ids == c.ids))
    if odd:
        print(f"note: HF encode_batch differs from encode on {odd} records; the gate uses encode", file=sys.stderr)
    return single, rows


def added_around(with_special, plain):
    """(prefix ids, suffix ids) that the post-processor put around the plain encoding."""
    n = len(plain)
    for k in range(len(with_special) - n + 1):
        if with_special[k:k + n] == plain:
            return with_special[:k], with_special[k + n:]
    return None


def run_mlxcel(args):
    cmd = [args.mlxcel, "tokenize", "-m", args.model, "--jsonl", args.corpus]
    if not args.add_special_tokens:
        cmd.append("--no-bos")
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=args.timeout)
    except FileNotFoundError:
        return cmd, None, f"cannot run {args.mlxcel}", None, 0.0
    except subprocess.TimeoutExpired:
        return cmd, None, f"timed out after {args.timeout} s", None, float(args.timeout)
    wall = time.perf_counter() - t0
    stderr = proc.stderr.decode("utf-8", "replace")
    problem = None if proc.returncode == 0 else f"exit status {proc.returncode}"
    lines = proc.stdout.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return cmd, lines, problem, stderr, wall


def parse_line(line):
    """(ids, decoded) or raises ValueError with a reason."""
    try:
        obj = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"output line is not UTF-8 JSON ({e})")
    if not isinstance(obj, dict):
        raise ValueError("output line is not a JSON object")
    ids, decoded = obj.get("ids"), obj.get("decoded")
    if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        raise ValueError("\"ids\" is not a list of integers")
    if not isinstance(decoded, str):
        raise ValueError("\"decoded\" is not a string")
    return ids, decoded


def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def show_ids(tok, ids, k):
    lo = max(0, k - CONTEXT_TOKENS)
    part = ids[lo:k + CONTEXT_TOKENS + 1]
    out = []
    for j, i in enumerate(part, lo):
        name = tok.id_to_token(i) if 0 <= i < tok.get_vocab_size(with_added_tokens=True) else None
        mark = ">>" if j == k else ""
        out.append(f"{mark}{i}:{name!r}" if name is not None else f"{mark}{i}:<bad id>")
    return ("... " if lo else "") + " ".join(out) + (" ..." if k + CONTEXT_TOKENS + 1 < len(ids) else "")


def excerpt(text, start, end):
    lo, hi = max(0, start - CONTEXT_CHARS), min(len(text), end + CONTEXT_CHARS)
    return ("…" if lo else "") + repr(text[lo:hi]) + ("…" if hi < len(text) else "")


def explain_ids(tok, i, kind, text, hf_enc, ours):
    hf = hf_enc.ids
    k = first_diff(hf, ours)
    if k < len(hf):
        s, e = hf_enc.offsets[k]
    else:
        s = e = len(text)
    return "\n".join([
        f"#{i} [{kind}] ids differ at token {k} (HF {len(hf)} tokens, mlxcel {len(ours)})",
        f"    text near it: {excerpt(text, s, e)}",
        f"    HF:     {show_ids(tok, hf, k)}",
        f"    mlxcel: {show_ids(tok, ours, k)}",
    ])


def explain_text(i, kind, what, want, got):
    j = first_diff(want, got)
    return "\n".join([
        f"#{i} [{kind}] {what}: first difference at character {j} (want {len(want)} chars, got {len(got)})",
        f"    want: {excerpt(want, j, j + 1)}",
        f"    got:  {excerpt(got, j, j + 1)}",
    ])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="model file passed to mlxcel -m")
    ap.add_argument("--hf-tokenizer", required=True, help="directory holding the oracle's tokenizer.json")
    ap.add_argument("--corpus", required=True, help="JSON Lines corpus from build_corpus.py")
    ap.add_argument("--mlxcel", required=True, help="the mlxcel binary")
    ap.add_argument("--add-special-tokens", type=int, choices=[0, 1], default=1)
    ap.add_argument("--timeout", type=int, default=900, help="seconds mlxcel tokenize may take (default 900)")
    args = ap.parse_args()
    add_special = bool(args.add_special_tokens)

    tok = Tokenizer.from_file(os.path.join(args.hf_tokenizer, "tokenizer.json"))
    records = load_corpus(args.corpus)
    texts = [t for _, t in records]
    nbytes = sum(len(t.encode("utf-8")) for t in texts)

    hf_encs, rows = time_hf(tok, texts, add_special)
    if add_special:
        plain = tok.encode_batch(texts, add_special_tokens=False)
        around = [added_around(e.ids, p.ids) for e, p in zip(hf_encs, plain)]
    else:
        around = [([], [])] * len(texts)

    cmd, lines, problem, stderr, wall = run_mlxcel(args)
    if lines is None:
        lines = []
    ours_stat = STAT_RE.search(stderr or "")

    failures = []   # (index, kind, reason, explanation)
    hf_not_round_trip = 0
    for i, (kind, text) in enumerate(records):
        hf = hf_encs[i]
        pre_suf = around[i]
        if pre_suf is None:
            want_text = None  # the post-processor changed the plain ids; no round trip to expect
        else:
            want_text = tok.decode(pre_suf[0], skip_special_tokens=False) + text + \
                tok.decode(pre_suf[1], skip_special_tokens=False)
            if tok.decode(hf.ids, skip_special_tokens=False) != want_text:
                hf_not_round_trip += 1
                want_text = None
        if i >= len(lines):
            failures.append((i, kind, "missing output line", f"#{i} [{kind}] no output line from mlxcel"))
            continue
        try:
            ours, decoded = parse_line(lines[i])
        except ValueError as e:
            failures.append((i, kind, "bad output line", f"#{i} [{kind}] {e}: {lines[i][:200]!r}"))
            continue
        if ours != hf.ids:
            failures.append((i, kind, "ids differ", explain_ids(tok, i, kind, text, hf, ours)))
            continue
        try:
            hf_decoded = tok.decode(ours, skip_special_tokens=False)
        except Exception as e:  # an id HF cannot decode
            hf_decoded = None
            failures.append((i, kind, "HF cannot decode ids", f"#{i} [{kind}] HF decode failed: {e}"))
            continue
        if decoded != hf_decoded:
            failures.append((i, kind, "decoded != HF decode",
                             explain_text(i, kind, "decoded differs from HF decode", hf_decoded, decoded)))
            continue
        if want_text is not None and decoded != want_text:
            failures.append((i, kind, "round trip",
                             explain_text(i, kind, "decoded is not the text (round trip)", want_text, decoded)))
            continue
    extra = len(lines) - len(records)

    # Report
    print(f"corpus: {args.corpus}: {len(records)} records, {nbytes} bytes of text")
    print(f"oracle: {os.path.join(args.hf_tokenizer, 'tokenizer.json')} (tokenizers "
          f"{__import__('tokenizers').__version__}), add_special_tokens={add_special}")
    print(f"mlxcel: {' '.join(cmd)}")
    if problem:
        print(f"mlxcel: {problem}")
    if stderr and (problem or not ours_stat):
        tail = stderr.strip().splitlines()[-5:]
        for line in tail:
            print(f"mlxcel stderr: {line}")
    if extra > 0:
        print(f"mlxcel: {extra} more output lines than records")
    if hf_not_round_trip:
        print(f"note: HF's own decode does not give back the text for {hf_not_round_trip} records")
    print()
    print(f"{'encoder':<44}{'bytes':>10}{'seconds':>10}{'MB/s':>9}")
    for name, b, s in rows:
        print(f"{name:<44}{b:>10}{s:>10.3f}{mb_per_s(b, s):>9.2f}")
    if ours_stat:
        b, ms, rate = int(ours_stat.group(1)), float(ours_stat.group(2)), float(ours_stat.group(3))
        print(f"{'mlxcel tokenize (its own timer)':<44}{b:>10}{ms / 1000:>10.3f}{rate:>9.2f}")
    else:
        print(f"{'mlxcel tokenize (its own timer)':<44}{'n/a':>10}{'n/a':>10}{'n/a':>9}")
    print(f"{'mlxcel tokenize (wall, with start-up)':<44}{nbytes:>10}{wall:>10.3f}{mb_per_s(nbytes, wall):>9.2f}")
    print()

    if failures:
        by_reason, by_kind = {}, {}
        for _, kind, reason, _ in failures:
            by_reason[reason] = by_reason.get(reason, 0) + 1
            by_kind[kind] = by_kind.get(kind, 0) + 1
        print("failures by reason: " + ", ".join(f"{r} {n}" for r, n in sorted(by_reason.items())))
        print("failures by kind:   " + ", ".join(f"{k} {n}" for k, n in sorted(by_kind.items())))
        print(f"first {min(SHOW, len(failures))} of {len(failures)}:")
        for _, _, _, text in failures[:SHOW]:
            print(text)
        print()
    # Extra output lines, or a bad exit with every record matching, still fail the gate: count
    # them as one failed test so that the last line never says "0 failed" with exit status 1.
    failed = len(failures) + (1 if extra > 0 or (problem and not failures) else 0)
    passed = len(records) - len(failures)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
