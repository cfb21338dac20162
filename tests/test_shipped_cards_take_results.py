"""Every card the site ships takes one more result, through every way in: `cardbench import`, the "Add a
result" form, and the collector's check before it writes to a device. The card's earlier bytes stay as
they were, so a pull request's diff is only the new session; and the card file still passes every check.

Also any valid card file, not only one this package wrote: sessions at column 0 or indented, comments,
keys after the sessions, CRLF line ends, flow lists."""

import shutil
from pathlib import Path

import pytest

from cardbench import cli
from cardbench.card.load import load_card, parse_card_text
from cardbench.card.store.session_text import append_session_text, replace_session_text
from cardbench.card.checks.validate import validate_paths
from cardbench.collect.errors import CardMismatchError
from cardbench.collect.runner import CollectRequest
from cardbench.collect.store import SessionStore
from cardbench.collect.trial_card import check_names
from cardbench.errors import CardFileError
from cardbench.imports.submission import submit
from test_submission import body_of

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "data" / "cards").glob("*.yaml"))
# A real dd run (the corpus's): 0.0941 MB/s, slow enough for any bus a shipped card has.
LOG = ROOT / "tests" / "fixtures" / "import-corpus" / "dd" / "dd--oflag-dsync-kb-per-s.out"


@pytest.fixture
def shipped_data(tmp_path, request):
    """A copy of the site's data folder: the schema, every card file, and the raw outputs of the card the test
    is about (the others' are not read)."""
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data" / "schema", data / "schema")
    shutil.copytree(ROOT / "data" / "cards", data / "cards")
    card_file = request.node.callspec.params.get("card_file") if hasattr(request.node, "callspec") else None
    slugs = [card_file.stem] if card_file else [p.stem for p in SHIPPED]
    for slug in slugs:
        if (ROOT / "data" / "raw" / slug).is_dir():
            shutil.copytree(ROOT / "data" / "raw" / slug, data / "raw" / slug)
    return data


def assert_one_more_session(data, path, before):
    after = path.read_text(encoding="utf-8")
    assert after.startswith(before), "the card's earlier bytes changed"
    sessions_before = parse_card_text(before).data["sessions"]
    card = load_card(path).data
    assert card["sessions"][:-1] == sessions_before and len(card["sessions"]) == len(sessions_before) + 1
    _, findings = validate_paths([path], data_dir=data)
    assert [str(f) for f in findings if f.severity == "error"] == []
    return card["sessions"][-1]


def test_every_card_is_shipped():
    assert len(SHIPPED) >= 16


@pytest.mark.parametrize("card_file", SHIPPED, ids=lambda p: p.stem)
def test_make_import_adds_to_a_shipped_card(card_file, shipped_data, capsys):
    path = shipped_data / "cards" / card_file.name
    before = path.read_text(encoding="utf-8")
    code = cli.main(["import", str(LOG), "--card", card_file.stem, "--cards-dir", str(shipped_data / "cards")])
    err = capsys.readouterr().err
    assert code == 0, err
    session = assert_one_more_session(shipped_data, path, before)
    assert session["dd"][0]["runs"] == [0.0941]


@pytest.mark.parametrize("card_file", SHIPPED, ids=lambda p: p.stem)
def test_the_form_adds_to_a_shipped_card_named_as_on_its_page(card_file, shipped_data):
    card = parse_card_text(card_file.read_text(encoding="utf-8")).data
    capacity = card["capacity_gb"]
    shown = f"{capacity // 1000}TB" if capacity >= 1000 and capacity % 1000 == 0 else f"{capacity}GB"
    name = f"{card['brand']} {card['model']} {shown}"
    path = shipped_data / "cards" / card_file.name
    before = path.read_text(encoding="utf-8")
    body = body_of(LOG.read_text(encoding="utf-8"), name=name, bus=card["bus"], form=card["form_factor"],
                   host="Fedora 40 laptop")
    result = submit(body, shipped_data / "cards")
    assert result.accepted, result.message
    assert result.slug == card_file.stem
    assert_one_more_session(shipped_data, path, before)


