"""A table's chairs: who sits where, their secret tokens and client seeds, the bots'
names. The lobby's logic, without the actor around it: ``join`` checks a request and
takes the next free chair, ``fill_with_bots`` seats bots at the start, ``seat_for_token``
finds a player's chair. Refusals raise ``TableError``; nothing changes when they do.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterator

import attrs

from quaymoor.actors.inbox import JoinResult, TableError
from quaymoor.protocol.codes import Code
from quaymoor.protocol.messages import SeatPublic
from quaymoor.rules.fairness import MAX_CLIENT_SEED_BYTES

BOT_NAMES = ("Ada", "Bede", "Cuthbert", "Dunstan", "Edith", "Frideswide", "Godric", "Hilda")
MAX_NAME = 24


@attrs.define
class Seat:
    """One chair: empty until someone joins (or a bot sits down at the start)."""

    index: int
    name: str | None = None
    token: str | None = None
    bot: bool = False
    client_seed: str | None = None
    connections: int = 0
    missed_timeouts: int = 0  #: timeouts in a row while nobody was connected
    bot_playing: bool = False  #: a bot plays for the absent player

    @property
    def bot_controlled(self) -> bool:
        return self.bot or self.bot_playing

    @property
    def connected(self) -> bool:
        """Someone is attached to the seat; a bot always is."""
        return self.bot or self.connections > 0

    def public(self) -> SeatPublic:
        return SeatPublic(self.index, self.name, self.bot, self.bot_playing, self.connected)


class Seats:
    """The chairs of one table, in seat order."""

    def __init__(self, players: int) -> None:
        self.all = [Seat(i) for i in range(players)]

    def __getitem__(self, index: int) -> Seat:
        return self.all[index]

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.all)

    def public(self) -> list[SeatPublic]:
        return [s.public() for s in self.all]

    def join(self, name: str, client_seed: str | None) -> JoinResult:
        """Seat ``name`` in the first empty chair. Raises ``TableError`` (bad_name,
        bad_client_seed, table_full)."""
        name = " ".join(name.split())[:MAX_NAME]
        if not name:
            raise TableError(Code.BAD_NAME, "a name is needed @ $.name")
        if client_seed is not None and len(client_seed.encode()) > MAX_CLIENT_SEED_BYTES:
            raise TableError(Code.BAD_CLIENT_SEED,
                             f"client_seed is over {MAX_CLIENT_SEED_BYTES} bytes @ $.client_seed")
        for seat in self.all:
            if seat.name is None:
                seat.name = name
                seat.token = secrets.token_urlsafe(24)
                seat.client_seed = client_seed
                return JoinResult(seat.index, seat.token)
        raise TableError(Code.TABLE_FULL, "every seat is taken: watch instead")

    def seat_for_token(self, token: str) -> Seat | None:
        """The seat holding ``token``, compared in constant time; None for any other text
        (a stranger's: non-ASCII, lone surrogates, NUL and all)."""
        # compare_digest refuses a str with non-ASCII characters, so compare bytes; a lone
        # surrogate cannot be UTF-8, "surrogatepass" still gives it bytes that match nothing.
        given = token.encode("utf-8", "surrogatepass")
        found = None
        for seat in self.all:
            if seat.token is not None and hmac.compare_digest(seat.token.encode(), given):
                found = seat
        return found

    def fill_with_bots(self) -> list[int]:
        """Seat a named bot in every empty chair; returns their seats."""
        taken = {s.name for s in self.all if s.name}
        names = iter(n for n in BOT_NAMES if n not in taken)
        filled = []
        for seat in self.all:
            if seat.name is None:
                seat.name = f"{next(names)} (bot)"
                seat.bot = True
                filled.append(seat.index)
        return filled

    def client_seeds(self) -> list[str]:
        """The players' client seeds, in seat order."""
        return [s.client_seed for s in self.all if s.client_seed]
