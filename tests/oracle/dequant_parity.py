"""GGUF block dequantization against the `gguf` package's reference dequantizer (gguf.quants), bit for bit.

  python3 dequant_parity.py --tool build/tests/dequant_dump [--blocks 2000] [--seed 1]

For every block type the engine loads, random blocks (every byte random, the f16 scale fields set to
finite values of both signs and of every exponent, including subnormals and zero) go through
format/wtype.c (via the dequant_dump tool) and through gguf.quants.dequantize; the f32 results must
be equal as bit patterns. Prints one line per type and "N passed, M failed"."""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from gguf import GGMLQuantizationType as T
from gguf import quants

# type: (name in format/wtype.c, block bytes, offsets of its f16 scale fields)
TYPES = {
    T.Q8_0: ("Q8_0", 34, [0]),
    T.Q4_0: ("Q4_0", 18, [0]),
    T.Q4_1: ("Q4_1", 20, [0, 2]),
    T.Q5_0: ("Q5_0", 22, [0]),
    T.Q5_1: ("Q5_1", 24, [0, 2]),
    T.Q2_K: ("Q2_K", 84, [80, 82]),
    T.Q3_K: ("Q3_K", 110, [108]),
    T.Q4_K: ("Q4_K", 144, [0, 2]),
    T.Q5_K: ("Q5_K", 176, [0, 2]),
    T.Q6_K: ("Q6_K", 210, [208]),
    T.IQ4_NL: ("IQ4_NL", 18, [0]),
    T.IQ4_XS: ("IQ4_XS", 136, [0]),
}


def finite_f16(rng, n):
    """n random finite f16 bit patterns: random sign, exponent 0..30 (subnormals and zero included)."""
    bits = rng.integers(0, 1 << 16, size=n, dtype=np.uint32)
    exp = rng.integers(0, 31, size=n, dtype=np.uint32)
    return ((bits & 0x83FF) | (exp << 10)).astype(np.uint16)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--blocks", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for qt, (name, nbytes, scale_at) in TYPES.items():
            blocks = rng.integers(0, 256, size=(a.blocks, nbytes), dtype=np.uint8)
            for off in scale_at:
                blocks[:, off:off + 2] = finite_f16(rng, a.blocks).view(np.uint8).reshape(a.blocks, 2)
            src, dst = os.path.join(tmp, name + ".bin"), os.path.join(tmp, name + ".f32")
            blocks.tofile(src)
            r = subprocess.run([a.tool, name, src, dst], capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{name}: the tool failed: {r.stderr.strip()}")
                failed += 1
                continue
            ours = np.fromfile(dst, dtype=np.float32)
            ref = quants.dequantize(blocks, qt).astype(np.float32).reshape(-1)
            if ours.shape != ref.shape:
                print(f"{name}: {ours.size} values, the reference {ref.size}")
                failed += 1
                continue
            bad = np.nonzero(ours.view(np.uint32) != ref.view(np.uint32))[0]
            if bad.size:
                i = int(bad[0])
                print(f"{name}: {bad.size} of {ref.size} values differ; first at {i} (block {i // (ref.size // a.blocks)}): "
                      f"ours {ours[i]!r}, gguf {ref[i]!r}")
                failed += 1
            else:
                print(f"{name}: {ref.size} values from {a.blocks} random blocks, bit-identical to gguf {quants.__name__}")
                passed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
