"""`TAOPathClassifier(refit=True)`, the default since issue 28: the chosen tree refitted on all the data.

The refit is recomputed here from public pieces (`oblique_start`, `at_surrogate_scale`, `oblique_tao`), so a
refit on the fitting part only, at another C, without the weights or from another tree fails here.
"""
import dataclasses

import numpy as np
import pytest
from sklearn.datasets import load_digits

from tao_nb.base import feature_importances
from tao_nb.estimators import TAOPathClassifier
from tao_nb.oblique_fit import at_surrogate_scale, oblique_start, oblique_tao
from tao_nb.tree import unstandardize_tree

X, y = load_digits(return_X_y=True)
X, y = X[:600], y[:600]
W = 1.0 + np.arange(len(y)) % 3                    # weights 1, 2, 3


def make(**k):
    return TAOPathClassifier(Cs=[1.0, 0.3, 0.1], max_depths=3, inits='cart', random_state=0, **k)


def refit_by_hand(est, sample_weight=None):
    "TAO at `C_` from the path's chosen tree on all (X, y), rescaled first, as the estimator documents."
    s = est.path_settings()
    solver = dataclasses.replace(s.node_solver, C=est.C_)
    st = oblique_start(est.path_.best_tree, X, y, 3, 0, np.arange(10), sample_weight)
    tree = at_surrogate_scale(st.tree, st.Z, y, solver, sample_weight=sample_weight)
    tree, hist = oblique_tao(tree, st.Z, y, solver, settings=s.loop, sample_weight=sample_weight)
    return unstandardize_tree(tree, st.x_mean, st.x_scale), len(hist) - 1, st.x_scale


@pytest.mark.parametrize('weighted', [False, True])
def test_refit_is_tao_at_the_chosen_C_on_all_rows(weighted):
    sw = W if weighted else None
    plain, refit = make(refit=False).fit(X, y, sample_weight=sw), make().fit(X, y, sample_weight=sw)
    assert (refit.start_, refit.C_) == (plain.start_, plain.C_)         # the choice is made before the refit
    np.testing.assert_array_equal(refit.path_.best_tree.W, plain.tree_.W)
    tree, sweeps, scale = refit_by_hand(refit, sw)
    np.testing.assert_array_equal(refit.tree_.W, tree.W)
    np.testing.assert_array_equal(refit.tree_.value, tree.value)
    assert refit.n_iter_ == plain.n_iter_ + sweeps
    assert not np.array_equal(refit.tree_.W, plain.tree_.W)            # the refit moved the tree
    # the refitted tree's importances, at the feature scales of all the rows
    np.testing.assert_allclose(refit.feature_importances_, feature_importances(tree, X, scale, sw))


def test_refit_with_cv_changes_nothing():
    "With `cv` the path is refitted on all the data already; `refit` adds no run."
    a, b = make(cv=3, refit=False).fit(X, y), make(cv=3).fit(X, y)
    np.testing.assert_array_equal(a.tree_.W, b.tree_.W)
    assert a.n_iter_ == b.n_iter_


@pytest.mark.parametrize('bad', [1, 'yes', None])
def test_bad_refit_is_refused_by_name(bad):
    with pytest.raises(ValueError, match='refit'):
        make(refit=bad).fit(X, y)
