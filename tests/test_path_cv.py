"""`TAOPathClassifier(cv=K)` (issue 26): C chosen by K-fold cross-validation from the selected start, then a refit.

Each check recomputes what the estimator claims from public pieces (`tao_path`, scikit-learn's `StratifiedKFold`, the
selection rule written out by hand), so a wrong fold, a wrong mean, a wrong rule or a wrong refit fails here.
"""
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_digits
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler

from tao_nb.estimators import TAOPathClassifier
from tao_nb.path import PathSettings, tao_path
from tao_nb.solvers.oblique import ObliqueSolver
from tao_nb.tao import TAOSettings

X, y = load_digits(return_X_y=True)
X, y = X[:600], y[:600]
CS = [1.0, 0.3, 0.1]
W = 1.0 + np.arange(len(y)) % 3                    # weights 1, 2, 3


def make(**k):
    return TAOPathClassifier(Cs=CS, max_depths=3, inits='cart', random_state=0, **k)


@pytest.fixture(scope='module')
def fitted():
    return make(cv=3).fit(X, y), make().fit(X, y)


@pytest.mark.parametrize('bad', [1, 0, -2, 'x', 2.5, True, np.inf])
def test_bad_cv_is_refused_by_name(bad):
    with pytest.raises(ValueError, match=r"cv must be None or a finite integer >= 2"):
        make(cv=bad).fit(X, y)


def test_cv_none_is_todays_fit(fitted):
    "cv=None sets no cross-validation; the start is chosen on the same split with or without cv."
    cvf, plain = fitted
    assert plain.cv_errors_ is None and plain.cv_paths_ is None and plain.path_ is plain.paths_[0]
    assert cvf.start_ == plain.start_
    for p, q in zip(cvf.paths_, plain.paths_):
        for a, b in zip(p.trees, q.trees): np.testing.assert_array_equal(a.W, b.W)


def test_chosen_C_is_the_rule_on_the_fold_means(fitted):
    clf = fitted[0]
    assert clf.cv_errors_.shape == clf.cv_nonzeros_.shape == (3, len(CS))
    mean, nz = clf.cv_errors_.mean(0), clf.cv_nonzeros_.mean(0)
    best = mean.min()
    width = 0.5 * np.sqrt(max(best * (1 - best), 1 / len(y)) / len(y))   # se=0.5, n = all training points
    near = [i for i in range(len(CS)) if mean[i] <= best + width + 1e-12]
    j = min(near, key=lambda i: (nz[i], mean[i], i))
    assert clf.C_ == CS[j] and clf.path_.best_index == j and len(clf.path_.Cs) == j + 1


def test_folds_and_refit_are_independent_paths(fitted):
    "Each fold's errors are tao_path's on scikit-learn's stratified folds; the tree is tao_path's on all the data."
    clf = fitted[0]
    # the estimator's default solver and stopping rule
    settings = PathSettings(ObliqueSolver(node_tol=1e-2, solver='auto'), TAOSettings(stop_on='loss'))
    folds = StratifiedKFold(3, shuffle=True, random_state=0).split(X, y)
    for f, (a, b) in enumerate(folds):
        ref = tao_path(X[a], y[a], CS, validation=(X[b], y[b]), max_depth=3, settings=settings, random_state=0)
        np.testing.assert_array_equal(clf.cv_errors_[f], ref['val_error'])
    j = clf.path_.best_index
    full = tao_path(X, y, CS[:j + 1], validation=(X, y), max_depth=3, settings=settings, random_state=0)
    np.testing.assert_array_equal(clf.tree_.W, full.trees[j].W)
    np.testing.assert_array_equal(clf.predict(X), full.predict(X, j))
    sweeps = sum(r['sweeps'] for p in [*clf.paths_, *clf.cv_paths_, clf.path_] for r in p.records)
    assert clf.n_iter_ == sweeps


def test_cv_in_a_pipeline_and_clone():
    pipe = make_pipeline(MinMaxScaler(), make(cv=2)).fit(X, y)
    assert pipe.score(X, y) > 0.7 and pipe[-1].cv_errors_.shape == (2, len(CS))
    alone = make(cv=2).fit(MinMaxScaler().fit_transform(X), y)
    np.testing.assert_array_equal(pipe[-1].cv_errors_, alone.cv_errors_)
    assert clone(pipe[-1]).get_params()['cv'] == 2 and not hasattr(clone(pipe[-1]), 'cv_errors_')


def test_weights_flow_into_the_folds():
    "Each fold's error is its tree's error weighted by the fold's rows; a class_weight dict is the same sample_weight."
    clf = make(cv=3).fit(X, y, sample_weight=W)
    for f, (a, b) in enumerate(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y)):
        errs = [np.average(p != y[b], weights=W[b]) for p in (clf.cv_paths_[f].predict(X[b], i) for i in range(3))]
        np.testing.assert_allclose(clf.cv_errors_[f], errs, rtol=0, atol=1e-12)
    assert not np.array_equal(clf.cv_errors_, make(cv=3).fit(X, y).cv_errors_)     # the weights mattered
    cw = {c: 1.0 + c % 3 for c in range(10)}
    a = make(cv=3, class_weight=cw).fit(X, y)
    b = make(cv=3).fit(X, y, sample_weight=np.array([cw[c] for c in y]))
    np.testing.assert_array_equal(a.cv_errors_, b.cv_errors_)
    np.testing.assert_array_equal(a.tree_.W, b.tree_.W)


def test_zero_weight_rows_are_dropped_before_the_folds():
    w = W * (np.arange(len(y)) % 7 != 0)
    keep = w > 0
    a, b = make(cv=3).fit(X, y, sample_weight=w), make(cv=3).fit(X[keep], y[keep], sample_weight=w[keep])
    np.testing.assert_array_equal(a.cv_errors_, b.cv_errors_)
    np.testing.assert_array_equal(a.tree_.W, b.tree_.W)


def test_folds_in_parallel_are_the_same(fitted):
    par = make(cv=3, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(par.cv_errors_, fitted[0].cv_errors_)
    np.testing.assert_array_equal(par.tree_.W, fitted[0].tree_.W)
