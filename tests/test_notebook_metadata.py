"""Every notebook carries the python3 kernelspec (JupyterLab opens it with its kernel, no 'Select Kernel' dialog), in the
form nbdev_clean leaves unchanged. `python tools/set_kernelspec.py` adds it."""
import copy
import json
from pathlib import Path

import pytest
from nbdev.clean import clean_nb

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted({p.resolve() for p in (ROOT / 'nbs').glob('*.ipynb')})


@pytest.mark.parametrize('path', NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_has_a_python3_kernelspec_that_survives_nbdev_clean(path):
    nb = json.loads(path.read_text(encoding='utf-8'))
    ks = nb.get('metadata', {}).get('kernelspec')
    assert ks, f"{path.name} has no kernelspec: run python tools/set_kernelspec.py"
    assert ks.get('name') == 'python3' and ks.get('language') == 'python', ks
    cleaned = copy.deepcopy(nb)
    clean_nb(cleaned)
    assert cleaned['metadata'].get('kernelspec') == ks, "nbdev_clean would change this kernelspec"
