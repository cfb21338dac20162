"""The tests of a profile run one after another on a held card, the session saved after each one.

A test already in the resumed session is skipped; a test whose tool fails is recorded as failed and the
run goes on; the card is checked to be the same one before every tool run. Ctrl-C, SIGTERM, a vanished
device or a full disk stop the run with every finished test kept (the session marked complete: false).
Whatever happens, the card's test file and the held device are let go, and a raw folder of a run that
kept nothing is removed.
"""

from ..core.bus import FASTER_BUS
from ..errors import CardFileError, ParseError
from .errors import CollectInterrupted, DeviceVanishedError, DiskFullError, ToolFailedError
from .nvmemon import NvmeMonitor
from .plan import estimate_seconds
from .profiles import DEFAULT_RATES
from .progress import Tracker
from .steps import apply_outcome, run_step, step_done
from .stopping import Signals, disk_full, log_quietly
from .toolrun import RunContext


class StepLoop:
    """One run of `profile` on `held` (a claim.HeldCard) into `opened` (a session_open.OpenedSession),
    writing through `store` and filling `report`; `new_card` is the card dict this run creates, or None."""

    def __init__(self, profile, held, opened, store, tool_paths, new_card, report, created, progress, clock):
        self.held, self.opened, self.store = held, opened, store
        self.tool_paths, self.new_card, self.report, self.created = tool_paths, new_card, report, created
        self.steps = list(profile.steps)
        self.rates = dict(DEFAULT_RATES)
        self.tracker = Tracker(progress, len(self.steps), clock=clock)
        self.clock = clock
        self.signals = Signals()
        self.step_label = ""
        self.monitor = None
        self.saved = False  # whether the card file holds something of this run (else a stop removes its raw folder)
        self.ctx = RunContext(held.claim.tool_path, held.checked.majmin, opened.raw_dir, opened.raw_rel, tool_paths,
                              opened.log, self.tracker, held.info.size_bytes,
                              test_file_fd_path=held.test_file.tool_path if held.test_file else None,
                              shown=held.shown(), before_tool=self._same_card_before_tool)

    def _same_card_before_tool(self, tool):
        # Before every tool run, not only between steps: a run that finds another card writes nothing.
        self.held.same_card(f"{tool} in {self.step_label}")

    def _estimate(self, step):
        return estimate_seconds(step, self.rates, self.held.info.size_bytes)

    def _save(self):
        session, new_card, log = self.opened.session, self.new_card, self.opened.log
        with self.signals:
            if self.monitor is not None:
                session["nvme"] = self.monitor.entry(self.held.info.nvme.get("pcie_link"))
            raised = None
            while True:
                try:
                    self.store.write(session, new_card=new_card, bus=raised)
                    return
                except CardFileError as exc:
                    # The bus of a card created by this run is a guess; a figure above its ceiling (e.g. a
                    # UHS-I card in a DDR200 reader) raises the guess instead of losing the test.
                    faster = FASTER_BUS.get(new_card["bus"]) if new_card and exc.rule == "bus-ceiling" else None
                    if faster is None:
                        raise
                    log(f"a figure is above the {new_card['bus']} bus ceiling; card bus set to {faster}")
                    self.report.notes.append(f"bus set to {faster}: a figure was above the {new_card['bus']} "
                                             "ceiling (for a UHS-I card in a vendor mode such as DDR200, set bus "
                                             "back and add claimed)")
                    raised = new_card["bus"] = faster

    def _run_steps(self, started):
        """Every step in order, each finished one saved."""
        session, report, tracker, log, steps = (self.opened.session, self.report, self.tracker, self.opened.log,
                                                self.steps)
        data_dir, raw_dir = self.store.data_dir, self.opened.raw_dir
        info = self.held.info
        if info.transport == "nvme" and info.nvme.get("controller"):
            self.monitor = NvmeMonitor(self.tool_paths["nvme"], f"/dev/{info.nvme['controller']}", self.ctx, started)
            self.monitor.begin()
        for index, step in enumerate(steps, start=1):
            remaining = sum(self._estimate(s) for s in steps[index:] if not step_done(session, s))
            if step_done(session, step):
                report.skipped.append(step.label)
                tracker.skip(index, step.label, remaining)
                log(f"[{index}/{len(steps)}] {step.label}: already done, skipped")
                continue
            # Another card may have taken the device's name, or the reader another medium.
            self.held.same_card(step.label)
            self.step_label = step.label
            tracker.start(index, step.label, self._estimate(step), remaining)
            log(f"[{index}/{len(steps)}] {step.label}")
            try:
                outcome = run_step(self.ctx, step)
            except (ToolFailedError, ParseError, ValueError) as exc:
                # A tool whose output no longer fits looks like a broken tool; it is the full disk.
                if disk_full(exc, data_dir, raw_dir):
                    raise
                report.failed.append((step.label, str(exc)))
                tracker.fail(str(exc))
                log(f"  FAILED: {exc}")
                continue
            with self.signals:
                apply_outcome(session, outcome)
                self.rates.update(outcome.rates)
                self._save()
                self.saved = True
                report.ran.append((step.label, outcome.summary))
                log(f"  {outcome.summary}")
                tracker.done(outcome.summary)

    def run(self):
        """The report of the run; raises (with the report attached) when it stopped early."""
        session, report, log, resumed = self.opened.session, self.report, self.opened.log, self.opened.resumed
        data_dir, raw_dir = self.store.data_dir, self.opened.raw_dir
        returned = False
        started = self.clock()
        self.signals.install()
        try:
            self._run_steps(started)
            if self.monitor is not None:
                self.monitor.end()
            session["complete"] = not report.failed
            if report.ran or resumed or report.skipped:
                self._save()
            report.complete = not report.failed
            report.seconds = self.clock() - started
            log(f"session {'complete' if report.complete else 'incomplete'}: {len(report.ran)} run, "
                f"{len(report.skipped)} skipped, {len(report.failed)} failed, {report.seconds:.0f} s")
            self.tracker.finish("complete" if report.complete else f"{len(report.failed)} failed")
            returned = True
            return report
        except (CollectInterrupted, DeviceVanishedError) as exc:
            log_quietly(log, f"stopped: {exc}; {len(report.ran)} finished test(s) kept in {self.store.path.name}")
            exc.report = report
            raise
        except Exception as exc:
            full = disk_full(exc, data_dir, raw_dir)
            if not full:
                log_quietly(log, "card file error; stopping" if isinstance(exc, CardFileError)
                            else f"stopped: {exc!r}")
                raise
            stop = DiskFullError(full, kept=self.saved or resumed)
            log_quietly(log, f"stopped: {stop}")
            stop.report = report
            raise stop from exc
        finally:
            if self.monitor is not None:
                self.monitor.stop()
            self.signals.restore()
            self.held.release()
            if not self.saved and not returned:
                self.created.remove()  # stopped before anything was kept: no raw folder without a session
