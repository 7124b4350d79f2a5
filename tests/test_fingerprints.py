"""The layout changes of issue 11 (and later refactors) change no tree: seeded fits equal fingerprints saved before them."""
import numpy as np
import pytest

from fingerprints import DATA, arrays, cases

SAVED = np.load(DATA)
CASES = cases()


@pytest.mark.parametrize('name', sorted(CASES))
def test_same_tree_as_saved(name):
    tree = CASES[name]()
    for field, a in arrays(tree).items():
        b = SAVED[f'{name}.{field}']
        assert a.shape == b.shape, f"{name}: {field} has shape {a.shape}, saved {b.shape}"
        if a.dtype.kind in 'iub': np.testing.assert_array_equal(a, b, err_msg=f"{name}: {field}")
        else: np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12, err_msg=f"{name}: {field}")


def test_lazy_haar_features_grow_the_saved_tree():
    "Issue 31: the Haar tree grown on features computed when asked (`features='lazy'`) is haar_d4's saved tree."
    from sklearn.datasets import load_digits
    from tao_nb.haar import HaarFeatures, HaarTreeClassifier
    from tao_nb.sdt import SDTClassifier
    X, y = load_digits(return_X_y=True)
    sub = np.random.default_rng(0).choice(len(X), 600, replace=False)     # fingerprints' Xs, ys
    lazy = HaarTreeClassifier(HaarFeatures(), SDTClassifier(max_depth=4, random_state=0), features='lazy')
    tree = lazy.fit(X[sub], y[sub]).tree_
    for field, a in arrays(tree).items(): np.testing.assert_array_equal(a, SAVED[f'haar_d4.{field}'], err_msg=field)
