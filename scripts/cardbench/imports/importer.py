"""Bring existing benchmark output into a card file as one new session.

import_file(path, cards_dir, slug, name=None, label=None, fmt="auto", data_dir=None, date=None,
            source=None, progress=None) -> summary dict

  - Reads the file's bytes (UTF-8, or UTF-16 with a byte-order mark as CrystalDiskMark saves): a
    regular file or a symlink to one, at most MAX_BYTES and MAX_LINES; a device, FIFO, socket or
    directory is refused before it is opened. Detects the format (detect_format) unless fmt names
    one of FORMATS, parses it, and builds ONE session: a file holding N runs gives results with N
    runs each.
  - The bytes are copied to data/raw/<slug>/<session-id>/<file name> (listed in
    data/raw/<slug>/SHA256SUMS) and their sha256 goes into the session's `imports`; a file already imported for the card adds nothing
    (summary["status"] == "already imported").
  - A file that does not parse, is cut off or contradicts itself raises ParseError naming the
    line; nothing is written then, and neither is anything when the new card text would not
    validate (CardFileError).
  - A new slug creates the card: it needs `name` ("Lexar PLAY PRO 1TB"); capacity comes from the
    name ("64GB", "1TB"); form factor defaults to microSD and bus to UHS-I (SD Express when the
    name says "Express"). summary["defaults"] lists what was assumed, for the command line to show.

summary: {"status": "imported" | "already imported", "format", "card_path", "session_id", "runs",
          "entries", "raw", "sha256", "created_card", "defaults", "notes"}
"""

import ast
import datetime
import hashlib
import os
import re
import shlex
import stat
from pathlib import Path

from ..card import sessions
from ..card.transaction import card_change
from ..card.cardfile import load_card
from ..core.paths import RAW_TYPES
from ..errors import CardFileError, ParseError
from ..parsers import cdm_fio, crystaldiskmark, dd, fio_json, flashbench, kdiskmark, nvme
from ..card.validate import schema_validator

