"""Build the documentation site from the notebooks, offline: `python tools/build_docs.py` writes `_docs/`.

Every notebook of `nbs/` becomes a page (reading order: index first, then sorted file names; symlinks skipped except
`index.ipynb`), titled by its H1, with its prose, math, code, saved outputs and figures (the notebooks are not
executed). Every exported symbol of `<lib>/_modidx.py` gets an API entry (signature, docments parameter table,
docstring) in its notebook's page, at the anchor nbdev's own doc links use (`tree.html#tree.n_nodes`), and again on a
reference page per module under `api/`.

Why this tool and not another: `nbdev_docs` needs Quarto (cannot be installed here); nbconvert's HTML template and
MkDocs/Sphinx notebook plugins load MathJax/RequireJS from a CDN, and Sphinx autodoc / mkdocstrings do not read
nbdev's docments. So this builder reads the notebooks with the pinned markdown-it-py + mdit-py-plugins (CommonMark,
tables, `$`/`$$` math), converts LaTeX to MathML at build time with latex2mathml (browsers render MathML natively, so
no script and no network), highlights code with Pygments, and documents symbols with `inspect` and fastcore's
`docments`: what `show_doc` shows, completed by what `help()` shows (an estimator's numpydoc Parameters, written
into its docstring). It takes a few seconds and needs only the project's pinned dev packages.

The site's one script is its search: the builder writes `search-index.js` (pages' titles, headings and prose, every
symbol's name and summary, as JSON assigned to `window.SEARCH_INDEX`: a page opened from `file://` may not fetch() a
.json file) and copies the hand-written `tools/docs_assets/search.js`, which ranks entries as a reader types; nothing
comes from the network. Below 800 px the sidebar folds behind a "Contents" button (a CSS checkbox, no script).
"""
import argparse
import ast
import base64
import configparser
import contextlib
import html
import importlib
import inspect
import io
import json
import re
import shutil
import sys
from pathlib import Path
from urllib.parse import unquote

from fastcore.docments import docments
from latex2mathml.converter import convert as latex_to_mathml
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

ROOT = Path(__file__).resolve().parents[1]
esc = html.escape


def numpydoc_split(doc):
    "(summary, [(attribute, description)], examples) of a numpydoc docstring (the parameters come from docments)."
    doc, _, examples = doc.partition('\nExamples\n--------\n')
    summary, _, rest = doc.partition('\n\nParameters\n----------')
    attrs = []
    if 'Attributes\n----------\n' in rest:
        lines = rest.split('Attributes\n----------\n', 1)[1].strip().split('\n')
        for name, desc in zip(lines[::2], lines[1::2]): attrs.append((name.strip(), desc.strip()))
    return summary.strip(), attrs, examples.strip()


def numpydoc_params(doc):
    """{name: description} of a numpydoc docstring's Parameters section (what `help()` shows for an estimator whose
    parameter descriptions are written into its docstring); `a, b` names share a description."""
    doc = doc.partition('\nExamples\n--------\n')[0]
    if '\nParameters\n----------\n' not in doc: return {}
    body = re.split(r'\n\n?\w[\w ]*\n-{3,}\n', doc.split('\nParameters\n----------\n', 1)[1])[0]
    out, name = {}, None
    for line in body.split('\n'):
        if line and not line[0].isspace():
            name = line.split(' : ')[0].strip()
            out[name] = ''
        elif name is not None and line.strip(): out[name] = (out[name] + ' ' + line.strip()).strip()
    return {n.strip(): d for names, d in out.items() for n in names.split(',') if d}


_EXAMPLES_RUN = {}

def run_examples(examples, obj, name):
    "Run a docstring's Examples (doctest) once per symbol; a failing example stops the build."
    import doctest
    if name in _EXAMPLES_RUN: return
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    test = doctest.DocTestParser().get_doctest(examples, {obj.__name__: obj}, name, None, 0)
    with contextlib.redirect_stdout(io.StringIO()) as out: runner.run(test)
    if runner.failures: raise RuntimeError(f"the Examples of {name} fail:\n{out.getvalue()}")
    _EXAMPLES_RUN[name] = runner.tries


def read_settings(root=ROOT):
    "settings.ini's [DEFAULT] section as a dict."
    cfg = configparser.ConfigParser(delimiters=['='], interpolation=None)
    cfg.read(Path(root) / 'settings.ini')
    return dict(cfg['DEFAULT'])


def notebook_paths(nbs):
    "The notebooks in reading order: index.ipynb first, then the others by file name; symlinks skipped (but index)."
    paths = [p for p in sorted(Path(nbs).glob('*.ipynb')) if p.name == 'index.ipynb' or not p.is_symlink()]
    return sorted(paths, key=lambda p: (p.name != 'index.ipynb', p.name))


def page_name(nb_path):
    "nbdev's page name of a notebook (leading number dropped): `07_tao.ipynb` -> `tao.html`."
    return re.sub(r'^\d+[a-zA-Z0-9]*_', '', Path(nb_path).name.lower())[:-len('.ipynb')] + '.html'


# ---------------------------------------------------------------------------------------------------- math
class MathError(ValueError): pass

