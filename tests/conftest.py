"""Shared test configuration: headless matplotlib, the repository root on sys.path, and a process that ends when
its tests end (issue 27, #17)."""
import atexit
import gc
import os
import sys
import time
from pathlib import Path

os.environ.setdefault('MPLBACKEND', 'Agg')
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))


def close_notebook_shells():
    """Close the IPython shells that ran notebooks (execnb's, one per `test_notebooks` item; nbdev keeps none), with
    one garbage collection for them all; returns how many. Left to exit, each shell's `atexit_operations` clears its
    namespace through IPython's `DisplayHook.flush`, which runs a full collection of the whole heap: two dozen of
    them, on the suite's heap of over a gigabyte, kept the process alive ~45 s after pytest's summary."""
    shell_mod = sys.modules.get('IPython.core.interactiveshell')
    if shell_mod is None: return 0
    shells = [o for o in gc.get_objects() if isinstance(o, shell_mod.InteractiveShell) and hasattr(o, 'tempfiles')]
    collect, gc.collect = gc.collect, lambda *args, **kwargs: 0     # IPython's per-shell collections, skipped
    try:
        for shell in shells:                  # (a closed shell has no `tempfiles`: its atexit_operations deletes them)
            atexit.unregister(shell.atexit_operations)
            try: shell.atexit_operations()
            except Exception as e: print(f"tests/conftest.py: closing an IPython shell: {e!r}", file=sys.stderr)
    finally: gc.collect = collect
    gc.collect()
    return len(shells)


_ENDED = []        # perf_counter when the session ended, read by the atexit check below


def pytest_sessionfinish(session, exitstatus):
    "Free at the end of the session what would otherwise be freed slowly at exit (counted in pytest's own time)."
    close_notebook_shells()
    _ENDED.append(time.perf_counter())


@atexit.register   # registered before the packages the tests import, so it runs after their exit handlers
def _report_a_slow_exit():
    "One line on stderr if the exit handlers took long (TAO_NB_EXIT_TIMES=1: always); the brief for #17 is 10 s."
    if not _ENDED: return
    secs = time.perf_counter() - _ENDED[-1]
    if secs > 10 or os.environ.get('TAO_NB_EXIT_TIMES'):
        print(f"tests/conftest.py: {secs:.1f} s from the end of the session to the last exit handler", file=sys.stderr)
