"""Hosts of their own on one machine: Linux network namespaces joined by veth pairs to a
bridge, so that a cluster's pieces talk over a network that a test can cut.

``Hosts.up()`` lays out, for one run:

- a namespace ``qm<run>-sw`` holding the bridge ``sw`` (the switch);
- a namespace per host (``router``, ``table-1``, ``table-2``, ``db``, ``client``:
  ``HOSTS``), ``qm<run>-<host>``, each with its loopback up and an ``eth0`` whose peer
  ``p<i>`` is a port of the bridge, and an address of ``SUBNET`` (``ADDRESSES``).

Every interface is made inside these namespaces (``ip -n``), never in the machine's own,
so parallel runs collide only if they drew the same four hex digits of ``run`` (checked:
``up`` refuses a name that exists) and nothing here can route to or from the machine's
own interfaces: traffic stays inside. ``cut(host)`` sets the switch's end of a host's
cable down (the host sees its carrier go and its packets dropped, as when a cable or a
switch port fails: its sockets stall rather than fail at once), ``restore(host)`` sets it
up again. ``down()`` deletes every namespace of the run (their interfaces go with them)
and is safe to call twice, or after a half-done ``up``.

``entered(host)`` moves the calling thread (only it: ``setns(2)`` is per thread) into a
host's namespace and back, so that a test's or a bench's own sockets are the client's.
``cut(folder, "w01")`` and ``heal(folder, "w01")`` do the same knowing only a cluster's
folder and a table process's name (``write_layout`` put the run there): the fault bench's
faults call them. Root only (CI runs as root); ``missing()`` says why this cannot run here.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final

HOSTS: Final = ("router", "table-1", "table-2", "db", "client")
SUBNET: Final = "10.77.0.0/24"
PREFIX_LEN: Final = 24
#: Each host's address in ``SUBNET``.
ADDRESSES: Final = {"router": "10.77.0.2", "table-1": "10.77.0.11", "table-2": "10.77.0.12",
                    "db": "10.77.0.20", "client": "10.77.0.30"}
NETNS_DIR: Final = Path("/var/run/netns")
IFACE: Final = "eth0"  #: a host's end of its cable, in its own namespace
BRIDGE: Final = "sw"
_CLONE_NEWNET: Final = 0x40000000
#: In a cluster's folder: the run and which host serves which table process.
LAYOUT_FILE: Final = "netns.json"


class NetnsError(Exception):
    """A namespace, link or address could not be made or changed (what ``ip`` said)."""


def missing() -> str | None:
    """Why namespaces cannot be laid out here (not root, no ``ip``), or None."""
    if os.geteuid() != 0:
        return "network namespaces need root (ip netns add); CI runs the tests as root"
    if shutil.which("ip") is None:
        return "the ip command is missing (apt-get install iproute2)"
    return None


def ip(*args: str) -> str:
    """``ip ARGS``; its output. Raises ``NetnsError`` with what it said on failure."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise NetnsError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