_ALPHA = {  # mathvariant -> (first capital, first small, first digit) in Unicode's mathematical alphanumerics
    'bold': (0x1D400, 0x1D41A, 0x1D7CE), 'italic': (0x1D434, 0x1D44E, None), 'bold-italic': (0x1D468, 0x1D482, None),
    'script': (0x1D49C, 0x1D4B6, None), 'fraktur': (0x1D504, 0x1D51E, None), 'double-struck': (0x1D538, 0x1D552, 0x1D7D8),
    'sans-serif': (0x1D5A0, 0x1D5BA, 0x1D7E2), 'monospace': (0x1D670, 0x1D68A, 0x1D7F6)}
_HOLES = {  # letters that live in the Letterlike Symbols block instead
    ('italic', 'h'): 'ℎ', ('script', 'B'): 'ℬ', ('script', 'E'): 'ℰ', ('script', 'F'): 'ℱ', ('script', 'H'): 'ℋ',
    ('script', 'I'): 'ℐ', ('script', 'L'): 'ℒ', ('script', 'M'): 'ℳ', ('script', 'R'): 'ℛ', ('script', 'e'): 'ℯ',
    ('script', 'g'): 'ℊ', ('script', 'o'): 'ℴ', ('fraktur', 'C'): 'ℭ', ('fraktur', 'H'): 'ℌ', ('fraktur', 'I'): 'ℑ',
    ('fraktur', 'R'): 'ℜ', ('fraktur', 'Z'): 'ℨ', ('double-struck', 'C'): 'ℂ', ('double-struck', 'H'): 'ℍ',
    ('double-struck', 'N'): 'ℕ', ('double-struck', 'P'): 'ℙ', ('double-struck', 'Q'): 'ℚ', ('double-struck', 'R'): 'ℝ',
    ('double-struck', 'Z'): 'ℤ'}
_BOLD_GREEK = {c: chr(0x1D6A8 + i) for i, c in enumerate('ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡ')} | \
              {c: chr(0x1D6BA + i) for i, c in enumerate('ΣΤΥΦΧΨΩ')} | \
              {c: chr(0x1D6C2 + i) for i, c in enumerate('αβγδεζηθικλμνξοπρςστυφχψω')}


def _variant_char(variant, ch):
    if (variant, ch) in _HOLES: return _HOLES[variant, ch]
    cap, small, digit = _ALPHA[variant]
    if 'A' <= ch <= 'Z': return chr(cap + ord(ch) - ord('A'))
    if 'a' <= ch <= 'z': return chr(small + ord(ch) - ord('a'))
    if '0' <= ch <= '9' and digit: return chr(digit + ord(ch) - ord('0'))
    if variant in ('bold', 'bold-italic') and ch in _BOLD_GREEK: return _BOLD_GREEK[ch]
    return ch


def _variants_to_unicode(mathml):
    """MathML Core (what Chromium and Firefox render) ignores `mathvariant` except "normal": write bold, double-struck,
    script, ... letters as Unicode mathematical alphanumerics instead, as MathML Core recommends."""
    def sub(m):
        tag, variant, text = m.group(1), m.group(2), html.unescape(m.group(3))
        if variant not in _ALPHA: return m.group(0)
        return f'<{tag}>{esc("".join(_variant_char(variant, c) for c in text))}</{tag}>'
    return re.sub(r'<(mi|mn|mtext|mo) mathvariant="([a-z-]+)">([^<]*)</\1>', sub, mathml)


def tex_to_mathml(tex, display=False, where=''):
    "LaTeX -> MathML (inline or display); a clear error naming `where` when latex2mathml cannot convert it."
    try: out = latex_to_mathml(tex, display='block' if display else 'inline')
    except Exception as e: raise MathError(f"{where}: cannot convert math {tex!r} to MathML: {e!r}") from e
    out = _variants_to_unicode(out)
    # keep the source: screen readers and copy-paste get the TeX
    return out.replace('<math ', f'<math data-tex="{esc(tex)}" ', 1)


# ---------------------------------------------------------------------------------------------------- markdown
_ANSI = re.compile(r'\x1b\[[0-9;?]*[A-Za-z]')


def slugify(text):
    "An id from heading text (quarto/nbdev style): lower case, words joined by '-'."
    s = re.sub(r'[^\w\s-]', '', html.unescape(re.sub(r'<[^>]+>', '', text)).lower()).strip()
    return re.sub(r'[\s]+', '-', s) or 'section'


class Markdown:
    "CommonMark + tables + `$`/`$$` math as MathML; headings get ids; code spans naming a symbol or notebook link to it."
    def __init__(self, links=None, assets=None):
        # assets(src, where) -> the site's src for an image a notebook's markdown links to (a repository file)
        self.links, self.where, self.assets = links or {}, '', assets
        self.md = (MarkdownIt('commonmark', {'html': True}).enable('table').enable('strikethrough')
                   .use(dollarmath_plugin, allow_space=True, allow_digits=True, double_inline=True,
                        renderer=lambda tex, opts: tex_to_mathml(tex, opts.get('display_mode', False), self.where)))
        self.md.add_render_rule('code_inline', lambda r, *a: self._code_inline(*a))
        self.md.add_render_rule('fence', lambda r, *a: self._fence(*a))

    def _code_inline(self, tokens, idx, options, env):
        txt = tokens[idx].content
        href = self.links.get(txt.removesuffix('()'))
        code = f'<code>{esc(txt)}</code>'
        return f'<a class="ref" href="{env.get("root", "")}{href}">{code}</a>' if href else code

    def _fence(self, tokens, idx, options, env):
        tok = tokens[idx]
        lang = tok.info.strip().split(' ')[0]
        return code_html(tok.content) if lang in ('python', 'py') else f'<pre><code>{esc(tok.content)}</code></pre>\n'

    def __call__(self, text, where='', root='', ids=None):
        "HTML of `text`; headings get unique ids (recorded in `ids`, a set shared by the page)."
        self.where = where
        env = {'root': root}
        tokens = self.md.parse(text, env)
        ids = set() if ids is None else ids
        for i, tok in enumerate(tokens):
            if tok.type == 'heading_open':
                slug = base = slugify(tokens[i + 1].content)
                k = 1
                while slug in ids: slug, k = f'{base}-{k}', k + 1
                ids.add(slug); tok.attrSet('id', slug)
            for child in (tok.children or []) if self.assets else []:
                if child.type == 'image': child.attrSet('src', self.assets(child.attrGet('src'), where))
        return self.md.renderer.render(tokens, self.md.options, env)


