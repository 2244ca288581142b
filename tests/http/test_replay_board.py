"""The numbers behind the replay on the board and the end-of-game pictures, checked
against the rules: every seat's view at every step, rebuilt from the compact list the
server sends (``http.replay_views``), is the view the rules give that seat after that many
actions; the charts' totals (``http.game_charts``) are the final scores, and their score
after each round is the score the step replay (``http.replay.replay_step``) gives then."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from quaymoor.http.game_charts import ChartsError, game_charts
from quaymoor.http.replay import replay_all, replay_step
from quaymoor.http.replay_views import ViewsError, replay_views
from quaymoor.protocol.codec import unstructure_with
from quaymoor.rules.fairness import seed_from_hex
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord
from quaymoor.rules.views import SeatView
from tests.fairness.conftest import GAMES, game_record
from tests.patching import apply_patch


def views_of(record: GameRecord, seat: int | None) -> list[dict[str, Any]]:
    """The views the browser rebuilds: the start, then each patch applied in turn."""
    data = replay_views(record, seat)
    assert data["seat"] == seat and len(data["patches"]) == len(record.actions)
    views = [data["start"]]
    for patch in data["patches"]:
        views.append(apply_patch(views[-1], patch))
    return views


@pytest.mark.parametrize("game_id", ["a0a0a0a0a2", "a0a0a0a0a5"])
def test_every_seats_view_at_every_step_is_the_rules_view(game_id: str) -> None:
    record = game_record(game_id)
    for seat in [None, *range(record.players)]:
        views = views_of(record, seat)
        game = Game(record.players, seed_from_hex(record.seed), record.client_seeds)
        for k, view in enumerate(views):
            if k:
                step = record.actions[k - 1]
                game.apply(step.seat, step.action, step.at)
            want = unstructure_with(game.view(seat), SeatView)
            assert view["legal"] == [] and view["takebacks"] == []  # read-only
            want["legal"], want["takebacks"] = [], []
            assert view == want, (seat, k)
            assert view["version"] == k
            over = view["result"] is not None
            for mat in view["mats"]:
                # a seat's seals are its own until the end; a spectator sees none
                assert (mat["seals"] is not None) == (over or mat["seat"] == seat), (seat, k)
        assert record.result is not None
        assert views[-1]["result"]["winners"] == list(record.result.winners)


def test_a_seat_out_of_range_is_refused() -> None:
    record = game_record("a0a0a0a0a2")
    with pytest.raises(ValueError, match="seat must be 0 to 1"):
        replay_views(record, 2)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_charts_totals_are_the_final_scores(game_id: str) -> None:
    record = game_record(game_id)
    assert record.result is not None
    charts = game_charts(record)
    final = {sc.seat: sc for sc in record.result.scores}
    replayed = Game.replay(record).scores()
    assert charts["over"] is True
    for src in charts["sources"]:
        want = final[src["seat"]]
        assert src["total"] == want.total == replayed[src["seat"]].total
        assert src["seals"] == want.seals and src["building_points"] == want.building_points
        assert src["bonuses"] == sum(want.bonuses.values())
        assert src["seals"] + src["building_points"] + src["bonuses"] == src["total"]
    assert charts["points"][0]["scores"] == [0] * record.players
    assert charts["points"][-1]["scores"] == [final[s].total for s in range(record.players)]


def test_score_after_each_round_is_the_step_replays_score() -> None:
    record = game_record("a0a0a0a0a3")
    charts = game_charts(record)
    steps = replay_all(record)["actions"]
    ends = [s["step"] for s in steps if any(e["type"] == "round_ended" for e in s["events"])]
    assert [p["round"] for p in charts["points"]] == list(range(len(ends) + 1))
    for point, step in zip(charts["points"][1:], ends, strict=True):
        then = replay_step(record, step)
        assert point["scores"] == [sc["total"] for sc in then["scores"]], point


def test_goods_shipped_and_sold_add_up_from_the_events() -> None:
    record = game_record("a0a0a0a0a4")
    charts = game_charts(record)
    events = [e for s in replay_all(record)["actions"] for e in s["events"]]
    for seat in range(record.players):
        loaded = sum(e["count"] for e in events if e["type"] == "loaded" and e["seat"] == seat)
        sales = [e for e in events if e["type"] == "sold" and e["seat"] == seat]
        assert sum(charts["shipped"][seat].values()) == loaded
        assert sum(charts["sold"][seat].values()) == len(sales)
        assert charts["coins_from_sales"][seat] == sum(e["coins"] for e in sales)
    assert sum(sum(x.values()) for x in charts["shipped"]) > 0  # the game shipped something


def test_a_game_ended_inside_a_round_charts_where_it_stopped() -> None:
    whole = game_record("a0a0a0a0a2")
    cut = attrs.evolve(whole, actions=whole.actions[:57], result=None, end_reason="shutdown")
    charts = game_charts(cut)
    game = Game.replay(cut)
    assert charts["over"] is False
    last = charts["points"][-1]
    assert last["label"] == f"Stopped in round {game.round}" and last["round"] == game.round
    assert last["scores"] == [sc.total for sc in game.scores()]
    assert [s["total"] for s in charts["sources"]] == last["scores"]
    views = views_of(cut, 0)
    assert views[-1]["version"] == 57 and views[-1]["result"] is None
    assert all(m["seals"] is None for m in views[-1]["mats"] if m["seat"] != 0)


def test_a_record_the_rules_refuse_is_named_not_replayed() -> None:
    whole = game_record("a0a0a0a0a3")
    bad_step = whole.actions[4]
    wrong = attrs.evolve(bad_step, seat=(bad_step.seat + 1) % whole.players)
    tampered = attrs.evolve(whole, actions=[*whole.actions[:4], wrong, *whole.actions[5:]])
    with pytest.raises(ViewsError, match=r"action 5 .* does not replay"):
        replay_views(tampered, None)
    with pytest.raises(ChartsError, match=r"action 5 .* does not replay"):
        game_charts(tampered)
