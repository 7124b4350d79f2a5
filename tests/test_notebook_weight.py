"""Notebook weight (issue 11 #8): nbs/ stays under 1.5 MB, and every saved figure is stored light, at the size it is
shown (no 'retina' doubling) as a palette PNG (`tools/shrink_figures.py`, which `tools/run_notebooks.py` applies)."""
import base64
import io
import json
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
from shrink_figures import shown_size, shrink  # noqa: E402

LIMIT = 1.5 * 2**20      # bytes: issue 11's "nbs/ under 1.5 MB"
NOTEBOOKS = sorted(p for p in (ROOT / 'nbs').glob('*.ipynb') if not p.is_symlink())   # what `du -sh nbs` counts


def figures(path):
    "(cell index, output, base64 PNG) of every saved PNG of the notebook at `path`."
    for i, c in enumerate(json.loads(Path(path).read_text())['cells']):
        for o in c.get('outputs', []):
            png = o.get('data', {}).get('image/png')
            if png: yield i, o, ''.join(png) if isinstance(png, list) else png


def test_nbs_under_the_weight_limit():
    sizes = {p.name: p.stat().st_size for p in NOTEBOOKS}
    heaviest = sorted(sizes.items(), key=lambda kv: -kv[1])[:5]
    assert sum(sizes.values()) < LIMIT, f"notebooks weigh {sum(sizes.values()) / 2**20:.2f} MB > 1.5 MB; heaviest: {heaviest}"


def test_figures_are_stored_light():
    heavy = []
    for p in NOTEBOOKS:
        for i, o, png in figures(p):
            im = Image.open(io.BytesIO(base64.b64decode(png)))
            if shown_size(o) is not None: heavy.append(f"{p.name} cell {i}: {im.size} pixels shown at {shown_size(o)} (retina)")
            elif im.mode != 'P' and shrink(png) is not None: heavy.append(f"{p.name} cell {i}: {im.mode} PNG, not a palette PNG")
    assert not heavy, "run tools/shrink_figures.py on these notebooks, then nbdev_clean:\n" + '\n'.join(heavy)


def test_shrinking_halves_a_retina_figure_and_keeps_a_light_one():
    "The check above can fail: a figure as a 'retina' runner saves it is caught, and shrinking fixes it."
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(3, 2), dpi=144); ax.plot([0, 1, 3], [2, 0, 1]); buf = io.BytesIO()
    fig.savefig(buf, format='png', facecolor='white'); plt.close(fig)
    retina = base64.b64encode(buf.getvalue()).decode()
    out = {'data': {'image/png': retina}, 'metadata': {'image/png': {'width': 216, 'height': 144}}}
    assert Image.open(io.BytesIO(base64.b64decode(retina))).size == (432, 288) and shown_size(out) == (216, 144)
    small = Image.open(io.BytesIO(base64.b64decode(shrink(retina, shown_size(out)))))
    assert small.size == (216, 144) and small.mode == 'P'
    assert shrink(shrink(retina, (216, 144))) is None            # shrinking again gains nothing
