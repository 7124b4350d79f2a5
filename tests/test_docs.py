"""The docs site (`python tools/build_docs.py`) builds offline from the notebooks' saved outputs; every internal link and
anchor resolves; every notebook has a page titled by its H1; every public exported symbol has an API entry (in its
notebook's page at nbdev's anchor, and on its module's reference page) showing its parameters' docments; math is
MathML, with no `$` left over and nothing loaded from the network."""
import importlib.util
import inspect
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from fastcore.docments import docments

ROOT = Path(__file__).resolve().parents[1]


def _load_builder():
    spec = importlib.util.spec_from_file_location('build_docs', ROOT / 'tools' / 'build_docs.py')
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Page(HTMLParser):
    "ids, links, resources, api entries, h1 text, and the text outside code/pre/math of one HTML file."
    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.ids, self.dup_ids, self.links, self.resources, self.entries = set(), set(), [], [], {}
        self.h1, self.prose, self._stack, self._entry = '', [], [], None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in ('img', 'br', 'hr', 'meta', 'link', 'input', 'col', 'mspace', 'none', 'mprescripts'):
            self._stack.append(tag)
        if 'id' in a:
            (self.dup_ids if a['id'] in self.ids else self.ids).add(a['id'])
        if tag == 'a' and 'href' in a: self.links.append(a['href'])
        if tag in ('img', 'script', 'iframe', 'source') and 'src' in a: self.resources.append(a['src'])
        if tag == 'link' and 'href' in a: self.resources.append(a['href'])
        if tag == 'section' and 'api-entry' in a.get('class', ''):
            self._entry = a['id']; self.entries[a['id']] = {'symbol': a.get('data-symbol'), 'html': ''}

    def handle_endtag(self, tag):
        if tag in self._stack:
            while self._stack and self._stack.pop() != tag: pass
        if tag == 'section': self._entry = None

    def handle_data(self, data):
        if 'h1' in self._stack: self.h1 += data
        if self._entry: self.entries[self._entry]['html'] += data
        if not {'code', 'pre', 'math', 'script', 'style', 'title'} & set(self._stack): self.prose.append(data)


BUILDER = _load_builder()


@pytest.fixture(scope='module')
def site(tmp_path_factory):
    out = BUILDER.build(tmp_path_factory.mktemp('docs') / 'site')
    pages = {p.relative_to(out).as_posix(): Page(p.read_text(encoding='utf-8')) for p in out.rglob('*.html')}
    return out, pages


def _external(url): return bool(re.match(r'^[a-z][a-z0-9+.-]*:|^//', url)) and not url.startswith('file:')


def test_every_internal_link_and_anchor_resolves(site):
    out, pages = site
    bad, n = [], 0
    for rel, page in pages.items():
        assert not page.dup_ids, f"{rel}: duplicate ids {sorted(page.dup_ids)}"
        for href in page.links:
            if href.startswith(('mailto:',)) or _external(href): continue
            n += 1
            parts = urlsplit(href)
            target = (out / rel).parent / unquote(parts.path) if parts.path else out / rel
            target_rel = target.resolve().relative_to(out.resolve()).as_posix() if target.exists() else None
            if target_rel is None: bad.append(f"{rel}: {href} (no such file)"); continue
            if parts.fragment and unquote(parts.fragment) not in pages[target_rel].ids:
                bad.append(f"{rel}: {href} (no such anchor)")
    assert not bad, '\n'.join(bad)
    assert n > 500, n     # sidebar, pager, API cross-links, symbol links in prose


def test_offline_no_external_resources_and_figures_exist(site):
    out, pages = site
    for rel, page in pages.items():
        for src in page.resources:
            assert not _external(src), f"{rel} loads {src} from the network"
            assert ((out / rel).parent / src).exists(), f"{rel}: missing {src}"
    scripts = sorted(p.relative_to(out).as_posix() for p in out.rglob('*.js'))
    assert scripts == ['search-index.js', 'search.js'], f"the site ships only its search: {scripts}"
    assert (out / 'search.js').read_text() == (ROOT / 'tools' / 'docs_assets' / 'search.js').read_text()


def _nb_titles():
    b = _load_builder()
    for nb in b.notebook_paths(ROOT / 'nbs'):
        src = '\n'.join(''.join(c['source']) for c in json.loads(nb.read_text())['cells'] if c['cell_type'] == 'markdown')
        h1 = re.search(r'^#\s+(.+)$', src, flags=re.M)
        yield nb, b.page_name(nb), h1.group(1).strip() if h1 else None, src


