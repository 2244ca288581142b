"""What a decision is about, in plain words (``describe``, the "?" of the table).

To the seat whose decision it is: what it is choosing now and what each kind of choice
does, with its own numbers, in the second person. To anyone else (another seat, a
spectator): whose decision it is and what they are choosing, in the third person. It never
reveals hidden information: no other seat's seals, nothing of the stack but its size, no
seat's keep-goods choice before it is made. Every number comes from ``data`` or from the
state. Imported through ``explain.py``, the rules' words in one entry.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from quaymoor.rules import actions as a
from quaymoor.rules import bargemaster, chandler, mason, miller, reeve, surveyor
from quaymoor.rules.common import (
    deciding,
    empty_building_slots,
    holding_free,
    price,
    staffed,
    street_free,
)
from quaymoor.rules.data import (
    BARGEMASTER_PICKER_SEALS,
    BUILDINGS,
    CELLAR_KINDS,
    GOODS,
    GRANARY_KINDS,
    HIGH_STREET_SPACES,
    HOLDING_SPACES,
    LOCK_HOUSE_SEALS,
    MARKET_CROSS_BONUS,
    MARKET_HALL_SPACES,
    MARKET_PRICE,
    MASON_PICKER_DISCOUNT,
    PICKER_SALE_BONUS,
    ROLE_TEXT,
    ROLES,
    STALL_BONUS,
    UNPICKED_ROLE_COINS,
    Building,
    PlotKind,
    Role,
)
from quaymoor.rules.scoring import scores, winners
from quaymoor.rules.state import GameState, Phase
from quaymoor.rules.words import counted, counted_goods, good_name, listed


@attrs.frozen
class Told:
    """A decision in plain words: a title and its paragraphs."""

    title: str
    text: tuple[str, ...]


def describe(s: GameState, seat: int | None, names: Sequence[str]) -> Told:
    """What the decision now is, for ``seat`` (None: a spectator): in the second person
    for a seat whose decision it is, else whose decision it is and what they are choosing.
    ``names`` are the seats' names, in seat order."""
    if s.phase is Phase.GAME_OVER:
        return _over(s, names)
    waiting = deciding(s)
    if seat is not None and seat in waiting:
        return _YOURS[s.phase](s, seat)
    return _theirs(s, seat, waiting, names)


def _role(r: Role) -> str:
    return r.name.title()


def _roles_left(s: GameState) -> list[str]:
    return [f"{_role(r)} ({counted(s.role_coins[r], 'coin')}): {ROLE_TEXT[r]}"
            for r in ROLES if s.role_taken[r] < 0]


# ------------------------------------------------------------ to the seat deciding


def _pick_yours(s: GameState, seat: int) -> Told:
    return Told("Pick a role", (
        "Pick one of the role cards still on the table. You take the coins on it, and the "
        "role is carried out at once: everyone acts in turn, starting with you, and you get "
        "the picker's bonus.",
        *_roles_left(s),
        f"This is pick {s.pick + 1} of {s.picks_per_round} this round. At the round's end "
        f"each card nobody picked gets {counted(UNPICKED_ROLE_COINS, 'coin')} more.",
    ))


def _stone_pit_text() -> str:
    return ("a staffed stone pit takes 1 coin off the price of each building you build, up "
            "to the building's column (its points)")


def _surveyor_yours(s: GameState, seat: int) -> Told:
    p = s.players[seat]
    options = surveyor.legal(s, seat)
    face_up = listed([good_name(g) for g in s.face_up])
    text = [f"You may take one face-up plot onto an empty space of your holding: "
            f"{holding_free(p)} of {HOLDING_SPACES} spaces are free. Face up: {face_up}. A "
            "plot works once an apprentice stands on it (Reeve)."]
    if a.TAKE_STONE_PIT in options:
        why = ("as the Surveyor's picker" if seat == s.picker
               else "with your staffed Stonecutter's Hut")
        text.append(f"You may take a stone pit instead, {why} ({s.stone_pits} left): "
                    f"{_stone_pit_text()}.")
    if a.DRAW_PLOT in options:
        text.append(f"Your staffed Farmstead lets you first draw the top plot of the "
                    f"face-down stack ({len(s.stack)} left) and place it; once drawn it "
                    "cannot be refused, and you may then still take a face-up plot.")
    if staffed(p, Building.ALMSHOUSE):
        text.append("Your staffed Almshouse puts an apprentice from the supply on the plot "
                    "or stone pit you take.")
    text.append("Pass takes nothing.")
    return Told("Take a plot (Surveyor)", tuple(text))


