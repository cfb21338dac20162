"""fio's normal output as job entries (text_output.py's): each job report (or group summary) with fio's first line
for the job, or, when the paste leaves that line out, the logged fio command that ran it, or neither: then its
figures are kept with the block size and depth not stated.

jobs_of(reports, headers) -> [job entry]: one per job and direction, clones of a job summed; each with its
    "notes" (a read share worked out, options read from a command, a figure fio misprinted).
"""

from ...errors import ParseError, quoted
from ...core.subtest_names import mixed_test_name
from .naming import NOT_STATED, RW_KINDS, not_stated_test, test_name
from .options import block_sizes

TOOL = "fio"


def _header_of(report, headers):
    """fio's job line for a report; else one made of the logged fio command that ran the job (its --rw,
    --bs, --iodepth, fio's defaults for those not given); else None: block size and depth not stated."""
    if "header" in report:
        if report["header"] is not None:
            report["header"]["used"] = True
        if report["header"] is not None or report["options"] is None:
            return report["header"]
    else:
        queue = [h for h in headers.get(report["name"], []) if not h.get("used")]
        if queue:
            queue[0]["used"] = True
            return queue[0]
    options = report["options"]
    if not options:
        return None
    rw = options.get("rw") or options.get("readwrite")
    rw = str(rw).split(":")[0]
    if rw not in RW_KINDS:
        return None
    try:
        read_bs, write_bs = block_sizes(options, report["line"])
        iodepth = int(options.get("iodepth", 1))
    except (ParseError, ValueError):
        return None
    return {"name": report["name"] or options.get("name") or "fio", "rw": rw, "read_bs": read_bs,
            "write_bs": write_bs, "iodepth": iodepth,
            "mix": options.get("mix"), "clones": False, "line": report["line"], "text": report["text"],
            "from_command": True,
            "numjobs": int(options["numjobs"]) if str(options.get("numjobs", "")).isdigit() else None}


def jobs_of(reports, headers):
    """One entry per job and direction: reports of the clones of a job (numjobs without group_reporting:
    fio's "..." below its job line, then one report each, one after another under one name) summed."""
    out, index = [], 0
    while index < len(reports):
        report = reports[index]
        header = _header_of(report, headers)
        clones = [report]
        while (header is not None and header["clones"] and report["jobs"] == 1 and index + len(clones) < len(reports)
               and all(reports[index + len(clones)][key] == report[key] for key in ("name", "group", "run"))):
            clones.append(reports[index + len(clones)])
        numjobs = report["jobs"] if report["jobs"] > 1 else len(clones)
        if header is not None and header.get("numjobs"):
            numjobs = header["numjobs"] if report.get("summary") or report["jobs"] == 1 else numjobs
        if header is None:
            out.extend(_not_stated(report))
        else:
            out.extend(_entries(header, clones, numjobs))
        index += len(clones)
    return out


def _not_stated(report):
    """Entries of a report whose job line is not in the paste (it starts at the report line, or holds only
    the group summary) and no logged command tells its options: kept as fio figures of their own, block
    size and depth not stated, never named or pooled as a CrystalDiskMark-style subtest."""
    ops = [d["op"] for d in report["dirs"]]
    mixed = "read" in ops and "write" in ops
    where = ("only fio's group summary" if report.get("summary") else "fio's output from the job's report line on")
    note = (f"{where} (line {report['line']}), without fio's first line for the job ('name: (g=0): rw=…, bs=…, "
            f"iodepth=…') or the command that ran it: its figures are kept as fio figures with the {NOT_STATED}, "
            "never compared with a named subtest.")
    out = []
    for direction in report["dirs"]:
        op = direction["op"]
        test = not_stated_test(op, mixed)
        out.append({"name": report["name"], "rw": None, "op": op, "bs_bytes": None, "iodepth": None,
                    "numjobs": None if report.get("summary") else report["jobs"], "test": test, "stated": False,
                    "mix_read_percent": None, "value": direction["value"], "unit": direction["unit"],
                    "iops": direction["iops"], "lat_us": direction["lat_us"], "line": direction["line"],
                    "notes": [note] + [direction["note"]] * bool(direction["note"])})
    return out


