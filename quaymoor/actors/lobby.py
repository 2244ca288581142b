"""A table's chairs: who sits where, their secret tokens, commitments and client seeds,
the bots' names. The lobby's logic, without the actor around it: ``join`` checks a request
and takes the next free chair, ``commit`` takes a seated player's commitment to its client
seed (once, after the join's answer showed the fingerprint, before the start),
``fill_with_bots`` seats bots at the start, ``reveal`` takes the client seed behind a
commitment (once every commitment is fixed), ``deal`` is what the game's key is made from,
``seat_for_token`` finds a player's chair. Refusals raise ``TableError``; nothing changes
when they do (``docs/fairness.md``, "Commit, then reveal").
"""

from __future__ import annotations

import hmac
import unicodedata
from collections.abc import Iterator

from quaymoor.actors.handover import vote_of
from quaymoor.actors.inbox import JoinResult, TableError
from quaymoor.actors.presence import Presence, Seat
from quaymoor.protocol.codes import Code
from quaymoor.protocol.messages import SeatPublic
from quaymoor.rules.fairness import (
    ClientSeedError,
    Deal,
    DealError,
    DealtSeat,
    bot_names,
    check_client_seed,
    check_commitment,
    seed_commitment,
)

MAX_NAME = 24


def clean_name(name: str) -> str:
    """A name as the table shows it: control and format characters (NUL, RTL and other
    bidi marks, zero-width ones) removed, white space collapsed, cut to ``MAX_NAME``
    characters. Raises ``TableError`` (bad_name) for text that is not valid Unicode (a
    lone surrogate)."""
    if any(0xD800 <= ord(c) <= 0xDFFF for c in name):
        raise TableError(Code.BAD_NAME, "a name must be valid Unicode (no lone surrogates) "
                                        "@ $.name")
    kept = "".join(c for c in name
                   if c.isspace() or unicodedata.category(c) not in ("Cc", "Cf"))
    return " ".join(kept.split())[:MAX_NAME]


class Seats:
    """The chairs of one table, in seat order."""

    def __init__(self, players: int) -> None:
        self.all = [Seat(i) for i in range(players)]

    def __getitem__(self, index: int) -> Seat:
        return self.all[index]

    def __iter__(self) -> Iterator[Seat]:
        return iter(self.all)

    def public(self) -> list[SeatPublic]:
        return [s.public(vote_of(self.all, s)) for s in self.all]

    def join(self, name: str, account: str | None = None, *, rated: bool = False
             ) -> JoinResult:
        """Seat ``name`` (signed in to ``account``, None: a guest) in the first empty
        chair. Raises ``TableError`` (bad_name, table_full; at a ``rated`` table
        signed_out for a guest, already_seated for an account seated already). The
        seat's client seed comes later (``give_seed``)."""
        name = clean_name(name)
        if not name:
            raise TableError(Code.BAD_NAME, "a name is needed @ $.name")
        if rated and account is None:
            raise TableError(Code.SIGNED_OUT, "this table is rated: sign in to take a seat "
                                              "(or watch)")
        if rated and any(s.account == account for s in self.all):
            raise TableError(Code.ALREADY_SEATED, "your account has a seat at this rated "
                                                  "table already: one seat each")
        for seat in self.all:
            if seat.presence is Presence.EMPTY:
                return JoinResult(seat.index, seat.take(name, account))
        raise TableError(Code.TABLE_FULL, "every seat is taken: watch instead")

    def _seated(self, token: str, what: str) -> Seat:
        seat = self.seat_for_token(token)
        if seat is None:
            raise TableError(Code.BAD_TOKEN, f"only a seated player may {what}")
        return seat

    def commit(self, token: str, commitment: object) -> Seat:
        """Take the commitment of the seat holding ``token``, as the client sent it.
        Raises ``TableError``: bad_token, already_committed (one per seat),
        bad_commitment (not 64 lowercase hex digits)."""
        seat = self._seated(token, "send a commitment")
        if seat.commitment is not None:
            raise TableError(Code.ALREADY_COMMITTED, "this seat has sent its commitment "
                                                     "already")
        try:
            seat.commit(check_commitment(commitment))
        except DealError as exc:
            raise TableError(Code.BAD_COMMITMENT, f"{exc} @ $.commitment") from None
        return seat

    def reveal(self, table_id: str, token: str, client_seed: object) -> Seat:
        """Take the client seed of the seat holding ``token`` (during the reveal: the
        table checks when). Raises ``TableError``: bad_token, no_commitment,
        already_revealed, bad_client_seed (``fairness.check_client_seed``), seed_mismatch
        (not the seed the seat committed to)."""
        seat = self._seated(token, "reveal a client seed")
        if seat.commitment is None:
            raise TableError(Code.NO_COMMITMENT, "this seat sent no commitment before the "
                                                 "start, so it has no seed to reveal")
        if seat.client_seed is not None:
            raise TableError(Code.ALREADY_REVEALED, "this seat has revealed its client seed "
                                                    "already")
        try:
            given = check_client_seed(client_seed)
        except ClientSeedError as exc:
            raise TableError(Code.BAD_CLIENT_SEED, f"{exc} @ $.client_seed") from None
        if seed_commitment(table_id, seat.index, given) != seat.commitment:
            raise TableError(Code.SEED_MISMATCH,
                             f"this client seed does not match seat {seat.index}'s "
                             f"commitment {seat.commitment} @ $.client_seed")
        seat.reveal(given)
        return seat

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

    def hold(self, index: int, name: str, account: str | None = None) -> Seat:
        """Keep chair ``index`` for ``name`` (a player of the game this one is a rematch
        of, signed in to ``account``), with a token of its own for them, before anyone
        can join."""
        seat = self.all[index]
        seat.hold(clean_name(name) or seat.display_name, account)
        return seat

    def all_committed(self) -> bool:
        """Every seated player has sent a commitment (and so has come)."""
        return all(s.commitment is not None for s in self.all if s.name is not None)

    def all_revealed(self) -> bool:
        """Every seat that committed has revealed its seed."""
        return all(s.client_seed is not None for s in self.all if s.commitment is not None)

    def fill_with_bots(self) -> list[int]:
        """Seat a named bot in every empty chair, and in every chair still held for a
        player who has not come; returns their seats."""
        for seat in self.all:
            seat.let_go_of_hold()
        people = [s.name if s.presence is not Presence.EMPTY else None for s in self.all]
        filled = []
        for seat, name in zip(self.all, bot_names(people), strict=True):
            if name is not None:
                seat.sit_bot(name)
                filled.append(seat.index)
        return filled

    def seat_seeds(self) -> list[str | None]:
        """Per seat, the client seed it revealed (None: a bot, a player who committed to
        none, or one who did not reveal)."""
        return [s.client_seed for s in self.all]

    def commitments(self) -> list[str | None]:
        """Per seat, the commitment its player sent (None: none)."""
        return [s.commitment for s in self.all]

    def deal(self, table_id: str) -> Deal:
        """What the game's key binds besides the seed: the table's id, and per seat its
        bot flag, commitment and revealed seed (``fairness.deal_key``), with the name the
        record shows."""
        return Deal(table_id, tuple(DealtSeat(s.display_name, s.bot, s.commitment,
                                              s.client_seed) for s in self.all))
