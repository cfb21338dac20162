"""A card page's body as finished HTML, from its page model (pagemodel.card_page), written once when the
card is aggregated: Hugo places it into the site's frame (layouts/cards/page.html) and reads it as text.
Decoding a page model of tens of kB and running templates over it for every page was most of the
build at thousands of cards.

Every text from the card goes through html.escape (sessionhtml.esc), quotes included, where Hugo's
templates escaped it; addresses on the site start with BASE (figurehtml) and the repository's with
REPO, which the template replaces with the site's own (relURL, site.Params).

card_page_text(page) is the text the template splits at SPLIT: the card's title and description (for
the head, escaped), the body before a review's prose, the body after it.
"""

from .figurehtml import BASE
from .sessionhtml import UNIT_NAME, chart_html, esc, raw_links, session_html, source_link_html, url_attr

SPLIT = "<!--cardbench-->"  # escaped text never holds "<": only these split the text
REPO = "<repo>"  # site.Params.repoURL/commits/site.Params.repoBranch

UNIT_SWITCH = """<fieldset class="unit-switch" data-unit-switch hidden>
<legend>Rates in</legend>
<label><input type="radio" name="card-unit" value="mb" checked> MB/s <span class="visually-hidden">(10⁶ bytes per second)</span></label>
<label><input type="radio" name="card-unit" value="mib"> MiB/s <span class="visually-hidden">(2²⁰ bytes per second)</span></label>
</fieldset>"""
DERIVED = '<span class="derived-mark" aria-hidden="true">*</span><span class="visually-hidden"> (derived)</span>'
CLASS_NOTE = ("The SD Association's classes promise minimum speeds, not averages: a verdict says when the mean reaches a "
              "minimum but some runs fell below it, and \"cannot tell\" when a part the marking needs was not measured. "
              "The card's own rating is for sustained writes under the association's test conditions; the figures here "
              "are means of the runs recorded here (from the source named above), or a figure the source only stated "
              "where it recorded no runs, so a near miss is a hint, not a verdict. Random IOPS computed from 4 KiB "
              "bandwidth say so beside them.")


def _first_upper(text):
    upper = text[:1].upper()
    return (upper if len(upper) == 1 else text[:1]) + text[1:]


def badges_html(card):
    return (f'<span class="badge bus">{esc(card.get("bus"))}</span> <span class="badge">{esc(card.get("form_factor"))}</span>'
            + "".join(f' <span class="badge mark">{esc(m)}</span>' for m in card.get("markings") or []))


def _grid_cell(i, c):
    out = f'\n<td class="{"write" if i else "read"}">'
    if not c:
        return out + '<span class="muted">not measured</span>\n</td>'
    if c.get("rate"):
        out += (f'<span class="rate">{c["rate"]}{DERIVED if c.get("rate_derived") else ""} '
                f'<span class="unit">{UNIT_NAME}</span></span>')
    for key, word in (("iops", "IOPS"), ("latency", "latency")):
        if c.get(key):
            out += f'<span class="more">{esc(c[key]["text"])}{DERIVED if c[key].get("derived") else ""} {word}</span>'
    return out + "\n</td>"


def grid_html(grid):
    suite = f"the {esc(grid['suite'])}" if grid.get("suite") else "the card's suite"
    more = (", IOPS" if grid.get("has_iops") else "") + (", latency" if grid.get("has_latency") else "")
    rows = "".join(f'\n<tr>\n<th scope="row">{esc(r["test"])}</th>' + "".join(_grid_cell(i, c) for i, c in enumerate(r["cells"]))
                   + "\n</tr>" for r in grid["rows"])
    basis = _first_upper(esc(grid["basis"])) if grid.get("basis") else "Means over every run"
    derived = " * derived: computed from bandwidth and block size, not recorded by the tool." if grid.get("any_derived") else ""
    return ('<section id="grid" aria-labelledby="grid-title">\n<h2 id="grid-title" class="visually-hidden">At a glance</h2>\n'
            '<div class="grid-wrap table-scroll" tabindex="0" role="region" aria-labelledby="grid-caption">\n<table class="cdm">\n'
            f'<caption id="grid-caption" class="visually-hidden">Every subtest of {suite}: mean {UNIT_NAME}{more}; read and write'
            '</caption>\n<thead><tr><td></td><th scope="col">Read</th><th scope="col">Write</th></tr></thead>\n'
            f'<tbody>{rows}\n</tbody>\n</table>\n</div>\n<p class="chart-note">{basis}.{derived}</p>\n</section>')


