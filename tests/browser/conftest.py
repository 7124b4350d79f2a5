"""Browser tests (`pytest -m browser`): JupyterLab and the docs site in headless Chromium, driven by Playwright.

They need Debian's chromium (`apt-get install -y chromium`; or set TAO_NB_CHROMIUM to a Chromium binary), the
`playwright` and `jupyterlab` packages (dev requirements); without one of them every test here is skipped, saying
which is missing. Playwright's own browser download is not used: it drives the installed Chromium. Screenshots go to
tests/browser/screenshots/ (gitignored). Every process started here is stopped here.
"""
import importlib.util
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).resolve().parent / 'screenshots'
CHROMIUM = os.environ.get('TAO_NB_CHROMIUM', '/usr/bin/chromium')


def pytest_configure(config):
    config.addinivalue_line('markers', 'browser: drives headless Chromium (skipped when no browser is installed)')


def missing_requirement():
    "Why the browser tests cannot run here, or None."
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM}: apt-get install -y chromium (or set TAO_NB_CHROMIUM)"
    for mod, pkg in (('playwright', 'playwright'), ('jupyterlab', 'jupyterlab'), ('ipykernel', 'ipykernel')):
        if importlib.util.find_spec(mod) is None: return f"the {pkg} package is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture(scope='session')
def browser():
    why = missing_requirement()
    if why: pytest.skip(why)
    from playwright.sync_api import sync_playwright
    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=['--no-sandbox', '--disable-gpu'])
        yield b
        b.close()


@pytest.fixture(scope='session')
def shots():
    "The folder for screenshots."
    SHOTS.mkdir(exist_ok=True)
    return SHOTS


def _free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0)); return s.getsockname()[1]


class Lab:
    "A JupyterLab server on 127.0.0.1 serving a temporary copy of nbs/, with a token."
    def __init__(self, workdir):
        self.dir, self.nbs = Path(workdir), Path(workdir) / 'nbs'
        shutil.copytree(ROOT / 'nbs', self.nbs, symlinks=False)       # a copy: the repo's notebooks are never touched
        # the saved results the notebooks read and write beside them, as in the repository (`../benchmarks/results`)
        shutil.copytree(ROOT / 'benchmarks' / 'results', Path(workdir) / 'benchmarks' / 'results')
        cfg = self.dir / 'config'
        (cfg / 'labconfig').mkdir(parents=True)
        # no "news" pop-up over the notebook
        (cfg / 'labconfig' / 'page_config.json').write_text(json.dumps(
            {'disabledExtensions': {'@jupyterlab/apputils-extension:announcements': True}}))
        self.token, self.port = secrets.token_hex(16), _free_port()
        self.url = f'http://127.0.0.1:{self.port}'
        env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(self.dir / 'runtime'), JUPYTER_CONFIG_DIR=str(cfg),
                   PYTHONPATH=os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get('PYTHONPATH')] if p]))
        env.pop('MPLBACKEND', None)       # tests/conftest.py sets Agg; the kernel must use its inline backend
        self.log = open(self.dir / 'jupyterlab.log', 'w')
        self.proc = subprocess.Popen(
            [sys.executable, '-m', 'jupyterlab', '--no-browser', '--ip=127.0.0.1', f'--port={self.port}',
             f'--ServerApp.token={self.token}', '--ServerApp.port_retries=0', '--allow-root'],
            cwd=self.nbs, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 90
        while True:
            try:
                self.api('status'); break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"JupyterLab did not start: see {self.dir / 'jupyterlab.log'}")
                time.sleep(0.3)

    def api(self, path, method='GET'):
        req = urllib.request.Request(f'{self.url}/api/{path}', method=method,
                                     headers={'Authorization': f'token {self.token}'})
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
        return json.loads(body) if body else None

    def notebook_url(self, name):
        "The notebook in a fresh workspace (no earlier tabs reopened)."
        return f'{self.url}/lab/workspaces/t{secrets.token_hex(4)}/tree/{name}?token={self.token}&reset'

    def shutdown_kernels(self):
        try:
            for s in self.api('sessions'): self.api(f"sessions/{s['id']}", method='DELETE')
        except OSError: pass

    def stop(self):
        "Stop the server this object started (its kernels with it), by its process group id."
        if self.proc.poll() is None:
            self.shutdown_kernels()
            self.proc.terminate()
            try: self.proc.wait(30)
            except subprocess.TimeoutExpired: pass
        try: os.killpg(self.proc.pid, signal.SIGKILL)      # anything left of the group we started
        except (ProcessLookupError, PermissionError): pass
        self.proc.wait()
        self.log.close()


@pytest.fixture(scope='module')
def lab(browser, tmp_path_factory):
    server = Lab(tmp_path_factory.mktemp('lab'))
    yield server
    server.stop()
