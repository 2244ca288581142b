"""The fault bench's parts that need no system: a row's targets and table, what counts as
a seed published early, a player's frames, a record's check, PostgreSQL's options read
back, who counts as told in the partition, the sockets made in the client host.
(``test_fault_bench.py`` runs the whole bench against real systems.)"""

from __future__ import annotations

import hashlib
import json
import os
import socket
from pathlib import Path

import pytest
import trio
import trio_websocket

from quaymoor.cluster.netns import NETNS_DIR, Hosts, missing
from quaymoor.rules.fairness import table_fingerprint
from quaymoor.tools.fault_bench.across_hosts import ClientSockets
from quaymoor.tools.fault_bench.collect import check
from quaymoor.tools.fault_bench.fault import Stage
from quaymoor.tools.fault_bench.faults import partition
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
               outage=9.0, unfinished=2).missed() == []  # targets of HAProxy's row and
    # the partition's only
    assert Row("partition", "x", games=3, connected=3, told=3, records=3, verified=3,
               unfinished=2, finish_target=True).missed() == [
        "2 of 3 games ended by the fault, not played to their finish"]


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
    game, _ = random_game(2, seed, "0a1b2c3d4e")
    text = game.record().to_json()
    fingerprint = table_fingerprint(seed, "0a1b2c3d4e", 2)
    assert check(text, fingerprint) is None
    assert check(text, hashlib.sha256(b"another").hexdigest()) == (
        "its fingerprint is not the one the player was shown")
    moved = json.loads(text)
    moved["game"] = "0a1b2c3d4f"  # the record passed off as another table's
    assert "fingerprint mismatch" in (check(json.dumps(moved), fingerprint) or "")
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


def test_a_cut_off_hosts_player_is_told_only_by_a_pause_or_an_end_of_its_game() -> None:
    """The partition's count: a player of table-1 (ids ``00...``) whose game simply went
    on after the link came back was told nothing; one that got ``table_paused``, or a
    ``game_ended`` that ended its game for it, was. A player of table-2 (``01...``) is
    told by its ``game_ended``, as in every row."""
    async def main() -> None:
        stage = Stage(None, [], 0.0, 10.0)
        finished = {"type": "game_ended", "reason": "finished", "seed": "ab"}
        went_on = TableClient("0011111111", "t", "fp", 3)
        went_on._take(finished)
        paused = TableClient("0022222222", "t", "fp", 3)
        paused._take({"type": "table_paused"})
        paused._take(finished)
        ended_for_it = TableClient("0033333333", "t", "fp", 3)
        ended_for_it._take({"type": "game_ended", "reason": "shutdown", "seed": "ab"})
        other_host = TableClient("0144444444", "t", "fp", 3)
        other_host._take(finished)
        told = [partition.FAULT.told(stage, c, 0.0)
                for c in (went_on, paused, ended_for_it, other_host)]
        assert told == [False, True, True, True]
        assert paused.heard["table_paused"] == 1
        late = TableClient("0055555555", "t", "fp", 3)
        late._take({"type": "game_ended", "reason": "shutdown", "seed": "ab"})
        assert not partition.FAULT.told(stage, late, trio.current_time() + 1)  # before it

    trio.run(main)


def test_the_bench_sockets_are_made_in_the_client_host_and_the_thread_comes_back() -> None:
    """``across_hosts.ClientSockets``: an internet socket is the ``client`` host's (it can
    bind that host's address, which the machine's own namespace has not), and the thread
    that made it is back in its own namespace (its worker threads would stay otherwise)."""
    reason = missing()
    if reason is not None:
        pytest.skip(reason)

    async def main(hosts: Hosts) -> None:
        trio.socket.set_custom_socket_factory(
            ClientSockets(NETNS_DIR / hosts.netns("client")))
        with trio.socket.socket() as made:
            await made.bind((hosts.address("client"), 0))
        with trio.socket.socket(socket.AF_UNIX) as unix:  # not an internet one: as usual
            assert unix.family == socket.AF_UNIX

    home = os.stat("/proc/thread-self/ns/net").st_ino
    with Hosts() as hosts:
        trio.run(main, hosts)
        assert os.stat("/proc/thread-self/ns/net").st_ino == home
        with pytest.raises(OSError), socket.socket() as here:
            here.bind((hosts.address("client"), 0))
