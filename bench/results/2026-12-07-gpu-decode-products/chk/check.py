# Compares the GPU's products (out-TAG-N.npy) with float64 numpy.
import numpy as np, sys
bad = 0
x = np.load('x.npy').astype(np.float64)
for N in (3072, 2048, 16384):
    ref = x @ np.load(f'w{N}.npy').astype(np.float64).T
    for tag in sys.argv[1:]:
        o = np.load(f'out-{tag}-{N}.npy').astype(np.float64)
        err = np.abs(o - ref).max() / np.abs(ref).max()
        ok = err < 1e-6
        bad += not ok
        print(f'{tag} N={N} max rel err {err:.2e} {"ok" if ok else "FAIL"}')
sys.exit(1 if bad else 0)
