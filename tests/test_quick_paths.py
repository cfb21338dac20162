"""The quicker ways the build reads and writes a card give what the plain ways give, value for value."""

import json
import math

import jsonschema
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cardbench.bench.synth import card_data
from cardbench.card.load import load_card
from cardbench.card.checks.schemacheck import compile_schema
from cardbench.card.checks.validate import card_paths
from cardbench.card.walk import finite_number, finite_numbers, non_finite_paths, text_values, walk_values
from cardbench.core.paths import raw_refs, raw_strings
from cardbench.figures.formatting import format_by_size, format_number
from cardbench.figures.stats import json_number, json_numbers, round_half_even
from cardbench.pages.plottext import TEMPLATE_KEYS, figure_json, plain_figure
from cardbench.publish.runs_csv import HEADER, card_csv, card_rows, csv_body

from conftest import ROOT

SHIPPED = card_paths(ROOT / "data" / "cards")


def test_raw_strings_are_the_strings_of_raw_lists_not_looked_into():
    value = {"raw": ["raw/a/x.out", 5, {"raw": ["not/this.out"]}], "s": [[{"raw": ["raw/a/y.out"]}], {"raw": "z"}]}
    assert raw_strings(value) == ["raw/a/x.out", "raw/a/y.out"]
    assert raw_strings(value) == [raw for _, raw in raw_refs(value)]


RAW_TEXT = st.sampled_from(['raw', '"raw":[', '\\', 'raw/a/x.out', '"', ']', 'é'])
RAW_VALUE = st.recursive(st.one_of(st.none(), st.integers(), RAW_TEXT, st.lists(RAW_TEXT, max_size=3)),
                         lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                 st.dictionaries(st.one_of(st.just("raw"), RAW_TEXT), inner,
                                                                 max_size=4)),
                         max_leaves=30)


