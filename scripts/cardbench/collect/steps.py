"""Run one test of a profile with the real tool, keep its raw output, and build the card entries.

Each `run_*` function returns an Outcome: the session fields to add entries to, a one-line
summary for the log and the progress line, and measured speeds that sharpen the ETA.
Tools run with the raw folder as working directory, so output names in the recorded commands
are short and exact.
"""

from dataclasses import dataclass, field

from ..parsers import card_entries
from ..core.paths import raw_refs
from ..core.units import gb_from_bytes, mb_from_gb, s_from_ms, size_arg_from_bytes
from ..parsers.dd import tool as dd_parser
from ..parsers import f3probe as f3probe_parser
from ..parsers.fio import json_output as fio_json
from ..parsers.fio import bwlog as fio_bwlog
from ..parsers import flashbench as flashbench_parser
from . import tools
from .profiles import (DdStep, DdSweepStep, F3ProbeStep, FillStep, FioStep, FlashAlignStep, FlashFindFatStep,
                       FlashOpenAuStep)


@dataclass
class Outcome:
    entries: list = field(default_factory=list)  # (session field, entry); f3probe replaces, others append
    summary: str = ""
    rates: dict = field(default_factory=dict)  # op -> MB/s measured


def raw_names(step):
    """Prefixes of the raw files a step writes; a session holding one of them has the step done."""
    return (f"{step.key}.", f"{step.key}-run")


def step_done(session, step):
    """True when an entry of the session names a raw file of this step."""
    prefixes = raw_names(step)
    return any(raw.rsplit("/", 1)[-1].startswith(prefixes) for _, raw in raw_refs(session))


def _read(path):
    return path.read_text(encoding="utf-8", errors="replace")


def run_fio(ctx, step):
    parsed, raw = [], []
    target = ctx.test_file_fd_path if step.target == "file" else ctx.device_fd_path
    argv0 = None
    for run in range(1, step.runs + 1):
        name = f"{step.key}-run{run}.json"
        argv = tools.fio_argv(ctx.tool("fio"), target, step.job, name, name=step.job.key)
        argv0 = argv0 or argv
        ctx.run_tool(argv, detail=f"run {run}/{step.runs}" if step.runs > 1 else "", check_output=name)
        parsed.append(fio_json.parse(_read(ctx.raw_dir / name)))
        raw.append(ctx.rel(name))
    results = card_entries.results_from_fio(parsed, command=ctx.display(argv0), raw=raw)
    mean = sum(results[0]["runs"]) / len(results[0]["runs"])
    iops = sum(results[0]["iops"]) / len(results[0]["iops"])
    return Outcome(entries=[("results", r) for r in results], summary=fio_summary(mean, iops))


def fio_summary(mean_mb_s, iops):
    """A fio test's line in the collector's progress: '14.6 MB/s, 3,660 IOPS' (never '3.66e+03')."""
    return f"{mean_mb_s:.1f} MB/s, {iops:,.0f} IOPS"


def run_dd(ctx, step):
    target = ctx.test_file_fd_path if step.target == "file" else ctx.device_fd_path
    argv = tools.dd_argv(ctx.tool("dd"), step.op, target, step.bs, step.count)
    runs, raw = [], []
    for run in range(1, step.runs + 1):
        name = f"{step.key}-run{run}.txt"
        ctx.run_tool(argv, stderr=name, env=tools.C_LOCALE, detail=f"run {run}/{step.runs}" if step.runs > 1 else "")
        runs.append(dd_parser.parse(_read(ctx.raw_dir / name))["runs"][-1])
        raw.append(ctx.rel(name))
    entry = card_entries.dd_entry(step.op, size_arg_from_bytes(step.bs), runs, count=step.count, flags=["direct"],
                              target=step.target, command=ctx.display(argv, tools.C_LOCALE), raw=raw)
    mean = sum(entry["runs"]) / len(entry["runs"])
    return Outcome(entries=[("dd", entry)], summary=f"{mean:.1f} MB/s",
                   rates={step.op: mean} if step.target == "device" else {})


