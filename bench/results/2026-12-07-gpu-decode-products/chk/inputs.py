# Inputs of prod.mlir, exactly representable in bf16 (k/64 for small integers k), drawn fresh each run
# (the seed is printed): every sum is exact in f32, so a wrong or unwritten element shows.
import numpy as np, os
seed = int.from_bytes(os.urandom(4), 'little')
print('inputs seed', seed)
rng = np.random.default_rng(seed)
np.save('x.npy', (rng.integers(-64, 65, (8, 2048)) / 64).astype(np.float32))
for N in (3072, 2048, 16384):
    np.save(f'w{N}.npy', (rng.integers(-64, 65, (N, 2048)) / 64).astype(np.float32))
