"""The files Hugo reads, as texts made from aggregated cards, and where each lies in cardbench aggregate's
output folder (site_files.py writes them there).

    data/cards.json        slug → title, bus and page version: one page per card (content/cards/_content.gotmpl)
    site/leaderboard.json  the home page's filter values and card count; site/leaderboard.html its rows,
                           ranked, as finished HTML (leaderhtml.py); site/cards.html the cards section's list
    site/compare.json      the comparison page's suites with a few members by name, the cards it draws
                           first (their pieces are preloaded) and the frame of its charts (comparemodel.py)
    site/left-out.json     every card each comparison chart leaves out, and why (/compare/left-out/)
    site/fragments.json    the HTML pieces Hugo's layouts place as they are: the comparison page's unit switch,
                           the empty table scripts fill, a pasted chart's box (sharedhtml.py)
    pages/<slug>.html      a card page's body as finished, escaped HTML (cardhtml.py, from pagemodel.card_page)
    api/picker.json        every card's slug, title and suites, for the comparison page's pickers
    static/index.json      the catalogue (/index.json), and static/compare/index.json (/compare/index.json):
                           the site's API, tens of MB at thousands of cards, served as they are
    site/feed.json         the newest sessions of every card, for the Atom feed (/feed.xml; feed.py)
    site/readers.json      every reader and host, its cards and the fastest figures through it (readers.py)
    raw/<slug>/…           copies of the raw tool outputs the cards name, served as /data/raw/<slug>/…
    static/cards/<slug>/charts.json
                           the figures of the card page's charts (Plotly JSON), which the page fetches
    static/cards/<slug>/index.json
                           a card's statistics: the JSON twin of its page (public API; fields in
                           docs/card-json.md), with its addresses on the site; served as it is
    static/compare/cards/<slug>.json
                           what a card brings to a comparison (comparemodel.py), served as
                           /compare/cards/<slug>.json: the comparison page fetches only the chosen cards'
    static/cards/<slug>/runs.csv, static/runs.csv
                           every run of a card, and of every card, as CSV (runs_csv.py), served as they are
    static/data/cards/<slug>.yaml
                           the card file as it was read and checked, byte for byte: the source of every
                           figure above, served as /data/cards/<slug>.yaml even when the file has changed
                           since

Hugo parses only data/ as data (config.toml mounts it): what the card pages are made from. A card page
reads its text from pages/ as a file; its version in the card index tells `make serve` to render it again.
The lists are assets read by the one page that uses them, so a changed card re-renders its own page and the
lists only. Each card contributes its own pieces of text (card_parts), so a set of cards can be written
again after one card changed without recomputing or reformatting the others. The comparison's models are
checked against their JSON Schemas (modelcheck.py) as their texts are made, as are the home page's rows and
filters.
"""

import hashlib
import os
import tomllib
from functools import cache

from ..core.jsontext import compact_json
from ..core.paths import ROOT
from ..figures.aggregate import PAGE_FIGURES
from ..figures.hosts_readers import card_filters, card_reach
from ..figures.suites import KNOWN_SUITES, suite_keys, test_label, why_in_no_suite, why_left_out
from ..pages.card_readers_page import card_groups, readers_page
from ..pages.cardhtml import card_charts_text, card_page_text
from ..pages.comparemodel import chart_frame, compare_piece, path_choices
from ..pages.feed import card_entries, feed_data
from ..pages.leaderhtml import card_list_html, card_list_item_html, leader_row_html, ranked, spi_row_html
from ..pages.modelcheck import check_model
from ..pages.pagemodel import (DEFAULT_MEMBERS, EMBEDDED_MEMBERS, card_page, leader_row, spi_row, standing_group,
                               text_order)
from ..pages.preview_image import PREVIEWS, preview_of
from ..pages.sharedhtml import shared_fragments
from .runs_csv import card_csv

