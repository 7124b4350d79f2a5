"""Issue 28: the compiled router (`Tree.route`, used by `Tree.apply`) against the numpy reference `Tree.descend`.

Random trees, axis-aligned and oblique with random sparsity, on small integers (so every score is exact in any
summation order and points can sit exactly at thresholds) and on real-valued data; inputs as float64, float32,
integers and non-contiguous views; the routing cache against in-place edits; the estimators' predictions.
"""
import pickle

import numpy as np
import pytest
from sklearn.datasets import load_digits

from tao_nb.tree import Split, Tree

X_DIG, Y_DIG = load_digits(return_X_y=True)
X_DIG = X_DIG.astype(np.float64)
ONEHOT = np.eye(10)[Y_DIG]


def exact_tree(seed, depth=None, oblique=None):
    "(tree, X): a random tree on small integers whose every threshold is the score of one of its points."
    rng = np.random.default_rng(seed)
    N, D = int(rng.integers(1, 150)), int(rng.integers(1, 10))
    X = rng.integers(-4, 5, size=(N, D)).astype(np.float64)
    depth = int(rng.integers(0, 7)) if depth is None else depth
    oblique = bool(rng.integers(2)) if oblique is None else oblique
    t = Tree.random(depth, X, np.eye(3)[rng.integers(0, 3, N)], oblique=oblique, random_state=seed)
    inner = np.flatnonzero(~t.is_leaf)
    if oblique:
        t.W[inner] = rng.integers(-3, 4, (len(inner), D)) * (rng.random((len(inner), D)) < rng.uniform(0.1, 1))
    at = X[rng.integers(0, N, len(inner))]
    t.threshold[inner] = (at * t.to_oblique().W[inner]).sum(1)
    return t, X


def views(X):
    "The same inputs in the forms `apply` accepts: float64, float32, int64, Fortran order, a strided view."
    return [X, X.astype(np.float32), X.astype(np.int64), np.asfortranarray(X), np.repeat(X, 3, 1)[:, ::3],
            X[::-1][::-1]]


@pytest.mark.parametrize('seed', range(60))
def test_route_equals_descend_on_exact_random_trees(seed):
    t, X = exact_tree(seed)
    ref = t.descend(X, 0)
    for Xv in views(X): np.testing.assert_array_equal(t.apply(Xv), ref)
    np.testing.assert_array_equal(t.route(X), ref)


def test_points_exactly_at_thresholds_are_exercised():
    "The exact trees do put points on thresholds (else the previous test would not test ties)."
    ties = 0
    for seed in range(60):
        t, X = exact_tree(seed)
        ties += int((X @ t.to_oblique().W.T == t.threshold)[:, ~t.is_leaf].sum())
    assert ties > 100


def test_single_node_tree():
    t, X = exact_tree(0, depth=0)
    assert t.n_nodes == 1
    np.testing.assert_array_equal(t.apply(X), np.zeros(len(X)))
    np.testing.assert_array_equal(t.predict_value(X), np.repeat(t.value, len(X), 0))


@pytest.mark.parametrize('oblique', [False, True])
def test_route_equals_descend_on_real_data(oblique):
    for seed in range(5):
        t = Tree.random(7, X_DIG, ONEHOT, oblique=oblique, random_state=seed)
        if oblique: t.W[np.random.default_rng(seed).random(t.W.shape) < 0.8] = 0
        np.testing.assert_array_equal(t.apply(X_DIG), t.descend(X_DIG, 0))
        paths = t.decision_paths(X_DIG)
        np.testing.assert_array_equal(paths[np.arange(len(X_DIG)), t.depth[t.apply(X_DIG)]], t.apply(X_DIG))


@pytest.mark.parametrize('keep', [0.1, 0.5, 1.0])
def test_routing_arrays(keep):
    """CSR rows of the decision nodes' weights: the nonzero ones, or all of them (a dense row) when over a quarter
    are nonzero or at the root; leaves store none."""
    t = Tree.random(4, X_DIG, ONEHOT, oblique=True, random_state=0)
    t.W[np.random.default_rng(0).random(t.W.shape) > keep] = 0
    r = t.routing()
    dense = 0
    for u in range(t.n_nodes):
        cols = r.indices[r.indptr[u]:r.indptr[u + 1]]
        nz = np.flatnonzero(t.W[u])
        expected = [] if t.is_leaf[u] else np.arange(t.n_features) if 4 * len(nz) > t.n_features or u == 0 else nz
        dense += len(cols) == t.n_features
        np.testing.assert_array_equal(cols, expected)
        np.testing.assert_array_equal(r.data[r.indptr[u]:r.indptr[u + 1]], t.W[u, cols])
    assert dense == (1 if keep == 0.1 else t.n_internal)
    np.testing.assert_array_equal(t.apply(X_DIG), t.descend(X_DIG, 0))


