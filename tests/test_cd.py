"""The compiled node solver `solver='cd'` (09): liblinear's coordinate descent for the L1 squared hinge on one float32
copy of a node's rows. It must reach the surrogate's optimum, leave the inputs alone, hold no more than that copy,
and work wherever liblinear does (screening, the estimators); TAO's monotone objective with it: test_oblique.py."""
import tracemalloc

import numpy as np
import pytest
from sklearn.datasets import load_digits

from tao_nb.estimators import TAOClassifier, TAOPathClassifier
from tao_nb.solvers.oblique import (ObliqueSolver, cd_l1, fit_cd, fit_cvxpy, fit_liblinear, liblinear_l1,
                                    screened_l1, surrogate_objective)
from tao_nb.tree import standardizer

X_DIG, Y_DIG = load_digits(return_X_y=True)
MU, SD = standardizer(X_DIG)
Z_DIG = (X_DIG - MU) / SD


def random_problem(rng):
    "A small node problem of random size, scale, weights and C (as test_oblique's certificate test)."
    m, D = int(rng.integers(8, 80)), int(rng.integers(1, 10))
    X = rng.normal(size=(m, D)) * rng.choice([0.1, 1.0, 10.0])
    lab = (X[:, 0] + rng.normal(size=m) > 0).astype(int)
    if lab.min() == lab.max(): lab[0] = 1 - lab[0]
    return X, lab, rng.exponential(size=m) + 0.05, float(10 ** rng.uniform(-1.5, 1.5))


@pytest.mark.parametrize('seed', range(4))
def test_cd_reaches_the_certified_optimum(seed):
    "At a tight tolerance the objective is CVXPY's certified optimum to 1e-6 relative, at any scale of X."
    rng = np.random.default_rng(seed)
    for _ in range(10):
        X, lab, wt, C = random_problem(rng)
        cd = fit_cd(X, lab, wt, ObliqueSolver(C, solver='cd', node_tol=1e-8, node_max_iter=100_000))
        exact = fit_cvxpy(X, lab, wt, ObliqueSolver(C, solver='cvxpy'))
        assert abs(cd.objective - exact.objective) <= 1e-6 * exact.objective, (cd.objective, exact.objective)


def test_cd_matches_liblinear_at_the_paths_tolerance():
    "At the paths' node_tol = 1e-2 the two solve the same problem to within a few per cent of P (both stop early)."
    rng = np.random.default_rng(0)
    for k in range(6):
        lab = (Y_DIG == k).astype(int) if k % 2 else (Y_DIG < 5).astype(int)
        wt, C = rng.exponential(size=len(lab)) + 0.05, [0.03, 0.3, 3.0][k % 3]
        lib = fit_liblinear(Z_DIG, lab, wt, ObliqueSolver(C, node_tol=1e-2))
        cd = fit_cd(Z_DIG, lab, wt, ObliqueSolver(C, solver='cd', node_tol=1e-2))
        assert abs(cd.objective - lib.objective) <= 0.05 * lib.objective, (k, cd.objective, lib.objective)


def test_cd_leaves_its_inputs_alone_and_is_deterministic():
    X, lab, wt = Z_DIG[:300].copy(), (Y_DIG[:300] < 5).astype(int), np.linspace(0.5, 2, 300)
    before = (X.copy(), lab.copy(), wt.copy())
    st = ObliqueSolver(0.5, solver='cd', random_state=3)
    w1, c1 = cd_l1(X, lab, wt, st)
    w2, c2 = cd_l1(X, lab, wt, st)
    for a, b in zip((X, lab, wt), before): np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(w1, w2)
    assert c1 == c2


def test_cd_holds_one_float32_copy():
    "Python-side peak during a solve: the float32 copy (half the float64 rows) plus O(m + D) vectors."
    X = np.random.default_rng(0).normal(size=(4000, 100))
    lab = (X[:, :3].sum(1) > 0).astype(int)
    st = ObliqueSolver(0.1, solver='cd')
    cd_l1(X[:50], lab[:50], None, st)                         # compiled before measuring
    tracemalloc.start()
    cd_l1(X, lab, None, st)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak <= 0.5 * X.nbytes * (101 / 100) + 16 * 8 * (4000 + 101), peak / X.nbytes


def test_cd_without_intercept_and_errors():
    "Without an intercept it minimizes P with c = 0 as liblinear does; clear errors for what it cannot solve."
    rng = np.random.default_rng(5)
    X, lab = rng.normal(size=(60, 4)), (rng.normal(size=60) > 0).astype(int)
    st = ObliqueSolver(0.3, solver='cd', node_tol=1e-8, node_max_iter=100_000)
    w, _ = cd_l1(X, lab, None, st, fit_intercept=False)
    ref, _ = liblinear_l1(X, lab, None, ObliqueSolver(0.3, node_tol=1e-8, node_max_iter=100_000), fit_intercept=False)
    P = [surrogate_objective(X, lab, np.ones(60), v, 0.0, st) for v in (w, ref)]
    assert abs(P[0] - P[1]) <= 1e-6 * P[1], P
    with pytest.raises(ValueError, match="solver='cd' solves surrogate='svm' only"):
        ObliqueSolver(solver='cd', surrogate='logistic')
    with pytest.raises(ValueError, match='both pseudo-labels'): fit_cd(Z_DIG, np.ones(len(Y_DIG)), np.ones(len(Y_DIG)))


