"""``quaymoor-fair-3`` and ``-2``: the table's fingerprint, the seats' commitments, the key
that binds the seats (``fairness.deal_key``), record formats 5 and 4, and every tamper with
the seat binding that ``verify_record`` must refuse (issue 24); in format 5 the names are
not bound, so a deleted account's name can be replaced (issue 27). The doc's test vectors
are checked against the code here, byte for byte."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from quaymoor.bots.prng import SplitMix64
from quaymoor.rules import common, engine
from quaymoor.rules.data import GOODS
from quaymoor.rules.fairness import (
    ALGORITHM,
    ALGORITHM_2,
    Deal,
    DealError,
    DealtSeat,
    bot_names,
    check_deal,
    deal_key,
    derive_key,
    draw_below,
    seed_commitment,
    shuffled,
    table_fingerprint,
)
from quaymoor.rules.game import Game
from quaymoor.rules.record import GameRecord, removed_name
from quaymoor.rules.verify import verify_record
from quaymoor.tools.selfplay import play_random

DOC = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text()
SEED = bytes(range(32))
TABLE = "a1b2c3d4e5"
ALICE = seed_commitment(TABLE, 0, "alice")
BOB = seed_commitment(TABLE, 2, "bob")
#: The doc's deal: Alice revealed, a bot, Bob committed and withheld.
DEAL = Deal(TABLE, (DealtSeat("Alice", False, ALICE, "alice"), DealtSeat("Ada (bot)", True),
                    DealtSeat("Bob", False, BOB, None)))


def _field(text: str) -> bytes:
    raw = text.encode()
    return len(raw).to_bytes(2, "big") + raw


#: Each dealt algorithm's section of the doc's test vectors, up to the next one.
_SECTIONS = {ALGORITHM: ("### `quaymoor-fair-3`\n\nFor the table", "### The plot flow\n"),
             ALGORITHM_2: ("### `quaymoor-fair-2`\n\nFor the table",
                           "### `quaymoor-fair-1`\n\nWith no client seeds")}
BOTH = pytest.mark.parametrize("algorithm", [ALGORITHM, ALGORITHM_2])


def _vectors(algorithm: str) -> str:
    start, end = _SECTIONS[algorithm]
    return DOC[DOC.index(start):DOC.index(end)]


def _doc_hex(label: str, algorithm: str = ALGORITHM_2) -> str:
    """The hex the doc gives under ``label`` (wrapped over several indented lines)."""
    text = _vectors(algorithm)
    after = text[text.index(label) + len(label):]
    digits = re.match(r"\s*\n((?:\s+[0-9a-f]+\n)+)", after)
    assert digits is not None, f"no hex under {label!r}"
    return "".join(digits.group(1).split())


def _doc_value(label: str, algorithm: str = ALGORITHM_2) -> str:
    found = re.search(rf"^\s*{re.escape(label)}\s+(\S+)$", _vectors(algorithm), re.MULTILINE)
    assert found is not None, f"no {label!r} line"
    return found.group(1).strip()


# ------------------------------------------------------------------ the doc's vectors


def _plot_flow() -> dict[str, str]:
    """The doc's plot-flow vectors, by label: ``label  value`` on one line, or a label alone
    with its value on the more indented lines below (joined with spaces)."""
    text = DOC[DOC.index("### The plot flow\n"):DOC.index("### `quaymoor-fair-2`\n\nFor the table")]
    out: dict[str, str] = {}
    label = None
    for line in text.splitlines():
        if line.startswith("     ") and label is not None:
            out[label] = f"{out[label]} {line.strip()}".strip()
        elif line.startswith("    "):
            parts = re.split(r" {2,}", line.strip(), maxsplit=1)
            assert parts[0] not in out, f"{parts[0]!r} twice in the plot flow"
            label = parts[0] if len(parts) == 1 else None
            out[parts[0]] = parts[1] if len(parts) == 2 else ""
    return out


def _goods(text: str) -> list[str]:
    return [g.strip() for g in text.split(",")]


def test_the_plot_flow_is_the_docs() -> None:
    """The game's setup and first reshuffle for the doc's fair-3 deal at 3 players, from the
    rules engine itself: who gets the starting plots, the turn-up, the stack, a reshuffle."""
    flow = _plot_flow()
    names = [g.name.lower() for g in GOODS]
    s = engine.new_game(3, deal_key(SEED, DEAL))
    assert flow["first Warden"] == str(s.warden)
    dealt = [f"seat {seat} {names[g]}" for seat in
             [(s.warden + i) % 3 for i in range(3)] for g in range(len(names))
             if s.players[seat].plots[g]]
    assert _goods(flow["starting plots"]) == dealt
    assert _goods(flow["face up at the setup"]) == [names[g] for g in s.face_up]
    label = "stack after the setup (43 plots, top first)"
    assert _goods(flow[label]) == [names[g] for g in s.stack] and len(s.stack) == 43
    s.stack, s.discard, s.reshuffles = [], [names.index(g) for g in _goods(flow["discard pile"])], 0
    drawn = common.draw_plot(s)
    assert s.reshuffles == 1 and not s.discard
    assert _goods(flow["new stack (top first)"]) == [names[g] for g in [drawn, *s.stack]]
    assert flow["plot drawn"] == names[drawn]


@BOTH
def test_the_fingerprint_is_the_docs_bytes_and_vector(algorithm: str) -> None:
    message = algorithm.encode() + b"\x00" + _field(TABLE) + bytes([3]) + SEED
    assert _doc_hex("fingerprint message (hex)", algorithm) == message.hex()
    assert table_fingerprint(SEED, TABLE, 3, algorithm) == hashlib.sha256(message).hexdigest()
    assert _doc_value("fingerprint", algorithm) == table_fingerprint(SEED, TABLE, 3, algorithm)
    assert table_fingerprint(SEED, TABLE, 3) == table_fingerprint(SEED, TABLE, 3, ALGORITHM)
    with pytest.raises(DealError, match="no table is dealt with algorithm 'quaymoor-fair-1'"):
        table_fingerprint(SEED, TABLE, 3, "quaymoor-fair-1")


def test_the_commitments_are_the_docs_bytes_and_vectors() -> None:
    message = b"quaymoor-commit-2\x00" + _field(TABLE) + bytes([0]) + _field("alice")
    assert _doc_hex("commitment message, seat 0 (hex)") == message.hex()
    assert ALICE == hashlib.sha256(message).hexdigest() == _doc_value("commitment, seat 0")
    assert _doc_value("commitment, seat 2") == BOB


@BOTH
def test_the_key_is_the_docs_message_and_vectors(algorithm: str) -> None:
    named = algorithm == ALGORITHM_2  # fair-2's key binds the names; fair-3's does not

    def name(text: str) -> bytes:
        return _field(text) if named else b""

    prefix = b"quaymoor-key-2\x00" if named else b"quaymoor-key-3\x00"
    message = (prefix + _field(TABLE) + bytes([3])
               + b"\x00" + name("Alice") + b"\x01" + bytes.fromhex(ALICE)
               + b"\x01" + _field("alice")
               + b"\x01" + name("Ada (bot)") + b"\x00" + b"\x00"
               + b"\x00" + name("Bob") + b"\x01" + bytes.fromhex(BOB) + b"\x00")
    assert _doc_hex("key message (hex)", algorithm) == message.hex()
    key = deal_key(SEED, DEAL, algorithm)
    assert key == hmac.digest(SEED, message, "sha256")
    text = _vectors(algorithm)
    keys = re.findall(r"^\s+key\s+([0-9a-f]{64})$", text, re.MULTILINE)
    wardens = re.findall(r"^\s+first Warden\s+(\d)$", text, re.MULTILINE)
    revealed = DEAL._replace(seats=(*DEAL.seats[:2], DEAL.seats[2]._replace(client_seed="bob")))
    bots = Deal(TABLE, (DealtSeat("Seat 1", True), DealtSeat("Seat 2", True)))
    assert keys == [key.hex(), deal_key(SEED, revealed, algorithm).hex(),
                    deal_key(SEED, bots, algorithm).hex()]
    assert wardens == [str(draw_below(key, "first-warden", 3)),
                       str(draw_below(deal_key(SEED, revealed, algorithm), "first-warden", 3))]
    assert _doc_value('stream "plots", first 8 bytes', algorithm) == hmac.digest(
        key, b"plots\x00" + bytes(8), "sha256")[:8].hex()
    shown = re.search(r'shuffled\(key, "plots", \[0, 1, 2, 3, 4, 5, 6, 7, 8, 9\]\)\n\s+(\[.*\])',
                      text)
    assert shown is not None
    assert json.loads(shown.group(1)) == shuffled(key, "plots", list(range(10)))


@BOTH
def test_every_part_of_the_deal_changes_the_key(algorithm: str) -> None:
    """Swapping seats, a seat's bot flag, a commitment, a seed or the table gives another
    key: a record cannot move them without changing its draws. A seat's name changes the
    key of ``quaymoor-fair-2`` only."""
    base = deal_key(SEED, DEAL, algorithm)
    alice, bot, bob = DEAL.seats
    renamed = [
        Deal(TABLE, (alice._replace(name="Alicia"), bot, bob)),
        Deal(TABLE, (alice, bot._replace(name="Bede (bot)"), bob)),
        Deal(TABLE, (alice._replace(name=removed_name(0)), bot, bob)),
    ]
    names_keys = {deal_key(SEED, d, algorithm) for d in renamed}
    if algorithm == ALGORITHM:
        assert names_keys == {base}
    else:
        assert base not in names_keys and len(names_keys) == len(renamed)
    variants = [
        Deal("a1b2c3d4e6", (alice._replace(commitment=seed_commitment("a1b2c3d4e6", 0, "alice")),
                            bot, bob._replace(commitment=seed_commitment("a1b2c3d4e6", 2, "bob")))),
        Deal(TABLE, (alice, bot, bob._replace(commitment=None))),
        Deal(TABLE, (alice, bot, bob._replace(bot=True, commitment=None))),
        Deal(TABLE, (alice._replace(client_seed=None), bot, bob)),
        Deal(TABLE, (alice, bot, bob, DealtSeat("Cy", False))),
    ]
    keys = {deal_key(SEED, d, algorithm) for d in variants}
    assert base not in keys and len(keys) == len(variants)
    assert base != derive_key(SEED, ["alice"])  # not fair-1's key for the same seeds
    assert deal_key(SEED, DEAL, ALGORITHM) != deal_key(SEED, DEAL, ALGORITHM_2)


@pytest.mark.parametrize(("seats", "says"), [
    ((DealtSeat("Ada (bot)", True, ALICE, None),), "is a bot, and bots hold no seed"),
    ((DealtSeat("Ada (bot)", True, None, "alice"),), "is a bot, and bots hold no seed"),
    ((DealtSeat("Alice", False, None, "alice"),), "never committed to"),
    ((DealtSeat("Alice", False, BOB, "alice"),), "does not match its commitment"),
    ((DealtSeat("Alice", False, ALICE.upper(), None),), "64 lowercase hex"),
    ((DealtSeat("Alice", False, ALICE, "al\x00ice"),), "NUL"),
])
def test_a_deal_that_does_not_hold_is_refused(seats: tuple[DealtSeat, ...], says: str) -> None:
    with pytest.raises(DealError, match=says):
        check_deal(Deal(TABLE, seats))
    with pytest.raises(DealError):
        deal_key(SEED, Deal(TABLE, seats))


def test_a_commitment_binds_the_table_and_the_seat() -> None:
    assert seed_commitment(TABLE, 0, "alice") != seed_commitment(TABLE, 1, "alice")
    assert seed_commitment(TABLE, 0, "alice") != seed_commitment("a1b2c3d4e6", 0, "alice")
    with pytest.raises(DealError):
        seed_commitment(TABLE, 0, "\ud800")


# ------------------------------------------------------------ format-5 and -4 records


@cache
def _record(algorithm: str = ALGORITHM) -> GameRecord:
    """A finished 3-player game dealt to the doc's seats (Bob withheld his seed)."""
    game = Game(3, SEED, deal=DEAL, algorithm=algorithm)
    play_random(game, SplitMix64(7))
    return game.record(end_reason="finished")


