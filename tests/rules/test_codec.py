"""The JSON codec: every action round-trips; structuring is strict and its errors say
what was wrong and where."""

from __future__ import annotations

import json
from typing import Any

import pytest

from quaymoor.rules import actions as a
from quaymoor.rules.converter import (
    ACTION_TAGS,
    action_from_json,
    action_to_json,
    converter,
    describe_error,
    snake,
)
from quaymoor.rules.data import Building, Good, PlotKind, Role
from quaymoor.rules.events import Event, Loaded, PlotTaken, RolePicked, Sold
from quaymoor.rules.record import SeatInfo
from quaymoor.rules.views import FinalScore

INTERNED: list[a.Action] = [
    *a.PICK, *a.TAKE_PLOT, a.TAKE_STONE_PIT, a.DRAW_PLOT, *a.PLACE_ON_PLOT,
    *a.PLACE_ON_BUILDING, *a.TAKE_BACK_FROM_PLOT, *a.TAKE_BACK_FROM_BUILDING, *a.BUILD,
    *a.TAKE_EXTRA_GOOD, *a.SELL, *(x for row in a.LOAD for x in row), *a.SHIP_ON_BOATYARD,
    *a.STORE_GOODS, *a.KEEP_GOOD, a.DONE, a.PASS,
]


def test_the_interned_actions_cover_every_action_type() -> None:
    assert {type(x) for x in INTERNED} == set(a.ACTION_TYPES)
    assert set(ACTION_TAGS) == {snake(t.__name__) for t in a.ACTION_TYPES}
    assert len(set(INTERNED)) == len(INTERNED)


@pytest.mark.parametrize("action", INTERNED, ids=repr)
def test_every_interned_action_round_trips(action: a.Action) -> None:
    data = action_to_json(action)
    assert data["type"] == snake(type(action).__name__)
    wire = json.loads(json.dumps(data))
    back = action_from_json(wire)
    assert back == action
    assert hash(back) == hash(action)
    assert type(back) is type(action)
    assert action_to_json(back) == data


def test_actions_travel_as_lowercase_names() -> None:
    assert action_to_json(a.LOAD[Good.WOOL][1]) == {"type": "load", "good": "wool", "barge": 1}
    assert action_to_json(a.PICK[Role.BARGEMASTER]) == {"type": "pick_role", "role": "bargemaster"}
    assert action_to_json(a.BUILD[Building.FLAX_SHED]) == {"type": "build", "building": "flax_shed"}
    assert action_to_json(a.PLACE_ON_PLOT[PlotKind.STONE_PIT]) == {
        "type": "place_on_plot", "kind": "stone_pit",
    }
    assert action_to_json(a.TAKE_STONE_PIT) == {"type": "take_stone_pit"}
    assert action_from_json({"type": "pass"}) is not None
    assert action_from_json({"type": "take_extra_good", "good": "amber"}) == a.TAKE_EXTRA_GOOD[4]


def _refused(data: Any) -> str:
    with pytest.raises(Exception) as info:
        action_from_json(data)
    assert not isinstance(info.value, KeyError), "a bare KeyError says nothing useful"
    message = describe_error(info.value)
    assert message
    return message


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"type": "load", "good": "wool", "barge": "2"}, "expected int @ $.barge"),
        ({"type": "load", "good": "wool", "barge": 2.7}, "expected int @ $.barge"),
        ({"type": "load", "good": "wool", "barge": 2.0}, "expected int @ $.barge"),
        ({"type": "load", "good": "wool", "barge": True}, "expected int @ $.barge"),
        ({"type": "load", "good": "wool", "barge": None}, "expected int @ $.barge"),
        ({"type": "load", "good": "silk", "barge": 2}, "@ $.good"),
        ({"type": "load", "good": "Wool", "barge": 2}, "@ $.good"),
        ({"type": "load", "good": 2, "barge": 2}, "@ $.good"),
        ({"type": "sell", "good": "WOOL"}, "@ $.good"),
        ({"type": "pick_role", "role": "pedlar "}, "@ $.role"),
        ({"type": "build", "building": "Flax Shed"}, "@ $.building"),
        ({"type": "place_on_plot", "kind": "stone pit"}, "@ $.kind"),
        ({"type": "load", "good": "wool", "barge": 2, "seat": 1}, "extra fields found (seat) @ $"),
        ({"type": "pass", "good": "wool"}, "extra fields found (good) @ $"),
        ({"type": "load", "good": "wool"}, "required field missing @ $.barge"),
        ({"type": "sell"}, "required field missing @ $.good"),
    ],
)
def test_strict_structuring_names_the_field(data: dict[str, Any], expected: str) -> None:
    message = _refused(data)
    assert expected in message, message


