"""CrystalDiskMark-style results -> session fields: cdm_fio.sh logs (MiB/s), CrystalDiskMark exports
and copies of its window (MB/s), KDiskMark exports (kKiB/s: its "MB/s" is fio's KiB/s ÷ 1000). Each
run or export in the file is one run of every subtest; figures are stored as printed, in their own
unit, and the site converts them. The parsers (cdm_fio, crystaldiskmark, kdiskmark) call these from
their to_session(); crystaldiskmark.py would pass 400 lines with them.
"""

from ...errors import ParseError
from ..card_entries import results_from_table
from ..fields import SessionFields


def cdm_fio_session(parsed, tool):
    """cdm_fio.sh runs (cdm_fio.parse) -> session fields: every run one run of each subtest,
    in MiB/s, with the run's Size; `tool` names the script in errors."""
    runs = parsed["runs"]
    sizes = {run["config"]["size"] for run in runs}
    if len(sizes) > 1:
        raise ParseError(tool, f"runs use different sizes ({', '.join(sorted(sizes))}); import them "
                                       "separately", line=runs[-1]["line"])
    config = runs[0]["config"]
    table = [[{"test": r["test"], "op": r["op"], "value": r["value"], "iops": r["iops"]} for r in run["results"]]
             for run in runs]
    try:
        results = results_from_table(table, parsed["unit"])
    except ValueError:
        raise ParseError(tool, "runs do not have the same subtests", line=runs[-1]["line"]) from None
    for result in results:
        result["size"] = config["size"]
    notes = _cdm_fio_notes(runs)
    if parsed.get("variant") == "fiomark":
        notes.append("Its result lines print '[ N IOPS]': cdm_fio.sh's fiomark variant, whose 'MB/s' is fio's KiB/s "
                     "÷ 1000 (1.024 MB/s), floored; its figures are kept in that unit, kKiB/s.")
    return SessionFields(tools=[{"name": "cdm_fio.sh"}], measurements={"results": results}, runs=len(runs),
                         notes=notes, assumption=_size_assumption(config))


def _size_assumption(config):
    """How the run's Size was come by, when the log does not state it (the tests' names hang on it)."""
    if config.get("size_assumed"):
        return (f"Size {config['size']}, the script's default, for the Sequential block sizes: the log has no "
                f"Configuration line ({config['size_basis']}); add it if the script ran with another Size")
    if config.get("size_inferred"):
        return (f"Size {config['size']} for the Sequential block sizes, read from {config['size_basis']} (the log "
                "has no Configuration line)")
    return None


def _cdm_fio_notes(runs):
    """The runs' configuration (the script's Size, Loops, Write Only Zeroes) and the figures recomputed."""
    config = runs[0]["config"]
    how = (" (script default; not in the log: " + config["size_basis"] + ")" if config.get("size_assumed") else
           " (not in the log; from " + config["size_basis"] + ")" if config.get("size_inferred") else "")
    parts = [f"Size {config['size']}{how}"]
    loops = sorted({run["config"].get("loops") for run in runs if run["config"].get("loops") is not None})
    if loops:
        parts.append("Loops " + "/".join(str(loop) for loop in loops))
    zeroes = sorted({run["config"].get("write_zeroes") for run in runs if "write_zeroes" in run["config"]})
    if zeroes:
        parts.append("Write Only Zeroes " + "/".join(str(z) for z in zeroes))
    notes = ["cdm_fio.sh configuration: " + ", ".join(parts) + "."]
    derived = sum(1 for run in runs for r in run["results"] if r.get("from_iops"))
    if derived:
        notes.append(f"{derived} figure(s) printed as 0 MB/s (below 1 MiB/s) were recomputed from IOPS.")
    return notes


def exports_session(exports, default_tool):
    """CrystalDiskMark or KDiskMark exports (crystaldiskmark.parse_all) -> session fields: each
    export one run of every subtest, in the unit it states; default_tool names the tool an export
    does not name."""
    first = exports[0]
    tool = first["tool"] or default_tool
    units = {export["unit"] for export in exports}
    if len(units) > 1:
        raise ParseError(tool, f"the exports in this file state different units ({', '.join(sorted(units))}); "
                               "import them separately", line=None)
    table = [[{"test": r["test"], "op": r["op"], "value": r["value"], "iops": r["iops"], "latency_us": r["latency_us"]}
              for r in export["results"]] for export in exports]
    try:
        results = results_from_table(table, units.pop())
    except ValueError:
        raise ParseError(tool, "the exports in this file do not have the same subtests", line=None) from None
    for result in results:
        if first["test_size"]:
            result["size"] = first["test_size"].replace(" ", "")
        if result["op"] == "mix" and first["mix_read_percent"] is not None:
            result["mix_read_percent"] = first["mix_read_percent"]
    tools = [{"name": tool, "version": first["version"]} if first["version"] else {"name": tool}]
    if first.get("fio_version"):
        tools.append({"name": "fio", "version": first["fio_version"]})
    return SessionFields(tools=tools, measurements={"results": results}, runs=len(exports),
                         notes=_export_notes(tool, exports),
                         date=first["date"], host=first["os"][:200] if first["os"] else None)


def _export_notes(tool, exports):
    first = exports[0]
    described = [f"profile {first['profile']}" if first["profile"] else None,
                 f"test size {first['test_size']} x{first['test_count']}" if first["test_size"] else None,
                 f"mix {first['mix_ratio']}" if first["mix_ratio"] else None,
                 "typed out from its window" if first["layout"] == "window" else None]
    described = [d for d in described if d]
    notes = [f"{tool} " + (", ".join(described) if described else "results") + "."]
    if first["unit"] == "kKiB/s":
        notes.append("KDiskMark's 'MB/s' is fio's KiB/s ÷ 1000 (1.024 MB/s); its figures are kept in that unit, "
                     "kKiB/s.")
    elif first["unit"] == "MiB/s":
        notes.append(f"{tool} states MB/s = 1,048,576 bytes/s here; its figures are kept as MiB/s.")
    for number, export in enumerate(exports, start=1):
        which = f"export {number}" if len(exports) > 1 else "the text"
        if export["missing"]:
            notes.append(f"Missing from {which}: {'; '.join(export['missing'])}.")
        if export["not_run"]:
            notes.append(f"Printed as 0.000 in {which}, so not run and left out: {', '.join(export['not_run'])}.")
    return notes
