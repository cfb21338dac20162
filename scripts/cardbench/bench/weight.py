"""Size of the built site and what one page costs to load (gzip, as a web server would send it)."""

import gzip
import os
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

GZIP_LEVEL = 6  # the usual web server setting


def gzip_size(data):
    return len(gzip.compress(data, GZIP_LEVEL, mtime=0))


def tree_size(root):
    """(bytes, files) of a folder."""
    total = files = 0
    for folder, _, names in os.walk(root):
        for name in names:
            total += os.path.getsize(os.path.join(folder, name))
            files += 1
    return total, files


class _Assets(HTMLParser):
    """Scripts and stylesheets a page loads."""

    def __init__(self):
        super().__init__()
        self.urls = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("src"):
            self.urls.append(("script", attrs["src"]))
        elif tag == "link" and "stylesheet" in (attrs.get("rel") or "").split() and attrs.get("href"):
            self.urls.append(("style", attrs["href"]))


@dataclass
class Part:
    kind: str  # html, script, style, data
    path: str
    raw: int
    gzip: int


def public_file(public, url):
    """The file of public/ a site-relative URL names."""
    path = urlsplit(url).path.lstrip("/")
    target = Path(public) / path
    return target / "index.html" if path.endswith("/") or not path else target


def page_parts(public, page_url, fetched=()):
    """Every part of a page's load: its HTML, the scripts and styles it names, and `fetched` data URLs."""
    html_path = public_file(public, page_url)
    html = html_path.read_bytes()
    parser = _Assets()
    parser.feed(html.decode("utf-8"))
    parts = [Part("html", page_url, len(html), gzip_size(html))]
    for kind, url in parser.urls + [("data", url) for url in fetched]:
        data = public_file(public, url).read_bytes()
        parts.append(Part(kind, urlsplit(url).path, len(data), gzip_size(data)))
    return parts


__all__ = ["page_parts", "tree_size", "gzip_size", "Part", "public_file"]
