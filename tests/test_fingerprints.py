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
