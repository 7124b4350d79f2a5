"""Issue 26: the TAO paper's Table 1 sets (letter, pendigits) under the paper's protocol, seeds 0-2.

letter: 10,500 fitting / 4,500 validation / 5,000 test rows, `paper_split('letter', y, seed)` (stratified random;
the paper's exact rows are not available offline). The estimator is given the fitting and validation rows together
with `validation_fraction=0.3`, so it holds out 4,500 of them (stratified, by its own seed) to choose its start and C.
pendigits: 7,494 training / 3,498 test rows (stratified random of the paper's sizes; the official writer-disjoint
split is not in the KEEL copy); the estimator holds out its default 20 % of the training rows.

Every row is selected on validation rows, never on test. Baselines in the same process: scikit-learn's CART
(unlimited depth) and RandomForestClassifier(n_estimators=100) on the same training rows.

    python benchmarks/bench_table1.py [--sets letter,pendigits] [--seeds 0,1,2] [--configs default,deep]

Configs: 'default' = TAOPathClassifier(random_state=0); 'deep' = TAOPathClassifier(max_depths=(12, 16),
inits=('cart',), Cs=np.logspace(1, -1, 7), random_state=0). The letter levers, each one change to 'deep':
'deep20' starts of depths 16 and 20; 'random' random starts (the paper: "a large tree with random parameters");
'oblique' oblique CART starts; 'logistic' the logistic surrogate; 'pooled' one scale for all features (the paper's
raw inputs up to one number); 'bigC' C from 100 to 1 (the paper's letter C is 9.11); 'sweeps' up to 40 sweeps at
tol 1e-3; 'cv5' C by 5-fold cross-validation on the training rows, then a refit; 'deep24' starts of depths 20
and 24; 'deep20sweeps' 'deep20' with 'sweeps'.
"""
import argparse
import time

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.tree import DecisionTreeClassifier

from tao_nb.datasets import load_keel, paper_split
from tao_nb.estimators import TAOPathClassifier

PAPER = {'letter': 7.94, 'pendigits': 3.14}     # Table 1, TAO test error (%)
CONFIGS = {
    'default': dict(random_state=0),
    'deep': dict(max_depths=(12, 16), inits=('cart',), Cs=np.logspace(1, -1, 7), random_state=0),
}
DEEP = CONFIGS['deep']
LEVERS = {   # issue 26's letter hypotheses, each one change to 'deep' (see the docstring)
    'deep20': {**DEEP, 'max_depths': (16, 20)},
    'random': {**DEEP, 'inits': ('random',)},
    'oblique': {**DEEP, 'inits': ('oblique',)},
    'logistic': {**DEEP, 'surrogate': 'logistic'},
    'pooled': {**DEEP, 'scaling': 'pooled'},
    'bigC': {**DEEP, 'Cs': np.logspace(2, 0, 7)},
    'sweeps': {**DEEP, 'max_iter': 40, 'tol': 1e-3},
    'cv5': {**DEEP, 'cv': 5},
    'deep24': {**DEEP, 'max_depths': (20, 24)},
    'deep20sweeps': {**DEEP, 'max_depths': (16, 20), 'max_iter': 40, 'tol': 1e-3},
}
CONFIGS.update(LEVERS)


def split(name, seed):
    "(X_train, y_train, X_test, y_test, validation_fraction) of the paper's protocol for `name`."
    X, y = load_keel(name)
    s = paper_split(name, y, seed)
    train = np.sort(np.r_[s.fit, s.val])
    fraction = len(s.val) / len(train) if len(s.val) else 0.2
    return X[train], y[train], X[s.test], y[s.test], fraction


def run(name, seed, config):
    "One printed row: the TAO tree of `config` and the baselines, test error in %."
    Xtr, ytr, Xte, yte, fraction = split(name, seed)
    print(f"{name} seed {seed}: {len(ytr):,} training rows ({round(fraction * len(ytr)):,} of them held out to "
          f"choose the start and C), {len(yte):,} test rows", flush=True)
    t = time.process_time()
    m = TAOPathClassifier(validation_fraction=fraction, **CONFIGS[config]).fit(Xtr, ytr)
    cpu = time.process_time() - t
    err = 100 * (1 - m.score(Xte, yte))
    cart = 100 * (1 - DecisionTreeClassifier(random_state=seed).fit(Xtr, ytr).score(Xte, yte))
    rf = 100 * (1 - RandomForestClassifier(100, random_state=seed, n_jobs=1).fit(Xtr, ytr).score(Xte, yte))
    print(f"{name:9s} seed {seed} {config:7s}: TAO test error {err:6.2f} % (start {m.start_}, C {m.C_:.3g}, "
          f"{m.tree_.n_leaves} leaves, {int((m.tree_.W != 0).sum())} nonzeros, {cpu:.0f} CPU s) | "
          f"CART {cart:5.2f} % | RF(100) {rf:5.2f} %", flush=True)
    return err


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--sets', default='letter,pendigits')
    ap.add_argument('--seeds', default='0,1,2')
    ap.add_argument('--configs', default='default,deep')
    a = ap.parse_args()
    for name in a.sets.split(','):
        for config in a.configs.split(','):
            errs = [run(name, int(s), config) for s in a.seeds.split(',')]
            print(f"{name:9s} {config:7s}: mean TAO test error {np.mean(errs):.2f} % over seeds {a.seeds} "
                  f"(paper, Table 1: {PAPER[name]:.2f} %)", flush=True)
