"""One axis-aligned TAO sweep of a multi-response regression tree versus scikit-learn's
DecisionTreeRegressor fit of the same depth, timed in the same process; prints the ratio.

    python benchmarks/bench_regression.py            # 100,000 x 20, 3 responses, depths 4 8 12
    python benchmarks/bench_regression.py --profile  # also a cProfile of one depth-8 sweep

Target (issue 4): one sweep <= 3x CART's fit of the same depth.
"""
import argparse
import cProfile
import pstats
import time

import numpy as np
from sklearn.datasets import make_regression
from sklearn.tree import DecisionTreeRegressor

from tao_nb.reduced import squared_loss
from tao_nb.solvers.axis import best_axis_split
from tao_nb.tao import mean_response, refit_values, tao_sweep, tree_objective
from tao_nb.tree import Tree


def best_of(f, repeat):
    "Best wall time of `repeat` calls of f (and its last result)."
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter(); out = f(); times.append(time.perf_counter() - t0)
    return min(times), out


def one_sweep(tree0, X, Y):
    "One reverse-BFS TAO sweep plus the final leaf refit (what one iteration of `tao` costs)."
    t = tree0.copy()
    tao_sweep(t, X, Y, squared_loss, mean_response, best_axis_split)
    refit_values(t, X, Y, mean_response)
    return t


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--n', type=int, default=100_000)
    ap.add_argument('--depths', type=int, nargs='+', default=[4, 8, 12])
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--profile', action='store_true')
    a = ap.parse_args()
    X, Y = make_regression(a.n, 20, n_informative=12, n_targets=3, noise=5.0, random_state=0)
    for depth in a.depths:
        cart_t, cart = best_of(lambda: DecisionTreeRegressor(max_depth=depth, random_state=0).fit(X, Y), a.repeat)
        tree0 = Tree.from_sklearn(cart)
        sweep_t, t = best_of(lambda: one_sweep(tree0, X, Y), a.repeat)
        e0, e1 = tree_objective(tree0, X, Y, squared_loss) / Y.size, tree_objective(t, X, Y, squared_loss) / Y.size
        print(f"N={len(X)} D={X.shape[1]} responses={Y.shape[1]} depth={depth:2d} ({tree0.n_leaves} leaves): "
              f"CART fit {cart_t*1e3:7.1f} ms | one TAO sweep {sweep_t*1e3:7.1f} ms = {sweep_t/cart_t:4.2f}x CART "
              f"(target <= 3x) | train MSE {e0:.2f} -> {e1:.2f}")
    if a.profile:
        tree0 = Tree.from_sklearn(DecisionTreeRegressor(max_depth=8, random_state=0).fit(X, Y))
        pr = cProfile.Profile(); pr.enable(); one_sweep(tree0, X, Y); pr.disable()
        pstats.Stats(pr).sort_stats('cumulative').print_stats(15)