def code_html(src):
    "Python source, highlighted."
    return f'<pre class="highlight"><code>{highlight(src, PythonLexer(), HtmlFormatter(nowrap=True))}</code></pre>\n'


# ---------------------------------------------------------------------------------------------------- API entries
def _fmt_anno(a):
    if a is inspect.Parameter.empty: return ''
    if isinstance(a, str): return a
    if isinstance(a, type): return a.__qualname__
    return repr(a).replace('typing.', '')


def _fmt_default(d):
    if d is inspect.Parameter.empty: return ''
    if callable(d) and hasattr(d, '__name__'): return d.__name__
    return repr(d)


def _field_comments(cls):
    """Comments of the fields of a NamedTuple or dataclass, which docments does not read: after the field
    (`name: type  # comment`) or, as docments reads parameters, on the comment lines just above it. A subclass's
    inherited fields keep their base class's comments."""
    out = {}
    for base in reversed(cls.__mro__[1:]):
        if hasattr(base, '_fields') or hasattr(base, '__dataclass_fields__'): out.update(_own_field_comments(base))
    return out | _own_field_comments(cls)


def _own_field_comments(cls):
    try: src = inspect.getsource(cls)
    except (OSError, TypeError): return {}
    out, above = {}, []
    for line in src.split('\n'):
        if re.match(r'^\s+#', line): above.append(line.strip().lstrip('#').strip()); continue
        m = re.match(r'^\s+(\w+)\s*:[^#\n]*?(?:#\s*(.*))?$', line)
        if m and (m.group(2) or above): out[m.group(1)] = (m.group(2) or ' '.join(above)).strip()
        above = []
    return out


def _line_comments(obj, names):
    """Inline comments of parameters docments leaves out: `*args` / `**kwargs` (`**kwargs,  # passed to ...`) and
    all the names of a line that declares several (`X, y,  # training inputs and targets`; docments gives the
    comment to the last only). Lines of a one-line body (`def f(self, k): return ...  # ...`) are skipped, and so are
    the lines after the signature (a function without a docstring)."""
    try: src = inspect.getsource(obj.__init__ if inspect.isclass(obj) else obj)
    except (OSError, TypeError): return {}
    out = {}
    for line in src.split('"', 1)[0].split('\n'):              # the signature, before the docstring
        code, hash_, comment = line.partition('#')
        if hash_ and comment.strip() and not re.search(r'\)\s*(->[^:]*)?:\s*\S', code):
            for m in re.finditer(r'(?:^|[(,])\s*\*{0,2}(\w+)\s*(?=[:=,)]|$)', code.strip()):
                if m.group(1) in names: out.setdefault(m.group(1), comment.strip())
        if re.search(r'\)\s*(->[^:]*)?:\s*$', code): break    # the signature ends: a body's comments say nothing
    return out


def symbol_kind(obj, is_member):
    if isinstance(obj, property): return 'property'
    if inspect.isclass(obj): return 'class'
    return 'method' if is_member else 'function'


def _shared_docs():
    "The package's one home for parameter descriptions several estimators share (`PARAMETER_DOCS`), if it has one."
    try: return dict(importlib.import_module(read_settings()['lib_name'] + '.base').PARAMETER_DOCS)
    except (ImportError, AttributeError): return {}


def signature_parts(obj, is_member):
    "Rows (name, annotation, default, docment) of `obj`'s parameters and its return annotation, or None if it has none."
    try: sig = inspect.signature(obj)
    except (TypeError, ValueError): return None
    params = list(sig.parameters.values())
    if is_member and params and params[0].name in ('self', 'cls') and not inspect.isclass(obj): params = params[1:]
    try: docs = docments(obj, full=True, returns=True)
    except Exception: docs = {}
    if inspect.isclass(obj) and (hasattr(obj, '_fields') or hasattr(obj, '__dataclass_fields__')):
        docs = {k: {'docment': v} for k, v in _field_comments(obj).items()}
    rows, shared = [], _shared_docs() if inspect.isclass(obj) else {}
    helped = numpydoc_params(inspect.getdoc(obj) or '')          # the Parameters section `help()` shows
    helped.update({k: v for k, v in _line_comments(obj, {p.name for p in params}).items() if k not in helped})
    for p in params:
        name = {p.VAR_POSITIONAL: '*', p.VAR_KEYWORD: '**'}.get(p.kind, '') + p.name
        doc = (docs.get(p.name) or {}).get('docment') or helped.get(p.name) or shared.get(p.name, '')
        rows.append((name, _fmt_anno(p.annotation), _fmt_default(p.default), doc))
    ret = _fmt_anno(sig.return_annotation) if not inspect.isclass(obj) else ''
    ret_doc = '' if inspect.isclass(obj) else ((docs.get('return') or {}).get('docment') or '')
    return rows, ret, ret_doc


