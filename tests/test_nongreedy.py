"""Non-greedy trees: the upper bound and its loss-augmented inference, over many random cases."""
import itertools

import numpy as np
import pytest
from sklearn.datasets import load_digits

from sklearn.tree import DecisionTreeClassifier

from tao_nb.nongreedy import (LazyRows, NonGreedyTreeClassifier, complete_paths, leaf_log_losses, loss_augmented,
                              reached_leaf, sparse_step, surrogate_step, SGDSettings)


def _follow(g, m):
    "Leaf index reached by the sign vector g (n, m)."
    node = np.zeros(len(g), dtype=np.int64)
    while (node < m).any():
        inner = node < m
        node[inner] = 2 * node[inner] + 1 + (g[inner, node[inner]] > 0)
    return node - m


@pytest.mark.parametrize('depth', [1, 2, 3])
def test_exact_inference_is_brute_force_and_bounds_the_loss(depth):
    m = 2 ** depth - 1
    G = np.array(list(itertools.product([-1, 1], repeat=m)))
    for seed in range(30):
        rng = np.random.default_rng(seed)
        n, k = 40, 3
        S = rng.normal(size=(n, m)) * rng.exponential()
        S[rng.random(S.shape) < 0.05] = 0.0                     # ties at zero go left
        L = leaf_log_losses(rng.normal(size=(m + 1, k)) * 3, rng.integers(k, size=n))
        brute = np.max([S @ g + L[np.arange(n), _follow(np.tile(g, (n, 1)), m)] for g in G], 0) - np.abs(S).sum(1)
        _, exact = loss_augmented(S, L)
        _, fast = loss_augmented(S, L, fast=True)
        loss = L[np.arange(n), reached_leaf(S)[0]]
        np.testing.assert_allclose(exact, brute, atol=1e-9)
        assert (loss <= fast + 1e-12).all() and (fast <= exact + 1e-12).all()


def test_sgd_lowers_the_bound_and_is_deterministic():
    X, y = load_digits(return_X_y=True)
    a = NonGreedyTreeClassifier(max_depth=4, max_iter=5, random_state=1).fit(X, y)
    b = NonGreedyTreeClassifier(max_depth=4, max_iter=5, random_state=1).fit(X, y)
    assert a.history_[:, 0].min() < a.history_[0, 0]
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


@pytest.mark.parametrize('params', [dict(nu=0), dict(learning_rate=-1), dict(momentum=1.0),
                                    dict(inference='greedy'), dict(max_depth=0)])
def test_bad_parameters(params):
    X, y = load_digits(return_X_y=True)
    with pytest.raises(ValueError):
        NonGreedyTreeClassifier(**params).fit(X[:100], y[:100])


@pytest.mark.parametrize('depth', [1, 3, 6])
@pytest.mark.parametrize('fast', [True, False])
@pytest.mark.parametrize('stable', [False, True])
def test_sparse_step_equals_dense_step(depth, fast, stable):
    "Same minibatch sequence, random trees with zero rows, projection binding or not, momentum or not."
    for seed in range(4):
        rng = np.random.default_rng(seed)
        m, p, K, N = 2 ** depth - 1, 5, 3, 120
        nu, mu = [0.2, 1.0, 50.0, 3.0][seed], [0.9, 0.0, 0.5, 0.9][seed]
        W = rng.normal(size=(m, p)) * 2; W[rng.random(m) < 0.4] = 0; Theta = rng.normal(size=(m + 1, K))
        X = np.c_[rng.normal(size=(N, p - 1)), np.ones(N)]; y = rng.integers(K, size=N)
        W *= np.minimum(1.0, np.sqrt(nu) / np.maximum(np.sqrt((W ** 2).sum(1)), 1e-300))[:, None]
        nz = np.flatnonzero(np.abs(W).sum(1))
        Ws, Ts = LazyRows(m, p, mu, nu, nz, W[nz]), LazyRows(m + 1, K, mu, None, np.arange(m + 1), Theta)
        paths, vel = complete_paths(depth), [np.zeros_like(W), np.zeros_like(Theta)]
        sgd = SGDSettings(0.2, nu, mu, 'fast' if fast else 'exact')
        assigned = rng.integers(m + 1, size=N) if stable else None
        for _ in range(60):
            bi = rng.choice(N, 8, replace=False); a = None if assigned is None else assigned[bi]
            b_dense = surrogate_step(W, Theta, X[bi], y[bi], sgd, paths, a, vel)
            b_sparse = sparse_step(Ws, Ts, X[bi], y[bi], depth, 0.2, fast=fast, assigned=a)
            assert abs(b_dense - b_sparse) < 1e-10
        np.testing.assert_allclose(Ws.dense(), W, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(Ts.dense(), Theta, rtol=1e-9, atol=1e-12)


def test_deep_tree_stores_only_used_rows():
    "Depth 16 on 300 digits: W_ is sparse (a dense one would be 65,535 x 65), the tree has only nonzero nodes."
    X, y = load_digits(return_X_y=True)
    ng = NonGreedyTreeClassifier(max_depth=16, max_iter=2, random_state=0).fit(X[:300], y[:300])
    stored = int((np.diff(ng.W_.indptr) > 0).sum())
    assert ng.W_.shape == (2 ** 16 - 1, 65) and stored < 2000
    assert ng.tree_.n_nodes <= 2 * stored + 1
    kept = ng.history_[ng.history_[:, 0].argmin()]                 # the iterate of lowest bound is the one kept:
    assert np.isclose(1 - ng.score(X[:300], y[:300]), kept[1])      # tree_ (pruned, raw inputs) routes as training did
    assert hasattr(ng, 'x_mean_') and hasattr(ng, 'x_scale_') and not hasattr(ng, 'mean_')


def test_init_is_checked():
    X, y = load_digits(return_X_y=True)
    cart = lambda X_, y_=y, d=3: DecisionTreeClassifier(max_depth=d, random_state=0).fit(X_, y_)
    for init, msg in [(cart(X[:, :3]), '3 features'), (cart(np.c_[X, X][:, :70]), '70 features'),
                      (cart(X, d=7), 'depth 7 > max_depth=4'), (cart(X, y + 1), 'classes'),
                      (cart(X, (y > 4).astype(int)), 'classes')]:
        with pytest.raises(ValueError, match=msg):
            NonGreedyTreeClassifier(max_depth=4, max_iter=1, init=init).fit(X, y)
    NonGreedyTreeClassifier(max_depth=4, max_iter=1, init=cart(X)).fit(X, y)        # a matching init is accepted
