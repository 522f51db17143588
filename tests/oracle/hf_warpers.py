"""The oracle for the sampler's candidate set: HF transformers' own logits warpers, applied in the order
the engine documents (temperature, top-k, top-p, min-p; HF's generate builds them in that order), on
fixed rows of logits.

    python3 tests/oracle/hf_warpers.py -o tests/oracle/fixtures/hf-warpers.json

Needs torch and transformers (the GPU machine has them; CPU is enough). For every row and setting the
fixture records the tokens the warpers leave finite and their probabilities (softmax in float64 of the
warped float32 scores). tests/oracle/warpers_parity.py compares the engine with it.

Where the two rules are defined apart, a case is not made: HF's top-k keeps every token tied with the
k-th, the engine exactly k (ties by the lower id, as tests/unit/test_sampler.c checks), so a top-k
boundary inside a tie is avoided; and HF sums top-p's mass in float32, the engine in float64, so a case
whose top-p or min-p boundary lies within 1e-5 (relative) of the threshold takes the next row instead.
"""
import argparse
import base64
import json
import sys

import numpy as np
import torch
import transformers
from transformers.generation.logits_process import (MinPLogitsWarper, TemperatureLogitsWarper, TopKLogitsWarper,
                                                    TopPLogitsWarper)

V = 1000
SHAPES = ["model-like", "gaussian", "ties", "neg-inf", "peaked"]
SETTINGS = [  # temperature, top_k (0 off), top_p (1 off), min_p (0 off)
    (1.0, 0, 1.0, 0.0),
    (0.8, 0, 0.95, 0.0),
    (0.6, 0, 0.5, 0.0),
    (1.0, 40, 1.0, 0.0),
    (1.5, 300, 0.9, 0.0),
    (1.0, 0, 1.0, 0.05),
    (0.7, 50, 0.8, 0.1),
    (2.0, 0, 0.99, 0.01),
]


def make_row(shape, rng):
    if shape == "model-like":
        l = rng.normal(0, 2.5, V)
        l[rng.integers(0, V, 6)] = 9 + 3 * rng.random(6)
    elif shape == "gaussian":
        l = rng.normal(0, 1, V)
    elif shape == "ties":
        l = np.floor(8 * rng.random(V))
    elif shape == "neg-inf":
        l = rng.normal(0, 1, V)
        l[rng.random(V) < 0.5] = -np.inf
        l[V - 1] = 0.5
    else:  # one token dominant, a long tail
        l = rng.normal(-4, 2, V)
        l[rng.integers(0, V)] = 12
    return l.astype(np.float32)


def warp(row, t, k, p, m):
    scores = torch.from_numpy(row.copy()).unsqueeze(0)
    ids = torch.zeros((1, 1), dtype=torch.long)
    scores = TemperatureLogitsWarper(t)(ids, scores)
    if k:
        scores = TopKLogitsWarper(k)(ids, scores)
    if p < 1:
        scores = TopPLogitsWarper(p)(ids, scores)
    if m > 0:
        scores = MinPLogitsWarper(m)(ids, scores)
    return scores[0]


def well_defined(row, t, k, p, m):
    """False when HF's rule and the engine's could part on this row (ties at k, float32 boundaries)."""
    scaled = (row / np.float32(t)).astype(np.float64)
    order = np.argsort(-scaled, kind="stable")
    s = scaled[order]
    if k and k < V and s[k - 1] == s[k]:
        return False
    n = k if k else V
    w = np.exp(s[:n] - s[0])
    prob = w / w.sum()
    if p < 1:
        cum = np.cumsum(prob)
        i = int(np.searchsorted(cum, p))  # the last kept: the first index with cum >= p
        lo = cum[i - 1] if i > 0 else 0.0
        if i < n and (abs(cum[i] - p) < 1e-5 * p or abs(p - lo) < 1e-5 * p):
            return False
        if i + 1 < n and s[i] == s[i + 1]:  # the boundary inside a tie: HF's sort order decides
            return False
    if m > 0:
        ratio = prob / prob[0]
        if np.any(np.abs(ratio - m) < 1e-5 * m):
            return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--seed", type=int, default=20261206)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    rows, cases = [], []
    for shape in SHAPES:
        for _ in range(2):
            row = make_row(shape, rng)
            while shape != "ties" and not all(well_defined(row, *st) for st in SETTINGS):
                row = make_row(shape, rng)
            r = len(rows)
            rows.append({"shape": shape, "logits_f32le_b64": base64.b64encode(row.astype("<f4").tobytes()).decode()})
            for t, k, p, m in [st for st in SETTINGS if well_defined(row, *st)]:
                warped = warp(row, t, k, p, m)
                prob = torch.softmax(warped.double(), -1)
                kept = torch.nonzero(torch.isfinite(warped)).flatten().tolist()
                kept.sort(key=lambda i: (-float(warped[i]), i))
                cases.append({"row": r, "temperature": t, "top_k": k, "top_p": p, "min_p": m, "kept": kept,
                              "probs": [float(prob[i]) for i in kept]})
    out = {"generator": "tests/oracle/hf_warpers.py --seed %d" % a.seed, "transformers": transformers.__version__,
           "torch": torch.__version__, "vocab": V, "rows": rows, "cases": cases}
    with open(a.out, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"hf_warpers: {len(rows)} rows x {len(SETTINGS)} settings -> {a.out} "
          f"({sum(len(c['kept']) for c in cases)} kept entries)", file=sys.stderr)


if __name__ == "__main__":
    main()
