"""Closing the IPython shells that ran the notebooks (issue 27, #17): used by tests/conftest.py at the end of the
session and tested by tests/test_reliability_demo.py (a module of its own: `conftest` names two modules here)."""
import atexit
import gc
import sys


def _open_shell(obj, shell_class):
    "Whether `obj` is an IPython shell not yet closed (a dead weak proxy among the heap's objects is not)."
    try: return isinstance(obj, shell_class) and hasattr(obj, 'tempfiles')
    except ReferenceError: return False


def close_notebook_shells():
    """Close the IPython shells that ran notebooks (execnb's, one per `test_notebooks` item; nbdev keeps none), with
    one garbage collection for them all; returns how many. Left to exit, each shell's `atexit_operations` clears its
    namespace through IPython's `DisplayHook.flush`, which runs a full collection of the whole heap: two dozen of
    them, on the suite's heap of over a gigabyte, kept the process alive ~45 s after pytest's summary."""
    shell_mod = sys.modules.get('IPython.core.interactiveshell')
    if shell_mod is None: return 0
    shells = [o for o in gc.get_objects() if _open_shell(o, shell_mod.InteractiveShell)]
    collect, gc.collect = gc.collect, lambda *args, **kwargs: 0     # IPython's per-shell collections, skipped
    try:
        for shell in shells:                  # (a closed shell has no `tempfiles`: its atexit_operations deletes them)
            atexit.unregister(shell.atexit_operations)
            try: shell.atexit_operations()
            except Exception as e: print(f"tests/conftest.py: closing an IPython shell: {e!r}", file=sys.stderr)
    finally: gc.collect = collect
    gc.collect()
    return len(shells)