PER_CARD_DIRS = ("pages",)
CARD_CSV_DIR = "static/cards"  # <slug>/runs.csv and <slug>/index.json: /cards/<slug>/… on the site
COMPARE_DIR = "static/compare/cards"  # <slug>.json: /compare/cards/<slug>.json on the site
CARD_FILE_DIR = "static/data/cards"  # <slug>.yaml: /data/cards/<slug>.yaml on the site
TWIN_NAME = "index.json"
CHARTS_NAME = "charts.json"  # the figures of a card page's charts, fetched by the page (cardhtml.card_charts_text)
CARD_INDEX = "data/cards.json"  # the one data file Hugo's pages are made from (content/cards/_content.gotmpl)
CATALOGUE = "static/index.json"  # /index.json: every card with its headline figures
LEFT_OUT_SHOWN = 12  # cards a comparison page's list of those left out names before linking the whole list
COMPARE_API = "static/compare/index.json"  # /compare/index.json: every suite's cards and figures
ALL_RUNS_CSV = "static/runs.csv"
STANDING = "static/standing.json"  # /standing.json: every card's sequential read per host group
RUNS_CSV_ORDER = "runs-csv.order"  # the cards, in order, that static/runs.csv was last joined from
# Every file made from all the cards' parts together: site_texts() writes the first ones; the all-cards runs.csv
# is joined from the cards' own.
SITE_TEXT_FILES = (CARD_INDEX, "site/leaderboard.json", "site/leaderboard.html", "site/spi.html",
                   "site/left-out.json", "site/fragments.json", "site/cards.html", "site/compare.json", CATALOGUE,
                   COMPARE_API, "api/picker.json", "site/feed.json", "site/readers.json", STANDING, PREVIEWS)
SHARED_FILES = SITE_TEXT_FILES + (ALL_RUNS_CSV, RUNS_CSV_ORDER)
# The public JSON (/index.json, each card's twin) says its format; docs/card-json.md describes each version.
FORMAT_VERSION = 2


@cache
def _config():
    with open(ROOT / "config.toml", "rb") as handle:
        return tomllib.load(handle)


def site_address():
    """The site's address, ending in /, which the JSON twins' addresses start with: HUGO_BASEURL where it is set
    (the deploy sets it from GitHub Pages, and Hugo reads the same variable for every page, the sitemap, the feed
    and robots.txt), else config.toml's baseURL."""
    return (os.environ.get("HUGO_BASEURL") or _config()["baseURL"]).rstrip("/") + "/"


def repo_commits():
    """Where the repository's history of a file starts (config.toml's params repoURL and repoBranch): the
    card pages link each card file's history there."""
    params = _config()["params"]
    return f"{params['repoURL'].rstrip('/')}/commits/{params['repoBranch']}"


def card_twin(card_json):
    """The JSON twin of a card's page as the site serves it: the aggregated card with its addresses (without the
    figures only its page shows, which its page shows worded)."""
    base, slug = site_address(), card_json["slug"]
    served = {key: value for key, value in card_json.items() if key != PAGE_FIGURES}
    return compact_json({"format_version": FORMAT_VERSION, **served, "url": f"{base}cards/{slug}/",
                         "yaml_url": f"{base}data/cards/{slug}.yaml"})


