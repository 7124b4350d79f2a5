"""Issue 30: the time the path explorer takes to show a tree it has not drawn before, against the old drawing.

In one process, BLAS on one thread, on the path of `13_viz_explore` (digits, 70/30 stratified split,
random_state=0, eight values of C from 10 down to 10^-1.5, CART of depth 8 as the start), for each tree the
time (best of 3) of
- `new`: what the widget does on a move to a tree not drawn before: `PathExplorer.png(k)` with its cache
  emptied first (the band of curves stays drawn, as after the widget's opening): the tree sideways under
  the band, one PNG at 80 dpi, at most 960 px wide;
- `before`: what the explorer did before issue 30: `plot_path` (11 x 2.6 in) and `plot_node_weights`
  (1.1 inch per leaf, one Axes per node), each saved at 80 dpi and stacked into one PNG (`figures_png`);
and the ratio before / new, with each PNG's size in pixels.

    python benchmarks/bench_explore_path.py
"""
import os

for _k in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'): os.environ.setdefault(_k, '1')

import sys
from pathlib import Path

import matplotlib
matplotlib.use('Agg')
import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import best_of  # noqa: E402
from tao_nb.path import tao_path  # noqa: E402
from tao_nb.viz.explore import explore_path, figures_png, png_size  # noqa: E402
from tao_nb.viz.oblique import plot_node_weights, plot_path, weights_figsize  # noqa: E402


def main():
    X, y = load_digits(return_X_y=True)
    Xtr, _, ytr, _ = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    path = tao_path(Xtr, ytr, np.logspace(1, -1.5, 8), max_depth=8, random_state=0)
    pe = explore_path(path, (8, 8), Xtr, ytr)
    pe.png(pe.start)                                  # the widget's opening: the band of curves drawn once

    def new(k):
        pe.__dict__.pop('_pngs', None)                # a tree not drawn before
        return pe.png(k)

    def before(k):
        t = path.trees[k]
        curves = plot_path(path, current=k, figsize=(11, 2.6))[0].figure
        tree = plot_node_weights(t, (8, 8), Xtr, pe.y, pe.class_names,
                                 figsize=weights_figsize(t, 1.1, max_width=np.inf), title=pe.caption(k))
        return figures_png([curves, tree], 80)

    heads = (('tree', 4), ('leaves', 6), ('new s', 7), ('new px', 11), ('before s', 9), ('before px', 11), ('ratio', 6))
    print(' '.join(f"{h:>{w}}" for h, w in heads))
    worst = 0.0
    for k in range(len(pe)):
        t_new, p_new = best_of(lambda: new(k))
        t_old, p_old = best_of(lambda: before(k))
        worst = max(worst, t_new)
        size = lambda p: '%dx%d' % png_size(p)
        print(f"{k + 1:>4} {path.trees[k].n_leaves:>6} {t_new:7.2f} {size(p_new):>11} {t_old:9.2f} "
              f"{size(p_old):>11} {t_old / t_new:6.1f}")
    print(f"slowest new tree: {worst:.2f} s")


if __name__ == '__main__':
    main()
