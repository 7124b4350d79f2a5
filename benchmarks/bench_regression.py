"""One axis-aligned TAO sweep of a multi-response regression tree versus scikit-learn's
DecisionTreeRegressor fit of the same depth, timed in the same process; prints the ratio.

    python benchmarks/bench_regression.py            # 100,000 x 20, 3 responses, depths 4 8 12
    python benchmarks/bench_regression.py --profile  # also a cProfile of one depth-8 sweep
    python benchmarks/bench_regression.py --oblique --n 20000 --depths 4 6
        # also one oblique sweep (standardized data, C=1) with true sample weights (ObliqueSolver)
        # and with OHMR's scaling heuristic (HeuristicObliqueSolver), both surrogates

Target (issue 4): one axis-aligned sweep <= 3x CART's fit of the same depth.
"""
import argparse
import cProfile
import pstats
import time

import numpy as np
from sklearn.datasets import make_regression
from sklearn.tree import DecisionTreeRegressor

from tao_nb.reduced import squared_losses, mean_response, SQUARED
from tao_nb.solvers.axis import best_axis_split
from tao_nb.tao import refit_values, tao_sweep, tree_objective, TAORun
from tao_nb.tree import Tree, standardizer
from tao_nb.solvers.oblique import ObliqueSolver
from tao_nb.ohmr import HeuristicObliqueSolver
from _timing import best_of


def one_sweep(tree0, X, Y, node_solver=best_axis_split):
    "One reverse-BFS TAO sweep plus the final leaf refit (what one iteration of `tao` costs)."
    t = tree0.copy()
    tao_sweep(t, TAORun(X, Y, SQUARED, node_solver))
    refit_values(t, X, Y, mean_response)
    return t


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--n', type=int, default=100_000)
    ap.add_argument('--depths', type=int, nargs='+', default=[4, 8, 12])
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--profile', action='store_true')
    ap.add_argument('--oblique', action='store_true', help='also time one oblique sweep per solver')
    ap.add_argument('--C', type=float, default=1.0)
    a = ap.parse_args()
    X, Y = make_regression(a.n, 20, n_informative=12, n_targets=3, noise=5.0, random_state=0)
    for depth in a.depths:
        cart_t, cart = best_of(lambda: DecisionTreeRegressor(max_depth=depth, random_state=0).fit(X, Y), a.repeat)
        tree0 = Tree.from_sklearn(cart)
        sweep_t, t = best_of(lambda: one_sweep(tree0, X, Y), a.repeat)
        e0, e1 = tree_objective(tree0, X, Y, squared_losses) / Y.size, tree_objective(t, X, Y, squared_losses) / Y.size
        print(f"N={len(X)} D={X.shape[1]} responses={Y.shape[1]} depth={depth:2d} ({tree0.n_leaves} leaves): "
              f"CART fit {cart_t*1e3:7.1f} ms | one TAO sweep {sweep_t*1e3:7.1f} ms = {sweep_t/cart_t:4.2f}x CART "
              f"(target <= 3x) | train MSE {e0:.2f} -> {e1:.2f}")
    if a.oblique:   # standardized inputs and responses, CART rewritten with one-hot weight rows
        (mx, sx), (my, sy) = standardizer(X), standardizer(Y)
        Z, Ys = (X - mx) / sx, (Y - my) / sy
        pen = ObliqueSolver(a.C).penalty     # E's penalty: lambda * sum ||w_i||_1
        for depth in a.depths:
            tree0 = Tree.from_sklearn(DecisionTreeRegressor(max_depth=depth, random_state=0).fit(Z, Ys)).to_oblique()
            e0 = tree_objective(tree0, Z, Ys, squared_losses, pen)
            for surrogate in ('svm', 'logistic'):
                for name, S in (('weights', ObliqueSolver), ('heuristic', HeuristicObliqueSolver)):
                    sweep_t, t = best_of(lambda: one_sweep(tree0, Z, Ys, S(a.C, surrogate)), 1)
                    e1 = tree_objective(t, Z, Ys, squared_losses, pen)
                    print(f"oblique depth={depth:2d} {surrogate:8s} {name:9s}: one sweep {sweep_t:7.2f} s | "
                          f"E {e0:.1f} -> {e1:.1f} | nonzeros {t.nonzeros()}")
    if a.profile:
        tree0 = Tree.from_sklearn(DecisionTreeRegressor(max_depth=8, random_state=0).fit(X, Y))
        pr = cProfile.Profile(); pr.enable(); one_sweep(tree0, X, Y); pr.disable()
        pstats.Stats(pr).sort_stats('cumulative').print_stats(15)
