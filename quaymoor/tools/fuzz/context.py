"""What every worker of a run shares: the server's port, the tally, the secrets scanner,
the tables, the input budget by category, and how to fill a case's slots."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from typing import Any, Final

import attrs

from quaymoor.tools.fuzz.checks import Secrets, Tally
from quaymoor.tools.fuzz.strategies import Case, Maker, frame
from quaymoor.tools.fuzz.tables import Target

#: Shares of the inputs by category (the rest of the run's fixed probes are extra).
SHARES: Final = {
    "ws message fields": 0.30,
    "ws action fields": 0.25,
    "ws raw frames": 0.08,
    "ws hello fields": 0.07,
    "http body fields": 0.22,
    "sequences": 0.08,
}


@attrs.define
class Run:
    port: int
    budget: dict[str, int]
    maker: Maker
    rng: random.Random
    tables: list[Target] = attrs.field(factory=list)
    tally: Tally = attrs.field(factory=Tally)
    secrets: Secrets = attrs.field(factory=Secrets)
    tokens: dict[str, str] = attrs.field(factory=dict)  #: every token issued -> whose
    created: int = 0  #: tables the fuzz inputs themselves created
    other_ids: list[str] = attrs.field(factory=list)  #: their ids
    spent: Counter[str] = attrs.field(factory=Counter)
    timings: dict[str, float] = attrs.field(factory=dict)  #: seconds by stage
    busy: defaultdict[str, float] = attrs.field(
        factory=lambda: defaultdict(float))  #: workers' seconds by category

    @classmethod
    def for_inputs(cls, port: int, inputs: int, maker: Maker, rng: random.Random) -> Run:
        return cls(port, {k: max(1, round(inputs * share)) for k, share in SHARES.items()},
                   maker, rng)

    def take(self, category: str, n: int) -> int:
        """Up to ``n`` inputs of ``category`` from the budget (0 when it is spent)."""
        n = max(0, min(n, self.budget[category] - self.spent[category]))
        self.spent[category] += n
        return n

    def remember(self, table: Target) -> None:
        self.tables.append(table)
        for seat, token in enumerate(table.tokens):
            if token is not None:
                self.tokens[token] = f"seat {seat} of table {table.id}"

    def slots(self, table: Target, token: str | None) -> dict[str, Any]:
        """A case's slots for a connection to ``table`` attached with ``token``."""
        rng = self.rng
        others = [t for t in table.seat_tokens() if t != token]
        foreign = [t for other in self.tables if other is not table for t in other.seat_tokens()]
        other_tables = [t.id for t in self.tables if t is not table]
        return {
            "table": table.id,
            "token": token if token is not None else (rng.choice(others) if others else None),
            "seat_token": rng.choice(others) if others else None,
            "foreign_token": rng.choice(foreign) if foreign else "x" * 32,
            "version": table.version,
            "other_table": rng.choice(other_tables) if other_tables else "0000000000",
        }

    def render(self, case: Case, slots: dict[str, Any]) -> str | bytes:
        return frame(case, slots)
