"""Headless checks of tao_nb.viz.*: tree drawings, weight images, history plots, path plots and the sweep and path explorers
(their widgets: opening state, slider/caption agreement, one-step redraws, legible text at the displayed size)."""
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
import html
import numpy as np
import pytest
from matplotlib.figure import Figure
from sklearn.datasets import load_digits, make_blobs
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from tao_nb.tree import Tree, Split
from tao_nb.tao import TAORun, TAOSettings, tao, tao_sweep, refit_values, record_sweep, split_goes_right
from tao_nb.reduced import ZERO_ONE, SQUARED
from tao_nb.path import tao_path
from tao_nb.viz.text import tree_layout, describe_split, describe_value
from tao_nb.viz.trees import TreeStyle, plot_tree, node_boxes, plot_history
from tao_nb.viz.oblique import plot_node_weights, plot_path
from tao_nb.viz.explore import (Explorer, SweepExplorer, explore_sweep, PathExplorer, explore_path, png_size,
                                smallest_text_px)


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


def test_tree_style_sets_font_sizes_and_digits():
    "A `TreeStyle` caps the font and sets the digits of thresholds and responses."
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 2)); y = X[:, 0] + 0.1 * rng.normal(size=200)
    t = Tree.from_sklearn(DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, y))
    ax = plot_tree(t, style=TreeStyle(fontsize=6, min_fontsize=1, precision=1))
    assert max(s.get_fontsize() for s in ax.texts) <= 6
    root = lambda ax: next(s.get_text() for s in ax.texts if s.get_text().startswith('#0'))
    assert root(ax).endswith('> -0.04') and root(plot_tree(t, style=TreeStyle(precision=6))).endswith('> -0.0448081')


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
    assert describe_split(Split(-1, np.array([1., 0, -1]), 0.5)) == "1·x[0] − 1·x[2] > 0.5"
    w = np.r_[0.5, -2.0, np.full(10, 0.01)]
    assert describe_split(Split(-1, w, 6.05), [f"f{k}" for k in range(12)]) == "−2·f1 + 0.5·f0 + … (12 nonzeros) > 6.05"
    assert "swapped" in describe_split(Split(0, None, 1.0, True))


@pytest.fixture(scope='module')
def cancer():
    from sklearn.datasets import load_breast_cancer
    return load_breast_cancer(as_frame=True)


def _node_texts(ax, tree):
    "The node text drawn at each node's place: {node id: text artist}."
    x, y = tree_layout(tree)
    where = {(round(float(a), 6), round(float(b), 6)): i for i, (a, b) in enumerate(zip(x, y))}
    return {where[tuple(round(float(v), 6) for v in s.get_position())]: s for s in ax.texts if s.get_zorder() == 4}


def _assert_legible(ax, tree, feature_names, class_names, scale=None):
    "Every text >= 8 pt and inside its box (rendered with Agg); every node shows its full split or label."
    ax.figure.canvas.draw()
    r = ax.figure.canvas.get_renderer()
    assert min(s.get_fontsize() for s in ax.texts) >= 8
    texts, boxes = _node_texts(ax, tree), node_boxes(ax)
    assert sorted(texts) == list(range(tree.n_nodes))
    for i, s in texts.items():
        body = (describe_value(tree, i, class_names) if tree.is_leaf[i]
                else describe_split(tree.get_split(i), feature_names, scale=scale))
        assert body in s.get_text().replace("\n", " "), (i, s.get_text(), body)
        t, b = s.get_window_extent(r), boxes[i].get_window_extent(r)
        assert b.x0 - 1 <= t.x0 and t.x1 <= b.x1 + 1 and b.y0 - 1 <= t.y0 and t.y1 <= b.y1 + 1, (i, s.get_text())


@pytest.mark.parametrize('depth', [1, 2, 3, 4])
def test_plot_tree_real_names_legible_to_depth_4(cancer, depth):
    "CART on breast cancer with its 30 real feature names: no label dropped, none below 8 pt, each in its box."
    X, y = cancer.data, cancer.target
    sk = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X.values, y)
    t, names = Tree.from_sklearn(sk), list(cancer.feature_names)
    ax = plot_tree(t, feature_names=names, class_names=['malignant', 'benign'], X=X.values)
    _assert_legible(ax, t, names, ['malignant', 'benign'])
    plt.close('all')
    _assert_legible(plot_tree(t, feature_names=names), t, names, None)


