"""A card page's sessions and charts as finished HTML, from its page model (pagemodel.card_page): each
session's conditions, the reviewer's table, its charts with their tables, statistics, other tools,
NVMe and capacity facts, raw files.

Every text from the card goes through html.escape (esc); addresses on the site start with BASE
(figurehtml), which the card page template replaces with the site's own path. Figures are already
formatted (and their cells finished) by the page model.
"""

from html import escape

from .figurehtml import BASE, value_text
from .formatting import format_number

UNIT_NAME = '<span data-mb="MB/s" data-mib="MiB/s">MB/s</span>'  # switched by units.js
NUM = ' class="num"'
NOT_A_RATE = ' <span class="muted">(not a rate)</span>'
NOT_STATED = '<span class="muted">not stated</span>'


def esc(value):
    """Any value as page text, escaped: numbers as Hugo prints them, nothing for none."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value_text(value)
    return escape(str(value))


def raw_href(path):
    return f"{BASE}data/{esc(path)}"


def raw_links(raws):
    """The " raw" links after a subtest's name."""
    return "".join(f' <a class="raw" href="{raw_href(r["path"])}">raw<span class="visually-hidden"> output {esc(r["name"])}'
                   "</span></a>" for r in raws or [])


def chart_table_html(table):
    head = "".join(f'<th scope="col"{NUM if i else ""}>{esc(h.get("text"))}'
                   + (f' <span class="unit">({UNIT_NAME})</span>' if h.get("rate")
                      else f' <span class="unit">({esc(h["unit"])})</span>' if h.get("unit") else "") + "</th>"
                   for i, h in enumerate(table["head"]))
    rows = "".join(f'\n<tr><th scope="row">{esc(r["head"])}{raw_links(r.get("raw"))}</th>\n{r["cells"]}</tr>'
                   for r in table["rows"])
    caption = esc(table["caption"])
    return ('<details class="figures-table">\n<summary>The figures as a table</summary>\n'
            f'<div class="table-scroll" tabindex="0" role="region" aria-label="{caption}">\n<table class="figures">\n'
            f'<caption>{caption}</caption>\n<thead><tr>{head}</tr></thead>\n<tbody>{rows}\n</tbody>\n</table>\n</div>\n'
            "</details>")


def chart_html(chart):
    """One chart: its box, the figure as a JSON data block for charts.js, its table and raw files. The figure
    text comes from chartmodel with <, > and & escaped, so it cannot end the script element."""
    out = [f'<figure class="chart-box" id="{esc(chart["id"])}">']
    if chart.get("title"):
        out.append(f'<figcaption>{esc(chart["title"])}</figcaption>')
    label = esc(chart.get("title") or "Chart") + (" (its figures are in the table below)" if chart.get("table") else "")
    height = f' style="height: {esc(chart["height"])}px"' if chart.get("height") else ""
    out.append(f'\n<div class="chart" role="img" aria-label="{label}"{height}></div>\n'
               f'<script type="application/json" class="chart-figure">{chart["figure"]}</script>')
    if chart.get("note"):
        out.append(f'<p class="chart-note">{esc(chart["note"])}</p>')
    if chart.get("table"):
        out.append(chart_table_html(chart["table"]))
    if chart.get("sources"):
        items = "".join(f'<li>{esc(s["name"])}: '
                        + ", ".join(f'<a href="{raw_href(r["path"])}">{esc(r["name"])}</a>' for r in s["raw"]) + "</li>"
                        for s in chart["sources"])
        out.append(f'\n<div class="raw-list"><strong>Raw output behind this chart:</strong>\n<ul>{items}</ul>\n</div>')
    out.append("\n</figure>")
    return "".join(out)


def _figures_table(kind, caption, head, rows, label):
    return (f'\n<div class="table-scroll" tabindex="0" role="region" aria-label="{kind}, {esc(label)}">\n'
            f'<table class="figures stats{" other-tools" if kind == "Other tools" else ""}">\n'
            f'<caption>{caption}</caption>\n<thead><tr>{head}</tr></thead>\n<tbody>{rows}\n</tbody>\n</table>\n</div>')


