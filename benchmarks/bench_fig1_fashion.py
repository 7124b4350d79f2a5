"""Issue 26 part 3: the TAO paper's Fig. 1 (right panels and bottom) at its scale, on Fashion-MNIST.

The paper's protocol on MNIST: 48,000 fitting / 12,000 validation images of the 60,000 training images (here the
estimator's own stratified split, seed 0), the 10,000 official test images. One process and its joblib workers
(`--n-jobs`, one path or one baseline per worker), in one run:
- the paths over C (`--Cs`, decreasing) from CART and oblique CART starts (`10_oblique_cart`) of each depth in
  `--depths`, each start grown on the fitting images at one pooled scale (`scaling='pooled'`: the paper's raw pixels
  up to centring and one number), at most `--max-iter` TAO sweeps per value of C (the paper: 14; the default here, 1,
  is issue 28's fast setting, so that ten paths fit in a working session: a departure, stated with the figure);
- the markers: the L1 linear SVM (`LinearSVC(penalty='l1', dual=False)`, one-vs-rest, its C from `--svm-Cs` chosen on
  the validation images) on the same inputs, and `RandomForestClassifier(100)` on the fitting images; CART is on the
  figure as the starts themselves (scikit-learn's trees, grown on the same inputs).
Every tree's parameters: its nonzero weights plus one threshold per decision node (an axis-aligned split counts 2),
leaf labels not counted, as in `12_path`; the linear SVM's nonzero weights plus its 10 intercepts; the forest's
2 per split over its trees. Prints a line per path, the tree each path selects on validation and the one of lowest
validation error over all starts (what `TAOPathClassifier` keeps), and writes `results/fig1_fashion.json` (every
tree's measures) and the two figures `results/path_fashion_fig1_right.png` (the selected path: error, sparsity,
splits and inference cost against C) and `results/path_fashion_fig1_bottom.png` (test error against parameters).
Needs Debian's `dataset-fashion-mnist`; `--n 6000` is a smoke test (its files get the suffix `_smoke`).

    python benchmarks/bench_fig1_fashion.py [--depths 4,6,8,10,12] [--Cs 1,0.3,0.1,0.03,0.01] [--max-iter 1]
                                            [--svm-Cs 0.1] [--n-jobs 2] [--n 60000]
"""
import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed
from sklearn.ensemble import RandomForestClassifier
from sklearn.svm import LinearSVC

from tao_nb.datasets import load_fashion_mnist
from tao_nb.estimators import TAOPathClassifier, validation_split
from tao_nb.oblique_fit import input_scale, oblique_start
from tao_nb.path import PathData, run_path
from tao_nb.tree import unstandardize_tree

RESULTS = Path(__file__).resolve().parent / 'results'


def start_name(init): return 'CART' if init == 'cart' else 'oblique CART'


def n_params(tree):
    "Nonzero weights plus one threshold per decision node (leaf labels not counted)."
    return int(tree.nonzeros() + (~tree.is_leaf).sum())


def one_path(data, init, depth, Cs, settings, X_test, y_test):
    "A start grown on the fitting images and its path; the measures of the start and of every tree on the path."
    c = time.process_time()
    start = oblique_start(init, data.X, data.y, depth, 0, data.classes, None, 'pooled')
    s0 = unstandardize_tree(start.tree, start.x_mean, start.x_scale)
    path = run_path(data, start, Cs, settings, f'{init}, depth {depth}')
    err = lambda t: float((t.predict_value(X_test).argmax(1) != y_test).mean())
    trees = [dict(r, test_error=err(t), params=n_params(t), test_mults=t.inference_cost(X_test),
                  test_mean_path=float(t.path_lengths(X_test).mean())) for r, t in zip(path.records, path.trees)]
    return dict(init=init, depth=depth, cpu=time.process_time() - c, best=int(path.best_index), trees=trees,
                start=dict(params=n_params(s0), test_error=err(s0), leaves=int(s0.n_leaves))), path


