"""What a tool module's to_session() hands back: the session's tools and measurements."""

from dataclasses import dataclass, field

from ..core.measurement_kinds import PARSED_KINDS

# Session fields that hold measurements, in the order a session lists them.
MEASUREMENT_KEYS = PARSED_KINDS


@dataclass
class SessionFields:
    """What a tool module's to_session() made of a file: the session's tools and measurements, and
    what the command line should tell the contributor."""
    tools: list  # [{"name": "fio", "version": "fio-3.33"}]
    measurements: dict  # MEASUREMENT_KEYS -> entries ("f3probe", "nvme": one), as parsers.entries builds them
    runs: int  # runs of each measurement: a file holding N runs gives N
    notes: list = field(default_factory=list)  # sentences for the session's notes
    date: str | None = None  # when the output says it ran (a CrystalDiskMark footer), "YYYY-MM-DD"
    host: str | None = None  # the system the output names (a CrystalDiskMark "OS:" line)
    # What reading the figures took for granted beyond the unit (e.g. cdm_fio.sh's default Size), named
    # when a figure's bandwidth and IOPS disagree.
    assumption: str | None = None
    card: dict = field(default_factory=dict)  # facts of the card itself the output gives (a price): for a new card
    session: dict = field(default_factory=dict)  # session fields the output gives besides figures (the CID register)

    @property
    def entries(self):
        """Measurement entries: each result, dd or flashbench entry; the f3probe and nvme blocks one each."""
        return sum(1 if isinstance(value, dict) else len(value or []) for value in self.measurements.values())
