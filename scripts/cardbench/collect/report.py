"""Text of the collector's closing summary (the CLI prints it)."""

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
    return lines


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
