"""Sparse oblique TAO: monotone objective over many seeds (both backends), solver agreement, path monotonicity, bad input."""
import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.tree import DecisionTreeClassifier

from tao_nb.tree import Tree, Split, standardizer, standardize_tree, unstandardize_tree
from tao_nb.tao import tao, TAOSettings
from tao_nb.solvers.oblique import ObliqueSolver, SURROGATES, fit_liblinear, fit_cvxpy, node_objective
from tao_nb.path import tao_path, PathSettings
from tao_nb.estimators import TAOClassifier, TAORegressor

X_DIG, Y_DIG = load_digits(return_X_y=True)
MU, SD = standardizer(X_DIG)
Z_DIG = (X_DIG - MU) / SD
LIBLINEAR = [name for name, f in SURROGATES.items() if f.liblinear is not None]   # the surrogates liblinear solves


@pytest.mark.parametrize('seed', range(40))
def test_objective_monotone_liblinear(seed):
    "E = 0/1 loss + lambda * sum ||w||_1 never increases across sweeps (CART or random start, svm or logistic)."
    monotone_run(seed, 'svm' if seed % 4 < 2 else 'logistic', 'liblinear')


@pytest.mark.parametrize('seed', range(8))
def test_objective_monotone_cd(seed):
    "The same with the compiled solver `solver='cd'` (squared hinge only)."
    monotone_run(seed, 'svm', 'cd')


def monotone_run(seed, surrogate, solver):
    "A few TAO sweeps from a CART or random start on 400 digits (`tao` raises if E rises); the history is the tree's E."
    rng = np.random.default_rng(seed)
    idx = rng.choice(len(Y_DIG), 400, replace=False)
    Z, y = Z_DIG[idx], Y_DIG[idx]
    depth, C = int(rng.integers(2, 7)), float(10 ** rng.uniform(-1.5, 1.5))
    if seed % 2: tree = Tree.random(depth, Z, np.eye(10)[y], oblique=True, random_state=seed)
    else: tree = standardize_tree(Tree.from_sklearn(DecisionTreeClassifier(max_depth=depth, random_state=seed).fit(Z, y)), 0 * MU, 0 * SD + 1)
    node_solver = ObliqueSolver(C, surrogate, solver)
    t, hist = tao(tree, Z, y, node_solver=node_solver, settings=TAOSettings(max_iter=6, tol=0))
    np.testing.assert_allclose(hist[-1], objective_of(t, Z, y, C), rtol=1e-9)     # the history is the tree's E


def objective_of(tree, Z, y, C):
    "E recomputed from scratch: training errors + sum of the decision nodes' ||w||_1 / C (tao raises if E rises)."
    return float((tree.predict_value(Z).argmax(1) != y).sum() + np.abs(tree.W[~tree.is_leaf]).sum() / C)


@pytest.mark.parametrize('seed', range(6))
def test_objective_monotone_cvxpy(seed):
    "The same with the exact CVXPY node solver (small problems)."
    rng = np.random.default_rng(100 + seed)
    idx = rng.choice(len(Y_DIG), 120, replace=False)
    Z, y = Z_DIG[idx][:, ::4], Y_DIG[idx] % 3
    C = float(10 ** rng.uniform(-1, 1))
    tree = Tree.random(2, Z, np.eye(3)[y], oblique=True, random_state=seed)
    surrogate = list(SURROGATES)[seed % len(SURROGATES)]
    t, hist = tao(tree, Z, y, node_solver=ObliqueSolver(C, surrogate, 'cvxpy'), settings=TAOSettings(max_iter=3, tol=0))
    np.testing.assert_allclose(hist[-1], objective_of(t, Z, y, C), rtol=1e-9)


