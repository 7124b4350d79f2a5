"""Headless checks of tao_nb.viz: tree drawings, weight images, history plots and the sweep explorer."""
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure
from sklearn.datasets import load_digits, make_blobs
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from tao_nb.tree import Tree, Split
from tao_nb.tao import tao, tao_sweep, class_frequencies, refit_values
from tao_nb.reduced import zero_one_loss
from tao_nb.solvers.axis import best_axis_split
from tao_nb.viz import (tree_layout, describe_split, plot_tree, node_boxes, plot_node_weights, plot_history,
                        record_sweep, split_goes_right, SweepExplorer, explore_sweep)


@pytest.fixture(scope='module')
def digits():
    d = load_digits()
    return d.data, d.target


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close('all')


def _random_trees(X, y):
    onehot = np.eye(y.max() + 1)[y]
    for depth in (0, 1, 3, 6):
        for oblique in (False, True):
            yield Tree.random(depth, X, onehot, oblique=oblique, random_state=depth)


def test_layout_leaf_slots_and_no_overlap(digits):
    X, y = digits
    for t in _random_trees(X, y):
        x, yy = tree_layout(t)
        assert sorted(x[t.is_leaf]) == list(range(t.n_leaves))
        for d in range(t.max_depth + 1):
            assert (np.diff(np.sort(x[t.depth == d])) >= 1).all()
        assert (yy == -t.depth).all()
    # a lopsided (pruned) CART tree
    t = Tree.from_sklearn(DecisionTreeClassifier(max_depth=7, min_samples_leaf=40, random_state=0).fit(X, y))
    x, _ = tree_layout(t)
    assert sorted(x[t.is_leaf]) == list(range(t.n_leaves))


def test_plot_tree_one_box_per_node(digits):
    X, y = digits
    for t in _random_trees(X, y):
        ax = plot_tree(t, X=X)
        assert isinstance(ax, plt.Axes) and isinstance(ax.figure, Figure)
        assert sorted(node_boxes(ax)) == list(range(t.n_nodes))
        plt.close(ax.figure)


def test_plot_tree_text_counts_and_highlight(digits):
    X, y = digits
    t = Tree.from_sklearn(DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y))
    names = [f"px{k}" for k in range(64)]
    ax = plot_tree(t, X=X, feature_names=names, class_names=[f"digit {k}" for k in range(10)], highlight=[4])
    text = "\n".join(s.get_text() for s in ax.texts)
    assert f"n={len(X)}" in text and "px" in text and "digit " in text
    boxes = node_boxes(ax)
    assert boxes[4].get_linewidth() > boxes[3].get_linewidth()


def test_plot_tree_regression_and_deep():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 3)); y = X[:, 0] ** 2 + X[:, 1]
    t = Tree.from_sklearn(DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y))
    ax = plot_tree(t, X=X)
    assert len(node_boxes(ax)) == t.n_nodes
    assert any('ŷ=' in s.get_text() for s in ax.texts)
    deep = Tree.random(10, X, y[:, None], random_state=0)
    ax = plot_tree(deep)
    assert len(node_boxes(ax)) == deep.n_nodes == 2047
    assert any(s.get_text().startswith('#0') for s in ax.texts)     # the root stays readable


def test_describe_split():
    assert describe_split(Split(3, None, 2.5)) == "x[3] > 2.5"
    assert describe_split(Split(-1, np.array([1., 0, -1]), 0.5)) == "w·x > 0.5 (nnz=2)"
    assert "swapped" in describe_split(Split(0, None, 1.0, True))


def test_split_goes_right_matches_routing(digits):
    X, y = digits
    t = Tree.random(2, X, np.eye(10)[y], oblique=True, random_state=0)
    s = t.get_split(0)
    r = split_goes_right(s, X)
    assert (np.where(r, t.right[0], t.left[0]) == t.decision_paths(X)[:, 1]).all()
    assert (split_goes_right(s._replace(swap=True), X) == ~r).all()


