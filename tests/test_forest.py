"""Issue 32: the forests pass scikit-learn's estimator checks; warm starts add exactly the trees of a single fit; the
same forest fitted on a real Dask LocalCluster (2 worker processes, 1 thread each) has the same trees as n_jobs=1."""
import logging

import numpy as np
import pytest
from sklearn.datasets import load_digits
from sklearn.utils.estimator_checks import parametrize_with_checks

from tao_nb.forest import OOB_CS, TAOForestClassifier, TAOForestRegressor

SMALL = dict(n_estimators=3, max_depth=3, random_state=0)


def _expected_failures(est):
    # bootstrap samples are drawn over rows: a weight of 2 is not the same draw as a repeated row (as for
    # scikit-learn's own forests)
    out = {'check_sample_weight_equivalence_on_dense_data': 'bootstrap samples draw rows, not weight'}
    if est.split_type == 'axis':
        # as TAOClassifier's axis-aligned trees (tests/test_estimators.py): unconstrained weighted trees still isolate
        # pure regions of the light classes
        out['check_class_weight_classifiers'] = 'unconstrained weighted axis-aligned trees, as DecisionTreeClassifier'
    return out


@parametrize_with_checks([TAOForestClassifier(C=1.0, **SMALL), TAOForestClassifier(split_type='axis', C=1.0, **SMALL),
                          TAOForestClassifier(C=1.0, max_features='sqrt', **SMALL),
                          TAOForestRegressor(C=1.0, **SMALL)], expected_failed_checks=_expected_failures)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def _trees(forest):
    return [_tree_arrays(e) for e in forest.estimators_]


def _tree_arrays(est):
    t = est.tree_
    return t.left, t.right, t.threshold, t.value, t.feature, t.W


def _same(a, b):
    return len(a) == len(b) and all(all((x is None and y is None) or np.array_equal(x, y) for x, y in zip(s, t))
                                    for s, t in zip(a, b))


@pytest.fixture(scope='module')
def digits():
    X, y = load_digits(return_X_y=True)
    return X[:400], y[:400]


def test_warm_start_adds_the_trees_of_a_single_fit(digits):
    X, y = digits
    once = TAOForestClassifier(n_estimators=4, max_depth=3, C=1.0, random_state=0).fit(X, y)
    warm = TAOForestClassifier(n_estimators=2, max_depth=3, C=1.0, random_state=0, warm_start=True).fit(X, y)
    first = warm.estimators_[:2]
    warm.set_params(n_estimators=4).fit(X, y)
    assert warm.estimators_[:2] == first and _same(_trees(once), _trees(warm))
    np.testing.assert_array_equal(once.predict_proba(X), warm.predict_proba(X))
    with pytest.raises(ValueError, match='must be >='):
        warm.set_params(n_estimators=3).fit(X, y)


def test_dask_cluster_fits_the_same_trees(digits):
    "A real LocalCluster: the forest under joblib's dask backend equals the n_jobs=1 forest, tree for tree."
    joblib = pytest.importorskip('joblib')
    distributed = pytest.importorskip('distributed')
    X, y = digits
    params = dict(n_estimators=4, max_depth=3, C=1.0, random_state=0)
    local = TAOForestClassifier(**params, n_jobs=1).fit(X, y)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=':0',
                                  silence_logs=logging.ERROR) as cluster, \
            distributed.Client(cluster) as client, joblib.parallel_backend('dask'):
        remote = TAOForestClassifier(**params, n_jobs=-1).fit(X, y)
        assert len(client.scheduler_info()['workers']) == 2
    assert _same(_trees(local), _trees(remote))
    np.testing.assert_array_equal(local.predict_proba(X), remote.predict_proba(X))


def test_verbose_counts_trees_without_carriage_return_spam(digits, capsys):
    "verbose=True: a bar on stderr; outside a terminal it is drawn a few times, not once per tree; quiet by default."
    X, y = digits
    TAOForestClassifier(n_estimators=6, max_depth=2, C=1.0, random_state=0, verbose=True).fit(X, y)
    err = capsys.readouterr().err
    assert 'TAOForestClassifier: trees' in err and '6/6' in err and err.count('\r') <= 3
    TAOForestClassifier(n_estimators=2, max_depth=2, C=1.0, random_state=0).fit(X, y)
    assert capsys.readouterr().err == ''


def test_oob_choice_of_C(digits):
    "C=None: one forest per value of OOB_CS from the same samples; the kept trees are those of the lowest OOB error."
    X, y = digits
    chosen = TAOForestClassifier(n_estimators=3, max_depth=3, oob_score=True, random_state=0).fit(X, y)
    k = list(OOB_CS).index(chosen.C_)
    assert chosen.oob_errors_[k] == chosen.oob_errors_.min() and chosen.oob_errors_.shape == (len(OOB_CS),)
    given = TAOForestClassifier(n_estimators=3, max_depth=3, C=chosen.C_, oob_score=True, random_state=0).fit(X, y)
    assert _same(_trees(chosen), _trees(given)) and given.oob_errors_ is None
    assert abs(1 - given.oob_score_ - chosen.oob_errors_[k]) < 1e-12      # unweighted: the OOB error is 1 - accuracy


