"""Helpers shared by the benchmark scripts (run them as `python benchmarks/bench_*.py`): timing, peak memory, settings
given on the command line."""
import ast
import time


def best_of(f, repeat=3):
    "Best wall time of `repeat` calls of f, and the last call's result."
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter(); out = f(); times.append(time.perf_counter() - t0)
    return min(times), out


class PeakMemory:
    """`with PeakMemory() as m:` samples, every `every` seconds on a thread, the proportional set size (PSS: shared
    pages counted once over the processes sharing them) of this process and of its live descendants (joblib's
    workers), summed; `m.before` and `m.peak` in bytes (before the block, and the largest sample in it)."""
    def __init__(self, every=1.0): self.every, self.before, self.peak = every, 0, 0

    def sample(self):
        import psutil
        me, total = psutil.Process(), 0
        for p in [me] + me.children(recursive=True):
            try: total += p.memory_full_info().pss
            except psutil.Error: pass
        return total

    def __enter__(self):
        import threading
        self.before = self.peak = self.sample()
        self._stop = threading.Event()
        def watch():
            while not self._stop.wait(self.every): self.peak = max(self.peak, self.sample())
        self._thread = threading.Thread(target=watch, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set(); self._thread.join()
        self.peak = max(self.peak, self.sample())


def parse_setting(text):
    "{'k': v} of a setting 'k=v k=v' given on a command line (values as Python literals, without spaces)."
    return {k: ast.literal_eval(v) for k, v in (kv.split('=', 1) for kv in text.split())}
