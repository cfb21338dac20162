"""The card a run tests, taken and held: the guard's checks, the kernel's node of the checked disk, the
device held open until the run ends (exclusively for the raw profiles, so nothing can mount it), the card
identified and confirmed, and the readonly profile's test file on its filesystem.

  take_card(request, mode) -> HeldCard     refuses what must not be written; holds the device
  HeldCard.identify(), .confirm(...), .same_card(before), .make_test_file(bytes), .release()
"""

from dataclasses import dataclass

from .guard import guard
from .guard.device import DeviceInfo, identify
from .errors import NotConfirmedError
from .testfile import CardTestFile


@dataclass
class HeldCard:
    node: str  # the kernel's node (/dev/sdb), never the name given, which anyone may repoint
    checked: guard.GuardResult
    claim: guard.DeviceClaim  # the open descriptor tools reach the card through
    root: str  # where sysfs and /proc are read
    mode: str  # guard.RAW: the profile writes the raw device; guard.FILESYSTEM: a file on its filesystem
    info: DeviceInfo | None = None  # once identified
    test_file: CardTestFile | None = None

    def identify(self):
        self.info = identify(self.node, self.checked.majmin, root=self.root)
        return self.info

    def confirm(self, yes, ask):
        """The user's yes to writing this card (asked through `ask(prompt) -> answer` unless `yes`), then a
        check that the card shown is still the one there: the answer may come minutes later."""
        if not yes:
            if ask is None:
                raise NotConfirmedError(self.node, "not confirmed; nothing was written. Use --yes (make: YES=1) in "
                                                   "scripts.")
            answer = ask(guard.confirmation_prompt(self.node, self.info.description()))
            guard.check_confirmation(self.node, answer)
        self.same_card("the first test")

    def same_card(self, before):
        """Raises when another card took the device's name, or the reader another medium, before `before`."""
        guard.check_same_card(self.node, self.info, self.claim, root=self.root, before=before)

    def make_test_file(self, size_bytes):
        """The readonly profile's test file in the checked mount (none for the raw profiles)."""
        if self.checked.test_dir:
            mount = next(m for m in self.checked.mounts if m.mount_point == self.checked.test_dir)
            self.test_file = CardTestFile(self.node, self.checked.test_dir, mount.majmin, size_bytes).create()
        return self.test_file

    def shown(self):
        """The descriptors' paths tools open, mapped to the names commands and messages show."""
        return {self.claim.tool_path: self.node,
                **({self.test_file.tool_path: self.test_file.path} if self.test_file else {})}

    def release(self):
        if self.test_file is not None:
            self.test_file.remove()
        self.claim.close()


def take_card(request, mode):
    """The device `request.device` checked by the guard for `mode` (guard.RAW or guard.FILESYSTEM) and held."""
    checked = guard.check_device(request.device, mode=mode, root=request.root)
    # The name given may be a link (/dev/disk/by-path/…) that anyone can repoint: from here on only the
    # kernel's node of the checked disk is used, and tools reach the device through the descriptor held.
    node = guard.canonical_node(request.device, checked.majmin, checked.name)
    # Held until the run ends: nothing can mount the card meanwhile. The readonly profile works through
    # the card's mounted filesystem, so it holds the device without claiming it.
    claim = guard.claim_device(node, checked.majmin, root=request.root, exclusive=mode == guard.RAW)
    return HeldCard(node, checked, claim, request.root, mode)
