"""Re-run notebooks in-process (as nbdev_test does: cells flagged `slow`/`notest` and `#| eval: false` are skipped)
and save their outputs for readers; skipped cells keep the outputs they had.

    python tools/run_notebooks.py nbs/07_tao.ipynb [more notebooks]
    python tools/run_notebooks.py --full nbs/12_path.ipynb   # the `slow` cells too, with TAO_NB_FULL=1 (minutes)

Figures are saved as plain PNGs at the notebooks' own dpi (execnb's default would double their pixels); then run
`python tools/shrink_figures.py` on the notebooks and `nbdev_clean`. The notebooks' own code decides problem sizes (`IN_TEST` is not set here).
"""
import sys
from pathlib import Path

from execnb.nbio import read_nb, write_nb
from execnb.shell import CaptureShell
from nbdev.config import get_config
from nbdev.process import first_code_ln, extract_directives

import os

SKIP = {'slow', 'notest'}


def _skipped(cell):
    "True for a cell nbdev_test would not run (with `--full`, the `slow` cells run)."
    if cell.cell_type != 'code': return True
    d = extract_directives(cell, remove=False)
    return bool(SKIP & set(d)) or d.get('eval:', [''])[0].lower() == 'false'


def run(path):
    nb = read_nb(path)
    keep = {i: c.get('outputs', []) for i, c in enumerate(nb.cells) if _skipped(c)}
    shell = CaptureShell(path=Path(path).parent, mpl_format='png')   # not execnb's default 'retina' (2x the pixels)
    shell.run_all(nb, exc_stop=True, preproc=_skipped)
    for i, outs in keep.items():
        if nb.cells[i].cell_type == 'code': nb.cells[i]['outputs'] = outs
    write_nb(nb, path)


if __name__ == '__main__':
    args = sys.argv[1:]
    if '--full' in args:      # heavy experiments too: the notebooks' FULL flag reads TAO_NB_FULL
        args.remove('--full'); SKIP.discard('slow'); os.environ['TAO_NB_FULL'] = '1'
    for p in args:
        print('running', p, flush=True); run(p)
