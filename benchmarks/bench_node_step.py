"""Issue 28: one sparse oblique node step on Fashion-MNIST's root-sized problem, 48,000 x 784 care points.

The problem: the first 48,000 official training images (the paper's fitting size), pixels standardized as the
estimators do (`input_scale`), binary pseudo-labels 'top garment' (classes 0, 2, 4, 6) against the rest, unit
weights: the size of the root's reduced problem in a full-scale fit. Timed in one process: the package's whole node
step (`ObliqueSolver.__call__`: liblinear's L1 solve, the candidates and the exact objective comparison) at the
estimators' node tolerance, beside scikit-learn's `LinearSVC(penalty='l1', dual=False)` alone at the same C and
tolerance (the solve the step is built on). CPU seconds of this process (BLAS on one thread) are the measure
on a shared machine; wall seconds and the load average are printed beside them. Needs Debian's `dataset-fashion-mnist`.
`--memory`: instead, the memory of one node step (issue 26): the increase of this process's proportional set size
(sampled every 0.1 s, `_timing.PeakMemory`) during the step on the rows Z, against Z's bytes; liblinear's own copies
of the rows are allocated in C, where `tracemalloc` does not see them, so only the process's pages measure them.
`--solver cd`: the node step with `ObliqueSolver(solver='cd')` (09: liblinear's coordinate descent compiled, on one
float32 copy of the rows) beside the same step with liblinear, one after the other in this process (a small step first
compiles the kernel): CPU seconds, their ratio, and each step's node objective (misrouted care points + ||w||_1 / C,
the quantity the step minimizes); with `--memory`, each step's peak increase.

    python benchmarks/bench_node_step.py [--Cs 0.1,1] [--tol 1e-2] [--n 48000] [--memory] [--solver cd]
"""
import argparse
import os
import time

import numpy as np
from sklearn.svm import LinearSVC

from _timing import PeakMemory
from tao_nb.datasets import load_fashion_mnist
from tao_nb.oblique_fit import input_scale
from tao_nb.solvers.oblique import ObliqueSolver, node_objective

def step(solver, Z, label, weight, memory):
    "One node step: (split, CPU seconds, peak increase of the process's memory in bytes or None)."
    c = time.process_time()
    if not memory: return solver(Z, label, weight), time.process_time() - c, None
    with PeakMemory(every=0.1) as m: split = solver(Z, label, weight)
    return split, time.process_time() - c, m.peak - m.before


def compare(Z, label, weight, Cs, a):
    "`--solver`: the step with `a.solver` beside liblinear's, per C."
    ObliqueSolver(solver=a.solver)(Z[:200], label[:200], weight[:200])       # compile first
    for C in Cs:
        out = []
        for name in ('liblinear', a.solver):
            split, cpu, peak = step(ObliqueSolver(C=C, node_tol=a.tol, solver=name), Z, label, weight, a.memory)
            obj = node_objective(Z, label, weight, split.weights, split.threshold, 1 / C)
            mem = f", peak increase {peak / Z.nbytes:.2f}x the rows" if a.memory else ''
            out.append((cpu, f"{name} {cpu:.1f} CPU s (objective {obj:.2f}, {np.count_nonzero(split.weights)} nonzeros{mem})"))
        print(f"C={C:g}: node step {out[0][1]} | {out[1][1]} | liblinear / {a.solver} (CPU) {out[0][0] / out[1][0]:.2f}; "
              f"load average {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--Cs', default='0.1,1')
    ap.add_argument('--tol', type=float, default=1e-2)
    ap.add_argument('--n', type=int, default=48_000)
    ap.add_argument('--memory', action='store_true', help="the peak memory of one node step, against the rows'")
    ap.add_argument('--solver', default=None, help="a node solver to compare with liblinear's step ('cd')")
    a = ap.parse_args()
    X, y = load_fashion_mnist()
    X, y = X[:a.n].astype(np.float64), y[:a.n]
    mu, s = input_scale(X)
    Z = (X - mu) / s
    label, weight = np.isin(y, [0, 2, 4, 6]).astype(np.int64), np.ones(len(y))
    print(f"{len(Z):,} x {Z.shape[1]} care points, {label.mean():.3f} of them labelled right", flush=True)
    Cs = [float(c) for c in a.Cs.split(',')]
    if a.solver: compare(Z, label, weight, Cs, a)
    for C in Cs if a.memory and not a.solver else ():      # --memory: this instead of the timings below
        with PeakMemory(every=0.1) as m: ObliqueSolver(C=C, node_tol=a.tol)(Z, label, weight)
        print(f"C={C:g}: the node step's peak increase {(m.peak - m.before) / 2**30:.2f} GiB = "
              f"{(m.peak - m.before) / Z.nbytes:.2f}x the rows ({Z.nbytes / 2**30:.2f} GiB, float64)", flush=True)
    for C in () if a.memory or a.solver else Cs:
        t, c = time.perf_counter(), time.process_time()
        split = ObliqueSolver(C=C, node_tol=a.tol)(Z, label, weight)
        step, step_cpu = time.perf_counter() - t, time.process_time() - c
        t, c = time.perf_counter(), time.process_time()
        svc = LinearSVC(penalty='l1', dual=False, C=C, tol=a.tol).fit(Z, label)
        alone, alone_cpu = time.perf_counter() - t, time.process_time() - c
        nnz = int(np.count_nonzero(split.weights)) if split is not None else 0
        agree = float(((Z @ split.weights > split.threshold) == label).mean()) if split is not None else np.nan
        print(f"C={C:g}: node step {step_cpu:.1f} CPU s, {step:.1f} s wall ({nnz} nonzeros, {agree:.4f} of the points "
              f"on their pseudo-label's side) | LinearSVC alone {alone_cpu:.1f} CPU s, {alone:.1f} s wall "
              f"({int(np.count_nonzero(svc.coef_))} nonzeros) | step / LinearSVC (CPU) {step_cpu / alone_cpu:.2f}; "
              f"load average {os.getloadavg()[0]:.1f}", flush=True)
