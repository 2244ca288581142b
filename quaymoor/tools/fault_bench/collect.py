"""After a fault: each game's record, read from the system and checked with the project's
verifier (``quaymoor.rules.verify``, what ``quaymoor verify`` runs).

A record is read at ``GET /games/<id>.json`` on the public port, or on a table process's
own port when the public one does not answer (a dead HAProxy). Records still being
written (a database queue, a full disk's pending records) are waited for, up to
``seconds``: what is missing then is lost.
"""

from __future__ import annotations

import attrs
import trio

from quaymoor.rules.record import GameRecord
from quaymoor.rules.verify import verify_record
from quaymoor.tools.fault_bench.http_get import request
from quaymoor.tools.fault_bench.system import System
from quaymoor.tools.fault_bench.table_client import TableClient


@attrs.frozen
class Records:
    """What the archive holds for the watched games."""

    found: dict[str, str]  #: table id -> the record's text
    verified: frozenset[str]  #: the ids whose record the verifier accepts (seed included)
    refused: dict[str, str]  #: table id -> why the verifier refused it


async def collect(system: System, clients: list[TableClient], seconds: float) -> Records:
    """Every watched game's record, waiting up to ``seconds`` for those not there yet."""
    found: dict[str, str] = {}
    with trio.move_on_after(seconds):
        while len(found) < len(clients):
            ports = await system.read_ports()
            for client in clients:
                if client.table not in found:
                    text = await _read(system.host, ports, client.table)
                    if text is not None:
                        found[client.table] = text
            if len(found) < len(clients):
                await trio.sleep(0.5)
    verified: set[str] = set()
    refused: dict[str, str] = {}
    by_table = {c.table: c for c in clients}
    for table, text in found.items():
        why = check(text, by_table[table].fingerprint)
        if why is None:
            verified.add(table)
        else:
            refused[table] = why
    return Records(found, frozenset(verified), refused)


async def _read(host: str, ports: list[int], table: str) -> str | None:
    for port in ports:
        got = await request(port, "GET", f"/games/{table}.json", timeout=3.0, host=host)
        if got is not None and got[0] == 200:
            return got[1].decode("utf-8", errors="replace")
        if got is not None and got[0] == 404:
            return None  # the archive answered: not there (yet)
    return None


def check(text: str, fingerprint: str) -> str | None:
    """Why the record is not a good one (None: it is): it does not parse, its fingerprint
    is not the one the player was shown, or the verifier refuses it (which checks the
    seed, the table and its seats against that fingerprint)."""
    try:
        record = GameRecord.from_json(text)
    except ValueError as exc:
        return str(exc)
    if record.fingerprint != fingerprint:
        return "its fingerprint is not the one the player was shown"
    verdict = verify_record(record)
    return None if verdict.ok else verdict.message
