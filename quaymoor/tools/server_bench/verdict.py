"""The load proof's verdict from the client processes' results: every game finished with
every stream complete and in order or, at human pace (``window``), every table started,
every connection welcomed and held to the end of the window, every stream in order."""

from __future__ import annotations

from typing import Any


def print_verdict(done: list[dict[str, Any]], held: int, *, tables: int, players: int,
                  window: bool) -> bool:
    """Prints the verdict line; returns whether the proof passed."""
    total = sum(r["streams_ok"] + r["streams_bad"] for r in done)
    ok = sum(r["streams_ok"] for r in done)
    started = sum(r["tables_started"] for r in done)
    finished = sum(r["finished_tables"] for r in done)
    if window:
        faults = sum(r["order_faults"] for r in done)
        closed = sum(sum(r["closed_early"].values()) for r in done)
        failed = sum(sum(r["connect_failures"].values()) + sum(r["start_failures"].values())
                     for r in done)
        proved = bool(started == tables and held == tables * players
                      and faults == closed == failed == 0)
        print(f"verdict (window): {'PASS' if proved else 'FAIL'}: {started} of {tables} "
              f"tables started, {finished} finished; {held} of {tables * players} "
              f"connections welcomed, {closed} closed before the end of the window; "
              f"{total - faults} of {total} streams in order to it; connect or start "
              f"failures {failed}", flush=True)
        return proved
    proved = bool(started == finished == tables and ok == total == tables * players)
    print(f"verdict: {'PASS' if proved else 'FAIL'}: {finished} of {tables} games "
          f"finished; {ok} of {tables * players} client streams complete (to "
          f"game_ended, reason finished) and in order", flush=True)
    return proved
