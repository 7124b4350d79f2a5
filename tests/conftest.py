"""Shared test configuration: headless matplotlib, the repository root on sys.path, and a process that ends when
its tests end (issue 27, #17)."""
import atexit
import os
import sys
import time
from pathlib import Path

from notebook_shells import close_notebook_shells     # tests/notebook_shells.py

os.environ.setdefault('MPLBACKEND', 'Agg')
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))


_ENDED = []        # perf_counter when the session ended, read by the atexit check below


def pytest_sessionfinish(session, exitstatus):
    "Free at the end of the session what would otherwise be freed slowly at exit (counted in pytest's own time)."
    try: close_notebook_shells()
    except Exception as e: print(f"tests/conftest.py: closing the notebook shells: {e!r}", file=sys.stderr)
    _ENDED.append(time.perf_counter())


@atexit.register   # registered before the packages the tests import, so it runs after their exit handlers
def _report_a_slow_exit():
    "One line on stderr if the exit handlers took long (TAO_NB_EXIT_TIMES=1: always); the brief for #17 is 10 s."
    if not _ENDED: return
    secs = time.perf_counter() - _ENDED[-1]
    if secs > 10 or os.environ.get('TAO_NB_EXIT_TIMES'):
        print(f"tests/conftest.py: {secs:.1f} s from the end of the session to the last exit handler", file=sys.stderr)
