"""Text of the collector's closing summary (the CLI prints it)."""

import shlex
from pathlib import Path

from .progress import clock_text


def summary_lines(report):
    lines = [f"collect: {report.device}"]
    if report.resumed:
        lines.append(f"collect: resumed session {report.session_id}; {len(report.skipped)} test(s) were already done")
    for label, summary in report.ran:
        lines.append(f"  {label}: {summary}")
    for label, message in report.failed:
        lines.append(f"  {label}: FAILED: {message}")
    state = "complete" if report.complete else "INCOMPLETE (re-run the same command to retry what failed)"
    made = " (new card file)" if report.created_card else ""
    lines.append(f"collect: session {report.session_id} {state}, {report.profile} profile, "
                 f"{clock_text(report.seconds)}")
    lines.append(f"collect: wrote {report.card_path}{made}; raw outputs in {report.raw_dir}")
    for note in report.notes:
        lines.append(f"collect: note: {note}")
    if report.created_card:
        lines.append("collect: check brand, model, form_factor and bus in the new card file, add markings, "
                     "then make validate CHANGED=1")
    if report.complete:
        lines += pull_request_lines(report.card_path)
    return lines


def pull_request_lines(card_path):
    """The commands that publish a card's new session as a pull request (gh forks the repository
    when the contributor cannot push to it)."""
    card_path = Path(card_path)
    slug = card_path.stem
    raw = card_path.parent.parent / "raw" / slug
    files = " ".join(shlex.quote(_shown(path)) for path in (card_path, raw))
    return ["collect: to publish it, open a pull request:",
            f"  git switch -c result/{slug} && git add {files} "
            f"&& git commit -m {shlex.quote('Add a result for ' + slug)}",
            "  gh pr create --fill   (without gh: git push, then open the pull request on GitHub)"]


def _shown(path):
    """A path as typed in the checkout: relative to the current folder when it lies below it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def interrupted_lines(exc):
    report = getattr(exc, "report", None)
    lines = [f"collect: {exc}"]
    if report is not None:
        if report.ran or report.skipped:
            lines.append(f"collect: {len(report.ran) + len(report.skipped)} finished test(s) kept in "
                         f"{report.card_path} (session {report.session_id}, complete: false)")
        else:
            lines.append("collect: no test had finished; the card file was not changed")
        lines.append("collect: run the same command again to resume")
    return lines
