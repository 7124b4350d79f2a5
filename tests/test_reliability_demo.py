"""Issue 27, #13: `python -m tao_nb` checks where its figure goes before the work, not after it (notebook 19_demo)."""
import os
import shutil
import subprocess
import sys

import pytest

import tao_nb.demo as demo

FIGURE = 'tao_digits_history.png'                  # the README's figure, written to the working directory


def _watch_work(monkeypatch, capsys):
    "Stub the demo's fits (depth 2 stays real but cheap) and record what was printed when the work started."
    seen = []
    real = demo.compare_on_digits

    def compare(depths):
        seen.append(capsys.readouterr())
        return real(depths)
    monkeypatch.setattr(demo, 'compare_on_digits', compare)
    return seen


def test_an_unwritable_working_directory_is_reported_at_once_and_the_demo_runs_without_the_figure(
        monkeypatch, capsys, tmp_path):
    (tmp_path / FIGURE).mkdir()             # the default figure cannot be created here, even by root
    monkeypatch.chdir(tmp_path)
    seen = _watch_work(monkeypatch, capsys)
    rows = demo.main(['--depths', '2', '--no-oblique'])
    out = capsys.readouterr()
    assert len(rows) == 2 and len(seen) == 1
    note = seen[0].err.strip().splitlines()
    assert len(note) == 1 and 'cannot write the figure' in note[0] and FIGURE in note[0], note
    assert 'running without it' in note[0] and '--figure' in note[0]
    assert out.err == '' and 'figure of the objective per sweep: not written' in out.out
    assert (tmp_path / FIGURE).is_dir() and list((tmp_path / FIGURE).iterdir()) == []


def test_an_unwritable_figure_asked_for_is_an_error_before_the_work(monkeypatch, capsys, tmp_path):
    (tmp_path / 'file').write_text('x')
    seen = _watch_work(monkeypatch, capsys)
    for bad in (tmp_path / 'file' / 'h.png', tmp_path / 'missing' / 'h.png', tmp_path / 'h.xyz'):
        with pytest.raises(SystemExit) as e: demo.main(['--depths', '2', '--no-oblique', '--figure', str(bad)])
        assert e.value.code == 2 and seen == []
        err = capsys.readouterr().err
        assert f'cannot write the figure to {bad}' in err, err
    assert (tmp_path / 'file').read_text() == 'x' and sorted(p.name for p in tmp_path.iterdir()) == ['file']


def test_a_writable_place_is_left_as_it_was_until_the_figure_is_saved(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    seen = _watch_work(monkeypatch, capsys)
    monkeypatch.setattr(demo, 'history_figure', lambda rows, path: seen.append(os.listdir(tmp_path)) or path)
    demo.main(['--depths', '2', '--no-oblique'])
    assert seen[0].err == '' and seen[1] == []               # the probe file is gone before the work starts
    demo.main(['--depths', '2', '--no-oblique', '--no-figure'])
    assert len(seen) == 3 and 'figure' not in capsys.readouterr().out


def test_the_demo_as_a_user_who_cannot_write_the_working_directory():
    "`python -m tao_nb` run by nobody in /, which nobody cannot write: one line, then every result."
    if os.geteuid() != 0 or not shutil.which('setpriv'): pytest.skip('needs root and setpriv to become another user')
    user = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
    env = {'PATH': '/usr/bin:/bin', 'HOME': '/', 'MPLBACKEND': 'Agg'}
    if subprocess.run(user + [sys.executable, '-c', 'pass'], env=env, cwd='/').returncode:
        pytest.skip("this Python is not readable by another user")
    if subprocess.run(user + ['test', '-w', '/'], env=env).returncode == 0: pytest.skip('nobody can write / here')
    out = subprocess.run(user + [sys.executable, '-m', 'tao_nb', '--depths', '2', '--no-oblique'], env=env, cwd='/',
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    note = [l for l in out.stderr.splitlines() if 'cannot write the figure' in l]
    assert note == [f"python -m tao_nb: cannot write the figure to /{FIGURE} (Permission denied); running "
                    "without it (--figure PATH writes it elsewhere)"], out.stderr[-2000:]
    assert '    2    TAO' in out.stdout
    assert 'figure of the objective per sweep: not written (Permission denied)' in out.stdout
    assert not os.path.exists('/' + FIGURE)


# 17: the notebook runs' IPython shells are closed at the end of the session (tests/conftest.py), not one full garbage
# collection each at exit; the seconds from the session's end to exit are measured by conftest (TAO_NB_EXIT_TIMES=1)
def test_the_notebook_shells_are_closed_by_one_collection():
    import gc
    from notebook_shells import close_notebook_shells
    from execnb.shell import CaptureShell
    import weakref
    class Gone: pass
    gone = Gone()
    dead = weakref.proxy(gone)      # a dead weak proxy among the heap's objects must not stop the scan
    del gone
    shell = CaptureShell()
    shell.run_cell('import numpy as np\nbig = np.ones(10**6)')
    assert 'big' in shell.user_ns
    collect, calls = gc.collect, []
    gc.collect = lambda *args, **kwargs: calls.append(1) or collect(*args, **kwargs)
    try: assert close_notebook_shells() >= 1
    finally: gc.collect = collect
    assert calls == [1] and 'big' not in shell.user_ns and shell.history_manager is None
    assert not hasattr(shell, 'tempfiles') and close_notebook_shells() == 0        # closed once, not again at exit
