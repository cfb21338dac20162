"""SD Express cards: nvme-cli facts and temperatures before, during and after the tests."""

import subprocess
import threading
import time

from ..errors import ParseError
from ..parsers import nvme as nvme_parser
from ..parsers.registry import format_named
from . import tools

NVME = format_named("nvme")

SAMPLE_SECONDS = 10


class NvmeMonitor:
    """SD Express cards: id-ctrl, thermal thresholds, and smart-log temperatures before, during, after."""

    def __init__(self, nvme_path, controller, ctx, started):
        self.nvme = nvme_path
        self.controller = controller
        self.ctx = ctx
        self.started = started
        self.samples = []
        self.sample_texts = []  # smart-log output of every sample, one line each
        self.before = None
        self.after = None
        self.id_ctrl = None
        self.features = None
        self.raw = []
        self._stop = threading.Event()
        self._thread = None
        self._lock = threading.Lock()

    def _call(self, argv):
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=20, env=tools.run_env(tools.C_LOCALE))
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout if done.returncode == 0 else None

    def _save(self, name, text):
        (self.ctx.raw_dir / name).write_text(text, encoding="utf-8")
        if self.ctx.rel(name) not in self.raw:
            self.raw.append(self.ctx.rel(name))

    def _temperature(self):
        text = self._call(tools.nvme_argv(self.nvme, "smart-log", self.controller))
        if not text:
            return None, None
        try:
            return nvme_parser.parse_smart_log(text)["temperature_c"], text
        except ParseError:
            return None, text

    def begin(self):
        text = self._call(tools.nvme_argv(self.nvme, "id-ctrl", self.controller))
        if text:
            self._save("nvme-id-ctrl.json", text)
            try:
                self.id_ctrl = nvme_parser.parse_id_ctrl(text)
            except ParseError as exc:
                self.ctx.log(f"nvme id-ctrl not understood: {exc}")
        features = []
        for feature in ("0x04", "0x10"):  # temperature threshold; host controlled thermal management
            out = self._call([self.nvme, "get-feature", self.controller, f"--feature-id={feature}", "-H"])
            if out:
                features.append(out)
        if features:
            self._save("nvme-features.txt", "\n".join(features))
            try:
                self.features = nvme_parser.parse_features("\n".join(features))
            except ParseError:
                self.features = None
        self.before, text = self._temperature()
        if text:
            self._save("nvme-smart-log-before.json", text)
        self._thread = threading.Thread(target=self._sample, name="nvme-temperature", daemon=True)
        self._thread.start()

    def _sample(self):
        while not self._stop.wait(SAMPLE_SECONDS):
            value, text = self._temperature()
            if value is None:
                continue
            with self._lock:
                self.samples.append({"seconds": round(time.monotonic() - self.started, 1), "value": value})
                self.sample_texts.append(" ".join(text.split()))

    def stop(self):
        """Stop sampling (also when the run is cut short)."""
        self._stop.set()

    def end(self):
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=30)
        self.after, text = self._temperature()
        if text:
            self._save("nvme-smart-log-after.json", text)

    def entry(self, pcie_link):
        """The session's nvme object; writes the samples file first so its hash matches what is listed."""
        with self._lock:
            if self.sample_texts:
                self._save("nvme-smart-log-samples.txt", "\n".join(self.sample_texts) + "\n")
            temps = {"before": self.before, "after": self.after,
                     "samples": list(self.samples) or None}
            seen = [v for v in [self.before, self.after] + [s["value"] for s in self.samples] if v is not None]
            temps["max"] = max(seen) if seen else None
            temps = {k: v for k, v in temps.items() if v is not None}
            raw = list(self.raw)
        fields = NVME.session_of(nvme_parser.parsed_outputs(self.id_ctrl, self.features),
                                 temperature_c=temps or None, pcie_link=pcie_link, raw=raw or None)
        return fields.measurements["nvme"]
