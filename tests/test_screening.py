"""Issue 28: screening for the node's L1 problem (`screened_l1`, 09) — liblinear on a working set of features,
grown by a KKT check of the left-out ones."""
import numpy as np
import pytest

from tao_nb.solvers.oblique import ObliqueSolver, SURROGATES, liblinear_l1, screened_l1, surrogate_objective
from tao_nb.tree import Split


def problem(seed, m=150, D=60, informative=4):
    "A node problem whose labels depend on a few features; real weights."
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, D))
    w = np.zeros(D)
    w[rng.choice(D, informative, replace=False)] = rng.normal(size=informative) * 2
    label = (X @ w + 0.3 * rng.normal(size=m) > 0).astype(np.int64)
    return X, label, rng.exponential(size=m) + 0.1


def kkt_violations(X, label, weight, settings, w, c):
    "max(0, |dL/dw_j| - 1) at (w, c), computed from scratch."
    s, f = 2.0 * (label == 1) - 1, SURROGATES[settings.surrogate]
    g = X.T @ (s * settings.C * weight * f.slope(s * (X @ w + c)))
    return np.maximum(np.abs(g) - 1, 0)


@pytest.mark.parametrize('surrogate', ['svm', 'logistic'])
@pytest.mark.parametrize('seed', range(6))
def test_working_set_solve_reaches_the_full_objective(surrogate, seed):
    X, label, weight = problem(seed)
    C = [0.02, 0.1, 0.5][seed % 3]
    st = ObliqueSolver(C, surrogate, node_tol=1e-8, node_max_iter=100_000, screen=1.0)
    rng = np.random.default_rng(100 + seed)
    start = (rng.normal(size=X.shape[1]) * (rng.random(X.shape[1]) < 0.1), 0.1) if seed % 2 else None
    fit = screened_l1(X, label, weight, st, start)
    w, c = liblinear_l1(X, label, weight, st)
    full, screened = (surrogate_objective(X, label, weight, v, b, st) for v, b in ((w, c), (fit.w, fit.c)))
    assert abs(screened - full) <= 1e-5 * full, (screened, full)
    assert fit.violation <= fit.budget
    assert not fit.w[~fit.working].any()                          # left-out features are at 0
    v = kkt_violations(X, label, weight, st, fit.w, fit.c)
    assert v[~fit.working].sum() == pytest.approx(fit.violation, rel=1e-9, abs=1e-12)


def test_a_feature_left_out_that_must_enter_is_added():
    "The start's working set is feature 0 alone; the labels need features 0, 1 and 2: the KKT check adds them."
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 30))
    label = (X[:, 0] + X[:, 1] - X[:, 2] > 0).astype(np.int64)
    weight = np.ones(200)
    start = (np.eye(30)[0], 0.0)
    st = ObliqueSolver(0.05, node_tol=1e-6, node_max_iter=100_000, screen=1e9)   # no gradient passes tau
    fit = screened_l1(X, label, weight, st, start)
    assert fit.rounds >= 2                                         # solved again after the check
    assert fit.working[[0, 1, 2]].all() and fit.working.sum() < 15   # (at most half: not the full problem)
    assert (fit.w[[1, 2]] != 0).all()
    w, c = liblinear_l1(X, label, weight, st)
    full = surrogate_objective(X, label, weight, w, c, st)
    assert surrogate_objective(X, label, weight, fit.w, fit.c, st) <= full * (1 + 1e-4)
    # the first working set alone leaves feature 1 violating its KKT condition by far
    w1, c1 = liblinear_l1(X[:, [0]], label, weight, st)
    assert kkt_violations(X, label, weight, st, np.eye(30)[0] * w1[0], c1)[1] > 1


def test_a_large_working_set_solves_the_full_problem():
    "Over half of the features: liblinear on all of them, bit for bit `liblinear_l1`."
    X, label, weight = problem(3)
    st = ObliqueSolver(0.1, node_tol=1e-3, screen=1e-9)            # every feature with a gradient enters
    fit = screened_l1(X, label, weight, st)
    assert fit.working.all()
    w, c = liblinear_l1(X, label, weight, st)
    np.testing.assert_array_equal(fit.w, w)
    assert fit.c == c


def test_node_step_with_screening():
    "The node step screens at the current split; the rejection step still guards; the context names the start."
    X, label, weight = problem(4)
    st = ObliqueSolver(0.3, screen=1.0)
    first = st(X, label, weight, None)
    assert first is not None and np.count_nonzero(first.weights) < X.shape[1]
    again = st(X, label, weight, first)
    assert again is None or again.weights is not None
    assert st.context_key(first) != st.context_key(Split(-1, 2 * first.weights, first.threshold))
    assert ObliqueSolver(0.3).context_key(first) == b''                      # no screening: as before
    with pytest.raises(ValueError): ObliqueSolver(screen=-1.0)


def test_propose_matches_fit_surrogate_without_screening():
    "The node step's lean liblinear solve is `fit_surrogate`'s (w, b), bit for bit."
    X, label, weight = problem(5)
    st = ObliqueSolver(0.2)
    lean, full = st.propose(X, label, weight), st.fit_surrogate(X, label, weight)
    np.testing.assert_array_equal(lean.w, full.w)
    assert lean.b == full.b
