"""Rules on a card's figures: one unit per test, bandwidth that agrees with IOPS × block size, and no
throughput above what the card's bus (or the PCIe link a session negotiated) can carry."""

from ...core.bus import BUS_ASSUMED, BUS_CEILING_MB_S, pcie_link_mb_s
from ...core.figure_agreement import bandwidth_iops_deviation
from ...core.measurement_kinds import POINT_KINDS
from ...core.subtest_names import dd_test_name
from ...core.units import RATE_TO_MB_S, RATE_UNIT_BYTES, block_size_bytes, size_text_from_bytes
from ...parsers.registry import FORMATS
from ..load import format_field
from ..walk import entries_of, finite_number, finite_numbers, sessions_of

# Registry names of the tools whose rates never come from the page cache (parsers.tool.ToolInfo.past_cache).
PAST_CACHE_TOOLS = frozenset(fmt.name for fmt in FORMATS if fmt.module.INFO.past_cache)

CLAIM_SLACK = 1.05  # a figure up to 5 % above the vendor's own claim is within that claim

BW_IOPS_WARN = 0.10  # bandwidth vs IOPS × block size: beyond 10 % a warning, beyond 50 % an error
BW_IOPS_ERROR = 0.50


def units_consistent(check):
    first = {}
    for index, session in sessions_of(check.card):
        for kind in ("results", "dd"):
            for i, entry in entries_of(session, kind):
                test = entry.get("test") if kind == "results" else dd_test_name(entry)
                op, unit = entry.get("op"), entry.get("unit")
                if not all(isinstance(x, str) for x in (test, op, unit)):
                    continue
                path = ("sessions", index, kind, i)
                key = (kind, test, op)
                if key not in first:
                    first[key] = (unit, path)
                elif first[key][0] != unit:
                    check.add(path + ("unit",), f"{test} {op} is in {unit} here but in {first[key][0]} in "
                                                f"{format_field(first[key][1])}; check the unit",
                              "unit-consistent", "warning")


def bw_iops(check):
    for index, session in sessions_of(check.card):
        for i, entry in entries_of(session, "results"):
            block = block_size_bytes(entry.get("test"))
            unit = _bandwidth_unit(entry)
            runs, iops = entry.get("runs"), entry.get("iops")
            if block is None or unit is None or not isinstance(runs, list) or not isinstance(iops, list):
                continue
            worst = None
            for j, value in finite_numbers(runs):
                if j >= len(iops) or not finite_number(iops[j]) or iops[j] <= 0 or value <= 0:
                    continue
                off = bandwidth_iops_deviation(value, unit, iops[j], block)
                if worst is None or off > worst[0]:
                    worst = (off, j, value, iops[j])
            if worst is None or worst[0] <= BW_IOPS_WARN:
                continue
            off, j, value, count = worst
            expected = count * block / RATE_UNIT_BYTES[unit]
            severity = "error" if off > BW_IOPS_ERROR else "warning"
            check.add(("sessions", index, "results", i, "runs", j),
                      f"{value:g} {unit} but {count:g} IOPS × {size_text_from_bytes(block)} = {expected:.4g} {unit} "
                      f"({off:.0%} apart; allowed: {BW_IOPS_WARN:.0%}, error beyond {BW_IOPS_ERROR:.0%})",
                      "bw-iops", severity)


