"""A batch of the PostgreSQL store's writes in fewer statements, with the same effect:
every action row in one statement per run of actions and summaries, each table's last
summary only, and every other write in its place."""

from __future__ import annotations

from quaymoor.store.pg_archive import Op
from quaymoor.store.pg_lobby import Acted, ActedMany, Changed, Closed, Opened, compacted


def test_actions_and_summaries_fold_within_their_runs_and_keep_the_order() -> None:
    batch: list[Op] = [
        Opened("a", "w00", 3, {"v": 0}),
        Acted("a", 0, [{"x": 1}]),
        Changed("a", {"v": 1}),
        Acted("b", 5, [{"x": 2}, {"x": 3}]),
        Acted("a", 1, [{"x": 4}]),
        Changed("b", {"v": 1}),
        Changed("a", {"v": 2}),
        Closed("b"),
        Acted("a", 2, [{"x": 5}]),
    ]
    out = compacted(batch)
    assert [type(op).__name__ for op in out] == [
        "Opened", "ActedMany", "Changed", "Changed", "Closed", "ActedMany"]
    first = out[1]
    assert isinstance(first, ActedMany)
    assert [(r[0], r[1], r[3]) for r in first.rows] == [
        ("a", 0, "a"), ("b", 5, "b"), ("b", 6, "b"), ("a", 1, "a")]
    assert [r[2].obj for r in first.rows] == [{"x": 1}, {"x": 2}, {"x": 3}, {"x": 4}]
    assert {op.table_id: op.lobby for op in out[2:4] if isinstance(op, Changed)} == {
        "a": {"v": 2}, "b": {"v": 1}}  # each table's last summary, before b closes
    last = out[5]
    assert isinstance(last, ActedMany) and [(r[0], r[1]) for r in last.rows] == [("a", 2)]


def test_a_batch_of_other_writes_is_left_as_it_is() -> None:
    batch: list[Op] = [Opened("a", "w00", 3, {}), Closed("a")]
    assert compacted(batch) == batch
