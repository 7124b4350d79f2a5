"""The oblique CART grower's CPU time alone, to compare two versions of the package (issue 28: the compiled class
line search of `10_oblique_cart`).

Best of 5 CPU seconds (BLAS on one thread) of `grow_oblique(X, y, 8, random_state=0)` on the training part of digits
and of MNIST-5k (70/30 stratified split, seed 0), after a small warm-up fit (numba's kernels loaded or compiled), and
the grown tree's node count and sum of |weights|, so that two versions' trees can be compared.
`--package DIR`: import `tao_nb` from DIR (e.g. a `git worktree` of an earlier commit) instead of the installed one.

    python benchmarks/bench_grow.py [--package DIR]
"""
import argparse
import os
import sys
import time

os.environ.setdefault('OMP_NUM_THREADS', '1')

if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--package', default=None, help='a directory holding the tao_nb package to time')
    a = ap.parse_args()
    if a.package: sys.path.insert(0, a.package)
    import numpy as np
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    import tao_nb
    from tao_nb.datasets import load_mnist_5k
    from tao_nb.oblique_cart import grow_oblique
    print(f"tao_nb from {os.path.dirname(tao_nb.__file__)}", flush=True)
    for name in ('digits', 'mnist5k'):
        X, y = load_digits(return_X_y=True) if name == 'digits' else load_mnist_5k()
        Xtr, _, ytr, _ = train_test_split(np.asarray(X, float), y, test_size=0.3, stratify=y, random_state=0)
        grow_oblique(Xtr[:300], ytr[:300], 3, random_state=0)
        times = []
        for _ in range(5):
            t = time.process_time()
            tree = grow_oblique(Xtr, ytr, 8, random_state=0)
            times.append(time.process_time() - t)
        print(f"{name}: grow_oblique depth 8, best of 5: {min(times):.3f} CPU s; {tree.n_nodes} nodes, "
              f"sum of |weights| {np.abs(tree.W).sum():.6f}", flush=True)
