"""Rated games through the HTTP API (``HttpApi``, no sockets) with software passkeys: a
rated table is opened and joined only signed in, one seat per account, never with hints;
two players play it to the end and their ratings move, on the leaderboard, their pages and
``/me``, exactly as ``openskill`` rates their places; a player handed to a bot is placed
last; the players' endpoints answer a stranger's names with a clear 404."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio
from openskill.models import PlackettLuce

from quaymoor.accounts.service import Accounts
from quaymoor.actors.presence import Seat
from quaymoor.actors.supervisor import Supervisor
from quaymoor.config import TableConfig
from quaymoor.http.api import HttpApi
from quaymoor.http.frontdoor import HttpRequest
from tests.accounts.test_accounts_api import SITE, Browser, Clock, code
from tests.actors.running import running
from tests.actors.test_table import Client


@pytest.fixture
async def served() -> AsyncIterator[tuple[HttpApi, Supervisor]]:
    sup = Supervisor(TableConfig(bot_delay=0.0), max_tables=8)
    async with running(sup):
        yield HttpApi(sup, accounts=Accounts(sup.players.accounts, SITE, clock=Clock())), sup


async def test_a_rated_game_is_for_accounts_and_moves_their_ratings(
        served: tuple[HttpApi, Supervisor]) -> None:
    api, sup = served
    ada, bede, guest = Browser(api), Browser(api), Browser(api)
    assert (await ada.register("Ada"))[0] == 201
    assert (await bede.register("Bede"))[0] == 201
    # what a guest and a wrong body get: a clear refusal, no table made
    assert code(await guest.call("POST", "/api/tables", {"players": 3, "rated": True})) == (
        401, "signed_out")
    assert code(await guest.call("POST", "/api/play-now", {"players": 2, "rated": True})) == (
        401, "signed_out")
    assert code(await ada.call("POST", "/api/tables", {"rated": True, "hints": True})) == (
        400, "rated_hints")
    assert code(await ada.call("POST", "/api/tables", {"rated": "yes"})) == (400, "bad_request")
    assert sup.tables == {}
    status, made = await ada.call("POST", "/api/tables", {"players": 3, "rated": True,
                                                          "bots": "easy"})
    assert status == 201
    table_id = made["table"]
    listed = (await guest.call("GET", "/api/tables"))[1]["tables"]
    assert [(t["id"], t["rated"], t["hints"]) for t in listed] == [(table_id, True, False)]
    join = f"/api/tables/{table_id}/join"
    assert code(await guest.call("POST", join, {"name": "Guest"})) == (401, "signed_out")
    status, ada_seat = await ada.call("POST", join, {"name": "Mallory"})
    assert status == 200 and ada_seat["seat"] == 0
    assert code(await ada.call("POST", join, {"name": "Ada"})) == (409, "already_seated")
    status, bede_seat = await bede.call("POST", join, {"name": "Bede"})
    assert status == 200 and bede_seat["seat"] == 1
    table = sup.get(table_id)
    assert [s.name for s in table.seats][:2] == ["Ada", "Bede"]  # the accounts' names
    status, _ = await ada.call("POST", f"/api/tables/{table_id}/start",
                               {"token": ada_seat["token"]})
    assert status == 200
    players = [Client(table, ada_seat["token"]), Client(table, bede_seat["token"])]
    ended: list[dict[str, Any]] = []

    async def play(client: Client, choose: int) -> None:
        await client.attach()
        ended.append(await client.play_to_end(choose))

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for i, client in enumerate(players):
                nursery.start_soon(play, client, i)
    assert ended[0]["reason"] == "finished"
    status, game = await guest.call("GET", f"/api/games/{table_id}")
    assert status == 200 and game["rated"] is True  # the record says so
    # a hint at a rated table is refused (the game is over, but the rated refusal comes first)
    assert table.hints.refusal(None, table.seats, 0) == (
        "a rated game is played without hints @ $.type")

    # the expected ratings, from openskill itself
    result = ended[0]["result"]
    key = {s["seat"]: (s["total"], s["tiebreak"]) for s in result["scores"]}
    places = [1 + sum(1 for j in key if key[j] > key[i]) for i in range(3)]
    model = PlackettLuce()
    bot = model.rating(mu=1231 / 60, sigma=675 / 1.959964 / 60)  # easy's ladder rating
    after = model.rate([[model.rating()], [model.rating()], [bot]],
                       ranks=[float(p) for p in places])
    want = {"Ada": round(after[0][0].mu * 60), "Bede": round(after[1][0].mu * 60)}

    status, board = await guest.call("GET", "/api/players")
    assert status == 200
    assert {p["name"]: (p["rating"], p["games"]) for p in board["players"]} == {
        name: (rating, 1) for name, rating in want.items()}
    assert [b["level"] for b in board["bots"]] == ["expert", "hard", "normal", "easy", "random"]
    status, page = await guest.call("GET", "/api/players/ADA")  # names fold as they are unique
    assert status == 200 and page["name"] == "Ada" and page["rating"] == want["Ada"]
    [game] = page["history"]
    assert (game["game"], game["place"], game["players"]) == (table_id, places[0], 3)
    assert game["change"] == want["Ada"] - 1500
    assert page["recent"][0]["rated"] and page["recent"][0]["change"] == game["change"]
    me = (await bede.me())[1]
    assert me["rating"]["rating"] == want["Bede"] and me["rating"]["games"] == 1


async def test_players_endpoints_answer_strangers(served: tuple[HttpApi, Supervisor]) -> None:
    api, _ = served
    guest = Browser(api)
    status, board = await guest.call("GET", "/api/players")
    assert status == 200 and board["players"] == [] and len(board["bots"]) == 5
    for name in ("nobody", "a\u200fb", "%00", "x" * 500, "\udc80", "🙂"):
        assert code(await guest.call("GET", f"/api/players/{name}")) == (404, "no_player")
    for limit in ("0", "101", "-1", "1e3", "\uff11"):
        answer = await api(_get("/api/players", {"limit": limit}))
        assert answer.status == 400 and b"limit" in answer.body
    assert code(await guest.call("POST", "/api/players", {})) == (405, "method_not_allowed")
    ada = Browser(api)
    await ada.register("Ada")
    page = (await guest.call("GET", "/api/players/ada"))[1]
    assert (page["rating"], page["games"], page["history"], page["recent"]) == (1500, 0, [], [])
    # the pages: a player's page is there for Ada (found as her name folds), and for a
    # name nobody has it is the same page, answered 404 (it says so itself)
    for path, status in (("/players", 200), ("/players/ADA", 200), ("/players/nobody", 404),
                         ("/players/a\u200fb", 404)):
        answer = await api(_get(path, {}))
        assert answer.status == status, path
        assert answer.content_type.startswith("text/html") and b"<html" in answer.body, path


def _get(path: str, query: dict[str, str]) -> HttpRequest:
    return HttpRequest("GET", path, query, {"host": "localhost:8000"}, b"", "::1")


def test_a_seat_a_bot_played_for_has_left_even_after_coming_back() -> None:
    timed_out, voted_out, stayed = Seat(0), Seat(1), Seat(2)
    for seat in (timed_out, voted_out, stayed):
        seat.take("P", "acct")
    assert not timed_out.timed_out(2) and not timed_out.left  # one timeout: still theirs
    assert timed_out.timed_out(2) and timed_out.left
    timed_out.attach()  # back: the bot stops, the seat still left once
    assert timed_out.left and not timed_out.bot_playing
    voted_out.hand_to_bot()
    assert voted_out.left
    stayed.attach()
    stayed.detach()
    assert not stayed.left and stayed.account == "acct"
