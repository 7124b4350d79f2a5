"""Run a benchmark and save what it prints, so the results table's numbers can be checked against it.

    python tools/run_benchmark.py benchmarks/bench_nongreedy.py --depths 8,12,14 --exact-depths 12,14 --dense-depths 8
    python tools/run_benchmark.py --name bench_sdt_node benchmarks/bench_sdt.py --node

The print goes to the terminal as it comes and to `benchmarks/results/NAME.txt` (NAME: the script's name unless
`--name` is given), whose first line is the command that printed it. `tests/test_prose_numbers.py` checks a results
row of index.ipynb against the saved prints of the commands the row gives (a command's own print; for a command with
none, the saved commands that extend it with more arguments): commit the file with the row it backs. A run that fails saves nothing.
"""
import shlex, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv):
    name = None
    if argv[:1] == ['--name']: name, argv = argv[1], argv[2:]
    if not argv or not argv[0].startswith('benchmarks/') or not (ROOT / argv[0]).is_file():
        sys.exit(__doc__)
    name = name or Path(argv[0]).stem
    cmd = 'python ' + ' '.join(shlex.quote(a) if a else '""' for a in argv)
    proc = subprocess.Popen([sys.executable, '-u', *argv], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    lines = []
    for line in proc.stdout:
        sys.stdout.write(line); lines.append(line)
    if proc.wait(): sys.exit(f"{cmd} failed (exit {proc.returncode}); nothing saved")
    out = ROOT / 'benchmarks' / 'results' / f'{name}.txt'
    out.write_text(f"$ {cmd}\n" + ''.join(lines))
    print(f"saved {out.relative_to(ROOT)}")


if __name__ == '__main__':
    main(sys.argv[1:])