def test_every_notebook_has_a_page_titled_by_its_h1_with_its_figures(site):
    out, pages = site
    names = []
    for nb, name, h1, src in _nb_titles():
        assert h1, f"{nb.name} has no H1 title"
        assert name in pages, f"{nb.name}: no page {name}"
        assert pages[name].h1.strip() == h1.replace('`', ''), (nb.name, pages[name].h1)
        cells = json.loads(nb.read_text())['cells']
        n_png = sum('image/png' in o.get('data', {}) for c in cells
                    for o in c.get('outputs', []) if 'hide' not in ''.join(c['source'])[:200])
        n_png += sum(len(re.findall(r'!\[[^\]]*\]\((?![a-z]+:)[^)]+\)', ''.join(c['source'])))   # saved results as files
                     for c in cells if c['cell_type'] == 'markdown')
        n_img = len([s for s in pages[name].resources if s.startswith('figures/')])
        assert n_img == n_png, f"{nb.name}: {n_png} saved figures, {n_img} on its page"
        names.append(name)
    assert len(names) == len(set(names)) and 'index.html' in names
    sidebar = [h for h in pages['index.html'].links if h.endswith('.html') and '/' not in h and '#' not in h]
    assert list(dict.fromkeys(sidebar))[:len(names)] == names, "the sidebar lists the pages in reading order"


def test_math_is_rendered_as_mathml(site):
    out, pages = site
    for nb, name, h1, src in _nb_titles():
        text = ''.join(pages[name].prose)
        left = re.findall(r'\$[^$\n]{1,80}\$', text)
        assert not left, f"{name}: unrendered math {left[:3]}"
        if re.search(r'\$[^$]+\$', src):
            assert '<math' in (out / name).read_text(), f"{name} has math in its notebook and none on its page"
    assert '\\mathbf' not in ''.join(''.join(p.prose) for p in pages.values())


def _public_symbols():
    from tao_nb._modidx import d
    for mod, syms in d['syms'].items():
        for full, (url, _) in syms.items():
            if not any(p.startswith('_') for p in full[len(mod) + 1:].split('.')): yield mod, full, url


def test_every_public_symbol_has_an_api_entry_with_its_docments(site):
    out, pages = site
    syms = list(_public_symbols())
    assert len(syms) > 100
    for mod, full, url in syms:
        page, anchor = url.split('#')
        for where in (page, f'api/{mod}.html'):
            e = pages[where].entries.get(anchor)
            assert e is not None and e['symbol'] == full, f"{full}: no API entry #{anchor} on {where}"
        obj = importlib.import_module(mod)
        for p in full[len(mod) + 1:].split('.'): obj = getattr(obj, p)
        if callable(obj) and not isinstance(obj, property):
            try: docs = docments(obj, full=True)
            except Exception: docs = {}
            entry = _plain(pages[page].entries[anchor]['html'])
            for name, v in docs.items():
                if v.get('docment'):
                    assert _plain(v['docment']) in entry, f"{full}: docment of {name} missing ({v['docment']!r})"
        doc = _load_builder().numpydoc_split(inspect.getdoc(obj.fget if isinstance(obj, property) else obj) or "")[0]
        if doc and '$' not in doc:
            assert _plain(doc) in _plain(e['html']), f"{full}: docstring missing"


def _plain(s):
    "Text with markdown emphasis/code marks and spacing dropped, to compare source text with rendered text."
    return re.sub(r'\s+', ' ', re.sub(r'[`*_]', '', s)).strip()


def _public_estimators():
    import tao_nb
    from sklearn.base import BaseEstimator
    return [getattr(tao_nb, n) for n in tao_nb.__all__
            if isinstance(getattr(tao_nb, n), type) and issubclass(getattr(tao_nb, n), BaseEstimator)]


@pytest.mark.parametrize('est', _public_estimators(), ids=lambda c: c.__name__)
def test_every_public_estimator_has_typed_parameters_and_running_examples(est, site):
    "Issue 25: numpydoc types for every parameter (from `parameter_constraints`), and an Examples doctest that passes."
    import doctest
    doc = inspect.getdoc(est)
    params = [p for p in inspect.signature(est.__init__).parameters if p != 'self']
    for p in params:
        line = re.search(rf'^{p} : (.*)\n    (.*)$', doc, re.M)
        assert line and not line.group(1).startswith('default='), f"{est.__name__}.{p}: no type in the docstring"
        assert line.group(2).strip(), f"{est.__name__}.{p}: no description (an inline comment or PARAMETER_DOCS)"
    examples = _load_builder().numpydoc_split(doc)[2]
    assert examples.startswith('>>>'), f"{est.__name__}: no Examples section"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(doctest.DocTestParser().get_doctest(examples, {est.__name__: est}, est.__name__, None, 0))
    assert runner.tries > 0 and runner.failures == 0, f"{est.__name__}: its Examples fail"
    out, pages = site
    first = examples.split('\n')[0][4:]
    assert any('Examples' in e['html'] and first in e['html'] for p in pages.values() for e in p.entries.values()
               if e['symbol'].endswith('.' + est.__name__)), f"{est.__name__}: the site does not show its Examples"
    assert any(k.endswith('.' + est.__name__) for k in BUILDER._EXAMPLES_RUN), f"the docs build did not run {est.__name__}'s"


