"""Check and aggregate card files into Hugo's data, reusing earlier work for unchanged cards.

Checking (YAML, schema, rules) and aggregating a card depends only on its file, the raw outputs it
names, the code and schema, and the date (no date may lie in the future: a card that passed that
rule passes it on every later day, so only cards it failed, or a clock set back, are checked again).
So every card's result is kept in a cache file beside the output folder (<out>.cache.json, with a journal of
the entries changed since: build_cache.py): its findings and the small pieces of text it adds to the shared files
(sitedata.card_parts). A card
whose file is unchanged — same size, modification time and inode, or failing that the same SHA-256 —
is not read again; its own output files are already in place. Changed cards are checked in worker
processes (one per core) when there are many; they write the card files they make into a staging
folder (staging.py). Findings and outputs are the same as `validate_paths` + `aggregate` +
`write_outputs` on every card; as there, nothing is written while any card has an error. A build that checks
no card and publishes the same cards in the same order as the last one, whose shared files are as it left them
(size, time, inode), neither makes the shared files again nor rewrites the cache.
"""

import datetime
import gc
import hashlib
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from ..figures.aggregate import aggregate
from ..card.store.checksums import SUMS_NAME
from ..card.load import LoadedCard, load_card
from ..errors import CardFileError
from .build_cache import CacheFile, build_lock, cache_path_for
from .site_files import missing_card_files, write_site_data
from .sitedata import SHARED_FILES, card_parts, repo_commits, site_address
from ..pages.htmltemplates import compile_all
from .cards_first import write_cards_first
from .staging import place_staged, remove_stale_staging, stage_card_files, staging_dir_for
from ..core.paths import DATA_DIR, SCHEMA_PATH, raw_strings
from ..card.checks.problems import Finding
from ..card.checks.validate import check_card, cross_card_findings
from ..card.checks.site_links import project_link_findings

CACHE_VERSION = 4
PARALLEL_FROM = 64  # changed cards below this are checked in this process (starting workers costs more)
CHUNK = 100
LAST_CHUNK = 25  # the smallest chunk, towards the end: a chunk costs ~15 ms besides its cards
FUTURE_RULE = "date-not-future"  # the one rule whose verdict depends on the day
PACKAGE = Path(__file__).resolve().parents[1]  # the whole package: any change to it may change the output


@dataclass
class BuildResult:
    cards: int = 0                 # cards published (valid)
    findings: list = field(default_factory=list)
    reused: int = 0                # cards taken from the cache
    checked: int = 0               # cards read and checked again
    written: int = 0               # files written (none while there are errors)

    @property
    def errors(self):
        return sum(f.severity == "error" for f in self.findings)


def default_workers():
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _environment(cards_dir, data_dir):
    """Everything besides a card's own files and the date that its result depends on."""
    digest = hashlib.sha256(f"{CACHE_VERSION}|{Path(cards_dir).resolve()}|"
                            f"{Path(data_dir).resolve()}".encode())
    # The code, its page templates and page model schemas: a changed template changes every page.
    for source in sorted(PACKAGE.rglob("*.py")) + sorted(PACKAGE.rglob("*.j2")) + sorted(PACKAGE.rglob("*.json")) \
            + [SCHEMA_PATH]:
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    digest.update(site_address().encode())  # the JSON twins carry the site's address,
    digest.update(repo_commits().encode())  # the card pages the repository's
    return digest.hexdigest()


def _signature(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_size, st.st_ino]


def _raw_signature(data, data_dir):
    """Size, time and SHA-256 of every raw output a card names and of its folder's SHA256SUMS: the time tells an
    untouched file at once; the digest tells a file that a fresh checkout only touched (a restored build)."""
    refs = sorted(set(raw_strings(data)))
    folders = sorted({r.split("/")[1] for r in refs if r.count("/") >= 2})
    files = refs + [f"raw/{folder}/{SUMS_NAME}" for folder in folders]
    return [[name, _signature(Path(data_dir) / name), _file_sha(Path(data_dir) / name)] for name in files]


def _file_sha(path):
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


def _same_file(path, sig_then, sha_then):
    """Whether a file is as it was: the same size and time, or the same size and content."""
    sig = _signature(path)
    if sig == sig_then:
        return True
    return sig is not None and sig_then is not None and sig[1] == sig_then[1] and sha_then is not None \
        and _file_sha(path) == sha_then


def _record(finding):
    e = finding.error
    return [finding.severity, e.message, e.line, e.column, e.field, e.rule]


