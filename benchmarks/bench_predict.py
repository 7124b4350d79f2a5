"""Issue 28 (part 1; part 3 with `--fit`): predict time of the selected tree against scikit-learn's trees.

In one process, BLAS on one thread, for each data set (70/30 stratified split, random_state=0): the test-set
`predict` time (best of 5) of the tao_nb tree, of scikit-learn's CART at depth 12 and unlimited and of its
random forest (100 trees, n_jobs=1; the five calls of each model interleaved with the others', so that all
share the machine's load alike), with each model's test accuracy and leaves, and the ratio tao / CART-12.
For the tao tree it also prints the time of the same prediction through `Tree.descend` (numpy, level by
level: the routing before the compiled router) and the ratio before / after, with a check that both give
the same labels.

    python benchmarks/bench_predict.py [--cache DIR] [--sets digits,mnist5k,gen100k] [--today] [--repeat 5] [--fit]
    python benchmarks/bench_predict.py --today --fit --sets digits,mnist5k,gen20k,gen100k   # issue 28, part 3

Trees: `TAOPathClassifier(random_state=0)` (the default path) on digits and MNIST-5k; on the generated
100k x 50 set (make_classification, 4 classes, random_state=0) a cheaper path: 3 values of C, one start
(CART of depth 8), at most 3 sweeps per C (the default path would take long there). --cache DIR keeps the
fitted tao estimators as pickles (DIR/<set>_tao.pkl) so a rerun only measures; fitting is not what this
benchmark times. The trees are fitted with the defaults pinned by `_settings.py` (those of the first saved
prints); `--today` fits them with the package's own defaults instead (issue 28's `stop_on='loss'`, `refit=True`).
`--repeat K`: best of K instead of 5 (each model's K calls still interleaved with the others').
`--fit`: every model is fitted in this process (no cache) and its fit's CPU seconds (`time.process_time`, BLAS and
the forest on one thread) are printed beside its predict time. `gen20k`: a second generated set, 20,000 points, 20
features (make_classification, 3 classes, 2 clusters each, random_state=1), fitted by the default path. A small
fit first compiles numba's kernels, so that no timed fit pays for that.
"""
import os

for _k in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'): os.environ.setdefault(_k, '1')

import argparse
import pickle
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import load_digits, make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.validation import validate_data

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of  # noqa: E402

from tao_nb.datasets import load_mnist_5k  # noqa: E402
from _settings import TAOPathClassifier  # noqa: E402 (the defaults its saved prints were made with)
from tao_nb.estimators import TAOPathClassifier as TODAY  # noqa: E402 (the package's defaults: --today)

FITS = {'digits': "TAOPathClassifier(random_state=0)", 'mnist5k': "TAOPathClassifier(random_state=0)",
        'gen100k': "TAOPathClassifier(Cs=[1.0, 0.1, 0.01], max_depths=(8,), inits=('cart',), max_iter=3, "
                   "random_state=0)", 'gen20k': "TAOPathClassifier(random_state=0)"}


def load(name):
    "(X, y) of a data set, X as float64."
    if name == 'digits': X, y = load_digits(return_X_y=True)
    elif name == 'mnist5k': X, y = load_mnist_5k()
    elif name == 'gen20k':
        X, y = make_classification(n_samples=20_000, n_features=20, n_informative=8, n_redundant=4, n_classes=3,
                                   n_clusters_per_class=2, random_state=1)
    else:
        X, y = make_classification(n_samples=100_000, n_features=50, n_informative=10, n_redundant=10,
                                   n_classes=4, random_state=0)
    return np.asarray(X, dtype=np.float64), y


def cpu_fit(est, X, y):
    "(est fitted on (X, y), the CPU seconds of its fit)."
    t0 = time.process_time()
    est.fit(X, y)
    return est, time.process_time() - t0


def tao_model(name, Xtr, ytr, cache, today=False):
    "The fitted tao estimator of a data set (cached in DIR); `today`: with the package's defaults."
    path = Path(cache, f"{name}_tao{'_today' if today else ''}.pkl") if cache else None
    if path is not None and path.exists(): return pickle.loads(path.read_bytes())
    est = eval(FITS[name], {'TAOPathClassifier': TODAY if today else TAOPathClassifier}).fit(Xtr, ytr)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(est))
    return est


