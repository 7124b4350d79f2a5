"""Oblique CART grower: properties over many random data sets (impurities, axis baseline, routing, determinism, units)."""
import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from tao_nb.oblique_cart import (GrowSettings, grow_oblique, grow_oblique_info, impurity, line_search, split_score,
                                 best_oblique_split)

X_DIG, Y_DIG = load_digits(return_X_y=True)


def members_of(tree, X):
    "Points of X reaching each node, from the tree's own routing."
    paths = tree.decision_paths(X)
    return [np.flatnonzero((paths == i).any(1)) for i in range(tree.n_nodes)]


def random_problem(seed):
    "Random classification or regression data: blobs, a rotated boundary, or a digits subsample."
    rng = np.random.default_rng(seed)
    kind = seed % 3
    if kind == 0:
        idx = rng.choice(len(Y_DIG), int(rng.integers(80, 300)), replace=False)
        X, y = X_DIG[idx][:, rng.choice(64, 16, replace=False)], Y_DIG[idx] % int(rng.integers(2, 6))
    else:
        N, D = int(rng.integers(30, 250)), int(rng.integers(2, 7))
        X = rng.standard_normal((N, D)) * 10.0 ** rng.uniform(-2, 2, D)
        if kind == 2: X = np.round(X, 1)                                     # ties
        y = (X @ rng.standard_normal(D) > 0).astype(int) + (rng.random(N) < 0.1)
    return X, y


@pytest.mark.parametrize('seed', range(24))
def test_reported_impurities_and_routing(seed):
    "Reported counts/impurities = brute force from Tree.decision_paths; leaf values = frequencies under Tree.apply."
    X, y = random_problem(seed)
    rng = np.random.default_rng(seed)
    K = int(y.max()) + 1; T = np.eye(K)[y]
    ml = int(rng.integers(1, 5))
    settings = GrowSettings(min_samples_leaf=ml, block=int(rng.integers(1, 40)))
    tree, info = grow_oblique_info(X, y, int(rng.integers(1, 6)), settings=settings, random_state=seed)
    mem = members_of(tree, X)
    assert [len(m) for m in mem] == info.n_samples.tolist()
    np.testing.assert_allclose(info.impurity, [impurity(T[m]) for m in mem], atol=1e-8)
    inner = np.flatnonzero(~tree.is_leaf)
    np.testing.assert_allclose(info.split_impurity[inner],
                               [impurity(T[mem[tree.left[i]]]) + impurity(T[mem[tree.right[i]]]) for i in inner], atol=1e-8)
    leaves = tree.apply(X)
    for i in np.flatnonzero(tree.is_leaf):
        assert (leaves == i).sum() >= ml
        np.testing.assert_allclose(tree.value[i], T[leaves == i].mean(0), atol=1e-12)


@pytest.mark.parametrize('seed', range(16))
def test_never_worse_than_the_exact_axis_split(seed):
    "At every node: axis impurity = scikit-learn's best stump on the node's points, and the chosen split is no worse."
    X, y = random_problem(100 + seed)
    ml = 1 + seed % 3
    tree, info = grow_oblique_info(X, y, 4, settings=GrowSettings(min_samples_leaf=ml), random_state=seed)
    mem = members_of(tree, X)
    for i in np.flatnonzero(~tree.is_leaf):
        Xi, yi = X[mem[i]], y[mem[i]]
        stump = DecisionTreeClassifier(max_depth=1, min_samples_leaf=ml, random_state=0).fit(Xi, yi).tree_
        if stump.node_count == 3:
            sk = stump.impurity[1] * stump.n_node_samples[1] + stump.impurity[2] * stump.n_node_samples[2]
            assert abs(info.axis_impurity[i] - sk) < 1e-8, (i, info.axis_impurity[i], sk)
        assert info.split_impurity[i] <= info.axis_impurity[i] + 1e-9


