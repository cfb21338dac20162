"""Typed errors of the collector. Each says what was refused or what is missing, and what to do."""

from ..errors import QUOTED_CHARS, CardbenchError, quoted


def device_text(device):
    """A device path as a message shows it: as given when it is a plain short path, else quoted with
    control characters escaped and cut at 80 characters (a newline in it never splits the message)."""
    text = str(device)
    if len(text) <= QUOTED_CHARS and text.isprintable() and not any(c.isspace() for c in text):
        return text
    return quoted(text)


class CollectError(CardbenchError):
    """Base of every collector error."""


class GuardError(CollectError):
    """The device may not be tested. Raised before anything is written, on the card or in data/."""

    def __init__(self, device, message):
        self.device = str(device)
        self.message = message
        super().__init__(f"{device_text(self.device)}: {message}")


class MissingDeviceError(GuardError):
    """The path does not exist."""


class NotBlockDeviceError(GuardError):
    """The path is not a block device (a file, a folder, a character device)."""


class PartitionGivenError(GuardError):
    """A partition was given; the collector tests whole cards."""


class SystemDiskError(GuardError):
    """The disk holds '/' or another mounted system path."""


class MountedError(GuardError):
    """The device or one of its partitions is mounted."""


class SwapError(GuardError):
    """The device or one of its partitions is in use as swap."""


class HolderError(GuardError):
    """The device is a RAID, LVM or device-mapper member."""


class UnknownBackingError(GuardError):
    """The guard cannot tell what a loop device rests on (its backing file cannot be asked for)."""


class ReadOnlyDeviceError(GuardError):
    """The kernel reports the device read-only (e.g. the card's lock switch)."""


class NotMountedError(GuardError):
    """The readonly profile needs the card's filesystem mounted, and it is not."""


class NotConfirmedError(GuardError):
    """The user did not type the device name to confirm."""


class TooSmallError(GuardError):
    """The device is smaller than any card (an empty reader, a wrong device)."""


class InUseError(GuardError):
    """The kernel refuses an exclusive open: mounted in some namespace, or held by another device."""


class NotRootError(CollectError):
    """Raw device access needs root."""


class ToolMissingError(CollectError):
    """A tool is not installed; names the Debian package that provides it."""

    def __init__(self, tool, package):
        self.tool = tool
        self.package = package
        super().__init__(f"'{tool}' is not installed; install the Debian package '{package}' "
                         f"(sudo apt-get install {package}, or: make system-deps)")


class ToolFailedError(CollectError):
    """A tool exited with an error."""

    def __init__(self, tool, returncode, detail, raw_path=None):
        self.tool = tool
        self.returncode = returncode
        self.detail = detail
        self.raw_path = raw_path
        where = f" (output kept in {raw_path})" if raw_path else ""
        super().__init__(f"{tool} failed with exit code {returncode}: {detail}{where}")


class DeviceVanishedError(CollectError):
    """The device disappeared during the run (card pulled, reader reset)."""


class CardChangedError(DeviceVanishedError):
    """The device name now leads to another card (swapped in the reader, another device took the name).
    Raised before the next test writes; finished tests are kept."""


class CardInUseError(DeviceVanishedError):
    """During the run something else began to reach the card's storage (another loop device on its image,
    mounted). Raised before the next test writes; finished tests are kept."""


class DiskFullError(CollectError):
    """The filesystem holding data/ is full: raw outputs or the card file cannot be written.
    Finished tests are kept; the same command resumes once there is space."""

    def __init__(self, where, kept=True):
        self.where = where
        kept_text = "the finished tests are saved" if kept else "no finished test could be saved, so nothing was kept"
        super().__init__(f"no space left on {where} holding data/: {kept_text}; free space and run the same "
                         "command again to resume")


class CollectInterrupted(CollectError):
    """Stopped by Ctrl-C or SIGTERM. Finished tests are kept in the card file."""

    def __init__(self, signal_name="SIGINT"):
        self.signal_name = signal_name
        super().__init__(f"stopped by {signal_name}")


class CardMismatchError(CollectError):
    """The card file exists but cannot take this session (bad slug, missing --name for a new card)."""
