"""Issue 26: peak memory of a sparse oblique fit's start on Fashion-MNIST, against the fitting matrix.

`oblique_start('cart', X, y, depth, scaling='pooled')` (a CART start grown on the standardized inputs, as
`bench_fashion.py`'s path) on the first 48,000 Fashion-MNIST training images as float64: numpy's peak allocation
during it (`tracemalloc`; X itself is allocated before), and what it keeps (the standardized copy Z and the tree),
each as a multiple of X's bytes; and a digest of Z, of the start's splits and of `standardizer`'s scales, so that two
versions of the package can be checked to give the same start. `--package DIR`: import `tao_nb` from DIR (e.g. a
`git worktree` of an earlier commit).

    python benchmarks/bench_start_memory.py [--depth 6] [--package DIR]
"""
import argparse
import hashlib
import os
import sys
import time
import tracemalloc

os.environ.setdefault('OMP_NUM_THREADS', '1')

if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--depth', type=int, default=6)
    ap.add_argument('--package', default=None, help='a directory holding the tao_nb package to measure')
    a = ap.parse_args()
    if a.package: sys.path.insert(0, a.package)
    import numpy as np
    import tao_nb
    from tao_nb.datasets import load_fashion_mnist
    from tao_nb.oblique_fit import oblique_start
    from tao_nb.tree import standardizer
    print(f"tao_nb from {os.path.dirname(tao_nb.__file__)}", flush=True)
    X, y = load_fashion_mnist()
    X, y = X[:48_000].astype(np.float64), y[:48_000]
    tracemalloc.start()
    t = time.process_time()
    mu, sd = standardizer(X)
    _, peak_scale = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    start = oblique_start('cart', X, y, a.depth, 0, np.arange(10), None, 'pooled')
    kept, peak = tracemalloc.get_traced_memory()
    digest = lambda *arrays: hashlib.md5(b''.join(np.ascontiguousarray(v).tobytes() for v in arrays)).hexdigest()
    print(f"X: 48,000 x 784 float64, {X.nbytes / 2**20:.0f} MiB; standardizer's peak {peak_scale / X.nbytes:.2f}x X; "
          f"oblique_start (CART depth {a.depth} start): peak {peak / X.nbytes:.2f}x X, kept {kept / X.nbytes:.2f}x X "
          f"({time.process_time() - t:.0f} CPU s)")
    print(f"digests: Z {digest(start.Z)}, start {digest(start.tree.W, start.tree.threshold, start.tree.left)}, "
          f"scales {digest(mu, sd)}")
