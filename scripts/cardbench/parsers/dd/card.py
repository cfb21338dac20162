"""Which side of a logged dd command is the card, and which commands never touched it.

The side that is a device (/dev/sdc, /dev/mmcblk0p1, /dev/nvme0n1, /dev/disk4, /dev/rdisk4, …) is
the card: dd wrote the card when it is `of=` (an image or /dev/zero written to it), read it when
it is `if=` (to /dev/null, or a backup image). Without a device, the card holds a file: the side
that is an ordinary file (of=/media/user/CARD/test.bin from /dev/zero; if=test.bin to /dev/null),
or, between two files, the one on a mounted filesystem (/media, /run/media, /mnt, /Volumes).

A command whose card side is a pseudo-device (/dev/null written, /dev/zero read, /dev/shm) or that
has no card side at all (if=/dev/zero of=/dev/null) measured no card: no_card() says why.
place() tells where a file is: on a mounted card, in the working folder (a relative path, taken
as the card's, as in `cd /media/user/CARD; dd of=test`), or elsewhere (/var/log/test, /tmp/x:
the card only when it holds the system, as a Raspberry Pi's does; dd/session.py decides from the
rest of the log).
"""

NOT_THE_CARD = {"/dev/zero", "/dev/null", "/dev/urandom", "/dev/random", "/dev/full", "/dev/stdin", "/dev/stdout",
                "/dev/stderr", "-"}
NOT_DEVICES = ("/dev/fd/", "/dev/shm/", "/dev/pts/")  # a shell's pipes, shared memory, terminals
DATA_SOURCES = ("/dev/zero", "/dev/urandom", "/dev/random")
MOUNT_POINTS = ("/media/", "/run/media/", "/mnt/", "/Volumes/")
SINKS = ("", "/dev/null", "-", "/dev/zero")  # where a read's bytes go: /dev/zero discards writes as /dev/null does


def is_device(path):
    return path.startswith("/dev/") and path not in NOT_THE_CARD and not path.startswith(NOT_DEVICES)


def unexpanded(word):
    """A shell variable or command substitution the log does not say the value of."""
    return "$" in word or "`" in word


def card_side(source, target):
    """(op, target kind) of a dd copy from `source` to `target` ("" for stdin / stdout), or None
    when the command does not say which side is the card."""
    source_device, target_device = is_device(source), is_device(target)
    if source_device and target_device:
        return None  # a device copied to a device: either may be the card
    if target_device:
        return "write", "device"
    if source_device:
        return "read", "device"
    if unexpanded(source) or unexpanded(target):
        return None  # of=$DEV that the log never set: a device or a file, nobody can say
    source_file = source not in ("", *NOT_THE_CARD) and not source.startswith("/dev/")
    target_file = target not in ("", *NOT_THE_CARD) and not target.startswith("/dev/")
    if source_file and target_file:
        mounted = [side for side in (source, target) if side.startswith(MOUNT_POINTS)]
        if len(mounted) != 1:
            return None
        return ("read" if mounted[0] == source else "write"), "file"
    if target_file and (source in DATA_SOURCES or source == ""):
        return "write", "file"
    if source_file and target in SINKS:
        return "read", "file"
    return None



def _never_the_card(path):
    """A side of a copy that no card can be: a pseudo-device, a pipe, shared memory, a terminal."""
    return path in NOT_THE_CARD or path.startswith(NOT_DEVICES) or path == ""


def no_card(source, target, op=None):
    """Why a copy from `source` to `target` certainly measured no card ("writes /dev/null"), with the
    card's side given by `op` when the command does not say it; None when it may have."""
    if _never_the_card(source) and _never_the_card(target) and not (source == "" or target == ""):
        return f"copies {source} to {target}: no card in it (a memory speed)"
    if op is not None and card_side(source, target) is None:
        card = target if op == "write" else source
        if card != "" and _never_the_card(card):
            return f"{'writes' if op == 'write' else 'reads'} {card}, not a card"
    return None


def place(path):
    """Where the card's side of a copy is: "device", "mounted" (a file under a mount point),
    "relative" (a file in the working folder) or "elsewhere" (an absolute path outside them)."""
    if path.startswith("/dev/"):
        return "device"
    if path.startswith(MOUNT_POINTS):
        return "mounted"
    if not path.startswith(("/", "~")) and not unexpanded(path):
        return "relative"
    return "elsewhere"
