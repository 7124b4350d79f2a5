"""Give every notebook the python3 kernelspec, so JupyterLab opens it with its kernel (no 'Select Kernel' dialog) and
does not mark it changed at once: `python tools/set_kernelspec.py` (idempotent; `--check` only reports).

nbdev_clean keeps `kernelspec` in the notebook metadata (it is in nbdev's default allowed keys) and rewrites its
`display_name` to its `name`, so the kernelspec written here is exactly what nbdev_clean leaves: it survives it
unchanged. Notebooks are written in nbdev's format (sorted keys, indent 1, a final newline), as nbdev_clean writes them.
"""
import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KERNELSPEC = {'display_name': 'python3', 'language': 'python', 'name': 'python3'}


def notebooks(nbs=ROOT / 'nbs'):
    "Every notebook of `nbs` once (a symlink counts as the file it points to, e.g. nbs/index.ipynb -> index.ipynb)."
    return sorted({p.resolve() for p in Path(nbs).glob('*.ipynb')})


def set_kernelspec(path):
    "Write KERNELSPEC into the notebook at `path` if it lacks it; True if the file changed."
    nb = json.loads(Path(path).read_text(encoding='utf-8'))
    if nb.get('metadata', {}).get('kernelspec') == KERNELSPEC: return False
    nb.setdefault('metadata', {})['kernelspec'] = dict(KERNELSPEC)
    Path(path).write_text(json.dumps(nb, sort_keys=True, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    return True


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--nbs', default=str(ROOT / 'nbs'), help='folder of notebooks (default: nbs/)')
    ap.add_argument('--check', action='store_true', help='only list the notebooks without the kernelspec')
    a = ap.parse_args()
    if a.check:
        lacking = [p for p in notebooks(a.nbs) if json.loads(p.read_text()).get('metadata', {}).get('kernelspec') != KERNELSPEC]
        print('\n'.join(f'no kernelspec: {p}' for p in lacking) or 'every notebook has the kernelspec')
        sys.exit(1 if lacking else 0)
    changed = [p for p in notebooks(a.nbs) if set_kernelspec(p)]
    print(f"kernelspec set in {len(changed)} notebook(s)" + ''.join(f"\n  {p.relative_to(ROOT) if p.is_relative_to(ROOT) else p}"
                                                               for p in changed))
