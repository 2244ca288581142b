"""The players' pages and the JSON behind them (docs/protocol.md "Ratings and players").

- ``GET /api/players?limit=N`` (1-100, default 50): the leaderboard, every account with a
  rated game, best first, and the bots' fixed ratings (``quaymoor.ratings.BOT_RATINGS``).
- ``GET /api/players/<name>``: one player: rating, rated games, every rated game's rating
  after it (the chart), the last ``store.ratings.RECENT`` games (rated or not). The name is
  looked up as an account name is kept unique (``accounts.names``: case, width and
  look-alikes folded), so ``/players/ADA`` is Ada's page; 404 ``no_player`` when no account
  has it (a name no account may have is a 404 too, not a 400: it names nobody).
- ``/players`` and ``/players/<name>``: the pages (``web/players.html``, ``web/player.html``)
  that draw them; ``/players/<name>`` of no player answers the same page with status 404
  (the page itself says so), as a game's page does for an unknown game.

A rating is shown as ``quaymoor.ratings`` shows it: 60 x mu, with its 95% interval.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

import attrs
import trio

from quaymoor.accounts.names import NameRefused, account_name
from quaymoor.http.frontdoor import HttpRequest, HttpResponse, static_response
from quaymoor.http.query import QueryError, query_int
from quaymoor.http.responses import error_response, json_response
from quaymoor.protocol.codes import Code
from quaymoor.ratings import BOT_RATINGS, Rating, ranks_of
from quaymoor.store.archive import ArchiveError
from quaymoor.store.ratings import PlayedGame, Profile, RatingStore

LIST = "/api/players"
PLAYER = re.compile(r"^/api/players/([^/]+)$")
PAGE = re.compile(r"^/players(?:/([^/]+))?$")
DEFAULT_LIMIT: Final = 50
MAX_LIMIT: Final = 100


def shown(rating: Rating) -> dict[str, Any]:
    """A rating as people see it: ``rating`` and its 95% ``interval``."""
    return {"rating": rating.shown, "interval": list(rating.interval)}


def _change(game: PlayedGame) -> int | None:
    if game.before is None or game.after is None:
        return None
    return game.after.shown - game.before.shown


def _recent(game: PlayedGame) -> dict[str, Any]:
    return {"game": game.game_id, "ended_at": game.ended_at, "players": game.players,
            "seat": game.seat, "place": game.place, "rated": game.rated,
            "reason": game.reason, "change": _change(game)}


def _history(game: PlayedGame) -> dict[str, Any]:
    assert game.after is not None
    return {"game": game.game_id, "at": game.ended_at, **shown(game.after),
            "change": _change(game), "place": game.place, "players": game.players}


class PlayersApi:
    """The two endpoints over the store's ratings (``store.ratings.RatingStore``), which
    ``store`` gives when asked (the supervisor's: the archive's, or in memory)."""

    def __init__(self, store: Callable[[], RatingStore]) -> None:
        self._store = store

    async def handle(self, request: HttpRequest) -> HttpResponse:
        """A ``GET`` or ``HEAD`` of ``/api/players`` or ``/api/players/<name>``."""
        try:
            if request.path == LIST:
                return await self._list(request.query)
            match = PLAYER.match(request.path)
            assert match is not None
            return await self._player(match.group(1))
        except QueryError as exc:
            return error_response(Code.BAD_REQUEST, str(exc))
        except ArchiveError as exc:
            return error_response(Code.ARCHIVE_UNAVAILABLE, str(exc))

    async def _list(self, query: Mapping[str, str]) -> HttpResponse:
        limit = query_int(query, "limit", 1, MAX_LIMIT)
        store = self._store()
        rows = await trio.to_thread.run_sync(store.leaderboard,
                                             DEFAULT_LIMIT if limit is None else limit)
        # equal shown ratings share a place, as equal results share a rank
        places = ranks_of([(row.rating.shown, 0) for row in rows])
        players = [{"place": place, "name": row.name, **shown(row.rating), "games": row.games,
                    "last_played": row.last_played} for row, place in zip(rows, places,
                                                                          strict=True)]
        bots = [{"level": level, **shown(rating)} for level, rating in
                sorted(BOT_RATINGS.items(), key=lambda item: -item[1].mu)]
        return json_response({"players": players, "bots": bots})

    async def page(self, web_root: Path, path: str, method: str) -> HttpResponse | None:
        """The page that draws ``path`` (None: not a players' page, or the file is missing);
        a player's page for a name no account has is answered with status 404."""
        match = PAGE.match(path)
        if match is None:
            return None
        if match.group(1) is None:
            return static_response(web_root, "/players.html", method)
        page = static_response(web_root, "/player.html", method)
        if page is None:
            return None
        try:
            missing = await self._profile(match.group(1)) is None
        except ArchiveError:
            missing = False  # the page asks the API, which says the archive is unavailable
        return attrs.evolve(page, status=404) if missing else page

    async def _profile(self, name: str) -> Profile | None:
        try:
            key = account_name(name).key
        except NameRefused:
            return None
        store = self._store()
        return await trio.to_thread.run_sync(store.profile, key)

    async def _player(self, name: str) -> HttpResponse:
        found = await self._profile(name)
        if found is None:
            return error_response(Code.NO_PLAYER, "no player has that name (names are matched "
                                                  "as they are unique: case and look-alikes "
                                                  "folded)")
        return json_response({
            "name": found.name, "since": found.since, **shown(found.rating),
            "games": found.games, "last_played": found.last_played,
            "history": [_history(g) for g in found.history],
            "recent": [_recent(g) for g in found.recent],
        })


def is_page(path: str) -> bool:
    """Whether ``path`` is ``/players`` or ``/players/<name>``."""
    return PAGE.match(path) is not None


__all__ = ["LIST", "PLAYER", "PlayersApi", "is_page", "shown"]