def stats_table_html(rows, label):
    head = ('<th scope="col">Subtest</th><th scope="col" class="num">Runs</th><th scope="col" class="num">Mean</th>'
            '<th scope="col" class="num">Min</th><th scope="col" class="num">Max</th><th scope="col" class="num">Spread (σ)</th>'
            '<th scope="col">Recorded</th>')
    body = "".join(
        f'\n<tr>\n<th scope="row">{esc(r["name"])}{raw_links(r.get("raw"))}</th>\n<td class="num">{esc(r["count"])}'
        + (f' <span class="muted" title="runs the source marked as outliers">(+{esc(r["excluded"])} excluded)</span>'
           if r.get("excluded") else "")
        + f'</td>\n{r["figures"]}\n<td>{esc(r["recorded"])}{"" if r.get("rate") else NOT_A_RATE}</td>\n</tr>'
        for r in rows)
    return _figures_table("Statistics per subtest", f'Statistics per subtest <span class="unit">({UNIT_NAME})</span>',
                          head, body, label)


def other_tools_html(rows, label):
    head = ('<th scope="col">Tool</th><th scope="col">Figure</th><th scope="col" class="num">Runs</th>'
            '<th scope="col" class="num">Mean</th><th scope="col" class="num">Worst</th><th scope="col" class="num">Best</th>'
            '<th scope="col">As printed</th>')
    body = "".join(
        f'\n<tr>\n<td>{esc(r["tool"])}</td>\n<th scope="row">{esc(r["figure"])}</th>\n<td class="num">{esc(r["count"])}</td>\n'
        f'{r["figures"]}\n<td>{esc(r["printed"])}{"" if r.get("rate") else NOT_A_RATE}</td>\n</tr>'
        for r in rows)
    return _figures_table("Other tools", f'Other tools <span class="unit">({UNIT_NAME} where a rate)</span>', head, body, label)


def nvme_html(nvme):
    rows = []
    if nvme.get("model"):
        rows.append(f'<tr><th scope="row">Model</th><td>{esc(nvme["model"])}</td></tr>')
    if nvme.get("firmware"):
        rows.append(f'<tr><th scope="row">Firmware</th><td><code>{esc(nvme["firmware"])}</code></td></tr>')
    if nvme.get("pcie_link"):
        rows.append(f'<tr><th scope="row">Link</th><td>{esc(nvme["pcie_link"])}</td></tr>')
    for name in sorted(nvme.get("thresholds_c") or {}):
        rows.append(f'<tr><th scope="row">Threshold {esc(name.upper())}</th><td>{esc(nvme["thresholds_c"][name])} °C</td></tr>')
    temperature = nvme.get("temperature_c") or {}
    for key, name in (("idle", "Idle"), ("before", "Before tests"), ("max", "Highest during tests"), ("after", "After tests")):
        if temperature.get(key):
            rows.append(f'<tr><th scope="row">{name}</th><td>{esc(temperature[key])} °C</td></tr>')
    return '\n<table class="figures nvme">\n<caption>NVMe interface</caption>\n<tbody>' + "".join(rows) + "\n</tbody>\n</table>"


def source_link_html(source):
    """A source: its name linked to its http(s) address when it has one, author and date."""
    out = (f'<a href="{url_attr(source["url"])}" rel="nofollow noopener noreferrer">{esc(source.get("name"))}</a>'
           if source.get("url") else esc(source.get("name")))
    if source.get("author"):
        out += f", {esc(source['author'])}"
    if source.get("date"):
        out += f" ({esc(source['date'])})"
    return out