def test_plot_tree_and_export_text_take_an_estimator(cancer):
    "A fitted estimator: its tree_, feature_names_in_ (a DataFrame), classes_ and x_scale_ (oblique)."
    from tao_nb import TAOClassifier
    from tao_nb.viz.text import export_text
    X, y = cancer.data, cancer.target.map({0: 'malignant', 1: 'benign'})
    for split_type in ('axis', 'oblique'):
        clf = TAOClassifier(max_depth=3, split_type=split_type, random_state=0).fit(X, y)
        ax = plot_tree(clf, X=X.values)
        scale = getattr(clf, 'x_scale_', None)
        _assert_legible(ax, clf.tree_, list(X.columns), list(clf.classes_), scale)
        if split_type == 'axis': assert export_text(clf) == export_text(clf.tree_, list(X.columns), clf.classes_)
        rules = export_text(clf)
        assert 'x[' not in rules and ('class: malignant' in rules or 'class: benign' in rules)
        plt.close('all')
    top = clf.tree_.W[0] * clf.x_scale_                # the root's named term: the largest |w_k| x_scale_k
    assert export_text(clf, max_terms=1).split('\n')[0].split('·')[1].startswith(X.columns[np.abs(top).argmax()])
    with pytest.raises(TypeError, match="fitted estimator"):
        plot_tree(TAOClassifier())


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
        tao_sweep(t2, TAORun(X.astype(np.float64), y, on_node=lambda *a: calls.append(a[1])))
        refit_values(t2, X, y, ZERO_ONE.fit_leaf)
        steps, after, e0, e1 = record_sweep(t, X, y)
        assert [s.node for s in steps] == calls
        assert (after.feature == t2.feature).all() and np.array_equal(after.threshold, t2.threshold)
        assert np.array_equal(t.threshold, Tree.from_sklearn(DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)).threshold)
        assert all(s.new_loss <= s.old_loss for s in steps)
        assert e1 <= e0
        _, hist = tao(t, X, y, settings=TAOSettings(max_iter=1))
        assert (e0, e1) == tuple(hist[:2])


def test_explorer_renders_headless(digits):
    Xb, yb = make_blobs(n_samples=200, centers=3, n_features=2, random_state=0)
    ex = explore_sweep(Tree.random(3, Xb, np.eye(3)[yb], random_state=1), Xb, yb)
    X, y = digits
    ex_d = explore_sweep(Tree.from_sklearn(DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)), X, y, warmup=1)
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
    v = ex.widget()
    assert (v.slider.min, v.slider.max) == (1, len(ex))
    v.next_button.click(); assert v.position == 1
    v.prev_button.click(); v.prev_button.click(); assert v.position == 0 and v.slider.value == 1


def test_explorer_regression_and_oblique_2d():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5)); y = X[:, 0] ** 2 + X[:, 1]
    ex = explore_sweep(Tree.random(3, X, y[:, None], random_state=0), X, y, loss=SQUARED)
    assert len(ex) > 0 and ex.objective_after <= ex.objective_before
    assert len(ex.render(len(ex) - 1).axes) == 2
    Xb, yb = make_blobs(n_samples=200, centers=3, n_features=2, random_state=0)
    t = Tree.random(2, Xb, np.eye(3)[yb], oblique=True, random_state=0)
    solver = lambda Xn, lab, w, cur: Split(-1, np.array([1., 1.]), float(np.median(Xn.sum(1))))
    ex = explore_sweep(t, Xb, yb, node_solver=solver)
    fig = ex.render(len(ex) - 1)
    assert any(line.get_label() == 'new split' for line in fig.axes[0].lines)


@pytest.fixture(scope='module')
def small_path(digits):
    X, y = digits
    idx = np.random.default_rng(0).choice(len(y), 700, replace=False)
    labels = np.array(list('abcdefghij'))[y[idx]]          # string labels: the explorer must encode them
    return tao_path(X[idx], labels, [3.0, 0.3, 0.03], max_depth=3, random_state=0), X[idx], labels


def _node_axes(fig):
    return {int(a.get_gid()[5:]): a for a in fig.axes if (a.get_gid() or '').startswith('node-')}


def _sideways_captions(fig):
    "{node id: caption} of a path explorer's figure (`plot_weights_sideways` tags its texts `caption-<id>`)."
    return {int(t.get_gid()[8:]): t.get_text() for a in fig.axes for t in a.texts if (t.get_gid() or '').startswith('caption-')}


def test_node_weights_exact_zeros_white_and_nnz_caption(digits):
    X, y = digits
    t = Tree.random(2, X, np.eye(10)[y], oblique=True, random_state=0)
    t.W[0] = 0.0; t.W[0, [5, 9, 60]] = [2.0, -1e-6, 0.3]     # a tiny weight is coloured, an exact zero is not
    t.W[2] = 0.0                                            # an all-zero row: all white, valid scale
    fig = plot_node_weights(t, (8, 8), X=X, y=y)
    nodes = _node_axes(fig)
    for i, nz in ((0, [5, 9, 60]), (2, [])):
        im = nodes[i].images[0]
        rgba = im.to_rgba(im.get_array())
        white = (rgba[..., :3] == 1).all(-1).ravel()
        assert list(np.flatnonzero(~white)) == nz
        assert f"nnz={len(nz)}" in nodes[i].get_title()


