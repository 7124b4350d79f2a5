"""scikit-learn's estimator checks for every estimator the package exports."""
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from tao_nb.estimators import TAOClassifier, TAORegressor, TAOPathClassifier
from tao_nb.nongreedy import NonGreedyTreeClassifier


def _expected_failures(est):
    "Checks an axis-aligned tree without a minimum leaf weight cannot pass (scikit-learn's own tree does not either)."
    if isinstance(est, TAOClassifier) and est.split_type == 'axis' and est.init == 'cart':
        # class_weight {0: 1000, others: 1e-4} on noisy blobs: the weighted optimum of a depth-3 tree still isolates
        # pure regions of the light classes; DecisionTreeClassifier(max_depth=3) predicts class 0 on the same share
        # of the test points, below the check's 0.87, and passes only through min_weight_fraction_leaf
        # (test_sample_weight.py checks that the two shares are equal)
        return {'check_class_weight_classifiers': 'an unconstrained weighted tree, as DecisionTreeClassifier without min_weight_fraction_leaf'}
    if isinstance(est, TAOPathClassifier):
        # the validation split draws rows: repeated rows fall on both sides of it, a weighted row on one side
        # (test_sample_weight.py checks the equivalence at a fixed split)
        return {'check_sample_weight_equivalence_on_dense_data': 'the validation split is over rows, not weight'}
    return {}


@parametrize_with_checks([TAOClassifier(max_depth=3, random_state=0),
                          TAOClassifier(max_depth=3, init='random', random_state=0),
                          TAOClassifier(max_depth=3, split_type='oblique', C=1.0, random_state=0),
                          TAOClassifier(max_depth=3, split_type='oblique', C=1.0, solver='cd', random_state=0),
                          TAOPathClassifier(Cs=[1.0, 0.1], max_depths=3, random_state=0),
                          TAOPathClassifier(Cs=[1.0, 0.1], max_depths=3, inits='cart', cv=2, random_state=0),
                          TAOPathClassifier(Cs=[1.0], max_depths=3, inits=[DecisionTreeClassifier(min_samples_leaf=3)],
                                            random_state=0),
                          TAORegressor(max_depth=2, split_type='oblique', C=1.0, random_state=0),
                          TAORegressor(max_depth=3, random_state=0),
                          TAORegressor(max_depth=3, init='random', random_state=0),
                          NonGreedyTreeClassifier(max_depth=3, max_iter=5, random_state=0),
                          NonGreedyTreeClassifier(max_depth=3, max_iter=5, stable=True, inference='exact', random_state=0)],
                         expected_failed_checks=_expected_failures)
def test_sklearn_compatible(estimator, check):
    check(estimator)
