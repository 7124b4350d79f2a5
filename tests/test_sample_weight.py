"""Issue 12: sample_weight and class_weight (integer weights = repeated rows, zero weights = dropped rows, checked
weights never modified, clear errors) and progress through tqdm (silent by default)."""
import copy
import io
import sys

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_digits, make_blobs
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from tao_nb.estimators import TAOClassifier, TAOPathClassifier, TAORegressor
from tao_nb.ohmr import OneHotTAOClassifier
from tao_nb.oblique_fit import oblique_start
from tao_nb.path import PathData, PathSettings, run_path, select_index, tao_path

X, y = load_digits(return_X_y=True)
X, y = X[:500], y[:500]
W = np.random.default_rng(0).integers(0, 4, len(y)).astype(float)   # 0 to 3: dropped, single, repeated rows
Xd, yd = load_diabetes(return_X_y=True)
Wd = np.random.default_rng(1).integers(0, 4, len(yd)).astype(float)

TREE_ARRAYS = ('left', 'right', 'feature', 'threshold', 'value')


def assert_same_tree(a, b, X_, exact=True):
    for k in TREE_ARRAYS:
        A, B = getattr(a.tree_, k), getattr(b.tree_, k)
        if exact or k in ('left', 'right', 'feature'): np.testing.assert_array_equal(A, B, err_msg=k)
        else: np.testing.assert_allclose(A, B, atol=1e-12, err_msg=k)
    np.testing.assert_array_equal(a.predict(X_), b.predict(X_))


def weighted_and_repeated(est, X_, y_, w):
    a = copy.deepcopy(est).fit(X_, y_, sample_weight=w)
    reps = w.astype(int)
    b = copy.deepcopy(est).fit(np.repeat(X_, reps, 0), np.repeat(y_, reps))
    return a, b


EXACT = [TAOClassifier(max_depth=5, random_state=0), TAOClassifier(max_depth=5, init='random', random_state=0),
         TAOClassifier(max_depth=4, random_state=0, prune=False), OneHotTAOClassifier(max_depth=4, random_state=0)]


@pytest.mark.parametrize('est', EXACT, ids=lambda e: f"{type(e).__name__}-{e.init}-prune{e.prune}")
def test_integer_weights_are_repeated_rows_classifiers(est):
    a, b = weighted_and_repeated(est, X, y, W)
    assert_same_tree(a, b, X, exact=not isinstance(est, OneHotTAOClassifier))
    np.testing.assert_allclose(a.history_, b.history_, rtol=1e-12)
    unweighted = copy.deepcopy(est).fit(X, y)
    assert not np.array_equal(unweighted.predict_proba(X), a.predict_proba(X))   # the weights mattered


@pytest.mark.parametrize('init', ['cart', 'random'])
def test_integer_weights_are_repeated_rows_regressor(init):
    a, b = weighted_and_repeated(TAORegressor(max_depth=4, init=init, random_state=0), Xd, yd, Wd)
    assert_same_tree(a, b, Xd, exact=False)
    np.testing.assert_allclose(a.history_, b.history_, rtol=1e-12)


def test_oblique_nodes_agree_to_liblinear_tolerance():
    # liblinear's coordinate descent visits repeated rows separately: the same tree structure and predictions,
    # weights equal to its tolerance (measured: ~1e-3), not bit for bit
    a, b = weighted_and_repeated(TAOClassifier(max_depth=3, split_type='oblique', C=0.3, random_state=0), X, y, W)
    for k in ('left', 'right'): np.testing.assert_array_equal(getattr(a.tree_, k), getattr(b.tree_, k))
    np.testing.assert_allclose(a.tree_.W, b.tree_.W, atol=1e-2)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    np.testing.assert_allclose(a.history_, b.history_, rtol=1e-4)


@pytest.mark.parametrize('est', [TAOClassifier(max_depth=4, random_state=0), TAOClassifier(max_depth=4, init='random', random_state=0),
                                 TAOClassifier(max_depth=3, split_type='oblique', random_state=0)], ids=['cart', 'random', 'oblique'])
def test_zero_weights_are_dropped_rows(est):
    keep = W > 0
    a = copy.deepcopy(est).fit(X, y, sample_weight=keep.astype(float))
    b = copy.deepcopy(est).fit(X[keep], y[keep])
    assert_same_tree(a, b, X)


def test_zero_weights_keep_a_class_but_never_predict_it():
    "A class whose rows all weigh 0 stays in classes_ (issue 27), with probability 0; the tree is the fit without its rows."
    w = (y != 7).astype(float)
    clf = TAOClassifier(max_depth=4, random_state=0).fit(X, y, sample_weight=w)
    assert 7 in clf.classes_ and 7 not in clf.predict(X) and clf.predict_proba(X)[:, 7].max() == 0
    ref = TAOClassifier(max_depth=4, random_state=0).fit(X[y != 7], y[y != 7])
    np.testing.assert_array_equal(clf.predict(X), ref.predict(X))
    np.testing.assert_array_equal(clf.tree_.feature, ref.tree_.feature)


