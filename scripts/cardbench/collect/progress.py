"""Progress of a collection: events the runner sends to the CLI's callback, and their text.

The runner never prints. It calls `progress(event)` when a test starts, about twice a second
while it runs, and when it ends; the CLI turns events into a bar with `render`.
"""

import time
from dataclasses import dataclass


@dataclass
class ProgressEvent:
    phase: str  # start, tick, done, skip, fail, finish, message
    index: int  # 1-based test number
    count: int  # tests in the profile
    label: str  # 'fio SEQ1M Q8T1 write'
    detail: str = ""  # 'run 2/3'
    step_elapsed: float = 0.0
    step_estimate: float = 0.0
    overall_elapsed: float = 0.0
    overall_estimate: float = 0.0  # elapsed so far plus what is left
    message: str = ""

    @property
    def step_fraction(self):
        if self.phase in ("done", "skip"):
            return 1.0
        return min(0.99, self.step_elapsed / self.step_estimate) if self.step_estimate > 0 else 0.0

    @property
    def overall_fraction(self):
        if self.phase == "finish":
            return 1.0
        return min(0.99, self.overall_elapsed / self.overall_estimate) if self.overall_estimate > 0 else 0.0

    @property
    def step_eta(self):
        return max(0.0, self.step_estimate - self.step_elapsed)

    @property
    def overall_eta(self):
        return max(0.0, self.overall_estimate - self.overall_elapsed)


def clock_text(seconds):
    """0:42, 12:05, 1:02:03."""
    seconds = int(round(max(0.0, seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def bar(fraction, width=20):
    filled = int(round(fraction * width))
    return "#" * filled + "-" * (width - filled)


def render(event, width=20):
    """One line: '[ 3/18] fio SEQ1M Q8T1 write run 1/3  [#####-----]  45% ETA 0:03 | all  12% ETA 2:41'."""
    head = f"[{event.index:>2}/{event.count}] {event.label}"
    if event.detail:
        head += f" {event.detail}"
    if event.phase == "message":
        return f"{head}: {event.message}" if event.label else event.message
    if event.phase == "skip":
        return f"{head}: already done, skipped"
    if event.phase == "fail":
        return f"{head}: FAILED: {event.message}"
    if event.phase == "finish":
        return f"all {event.count} tests: {event.message} in {clock_text(event.overall_elapsed)}"
    if event.phase == "done":
        tail = f"done in {clock_text(event.step_elapsed)}" + (f": {event.message}" if event.message else "")
        return f"{head}  {tail} | all {event.overall_fraction:4.0%} ETA {clock_text(event.overall_eta)}"
    return (f"{head}  [{bar(event.step_fraction, width)}] {event.step_fraction:4.0%} ETA {clock_text(event.step_eta)}"
            f" | all {event.overall_fraction:4.0%} ETA {clock_text(event.overall_eta)}")


class Tracker:
    """Keeps the clock and the estimates, and sends events to the callback (which may be None)."""

    def __init__(self, callback, count, clock=time.monotonic):
        self.callback = callback
        self.count = count
        self.clock = clock
        self.started = clock()
        self.step_started = self.started
        self.index = 0
        self.label = ""
        self.detail = ""
        self.step_estimate = 0.0
        self.remaining_after = 0.0  # estimate of the tests after the current one
        self.last_tick = 0.0

    def _send(self, phase, message=""):
        if self.callback is None:
            return
        now = self.clock()
        step_elapsed = now - self.step_started if phase not in ("message", "finish") else 0.0
        overall_elapsed = now - self.started
        step_left = max(self.step_estimate - step_elapsed, 0.0) if phase in ("start", "tick") else 0.0
        self.callback(ProgressEvent(
            phase=phase, index=self.index, count=self.count, label=self.label, detail=self.detail,
            step_elapsed=step_elapsed, step_estimate=self.step_estimate, overall_elapsed=overall_elapsed,
            overall_estimate=overall_elapsed + step_left + self.remaining_after, message=message))

    def start(self, index, label, estimate, remaining_after):
        self.index, self.label, self.detail = index, label, ""
        self.step_estimate, self.remaining_after = estimate, remaining_after
        self.step_started = self.clock()
        self._send("start")

    def tick(self, detail=None, force=False):
        if detail is not None:
            self.detail = detail
        now = self.clock()
        if force or now - self.last_tick >= 0.5:
            self.last_tick = now
            self._send("tick")

    def done(self, message=""):
        self.detail = ""
        self._send("done", message)

    def skip(self, index, label, remaining_after):
        self.index, self.label, self.detail = index, label, ""
        self.step_estimate, self.remaining_after = 0.0, remaining_after
        self._send("skip")

    def fail(self, message):
        self._send("fail", message)

    def message(self, text):
        self._send("message", text)

    def finish(self, message):
        self.index = self.count
        self.label, self.detail = "", ""
        self._send("finish", message)