def test_an_unknown_enum_name_lists_the_known_ones() -> None:
    with pytest.raises(ExceptionGroup) as info:
        action_from_json({"type": "sell", "good": "silk"})
    cause = info.value.exceptions[0]
    assert "clay, flax, wool, honey, amber" in str(cause)
    assert "'silk'" in str(cause)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"type": "fly"}, "unknown action type 'fly'"),
        ({"type": "Load", "good": "wool", "barge": 1}, "unknown action type 'Load'"),
        ({"type": None}, "unknown action type None"),
        ({"good": "wool", "barge": 1}, "unknown action type None"),
        ({"type": 3}, "unknown action type 3"),
    ],
)
def test_unknown_action_types_are_named(data: dict[str, Any], expected: str) -> None:
    with pytest.raises(ValueError) as info:
        action_from_json(data)
    assert describe_error(info.value) == expected


@pytest.mark.parametrize("data", [[], ["pass"], "pass", None, 3, 2.5, True])
def test_an_action_must_be_an_object(data: Any) -> None:
    with pytest.raises(ValueError) as info:
        action_from_json(data)
    assert describe_error(info.value) == (
        f"an action must be an object, got {type(data).__name__}"
    )


def test_nested_values_name_their_path() -> None:
    with pytest.raises(Exception) as info:
        converter.structure(
            [{"name": "Ann", "bot": False}, {"name": "Bo", "bot": "no"}], list[SeatInfo]
        )
    assert describe_error(info.value) == "invalid value for type, expected bool @ $[1].bot"
    with pytest.raises(Exception) as info:
        converter.structure(
            {"seat": 0, "seals": 3, "building_points": 1, "bonuses": {"manor": "4"},
             "total": 8, "tiebreak": 2},
            FinalScore,
        )
    assert "@ $.bonuses['manor']" in describe_error(info.value)


@pytest.mark.parametrize("value", ["ab", {"a": 1}, 3, None])
def test_a_list_comes_only_from_a_json_array(value: Any) -> None:
    with pytest.raises(Exception) as info:
        converter.structure(value, list[str])
    assert "expected list" in describe_error(info.value)
    assert converter.structure(["a", "b"], list[str]) == ["a", "b"]


@pytest.mark.parametrize(
    "event",
    [
        RolePicked(2, Role.MILLER, 3),
        PlotTaken(0, PlotKind.STONE_PIT, from_stack=False, with_apprentice=True),
        Loaded(1, Good.AMBER, 4, -1),
        Sold(3, Good.CLAY, 1),
    ],
    ids=repr,
)
def test_events_round_trip_with_a_type_tag(event: Any) -> None:
    data = converter.unstructure(event, unstructure_as=Event)
    assert data["type"] == snake(type(event).__name__)
    assert converter.structure(json.loads(json.dumps(data)), Event) == event  # type: ignore[arg-type]


def test_an_unknown_event_type_is_named() -> None:
    with pytest.raises(ValueError, match=r"unknown event type 'boom'"):
        converter.structure({"type": "boom"}, Event)  # type: ignore[arg-type]