def test_screening_with_cd_reaches_the_full_objective():
    "`screened_l1` calls the solver the settings name: with 'cd', a working set smaller than the features, P as cd's."
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 200))
    lab = (X[:, 0] - X[:, 1] + 0.2 * rng.normal(size=300) > 0).astype(int)
    st = ObliqueSolver(0.01, solver='cd', node_tol=1e-6, node_max_iter=100_000, screen=1.0)
    fs = screened_l1(X, lab, np.ones(300), st)
    full = fit_cd(X, lab, np.ones(300), st)
    P = surrogate_objective(X, lab, np.ones(300), fs.w, fs.c, st)
    assert fs.working.sum() < 100 and abs(P - full.objective) <= 1e-4 * full.objective, (fs.working.sum(), P, full)


def test_estimators_take_solver_cd():
    "The oblique estimators fit with solver='cd' about as well as with liblinear on digits (half of it held out)."
    Xa, ya, Xb, yb = X_DIG[::2], Y_DIG[::2], X_DIG[1::2], Y_DIG[1::2]
    models = {'tree': lambda s: TAOClassifier(max_depth=6, split_type='oblique', C=1.0, solver=s, random_state=0),
              'path': lambda s: TAOPathClassifier(Cs=[1.0, 0.1], max_depths=4, inits='oblique', solver=s, random_state=0)}
    for name, make in models.items():
        acc = {s: make(s).fit(Xa, ya).score(Xb, yb) for s in ('liblinear', 'cd')}
        assert acc['cd'] >= acc['liblinear'] - 0.03, (name, acc)


def test_compiled_passes_draw_numpys_orders():
    """The pass loop runs compiled (`_cd_passes`): numba's generator must shuffle as numpy's does, so that its
    iterates are those of the same loop in Python over the compiled pass (a weaker generator would change the trees)."""
    from tao_nb.solvers import oblique
    X, lab, wt = Z_DIG[:400], (Y_DIG[:400] < 5).astype(int), np.linspace(0.5, 2, 400)
    for seed, C in ((0, 0.05), (1, 1.0), (2, 20.0)):
        st = ObliqueSolver(C, solver='cd', random_state=seed)
        w, c = cd_l1(X, lab, wt, st)                      # compiles the kernels: `_cd_pass` is compiled since
        s = np.where(lab == 1, 1.0, -1.0)
        Xs = np.ascontiguousarray(np.vstack([(X * s[:, None]).T, s * st.intercept_scaling]), np.float32)  # rows: C order
        q = np.append(np.einsum('nj,nj,n->j', X, X, C * wt), st.intercept_scaling ** 2 * (C * wt).sum())
        v, r, index = np.zeros(len(Xs)), np.ones(len(X)), np.arange(len(Xs))
        rng, active, cut = np.random.default_rng(seed), len(Xs), np.inf
        eps = st.node_tol * min(lab.sum(), len(lab) - lab.sum()) / len(lab)
        for it in range(st.node_max_iter):                # the loop in Python, numpy's generator
            rng.shuffle(index[:active])
            active, vmax, vsum = oblique._cd_pass(Xs, C * wt, v, r, q, index, active, cut)
            ref = vsum if it == 0 else ref
            if vsum > eps * ref: cut = vmax / len(X)
            elif active == len(Xs): break
            else: active, cut = len(Xs), np.inf
        np.testing.assert_array_equal(w, v[:-1])
        assert c == v[-1] * st.intercept_scaling


def test_cd_runs_a_levels_nodes_in_threads(monkeypatch):
    """With `solver='cd'` (`prefer_threads`: the compiled passes release the GIL) joblib's pool of a fit is threads,
    one process and one X; liblinear, which serializes its fits in a process, keeps processes. The same trees."""
    import importlib
    tao_mod, kinds = importlib.import_module('tao_nb.tao'), []
    class Spy(tao_mod.Parallel):
        def __enter__(self):
            kinds.append(type(self._backend).__name__)
            return super().__enter__()
    monkeypatch.setattr(tao_mod, 'Parallel', Spy)
    X, y = X_DIG[:500], Y_DIG[:500]
    for solver, kind in (('cd', 'ThreadingBackend'), ('liblinear', 'LokyBackend')):
        fit = lambda n_jobs: TAOClassifier(max_depth=3, split_type='oblique', solver=solver, n_jobs=n_jobs,
                                           random_state=0).fit(X, y).tree_
        serial, pooled = fit(None), fit(2)
        assert kinds[-1] == kind, (solver, kinds)
        np.testing.assert_array_equal(serial.W, pooled.W)
        np.testing.assert_array_equal(serial.threshold, pooled.threshold)
