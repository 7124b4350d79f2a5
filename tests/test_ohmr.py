"""OHMR-style regression trees: monotone training MSE, exact axis search, TAO vs CART on real data, bad input,
and scikit-learn's estimator checks for the one-hot classification-as-regression estimator."""
import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_linnerud, make_regression
from sklearn.tree import DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

from tao_nb.tree import Tree, Split
from tao_nb.reduced import reduced_problem, squared_loss
from tao_nb.solvers.axis import best_axis_split, axis_split_loss
from tao_nb.tao import tao, mean_response
from tao_nb.estimators import TAORegressor
from tao_nb.ohmr import cart_vs_tao, OneHotTAOClassifier

DATA = {'diabetes': load_diabetes(return_X_y=True), 'linnerud': load_linnerud(return_X_y=True),
        'generated': make_regression(1500, 10, n_informative=6, n_targets=3, noise=10.0, random_state=0)}


@pytest.mark.parametrize('name', list(DATA))
def test_training_mse_never_increases(name):
    X, Y = DATA[name]; Y = Y.reshape(len(Y), -1).astype(float)
    for seed in range(12):
        for depth in (1, 3, 5):
            if seed % 2: t0 = Tree.random(depth, X, Y, random_state=seed)
            else: t0 = Tree.from_sklearn(DecisionTreeRegressor(max_depth=depth, random_state=seed).fit(X, Y))
            _, hist = tao(t0, X, Y, loss=squared_loss, fit_leaf=mean_response, max_iter=8, tol=0)
            assert np.all(np.diff(hist) <= 1e-9 * hist[0]), (seed, depth, hist)


def _brute_force(X, zL, zR):
    "min over features, thresholds at/between observed values and orientations of sum_i z_i^{f(x_i)} (eq. 9)."
    best = min(zL.sum(), zR.sum())
    for k in range(X.shape[1]):
        vals = np.unique(X[:, k])
        for b in np.r_[vals, (vals[1:] + vals[:-1]) / 2]:
            for swap in (False, True):
                best = min(best, np.where((X[:, k] > b) != swap, zR, zL).sum())
    return best


def test_exact_axis_search_equals_brute_force():
    rng = np.random.default_rng(0)
    for trial in range(400):
        m, D = int(rng.integers(1, 18)), int(rng.integers(1, 4))
        X = rng.integers(0, 4, size=(m, D)).astype(float)                 # ties
        zL, zR = rng.exponential(size=m), rng.exponential(size=m)          # real costs (squared errors)
        label, t = reduced_problem(zL, zR)
        s = best_axis_split(X, label, t)
        np.testing.assert_allclose(np.minimum(zL, zR).sum() + axis_split_loss(X, label, t, s),
                                   _brute_force(X, zL, zR), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize('name', list(DATA))
def test_tao_never_worse_than_cart_on_training_mse(name):
    X, Y = DATA[name]
    rows = cart_vs_tao(X, Y, depths=(2, 3, 4), seeds=range(3))
    for r in rows: assert r['tao_train'] <= r['cart_train'] * (1 + 1e-12), r
    if name != 'linnerud':  # linnerud's 14 training points: CART is already a TAO fixed point
        assert np.mean([r['tao_train'] for r in rows]) < np.mean([r['cart_train'] for r in rows])
        assert any(r['tao_train'] < r['cart_train'] * (1 - 1e-6) for r in rows)


def test_bad_targets_raise_clear_errors():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3)); Y = X[:, :2].copy()
    nan, inf = Y.copy(), Y.copy(); nan[3, 1] = np.nan; inf[5, 0] = -np.inf
    for est in (TAORegressor(max_depth=2),):
        with pytest.raises(ValueError, match='NaN'): est.fit(X, nan)
        with pytest.raises(ValueError, match='infinity'): est.fit(X, inf)
        with pytest.raises(ValueError, match='inconsistent numbers of samples'): est.fit(X, Y[:-1])
        with pytest.raises(ValueError, match='dim 3'): est.fit(X, Y[:, :, None])
    with pytest.raises(ValueError, match='inconsistent numbers of samples'): OneHotTAOClassifier(max_depth=2).fit(X, np.arange(29) % 2)
    with pytest.raises(ValueError, match='Unknown label type'): OneHotTAOClassifier(max_depth=2).fit(X, rng.normal(size=30))
    with pytest.raises(ValueError): OneHotTAOClassifier(max_depth=2).fit(X, np.zeros((30, 2, 2)))


def test_one_hot_probabilities_are_class_frequencies():
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True)
    clf = OneHotTAOClassifier(max_depth=3, random_state=0).fit(X, y)
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P.sum(1), 1.0)
    leaves = clf.apply(X)
    for leaf in np.unique(leaves):
        np.testing.assert_allclose(P[leaves == leaf][0], np.bincount(y[leaves == leaf], minlength=3) / (leaves == leaf).sum())
    assert clf.score(X, y) > 0.9


@parametrize_with_checks([OneHotTAOClassifier(max_depth=3, random_state=0),
                          OneHotTAOClassifier(max_depth=3, init='random', random_state=0)])
def test_one_hot_classifier_sklearn_compatible(estimator, check):
    check(estimator)