def _raw_refs_reference(value, path=()):
    """raw_refs as first written: a generator per list and mapping."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "raw" and isinstance(item, list):
                yield from ((path + (key, i), raw) for i, raw in enumerate(item) if isinstance(raw, str))
            elif isinstance(item, (dict, list)):
                yield from _raw_refs_reference(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, (dict, list)):
                yield from _raw_refs_reference(item, path + (i,))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(RAW_VALUE)
def test_raw_refs_are_the_generators_refs(value):
    assert raw_refs(value) == list(_raw_refs_reference(value))
    assert raw_refs([value], ("sessions",)) == list(_raw_refs_reference([value], ("sessions",)))


def test_card_twins_name_the_raw_files_of_the_cards_json():
    from cardbench.figures.aggregate import aggregate
    from cardbench.publish.sitedata import card_twin

    cards = [load_card(path).data for path in SHIPPED] + [card_data(i) for i in range(3)]
    for card in aggregate(cards)["cards"].values():
        assert sorted(raw_strings(json.loads(card_twin(card)))) == sorted(raw_strings(card))


FINITE = st.floats(allow_nan=False, allow_infinity=False)


def _plain_reference(value, key=None):
    """plain_figure as first written: every string but the templates escaped, one call per value."""
    if isinstance(value, dict):
        return {k: _plain_reference(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_reference(v, key) for v in value]
    if isinstance(value, str) and key not in TEMPLATE_KEYS:
        return str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return value


TEXT = st.text(alphabet=st.sampled_from("a<>&;é \"'\\/%{}"), max_size=8)
FIGURE = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), FINITE, TEXT),
                      lambda inner: st.one_of(st.lists(inner, max_size=4),
                                              st.dictionaries(st.one_of(TEXT, st.sampled_from(sorted(TEMPLATE_KEYS))),
                                                              inner, max_size=4)), max_leaves=30)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(FIGURE)
def test_figures_are_made_plain_and_script_safe_as_before(figure):
    plain = plain_figure(figure)
    assert plain == _plain_reference(figure)
    safe = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})
    expected = json.dumps(plain, ensure_ascii=False, separators=(",", ":"), allow_nan=False).translate(safe)
    assert figure_json(plain) == (expected if plain else "")


def _format_reference(value, digits):
    value = float(value)
    scaled = abs(value) * 10.0 ** digits
    rounded = int(scaled // 1)
    if scaled - rounded >= 0.5:
        rounded += 1
    return ("-" if value < 0 else "") + f"{rounded / 10.0 ** digits:,.{digits}f}"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.one_of(st.floats(-1e12, 1e12), st.integers(-10**9, 10**9), st.sampled_from([0.5, 2.5, -0.5, 0.125, -0.0])),
       st.integers(0, 12))
def test_numbers_are_formatted_as_before(value, digits):
    assert format_number(value, digits) == _format_reference(value, digits)


def _nested(depth):
    schema = {"type": "integer", "minimum": 0}
    for level in range(depth):
        schema = {"type": "object", "required": ["n"], "additionalProperties": False,
                  "properties": {"n": {"type": "array", "maxItems": 2, "items": schema}, f"x{level}": {"const": 1}}}
    return schema


@pytest.mark.parametrize("depth", [1, 8, 20])
def test_deeply_nested_schemas_compile_to_the_same_verdicts(depth):
    schema = _nested(depth)
    check, reference = compile_schema(schema), jsonschema.Draft202012Validator(schema)
    good = 3
    for _ in range(depth):
        good = {"n": [good]}
    instances = [good, json.loads(json.dumps(good).replace("3", "-3")),
                 json.loads(json.dumps(good).replace("[3]", "[3, 3, 3]")),
                 json.loads(json.dumps(good).replace("3", "true")), {"n": []}, [], "x"]
    assert [check(i) for i in instances] == [reference.is_valid(i) for i in instances]


def _non_finite_reference(value, path=()):
    """non_finite_paths as first written, one generator per value."""
    if isinstance(value, bool):
        return
    if isinstance(value, float) and not math.isfinite(value):
        yield path
    elif isinstance(value, int):
        try:
            float(value)
        except OverflowError:
            yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _non_finite_reference(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _non_finite_reference(item, path + (index,))


CARD_VALUE = st.recursive(st.one_of(st.none(), st.booleans(), st.floats(), TEXT,
                                    st.sampled_from([2 ** 1024, -2 ** 1024, 2 ** 1000, 2 ** 1023 * 3, 10 ** 400, 7])),
                          lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                  st.dictionaries(st.one_of(TEXT, st.integers(0, 3), st.booleans()),
                                                                  inner, max_size=4)), max_leaves=30)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(CARD_VALUE)
def test_non_finite_and_text_walks_give_the_plain_walks_paths(value):
    assert non_finite_paths(value) == list(_non_finite_reference(value))
    assert text_values(value) == [(path, key, item) for path, key, item in walk_values(value)
                                  if isinstance(key, str) or isinstance(item, str)]


@pytest.mark.parametrize("data", [load_card(path).data for path in SHIPPED] + [card_data(i) for i in range(3)])
def test_text_walk_of_cards_is_the_plain_walks(data):
    assert text_values(data) == [(p, k, v) for p, k, v in walk_values(data) if isinstance(k, str) or isinstance(v, str)]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.one_of(st.none(), st.floats(), st.integers(-10**6, 10**6), st.booleans(),
                          st.floats(0, 1e6).map(np.float64), st.integers(0, 100).map(np.int64))), st.integers(0, 6))
def test_json_numbers_are_each_json_number(values, digits):
    assert repr(json_numbers(values, digits)) == repr([json_number(v, digits) for v in values])


class _Card(dict):
    title = "attribute"


@pytest.mark.parametrize("source", ["{{ d.title }}", "{{ d.items is defined }}|{{ d.get is defined }}",
                                    "{{ d.missing is defined }}", "{{ d.n + 1 }}", "{{ e.title }}|{{ e.n }}"])
def test_page_environment_reads_fields_as_jinja_does(source):
    import jinja2

    from cardbench.pages.htmltemplates import _PageEnvironment

    values = {"d": {"title": "<b>", "items": 3, "n": 1}, "e": _Card(title="key", n=2)}
    assert _PageEnvironment(autoescape=True).from_string(source).render(**values) == \
        jinja2.Environment(autoescape=True).from_string(source).render(**values)



def test_remembered_roundings_are_the_roundings():
    values = [518.5, 13.25, 744, 744.0, np.float64(13.25), True, 0, -0.0, 2.675, float("nan"), None, 1e16 + 1]
    for decimals in (0, 1, 2):
        for value in values + values:  # the second pass is answered from memory
            assert repr(round_half_even(value, decimals)) == repr(round_half_even.__wrapped__(value, decimals))


def test_remembered_decimals_of_a_run_are_its_printed_decimals():
    from cardbench.figures.stats import _decimals_of, printed_decimals

    for stored in [1, 1.0, True, 86.6, 54.0, 1e-7, 744, np.float64(2.5), "3.25", 1, 1.0, 86.6]:
        assert _decimals_of(stored) == printed_decimals([stored])


def _finite_reference(values):
    return [(j, v) for j, v in enumerate(values) if finite_number(v)] if isinstance(values, list) else []


def test_finite_numbers_of_a_list_are_those_finite_number_passes():
    values = [1, 1.5, -0.0, True, None, "1", float("nan"), float("inf"), -float("inf"), 2 ** 1000, 2 ** 1023,
              -2 ** 1023, 2 ** 1024, -2 ** 1030, 10 ** 400, np.float64(2.5), np.float64("nan"), np.int64(3), [1], {}]
    assert finite_numbers(values) == _finite_reference(values)
    assert finite_numbers("not a list") == _finite_reference("not a list") == []


CELL_TEXT = st.text(alphabet=st.sampled_from('a ,"\r\n=+-@\t;é'), max_size=6)
RUN = st.one_of(st.none(), st.integers(-5, 10**6), st.floats(allow_nan=True), CELL_TEXT)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.tuples(CELL_TEXT, st.lists(st.tuples(CELL_TEXT, CELL_TEXT, st.lists(RUN, max_size=5),
                                                        st.lists(RUN, max_size=5), st.lists(st.integers(0, 5))),
                                              max_size=3)), max_size=3), CELL_TEXT, CELL_TEXT)
def test_card_csv_is_the_writers_csv_of_its_rows(sessions, slug, title):
    card = {"slug": slug, "title": title, "sessions": [
        {"id": sid, "date": sid, "tools": [{"name": sid}], "subtests": [
            {"kind": "results", "test": test, "op": op, "unit": "MB/s", "runs": runs, "mb_s": {"runs": mb},
             "excluded_runs": out}
            for test, op, runs, mb, out in subtests]} for sid, subtests in sessions]}
    assert card_csv(card) == HEADER + csv_body(card_rows(card))


def test_card_pages_render_as_plain_jinja_renders_them():
    import jinja2

    from cardbench.figures.aggregate import aggregate
    from cardbench.pages.cardhtml import PAGE_BASE
    from cardbench.pages.htmltemplates import environment, page_text
    from cardbench.pages.pagemodel import card_page

    ours = environment()
    plain = jinja2.Environment(loader=ours.loader, autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                               lstrip_blocks=True, finalize=page_text)
    plain.filters.update(ours.filters)
    plain.globals.update(ours.globals)
    cards = aggregate([load_card(path).data for path in SHIPPED] + [card_data(i) for i in range(3)])["cards"]
    for card in cards.values():
        values = {"page": card_page(card), "base": PAGE_BASE, "repo": "https://example.org/commits/main"}
        for _ in range(2):  # the second time, with every template and import already loaded
            assert (ours.get_template("card.html.j2").render(**values)
                    == plain.get_template("card.html.j2").render(**values))


def test_remembered_texts_by_size_are_the_texts():
    for value in [None, 0, -0.0, 0.0, True, 2, 2.0, 99.995, 9.995, -12.25, 1234.5, np.float64(13.25), 1e16 + 1] * 2:
        assert format_by_size(value) == format_by_size.__wrapped__(value)


def test_table_cells_of_runs_are_the_cells_of_their_texts():
    from html import escape

    from cardbench.pages.chartmodel import rate_cell
    from cardbench.pages.figurehtml import rate_html
    from cardbench.figures.formatting import mib_text

    for mb, mib in [(1234.5, 1177.3), (9.994, 9.531), (0.5, 0.47), (250, 238.4)] * 2:
        cell = rate_cell(mb, mib)
        assert cell["mib"] == mib_text(mib)
        assert rate_html(cell) == (f'<span data-mb="{escape(cell["mb"])}" data-mib="{escape(cell["mib"])}">'
                                   f'{escape(cell["mb"])}</span>')
    assert rate_html({"mb": '<"&', "mib": "'"}) == ('<span data-mb="&lt;&quot;&amp;" data-mib="&#x27;">'
                                                    '&lt;&quot;&amp;</span>')


def test_a_rate_cell_without_its_mib_s_figure_is_refused():
    """The figures stage gives every rate a page shows in both units: a cell never works one out."""
    from cardbench.figures.formatting import DASH
    from cardbench.pages.chartmodel import rate_cell

    assert rate_cell(None, None) == {"text": DASH}
    with pytest.raises(ValueError, match="9.994 MB/s"):
        rate_cell(9.994, None)