def test_a_grid_of_C_is_chosen_on_oob_error(digits):
    "C as a sequence: the out-of-bag rule over those values (any order), the same as C=None when they are OOB_CS."
    X, y = digits
    default = TAOForestClassifier(n_estimators=3, max_depth=3, random_state=0).fit(X, y)
    grid = TAOForestClassifier(n_estimators=3, max_depth=3, C=list(OOB_CS)[::-1], random_state=0).fit(X, y)
    assert grid.Cs_ == default.Cs_ == OOB_CS and grid.C_ == default.C_
    assert np.array_equal(grid.oob_errors_, default.oob_errors_) and _same(_trees(grid), _trees(default))
    two = TAOForestClassifier(n_estimators=3, max_depth=3, C=(OOB_CS[2], 100.0), random_state=0).fit(X, y)
    assert two.Cs_ == (100.0, OOB_CS[2]) and two.oob_errors_[two.Cs_.index(two.C_)] == two.oob_errors_.min()
    assert np.isclose(two.oob_errors_[1], default.oob_errors_[2])    # the same trees at C = 0.1 as in the default's grid


def test_max_features_draws_the_features_of_each_start(digits):
    "max_features: each tree's CART start is scikit-learn's with that max_features on its sample (seeded by the tree)."
    from sklearn.tree import DecisionTreeClassifier
    from tao_nb.base import standardizer
    from tao_nb.forest import MemberSpec, bootstrap_counts, grown_start
    X, y = digits
    params = dict(max_depth=3, init='cart', split_type='oblique')
    seed, sw = 5, bootstrap_counts(5, len(y), len(y))
    start = grown_start(MemberSpec(None, params, len(y), True, (1.0,), 'sqrt'), X, y, sw, seed)
    mu, sd = standardizer(X, sw)
    cart = DecisionTreeClassifier(max_depth=3, max_features='sqrt', random_state=seed).fit((X - mu) / sd, y, sw)
    inner = cart.tree_.feature >= 0
    np.testing.assert_array_equal(start.feature[~start.is_leaf], cart.tree_.feature[inner])
    full = DecisionTreeClassifier(max_depth=3, random_state=seed).fit((X - mu) / sd, y, sw)
    assert not np.array_equal(cart.tree_.feature, full.tree_.feature)       # a random subset, not all 64 features
    assert grown_start(MemberSpec(None, params, len(y), True, (1.0,)), X, y, sw, seed) is None
    a = TAOForestClassifier(n_estimators=2, max_depth=3, C=1.0, max_features=8, random_state=0).fit(X, y)
    b = TAOForestClassifier(n_estimators=2, max_depth=3, C=1.0, max_features=8, random_state=0).fit(X, y)
    c = TAOForestClassifier(n_estimators=2, max_depth=3, C=1.0, random_state=0).fit(X, y)
    assert _same(_trees(a), _trees(b)) and not _same(_trees(a), _trees(c))
    assert all(e.init == 'cart' for e in a.estimators_)        # the grown start is not shipped back
    with pytest.raises(ValueError, match="needs init='cart'"):
        TAOForestClassifier(init='random', max_features=2).fit(X, y)


def test_a_template_start_is_grown_on_each_sample_with_the_trees_seed(digits):
    "init=an unfitted DecisionTreeClassifier: each member is the TAO tree of that template on its own sample."
    from sklearn.tree import DecisionTreeClassifier
    from tao_nb.estimators import TAOClassifier
    from tao_nb.forest import bootstrap_counts
    X, y = digits
    template = DecisionTreeClassifier(max_features='sqrt', min_samples_leaf=5)
    f = TAOForestClassifier(n_estimators=3, max_depth=4, init=template, C=1.0, random_state=0).fit(X, y)
    assert not hasattr(template, 'tree_')                        # the user's template stays unfitted
    for e, tree in zip(f.estimators_, _trees(f)):
        sw = bootstrap_counts(e.random_state, len(y), len(y))
        one = TAOClassifier(max_depth=4, init=template, split_type='oblique', C=1.0, node_tol=1e-2,
                            random_state=e.random_state)
        one.fit(X, y, sw)
        assert _same([tree], [_tree_arrays(one)]), e.random_state
    plain = TAOForestClassifier(n_estimators=3, max_depth=4, C=1.0, random_state=0).fit(X, y)
    assert not _same(_trees(f), _trees(plain))


def _driver_peak(n_trees, X, y, n_jobs):
    "(the driver's tracemalloc peak during fit, bytes of the fitted trees pickled) for a forest of n_trees."
    import pickle
    import tracemalloc
    tracemalloc.start()
    f = TAOForestClassifier(n_estimators=n_trees, max_depth=3, C=1.0, random_state=0, n_jobs=n_jobs).fit(X, y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, len(pickle.dumps(f.estimators_))


@pytest.mark.parametrize('where', ['n_jobs=1', 'n_jobs=2', 'LocalCluster'])
def test_driver_memory_grows_only_by_the_trees(where):
    """Issue 32: the driver's peak memory grows with the number of trees by at most the trees themselves (twice: a
    tree arrives pickled, then unpickled), not by an array over the rows per tree (20,000 rows: 160 kB each): in one
    process, with joblib's processes, and on a real 2-worker LocalCluster."""
    import contextlib
    rng = np.random.RandomState(0)
    X = rng.normal(size=(20_000, 10))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    with contextlib.ExitStack() as stack:
        if where == 'LocalCluster':
            joblib = pytest.importorskip('joblib')
            distributed = pytest.importorskip('distributed')
            cluster = stack.enter_context(distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=':0', silence_logs=logging.ERROR))
            stack.enter_context(distributed.Client(cluster))
            stack.enter_context(joblib.parallel_backend('dask'))
        n_jobs = {'n_jobs=1': 1, 'n_jobs=2': 2, 'LocalCluster': -1}[where]
        _driver_peak(2, X, y, n_jobs)                  # warm: one-time allocations (compilation, a pool) first
        (p4, t4), (p12, t12) = (_driver_peak(k, X, y, n_jobs) for k in (4, 12))
    assert p12 - p4 <= 2 * (t12 - t4) + 2 ** 19, (p4, p12, t4, t12)
