"""The fault bench's parts that need no system: a row's targets and table, what counts as
a seed published early, a player's frames, a record's check, PostgreSQL's options read
back. (``test_fault_bench.py`` runs the whole bench against real systems.)"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import trio
import trio_websocket

from quaymoor.tools.fault_bench.collect import check
from quaymoor.tools.fault_bench.faults.pg_outage import started_with
from quaymoor.tools.fault_bench.row import Row, table_text
from quaymoor.tools.fault_bench.table_client import TableClient
from quaymoor.tools.fault_bench.watch import Seeds, Served
from quaymoor.tools.selfplay import game_seed, random_game


def test_a_row_names_every_target_it_missed() -> None:
    row = Row("pg-outage", "PostgreSQL stopped", games=5, connected=4, told=3, records=4,
              verified=3, early=2, outage=4.0, outage_target=True)
    assert row.missed() == ["1 of 5 records lost", "1 records not verified",
                            "2 seeds published early", "1 of 4 connected players not told",
                            "outage 4.0 s (target < 3 s)"]
    assert Row("x", "x", games=2, connected=2, told=2, records=2, verified=2,
               outage=9.0).missed() == []  # the outage is a target of HAProxy's row only


def test_the_table_says_pass_fail_not_available_and_bench_failed() -> None:
    rows = [Row("a", "A", games=1, connected=1, told=1, records=1, verified=1),
            Row("b", "B", games=1, connected=1, records=1, verified=1),
            Row("c", "C", unavailable="needs quaymoor.cluster.netns"),
            Row("d", "D", broken="RuntimeError: no cluster")]
    text = table_text(rows)
    lines = text.splitlines()
    assert lines[1].split()[-1] == "pass" and lines[2].split()[-1] == "FAIL"
    assert lines[3].endswith("not available on this build")
    assert lines[4].endswith("FAIL (bench failed)")
    assert "target missed: 1 of 1 connected players not told" in text
    assert "not available on this build: needs quaymoor.cluster.netns" in text
    assert rows[3].missed() and not rows[2].missed()


def _client(table: str, seen: list[tuple[float, int]], ended: str | None = None,
            ended_at: float | None = None) -> TableClient:
    client = TableClient(table, "token", "fp", 3)
    client.seen, client.ended, client.ended_at = seen, ended, ended_at
    return client


def test_a_record_served_while_its_game_went_on_is_early() -> None:
    seeds = Seeds({
        "played_on": Served(at=10.0, actions=12, reason="shutdown"),
        "finished_later": Served(at=10.0, actions=12, reason="shutdown"),
        "as_it_ended": Served(at=10.0, actions=12, reason="finished"),
        "ended_before": Served(at=10.0, actions=12, reason="shutdown"),
    })
    clients = [
        _client("played_on", [(9.0, 12), (11.0, 13)]),  # a later move: the game went on
        _client("finished_later", [(9.0, 12)], "finished", 20.0),  # then ended otherwise
        _client("as_it_ended", [(9.0, 12)], "finished", 10.2),  # served as it ended
        _client("ended_before", [(9.0, 12)], "shutdown", 9.5),  # served after the end
        _client("never_served", [(9.0, 12), (11.0, 13)]),
    ]
    assert seeds.early(clients) == ["played_on", "finished_later"]


def test_a_player_keeps_what_its_frames_say() -> None:
    async def main() -> None:
        client = TableClient("0123456789", "t", "fp", 3)
        view = {"version": 4, "legal": [], "seat": 0}
        assert not client._take({"type": "update", "version": 4, "since": 0, "events": [],
                                 "view": view})
        assert client.version == 4 and client.seen[-1][1] == 4
        assert not client._take({"type": "table_paused"}) and client.notices == 1
        assert not client._take({"type": "error", "code": "illegal_action"})
        assert client.errors["illegal_action"] == 1
        with pytest.raises(trio_websocket.ConnectionClosed):  # a delta that does not follow
            client._take({"type": "update", "version": 9, "since": 7, "events": [],
                          "patch": [["/version", 9]]})
        assert client.version is None  # the next hello asks for a snapshot
        assert client._take({"type": "game_ended", "reason": "shutdown", "seed": "ab"})
        assert client.ended == "shutdown" and client.ended_seed == "ab"
        assert client.told_since(0.0)

    trio.run(main)


def test_a_record_is_checked_against_the_fingerprint_the_player_saw() -> None:
    seed = game_seed(7, 0)
    game, _ = random_game(2, seed)
    text = game.record().to_json()
    fingerprint = hashlib.sha256(seed).hexdigest()
    assert check(text, fingerprint) is None
    assert check(text, hashlib.sha256(b"another").hexdigest()) == (
        "its seed is not the one whose fingerprint the player was shown")
    tampered = json.loads(text)
    tampered["actions"] = tampered["actions"][:-1]
    assert check(json.dumps(tampered), fingerprint) is not None
    assert check("{", fingerprint) is not None


def test_postgres_is_started_again_with_the_options_it_ran_with(tmp_path: Path) -> None:
    (tmp_path / "postmaster.opts").write_text(
        '/usr/lib/postgresql/15/bin/postgres "-D" "/tmp/x y/data" "-p" "5433" "-k" '
        '"/tmp/x y/data" "-c" "listen_addresses=127.0.0.1"\n')
    assert started_with(tmp_path) == (
        "-p 5433 -k '/tmp/x y/data' -c listen_addresses=127.0.0.1")