FORMATS = ("fio-json", "cdm-fio", "crystaldiskmark", "kdiskmark", "dd", "flashbench", "nvme")
DEFAULT_SOURCE = {"name": "contributor's own run (imported)"}
MAX_BYTES = 20 * 1024 * 1024
MAX_COMMAND = 4096  # a longer line is not taken for a logged dd or flashbench command
# Lines of a file, counted as str.splitlines() counts them. Tool output runs to a few thousand (fio
# json+ with many jobs: tens of thousands); the parsers take a few microseconds a line.
MAX_LINES = 200_000
_LINE_BREAKS = ("\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
MAX_SHOWN = 200  # characters of a line quoted in an error


# --- reading and detecting --------------------------------------------------------------------

_NOT_REGULAR = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"))


def printable(text):
    """str(text) with line breaks, control and format characters escaped ('\\n', '\\x1b', '\\u202e'):
    a file name printed in a message cannot move the cursor, recolour or fake a line of output."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))


def _not_regular(path, mode):
    what = next((name for test, name in _NOT_REGULAR if test(mode)), "not a regular file")
    where = (f"{printable(path)} links to {printable(os.path.realpath(path))}, which" if os.path.islink(path)
             else printable(path))
    return ParseError("import", f"{where} is {what}; give a saved tool output file")


def read_input(path, limit=MAX_BYTES):
    """Bytes of a regular file (or a symlink to one) of at most `limit` bytes; ParseError otherwise.

    Devices, FIFOs, sockets and directories are refused before they are opened (a device can have
    effects when opened, /dev/zero never ends, a FIFO blocks until a writer comes), and at most
    limit + 1 bytes are read, so a file that grows while it is read is refused too."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise ParseError("import", f"cannot read {printable(path)}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise _not_regular(path, info.st_mode)
    if info.st_size > limit:
        raise ParseError("import", f"{printable(path)} is {info.st_size} bytes; the limit is {limit}")
    try:
        # O_NONBLOCK: should the path have been swapped for a FIFO since the check, open() does not wait.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ParseError("import", f"cannot read {printable(path)}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(path, info.st_mode)
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise ParseError("import", f"cannot read {printable(path)}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if total > limit:
        raise ParseError("import", f"{printable(path)} grew past {limit} bytes while being read; the limit is {limit}")
    return b"".join(chunks)


def decode_text(raw, path="file"):
    """Text of a tool output file: UTF-8 (with or without BOM) or UTF-16 with a BOM."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    elif raw[:200].count(b"\x00") > 20:  # UTF-16 without a byte-order mark
        encoding = "utf-16-le" if raw[1:2] == b"\x00" else "utf-16-be"
    else:
        encoding = "utf-8-sig"
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        # An odd byte count, a lone surrogate or a byte that starts no UTF-8 character.
        if encoding == "utf-8-sig":
            line = raw[: exc.start].count(b"\n") + 1
        else:
            line = raw[: exc.start].decode(encoding, errors="replace").count("\n") + 1
        raise ParseError("import", f"{printable(path)} is not UTF-8 or UTF-16 text (byte {exc.start}: {exc.reason})",
                         line=line) from None


def check_length(text, path="file"):
    """ParseError when text has more than MAX_LINES lines."""
    lines = sum(text.count(c) for c in _LINE_BREAKS) - text.count("\r\n")
    lines += 1 if text and text[-1] not in _LINE_BREAKS else 0
    if lines > MAX_LINES:
        raise ParseError("import", f"{printable(path)} has {lines} lines; the limit is {MAX_LINES} "
                                   "(tool output is far shorter)")


def _brief(exc):
    """The error with the quoted line cut to MAX_SHOWN characters (it may be megabytes long)."""
    if exc.text is None or len(exc.text) <= MAX_SHOWN:
        return exc
    return ParseError(exc.tool, exc.message, line=exc.line, text=exc.text[:MAX_SHOWN] + "…")


def detect_format(text):
    lines = text.splitlines()
    if '"fio version"' in text and any(line.lstrip().startswith("{") for line in lines):
        return "fio-json"
    if any(re.match(r"^\s*KDiskMark \(", line) for line in lines):
        return "kdiskmark"
    if any(re.match(r"^\s*CrystalDiskMark \d", line) for line in lines):
        return "crystaldiskmark"
    cleaned = [cdm_fio.clean(line) for line in lines]
    if any(cdm_fio._RESULT.match(line) for line in cleaned):
        return "cdm-fio"
    if any(crystaldiskmark._OLD.match(line) or crystaldiskmark._NEW.match(line) for line in lines):
        return "crystaldiskmark"
    if any("NVME Identify Controller" in line or "Smart Log for NVME" in line or nvme._THRESHOLD.search(line)
           for line in lines):
        return "nvme"
    if any(dd._GNU_TAIL.search(line) or dd._BSD.match(line) for line in lines):
        return "dd"
    if any(flashbench._ALIGN_NEW.match(line.replace("\t", " ").strip()) or flashbench._ALIGN_OLD.match(line.strip())
           or flashbench._ROW.match(line.strip()) for line in lines):
        return "flashbench"
    first = next(((i, line) for i, line in enumerate(lines, start=1) if line.strip()), (None, None))
    raise ParseError("import", "format not recognised (fio JSON, cdm_fio.sh, CrystalDiskMark, KDiskMark, dd, "
                               "flashbench or nvme-cli output); give --format", line=first[0], text=first[1])


def check_session_size(fields):
    """ParseError when the parsed file holds more entries, or more runs of one entry, than the card
    schema lets a session have: found here, before the card text is built and checked, which for
    a hundred thousand entries takes minutes."""
    allowed = schema_validator().schema["properties"]["sessions"]["items"]["properties"]
    for key in ("results", "dd", "flashbench_open_au", "flashbench_align", "flashbench_find_fat"):
        entries = fields.get(key) or []
        rule = allowed.get(key, {})
        most = rule.get("maxItems")
        if most is not None and len(entries) > most:
            raise ParseError("import", f"the file gives {len(entries)} {key} entries; a session holds at most {most}; "
                                       "import it in parts")
        most_runs = rule.get("items", {}).get("properties", {}).get("runs", {}).get("maxItems")
        runs = max((len(entry.get("runs") or []) for entry in entries), default=0)
        if most_runs is not None and runs > most_runs:
            raise ParseError("import", f"the file gives {runs} runs of one {key} entry; a session holds at most "
                                       f"{most_runs}; import it in parts")


# --- commands found in pasted terminal logs ---------------------------------------------------

def _arithmetic(expr):
    """Integer value of shell arithmetic made of numbers and + - * / ( ); None otherwise."""
    operators = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
                 ast.FloorDiv: lambda a, b: a // b, ast.Div: lambda a, b: a // b}

    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in operators:
            return operators[type(node.op)](value(node.left), value(node.right))
        raise ValueError("not plain arithmetic")

    if len(expr) > 200:  # a logged block size or count; longer input is not worth parsing
        return None
    try:
        result = value(ast.parse(expr.strip(), mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError):
        return None
    return result if abs(result) < 10**18 else None  # str() refuses more than 4300 digits


def _shell_words(command):
    """argv of a logged command, with $(( a * b )) arithmetic worked out."""
    def arith(match):
        value = _arithmetic(match.group(1))
        return match.group(0) if value is None else str(value)
    # [^$]: a search from each "$((" stops at the next one, so a line of many is not quadratic
    command = re.sub(r"\$\(\(([^$]*?)\)\)", arith, command)
    if not any(c in command for c in "'\"\\"):
        # What shlex.split gives without quotes or escapes, fifty times faster: a log can hold 10^5 lines.
        return [word for word in re.split(r"[ \t\r\n]+", command) if word]
    try:
        return shlex.split(command, comments=False)
    except ValueError:
        return command.split()


def _logical_lines(text):
    """(line number, text) with backslash-continued lines joined."""
    out = []
    parts, start = [], None  # pieces so far; looking only at the newest keeps many continued lines linear
    for number_, line in enumerate(text.splitlines(), start=1):
        if len(parts) > 1 or (parts and parts[0]):
            piece = line.strip()
        else:
            parts, start, piece = [], number_, line
        if piece.rstrip().endswith("\\"):
            parts.append(piece.rstrip()[:-1])
            continue
        parts.append(piece)
        out.append((start, " ".join(parts)))
        parts = []
    if len(parts) > 1 or (parts and parts[0]):
        out.append((start, " ".join(parts)))
    return out


def _segments(text, is_command):
    """Split a log at command lines: [(command words or None, first line, segment text)]."""
    lines = text.splitlines()
    segments = []
    current_cmd, current_start, current_lines = None, 1, []
    for number_, logical in _logical_lines(text):
        words = is_command(logical)
        if words is not None:
            if current_lines and any(l.strip() for l in current_lines):
                segments.append((current_cmd, current_start, "\n".join(current_lines)))
            current_cmd, current_start, current_lines = words, number_, []
            continue
        if not current_lines:
            current_start = number_
        current_lines.append(logical)
    if current_lines and any(l.strip() for l in current_lines):
        segments.append((current_cmd, current_start, "\n".join(current_lines)))
    return segments or [(None, 1, "\n".join(lines))]


def _renumbered(exc, offset):
    if isinstance(exc, ParseError) and exc.line is not None:
        return ParseError(exc.tool, exc.message, line=exc.line + offset - 1, text=exc.text)
    return exc


# --- format handlers: text -> session fields --------------------------------------------------

def _from_fio(text):
    docs = fio_json.parse_all(text)
    results = sessions.results_from_fio(docs)
    return {"results": results, "tools": [{"name": "fio", "version": docs[0]["fio_version"] or "unknown"}]}, len(docs), []


def _from_cdm_fio(text):
    parsed = cdm_fio.parse(text)
    runs = parsed["runs"]
    notes = []
    sizes = {run["config"]["size"] for run in runs}
    if len(sizes) > 1:
        raise ParseError(cdm_fio.TOOL, f"runs use different sizes ({', '.join(sorted(sizes))}); import them "
                                       "separately", line=runs[-1]["line"])
    config = runs[0]["config"]
    loops = sorted({run["config"].get("loops") for run in runs if run["config"].get("loops") is not None})
    parts = [f"Size {config['size']}" + (" (script default; not in the log)" if config.get("size_assumed") else "")]
    if loops:
        parts.append("Loops " + "/".join(str(l) for l in loops))
    zeroes = sorted({run["config"].get("write_zeroes") for run in runs if "write_zeroes" in run["config"]})
    if zeroes:
        parts.append("Write Only Zeroes " + "/".join(str(z) for z in zeroes))
    notes.append("cdm_fio.sh configuration: " + ", ".join(parts) + ".")
    derived = sum(1 for run in runs for r in run["results"] if r.get("from_iops"))
    if derived:
        notes.append(f"{derived} figure(s) printed as 0 MB/s (below 1 MiB/s) were recomputed from IOPS.")
    table = [[{"test": r["test"], "op": r["op"], "value": r["value"], "iops": r["iops"]} for r in run["results"]]
             for run in runs]
    try:
        results = sessions.results_from_table(table, parsed["unit"])
    except ValueError:
        raise ParseError(cdm_fio.TOOL, "runs do not have the same subtests", line=runs[-1]["line"]) from None
    for result in results:
        result["size"] = config["size"]
    return {"results": results, "tools": [{"name": "cdm_fio.sh"}]}, len(runs), notes


def _from_cdm_like(module, text):
    exports = module.parse_all(text)
    tool = exports[0]["tool"] or module.TOOL
    table = [[{"test": r["test"], "op": r["op"], "value": r["mb_s"], "iops": r["iops"], "latency_us": r["latency_us"]}
              for r in export["results"]] for export in exports]
    try:
        results = sessions.results_from_table(table, "MB/s")
    except ValueError:
        raise ParseError(tool, "the exports in this file do not have the same subtests", line=None) from None
    for result in results:
        if exports[0]["test_size"]:
            result["size"] = exports[0]["test_size"].replace(" ", "")
    notes = []
    first = exports[0]
    described = [f"profile {first['profile']}" if first["profile"] else None,
                 f"test size {first['test_size']} x{first['test_count']}" if first["test_size"] else None,
                 f"mix {first['mix_ratio']}" if first["mix_ratio"] else None]
    notes.append(f"{tool} " + ", ".join(d for d in described if d) + ".")
    fields = {"results": results, "tools": [{"name": tool, "version": first["version"]} if first["version"] else {"name": tool}]}
    if first.get("fio_version"):
        fields["tools"].append({"name": "fio", "version": first["fio_version"]})
    if first["os"]:
        fields["host"] = first["os"][:200]
    return fields, len(exports), notes, first["date"]


def _dd_command(logical):
    if "dd" not in logical or len(logical) > MAX_COMMAND:
        return None
    words = _shell_words(logical.lstrip("$# ").strip())
    if "dd" not in words:
        return None
    args = words[words.index("dd") + 1:]
    if not any(a.startswith(("if=", "of=")) for a in args):
        return None
    return args


def _dd_description(args, line):
    opts = {}
    for arg in args:
        if "=" in arg:
            key, value = arg.split("=", 1)
            opts[key] = value.rstrip(";&|)")  # "oflag=direct;" inside a logged for-loop
    source, target = opts.get("if", ""), opts.get("of", "")
    if target == "/dev/null" or (source and not source.startswith("/dev/zero") and not source.startswith("/dev/urandom")
                                  and target in ("", "/dev/null")):
        op, subject = "read", source
    elif source in ("/dev/zero", "/dev/urandom", "/dev/random"):
        op, subject = "write", target
    else:
        raise ParseError("dd", "cannot tell whether this dd command reads or writes the card", line=line)
    flags = []
    for key in ("iflag", "oflag"):
        for flag in opts.get(key, "").split(","):
            if flag in ("direct", "dsync", "sync", "nocache", "fullblock") and flag not in flags:
                flags.append(flag)
    block = opts.get("bs", "512")
    block = re.sub(r"(?i)^(\d+)([kmgt])$", lambda m: m.group(1) + m.group(2).upper(), block)
    # str.isdigit() accepts "²", which int() refuses, and int() refuses more than 4300 digits
    count = int(opts["count"]) if re.fullmatch(r"[0-9]{1,18}", opts.get("count", "")) else None
    return {"op": op, "block_size": block, "count": count, "flags": flags or None,
            "target": "device" if subject.startswith("/dev/") else "file"}


def _from_dd(text):
    entries, runs = [], 0
    segments = _segments(text, _dd_command)
    for args, start, segment in segments:
        try:
            parsed = dd.parse(segment)
        except ParseError as exc:
            if args is None and len(segments) > 1:
                continue  # text before the first command
            raise _renumbered(exc, start) from None
        if args is None:
            raise ParseError("dd", "the dd command is not in the file, so read/write and block size are unknown; "
                                   "put the command line (e.g. '$ dd if=/dev/sdX of=/dev/null bs=4M count=256 "
                                   "iflag=direct') above its output", line=start)
        described = _dd_description(args, start)
        command = "dd " + " ".join(args)
        entries.append(sessions.dd_entry(described["op"], described["block_size"], parsed, count=described["count"],
                                         flags=described["flags"], target=described["target"],
                                         command=command[:2000]))
        runs = max(runs, len(parsed["runs"]))
    return {"dd": entries, "tools": [{"name": "dd"}]}, runs, []


def _flashbench_command(logical):
    if "flashbench" not in logical or len(logical) > MAX_COMMAND:
        return None
    words = _shell_words(logical.lstrip("$# ").strip())
    if not words or not any(w.endswith("flashbench") for w in words[:3]):
        return None
    return words[[i for i, w in enumerate(words) if w.endswith("flashbench")][0] + 1:]


def _flashbench_options(args):
    opts = {"mode": "sequential", "open_au": None, "erase": None, "block": None, "count": None, "offset": None}
    i = 0
    while i < len(args):
        arg = args[i]
        name, _, value = arg.partition("=")
        def take():
            nonlocal i
            if value:
                return value
            i += 1
            return args[i] if i < len(args) else ""
        if name in ("-r", "--random"):
            opts["mode"] = "random"
        elif name == "--open-au-nr":
            opts["open_au"] = int(take())
        elif name in ("-e", "--erasesize"):
            opts["erase"] = int(take())
        elif name in ("-b", "--blocksize"):
            opts["block"] = int(take())
        elif name in ("-c", "--count"):
            opts["count"] = int(take())
        elif name == "--offset":
            opts["offset"] = int(take())
        elif name in ("-o", "--out", "--fat-nr", "--scatter-order", "--scatter-span"):
            take()
        i += 1
    return opts


def _from_flashbench(text):
    fields = {"flashbench_open_au": [], "flashbench_align": [], "flashbench_find_fat": []}
    for args, start, segment in _segments(text, _flashbench_command):
        try:
            parsed = flashbench.parse(segment)
        except ParseError as exc:
            raise _renumbered(exc, start) from None
        try:
            opts = _flashbench_options(args or [])
        except ValueError:
            raise ParseError("flashbench", "command options not understood", line=start) from None
        command = ("flashbench " + " ".join(args))[:2000] if args else None
        if parsed["kind"] == "align":
            block = (opts["block"] or 16384) if args else None  # flashbench's default -b is 16 KiB
            fields["flashbench_align"].append(sessions.align_entry(parsed, block,
                                                                   opts["count"], command))
        elif parsed["kind"] == "find_fat":
            fields["flashbench_find_fat"].append(sessions.find_fat_entry(parsed, opts["erase"], opts["block"], command))
        else:
            if not opts["open_au"]:
                raise ParseError("flashbench", "an --open-au sweep needs its command line (with --open-au-nr) above "
                                               "it in the file", line=start)
            fields["flashbench_open_au"].append(sessions.open_au_entry(parsed, opts["mode"], opts["open_au"],
                                                                       opts["erase"], opts["block"], command,
                                                                       offset_bytes=opts["offset"]))
    fields = {k: v for k, v in fields.items() if v}
    fields["tools"] = [{"name": "flashbench"}]
    return fields, 1, []


_NVME_START = re.compile(r"^(NVME Identify Controller|Smart Log for NVME device|get-feature:)")


def _from_nvme(text):
    blocks, current = [], []
    for line in text.splitlines():
        if _NVME_START.match(line) and current:
            blocks.append("\n".join(current))
            current = []
        current.append(line)
    blocks.append("\n".join(current))
    id_ctrl, features, temperatures = None, {"thresholds_c": {}}, []
    for block in blocks:
        if not block.strip():
            continue
        parsed = nvme.parse(block)
        if parsed["kind"] == "id_ctrl":
            id_ctrl = parsed
        elif parsed["kind"] == "features":
            features["thresholds_c"].update(parsed["thresholds_c"])
        else:
            temperatures.append(parsed["temperature_c"])
    temperature = None
    if temperatures:
        # readings in file order: the first before the tests, the last after them
        temperature = {"before": temperatures[0], "max": max(temperatures)}
        if len(temperatures) > 1:
            temperature["after"] = temperatures[-1]
    entry = sessions.nvme_entry(id_ctrl, features if features["thresholds_c"] else None, temperature)
    return {"nvme": entry, "tools": [{"name": "nvme-cli"}]}, 1, []


# --- cards ------------------------------------------------------------------------------------

def capacity_from_name(name):
    match = re.search(r"(\d+(?:\.\d+)?)\s*(GB|TB|G|T)\b", name, re.IGNORECASE)
    if not match:
        return None
    value = float(match.group(1)) * (1000 if match.group(2).upper().startswith("T") else 1)
    return int(value) if value.is_integer() else value


def card_for_name(slug, name, source=None, path=None):
    """A new card dict from a display name, and the defaults assumed ({field: (value, why)})."""
    path = path or f"data/cards/{slug}.yaml"
    if not name:
        raise CardFileError(path, "card does not exist yet; give its name (--name \"Lexar PLAY PRO 1TB\") to create it")
    capacity = capacity_from_name(name)
    if capacity is None:
        raise CardFileError(path, f"cannot tell the capacity from the name {name!r}; include it like '64GB' or "
                                  "'1TB'", field="capacity_gb")
    defaults = {"capacity_gb": (capacity, "from the name")}
    lowered = name.lower()
    if "express" in lowered:
        bus = "SD Express"
        defaults["bus"] = (bus, "the name says Express")
    elif re.search(r"uhs-?ii\b", lowered):
        bus = "UHS-II"
        defaults["bus"] = (bus, "from the name")
    else:
        bus = "UHS-I"
        defaults["bus"] = (bus, "default")
    form_factor = "microSD"
    defaults["form_factor"] = (form_factor, "default")
    card = sessions.new_card(slug, name, capacity, form_factor, bus, source or DEFAULT_SOURCE)
    return card, defaults


def _safe_file_name(name):
    """The raw copy's name: plain characters, and an inert text type (results.html -> results.html.txt),
    because the site serves raw files as they are."""
    cleaned = (re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "import")[:100]
    return cleaned if Path(cleaned).suffix.lower() in RAW_TYPES else f"{cleaned}.txt"


# --- the import -------------------------------------------------------------------------------

def import_file(path, cards_dir, slug, name=None, label=None, fmt="auto", data_dir=None, date=None, source=None,
                progress=None):
    say = progress or (lambda message: None)
    path = Path(path)
    cards_dir = Path(cards_dir)
    data_dir = Path(data_dir) if data_dir is not None else cards_dir.parent
    raw = read_input(path)
    digest = hashlib.sha256(raw).hexdigest()
    card_path = sessions.card_path(cards_dir, slug)
    card_data = load_card(card_path).data if card_path.exists() else None
    for session in (card_data or {}).get("sessions") or []:
        if isinstance(session, dict) and digest in (session.get("imports") or []):
            return _already_imported(card_path, session, digest)

    text = decode_text(raw, path)
    check_length(text, path)
    if fmt in (None, "", "auto"):
        try:
            fmt = detect_format(text)
        except ParseError as exc:
            raise _brief(exc) from None
    elif fmt not in FORMATS:
        raise ParseError("import", f"unknown format {fmt!r}; one of: auto, {', '.join(FORMATS)}")
    say(f"{printable(path.name)}: {fmt}")

    new_card = None
    defaults = {}
    if card_data is None:
        new_card, defaults = card_for_name(slug, name, source, card_path)

    day = date or datetime.date.today().isoformat()
    # The name's line breaks and invisible characters would make the label invalid: escaped instead.
    label = label or f"Imported {printable(path.name)}"[:200]
    try:
        if fmt in ("crystaldiskmark", "kdiskmark"):
            module = crystaldiskmark if fmt == "crystaldiskmark" else kdiskmark
            fields, runs, notes, export_date = _from_cdm_like(module, text)
            if export_date and not date and export_date <= datetime.date.today().isoformat():
                day = export_date  # the export says when it ran
        else:
            handler = {"fio-json": _from_fio, "cdm-fio": _from_cdm_fio, "dd": _from_dd,
                       "flashbench": _from_flashbench, "nvme": _from_nvme}[fmt]
            fields, runs, notes = handler(text)
    except ParseError as exc:
        raise _brief(exc) from None
    check_session_size(fields)

    file_name = _safe_file_name(path.name)
    with card_change(data_dir, slug, on_wait=say) as change:
        # Checked again under the card's lock: a parallel import of the same file may have landed.
        earlier = change.session_with_import(digest)
        if earlier is not None:
            return _already_imported(change.path, earlier, digest)
        if change.loaded is None and new_card is None:
            new_card, defaults = card_for_name(slug, name, source, change.path)
        session_id = change.unique_session_id(sessions.session_id(day, label))
        raw_rel = f"raw/{slug}/{session_id}/{file_name}"
        session = {"id": session_id, "label": label, "date": day}
        session.update({k: v for k, v in fields.items() if k in ("host",)})
        session["source"] = dict(source or DEFAULT_SOURCE)
        session["tools"] = fields.get("tools")
        if notes:
            session["notes"] = " ".join(notes)[:5000]
        for key in ("results", "dd", "flashbench_open_au", "flashbench_align", "flashbench_find_fat", "nvme"):
            if key in fields:
                session[key] = fields[key]
        session["imports"] = [digest]
        session["raw"] = [raw_rel]
        change.add_raw_bytes(f"{session_id}/{file_name}", raw)
        change.append_session(session, new_card=new_card if change.loaded is None else None)
        card_file = change.commit()
    entries = sum(len(session.get(k) or []) for k in ("results", "dd", "flashbench_open_au", "flashbench_align",
                                                       "flashbench_find_fat")) + (1 if "nvme" in session else 0)
    say(f"{card_file}: session {session_id}")
    return {"status": "imported", "format": fmt, "card_path": str(card_file), "session_id": session_id, "runs": runs,
            "entries": entries, "raw": [raw_rel], "sha256": digest, "created_card": change.loaded is None,
            "defaults": defaults if change.loaded is None else {}, "notes": notes}


def _already_imported(card_file, session, digest):
    return {"status": "already imported", "format": None, "card_path": str(card_file),
            "session_id": session.get("id"), "runs": 0, "entries": 0, "raw": [], "sha256": digest,
            "created_card": False, "defaults": {}, "notes": []}