def _edited(edit: Any, algorithm: str = ALGORITHM) -> dict[str, Any]:
    data = json.loads(_record(algorithm).to_json())
    edit(data)
    return dict(data)


def _refusal(edit: Any, algorithm: str = ALGORITHM) -> str:
    """Why the record with ``edit`` applied is refused: as it is read (a record that does
    not state its whole binding), or by ``verify_record``."""
    data = _edited(edit, algorithm)
    try:
        record = GameRecord.from_json(json.dumps(data))
    except ValueError as exc:
        return str(exc)
    verdict = verify_record(record)
    assert not verdict.ok, "a tampered record verified"
    return verdict.message


@pytest.mark.parametrize(("algorithm", "format_"), [(ALGORITHM, 5), (ALGORITHM_2, 4)])
def test_a_dealt_record_is_format_5_and_verifies(algorithm: str, format_: int) -> None:
    """A table's game is format 5 (``quaymoor-fair-3``); format 4 (``-2``) still verifies."""
    rec = _record(algorithm)
    assert (rec.format, rec.algorithm, rec.game) == (format_, algorithm, TABLE)
    assert rec.fingerprint == table_fingerprint(SEED, TABLE, 3, algorithm)
    assert [s.commitment for s in rec.seats] == [ALICE, None, BOB]
    assert rec.seat_seeds == ["alice", None, None] and rec.client_seeds == ["alice"]
    verdict = verify_record(rec)
    assert verdict.ok and verdict.message.startswith("ok: fingerprint matches"), verdict.message
    assert verify_record(GameRecord.from_json(rec.to_json())).ok