def linear_svm(Z_fit, y_fit, Z_val, y_val, Z_test, y_test, Cs):
    "The L1 linear SVM of lowest validation error over `Cs`, and its measures."
    c, best = time.process_time(), None
    for C in Cs:
        m = LinearSVC(penalty='l1', dual=False, C=C, tol=1e-3).fit(Z_fit, y_fit)
        val = 1 - m.score(Z_val, y_val)
        if best is None or val < best[0]: best = (val, C, m)
    val, C, m = best
    return dict(model='L1 linear SVM', C=C, val_error=float(val), test_error=float(1 - m.score(Z_test, y_test)),
                params=int(np.count_nonzero(m.coef_) + len(m.intercept_)), cpu=time.process_time() - c), None


def forest(X_fit, y_fit, X_val, y_val, X_test, y_test):
    "RandomForestClassifier(100) on the fitting images, and its measures."
    c = time.process_time()
    m = RandomForestClassifier(100, random_state=0).fit(X_fit, y_fit)
    splits = sum(int((e.tree_.children_left >= 0).sum()) for e in m.estimators_)
    return dict(model='random forest (100 trees)', val_error=float(1 - m.score(X_val, y_val)),
                test_error=float(1 - m.score(X_test, y_test)), params=2 * splits, cpu=time.process_time() - c), None