def card_parts(card_json, row, members):
    """Everything one card contributes, as text. `row`: its leaderboard row; `members`: suite id →
    its entry in that suite of compare.json. Returns (small parts to keep, {folder: file text})."""
    twin = card_twin(card_json)
    paths = card_filters(card_json)
    shown = {**leader_row(row, card_json), **paths}
    check_model("leaderboard-row", shown, f"site/leaderboard.html (the row of {row['slug']})")
    parts = {"slug": row["slug"], "title": row["title"], "bus": row["bus"], "bus_stated": row.get("bus_stated", True),
             "row": compact_json(row),
             "home_row": leader_row_html(shown), "rank": shown["rank"], "rank_group": shown["rank_group"],
             "filters": [row["form_factor"], row["bus"], row["brand"]],
             "members": {suite_id: compact_json(member) for suite_id, member in members.items()},
             # a card names raw files only in its sessions (the card schema)
             "raw": sorted({ref for session in card_json["sessions"] for ref in session["raw_files"]}),
             "feed": card_entries(card_json),
             "sessions": [x["label"] for x in card_json["sessions"] if x.get("compare", True)],
             "paths": paths, "reader_groups": card_groups(card_reach(card_json)),
             "standing": [[standing_group(e), e["mb_s"]] for e in card_json.get("standing") or []],
             "preview": preview_of(card_json)}
    parts["list_item"] = card_list_item_html(parts)
    spi = spi_row(card_json)
    if spi:
        parts["spi_row"], parts["spi_rank"] = spi_row_html(spi), spi["rank"]
    # Every card the comparison leaves out is named there with the reason (suites.py says it).
    pooled = dict.fromkeys(card_json.get("pooled") or {})  # the card's own order: the reasons list them so
    parts["left_out"] = {suite["id"]: why for suite in KNOWN_SUITES
                         if suite["id"] not in members and (why := why_left_out(suite, pooled))}
    if not members and not parts["left_out"]:
        parts["no_suite"] = why_in_no_suite(card_json)
    piece = compare_piece(card_json)
    check_model("compare-card", piece, f"{COMPARE_DIR}/{row['slug']}.json")
    parts["path_choices"] = path_choices(piece)
    page = card_page(card_json)
    check_model("card-page", page, f"pages/{row['slug']}.html (its page model)")
    files = {"twin": twin, "pages": card_page_text(page, repo_commits()), "charts": card_charts_text(page),
             "runs": card_csv(card_json), "compare": compact_json(piece)}
    parts["version"] = page_version(files["pages"])
    return parts, files


def page_version(text):
    """A short digest of a card page's text: the card index carries it, so the preview's Hugo server renders
    the page again when, and only when, its text changed (content/cards/_content.gotmpl)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def parts_from_result(result):
    """Per-card parts and files, in card order, from aggregate()'s whole result."""
    members = {}
    for suite in result["compare"]["suites"]:
        for member in suite["cards"]:
            members.setdefault(member["slug"], {})[suite["id"]] = member
    return [card_parts(result["cards"][row["slug"]], row, members.get(row["slug"], {}))
            for row in result["leaderboard"]]


def card_index_text(parts):
    """data/cards.json: slug → title, bus and page version of every card (in card order), which makes the card
    pages."""
    return compact_json({p["slug"]: {"title": p["title"], "bus": p["bus"], "version": p["version"]} for p in parts})


