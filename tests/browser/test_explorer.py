"""The explorer notebook in JupyterLab, as a reader uses it: open it, run all cells, see the widgets, move the slider,
click Next and Prev, and see the figure change to a complete new drawing (never a half-drawn one), the number beside the
slider never ahead of the image and equal to the caption's, both explorers fitting a 960-px column without scrolling
sideways, and a new tree of the path explorer shown within 2 s of clicking Next (issue 30).

The notebook is found at test time: the one whose (non-exported) cells call `explore_sweep(` or `SweepExplorer(`.
It runs from a temporary copy of nbs/, without its `#| slow` cells (as nbdev_test runs it by default)."""
import json
import re
import time

import pytest


pytestmark = pytest.mark.browser

CALLS = re.compile(r'\b(explore_sweep|SweepExplorer)\(')
BUSY = """() => {
  const s = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator, .jp-Notebook-ExecutionIndicator');
  const busy = [...document.querySelectorAll('.jp-InputPrompt')].some(e => e.textContent.includes('*'));
  return !!s && s.dataset.status === 'idle' && !busy; }"""
# a widget's drawing: one "length:hash" per <img> (the figures are PNG data URLs), and whether all are loaded
STATE = """(box) => { const imgs = [...box.querySelectorAll('.jp-OutputArea-output img, .widget-output img')];
  return {imgs: imgs.map(i => { const s = i.src; let h = 0; for (let k = 0; k < s.length; k += 3) h = (h * 31 + s.charCodeAt(k)) | 0;
                                return s.length + ':' + h; }),
          loaded: imgs.every(i => i.complete && i.naturalWidth > 0),
          readout: (box.querySelector('.explorer-readout') || box.querySelector('.widget-readout') || {}).textContent || '',
          step: ((box.querySelector('.widget-html') || {}).textContent || '').match(/^\\s*(?:step|tree) (\\d+\\/\\d+)/)?.[1] || '',
          text: box.textContent.replace(/\\s+/g, ' ').trim()}; }"""
# record every state the widget shows: sampled in each animation frame, i.e. just before the browser paints it;
# box.__t0 is when the watch started (the action follows at once), in the frames' clock
WATCH = """(box) => { box.__states = []; const token = {}; window.__tao_watch = token; let last = '';
  box.__t0 = performance.now();
  const tick = (t) => { if (window.__tao_watch !== token) return;
    const s = window.__tao_state(box), key = JSON.stringify([s.imgs, s.loaded, s.readout, s.step]);
    if (key !== last) { box.__states.push({...s, t: Math.round(t)}); last = key; }
    requestAnimationFrame(tick); };
  requestAnimationFrame(tick); }"""


def explorer_notebook(nbs):
    "The notebook that calls explore_sweep(/SweepExplorer( outside exported cells."
    for p in sorted(nbs.glob('*.ipynb')):
        cells = json.loads(p.read_text())['cells']
        if any(c['cell_type'] == 'code' and CALLS.search(''.join(c['source']))
               and not ''.join(c['source']).lstrip().startswith('#| export') for c in cells):
            return p
    raise AssertionError(f"no notebook in {nbs} calls explore_sweep( or SweepExplorer(")


def drop_slow_cells(path):
    nb = json.loads(path.read_text())
    nb['cells'] = [c for c in nb['cells'] if not re.search(r'^#\|\s*slow\b', ''.join(c['source']), flags=re.M)]
    path.write_text(json.dumps(nb, indent=1))


