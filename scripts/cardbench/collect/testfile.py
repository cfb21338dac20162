"""The readonly profile's test file: made by this run, on the card's own filesystem, and nothing else.

Anyone who can write to the card's filesystem could plant a symbolic link or a file of their own at a
known name, so the file gets a random name and is created with O_CREAT|O_EXCL|O_NOFOLLOW (an existing
name of any kind is refused, never opened or overwritten), in a folder opened without following links.
Both must lie on the mounted filesystem that was checked (st_dev equals the mount's MAJ:MIN). The tools
then write through the descriptor held here, so renaming or replacing the name meanwhile changes
nothing; at the end the name is removed only while it still is this very file.
"""

import os
import secrets
import stat

from ..core.units import MIB_BYTES
from .errors import NotMountedError

PREFIX = ".cardbench-test-"
SUFFIX = ".bin"


def _majmin(st_dev):
    return f"{os.major(st_dev)}:{os.minor(st_dev)}"


class CardTestFile:
    """A new regular file in `folder` (the mount point of the filesystem `majmin`), `size_bytes` long."""

    def __init__(self, device, folder, majmin, size_bytes):
        self.device = device
        self.folder = str(folder)
        self.majmin = majmin
        self.size_bytes = size_bytes
        self.name = f"{PREFIX}{secrets.token_hex(8)}{SUFFIX}"
        self.dir_fd = None
        self.fd = None
        self.identity = None

    @property
    def path(self):
        """Where the file lives, for readers of the recorded commands."""
        return os.path.join(self.folder, self.name)

    @property
    def tool_path(self):
        """The held file itself, seen from the collector's children."""
        return f"/proc/{os.getpid()}/fd/{self.fd}"

    def _refuse(self, why):
        self.close()
        raise NotMountedError(self.device, f"cannot make the readonly profile's test file in {self.folder}: {why}; "
                                           "nothing was written")

    def create(self):
        try:
            self.dir_fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as exc:
            self._refuse(exc.strerror)
        if _majmin(os.fstat(self.dir_fd).st_dev) != self.majmin:
            self._refuse("the folder is not on the card's filesystem (mounted over, or replaced)")
        try:
            self.fd = os.open(self.name, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                              dir_fd=self.dir_fd)
        except OSError as exc:
            self._refuse(exc.strerror)
        st = os.fstat(self.fd)
        self.identity = (st.st_dev, st.st_ino)
        if not stat.S_ISREG(st.st_mode) or _majmin(st.st_dev) != self.majmin:
            self._refuse("the new file is not a regular file on the card's filesystem")
        try:
            # Full size at once: fio then never extends it (it would unlink and re-create the name to do so).
            os.ftruncate(self.fd, self.size_bytes)
        except OSError as exc:
            self.remove()
            raise NotMountedError(self.device, f"the card's filesystem at {self.folder} cannot hold the "
                                               f"{self.size_bytes // MIB_BYTES} MiB test file ({exc.strerror}); "
                                               "free some space on the card") from None
        return self

    def remove(self):
        """Remove the name when it still is the file made here; close everything."""
        if self.dir_fd is not None and self.identity is not None:
            try:
                st = os.stat(self.name, dir_fd=self.dir_fd, follow_symlinks=False)
                if (st.st_dev, st.st_ino) == self.identity:
                    os.unlink(self.name, dir_fd=self.dir_fd)
            except OSError:
                pass
        self.close()

    def close(self):
        for attr in ("fd", "dir_fd"):
            fd = getattr(self, attr)
            if fd is not None:
                os.close(fd)
                setattr(self, attr, None)
