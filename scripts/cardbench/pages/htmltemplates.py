"""The one Jinja2 environment that writes the site's finished HTML from pages/templates/: a card page's
body, a leaderboard row, the cards section's list. Built once per process and kept (forked workers of
incremental.py inherit it, templates already compiled).

Escaping: every value a template prints goes through page_text (the environment's finalize), which
escapes it as html.escape does, quotes included (&quot; and &#x27;, the bytes the pages always held),
prints numbers as Hugo prints JSON numbers and none as nothing. Only Markup passes unescaped, and only
code makes Markup: the `from_code` filter, for fragments the page model built from figures and the
site's fixed words (figurehtml.py cells; a chart's JSON is not in the page but in its charts.json),
and `url_attr`. Templates use no |join, |tojson, ~ or |safe on card text: those escape with other bytes
or not at all.
"""

import functools
import hashlib
from collections import ChainMap
from html import escape
from pathlib import Path

import jinja2
from markupsafe import Markup

from .figurehtml import BASE, value_text
from ..core.jsontext import compact_json
from ..figures.formatting import format_number

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
SPLIT = "<!--cardbench-->"  # escaped text never holds "<": only these split a card page's text
# Characters Hugo's templates keep in an address (Go html/template's URL normaliser); the rest are %-encoded.
_URL_KEEP = frozenset("!#$&*+,/:;=?@[]-._~%abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def page_text(value):
    """Any printed value as page text: Markup as it is, numbers as Hugo prints them, nothing for none,
    anything else escaped."""
    if type(value) is str:  # most values: checked first, a page prints hundreds
        return _escaped_text(value)
    if isinstance(value, Markup):
        return value
    if value is None:
        return Markup("")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Markup(escape(value_text(value)))
    return Markup(escape(str(value)))


@functools.lru_cache(maxsize=1 << 14)
def _escaped_text(text):
    """A text as page text; remembered, as pages print the same words, units and figures again and again."""
    return Markup(escape(text))


def url_attr(url):
    """An address from a card (validated http or https) as an href holds it: %-encoded as Hugo's templates
    normalise it, then escaped; Markup because it is escaped here, once."""
    encoded = "".join(c if c in _URL_KEEP else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in url)
    return Markup(escape(encoded))


def from_code(fragment):
    """A fragment the page model's code wrote (figure cells, rates): Markup, because its tags are the
    site's own and every value in it was escaped where it was written (figurehtml)."""
    return Markup(fragment or "")


def first_upper(text):
    """The text with its first letter capitalised (where that stays one letter), as the page's notes start."""
    upper = text[:1].upper()
    return (upper if len(upper) == 1 else text[:1]) + text[1:]


_DICT_ATTRIBUTES = frozenset(dir(dict))
_BUILTIN_METHOD = type({}.get)


class _PageContext(jinja2.runtime.Context):
    """Jinja2's context, calling a built-in method (the templates' `x.get("key")`, hundreds per page)
    straight away: such a method takes no context or environment, so Jinja2's checks for one find none;
    what is left of its call is dropping its loop and block variables and reading StopIteration as undefined."""

    def call(__self, __obj, *args, **kwargs):  # noqa: N805 - Jinja2's own signature
        if __obj.__class__ is not _BUILTIN_METHOD:
            return super().call(__obj, *args, **kwargs)
        if kwargs:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined("value was undefined because a callable raised a"
                                                " StopIteration exception")


class _PageTemplate(jinja2.Template):
    """Jinja2's template, finding on an import that the importing page brings no globals the imported
    template lacks (so its module, made once, serves) with one set operation instead of a walk in Python."""

    def _get_default_module(self, ctx=None):
        if ctx is not None and self._module is not None and isinstance(self.globals, ChainMap):
            if ctx.globals_keys <= set().union(*self.globals.maps):
                return self._module
        return super()._get_default_module(ctx)


class _PageEnvironment(jinja2.Environment):
    """Jinja2's environment, reading `x.name` of a plain dict (every page model) as its key straight away:
    the same value Jinja2 finds after asking for the attribute first, which a dict has only for its
    methods' names (`x.get`: that method, as Jinja2 finds it). A template a page includes or imports
    again is the one loaded the first time (templates are never reloaded: auto_reload is off)."""

    context_class = _PageContext
    template_class = _PageTemplate

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            if attribute in _DICT_ATTRIBUTES:
                return getattr(obj, attribute)
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._loaded_by_name = {}

    def get_template(self, name, parent=None, globals=None):  # noqa: A002 - Jinja2's own signature
        if globals is None and name.__class__ is str:
            if parent is not None:  # an include names its including template
                name = self.join_path(name, parent)
            template = self._loaded_by_name.get(name)
            if template is None:
                template = self._loaded_by_name[name] = super().get_template(name)
            return template
        return super().get_template(name, parent, globals)


def _compiled_templates():
    """Jinja2's cache of compiled templates in the system's temp folder (one folder per user). Jinja2 names an
    entry by the template's name and source; the names here add this module's text and Jinja2's version, which
    decide the compiled code too (the environment's options), so a change to either compiles afresh."""
    made_by = hashlib.sha256(Path(__file__).read_bytes() + jinja2.__version__.encode()).hexdigest()[:16]
    return jinja2.FileSystemBytecodeCache(pattern=f"__cardbench_{made_by}_%s.cache")


@functools.cache
def environment():
    env = _PageEnvironment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=page_text,
        auto_reload=False,  # templates ship with the code: no file checks per render
        # compiled templates kept between processes: a build that checks one card does not compile the card
        # page's 18 templates again
        bytecode_cache=_compiled_templates(),
    )
    # json_text: a list as JSON text for a data attribute, where page_text escapes it
    env.filters.update(from_code=from_code, url_attr=url_attr, first_upper=first_upper, json_text=compact_json,
                       whole_number=lambda n: format_number(n, 0))
    # The site's own addresses and words, written by code: BASE is replaced by Hugo in the lists of cards;
    # a card page gives its own (cardhtml.py).
    env.globals.update(base=Markup(BASE), split=Markup(SPLIT))
    return env


def compile_all():
    """Compile every template now: called before forking workers (incremental.py), which then share them
    instead of each compiling its own. Returns their names."""
    env = environment()
    names = sorted(p.relative_to(TEMPLATES_DIR).as_posix() for p in TEMPLATES_DIR.rglob("*.j2"))
    for name in names:
        env.get_template(name)
    return names


def render(name, **values):
    return environment().get_template(name).render(**values)


__all__ = ["render", "environment", "compile_all", "page_text", "url_attr", "SPLIT"]
