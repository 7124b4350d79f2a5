"""Store the notebooks' saved PNG figures light: at the size they are shown, as 256-colour palette PNGs.

    python tools/shrink_figures.py nbs/*.ipynb index.ipynb

A figure saved by a 'retina' runner (execnb's default, or `InlineBackend.figure_format = 'retina'`) holds twice the
pixels it is shown at and says so in its output metadata (`width`/`height` half its pixels): it is scaled down to
that size and the metadata dropped, as a plain PNG at the notebook's dpi would have been. Then every figure is stored
as a palette PNG when that is smaller (plots have few colours); it looks the same. `tools/run_notebooks.py` calls
`shrink_notebook` on what it saves. Run nbdev_clean afterwards."""
import base64, io, json, sys
from PIL import Image

COLOURS = 256
# octree quantization keeps the few saturated colours of a weight image (red/blue) that median cut greys out, and its
# palettes compress better: all figures of nbs/ weigh 417 KB this way, 574 KB with median cut at 128 colours
METHOD = Image.Quantize.FASTOCTREE


def _png(im):
    out = io.BytesIO(); im.save(out, format='PNG', optimize=True)
    return out.getvalue()


def shrink(b64, size=None):
    "PNG `b64` as a palette PNG (scaled to `size`=(width, height) if given), base64; None if that is not smaller and `size` is None."
    raw = base64.b64decode(b64)
    im = Image.open(io.BytesIO(raw)).convert('RGBA')
    white = Image.new('RGBA', im.size, 'white'); white.alpha_composite(im); im = white.convert('RGB')
    if size is not None and tuple(size) != im.size: im = im.resize(tuple(size), Image.Resampling.LANCZOS)
    new = _png(im.quantize(colors=COLOURS, method=METHOD))
    if size is not None and len(new) >= len(raw): new = _png(im)   # a scaled figure is kept even if not smaller
    elif len(new) >= len(raw): return None
    return base64.b64encode(new).decode()


def shown_size(output):
    "(width, height) a 'retina' figure is shown at, from its output metadata; None for a plain figure."
    md = output.get('metadata', {}).get('image/png', {})
    return (int(md['width']), int(md['height'])) if 'width' in md and 'height' in md else None


def shrink_notebook(path):
    "Shrink every saved PNG of the notebook at `path` in place; (KB before, KB after)."
    nb = json.load(open(path, encoding='utf-8')); before = after = 0
    for c in nb['cells']:
        for o in c.get('outputs', []):
            png = o.get('data', {}).get('image/png')
            if not png: continue
            png = ''.join(png) if isinstance(png, list) else png
            size = shown_size(o)
            new = shrink(png, size); before += len(png)
            o['data']['image/png'] = new or png; after += len(new or png)
            if size is not None:
                del o['metadata']['image/png']
    if before:
        with open(path, 'w', encoding='utf-8') as f: json.dump(nb, f, indent=1, ensure_ascii=False); f.write('\n')
    return before // 1024, after // 1024


if __name__ == '__main__':
    for path in sys.argv[1:]:
        before, after = shrink_notebook(path)
        if before: print(f"{path}: figures {before} KB -> {after} KB")
