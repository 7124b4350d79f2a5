"""Re-run notebooks in-process (as nbdev_test does: cells flagged `slow`/`notest` and `#| eval: false` are skipped)
and save their outputs for readers; skipped cells keep the outputs they had.

    python tools/run_notebooks.py nbs/07_tao.ipynb [more notebooks]
    python tools/run_notebooks.py --full nbs/12_path.ipynb   # the `slow` cells too, with TAO_NB_FULL=1 (minutes)
    python tools/run_notebooks.py --full --only 3b7eb088 nbs/18_nongreedy.ipynb   # of the slow cells, only these ids

Figures are saved as plain PNGs at the notebooks' own dpi (execnb's default would double their pixels) and stored as
palette PNGs (`tools/shrink_figures.py`, applied here); then run `nbdev_clean`. The notebooks' own code decides problem sizes (`IN_TEST` is not set here).
"""
import sys
from pathlib import Path

from execnb.nbio import read_nb, write_nb
from execnb.shell import CaptureShell
from nbdev.config import get_config
from nbdev.process import first_code_ln, extract_directives

import os

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shrink_figures import shrink_notebook  # noqa: E402

SKIP = {'slow', 'notest'}
ONLY = set()      # with --full: the ids of the slow cells to run (empty: all of them)


def _skipped(cell):
    "True for a cell nbdev_test would not run (with `--full`, the `slow` cells run)."
    if cell.cell_type != 'code': return True
    d = extract_directives(cell, remove=False)
    if ONLY and 'slow' in d and cell.get('id') not in ONLY: return True
    return bool(SKIP & set(d)) or d.get('eval:', [''])[0].lower() == 'false'


class Shell(CaptureShell):
    "execnb's shell, except that a cell ending in `;` keeps what it prints (execnb drops its stdout; Jupyter only hides its value)."
    def _run(self, raw_cell, *args, **kwargs):
        if raw_cell.rstrip().endswith(';'): raw_cell = raw_cell.rstrip() + '\npass'   # the value stays hidden
        return super()._run(raw_cell, *args, **kwargs)


def run(path):
    path = Path(path).resolve()
    nb = read_nb(path)
    keep = {i: c.get('outputs', []) for i, c in enumerate(nb.cells) if _skipped(c)}
    shell = Shell(path=path.parent, mpl_format='png')   # not execnb's default 'retina' (2x the pixels)
    here = os.getcwd()
    os.chdir(path.parent)      # as Jupyter and nbdev_test run it: the notebooks' relative paths (../benchmarks/results)
    try: shell.run_all(nb, exc_stop=True, preproc=_skipped)
    finally: os.chdir(here)
    for i, outs in keep.items():
        if nb.cells[i].cell_type == 'code': nb.cells[i]['outputs'] = outs
    write_nb(nb, path)
    before, after = shrink_notebook(path)
    if before: print(f"  figures {before} KB -> {after} KB", flush=True)


if __name__ == '__main__':
    args = sys.argv[1:]
    if not args or {'-h', '--help'} & set(args): print(__doc__); sys.exit(0)
    if '--full' in args:      # heavy experiments too: the notebooks' FULL flag reads TAO_NB_FULL
        args.remove('--full'); SKIP.discard('slow'); os.environ['TAO_NB_FULL'] = '1'
    if '--only' in args:      # a comma-separated list of cell ids
        k = args.index('--only'); ONLY.update(args[k + 1].split(',')); del args[k:k + 2]
    for p in args:
        print('running', p, flush=True); run(p)
