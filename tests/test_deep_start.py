"""Issue 9: a CART start with zero training error was a fixed point of sparse oblique TAO.

Every node of such a tree has zero loss on its reduced problem, and its axis-aligned split is stored at scale 1
(||w||_1 = 1) although it separates its care points with almost no margin; an L1-SVM proposal pays its
penalty at the surrogate's own scale, so the rejection step refused every proposal and TAO returned the CART
tree. `tao_path` now first puts every node at its surrogate scale (`at_surrogate_scale`): same decisions,
fair penalties, and the deep start moves."""
import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier
from tao_nb.tree import Tree, standardizer
from tao_nb.path import PathSettings, tao_path
from tao_nb.tao import TAOSettings
from tao_nb.solvers.oblique import ObliqueSolver, fit_liblinear, surrogate_scale
from tao_nb.oblique_fit import at_surrogate_scale


@pytest.fixture(scope='module')
def digits():
    X, y = load_digits(return_X_y=True)
    return train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)


def test_deep_zero_error_start_is_not_a_fixed_point(digits):
    Xtr, Xte, ytr, yte = digits
    mu, sd = standardizer(Xtr)
    cart = DecisionTreeClassifier(max_depth=12, random_state=0).fit((Xtr - mu) / sd, ytr)
    assert cart.score((Xtr - mu) / sd, ytr) > 0.995                 # the start (almost) has no training error
    cart_test = cart.score((Xte - mu) / sd, yte)
    two = PathSettings(ObliqueSolver(node_tol=1e-2), TAOSettings(max_iter=2))   # two sweeps show it (and keep it fast)
    path = tao_path(Xtr, ytr, Cs=[2.0], validation=(Xte, yte), max_depth=12, settings=two, random_state=0)
    tree = path.trees[0]
    axis_like = np.count_nonzero(tree.W[~tree.is_leaf], axis=1) <= 1
    # before the fix: 88 of 131 nodes still axis-aligned, test accuracy 0.854 (CART: 0.841); with it: 22 of 92, 0.920
    assert axis_like.mean() < 0.5, f"{axis_like.sum()} of {len(axis_like)} nodes still axis-aligned"
    assert path.score(Xte, yte, 0) >= cart_test + 0.05, (path.score(Xte, yte, 0), cart_test)


def test_surrogate_scale(digits):
    Xtr, Xte, ytr, yte = digits
    mu, sd = standardizer(Xtr); Z = (Xtr - mu) / sd
    label, weight = (ytr < 5).astype(int), np.ones(len(ytr))
    fit = fit_liblinear(Z, label, weight, ObliqueSolver(C=1.0, node_tol=1e-8, node_max_iter=100_000))
    # the surrogate's own solution is at its scale: P is minimal at a = 1 along its ray
    assert abs(surrogate_scale(Z, label, weight, fit.w, fit.b, C=1.0) - 1) < 1e-3
    # an axis split separating two groups with a small gap gets a scale > 1 (its margins are < 1 at ||w||_1 = 1)
    x = Z[:, 36]; cut = np.median(x); lab = (x > cut).astype(int)
    w = np.zeros(Z.shape[1]); w[36] = 1.0
    assert surrogate_scale(Z, lab, weight, w, cut, C=1.0) > 1.5
    # rescaling a whole tree never changes a decision
    cart = Tree.from_sklearn(DecisionTreeClassifier(max_depth=6, random_state=0).fit(Z, ytr)).to_oblique()
    scaled = at_surrogate_scale(cart, Z, ytr, ObliqueSolver(C=1.0))
    Zte = (Xte - mu) / sd
    np.testing.assert_array_equal(scaled.apply(Zte), cart.apply(Zte))
    assert not np.allclose(scaled.W, cart.W)