@pytest.mark.parametrize('seed', range(4))
def test_backends_agree(seed):
    "liblinear and CVXPY reach the same surrogate objective (1e-4 relative) with real-valued weights."
    rng = np.random.default_rng(seed)
    idx = rng.choice(len(Y_DIG), 300, replace=False)
    Z, lab = Z_DIG[idx], (Y_DIG[idx] == seed).astype(int)
    wt = rng.exponential(size=len(lab))
    surrogate = LIBLINEAR[seed % len(LIBLINEAR)]
    fl = fit_liblinear(Z, lab, wt, ObliqueSolver(1.0, surrogate, node_tol=1e-8, node_max_iter=100_000))
    fc = fit_cvxpy(Z, lab, wt, ObliqueSolver(1.0, surrogate))
    assert abs(fl.objective - fc.objective) <= 1e-4 * fc.objective
    assert fc.rel_gap <= 1e-4 and fl.objective >= fc.dual - 1e-9 * fc.objective


def test_one_class_node_keeps_optimal_parameters():
    "A node whose reduced problem has one class: no crash; w = 0 (all to that side) is kept once reached."
    sol = ObliqueSolver(1.0)
    X = np.random.default_rng(0).normal(size=(20, 4)); lab = np.zeros(20, int); w = np.ones(20)
    new = sol(X, lab, w, Split(-1, np.array([0., 1., 0., 0.]), 5.0))   # already sends all left, but pays lambda
    assert new is not None and not new.weights.any() and not (X @ new.weights > new.threshold).any()
    assert sol(X, lab, w, new) is None
    assert sol(X, lab, w * 0.5, Split(-1, np.zeros(4), 1.0)) is None


def test_rejection_never_worse_with_real_weights():
    rng = np.random.default_rng(1)
    for _ in range(50):
        X = rng.normal(size=(40, 5)); lab = (X[:, 1] > 0).astype(int) ^ (rng.random(40) < 0.2)
        wt = rng.exponential(size=40); C = float(10 ** rng.uniform(-2, 2))
        cur = Split(-1, rng.normal(size=5), float(rng.normal()))
        sol = ObliqueSolver(C, 'logistic')
        new = sol(X, lab, wt, cur)
        if new is not None:
            assert node_objective(X, lab, wt, new.weights, new.threshold, sol.lam) < \
                   node_objective(X, lab, wt, cur.weights, cur.threshold, sol.lam)


def test_path_monotone_and_bad_input():
    idx = np.random.default_rng(0).choice(len(Y_DIG), 600, replace=False)
    Cs = np.logspace(1, -1.5, 5)
    p = tao_path(X_DIG[idx], Y_DIG[idx], Cs, max_depth=5, settings=PathSettings(rescale=False), random_state=0)
    # the path-level rule: nonzeros and splits never increase as C decreases (ties allowed)
    assert (np.diff(p['nonzeros']) <= 0).all() and (np.diff(p['internal']) <= 0).all(), (p['nonzeros'], p['internal'])
    # on this subsample the plain path (without the rescale of issue 9, which happens to avoid it here) gains weights
    # at C = 10 -> 3.16; the rule refits exactly the steps that need it
    plain = tao_path(X_DIG[idx], Y_DIG[idx], Cs, max_depth=5, settings=PathSettings(monotone_nonzeros=False, rescale=False),
                     random_state=0)
    assert np.diff(plain['nonzeros']).max() > 10 and not plain['budgeted'].any()
    assert p['budgeted'][1] and not p['budgeted'][0]
    np.testing.assert_array_equal(p.trees[0].W, plain.trees[0].W)           # identical until the first budgeted step
    q = tao_path(X_DIG[idx], Y_DIG[idx], Cs, max_depth=5, random_state=0)   # with the rescale (default): still monotone
    assert (np.diff(q['nonzeros']) <= 0).all() and (np.diff(q['internal']) <= 0).all(), (q['nonzeros'], q['internal'])
    with pytest.raises(ValueError, match='Cs must be finite'): tao_path(X_DIG, Y_DIG, [1.0, -1.0])
    with pytest.raises(ValueError, match='decreasing'): tao_path(X_DIG, Y_DIG, [0.1, 1.0])