# Characters Hugo's templates keep in an address (Go html/template's URL normaliser); the rest are %-encoded.
_URL_KEEP = frozenset("!#$&*+,/:;=?@[]-._~%abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def url_attr(url):
    """An address from a card (validated http or https) as an href holds it: %-encoded as Hugo's templates
    normalise it, then escaped."""
    return escape("".join(c if c in _URL_KEEP else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in url))


def _facts_line(s):
    out = []
    if s.get("f3probe"):
        f3 = s["f3probe"]
        verdict = ('<span class="bad">damaged</span>' if f3.get("verdict") == "damaged" else
                   '<span class="bad">fake capacity</span>' if f3.get("fake") else '<span class="ok">capacity is real</span>')
        usable = f", {format_number(f3['usable_bytes'], 0)} usable bytes" if f3.get("usable_bytes") else ""
        announced = f" of {format_number(f3['announced_bytes'], 0)} announced" if f3.get("announced_bytes") else ""
        out.append(f'\n<p class="facts-line"><strong>f3probe:</strong> {verdict}{usable}{announced}.</p>')
    if s.get("capacity_check"):
        c = s["capacity_check"]
        verdict = '<span class="ok">all data read back</span>' if c.get("verdict") == "ok" else '<span class="bad">data lost</span>'
        written = f", {format_number(c['bytes_written'], 0)} bytes written" if c.get("bytes_written") else ""
        lost = f", {format_number(c['bytes_lost'], 0)} lost" if c.get("bytes_lost") else ""
        said = f": &ldquo;{esc(c['verdict_text'])}&rdquo;" if c.get("verdict_text") else ""
        out.append(f'\n<p class="facts-line"><strong>Capacity check ({esc(c.get("tool"))}):</strong> {verdict}{written}{lost}{said}</p>')
    return "".join(out)


def session_html(s):
    """One test session of the page model."""
    label = esc(s["label"])
    out = [f'<section class="session" id="{esc(s["dom_id"])}">\n<h2>{label}'
           + ("" if s.get("complete") else ' <span class="badge warn">incomplete</span>')
           + ("" if s.get("compare") else ' <span class="badge">not in comparisons</span>') + '</h2>\n<dl class="meta">']
    if s.get("date"):
        out.append(f"<dt>Date</dt><dd>{esc(s['date'])}</dd>")
    for key, name in (("host", "Host"), ("reader", "Reader")):
        out.append(f"\n<dt>{name}</dt><dd>{esc(s[key]) if s.get(key) else NOT_STATED}</dd>")
    if s.get("conditions"):
        out.append(f"<dt>Conditions</dt><dd>{esc(s['conditions'])}</dd>")
    if s.get("target"):
        out.append(f"<dt>Tested on</dt><dd>{esc(s['target'])}</dd>")
    if s.get("tools"):
        tools = ", ".join(esc(t.get("name")) + (f" {esc(t['version'])}" if t.get("version") else "") for t in s["tools"])
        out.append(f"<dt>Tools</dt><dd>{tools}</dd>")
    if s.get("source"):
        out.append(f"<dt>Source</dt><dd>{source_link_html(s['source'])}</dd>")
    out.append("\n</dl>")
    if s.get("notes"):
        out.append(f'<p class="notes">{esc(s["notes"])}</p>')
    if s.get("reading"):
        items = "".join(f"<li>{esc(x)}</li>" for x in s["reading"])
        out.append('\n<div class="reading">\n<h3>The reviewer\'s reading</h3>\n<p class="muted">What the source\'s author '
                   "concluded, in our words; the findings above are worked out from the runs alone.</p>\n"
                   f"<ul>{items}</ul>\n</div>")
    if s.get("headline"):
        rows = "".join(f'<tr><th scope="row">{esc(r.get("name"))}</th><td>'
                       + ('<span class="muted">not measured</span>' if r.get("value") == "not measured" else esc(r.get("value")))
                       + "</td></tr>" for r in s["headline"])
        out.append(f'\n<div class="table-scroll" tabindex="0" role="region" aria-label="The reviewer\'s summary, {label}">\n'
                   f'<table class="figures headline">\n<caption>The reviewer\'s summary</caption>\n<tbody>{rows}</tbody>\n'
                   "</table>\n</div>")
    if s.get("chart"):
        out.append(chart_html(s["chart"]))
    if s.get("stats"):
        out.append(stats_table_html(s["stats"], s["label"]))
    if s.get("other_tools_chart"):
        out.append(chart_html(s["other_tools_chart"]))
    if s.get("other_tools"):
        out.append(other_tools_html(s["other_tools"], s["label"]))
    if s.get("nvme"):
        out.append(nvme_html(s["nvme"]))
    out.append(_facts_line(s))
    if s.get("raw"):
        links = ", ".join(f'<a href="{raw_href(r["path"])}">{esc(r["name"])}</a>' for r in s["raw"])
        out.append(f'\n<p class="facts-line"><strong>Raw output of this session:</strong> {links}</p>')
    out.append("\n</section>")
    return "".join(out)


__all__ = ["session_html", "chart_html", "source_link_html", "url_attr", "esc", "raw_href", "raw_links", "UNIT_NAME"]