class Hosts:
    """One run's namespaces: ``up()``, then ``exec_args``/``run``/``cut``/``restore``,
    and ``down()`` always (``with Hosts() as hosts:`` does both)."""

    def __init__(self, run_id: str | None = None) -> None:
        self.run_id = run_id or secrets.token_hex(2)  #: four hex digits: names stay short
        self.switch = f"qm{self.run_id}-sw"
        self.made: list[str] = []  #: namespaces made so far (``down`` deletes these)

    def netns(self, host: str) -> str:
        """The namespace of ``host`` (at most 16 characters: ``qm`` + run + host)."""
        if host not in ADDRESSES:
            raise ValueError(f"no host {host!r}: one of {', '.join(HOSTS)}")
        return f"qm{self.run_id}-{host}"

    def address(self, host: str) -> str:
        self.netns(host)
        return ADDRESSES[host]

    def _port(self, host: str) -> str:
        return f"p{HOSTS.index(host)}"  #: the switch's end of ``host``'s cable

    def up(self) -> Hosts:
        """Make the switch and every host, cabled and addressed; on failure what was
        made is deleted before the error goes on."""
        try:
            self._add_netns(self.switch)
            ip("-n", self.switch, "link", "set", "lo", "up")
            ip("-n", self.switch, "link", "add", BRIDGE, "type", "bridge")
            ip("-n", self.switch, "link", "set", BRIDGE, "up")
            for host in HOSTS:
                ns = self.netns(host)
                self._add_netns(ns)
                port = self._port(host)
                ip("-n", self.switch, "link", "add", port, "type", "veth",
                   "peer", "name", IFACE, "netns", ns)
                ip("-n", self.switch, "link", "set", port, "master", BRIDGE)
                ip("-n", self.switch, "link", "set", port, "up")
                ip("-n", ns, "link", "set", "lo", "up")
                ip("-n", ns, "addr", "add", f"{ADDRESSES[host]}/{PREFIX_LEN}", "dev", IFACE)
                ip("-n", ns, "link", "set", IFACE, "up")
        except BaseException:
            self.down()
            raise
        return self

    def _add_netns(self, name: str) -> None:
        if (NETNS_DIR / name).exists():
            raise NetnsError(f"namespace {name} exists already (another run's?)")
        ip("netns", "add", name)
        self.made.append(name)

    def exec_args(self, host: str, argv: Sequence[str]) -> list[str]:
        """The command line that runs ``argv`` in ``host``'s namespace."""
        return ["ip", "netns", "exec", self.netns(host), *argv]

    def run(self, host: str, argv: Sequence[str], *, timeout: float = 30
            ) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` in ``host``'s namespace to its end (its output captured)."""
        return subprocess.run(self.exec_args(host, argv), capture_output=True, text=True,
                              check=False, timeout=timeout)

    def cut(self, host: str) -> None:
        """``host``'s cable pulled: the switch's end of its link down."""
        ip("-n", self.switch, "link", "set", self._port(host), "down")

    def restore(self, host: str) -> None:
        """``host``'s cable back: the switch's end of its link up."""
        ip("-n", self.switch, "link", "set", self._port(host), "up")

    def is_cut(self, host: str) -> bool:
        shown = ip("-n", self.switch, "-o", "link", "show", self._port(host))
        return "state DOWN" in shown or ",UP" not in shown.split(">")[0]

    def down(self) -> None:
        """Delete every namespace this run made (their interfaces and the processes'
        sockets in them go too); safe to call twice."""
        for name in reversed(self.made):
            if (NETNS_DIR / name).exists():
                with contextlib.suppress(NetnsError):
                    ip("netns", "delete", name)
        self.made.clear()

    def write_layout(self, folder: Path, slots: dict[str, str]) -> None:
        """Say in ``folder`` (``LAYOUT_FILE``) which run this is and which host serves
        each table process (``{"w00": "table-1"}``), for ``cut`` and ``heal``."""
        layout = {"run": self.run_id, "slots": slots}
        (folder / LAYOUT_FILE).write_text(json.dumps(layout) + "\n")

    def __enter__(self) -> Hosts:
        return self.up()

    def __exit__(self, *exc: object) -> None:
        self.down()

    @contextlib.contextmanager
    def entered(self, host: str) -> Iterator[None]:
        """The calling thread in ``host``'s namespace for the block (sockets it opens
        there stay there after); back in the one it was in afterwards. Threads started
        meanwhile (trio's worker threads, say) start in it and stay in it: whatever must
        look at the machine's own namespace enters it by name (``entered_netns``)."""
        with entered_netns(NETNS_DIR / self.netns(host)):
            yield


def _laid_out(folder: Path, process: str) -> tuple[Hosts, str]:
    """The hosts of the cluster over namespaces whose folder is ``folder``, and the one
    serving the table process named ``process`` (``w00``)."""
    try:
        layout = json.loads((Path(folder) / LAYOUT_FILE).read_text())
    except (OSError, ValueError) as exc:
        raise NetnsError(f"no cluster over namespaces in {folder} ({LAYOUT_FILE}: {exc})"
                         ) from exc
    slots: dict[str, str] = layout["slots"]
    if process not in slots:
        raise NetnsError(f"no table process {process!r} in {folder}: {', '.join(sorted(slots))}")
    return Hosts(str(layout["run"])), slots[process]


def cut(folder: Path, process: str) -> None:
    """The host of the table process ``process`` (``w01``) of the cluster over namespaces
    in ``folder`` (``netns_cluster``) cut off. Blocks briefly: from trio, in a thread."""
    hosts, host = _laid_out(folder, process)
    hosts.cut(host)


def heal(folder: Path, process: str) -> None:
    """That host cabled again (``cut`` undone)."""
    hosts, host = _laid_out(folder, process)
    hosts.restore(host)


@contextlib.contextmanager
def entered_netns(path: Path) -> Iterator[None]:
    """The calling thread in the network namespace at ``path`` (``setns(2)``), then back."""
    libc = ctypes.CDLL(None, use_errno=True)
    home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    try:
        target = os.open(path, os.O_RDONLY)
        try:
            if libc.setns(target, _CLONE_NEWNET) != 0:
                err = ctypes.get_errno()
                raise NetnsError(f"setns {path}: {os.strerror(err)}")
        finally:
            os.close(target)
        try:
            yield
        finally:
            if libc.setns(home, _CLONE_NEWNET) != 0:  # pragma: no cover - the kernel's
                err = ctypes.get_errno()
                raise NetnsError(f"setns back: {os.strerror(err)}")
    finally:
        os.close(home)
