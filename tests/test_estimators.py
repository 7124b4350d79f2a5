"""scikit-learn's estimator checks for every estimator the package exports."""
from sklearn.utils.estimator_checks import parametrize_with_checks

from tao_nb.estimators import TAOClassifier, TAORegressor, TAOPathClassifier
from tao_nb.nongreedy import NonGreedyTreeClassifier


@parametrize_with_checks([TAOClassifier(max_depth=3, random_state=0),
                          TAOClassifier(max_depth=3, init='random', random_state=0),
                          TAOClassifier(max_depth=3, node='oblique', C=1.0, random_state=0),
                          TAOPathClassifier(Cs=[1.0, 0.1], max_depth=3, random_state=0),
                          TAORegressor(max_depth=2, node='oblique', C=1.0, random_state=0),
                          TAORegressor(max_depth=3, random_state=0),
                          TAORegressor(max_depth=3, init='random', random_state=0),
                          NonGreedyTreeClassifier(max_depth=3, epochs=5, random_state=0),
                          NonGreedyTreeClassifier(max_depth=3, epochs=5, stable=True, inference='exact', random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)
