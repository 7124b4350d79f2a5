"""Template starts (`01_base`): an unfitted scikit-learn tree as `init` / `inits` is grown by the optimizer, on the
rows it fits on, at each of its depths; the template itself stays unfitted."""
import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from tao_nb.estimators import TAOClassifier, TAOPathClassifier, TAORegressor, validation_split
from tao_nb.forest import TAOForestClassifier


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


MAKERS = {'TAOClassifier': lambda tpl: TAOClassifier(init=tpl, max_depth=3, random_state=0),
          'TAOPathClassifier': lambda tpl: TAOPathClassifier(inits=[tpl], max_depths=3, Cs=[1.0], random_state=0),
          'TAOForestClassifier': lambda tpl: TAOForestClassifier(init=tpl, n_estimators=2, max_depth=3, C=1.0,
                                                                 random_state=0)}


@pytest.mark.parametrize('name', MAKERS)
def test_a_templates_class_weight_is_keyed_by_the_labels_of_y(digits, name):
    "As in scikit-learn: a dict class_weight names y's labels, though the start is grown on their codes 0..K-1."
    X, y = digits
    make, w = MAKERS[name], np.linspace(1, 10, 10)
    names = np.array([f'digit {k}' for k in range(10)])          # sorted as their codes
    on_codes = make(DecisionTreeClassifier(class_weight=dict(enumerate(w)))).fit(X, y)
    on_names = make(DecisionTreeClassifier(class_weight=dict(zip(names, w)))).fit(X, names[y])
    np.testing.assert_array_equal(on_names.predict(X), names[on_codes.predict(X)])
    shifted = make(DecisionTreeClassifier(class_weight=dict(zip(range(1, 11), w)))).fit(X, y + 1)
    np.testing.assert_array_equal(shifted.predict(X), on_codes.predict(X) + 1)
    assert not np.array_equal(make(DecisionTreeClassifier()).fit(X, y).predict(X), on_codes.predict(X))
    with pytest.raises(ValueError, match='not labels of y'):
        make(DecisionTreeClassifier(class_weight={'rose': 2.0})).fit(X, names[y])