def test_budgeted_solver_never_exceeds_current_nonzeros():
    rng = np.random.default_rng(3)
    for _ in range(30):
        m, D = int(rng.integers(10, 80)), int(rng.integers(2, 10))
        X = rng.normal(size=(m, D)); lab = (X @ rng.normal(size=D) + rng.normal(size=m) > 0).astype(int)
        wt = rng.exponential(size=m)
        cur = Split(-1, np.where(rng.random(D) < 0.4, rng.normal(size=D), 0.0), float(rng.normal()))
        sol = ObliqueSolver(float(10 ** rng.uniform(-1, 2)), nonzero_budget=True)
        new = sol(X, lab, wt, cur)
        if new is not None:
            assert np.count_nonzero(new.weights) <= np.count_nonzero(cur.weights)
            assert node_objective(X, lab, wt, new.weights, new.threshold, sol.lam) < \
                   node_objective(X, lab, wt, cur.weights, cur.threshold, sol.lam)


@pytest.mark.parametrize('C', [0, -1.0, np.inf, np.nan, 'a'])
def test_estimator_rejects_bad_C(C):
    with pytest.raises(ValueError, match='C must be'):
        TAOClassifier(split_type='oblique', C=C, max_depth=2).fit(X_DIG[:100], Y_DIG[:100])


def test_estimator_raw_predictions_and_pickle():
    import pickle
    clf = TAOClassifier(max_depth=4, split_type='oblique', C=1.0, random_state=0).fit(X_DIG, Y_DIG)
    Z = (X_DIG - clf.x_mean_) / clf.x_scale_
    std = standardize_tree(clf.tree_, clf.x_mean_, clf.x_scale_)
    np.testing.assert_array_equal(clf.tree_.apply(X_DIG), std.apply(Z))
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(clf)).predict(X_DIG), clf.predict(X_DIG))
    again = TAOClassifier(max_depth=4, split_type='oblique', C=1.0, random_state=0).fit(X_DIG, Y_DIG)
    np.testing.assert_array_equal(again.tree_.W, clf.tree_.W)
    Xc = X_DIG.copy(); TAOClassifier(max_depth=2, split_type='oblique').fit(Xc, Y_DIG); np.testing.assert_array_equal(Xc, X_DIG)


def test_regressor_oblique_with_real_weights():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5)); y = np.where(X[:, 0] + X[:, 1] > 0, 3.0, -1.0) + 0.1 * rng.normal(size=300)
    reg = TAORegressor(max_depth=2, split_type='oblique', C=0.1, random_state=0).fit(X, y)
    assert ((reg.predict(X) - y) ** 2).mean() < 0.5


def test_parallel_equals_serial():
    a = TAOClassifier(max_depth=4, split_type='oblique', C=1.0, random_state=0, n_jobs=1).fit(X_DIG[:500], Y_DIG[:500])
    b = TAOClassifier(max_depth=4, split_type='oblique', C=1.0, random_state=0, n_jobs=2).fit(X_DIG[:500], Y_DIG[:500])
    np.testing.assert_array_equal(a.tree_.W, b.tree_.W)


def test_estimator_node_tol_reaches_nodes_and_is_validated(monkeypatch):
    import tao_nb.estimators as estimators_module
    seen = []
    class Spy(estimators_module.ObliqueSolver):
        def __call__(self, *a): seen.append(self.node_tol); return super().__call__(*a)
    monkeypatch.setattr(estimators_module, 'ObliqueSolver', Spy)
    clf = TAOClassifier(max_depth=3, split_type='oblique', C=1.0, node_tol=1e-2, random_state=0)
    clf.fit(X_DIG[:500], Y_DIG[:500])
    assert seen and set(seen) == {1e-2}                                  # every node step saw it
    seen.clear(); TAORegressor(max_depth=2, split_type='oblique').fit(X_DIG[:100], Y_DIG[:100])
    assert seen and set(seen) == {1e-4}
    for bad in (0, -1.0, np.inf, np.nan, 'a'):
        with pytest.raises(ValueError, match='node_tol must be'):
            TAOClassifier(split_type='oblique', node_tol=bad, max_depth=2).fit(X_DIG[:100], Y_DIG[:100])