def test_plot_path_panels_and_marks(small_path):
    p, X, y = small_path
    axs = plot_path(p, X_test=X, y_test=y, current=0)
    assert len(axs) == 3 and all(a.figure is axs[0].figure for a in axs)
    assert [l.get_label() for l in axs[0].lines[:3]] == ['train', 'validation', 'test']
    np.testing.assert_allclose(axs[0].lines[0].get_ydata(), 100 * p['train_error'])
    np.testing.assert_allclose(axs[0].lines[2].get_ydata(), 100 * (1 - np.array([p.score(X, y, i) for i in range(3)])))
    np.testing.assert_array_equal(axs[1].lines[0].get_ydata(), p['nonzeros'])
    np.testing.assert_array_equal(axs[2].lines[0].get_ydata(), p['internal'])
    for a in axs:
        lo, hi = a.get_xlim()
        assert a.get_xscale() == 'log' and lo > hi                       # C decreases to the right, as the path
        gids = [l.get_gid() for l in a.lines]
        assert gids.count('selected') == 1 and gids.count('current') == 1
    fig, given = plt.subplots(1, 3)
    assert plot_path(p, ax=given)[0] is given[0]
    with pytest.raises(ValueError, match='3 panels'): plot_path(p, ax=given[:1])


def test_path_explorer_renders_headless(small_path):
    p, X, y = small_path
    ex = explore_path(p, (8, 8), X, y)
    assert isinstance(ex, PathExplorer) and len(ex) == 3
    for k in range(len(ex)):
        fig = ex.render(k)
        assert isinstance(fig, Figure)
        assert sorted(int(im.get_gid()[5:]) for a in fig.axes for im in a.images) == list(range(p.trees[k].n_nodes))
        assert fig.get_size_inches()[0] * ex.dpi <= 960                    # fits a 960-px notebook column
        leaves = np.flatnonzero(p.trees[k].is_leaf)
        counts = np.bincount(p.trees[k].apply(X), minlength=p.trees[k].n_nodes)
        titles = {i: _sideways_captions(fig)[i] for i in leaves}
        label = lambda i: p.classes_[p.trees[k].value[i].argmax()]          # leaves: index(count, label, % right)
        assert all(t.startswith(f"{i}({counts[i]}, {label(i)}") for i, t in titles.items())
        plt.close(fig)
    with pytest.raises(IndexError): ex.render(3)
    assert 'selected' in ex.caption(p.best_index)
    v = ex.widget()
    assert v.position == p.best_index
    v.slider.value = 3; v.next_button.click(); assert v.position == 2
    v.prev_button.click(); v.prev_button.click(); v.prev_button.click(); assert v.position == 0
    assert html.unescape(v.caption.value) == ex.caption(0) and v.readout.value == '1/3'
    with pytest.raises(ValueError, match='image_shape'): PathExplorer(p, (4, 4))
    with pytest.raises(ValueError, match='outside'): PathExplorer(p, (8, 8), X, np.full(len(y), 'z'))


def _percent_right(fig, tree):
    "The '% right' of each leaf caption (`plot_node_weights`' Axes titles, or the path explorer's texts), as numbers."
    caps = _sideways_captions(fig) or {i: a.get_title() for i, a in _node_axes(fig).items()}
    return {i: float(c.rsplit(',', 1)[1].strip(' %)')) for i, c in caps.items() if tree.is_leaf[i]}


def test_node_weights_labels_through_class_names(digits):
    "Labels given through class_names (strings, or integers that are not indices) count the same as class indices."
    X, y = digits
    t = Tree.from_sklearn(DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y))
    by_index = _percent_right(plot_node_weights(t, (8, 8), X=X, y=y), t); plt.close('all')
    names = np.array([f"digit {k}" for k in range(10)])
    by_name = _percent_right(plot_node_weights(t, (8, 8), X=X, y=names[y], class_names=names), t); plt.close('all')
    shifted = _percent_right(plot_node_weights(t, (8, 8), X=X, y=y + 10, class_names=np.arange(10, 20)), t); plt.close('all')
    assert by_index == by_name == shifted and len(by_index) == t.n_leaves
    with pytest.raises(ValueError, match='not in class_names'): plot_node_weights(t, (8, 8), X=X, y=y, class_names=names)
    with pytest.raises(ValueError, match='class indices'): plot_node_weights(t, (8, 8), X=X, y=names[y])