def format_signature(name, rows, ret, width=88):
    "`name(a: int = 1, ...) -> ret`, one parameter a line when it is long."
    parts = [n + (f': {a}' if a else '') + ((' = ' if a else '=') + d if d else '') for n, a, d, _ in rows]
    tail = f' -> {ret}' if ret else ''
    one = f"{name}({', '.join(parts)}){tail}"
    if len(one) <= width: return one
    return f"{name}(\n" + ''.join(f"    {p},\n" for p in parts) + f"){tail}"


class Symbol:
    "One exported symbol: its module, qualified name, object, nbdev anchor, notebook page."
    def __init__(self, module, qualname, obj, url):
        self.module, self.qualname, self.obj = module, qualname, obj
        self.page, _, self.anchor = url.partition('#')
        self.is_member = '.' in qualname
        self.kind = symbol_kind(obj, self.is_member)

    @property
    def fullname(self): return f'{self.module}.{self.qualname}'

    def entry_html(self, md, where, root, other_href, other_label):
        "The API entry: name, signature, docstring, parameter table; `other_href` links its twin on the other page."
        obj = self.obj.fget if isinstance(self.obj, property) else self.obj
        h = [f'<section class="api-entry api-{self.kind}" id="{esc(self.anchor)}" data-symbol="{esc(self.fullname)}">',
             f'<h4 class="api-name"><span class="api-kind">{self.kind}</span> <code>{esc(self.qualname)}</code>'
             f'<a class="api-other" href="{esc(other_href)}">{esc(other_label)}</a></h4>']
        parts = None if self.kind == 'property' else signature_parts(obj, self.is_member)
        if parts is not None:
            rows, ret, ret_doc = parts
            h.append(code_html(format_signature(self.qualname.rsplit('.', 1)[-1], rows, ret)).replace(
                'class="highlight"', 'class="highlight api-sig"', 1))
        doc, attrs, examples = numpydoc_split(inspect.getdoc(obj) or '')
        if doc: h.append(f'<div class="api-doc">{md(doc, where=where, root=root, ids=set())}</div>')
        if attrs: h.append('<dl class="api-attrs"><dt>Attributes</dt>' + ''.join(
            f'<dd><code>{esc(k)}</code>: {_inline_md(md, v, where, root)}</dd>' for k, v in attrs) + '</dl>')
        if examples:
            run_examples(examples, obj, self.fullname)
            h.append('<div class="api-examples"><strong>Examples</strong>' + code_html(examples) + '</div>')
        if parts is not None and (parts[0] or parts[2]):
            rows, ret, ret_doc = parts
            typed = ret or any(a for _, a, _, _ in rows)      # no Type column when nothing is annotated
            ty = lambda a: f'<td>{esc(a)}</td>' if typed else ''
            h.append(f'<table class="api-params"><thead><tr><th></th>{"<th>Type</th>" if typed else ""}<th>Default</th>'
                     '<th>Details</th></tr></thead><tbody>')
            for n, a, d, c in rows:
                h.append(f'<tr><td><code>{esc(n)}</code></td>{ty(a)}<td>{f"<code>{esc(d)}</code>" if d else ""}'
                         f'</td><td>{_inline_md(md, c, where, root)}</td></tr>')
            if ret_doc or ret:
                h.append(f'<tr class="api-returns"><td><strong>Returns</strong></td>{ty(ret)}<td></td>'
                         f'<td>{_inline_md(md, ret_doc, where, root)}</td></tr>')
            h.append('</tbody></table>')
        h.append('</section>')
        return '\n'.join(h)


def _inline_md(md, text, where, root):
    return md.md.renderInline(text, {'root': root}) if text else ''


def load_symbols(lib_name, root=ROOT):
    "Every public exported symbol of `<lib>/_modidx.py` (no name part starting with '_'), resolved to its object."
    if str(root) not in sys.path: sys.path.insert(0, str(root))
    modidx = importlib.import_module(f'{lib_name}._modidx')
    syms = []
    for modname, entries in modidx.d['syms'].items():
        mod = importlib.import_module(modname)
        for full, (url, _) in entries.items():
            qual = full[len(modname) + 1:]
            if any(p.startswith('_') for p in qual.split('.')): continue
            obj = mod
            for p in qual.split('.'):
                obj = inspect.getattr_static(obj, p) if inspect.isclass(obj) else getattr(obj, p)
            if isinstance(obj, (staticmethod, classmethod)): obj = obj.__func__
            elif type(obj).__name__ == '_clsmethod': obj = obj.f            # fastcore's @patch(cls_method=True)
            syms.append(Symbol(modname, qual, obj, url))
    return syms