def bus_ceiling(check):
    bus = check.data.get("bus")
    if not isinstance(bus, str) or bus not in BUS_CEILING_MB_S:
        return
    claimed = check.data.get("claimed") if isinstance(check.data.get("claimed"), dict) else {}
    claims = {op: claimed.get(f"{op}_mb_s") for op in ("read", "write")}
    claims = {op: v for op, v in claims.items() if finite_number(v) and v > 0}
    for index, session in sessions_of(check.card):
        assumed = f" ({BUS_ASSUMED[bus]})" if bus in BUS_ASSUMED else ""
        ceiling, why = BUS_CEILING_MB_S[bus], f"{bus} bus ceiling" + assumed
        nvme = session.get("nvme") if isinstance(session.get("nvme"), dict) else {}
        link = pcie_link_mb_s(nvme.get("pcie_link")) if bus == "SD Express" else None
        if link:
            ceiling, why = link  # the link this session negotiated
        for path, op, unit, values, suffix in _bandwidth_figures(session):
            over = [(j, v) for j, v in values if v * RATE_TO_MB_S[unit] > ceiling]
            if not over:
                continue
            j, top = max(over, key=lambda item: item[1])
            top_mb_s = top * RATE_TO_MB_S[unit]
            shown = f"{top:g} {unit}" + (f" = {top_mb_s:.1f} MB/s" if unit != "MB/s" else "")
            count = f" ({len(over)} of {len(values)} figures above it; this is the highest)" if len(values) > 1 else ""
            # A vendor mode beyond the bus (e.g. UHS-I DDR200 readers) is allowed up to the vendor's claim.
            claim = claims.get(op) if op in ("read", "write") else max(claims.values(), default=None)
            place = ("sessions", index) + path + (j,) + suffix
            if claim and top_mb_s <= claim * CLAIM_SLACK:
                check.add(place, f"{shown} is above the {why} of {ceiling} MB/s{count} but within the claimed "
                                 f"{claim:g} MB/s (a vendor mode beyond the standard bus; say which reader in "
                                 f"claimed.note)", "bus-ceiling", "warning")
            else:
                check.add(place, f"{shown} is above the {why} of {ceiling} MB/s{count}; the figure cannot be "
                                 f"right for this card ({_ceiling_hint(check, bus, link, top_mb_s)})", "bus-ceiling")


def _ceiling_hint(check, bus, link, mb_s):
    """What to check when a figure is above the ceiling: first a bus set too low (a card made by an
    import assumes UHS-I unless told), naming the slowest bus that carries the figure."""
    faster = next((name for name, ceiling in BUS_CEILING_MB_S.items()
                   if ceiling > BUS_CEILING_MB_S[bus] and ceiling >= mb_s), None)
    if link or faster is None:
        return "check the unit, the PCIe link, or host caching" if link else "check the unit or host caching"
    return (f"if the card's bus is faster, set bus: \"{faster}\" in data/cards/{check.card.path.stem}.yaml, or "
            f"BUS=\"{faster}\" on make import for a new card; else check the unit or host caching")


def _bandwidth_unit(entry):
    """The entry's unit when it is a bandwidth (MB/s, MiB/s), else None (whatever its type)."""
    unit = entry.get("unit")
    return unit if isinstance(unit, str) and unit in RATE_TO_MB_S else None


def _past_cache(entry):
    """Whether a tool_results entry's rates are the card's own: the tool said it bypassed the page cache
    (direct), or it always reads past it (its ToolInfo's past_cache). Others (iozone or sysbench through
    the cache) may rightly be faster than any bus."""
    if entry.get("direct") is True:
        return True
    tool = entry.get("tool")
    return isinstance(tool, str) and tool in PAST_CACHE_TOOLS


def _bandwidth_figures(session):
    """Every throughput figure of a session that the card's bus carried, grouped by list:
    (list path, op, unit, [(index, value)], path after the index)."""
    for kind in ("results", "dd"):
        for i, entry in entries_of(session, kind):
            if _bandwidth_unit(entry):
                yield (kind, i, "runs"), entry.get("op"), entry["unit"], finite_numbers(entry.get("runs")), ()
    for i, entry in entries_of(session, "tool_results"):
        if _bandwidth_unit(entry) and _past_cache(entry):
            yield ("tool_results", i, "runs"), entry.get("op"), entry["unit"], finite_numbers(entry.get("runs")), ()
    for kind in POINT_KINDS:
        for i, entry in entries_of(session, kind):
            points = entry.get("points")
            if _bandwidth_unit(entry) and isinstance(points, list):
                values = [(j, p.get("value")) for j, p in enumerate(points) if isinstance(p, dict)]
                values = [(j, v) for j, v in values if finite_number(v)]
                yield (kind, i, "points"), entry.get("op", "write"), entry["unit"], values, ("value",)
    for i, entry in entries_of(session, "flashbench_find_fat"):
        if _bandwidth_unit(entry) and isinstance(entry.get("rows"), list):
            for r, row in enumerate(entry["rows"]):
                if isinstance(row, dict):
                    yield (("flashbench_find_fat", i, "rows", r, "values"), "write", entry["unit"],
                           finite_numbers(row.get("values")), ())
    rows = [(i, row.get("number")) for i, row in entries_of(session, "headline")
            if _bandwidth_unit(row) and finite_number(row.get("number"))]
    for i, number in rows:
        yield ("headline",), None, session["headline"][i]["unit"], [(i, number)], ("number",)
