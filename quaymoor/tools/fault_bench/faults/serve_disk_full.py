"""(6) A single ``quaymoor serve`` whose archive's disk fills up: the archive is on a tiny
tmpfs mounted for the fault (``TMPFS_SIZE``), which a filler file fills to the last byte
while every game plays to its end; after the play-out the filler goes (the operator frees
space). The server must stay up and write every record once there is room again. If it
died, it is started again (the note says so) so that what it kept can be read."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import trio

from quaymoor.tools.fault_bench.fault import Fault, Stage

TMPFS_SIZE: Final = "4m"  #: room for the archive's schema and a little more
FILLER: Final = "filler"
CHUNK: Final = 64 * 1024


def _unavailable() -> str | None:
    if os.geteuid() != 0:
        return "needs root: a tmpfs is mounted for the archive"
    if shutil.which("mount") is None or shutil.which("umount") is None:
        return "needs mount and umount"
    return None


@contextlib.contextmanager
def tiny_disk() -> Iterator[Path | None]:
    """A tmpfs of ``TMPFS_SIZE`` mounted on a temporary folder; unmounted afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="quaymoor-full-disk-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={TMPFS_SIZE},mode=0755", "tmpfs",
                    str(folder)], check=True, capture_output=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False, capture_output=True)
        with contextlib.suppress(OSError):
            folder.rmdir()


def fill(folder: Path) -> int:
    """Write the filler until the filesystem is full: bytes written."""
    written = 0
    block = b"\0" * CHUNK
    with open(folder / FILLER, "wb", buffering=0) as out:
        while True:
            try:
                written += out.write(block) or 0
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                break
    # The last bytes: smaller writes until not one more fits.
    with open(folder / FILLER, "ab", buffering=0) as out:
        for size in (4096, 512, 1):
            while True:
                try:
                    written += out.write(b"\0" * size) or 0
                except OSError:
                    break
    return written


async def _inject(stage: Stage) -> None:
    folder = stage.system.archive.parent
    written = await trio.to_thread.run_sync(fill, folder)
    stage.notes.append(f"the archive's disk filled ({written // 1024} KiB of filler)")


async def _recover(stage: Stage) -> None:
    folder = stage.system.archive.parent
    alive = stage.system.alive()
    (folder / FILLER).unlink()
    stage.notes.append("space freed after the play-out; the server was "
                       + ("still up" if alive else "DEAD: started again to read its archive"))
    if not alive:
        await stage.system.restart()


FAULT = Fault("serve-disk-full", "the single process's archive disk full (tmpfs)", "single",
              _inject, hold=0.0, recover=_recover, record_seconds=20.0, archive_folder=tiny_disk,
              unavailable=_unavailable)
