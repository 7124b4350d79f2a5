"""Issue 31 parts 3-4: non-greedy trees (Norouzi et al., NIPS 2015) on all 60,000 Fashion-MNIST training images.

One process, BLAS on one thread, CPU seconds of this process (`time.process_time`: the machine is shared):
- `--epoch-depth` (default 14): CPU seconds per epoch of `NonGreedyTreeClassifier` on all 60,000 training images,
  as (fit with 2 epochs - fit with 0 epochs) / 2 from the same CART start (fitted once, timed beside it: the
  baseline in this process); then the memory of a 1-epoch fit: the peak of numpy's allocations (tracemalloc) and
  the process's peak resident size (ru_maxrss), against the size of the data (N x 785 float64);
- `--depths` (default 10-18): the paper's protocol on the TAO paper's split of the official training set (48,000
  fit / 12,000 validation, `paper_split('fashion-mnist')`, stratified, seed 0; the official 10,000 test images):
  per depth, scikit-learn CART on the 784 raw pixels fitted on the 48,000 (validation and test accuracy; it is
  also the non-greedy tree's start), then every (learning rate, nu) of `--lrs` x `--nus` (the paper's nu grid by
  default) trained `--grid-epochs` epochs, chosen by validation accuracy, then trained `--epochs` epochs with the
  chosen pair from the same start. With `--refit` the final tree (and its CART start) is refitted on all 60,000
  (the paper's protocol); without, the final tree is the one fitted on the 48,000 (validation accuracy reported).
  Each row prints operations per prediction on the test images (CART: comparisons on the path; the oblique tree:
  multiplications on the path, `Tree.inference_cost`), for the error-against-operations figure (notebook 18).

    python benchmarks/bench_nongreedy60k.py [--epoch-depth 14] [--depths 10,12,14,16,18] [--lrs 0.005,0.002]
        [--nus 0.1,1,4,10,43,100] [--grid-epochs 3] [--epochs 20] [--stable] [--refit] [--n 60000] [--no-epoch] [--no-sweep]
"""
import argparse
import os
import resource
import time
import tracemalloc

import numpy as np
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from tao_nb.datasets import load_fashion_mnist, paper_split
from tao_nb.nongreedy import NonGreedyTreeClassifier
from tao_nb.tree import Tree

GiB = 2 ** 30


def timed(f):
    "(result, CPU seconds of this process) of f()."
    c = time.process_time()
    out = f()
    return out, time.process_time() - c


def rss_gib():
    "Peak resident size of this process so far (ru_maxrss is in KiB on Linux)."
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / GiB


def epoch_part(X, y, d):
    "CPU seconds per epoch at depth d on (X, y), the CART start's seconds, and the memory of a 1-epoch fit."
    cart, s_cart = timed(lambda: DecisionTreeClassifier(max_depth=d, random_state=0).fit(X, y))
    print(f"CART depth {d} on {len(X):,} images (the start, fitted once): {s_cart:.1f} CPU s", flush=True)
    for stable in (False, True):
        fit = lambda e: NonGreedyTreeClassifier(max_depth=d, max_iter=e, init=cart, stable=stable,
                                                random_state=0).fit(X, y)
        (ng0, s0), (ng2, s2) = timed(lambda: fit(0)), timed(lambda: fit(2))
        print(f"non-greedy depth {d}, {'stable SGD' if stable else 'SGD'}: fit with 0 epochs {s0:.1f} CPU s, with 2 "
              f"epochs {s2:.1f} CPU s -> {(s2 - s0) / 2:.2f} CPU s per epoch (target <= 60 s)", flush=True)
    tracemalloc.start()
    fit(1)
    peak = tracemalloc.get_traced_memory()[1] / GiB
    tracemalloc.stop()
    data = len(X) * (X.shape[1] + 1) * 8 / GiB
    print(f"memory of a 1-epoch fit (stable SGD): numpy peak {peak:.2f} GiB (tracemalloc) = {peak / data:.1f}x the "
          f"standardized data ({data:.2f} GiB = N x 785 float64); process peak resident {rss_gib():.2f} GiB (ru_maxrss)",
          flush=True)


def ops(model, X):
    "Operations per prediction on X: comparisons on the path (axis-aligned), multiplications (oblique)."
    t = model.tree_ if isinstance(model.tree_, Tree) else Tree.from_sklearn(model)
    return t.inference_cost(X) if t.is_oblique else float(t.path_lengths(X).mean())


