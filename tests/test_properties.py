"""Property tests of axis-aligned TAO over many seeded random cases, on real and synthetic data.

What must hold (issue 2): the training 0/1 loss never increases from one sweep to the next and never
ends above the initial tree's, over depths 2-10, CART and random initializations, on digits and on
synthetic data; pruning never increases the training loss. Skipping node problems already solved
(`TAOSettings(skip_unchanged=True)`) changes no tree and no history (40 cases, axis and oblique).
"""
import numpy as np
import pytest
from sklearn.datasets import load_digits, make_classification
from sklearn.tree import DecisionTreeClassifier

from tao_nb.pruning import prune_tree
from tao_nb.tao import TAOSettings, tao
from tao_nb.tree import Tree

DIGITS = load_digits(return_X_y=True)


def dataset(case):
    "Digits (a random subsample) for even cases, a synthetic multi-class problem for odd ones."
    rng = np.random.default_rng(case)
    if case % 2 == 0:
        X, y = DIGITS
        idx = rng.choice(len(X), size=int(rng.integers(200, len(X))), replace=False)
        X, y = X[idx], y[idx]
    else:
        X, y = make_classification(n_samples=int(rng.integers(100, 800)), n_features=int(rng.integers(2, 20)),
                                   n_informative=2, n_redundant=0, n_classes=int(rng.integers(2, 5)),
                                   n_clusters_per_class=1, flip_y=0.1, random_state=case)
    return X, np.unique(y, return_inverse=True)[1]


def errors(tree, X, y): return int((tree.predict_value(X).argmax(1) != y).sum())


CASES = range(240)


@pytest.mark.parametrize('chunk', range(8))
def test_loss_never_increases(chunk):
    for case in CASES[chunk::8]:
        X, y = dataset(case)
        depth = 2 + case % 9                                    # depths 2..10
        if (case // 2) % 2 == 0:
            tree0 = Tree.from_sklearn(DecisionTreeClassifier(max_depth=depth, random_state=case).fit(X, y))
        else:
            tree0 = Tree.random(depth, X, np.eye(y.max() + 1)[y], random_state=case)
        tree, history = tao(tree0, X, y, settings=TAOSettings(max_iter=6, tol=0.0))
        assert history[0] == errors(tree0, X, y), case
        assert errors(tree, X, y) == history[-1], case                  # the history ends at the tree's own loss
        assert errors(prune_tree(tree, X, y), X, y) <= history[-1], case


@pytest.mark.parametrize('chunk', range(4))
def test_skipping_solved_problems_changes_nothing(chunk):
    "TAOSettings(skip_unchanged=True) gives the same trees and objective histories as re-solving every node, axis and oblique (with and without a nonzero budget)."
    from tao_nb.solvers.oblique import ObliqueSolver
    from tao_nb.tree import standardizer
    for case in range(chunk, 40, 4):
        X, y = dataset(case)
        depth = 2 + case % 6
        if case % 3 == 2:                                       # oblique, standardized inputs
            mu, sd = standardizer(X); X = (X - mu) / sd
            tree0 = Tree.from_sklearn(DecisionTreeClassifier(max_depth=depth, random_state=case).fit(X, y)).to_oblique()
            C = float(10 ** np.random.default_rng(case).uniform(-1.5, 0.5))
            budget = case % 2 == 1                              # also the nonzero-budget solver (its answer reads the current split)
            kw = lambda: dict(node_solver=ObliqueSolver(C, nonzero_budget=budget))
        else:
            tree0 = Tree.random(depth, X, np.eye(y.max() + 1)[y], random_state=case) if case % 2 else \
                    Tree.from_sklearn(DecisionTreeClassifier(max_depth=depth, random_state=case).fit(X, y))
            kw = lambda: {}
        t1, h1 = tao(tree0, X, y, settings=TAOSettings(max_iter=6, tol=0.0, skip_unchanged=True), **kw())
        t0, h0 = tao(tree0, X, y, settings=TAOSettings(max_iter=6, tol=0.0, skip_unchanged=False), **kw())
        np.testing.assert_array_equal(h1, h0, err_msg=str(case))
        np.testing.assert_array_equal(t1.threshold, t0.threshold, err_msg=str(case))
        if t0.W is not None: np.testing.assert_array_equal(t1.W, t0.W, err_msg=str(case))
        else: np.testing.assert_array_equal(t1.feature, t0.feature, err_msg=str(case))
