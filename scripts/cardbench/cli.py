"""The cardbench command line: the only module that prints and exits."""

import argparse
import sys
from pathlib import Path

from .errors import CardbenchError

ROOT = Path(__file__).resolve().parents[2]
CARDS_DIR = ROOT / "data" / "cards"


def cmd_validate(args):
    from .validate import card_paths, validate_paths

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


def build_parser():
    parser = argparse.ArgumentParser(prog="cardbench", description="SD card benchmark results: collect, import, validate, aggregate.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check card files against the schema and the rules")
    p.add_argument("files", nargs="*", type=Path, help="card files (default: every data/cards/*.yaml)")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("aggregate", help="compute statistics into Hugo data files")
    p.add_argument("--cards-dir", type=Path, default=CARDS_DIR)
    p.add_argument("--out", type=Path, default=ROOT / "build" / "hugo-data")
    p.set_defaults(func=cmd_aggregate)
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