def _finding(record, path):
    severity, message, line, column, field_name, rule = record
    return Finding(severity, CardFileError(path, message, line=line, column=column, field=field_name, rule=rule))


def check_files(paths, today, data_dir, stage=None):
    """Check and aggregate card files. Returns [(entry, files or None)] in the order given: a valid
    card's files as {kind: text}, or with `stage` (out_dir, staging folder) written there instead
    (staging.stage_card_files) and given as the kinds staged."""
    done, valid = [], []
    for path in paths:
        entry = {"sig": _signature(path), "sha": None, "raw": [], "slug": None, "checked": today.isoformat()}
        try:
            card = load_card(path)
        except CardFileError as exc:
            entry["findings"] = [_record(Finding("error", exc))]
            done.append([entry, None])
            continue
        entry["sha"] = hashlib.sha256(card.text.encode("utf-8")).hexdigest()
        own = check_card(card, today=today, data_dir=data_dir)
        entry["findings"] = [_record(f) for f in own]
        entry["raw"] = _raw_signature(card.data, data_dir)
        done.append([entry, None])
        if not any(f.severity == "error" for f in own):
            entry["slug"], entry["slug_at"] = card.data["slug"], card.position(("slug",))
            valid.append((done[-1], card))
    if valid:
        result = aggregate([card.data for _, card in valid], data_dir)
        members = {}
        for suite in result["compare"]["suites"]:
            for member in suite["cards"]:
                members.setdefault(member["slug"], {})[suite["id"]] = member
        for (item, card), row in zip(valid, result["leaderboard"]):
            slug = row["slug"]
            item[0]["parts"], item[1] = card_parts(result["cards"][slug], row, members.get(slug, {}))
            item[1]["card"] = card.text  # the file as read and checked: the site serves this copy
            if stage:  # written here, in the worker: only the kinds' names travel back
                item[1] = stage_card_files(stage[0], stage[1], slug, item[1])
    return done


# A worker makes hundreds of thousands of small, short-lived objects per chunk (values, rows, dicts);
# the cyclic collector's default pace (every 700 allocations) spends a tenth of its time on them.
WORKER_GC_THRESHOLD = (20_000, 20, 20)


def _worker_setup():
    """In each worker process: leave what it inherited out of collections, and collect less often."""
    gc.freeze()
    gc.set_threshold(*WORKER_GC_THRESHOLD)


