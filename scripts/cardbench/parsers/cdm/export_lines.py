"""The lines of CrystalDiskMark's text exports and of its window typed out (KDiskMark's too): their patterns,
the words for reading and writing, and the site's name of each test label.

crystaldiskmark.py reads an export line by line with these; cdm_fio.py asks is_result_line of a line.
"""

import re

from ...core.subtest_names import cdm_test_name
from ...core.units import GIB_BYTES, KIB_BYTES, MIB_BYTES, size_label_from_bytes

# The words for reading and writing in the window's column headers: English and the window's translations.
READ_WORDS = ("Read", "Lesen", "Lecture", "Lectura", "Lettura", "Leitura", "Odczyt", "Lezen", "Läsning", "Čtení",
              "Okuma", "Чтение", "Читання", "読み込み", "读取", "讀取", "읽기")
WRITE_WORDS = ("Write", "Schreiben", "Écriture", "Ecriture", "Escritura", "Scrittura", "Gravação", "Escrita",
               "Zapis", "Schrijven", "Skrivning", "Zápis", "Yazma", "Запись", "Запис", "書き込み", "写入", "寫入",
               "쓰기")
OP_OF_WORD = {**{w.casefold(): "read" for w in READ_WORDS}, **{w.casefold(): "write" for w in WRITE_WORDS},
               "mix": "mix"}
_WORDS = "|".join(re.escape(w) for w in sorted(OP_OF_WORD, key=len, reverse=True))

# Possessive quantifiers (*+, ++, ?+) keep what they matched: optional parts between runs of spaces
# cannot make these backtrack in quadratic time over a long line.
# "KDiskMark: https://…" (early versions) names no version.
HEADER = re.compile(r"^\s*+(CrystalDiskMark|KDiskMark)(?:\s*+\(?+\s*+(\d[\w.]*+)|:\s)")
SECTION = re.compile(r"^\s*+\[(Read|Write|Mix)\](.*+)$")
NEW_RESULT = re.compile(
    r"^\s*+(?P<kind>SEQ|RND|Sequential|Random)\s++(?P<size>\d++)\s*+(?P<unit>KiB|MiB|GiB)\s*+"
    r"\(Q=\s*+(?P<q>\d++),\s*+T=\s*+(?P<t>\d++)\)\s*+:\s*+(?P<mbs>[\d.]++)\s*+MB/s"
    r"(?:\s*+\[\s*+(?P<iops>[\d.]++)\s*+IOPS\])?+(?:\s*+<\s*+(?P<lat>[\d.]++)\s*+us>)?+\s*+$")
OLD_RESULT = re.compile(
    r"^\s*+(?P<kind>Sequential|Random)\s++(?P<op>Read|Write)(?:\s++(?P<size>\d++)\s*+(?P<unit>KiB|KB|MiB|MB))?+\s*+"
    r"(?:\((?:Q=\s*+(?P<q>\d++),\s*+)?+T=\s*+(?P<t>\d++)\)|\(QD=\s*+(?P<qd>\d++)\))?+\s*+:\s*+(?P<mbs>[\d.]++)\s*+"
    r"MB/s(?:\s*+\[\s*+(?P<iops>[\d.]++)\s*+IOPS\])?+\s*+$")
# The window's test labels, longest first: 7/8 "SEQ1M Q8T1", 5/6 "Seq Q32T1", "4KiB Q8T8", 3/4 "4K QD32".
_LABEL = (r"(?P<label>(?:SEQ|RND)\s?+\d++\s?+(?:KiB|MiB|K|M)\s++Q\d++\s?+T\d++|Seq\s++Q32T1|4KiB\s++Q\d++T\d++"
          r"|4K\s++Q32T1|4K\s++QD32|Seq|512K|4KiB|4K)")
LABEL_LINE = re.compile(
    r"^\s*+" + _LABEL + r"\s*+[-:]?+\s*+(?P<op>" + _WORDS + r")\s*+:?+\s*+(?P<mbs>\d++(?:[.,]\d++)?+)\s*+(?:MB/s)?+"
    r"(?:\s*+\[\s*+(?P<iops>[\d.]++)\s*+IOPS\s*+\])?+(?:\s*+<\s*+(?P<lat>[\d.]++)\s*+(?:us|μs|µs)\s*+>)?+\s*+$",
    re.IGNORECASE)
TABLE_ROW = re.compile(r"^\s*+" + _LABEL
                       + r"(?:\s*+:)?+\s++(?P<values>\d++(?:[.,]\d++)?+(?:\s++\d++(?:[.,]\d++)?+){0,2})\s*+$",
                       re.IGNORECASE)
