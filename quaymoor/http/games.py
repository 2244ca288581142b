"""Finished games over HTTP: records from the archive, the game page, replays.

- ``GET /games/<id>.json``: the record as archived (a download). While the archive is
  failing (a full or read-only disk: ``store.archive``) a record not yet written answers
  **202** ``{"status": "pending", "id", "pending_since", "message"}`` with ``Retry-After``,
  and 200 with the record once it is written: a download is a record that is kept. A record
  waiting the few milliseconds of a healthy write is served from memory, as always (a
  player downloads it the moment the game ends). The game page and the API below serve
  it from memory while it waits, failing or not.
- ``GET /games/<id>``: the game page (``web/game.html``; its script asks the API below).
- ``GET /api/games?limit=20``: the games that ended last, newest first.
- ``GET /api/games/<id>``: one game: seats, result with scores by component, seed,
  fingerprint, client seeds, number of steps.
- ``GET /api/games/<id>/replay``: every step's action and events, the first Warden and
  every plot turned up, from replaying the record through the rules.
- ``GET /api/games/<id>/replay?step=K``: the spectator's view after K actions, the events
  of step K and every seat's score by component then.
- ``GET /api/games/<id>/views?seat=S``: seat S's view (no ``seat``: the spectator's) after
  the setup and the patch to it after each action, for the replay on the board.
- ``GET /api/games/<id>/charts``: the numbers of the end-of-game pictures (score after each
  round, points by source, goods shipped and sold).
- ``GET /api/games/<id>/analysis``: the post-game analysis (``actors.analyst``): 200 with
  it when done; else **202** ``{"status": "running", "done", "total", "message"}`` with
  ``Retry-After``, starting it when no one has; 422 when the record does not replay; 503
  ``analysis_busy`` when too many analyses wait in this process.

Every number in a query (``limit``, ``step``, ``seat``) is read by ``http.query``: ASCII
digits only, else 400 ``bad_request`` naming the parameter, before the game is looked up.
Only games that have ended are here. A running game's id is answered exactly like an id
that never existed (404 ``unknown_game``): nothing about it, least of all its seed.
Replays run in a worker thread; the last few answers of each kind are kept.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import trio

from quaymoor.actors.analyst import Busy
from quaymoor.actors.supervisor import Supervisor
from quaymoor.http.frontdoor import HttpRequest, HttpResponse, static_response
from quaymoor.http.game_charts import ChartsError, game_charts
from quaymoor.http.query import QueryError, query_int
from quaymoor.http.replay import ReplayError, replay_all, replay_step
from quaymoor.http.replay_views import ViewsError, replay_views
from quaymoor.http.responses import (
    READ_METHODS,
    error_response,
    json_response,
    method_not_allowed,
)
from quaymoor.protocol.codes import Code
from quaymoor.rules.converter import converter
from quaymoor.rules.data import MAX_PLAYERS
from quaymoor.rules.record import GameRecord
from quaymoor.store.archive import MAX_LIST, ArchiveError, summary_of

_RECORD = re.compile(r"^/games/([0-9a-f]{10})\.json$")
_PAGE = re.compile(r"^/games/([0-9a-f]{10})/?$")
_API = re.compile(r"^/api/games/([0-9a-f]{10})(/replay|/views|/charts|/analysis)?$")
#: Games ``GET /api/games`` lists without ``?limit``.
DEFAULT_LIST = 20
_UNKNOWN = ("no finished game has that id (a running game's record is published when it "
            "ends)")
#: Seconds a pending record's download says to wait before asking again.
PENDING_RETRY_AFTER = 5
#: Seconds a running analysis says to wait before asking again.
ANALYSIS_RETRY_AFTER = 2
_REPLAYS_KEPT = 16  #: of each kind (whole replays, one seat's views, charts)


class GamesApi:
    """The routes above; ``__call__`` answers None for any other path."""

    def __init__(self, supervisor: Supervisor, web_root: Path) -> None:
        self.supervisor = supervisor
        self.web_root = web_root
        #: answers kept, by (kind, game, seat), least recently asked first
        self._replays: OrderedDict[tuple[str, str, int | None], dict[str, Any]] = OrderedDict()

    async def __call__(self, request: HttpRequest) -> HttpResponse | None:
        path = request.path
        record_match = _RECORD.match(path)
        page_match = _PAGE.match(path)
        api_match = _API.match(path)
        if path != "/api/games" and not (record_match or page_match or api_match):
            return None
        if request.method not in READ_METHODS:
            return method_not_allowed(request.method, path, READ_METHODS)
        try:
            if path == "/api/games":
                return await self._list(request)
            if record_match:
                return await self._download(record_match.group(1))
            if page_match:
                return await self._page(page_match.group(1), request.method)
            assert api_match is not None
            game_id, sub = api_match.groups()
            if sub == "/replay":
                return await self._replay(game_id, request)
            if sub == "/views":
                return await self._views(game_id, request)
            if sub == "/charts":
                return await self._charts(game_id)
            if sub == "/analysis":
                return await self._analysis(game_id)
            return await self._summary(game_id)
        except QueryError as exc:
            return error_response(Code.BAD_REQUEST, str(exc))
        except ArchiveError as exc:
            return error_response(Code.ARCHIVE_UNAVAILABLE, str(exc))

    # ------------------------------------------------------------ lookups

    async def _record(self, game_id: str) -> GameRecord | None:
        archive = self.supervisor.archive
        if archive is not None:
            return await archive.record(game_id)
        return self.supervisor.records.get(game_id)

    async def _download(self, game_id: str) -> HttpResponse:
        archive = self.supervisor.archive
        if archive is not None:
            health = archive.health()
            if health.failing_since is not None and archive.pending_record(game_id):
                return json_response({
                    "status": "pending", "id": game_id,
                    "pending_since": health.failing_since,
                    "message": ("the game has ended and its record waits to be written: "
                                f"{health.text()}; ask again"),
                }, 202, (("Retry-After", str(PENDING_RETRY_AFTER)),))
            text = await archive.record_json(game_id)
        else:
            record = self.supervisor.records.get(game_id)
            text = None if record is None else await trio.to_thread.run_sync(record.to_json)
        if text is None:
            return error_response(Code.UNKNOWN_GAME, _UNKNOWN)
        return HttpResponse(200, text.encode(), "application/json", (
            ("Content-Disposition", f'attachment; filename="quaymoor-{game_id}.json"'),))

    async def _page(self, game_id: str, method: str) -> HttpResponse:
        page = static_response(self.web_root, "/game.html", method)
        if page is None:
            return error_response(Code.NOT_FOUND, "the game page is missing")
        if await self._record(game_id) is None:
            return attrs.evolve(page, status=404)  # the page itself says there is no game
        return page

    async def _list(self, request: HttpRequest) -> HttpResponse:
        limit = query_int(request.query, "limit", 1, MAX_LIST)
        if limit is None:
            limit = DEFAULT_LIST
        archive = self.supervisor.archive
        if archive is not None:
            games = [g.summary() for g in await archive.recent(limit)]
        else:
            found = [summary_of(gid, rec) for gid, rec in self.supervisor.records.items()]
            found.sort(key=lambda g: g.ended_at, reverse=True)
            games = [g.summary() for g in found[:limit]]
        return json_response({"games": games})

    async def _summary(self, game_id: str) -> HttpResponse:
        record = await self._record(game_id)
        if record is None:
            return error_response(Code.UNKNOWN_GAME, _UNKNOWN)
        return json_response({
            "id": game_id,
            "players": record.players,
            "seats": [{"seat": i, "name": s.name, "bot": s.bot, "commitment": s.commitment,
                       "removed": s.removed} for i, s in enumerate(record.seats)],
            "format": record.format,
            "rated": record.rated,
            "ended_at": record.ended_at,
            "reason": record.reason,
            "algorithm": record.algorithm,
            "fingerprint": record.fingerprint,
            "seed": record.seed,
            "client_seeds": record.client_seeds,
            "seat_seeds": record.seat_seeds,
            "first_warden": record.first_warden,
            "steps": len(record.actions),
            "result": converter.unstructure(record.result) if record.result else None,
            "record_url": f"/games/{game_id}.json",
            "verify_url": f"/verify.html?game={game_id}",
        })

    async def _replay(self, game_id: str, request: HttpRequest) -> HttpResponse:
        step = query_int(request.query, "step")
        record = await self._record(game_id)
        if record is None:
            return error_response(Code.UNKNOWN_GAME, _UNKNOWN)
        if step is None:
            summary = await self._kept(("replay", game_id, None), lambda: replay_all(record))
            return json_response({"id": game_id, **summary})
        try:
            data = await trio.to_thread.run_sync(replay_step, record, step)
        except ReplayError as exc:
            # A step out of range is the client's; a record that does not replay is 422.
            status = None if "step must be" in str(exc) else 422
            return error_response(Code.BAD_STEP, str(exc), status)
        return json_response({"id": game_id, **data})

    async def _views(self, game_id: str, request: HttpRequest) -> HttpResponse:
        seat = query_int(request.query, "seat", 0, MAX_PLAYERS - 1)
        record = await self._record(game_id)
        if record is None:
            return error_response(Code.UNKNOWN_GAME, _UNKNOWN)
        if seat is not None and seat >= record.players:
            return error_response(Code.BAD_SEAT, (
                f"this game has no seat {seat}: seat must be 0 to {record.players - 1} (or "
                f"left out for the spectator's view) @ ?seat"))
        try:
            views = await self._kept(("views", game_id, seat), lambda: replay_views(record, seat))
        except ViewsError as exc:
            return error_response(Code.BAD_STEP, f"the record does not replay: {exc}", 422)
        return json_response({"id": game_id, **views})

    async def _charts(self, game_id: str) -> HttpResponse:
        record = await self._record(game_id)
        if record is None:
            return error_response(Code.UNKNOWN_GAME, _UNKNOWN)
        try:
            charts = await self._kept(("charts", game_id, None), lambda: game_charts(record))
        except ChartsError as exc:
            return error_response(Code.BAD_STEP, f"the record does not replay: {exc}", 422)
        return json_response({"id": game_id, **charts})

    async def _analysis(self, game_id: str) -> HttpResponse:
        record = await self._record(game_id)
        if record is None:
            return error_response(Code.UNKNOWN_GAME, _UNKNOWN)
        try:
            answer = await self.supervisor.analysis(game_id, record)
        except Busy as exc:
            refused = error_response(Code.ANALYSIS_BUSY, str(exc))
            return attrs.evolve(refused, headers=(
                *refused.headers, ("Retry-After", str(ANALYSIS_RETRY_AFTER))))
        if answer.status == "done":
            assert answer.body is not None
            return json_response({"status": "done", **answer.body})
        if answer.status == "failed":
            message = (answer.body or {}).get("message", "the record does not replay")
            return error_response(Code.BAD_STEP, str(message), 422)
        return json_response({
            "status": "running", "id": game_id, "done": answer.done, "total": answer.total,
            "message": (f"analysing: {answer.done} of {answer.total} decisions scored; "
                        "ask again"),
        }, 202, (("Retry-After", str(ANALYSIS_RETRY_AFTER)),))

    async def _kept(self, key: tuple[str, str, int | None],
                    compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The answer kept under ``key``, or ``compute``'s in a worker thread (then kept;
        the least recently asked of that kind goes past ``_REPLAYS_KEPT``)."""
        found = self._replays.get(key)
        if found is None:
            found = await trio.to_thread.run_sync(compute)
            self._replays[key] = found
            same = [k for k in self._replays if k[0] == key[0]]
            for old in same[:max(0, len(same) - _REPLAYS_KEPT)]:
                del self._replays[old]
        self._replays.move_to_end(key)
        return found