def descend_predict(est, X):
    "The estimator's labels routed by `Tree.descend` (the numpy level-by-level walker), validation included."
    X = validate_data(est, X, reset=False, dtype=np.float64)
    tree = est.tree_
    return est.classes_[tree.value[tree.descend(X, 0)].argmax(1)]


def run(name, cache, today=False, repeat=5, fit=False):
    X, y = load(name)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    tao = eval(FITS[name], {'TAOPathClassifier': TODAY if today else TAOPathClassifier}) if fit else None
    fitted = {'tao': cpu_fit(tao, Xtr, ytr) if fit else (tao_model(name, Xtr, ytr, cache, today), None),
              'CART depth 12': cpu_fit(DecisionTreeClassifier(max_depth=12, random_state=0), Xtr, ytr),
              'CART unlimited': cpu_fit(DecisionTreeClassifier(random_state=0), Xtr, ytr),
              'random forest': cpu_fit(RandomForestClassifier(n_estimators=100, n_jobs=1, random_state=0), Xtr, ytr)}
    models = {label: est for label, (est, _) in fitted.items()}
    print(f"\n{name}: {len(Xtr)} train / {len(Xte)} test points, {X.shape[1]} features; tao = {FITS[name]}"
          f"{' (the package defaults)' if today else ''}")
    calls = {label: (lambda est=est: est.predict(Xte)) for label, est in models.items()}
    calls['tao before'] = lambda: descend_predict(models['tao'], Xte)
    for f in calls.values(): f()                                    # compiled / warmed up before timing
    times = {label: [] for label in calls}
    for _ in range(repeat):             # best of `repeat`, models interleaved: they share the machine's load alike
        for label, f in calls.items(): times[label].append(best_of(f, repeat=1)[0])
    times = {label: min(t) for label, t in times.items()}
    for label, est in models.items():
        pred = est.predict(Xte)
        if hasattr(est, 'estimators_'): leaves = sum(e.get_n_leaves() for e in est.estimators_)
        elif hasattr(est, 'get_n_leaves'): leaves = est.get_n_leaves()
        else: leaves = est.tree_.n_leaves
        extra = (f", {est.tree_.nonzeros()} nonzeros, {est.tree_.inference_cost(Xte):.1f} mults/point"
                 if label == 'tao' else '')
        cpu = f"   fit {fitted[label][1]:.2f} CPU s" if fit else ''
        print(f"  {label:15s} predict {times[label] * 1e3:8.2f} ms   accuracy {np.mean(pred == yte):.4f}   "
              f"leaves {leaves}{extra}{cpu}")
    print(f"  ratio tao / CART depth 12: {times['tao'] / times['CART depth 12']:.2f}")
    before = times['tao before']
    same = np.array_equal(descend_predict(models['tao'], Xte), models['tao'].predict(Xte))
    print(f"  tao before (numpy descend) {before * 1e3:.2f} ms, "
          f"after (compiled) {times['tao'] * 1e3:.2f} ms: "
          f"{before / times['tao']:.1f}x faster; same labels: {same}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--cache', default=None, help='directory for the fitted tao estimators (pickles)')
    ap.add_argument('--sets', default='digits,mnist5k,gen100k')
    ap.add_argument('--today', action='store_true', help="the package's defaults")
    ap.add_argument('--repeat', type=int, default=5, help='calls per model (the best is kept)')
    ap.add_argument('--fit', action='store_true', help="fit every model here and print its fit's CPU seconds")
    args = ap.parse_args()
    print(f"bench_predict: test-set predict time, best of {args.repeat}, BLAS threads = "
          f"{os.environ.get('OPENBLAS_NUM_THREADS')}, one process; load average at start "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.fit:                         # numba's kernels compiled (or loaded) before any timed fit
        Xw, yw = load_digits(return_X_y=True)
        TODAY(Cs=[1.0], max_depths=2, random_state=0).fit(Xw[:300], yw[:300]).predict(Xw)
    for name in args.sets.split(','): run(name, args.cache, args.today, args.repeat, args.fit)
    print(f"\nload average at end {os.getloadavg()[0]:.1f}")


if __name__ == '__main__':
    main()
