"""Parsed tool output as card-file entries: every builder returns a dict that validates against
data/schema/card.schema.json as an item of the session field named in brackets; optional arguments
left as None are left out. Pure functions: the tool modules' to_session() and the collector use them.

  results_from_fio(parsed_list, command=None, raw=None) -> [result]   [results]
      parsed_list: fio_json.parse() dicts, one per fio run, in run order. Jobs are grouped by
      (test, op) in order of first appearance; "runs" holds each job's mb_s (unit "MB/s") of every
      run, "iops" and "latency_us" lists are parallel to it (a latency statistic is kept only
      when every run reported it).
  results_from_table(runs, unit, command=None, raw=None) -> [result]  [results]
      runs: one list per run of {"test", "op", "value"} (+ optional "iops", "latency_us" number);
      for cdm_fio.sh, CrystalDiskMark and KDiskMark figures. Every run must have the same subtests.
  dd_entry(op, block_size, parsed_runs, count=None, flags=None, target=None, command=None, raw=None)  [dd]
  dd_sweep_entry(op, points, flags=None, target=None, command=None, raw=None)       [dd_sweeps]
  fill_entry(op, spans, command=None, raw=None, max_points=FILL_MAX_POINTS)        [fill]
      spans from bwlog_spans() (a fio bandwidth log) or progress_spans() (dd's status=progress).
  open_au_entry(...), align_entry(...), find_fat_entry(...)                          [flashbench_*]
  f3probe_entry(parsed, raw=None)                                                   [f3probe]
  nvme_entry(id_ctrl=None, features=None, temperature_c=None, pcie_link=None, raw=None)  [nvme]
  tool_result_entry(tool, test, op, unit, runs, block_size=None, …)               [tool_results]
  capacity_check_entry(tool, verdict, verdict_text, bytes_written=None, …)          [capacity_check]
"""

import math

from ..core.units import bytes_from_kib, gb_from_bytes, mb_from_bytes, s_from_ms
from ..errors import ParseError


def _drop_none(entry):
    return {key: value for key, value in entry.items() if value is not None}


def _num(value, digits=6):
    """Round away float noise (0.0042000000000000001) without losing the figure printed."""
    value = round(float(value), digits)
    return int(value) if value.is_integer() else value


LATENCY_STATS = ("mean", "p50", "p90", "p99", "p99_9", "max")


# --- results (CrystalDiskMark-style subtests) -------------------------------------------------

def results_from_fio(parsed_list, command=None, raw=None):
    groups = {}
    for run_index, parsed in enumerate(parsed_list):
        seen = set()
        for job in parsed["jobs"]:
            if job.get("test") is None:
                raise ParseError("fio", f"job '{job['name']}': block size {job.get('bs_bytes')} has no "
                                        "CrystalDiskMark-style name (needs a whole number of KiB)",
                                 line=job.get("line"))
            if not job.get("bw_bytes"):
                raise ParseError("fio", f"job '{job['name']}' measured no {job['op']} I/O "
                                        f"(fio error {job.get('error', 0)})", line=job.get("line"))
            key = (job["test"], job["op"])
            if key in seen:
                raise ParseError("fio", f"{job['test']} {job['op']} appears twice in one fio run; "
                                        "give the jobs different block sizes, depths or thread counts",
                                 line=job.get("line"))
            seen.add(key)
            groups.setdefault(key, []).append((run_index, job))
    results = []
    for (test, op), jobs in groups.items():
        result = {"test": test, "op": op, "unit": "MB/s",
                  "runs": [_num(job["mb_s"]) for _, job in jobs],
                  "iops": [_num(job["iops"], 3) for _, job in jobs]}
        latency = {}
        for stat in LATENCY_STATS:
            values = [(job.get("lat_us") or {}).get(stat) for _, job in jobs]
            if all(v is not None for v in values):
                latency[stat] = [_num(v, 3) for v in values]
        if latency:
            result["latency_us"] = latency
        sizes = {job.get("size") for _, job in jobs}
        if len(sizes) == 1 and None not in sizes:
            result["size"] = str(sizes.pop())[:40]
        results.append(_with_provenance(result, command, raw))
    return results


def _with_provenance(entry, command=None, raw=None):
    """Add the command that produced an entry and its raw outputs, when known."""
    if command:
        entry["command"] = command
    if raw:
        entry["raw"] = list(raw)
    return entry


def results_from_table(runs, unit, command=None, raw=None):
    if not runs:
        raise ValueError("no runs")
    order = [(r["test"], r["op"]) for r in runs[0]]
    results = {key: {"test": key[0], "op": key[1], "unit": unit, "runs": []} for key in order}
    extras = {key: {"iops": [], "latency_us": []} for key in order}
    for run in runs:
        keys = [(r["test"], r["op"]) for r in run]
        if sorted(keys) != sorted(order):
            raise ValueError("runs do not have the same subtests")
        for r in run:
            key = (r["test"], r["op"])
            results[key]["runs"].append(_num(r["value"]))
            extras[key]["iops"].append(r.get("iops"))
            extras[key]["latency_us"].append(r.get("latency_us"))
    out = []
    for key in order:
        result = results[key]
        if all(v is not None for v in extras[key]["iops"]):
            result["iops"] = [_num(v, 3) for v in extras[key]["iops"]]
        if all(v is not None for v in extras[key]["latency_us"]):
            result["latency_us"] = {"mean": [_num(v, 3) for v in extras[key]["latency_us"]]}
        out.append(_with_provenance(result, command, raw))
    return out


