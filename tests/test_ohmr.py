"""OHMR-style regression trees: monotone training MSE (axis and oblique, true weights and OHMR's heuristic,
liblinear and CVXPY), exact axis search, TAO vs CART on real data, bad input, and scikit-learn's estimator
checks for the one-hot classification-as-regression estimator."""
import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_linnerud, make_regression
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

from tao_nb.tree import Tree, Split
from tao_nb.reduced import reduced_problem, squared_losses, mean_response, SQUARED
from tao_nb.solvers.axis import best_axis_split, axis_split_loss
from tao_nb.tree import standardizer
from tao_nb.tao import tao, tao_sweep, refit_values, tree_objective, TAOSettings, TAORun
from tao_nb.solvers.oblique import ObliqueSolver, SURROGATES, node_objective
from tao_nb.estimators import TAORegressor
from tao_nb.ohmr import OneHotTAOClassifier, HeuristicObliqueSolver

LIBLINEAR = [name for name, f in SURROGATES.items() if f.liblinear is not None]   # the surrogates liblinear solves
DATA = {'diabetes': load_diabetes(return_X_y=True), 'linnerud': load_linnerud(return_X_y=True),
        'generated': make_regression(1500, 10, n_informative=6, n_targets=3, noise=10.0, random_state=0)}


@pytest.mark.parametrize('name', list(DATA))
def test_training_mse_never_increases(name):
    X, Y = DATA[name]; Y = Y.reshape(len(Y), -1).astype(float)
    for seed in range(12):
        for depth in (1, 3, 5):
            if seed % 2: t0 = Tree.random(depth, X, Y, random_state=seed)
            else: t0 = Tree.from_sklearn(DecisionTreeRegressor(max_depth=depth, random_state=seed).fit(X, Y))
            t, hist = tao(t0, X, Y, SQUARED, settings=TAOSettings(max_iter=8, tol=0))
            sse0, sse = (float(((Y - u.predict_value(X)) ** 2).sum()) for u in (t0, t))   # recomputed from scratch
            assert np.isclose(hist[0], sse0, rtol=1e-9) and np.isclose(hist[-1], sse, rtol=1e-9), (seed, depth, hist, sse)
            assert sse <= sse0 * (1 + 1e-9), (seed, depth, sse0, sse)


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
    rows = []
    for depth in (2, 3, 4):
        for seed in range(3):
            Xtr, _, Ytr, _ = train_test_split(X, Y, test_size=0.3, random_state=seed)
            est = TAORegressor(max_depth=depth, random_state=seed).fit(Xtr, Ytr)
            mse = lambda P: float(np.mean((np.asarray(Ytr, dtype=np.float64).reshape(len(Ytr), -1) - P.reshape(len(P), -1)) ** 2))
            rows.append(dict(cart_train=mse(est.initial_tree_.predict_value(Xtr)), tao_train=mse(est.predict(Xtr))))
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
                          OneHotTAOClassifier(max_depth=3, init='random', random_state=0)],
                         # as TAOClassifier (tests/test_estimators.py): an unconstrained weighted tree, as
                         # DecisionTreeClassifier without min_weight_fraction_leaf, fails this noisy-blobs check. The
                         # random start passed it only while the node step ignored gains below an absolute 1e-10,
                         # i.e. every gain among the classes weighted 1e-4; gains count at any weight scale now (issue 27)
                         expected_failed_checks=lambda est: {'check_class_weight_classifiers': 'as DecisionTreeClassifier'})
def test_one_hot_classifier_sklearn_compatible(estimator, check):
    check(estimator)


# ---- oblique regression trees ------------------------------------------------------------------------------
OBLIQUE = {'diabetes': load_diabetes(return_X_y=True),
           'generated': make_regression(600, 8, n_informative=5, n_targets=3, noise=10.0, random_state=1)}


def _standardized(name, n=None, seed=0):
    "Inputs and responses of a data set (optionally a random subset of n rows), standardized."
    X, Y = OBLIQUE[name]; Y = Y.reshape(len(Y), -1).astype(float)
    if n is not None and n < len(X):
        keep = np.random.default_rng(seed).choice(len(X), n, replace=False); X, Y = X[keep], Y[keep]
    (mx, sx), (my, sy) = standardizer(X), standardizer(Y)
    return (X - mx) / sx, (Y - my) / sy


def _initial(X, Y, depth, seed):
    "CART rewritten as an oblique tree (even seeds) or a random oblique tree (odd seeds)."
    if seed % 2: return Tree.random(depth, X, Y, oblique=True, random_state=seed)
    return Tree.from_sklearn(DecisionTreeRegressor(max_depth=depth, random_state=seed).fit(X, Y)).to_oblique()