@pytest.fixture(scope='module')
def notebook(lab, browser, shots):
    "The explorer notebook opened and run; what opening it showed (kernel dialog? marked changed?)."
    path = explorer_notebook(lab.nbs)
    drop_slow_cells(path)
    page = browser.new_page(viewport={'width': 1400, 'height': 1500})
    page.set_default_timeout(60_000)
    page.goto(lab.notebook_url(path.name))
    page.wait_for_selector('.jp-NotebookPanel .jp-Cell')
    dialog = page.locator('.jp-Dialog button:has-text("Select")')
    try: dialog.wait_for(timeout=5_000); saw_dialog = True
    except Exception: saw_dialog = False
    if saw_dialog:
        page.screenshot(path=shots / 'explorer_kernel_dialog.png')
        dialog.click()
    deadline = time.monotonic() + 90
    while not any(x['kernel']['execution_state'] == 'idle' for x in lab.api('sessions')):   # the kernel is up
        assert time.monotonic() < deadline, "no kernel started for the notebook"
        time.sleep(0.2)
    page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]', timeout=90_000)
    time.sleep(1.5)                      # the front end has its kernel info
    page.screenshot(path=shots / 'explorer_opened.png')
    dirty_at_open = page.locator('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty').count() > 0
    page.get_by_role('menuitem', name='Run', exact=True).click()
    page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').click()
    page.wait_for_function("() => [...document.querySelectorAll('.jp-InputPrompt')].some(e => /\\[[*0-9]+\\]/.test(e.textContent))")
    page.wait_for_function(BUSY, timeout=240_000, polling=500)
    page.evaluate("src => { window.__tao_state = (0, eval)('(' + src + ')'); }", STATE)
    page.screenshot(path=shots / 'explorer_ran.png')
    yield {'page': page, 'path': path, 'saw_dialog': saw_dialog, 'dirty_at_open': dirty_at_open, 'shots': shots}
    page.close()
    lab.shutdown_kernels()


def test_notebook_opens_with_its_kernel(notebook):
    name = notebook['path'].name
    assert not notebook['saw_dialog'], f"{name} opened with a 'Select Kernel' dialog: it has no kernelspec (run tools/set_kernelspec.py)"


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    "JupyterLab 4.6 marks a notebook changed unless its metadata equals what the kernel reports: kernelspec display_name "
    "'Python 3 (ipykernel)' and the full language_info, Python patch version included; nbdev_clean rewrites display_name "
    "to the kernelspec name and drops language_info, so a notebook kept nbdev-clean is marked changed on opening"))
def test_notebook_not_marked_changed_when_opened(notebook):
    assert not notebook['dirty_at_open'], f"{notebook['path'].name} was marked changed as soon as it opened"


def test_all_cells_ran_and_widgets_render(notebook):
    page = notebook['page']
    prompts = page.locator('.jp-CodeCell .jp-InputPrompt').all_text_contents()
    n_code = sum(c['cell_type'] == 'code' for c in json.loads(notebook['path'].read_text())['cells'])
    assert len(prompts) == n_code and all(re.search(r'\[\d+\]', p) for p in prompts), prompts
    errors = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]')
    assert errors.count() == 0, errors.first.inner_text()[:2000]
    text = '\n'.join(page.locator('.jp-OutputArea-output').all_text_contents())
    assert 'Loading widget' not in text
    assert not re.search(r'VBox\(|Explorer object at|Explorer at 0x', text), "a widget model's repr shows instead of the widget"
    boxes = explorer_boxes(page)
    assert len(boxes) >= 1
    for b in boxes.values():
        st = b.evaluate(STATE)
        assert st['imgs'] and st['loaded'], st


def explorer_boxes(page):
    "{'sweep': box, 'path': box}: the explorers' widget boxes (a slider with Prev/Next and a drawing)."
    out = {}
    for box in page.locator('.jp-OutputArea-output > .widget-vbox').all():
        if box.locator('.noUi-handle').count() == 0 or box.locator('button:has-text("Next")').count() == 0: continue
        text = box.text_content()                       # captions: "step k/n: node ..." and "tree k/n: C = ..."
        out['sweep' if re.search(r'step \d+/\d+: node', text) else 'path' if re.search(r'tree \d+/\d+: C = ', text)
            else f'widget{len(out)}'] = box
    return out