@pytest.mark.parametrize("card_file", SHIPPED, ids=lambda p: p.stem)
def test_the_collector_knows_a_shipped_card_takes_its_session_before_writing(card_file, shipped_data):
    store = SessionStore(shipped_data, card_file.stem)
    request = CollectRequest(device="/dev/null", slug=card_file.stem, profile="quick", label="USB 3 reader",
                             data_dir=shipped_data)
    check_names(request, store, new=False)


def test_the_collector_refuses_before_writing_when_the_card_could_not_take_its_session(shipped_data):
    slug = SHIPPED[0].stem
    path = shipped_data / "cards" / f"{slug}.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("\nsessions:\n", "\nsessions: 3\n", 1), encoding="utf-8")
    request = CollectRequest(device="/dev/null", slug=slug, profile="quick", data_dir=shipped_data)
    with pytest.raises(CardMismatchError, match="cannot take a new session|would be refused"):
        check_names(request, SessionStore(shipped_data, slug), new=False)


SESSION = {"id": "2025-06-01-usb-3-reader", "label": "USB 3 reader", "date": "2025-06-01",
           "dd": [{"op": "read", "block_size": "4M", "unit": "MB/s", "runs": [40.5]}]}
CARD_HEAD = "schema_version: 1\nslug: acme-fast-64gb-microsdxc\nbrand: Acme\n"
LAYOUTS = {
    "column 0": CARD_HEAD + "sessions:\n- id: a\n  label: A\n",
    "indented": CARD_HEAD + "sessions:\n    - id: a\n      label: A\n",
    "comments": CARD_HEAD + "# the sessions\nsessions:  # two\n  # first\n  - id: a  # a\n    label: A\n  # end\n",
    "key after": CARD_HEAD + "sessions:\n- id: a\n  label: A\nnotes: written after\n",
    "block text last": CARD_HEAD + "sessions:\n- id: a\n  notes: |\n    one\n\n    two\n\n\n",
    "kept trailing lines": CARD_HEAD + "sessions:\n- id: a\n  notes: |+\n    one\n\n\nmodel: Fast\n",
    "dash on its own line": CARD_HEAD + "sessions:\n-\n  id: a\n  label: A\n",
    "crlf": CARD_HEAD.replace("\n", "\r\n") + "sessions:\r\n- id: a\r\n  label: A\r\n",
    "no last line break": CARD_HEAD + "sessions:\n- id: a\n  label: A",
    "empty flow list": CARD_HEAD + "sessions: []  # none yet\nnotes: n\n",
    "empty": CARD_HEAD + "sessions:\nnotes: n\n",
    "no sessions key": CARD_HEAD,
    "flow list": CARD_HEAD + "sessions: [{id: a, label: A}]\n",
    "json": '{"schema_version": 1, "slug": "acme", "sessions": [{"id": "a"}]}\n',
}


@pytest.mark.parametrize("layout", LAYOUTS, ids=str)
def test_a_session_is_added_to_any_valid_layout_leaving_other_bytes(layout):
    text = LAYOUTS[layout]
    before = parse_card_text(text).data
    added = append_session_text(text, SESSION)
    data = parse_card_text(added).data
    assert data["sessions"] == list(before.get("sessions") or []) + [SESSION]
    assert {k: v for k, v in data.items() if k != "sessions"} == {k: v for k, v in before.items() if k != "sessions"}
    if before.get("sessions"):
        assert added.startswith(text.rstrip("\n")) and added.endswith(text[len(text.rstrip("\n")):] or "\n") \
            or added.startswith(text[:text.index("sessions")])
    replaced = replace_session_text(added, {**SESSION, "label": "Again"})
    assert parse_card_text(replaced).data["sessions"][-1]["label"] == "Again"


def test_a_list_the_parser_reads_otherwise_is_refused_not_mangled():
    with pytest.raises(CardFileError, match="not a list"):
        append_session_text(CARD_HEAD + "sessions: 3\n", SESSION)
