"""README.md is generated from index.ipynb (quarto is unavailable here), and .ci/run runs the README's test command.

Regenerate the README after editing index.ipynb:  python tests/test_readme.py --write
"""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def render_readme(nb_path=ROOT / 'index.ipynb'):
    "Markdown of index.ipynb: markdown cells as they are, code cells fenced as python, their printed output as text."
    nb = json.loads(Path(nb_path).read_text())
    parts = ["<!-- generated from index.ipynb by `python tests/test_readme.py --write`: edit the notebook -->"]
    for cell in nb['cells']:
        src = ''.join(cell['source']).strip()
        if not src or src.startswith('#| hide'): continue
        parts.append(src if cell['cell_type'] == 'markdown' else f"```python\n{src}\n```")
        out = ''.join(''.join(o.get('text', '')) for o in cell.get('outputs', []) if o.get('output_type') == 'stream').strip()
        if out: parts.append(f"```text\n{out}\n```")
    return '\n\n'.join(parts) + '\n'


def shell_commands(markdown):
    "The commands inside ```sh fences."
    return [c.strip() for c in re.findall(r"```sh\n(.*?)```", markdown, flags=re.S)]


def test_readme_is_generated_from_index():
    assert (ROOT / 'README.md').read_text() == render_readme(), "run: python tests/test_readme.py --write"


def test_exactly_two_setup_commands_and_ci_runs_the_test_command():
    cmds = shell_commands((ROOT / 'README.md').read_text())
    assert len(cmds) == 2 and all('\n' not in c for c in cmds), cmds
    assert cmds[0].endswith('-m tao_nb') and cmds[1].endswith('-m pytest tests')
    ci_lines = [line.strip() for line in (ROOT / '.ci' / 'run').read_text().splitlines()]
    assert cmds[1] in ci_lines, ".ci/run must run the README's test command verbatim"


if __name__ == '__main__' and '--write' in sys.argv:
    (ROOT / 'README.md').write_text(render_readme())
    print('README.md written from index.ipynb')