def _reeve_yours(s: GameState, seat: int) -> Told:
    p = s.players[seat]
    on_plots = sum(p.plots) - sum(p.worked)
    on_buildings = empty_building_slots(p)
    text = [
        f"Put your apprentices on the slots of your plots, stone pits and buildings. "
        f"{counted(p.lodge, 'apprentice waits', 'apprentices wait')} in your lodge; "
        f"{counted(on_plots + on_buildings, 'slot is', 'slots are')} empty ({on_plots} on plots "
        f"and stone pits, {on_buildings} on buildings).",
        "An apprentice may stay in the lodge only when no slot is empty. Only what has an "
        "apprentice works: a plot makes its crop for the Miller, a workshop slot turns one "
        f"crop into a good, a civic building gives its effect, and {_stone_pit_text()}.",
    ]
    if reeve.takebacks(s, seat):
        text.append("You may take an apprentice back to your lodge to put it elsewhere "
                    "before you press Done.")
    text.append("Done ends your arranging for this Reeve; the others arrange at the same "
                "time.")
    return Told("Arrange your apprentices (Reeve)", tuple(text))


def _mason_yours(s: GameState, seat: int) -> Told:
    p = s.players[seat]
    pits = p.worked[PlotKind.STONE_PIT]
    free = street_free(p)
    text = [f"You may build one building you do not own yet on free space of your high "
            f"street ({free} of {HIGH_STREET_SPACES} free; a large building needs 2). You "
            f"have {counted(p.coins, 'coin')}."]
    if pits:
        discount = (f"Your {counted(pits, 'staffed stone pit')} take {counted(pits, 'coin')} off "
                    "each price, but never more than the building's column (its points)")
    else:
        discount = (f"You have no staffed stone pit to lower a price ({_stone_pit_text()})")
    if seat == s.picker:
        discount += (f"; as the Mason's picker you pay {counted(MASON_PICKER_DISCOUNT, 'coin')} "
                     "less besides")
    text.append(discount + ". No price goes below 0.")
    can = [f"{BUILDINGS[x.building].name} for {price(s, seat, x.building)}"
           for x in mason.legal(s, seat) if isinstance(x, a.Build)]
    text.append(f"You can build now: {listed(can)}." if can
                else "You cannot afford any building left now.")
    if staffed(p, Building.ACADEMY):
        text.append("Your staffed Academy puts an apprentice from the supply on the new "
                    "building.")
    text.append(f"Filling the last of your {HIGH_STREET_SPACES} high-street spaces ends the "
                "game at the end of this round. Pass builds nothing and keeps your coins.")
    return Told("Build (Mason)", tuple(text))


def _miller_yours(s: GameState, seat: int) -> Told:
    options = [f"{good_name(x.good)} ({s.supply_goods[x.good]} left in the supply)"
               for x in miller.legal(s, seat) if isinstance(x, a.TakeExtraGood)]
    return Told("Take your extra good (Miller)", (
        f"As the Miller's picker you may take 1 more good of a kind you made this phase. You "
        f"made {counted_goods(s.made)}.",
        f"You may take: {listed(options)}.",
        "Pass takes none.",
    ))