def test_a_failing_example_stops_the_docs_build():
    with pytest.raises(RuntimeError, match='the Examples of x.f fail'):
        BUILDER.run_examples('>>> 1 + 1\n3', BUILDER.run_examples, 'x.f')


class ApiTables(HTMLParser):
    "The parameter rows (symbol, name, details text) and attribute descriptions (symbol, text) of an API page."
    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.rows, self.attrs, self._sym, self._row, self._cell, self._dd, self._returns = [], [], None, None, None, None, False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == 'section' and 'api-entry' in (a.get('class') or ''): self._sym = a.get('data-symbol')
        if tag == 'tr': self._row, self._returns = [], 'api-returns' in (a.get('class') or '')
        if tag == 'td' and self._row is not None: self._cell = ''
        if tag == 'dd': self._dd = ''

    def handle_endtag(self, tag):
        if tag == 'td' and self._cell is not None: self._row.append(self._cell.strip()); self._cell = None
        if tag == 'tr' and self._row:
            if not self._returns: self.rows.append((self._sym, self._row[0], self._row[-1]))
            self._row = None
        if tag == 'dd' and self._dd is not None: self.attrs.append((self._sym, self._dd)); self._dd = None

    def handle_data(self, data):
        if self._cell is not None: self._cell += data
        if self._dd is not None: self._dd += data


def _api_tables(out):
    tables = [ApiTables(p.read_text(encoding='utf-8')) for p in sorted((out / 'api').glob('*.html'))]
    return [r for t in tables for r in t.rows], [a for t in tables for a in t.attrs]


def _undescribed(rows):
    "(symbol, parameter) of every parameter row whose Details cell is empty."
    return [(sym, name) for sym, name, details in rows if not details]


def test_every_parameter_has_its_description_on_the_api_pages(site):
    """Issue 30: every public parameter's Details cell shows what help() / docments say (an inline comment after the
    parameter in its notebook, a numpydoc entry, or `PARAMETER_DOCS`): none is empty."""
    out, pages = site
    rows, _ = _api_tables(out)
    assert len(rows) > 800
    empty = _undescribed(rows)
    assert not empty, (f"{len(empty)} parameters without a description: describe them in their notebooks (an inline "
                       f"comment after the parameter): {empty[:20]}")
    from tao_nb import TAOClassifier
    estimator_rows = [details for sym, name, details in rows if sym == 'tao_nb.estimators.TAOClassifier']
    assert len(estimator_rows) == len(inspect.signature(TAOClassifier).parameters) and all(estimator_rows)


def test_the_description_check_catches_an_undescribed_parameter():
    """A function whose second parameter has no comment gets an empty Details cell, which the check reports; so does
    one whose parameter is named only by a comment in its body."""
    def f(a,  # described
          b): "A synthetic function."
    def g(a):
        return max(a, 0)  # a comment in the body, not a description of a
    for fn, missing in ((f, 'b'), (g, 'a')):
        sym = BUILDER.Symbol('m', fn.__name__, fn, f'm.html#{fn.__name__}')
        html = sym.entry_html(BUILDER.Markdown(), '', '', '#', 'x')
        assert _undescribed(ApiTables(html).rows) == [(f'm.{fn.__name__}', missing)]


def test_no_literal_backticks_on_the_site(site):
    "Issue 30: code spans are rendered, in parameter details, attribute descriptions and every page's prose."
    out, pages = site
    rows, attrs = _api_tables(out)
    assert len(attrs) > 20
    ticks = [(sym, text) for sym, text in attrs + [(s, d) for s, _, d in rows] if '`' in text]
    ticks += [(rel, t) for rel, p in pages.items() for t in p.prose if '`' in t]
    assert not ticks, f"literal backticks: {ticks[:5]}"


def test_the_search_index_holds_every_page_and_every_public_symbol(site):
    out, pages = site
    text = (out / 'search-index.js').read_text(encoding='utf-8')
    assert text.startswith('window.SEARCH_INDEX = ') and text.rstrip().endswith(';')
    index = json.loads(text[len('window.SEARCH_INDEX = '):].rstrip().rstrip(';'))
    urls = {e['u'] for e in index}
    assert set(pages) <= urls, sorted(set(pages) - urls)[:5]
    for mod, full, url in _public_symbols():
        assert f"api/{mod}.html#{url.split('#')[1]}" in urls, full
    drawing = next(e for e in index if e['u'] == 'viz_trees.html')
    assert 'plot_tree' in drawing['x'] and drawing['k'] == 'page'