def act_and_settle(page, box, action, kernel_idle, quiet=3.0, timeout=90):
    """Do `action`, then wait for the new drawing: other images than before, as many (a half-drawn state has fewer),
    all loaded, the kernel idle and nothing changed for `quiet` s. Returns the states before, after and in between."""
    before = box.evaluate(STATE)
    box.evaluate(WATCH)
    action()
    t0 = time.monotonic()
    last, since = None, time.monotonic()
    while time.monotonic() - t0 < timeout:
        st = box.evaluate(STATE)
        if st != last: last, since = st, time.monotonic()
        if (st['imgs'] != before['imgs'] and len(st['imgs']) == len(before['imgs']) and st['loaded']
                and time.monotonic() - since >= quiet and page.evaluate(BUSY) and kernel_idle()): break
        time.sleep(0.05)
    else:
        raise AssertionError(f"the drawing did not settle to a new one within {timeout} s: {before} -> {last}")
    states = box.evaluate('(box) => { window.__tao_watch = null; return box.__states.map(s => ({...s, t: s.t - box.__t0})); }')
    return before, last, states


def drive(page, box, name, shots, kernel_idle):
    "Slider one step right, Next, Prev; screenshots before and after. Returns the three (before, after, states)."
    box.scroll_into_view_if_needed()
    box.screenshot(path=shots / f'{name}_before.png')
    res = {}
    res['slider'] = act_and_settle(page, box, lambda: (box.locator('.noUi-handle').focus(), page.keyboard.press('ArrowRight')),
                                   kernel_idle)
    box.screenshot(path=shots / f'{name}_after_slider.png')
    res['next'] = act_and_settle(page, box, lambda: box.locator('button.jupyter-button:has-text("Next")').click(), kernel_idle)
    box.screenshot(path=shots / f'{name}_after_next.png')
    res['prev'] = act_and_settle(page, box, lambda: box.locator('button.jupyter-button:has-text("Prev")').click(), kernel_idle)
    box.screenshot(path=shots / f'{name}_after_prev.png')
    page.screenshot(path=shots / f'{name}_page_after.png')
    return res


@pytest.fixture(scope='module')
def driven(notebook, lab):
    "Each explorer driven (slider, Next, Prev), with the states its drawing went through."
    page = notebook['page']
    idle = lambda: all(k['execution_state'] == 'idle' for k in lab.api('kernels'))   # the server sees comm work too
    return {name: drive(page, box, name, notebook['shots'], idle) for name, box in explorer_boxes(page).items()}


def _check_moves(res):
    (b0, a0, _), (b1, a1, _), (b2, a2, _) = res['slider'], res['next'], res['prev']
    n = len(b0['imgs'])
    for before, after in ((b0, a0), (b1, a1), (b2, a2)):
        assert after['imgs'] != before['imgs'] and len(after['imgs']) == n and after['loaded']
    assert a2['text'] == a0['text'] != a1['text'], "Prev after Next goes back to the step before (its caption and readout)"
    pos = lambda st: int(st['readout'].split('/')[0])
    assert [pos(a) for a in (a0, a1, a2)] == [pos(b0) + k for k in (1, 2, 1)], [a['readout'] for a in (b0, a0, a1, a2)]
    for a in (b0, a0, a1, a2):
        assert a['readout'] == a['step'], f"the number beside the slider {a['readout']!r} is not the caption's {a['step']!r}"


def _half_drawn(res):
    "Painted states that are neither the drawing before nor the one after (e.g. fewer images): (action, images, ms shown)."
    out = []
    for step, (before, after, states) in res.items():
        for s, nxt in zip(states, states[1:] + [None]):
            if s['imgs'] not in (before['imgs'], after['imgs']):
                out.append((step, f"{len(s['imgs'])} of {len(before['imgs'])} images", (nxt['t'] - s['t']) if nxt else None))
    return out


def _readout_ahead(res):
    """Painted states whose number is the new position's while the image is not yet the new one: (action, state).
    The new image counts from the moment its source is set: the number is sent after it, in the same callback. The
    browser's decoding of the PNG that follows (a frame or a few, longer on a loaded machine) is not the explorer's
    to order, and a run at a load average of 10 saw it take a frame after the number appeared."""
    return [(step, {k: s[k] for k in ('readout', 'step', 'loaded', 't')})
            for step, (before, after, states) in res.items() for s in states
            if s['readout'] == after['readout'] and s['imgs'] != after['imgs']]