@pytest.mark.parametrize('make', [lambda: TAOClassifier(max_depth=3, random_state=0),
                                  lambda: TAOPathClassifier(Cs=[1.0], max_depths=2, inits='cart', random_state=0),
                                  lambda: OneHotTAOClassifier(max_depth=3, random_state=0)])
def test_weights_not_mutated_and_checked(make):
    w = W.copy(); w0 = w.copy()
    make().fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(w, w0)
    for bad, match in [(-w, 'Negative'), (np.r_[np.nan, w[1:]], 'NaN'), (w[:-1], 'sample_weight.shape'),
                       (np.zeros_like(w), 'zero')]:
        with pytest.raises(ValueError, match=match): make().fit(X, y, sample_weight=bad)


def test_regressor_weights_checked():
    with pytest.raises(ValueError, match='Negative'): TAORegressor(max_depth=2).fit(Xd, yd, sample_weight=-Wd)
    with pytest.raises(ValueError, match='sample_weight.shape'): TAORegressor(max_depth=2).fit(Xd, yd, sample_weight=Wd[:3])


def test_path_selection_at_a_fixed_split_weights_are_repeated_rows():
    # TAOPathClassifier's validation split is over rows, and liblinear's oblique nodes agree with repeated rows only
    # to its tolerance; what holds exactly: given the same trees, weighted training and validation parts measure
    # and select as the repeated rows do
    Xf, Xv, yf, yv, wf, wv = train_test_split(X, y, W, test_size=0.3, stratify=y, random_state=0)
    Cs, classes = np.array([3.0, 1.0, 0.3, 0.1]), np.arange(10)

    def path(Xf, yf, Xv, yv, wf=None, wv=None):
        start = oblique_start('cart', Xf, yf, 3, 0, classes, wf)
        return run_path(PathData(Xf, yf, classes, Xv, yv, wf, wv), start, Cs, PathSettings())

    pw = path(Xf, yf, Xv, yv, wf, wv)
    rf, rv = wf.astype(int), wv.astype(int)
    Xfr, yfr, Xvr, yvr = np.repeat(Xf, rf, 0), np.repeat(yf, rf), np.repeat(Xv, rv, 0), np.repeat(yv, rv)
    err = lambda t, A, b: float(np.mean(t.predict_value(A).argmax(1) != b))       # independent of the path's records
    for key, (A, b) in (('train_error', (Xfr, yfr)), ('val_error', (Xvr, yvr))):
        np.testing.assert_allclose(pw[key], [err(t, A, b) for t in pw.trees], atol=1e-12)
    assert select_index([err(t, Xvr, yvr) for t in pw.trees], pw['nonzeros'], len(yvr)) == pw.best_index
    pu = path(Xf, yf, Xv, yv)
    assert not np.allclose(pu['val_error'], pw['val_error'])            # the weights mattered
    pr = path(Xfr, yfr, Xvr, yvr)                                       # the whole path on repeated rows: close
    np.testing.assert_allclose(pr['val_error'], pw['val_error'], atol=0.03)


def test_path_classifier_weighted_fit():
    clf = TAOPathClassifier(Cs=[1.0, 0.3], max_depths=3, inits='cart', random_state=0).fit(X, y, sample_weight=W)
    keep = W > 0
    ref = TAOPathClassifier(Cs=[1.0, 0.3], max_depths=3, inits='cart', random_state=0).fit(X[keep], y[keep], sample_weight=W[keep])
    np.testing.assert_array_equal(clf.tree_.W, ref.tree_.W)            # zero weights = dropped rows, split included


def test_class_weight_balanced_improves_balanced_accuracy():
    Xtr, Xte, ytr, yte = train_test_split(*load_digits(return_X_y=True), test_size=0.3, stratify=load_digits().target, random_state=0)
    nine_tr, nine_te = (ytr == 9).astype(int), (yte == 9).astype(int)
    for make in (lambda **k: TAOClassifier(max_depth=3, random_state=0, **k),
                 lambda **k: TAOPathClassifier(Cs=[1.0, 0.3], max_depths=3, inits='cart', random_state=0, **k)):
        plain, bal = make().fit(Xtr, nine_tr), make(class_weight='balanced').fit(Xtr, nine_tr)
        assert balanced_accuracy_score(nine_te, bal.predict(Xte)) > balanced_accuracy_score(nine_te, plain.predict(Xte)) + 0.02


