"""Store the notebooks' saved PNG figures as 256-colour palette PNGs when that is smaller (plots have few colours).

    python tools/shrink_figures.py nbs/*.ipynb index.ipynb

The figures look the same; only their encoding changes. Run nbdev_clean afterwards."""
import base64, io, json, sys
from PIL import Image


def shrink(b64):
    raw = base64.b64decode(b64)
    im = Image.open(io.BytesIO(raw)).convert('RGB').quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO(); im.save(out, format='PNG', optimize=True)
    return base64.b64encode(out.getvalue()).decode() if out.tell() < len(raw) else None


for path in sys.argv[1:]:
    nb = json.load(open(path)); before = after = 0
    for c in nb['cells']:
        for o in c.get('outputs', []):
            png = o.get('data', {}).get('image/png')
            if not png: continue
            png = ''.join(png) if isinstance(png, list) else png
            new = shrink(png); before += len(png)
            o['data']['image/png'] = new or png; after += len(new or png)
    if before:
        json.dump(nb, open(path, 'w'), indent=1, ensure_ascii=False); open(path, 'a').write('\n')
        print(f"{path}: figures {before // 1024} KB -> {after // 1024} KB")
