"""Template starts (`01_base`): an unfitted scikit-learn tree as `init` / `inits` is grown by the optimizer, on the
rows it fits on, at each of its depths; the template itself stays unfitted."""
import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from tao_nb.estimators import TAOClassifier, TAOPathClassifier, TAORegressor, validation_split


@pytest.fixture(scope='module')
def digits():
    X, y = load_digits(return_X_y=True)
    return X[:600], y[:600]


def test_path_grows_a_template_on_its_fitting_rows_only(digits):
    "The same path as from the template's tree grown by hand on the estimator's fitting rows (not its validation)."
    X, y = digits
    X_fit, _, y_fit, *_ = validation_split(X, y, 0.2, 0)
    by_hand = DecisionTreeClassifier(max_depth=4, min_samples_leaf=5, random_state=0).fit(X_fit, y_fit)
    on_all = DecisionTreeClassifier(max_depth=4, min_samples_leaf=5, random_state=0).fit(X, y)
    tpl = DecisionTreeClassifier(min_samples_leaf=5)
    kw = dict(max_depths=4, Cs=[1.0], random_state=0)
    grown = TAOPathClassifier(inits=[tpl], **kw).fit(X, y)
    given = TAOPathClassifier(inits=[by_hand], **kw).fit(X, y)
    leaky = TAOPathClassifier(inits=[on_all], **kw).fit(X, y)
    np.testing.assert_array_equal(grown.predict(X), given.predict(X))
    assert not np.array_equal(grown.predict(X), leaky.predict(X))      # the rows it grows on matter
    assert not hasattr(tpl, 'tree_') and grown.start_ == (tpl, 4)


def test_a_template_runs_at_every_depth_and_keeps_its_options(digits):
    X, y = digits
    tpl = DecisionTreeClassifier(min_samples_leaf=40)
    clf = TAOPathClassifier(inits=[tpl, 'cart'], max_depths=(3, 5), Cs=[1.0], random_state=0).fit(X, y)
    assert len(clf.paths_) == 4                                      # the template at both depths, as 'cart'
    one = TAOClassifier(init=tpl, max_depth=5, random_state=0).fit(X, y)
    counts = np.bincount(one.initial_tree_.apply(X))
    assert counts[counts > 0].min() >= 40                             # min_samples_leaf reached the start
    assert one.initial_tree_.n_leaves < TAOClassifier(max_depth=5, random_state=0).fit(X, y).initial_tree_.n_leaves


def test_a_template_of_the_wrong_kind_is_refused(digits):
    X, y = digits
    with pytest.raises(ValueError, match='is a regressor'):
        TAOClassifier(init=DecisionTreeRegressor(), max_depth=3).fit(X, y)
    with pytest.raises(ValueError, match='is a classifier'):
        TAORegressor(init=DecisionTreeClassifier(), max_depth=3).fit(X, y.astype(float))
