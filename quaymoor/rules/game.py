"""A game with its seed and its history: what the table actor owns and what a record
replays. A thin layer over ``engine``: the seed, the fingerprint, the actions in order,
events for listeners, views and the record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from quaymoor.rules import engine
from quaymoor.rules.actions import Action
from quaymoor.rules.data import Good
from quaymoor.rules.events import Event, PlotsTurnedUp, PlotTaken
from quaymoor.rules.explain import Told, describe
from quaymoor.rules.fairness import (
    ALGORITHM,
    ALGORITHM_1,
    Deal,
    DealtSeat,
    deal_key,
    derive_key,
    fingerprint,
    new_seed,
    seed_from_hex,
    seed_to_hex,
    table_fingerprint,
)
from quaymoor.rules.record import (
    ALGORITHM_OF,
    DEALT_FORMAT_OF,
    DEALT_FORMATS,
    LEGACY_FORMAT,
    GameRecord,
    RecordedAction,
    SeatInfo,
    TurnedUp,
    result_of,
    seat_label,
)
from quaymoor.rules.safe_move import safe_action
from quaymoor.rules.scoring import Score, scores
from quaymoor.rules.state import GameState, Phase
from quaymoor.rules.views import (
    PublicView,
    SeatPart,
    SeatView,
    ViewMemory,
    public_view,
    seat_part,
    view_for,
)


class Game:
    """One game: the state, the secret seed behind it, and every action applied.

    ``apply`` raises the engine's errors and changes nothing when an action is not legal.

    A game from a seed (a table draws a new secret one when none is given): ask who
    decides, list what that seat may do, apply one of those actions, read a seat's view.

    >>> from quaymoor.rules.game import Game
    >>> game = Game(3, seed=bytes(range(32)))
    >>> game.fingerprint[:16]  # published before the game; the seed only after it
    '630dcd2966c43366'
    >>> game.round, game.phase.name, game.deciding()
    (1, 'PICK_ROLE', (1,))
    >>> seat = game.deciding()[0]
    >>> game.legal_actions(seat)[:2]
    [PickRole(role=<Role.SURVEYOR: 0>), PickRole(role=<Role.REEVE: 1>)]
    >>> game.apply(seat, game.legal_actions(seat)[0])
    [RolePicked(seat=1, role=<Role.SURVEYOR: 0>, coins=0)]
    >>> game.phase.name
    'SURVEYOR'
    >>> game.legal_actions(seat)
    [TakePlot(good=<Good.FLAX: 1>), TakePlot(good=<Good.WOOL: 2>), TakeStonePit(), Pass()]
    >>> view = game.view(seat)
    >>> view.version, view.deciding, view.legal == game.legal_actions(seat)
    (1, [1], True)
    >>> game.record().actions
    [RecordedAction(seat=1, action=PickRole(role=<Role.SURVEYOR: 0>), at=None)]
    """

    def __init__(
        self,
        players: int,
        seed: bytes | None = None,
        client_seeds: Sequence[str] = (),
        *,
        events: bool = True,
        deal: Deal | None = None,
        algorithm: str = ALGORITHM,
    ) -> None:
        """With ``deal`` (a table's game): ``algorithm`` (``quaymoor-fair-3``; a format-4
        record's ``quaymoor-fair-2``), the key and the fingerprint bind the table's id and
        seats (``fairness.deal_key``); the client seeds are the deal's. Without (old
        records, tests): ``quaymoor-fair-1`` from ``client_seeds``. Raises
        ``fairness.DealError`` for a deal that does not hold."""
        self.seed = seed if seed is not None else new_seed()
        self.deal = deal
        if deal is None:
            self.algorithm = ALGORITHM_1
            self.client_seeds = tuple(client_seeds)
            self.fingerprint = fingerprint(self.seed)
            key = derive_key(self.seed, self.client_seeds)
        else:
            if client_seeds:
                raise ValueError("a dealt game takes its client seeds from its deal")
            if len(deal.seats) != players:
                raise ValueError(f"a deal of {len(deal.seats)} seats for {players} players")
            self.algorithm = algorithm
            self.client_seeds = tuple(deal.client_seeds)
            self.fingerprint = table_fingerprint(self.seed, deal.table_id, players, algorithm)
            key = deal_key(self.seed, deal, algorithm)
        self.state: GameState = engine.new_game(players, key)
        self.history: list[RecordedAction] = []
        self._events: list[Any] | None = [] if events else None
        self.first_warden = self.state.warden
        self._shown = ViewMemory()  #: for ``public_view``
        #: Every turn-up of plots so far (public), tracked when events are on.
        self.turned_up: list[TurnedUp] | None = None
        if events:
            self.turned_up = [TurnedUp(0, "setup", [Good(g) for g in self.state.face_up])]

    @property
    def players(self) -> int:
        return self.state.n

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def round(self) -> int:
        return self.state.round

    def is_over(self) -> bool:
        return engine.is_over(self.state)

    def is_simultaneous(self) -> bool:
        """Every deciding seat decides at once now (each until it is done)."""
        return self.state.phase.simultaneous

    def deciding(self) -> tuple[int, ...]:
        return engine.deciding(self.state)

    def legal_actions(self, seat: int) -> list[Action]:
        """What ``seat`` may do now, generated by the rules (``engine.legal_actions``);
        empty when nothing waits for the seat. Do not change the list.

        >>> game = Game(2, seed=bytes(32))
        >>> game.deciding()
        (0,)
        >>> [action.role.name for action in game.legal_actions(0)]
        ['SURVEYOR', 'REEVE', 'MASON', 'MILLER', 'CHANDLER', 'BARGEMASTER', 'PEDLAR']
        >>> game.legal_actions(1)  # not its decision
        []
        """
        return engine.legal_actions(self.state, seat)

    def takeback_actions(self, seat: int) -> list[Action]:
        return engine.takeback_actions(self.state, seat)

    def apply(self, seat: int, action: Action, at: float | None = None) -> list[Event]:
        """Apply ``seat``'s action; returns the events it caused (empty when events are
        off). ``at`` is the time to record with it (seconds since the epoch), if any.

        An action that is not legal now raises the rules' error, which says why in plain
        words, and changes nothing:

        >>> from quaymoor.rules.actions import PickRole
        >>> from quaymoor.rules.data import Role
        >>> from quaymoor.rules.errors import NotYourDecision
        >>> game = Game(2, seed=bytes(32))
        >>> try:
        ...     game.apply(1, PickRole(Role.SURVEYOR))
        ... except NotYourDecision as refused:
        ...     print(refused)
        it is not your decision: waiting for seat 0 to pick a role
        >>> game.version, game.history
        (0, [])
        >>> game.apply(0, PickRole(Role.SURVEYOR), at=1_700_000_000.0)
        [RolePicked(seat=0, role=<Role.SURVEYOR: 0>, coins=0)]
        >>> game.version, game.history
        (1, [RecordedAction(seat=0, action=PickRole(role=<Role.SURVEYOR: 0>), at=1700000000.0)])
        """
        s = self.state
        s.events = self._events
        try:
            engine.apply(s, seat, action)
        finally:
            s.events = None
        self.history.append(RecordedAction(seat, action, at))
        if self._events is None:
            return []
        out, self._events = self._events, []
        if self.turned_up is not None:
            step = self.state.version
            for ev in out:
                if isinstance(ev, PlotsTurnedUp):
                    self.turned_up.append(TurnedUp(step, "surveyor", list(ev.goods)))
                elif isinstance(ev, PlotTaken) and ev.from_stack:
                    self.turned_up.append(TurnedUp(step, "farmstead", [Good(ev.kind)]))
        return out

    def safe_action(self, seat: int) -> Action | None:
        """The next action of ``seat``'s safe move (what its timer plays), or None when
        nothing waits for the seat."""
        return safe_action(self.state, seat)

    def describe(self, seat: int | None, names: Sequence[str]) -> Told:
        """What the decision now is, in plain words for ``seat`` (None: a spectator);
        ``names``: the seats' names (``explain.describe``)."""
        return describe(self.state, seat, names)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see now; None for a spectator.

        A seat's view carries its own legal actions and its own secrets; the others'
        seals stay hidden (None) until the end, and a spectator sees no seat's:

        >>> game = Game(3, seed=bytes(range(32)))
        >>> mine, watching = game.view(1), game.view(None)
        >>> mine.seat, mine.legal == game.legal_actions(1), watching.seat, watching.legal
        (1, True, None, [])
        >>> [mat.seals for mat in mine.mats], [mat.seals for mat in watching.mats]
        ([None, 0, None], [None, None, None])
        >>> mine.board.round, mine.board.phase.name, len(mine.board.face_up)
        (1, 'PICK_ROLE', 4)
        """
        if seat is None:
            return view_for(self.state, None, [], [])
        return view_for(
            self.state, seat, self.legal_actions(seat), self.takeback_actions(seat)
        )

    def public_view(self) -> PublicView:
        """What everyone may see now (a spectator's view, before ``views.compose``)."""
        return public_view(self.state, self._shown)

    def seat_part(self, seat: int) -> SeatPart:
        """What only ``seat`` may see now, besides the public view."""
        return seat_part(
            self.state, seat, self.legal_actions(seat), self.takeback_actions(seat)
        )

    def scores(self) -> list[Score]:
        return scores(self.state)

    def record(
        self,
        seats: Sequence[SeatInfo] | None = None,
        *,
        game: str | None = None,
        end_reason: str | None = None,
        ended_at: float | None = None,
        hints: Sequence[int] | None = None,
        rated: bool = False,
    ) -> GameRecord:
        """The game record: enough to replay and verify the game. It holds the seed, so it
        is for the end of the game (or for the server's own archive). ``game``, the reason
        it ended and when are for the server's records.

        A dealt game (format 5; 4 with ``quaymoor-fair-2``) writes its deal: the seats
        with their commitments, the seeds they revealed, the table's id (``seats`` and
        ``game`` must agree with it or be left out). A game without a deal (format 3)
        binds its client seeds to the first seats in order, the other seats gave none;
        without ``seats`` a seat that gave a seed is a person's and every other one a
        bot's (bots hold no seed, ``docs/fairness.md``). ``hints``: per seat, the hints
        its player was given. ``rated``: a rated game."""
        deal = self.deal
        if deal is not None:
            if game is not None and game != deal.table_id:
                raise ValueError(f"the game was dealt at table {deal.table_id}, not {game}")
            info = [SeatInfo(s.name, s.bot, s.commitment) for s in deal.seats]
            if seats is not None and [(s.name, s.bot) for s in seats] != [
                    (s.name, s.bot) for s in info]:
                raise ValueError("the seats given are not the ones the game was dealt to")
            bound = [s.client_seed for s in deal.seats]
            game = deal.table_id
        else:
            given = list(self.client_seeds)
            if len(given) > self.players:
                raise ValueError(f"{len(given)} client seeds for {self.players} seats: a "
                                 "seat gives at most one")
            bound = [*given, *[None] * (self.players - len(given))]
            info = list(seats) if seats is not None else [
                SeatInfo(seat_label(i), bot=bound[i] is None) for i in range(self.players)
            ]
        if hints is not None:
            info = [attrs.evolve(s, hints=int(n)) for s, n in zip(info, hints, strict=True)]
        return GameRecord(
            format=(LEGACY_FORMAT if deal is None
                    else DEALT_FORMAT_OF[self.algorithm]),
            algorithm=self.algorithm,
            players=self.players,
            seed=seed_to_hex(self.seed),
            fingerprint=self.fingerprint,
            client_seeds=list(self.client_seeds),
            seats=info,
            actions=list(self.history),
            result=result_of(self.state) if self.is_over() else None,
            game=game,
            end_reason=end_reason,
            ended_at=ended_at,
            first_warden=self.first_warden,
            turned_up=list(self.turned_up) if self.turned_up is not None else None,
            seat_seeds=bound,
            rated=rated,
        )

    @classmethod
    def from_record(cls, record: GameRecord, *, events: bool = True) -> Game:
        """The game a record was dealt, before its first action: from its seed and, in
        formats 4 and 5, its deal (table id, seats, commitments, seeds) and the format's
        algorithm; else its client seeds. Raises ``ValueError`` (a bad seed, an unknown
        format, a deal that does not hold: ``DealError``)."""
        seed = seed_from_hex(record.seed)
        if record.format not in DEALT_FORMATS:
            return cls(record.players, seed, record.client_seeds, events=events)
        return cls(record.players, seed, events=events, deal=deal_of(record),
                   algorithm=ALGORITHM_OF[record.format])

    @classmethod
    def replay(cls, record: GameRecord) -> Game:
        """Rebuild a game from its record by applying every recorded action in order.
        Raises the engine's errors at the first action that is not legal. Turn-ups are
        tracked again when the record has them."""
        game = cls.from_record(record, events=record.turned_up is not None)
        for step in record.actions:
            game.apply(step.seat, step.action, step.at)
        return game


def deal_of(record: GameRecord) -> Deal:
    """A format-4 or -5 record's deal: its table id and, per seat, name, bot flag, commitment
    and the seed it revealed. Raises ``ValueError`` when the record lacks one of them
    (the binding stripped) or lists them for another number of seats."""
    if not record.game:
        raise ValueError(f"game: a format-{record.format} record names the table it was "
                         "dealt at, and this one names none")
    seeds = record.seat_seeds
    if seeds is None:
        raise ValueError(f"seat_seeds: a format-{record.format} record binds every client "
                         "seed to its "
                         "seat, and this one has none (null or missing): the binding was "
                         "stripped")
    if len(seeds) != record.players or len(record.seats) != record.players:
        raise ValueError(f"{len(record.seats)} seats and {len(seeds)} seat_seeds listed for "
                         f"{record.players} players")
    return Deal(record.game, tuple(DealtSeat(s.name, s.bot, s.commitment, given)
                                   for s, given in zip(record.seats, seeds, strict=True)))