_TABLE_WORD = re.compile(r"(?<![^\W\d_])(?:" + _WORDS + r")(?![^\W\d_])", re.IGNORECASE)
LOOSE_RESULT = re.compile(r"^\s*+(SEQ|RND|Sequential|Random)\b.*\(|^\s*+(Sequential|Random) (Read|Write)\b")
# The value is stripped by the caller: a lazy (.*?) before \s*$ is quadratic over a run of spaces.
FOOTER = re.compile(r"^\s*+(Profile|Test|Date|OS|Mode|Time|Comment|Target)\s*+:(.*+)$")
UNIT_LINE = re.compile(r"^\s*+\*\s*+MB/s\s*+=\s*+(?P<bytes>[\d,.]++)\s*+byte")
FIO_VERSION = re.compile(r"Flexible I/O Tester \((fio-[^()]*+)\)")
MIX_SHARE = re.compile(r"Read\s*+(\d{1,3})\s*+%")
_UNITS = {"KiB": KIB_BYTES, "KB": KIB_BYTES, "MiB": MIB_BYTES, "MB": MIB_BYTES, "GiB": GIB_BYTES}
# The window's fixed labels of versions 3 to 6 -> (kind, block bytes, queue depth, threads).
_FIXED_LABELS = {"seq q32t1": ("SEQ", 128 * KIB_BYTES, 32, 1), "seq": ("SEQ", MIB_BYTES, 1, 1),
                 "512k": ("RND", 512 * KIB_BYTES, 1, 1), "4k": ("RND", 4096, 1, 1), "4kib": ("RND", 4096, 1, 1),
                 "4k qd32": ("RND", 4096, 32, 1), "4k q32t1": ("RND", 4096, 32, 1)}

NAMED_HEADER = re.compile(r"^\s*CrystalDiskMark \d")
_DIGIT = re.compile(r"\d")


def is_result_line(line):
    """Whether a line is a result line of a CrystalDiskMark export or of its window typed out."""
    return bool(OLD_RESULT.match(line) or NEW_RESULT.match(line) or LABEL_LINE.match(line))


def _test_name(kind, size, queue, threads):
    label = size_label_from_bytes(size)
    return cdm_test_name(kind, label, int(queue), int(threads)) if label else None


def new_style_name(match):
    kind = "SEQ" if match.group("kind") in ("SEQ", "Sequential") else "RND"
    size = int(match.group("size")) * _UNITS[match.group("unit")]
    return _test_name(kind, size, match.group("q"), match.group("t"))


def old_style_name(match):
    kind = "SEQ" if match.group("kind") == "Sequential" else "RND"
    if match.group("size"):
        size = int(match.group("size")) * _UNITS[match.group("unit")]
    elif kind == "SEQ" and match.group("q"):
        size = 128 * KIB_BYTES  # CrystalDiskMark 5/6 "Seq Q32T1" used 128 KiB blocks
    else:
        size = MIB_BYTES
    return _test_name(kind, size, match.group("q") or match.group("qd") or "1", match.group("t") or "1")


def window_test_name(label):
    """The site's name of a label in CrystalDiskMark's window: 'SEQ1M Q8T1', 'Seq Q32T1' (versions
    5/6: SEQ128K Q32T1), '4K QD32' (3/4: RND4K Q32T1), '512K' (RND512K Q1T1); None if unknown."""
    plain = " ".join(label.split())
    named = re.fullmatch(r"(SEQ|RND) ?(\d{1,6}) ?(KiB|MiB|K|M) Q(\d{1,4}) ?T(\d{1,4})", plain, re.IGNORECASE)
    if named:
        kind, size, unit, queue, threads = named.groups()
        block = int(size) * (KIB_BYTES if unit[0] in "Kk" else MIB_BYTES)
        return _test_name(kind.upper(), block, queue, threads)
    six = re.fullmatch(r"4KiB Q(\d{1,4})T(\d{1,4})", plain, re.IGNORECASE)
    if six:
        return _test_name("RND", 4096, six.group(1), six.group(2))
    fixed = _FIXED_LABELS.get(plain.casefold())
    return _test_name(*fixed) if fixed else None


def table_columns(line):
    """The ops of a header line of the window's table, in column order ("Read [MB/s]  Write [MB/s]"
    -> ["read", "write"]), or None when the line is not such a header."""
    if ":" in line or _DIGIT.search(line.replace("MB/s", "").replace("GB/s", "")):
        return None  # a footer line, a result line
    ops = [OP_OF_WORD[m.group(0).casefold()] for m in _TABLE_WORD.finditer(line)]
    return ops if "read" in ops and "write" in ops and len(ops) == len(set(ops)) else None
