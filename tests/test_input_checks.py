"""Clear errors and no silent wrong answers (issue 12 #3, #6, #9, #10): each case failed or misbehaved before."""
import io
import contextlib
import warnings

import matplotlib
import numpy as np
import pytest
from sklearn.datasets import load_digits, load_diabetes

from tao_nb.estimators import TAOClassifier, TAORegressor, TAOPathClassifier
from tao_nb.path import tao_path
from tao_nb.tree import Tree

X_DIG, Y_DIG = load_digits(return_X_y=True)
X_DIG, Y_DIG = X_DIG[:300], Y_DIG[:300]


def test_path_classifier_warns_when_it_selects_on_training_data():
    y = Y_DIG.copy(); y[0] = 42                                     # a class with one point
    with pytest.warns(UserWarning, match='selected on the training data itself'):
        TAOPathClassifier(Cs=[1.0, 0.3], max_depths=3, random_state=0).fit(X_DIG, y)


def test_axis_nodes_refuse_an_oblique_start_clearly():
    oblique = TAOClassifier(max_depth=2, split_type='oblique', random_state=0).fit(X_DIG, Y_DIG)
    with pytest.raises(ValueError, match="split_type='axis' needs an axis-aligned initial tree"):
        TAOClassifier(init=oblique.tree_, split_type='axis').fit(X_DIG, Y_DIG)


def test_tao_path_prints_nothing_by_default():
    out = io.StringIO()
    with contextlib.redirect_stdout(out): tao_path(X_DIG, Y_DIG, Cs=[1.0], max_depth=3)
    assert out.getvalue() == ''


def test_demo_figure_leaves_the_backend_alone(tmp_path):
    from tao_nb.demo import history_figure
    before = matplotlib.get_backend()
    history_figure([dict(depth=2, history=np.array([5.0, 3.0]))], tmp_path / 'f.png')
    assert matplotlib.get_backend() == before and (tmp_path / 'f.png').exists()


def test_regressor_with_column_target_predicts_a_vector():
    X, y = load_diabetes(return_X_y=True)
    reg = TAORegressor(max_depth=3, random_state=0).fit(X, y[:, None])
    assert reg.predict(X).shape == (len(X),)


def test_tree_routing_checks_the_width_of_x():
    t = TAOClassifier(max_depth=2, random_state=0).fit(X_DIG, Y_DIG).tree_
    for bad in (X_DIG[:, :10], np.c_[X_DIG, X_DIG[:, :1]], X_DIG[0]):
        with pytest.raises(ValueError, match='columns'): t.apply(bad)
        with pytest.raises(ValueError, match='columns'): t.predict_value(bad)
        with pytest.raises(ValueError, match='columns'): t.decision_paths(bad)


@pytest.mark.parametrize('Cs', [['3'], [1.0, '0.5'], [True, 0.5]])
def test_values_of_C_must_be_numbers(Cs):
    with pytest.raises(ValueError, match='Cs must be numbers'): tao_path(X_DIG, Y_DIG, Cs=Cs, max_depth=2)


@pytest.mark.parametrize('make', [lambda: TAOClassifier(init='random', max_depth=30),
                                  lambda: TAOClassifier(init='random', max_depth=24, split_type='oblique')])
def test_random_starts_too_large_to_build_are_refused(make):
    "Issue 12 #7: a complete random tree of depth 30 asked for 16 GiB; now a clear error, at once."
    with pytest.raises(ValueError, match='complete tree of depth'): make().fit(X_DIG, Y_DIG)
