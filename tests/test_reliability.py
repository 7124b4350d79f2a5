"""Issue 27: no silent wrong answers. Each test reproduces a defect found by adversarial use (the issue's numbering)."""
import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_digits, make_classification

from tao_nb import TAOClassifier, TAORegressor, tao_path
from tao_nb.reduced import squared_losses

X_DIG, Y_DIG = load_digits(return_X_y=True)
X_DIG, Y_DIG = X_DIG[:300], Y_DIG[:300]


def _same_tree(a, b):
    for k in ('left', 'right', 'feature'): np.testing.assert_array_equal(getattr(a, k), getattr(b, k), err_msg=k)
    np.testing.assert_allclose(a.threshold, b.threshold, rtol=0, atol=0)


# 4: the answer must not depend on the scale of the weights (axis-aligned nodes have no penalty to weigh them against)
@pytest.mark.parametrize('k', [-100, -12, -6, 0, 6, 12, 100])
def test_uniform_weights_of_any_scale_give_the_unweighted_tree(k):
    w = np.full(len(Y_DIG), 10.0 ** k)
    ref = TAOClassifier(max_depth=4, random_state=0).fit(X_DIG, Y_DIG)
    got = TAOClassifier(max_depth=4, random_state=0).fit(X_DIG, Y_DIG, sample_weight=w)
    _same_tree(got.tree_, ref.tree_)
    assert len(got.history_) == len(ref.history_) and got.history_[-1] < got.history_[0]


def test_regression_weights_of_any_scale():
    X, y = make_classification(60, 5, random_state=0)[0], np.random.default_rng(0).normal(size=60)
    ref = TAORegressor(max_depth=3, random_state=0).fit(X, y)
    for k in (-12, -3, 3, 12):
        got = TAORegressor(max_depth=3, random_state=0).fit(X, y, sample_weight=np.full(60, 10.0 ** k))
        _same_tree(got.tree_, ref.tree_)
        np.testing.assert_allclose(got.history_ / 10.0 ** k, ref.history_, rtol=1e-9)


def test_integer_weight_scales_agree_across_many_random_problems():
    """500 seeded random problems: weights w and 10**k * w give the same axis tree (k from -12 to 12). (A random start,
    init='random', places thresholds at weighted ranks counted in units of weight, so that integer weights are
    repeated rows: its start depends on the weights' scale by design; `00_tree` says so.)"""
    rng = np.random.default_rng(27)
    for case in range(500):
        X = rng.normal(size=(80, 4)).round(1)
        y = (X[:, 0] + rng.normal(scale=0.7, size=80) > 0).astype(int) + (X[:, 1] > 0.5)
        w = rng.integers(1, 4, 80).astype(float)
        k = int(rng.integers(-12, 13))
        a = TAOClassifier(max_depth=3, random_state=case).fit(X, y, sample_weight=w)
        b = TAOClassifier(max_depth=3, random_state=case).fit(X, y, sample_weight=w * 10.0 ** k)
        _same_tree(a.tree_, b.tree_)


# 7: validation labels never seen in training
def test_tao_path_refuses_unseen_validation_labels():
    with pytest.raises(ValueError, match='never seen in y'):
        tao_path(X_DIG[:200], Y_DIG[:200] % 3, Cs=[1.0], validation=(X_DIG[200:], Y_DIG[200:]), max_depth=2)


# 8: history_ never increases, and records the returned tree's objective
def test_history_records_the_returned_trees_objective():
    """history_ is non-increasing by construction (a rise within rounding is recorded as no change, 07); what can
    fail: its last value must still be the returned tree's squared error, recomputed from scratch."""
    X, y = load_diabetes(return_X_y=True)
    for seed in range(40):
        rows = np.random.default_rng(seed).choice(len(y), 120, replace=False)
        est = TAORegressor(max_depth=4, init='random', random_state=seed, tol=0.0, max_iter=6).fit(X[rows], y[rows])
        sse = squared_losses(y[rows][:, None], est.tree_.predict_value(X[rows])[:, :1]).sum()
        np.testing.assert_allclose(est.history_[-1], sse, rtol=1e-9)      # pruning keeps the training predictions


