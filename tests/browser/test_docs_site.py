"""The built docs site in headless Chromium: the index page, a notebook page with math (MathML laid out as math, not
as text) and an API reference page render; the offline search finds a symbol and a page; at a phone's width the
sidebar collapses behind a button; screenshots of each."""
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser


@pytest.fixture(scope='module')
def site(tmp_path_factory):
    spec = importlib.util.spec_from_file_location('build_docs', ROOT / 'tools' / 'build_docs.py')
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.build(tmp_path_factory.mktemp('docs') / 'site'), mod


@pytest.fixture(scope='module')
def page(browser):
    p = browser.new_page(viewport={'width': 1300, 'height': 900})
    yield p
    p.close()


def test_index_page_renders(site, page, shots):
    out, b = site
    page.goto((out / 'index.html').as_uri())
    assert page.locator('main h1').first.is_visible()
    n_pages = len(b.notebook_paths(ROOT / 'nbs'))
    assert page.locator('nav.sidebar ol.pages > li').count() == n_pages
    assert page.evaluate("document.fonts.status") == 'loaded'
    page.screenshot(path=shots / 'docs_index.png')


def _math_page(out, b):
    "The notebook page with the most fractions (the clearest test of math layout)."
    pages = [b.page_name(p) for p in b.notebook_paths(ROOT / 'nbs')]
    return max(pages, key=lambda p: (out / p).read_text().count('<mfrac'))


def test_notebook_page_with_math_renders_mathml(site, page, shots):
    out, b = site
    name = _math_page(out, b)
    page.goto((out / name).as_uri())
    assert page.evaluate("typeof MathMLElement") == 'function', "this Chromium has no MathML"
    n_math = page.locator('math').count()
    assert n_math > 5
    # laid out as math: a fraction's numerator sits above its denominator; display math is its own block
    frac = page.locator('mfrac').first
    frac.scroll_into_view_if_needed()
    num, den = (frac.evaluate(f"f => f.children[{k}].getBoundingClientRect().toJSON()") for k in (0, 1))
    assert num['bottom'] <= den['top'] + 1 and num['height'] > 0 and den['height'] > 0, (num, den)
    block = page.locator('math[display="block"]').first
    assert block.evaluate("m => getComputedStyle(m).display").startswith('block')
    frac.screenshot(path=shots / 'docs_math_fraction.png')
    page.screenshot(path=shots / 'docs_math_page.png')
    imgs = page.locator('main img')
    for k in range(imgs.count()):
        imgs.nth(k).scroll_into_view_if_needed()
        loaded = imgs.nth(k).evaluate(   # lazy images start loading when scrolled to: wait for their load (or error) event
            "i => i.complete ? i.naturalWidth > 0 : new Promise(r => { i.addEventListener('load', () => r(i.naturalWidth > 0));"
            " i.addEventListener('error', () => r(false)); })")
        assert loaded, f"figure {k} of {name} did not load"


def test_api_page_renders(site, page, shots):
    out, b = site
    api = sorted((out / 'api').glob('tao_nb.*.html'), key=lambda p: -p.read_text().count('api-entry'))[0]
    page.goto(api.as_uri())
    entries = page.locator('section.api-entry')
    assert entries.count() == api.read_text().count('<section class="api-entry')
    first = entries.first
    assert first.locator('pre.api-sig').is_visible() and first.locator('.api-doc').is_visible()
    assert page.locator('table.api-params tbody tr').count() > 0
    page.screenshot(path=shots / 'docs_api_page.png')
    # an entry's link back to its notebook lands on the same entry there
    path, anchor = first.locator('a.api-other').get_attribute('href').split('#')
    first.locator('a.api-other').click()
    page.wait_for_url(f"**/{Path(path).name}#{anchor}")
    entry = page.locator(f'section.api-entry[id="{anchor}"]')
    assert entry.is_visible() and entry.evaluate("e => e.getBoundingClientRect().top") < 50, "scrolled to the entry"
    page.screenshot(path=shots / 'docs_notebook_entry.png')