def _swap_seats(d: dict[str, Any]) -> None:
    d["seats"][0], d["seats"][2] = d["seats"][2], d["seats"][0]
    d["seat_seeds"][0], d["seat_seeds"][2] = d["seat_seeds"][2], d["seat_seeds"][0]


def _swap_names(d: dict[str, Any]) -> None:
    d["seats"][0]["name"], d["seats"][2]["name"] = d["seats"][2]["name"], d["seats"][0]["name"]


def _seed_to_bot(d: dict[str, Any]) -> None:
    d["seats"][1]["commitment"], d["seats"][0]["commitment"] = ALICE, None
    d["seat_seeds"] = [None, "alice", None]


def _seed_to_withheld(d: dict[str, Any]) -> None:
    d["seat_seeds"] = [None, None, "alice"]


def _bot_to_person(d: dict[str, Any]) -> None:
    d["seats"][1]["bot"] = False


def _downgrade(d: dict[str, Any]) -> None:
    d["format"], d["algorithm"] = 3, "quaymoor-fair-1"
    d["fingerprint"] = hashlib.sha256(SEED).hexdigest()
    for seat in d["seats"]:
        del seat["commitment"]


def _downgrade_to_2(d: dict[str, Any]) -> None:
    """The issue's tamper: seat_seeds deleted and the format set to 2 (and, to try harder,
    the algorithm and fingerprint made fair-1's)."""
    _downgrade(d)
    d["format"] = 2
    del d["seat_seeds"]