def test_path_classifier_contract():
    from tao_nb.estimators import TAOPathClassifier
    import pickle
    idx = np.random.default_rng(1).choice(len(Y_DIG), 500, replace=False)
    X, y = X_DIG[idx].copy(), Y_DIG[idx].copy()
    X0, y0 = X.copy(), y.copy()
    clf = TAOPathClassifier(Cs=[1.0, 0.3, 0.1], max_depths=4, random_state=0).fit(X, y)
    np.testing.assert_array_equal(X, X0); np.testing.assert_array_equal(y, y0)          # no mutation
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(clf)).predict(X), clf.predict(X))
    par = TAOPathClassifier(Cs=[1.0, 0.3, 0.1], max_depths=4, random_state=0, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(par.tree_.W, clf.tree_.W)                             # n_jobs does not change the result
    assert clf.n_iter_ >= 3 and (np.diff(clf.path_['nonzeros']) <= 0).all()
    cart = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    warm = TAOPathClassifier(Cs=[1.0, 0.1], inits=cart, random_state=0).fit(X, y)       # a fitted tree as the start
    assert warm.tree_.max_depth <= 3
    with pytest.raises(ValueError, match='classes'):
        TAOPathClassifier(Cs=[1.0], inits=cart).fit(X[y < 5], y[y < 5])


@pytest.mark.parametrize('backend', ['loky', 'threading'])
def test_oblique_parallel_backends_give_identical_trees(backend):
    "liblinear draws from one random generator per process: fits in threads are serialized, so every backend gives the serial trees."
    from joblib import parallel_config
    idx = np.random.default_rng(2).choice(len(Y_DIG), 700, replace=False)
    mu, sd = standardizer(X_DIG[idx]); Z = (X_DIG[idx] - mu) / sd; y = Y_DIG[idx]
    start = Tree.from_sklearn(DecisionTreeClassifier(max_depth=5, random_state=0).fit(Z, y)).to_oblique()
    run = lambda n_jobs: tao(start, Z, y, node_solver=ObliqueSolver(0.5), settings=TAOSettings(n_jobs=n_jobs))
    serial, hist = run(None)
    for _ in range(3 if backend == 'threading' else 1):     # without the lock, threads differ in about half the runs
        with parallel_config(backend=backend):
            par, hist_p = run(2)
        np.testing.assert_array_equal(hist_p, hist); np.testing.assert_array_equal(par.W, serial.W)
        np.testing.assert_array_equal(par.threshold, serial.threshold)


@pytest.mark.parametrize('surrogate,solver', [(s, 'liblinear') for s in LIBLINEAR] + [(s, 'cvxpy') for s in SURROGATES])
def test_certificate_is_a_valid_lower_bound(surrogate, solver):
    "Weak duality: the dual value never exceeds the primal value (gap >= -1e-12 P), on random node problems."
    rng = np.random.default_rng(7)
    for trial in range(12 if solver == 'cvxpy' else 40):
        m, D = int(rng.integers(8, 60)), int(rng.integers(1, 8))
        X = rng.normal(size=(m, D)) * rng.choice([0.1, 1.0, 10.0])
        lab = (X[:, 0] + rng.normal(size=m) > 0).astype(int)
        if lab.min() == lab.max(): lab[0] = 1 - lab[0]
        wt = rng.exponential(size=m) if trial % 2 else np.ones(m)
        C = float(10 ** rng.uniform(-1.5, 1.5))
        fit = (fit_cvxpy if solver == 'cvxpy' else fit_liblinear)(X, lab, wt, ObliqueSolver(C, surrogate, solver))
        assert fit.gap >= -1e-12 * fit.objective, (trial, fit.objective, fit.dual)


def test_dual_bound_is_feasible_for_any_u():
    "Any u, even far outside the conjugate's domain, gives a valid lower bound (clip first, then shrink)."
    from tao_nb.solvers.oblique import dual_bound, surrogate_objective
    rng = np.random.default_rng(3)
    for trial in range(2 * len(SURROGATES)):
        m, D = 30, 4
        X = rng.normal(size=(m, D)); lab = rng.integers(0, 2, m); wt = rng.exponential(size=m)
        settings = ObliqueSolver(1.0, list(SURROGATES)[trial % len(SURROGATES)], 'cvxpy')
        fit = fit_cvxpy(X, lab, wt, settings)
        for u in (rng.normal(size=m) * 3, -np.abs(rng.normal(size=m)) * 5, np.full(m, -1.5), np.full(m, -9.0)):
            assert dual_bound(X, lab, wt, fit.w, -fit.b, settings, u=u) <= fit.objective * (1 + 1e-12)


def _margin_objective(X, label, weight, w, b, lam, slack=1e-7):
    s = 2.0 * (np.asarray(label) == 1) - 1
    return float(np.asarray(weight)[s * (X @ w - b) < 1 - slack].sum() + lam * np.abs(w).sum())


@pytest.mark.parametrize('seed', range(6))
def test_mip_split_is_feasible_certified_and_beats_a_grid(seed):
    "fit_mip's split attains the objective it reports, HiGHS's bound is below it, and no split on a fine grid does better (up to HiGHS's gap tolerance)."
    from tao_nb.solvers.oblique import fit_mip
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(10, 1)) * 3; lab = (X[:, 0] + 2 * rng.normal(size=10) > 0).astype(int); wt = rng.integers(1, 4, 10).astype(float)
    if len(np.unique(lab)) < 2: lab[0] = 1 - lab[0]
    C = [0.3, 1.0, 3.0][seed % 3]
    mip = fit_mip(X, lab, wt, C=C)
    assert mip.status == 'optimal'
    assert abs(_margin_objective(X, lab, wt, mip.w, mip.b, 1 / C) - mip.objective) < 1e-6
    assert mip.bound <= mip.objective + 1e-6
    grid = min(_margin_objective(X, lab, wt, np.array([w]), b, 1 / C) for w in np.linspace(-6, 6, 241) for b in np.linspace(-12, 12, 241))
    assert mip.bound <= grid + 1e-6                              # bound <= optimum <= any grid point
    assert mip.objective <= grid * (1 + 1e-4) + 1e-6             # 'optimal' within HiGHS's default gap tolerance


