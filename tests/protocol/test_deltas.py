"""Deltas, checked from the doc: for every seat and a spectator of many seeded games,
the last snapshot with every delta since applied (by ``tests.patching``, written from
docs/protocol.md, not from the server's diff) is exactly the server's view at each
version; the same sequences applied by ``web/patch.js`` under node give the same views."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.protocol.codec import unstructure_with
from quaymoor.protocol.messages import Clock, SeatPublic
from quaymoor.protocol.view_json import UpdateEncoder, ViewEncoder
from quaymoor.rules.events import Event
from quaymoor.rules.game import Game
from quaymoor.rules.views import SeatView
from quaymoor.tools.selfplay import game_seed
from tests.patching import Views, apply_patch

ROOT = Path(__file__).resolve().parents[2]
GAMES = [(2 + i % 4, game_seed(2026, i)) for i in range(30)]  #: 2-5 players


def canonical(view: Any) -> str:
    """A view's JSON with sorted keys: what the node side hashes too."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _play(players: int, seed: bytes) -> dict[str, Any]:
    """A whole game through the encoders as the table uses them; per audience ("0".. and
    "spectator"): every update as sent, and the server's full view at each version."""
    game = Game(players, seed)
    chooser = SplitMix64(int.from_bytes(seed[:8], "big"))
    views = ViewEncoder(game)
    seats = [SeatPublic(i, f"P{i}", i > 0, False, True) for i in range(players)]
    audiences: list[int | None] = [None, *range(players)]
    sent: dict[str, list[dict[str, Any]]] = {_name(a): [] for a in audiences}
    truth: dict[str, list[Any]] = {_name(a): [] for a in audiences}
    since, events = 0, list[Event]()
    while True:
        update = UpdateEncoder(views, version=game.version, since=since, events=events,
                               clocks=[Clock(0, 90.0)], seats=seats)
        order = list(audiences)
        if game.version % 3 == 1:
            order.reverse()
        for seat in order:
            sent[_name(seat)].append(json.loads(update.for_seat(seat, seats=since == 0)))
            truth[_name(seat)].append(unstructure_with(game.view(seat), SeatView))
        if game.is_over():
            return {"sent": sent, "truth": truth}
        seat = game.deciding()[0]
        since = game.version
        takebacks = game.takeback_actions(seat)
        if takebacks and chooser.below(6) == 0:
            events = game.apply(seat, takebacks[chooser.below(len(takebacks))])
        else:
            legal = game.legal_actions(seat)
            events = game.apply(seat, legal[chooser.below(len(legal))])


def _name(seat: int | None) -> str:
    return "spectator" if seat is None else str(seat)


@pytest.fixture(scope="module")
def played() -> list[dict[str, Any]]:
    """``GAMES`` played to their ends, with every audience's updates and true views: some
    twenty seconds, so every test that reads it is marked ``slow``."""
    return [_play(players, seed) for players, seed in GAMES]


@pytest.mark.slow
def test_deltas_rebuild_every_seats_and_the_spectators_view(
        played: list[dict[str, Any]]) -> None:
    deltas = 0
    for game in played:
        for name, updates in game["sent"].items():
            views = Views()
            for update, truth in zip(updates, game["truth"][name], strict=True):
                got = views.feed(copy.deepcopy(update))
                assert got["view"] == truth, (name, update["version"])
            assert views.snapshots == 1  # the first; every update after it is a delta
            deltas += views.deltas
    assert deltas > 30_000


@pytest.mark.slow
def test_a_delta_never_shows_another_seats_secrets(played: list[dict[str, Any]]) -> None:
    """Other seats' seals and scores are null in every patch value until the end."""
    for game in played:
        for name, updates in game["sent"].items():
            for update, truth in zip(updates, game["truth"][name], strict=True):
                if "patch" not in update:
                    continue
                for op in update["patch"]:
                    parts = op[0].split("/")
                    over = truth["result"] is not None
                    if parts[1] == "mats" and not over and parts[2] != name:
                        value: Any = op[1] if len(op) == 2 else None
                        if len(parts) == 4 and parts[3] in ("seals", "score"):
                            assert value is None, (name, op)
                        if len(parts) == 3:
                            assert value["seals"] is None and value["score"] is None


