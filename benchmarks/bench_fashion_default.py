"""Issue 26 part 3: the whole default fit on Fashion-MNIST within a time budget (the issue's target: <= 60 minutes).

The default estimator, `TAOPathClassifier(random_state=0, n_jobs=K)` (its defaults pinned by `_settings.py`: four
starts, CART and oblique CART of depths 8 and 12; eight values of C from 10 down; up to 14 TAO sweeps per value;
per-feature z-scores), on the official 60,000 training images, run through the estimator's own steps: its validation
split (48,000 fitting / 12,000 validation images), its starts, and `path_from` for each, the four paths on K joblib
workers as `fit` runs them (one path per worker). Each path's end is printed as it comes: wall minutes since the fit
began, its selected C, validation error and sweeps. If all four end within `--budget-min` minutes: the start
`best_start` keeps, its test accuracy (the official 10,000 test images) and the whole fit's wall time. Otherwise, at
the budget, the paths that ended and those that did not, and the process stops there.

`--solver cd`: the same with `solver='cd'` (09: liblinear's coordinate descent, compiled, on one float32 copy of a
node's rows), the one parameter changed.

Restarts (issue 26's levers): `--starts cart:8` keeps only the starts named (init:depth, comma-separated);
`--solver-seeds 0,1,2` runs each start's path once per seed of the node solver's own coordinate order
(`ObliqueSolver.random_state`, 0 in every default fit), and `best_start` then chooses among all the paths on
validation, as the estimator chooses among its starts. `--svm-C 0.1`: then the L1 linear SVM (`LinearSVC(penalty='l1',
dual=False)`) on the same fitting images at the estimator's scaling (per-feature z-scores), its test accuracy and
the chosen tree's difference from it (issue 26's yardstick, in this process).

    python benchmarks/bench_fashion_default.py [--budget-min 60] [--n-jobs 2] [--solver cd] [--starts cart:8]
                                               [--solver-seeds 0,1,2] [--svm-C 0.1]

Needs Debian's `dataset-fashion-mnist`.
"""
import argparse
import dataclasses
import os
import sys
import threading
import time

import numpy as np
import psutil
from joblib import Parallel, delayed
from sklearn.svm import LinearSVC

from _settings import TAOPathClassifier   # the defaults its saved prints were made with
from tao_nb.datasets import load_fashion_mnist
from tao_nb.oblique_fit import input_scale
from tao_nb.estimators import best_start, path_from, path_starts, validation_split
from tao_nb.path import PathData, check_Cs


def indexed(k, *job):
    "(k, the path of job k): the paths come back as they end."
    return k, path_from(*job)


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--budget-min', type=float, default=60)
    ap.add_argument('--n-jobs', type=int, default=2)
    ap.add_argument('--solver', default='liblinear', help="the node solver: 'liblinear' or 'cd'")
    ap.add_argument('--starts', default=None, help="only these starts, e.g. 'cart:8,oblique:8'")
    ap.add_argument('--solver-seeds', default='0', help="seeds of the node solver's order: a path per start and seed")
    ap.add_argument('--svm-C', type=float, default=None, help='then the L1 linear SVM at this C, in this process')
    a = ap.parse_args()
    X, y = load_fashion_mnist()
    X = X.astype(np.float64)
    Xtr, ytr, Xte, yte = X[:60_000], y[:60_000], X[60_000:], y[60_000:]
    est = TAOPathClassifier(random_state=0, n_jobs=a.n_jobs, solver=a.solver)
    X_fit, X_val, y_fit, y_val, _, _ = validation_split(Xtr, ytr, est.validation_fraction, 0)
    data = PathData(X_fit, y_fit, np.arange(10), X_val, y_val)
    starts, Cs, settings = path_starts(est.inits, est.max_depths), check_Cs(est.Cs), est.path_settings()
    if a.starts: starts = [(i, int(d)) for i, d in (t.split(':') for t in a.starts.split(','))]
    seeds = [int(k) for k in a.solver_seeds.split(',')]
    seeded = lambda k: dataclasses.replace(settings, node_solver=dataclasses.replace(settings.node_solver, random_state=k))
    if seeds != [0]: starts = [(init, depth, k) for init, depth in starts for k in seeds]   # (start, solver seed)
    jobs = [(data, s[0], s[1], 0, est.scaling, Cs, seeded(s[2] if len(s) > 2 else 0)) for s in starts]
    print(f"Fashion-MNIST: {len(X_fit):,} fitting / {len(X_val):,} validation / {len(Xte):,} test images; "
          f"{len(starts)} starts {starts}, {len(Cs)} values of C, at most {est.max_iter} sweeps each, "
          f"{a.n_jobs} workers{'' if a.solver == 'liblinear' else f', solver {a.solver!r}'}; budget {a.budget_min:g} min; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    t0, paths = time.perf_counter(), {}
    minutes = lambda: (time.perf_counter() - t0) / 60

    def stop():
        "At the budget: what ended, what did not; then the process ends (the workers with it)."
        left = [starts[k] for k in range(len(starts)) if k not in paths]
        print(f"budget of {a.budget_min:g} min reached: {len(paths)} of {len(starts)} paths ended; still running: "
              f"{left}. The whole default fit takes longer than {a.budget_min:g} minutes", flush=True)
        for child in psutil.Process().children(recursive=True): child.kill()   # the joblib workers
        sys.stdout.flush()
        os._exit(0)
    timer = threading.Timer(60 * a.budget_min, stop)
    timer.daemon = True
    timer.start()
    tasks = (delayed(indexed)(k, *job) for k, job in enumerate(jobs))
    for k, path in Parallel(n_jobs=a.n_jobs, return_as='generator_unordered')(tasks):
        paths[k] = path
        r = path.records[path.best_index]
        print(f"  path {starts[k]} ended at {minutes():.1f} min: C {path.best_C:.3g}, validation error "
              f"{r['val_error']:.4f}, {sum(q['sweeps'] for q in path.records)} sweeps", flush=True)
    timer.cancel()
    ordered = [paths[k] for k in range(len(starts))]
    k = best_start(ordered)
    for j, p in enumerate(ordered):
        print(f"  path {starts[j]}: test {p.score(Xte, yte):.4f}", flush=True)
    tree_acc = ordered[k].score(Xte, yte)
    print(f"whole default fit: {minutes():.1f} min wall; selected start {starts[k]}, C {ordered[k].best_C:.3g}, "
          f"test {tree_acc:.4f}", flush=True)
    if a.svm_C is not None:
        mu, sc = input_scale(X_fit, scaling=est.scaling)
        svm = LinearSVC(penalty='l1', dual=False, C=a.svm_C, tol=1e-3).fit((X_fit - mu) / sc, y_fit)
        svm_acc = svm.score((Xte - mu) / sc, yte)
        print(f"L1 linear SVM (C {a.svm_C:g}, {est.scaling} scaling): validation error "
              f"{1 - svm.score((X_val - mu) / sc, y_val):.4f}, test {svm_acc:.4f}; chosen tree - SVM "
              f"{tree_acc - svm_acc:+.4f} (issue 26's target: >= +0.02)", flush=True)
