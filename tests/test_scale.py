"""A result must not depend on the units of X (issue 12 #1, #8): the same trees, predictions and scores
at scale 1, 1e-8 (CART would call such features constant) and 1e160 (squares overflow)."""
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_digits, load_diabetes

from tao_nb.estimators import TAOClassifier, TAORegressor
from tao_nb.ohmr import OneHotTAOClassifier
from tao_nb.tree import standardizer

X_DIG, Y_DIG = load_digits(return_X_y=True)
X_DIG, Y_DIG = X_DIG[:500], Y_DIG[:500]
X_DIA, Y_DIA = load_diabetes(return_X_y=True)


@pytest.mark.parametrize('make', [lambda: TAOClassifier(max_depth=4, random_state=0),
                                  lambda: TAOClassifier(max_depth=3, split_type='oblique', C=0.5, random_state=0),
                                  lambda: OneHotTAOClassifier(max_depth=3, random_state=0)],
                         ids=['axis', 'oblique', 'onehot'])
@pytest.mark.parametrize('scale', [1e-8, 1e160, 2.0 ** -1000])
def test_classifiers_do_not_depend_on_units(make, scale):
    ref = make().fit(X_DIG, Y_DIG)
    with warnings.catch_warnings():
        warnings.simplefilter('error', RuntimeWarning)          # no overflow/underflow warnings either
        est = make().fit(X_DIG * scale, Y_DIG)
        pred = est.predict(X_DIG * scale)
    np.testing.assert_array_equal(pred, ref.predict(X_DIG))
    assert est.tree_.n_leaves == ref.tree_.n_leaves > 1


@pytest.mark.parametrize('scale', [1e-8, 1e160])
def test_regressor_does_not_depend_on_units(scale):
    ref = TAORegressor(max_depth=4, random_state=0).fit(X_DIA, Y_DIA)
    est = TAORegressor(max_depth=4, random_state=0).fit(X_DIA * scale, Y_DIA)
    np.testing.assert_allclose(est.predict(X_DIA * scale), ref.predict(X_DIA), rtol=1e-12)
    assert est.score(X_DIA * scale, Y_DIA) > 0.5


def test_standardizer_is_exact_and_overflow_free():
    mu, sd = standardizer(X_DIG)
    np.testing.assert_array_equal(mu, X_DIG.mean(0))                   # bit-identical on ordinary data
    np.testing.assert_array_equal(sd, np.where(X_DIG.std(0) > 0, X_DIG.std(0), 1.0))
    with warnings.catch_warnings():
        warnings.simplefilter('error', RuntimeWarning)
        mu2, sd2 = standardizer(X_DIG * 1e200)
    np.testing.assert_allclose(sd2[sd > 1], sd[sd > 1] * 1e200, rtol=1e-12)
