"""Each card's link-preview image (og:image): its name and its headline sequential read and write, drawn as
bars, 1200 × 630 PNG, at /cards/<slug>/preview.png.

`cardbench aggregate` lists what each image shows (site/previews.json: slug, title, figures, from the card's
twin); `cardbench publish` draws the images that are not drawn yet (a file named by a digest of what it shows,
kept beside the aggregate's output, or in the folder CARDBENCH_PREVIEW_CACHE names, so an unchanged card is never
drawn again) and places each beside its page.
Drawing needs Pillow, which the site's packages include; without it no image is drawn and the pages keep
their text-only previews.
"""

import concurrent.futures
import functools
import hashlib
import json
import os
from pathlib import Path

from ..figures.formatting import format_by_size
from .bars import bar_share

WIDTH, HEIGHT = 1200, 630
BACKGROUND, TEXT, MUTED, READ, WRITE, TRACK = "#0f1623", "#e5e7eb", "#9ca3af", "#6ea8ff", "#f6a54c", "#243042"
PREVIEWS = "site/previews.json"  # in the aggregate's output: what each card's image shows
CACHE = "previews"  # beside it: the drawn images, named by digest
# A folder of drawn images several builds share (images are named by what they show, so any build may use
# any of them): the tests' many site builds, a CI cache.
SHARED_CACHE_VARIABLE = "CARDBENCH_PREVIEW_CACHE"
TOP_MB_S = 1000.0  # a full bar: above any UHS-I card, about an SD Express card's read


def preview_of(card_json):
    """What a card's image shows: its title and its headline sequential read and write, each [name, MB/s (the bar),
    "stated" or "", the figure's text]."""
    headline = card_json.get("headline") or {}
    figures = []
    for key, name in (("seq_read", "Sequential read"), ("seq_write", "Sequential write")):
        pick = headline.get(key)
        stated = "stated" if pick and pick.get("kind") == "summary" else ""
        mb_s = pick["mb_s"] if pick else None
        # the figure's text as the card page prints it (format_by_size), so the image and the page agree
        shown = "not stated" if mb_s is None else f"{format_by_size(mb_s)} MB/s" + (" (stated)" if stated else "")
        figures.append([name, mb_s, stated, shown])
    return {"slug": card_json["slug"], "title": card_json["title"], "figures": figures}


def digest(preview):
    return hashlib.sha256(json.dumps(preview, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:20]


@functools.cache
def _font(size):
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def _fitted(draw, text, size, width):
    """The text at the largest of its size and smaller that fits `width`, cut with … when even that does not."""
    while size > 28 and draw.textlength(text, font=_font(size)) > width:
        size -= 4
    font = _font(size)
    while draw.textlength(text, font=font) > width and len(text) > 1:
        text = text[:-2].rstrip() + "…"
    return text, font


def draw_png(preview):
    """The image's PNG bytes."""
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    margin = 70
    title, font = _fitted(draw, preview["title"], 64, WIDTH - 2 * margin)
    draw.text((margin, 70), title, font=font, fill=TEXT)
    label_font, figure_font = _font(34), _font(44)
    for row, ((name, mb_s, _stated, shown), colour) in enumerate(zip(preview["figures"], (READ, WRITE))):
        y = 230 + row * 150
        draw.text((margin, y), name, font=label_font, fill=MUTED)
        draw.text((WIDTH - margin - draw.textlength(shown, font=figure_font), y - 8), shown, font=figure_font,
                  fill=TEXT if mb_s is not None else MUTED)
        bar_top, bar_width = y + 56, WIDTH - 2 * margin
        draw.rounded_rectangle((margin, bar_top, margin + bar_width, bar_top + 26), radius=8, fill=TRACK)
        filled = bar_share(mb_s, TOP_MB_S) * bar_width
        if filled:
            draw.rounded_rectangle((margin, bar_top, margin + filled, bar_top + 26), radius=8, fill=colour)
    draw.text((margin, HEIGHT - 80), "cardbench · SD, microSD and SD Express card benchmarks (bars: log scale)",
              font=_font(28), fill=MUTED)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=1)  # drawn by the thousand: fast over small
    return out.getvalue()


PARALLEL_FROM = 64  # images to draw from which worker processes pay for their start


def _draw_into(item):
    preview, path = item
    temp = path.with_suffix(f".{os.getpid()}.tmp")
    temp.write_bytes(draw_png(preview))
    temp.replace(path)


def draw_previews(out_dir):
    """{slug: path of its drawn image} for every card aggregate listed, drawing only those not drawn yet; {}
    without Pillow."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        return {}
    listed = Path(out_dir) / PREVIEWS
    if not listed.is_file():
        return {}
    shared = os.environ.get(SHARED_CACHE_VARIABLE)
    cache = Path(shared) if shared else Path(out_dir).with_name(Path(out_dir).name + "." + CACHE)
    cache.mkdir(parents=True, exist_ok=True)
    drawn, missing = {}, []
    for preview in json.loads(listed.read_text(encoding="utf-8")):
        path = cache / f"{digest(preview)}.png"
        drawn[preview["slug"]] = path
        if not path.exists():
            missing.append((preview, path))
    if len(missing) >= PARALLEL_FROM:  # a first build of thousands of cards: every core draws
        with concurrent.futures.ProcessPoolExecutor() as pool:
            list(pool.map(_draw_into, missing, chunksize=32))
    else:
        for item in missing:
            _draw_into(item)
    if not shared:  # a shared folder serves other sites too: only the site's own drops what it no longer shows
        wanted = {path.name for path in drawn.values()}
        for old in cache.glob("*.png"):
            if old.name not in wanted:
                old.unlink()
    return drawn


__all__ = ["preview_of", "draw_png", "draw_previews", "PREVIEWS", "WIDTH", "HEIGHT"]