def test_spectators_get_one_text_and_a_missed_version_gets_a_snapshot() -> None:
    game = Game(3, game_seed(1, 1))
    views = ViewEncoder(game)
    seats = [SeatPublic(i, f"P{i}", False, False, True) for i in range(3)]
    first = UpdateEncoder(views, version=0, since=0, events=[], clocks=[], seats=seats)
    assert "view" in json.loads(first.for_seat(None)) and "view" in json.loads(first.for_seat(1))
    for _ in range(2):
        seat = game.deciding()[0]
        since = game.version
        events = game.apply(seat, game.legal_actions(seat)[0])
        update = UpdateEncoder(views, version=game.version, since=since, events=events,
                               clocks=[], seats=seats)
        watched = update.for_seat(None, seats=False)
        assert update.for_seat(None, seats=False) == watched
        delta = json.loads(watched)
        assert "patch" in delta and "view" not in delta and "seats" not in delta
        assert json.loads(update.for_seat(None))["seats"] == json.loads(update.seats_json)
        assert "patch" in json.loads(update.for_seat(1))
        if game.version == 1:
            continue  # seat 2 misses version 1
        late = json.loads(update.for_seat(2))
        assert late["view"] == unstructure_with(game.view(2), SeatView)  # a snapshot


def test_the_applier_follows_the_doc() -> None:
    """The doc's example, and removals last index first."""
    doc = {"a": 1, "b": [5, 6, 7]}
    assert apply_patch(doc, [["/a", 2], ["/b/2"], ["/b/1"], ["/c", None]]) == {
        "a": 2, "b": [5], "c": None}
    assert doc == {"a": 1, "b": [5, 6, 7]}
    assert apply_patch({"x~y/z": [1]}, [["/x~0y~1z/1", 2]]) == {"x~y/z": [1, 2]}


_NODE = """
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { applyPatch } from "%s";
const canonical = (v) => Array.isArray(v) ? "[" + v.map(canonical).join(",") + "]"
  : v !== null && typeof v === "object"
    ? "{" + Object.keys(v).sort()
      .map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}"
    : JSON.stringify(v);
const games = JSON.parse(readFileSync(process.argv[1], "utf8"));
const out = games.map((game) => Object.fromEntries(Object.entries(game).map(([name, updates]) => {
  let view = null;
  const hashes = updates.map((u) => {
    if (u.view) view = u.view;
    else {
      if (view.version !== u.since) throw new Error(`${name}: since ${u.since}`);
      view = applyPatch(view, u.patch);
    }
    return createHash("sha256").update(canonical(view)).digest("hex");
  });
  return [name, hashes];
})));
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.slow
def test_web_patch_js_rebuilds_the_same_views(
        played: list[dict[str, Any]], tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    data = tmp_path / "updates.json"
    data.write_text(json.dumps([game["sent"] for game in played]))
    script = _NODE % (ROOT / "web" / "patch.js").as_uri()
    run = subprocess.run([node, "--input-type=module", "-e", script, str(data)],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    hashes = json.loads(run.stdout)
    for game, got in zip(played, hashes, strict=True):
        for name, truths in game["truth"].items():
            want = [hashlib.sha256(canonical(t).encode()).hexdigest() for t in truths]
            assert got[name] == want, name


_KEEPER = """
import { ViewKeeper, applyPatch, PatchError } from "%s";
const k = new ViewKeeper();
const out = [];
out.push(k.take({ since: 0, version: 1, patch: [] }).resync);  // no view yet
out.push(k.take({ since: 1, version: 2, patch: [] }).view);  // waiting for the snapshot
out.push(k.take({ since: 2, version: 2, view: { version: 2, a: [1] } }).view.a);
out.push(k.take({ since: 2, version: 3, patch: [["/version", 3], ["/a/1", 2]] }).view.a);
out.push(k.take({ since: 7, version: 8, patch: [] }).resync);  // a version missed
out.push(k.take({ since: 3, version: 4, patch: [] }).view);  // dropped until the snapshot
const before = { version: 1, b: { c: [1, 2] } };
const after = applyPatch(before, [["/b/c/0"], ["/d", { e: 1 }]]);
out.push(before.b.c.length, after.b.c, after.d);
let threw = false;
try { applyPatch(before, [["/b/c/5", 1]]); } catch (e) { threw = e instanceof PatchError; }
out.push(threw);
process.stdout.write(JSON.stringify(out));
"""


def test_web_view_keeper_asks_for_a_snapshot_when_a_version_is_missed() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = _KEEPER % (ROOT / "web" / "patch.js").as_uri()
    run = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                         text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [
        True, None, [1], [1, 2], True, None, 2, [2], {"e": 1}, True]
