"""Issue 26 (linear-model leaves): constant leaves (TAOClassifier, sparse oblique) against linear leaves
(LinearLeafTAOClassifier, 10b_linear_leaves) at a few depths, C and leaf_C chosen on validation rows, never on test.

    python benchmarks/bench_linear_leaves.py --data mnist-deskew|mnist-raw|letter|fashion[-hog] [--seed 0]
                                             [--depths 10,12] [--const-depths 8,12] [--leaf-penalty l2] [--n 12000]
                                             [--leaf-Cs 0.003]

--depths / --const-depths replace the grid's depths of linear / constant leaves ('' for none), --leaf-Cs its values of
leaf_C; --leaf-penalty the
leaves' penalty (default 'l1'; depth 0 uses the same).
--fixed DEPTH:LEAF_C instead compares, at that depth and leaf_C, TAO with linear leaves against the same linear leaves
fitted once on the CART start's partition (no decision-node steps): training, validation and test error of each.

Data and protocol:
- mnist-deskew / mnist-raw: MNIST-5k (`load_mnist_5k`), `Deskew` applied to every image (deskew only) before the
  70/30 stratified split (random_state=seed); the training 70 % split again by `validation_split` (20 %
  validation, stratified, seed) into 2,800 fitting and 700 validation images.
- letter: `paper_split('letter', y, seed)`: 10,500 fitting, 4,500 validation, 5,000 test rows.
- fashion: Fashion-MNIST (`load_fashion_mnist`, Debian's `dataset-fashion-mnist`), raw pixels: the official 60,000
  training images split as `TAOPathClassifier` splits them (`validation_split`, 20 %, seed), the first `--n` of the
  48,000 fitting images (default 12,000: a quarter, to scan the grid; `--n 48000`: all of them), the 12,000
  validation images, the official 10,000 test images. fashion-hog: the same images as
  `GradientHistograms(pixels=True)` (`01a_datasets`: the pixels divided by 255, then their HOG features; fitted on
  the training images), a departure from the paper, which splits on pixels.
Every model is fitted on the fitting rows only; per (depth, leaves) the leaf_C of lowest validation error (first on
ties) is selected and its test accuracy reported. The grids are small (GRIDS: one C for the decision nodes, C = 1.0,
the TAOClassifier default, so C is fixed, not selected; two values of leaf_C): on a machine shared by several jobs
each fit took minutes. Depth 0 is the linear model alone: the leaf classifier
(`LinearSVC`, L1, on standardized inputs) on all fitting rows, leaf_C chosen the same way.
"""
import argparse
import time

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from tao_nb.datasets import load_mnist_5k, load_keel, paper_split, Deskew, load_fashion_mnist, GradientHistograms
from tao_nb.estimators import validation_split
from tao_nb.linear_leaves import LeafSettings, linear_leaf_start, linear_leaf_tao
from _settings import TAOClassifier, LinearLeafTAOClassifier   # the defaults its saved prints were made with
from tao_nb.tao import TAOSettings

GRIDS = {   # depths of constant and of linear leaves, C of the decision nodes, leaf_C of the leaves
    'mnist': dict(const_depths=(4, 6), depths=(1, 2, 4), Cs=(1.0,), leaf_Cs=(0.03, 0.1)),
    'letter': dict(const_depths=(8, 12), depths=(4, 6, 8), Cs=(1.0,), leaf_Cs=(1.0, 10.0)),
    'fashion': dict(const_depths=(), depths=(2, 3), Cs=(1.0,), leaf_Cs=(0.003, 0.01))}


def data(name, seed, n=12_000):
    "(X_fit, y_fit, X_val, y_val, X_test, y_test)."
    if name.startswith('fashion'):
        X, y = load_fashion_mnist()
        X = X.astype(np.float64)
        if name == 'fashion-hog': X = GradientHistograms(pixels=True).fit(X[:60_000]).transform(X)
        Xf, Xv, yf, yv, _, _ = validation_split(X[:60_000], y[:60_000], 0.2, seed)
        return Xf[:n], yf[:n], Xv, yv, X[60_000:], y[60_000:]
    if name == 'letter':
        X, y = load_keel('letter')
        s = paper_split('letter', y, seed)
        return X[s.fit], y[s.fit], X[s.val], y[s.val], X[s.test], y[s.test]
    X, y = load_mnist_5k()
    X = X.astype(np.float64) if name == 'mnist-raw' else Deskew().fit_transform(X)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=seed)
    Xf, Xv, yf, yv, _, _ = validation_split(Xtr, ytr, 0.2, seed)
    return Xf, yf, Xv, yv, Xte, yte


def candidates(grid, seed, penalty='l1'):
    "(depth, leaves, C, leaf_C, unfitted model) of every fit."
    for lc in grid['leaf_Cs']:
        yield 0, 'linear', None, lc, make_pipeline(StandardScaler(), LinearSVC(penalty=penalty, dual=False, C=lc))
    for d in grid['const_depths']:
        for C in grid['Cs']:
            yield d, 'constant', C, None, TAOClassifier(max_depth=d, split_type='oblique', C=C, random_state=seed)
    for d in grid['depths']:
        for C in grid['Cs']:
            for lc in grid['leaf_Cs']:
                yield d, 'linear', C, lc, LinearLeafTAOClassifier(max_depth=d, C=C, leaf_C=lc, leaf_penalty=penalty,
                                                             random_state=seed)


