"""Timing helper shared by the benchmark scripts (run them as `python benchmarks/bench_*.py`)."""
import time


def best_of(f, repeat=3):
    "Best wall time of `repeat` calls of f, and the last call's result."
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter(); out = f(); times.append(time.perf_counter() - t0)
    return min(times), out