def _path_column(c):
    if c.get("not_stated"):
        head = '<span class="muted">not stated</span>'
    else:
        head = (esc(c["reader"]) if c.get("reader") else '<span class="muted">reader not stated</span>')
        head += f'<span class="by">on {esc(c["host"]) if c.get("host") else "a host not stated"}</span>'
    return f'\n<th scope="col" class="num">{head}<span class="by">{esc("; ".join(c.get("sessions") or []))}</span></th>'


def paths_html(paths):
    out = ('<section id="paths" aria-labelledby="paths-title">\n<h2 id="paths-title">By host and reader</h2>\n'
           "<p class=\"chart-note\">The same card read through different hosts and readers: a reader or a host's slot can "
           "cap the figures. Each column pools the runs of its sessions.</p>")
    if paths.get("rows"):
        rows = "".join(f'\n<tr><th scope="row">{esc(r["name"])}</th>\n{r["cells"]}\n</tr>' for r in paths["rows"])
        out += ('\n<div class="table-scroll" tabindex="0" role="region" aria-label="Mean per subtest by host and reader">\n'
                f'<table class="figures paths">\n<caption>Mean per subtest <span class="unit">({UNIT_NAME})</span>, with its runs'
                '</caption>\n<thead><tr><th scope="col">Subtest</th>' + "".join(_path_column(c) for c in paths["columns"])
                + f"\n</tr></thead>\n<tbody>{rows}\n</tbody>\n</table>\n</div>")
    else:
        labels = "; ".join(esc(c.get("label")) for c in paths["columns"])
        out += f"\n<p>Measured through {len(paths['columns'])} paths ({labels}) that share no subtest with runs.</p>"
    return out + (f'\n<p class="chart-note"><a href="{BASE}{esc(paths["compare"])}">Compare this card with others</a> on the '
                  "subtests they share.</p>\n</section>")


def _finding_row(f):
    line = esc(f.get("verdict") or f"{f.get('label')}: {f.get('text')}")
    if f.get("fake") or f.get("damaged") or f.get("data_lost") or f.get("contradicts_brand"):
        line = f'<span class="bad">{line}</span>'
    return (f'\n<tr id="finding-{esc(f.get("id"))}-{esc(f.get("session"))}">\n<th scope="row">{esc(f.get("label"))}</th>\n'
            f'<td class="verdict">{line}</td>\n<td class="evidence"><details><summary>Evidence <span class="muted">'
            f'({esc(f.get("session_label"))})</span></summary><p>{esc(f.get("basis"))}</p></details></td>\n</tr>')


def findings_html(card):
    findings, notes = card.get("findings") or [], card.get("findings_notes") or []
    if not findings and not notes:
        return ""
    out = '<section id="findings">\n<h2>What the runs show</h2>'
    if findings:
        out += ('\n<div class="table-scroll">\n<table class="figures findings">\n<caption class="visually-hidden">Each finding '
                'in a line; open “Evidence” for what it rests on</caption>\n<thead><tr><th scope="col">Finding</th><th '
                'scope="col">In a line</th><th scope="col">Evidence</th></tr></thead>\n<tbody>'
                + "".join(_finding_row(f) for f in findings) + "\n</tbody>\n</table>\n</div>")
    if notes:
        out += ('\n<details class="findings-notes">\n<summary>Not determined from these runs</summary>\n<ul>'
                + "".join(f"<li>{esc(n.get('reason'))}</li>" for n in notes) + "</ul>\n</details>")
    return out + ("\n<p class=\"chart-note\">Worked out from the stored runs, not the reviewer's words. Rates here are always "
                  "MB/s (10<sup>6</sup> bytes/s), whichever unit the page shows elsewhere; "
                  f'<a href="{BASE}methodology/#reading-the-runs">how each is derived and its limits</a>.</p>\n</section>')


