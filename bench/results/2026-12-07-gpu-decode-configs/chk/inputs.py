# Inputs of att.mlir's products, exactly representable in bf16 (k/64, k/256 for small integers k), drawn
# fresh each run (the seed is printed), so that exact f32 sums make any wrong or unwritten element show.
import numpy as np, os
seed = int.from_bytes(os.urandom(4), 'little')
print('inputs seed', seed)
rng = np.random.default_rng(seed)
for W in (128, 256, 512):
    np.save(f'k{W}.npy', (rng.integers(-64, 65, (64, W, 64)) / 64).astype(np.float32))
    np.save(f'q{W}.npy', (rng.integers(-64, 65, (64, 64)) / 64).astype(np.float32))
    np.save(f'v{W}.npy', (rng.integers(-64, 65, (64, 64, W)) / 64).astype(np.float32))
    np.save(f'p{W}.npy', (rng.integers(0, 65, (64, W)) / 256).astype(np.float32))
    np.save(f'qg{W}.npy', (rng.integers(-64, 65, (64, 4, 64)) / 64).astype(np.float32))  # the group's 4 queries
    np.save(f'pg{W}.npy', (rng.integers(0, 65, (64, 4, W)) / 256).astype(np.float32))
