"""Run one test of a profile with the real tool, keep its raw output, and build the card entries.

Each `run_*` function returns an Outcome: the session fields to add entries to, a one-line
summary for the log and the progress line, and measured speeds that sharpen the ETA.
Tools run with the raw folder as working directory, so output names in the recorded commands
are short and exact. Their output is read as `cardbench import` reads it (parsers/registry.py: the
tool module's parse_file() and to_session()), given what the collector knows and the output does not
say (the command, the block size, read or write, the raw files), so both make the same entries.
"""

from dataclasses import dataclass, field

from ..core.paths import raw_refs
from ..core.units import gb_from_bytes, mb_from_gb, s_from_ms, size_arg_from_bytes
from ..parsers import card_entries
from ..parsers.registry import format_named
from . import tools
from .profiles import (DdStep, DdSweepStep, F3ProbeStep, FillStep, FioStep, FlashAlignStep, FlashFindFatStep,
                       FlashOpenAuStep)


@dataclass
class Outcome:
    entries: list = field(default_factory=list)  # (session field, entry); f3probe replaces, others append
    summary: str = ""
    rates: dict = field(default_factory=dict)  # op -> MB/s measured


DD, F3PROBE, FIO_JSON, FIO_BWLOG, FLASHBENCH = (format_named(name) for name in
                                                ("dd", "f3probe", "fio-json", "fio-bwlog", "flashbench"))


def _entries(fields):
    """(session field, entry) of every entry a tool module's to_session() made."""
    return [(key, entry) for key, value in fields.measurements.items()
            for entry in (value if isinstance(value, list) else [value])]


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
    outputs, raw = [], []
    target = ctx.test_file_fd_path if step.target == "file" else ctx.device_fd_path
    argv0 = None
    for run in range(1, step.runs + 1):
        name = f"{step.key}-run{run}.json"
        argv = tools.fio_argv(ctx.tool("fio"), target, step.job, name, name=step.job.key)
        argv0 = argv0 or argv
        ctx.run_tool(argv, detail=f"run {run}/{step.runs}" if step.runs > 1 else "", check_output=name)
        outputs.append(_read(ctx.raw_dir / name))
        raw.append(ctx.rel(name))
    entries = _entries(FIO_JSON.read_runs(outputs, command=ctx.display(argv0), raw=raw))
    first = entries[0][1]
    mean = sum(first["runs"]) / len(first["runs"])
    iops = sum(first["iops"]) / len(first["iops"])
    return Outcome(entries=entries, summary=fio_summary(mean, iops))


def fio_summary(mean_mb_s, iops):
    """A fio test's line in the collector's progress: '14.6 MB/s, 3,660 IOPS' (never '3.66e+03')."""
    return f"{mean_mb_s:.1f} MB/s, {iops:,.0f} IOPS"


def run_dd(ctx, step):
    target = ctx.test_file_fd_path if step.target == "file" else ctx.device_fd_path
    argv = tools.dd_argv(ctx.tool("dd"), step.op, target, step.bs, step.count)
    outputs, raw = [], []
    for run in range(1, step.runs + 1):
        name = f"{step.key}-run{run}.txt"
        ctx.run_tool(argv, stderr=name, env=tools.C_LOCALE, detail=f"run {run}/{step.runs}" if step.runs > 1 else "")
        outputs.append(_read(ctx.raw_dir / name))
        raw.append(ctx.rel(name))
    fields = DD.read_runs(outputs, op=step.op, block_size=size_arg_from_bytes(step.bs), count=step.count,
                          flags=["direct"], target=step.target, command=ctx.display(argv, tools.C_LOCALE), raw=raw)
    (entry,) = fields.measurements["dd"]
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
    return DD.module.parse(_read(path))["runs"]


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
    raw = [ctx.rel(name)] + ([ctx.rel(scratch)] if scratch_path.exists() else [])
    # read as a log of the command and its output: the command says what the rows are (block and erase size)
    command = ctx.display(argv)
    fields = FLASHBENCH.read_session(f"$ {command}\n{_read(ctx.raw_dir / name)}", command=command, raw=raw)
    (entry,) = (entry for _, entry in _entries(fields))
    return entry


def run_flash_align(ctx, step):
    entry = _run_flashbench(ctx, step, lambda out: tools.flashbench_align_argv(
        ctx.tool("flashbench"), ctx.device_fd_path, out, step.blocksize, step.count))
    return Outcome(entries=[("flashbench_align", entry)], summary=f"{len(entry['points'])} alignments")


def run_flash_open_au(ctx, step):
    entry = _run_flashbench(ctx, step, lambda out: tools.flashbench_open_au_argv(
        ctx.tool("flashbench"), ctx.device_fd_path, out, step.open_au, step.erasesize, step.blocksize,
        random=step.random))
    high, low = entry["points"][0], entry["points"][-1]
    return Outcome(entries=[("flashbench_open_au", entry)],
                   summary=f"{high['value']:.1f} MB/s at {size_arg_from_bytes(high['block_size_bytes'])}, "
                           f"{low['value']:.1f} MB/s at {size_arg_from_bytes(low['block_size_bytes'])}")


def run_flash_find_fat(ctx, step):
    entry = _run_flashbench(ctx, step, lambda out: tools.flashbench_find_fat_argv(
        ctx.tool("flashbench"), ctx.device_fd_path, out, step.erasesize, step.blocksize, step.fat_nr))
    return Outcome(entries=[("flashbench_find_fat", entry)], summary=f"{len(entry['rows'])} block sizes")


def run_f3probe(ctx, step):
    name = f"{step.key}.txt"
    argv = tools.f3probe_argv(ctx.tool("f3probe"), ctx.device_fd_path)
    ctx.run_tool(argv, stdout=name, stderr=name, env=tools.C_LOCALE)
    entry = F3PROBE.read_session(_read(ctx.raw_dir / name), raw=[ctx.rel(name)]).measurements["f3probe"]
    verdict = ("DAMAGED card" if entry.get("verdict") == "damaged" else "FAKE capacity" if entry["fake"]
               else "real capacity")
    usable = entry.get("usable_bytes")
    return Outcome(entries=[("f3probe", entry)],
                   summary=verdict + (f", {gb_from_bytes(usable):.2f} GB usable" if usable else ""))


def run_fill(ctx, step):
    name = f"{step.key}.json"
    span = step.span(ctx.device_bytes)
    argv = tools.fill_argv(ctx.tool("fio"), ctx.device_fd_path, span, step.bs, step.iodepth, step.key,
                           step.log_ms, name)
    (ctx.raw_dir / step.log_name).unlink(missing_ok=True)  # fio appends to a log left by a stopped run
    ctx.run_tool(argv, detail=f"{gb_from_bytes(span):.1f} GB", check_output=name)
    summary = FIO_JSON.parse_file(_read(ctx.raw_dir / name))["runs"][0]
    job = next((j for j in summary["jobs"] if j["op"] == "write"), None)
    if job is None:
        raise ValueError(f"fill: no write job in {name}")
    # the log and fio's summary of the same job: the summary adds the time after the log's last sample
    fields = FIO_BWLOG.read_session(_read(ctx.raw_dir / step.log_name),
                                    totals={"write": (job["io_bytes"], s_from_ms(job["runtime_ms"]))},
                                    command=ctx.display(argv), raw=[ctx.rel(name), ctx.rel(step.log_name)],
                                    max_points=step.max_points)
    entry = next((entry for entry in fields.measurements["fill"] if entry["op"] == "write"), None)
    if entry is None:
        raise ValueError(f"fill: no bandwidth samples in {step.log_name}")
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