def test_exact_steps_keep_tao_monotone_and_are_validated():
    "With exact steps at small nodes TAO's objective still never rises; bad options get clear errors; off by default."
    X, y = load_digits(return_X_y=True); X, y = X[:300], y[:300]
    mu, sd = standardizer(X); Z = (X - mu) / sd
    start = standardize_tree(Tree.from_sklearn(DecisionTreeClassifier(max_depth=4, random_state=0).fit(X, y)), mu, sd)
    _, hist = tao(start, Z, y, node_solver=ObliqueSolver(1.0, mip_max_points=25), settings=TAOSettings(max_iter=3))
    assert hist[-1] < hist[0]            # (tao itself raises if E rises after a sweep)
    assert ObliqueSolver(1.0).mip_max_points == 0
    with pytest.raises(ValueError, match='mip_max_points'): ObliqueSolver(1.0, mip_max_points=-1)
    with pytest.raises(ValueError, match='mip_time_limit'): ObliqueSolver(1.0, mip_time_limit=0)


@pytest.mark.parametrize('name', list(SURROGATES))
def test_registry_entry_is_consistent(name):
    """Every entry of SURROGATES (adding a surrogate is one entry): Fenchel-Young with equality at the slope, the slope
    a subgradient, the conjugate infinite just outside its domain (a numerical sup grows), CVXPY's builder equal to
    the loss, and the options check derived from the liblinear factory."""
    import cvxpy as cp
    from tao_nb.solvers.oblique import check_solver_options
    f, z = SURROGATES[name], np.linspace(-6, 6, 241)
    zs = z[np.abs(z - 1) > 1e-9]                                         # the hinge has a kink at 1
    for beta in np.linspace(max(f.beta_min, -10), 0, 21):
        assert (f.loss(z) + f.conjugate(beta) >= beta * z - 1e-9).all()
    np.testing.assert_allclose(f.loss(zs) + f.conjugate(f.slope(zs)), f.slope(zs) * zs, atol=1e-9)
    for a in (-3.0, -0.5, 0.7, 2.0):                                     # f(b) >= f(a) + f'(a) (b - a)
        assert (f.loss(z) >= f.loss(np.array([a])) + f.slope(np.array([a])) * (z - a) - 1e-9).all()
    zg = np.linspace(-1e3, 1e3, 400_001)                                 # outside [beta_min, 0]: the sup keeps growing
    for beta in ([0.5] + ([f.beta_min - 0.5] if np.isfinite(f.beta_min) else [])):
        sup = lambda r: (beta * zg[np.abs(zg) <= r] - f.loss(zg[np.abs(zg) <= r])).max()
        assert sup(1e3) > sup(1e2) + 10
    margin, at = cp.Variable(7), np.linspace(-3, 3, 7)
    loss, cons = f.cvxpy(cp, margin)
    cp.Problem(cp.Minimize(cp.sum(loss)), cons + [margin == at]).solve(solver='CLARABEL')
    np.testing.assert_allclose(loss.value, f.loss(at), atol=1e-6)
    check_solver_options('cvxpy', name)
    if f.liblinear is None:
        with pytest.raises(ValueError, match=f"surrogate='{name}' needs solver='cvxpy'"): ObliqueSolver(surrogate=name)
    else: ObliqueSolver(surrogate=name)