@pytest.mark.parametrize('make', [lambda **k: TAOClassifier(max_depth=4, random_state=0, **k),
                                  lambda **k: OneHotTAOClassifier(max_depth=3, random_state=0, **k),
                                  lambda **k: TAOPathClassifier(Cs=[1.0, 0.3], max_depths=3, inits='cart', random_state=0, **k)])
def test_class_weight_dict_is_sample_weight(make):
    labels = np.array(list('abcdefghij'))[y]
    cw = {c: 1.0 + i % 3 for i, c in enumerate('abcdefghij')}
    a = make(class_weight=cw).fit(X, labels)
    b = make().fit(X, labels, sample_weight=np.array([cw[c] for c in labels]))
    c = make(class_weight=cw).fit(X, labels, sample_weight=W)             # class weights multiply sample weights
    d = make().fit(X, labels, sample_weight=W * np.array([cw[c] for c in labels]))
    for (p, q) in ((a, b), (c, d)):
        for k in TREE_ARRAYS: np.testing.assert_array_equal(getattr(p.tree_, k), getattr(q.tree_, k))
    assert not np.array_equal(a.tree_.threshold, make().fit(X, labels).tree_.threshold)


def test_class_weight_check_matches_decision_tree():
    # scikit-learn's check_class_weight_classifiers (expected to fail in test_estimators.py): class 0 weighs 1000,
    # the others 1e-4, on noisy blobs; a depth-3 tree (scikit-learn's too, without min_weight_fraction_leaf)
    # still predicts the light classes in their pure regions: class 0 on fewer than 0.87 of the test points
    Xb, yb = make_blobs(centers=2, random_state=0, cluster_std=20)
    Xtr, Xte, ytr, yte = train_test_split(Xb, yb, test_size=0.5, random_state=0)
    cw = {0: 1000, 1: 0.0001}
    tao = TAOClassifier(max_depth=3, random_state=0, class_weight=cw).fit(Xtr, ytr)
    cart = DecisionTreeClassifier(max_depth=3, random_state=0, class_weight=cw).fit(Xtr, ytr)
    share = np.mean(tao.predict(Xte) == 0)
    assert share == np.mean(cart.predict(Xte) == 0) and share <= 0.87       # as scikit-learn's tree: the check's 0.87 fails
    heavy = ytr == 0
    assert not (tao.predict(Xtr[heavy]) != 0).any()                      # no class-0 training point is misclassified


def test_bad_class_weight():
    with pytest.raises(ValueError, match='class_weight'):
        TAOClassifier(class_weight='heavy').fit(X, y)


# ---- progress -------------------------------------------------------------------------------------------------
def test_silent_by_default(capsys):
    tao_path(X, y, Cs=[1.0, 0.3], max_depth=2)
    TAOPathClassifier(Cs=[1.0, 0.3], max_depths=2, random_state=0).fit(X, y)
    TAOPathClassifier(Cs=[1.0, 0.3], max_depths=2, random_state=0, n_jobs=2).fit(X, y)
    out, err = capsys.readouterr()
    assert out == '' and err == ''


class _Terminal(io.StringIO):
    "A stderr that says it is a terminal: tqdm draws its bars there (and stays silent on a file or a pipe)."
    def isatty(self): return True


def test_verbose_shows_progress(capsys, monkeypatch):
    TAOPathClassifier(Cs=[1.0, 0.3], max_depths=2, random_state=0, verbose=True).fit(X, y)
    assert capsys.readouterr().err == ''                # not a terminal: no carriage-return lines (issue 30)
    monkeypatch.setattr(sys, 'stderr', _Terminal())
    TAOPathClassifier(Cs=[1.0, 0.3], max_depths=2, random_state=0, verbose=True).fit(X, y)
    err = sys.stderr.getvalue()
    assert 'TAOPathClassifier: starts' in err and '2/2' in err and 'C=0.3' in err
    monkeypatch.setattr(sys, 'stderr', _Terminal())
    tao_path(X, y, Cs=[1.0, 0.3], max_depth=2, settings=PathSettings(verbose=True))
    assert '2/2' in sys.stderr.getvalue()


def test_verbose_parallel_counts_finished_paths(monkeypatch):
    monkeypatch.setattr(sys, 'stderr', _Terminal())
    a = TAOPathClassifier(Cs=[1.0, 0.3], max_depths=2, random_state=0, verbose=True, n_jobs=2).fit(X, y)
    assert '2/2' in sys.stderr.getvalue()
    b = TAOPathClassifier(Cs=[1.0, 0.3], max_depths=2, random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.tree_.W, b.tree_.W)                   # the paths come back in the order of starts