def _chandler_yours(s: GameState, seat: int) -> Told:
    p = s.players[seat]
    hall = listed([good_name(g) for g in s.hall], "nothing")
    once = ("your staffed Counting House lets you sell a kind it already holds"
            if staffed(p, Building.COUNTING_HOUSE) else "it takes each kind only once")
    text = [f"You may sell 1 good to the market hall. It holds {len(s.hall)} of "
            f"{MARKET_HALL_SPACES} ({hall}); {once}."]
    base = listed([f"{good_name(g)} {MARKET_PRICE[g]}" for g in GOODS])
    bonuses = []
    if seat == s.picker:
        bonuses.append(f"{PICKER_SALE_BONUS} as the Chandler's picker")
    if staffed(p, Building.STALL):
        bonuses.append(f"{STALL_BONUS} for your Stall")
    if staffed(p, Building.MARKET_CROSS):
        bonuses.append(f"{MARKET_CROSS_BONUS} for your Market Cross")
    more = f", plus {listed(bonuses)}" if bonuses else ""
    text.append(f"The hall pays {base}{more}.")
    sales = [f"{good_name(x.good)} for {counted(chandler.sale_price(s, seat, x.good), 'coin')}"
             for x in chandler.legal(s, seat) if isinstance(x, a.Sell)]
    text.append(f"You can sell: {listed(sales)}.")
    text.append("Pass sells nothing and keeps your goods.")
    return Told("Sell a good (Chandler)", tuple(text))


def _bargemaster_yours(s: GameState, seat: int) -> Told:
    p = s.players[seat]
    bonus = 0
    extras = []
    if seat == s.picker and not s.seal_bonus_paid:
        bonus += BARGEMASTER_PICKER_SEALS
        extras.append(f"{counted(BARGEMASTER_PICKER_SEALS, 'seal')} once as the picker")
    if staffed(p, Building.LOCK_HOUSE):
        bonus += LOCK_HOUSE_SEALS
        extras.append(f"{counted(LOCK_HOUSE_SEALS, 'seal')} for your Lock House")
    options = []
    for x in bargemaster.legal(s, seat):
        if isinstance(x, a.Load):
            cap = s.barge_capacity[x.barge]
            count = min(p.goods[x.good], cap - s.barge_load[x.barge])
            options.append(f"{count} {good_name(x.good)} onto the barge that holds {cap} "
                           f"({counted(count + bonus, 'seal')})")
        elif isinstance(x, a.ShipOnBoatyard):
            count = p.goods[x.good]
            options.append(f"all {count} {good_name(x.good)} on your own boat, the Boatyard "
                           f"({counted(count + bonus, 'seal')})")
    seals = "1 seal per good loaded" + (f", plus {listed(extras)}" if extras else "")
    return Told("Load a barge (Bargemaster)", (
        "You must load: choose a kind of good and a barge, and you load as many goods of "
        "that kind as the barge takes. A barge carries one kind and no two barges the same "
        "kind; starting an empty barge, you must use one that takes the most of that kind.",
        f"You earn {seals}. You can load: {listed(options)}.",
        "When nobody can load, you keep 1 good plus the kinds your staffed Cellar or "
        "Granary store; the rest go back to the supply.",
    ))


def _keep_yours(s: GameState, seat: int) -> Told:
    p = s.players[seat]
    room = bargemaster.storage(p)
    shops = [BUILDINGS[b].name for b in bargemaster.storage_buildings(p)]
    may = "You may keep 1 good of one kind"
    if room:
        may += f" plus every good of {counted(room, 'kind')} in your {listed(shops)}"
    text = [may + "; the rest go back to the supply. You hold " + counted_goods(p.goods) + "."]
    could = []
    if not staffed(p, Building.CELLAR):
        could.append(f"a staffed Cellar would keep every good of {counted(CELLAR_KINDS, 'kind')}")
    if not staffed(p, Building.GRANARY):
        could.append(f"a staffed Granary of {counted(GRANARY_KINDS, 'kind')}")
    if could:
        sentence = listed(could)
        text.append(sentence[0].upper() + sentence[1:] + ".")
    stored = [good_name(g) for g in s.stored[seat]]
    kept = s.kept[seat]
    so_far = []
    if stored:
        so_far.append(f"you store all your {listed(stored)}")
    if kept >= 0:
        so_far.append(f"you keep 1 {good_name(kept)}")
    if so_far:
        text.append("So far " + listed(so_far) + ".")
    text.append(f"Done now discards {counted_goods(bargemaster.discards(s, seat))}.")
    return Told("Choose the goods to keep (Bargemaster)", tuple(text))


