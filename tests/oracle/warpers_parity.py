"""The sampler's candidates and draws against HF transformers' logits warpers (the fixture of
tests/oracle/hf_warpers.py): temperature, top-k, top-p and min-p on fixed rows of logits.

    python3 tests/oracle/warpers_parity.py --tool build/tests/sampler_dump \
        --fixture tests/oracle/fixtures/hf-warpers.json [--draws 4000]

For each case (a row and a setting) the engine's candidates (engine/sampler through the sampler_dump
tool) must be exactly the tokens HF's warpers leave finite, in order of probability, with the same
probabilities (within 1e-9 relative: both are float64 softmaxes of the same float32 scores); and DRAWS
seeded picks must fall only on them, in proportions a chi-square test accepts at the 1e-6 level.
Needs only Python's standard library. Prints one line per failing case and "N passed, M failed".
"""
import argparse
import base64
import json
import math
import struct
import subprocess
import sys


def chi_square_bound(dof):
    """The 1 - 1e-6 quantile of chi-square (Wilson-Hilferty, z = 4.753)."""
    k = max(dof, 1)
    return k * (1 - 2 / (9 * k) + 4.753 * math.sqrt(2 / (9 * k))) ** 3


def chi_square(probs, counts, draws):
    """Bins of expected count >= 5; the rest pooled into one (folded into the last bin when small)."""
    bins, pool_e, pool_o = [], 0.0, 0
    for p, c in zip(probs, counts):
        if p * draws >= 5:
            bins.append((p * draws, c))
        else:
            pool_e, pool_o = pool_e + p * draws, pool_o + c
    if pool_e >= 5 or not bins:
        bins.append((pool_e, pool_o))
    elif pool_e > 0:
        e, o = bins.pop()
        bins.append((e + pool_e, o + pool_o))
    return sum((o - e) ** 2 / e for e, o in bins if e > 0), len(bins) - 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--draws", type=int, default=4000)
    a = ap.parse_args()
    fx = json.load(open(a.fixture))
    V = fx["vocab"]
    rows = []
    for r in fx["rows"]:
        raw = base64.b64decode(r["logits_f32le_b64"])
        rows.append(struct.unpack("<%df" % V, raw))
    lines = []
    for n, c in enumerate(fx["cases"]):
        # repr of a float32 value as a double prints enough digits for strtof to read it back exactly
        lg = " ".join(repr(x) for x in rows[c["row"]])
        lines.append("%r %d %r %r %d %d %d %s" % (c["temperature"], c["top_k"], c["top_p"], c["min_p"], 1000 + n, a.draws, V, lg))
    out = subprocess.run([a.tool], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        print(f"warpers_parity: {a.tool} failed ({out.returncode}): {out.stderr.strip()}")
        return 1
    got = out.stdout.splitlines()
    passed = failed = 0
    for n, c in enumerate(fx["cases"]):
        name = "row %d (%s) T %g top-k %d top-p %g min-p %g" % (c["row"], fx["rows"][c["row"]]["shape"], c["temperature"],
                                                              c["top_k"], c["top_p"], c["min_p"])
        cand = [(int(i), float(p)) for i, p in (w.split(":") for w in got[2 * n].split()[1:])]
        counts = [int(x) for x in got[2 * n + 1].split()[1:]]
        ids, probs = [i for i, _ in cand], [p for _, p in cand]
        why = None
        if ids != c["kept"]:
            extra, missing = sorted(set(ids) - set(c["kept"])), sorted(set(c["kept"]) - set(ids))
            why = f"candidates differ: {len(ids)} against HF's {len(c['kept'])} (extra {extra[:8]}, missing {missing[:8]})"
        elif any(abs(p - q) > 1e-9 * q for p, q in zip(probs, c["probs"])):
            i = max(range(len(probs)), key=lambda i: abs(probs[i] - c["probs"][i]) / c["probs"][i])
            why = f"probability of token {ids[i]}: {probs[i]!r} against HF's {c['probs'][i]!r}"
        elif counts[-1]:
            why = f"{counts[-1]} of {a.draws} draws fell outside the candidates"
        else:
            stat, dof = chi_square(c["probs"], counts[:-1], a.draws)
            if dof > 0 and stat > chi_square_bound(dof):
                why = f"draws: chi-square {stat:.1f} over {dof} degrees of freedom, bound {chi_square_bound(dof):.1f}"
        if why:
            failed += 1
            print(f"FAIL {name}: {why}")
        else:
            passed += 1
    print(f"warpers_parity: {len(fx['cases'])} cases (HF transformers {fx['transformers']}): {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