def facts_html(card):
    out = ['<section id="facts">\n<h2 class="visually-hidden">Card facts</h2>\n<dl class="facts">\n'
           f"<dt>Brand</dt><dd>{esc(card.get('brand'))}</dd>\n<dt>Model</dt><dd>{esc(card.get('model'))}</dd>"]
    if card.get("part_number"):
        out.append(f"<dt>Part number</dt><dd>{esc(card['part_number'])}</dd>")
    family = f" ({esc(card['family'])})" if card.get("family") else ""
    out.append(f"\n<dt>Capacity</dt><dd>{esc(card.get('capacity_gb'))} GB{family}</dd>\n"
               f"<dt>Form factor</dt><dd>{esc(card.get('form_factor'))}</dd>\n<dt>Bus</dt><dd>{esc(card.get('bus'))}</dd>")
    if card.get("markings"):
        out.append(f"<dt>Markings</dt><dd>{esc(', '.join(card['markings']))}</dd>")
    if card.get("controller"):
        out.append(f"<dt>Controller</dt><dd>{esc(card['controller'])}</dd>")
    price = card.get("price")
    if price:
        out.append(f"<dt>Price seen</dt><dd>{esc(price.get('amount'))} {esc(price.get('currency'))}"
                   + (f" at {esc(price['shop'])}" if price.get("shop") else "")
                   + (f" ({esc(price['date'])})" if price.get("date") else "") + "</dd>")
    if card.get("shops"):
        shops = ", ".join(f'<a href="{url_attr(s["url"])}" rel="nofollow noopener noreferrer">{esc(s.get("name"))}</a>'
                          for s in card["shops"])
        out.append(f"<dt>Shops</dt><dd>{shops}</dd>")
    out.append("\n</dl>")
    if card.get("notes"):
        out.append(f'<p class="notes">{esc(card["notes"])}</p>')
    return "".join(out) + "\n</section>"


def _claimed_row(r):
    recorded = f'<span class="recorded"> ({esc(r["recorded"])})</span>' if r.get("recorded") else ""
    measured = f"<strong>{r['measured']}</strong>" if r.get("measured") else "–"
    stated = '<span class="stated-mark">stated by the source</span>' if r.get("stated") else ""
    return (f'\n<tr>\n<th scope="row">{esc(r["name"])}<span class="by">{esc(r.get("by"))}{recorded}{raw_links(r.get("raw"))}'
            f'</span></th>\n<td class="num">{r.get("claim") or "–"}</td>\n<td class="num">{measured}{stated}</td>\n'
            f'<td class="num">{esc(r.get("share"))}</td>\n</tr>')


def claimed_html(card):
    note = f'<p class="chart-note">Claim: {esc(card["claimed_note"])}</p>' if card.get("claimed_note") else ""
    return ('<section id="claimed-measured">\n<h2>Claimed and measured</h2>\n<div class="table-scroll" tabindex="0" '
            'role="region" aria-label="Claimed and measured">\n<table class="figures claimed">\n<thead><tr><th scope="col">'
            'Figure <span class="unit">(measured by)</span></th><th scope="col" class="num">Claimed</th><th scope="col" '
            f'class="num">Measured<br><span class="unit">mean, {UNIT_NAME}</span></th><th scope="col" class="num">Of claim'
            "</th></tr></thead>\n<tbody>" + "".join(_claimed_row(r) for r in card.get("claimed_rows") or [])
            + f"\n</tbody>\n</table>\n</div>{note}\n</section>")