_YOURS = {
    Phase.PICK_ROLE: _pick_yours,
    Phase.SURVEYOR: _surveyor_yours,
    Phase.REEVE: _reeve_yours,
    Phase.MASON: _mason_yours,
    Phase.MILLER: _miller_yours,
    Phase.CHANDLER: _chandler_yours,
    Phase.BARGEMASTER: _bargemaster_yours,
    Phase.KEEP_GOODS: _keep_yours,
}


# ------------------------------------------------------------ to everyone else


def _theirs(s: GameState, seat: int | None, waiting: Sequence[int],
            names: Sequence[str]) -> Told:
    who = listed([names[w] for w in waiting])
    phase = s.phase
    if phase.simultaneous:
        if phase is Phase.REEVE:
            title = "Apprentices are being arranged (Reeve)"
            doing = ("Each puts their apprentices on the slots of their plots, stone pits and "
                     "buildings, then presses Done.")
        else:
            title = "Goods are being kept (Bargemaster)"
            doing = ("Each keeps 1 good plus every good of the kinds their staffed Cellar or "
                     "Granary store; the rest go back to the supply.")
        text = [f"Still choosing: {who}. {doing}"]
        if seat is not None:
            text.append("You are done; the game goes on when they are.")
        return Told(title, tuple(text))
    one = waiting[0]
    p = s.players[one]
    name = names[one]
    if phase is Phase.PICK_ROLE:
        return Told(f"{name} is picking a role", (
            f"{name} picks one of the role cards left and takes its coins; the role is then "
            f"carried out for everyone, starting with {name}, who gets its bonus.",
            *_roles_left(s),
        ))
    role = _role(Role(s.role))
    by = names[s.picker]
    text = [f"{by} picked the {role}: {ROLE_TEXT[Role(s.role)]}"]
    if phase is Phase.SURVEYOR:
        title = f"{name} may take a plot (Surveyor)"
        face_up = listed([good_name(g) for g in s.face_up])
        text.append(f"{name} may take one of the face-up plots ({face_up}) onto an empty "
                    f"holding space ({holding_free(p)} free), or pass.")
        if a.TAKE_STONE_PIT in surveyor.legal(s, one):
            text.append(f"{name} may take a stone pit instead ({s.stone_pits} left).")
    elif phase is Phase.MASON:
        title = f"{name} may build (Mason)"
        text.append(f"{name} has {counted(p.coins, 'coin')} and {street_free(p)} free high-street "
                    f"spaces, and may build one building or pass; "
                    f"{counted(p.worked[PlotKind.STONE_PIT], 'staffed stone pit')} lower their "
                    "prices.")
    elif phase is Phase.MILLER:
        title = f"{name} may take an extra good (Miller)"
        text.append(f"As the picker, {name} may take 1 more good of a kind they made this "
                    f"phase ({counted_goods(s.made)}), or pass.")
    elif phase is Phase.CHANDLER:
        title = f"{name} may sell a good (Chandler)"
        text.append(f"{name} may sell 1 good to the market hall ({len(s.hall)} of "
                    f"{MARKET_HALL_SPACES} taken), or pass.")
    else:
        title = f"{name} must load a barge (Bargemaster)"
        text.append(f"{name} must load goods of one kind onto a barge (or their Boatyard's "
                    "boat); whoever can load must, round and round until nobody can.")
    if seat is not None:
        text.append("You act in turn when it comes to you.")
    return Told(title, tuple(text))


def _over(s: GameState, names: Sequence[str]) -> Told:
    final = scores(s)
    best = [names[w] for w in winners(final)]
    return Told("The game is over", (
        f"{'Winner' if len(best) == 1 else 'Winners'}: {listed(best)}.",
        "Scores: " + listed([f"{names[x.seat]} {x.total}" for x in final]) + ".",
    ))