@pytest.mark.parametrize('seed', range(3))
def test_stop_on_loss(seed):
    """`TAOSettings(stop_on='loss')` (issue 28): the run ends at the first sweep whose loss part (E - penalty) fell by
    at most tol * E, and not before; the sweeps up to there are the objective rule's own."""
    rng = np.random.default_rng(seed)
    idx = rng.choice(len(Y_DIG), 500, replace=False)
    Z, y = Z_DIG[idx], Y_DIG[idx]
    tree = standardize_tree(Tree.from_sklearn(DecisionTreeClassifier(max_depth=5, random_state=seed).fit(Z, y)),
                            0 * MU, 0 * SD + 1)
    solver, tol = ObliqueSolver(float(10 ** rng.uniform(-1, 1)), 'svm', 'cd'), 0.02
    t, hist = tao(tree, Z, y, node_solver=solver, settings=TAOSettings(max_iter=14, tol=tol, stop_on='loss'))
    parts = []
    for k in range(len(hist)):   # the loss part after k sweeps, from runs of exactly k sweeps (same trees)
        tk, hk = tao(tree, Z, y, node_solver=solver, settings=TAOSettings(max_iter=k, tol=-np.inf))
        np.testing.assert_allclose(hk, hist[:k + 1])
        parts.append(hk[-1] - solver.penalty(tk))
    drops = -np.diff(parts)
    assert (drops[:-1] > tol * hist[:-2]).all()          # every earlier sweep cut the loss part by more
    assert len(hist) - 1 == 14 or drops[-1] <= tol * hist[-2]   # the last one: max_iter, or at most tol * E
    np.testing.assert_array_equal(t.W, tk.W)


def test_svm_scale_is_the_bisection_root():
    "`svm_scale` (exact, piecewise linear) is the root `bisect_root` finds on the same slope, on random margins."
    from tao_nb.solvers.oblique import svm_scale, bisect_root
    rng = np.random.default_rng(0)
    for _ in range(300):
        m = int(rng.integers(2, 60))
        gamma = rng.normal(size=m) * rng.choice([1e-3, 1.0, 30.0])
        gamma[rng.random(m) < 0.1] = 0.0
        Ct, A = rng.random(m) * (rng.random(m) > 0.1), float(rng.random()) + 1e-3
        slope = lambda a: A - 2 * float((Ct * gamma * np.maximum(0.0, 1 - a * gamma)).sum())
        if slope(0.0) >= 0: continue
        a = svm_scale(gamma, Ct, A)
        assert abs(a - bisect_root(slope)) <= 1e-9 * a
        assert abs(slope(a)) <= 1e-9 * (A + 2 * float((Ct * np.abs(gamma)).sum()))
