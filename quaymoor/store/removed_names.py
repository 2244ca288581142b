"""Taking a deleted account's name out of the games it played (docs/fairness.md, "Names and
deleted accounts").

Inside an account's deletion (``store.ratings.forget_account``), each archived record of a
game the account sat at signed in is rewritten: its seat's ``name`` becomes
``record.removed_name(seat)`` and the seat is marked ``removed``, in the record, in the
games list's ``seats`` and in a computed analysis's players. Only a format-5 record can be
rewritten so: its key binds no name, so it still verifies and replays for every player of
the game. A format-4 record binds each seat's name in its key, and is left as played (a
renamed one would fail verification for everyone at that game).

The SQL here is what SQLite and PostgreSQL share (``?`` placeholders: an
``accounts.Run``); the games list's ``seats`` is written as text, which PostgreSQL takes
into its ``jsonb`` column (psycopg sends text parameters untyped).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import attrs

from quaymoor.rules.record import RECORD_FORMAT, GameRecord, removed_name
from quaymoor.store.accounts import Run


def listed_seats(record: GameRecord) -> list[dict[str, Any]]:
    """The seats as the games list keeps them beside a record (``archive.summary_of``)."""
    return [{"seat": i, "name": s.name, "bot": s.bot} for i, s in enumerate(record.seats)]


def without_names(record: GameRecord, seats: Iterable[int]) -> GameRecord | None:
    """``record`` with the names at ``seats`` taken out (people's seats only); None when
    there is nothing to change: not format 5, or every one of them taken out already."""
    if record.format != RECORD_FORMAT:
        return None
    out = list(record.seats)
    for seat in seats:
        if 0 <= seat < len(out) and not out[seat].bot and not out[seat].removed:
            out[seat] = attrs.evolve(out[seat], name=removed_name(seat), removed=True)
    if out == record.seats:
        return None
    return attrs.evolve(record, seats=out)


def renamed_analysis(body: str, record: GameRecord) -> str | None:
    """A computed analysis's JSON with its players named as ``record`` names them (None:
    not an analysis with players, left as it is)."""
    try:
        data: Any = json.loads(body)
    except ValueError:
        return None
    players = data.get("players") if isinstance(data, dict) else None
    if not isinstance(players, list):
        return None
    for player in players:
        seat = player.get("seat") if isinstance(player, dict) else None
        if isinstance(seat, int) and 0 <= seat < len(record.seats):
            player["name"] = record.seats[seat].name
    return json.dumps(data)


def remove_names(run: Run, played: Iterable[tuple[str, int]]) -> int:
    """For each (game id, seat) an account played: its name taken out of the game's
    archived record, its row in the games list and its analysis. How many records were
    rewritten (a format-4 record, or a game not in this archive, is not)."""
    by_game: dict[str, set[int]] = {}
    for game_id, seat in played:
        by_game.setdefault(game_id, set()).add(seat)
    rewritten = 0
    for game_id, seats in sorted(by_game.items()):
        rows = run("SELECT record FROM games WHERE id = ?", (game_id,))
        if not rows:
            continue
        record = without_names(GameRecord.from_json(str(rows[0][0])), seats)
        if record is None:
            continue
        run("UPDATE games SET record = ?, seats = ? WHERE id = ?",
            (record.to_json(), json.dumps(listed_seats(record)), game_id))
        for (body,) in run("SELECT body FROM analyses WHERE id = ? AND status = 'done'",
                           (game_id,)):
            renamed = None if body is None else renamed_analysis(str(body), record)
            if renamed is not None:
                run("UPDATE analyses SET body = ? WHERE id = ?", (renamed, game_id))
        rewritten += 1
    return rewritten


__all__ = ["listed_seats", "remove_names", "renamed_analysis", "without_names"]
