"""feature_importances_ (issue 12): on data whose informative features are known, they get the importance."""
import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression

from tao_nb.estimators import TAOClassifier, TAORegressor, TAOPathClassifier

X, y = make_classification(800, 10, n_informative=3, n_redundant=0, shuffle=False, class_sep=1.5, random_state=0)
XR, yR = make_regression(600, 10, n_informative=3, shuffle=False, random_state=0)


@pytest.mark.parametrize('make', [lambda: TAOClassifier(max_depth=3, random_state=0),
                                  lambda: TAOClassifier(max_depth=3, split_type='oblique', C=0.3, random_state=0),
                                  lambda: TAOPathClassifier(max_depths=3, Cs=[1.0, 0.1], random_state=0)],
                         ids=['axis', 'oblique', 'path'])
def test_informative_features_carry_the_importance(make):
    est = make().fit(X * np.arange(1, 11), y)                      # units differ per feature
    imp = est.feature_importances_
    assert imp.shape == (10,) and (imp >= 0).all()
    assert imp[:3].sum() > 0.8, imp


def test_regressor_importances():
    imp = TAORegressor(max_depth=3, random_state=0).fit(XR, yR).feature_importances_
    assert imp[:3].sum() > 0.8, imp