def chunked(paths, workers):
    """The paths in order, in chunks of CHUNK that shrink towards the end (to a quarter of what is left
    per worker, no smaller than LAST_CHUNK): the workers then finish nearly together, none left
    alone with a last whole chunk."""
    chunks, start = [], 0
    while start < len(paths):
        size = max(min(CHUNK, -(-(len(paths) - start) // (2 * workers))), min(LAST_CHUNK, CHUNK))
        chunks.append(paths[start:start + size])
        start += size
    return chunks


def _check_chunk(args):
    paths, today, data_dir, stage = args
    return check_files(paths, today, data_dir, stage)


class SiteDataBuilder:
    """Builds Hugo's data for a folder of card files; keeps what it learnt between builds."""

    def __init__(self, cards_dir, out_dir, cache_file=None, data_dir=DATA_DIR, workers=None, preview=False):
        self.cards_dir = Path(cards_dir)
        self.out_dir = Path(out_dir)
        self.cache = CacheFile(cache_file) if cache_file else None
        self.data_dir = Path(data_dir)
        self.workers = workers or default_workers()
        self.environment = None
        self.entries = {}
        self.saved_entries = False  # the cache file holds self.entries as they are now
        self.changed = set()  # names of the entries changed or removed since the cache file was last written
        self.forgotten = set()  # of those, the ones the cache on disk already records as removed (CacheFile.forget)
        # The shared files as the last build left them: the published cards' names in order, and each file's
        # signature; a build that checks no card and publishes the same cards leaves files that match alone.
        self.shared = {}
        self.written = {}  # text of each shared file as last written, so unchanged ones are not read again
        # The preview (`make serve`) writes a changed card's own files before the shared lists, and leaves the
        # all-cards runs.csv to `make site`.
        self.preview = preview
        self.staging = None  # where this build's worker processes write card files (staging.py)

    def _load_cache(self, environment):
        if self.environment == environment and (self.cache is None or self.cache.unchanged()):
            return
        self.environment, self.entries, self.shared, self.changed, self.forgotten = environment, {}, {}, set(), set()
        self.written = {}  # another build may have written the shared files since
        if self.cache:
            self.entries, self.shared = self.cache.load(environment)
        self.saved_entries = bool(self.entries)

    def save_cache(self):
        if self.cache and not self.saved_entries:
            self.cache.save(self.environment, self.entries, self.shared, self.changed)
            self.changed.clear()
            self.forgotten.clear()
            self.saved_entries = True

    def _forget_before_writing(self):
        """Card files are about to be written for the changed entries: the cache on disk drops those entries first,
        so that it holds none its card's files contradict, even if this build is stopped or never saves."""
        if self.cache and not self.changed <= self.forgotten:
            self.cache.forget(self.environment, self.changed)
            self.forgotten |= self.changed

    def _shared_signatures(self):
        return {name: _signature(self.out_dir / name) for name in SHARED_FILES}

    def _shared_intact(self, saved):
        return bool(saved) and saved == self._shared_signatures() and None not in saved.values()

    def _reusable(self, path, name, sig, today):
        entry = self.entries.get(name)
        if not entry or entry.get("sig") is None or sig is None:
            return False
        if today.isoformat() < entry.get("checked", "") or any(r[5] == FUTURE_RULE for r in entry["findings"]):
            return False  # the date rule may now decide otherwise
        if sig != entry["sig"]:
            if entry.get("sha") is None or sig[1] != entry["sig"][1]:
                return False
            try:
                with open(path, "rb") as handle:
                    same = hashlib.sha256(handle.read()).hexdigest() == entry["sha"]
            except OSError:
                return False
            if not same:
                return False
            entry["sig"] = sig  # touched, not changed
            self.changed.add(name)
            self.saved_entries = False
        return all(_same_file(self.data_dir / name, *then) for name, *then in entry.get("raw") or [])

    def _check(self, paths, today):
        if len(paths) < PARALLEL_FROM or self.workers < 2:
            return check_files(paths, today, self.data_dir)
        # The workers write the card files they make beside the output folder, on its file system;
        # they are renamed into place once the build has no error (build()).
        if self.staging is None:  # a preview build may check twice (its changed cards first)
            self.staging = staging_dir_for(self.out_dir)
            self.staging.mkdir(parents=True)
        stage = (self.out_dir, self.staging)
        chunks = [(part, today, self.data_dir, stage) for part in chunked(paths, self.workers)]
        compile_all()  # the workers inherit the compiled page templates
        with ProcessPoolExecutor(max_workers=self.workers, mp_context=get_context("fork"),
                                 initializer=_worker_setup) as pool:
            return [item for done in pool.map(_check_chunk, chunks) for item in done]

    def _check_into(self, pairs, today, files, staged):
        """Check the (path, name) pairs; keep their entries, and their card files' texts in `files` (or, made
        by worker processes, the kinds they staged in `staged`), by slug."""
        if not pairs:
            return
        self.saved_entries = False
        for (_, name), (entry, texts) in zip(pairs, self._check([Path(p) for p, _ in pairs], today), strict=True):
            self.entries[name] = entry
            self.changed.add(name)
            if isinstance(texts, dict):
                files[entry["slug"]] = texts
            elif texts is not None:
                staged[entry["slug"]] = texts

    def _published(self, listed, wrong_name):
        """(findings of every listed file, the parts of the cards to publish, in order)."""
        findings, valid = [], []
        for path, name, _ in listed:
            if path in wrong_name:
                findings.append(Finding("error", CardFileError(Path(path), "card files are named <slug>.yaml",
                                                               rule="file-name")))
                continue
            entry = self.entries[name]
            if entry["findings"]:
                findings += [_finding(r, Path(path)) for r in entry["findings"]]
            if entry.get("slug") and "parts" in entry:
                valid.append((path, entry))
        # Slugs must differ, also in case. Only the few cards that share one need the full check.
        counts = {}
        for _, entry in valid:
            key = entry["slug"].lower()
            counts[key] = counts.get(key, 0) + 1
        shared = [LoadedCard(Path(path), {"slug": entry["slug"]}, {("slug",): tuple(entry["slug_at"])}, "")
                  for path, entry in valid if counts[entry["slug"].lower()] > 1]
        cross = cross_card_findings(shared)
        bad = {f.error.path for f in cross if f.severity == "error"}
        return findings + cross, [entry["parts"] for path, entry in valid if path not in bad]

    def build(self, paths=None, today=None, save=True):
        """Check the card files (`paths`; default: those of the folder, as validate.card_paths lists
        them) and write Hugo's data unless there are errors."""
        with build_lock(self.out_dir):  # builds of one output folder take turns
            remove_stale_staging(self.out_dir)  # a killed build's
            try:
                return self._build(paths, today, save)
            finally:
                if self.staging:
                    shutil.rmtree(self.staging, ignore_errors=True)
                    self.staging = None

    def _build(self, paths, today, save):
        today = today or datetime.date.today()
        self._load_cache(_environment(self.cards_dir, self.data_dir))
        if paths is None:
            listed = list_card_files(self.cards_dir)
        else:
            listed = [(str(p), os.path.basename(p), _signature(p)) for p in sorted(Path(p) for p in paths)]
        result = BuildResult()
        # Hugo and the raw-file copy follow symbolic links: any among the inputs stops the build.
        result.findings += project_link_findings(self.data_dir, self.cards_dir)
        linked = {os.path.abspath(f.path) for f in result.findings}
        listed = [item for item in listed if os.path.abspath(item[0]) not in linked]
        wrong_name = {path for path, name, _ in listed if not name.endswith(".yaml")}
        cards = [(path, name, sig) for path, name, sig in listed if path not in wrong_name]
        names = {name for _, name, _ in cards}
        if len(self.entries) != len(names):  # forget the card files no longer there
            self.changed.update(name for name in self.entries if name not in names)
            self.entries = {name: entry for name, entry in self.entries.items() if name in names}
            self.saved_entries = False
        reuse = {path for path, name, sig in cards if self._reusable(path, name, sig, today)}
        files, staged = {}, {}
        first, checked_first, hold_lists = [], None, None
        if self.preview:  # the changed cards' pages before anything else (cards_first.py)
            first = [(path, name) for path, name, _ in cards if path not in reuse]
            self._check_into(first, today, files, staged)
            checked_first = findings, published = self._published(listed, wrong_name)
            if files and not any(f.severity == "error" for f in findings):
                self._forget_before_writing()
                hold_lists = write_cards_first(self.out_dir, published, files, self.written)
        slugs = {}
        for path, name, _ in cards:
            if path in reuse and self.entries[name].get("slug"):
                slugs[self.entries[name]["slug"]] = path
        for slug in missing_card_files(self.out_dir, slugs):
            reuse.discard(slugs[slug])
        done = {path for path, _ in first}
        stale = [(path, name) for path, name, _ in cards if path not in reuse and path not in done]
        self._check_into(stale, today, files, staged)
        result.reused, result.checked = len(reuse), len(stale) + len(first)
        findings, published = checked_first if checked_first and not stale else self._published(listed, wrong_name)
        result.findings += findings
        result.cards = len(published)
        if not result.errors:
            staging = self.staging
            place = staging and (lambda: place_staged(self.out_dir, staging, staged))
            order, previous = [p["slug"] for p in published], self.shared
            untouched = (not result.checked and not self.preview and previous.get("order") == order
                         and self._shared_intact(previous.get("files")))
            self._forget_before_writing()
            result.written = write_site_data(self.out_dir, published, files, self.written,
                                             join_all_runs=not self.preview, before_lists=hold_lists,
                                             place_staged=place, shared=not untouched)
            # the preview leaves the all-cards runs.csv alone: the next full build writes every shared file
            now = {} if self.preview else {"order": order, "files": self._shared_signatures()}
            if now != previous:
                self.shared, self.saved_entries = now, False
        if save:
            self.save_cache()
        return result


def list_card_files(cards_dir):
    """(path, name, signature) of every card file of a folder, sorted; the same files as
    validate.card_paths (every *.yaml, and *.yml / *.YAML so they are reported), read in one pass."""
    out = []
    try:
        entries = list(os.scandir(cards_dir))
    except (FileNotFoundError, NotADirectoryError):
        return out
    for entry in entries:
        name = entry.name
        if name.startswith(".") or not name.lower().endswith((".yaml", ".yml")):
            continue
        try:
            st = entry.stat()
            sig = [st.st_mtime_ns, st.st_size, st.st_ino]
        except OSError:
            sig = None
        out.append((entry.path, name, sig))
    out.sort(key=lambda item: item[1])
    return out


def build_site_data(cards_dir, out_dir, paths=None, use_cache=True, data_dir=DATA_DIR, workers=None, today=None):
    """One build: `cardbench aggregate`."""
    builder = SiteDataBuilder(cards_dir, out_dir, cache_path_for(out_dir) if use_cache else None, data_dir, workers)
    return builder.build(paths, today=today)


__all__ = ["SiteDataBuilder", "BuildResult", "build_site_data", "cache_path_for", "check_files", "list_card_files"]