def test_node_weights_symmetric_limits(digits):
    X, y = digits
    t = Tree.random(3, X, np.eye(10)[y], oblique=True, random_state=0)
    t.W[1] = 0.0                                        # an all-zero row still gets a valid scale
    fig = plot_node_weights(t, (8, 8), X=X, y=y)
    assert isinstance(fig, Figure)
    nodes = {int(a.get_gid()[5:]): a for a in fig.axes if (a.get_gid() or '').startswith('node-')}
    assert sorted(nodes) == list(range(t.n_nodes))
    for i in np.flatnonzero(~t.is_leaf):
        lo, hi = nodes[i].images[0].get_clim()
        assert lo == -hi and hi > 0
    for i in np.flatnonzero(t.is_leaf):
        assert str(int((t.apply(X) == i).sum())) in nodes[i].get_title()
    # axis-aligned trees draw as one-hot rows
    fig = plot_node_weights(Tree.from_sklearn(DecisionTreeClassifier(max_depth=2).fit(X, y)), (8, 8))
    with pytest.raises(ValueError, match='image_shape'): plot_node_weights(t, (4, 4))


def test_plot_history_overlay():
    ax = plot_history([10., 7, 6, 6])
    plot_history(np.array([9., 8]), ax=ax, label='b')
    assert len(ax.lines) == 2
    assert list(ax.lines[0].get_xdata()) == [0, 1, 2, 3]
    assert all(float(v).is_integer() for v in ax.get_xticks())
    ax = plot_history({'a': [3, 2, 1], 'b': [4, 2]})
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ['a', 'b']


def test_record_sweep_counts_every_node_step(digits):
    X, y = digits
    for depth in (2, 5):
        t = Tree.from_sklearn(DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y))
        calls = []
        t2 = t.copy()
        tao_sweep(t2, X, y, zero_one_loss, class_frequencies, best_axis_split, on_node=lambda *a: calls.append(a[1]))
        refit_values(t2, X, y, class_frequencies)
        steps, after, e0, e1 = record_sweep(t, X, y)
        assert [s.node for s in steps] == calls
        assert (after.feature == t2.feature).all() and np.array_equal(after.threshold, t2.threshold)
        assert np.array_equal(t.threshold, Tree.from_sklearn(DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)).threshold)
        assert all(s.new_loss <= s.old_loss for s in steps)
        assert e1 <= e0
        _, hist = tao(t, X, y, max_iter=1)
        assert (e0, e1) == tuple(hist[:2])


def test_explorer_renders_headless(digits):
    Xb, yb = make_blobs(n_samples=200, centers=3, n_features=2, random_state=0)
    ex = explore_sweep(Tree.random(3, Xb, np.eye(3)[yb], random_state=1), Xb, yb)
    X, y = digits
    ex_d = SweepExplorer(Tree.from_sklearn(DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)), X, y, warmup=1)
    for e in (ex, ex_d):
        assert len(e) > 0
        for k in (0, len(e) - 1):
            fig = e.render(k)
            assert isinstance(fig, Figure) and len(fig.axes) == 2
            boxes = node_boxes(fig.axes[1])
            assert len(boxes) == e.steps[k].tree.n_nodes
            assert boxes[e.steps[k].node].get_edgecolor()[0] > 0.8      # highlighted in crimson
            plt.close(fig)
        with pytest.raises(IndexError): e.render(len(e))
    w = ex.widget()
    assert ex.slider.max == len(ex) - 1
    ex.next_button.click(); assert ex.slider.value == 1
    ex.prev_button.click(); ex.prev_button.click(); assert ex.slider.value == 0


def test_explorer_regression_and_oblique_2d():
    from tao_nb.tao import mean_response
    from tao_nb.reduced import squared_loss
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5)); y = X[:, 0] ** 2 + X[:, 1]
    ex = explore_sweep(Tree.random(3, X, y[:, None], random_state=0), X, y, loss=squared_loss, fit_leaf=mean_response)
    assert len(ex) > 0 and ex.objective_after <= ex.objective_before
    assert len(ex.render(len(ex) - 1).axes) == 2
    Xb, yb = make_blobs(n_samples=200, centers=3, n_features=2, random_state=0)
    t = Tree.random(2, Xb, np.eye(3)[yb], oblique=True, random_state=0)
    solver = lambda Xn, lab, w, cur: Split(-1, np.array([1., 1.]), float(np.median(Xn.sum(1))))
    ex = explore_sweep(t, Xb, yb, solver=solver)
    fig = ex.render(len(ex) - 1)
    assert any(line.get_label() == 'new split' for line in fig.axes[0].lines)