# 11: choices given as numpy strings (e.g. from a numpy array in a parameter grid)
def test_numpy_strings_are_accepted_for_choices():
    est = TAOClassifier(max_depth=2, init=np.str_('cart'), split_type=np.str_('axis'), random_state=0)
    est.fit(X_DIG, Y_DIG)
    ref = TAOClassifier(max_depth=2, random_state=0).fit(X_DIG, Y_DIG)
    _same_tree(est.tree_, ref.tree_)


# 12: an absurd depth says that the depth is too large
def test_absurd_depth_is_refused_clearly():
    with pytest.raises(ValueError, match='max_depth=100000 is too large'):
        TAOClassifier(max_depth=10**5, init='random').fit(X_DIG, Y_DIG)


# 13: a misspelt init lists every valid choice
def test_misspelt_init_lists_oblique():
    with pytest.raises(ValueError, match="'oblique'"):
        tao_path(X_DIG, Y_DIG, Cs=[1.0], init='carts', max_depth=2)


# 1: class_weight with a negative weight or a label that y does not have
def test_class_weight_is_checked():
    y = np.arange(60) % 3
    X = np.random.default_rng(0).normal(size=(60, 4))
    with pytest.raises(ValueError, match='finite numbers >= 0'):
        TAOClassifier(max_depth=3, class_weight={0: -1.0, 1: 1.0, 2: 1.0}).fit(X, y)
    with pytest.raises(ValueError, match=r'labels that are not in y: \[99\]'):
        TAOClassifier(max_depth=3, class_weight={0: 1.0, 1: 1.0, 2: 1.0, 99: 5.0}).fit(X, y)


# 10: targets whose squares overflow
@pytest.mark.parametrize('split_type', ['axis', 'oblique'])
def test_huge_targets_get_one_clear_error(split_type):
    X = np.random.default_rng(0).normal(size=(60, 4))
    with pytest.raises(ValueError, match='too large for the squared error'):
        TAORegressor(max_depth=3, split_type=split_type).fit(X, X[:, 0] * 1e160)
    TAORegressor(max_depth=3, split_type=split_type).fit(X, X[:, 0] * 1e100)      # large but fine


# 9: `import tao_nb` for a user who can write neither the installed package nor a home (numba finds no cache location)
def test_import_and_fit_without_a_writable_cache_location():
    import os
    import shutil
    import subprocess
    import sys
    if os.geteuid() != 0 or not shutil.which('setpriv'): pytest.skip('needs root and setpriv to become another user')
    user = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']       # nobody: the package is root's
    env = {'PATH': '/usr/bin:/bin', 'HOME': '/'}
    if subprocess.run(user + [sys.executable, '-c', 'pass'], env=env, cwd='/').returncode:
        pytest.skip("this Python is not readable by another user")
    code = ("import tao_nb; from sklearn.datasets import load_digits; X, y = load_digits(return_X_y=True); "
            "print(tao_nb.SDTClassifier(max_depth=3, random_state=0).fit(X, y).score(X, y) > 0.4)")
    out = subprocess.run(user + [sys.executable, '-c', code], env=env, cwd='/', capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == 'True', out.stderr[-2000:]
    assert out.stderr.count("RuntimeWarning: no writable location for numba's cache") == 1, out.stderr[-2000:]


# 2: a class whose rows all have weight 0 stays a class (as scikit-learn's trees keep it)
def test_a_weightless_class_stays_in_classes():
    from tao_nb import OneHotTAOClassifier, SDTClassifier, TAOPathClassifier
    y = Y_DIG % 4
    w = np.where(y == 2, 0.0, 1.0)
    for est in [TAOClassifier(max_depth=3, random_state=0), TAOClassifier(max_depth=3, init='random', random_state=0),
                TAOClassifier(max_depth=3, split_type='oblique', init='oblique', random_state=0),
                TAOPathClassifier(Cs=[1.0, 0.3], max_depths=3, random_state=0), SDTClassifier(max_depth=3, random_state=0),
                OneHotTAOClassifier(max_depth=3, random_state=0)]:
        est.fit(X_DIG, y, sample_weight=w)
        P = est.predict_proba(X_DIG)
        assert list(est.classes_) == [0, 1, 2, 3] and P.shape == (len(y), 4), type(est).__name__
        assert P[:, 2].max() == 0 and np.allclose(P.sum(1), 1), type(est).__name__