# --- dd ---------------------------------------------------------------------------------------

def dd_entry(op, block_size, parsed_runs, count=None, flags=None, target=None, command=None, raw=None):
    runs = parsed_runs["runs"] if isinstance(parsed_runs, dict) else list(parsed_runs)
    if not runs:
        raise ValueError("no dd runs")
    sizes = {run["bytes"] for run in runs}
    return _drop_none({
        "op": op,
        "block_size": str(block_size) if block_size is not None else None,
        "count": count,
        "flags": list(flags) if flags else None,
        "target": target,
        "block_size_stated": False if block_size is None else None,  # dd output alone, no records lines
        "unit": "MB/s",
        "runs": [_num(run["mb_s"]) for run in runs],
        "seconds": [_num(run["seconds"]) for run in runs],
        "bytes": sizes.pop() if len(sizes) == 1 and runs[0]["bytes"] > 0 else None,
        "command": command,
        "raw": list(raw) if raw else None,
    })


def dd_sweep_entry(op, points, flags=None, target=None, command=None, raw=None):
    out = []
    for point in points:
        if isinstance(point, dict):
            size, value = point["block_size_bytes"], point["value"]
        else:
            size, value = point
            if isinstance(value, dict):
                value = value["runs"][-1]["mb_s"] if "runs" in value else value["mb_s"]
        out.append({"block_size_bytes": size, "value": _num(value)})
    return _drop_none({"op": op, "flags": list(flags) if flags else None, "target": target, "unit": "MB/s",
                       "points": out, "command": command, "raw": list(raw) if raw else None})


# --- fills ------------------------------------------------------------------------------------

FILL_MAX_POINTS = 1000  # a card file keeps at most this many points of a fill; its raw log keeps every sample


def bwlog_spans(samples, op="write", total_bytes=None, total_seconds=None):
    """[(bytes, seconds)] of one direction of fio_bwlog.parse() samples: each sample's bytes are its
    rate (KiB/s) times its interval. total_bytes/total_seconds (fio's JSON summary) add the last
    partial interval that the log leaves out."""
    spans, previous_ms = [], 0
    for sample in samples:
        if sample["op"] != op or sample["ms"] <= previous_ms:
            continue
        seconds = s_from_ms(sample["ms"] - previous_ms)
        spans.append((bytes_from_kib(sample["kib_s"]) * seconds, seconds))
        previous_ms = sample["ms"]
    written = sum(b for b, _ in spans)
    if total_bytes is not None and total_seconds is not None:
        rest_bytes, rest_seconds = total_bytes - written, total_seconds - s_from_ms(previous_ms)
        if rest_bytes > 0 and rest_seconds > 0:
            spans.append((float(rest_bytes), rest_seconds))
    return spans


def progress_spans(points):
    """[(bytes, seconds)] between consecutive dd progress points ({"bytes", "seconds_range"}: bytes
    copied so far and the elapsed time the line allows, from dd.progress()), from the start of the
    copy. Each point's time is the middle of its range; a point no later than the one before (two
    ranges that overlap) is taken together with the next."""
    spans, done_bytes, done_seconds = [], 0, 0.0
    for point in points:
        low, high = point["seconds_range"]
        seconds = (low + high) / 2
        if seconds <= done_seconds or point["bytes"] < done_bytes:
            continue
        spans.append((float(point["bytes"] - done_bytes), seconds - done_seconds))
        done_bytes, done_seconds = point["bytes"], seconds
    return spans


def fill_points(spans, max_points=FILL_MAX_POINTS):
    """[{written_gb, value (MB/s), seconds}] from [(bytes, seconds)] spans. More than max_points spans
    are merged in equal runs, each keeping its bytes and time, so the rate of a merged point is exact."""
    size = max(1, math.ceil(len(spans) / max_points))
    points, done_bytes, done_seconds = [], 0.0, 0.0
    for start in range(0, len(spans), size):
        chunk = spans[start:start + size]
        chunk_bytes, chunk_seconds = sum(b for b, _ in chunk), sum(s for _, s in chunk)
        done_bytes += chunk_bytes
        done_seconds += chunk_seconds
        if round(gb_from_bytes(done_bytes), 4) <= 0:
            continue  # nothing written yet (a stall at the start): no point at 0 GB
        points.append({"written_gb": round(gb_from_bytes(done_bytes), 4),
                       "value": round(mb_from_bytes(chunk_bytes / chunk_seconds), 3),
                       "seconds": round(done_seconds, 3)})
    return points


def fill_entry(op, spans, command=None, raw=None, max_points=FILL_MAX_POINTS):
    points = fill_points(spans, max_points)
    if not points:
        raise ValueError("no data written in any interval")
    return _drop_none({"op": op, "unit": "MB/s", "points": points, "command": command,
                       "raw": list(raw) if raw else None})


