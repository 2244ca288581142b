"""A real ``quaymoor serve`` whose archive's disk fails under it while games end: a tiny
tmpfs filled to the last byte, then an ext4 image that turns itself read-only (its
``errors=remount-ro``, as a failing disk does).

Each test plays whole games with clients (a bot fills the other chair) while the disk
fails, and asserts: the server stays up and keeps opening tables; ``/status.json`` says
"archive failing since ..., N pending"; ``/metrics`` counts the failures; each finished
game's ``record_url`` answers 202 pending. Then the disk is mended (the space freed; the
image checked and mounted again: the server must not write to the bare mount point while
it is away) and every record must be written and verify with ``quaymoor verify``: the
test counts the records lost (0).

Why not ``mount -o remount,ro``: the kernel refuses it (EBUSY) while any file on the
filesystem is open for writing, and a running server holds its archive open. A disk goes
read-only under a running server the way the second test makes it: the filesystem's own
``errors=remount-ro`` after an error (ext4's ``trigger_fs_error``). Mending it then means
unmounting it, which the archive allows: a failed write closes its connections.

Two more, in this process on a tmpfs: past its limit of waiting records the supervisor
opens no new table until they are written, and an exit while the disk is still full names
every record it could not write (lost, counted).

Mounting needs root: the tests skip, saying so, without it. Every mount is undone in a
``finally``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trio

import quaymoor.store.archive as archive_module
from quaymoor.actors.inbox import TableError
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.protocol.codes import Code
from quaymoor.store.archive import Archive
from tests.actors.test_end_to_end import Client, connect, http, play_now
from tests.server_process import ROOT, Served, browser_skip_reason, chromium, start_server
from tests.store.test_archive import small_record

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("mkfs.ext4") is None or shutil.which("e2fsck") is None,
    reason="mounting a small filesystem for the archive needs root and e2fsprogs")

LIMIT = 120  #: seconds for a whole test
GAMES = 3  #: games that end while the disk fails


# ---------------------------------------------------------------- disks


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, check=check, capture_output=True, text=True, timeout=30)


def unmount(point: Path) -> None:
    """Unmount ``point``; a busy one lazily (the test failed with the server holding it)."""
    if run("mountpoint", "-q", str(point), check=False).returncode != 0:
        return
    if run("umount", str(point), check=False).returncode != 0:
        run("umount", "-l", str(point), check=False)


@contextlib.contextmanager
def tmpfs(point: Path, size: str) -> Iterator[Path]:
    point.mkdir(parents=True, exist_ok=True)
    run("mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(point))
    try:
        yield point
    finally:
        unmount(point)


@contextlib.contextmanager
def ext4_image(image: Path, point: Path, size_mb: int) -> Iterator[Path]:
    """An ext4 image mounted on ``point`` (a loop device) with ``errors=remount-ro``."""
    run("truncate", "-s", f"{size_mb}M", str(image))
    run("mkfs.ext4", "-q", "-F", str(image))
    point.mkdir(parents=True, exist_ok=True)
    run("mount", "-o", "loop,errors=remount-ro", str(image), str(point))
    try:
        yield point
    finally:
        unmount(point)


def fill(disk: Path) -> Path:
    """A file of zeros taking every free byte of ``disk``."""
    path = disk / "zeros"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        for chunk in (1 << 16, 4096, 512, 1):
            block = bytes(chunk)
            while True:
                try:
                    os.write(fd, block)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc
                    break
    finally:
        os.close(fd)
    assert shutil.disk_usage(disk).free == 0
    return path


def turn_read_only(point: Path) -> None:
    """The filesystem on ``point`` meets an error and remounts itself read-only."""
    device = Path(run("findmnt", "-n", "-o", "SOURCE", str(point)).stdout.strip()).name
    Path(f"/sys/fs/ext4/{device}/trigger_fs_error").write_text("archive disk fault test\n")
    options = run("findmnt", "-n", "-o", "OPTIONS", str(point)).stdout
    assert "emergency_ro" in options or options.startswith("ro"), options


async def unmount_broken(point: Path) -> None:
    """Unmount the read-only filesystem: the archive let go of it."""
    deadline = trio.current_time() + 15
    while run("umount", str(point), check=False).returncode != 0:
        # the writer's retry may hold the file for the moment it tries to open it
        assert trio.current_time() < deadline, "the server keeps the broken disk busy"
        await trio.sleep(0.05)


def mount_mended(image: Path, point: Path) -> None:
    """Check the filesystem and mount it again writable."""
    checked = run("e2fsck", "-f", "-y", str(image), check=False)
    assert checked.returncode in (0, 1), checked.stdout + checked.stderr
    run("mount", "-o", "loop,errors=remount-ro", str(image), str(point))


# ---------------------------------------------------------------- the server


def metrics(port: int) -> dict[str, float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        text = reply.read().decode()
    out = {}
    for line in text.splitlines():
        if line.startswith("quaymoor_archive_"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


async def status(port: int) -> dict[str, Any]:
    reply = await http(port, "GET", "/status.json")
    assert reply.status == 200, reply
    archive: dict[str, Any] = reply.body["archive"]
    return archive


async def play_games(served: Served, count: int) -> list[str]:
    """``count`` two-seat games (a human client and a bot) played to their end at once;
    their table ids."""
    port = served.port
    ended: list[str] = []

    async def one(i: int) -> None:
        info = await play_now(port, 2, f"Player {i}")
        async with connect(port) as client:
            await client.hello(info["table"], info["token"])
            result = await Client.play(client)
            assert result is not None and result["reason"] == "finished", result
            assert result["record_url"] == f"/games/{info['table']}.json"
            ended.append(info["table"])

    async with trio.open_nursery() as nursery:
        for i in range(count):
            nursery.start_soon(one, i)
    assert served.proc.poll() is None, "the server died"
    return ended


async def until_written(served: Served, within: float = 30.0) -> dict[str, Any]:
    """Wait until the archive writes again and nothing is pending; its status then."""
    deadline = trio.current_time() + within
    while True:
        assert served.proc.poll() is None, "the server died"
        health = await status(served.port)
        if health["pending"] == 0 and not health["failing"]:
            return health
        assert trio.current_time() < deadline, f"still failing: {health}"
        await trio.sleep(0.2)


async def check_failing(served: Served, pending: list[str]) -> None:
    """What the server says while its disk fails and ``pending`` games wait."""
    health = await status(served.port)
    assert health["failing"] and health["pending"] == len(pending), health
    assert health["text"].startswith("archive failing since ")
    assert health["text"].endswith(f", {len(pending)} pending"), health["text"]
    assert time.time() - 120 < health["failing_since"] <= time.time()
    for table in pending:
        reply = await http(served.port, "GET", f"/games/{table}.json")
        assert reply.status == 202 and reply.body["status"] == "pending", reply
        assert reply.headers["retry-after"].isdigit()
        page = await http(served.port, "GET", f"/api/games/{table}")
        assert page.status == 200 and page.body["id"] == table  # served from memory
    seen = await trio.to_thread.run_sync(metrics, served.port)
    assert seen["quaymoor_archive_write_failures_total"] >= 1
    assert seen["quaymoor_archive_pending_records"] == len(pending)
    assert seen["quaymoor_archive_failing"] == 1
    assert seen["quaymoor_archive_last_failure_timestamp_seconds"] > time.time() - 120
    healthz = await http(served.port, "GET", "/healthz")
    assert healthz.status == 200 and healthz.body["ok"] is True


def status_page_summary(url: str) -> str | None:
    """The status page's top line in a real browser, once it mentions the archive (None:
    no browser here)."""
    if browser_skip_reason() is not None:
        return None
    with chromium() as browser:
        page = browser.new_page()
        page.goto(f"{url}/status")
        page.wait_for_function(
            "() => document.getElementById('summary').textContent.includes('archive')")
        text: str = page.locator("#summary").inner_text()
        return text


async def verified(served: Served, tables: list[str], folder: Path) -> int:
    """How many of ``tables`` the server serves and ``quaymoor verify`` accepts."""
    good = 0
    for table in tables:
        reply = await http(served.port, "GET", f"/games/{table}.json")
        if reply.status != 200:
            continue
        path = folder / f"{table}.json"
        path.write_text(json.dumps(reply.body))
        good += await trio.to_thread.run_sync(quaymoor_verify, path)
    return good


def quaymoor_verify(path: Path) -> bool:
    checked = subprocess.run([sys.executable, "-m", "quaymoor", "verify", str(path)],
                             check=False, cwd=ROOT, capture_output=True, text=True, timeout=60)
    return checked.returncode == 0


def archived_ids(archive: Path) -> set[str]:
    with contextlib.closing(sqlite3.connect(archive)) as db:
        return {row[0] for row in db.execute("SELECT id FROM games")}


# ---------------------------------------------------------------- the faults


async def test_a_full_disk_keeps_the_server_up_and_loses_no_record(tmp_path: Path) -> None:
    with trio.fail_after(LIMIT), tmpfs(tmp_path / "disk", "3m") as disk:
        archive = disk / "quaymoor.sqlite3"
        served = start_server(archive, "--bot-delay", "0")
        try:
            zeros = fill(disk)
            ended = await play_games(served, GAMES)
            await check_failing(served, ended)
            more = await play_games(served, 1)  # new tables still open, and end
            ended += more
            await check_failing(served, ended)
            shown = await trio.to_thread.run_sync(status_page_summary, served.url)
            assert shown is None or re.search(
                r" · archive failing since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, "
                f"{len(ended)} pending$", shown), shown

            zeros.unlink()  # the space comes back
            started = trio.current_time()
            health = await until_written(served)
            took = trio.current_time() - started
            assert health["failures"] >= 1 and health["lost"] == 0
            assert took < 10, f"{took:.1f} s to write after the space came back"
            good = await verified(served, ended, tmp_path)
            assert served.proc.poll() is None
        finally:
            served.stop(timeout=20)
        assert archived_ids(archive) >= set(ended)
        lost = len(ended) - good
        print(f"full disk: {len(ended)} games ended, {health['failures']} failed writes, "
              f"written {took:.1f} s after the space came back, {good} verified, {lost} lost")
        assert lost == 0, f"{lost} of {len(ended)} records lost or not verified"


async def test_a_disk_turned_read_only_keeps_the_server_up_and_loses_no_record(
    tmp_path: Path,
) -> None:
    image = tmp_path / "archive.ext4"
    with trio.fail_after(LIMIT), ext4_image(image, tmp_path / "disk", 16) as disk:
        archive = disk / "quaymoor.sqlite3"
        served = start_server(archive, "--bot-delay", "0")
        try:
            before = await play_games(served, 1)
            await until_written(served)
            turn_read_only(disk)
            ended = await play_games(served, GAMES)
            await check_failing(served, ended)

            await unmount_broken(disk)
            # the writer retries meanwhile: it must not make a new, empty archive in the
            # bare mount point (the mount would hide it, and the records in it)
            await trio.sleep(archive_module.MAX_RETRY_SECONDS + 1)
            assert not archive.exists(), "an archive made where the disk was not mounted"
            await check_failing(served, ended)
            mount_mended(image, disk)
            health = await until_written(served)
            assert health["failures"] >= 1 and health["lost"] == 0
            good = await verified(served, before + ended, tmp_path)
        finally:
            served.stop(timeout=20)
        assert archived_ids(archive) >= set(before + ended)
        lost = len(before + ended) - good
        print(f"read-only disk: {len(before + ended)} games ended, {health['failures']} "
              f"failed writes, {good} verified, {lost} lost")
        assert lost == 0, f"{lost} of {len(before + ended)} records lost or not verified"


# ---------------------------------------------------------------- the bound and the exit


async def until_failing(archive: Archive, within: float = 10.0) -> None:
    with trio.fail_after(within):
        while not archive.health().failing:
            await trio.sleep(0.02)


async def test_past_its_limit_of_waiting_records_no_table_opens_until_they_are_written(
    tmp_path: Path,
) -> None:
    with trio.fail_after(LIMIT), tmpfs(tmp_path / "disk", "1m") as disk:
        archive = Archive(disk / "a.sqlite3", pending_limit=2, retry_seconds=0.05)
        supervisor = Supervisor(TableConfig(), archive=archive)
        async with trio.open_nursery() as nursery:
            await nursery.start(archive.run)
            await nursery.start(supervisor.run)
            zeros = fill(disk)
            archive.submit("00000000a1", small_record(1))
            await until_failing(archive)
            assert not archive.health().full
            await supervisor.create_table(2)  # one waiting record: tables still open
            archive.submit("00000000a2", small_record(2))
            assert archive.health().full and archive.health().pending == 2
            with pytest.raises(TableError) as refused:
                await supervisor.create_table(2)
            assert refused.value.code is Code.SERVER_FULL
            assert "the archive is failing: 2 finished games wait" in refused.value.message
            assert supervisor.summary()["archive"]["text"].endswith(
                "2 pending (limit 2 reached: no new tables)")

            zeros.unlink()
            with trio.fail_after(10):
                await archive.flush()
            health = archive.health()
            assert health.pending == 0 and not health.failing and health.failures >= 1
            await supervisor.create_table(2)
            await supervisor.shutdown()
            await archive.close()
            nursery.cancel_scope.cancel()
        assert archived_ids(disk / "a.sqlite3") >= {"00000000a1", "00000000a2"}


async def test_an_exit_on_a_disk_still_full_names_every_record_it_could_not_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(archive_module, "EXIT_WAIT", 0.3)
    with trio.fail_after(LIMIT), tmpfs(tmp_path / "disk", "1m") as disk:
        archive = Archive(disk / "a.sqlite3", retry_seconds=0.05)
        async with trio.open_nursery() as nursery:
            await nursery.start(archive.run)
            fill(disk)
            archive.submit("00000000b1", small_record(1))
            await until_failing(archive)
            started = trio.current_time()
            await archive.close()  # gives up after EXIT_WAIT seconds of failures
            assert trio.current_time() - started < 5
            nursery.cancel_scope.cancel()  # as the server's exit does next
    messages = [r.getMessage() for r in caplog.records]
    assert any("1 records not written: 00000000b1" in m for m in messages), messages
    assert any("1 writes lost: record of game 00000000b1" in m for m in messages), messages
    assert archive.health().lost == 1
