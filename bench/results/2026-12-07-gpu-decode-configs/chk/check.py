# Compares the GPU's attention products (per head: qk, pv; grouped: qkg, pvg) (out-*.npy, from iree-run-module) with float64 numpy.
import numpy as np, sys, glob
bad = 0
for W in (128, 256, 512):
    k, q, v, p, qg, pg = (np.load(f'{n}{W}.npy').astype(np.float64) for n in ('k', 'q', 'v', 'p', 'qg', 'pg'))
    ref = {'qk': np.einsum('bwd,bd->bw', k, q), 'pv': np.einsum('bdw,bw->bd', v, p),
           'qkg': np.einsum('bgd,bwd->bgw', qg, k), 'pvg': np.einsum('bgw,bdw->bgd', pg, v)}
    for f in ('qk', 'pv', 'qkg', 'pvg'):
        for tag in sys.argv[1:]:
            o = np.load(f'out-{tag}-{f}{W}.npy').astype(np.float64)
            err = np.abs(o - ref[f]).max() / np.abs(ref[f]).max()
            ok = err < 1e-6
            bad += not ok
            print(f'{tag} {f} W={W} max rel err {err:.2e} {"ok" if ok else "FAIL"}')
sys.exit(1 if bad else 0)