def _run_dd_series(ctx, name, commands, details):
    """Several dd commands, their outputs appended to one raw file with the command above each."""
    path = ctx.raw_dir / name
    path.write_text("", encoding="utf-8")
    for argv, detail in zip(commands, details):
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"$ {ctx.display(argv, tools.C_LOCALE)}\n")
        ctx.run_tool(argv, stderr=name, append=True, env=tools.C_LOCALE, detail=detail)
    return dd_parser.parse(_read(path))["runs"]


def run_dd_sweep(ctx, step):
    dd = ctx.tool("dd")
    commands = [tools.dd_argv(dd, step.op, ctx.device_fd_path, size, max(1, step.bytes_per_point // size))
                for size in step.sizes]
    name = f"{step.key}.txt"
    runs = _run_dd_series(ctx, name, commands, [f"bs={size_arg_from_bytes(s)}" for s in step.sizes])
    if len(runs) != len(step.sizes):
        raise ValueError(f"dd sweep: {len(runs)} results for {len(step.sizes)} block sizes")
    template = ctx.display(tools.dd_argv(dd, step.op, ctx.device_fd_path, step.sizes[0], 1), tools.C_LOCALE)
    template = template.replace(f"bs={size_arg_from_bytes(step.sizes[0])}", "bs=<size>").replace(
        "count=1", f"count=<{size_arg_from_bytes(step.bytes_per_point)} / size>")
    entry = card_entries.dd_sweep_entry(step.op, list(zip(step.sizes, runs)), flags=["direct"], target="device",
                                    command=template, raw=[ctx.rel(name)])
    low, high = entry["points"][0], entry["points"][-1]
    return Outcome(entries=[("dd_sweeps", entry)],
                   summary=f"{low['value']:.1f} MB/s at {size_arg_from_bytes(low['block_size_bytes'])}, "
                           f"{high['value']:.1f} MB/s at {size_arg_from_bytes(high['block_size_bytes'])}")


def _run_flashbench(ctx, step, argv_builder):
    name = f"{step.key}.txt"
    scratch = f"{step.key}.o-file.txt"
    argv = argv_builder(scratch)
    ctx.run_tool(argv, stdout=name)
    # Only flashbench's scatter test writes to -o FILE; the others print to stdout.
    scratch_path = ctx.raw_dir / scratch
    if scratch_path.exists() and scratch_path.stat().st_size == 0:
        scratch_path.unlink()
    text = _read(ctx.raw_dir / name)
    raw = [ctx.rel(name)] + ([ctx.rel(scratch)] if scratch_path.exists() else [])
    return argv, text, raw


def run_flash_align(ctx, step):
    argv, text, raw = _run_flashbench(ctx, step, lambda out: tools.flashbench_align_argv(
        ctx.tool("flashbench"), ctx.device_fd_path, out, step.blocksize, step.count))
    parsed = flashbench_parser.parse_align(text)
    entry = card_entries.align_entry(parsed, block_size_bytes=step.blocksize, count=step.count,
                                 command=ctx.display(argv), raw=raw)
    return Outcome(entries=[("flashbench_align", entry)], summary=f"{len(entry['points'])} alignments")


def run_flash_open_au(ctx, step):
    argv, text, raw = _run_flashbench(ctx, step, lambda out: tools.flashbench_open_au_argv(
        ctx.tool("flashbench"), ctx.device_fd_path, out, step.open_au, step.erasesize, step.blocksize, random=step.random))
    parsed = flashbench_parser.parse_open_au(text, smallest_block_bytes=step.blocksize)
    entry = card_entries.open_au_entry(parsed, "random" if step.random else "sequential", step.open_au, step.erasesize,
                                   step.blocksize, command=ctx.display(argv), raw=raw)
    high, low = entry["points"][0], entry["points"][-1]
    return Outcome(entries=[("flashbench_open_au", entry)],
                   summary=f"{high['value']:.1f} MB/s at {size_arg_from_bytes(high['block_size_bytes'])}, "
                           f"{low['value']:.1f} MB/s at {size_arg_from_bytes(low['block_size_bytes'])}")


def run_flash_find_fat(ctx, step):
    argv, text, raw = _run_flashbench(ctx, step, lambda out: tools.flashbench_find_fat_argv(
        ctx.tool("flashbench"), ctx.device_fd_path, out, step.erasesize, step.blocksize, step.fat_nr))
    parsed = flashbench_parser.parse_find_fat(text)
    entry = card_entries.find_fat_entry(parsed, erase_size_bytes=step.erasesize, block_size_bytes=step.blocksize,
                                    command=ctx.display(argv), raw=raw)
    return Outcome(entries=[("flashbench_find_fat", entry)], summary=f"{len(entry['rows'])} block sizes")


def run_f3probe(ctx, step):
    name = f"{step.key}.txt"
    argv = tools.f3probe_argv(ctx.tool("f3probe"), ctx.device_fd_path)
    ctx.run_tool(argv, stdout=name, stderr=name, env=tools.C_LOCALE)
    parsed = f3probe_parser.parse(_read(ctx.raw_dir / name))
    entry = card_entries.f3probe_entry(parsed, raw=[ctx.rel(name)])
    verdict = ("DAMAGED card" if entry.get("verdict") == "damaged" else "FAKE capacity" if entry["fake"]
               else "real capacity")
    usable = entry.get("usable_bytes")
    return Outcome(entries=[("f3probe", entry)],
                   summary=verdict + (f", {gb_from_bytes(usable):.2f} GB usable" if usable else ""))


def run_fill(ctx, step):
    name = f"{step.key}.json"
    span = step.span(ctx.device_bytes)
    argv = tools.fill_argv(ctx.tool("fio"), ctx.device_fd_path, span, step.bs, step.iodepth, step.key, step.log_ms, name)
    (ctx.raw_dir / step.log_name).unlink(missing_ok=True)  # fio appends to a log left by a stopped run
    ctx.run_tool(argv, detail=f"{gb_from_bytes(span):.1f} GB", check_output=name)
    job = next((j for j in fio_json.parse(_read(ctx.raw_dir / name))["jobs"] if j["op"] == "write"), None)
    if job is None:
        raise ValueError(f"fill: no write job in {name}")
    log = fio_bwlog.parse(_read(ctx.raw_dir / step.log_name))
    spans = card_entries.bwlog_spans(log["samples"], total_bytes=job["io_bytes"], total_seconds=s_from_ms(job["runtime_ms"]))
    try:
        entry = card_entries.fill_entry("write", spans, command=ctx.display(argv),
                                    raw=[ctx.rel(name), ctx.rel(step.log_name)], max_points=step.max_points)
    except ValueError:
        raise ValueError(f"fill: no bandwidth samples in {step.log_name}") from None
    points = entry["points"]
    low = min(p["value"] for p in points)
    written, seconds = points[-1]["written_gb"], points[-1]["seconds"]
    return Outcome(entries=[("fill", entry)],
                   summary=f"{points[0]['value']:.1f} MB/s at first, {low:.1f} MB/s lowest, "
                           f"{written:.1f} GB in {seconds:.0f} s", rates={"write": mb_from_gb(written) / seconds})


RUNNERS = {FioStep: run_fio, DdStep: run_dd, DdSweepStep: run_dd_sweep, FlashAlignStep: run_flash_align,
           FlashOpenAuStep: run_flash_open_au, FlashFindFatStep: run_flash_find_fat, F3ProbeStep: run_f3probe,
           FillStep: run_fill}


def run_step(ctx, step):
    return RUNNERS[type(step)](ctx, step)


def apply_outcome(session, outcome):
    """Add the step's entries to the session dict (in place)."""
    for field_name, entry in outcome.entries:
        if field_name == "f3probe":
            session["f3probe"] = entry
        else:
            session.setdefault(field_name, []).append(entry)