def _share_of(header, clones):
    """The read share of a mixed job: the logged command's or job file's, else the I/Os fio issued
    ("issued rwts: total=785920,262656,…": 75 %), else its reads' and writes' IOPS; with a note."""
    if header["mix"] is not None:
        return header["mix"], None
    issued = [c["issued"] for c in clones if c.get("issued")]
    dirs = [d for c in clones for d in c["dirs"]]
    if len(issued) == len(clones) and issued:
        reads, writes = sum(r for r, _ in issued), sum(w for _, w in issued)
        basis = f"the I/Os fio issued ({reads} reads, {writes} writes)"
    elif all(d["iops"] is not None for d in dirs) and dirs:
        reads = sum(d["iops"] for d in dirs if d["op"] == "read")
        writes = sum(d["iops"] for d in dirs if d["op"] == "write")
        basis = f"its reads' and writes' IOPS ({reads:g} and {writes:g})"
    else:
        raise ParseError(TOOL, f"job {quoted(header['name'])} mixes reads and writes (rw={header['rw']}) "
                               "but fio does not print its read share: paste the fio command or job file (rwmixread=)",
                         line=header["line"], text=header["text"])
    if not reads + writes:
        return 50, None
    measured = 100 * reads / (reads + writes)
    share = 5 * round(measured / 5)  # rwmixread as people set it; a random mix strays from it by a point or two
    return share, (f"job {header['name']}: its read share (rwmixread) is not in the paste; taken as {share} % from "
                   f"{basis}, {measured:.1f} % reads.")


def _entries(header, clones, numjobs):
    rw = header["rw"]
    mix, notes = None, []
    if header.get("from_command"):
        notes.append(f"job {header['name']}: fio's first line for it is not in the paste; its rw, block size and "
                     f"depth are read from the fio command logged above it (fio's defaults where it gives none).")
    if len(RW_KINDS[rw][1]) > 1:
        share, note = _share_of(header, clones)
        notes += [note] * bool(note)
        mix = share if 0 < share < 100 else None
    out = []
    for op in RW_KINDS[rw][1]:
        dirs = [d for clone in clones for d in clone["dirs"] if d["op"] == op]
        if not dirs:
            if len(RW_KINDS[rw][1]) > 1:
                continue  # a mix of 0 or 100 %: no figures in one direction
            error = max(clone["error"] for clone in clones)
            why = f"it stopped with fio error {error}" if error else "the output is cut off"
            raise ParseError(TOOL, f"job {quoted(header['name'])} has no {op} figures: {why}",
                             line=clones[-1]["line"], text=clones[-1]["text"])
        bs = header["read_bs"] if op == "read" else header["write_bs"]
        test = test_name(rw, bs, header["iodepth"], numjobs)
        if test is None:
            raise ParseError(TOOL, f"job {quoted(header['name'])}: a block size range or one not a whole number of KiB "
                                   "has no CrystalDiskMark-style name", line=header["line"], text=header["text"])
        unit = dirs[0]["unit"] if len({d["unit"] for d in dirs}) == 1 else "KiB/s"
        value = sum(d["value"] * (1024 if d["unit"] == "MiB/s" and unit == "KiB/s" else 1) for d in dirs)
        lats = [d["lat_us"] for d in dirs]
        iops = None if None in [d["iops"] for d in dirs] else sum(d["iops"] for d in dirs)
        # clones' mean latency weighted by their I/Os, as fio's group_reporting merges it
        lat = (round(sum(d["lat_us"] * d["iops"] for d in dirs) / iops, 3)
               if None not in lats and iops else (lats[0] if len(lats) == 1 else None))
        out.append({"name": header["name"], "rw": rw, "op": op, "bs_bytes": bs, "iodepth": header["iodepth"],
                    "numjobs": numjobs, "test": mixed_test_name(test, mix) if mix else test,
                    "mix_read_percent": mix, "value": round(value, 6), "unit": unit,
                    "iops": None if iops is None else round(iops, 3), "lat_us": lat, "line": dirs[0]["line"],
                    "notes": notes + [d["note"] for d in dirs if d["note"]]})
    return out