# --- flashbench -------------------------------------------------------------------------------

def open_au_entry(parsed, mode, open_au, erase_size_bytes, block_size_bytes, command=None, offset_bytes=None,
                  raw=None):
    points = [{"block_size_bytes": p["block_size_bytes"], "value": _num(p["value"])} for p in parsed["points"]]
    interrupted = bool(parsed.get("interrupted"))
    if block_size_bytes and points and points[-1]["block_size_bytes"] > block_size_bytes:
        interrupted = True
    return _drop_none({"mode": mode, "open_au": int(open_au), "erase_size_bytes": erase_size_bytes,
                       "block_size_bytes": block_size_bytes, "offset_bytes": offset_bytes, "unit": "MB/s",
                       "points": points, "interrupted": interrupted, "command": command,
                       "raw": list(raw) if raw else None})


def align_entry(parsed, block_size_bytes=None, count=None, command=None, raw=None):
    points = [{key: (_num(value, 3) if key != "offset_bytes" else value) for key, value in p.items()}
              for p in parsed["points"]]
    return _drop_none({"block_size_bytes": block_size_bytes, "count": count, "points": points,
                       "command": command, "raw": list(raw) if raw else None})


def find_fat_entry(parsed, erase_size_bytes=None, block_size_bytes=None, command=None, raw=None):
    rows = [{"block_size_bytes": r["block_size_bytes"], "values": [_num(v) for v in r["values"]]}
            for r in parsed["rows"]]
    return _drop_none({"erase_size_bytes": erase_size_bytes, "block_size_bytes": block_size_bytes, "unit": "MB/s",
                       "rows": rows, "command": command, "raw": list(raw) if raw else None})


# --- f3probe, nvme ----------------------------------------------------------------------------

def f3probe_entry(parsed, raw=None):
    return _drop_none({"fake": bool(parsed["fake"]), "verdict": parsed.get("verdict"),
                       "fake_type": parsed.get("fake_type"),
                       "announced_bytes": parsed.get("announced_bytes"),
                       "usable_bytes": parsed.get("usable_bytes"),
                       "seconds": _num(parsed["seconds"], 3) if parsed.get("seconds") is not None else None,
                       "raw": list(raw) if raw else None})


def nvme_entry(id_ctrl=None, features=None, temperature_c=None, pcie_link=None, raw=None):
    """id_ctrl: nvme.parse_id_ctrl(); features: nvme.parse_features(); temperature_c: schema's
    {"idle", "before", "after", "max", "samples"} dict, built by the caller from smart-log readings."""
    thresholds = {}
    entry = {}
    if id_ctrl:
        entry.update(model=id_ctrl.get("model") or None, serial=id_ctrl.get("serial") or None,
                     firmware=id_ctrl.get("firmware") or None)
        thresholds.update(id_ctrl.get("thresholds_c") or {})
    if features:
        thresholds.update(features.get("thresholds_c") or {})
    entry.update(pcie_link=pcie_link, thresholds_c={k: _num(v, 1) for k, v in thresholds.items()} or None,
                 temperature_c=temperature_c or None, raw=list(raw) if raw else None)
    return _drop_none(entry)


def tool_result_entry(tool, test, op, unit, runs, block_size=None, queue_depth=None, threads=None, direct=None,
                      target=None, command=None, raw=None):
    """[tool_results] One figure of a tool whose tests are not CrystalDiskMark-style subtests
    (hdparm -t, iozone, sysbench, H2testw, f3write/f3read, …), every run as printed, in the
    tool's own unit (one of core.units.RATE_TO_MB_S, "IOPS" or "us")."""
    return _drop_none({"tool": tool, "test": test, "op": op, "unit": unit, "runs": [_num(v) for v in runs],
                       "block_size": block_size, "queue_depth": queue_depth, "threads": threads, "direct": direct,
                       "target": target, "command": command, "raw": list(raw) if raw else None})


# --- capacity checks (H2testw, f3write/f3read) --------------------------------------------------

SECTOR_KINDS = ("ok", "lost", "overwritten", "changed", "corrupted", "aliased")


def capacity_check_entry(tool, verdict, verdict_text, bytes_written=None, bytes_ok=None, bytes_lost=None,
                         sectors=None, files=None, raw=None):
    """[capacity_check] Data written to the card's filesystem and read back: verdict "ok" (all of it
    read back as written) or "data lost", the tool's own words for it, bytes, and the 512-byte
    sectors of each kind where the tool counts them (SECTOR_KINDS)."""
    kept = {kind: int(sectors[kind]) for kind in SECTOR_KINDS if (sectors or {}).get(kind) is not None}
    return _drop_none({"tool": tool, "verdict": verdict, "verdict_text": verdict_text[:200] if verdict_text else None,
                       "bytes_written": bytes_written, "bytes_ok": bytes_ok, "bytes_lost": bytes_lost,
                       "sectors": kept or None, "files": files, "raw": list(raw) if raw else None})
