"""The lists of every card as finished HTML (the cards section's list too), above all the home page's
leaderboard rows: one row per card, written once when the card is
aggregated, joined in rank order (sitedata.site_texts), placed by layouts/home.html as one piece. At
thousands of cards, running the row template for each card made the home page the slowest page of
the build.

Every text a card supplies (title, brand, markings, hosts, readers, source, the bases of its figures)
goes through html.escape here, quotes included, as Hugo's templates escaped it. Addresses start with
BASE, which the template replaces with the site's own path (relURL): escaped text never holds "<", so
only these placeholders are replaced.
"""

import json
from html import escape

from .figurehtml import BASE, value_text

RANK_GROUPS = ("measured", "stated", "none")  # measured sequential reads first, then stated ones, then none


def _cell(i, cell, stated, other):
    if other:
        return ('<td class="num bar" data-value=""><span class="muted" title="Not a RND4K Q1T1 run '
                f'({escape(cell["from"])}): on the card\'s page">–</span></td>')
    head = f'<td class="num bar{" stated" if stated else ""}" data-value="{value_text(cell["value"]) if cell else ""}"'
    head += ' data-stated="1">' if stated else ">"
    if not cell:
        return head + '<span class="muted">–</span></td>'
    basis = escape(cell["from"])
    body = f'<span title="{basis}">{escape(cell["text"])}</span>'
    if stated:
        body += f'<span class="stated-mark" title="{basis}">stated</span>'
        if i == 0:
            body += '<span class="instead">ranked after measured figures</span>'
    return head + body + "</td>"


def _data(value):
    return escape(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def leader_row_html(row):
    """One leaderboard row (pagemodel.leader_row with the card's hosts and readers) as a <tr>."""
    marks = " ".join(row["markings"])
    search = " ".join((row["title"], row["brand"], row["bus"], row["form_factor"], marks, row["slug"]))
    out = [f'<tr data-form_factor="{escape(row["form_factor"])}" data-bus="{escape(row["bus"])}" '
           f'data-brand="{escape(row["brand"])}" data-hosts="{_data(row.get("hosts") or [])}" '
           f'data-readers="{_data(row.get("readers") or [])}" data-search="{escape(search)}">',
           f'<th scope="row"><a href="{BASE}cards/{escape(row["slug"])}/">{escape(row["title"])}</a>']
    if row["markings"]:
        out.append(f'<br><span class="marks">{escape(marks)}</span>')
    if row.get("per_price"):
        out.append(f'<br><span class="marks per-price" title="{escape(row["per_price"]["from"])}">'
                   f'{escape(row["per_price"]["text"])}</span>')
    out.append(f'</th><td>{escape(row["bus"])}</td>')
    stated, other = row.get("stated_cells") or [], row.get("other_test_cells") or []
    for i, cell in enumerate(row["cells"]):
        out.append(_cell(i, cell, i < len(stated) and stated[i], i < len(other) and other[i]))
    read, write = row.get("claimed_read"), row.get("claimed_write")
    out.append(f'<td class="num" data-value="{value_text(read)}">{value_text(read) if read else "–"} / '
               f'{value_text(write) if write else "–"}</td>')
    if row.get("runs_stated"):
        charted = f'; its page charts {escape(row["charted"])}' if row.get("charted") else ""
        out.append(f'<td class="num" data-value=""><span class="stated-mark">stated</span>'
                   f'<span class="instead">no repeated runs{charted}</span></td>')
    else:
        instead = (f'<span class="instead">no repeated runs; measured with {escape(row["instead"])}</span>'
                   if row.get("instead") else "")
        out.append(f'<td class="num" data-value="{value_text(row.get("runs"))}">{value_text(row.get("runs"))}{instead}</td>')
    out.append(f'<td>{escape(row["source"])}</td></tr>')
    return "".join(out)


def card_list_html(parts):
    """The cards section's list: every card by slug, linked, with its bus."""
    return "".join(f'\n<li><a href="{BASE}cards/{escape(p["slug"])}/">{escape(p["title"])}</a> '
                   f'<span class="muted">{escape(p["bus"])}</span></li>' for p in sorted(parts, key=lambda p: p["slug"]))


def ranked(parts):
    """Cards' parts in the leaderboard's order: by rank group, then by rank, fastest first; ties keep the
    order given (by title)."""
    group = {name: i for i, name in enumerate(RANK_GROUPS)}
    return sorted(parts, key=lambda p: (group[p["rank_group"]], -p["rank"]))


__all__ = ["leader_row_html", "card_list_html", "ranked", "value_text", "BASE", "RANK_GROUPS"]