def site_texts(parts):
    """The shared files' texts from every card's parts (in card order)."""
    titles = card_index_text(parts)
    by_title = sorted(parts, key=lambda p: text_order(p["title"]))
    filters = {key: sorted({p["filters"][i] for p in parts}, key=text_order)
               for i, key in enumerate(("form_factor", "bus", "brand"))}
    filters["bus_text"] = bus_choice_texts(parts)
    filters.update(path_filters(parts))
    check_model("leaderboard-filters", filters, "site/leaderboard.json (filters)")
    leaderboard = compact_json({"total": len(parts), "filters": filters})
    catalogue = '{"format_version":' + str(FORMAT_VERSION) + ',"cards":[' + ",".join(p["row"] for p in parts) + "]}"
    suites, summary, suite_ids = [], [], []
    for suite in KNOWN_SUITES:
        chosen = [p for p in parts if suite["id"] in p["members"]]
        if not chosen:
            continue
        suite_ids.append(suite["id"])
        subtests = suite_keys(suite)
        head = compact_json({"id": suite["id"], "name": suite["name"], "subtests": subtests})
        suites.append(head[:-1] + ',"cards":[' + ",".join(p["members"][suite["id"]] for p in chosen) + "]}")
        embedded = chosen if len(chosen) <= EMBEDDED_MEMBERS else chosen[:DEFAULT_MEMBERS]
        summary.append({"id": suite["id"], "name": suite["name"], "subtests": subtests, "tests": suite["tests"],
                        "ops": suite["ops"], "card_count": len(chosen),
                        "labels": {t: test_label(t) for t in suite["tests"] if test_label(t) != t},
                        "members": [{"slug": p["slug"], "title": p["title"], "sessions": p.get("sessions", [])}
                                    for p in embedded],
                        "left_out": [{"slug": p["slug"], "title": p["title"], "why": p["left_out"][suite["id"]]}
                                     for p in by_title if suite["id"] in p.get("left_out", {})]})
    in_no_suite = [{"slug": p["slug"], "title": p["title"], "why": p["no_suite"]}
                   for p in by_title if p.get("no_suite")]
    # Every card left out of a chart is named with the reason on /compare/left-out/; the comparison page names
    # the first LEFT_OUT_SHOWN of each list and links the rest (thousands of lines would make it MBs).
    left_out_page = {"suites": [{"id": s["id"], "name": s["name"], "left_out": s["left_out"]} for s in summary
                                if s["left_out"]], "in_no_suite": in_no_suite}
    check_model("left-out", left_out_page, "site/left-out.json")
    for s in summary:
        s["left_out_count"], s["left_out"] = len(s["left_out"]), s["left_out"][:LEFT_OUT_SHOWN]
    in_no_suite_count, in_no_suite = len(in_no_suite), in_no_suite[:LEFT_OUT_SHOWN]
    # The cards the comparison page draws on load (each suite's first DEFAULT_MEMBERS): it asks for them early.
    drawn_first = list(dict.fromkeys(m["slug"] for s in summary for m in s["members"][:DEFAULT_MEMBERS]))
    # Each card: [slug, title, its suites by index], and the names of its (host, reader) paths when it has several.
    picker = compact_json({"suites": suite_ids, "cards": [[p["slug"], p["title"],
                                                    [i for i, s in enumerate(suite_ids) if s in p["members"]],
                                                    *([p["path_choices"]] if p.get("path_choices") else [])]
                                                   for p in parts]})
    compare = {"suites": summary, "drawn_first": drawn_first, "in_no_suite": in_no_suite,
               "in_no_suite_count": in_no_suite_count, "chart": chart_frame()}
    check_model("compare", compare, "site/compare.json")
    readers = readers_page([(p["slug"], p["title"], p["reader_groups"]) for p in parts], text_order)
    check_model("readers", readers, "site/readers.json")
    return {CARD_INDEX: titles, "site/leaderboard.json": leaderboard,
            "site/leaderboard.html": "\n".join(p["home_row"] for p in ranked(by_title)),
            "site/spi.html": "\n".join(p["spi_row"] for p in sorted((p for p in by_title if p.get("spi_row")),
                                                                     key=lambda p: -p["spi_rank"])),
            "site/left-out.json": compact_json(left_out_page), "site/fragments.json": compact_json(shared_fragments()),
            "site/cards.html": card_list_html(parts), "site/compare.json": compact_json(compare),
            CATALOGUE: catalogue, COMPARE_API: '{"suites":[' + ",".join(suites) + "]}",
            "api/picker.json": picker,
            "site/feed.json": compact_json(feed_data([e for p in parts for e in p.get("feed", ())])),
            "site/readers.json": compact_json(readers),
            STANDING: standing_text(parts), PREVIEWS: compact_json([p["preview"] for p in parts if p.get("preview")])}


def standing_text(parts):
    """static/standing.json: {group: every card's sequential read in it, slowest first}, from which a card's
    page says where it stands among cards of its size read on the same host (assets/js/standing.js)."""
    groups = {}
    for p in parts:
        for group, mb_s in p.get("standing") or ():
            groups.setdefault(group, []).append(mb_s)
    return compact_json({group: sorted(values) for group, values in sorted(groups.items())})


def bus_choice_texts(parts):
    """Each bus choice of the leaderboard's filter as its option reads: the bus, marked inferred when the
    source of some card under it names no bus (card field bus_stated: false), and for how many."""
    texts = {}
    for bus in {p["bus"] for p in parts}:
        cards = [p for p in parts if p["bus"] == bus]
        inferred = sum(1 for p in cards if p.get("bus_stated", True) is False)
        texts[bus] = (bus if not inferred else f"{bus} (inferred)" if inferred == len(cards)
                      else f"{bus} (inferred for {inferred} of {len(cards)} cards)")
    return dict(sorted(texts.items()))


def path_filters(parts):
    """The leaderboard's host and reader choices: every one any card's session stated."""
    return {key: sorted({name for p in parts for name in p.get("paths", {}).get(f"{key}s", ())}, key=text_order)
            for key in ("host", "reader")}
