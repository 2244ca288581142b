"""The whole state of one game, mutable and owned by exactly one engine caller.

Plain lists and ints, so that a state is small (a few KiB) and ``clone()`` costs
microseconds (bots copy states for search). Nothing here knows a rule: the role modules
change the state, ``engine`` says whose decision it is.

Holding: counts by plot kind (clay, flax, wool, honey, amber, stone pit) and how many of
each are worked (have an apprentice). Plots of one kind are interchangeable, so the order a
player took them in is not kept. High street: the buildings in the order built, and per
building kind the number of apprentices on it (-1 when not owned).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Final


class Phase(IntEnum):
    """What is being decided now."""

    PICK_ROLE = 0
    SURVEYOR = 1
    REEVE = 2
    MASON = 3
    MILLER = 4  #: the picker's extra good
    CHANDLER = 5
    BARGEMASTER = 6  #: loading turns
    KEEP_GOODS = 7  #: after shipping, what to keep
    GAME_OVER = 8

    @property
    def simultaneous(self) -> bool:
        """Every seat decides at once (each until it is done), not in turn order."""
        return self in SIMULTANEOUS_PHASES


#: The phases in which every seat decides at once: the Reeve's arranging, keeping goods.
SIMULTANEOUS_PHASES = frozenset({Phase.REEVE, Phase.KEEP_GOODS})


#: The fields of a ``PlayerState`` and of a ``GameState`` (their ``__slots__``). Compiled,
#: they are native classes, which keep no ``__slots__``: code that walks every field
#: (the tests' snapshots) reads these.
PLAYER_FIELDS: Final = ("coins", "goods", "lodge", "plots", "seals", "staff", "street", "worked")
GAME_FIELDS: Final = (
    "apprentice_barge",
    "barge_capacity",
    "barge_good",
    "barge_load",
    "boatyard_used",
    "cache_key",
    "cache_list",
    "copies",
    "decided",
    "discard",
    "drew_plot",
    "end_reasons",
    "events",
    "face_up",
    "hall",
    "kept",
    "key",
    "made",
    "made_kinds",
    "n",
    "phase",
    "pick",
    "picker",
    "picks_per_round",
    "players",
    "reshuffles",
    "role",
    "role_coins",
    "role_taken",
    "round",
    "seal_bonus_paid",
    "seals",
    "stack",
    "stone_pits",
    "stored",
    "supply_apprentices",
    "supply_goods",
    "turn",
    "turns_left",
    "version",
    "warden",
)


class PlayerState:
    """One seat's mat."""

    __slots__ = PLAYER_FIELDS

    coins: int
    seals: int
    goods: list[int]  #: by Good
    plots: list[int]  #: holding, by PlotKind
    worked: list[int]  #: staffed holding spaces, by PlotKind
    street: list[int]  #: Building indices in the order built
    staff: list[int]  #: by Building: -1 not owned, else apprentices on it
    lodge: int

    def key(self) -> tuple[object, ...]:
        """Everything on the mat, as a hashable value: equal keys, equal mats."""
        return (self.coins, self.seals, self.lodge, tuple(self.goods), tuple(self.plots),
                tuple(self.worked), tuple(self.street), tuple(self.staff))

    def clone(self) -> PlayerState:
        p = PlayerState()
        p.coins = self.coins
        p.seals = self.seals
        p.goods = self.goods[:]
        p.plots = self.plots[:]
        p.worked = self.worked[:]
        p.street = self.street[:]
        p.staff = self.staff[:]
        p.lodge = self.lodge
        return p


class GameState:
    """Everything about one game, hidden parts included. Views filter it per seat."""

    __slots__ = GAME_FIELDS

    n: int
    key: bytes  #: the derived draw key (secret until the end, like the seed)
    players: list[PlayerState]
    # roles and turn order
    round: int  #: 1-based
    warden: int
    pick: int  #: picks made this round
    picks_per_round: int
    role_coins: list[int]  #: by Role
    role_taken: list[int]  #: by Role: the seat that took it this round, or -1
    role: int  #: the role being carried out, or -1 while picking
    picker: int  #: the seat that picked it
    phase: Phase
    turn: int  #: whose turn in a phase taken in turn order
    turns_left: int  #: turns still to come in that phase, counting this one
    decided: list[bool]  #: in simultaneous phases: who has finished
    # the board
    supply_apprentices: int
    apprentice_barge: int
    seals: int
    supply_goods: list[int]
    stack: list[int]  #: face-down plots, index 0 is the top
    discard: list[int]
    face_up: list[int]
    reshuffles: int
    stone_pits: int
    copies: list[int]  #: building copies left, by Building
    hall: list[int]  #: goods in the market hall
    barge_capacity: tuple[int, ...]  #: fixed for the game: shared by clones
    barge_good: list[int]  #: -1 when empty
    barge_load: list[int]
    # phase details
    drew_plot: bool  #: Surveyor: this turn's player used their Farmstead
    made: tuple[int, ...]  #: Miller: goods the picker made, by Good (shared by clones)
    made_kinds: list[int]  #: Miller: how many kinds each seat made
    seal_bonus_paid: bool  #: Bargemaster: the picker's extra seal
    boatyard_used: list[bool]
    stored: list[list[int]]  #: keep-goods: kinds put in storage, per seat
    kept: list[int]  #: keep-goods: the one kept good per seat, or -1
    end_reasons: list[str]
    version: int  #: number of actions applied
    #: Where events go when someone listens (never cloned). The role modules build an
    #: event only ``if s.events is not None``: self-play and search build none.
    events: list[Any] | None
    cache_key: int  #: legal-action cache: version * 8 + seat, or -1
    cache_list: list[Any]

    def clone(self) -> GameState:
        """A deep copy: the clone and the original never share a mutable part."""
        s = GameState()
        s.n = self.n
        s.key = self.key
        s.players = [p.clone() for p in self.players]
        s.round = self.round
        s.warden = self.warden
        s.pick = self.pick
        s.picks_per_round = self.picks_per_round
        s.role_coins = self.role_coins[:]
        s.role_taken = self.role_taken[:]
        s.role = self.role
        s.picker = self.picker
        s.phase = self.phase
        s.turn = self.turn
        s.turns_left = self.turns_left
        s.decided = self.decided[:]
        s.supply_apprentices = self.supply_apprentices
        s.apprentice_barge = self.apprentice_barge
        s.seals = self.seals
        s.supply_goods = self.supply_goods[:]
        s.stack = self.stack[:]
        s.discard = self.discard[:]
        s.face_up = self.face_up[:]
        s.reshuffles = self.reshuffles
        s.stone_pits = self.stone_pits
        s.copies = self.copies[:]
        s.hall = self.hall[:]
        s.barge_capacity = self.barge_capacity
        s.barge_good = self.barge_good[:]
        s.barge_load = self.barge_load[:]
        s.drew_plot = self.drew_plot
        s.made = self.made
        s.made_kinds = self.made_kinds[:]
        s.seal_bonus_paid = self.seal_bonus_paid
        s.boatyard_used = self.boatyard_used[:]
        s.stored = [k[:] for k in self.stored]
        s.kept = self.kept[:]
        s.end_reasons = self.end_reasons[:]
        s.version = self.version
        s.events = None
        s.cache_key = -1
        s.cache_list = []
        return s