def test_sweep_explorer_slider_next_prev_change_the_figure(driven):
    assert 'sweep' in driven, f"no sweep explorer widget found (found {list(driven)})"
    _check_moves(driven['sweep'])


def test_sweep_explorer_never_half_drawn(driven):
    half = _half_drawn(driven['sweep'])
    assert not half, f"half-drawn states shown (action, images, ms): {half}"


def test_path_explorer_slider_next_prev_change_the_figures(driven):
    assert 'path' in driven, f"no path explorer widget found (found {list(driven)})"
    _check_moves(driven['path'])


def test_path_explorer_never_half_drawn(driven):
    half = _half_drawn(driven['path'])
    assert not half, f"half-drawn states shown (action, images, ms): {half}"


def test_sweep_explorer_readout_never_ahead_of_the_image(driven):
    "Issue 30: the number beside the slider changes with the image (after it), never before it."
    ahead = _readout_ahead(driven['sweep'])
    assert not ahead, f"the number showed the new position before its image was up: {ahead}"


def test_path_explorer_readout_never_ahead_of_the_image(driven):
    ahead = _readout_ahead(driven['path'])
    assert not ahead, f"the number showed the new position before its image was up: {ahead}"


def test_path_explorer_new_tree_within_2s(driven):
    """Issue 30: clicking Next on the path explorer shows a tree not drawn before (the live cell builds a new explorer,
    which has drawn only its opening tree; the slider moved one right, Next goes one further) within 2 s: from the
    click to the first painted frame with the new image loaded."""
    times = {}
    for step, (before, after, states) in driven['path'].items():
        shown = [s['t'] for s in states if s['imgs'] == after['imgs'] and s['loaded']]
        assert shown, f"{step}: no painted frame showed the new image loaded: {states}"
        times[step] = shown[0] / 1000
    print(f"path explorer, click to new image loaded: {', '.join(f'{k} {v:.2f} s' for k, v in times.items())}")
    assert times['next'] <= 2.0, (f"a new path tree took {times['next']:.2f} s to appear after Next (target: 2 s); "
                                  f"all moves: {times}")


def test_explorers_fit_a_960px_column(notebook, driven, shots):
    """Issue 30: with the notebook's output column 960 px wide, neither explorer scrolls sideways and each image is shown
    at its natural size (not shrunk: its text is as large as the notebook measures it)."""
    page = notebook['page']
    boxes = explorer_boxes(page)
    out = boxes['sweep'].locator('xpath=ancestor::div[contains(@class, "jp-OutputArea-output")][1]')
    vw = page.viewport_size
    page.set_viewport_size({'width': vw['width'] - round(out.evaluate('e => e.clientWidth')) + 960, 'height': vw['height']})
    try:
        time.sleep(1.0)
        for name, box in boxes.items():
            area = box.locator('xpath=ancestor::div[contains(@class, "jp-OutputArea-output")][1]')
            box.scroll_into_view_if_needed()
            box.screenshot(path=shots / f'{name}_at_960px.png')
            m = area.evaluate("""a => { const i = a.querySelector('img'); return {client: a.clientWidth, scroll: a.scrollWidth,
                boxScroll: a.querySelector('.widget-vbox').scrollWidth, boxClient: a.querySelector('.widget-vbox').clientWidth,
                shown: i.getBoundingClientRect().width, natural: i.naturalWidth}; }""")
            assert m['client'] <= 960 and m['scroll'] <= m['client'] and m['boxScroll'] <= m['boxClient'], (name, m)
            assert abs(m['shown'] - m['natural']) <= 1, f"{name}: image shown {m['shown']} px wide, drawn {m['natural']} px: {m}"
    finally:
        page.set_viewport_size(vw)