def test_demo_shows_progress_unless_quiet(monkeypatch, tmp_path):
    import tao_nb.demo as demo
    calls = []
    monkeypatch.setattr(demo, 'sparse_oblique_on_digits', lambda **k: calls.append(k) or k)
    monkeypatch.setattr(demo, 'format_oblique', lambda res: '')
    for argv, verbose in ((['--depths', '2'], True), (['--depths', '2', '--quiet'], False)):
        demo.main(argv + ['--figure', str(tmp_path / 'h.png')])
        assert calls.pop() == {'verbose': verbose}


# ---- SDT and Haar trees ---------------------------------------------------------------------------------------
from tao_nb.haar import HaarTreeClassifier  # noqa: E402
from tao_nb.sdt import SDTClassifier  # noqa: E402


@pytest.mark.parametrize('criterion', ['gini', 'misclassification'])
def test_sdt_integer_weights_are_repeated_rows(criterion):
    # n_halvings=0 is the exhaustive search; with n_halvings > 0 the random batches are drawn by point (see 15_sdt)
    est = SDTClassifier(max_depth=6, n_halvings=0, criterion=criterion, random_state=0)
    a, b = weighted_and_repeated(est, X, y, W)
    assert_same_tree(a, b, X)
    assert not np.array_equal(a.tree_.threshold, copy.deepcopy(est).fit(X, y).tree_.threshold)


def test_sdt_zero_weights_are_dropped_rows_and_class_weight():
    keep = W > 0
    for est in (SDTClassifier(max_depth=6, random_state=0), SDTClassifier(max_depth=6, n_halvings=2, batch_exponent=1, random_state=0)):
        assert_same_tree(copy.deepcopy(est).fit(X, y, sample_weight=keep * 1.0), copy.deepcopy(est).fit(X[keep], y[keep]), X)
    cw = {k: 1.0 + k % 3 for k in range(10)}
    a = SDTClassifier(max_depth=5, random_state=0, class_weight=cw).fit(X, y)
    b = SDTClassifier(max_depth=5, random_state=0).fit(X, y, sample_weight=np.array([cw[k] for k in y]))
    assert_same_tree(a, b, X)


def test_sdt_weights_checked_and_not_mutated():
    w = W.copy()
    SDTClassifier(max_depth=3).fit(X, y, sample_weight=w)
    np.testing.assert_array_equal(w, W)
    with pytest.raises(ValueError, match='Negative'): SDTClassifier().fit(X, y, sample_weight=-W)
    with pytest.raises(ValueError, match='sample_weight.shape'): SDTClassifier().fit(X, y, sample_weight=W[:10])


def test_sdt_balanced_improves_balanced_accuracy():
    Xa, ya = load_digits(return_X_y=True)
    Xtr, Xte, ytr, yte = train_test_split(Xa, (ya == 9).astype(int), test_size=0.3, stratify=ya, random_state=0)
    plain = SDTClassifier(max_depth=3, random_state=0).fit(Xtr, ytr)
    bal = SDTClassifier(max_depth=3, random_state=0, class_weight='balanced').fit(Xtr, ytr)
    assert balanced_accuracy_score(yte, bal.predict(Xte)) > balanced_accuracy_score(yte, plain.predict(Xte)) + 0.02


def test_haar_tree_passes_weights_to_sdt():
    est = HaarTreeClassifier(tree=SDTClassifier(max_depth=4, n_halvings=0, random_state=0))
    a, b = weighted_and_repeated(est, X, y, W)
    np.testing.assert_array_equal(a.tree_.feature, b.tree_.feature)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))


def test_sdt_progress(capsys, monkeypatch):
    a = SDTClassifier(max_depth=4, random_state=0).fit(X, y)
    assert capsys.readouterr() == ('', '')
    SDTClassifier(max_depth=4, random_state=0, verbose=True).fit(X, y)
    assert capsys.readouterr() == ('', '')              # not a terminal: silent
    monkeypatch.setattr(sys, 'stderr', _Terminal())
    b = SDTClassifier(max_depth=4, random_state=0, verbose=True).fit(X, y)
    assert 'SDTClassifier: depth levels' in sys.stderr.getvalue()
    np.testing.assert_array_equal(a.tree_.threshold, b.tree_.threshold)


def test_oblique_cart_start_is_weighted():
    est = TAOClassifier(max_depth=3, init='oblique', split_type='oblique', C=0.3, random_state=0)
    a, b = weighted_and_repeated(est, X, y, W)
    np.testing.assert_array_equal(a.initial_tree_.apply(X), b.initial_tree_.apply(X))      # the same oblique CART start
    np.testing.assert_allclose(a.initial_tree_.value, b.initial_tree_.value, atol=1e-12)
    assert not np.array_equal(a.initial_tree_.apply(X), copy.deepcopy(est).fit(X, y).initial_tree_.apply(X))
