"""Issue 28: does a selection that prefers sparser trees buy predict time, and at what accuracy?

`TAOPathClassifier` chooses C within each start's path by `select_index` (the sparsest tree within `se` binomial
standard errors of the path's lowest validation error; `se=0.5` by default) and then the start whose chosen tree
has the lowest validation error. This benchmark replays other rules on the same fitted paths (choosing does not
change a path): the same near-tie rule pooled over all starts' trees at once, with `se` 0.5, 1 (Breiman's
one-standard-error rule) and 1.5. Each choice is then refitted on all the training rows as the default does
(`refit=True`, `_refit_tree`), so every row is a tree the estimator could return.

In one process, BLAS on one thread, for each data set and 70/30 stratified split (`random_state` = the split seed;
the estimator's `random_state=0`): per rule, the chosen start and C, the validation error, the refitted tree's
nonzero weights, multiplications per point (`inference_cost`) and test accuracy, and its `predict` time over
scikit-learn's CART of depth 12 on the test set (best of `--repeat` calls each, the two interleaved).

    python benchmarks/bench_select.py [--sets digits,mnist5k] [--seeds 0,1,2] [--repeat 15]
"""
import os

for _k in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'): os.environ.setdefault(_k, '1')

import argparse
import copy
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_predict import load  # noqa: E402
from tao_nb.estimators import TAOPathClassifier, path_starts, validation_split  # noqa: E402 (the defaults)
from tao_nb.path import PathData, select_index  # noqa: E402


def pooled(paths, n_val, se):
    "(start, index of C): `select_index` over every start's trees at once."
    err = np.concatenate([p['val_error'] for p in paths])
    nnz = np.concatenate([p['nonzeros'] for p in paths])
    where = [(k, j) for k, p in enumerate(paths) for j in range(len(p.records))]
    return where[select_index(err, nnz, n_val, se)]


def refitted(est, k, j, X, y_enc):
    "A copy of the fitted `est` whose tree is start k's tree at C index j, refitted on (X, y_enc) as `fit` does."
    e, path = copy.copy(est), copy.copy(est.paths_[k])
    path.best_index, e.path_ = j, path
    init, depth = path_starts(est.inits, est.max_depths)[k]
    data = PathData(None, None, np.arange(len(est.classes_)), None, None, None, None)   # `_refit_tree` reads classes
    e.tree_ = e._refit_tree((data, init, depth, 0, est.scaling, None, est.path_settings()), X, y_enc, None)[0]
    return e


def ratio(f, g, repeat):
    "min time of f / min time of g, their calls interleaved."
    f(), g()
    tf, tg = [], []
    for _ in range(repeat):
        for h, t in ((f, tf), (g, tg)):
            t0 = time.perf_counter()
            h()
            t.append(time.perf_counter() - t0)
    return min(tf) / min(tg)


def run(name, seed, repeat):
    X, y = load(name)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
    est = TAOPathClassifier(random_state=0, refit=False).fit(Xtr, ytr)       # the paths; each rule refits below
    cart = DecisionTreeClassifier(max_depth=12, random_state=0).fit(Xtr, ytr)
    y_enc = np.searchsorted(est.classes_, ytr)
    n_val = len(validation_split(Xtr, y_enc, est.validation_fraction, 0)[3])   # the fit's validation rows
    rules = {'default (per path)': (est.paths_.index(est.path_), est.path_.best_index)}
    rules.update({f'pooled se={se}': pooled(est.paths_, n_val, se) for se in (0.5, 1.0, 1.5)})
    print(f"\n{name}, split {seed}: {len(Xtr)} train / {len(Xte)} test points")
    for rule, (k, j) in rules.items():
        e = refitted(est, k, j, Xtr, y_enc)
        rec = est.paths_[k].records[j]
        print(f"  {rule:18s} start {k} C {est.paths_[k].Cs[j]:.3f} val {rec['val_error']:.4f}  refitted: "
              f"{e.tree_.nonzeros():5d} nonzeros, {e.tree_.inference_cost(Xte):6.1f} mults/point, "
              f"test {np.mean(e.predict(Xte) == yte):.4f}, predict / CART-12 "
              f"{ratio(lambda: e.predict(Xte), lambda: cart.predict(Xte), repeat):.2f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--sets', default='digits,mnist5k')
    ap.add_argument('--seeds', default='0,1,2')
    ap.add_argument('--repeat', type=int, default=15)
    args = ap.parse_args()
    print(f"bench_select: load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name in args.sets.split(','):
        for seed in map(int, args.seeds.split(',')): run(name, seed, args.repeat)
    print(f"\nload average at end {os.getloadavg()[0]:.1f}")


if __name__ == '__main__':
    main()
