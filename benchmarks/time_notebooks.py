"""Time the notebooks as a reader runs them: each in a fresh Jupyter kernel (nbclient), every cell top to bottom,
no flags (`#| slow` cells run too, as they do in JupyterLab), `TAO_NB_FULL` and `IN_TEST` unset, the repository on
PYTHONPATH, the notebook's folder as working directory. Nothing is written back.

    python benchmarks/time_notebooks.py                       # every notebook in nbs/ (index.ipynb included)
    python benchmarks/time_notebooks.py nbs/16_haar.ipynb     # the ones named
    python benchmarks/time_notebooks.py --skip 17_ohmr        # all but those whose name contains a given string

Prints, per notebook: seconds in all, the kernel's CPU seconds (which hardly depend on the machine's load: on a
quiet machine the seconds are about the CPU seconds plus the kernel's start), its slowest cell (index, seconds, first line) and the longest time the
reader waits without any new output (from a cell's start, between its outputs, to its end). Run it with `nice`,
one at a time: on a loaded machine the seconds are what a reader would see there.
"""
import argparse
import os
import signal
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
OUTPUT_MSGS = {'stream', 'display_data', 'execute_result', 'error', 'update_display_data', 'clear_output'}


class TimedClient(NotebookClient):
    "A NotebookClient that records, per cell, its wall-clock seconds and its longest stretch without output."
    def __init__(self, nb, **kw):
        super().__init__(nb, **kw)
        self.times, self.silences, self._start, self._last = {}, {}, {}, {}
        self.on_cell_execute = self._begin
        self.on_cell_executed = self._end

    def _begin(self, cell, cell_index):
        self._start[cell_index] = self._last[cell_index] = time.monotonic()
        self.silences[cell_index] = 0.0

    def _gap(self, cell_index):
        now = time.monotonic()
        self.silences[cell_index] = max(self.silences[cell_index], now - self._last[cell_index])
        self._last[cell_index] = now
        return now

    def _end(self, cell, cell_index, execute_reply):
        self.times[cell_index] = self._gap(cell_index) - self._start[cell_index]

    def process_message(self, msg, cell, cell_index):
        if msg['msg_type'] in OUTPUT_MSGS and cell_index in self._last: self._gap(cell_index)
        return super().process_message(msg, cell, cell_index)


def _reader_env():
    "The environment a reader's kernel gets: the repository importable, no test or full-run flags."
    env = {k: v for k, v in os.environ.items() if k not in ('TAO_NB_FULL', 'IN_TEST')}
    env['PYTHONPATH'] = os.pathsep.join([str(ROOT)] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep) if p])
    env.setdefault('MPLBACKEND', 'module://matplotlib_inline.backend_inline')
    return env


CPU_CELL = ("import resource as _r\n"
            "_u, _c = _r.getrusage(_r.RUSAGE_SELF), _r.getrusage(_r.RUSAGE_CHILDREN)\n"
            "print('kernel CPU seconds', _u.ru_utime + _u.ru_stime + _c.ru_utime + _c.ru_stime)")


def kernel_cpu(nb):
    "The CPU seconds the kernel (and its finished child processes) spent, printed by the `CPU_CELL` appended last."
    text = ''.join(o.get('text', '') for o in nb.cells[-1].get('outputs', []))
    return float(text.split()[-1]) if 'kernel CPU seconds' in text else float('nan')


def time_notebook(path, timeout=None):
    """(seconds, {cell index: seconds}, {cell index: longest silence}, error or None, kernel CPU seconds) for one run
    of `path` (a last cell, `CPU_CELL`, reads the kernel's CPU time: unlike seconds, it hardly depends on the load)."""
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(CPU_CELL))
    client = TimedClient(nb, timeout=timeout, kernel_name='python3', resources={'metadata': {'path': str(Path(path).parent)}})
    saved = dict(os.environ)
    os.environ.clear(); os.environ.update(_reader_env())        # the kernel inherits this process's environment
    t0, err = time.monotonic(), None
    try: client.execute()
    except Exception as e:
        lines = [l for l in str(e).splitlines() if l.strip() and not set(l.strip()) <= set('-')]
        err = f"{type(e).__name__}: {lines[-1] if lines else ''}"
    finally: os.environ.clear(); os.environ.update(saved)
    return time.monotonic() - t0, client.times, client.silences, err, kernel_cpu(nb)


def first_line(nb, i):
    lines = [l for l in nb.cells[i].source.split('\n') if l.strip() and not l.startswith('#|')]
    return (lines[0] if lines else '')[:50]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('notebooks', nargs='*', help='notebooks to time (default: every notebook in nbs/)')
    ap.add_argument('--skip', action='append', default=[], help='skip notebooks whose name contains this (repeatable)')
    ap.add_argument('--timeout', type=int, default=None, help='per-cell timeout in seconds (default: none)')
    a = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))   # stop (and shut the kernel down) on `kill`
    paths = [Path(p) for p in a.notebooks] or sorted(p for p in (ROOT / 'nbs').glob('*.ipynb'))
    paths = [p for p in paths if not any(s in p.name for s in a.skip)]
    load = lambda: ', '.join(f'{v:.1f}' for v in os.getloadavg())
    print(f"load average of the machine (1, 5, 15 min): {load()}", flush=True)
    print(f"{'notebook':<26}{'seconds':>8}{'CPU s':>8}  {'slowest cell':<60}{'silent':>7}", flush=True)
    failed = 0
    for p in paths:
        total, times, silences, err, cpu = time_notebook(p, a.timeout)
        times.pop(len(nbformat.read(p, as_version=4).cells), None)      # the appended CPU_CELL
        nb = nbformat.read(p, as_version=4)
        k = max(times, key=times.get) if times else None
        slow = f"[{k}] {times[k]:.1f} s  {first_line(nb, k)}" if k is not None else ''
        print(f"{p.name:<26}{total:>8.1f}{cpu:>8.1f}  {slow:<60}{max(silences.values(), default=0):>6.1f}s"
              + (f"  FAILED {err}" if err else ''), flush=True)
        failed += bool(err)
    print(f"load average at the end: {load()}", flush=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
