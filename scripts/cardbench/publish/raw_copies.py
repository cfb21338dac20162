"""The raw tool outputs the cards name, copied where the site serves them (/data/raw/<slug>/…)."""

import os
import shutil
from pathlib import Path

from ..card.checks.raw_files import raw_type_allowed
from ..core.paths import DATA_DIR


def publish_raw(out_dir, refs, data_dir=DATA_DIR):
    """Copy the raw files named in `refs` (raw/<slug>/…, relative to data_dir) to out_dir/raw/…, which
    the site serves, and remove earlier copies no longer named. Hugo mounts this folder instead of
    data/raw, so a file no card names, or of a type a browser would run (.html, .svg), is never
    published. Unchanged copies (same size and time) are left alone. Returns the number copied."""
    out_dir, data_dir = Path(out_dir), Path(data_dir)
    root, source_root = out_dir / "raw", (data_dir / "raw").resolve()
    root.mkdir(parents=True, exist_ok=True)
    wanted, copied = set(), 0
    for ref in refs:
        parts = ref.split("/")
        if len(parts) < 3 or parts[0] != "raw" or any(p in ("", ".", "..") for p in parts) or not raw_type_allowed(ref):
            continue  # the validator refuses such a path; it is never published
        source = (data_dir / ref).resolve()
        if source_root not in source.parents:
            continue
        try:
            have = source.stat()
        except OSError:
            continue
        wanted.add(ref)
        target = out_dir / ref
        try:
            had = target.stat()
            if (had.st_size, had.st_mtime_ns) == (have.st_size, have.st_mtime_ns):
                continue
        except OSError:
            pass
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch = out_dir / f".raw-copy-{os.getpid()}.tmp"  # outside the served folder until complete
        shutil.copy2(source, scratch)
        os.replace(scratch, target)
        copied += 1
    for folder, _, names in os.walk(root, topdown=False):
        for name in names:
            path = Path(folder) / name
            if path.relative_to(out_dir).as_posix() not in wanted:
                path.unlink()
        if Path(folder) != root and not os.listdir(folder):
            os.rmdir(folder)
    return copied


__all__ = ["publish_raw"]