def _check_monotone(t0, X, Y, node_solver, n_sweeps):
    "Run sweeps by hand; E = SSE + lambda ||W||_1 (recomputed from scratch) must never increase."
    pen, t = node_solver.penalty, t0.copy()
    E = [tree_objective(t, X, Y, squared_losses, pen)]
    for _ in range(n_sweeps):
        tao_sweep(t, TAORun(X, Y, SQUARED, node_solver))
        refit_values(t, X, Y, mean_response)
        E.append(tree_objective(t, X, Y, squared_losses, pen))
        assert E[-1] <= E[-2] + 1e-9 * E[0], (node_solver, E)
    return np.array(E)


@pytest.mark.parametrize('name', list(OBLIQUE))
@pytest.mark.parametrize('Solver', [ObliqueSolver, HeuristicObliqueSolver], ids=['weights', 'heuristic'])
def test_oblique_objective_never_increases(name, Solver):
    decreased = 0
    for seed in range(30):
        X, Y = _standardized(name, n=300, seed=seed)
        depth, C = (2, 3, 4)[seed % 3], (0.1, 1.0, 10.0)[(seed // 3) % 3]
        surrogate = LIBLINEAR[(seed // 2) % len(LIBLINEAR)]
        if Solver is HeuristicObliqueSolver and surrogate == 'logistic':
            C = min(C, 1.0)   # liblinear's logistic solver crawls on t-scaled rows at large C (see 09_ohmr)
        E = _check_monotone(_initial(X, Y, depth, seed), X, Y, Solver(C, surrogate), n_sweeps=4)
        decreased += E[-1] < E[0] * (1 - 1e-6)
    assert decreased >= 20                                            # and it does optimize


@pytest.mark.parametrize('case', [('diabetes', 'svm', 1.0), ('generated', 'hinge', 0.3), ('diabetes', 'modified_huber', 1.0)])
def test_oblique_objective_never_increases_cvxpy(case):
    name, surrogate, C = case
    X, Y = _standardized(name, n=120, seed=3)
    for seed in (0, 1, 2):
        _check_monotone(_initial(X, Y, 2, seed), X, Y, ObliqueSolver(C, surrogate, 'cvxpy'), n_sweeps=2)


def test_heuristic_solver_is_the_unweighted_fit_on_scaled_rows():
    from sklearn.svm import LinearSVC
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 4)); lab = (X[:, 1] - X[:, 2] > 0.3).astype(int); t = rng.exponential(size=150)
    fit = HeuristicObliqueSolver(C=1.0).fit_surrogate(X, lab, t)
    Xa = np.column_stack([X, np.ones(150)]) * t[:, None]
    ref = LinearSVC(penalty='l1', loss='squared_hinge', dual=False, fit_intercept=False, C=1.0, random_state=0).fit(Xa, lab)
    np.testing.assert_allclose(np.r_[fit.w, -fit.b], ref.coef_[0], rtol=1e-12, atol=1e-12)
    for trial in range(50):                                           # the rejection step: never worse than current
        m, D = int(rng.integers(2, 40)), int(rng.integers(1, 5))
        Xm, lm, tm = rng.normal(size=(m, D)), rng.integers(0, 2, m), rng.exponential(size=m)
        cur = Split(-1, rng.normal(size=D), float(rng.normal()))
        S = HeuristicObliqueSolver(C=float(rng.choice([0.1, 1.0, 10.0])), surrogate=str(rng.choice(LIBLINEAR)))
        new = S(Xm, lm, tm, cur)
        if new is not None:
            assert node_objective(Xm, lm, tm, new.weights, new.threshold, S.lam) < node_objective(Xm, lm, tm, cur.weights, cur.threshold, S.lam)
    with pytest.raises(ValueError, match="'svm' or 'logistic'"): HeuristicObliqueSolver(surrogate='hinge')


@pytest.mark.parametrize('name', ['diabetes', 'linnerud', 'generated'])
def test_oblique_regressor_never_worse_than_cart_on_training_sse(name):
    X, Y = DATA[name]; Y = Y.reshape(len(Y), -1).astype(float)
    if name == 'generated': X, Y = X[:600], Y[:600]
    better = 0
    for seed in range(3):
        for depth in (2, 4):
            C = (1.0, 0.1)[seed % 2]
            est = TAORegressor(max_depth=depth, split_type='oblique', C=C, random_state=seed, max_iter=6).fit(X, Y)
            cart = DecisionTreeRegressor(max_depth=depth, random_state=seed).fit(X, Y)
            sse_cart = float(((Y - cart.predict(X).reshape(len(X), -1)) ** 2).sum())
            sse_tao = float(((Y - est.predict(X).reshape(len(X), -1)) ** 2).sum())
            h = est.history_
            # TAO starts at CART: E_0 = SSE(CART) + lambda * (one unit weight per decision node)
            np.testing.assert_allclose(h[0], sse_cart + cart.tree_.node_count // 2 / C, rtol=1e-9)
            assert sse_tao <= sse_cart * (1 + 1e-9), (seed, depth, sse_tao, sse_cart)
            better += sse_tao < sse_cart * (1 - 1e-6)
    if name != 'linnerud': assert better >= 4


# 17_ohmr's prose and README row quote only printed numbers: tests/test_prose_numbers.py (every notebook).
