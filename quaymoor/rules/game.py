"""A game with its seed and its history: what the table actor owns and what a record
replays. A thin layer over ``engine``: the seed, the fingerprint, the actions in order,
events for listeners, views and the record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from quaymoor.rules import engine
from quaymoor.rules.actions import Action
from quaymoor.rules.data import Good
from quaymoor.rules.events import Event, PlotsTurnedUp, PlotTaken
from quaymoor.rules.explain import Told, describe
from quaymoor.rules.fairness import derive_key, fingerprint, new_seed, seed_from_hex
from quaymoor.rules.record import (
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
    """

    def __init__(
        self,
        players: int,
        seed: bytes | None = None,
        client_seeds: Sequence[str] = (),
        *,
        events: bool = True,
    ) -> None:
        self.seed = seed if seed is not None else new_seed()
        self.client_seeds = tuple(client_seeds)
        self.fingerprint = fingerprint(self.seed)
        self.state: GameState = engine.new_game(players, derive_key(self.seed, self.client_seeds))
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
        return engine.legal_actions(self.state, seat)

    def takeback_actions(self, seat: int) -> list[Action]:
        return engine.takeback_actions(self.state, seat)

    def apply(self, seat: int, action: Action, at: float | None = None) -> list[Event]:
        """Apply ``seat``'s action; returns the events it caused (empty when events are
        off). ``at`` is the time to record with it (seconds since the epoch), if any."""
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
        """What ``seat`` may see now; None for a spectator."""
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
    ) -> GameRecord:
        """The game record: enough to replay and verify the game. It holds the seed, so it
        is for the end of the game (or for the server's own archive). ``game``, the reason
        it ended and when are for the server's records."""
        info = list(seats) if seats is not None else [
            SeatInfo(seat_label(i), bot=True) for i in range(self.players)
        ]
        return GameRecord.create(
            players=self.players,
            seed=self.seed,
            client_seeds=list(self.client_seeds),
            seats=info,
            actions=list(self.history),
            result=result_of(self.state) if self.is_over() else None,
            game=game,
            end_reason=end_reason,
            ended_at=ended_at,
            first_warden=self.first_warden,
            turned_up=list(self.turned_up) if self.turned_up is not None else None,
        )

    @classmethod
    def replay(cls, record: GameRecord) -> Game:
        """Rebuild a game from its record by applying every recorded action in order.
        Raises the engine's errors at the first action that is not legal. Turn-ups are
        tracked again when the record has them."""
        game = cls(record.players, seed_from_hex(record.seed), record.client_seeds,
                   events=record.turned_up is not None)
        for step in record.actions:
            game.apply(step.seat, step.action, step.at)
        return game
