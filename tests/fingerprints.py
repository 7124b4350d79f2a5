"""Saved fingerprints of fitted trees: the refactors must leave every tree of these seeded fits unchanged.

`python tests/fingerprints.py --write [names]` records them (all of them once, before the layout change of issue 11;
then only the cases an intended change affects, listed below);
`tests/test_fingerprints.py` refits and compares. Each case is a name and a function returning a `Tree`.
"""
import sys
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / 'data' / 'fingerprints.npz'
FIELDS = ('left', 'right', 'feature', 'threshold', 'value', 'W')


def _data():
    from sklearn.datasets import load_digits, load_diabetes
    X, y = load_digits(return_X_y=True)
    rng = np.random.default_rng(0)
    sub = rng.choice(len(X), 600, replace=False)
    Xd, yd = load_diabetes(return_X_y=True)
    Y2 = np.c_[yd, Xd[:, :2] @ [3.0, -2.0] * 100]
    return X, y, X[sub], y[sub], Xd, yd, Y2


def cases():
    "name -> function () -> Tree, for seeded fits of every estimator the package has."
    import tao_nb
    from tao_nb.estimators import TAOClassifier, TAORegressor, TAOPathClassifier
    from tao_nb.path import tao_path
    from tao_nb.sdt import SDTClassifier
    from tao_nb.haar import HaarFeatures, HaarTreeClassifier
    from tao_nb.ohmr import OneHotTAOClassifier
    from tao_nb.nongreedy import NonGreedyTreeClassifier
    X, y, Xs, ys, Xd, yd, Y2 = _data()
    return {
        'tao_axis_cart_d6': lambda: TAOClassifier(max_depth=6, random_state=0).fit(X, y).tree_,
        'tao_axis_random_d5': lambda: TAOClassifier(max_depth=5, init='random', random_state=1).fit(Xs, ys).tree_,
        'tao_oblique_d4': lambda: TAOClassifier(max_depth=4, split_type='oblique', C=0.5, random_state=0).fit(Xs, ys).tree_,
        'tao_oblique_random_d4': lambda: TAOClassifier(max_depth=4, split_type='oblique', init='random', C=1.0, random_state=2).fit(Xs, ys).tree_,
        'tao_reg_axis_d5': lambda: TAORegressor(max_depth=5, random_state=0).fit(Xd, Y2).tree_,
        'tao_reg_oblique_d3': lambda: TAORegressor(max_depth=3, split_type='oblique', C=1.0, random_state=0).fit(Xd, yd).tree_,
        'tao_path_d5': lambda: tao_path(Xs, ys, Cs=[3.0, 0.5, 0.1], max_depth=5, random_state=0).best_tree,
        'tao_path_clf_d4': lambda: TAOPathClassifier(Cs=[2.0, 0.3], max_depths=4, random_state=0).fit(Xs, ys).tree_,
        'onehot_d4': lambda: OneHotTAOClassifier(max_depth=4, random_state=0).fit(Xs, ys).tree_,
        'sdt_d6': lambda: SDTClassifier(max_depth=6, random_state=0).fit(X, y).tree_,
        'haar_d4': lambda: HaarTreeClassifier(HaarFeatures(), SDTClassifier(max_depth=4, random_state=0)).fit(Xs, ys).tree_,
        # entropy, batches and exact searches of more than RANKED points (issue 31's compiled sort and scan)
        'sdt_entropy_d6': lambda: SDTClassifier(max_depth=6, criterion='entropy', batch_exponent=2,
                                                random_state=0).fit(X, y).tree_,
        'haar_entropy_lazy_d5': lambda: HaarTreeClassifier(HaarFeatures(), SDTClassifier(
            max_depth=5, criterion='entropy', batch_exponent=1, max_features=0.5, random_state=0),
            features='lazy').fit(Xs, ys).tree_,
        'nongreedy_d4': lambda: NonGreedyTreeClassifier(max_depth=4, max_iter=3, random_state=0).fit(Xs, ys).tree_,
        'nongreedy_stable_d3': lambda: NonGreedyTreeClassifier(max_depth=3, max_iter=3, stable=True, inference='exact',
                                                               random_state=0).fit(Xs, ys).tree_,
    }


def arrays(tree):
    "The arrays that define a tree (W empty for axis-aligned trees)."
    return {f: (np.zeros((0,)) if getattr(tree, f) is None else np.asarray(getattr(tree, f))) for f in FIELDS}


def write(names=()):
    "Record every case, or only `names` (an intended change of those trees; the others are kept as saved)."
    out = dict(np.load(DATA)) if names else {}
    for name, fit in cases().items():
        if names and name not in names: continue
        for f, a in arrays(fit()).items(): out[f'{name}.{f}'] = a
        print('recorded', name)
    np.savez_compressed(DATA, **out)


# Intended changes since the first recording (issue 11's layout change changed none):
# - tao_path_d5, tao_path_clf_d4: issue 9 puts every node at its surrogate scale before each run of the path.
# - tao_path_clf_d4: issue 9 makes TAOPathClassifier run CART and oblique CART starts (node_tol 1e-2) by default.
# - nongreedy_d4: issue 15's tree_ leaves out decision nodes whose weights are all zero (same predictions).
# - sdt_d6: issue 14 searches small nodes exhaustively (and so draws fewer random batches).
# - sdt_d6, haar_d4: issue 14 breaks ties between features by the widest relative margin (`ties='margin'`), not the lowest index.
# - tao_oblique_d4, tao_oblique_random_d4, tao_path_clf_d4, tao_reg_oblique_d3: issues 26 and 28 make the estimators'
#   node solver `solver='auto'`, the compiled 'cd' for the squared hinge, instead of liblinear.
# - tao_path_clf_d4: issue 28 makes TAOPathClassifier end a value of C's sweeps when E's loss part stops falling
#   (`stop_on='loss'`) and refit the chosen tree on all the training data (`refit=True`).
if __name__ == '__main__' and '--write' in sys.argv: write(sys.argv[sys.argv.index('--write') + 1:])
