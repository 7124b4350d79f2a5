"""Non-greedy trees: the upper bound and its loss-augmented inference, over many random cases."""
import itertools

import numpy as np
import pytest
from sklearn.datasets import load_digits

from tao_nb.nongreedy import (NonGreedyTreeClassifier, _follow, leaf_log_losses, loss_augmented,
                              reached_leaf)


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
    a = NonGreedyTreeClassifier(max_depth=4, epochs=5, random_state=1).fit(X, y)
    b = NonGreedyTreeClassifier(max_depth=4, epochs=5, random_state=1).fit(X, y)
    assert a.history_[:, 0].min() < a.history_[0, 0]
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


@pytest.mark.parametrize('params', [dict(nu=0), dict(learning_rate=-1), dict(momentum=1.0),
                                    dict(inference='greedy'), dict(max_depth=0)])
def test_bad_parameters(params):
    X, y = load_digits(return_X_y=True)
    with pytest.raises(ValueError):
        NonGreedyTreeClassifier(**params).fit(X[:100], y[:100])