def main(name, seed, depths=None, const_depths=None, penalty='l1', n=12_000, leaf_Cs=None):
    Xf, yf, Xv, yv, Xt, yt = data(name, seed, n)
    print(f"{name}, seed {seed}: {len(yf)} fitting, {len(yv)} validation, {len(yt)} test rows", flush=True)
    print(f"{'depth':>5} {'leaves':>8} {'C':>6} {'leaf_C':>7} {'val err':>8} {'test acc':>8} {'n_leaves':>8} {'s':>6}",
          flush=True)
    rows = []
    grid = dict(GRIDS['fashion' if name.startswith('fashion') else name if name in GRIDS else 'mnist'])
    for key, given in (('depths', depths), ('const_depths', const_depths)):
        if given is not None: grid[key] = tuple(int(d) for d in given.split(',') if d)
    if leaf_Cs is not None: grid['leaf_Cs'] = tuple(float(c) for c in leaf_Cs.split(','))
    for d, kind, C, lc, model in candidates(grid, seed, penalty):
        t = time.time()
        model.fit(Xf, yf)
        r = dict(d=d, kind=kind, C=C, lc=lc, val=1 - model.score(Xv, yv), test=model.score(Xt, yt),
                 leaves=model.tree_.n_leaves if d else 1, s=time.time() - t)
        rows.append(r)
        print(f"{d:>5} {kind:>8} {C or '-':>6} {lc or '-':>7} {r['val']:8.4f} {r['test']:8.4f} {r['leaves']:>8} "
              f"{r['s']:6.0f}", flush=True)
    print(f"\nselected on validation ({name}, seed {seed}):")
    print(f"{'depth':>5} {'leaves':>8} {'C':>6} {'leaf_C':>7} {'val err':>8} {'test acc':>8} {'test err':>8}")
    for key in sorted({(r['d'], r['kind']) for r in rows}):
        best = min((r for r in rows if (r['d'], r['kind']) == key), key=lambda r: r['val'])
        print(f"{key[0]:>5} {key[1]:>8} {best['C'] or '-':>6} {best['lc'] or '-':>7} {best['val']:8.4f} "
              f"{best['test']:8.4f} {1 - best['test']:8.4f}")
    best = min(rows, key=lambda r: r['val'])
    print(f"overall (lowest validation error): depth {best['d']}, {best['kind']} leaves, test accuracy "
          f"{best['test']:.4f}")


def keep_split(X, label, weight, current=None):
    "A node solver that never changes a split: TAO then only fits the leaves."
    return None


def fixed(name, seed, depth, leaf_C):
    "Errors of TAO with linear leaves against linear leaves fitted once on the CART start's partition."
    Xf, yf, Xv, yv, Xt, yt = data(name, seed)
    classes = np.unique(yf)
    yf_enc = np.searchsorted(classes, yf)
    start = linear_leaf_start('cart', 'oblique', Xf, yf_enc, depth, seed, classes)
    once = linear_leaf_tao(start.tree, start.Z, yf_enc, keep_split, TAOSettings(max_iter=1), LeafSettings(leaf_C))
    tao = LinearLeafTAOClassifier(max_depth=depth, C=1.0, leaf_C=leaf_C, random_state=seed).fit(Xf, yf)
    print(f"{name}, seed {seed}, depth {depth}, leaf_C {leaf_C}: error on (fitting, validation, test) rows")
    def err(X, y):
        Z = (X - start.x_mean) / start.x_scale
        return np.mean(classes[once.models.predict(Z, np.arange(len(Z)), once.tree.apply(Z))] != y)
    print("  linear leaves on the CART partition: " + ' '.join(f"{err(X, y):.4f}" for X, y in
                                                            ((Xf, yf), (Xv, yv), (Xt, yt))))
    print("  TAO with linear leaves:              " + ' '.join(f"{1 - tao.score(X, y):.4f}" for X, y in
                                                            ((Xf, yf), (Xv, yv), (Xt, yt))))


if __name__ == '__main__':
    p = argparse.ArgumentParser()
    p.add_argument('--data', default='mnist-deskew', choices=('mnist-deskew', 'mnist-raw', 'letter', 'fashion',
                                                                   'fashion-hog'))
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--depths', default=None)
    p.add_argument('--const-depths', default=None)
    p.add_argument('--fixed', default=None)
    p.add_argument('--leaf-penalty', default='l1', choices=('l1', 'l2'))
    p.add_argument('--n', type=int, default=12_000, help='fashion: fitting images used')
    p.add_argument('--leaf-Cs', default=None, help="values of leaf_C (default: the grid's)")
    a = p.parse_args()
    if a.fixed:
        depth, leaf_C = a.fixed.split(':')
        fixed(a.data, a.seed, int(depth), float(leaf_C))
    else: main(a.data, a.seed, a.depths, a.const_depths, a.leaf_penalty, a.n, a.leaf_Cs)