def _class_part(p):
    meets = ("reaches it" if p.get("meets") is True else '<span class="bad">below</span>' if p.get("meets") is False
             else '<span class="muted">not measured</span>')
    basis = f'<span class="by">{esc(p["from"])}</span>' if p.get("from") else ""
    return (f'\n<tr>\n<td>{esc(p.get("what"))} ≥ {esc(p.get("need"))} {esc(p.get("unit"))}{basis}</td>\n'
            f'<td class="num">{esc(p.get("measured"))}</td>\n<td>{meets}</td>\n</tr>')


def class_checks_html(card):
    checks = card.get("class_checks")
    if not checks:
        return ""
    groups = []
    for check in checks:
        verdict = check.get("verdict")
        said = ""
        if verdict:
            said = f'<span class="verdict {esc(verdict.get("tone"))}">{esc(verdict.get("text"))}</span>'
            said += f' <span class="verdict-note">— {esc(verdict["note"])}</span>' if verdict.get("note") else ""
        groups.append(f'\n<tbody>\n<tr class="verdict-row">\n<th scope="rowgroup" colspan="3">{esc(check.get("marking"))}: '
                      f'{said}</th>\n</tr>' + "".join(_class_part(p) for p in check.get("parts") or []) + "\n</tbody>")
    return ('<section id="class-checks">\n<h2>Markings against measurements</h2>\n<div class="table-scroll" tabindex="0" '
            'role="region" aria-label="Markings against measurements">\n<table class="figures class-checks">\n<thead><tr>'
            '<th scope="col">Marking and what it needs</th><th scope="col" class="num">Figure</th><th scope="col">This part'
            f'</th></tr></thead>{"".join(groups)}\n</table>\n</div>\n<p class="chart-note">{CLASS_NOTE}</p>\n</section>')


def sources_html(card):
    slug, source = esc(card["slug"]), card.get("source") or {}
    note = f' <span class="muted">({esc(source["license_note"])})</span>' if source.get("license_note") else ""
    return ('<section id="sources">\n<h2>Sources and data</h2>\n'
            f"<p><strong>Figures from:</strong> {source_link_html(source)}.{note}</p>\n<ul class=\"data-links\">\n"
            f'<li><a href="{BASE}data/cards/{slug}.yaml">Card file (YAML)</a> — the single source of every figure on this page</li>\n'
            f'<li><a href="{BASE}cards/{slug}/index.json">Statistics (JSON)</a></li>\n'
            f'<li><a href="{BASE}cards/{slug}/runs.csv" download>Every run (CSV)</a> — one row per run, as stored and in MB/s</li>\n'
            f'<li><a href="{REPO}/data/cards/{slug}.yaml">History of the card file</a></li>\n'
            f'<li><a href="{BASE}compare/?cards={slug}">Compare with other cards</a></li>\n</ul>\n</section>')


def card_page_text(page):
    """The card page's text for the template: title, description, body before the review, body after it."""
    before = [f'<article class="card-page">\n<header class="page-head">\n<h1>{esc(page["title"])}</h1>\n'
              f'<p class="sub">{badges_html(page)}</p>\n</header>\n{UNIT_SWITCH}']
    if page.get("grid"):
        before.append(grid_html(page["grid"]))
    if page.get("paths"):
        before.append(paths_html(page["paths"]))
    before += [findings_html(page), facts_html(page), claimed_html(page), class_checks_html(page)]
    after = [session_html(s) for s in page.get("sessions") or []]
    if page.get("curves"):
        after.append('<section id="curves">\n<h2>Curves</h2>' + "".join(chart_html(c) for c in page["curves"]) + "\n</section>")
    after += [sources_html(page), "</article>"]
    return SPLIT.join((esc(page["title"]), esc(page.get("description")), "\n".join(before), "\n".join(after)))


__all__ = ["card_page_text", "SPLIT", "REPO"]