@pytest.mark.parametrize(("edit", "says"), [
    (lambda d: (d.pop("seat_seeds"), d.update(format=2)), "algorithm: a format-2 record"),
    (lambda d: (d["seats"][1].pop("commitment"), d.update(format=3)),
     "algorithm: a format-3 record"),
    (_downgrade_to_2, "first Warden|plots turned up"),
    (lambda d: d.update(seat_seeds=None), "the binding was stripped"),
    (lambda d: d.pop("seat_seeds"), "leaves out seat_seeds: the binding was stripped"),
    (lambda d: d.pop("game"), "leaves out game: the binding was stripped"),
    (lambda d: d["seats"][1].pop("commitment"), "leaves out seats.1..commitment"),
    (lambda d: d.update(game=None), "names none"),
    (lambda d: d.update(game="a1b2c3d4e6"), "fingerprint mismatch"),
    (lambda d: d["seats"][2].update(commitment=None), "first Warden|plots turned up"),
    (lambda d: d["seats"][0].update(commitment=None), "never committed to"),
    (lambda d: d["seats"][2].update(commitment=ALICE), "first Warden|plots turned up"),
    (lambda d: d.update(seat_seeds=["alice", None, "bob"], client_seeds=["alice", "bob"]),
     "first Warden|plots turned up"),
    (lambda d: d.update(seat_seeds=[None, None, None], client_seeds=[]),
     "first Warden|plots turned up"),
    (lambda d: d.update(client_seeds=[]), "client seeds: the seats gave"),
    (_swap_seats, "first Warden|plots turned up|does not match"),
    (_seed_to_bot, "is a bot, and bots hold no seed"),
    (_seed_to_withheld, "does not match its commitment"),
    (_bot_to_person, "first Warden|plots turned up"),
    (lambda d: d.update(format=3), "algorithm: a format-3 record is played with "
                                   "quaymoor-fair-1"),
    (lambda d: d.update(algorithm="quaymoor-fair-1"), "algorithm: a format-5 record"),
    (lambda d: d.update(algorithm=ALGORITHM_2), "algorithm: a format-5 record is played "
                                                "with quaymoor-fair-3"),
    (lambda d: d.update(format=4), "algorithm: a format-4 record is played with "
                                   "quaymoor-fair-2"),
    (lambda d: d.update(format=4, algorithm=ALGORITHM_2), "fingerprint mismatch"),
    (lambda d: d["seats"][1].update(removed=True, name=removed_name(1)),
     "seat 1 is a bot, and a bot's name is never removed"),
    (lambda d: d["seats"][0].update(removed=True), "seat 0's name was removed, so it reads "
                                                   "'Seat 1 \\(name removed\\)', not 'Alice'"),
    (lambda d: d["seats"][0].update(removed="yes"), "removed"),
    (_downgrade, "first Warden|plots turned up"),
    (lambda d: d["seats"].pop(), "2 seats listed for 3 players"),
])
def test_every_tamper_with_the_binding_is_refused(edit: Any, says: str) -> None:
    message = _refusal(edit)
    assert re.search(says, message), message