@pytest.mark.parametrize('query, lands_on', [('plot_tree', 'api/tao_nb.viz.trees.html#plot_tree'),
                                             ('drawing trees', 'viz_trees.html'),
                                             ('TAOPathClassifier', 'api/tao_nb.estimators.html#taopathclassifier')])
def test_search_types_a_query_and_lands_on_its_page(site, page, shots, query, lands_on):
    "Issue 30: the search box (search.js over the prebuilt search-index.js, no network) finds and opens the page."
    out, b = site
    requests = []
    page.on('request', lambda r: requests.append(r.url))
    page.goto((out / 'api' / 'index.html').as_uri())          # from a page one folder down: links stay relative
    page.locator('#search-box').fill(query)
    results = page.locator('#search-results li a')
    results.first.wait_for()
    assert results.first.get_attribute('href').endswith(lands_on), results.first.get_attribute('href')
    page.screenshot(path=shots / f"docs_search_{query.replace(' ', '_')}.png")
    page.locator('#search-box').press('Enter')
    page.wait_for_url('**/' + lands_on)
    assert page.locator('main h1').first.is_visible()
    if '#' in lands_on:
        entry = page.locator(f'section.api-entry[id="{lands_on.split("#")[1]}"]')
        assert entry.is_visible() and entry.evaluate("e => e.getBoundingClientRect().top") < 50
    assert all(u.startswith('file:') for u in requests), [u for u in requests if not u.startswith('file:')]


def test_narrow_screen_collapses_the_sidebar(site, browser, shots):
    "Issue 30: at 420 px the page text comes first (the sidebar folds behind a button), and nothing scrolls sideways."
    out, b = site
    p = browser.new_page(viewport={'width': 420, 'height': 800})
    try:
        for name in ('index.html', 'viz_trees.html', 'api/tao_nb.estimators.html'):
            p.goto((out / name).as_uri())
            links = p.locator('nav.sidebar ol.pages > li > a')
            assert links.count() > 20 and not links.first.is_visible(), f"{name}: the page list shows before the text"
            h1 = p.locator('main h1').first
            assert h1.is_visible() and h1.evaluate("e => e.getBoundingClientRect().top") < 200, name
            assert p.evaluate("document.documentElement.scrollWidth") <= 420, f"{name} scrolls sideways"
            assert p.locator('#search-box').is_visible()
        p.screenshot(path=shots / 'docs_narrow_closed.png')
        p.locator('label.nav-button').click()
        assert links.first.is_visible() and p.locator('nav.sidebar ol.pages > li').count() == links.count()
        p.screenshot(path=shots / 'docs_narrow_open.png')
        p.locator('label.nav-button').click()
        assert not links.first.is_visible()
    finally:
        p.close()


def test_explorers_shown_as_static_images_of_their_opening_state(site, page, shots):
    "Issue 30: the explorers' page shows each explorer's opening state as an image (a saved file), loaded and whole."
    out, b = site
    name = b.page_name(ROOT / 'nbs' / '13_viz_explore.ipynb')
    page.goto((out / name).as_uri())
    for fig in ('explore_sweep_first_change', 'explore_sweep_digits_opening', 'explore_path_opening'):
        img = page.locator(f'main img[src$="file-{fig}.png"]')
        assert img.count() == 1, f"{name} does not show {fig}.png"
        img.scroll_into_view_if_needed()
        size = img.evaluate(   # lazy images load when scrolled to: wait for their load (or error) event
            "i => new Promise(r => { const done = () => r([i.naturalWidth, i.getBoundingClientRect().width]);"
            " if (i.complete) done(); else { i.addEventListener('load', done); i.addEventListener('error', done); } })")
        assert size[0] > 0 and size[1] > 0, f"{fig}.png did not load on {name}"
        img.screenshot(path=shots / f'docs_{fig}.png')
