"""A reader's run loses no result (issue 29 #9): a notebook with full-experiment records, run top to bottom with its
defaults in a fresh Jupyter kernel (nbclient, as JupyterLab runs it: `#| slow` cells run too, `TAO_NB_FULL` and
`IN_TEST` unset) and saved over itself (as JupyterLab's autosave does), still shows every saved record, and the
prose-number check still passes on that saved copy.

The copy lives in a temporary folder laid out as the repository (`nbs/` beside `benchmarks/results/`), so the run
reads the records the notebook shows and writes its figures there, never into the checkout.
"""
import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_prose_numbers import unprinted  # noqa: E402
from test_saved_records import lost_on_a_default_run  # noqa: E402

# the lightest notebook that shows a full experiment's record (10: one `#| slow` cell, MNIST-5k depths 8 and 12)
NOTEBOOK = 'nbs/10_oblique_cart.ipynb'


def reader_run(src, folder):
    "Copy `src` into `folder`/nbs (results beside it), run it as a reader does, save it over the copy; its path."
    from nbclient import NotebookClient
    shutil.copytree(ROOT / 'benchmarks' / 'results', folder / 'benchmarks' / 'results')
    (folder / 'nbs').mkdir()
    path = folder / 'nbs' / Path(src).name
    shutil.copy(ROOT / src, path)
    nb = nbformat.read(path, as_version=4)
    env = {k: v for k, v in os.environ.items() if k not in ('TAO_NB_FULL', 'IN_TEST')}
    env['PYTHONPATH'] = os.pathsep.join([str(ROOT)] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep) if p])
    env['MPLBACKEND'] = 'module://matplotlib_inline.backend_inline'
    saved = dict(os.environ)
    os.environ.clear(); os.environ.update(env)           # the kernel inherits this process's environment
    try: NotebookClient(nb, timeout=600, kernel_name='python3', resources={'metadata': {'path': str(path.parent)}}).execute()
    finally: os.environ.clear(); os.environ.update(saved)
    nbformat.write(nb, path)
    return path


@pytest.fixture(scope='module')
def ran(tmp_path_factory):
    return reader_run(NOTEBOOK, tmp_path_factory.mktemp('reader'))


def test_the_notebook_shows_a_saved_record():
    "The chosen notebook is a real case: it has a slow cell whose saved print is a record."
    cells = nbformat.read(ROOT / NOTEBOOK, as_version=4)['cells']
    slow = [c for c in cells if c['cell_type'] == 'code' and c['source'].startswith('#| slow') and c.get('outputs')]
    assert slow and not lost_on_a_default_run(cells)


def test_a_reader_run_keeps_every_record(ran):
    cells = nbformat.read(ran, as_version=4)['cells']
    assert not [o for c in cells for o in c.get('outputs', []) if o.get('output_type') == 'error']
    assert lost_on_a_default_run(cells) == []


def test_prose_numbers_still_match_after_a_reader_run(ran):
    assert unprinted(ran) == []


def test_a_lost_record_would_be_caught(ran):
    """The record check can fail: the reader's copy with its records' prints replaced by a short default print is
    reported (that the prose check catches a changed number is `tests/test_prose_mutation.py`'s test)."""
    nb = nbformat.read(ran, as_version=4)
    for c in nb['cells']:
        if c['cell_type'] == 'code' and c['source'].startswith('#| slow'):
            c['outputs'] = [nbformat.v4.new_output('stream', name='stdout', text='FULL is off: skipped\n')]
    assert lost_on_a_default_run(nb['cells'])
