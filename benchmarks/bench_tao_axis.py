"""Axis-aligned TAO versus scikit-learn's CART, timed in the same process; prints ratios.

    python benchmarks/bench_tao_axis.py          # digits + 100,000 x 50 synthetic
    python benchmarks/bench_tao_axis.py --quick  # smaller synthetic set

Targets (issue 2): one TAO sweep of a depth-8 tree <= 3x CART's fit of the same depth; a whole TAO
run on digits at depth 8 under 0.5 s; peak memory O(N * depth + tree size).
"""
import argparse
import time
import tracemalloc

import numpy as np
from sklearn.datasets import load_digits, make_classification
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from tao_nb.estimators import TAOClassifier
from tao_nb.reduced import ZERO_ONE
from tao_nb.tao import TAORun, refit_values, tao_sweep
from tao_nb.tree import Tree
from _timing import best_of


def synthetic(n, d, seed=0):
    "A 5-class problem with 10 informative features among `d` (scikit-learn's make_classification)."
    return make_classification(n_samples=n, n_features=d, n_informative=10, n_redundant=5, n_classes=5,
                               n_clusters_per_class=2, flip_y=0.02, random_state=seed)


def bench(name, X, y, depth, repeat):
    cart_t, cart = best_of(lambda: DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y), repeat)
    tree0 = Tree.from_sklearn(cart)

    def one_sweep():
        t = tree0.copy()
        tao_sweep(t, TAORun(np.asarray(X, dtype=np.float64), y))      # 0/1 loss, exact axis-aligned nodes
        refit_values(t, X, y, ZERO_ONE.fit_leaf)
        return t
    sweep_t, _ = best_of(one_sweep, repeat)
    full_t, clf = best_of(lambda: TAOClassifier(max_depth=depth, random_state=0).fit(X, y), repeat)
    tracemalloc.start()
    TAOClassifier(max_depth=depth, random_state=0).fit(X, y)
    _, peak = tracemalloc.get_traced_memory(); tracemalloc.stop()
    print(f"{name:28s} N={len(X):7d} D={X.shape[1]:3d} depth={depth}: CART fit {cart_t*1e3:8.1f} ms | "
          f"one TAO sweep {sweep_t*1e3:8.1f} ms = {sweep_t/cart_t:4.2f}x CART | whole TAO run "
          f"({clf.n_iter_} sweeps) {full_t:6.3f} s = {full_t/cart_t:5.2f}x CART | "
          f"peak extra memory {peak/2**20:7.1f} MiB = {peak/X.nbytes:4.2f}x X | "
          f"train acc CART {cart.score(X, y):.3f} -> TAO {clf.score(X, y):.3f}")


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--quick', action='store_true')
    a = ap.parse_args()
    X, y = load_digits(return_X_y=True)
    Xtr, _, ytr, _ = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    bench('digits (70% train)', Xtr, ytr, 8, 5)
    bench('digits (all)', X, y, 8, 5)
    n = 20_000 if a.quick else 100_000
    Xs, ys = synthetic(n, 50)
    bench('synthetic', Xs, ys, 8, 1 if not a.quick else 2)
