"""The built docs site in headless Chromium: the index page, a notebook page with math (MathML laid out as math, not
as text) and an API reference page render; screenshots of each."""
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