def depth_row(d, data, a):
    "One depth of the protocol: CART, the (lr, nu) grid chosen on validation, the final tree; prints as it goes."
    (Xf, yf), (Xv, yv), (Xte, yte), (Xall, yall) = data
    cart, s_cart = timed(lambda: DecisionTreeClassifier(max_depth=d, random_state=0).fit(Xf, yf))
    print(f"depth {d}: CART val {cart.score(Xv, yv):.4f} test {cart.score(Xte, yte):.4f} "
          f"({cart.get_n_leaves()} leaves, {ops(cart, Xte):.1f} ops/prediction, {s_cart:.0f} CPU s)", flush=True)
    grid = {}
    for lr in a.lrs:
        for nu in a.nus:
            ng, s = timed(lambda: NonGreedyTreeClassifier(max_depth=d, nu=nu, learning_rate=lr, max_iter=a.grid_epochs,
                                                          stable=a.stable, init=cart, random_state=0).fit(Xf, yf))
            grid[lr, nu] = ng.score(Xv, yv)
            print(f"  grid lr {lr:g} nu {nu:g}: val {grid[lr, nu]:.4f} ({s:.0f} CPU s)", flush=True)
    lr, nu = max(grid, key=grid.get)
    start = cart if not a.refit else DecisionTreeClassifier(max_depth=d, random_state=0).fit(Xall, yall)
    Xfin, yfin = (Xall, yall) if a.refit else (Xf, yf)
    ng, s = timed(lambda: NonGreedyTreeClassifier(max_depth=d, nu=nu, learning_rate=lr, max_iter=a.epochs,
                                                  stable=a.stable, init=start, random_state=0).fit(Xfin, yfin))
    val = f"{ng.score(Xv, yv):.4f}" if not a.refit else "(refit: val rows in training)"
    print(f"depth {d}: non-greedy (lr {lr:g}, nu {nu:g}, {a.epochs} epochs) val {val} test {ng.score(Xte, yte):.4f} "
          f"train {ng.score(Xfin, yfin):.4f} ({int(ng.history_[-1, 2])} active leaves, {ops(ng, Xte):.1f} ops/prediction, "
          f"{s:.0f} CPU s, {s / (a.epochs + 1):.2f} CPU s per epoch)", flush=True)
    return dict(cart_val=cart.score(Xv, yv), cart_test=cart.score(Xte, yte),   # the final tree's validation
                ng_val=grid[lr, nu] if a.refit else ng.score(Xv, yv),           # accuracy, unless it saw those rows
                ng_test=ng.score(Xte, yte))


def summary(rows):
    "The issue's comparison: best test over the depths, and the depths validation would choose."
    best = lambda k: max(rows, key=lambda d: rows[d][k])
    c, n = best('cart_test'), best('ng_test')
    cv, nv = best('cart_val'), best('ng_val')
    print(f"best test over depths {min(rows)}-{max(rows)}: non-greedy {rows[n]['ng_test']:.4f} (depth {n}), "
          f"CART {rows[c]['cart_test']:.4f} (depth {c}); difference {rows[n]['ng_test'] - rows[c]['cart_test']:+.4f} "
          f"(target >= +0.03)")
    print(f"depth chosen on validation: non-greedy depth {nv} (val {rows[nv]['ng_val']:.4f}) test "
          f"{rows[nv]['ng_test']:.4f}; CART depth {cv} (val {rows[cv]['cart_val']:.4f}) test {rows[cv]['cart_test']:.4f}; "
          f"difference {rows[nv]['ng_test'] - rows[cv]['cart_test']:+.4f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--epoch-depth', type=int, default=14)
    ap.add_argument('--depths', default='10,12,14,16,18')
    ap.add_argument('--lrs', default='0.005,0.002')
    ap.add_argument('--nus', default='0.1,1,4,10,43,100')
    ap.add_argument('--grid-epochs', type=int, default=3)
    ap.add_argument('--epochs', type=int, default=20)
    ap.add_argument('--stable', action='store_true', help="stable SGD (leaves reassigned every 5 epochs)")
    ap.add_argument('--refit', action='store_true', help='refit the chosen (lr, nu) on all 60,000 images')
    ap.add_argument('--n', type=int, default=60_000, help='training images used (a smoke test: fewer)')
    ap.add_argument('--no-epoch', action='store_true')
    ap.add_argument('--no-sweep', action='store_true')
    a = ap.parse_args()
    a.lrs, a.nus = [float(v) for v in a.lrs.split(',')], [float(v) for v in a.nus.split(',')]
    X, y = load_fashion_mnist()
    X = X.astype(np.float64)
    split = paper_split('fashion-mnist', y, 0)
    keep = lambda idx: idx[:round(len(idx) * a.n / 60_000)]
    fit, val = keep(split.fit), keep(split.val)
    data = (X[fit], y[fit]), (X[val], y[val]), (X[split.test], y[split.test]), (X[np.r_[fit, val]], y[np.r_[fit, val]])
    print(f"Fashion-MNIST: {len(fit) + len(val):,} training images ({len(fit):,} fit / {len(val):,} validation), "
          f"{len(split.test):,} official test images; load average {os.getloadavg()[0]:.1f}", flush=True)
    with threadpool_limits(1):
        NonGreedyTreeClassifier(max_depth=4, max_iter=1, random_state=0).fit(X[:500], y[:500])   # numba: not timed
        if not a.no_epoch: epoch_part(*data[3], a.epoch_depth)
        if a.no_sweep: return
        print(f"protocol: (lr, nu) in {a.lrs} x {a.nus} by validation accuracy after {a.grid_epochs} epochs, "
              f"then {a.epochs} epochs{' refitted on all training images' if a.refit else ' on the fit part'}; "
              f"{'stable SGD, ' if a.stable else ''}batch 64, momentum 0.9, fast inference, CART start of the same depth", flush=True)
        rows = {d: depth_row(d, data, a) for d in map(int, a.depths.split(','))}
        summary(rows)


if __name__ == '__main__':
    main()