# ---------------------------------------------------------------------------------------------------- notebook pages
def directives(src):
    "nbdev's `#| key value` / `#| key: value` lines at the top of a cell -> ({key: value}, source without them)."
    lines, d = src.splitlines(), {}
    i = 0
    while i < len(lines) and (lines[i].startswith('#|') or not lines[i].strip()):
        m = re.match(r'#\|\s*([\w-]+)\s*:?\s*(.*)', lines[i])
        if m: d[m.group(1)] = m.group(2).strip()
        i += 1
    return d, '\n'.join(lines[i:]).strip('\n')


def defined_names(src):
    "Qualified names a code cell defines: top-level functions/classes, methods in class bodies, `@patch` methods."
    try: tree = ast.parse(re.sub(r'^\s*[%!].*$', '', src, flags=re.M))
    except SyntaxError: return set()
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            names |= {f'{node.name}.{n.name}' for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
            patched = any(isinstance(d, ast.Name) and d.id == 'patch' for d in node.decorator_list)
            ann = node.args.args[0].annotation if patched and node.args.args else None
            if isinstance(ann, ast.Name): names.add(f'{ann.id}.{node.name}')
    return names


def _text(x): return ''.join(x) if isinstance(x, list) else (x or '')


def _stream_text(s):
    "Stream text as a terminal shows it: ANSI codes removed, carriage-return rewrites resolved."
    s = _ANSI.sub('', s)
    return '\n'.join(line.rsplit('\r', 1)[-1] for line in s.split('\n'))


class PageBuilder:
    "Renders one notebook page: cells, outputs (figures written to `figures/`), API entries after their cells."
    def __init__(self, site, nb_path):
        self.site, self.nb_path, self.page = site, Path(nb_path), page_name(nb_path)
        self.nb = json.loads(self.nb_path.read_text(encoding='utf-8'))
        self.ids, self.n_fig, self.toc = set(), 0, []
        self.where = self.nb_path.name

    def title_and_description(self):
        for c in self.nb['cells']:
            if c['cell_type'] != 'markdown': continue
            src = _text(c['source'])
            m = re.search(r'^#\s+(.+)$', src, flags=re.M)
            if m:
                d = re.search(r'^>\s*(.+)$', src, flags=re.M)
                return m.group(1).strip(), (d.group(1).strip() if d else '')
        return self.nb_path.stem, ''

    def figure(self, data, mime):
        self.n_fig += 1
        ext = {'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif'}[mime]
        name = f'figures/{self.page[:-5]}-{self.n_fig}.{ext}'
        (self.site.out / name).write_bytes(base64.b64decode(_text(data)))
        return f'<img src="{name}" alt="figure {self.n_fig} of {esc(self.page[:-5])}" loading="lazy">'

    def output_html(self, o):
        t = o['output_type']
        if t == 'stream':
            return f'<pre class="output stream {o.get("name", "stdout")}">{esc(_stream_text(_text(o["text"])))}</pre>'
        if t == 'error':
            tb = _ANSI.sub('', '\n'.join(o.get('traceback', [])) or f"{o['ename']}: {o['evalue']}")
            return f'<pre class="output error">{esc(tb)}</pre>'
        data = o.get('data', {})
        if 'application/vnd.jupyter.widget-view+json' in data:
            return ('<div class="output widget-note">An interactive widget: run the notebook in Jupyter to use it.'
                    '</div>')
        for mime in ('image/svg+xml', 'image/png', 'image/jpeg', 'image/gif'):
            if mime in data:
                return (f'<div class="output figure">{_text(data[mime])}</div>' if mime == 'image/svg+xml'
                        else f'<div class="output figure">{self.figure(data[mime], mime)}</div>')
        if 'text/html' in data: return f'<div class="output html">{_text(data["text/html"])}</div>'
        if 'text/markdown' in data:
            return f'<div class="output markdown">{self.site.md(_text(data["text/markdown"]), self.where, "", set())}</div>'
        if 'text/latex' in data:
            tex = _text(data['text/latex']).strip().strip('$')
            return f'<div class="output latex">{tex_to_mathml(tex, True, self.where)}</div>'
        if 'text/plain' in data: return f'<pre class="output">{esc(_ANSI.sub("", _text(data["text/plain"])))}</pre>'
        return ''

    def code_cell(self, c, syms_here, placed):
        d, src = directives(_text(c['source']))
        if 'hide' in d or d.get('include') == 'false' or 'default_exp' in d: return ''
        exported = any(k in d for k in ('export', 'exports', 'exporti'))
        h = ['<div class="cell code-cell">']
        badges = [k for k in ('slow', 'eval') if k in d]
        badge = ''.join(f'<span class="badge" title="not run by default">{esc(k if k == "slow" else "eval: false")}'
                        '</span>' for k in badges)
        if src and d.get('echo') != 'false':
            if exported and 'exports' not in d:
                h.append(f'<details class="source"><summary>source{badge}</summary>{code_html(src)}</details>')
            else: h.append(f'<div class="input">{badge}{code_html(src)}</div>')
        if d.get('output') != 'false':
            outs = [self.output_html(o) for o in c.get('outputs', [])]
            if any(outs): h.append('<div class="outputs">' + '\n'.join(x for x in outs if x) + '</div>')
        h.append('</div>')
        if exported:
            names = defined_names(src)
            for s in syms_here:
                if s.qualname in names and s.fullname not in placed:
                    placed.add(s.fullname); h.append(self.site.entry(s, on_api_page=False))
        return '\n'.join(h)

    def render(self, syms_here):
        body, placed = [], set()
        self.ids |= {s.anchor for s in syms_here}     # headings never take an API entry's id
        for c in self.nb['cells']:
            if c['cell_type'] == 'markdown':
                src = _text(c['source'])
                if not src.strip(): continue
                body.append(f'<div class="cell md-cell">{self.site.md(src, self.where, "", self.ids)}</div>')
            elif c['cell_type'] == 'code':
                body.append(self.code_cell(c, syms_here, placed))
        rest = [s for s in syms_here if s.fullname not in placed]
        if rest:
            body.append('<h2 id="other-exported-symbols">Other exported symbols</h2>')
            body += [self.site.entry(s, on_api_page=False) for s in rest]
        html_ = '\n'.join(b for b in body if b)
        self.toc = [(m.group(1), re.sub(r'<[^>]+>', '', m.group(2)))
                    for m in re.finditer(r'<h2 id="([^"]+)">(.*?)</h2>', html_)]
        return html_


# ---------------------------------------------------------------------------------------------------- the site
CSS = """
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg2:#f6f8fa; --link:#0969da; --side:18rem; }
* { box-sizing: border-box; }
body { margin:0; font:16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif; color:var(--fg); }
a { color: var(--link); text-decoration: none; } a:hover { text-decoration: underline; }
nav.sidebar { position:fixed; top:0; bottom:0; left:0; width:var(--side); overflow-y:auto; padding:1rem;
  border-right:1px solid var(--line); background:var(--bg2); font-size:.92rem; }
nav.sidebar .site-title { font-weight:700; font-size:1.15rem; display:block; margin-bottom:.2rem; }
nav.sidebar .site-desc { color:var(--muted); font-size:.8rem; margin:0 0 1rem; }
nav.sidebar ol, nav.sidebar ul { list-style:none; padding-left:0; margin:0; }
nav.sidebar li { margin:.12rem 0; } nav.sidebar li ul { padding-left:.9rem; font-size:.85rem; }
nav.sidebar .current > a { font-weight:700; color:var(--fg); }
nav.sidebar .section { margin-top:1rem; font-weight:600; color:var(--muted); text-transform:uppercase; font-size:.75rem; }
main { margin-left:var(--side); padding:1.5rem 2.5rem 4rem; max-width: calc(var(--side) + 62rem); }
main h1 { font-size:2rem; margin:.2rem 0 .6rem; } main h2 { margin-top:2.2rem; border-bottom:1px solid var(--line); }
main blockquote { margin:0 0 1rem; padding:.2rem 1rem; color:var(--muted); border-left:4px solid var(--line); }
table { border-collapse:collapse; margin:.6rem 0; } th, td { border:1px solid var(--line); padding:.25rem .6rem; vertical-align:top; }
th { background:var(--bg2); }
code { font:.88em/1.45 ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, monospace; background:var(--bg2);
  padding:.05em .3em; border-radius:4px; }
pre { background:var(--bg2); padding:.7rem .9rem; overflow-x:auto; border-radius:6px; margin:.4rem 0; }
pre code { background:none; padding:0; font-size:.86rem; }
.cell { margin:.5rem 0; }
.code-cell .input pre, .code-cell details pre { border-left:3px solid #8fb3e8; }
pre.output { background:#fff; border:1px solid var(--line); font:.82rem/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
pre.output.stderr { background:#fff8e6; } pre.output.error { background:#ffebe9; }
.output.figure img { max-width:100%; height:auto; }
.widget-note { color:var(--muted); font-style:italic; border:1px dashed var(--line); padding:.4rem .8rem; border-radius:6px; }
details.source > summary { cursor:pointer; color:var(--muted); font-size:.85rem; }
.badge { display:inline-block; font-size:.72rem; color:#8a4600; background:#fff1e0; border:1px solid #f0c89a;
  border-radius:10px; padding:0 .45rem; margin:0 .4rem; vertical-align:middle; }
.api-entry { border:1px solid var(--line); border-left:4px solid #6f42c1; border-radius:6px; padding:.4rem 1rem .6rem;
  margin:1rem 0; background:#fcfbff; }
.api-entry .api-name { margin:.3rem 0; font-size:1.05rem; } .api-entry .api-name code { font-size:1rem; background:none; }
.api-kind { font-size:.75rem; color:#6f42c1; text-transform:uppercase; letter-spacing:.04em; margin-right:.3rem; }
.api-other { float:right; font-size:.8rem; font-weight:400; }
.api-entry pre.api-sig { background:#fff; border:1px solid var(--line); }
.api-params td:first-child { white-space:nowrap; } .api-params { font-size:.9rem; }
.pager { display:flex; justify-content:space-between; margin-top:3rem; padding-top:1rem; border-top:1px solid var(--line); }
math { font-family: "Latin Modern Math", "STIX Two Math", "Cambria Math", math; font-size:1.08em; }
math[display="block"] { display:block math; margin:.8rem 0; overflow-x:auto; overflow-y:hidden; }
.module-list dt { margin-top:.8rem; } .module-list dd { margin-left:1rem; color:var(--muted); }
.search input { width:100%; box-sizing:border-box; padding:.3rem .5rem; border:1px solid var(--line); border-radius:6px;
  font:inherit; font-size:.9rem; margin:.2rem 0 .6rem; }
#search-results { background:#fff; border:1px solid var(--line); border-radius:6px; padding:.3rem .5rem !important;
  margin:-.4rem 0 .8rem !important; font-size:.85rem; }
#search-results li { margin:.25rem 0; } .search-kind { display:block; color:var(--muted); font-size:.72rem; }
.nav-toggle { position:absolute; opacity:0; pointer-events:none; } .nav-button { display:none; }
@media (max-width: 800px) {
  nav.sidebar { position:static; width:auto; border-right:none; border-bottom:1px solid var(--line); padding:.6rem 1rem; }
  nav.sidebar .site-title { display:inline-block; margin-right:1rem; }
  .nav-button { display:inline-block; cursor:pointer; border:1px solid var(--line); border-radius:6px; padding:.1rem .6rem;
    font-size:.9rem; background:var(--bg2); float:right; }
  .nav-body { display:none; } .nav-toggle:checked ~ .nav-body { display:block; }
  main { margin-left:0; padding:1rem; max-width:none; }
  main table { display:block; overflow-x:auto; } main img { max-width:100%; height:auto; }
  .api-other { float:none; display:block; }
}
"""


class Site:
    "The whole site: notebook pages, API pages, style sheet, figures."
    def _asset(self, src, where):
        """An image a notebook's markdown shows from a repository file (a saved result, e.g. `benchmarks/results/`):
        copied into the site's `figures/`; links elsewhere are kept."""
        if re.match(r'^[a-z][a-z0-9+.-]*:|^//|^/', src): return src
        nb_dir = self.root if where == 'index.ipynb' else self.root / self.cfg.get('nbs_path', 'nbs')
        path = (nb_dir / unquote(src)).resolve()
        if not path.is_file(): raise FileNotFoundError(f"{where} shows {src}, which does not exist")
        name = f'figures/file-{path.name}'
        shutil.copyfile(path, self.out / name)
        return name
    def __init__(self, root=ROOT, out=None):
        self.root = Path(root)
        self.cfg = read_settings(self.root)
        self.lib = self.cfg['lib_name']
        self.out = Path(out) if out else self.root / self.cfg.get('doc_path', '_docs')
        self.nbs = notebook_paths(self.root / self.cfg.get('nbs_path', 'nbs'))
        self.symbols = load_symbols(self.lib, self.root)
        self.pages = {}
        for p in self.nbs:
            name = page_name(p)
            if name in self.pages: raise ValueError(f"{p.name} and {self.pages[name].name} would both be {name}")
            self.pages[name] = p
        self.md = Markdown(self._links(), self._asset)
        self.title_html = MarkdownIt('commonmark').renderInline    # titles: code spans, no links (they sit in links)

    def _links(self):
        "Code-span text -> href: symbols (short names when unique, `Class.method`, dotted paths) and notebook stems."
        links, short = {}, {}
        for s in self.symbols:
            href = f'{s.page}#{s.anchor}'
            links[s.fullname] = links[s.qualname] = href
            short.setdefault(s.qualname, set()).add(href)
        for k, v in short.items():
            if len(v) > 1: links.pop(k, None)
        for p in self.nbs: links[p.stem] = links[p.name] = page_name(p)
        return links

    def entry(self, s, on_api_page):
        if on_api_page: return s.entry_html(self.md, s.fullname, '../', f'../{s.page}#{s.anchor}', 'in its notebook')
        return s.entry_html(self.md, s.fullname, '', f'api/{s.module}.html#{s.anchor}', 'reference')

    def sidebar(self, current, root, toc=()):
        h = [f'<nav class="sidebar"><a class="site-title" href="{root}index.html">{esc(self.cfg.get("title", self.lib))}</a>',
             '<label class="nav-button" for="nav-toggle">☰ Contents</label>',
             '<div class="search"><input type="search" id="search-box" placeholder="Search" aria-label="Search the docs"'
             ' autocomplete="off"><ol id="search-results" hidden></ol></div>',
             '<input type="checkbox" id="nav-toggle" class="nav-toggle" aria-label="Show the contents"><div class="nav-body">',
             f'<p class="site-desc">{esc(self.cfg.get("description", ""))}</p><ol class="pages">']
        for name, (title, _) in self.titles.items():
            cur = ' class="current"' if name == current else ''
            sub = ''
            if name == current and toc:
                sub = '<ul>' + ''.join(f'<li><a href="#{esc(i)}">{t}</a></li>' for i, t in toc) + '</ul>'
            num = re.match(r'^(\d+[a-zA-Z0-9]*)_', self.pages[name].name)
            title_html = self.title_html(title)
            label = f'{num.group(1)} · {title_html}' if num else title_html
            h.append(f'<li{cur}><a href="{root}{name}">{label}</a>{sub}</li>')
        h.append('</ol><div class="section">API reference</div><ul class="modules">')
        cur = ' class="current"' if current == 'api/index.html' else ''
        h.append(f'<li{cur}><a href="{root}api/index.html">All modules</a></li>')
        for m in self.modules:
            cur = ' class="current"' if current == f'api/{m}.html' else ''
            sub = ''
            if cur and toc:
                sub = '<ul>' + ''.join(f'<li><a href="#{esc(i)}">{t}</a></li>' for i, t in toc) + '</ul>'
            h.append(f'<li{cur}><a href="{root}api/{m}.html"><code>{esc(m)}</code></a>{sub}</li>')
        h.append('</ul></div></nav>')
        return '\n'.join(h)

    def write_page(self, rel, title, body, toc=(), pager=''):
        root = '../' * rel.count('/')
        doc = (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
               f'<meta name="viewport" content="width=device-width, initial-scale=1">'
               f'<title>{esc(title.replace("`", ""))} – {esc(self.cfg.get("title", self.lib))}</title>'
               f'<link rel="stylesheet" href="{root}style.css">'
               f'<script src="{root}search-index.js" defer></script><script src="{root}search.js" defer></script>'
               f'</head>\n<body>\n{self.sidebar(rel, root, toc)}\n'
               f'<main>\n{body}\n{pager}\n</main>\n</body></html>\n')
        (self.out / rel).write_text(doc, encoding='utf-8')
        self.search.append(dict(t=title.replace('`', ''), u=rel, k='page', m='', h=' '.join(t for _, t in toc).lower(),
                                x=page_text(body)))

    def build(self):
        if self.out.exists(): shutil.rmtree(self.out)
        (self.out / 'figures').mkdir(parents=True)
        (self.out / 'api').mkdir()
        (self.out / 'style.css').write_text(CSS + HtmlFormatter(style='default').get_style_defs('.highlight'))
        shutil.copyfile(ROOT / 'tools' / 'docs_assets' / 'search.js', self.out / 'search.js')
        self.search = []
        builders = {name: PageBuilder(self, p) for name, p in self.pages.items()}
        self.titles = {name: b.title_and_description() for name, b in builders.items()}
        self.modules = list(dict.fromkeys(s.module for s in self.symbols))
        unknown = sorted({s.page for s in self.symbols} - set(self.pages))
        if unknown: raise ValueError(f"_modidx points at pages no notebook makes: {unknown} (run nbdev_export)")
        names = list(builders)
        for k, (name, b) in enumerate(builders.items()):
            body = b.render([s for s in self.symbols if s.page == name])
            t = lambda n: self.title_html(self.titles[n][0])
            prev = f'<a rel="prev" href="{names[k - 1]}">← {t(names[k - 1])}</a>' if k else '<span></span>'
            nxt = f'<a rel="next" href="{names[k + 1]}">{t(names[k + 1])} →</a>' if k + 1 < len(names) else '<span></span>'
            self.write_page(name, self.titles[name][0], body, b.toc, f'<div class="pager">{prev}{nxt}</div>')
        self.write_api_pages()
        self.write_search_index()
        return self.out

    def write_search_index(self):
        """`search-index.js`: the pages' titles, headings and text and every symbol's name and summary, as JSON that
        `search.js` reads (a script, not a fetched .json file: browsers refuse fetch() on file:// pages)."""
        for s in self.symbols:
            doc = (inspect.getdoc(s.obj.fget if isinstance(s.obj, property) else s.obj) or '').split('\n')[0]
            self.search.append(dict(t=s.qualname, u=f'api/{s.module}.html#{s.anchor}', k=s.kind, m=s.module,
                                    h=s.fullname.lower(), x=doc.lower()))
        (self.out / 'search-index.js').write_text(
            'window.SEARCH_INDEX = ' + json.dumps(self.search, ensure_ascii=False, separators=(',', ':')) + ';\n',
            encoding='utf-8')

    def write_api_pages(self):
        idx = ['<h1>API reference</h1><p>Every exported symbol, by module. Each entry also appears in its notebook, '
               'next to the code that defines it.</p><dl class="module-list">']
        for m in self.modules:
            syms = [s for s in self.symbols if s.module == m]
            nb_pages = list(dict.fromkeys(s.page for s in syms))
            src = ', '.join(f'<a href="../{p}">{self.title_html(self.titles[p][0])}</a>' for p in nb_pages)
            idx.append(f'<dt><a href="{m}.html"><code>{esc(m)}</code></a></dt><dd>{len(syms)} symbols; '
                       f'from {src}</dd>')
            top = [s for s in syms if not s.is_member]
            body = [f'<h1><code>{esc(m)}</code></h1><p>Defined in {src}.</p>']
            toc = []
            for t in top:
                body.append(self.entry(t, on_api_page=True))
                toc.append((t.anchor, esc(t.qualname)))
                body += [self.entry(s, on_api_page=True) for s in syms if s.qualname.startswith(t.qualname + '.')]
            orphans = [s for s in syms if s.is_member and s.qualname.split('.')[0] not in {t.qualname for t in top}]
            body += [self.entry(s, on_api_page=True) for s in orphans]
            self.write_page(f'api/{m}.html', m, '\n'.join(body), toc)
        idx.append('</dl>')
        self.write_page('api/index.html', 'API reference', '\n'.join(idx))


def page_text(body, limit=12000):
    "The searchable text of a page's body: its prose (no code, outputs or math), lowercased, at most `limit` chars."
    t = re.sub(r'<(pre|math|table|section)\b.*?</\1>', ' ', body, flags=re.S)
    t = html.unescape(re.sub(r'<[^>]+>', ' ', t))
    return re.sub(r'\s+', ' ', t).strip().lower()[:limit]


def build(out=None, root=ROOT):
    "Build the site into `out` (default: settings.ini's doc_path, `_docs/`) and return its folder."
    return Site(root, out).build()


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', help="output folder (default: settings.ini's doc_path, _docs/)")
    out = build(ap.parse_args().out)
    print(f"docs site written to {out}/ ({len(list(out.rglob('*.html')))} pages): open {out / 'index.html'}")