def figures(rows, markers, path, X_test, y_test, suffix, n_fit):
    "The paper's Fig. 1 right panels (the selected path) and bottom (test error against parameters), saved."
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    from tao_nb.viz.oblique import plot_path
    fig, ax = plt.subplots(1, 4, figsize=(15, 3.3), layout='constrained')
    plot_path(path, ax[:3], X_test, y_test)
    sel = next(r for r in rows if r['selected'])
    C = [t['C'] for t in sel['trees']]
    ax[3].plot(C, [t['test_mults'] for t in sel['trees']], 'o-', ms=4, color='tab:purple', label='multiplications')
    ax[3].plot(C, [t['test_mean_path'] for t in sel['trees']], 's--', ms=4, color='tab:gray', label='path length')
    ax[3].set(xscale='log', yscale='log', xlim=(max(C) * 1.4, min(C) / 1.4), xlabel='C   (λ = 1/C grows →)',
              ylabel='per test prediction')
    ax[3].legend(frameon=False, fontsize=8)
    ax[3].grid(True, alpha=0.3)
    fig.suptitle(f"Fashion-MNIST: the path from {start_name(sel['init'])} depth {sel['depth']} "
                 "(selected on validation)")
    fig.savefig(RESULTS / f'path_fashion_fig1_right{suffix}.png', dpi=72)
    fig, ax = plt.subplots(figsize=(9, 4.5), layout='constrained')
    depths = sorted({r['depth'] for r in rows})
    colors = dict(zip(depths, plt.cm.viridis(np.linspace(0, 0.9, len(depths)))))
    for r in rows:
        col, ls, mk = colors[r['depth']], '--' if r['init'] == 'cart' else '-', 's' if r['init'] == 'cart' else '^'
        ax.plot([t['params'] for t in r['trees']], [100 * t['test_error'] for t in r['trees']], ls, color=col, lw=1.3)
        ax.plot(r['start']['params'], 100 * r['start']['test_error'], mk, color=col, mfc='none', ms=8)
        b = r['trees'][r['best']]
        ax.plot(b['params'], 100 * b['test_error'], 'o', color=col, mfc='none', ms=11)
    b = sel['trees'][sel['best']]       # the tree of lowest validation error over all starts
    ax.plot(b['params'], 100 * b['test_error'], '*', ms=16, color='gold', mec='k', zorder=5)
    for m, mk in zip(markers, 'DP'):
        ax.plot(m['params'], 100 * m['test_error'], mk, color='crimson', ms=9, label=m['model'])
    for d in depths: ax.plot([], [], color=colors[d], label=f'depth {d}')
    ax.plot([], [], 'ks--', mfc='none', label='CART start, path')
    ax.plot([], [], 'k^-', mfc='none', label='oblique CART')
    ax.set(xscale='log', xlabel='number of parameters', ylabel='test error (%)',
           title=f'Fashion-MNIST ({n_fit:,} fitting images): TAO paths and their starts')
    ax.legend(fontsize=8, frameon=False, ncol=2)
    ax.grid(True, alpha=0.3)
    fig.savefig(RESULTS / f'path_fashion_fig1_bottom{suffix}.png', dpi=72)


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--depths', default='4,6,8,10,12')
    ap.add_argument('--Cs', default='1,0.3,0.1,0.03,0.01')
    ap.add_argument('--max-iter', type=int, default=1, help='TAO sweeps per value of C at most (the paper: 14)')
    ap.add_argument('--svm-Cs', default='0.1')
    ap.add_argument('--n-jobs', type=int, default=2)
    ap.add_argument('--n', type=int, default=60_000, help='training images used (a smoke test: fewer)')
    a = ap.parse_args()
    depths, Cs = [int(d) for d in a.depths.split(',')], [float(c) for c in a.Cs.split(',')]
    X, y = load_fashion_mnist()
    X = X.astype(np.float64)
    Xtr, ytr, Xte, yte = X[:a.n], y[:a.n], X[60_000:], y[60_000:]
    X_fit, X_val, y_fit, y_val, _, _ = validation_split(Xtr, ytr, 0.2, 0)
    print(f"Fashion-MNIST: {len(X_fit):,} fitting / {len(X_val):,} validation / {len(Xte):,} test images; load "
          f"average {os.getloadavg()[0]:.1f}; paths over C = {a.Cs}, at most {a.max_iter} sweep(s) per value of C, "
          f"pooled scale; {a.n_jobs} joblib workers", flush=True)
    settings = TAOPathClassifier(Cs=Cs, max_iter=a.max_iter, scaling='pooled').path_settings()
    data = PathData(X_fit, y_fit, np.arange(10), X_val, y_val)
    mu, sc = input_scale(X_fit, scaling='pooled')
    tasks = [delayed(linear_svm)((X_fit - mu) / sc, y_fit, (X_val - mu) / sc, y_val, (Xte - mu) / sc, yte,
                                 [float(c) for c in a.svm_Cs.split(',')])]
    tasks += [delayed(one_path)(data, init, d, Cs, settings, Xte, yte)          # the deepest first
              for d in sorted(depths, reverse=True) for init in ('cart', 'oblique')]
    tasks.append(delayed(forest)(X_fit, y_fit, X_val, y_val, Xte, yte))
    wall = time.perf_counter()
    out = Parallel(n_jobs=a.n_jobs)(tasks)
    wall = time.perf_counter() - wall
    markers = [out[0][0], out[-1][0]]
    rows, paths = zip(*sorted(out[1:-1], key=lambda o: (o[0]['init'], o[0]['depth'])))   # (measures, TAOPath)
    k = min(range(len(rows)), key=lambda k: (rows[k]['trees'][rows[k]['best']]['val_error'], k))
    for i, r in enumerate(rows):
        r['selected'] = i == k
        b = r['trees'][r['best']]
        print(f"{start_name(r['init']):>12} depth {r['depth']:2d}: start test error {r['start']['test_error']:.4f} "
              f"({r['start']['leaves']} leaves, {r['start']['params']} parameters); path "
              f"{' '.join(format(t['test_error'], '.4f') for t in r['trees'])}; selected C {b['C']:.3g}: validation "
              f"error {b['val_error']:.4f}, test error {b['test_error']:.4f}, {b['params']} parameters, "
              f"{b['leaves']} leaves, {b['test_mults']:.0f} multiplications per test prediction; {r['cpu']:.0f} CPU s",
              flush=True)
    for m in markers:
        print(f"{m['model']}{' (C ' + format(m['C'], 'g') + ')' if 'C' in m else ''}: validation error "
              f"{m['val_error']:.4f}, test error {m['test_error']:.4f}, {m['params']} parameters, {m['cpu']:.0f} CPU s",
              flush=True)
    b = rows[k]['trees'][rows[k]['best']]
    print(f"lowest validation error over all starts: {start_name(rows[k]['init'])} depth {rows[k]['depth']} at C "
          f"{b['C']:.3g}: test error {b['test_error']:.4f} ({b['params']} parameters); L1 linear SVM "
          f"{markers[0]['test_error']:.4f}; all in {wall:.0f} wall s", flush=True)
    suffix = '' if a.n == 60_000 else '_smoke'
    record = dict(command="python benchmarks/bench_fig1_fashion.py", args=vars(a), paths=rows, markers=markers)
    (RESULTS / f'fig1_fashion{suffix}.json').write_text(json.dumps(record, indent=1))
    figures(rows, markers, paths[k], Xte, yte, suffix, len(X_fit))