@pytest.mark.parametrize(("edit", "says"), [
    (lambda d: d["seats"][1].update(name="Zed (bot)"), "plots turned up|first Warden"),
    (_swap_names, "first Warden|plots turned up"),
    (lambda d: d["seats"][0].update(name=removed_name(0)), "first Warden|plots turned up"),
    (lambda d: d["seats"][0].update(name=removed_name(0), removed=True),
     "seat 0 says its name was removed, which only a format-5 record can"),
    (lambda d: d.update(format=5), "algorithm: a format-5 record is played with "
                                   "quaymoor-fair-3"),
])
def test_a_format_4_record_binds_its_names(edit: Any, says: str) -> None:
    message = _refusal(edit, ALGORITHM_2)
    assert re.search(says, message), message


def test_a_format_5_record_with_a_name_removed_still_verifies() -> None:
    """What an account's deletion does to a format-5 record: the seat renamed
    ``removed_name`` and marked ``removed``. The names are not in the key, so the record
    verifies and replays as before; a name merely changed (a seat renamed or swapped,
    which only the players' browsers can catch: docs/fairness.md) does too."""
    for edit in (lambda d: d["seats"][0].update(name=removed_name(0), removed=True),
                 lambda d: d["seats"][2].update(name=removed_name(2), removed=True),
                 _swap_names):
        record = GameRecord.from_json(json.dumps(_edited(edit)))
        verdict = verify_record(record)
        assert verdict.ok and verdict.message == verify_record(_record()).message, verdict
    removed = _edited(lambda d: d["seats"][0].update(name=removed_name(0), removed=True))
    assert removed["seats"][0] == {"name": "Seat 1 (name removed)", "bot": False,
                                   "commitment": ALICE, "hints": 0, "removed": True}
    assert "removed" not in json.loads(_record().to_json())["seats"][2]


def test_a_record_that_names_a_key_twice_is_refused() -> None:
    """Parsers differ on which of two values counts: a record may not leave it to them."""
    text = _record().to_json().replace('"format": 5,', '"format": 5, "format": 3,', 1)
    with pytest.raises(ValueError, match="the key 'format' is given twice"):
        GameRecord.from_json(text)


def test_a_downgrade_fails_on_its_draws_even_with_a_matching_fingerprint() -> None:
    """Written down as format 3 (quaymoor-fair-1, the fingerprint recomputed to match),
    the game's own draws no longer come out of the key: refused at the first Warden or
    the setup's turn-up, for every one of 20 games."""
    for i in range(20):
        seed = hashlib.sha256(bytes([i])).digest()
        game = Game(3, seed, deal=DEAL)
        play_random(game, SplitMix64(i))
        data = json.loads(game.record().to_json())
        data["seed"] = seed.hex()
        data["format"], data["algorithm"] = 3, "quaymoor-fair-1"
        data["fingerprint"] = hashlib.sha256(seed).hexdigest()
        for seat in data["seats"]:
            seat["commitment"] = None
        verdict = verify_record(GameRecord.from_json(json.dumps(data)))
        assert not verdict.ok
        assert re.search("first Warden|plots turned up|action", verdict.message), verdict.message


def test_a_server_that_chose_its_bots_names_is_caught() -> None:
    """Format 4, whose key binds the names: dealt with a bot's name the server chose (so
    its key, draws and replay all hold), the record is still refused: a bot's name is
    fixed by the people's names."""
    chosen = DEAL._replace(seats=(DEAL.seats[0], DealtSeat("Zed (bot)", True), DEAL.seats[2]))
    game = Game(3, SEED, deal=chosen, algorithm=ALGORITHM_2)
    play_random(game, SplitMix64(7))
    verdict = verify_record(game.record())
    assert not verdict.ok
    assert verdict.message == ("seats: seat 1 is a bot named 'Zed (bot)', but a bot there is "
                               "named 'Ada (bot)' (bots take the first free names of the list, "
                               "in seat order: docs/fairness.md)")


def test_bots_take_the_first_names_no_person_has() -> None:
    assert bot_names([None, None]) == ["Ada (bot)", "Bede (bot)"]
    assert bot_names(["Bede", None, "Ada", None, None]) == [
        None, "Cuthbert (bot)", None, "Dunstan (bot)", "Edith (bot)"]
    # a person who calls themselves "Ada (bot)" takes Ada: no two seats named alike
    assert bot_names(["Ada (bot)", None]) == [None, "Bede (bot)"]