@pytest.mark.parametrize('seed', range(8))
def test_regression_matches_brute_force(seed):
    "Squared error: reported impurities match the routing; axis impurity = scikit-learn's best regression stump."
    rng = np.random.default_rng(200 + seed)
    N, D, k = int(rng.integers(30, 200)), int(rng.integers(1, 5)), int(rng.integers(1, 4))
    X = rng.standard_normal((N, D)); Y = np.tanh(X @ rng.standard_normal((D, k))) + 0.1 * rng.standard_normal((N, k))
    tree, info = grow_oblique_info(X, Y, 3, criterion='squared_error', random_state=seed)
    mem = members_of(tree, X)
    np.testing.assert_allclose(info.impurity, [impurity(Y[m]) for m in mem], atol=1e-8)
    for i in np.flatnonzero(~tree.is_leaf):
        st = DecisionTreeRegressor(max_depth=1, random_state=0).fit(X[mem[i]], Y[mem[i]]).tree_
        if st.node_count == 3:
            sk = (st.impurity[1] * st.n_node_samples[1] + st.impurity[2] * st.n_node_samples[2]) * k
            assert abs(info.axis_impurity[i] - sk) < 1e-7 * max(1, sk)
        assert info.split_impurity[i] <= info.axis_impurity[i] + 1e-9
        np.testing.assert_allclose(tree.value[i], Y[mem[i]].mean(0), atol=1e-12)


@pytest.mark.parametrize('seed', range(6))
def test_deterministic_and_unit_free(seed):
    "Same seed, same tree; features rescaled by powers of two and shifted: same routing."
    X, y = random_problem(300 + seed)
    a = grow_oblique(X, y, 4, random_state=seed)
    b = grow_oblique(X, y, 4, random_state=seed)
    np.testing.assert_array_equal(a.W, b.W); np.testing.assert_array_equal(a.threshold, b.threshold)
    scale = 2.0 ** np.random.default_rng(seed).integers(-6, 7, X.shape[1])
    c = grow_oblique(X * scale - 3.0, y, 4, random_state=seed)
    np.testing.assert_array_equal(c.apply(X * scale - 3.0), a.apply(X))


def test_oblique_beats_axis_on_a_rotated_boundary():
    "One hyperplane separates the classes: the oblique stump is exact at the root, the axis split is not."
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (500, 3)); y = (X @ [1.0, 1.0, -0.5] > 0.2).astype(int)
    tree, info = grow_oblique_info(X, y, 1, random_state=0)
    assert info.split_impurity[0] < 1e-9 < info.axis_impurity[0]


def test_line_search_single_point_and_empty():
    "Fewer than two points: no valid split."
    a, s = line_search(np.zeros((3, 1)), None, np.ones((1, 2)))
    assert np.isneginf(s).all()
    assert best_oblique_split(np.ones((4, 2)), np.eye(2)[[0, 1, 0, 1]]) is None   # constant features


@pytest.mark.parametrize('bad, msg', [
    (dict(X=np.ones(5)), '2-D'), (dict(max_depth=-2), 'max_depth'), (dict(max_depth=True), 'max_depth'),
    (dict(y=np.array([0, 1, 2, 1, -1])), 'integer labels'), (dict(y=np.array(['a', 'b', 'a', 'b', 'a'])), 'integer labels'),
    (dict(n_classes=2, y=np.array([0, 1, 2, 1, 0])), 'n_classes'), (dict(min_samples_leaf=0), 'min_samples_leaf'),
    (dict(criterion='mse'), 'criterion'), (dict(X=np.full((5, 2), np.inf)), 'NaN or infinity'),
    (dict(n_restarts=0), 'n_restarts'), (dict(patience=0), 'patience'), (dict(n_directions=0), 'n_directions')])
def test_bad_input(bad, msg):
    "Bad data or options: a ValueError naming the culprit (search options when their `GrowSettings` is made)."
    args = dict(X=np.arange(10.0).reshape(5, 2), y=np.array([0, 1, 0, 1, 1]), max_depth=2)
    args.update(bad)
    X, y, d = args.pop('X'), args.pop('y'), args.pop('max_depth')
    knobs = {k: args.pop(k) for k in list(args) if k in GrowSettings.__dataclass_fields__}
    with pytest.raises(ValueError, match=msg): grow_oblique(X, y, d, settings=GrowSettings(**knobs), **args)