def test_cache_follows_every_kind_of_edit():
    t = Tree.random(5, X_DIG, ONEHOT, oblique=True, random_state=1)
    check = lambda: np.testing.assert_array_equal(t.apply(X_DIG), t.descend(X_DIG, 0))
    check()
    kept = t.routing()
    assert t.routing() is kept
    t.W[0, np.flatnonzero(t.W[0])[:5]] = 0          # in place, weights only
    check()
    t.threshold[1] += 3.0                           # in place, a threshold only
    check()
    t.set_split(2, Split(-1, -t.W[2], -t.threshold[2], swap=True))
    check()
    t.make_leaf(5)
    check()
    t.left[0], t.right[0] = t.right[0], t.left[0]   # children exchanged by hand
    check()
    t.W = t.W * 2                                   # a new array
    t.threshold = t.threshold * 2
    check()
    a = Tree.random(5, X_DIG, ONEHOT, random_state=2)
    a.apply(X_DIG)
    a.feature[0] = (a.feature[0] + 7) % a.n_features
    np.testing.assert_array_equal(a.apply(X_DIG), a.descend(X_DIG, 0))


def test_pickle_drops_the_cache():
    t = Tree.random(4, X_DIG, ONEHOT, oblique=True, random_state=0)
    t.apply(X_DIG)
    u = pickle.loads(pickle.dumps(t))
    assert not hasattr(u, '_routing_cache')
    np.testing.assert_array_equal(u.apply(X_DIG), t.apply(X_DIG))


def test_inputs_are_not_modified():
    t = Tree.random(4, X_DIG, ONEHOT, oblique=True, random_state=0)
    X = X_DIG.copy()
    X.flags.writeable = False
    t.apply(X)
    np.testing.assert_array_equal(X, X_DIG)


def test_estimators_predict_as_descend():
    from tao_nb.estimators import TAOClassifier, TAORegressor
    X, y = X_DIG[:600], Y_DIG[:600]
    for est in [TAOClassifier(max_depth=4, random_state=0).fit(X, y),
                TAOClassifier(max_depth=3, split_type='oblique', C=0.5, max_iter=3, random_state=0).fit(X, y)]:
        tree = est.tree_
        np.testing.assert_array_equal(est.apply(X_DIG), tree.descend(X_DIG, 0))
        np.testing.assert_array_equal(est.predict_proba(X_DIG), tree.value[tree.descend(X_DIG, 0)])
    reg = TAORegressor(max_depth=3, random_state=0).fit(X, y.astype(float))
    np.testing.assert_array_equal(reg.predict(X_DIG), reg.tree_.value[reg.tree_.descend(X_DIG, 0), 0])


def test_importing_the_package_loads_no_numba():
    """Kernels compile at their first use (`compiled_at_first_use`, `00_tree`): `import tao_nb` and making an estimator
    load no numba, so `note_compilation` never announces kernels a process does not run."""
    import subprocess, sys
    code = "import sys, tao_nb; tao_nb.TAOPathClassifier(); print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == 'False', out.stdout + out.stderr


def test_cache_sees_a_weight_moved_within_a_row():
    "A sparse row keeping its count of nonzeros but moving one, and a dense row changed in one place, both rebuild."
    t = Tree.random(4, X_DIG, ONEHOT, oblique=True, random_state=3)
    inner = np.flatnonzero(~t.is_leaf)
    t.W[inner[1]] = 0.0                               # not the root (its row is always stored whole)
    t.W[inner[1], [3, 10, 20]] = [1.0, -2.0, 0.5]     # sparse: 3 of 64 nonzero
    check = lambda: np.testing.assert_array_equal(t.apply(X_DIG), t.descend(X_DIG, 0))
    check()
    t.W[inner[1], 10], t.W[inner[1], 11] = 0.0, -2.0  # moved: same count, same values
    assert t.routing().indices[t.routing().indptr[inner[1]]:t.routing().indptr[inner[1] + 1]].tolist() == [3, 11, 20]
    check()
    t.W[inner[2]] = np.where(t.W[inner[2]] == 0, 0.25, t.W[inner[2]])    # dense
    check()
    t.W[inner[2], 7] = 0.0                            # a dense row's weight set to zero: still 64 stored
    check()
    assert t.routing().data[t.routing().indptr[inner[2]] + 7] == 0.0
    t.W[0, np.flatnonzero(t.W[0])[0]] = 0.0           # the root's row, stored whole: a weight set to zero
    check()
    assert t.routing().data[np.flatnonzero(t.W[0] == 0)].tolist() == [0.0] * np.sum(t.W[0] == 0)


def test_cache_follows_a_change_of_kind():
    "A tree switched between oblique and axis-aligned splits in place routes as its new splits, both ways."
    t = Tree.random(4, X_DIG, ONEHOT, oblique=True, random_state=4)
    t.apply(X_DIG)
    feature = np.where(t.is_leaf, -1, np.argmax(np.abs(t.W), axis=1))
    t._set_splits(feature, None, t.n_features)
    np.testing.assert_array_equal(t.apply(X_DIG), t.descend(X_DIG, 0))
    W = np.zeros((t.n_nodes, t.n_features))
    W[~t.is_leaf, feature[~t.is_leaf]] = -1.0                 # the same features, the other way round
    t._set_splits(None, W, None)
    np.testing.assert_array_equal(t.apply(X_DIG), t.descend(X_DIG, 0))
