"""A row of the fault table: what one fault cost, the targets it missed, and how the
table is printed.

Targets (issue 23), for every row: no record lost (every game has a record at the end),
every record verified, no seed published while its game still played, every player who
was connected when the fault came told (``game_ended``, or a paused/resumed notice, or
reconnected and played on to its ``game_ended``); for the HAProxy row also an outage
under ``OUTAGE_TARGET`` seconds.
"""

from __future__ import annotations

from typing import Final

import attrs

OUTAGE_TARGET: Final = 3.0  #: seconds the public port may stay silent (HAProxy's row)


@attrs.frozen
class Row:
    """One fault's figures (``available`` None) or why it was not run."""

    key: str
    title: str
    games: int = 0  #: tables seated mid-game when the fault came
    connected: int = 0  #: players connected when the fault came
    told: int = 0  #: of them, told what became of their game
    records: int = 0  #: games with a record at the end
    verified: int = 0  #: records the verifier accepts (the seed the player's fingerprint)
    early: int = 0  #: records served while their game still played
    outage: float = 0.0  #: longest time the public port did not answer, s
    outage_target: bool = False
    notes: tuple[str, ...] = ()
    unavailable: str | None = None  #: why the fault did not run (then no figures)
    broken: str | None = None  #: the bench itself failed on this fault (no figures)

    @property
    def measured(self) -> bool:
        return self.unavailable is None and self.broken is None

    def missed(self) -> list[str]:
        """The targets this row missed, in words (empty: every one met, or not run)."""
        if self.broken is not None:
            return [f"not measured: the bench failed ({self.broken})"]
        if not self.measured:
            return []
        missed = []
        if self.records < self.games:
            missed.append(f"{self.games - self.records} of {self.games} records lost")
        if self.verified < self.records:
            missed.append(f"{self.records - self.verified} records not verified")
        if self.early:
            missed.append(f"{self.early} seeds published early")
        if self.told < self.connected:
            missed.append(f"{self.connected - self.told} of {self.connected} connected "
                          "players not told")
        if self.outage_target and self.outage >= OUTAGE_TARGET:
            missed.append(f"outage {self.outage:.1f} s (target < {OUTAGE_TARGET:g} s)")
        return missed


HEAD: Final = ("fault", "games", "told", "records", "verified", "seeds early", "outage s",
               "verdict")


def cells(row: Row) -> tuple[str, ...]:
    if row.broken is not None:
        return (row.key, "-", "-", "-", "-", "-", "-", "FAIL (bench failed)")
    if not row.measured:
        return (row.key, "-", "-", "-", "-", "-", "-", "not available on this build")
    missed = row.missed()
    return (row.key, str(row.games), f"{row.told}/{row.connected}", str(row.records),
            str(row.verified), str(row.early), f"{row.outage:.1f}",
            "pass" if not missed else "FAIL")


def table_text(rows: list[Row]) -> str:
    """The rows as an aligned table, then each row's title, missed targets and notes."""
    grid = [HEAD, *(cells(r) for r in rows)]
    widths = [max(len(line[i]) for line in grid) for i in range(len(HEAD))]
    lines = ["  ".join(c.ljust(w) if i in (0, 7) else c.rjust(w)
                       for i, (c, w) in enumerate(zip(line, widths, strict=True))).rstrip()
             for line in grid]
    lines.append("")
    for row in rows:
        lines.append(f"{row.key}: {row.title}")
        if row.unavailable is not None:
            lines.append(f"  not available on this build: {row.unavailable}")
        for missed in row.missed():
            lines.append(f"  target missed: {missed}")
        lines.extend(f"  {note}" for note in row.notes)
    return "\n".join(lines)
