"""Run every notebook in nbs/ (cells flagged `slow`/`notest` are skipped), one test item per notebook."""
from pathlib import Path

import pytest
from nbdev.test import test_nb as run_notebook  # renamed so pytest does not collect it

NBS = Path(__file__).resolve().parents[1] / 'nbs'
NOTEBOOKS = sorted(p for p in NBS.glob('*.ipynb') if not p.name.startswith('_'))


@pytest.mark.parametrize('nb', NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook(nb):
    ok, secs = run_notebook(nb, skip_flags=['slow', 'notest'], showerr=True)
    assert ok, f"{nb.name} failed (see the traceback above)"