def test_path_explorer_custom_class_names(small_path):
    p, X, y = small_path
    names = np.array([f"c{k}" for k in range(len(p.classes_))])
    fig = PathExplorer(p, (8, 8), X, y, class_names=names).render(0)
    plain = PathExplorer(p, (8, 8), X, y).render(0)
    assert _percent_right(fig, p.trees[0]) == _percent_right(plain, p.trees[0])
    plt.close('all')
    with pytest.raises(ValueError, match='names for'): PathExplorer(p, (8, 8), X, y, class_names=names[:2])


# --- the explorers' widgets as a reader meets them (issue 13) ---

def _drive(view, clicks):
    "Click Prev (-1) / Next (+1) on a view."
    for c in clicks: (view.next_button if c > 0 else view.prev_button).click()


@pytest.fixture(scope='module')
def blob_explorer():
    Xb, yb = make_blobs(n_samples=200, centers=3, n_features=2, random_state=0)
    return explore_sweep(Tree.random(3, Xb, np.eye(3)[yb], random_state=1), Xb, yb)


def test_explorers_open_at_their_start_whatever_a_test_did(blob_explorer, small_path):
    ex = blob_explorer
    _drive(ex.widget(), [1, 1, -1])                       # a test's own view, left at step 2
    v = ex.widget()                                       # the reader's view, and what displaying `ex` builds
    assert v.position == ex.start and v.slider.value == ex.start + 1
    assert v.caption.value.startswith(f"step {ex.start + 1}/{len(ex)}:") and 'kept' not in v.caption.value
    pe = explore_path(small_path[0], (8, 8))
    w = pe.widget(); w.slider.value = 1; _drive(w, [-1])
    v = pe.widget()
    assert v.position == small_path[0].best_index and 'selected' in v.caption.value
    assert pe.widget(0).position == 0                     # or where asked


def test_explorer_slider_and_caption_count_alike(blob_explorer, small_path):
    for ex, word in ((blob_explorer, 'step'), (explore_path(small_path[0], (8, 8)), 'tree')):
        v = ex.widget()
        assert (v.slider.min, v.slider.max) == (1, len(ex))
        for value in range(1, len(ex) + 1):
            v.slider.value = value
            assert v.caption.value.startswith(f"{word} {value}/{len(ex)}:")
            assert html.unescape(v.caption.value) == ex.caption(value - 1) and v.position == value - 1
            assert v.readout.value == f"{value}/{len(ex)}"


def test_explorer_redraw_replaces_the_image_in_one_step(blob_explorer):
    ex = blob_explorer
    v = ex.widget()
    first = v.image.value
    assert png_size(first)[0] > 0
    seen = []
    v.image.observe(lambda ch: seen.append(ch['new']), names='value')
    _drive(v, [1, 1, -1, -1, -1])                         # the last Prev is at the start: nothing to draw
    assert len(seen) == 4 and all(png_size(p)[0] > 0 for p in seen)
    assert seen[-1] == first and seen[0] == ex.png(1) and seen[0] != first


class _Counting(Explorer):
    "Three positions; counts how often each is drawn."
    def __init__(self): self.drawn = []
    def __len__(self): return 3
    def caption(self, k): return f"position {k + 1}/3"
    def render(self, k):
        self.drawn.append(k)
        fig = plt.figure(figsize=(2, 1)); fig.text(0.1, 0.5, str(k)); return fig


def test_explorer_draws_each_position_once_and_handles_empty():
    ex = _Counting()
    v = ex.widget()
    _drive(v, [1, -1, 1, 1, -1])
    assert ex.drawn == [0, 1, 2]
    class Empty(_Counting):
        def __len__(self): return 0
    e = Empty()
    v = e.widget()
    assert v.caption.value == e.empty and v.image.value == b'' and v.slider.disabled
    with pytest.raises(IndexError): e.png(0)


def test_explorer_figures_fit_a_960px_column_legibly(digits, small_path):
    "Issue 30: each figure at most 960 px wide (a notebook column shows it at its natural size), its text >= 8 px."
    X, y = digits
    big = PathExplorer(small_path[0], (8, 8), small_path[1], small_path[2])
    sweep = SweepExplorer(record_sweep(Tree.from_sklearn(DecisionTreeClassifier(max_depth=5, random_state=0).fit(X, y)), X, y), X)
    for ex in (big, sweep):
        v = ex.widget()
        assert v.image.layout.max_width == '100%' and not v.image.width      # natural size, never wider than the column
        for k in {0, len(ex) - 1}:
            fig = ex.render(k)
            natural = fig.get_size_inches()[0] * ex.dpi
            assert smallest_text_px(fig, ex.dpi) >= 8, (type(ex).__name__, k, smallest_text_px(fig, ex.dpi))
            assert abs(png_size(ex.png(k))[0] - natural) <= 1 and natural <= 960
            plt.close(fig)
